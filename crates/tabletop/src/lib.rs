//! What every Parlor game shares.
//!
//! Glossary:
//! - **seed**: a `u64` that fixes every random choice of a game, on every
//!   machine and every build ([`Rng`]).
//! - **dice source**: where a game's rolls come from, either seeded
//!   ([`SeededDice`]) or a given list ([`ScriptedDice`]).
//! - **geometry**: how numbered squares sit in rows and columns
//!   ([`Geometry`]); the pictures, the analysis and the browser all use it.
//! - **atomic write**: a file is replaced whole or not at all
//!   ([`write_atomic`]).
//! - **bot level**: how strong a bot plays, the same three levels in every
//!   game ([`BotLevel`]).
//! - **match layer** ([`play`]): one contract every game plugs into, and
//!   one [`play::Match`] that owns the dice, the record, the log, the stall
//!   rule and the bots, for every front end.
//! - **budget**: what a long computation may spend, a deadline and a flag
//!   to withdraw the question, checked by the computation ([`Budget`],
//!   [`Stopped`]).
//! - **code** ([`Code`]): every refusal's stable name and its HTTP status,
//!   one enum for every crate.
//! - **count**: a number and its noun, "1 roll" or "2 rolls" ([`count`],
//!   [`plural`]), so every game's text agrees in number.
//!
//! This crate is a small addition to the planned layout: the Chutes & Ladders,
//! Baffle and Tycoon libraries all need seeded randomness and a square ↔ cell
//! mapping, and none of them should depend on another for it.

mod atomic;
mod bot_level;
mod budget;
mod code;
mod dice;
mod geometry;
pub mod play;
mod rng;
mod words;

pub use atomic::write_atomic;
pub use bot_level::{BotLevel, BotLevelParseError};
pub use budget::{Budget, Canceller, Stopped};
pub use code::Code;
pub use dice::{DiceError, DiceSource, ScriptedDice, SeededDice, parse_rolls};
pub use geometry::{Cell, Geometry, GeometryError, Numbering};
pub use rng::Rng;
pub use words::{count, plural};
