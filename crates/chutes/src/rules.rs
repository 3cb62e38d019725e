//! How a roll moves a token: the die, the overshoot rule, and one step.
//!
//! Terms:
//! - **overshoot**: a roll that would carry the token past the finish N.
//!   `stay` (classic): the roll is not played and the turn is lost.
//!   `bounce`: the token counts back from N by the excess.
//!   `finish`: any roll that reaches or passes N finishes.
//! - **landed**: the square the die count reaches, before any jump.
//! - **step**: the result of one roll from one square ([`Rules::step`]); a
//!   step takes at most one chute or ladder.

use crate::board::{Board, Jump};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The most faces a die may have.
pub const MAX_FACES: u8 = 64;

/// What happens to a roll that would pass the finish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Overshoot {
    /// The roll is not played; the token stays and the turn is lost (classic).
    #[default]
    Stay,
    /// The token counts back from the finish by the excess.
    Bounce,
    /// Reaching or passing the finish finishes.
    Finish,
}

impl fmt::Display for Overshoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Stay => "stay",
            Self::Bounce => "bounce",
            Self::Finish => "finish",
        })
    }
}

impl FromStr for Overshoot {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stay" | "classic" | "exact" => Ok(Self::Stay),
            "bounce" => Ok(Self::Bounce),
            "finish" => Ok(Self::Finish),
            other => Err(RulesError::UnknownOvershoot(other.to_string())),
        }
    }
}

/// Rules that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// An overshoot rule name that is not known.
    #[error("unknown overshoot rule '{0}' (expected stay, bounce or finish)")]
    UnknownOvershoot(String),
    /// A die with too few or too many faces.
    #[error("a die has 1 to {MAX_FACES} faces, not {0}")]
    Faces(u32),
}

/// The die and the overshoot rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RulesData", into = "RulesData")]
pub struct Rules {
    overshoot: Overshoot,
    faces: u8,
}

#[derive(Serialize, Deserialize)]
struct RulesData {
    #[serde(default)]
    overshoot: Overshoot,
    #[serde(default = "six")]
    faces: u32,
}

fn six() -> u32 {
    6
}

impl TryFrom<RulesData> for Rules {
    type Error = RulesError;
    fn try_from(d: RulesData) -> Result<Self, Self::Error> {
        Self::new(d.overshoot, d.faces)
    }
}

impl From<Rules> for RulesData {
    fn from(r: Rules) -> Self {
        Self {
            overshoot: r.overshoot,
            faces: u32::from(r.faces),
        }
    }
}

impl Default for Rules {
    /// The classic rules: a six-sided die, overshoot `stay`.
    fn default() -> Self {
        Self {
            overshoot: Overshoot::Stay,
            faces: 6,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}, overshoot {}", self.faces, self.overshoot)
    }
}

/// How a step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The token moved (and maybe jumped) but did not finish.
    Moved,
    /// The roll would pass the finish and was not played: the turn is lost.
    LostTurn,
    /// The token reached the finish.
    Won,
}

/// One roll from one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    /// Where the token was.
    pub from: u32,
    /// The roll.
    pub roll: u8,
    /// The square the count reached, before any jump (`from` on a lost turn).
    pub landed: u32,
    /// Where the token ends.
    pub to: u32,
    /// The chute or ladder taken, if any.
    pub jump: Option<Jump>,
    /// How it ended.
    pub outcome: Outcome,
}

impl Rules {
    /// Rules with this overshoot rule and a die of `faces` faces.
    ///
    /// # Errors
    /// Fails when `faces` is not in `1..=64`.
    pub fn new(overshoot: Overshoot, faces: u32) -> Result<Self, RulesError> {
        if faces == 0 || faces > u32::from(MAX_FACES) {
            return Err(RulesError::Faces(faces));
        }
        Ok(Self {
            overshoot,
            faces: faces as u8,
        })
    }

    /// The overshoot rule.
    pub fn overshoot(&self) -> Overshoot {
        self.overshoot
    }

    /// Faces of the die; rolls are `1..=faces`, all equally likely.
    pub fn faces(&self) -> u8 {
        self.faces
    }

    /// The result of rolling `roll` from square `from` on `board`.
    ///
    /// `roll` is expected in `1..=faces` and `from` on the board; other
    /// values are still handled without panicking (a roll of 0 stays put).
    #[inline]
    pub fn step(&self, board: &Board, from: u32, roll: u8) -> Step {
        let finish = board.finish();
        let reach = u64::from(from) + u64::from(roll);
        let landed = if reach <= u64::from(finish) {
            reach as u32
        } else {
            match self.overshoot {
                Overshoot::Stay => {
                    return Step {
                        from,
                        roll,
                        landed: from,
                        to: from,
                        jump: None,
                        outcome: Outcome::LostTurn,
                    };
                }
                Overshoot::Finish => finish,
                Overshoot::Bounce => bounce(reach, finish, board.start()),
            }
        };
        let jump = board.jump_at(landed);
        let to = jump.map_or(landed, |j| j.to);
        Step {
            from,
            roll,
            landed,
            to,
            jump,
            outcome: if to == finish {
                Outcome::Won
            } else {
                Outcome::Moved
            },
        }
    }
}

/// Counts back from `finish` by the excess of `reach` over it. On a board
/// shorter than the die, the count reflects off the start too, back and
/// forth, so every roll lands on the board.
fn bounce(reach: u64, finish: u32, start: u32) -> u32 {
    let low = u64::from(start);
    let high = u64::from(finish);
    let span = high - low;
    if span == 0 {
        return finish;
    }
    let period = 2 * span;
    let offset = (reach - low) % period;
    let folded = if offset <= span {
        offset
    } else {
        period - offset
    };
    (low + folded) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::board::test_board as board;

    fn rules(o: Overshoot) -> Rules {
        Rules::new(o, 6).unwrap()
    }

    #[test]
    fn a_roll_moves_forward_by_its_count() {
        let b = Board::classic();
        let s = rules(Overshoot::Stay).step(&b, 10, 3);
        assert_eq!(
            (s.landed, s.to, s.jump, s.outcome),
            (13, 13, None, Outcome::Moved)
        );
    }

    #[test]
    fn landing_on_a_jump_takes_it_once() {
        let b = Board::classic();
        let s = rules(Overshoot::Stay).step(&b, 0, 1);
        assert_eq!((s.landed, s.to), (1, 38));
        assert_eq!(s.jump, Some(Jump::new(1, 38)));
        let s = rules(Overshoot::Stay).step(&b, 10, 6);
        assert_eq!((s.landed, s.to), (16, 6));
        // A jump that ends on another jump's start does not continue.
        let chain = board(20, 0, &[(2, 5), (5, 15)]);
        let s = rules(Overshoot::Stay).step(&chain, 0, 2);
        assert_eq!(s.to, 5);
    }

    #[test]
    fn stay_loses_the_turn_on_overshoot() {
        let b = Board::classic();
        let s = rules(Overshoot::Stay).step(&b, 97, 4);
        assert_eq!((s.landed, s.to, s.outcome), (97, 97, Outcome::LostTurn));
        let s = rules(Overshoot::Stay).step(&b, 97, 3);
        assert_eq!((s.to, s.outcome), (100, Outcome::Won));
    }

    #[test]
    fn bounce_counts_back_from_the_finish() {
        let b = Board::classic();
        // 97 + 5 = 102: two past 100, back to 98, which is a chute to 78.
        let s = rules(Overshoot::Bounce).step(&b, 97, 5);
        assert_eq!((s.landed, s.to), (98, 78));
        assert_eq!(s.outcome, Outcome::Moved);
        let s = rules(Overshoot::Bounce).step(&b, 99, 2);
        assert_eq!(s.to, 99);
        // On a board shorter than the die the count reflects off the start.
        let tiny = board(2, 0, &[]);
        let r = rules(Overshoot::Bounce);
        assert_eq!(r.step(&tiny, 0, 3).to, 1);
        assert_eq!(r.step(&tiny, 0, 4).to, 0);
        assert_eq!(r.step(&tiny, 0, 6).to, 2);
    }

    #[test]
    fn finish_ends_on_any_overshoot() {
        let b = Board::classic();
        let s = rules(Overshoot::Finish).step(&b, 97, 6);
        assert_eq!((s.landed, s.to, s.outcome), (100, 100, Outcome::Won));
    }

    #[test]
    fn a_ladder_to_the_finish_wins() {
        let b = Board::classic();
        let s = rules(Overshoot::Stay).step(&b, 78, 2);
        assert_eq!((s.landed, s.to, s.outcome), (80, 100, Outcome::Won));
    }

    #[test]
    fn rules_parse_and_validate() {
        assert_eq!("bounce".parse::<Overshoot>().unwrap(), Overshoot::Bounce);
        assert!("wrap".parse::<Overshoot>().is_err());
        assert_eq!(Rules::new(Overshoot::Stay, 0), Err(RulesError::Faces(0)));
        assert_eq!(Rules::new(Overshoot::Stay, 65), Err(RulesError::Faces(65)));
        assert_eq!(Rules::default().faces(), 6);
        let json = serde_json::to_string(&Rules::default()).unwrap();
        assert_eq!(json, r#"{"overshoot":"stay","faces":6}"#);
        assert!(serde_json::from_str::<Rules>(r#"{"faces":0}"#).is_err());
    }

    #[test]
    fn extreme_inputs_do_not_panic() {
        let b = Board::empty(1_000_000);
        for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
            let r = Rules::new(o, 64).unwrap();
            let _ = r.step(&b, 999_999, 64);
            let _ = r.step(&b, u32::MAX, 64);
        }
    }
}
