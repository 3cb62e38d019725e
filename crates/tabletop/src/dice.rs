//! Where a game's rolls come from.
//!
//! Terms:
//! - **dice source**: anything that hands out rolls ([`DiceSource`]).
//! - **seeded dice**: rolls drawn from an [`Rng`] seed; replayable.
//! - **scripted dice**: a given list of rolls, used in order; it can run out.

use crate::Code;
use crate::Rng;
use serde::{Deserialize, Serialize};

/// Why a roll could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// A scripted source has no rolls left.
    #[error("the given dice ran out after {used} rolls")]
    Exhausted {
        /// How many rolls had been used.
        used: usize,
    },
    /// A scripted roll is not a face of the die.
    #[error("roll #{index} is {value}, but a {faces}-sided die shows 1 to {faces}")]
    OutOfRange {
        /// 1-based position of the roll in the script.
        index: usize,
        /// The roll given.
        value: u32,
        /// Faces of the die.
        faces: u8,
    },
    /// A roll list could not be read.
    #[error("roll list: {0}")]
    Parse(String),
}

impl crate::play::Coded for DiceError {
    fn code(&self) -> Code {
        match self {
            Self::Exhausted { .. } => Code::DiceRanOut,
            Self::OutOfRange { .. } | Self::Parse(_) => Code::BadRoll,
        }
    }
}

/// A source of die rolls.
pub trait DiceSource {
    /// The next roll of a die with `faces` faces, `1..=faces`.
    ///
    /// # Errors
    /// A scripted source fails when it has run out or when its next roll is
    /// not a face of the die; a seeded source never fails.
    fn roll(&mut self, faces: u8) -> Result<u8, DiceError>;
}

/// Rolls from a seed: the same seed gives the same rolls everywhere.
#[derive(Clone, Debug)]
pub struct SeededDice {
    rng: Rng,
}

impl SeededDice {
    /// Dice for `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Rng::new(seed),
        }
    }
}

impl DiceSource for SeededDice {
    #[inline]
    fn roll(&mut self, faces: u8) -> Result<u8, DiceError> {
        Ok(self.rng.roll(faces))
    }
}

/// Rolls from a given list, used in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptedDice {
    rolls: Vec<u32>,
    next: usize,
    /// The last roll asked for found none left.
    #[serde(skip)]
    short: bool,
}

impl ScriptedDice {
    /// Dice that will give `rolls` in order.
    pub fn new(rolls: impl Into<Vec<u32>>) -> Self {
        Self {
            rolls: rolls.into(),
            next: 0,
            short: false,
        }
    }

    /// Checks every roll against a die of `faces` faces before any is
    /// used, so that a roll no die can show is refused even when the game
    /// ends before reaching it.
    ///
    /// # Errors
    /// [`DiceError::OutOfRange`] for the first roll that is 0 or above
    /// `faces`.
    pub fn check(&self, faces: u8) -> Result<(), DiceError> {
        match self
            .rolls
            .iter()
            .position(|&v| v == 0 || v > u32::from(faces))
        {
            Some(i) => Err(DiceError::OutOfRange {
                index: i + 1,
                value: self.rolls[i],
                faces,
            }),
            None => Ok(()),
        }
    }

    /// How many rolls have been used.
    pub fn used(&self) -> usize {
        self.next
    }

    /// How many rolls are left.
    pub fn remaining(&self) -> usize {
        self.rolls.len() - self.next
    }

    /// True when the last roll asked for found none left: a move refused
    /// for that was refused because the dice ran out, whatever error its
    /// game made of it.
    pub fn ran_out(&self) -> bool {
        self.short
    }
}

impl DiceSource for ScriptedDice {
    fn roll(&mut self, faces: u8) -> Result<u8, DiceError> {
        let Some(&value) = self.rolls.get(self.next) else {
            self.short = true;
            return Err(DiceError::Exhausted { used: self.next });
        };
        self.short = false;
        if value == 0 || value > u32::from(faces) {
            return Err(DiceError::OutOfRange {
                index: self.next + 1,
                value,
                faces,
            });
        }
        self.next += 1;
        Ok(value as u8)
    }
}

/// Reads a list of rolls such as `1,3,6`, `1 3 6` or `136` (a run of single
/// digits, as the original Chutes and Ladders assignments print a game's dice
/// string).
///
/// # Errors
/// Fails, naming the position, on anything that is not a positive number.
pub fn parse_rolls(text: &str) -> Result<Vec<u32>, DiceError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(DiceError::Parse("no rolls given".into()));
    }
    let separated = trimmed.contains([',', ' ', '\t', '\n']);
    if !separated && trimmed.chars().all(|c| c.is_ascii_digit()) {
        return trimmed
            .chars()
            .enumerate()
            .map(|(i, c)| match c.to_digit(10) {
                Some(d) if d > 0 => Ok(d),
                _ => Err(DiceError::Parse(format!(
                    "roll #{} is '{c}'; rolls start at 1",
                    i + 1
                ))),
            })
            .collect();
    }
    trimmed
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, token)| match token.parse::<u32>() {
            Ok(v) if v > 0 => Ok(v),
            Ok(_) => Err(DiceError::Parse(format!(
                "roll #{} is 0; rolls start at 1",
                i + 1
            ))),
            Err(_) => Err(DiceError::Parse(format!(
                "roll #{} is '{token}', which is not a whole number",
                i + 1
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_rolls_are_checked_before_use() {
        assert_eq!(ScriptedDice::new([1, 6, 3]).check(6), Ok(()));
        assert_eq!(
            ScriptedDice::new([1, 9, 0]).check(1),
            Err(DiceError::OutOfRange {
                index: 2,
                value: 9,
                faces: 1
            })
        );
    }

    #[test]
    fn seeded_dice_repeat_for_a_seed() {
        let mut a = SeededDice::new(5);
        let mut b = SeededDice::new(5);
        for _ in 0..100 {
            assert_eq!(a.roll(6), b.roll(6));
        }
    }

    #[test]
    fn scripted_dice_run_out_and_check_faces() {
        let mut d = ScriptedDice::new(vec![2, 6, 7]);
        assert_eq!(d.roll(6), Ok(2));
        assert_eq!(d.roll(6), Ok(6));
        assert_eq!(
            d.roll(6),
            Err(DiceError::OutOfRange {
                index: 3,
                value: 7,
                faces: 6
            })
        );
        assert!(!d.ran_out(), "a roll out of range is not running out");
        assert_eq!(d.roll(8), Ok(7));
        assert!(!d.ran_out());
        assert_eq!(d.roll(6), Err(DiceError::Exhausted { used: 3 }));
        assert!(d.ran_out(), "the last roll asked for found none left");
        assert_eq!(d.remaining(), 0);
    }

    #[test]
    fn roll_lists_parse_in_every_form() {
        assert_eq!(parse_rolls("1,3,6").unwrap(), vec![1, 3, 6]);
        assert_eq!(parse_rolls(" 1 3\t6 ").unwrap(), vec![1, 3, 6]);
        assert_eq!(parse_rolls("136").unwrap(), vec![1, 3, 6]);
        assert_eq!(parse_rolls("10, 12").unwrap(), vec![10, 12]);
    }

    #[test]
    fn bad_roll_lists_name_the_position() {
        let err = parse_rolls("1,x,3").unwrap_err().to_string();
        assert!(err.contains("roll #2") && err.contains("'x'"), "{err}");
        let err = parse_rolls("1,0").unwrap_err().to_string();
        assert!(err.contains("roll #2"), "{err}");
        assert!(parse_rolls("  ").is_err());
        assert!(parse_rolls("120").is_err());
    }
}
