//! Baffle, the laser box (the original Baffle assignment): a square box hides
//! two-sided mirrors; beams shot in through numbered edge holes come out
//! elsewhere, and the player works out where the mirrors are.
//!
//! Glossary:
//! - **box**, **size**, **cell**, **hole**, **side** ([`geometry`]): an
//!   `n × n` box with holes numbered round its edge as in the
//!   original assignment's picture.
//! - **mirror**, **layout** ([`layout`]): `/` or `\` in some cells.
//! - **beam** ([`beam`]): the one tracer, from an entry hole to an exit hole
//!   through the cells it crosses.
//! - **game** ([`game`]): shots, guesses, score, win and reveal, as a state
//!   machine over moves ([`Move`]) returning events ([`Event`]); a
//!   player's [`View`] never holds an unfound mirror while the game is on.
//! - **race** ([`race`]): one to four players on the same box, each on
//!   their own copy, taking turns; the fewest points wins.
//! - **text** ([`text`]): the box printed in the original assignment's style.
//! - **solver** ([`solve`]): from the shots seen, exactly how many layouts
//!   remain, which cells are certain, and the most telling next shot.
//! - **live** ([`live`]): how many layouts still fit after each shot, and
//!   each cell's chances, in a player's view and the look back.
//! - **bot** ([`bot`]): plays a game with the solver, as a player would.
//! - **optimal play** ([`optimal`]): on small boxes, the best strategy's
//!   expected score worked out exactly, and the bot's beside it.
//!
//! The library does no I/O. See `docs/baffle.md` for the rules chosen.

pub mod beam;
pub mod bot;
pub mod contract;
pub mod game;
pub mod geometry;
pub mod layout;
pub mod live;
pub mod optimal;
pub mod race;
pub mod solve;
pub mod text;
pub mod words;

pub use beam::{Beam, Exit, Step, trace};
pub use game::{Event, Game, Move, MoveError, Origin, Score, Setup, SetupError, Status, View};
pub use geometry::{Cell, Dir, GeometryError, Side, Sides, Size};
pub use layout::{Layout, LayoutError, Mirror, Placed};
pub use race::{MAX_RACERS, Race, RaceError, RaceEvent, RaceView, Racer};
pub use solve::{Evidence, Solution, SolveError, SolveOptions, solve, solve_within};
