//! Where a match stands.
//!
//! Terms:
//! - **playing**: the game goes on.
//! - **won**: a seat has won (Baffle's one seat wins by finding every
//!   mirror).
//! - **given up**: the player quit (Baffle).
//! - **stalled**: the game stopped with no winner, with the reason: it can
//!   never end (every token trapped), it reached its turn cap, or the match
//!   reached its move cap.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// The game goes on.
    Playing,
    /// A seat has won.
    Won {
        /// The winning seat (from 1).
        winner: u8,
    },
    /// The player gave up.
    GivenUp,
    /// The game stopped with no winner.
    Stalled {
        /// Why, for a person.
        reason: String,
    },
}

impl Status {
    /// True unless the game goes on.
    pub fn is_over(&self) -> bool {
        !matches!(self, Self::Playing)
    }

    /// The winning seat, if any.
    pub fn winner(&self) -> Option<u8> {
        match self {
            Self::Won { winner } => Some(*winner),
            _ => None,
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
            Self::GivenUp => f.write_str("given up"),
            Self::Stalled { reason } => write!(f, "stalled: {reason}"),
        }
    }
}
