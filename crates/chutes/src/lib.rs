//! Chutes & Ladders on any board.
//!
//! Glossary:
//! - **board** ([`Board`]): squares `1..=N`, a start square (0 = off the
//!   board, or 1), and jumps; validated when built.
//! - **jump** ([`Jump`]): a **ladder** (up) or a **chute** (down); a move takes
//!   at most one.
//! - **rules** ([`Rules`]): the die's faces and the **overshoot** rule
//!   (`stay`, `bounce`, `finish`).
//! - **step** ([`Step`]): what one roll does from one square.
//! - **game** ([`Game`]): 1–8 players taking turns; it replays exactly from
//!   its board, rules and rolls.
//! - **format** ([`formats::Format`]): how a board is written in a file.
//!
//! The library does no I/O; see `docs/rules.md` for the rules chosen.

pub mod analysis;
pub mod board;
pub mod board_memo;
pub mod contract;
pub mod formats;
pub mod game;
pub mod rules;

pub use board::{Board, BoardError, BoardSpec, Jump, JumpKind};
pub use formats::{Format, Note, ParseError, ReadBoard, parse_board, read_board};
pub use game::{Event, Game, GameError, PlayerState, Turn};
pub use rules::{Outcome, Overshoot, Rules, RulesError, Step};
