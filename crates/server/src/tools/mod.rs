//! Each game's own tools beside its matches: Chutes boards (upload, draw,
//! analyse, design to targets), the Baffle solver, and the Tycoon grid
//! designer and saved grids.
//!
//! Terms:
//! - **boards** ([`chutes_boards`]): uploaded Chutes boards, kept in memory
//!   under an id, and the built-in ones.
//! - **analysis** ([`chutes_analysis`]): a board's exact figures, plots and
//!   shortest games, as long work.
//! - **design** ([`chutes_design`]): boards searched for to targets.
//! - **solver** ([`baffle`]): what the evidence of a box says.
//! - **designer** ([`tycoon`]): Tycoon grid documents; **saved grids**
//!   ([`grids`]) kept in the store under a name.

pub mod baffle;
pub mod chutes_analysis;
pub mod chutes_boards;
pub mod chutes_design;
pub mod grids;
pub mod tycoon;
