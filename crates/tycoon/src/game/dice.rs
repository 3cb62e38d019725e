//! The game's dice, kept inside the game so a saved game resumes exactly.
//!
//! Terms:
//! - **seeded**: rolls from a seed; the state saved is the seed and how many
//!   rolls were used, and resuming draws that many again.
//! - **scripted**: a given list of rolls, used in order; it can run out.

use serde::{Deserialize, Serialize};
use tabletop::{DiceError, DiceSource, ScriptedDice, SeededDice};

/// The most rolls a saved seeded game may claim to have used.
pub const MAX_SAVED_ROLLS: u64 = 50_000_000;

/// A game's dice.
#[derive(Clone, Debug)]
pub enum Dice {
    /// Rolls from a seed.
    Seeded {
        /// The seed.
        seed: u64,
        /// Rolls used so far.
        used: u64,
        /// The generator, `used` rolls in.
        dice: SeededDice,
    },
    /// Rolls from a list.
    Scripted(ScriptedDice),
}

impl Dice {
    /// Dice from `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self::Seeded {
            seed,
            used: 0,
            dice: SeededDice::new(seed),
        }
    }

    /// Dice giving `rolls` in order.
    pub fn scripted(rolls: impl Into<Vec<u32>>) -> Self {
        Self::Scripted(ScriptedDice::new(rolls))
    }

    /// The seed, for seeded dice.
    pub fn seed(&self) -> Option<u64> {
        match self {
            Self::Seeded { seed, .. } => Some(*seed),
            Self::Scripted(_) => None,
        }
    }

    /// Rolls used so far.
    pub fn used(&self) -> u64 {
        match self {
            Self::Seeded { used, .. } => *used,
            Self::Scripted(s) => s.used() as u64,
        }
    }
}

impl DiceSource for Dice {
    #[inline]
    fn roll(&mut self, faces: u8) -> Result<u8, DiceError> {
        match self {
            Self::Seeded { used, dice, .. } => {
                let r = dice.roll(faces)?;
                *used += 1;
                Ok(r)
            }
            Self::Scripted(s) => s.roll(faces),
        }
    }
}

impl PartialEq for Dice {
    fn eq(&self, other: &Self) -> bool {
        DiceData::from(self) == DiceData::from(other)
    }
}

/// The saved form of [`Dice`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum DiceData {
    Seeded { seed: u64, used: u64 },
    Scripted(ScriptedDice),
}

impl From<&Dice> for DiceData {
    fn from(d: &Dice) -> Self {
        match d {
            Dice::Seeded { seed, used, .. } => Self::Seeded {
                seed: *seed,
                used: *used,
            },
            Dice::Scripted(s) => Self::Scripted(s.clone()),
        }
    }
}

impl TryFrom<DiceData> for Dice {
    type Error = String;
    fn try_from(d: DiceData) -> Result<Self, String> {
        match d {
            DiceData::Seeded { seed, used } => {
                if used > MAX_SAVED_ROLLS {
                    return Err(format!(
                        "the dice claim {used} rolls used, more than {MAX_SAVED_ROLLS}"
                    ));
                }
                let mut dice = Dice::seeded(seed);
                for _ in 0..used {
                    let _ = dice.roll(super::FACES);
                }
                Ok(dice)
            }
            DiceData::Scripted(s) => Ok(Dice::Scripted(s)),
        }
    }
}

impl Serialize for Dice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DiceData::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Dice::try_from(DiceData::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_dice_resume_where_they_stopped() {
        let mut a = Dice::seeded(9);
        for _ in 0..17 {
            a.roll(6).unwrap();
        }
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"seeded":{"seed":9,"used":17}}"#);
        let mut b: Dice = serde_json::from_str(&json).unwrap();
        assert_eq!(a, b);
        for _ in 0..50 {
            assert_eq!(a.roll(6), b.roll(6));
        }
        let mut c: Dice =
            serde_json::from_str(&serde_json::to_string(&Dice::scripted(vec![3, 4])).unwrap())
                .unwrap();
        assert_eq!(c.roll(6), Ok(3));
        assert!(
            serde_json::from_str::<Dice>(r#"{"seeded":{"seed":1,"used":99999999999}}"#).is_err()
        );
    }
}
