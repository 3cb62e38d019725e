//! Snakes & Ladders Tycoon: the snakes & ladders / monopoly mix of the
//! original Tycoon assignment.
//!
//! Glossary:
//! - **grid** ([`Grid`]): 9 rows × 11 columns of cells 1–99 (cell 1
//!   bottom-left, rows left to right, 99 top-right) holding ladders, snakes
//!   and cards; legal by construction ([`GridSpec`] is the unchecked form).
//! - **rules** ([`rules`]): the one validator of a grid, used by the
//!   designer, the file loader and the JSON form.
//! - **grid file** ([`file`]): the original assignment's text format.
//! - **document** ([`design::Document`]): a grid being designed, with undo
//!   and redo; **edit** ([`design::Edit`]): one change, as data; the
//!   **clipboard** lives beside the document.
//! - **game** ([`game::Game`]): four seats playing on a grid; **moves**
//!   answer the game's pending **decision**, **events** tell what happened.
//! - **bot** ([`bots`]): chooses a seat's moves.
//! - **chances** ([`chances`]): each seat's chance to win from a position,
//!   estimated by the default bot's playouts, with a 95% interval.
//! - **contract** ([`contract`]): Tycoon as the match layer plays it; a
//!   match's record is the only save format.
//! - **simulation** ([`simulate`]): many bot games on all cores; its
//!   **report** ([`report::SimulationReport`]) is what the CLI prints.
//! - **random grid** ([`generate`]): a random legal grid from a seed.
//! - **tournament** ([`tournament`]): the bot levels against each other,
//!   with win rates and their intervals.
//!
//! See `docs/tycoon.md` for the rules chosen where the original assignment
//! is silent.

pub mod balance;
pub mod bots;
pub mod cells;
pub mod chances;
pub mod contract;
pub mod design;
pub mod file;
pub mod game;
pub mod generate;
pub mod grid;
pub mod objects;
pub mod report;
pub mod rules;
pub mod simulate;
pub mod tournament;

pub use file::{
    LoadError, SAMPLE_GRID, looks_like_grid_file, parse_grid, parse_grid_any, save_grid,
    write_grid, write_grid_keeping,
};
pub use game::{Attack, Decision, Event, Game, GameError, Move, Seat};
pub use grid::{Grid, GridError, GridSpec, StationTerms};
pub use objects::{CARDS, Card, CardInfo, CardKind, Ladder, Object, Snake};
pub use rules::{Problem, Rule, RuleError, Violation};
