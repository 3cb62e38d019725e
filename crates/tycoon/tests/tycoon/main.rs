//! Tycoon's integration tests, one binary with a module per subject.
//!
//! - [`bots`]: the default bot's decisions in hand-built situations;
//! - [`chances`]: the live chances' estimate, its interval and its secrecy;
//! - [`contract`]: the match layer (records, refusals, what views hide);
//! - [`design`]: the designer's edits, refusals, undo and redo;
//! - [`grid_rules`]: every rule of the grid, and the grid file format;
//! - [`levels`]: the bot levels;
//! - [`play`]: every rule of play and every card, with scripted dice;
//! - [`properties`]: seeded bot games keep every invariant and end;
//! - [`tournament`]: tournaments' reports;
//! - [`support`]: a game and its dice, shared by the subjects.

mod bots;
mod chances;
mod contract;
mod design;
mod grid_rules;
mod levels;
mod play;
mod properties;
mod support;
mod tournament;
