//! Where a match stands.
//!
//! Terms:
//! - **playing**: the game goes on.
//! - **won**: a seat has won (Baffle's one seat wins by finding every
//!   mirror).
//! - **shared**: several seats tie for the win (a Baffle race's fewest
//!   points, reached by more than one player).
//! - **given up**: the player quit (Baffle).
//! - **stalled**: the game stopped with no winner, for a typed reason
//!   ([`Stall`]): it can never end (every token trapped), it reached its
//!   turn cap, or the match reached its move cap. Each has one code; the
//!   words are made from it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// The game goes on.
    Playing,
    /// A seat has won.
    Won {
        /// The winning seat (from 1).
        winner: u8,
    },
    /// Several seats share the win (a tie).
    Shared {
        /// The winning seats (from 1), in seat order.
        winners: Vec<u8>,
    },
    /// The player gave up.
    GivenUp,
    /// The game stopped with no winner.
    Stalled {
        /// Why.
        stall: Stall,
        /// Why, for a person (the stall's words).
        reason: String,
    },
}

/// Why a match stopped with no winner: the one stall policy of every game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum Stall {
    /// No token can ever reach the finish again (Chutes & Ladders: every
    /// token trapped).
    Trapped {
        /// The square no token can reach.
        finish: u32,
    },
    /// The game's own cap on turns was reached with no winner (Tycoon's
    /// turn cap).
    TurnCap {
        /// The cell a player must reach (99 in Tycoon).
        goal: u32,
        /// The cap.
        turns: u32,
    },
    /// The match's cap on moves was reached (every game; the CLI's roll
    /// cap in Chutes & Ladders).
    MoveCap {
        /// The cap.
        moves: usize,
    },
}

impl Stall {
    /// The stall's code: `trapped`, `turn_cap` or `move_cap`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Trapped { .. } => "trapped",
            Self::TurnCap { .. } => "turn_cap",
            Self::MoveCap { .. } => "move_cap",
        }
    }
}

impl fmt::Display for Stall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Trapped { finish } => {
                write!(f, "no token can ever reach square {finish} again")
            }
            Self::TurnCap { goal, turns } => write!(
                f,
                "nobody reached cell {goal} within the turn cap of {}",
                crate::count(u64::from(*turns), "turn", "turns")
            ),
            Self::MoveCap { moves } => write!(
                f,
                "the game reached {} with no end in sight",
                crate::count(*moves as u64, "move", "moves")
            ),
        }
    }
}

impl Status {
    /// True unless the game goes on.
    pub fn is_over(&self) -> bool {
        !matches!(self, Self::Playing)
    }

    /// A match stalled for `stall`, with its words.
    pub fn stalled(stall: Stall) -> Self {
        Self::Stalled {
            reason: stall.to_string(),
            stall,
        }
    }

    /// The winning seat, if one seat won alone.
    pub fn winner(&self) -> Option<u8> {
        match self {
            Self::Won { winner } => Some(*winner),
            _ => None,
        }
    }

    /// Every winning seat: one for a win, several for a shared one, none
    /// otherwise.
    pub fn winners(&self) -> Vec<u8> {
        match self {
            Self::Won { winner } => vec![*winner],
            Self::Shared { winners } => winners.clone(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Status {
    /// `playing`, `won`, `given up` or `stalled: REASON` (the winner is the
    /// front end's to name: seats have names there).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Playing => f.write_str("playing"),
            Self::Won { .. } => f.write_str("won"),
            Self::Shared { .. } => f.write_str("shared"),
            Self::GivenUp => f.write_str("given up"),
            Self::Stalled { reason, .. } => write!(f, "stalled: {reason}"),
        }
    }
}
