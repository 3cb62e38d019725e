//! A Snakes & Ladders Tycoon grid file read as a Chutes & Ladders board.
//!
//! Terms:
//! - **grid file**: the seed 003 format, parsed by the `tycoon` crate (the
//!   one grid-file parser and validator); see docs/tycoon.md.
//! - **mapping**: the grid's ladders and snakes become jumps on a 99-square
//!   board, tokens start on square 1, the picture is 9 × 11 row-major. Cards
//!   are checked with the rest of the grid, then left out.

use super::{Format, ParseError, Pos};
use crate::board::{Board, BoardSpec, Jump};
use tabletop::{Geometry, Numbering};

const FORMAT: Format = Format::Tycoon;

/// Reads a Tycoon grid file.
pub(crate) fn parse(text: &str) -> Result<Board, ParseError> {
    let grid = tycoon::parse_grid(text).map_err(|e| {
        let more = e.errors.len().saturating_sub(1);
        match e.errors.first() {
            Some(first) => {
                let message = match &first.problem {
                    tycoon::file::LineProblem::Syntax(s) => s.clone(),
                    tycoon::file::LineProblem::Rule(r) => r.to_string(),
                };
                let message = if more > 0 {
                    format!(
                        "{message} (and {more} more problem{})",
                        if more == 1 { "" } else { "s" }
                    )
                } else {
                    message
                };
                ParseError::at(
                    FORMAT,
                    Pos {
                        line: first.line.max(1),
                        col: first.col.unwrap_or(1),
                    },
                    message,
                )
            }
            None => ParseError::whole(FORMAT, e.to_string()),
        }
    })?;
    let jumps = grid
        .ladders()
        .map(|l| Jump::new(l.start, l.end))
        .chain(grid.snakes().map(|s| Jump::new(s.start, s.end)))
        .collect();
    let geometry = Geometry::new(
        tycoon::cells::ROWS,
        tycoon::cells::COLS,
        Numbering::RowMajor,
    )
    .map_err(|e| ParseError::whole(FORMAT, e.to_string()))?;
    Board::new(BoardSpec {
        name: None,
        size: tycoon::cells::LAST,
        start: 1,
        jumps,
        geometry: Some(geometry),
    })
    .map_err(|e| ParseError::whole(FORMAT, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_sample_is_a_99_square_board_starting_on_1() {
        let board = parse(tycoon::SAMPLE_GRID).unwrap();
        assert_eq!((board.size(), board.start()), (99, 1));
        let ladders = board.jumps().iter().filter(|j| j.to > j.from).count();
        let snakes = board.jumps().iter().filter(|j| j.to < j.from).count();
        assert_eq!((ladders, snakes), (4, 4));
        assert!(board.jumps().contains(&Jump::new(85, 30)));
    }

    #[test]
    fn errors_keep_the_grid_file_lines() {
        let err = parse("1\n10 33\n0\n0\n").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 1 }));
        assert!(err.to_string().contains("column"), "{err}");
        let err = parse("1\n10 3x\n1\n5 2\n0\n").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 4 }));
        assert!(err.to_string().contains("and 1 more problem"), "{err}");
    }
}
