//! The grid's cells and where they sit.
//!
//! Terms:
//! - **cell**: a number 1 to 99. Cell 1 is bottom-left, every row runs left
//!   to right, cell 99 is top-right (9 rows × 11 columns, row-major).
//! - **column**: 0 (left) to 10 (right); **row from the bottom**: 0 (cells
//!   1–11) to 8 (cells 89–99, the **top row**).
//!
//! Every position comes from the one shared [`tabletop::Geometry`].

use tabletop::{Geometry, Numbering};

/// Rows of the grid.
pub const ROWS: u32 = 9;
/// Columns of the grid.
pub const COLS: u32 = 11;
/// The last cell, the goal.
pub const LAST: u32 = ROWS * COLS;
/// The first cell, where every player starts.
pub const FIRST: u32 = 1;

/// The grid's geometry: 9 × 11, row-major from the bottom-left.
pub fn geometry() -> Geometry {
    Geometry::new(ROWS, COLS, Numbering::RowMajor)
        .unwrap_or_else(|_| unreachable!("9 × 11 is a valid geometry"))
}

/// True when `cell` is on the grid (1 to 99).
pub fn on_grid(cell: u32) -> bool {
    (FIRST..=LAST).contains(&cell)
}

/// The column of `cell` (0 = left), or `None` off the grid.
pub fn column(cell: u32) -> Option<u32> {
    geometry().cell_of(cell).map(|c| c.col)
}

/// The row of `cell` counted from the bottom (0 = cells 1–11), or `None` off
/// the grid.
pub fn row_from_bottom(cell: u32) -> Option<u32> {
    geometry().cell_of(cell).map(|c| ROWS - 1 - c.row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_rows() {
        assert_eq!(column(1), Some(0));
        assert_eq!(row_from_bottom(1), Some(0));
        assert_eq!(column(11), Some(10));
        assert_eq!(row_from_bottom(12), Some(1));
        assert_eq!(column(99), Some(10));
        assert_eq!(row_from_bottom(99), Some(8));
        assert_eq!(row_from_bottom(89), Some(8));
        assert_eq!(row_from_bottom(88), Some(7));
        assert_eq!(column(0), None);
        assert_eq!(column(100), None);
        assert!(on_grid(1) && on_grid(99) && !on_grid(0) && !on_grid(100));
    }
}
