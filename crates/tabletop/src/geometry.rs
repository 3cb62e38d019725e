//! How numbered squares sit on a rectangular board.
//!
//! Terms:
//! - **square**: a board position numbered from 1.
//! - **cell**: a (row, column) place in the picture; row 0 is the top row and
//!   column 0 the left column.
//! - **boustrophedon**: square 1 is bottom-left, the bottom row runs left to
//!   right, the next row right to left, and so on (the Java Chutes and Ladders
//!   assignment's `getCoords`; Chutes & Ladders, LeetCode 909).
//! - **row-major**: square 1 is bottom-left and every row runs left to right
//!   (the Tycoon grid).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The order in which squares are numbered along the rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Numbering {
    /// Alternate rows run in alternate directions, starting bottom-left.
    #[default]
    Boustrophedon,
    /// Every row runs left to right, starting bottom-left.
    RowMajor,
}

impl fmt::Display for Numbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Boustrophedon => "boustrophedon",
            Self::RowMajor => "row-major",
        })
    }
}

impl FromStr for Numbering {
    type Err = GeometryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "boustrophedon" | "snake" | "serpentine" => Ok(Self::Boustrophedon),
            "row-major" | "row_major" | "rowmajor" | "rows" => Ok(Self::RowMajor),
            other => Err(GeometryError::UnknownNumbering(other.to_string())),
        }
    }
}

/// A place in the picture: row 0 is the top row, column 0 the left column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Row from the top, 0-based.
    pub row: u32,
    /// Column from the left, 0-based.
    pub col: u32,
}

/// Why a geometry is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Rows or columns is zero.
    #[error("a board needs at least one row and one column (got {rows} × {cols})")]
    Empty {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
    },
    /// rows × columns is too big.
    #[error("{rows} × {cols} squares is more than Parlor's limit of {max}")]
    TooBig {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
        /// The largest number of cells.
        max: u64,
    },
    /// The grid cannot hold the board's squares.
    #[error("{rows} × {cols} = {cells} cells cannot hold {squares} squares")]
    TooSmall {
        /// Rows.
        rows: u32,
        /// Columns.
        cols: u32,
        /// rows × columns.
        cells: u64,
        /// Squares to place.
        squares: u32,
    },
    /// A numbering name that is not known.
    #[error("unknown numbering '{0}' (expected boustrophedon or row-major)")]
    UnknownNumbering(String),
}

/// Rows × columns and a numbering: the one mapping square ↔ cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Geometry {
    rows: u32,
    cols: u32,
    numbering: Numbering,
}

/// The most cells a geometry may have.
pub const MAX_CELLS: u64 = 16_000_000;

impl Geometry {
    /// A `rows` × `cols` board numbered by `numbering`.
    ///
    /// # Errors
    /// Fails when either side is 0 or the board has more than 16 million cells.
    pub fn new(rows: u32, cols: u32, numbering: Numbering) -> Result<Self, GeometryError> {
        if rows == 0 || cols == 0 {
            return Err(GeometryError::Empty { rows, cols });
        }
        if u64::from(rows) * u64::from(cols) > MAX_CELLS {
            return Err(GeometryError::TooBig {
                rows,
                cols,
                max: MAX_CELLS,
            });
        }
        Ok(Self {
            rows,
            cols,
            numbering,
        })
    }

    /// The most nearly square board for `squares` squares: `ceil(√n)` columns
    /// and as many rows as needed (10 × 10 for 100, 12 × 12 for 144).
    pub fn fitting(squares: u32, numbering: Numbering) -> Self {
        let n = squares.max(1);
        let mut cols = (f64::from(n)).sqrt().ceil() as u32;
        while u64::from(cols) * u64::from(cols) < u64::from(n) {
            cols += 1;
        }
        while cols > 1 && u64::from(cols - 1) * u64::from(cols - 1) >= u64::from(n) {
            cols -= 1;
        }
        let rows = n.div_ceil(cols);
        Self {
            rows,
            cols,
            numbering,
        }
    }

    /// Checks that the grid can hold `squares` squares.
    ///
    /// # Errors
    /// Fails when rows × columns is less than `squares`.
    pub fn check_holds(&self, squares: u32) -> Result<(), GeometryError> {
        if self.cells() < u64::from(squares) {
            return Err(GeometryError::TooSmall {
                rows: self.rows,
                cols: self.cols,
                cells: self.cells(),
                squares,
            });
        }
        Ok(())
    }

    /// Number of rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The numbering.
    pub fn numbering(&self) -> Numbering {
        self.numbering
    }

    /// rows × columns.
    pub fn cells(&self) -> u64 {
        u64::from(self.rows) * u64::from(self.cols)
    }

    /// Where square `square` sits, or `None` outside `1..=rows×cols`.
    pub fn cell_of(&self, square: u32) -> Option<Cell> {
        if square == 0 || u64::from(square) > self.cells() {
            return None;
        }
        let index = square - 1;
        let row_from_bottom = index / self.cols;
        let along = index % self.cols;
        let col = match self.numbering {
            Numbering::Boustrophedon if row_from_bottom % 2 == 1 => self.cols - 1 - along,
            _ => along,
        };
        Some(Cell {
            row: self.rows - 1 - row_from_bottom,
            col,
        })
    }

    /// The square at `cell`, or `None` outside the grid.
    pub fn square_at(&self, cell: Cell) -> Option<u32> {
        if cell.row >= self.rows || cell.col >= self.cols {
            return None;
        }
        let row_from_bottom = self.rows - 1 - cell.row;
        let along = match self.numbering {
            Numbering::Boustrophedon if row_from_bottom % 2 == 1 => self.cols - 1 - cell.col,
            _ => cell.col,
        };
        Some(row_from_bottom * self.cols + along + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Java assignment's `getCoords`, 1-based rows from the top, verbatim.
    fn get_coords(board_num: u32) -> (u32, u32) {
        let row_num = 10 - (board_num - 1) / 10;
        let col_num = if ((board_num - 1) / 10) % 2 == 0 {
            (board_num - 1) % 10 + 1
        } else {
            10 - (board_num - 1) % 10
        };
        (row_num, col_num)
    }

    #[test]
    fn boustrophedon_matches_the_java_assignments_get_coords() {
        let g = Geometry::new(10, 10, Numbering::Boustrophedon).unwrap();
        for s in 1..=100 {
            let (r, c) = get_coords(s);
            assert_eq!(
                g.cell_of(s),
                Some(Cell {
                    row: r - 1,
                    col: c - 1
                }),
                "square {s}"
            );
        }
        // The Java assignment's worked example: square 42 is row 6, column 2.
        assert_eq!(g.cell_of(42), Some(Cell { row: 5, col: 1 }));
        assert_eq!(g.cell_of(100), Some(Cell { row: 0, col: 0 }));
    }

    #[test]
    fn row_major_is_the_tycoon_grid() {
        let g = Geometry::new(9, 11, Numbering::RowMajor).unwrap();
        assert_eq!(g.cell_of(1), Some(Cell { row: 8, col: 0 }));
        assert_eq!(g.cell_of(11), Some(Cell { row: 8, col: 10 }));
        assert_eq!(g.cell_of(12), Some(Cell { row: 7, col: 0 }));
        assert_eq!(g.cell_of(99), Some(Cell { row: 0, col: 10 }));
        // The Tycoon assignment's sample ladder 10 → 32 stays in one column.
        assert_eq!(g.cell_of(10).unwrap().col, g.cell_of(32).unwrap().col);
    }

    #[test]
    fn mapping_round_trips() {
        for numbering in [Numbering::Boustrophedon, Numbering::RowMajor] {
            for (rows, cols) in [(1, 1), (3, 7), (10, 10), (9, 11), (20, 20)] {
                let g = Geometry::new(rows, cols, numbering).unwrap();
                let mut seen = std::collections::HashSet::new();
                for s in 1..=rows * cols {
                    let cell = g.cell_of(s).unwrap();
                    assert!(seen.insert(cell));
                    assert_eq!(g.square_at(cell), Some(s));
                }
                assert_eq!(g.cell_of(0), None);
                assert_eq!(g.cell_of(rows * cols + 1), None);
                assert_eq!(g.square_at(Cell { row: rows, col: 0 }), None);
            }
        }
    }

    #[test]
    fn fitting_is_nearly_square() {
        let shape = |n| {
            let g = Geometry::fitting(n, Numbering::Boustrophedon);
            (g.rows(), g.cols())
        };
        assert_eq!(shape(100), (10, 10));
        assert_eq!(shape(144), (12, 12));
        assert_eq!(shape(30), (5, 6));
        assert_eq!(shape(2), (1, 2));
        assert_eq!(shape(1), (1, 1));
        assert_eq!(shape(1_000_000), (1000, 1000));
        assert_eq!(shape(101), (10, 11));
    }

    #[test]
    fn bad_geometries_are_refused() {
        assert!(Geometry::new(0, 5, Numbering::RowMajor).is_err());
        assert!(Geometry::new(5_000, 5_000, Numbering::RowMajor).is_err());
        let g = Geometry::new(2, 2, Numbering::RowMajor).unwrap();
        assert!(g.check_holds(5).is_err());
        assert!(g.check_holds(4).is_ok());
        assert_eq!(
            "row-major".parse::<Numbering>().unwrap(),
            Numbering::RowMajor
        );
        assert!("diagonal".parse::<Numbering>().is_err());
    }
}
