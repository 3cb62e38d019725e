//! A match's record: the one save format of every game.
//!
//! Terms:
//! - **record** ([`Record`]): the game's name, the record format's version,
//!   the setup, the seats, the dice and every move in order. It holds the
//!   seed, so it is a secret while the match is on.
//! - **entry** ([`Entry`]): one move in its text form (`"shoot 7"`,
//!   `"attack ice 2"`), with ` @ROLL` after it when the dice are chosen
//!   (`"roll @4"`); a seeded match's rolls follow from its seed.
//! - **replay**: a match is loaded by playing its record's moves again
//!   ([`crate::play::Match::replay`]); a record with an illegal move is
//!   refused with that move's index and why ([`ReplayError`]).

use super::SeatKind;
use crate::Code;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The record format's version.
pub const RECORD_VERSION: u32 = 1;

/// How a match's dice roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// From this seed; secret while the match is on.
    Seeded {
        /// The seed.
        seed: u64,
    },
    /// Each rolling move carries its roll.
    Chosen,
}

impl DiceMode {
    /// The seed, or 0 for chosen dice (a game that draws at the start, such
    /// as Baffle's random mirrors, then draws from seed 0).
    pub fn seed(self) -> u64 {
        match self {
            Self::Seeded { seed } => seed,
            Self::Chosen => 0,
        }
    }
}

/// One move of a record, written as its text form (`"roll @4"` when its
/// roll was chosen; `"shoot 7 (bot)"` when a bot chose it for a person's
/// seat, as Baffle's Bot move does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    /// The move.
    pub mv: M,
    /// The roll it used, in a match with chosen dice.
    pub roll: Option<u8>,
    /// True when a bot chose the move for a person's seat (a bot's own
    /// seat needs no mark: its seat says so).
    pub by_bot: bool,
}

/// How an entry says a bot chose it.
const BY_BOT: &str = " (bot)";

impl<M: fmt::Display> fmt::Display for Entry<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.roll {
            Some(roll) => write!(f, "{} @{roll}", self.mv)?,
            None => write!(f, "{}", self.mv)?,
        }
        if self.by_bot {
            f.write_str(BY_BOT)?;
        }
        Ok(())
    }
}

impl<M> FromStr for Entry<M>
where
    M: FromStr,
    M::Err: fmt::Display,
{
    type Err = String;
    /// Reads `MOVE` or `MOVE @ROLL`, either followed by ` (bot)` when a
    /// bot chose it.
    fn from_str(text: &str) -> Result<Self, String> {
        let trimmed = text.trim_end();
        let (text, by_bot) = match trimmed.strip_suffix(BY_BOT.trim_start()) {
            Some(rest) => (rest.trim_end(), true),
            None => (trimmed, false),
        };
        let (mv, roll) = match text.rsplit_once('@') {
            Some((mv, roll)) => {
                let roll = roll
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|&r| r > 0)
                    .ok_or_else(|| {
                        format!("'{text}': the roll after @ is a whole number from 1")
                    })?;
                (mv, Some(roll))
            }
            None => (text, None),
        };
        let mv = mv.trim().parse::<M>().map_err(|e| e.to_string())?;
        Ok(Self { mv, roll, by_bot })
    }
}

impl<M: fmt::Display> Serialize for Entry<M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de, M> Deserialize<'de> for Entry<M>
where
    M: FromStr,
    M::Err: fmt::Display,
{
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Everything that makes a match: replaying its moves rebuilds it exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(
    serialize = "S: Serialize, M: fmt::Display",
    deserialize = "S: Deserialize<'de>, M: FromStr, M::Err: fmt::Display"
))]
pub struct Record<S, M> {
    /// The game: `chutes`, `baffle` or `tycoon`.
    pub game: String,
    /// The record format's version ([`RECORD_VERSION`]).
    pub version: u32,
    /// How the game was set up.
    pub setup: S,
    /// Who answers for each seat, in turn order.
    pub seats: Vec<SeatKind>,
    /// How the dice roll.
    pub dice: DiceMode,
    /// Each seat's chosen name, in seat order (none for a seat with no
    /// chosen name); empty when no seat has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<Option<String>>,
    /// Each seat's colour (from 1), in seat order: the colours of the
    /// match this one plays again, moved on with their players, so that a
    /// person keeps their colour; empty for seat order (seat N, colour N).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colours: Vec<u8>,
    /// Every move, in order.
    pub moves: Vec<Entry<M>>,
}

impl<S, M> Record<S, M> {
    /// A record with no moves yet.
    pub fn new(game: &str, setup: S, seats: Vec<SeatKind>, dice: DiceMode) -> Self {
        Self {
            game: game.to_string(),
            version: RECORD_VERSION,
            setup,
            seats,
            dice,
            names: Vec::new(),
            colours: Vec::new(),
            moves: Vec::new(),
        }
    }
}

/// Why a record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record is of another game.
    #[error("this is a record of a {found} game, not {expected}")]
    Game {
        /// The game the record names.
        found: String,
        /// The game asked for.
        expected: &'static str,
    },
    /// A record format this Parlor does not read.
    #[error("record version {found}: this Parlor reads version {RECORD_VERSION}")]
    Version {
        /// The version found.
        found: u32,
    },
    /// The setup or the seats are refused.
    #[error("the record's setup is refused: {0}")]
    Setup(String),
    /// A move is refused.
    #[error("move #{} of the record is refused: {why}", .index + 1)]
    Move {
        /// The move's index in the record, from 0.
        index: usize,
        /// Why.
        why: String,
    },
}

impl super::Coded for ReplayError {
    fn code(&self) -> Code {
        Code::BadRecord
    }
}
