//! Chutes & Ladders pictures: a board, a game played on it, and a heat map of
//! a per-square value.
//!
//! Terms:
//! - **frame**: the layout every board picture shares — a title and a
//!   subtitle above, the board's squares on a grid placed by the board's
//!   geometry ([`chutes::Board::geometry`], the one square ↔ cell mapping),
//!   a legend below.
//! - **square**: drawn as a cell with its number in the top-left corner; a
//!   `<g class="square" data-square="N">` group.
//! - **jump**: a ladder (two green rails and rungs) or a chute (a blue curved
//!   slide ending in an arrowhead), from the centre of its start square to the
//!   centre of its far end, with a dot on its start; a
//!   `<g class="jump ladder|chute" data-jump-from data-jump-to data-kind>` group.
//! - **visit**: a circle on a square a token landed on, numbered by that
//!   player's roll, in the player's colour ([`game`]).
//! - **heat map**: squares coloured by a value per square, such as the
//!   expected number of landings in a game ([`heatmap`]).
//!
//! Size limits: boards of up to [`MAX_SQUARES`] squares whose grids have at
//! most [`MAX_SIDE`] rows and columns are drawn in full (every square
//! numbered). Bigger boards are refused with [`crate::RenderError::TooBig`]:
//! a million numbered squares make a picture nobody can read and an SVG of
//! hundreds of megabytes.

mod board;
#[cfg(test)]
mod checks;
mod frame;
mod game;
mod heat;
mod plots;

pub use board::board;
pub use game::{GameStyle, game, game_with};
pub use heat::{HeatMap, heatmap};
pub use plots::{
    LengthDistribution, LengthHistogram, SeatWins, length_distribution, length_histogram, seat_wins,
};

/// Refuses a board too big to draw, so a caller can say so before it
/// analyses a board no picture will show (a heat map of a million squares).
///
/// # Errors
/// [`crate::RenderError::TooBig`] beyond [`MAX_SQUARES`] squares or
/// [`MAX_SIDE`] rows or columns.
pub fn check_drawable(board: &chutes::Board) -> Result<(), crate::RenderError> {
    frame::check_size(board, board.geometry())
}

/// The most squares a board picture draws.
pub const MAX_SQUARES: u32 = 10_000;
/// The most rows or columns a board picture draws.
pub const MAX_SIDE: u32 = 200;
