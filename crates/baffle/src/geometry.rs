//! The box: its size, cells, directions and edge holes.
//!
//! Terms:
//! - **size** `n` ([`Size`]): the box has `n × n` cells, 4 ≤ n ≤ 26.
//! - **cell** ([`Cell`]): `<row,col>` from the top-left, 0-based (the original
//!   assignment's "standard row, column locations").
//! - **index**: a cell as one number, `row * n + col` (what the solver and
//!   the tracer use inside).
//! - **hole**: an edge position a beam enters or leaves by, numbered as in
//!   the original assignment's picture and scaled to `n`: left side `0..n` from
//!   bottom to top, top `n..2n` from left to right, right side `2n..3n` from
//!   top to bottom, bottom `3n..4n` from right to left.
//! - **side** ([`Side`]): which edge a hole is on; **sides** ([`Sides`]):
//!   which holes a player may shoot into (all four sides, or the original
//!   assignment's GUI's left and top).
//! - **heading** ([`Dir`]): the way a beam travels.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The smallest box.
pub const MIN_SIZE: usize = 4;
/// The largest box (26 × 26, 104 holes).
pub const MAX_SIZE: usize = 26;
/// The original assignment's box size.
pub const DEFAULT_SIZE: usize = 10;

/// Why a size, cell or hole is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// The size is outside 4..=26.
    #[error("a box is {MIN_SIZE} to {MAX_SIZE} cells wide, not {0}")]
    Size(usize),
    /// A hole number that the box does not have.
    #[error("there is no hole {hole}: a {n}×{n} box has holes 0 to {last}", last = 4 * n - 1)]
    Hole {
        /// The hole asked for.
        hole: usize,
        /// The box size.
        n: usize,
    },
    /// A cell outside the box.
    #[error("there is no cell {cell}: rows and columns of a {n}×{n} box run from 0 to {last}", last = n - 1)]
    Cell {
        /// The cell asked for.
        cell: Cell,
        /// The box size.
        n: usize,
    },
    /// Text that is not a cell.
    #[error("'{0}' is not a cell: write it as ROW,COL (for example 4,2 or <4,2>)")]
    CellText(String),
    /// Text that is not `all` or `left-top`.
    #[error("'{0}' is not a choice of sides: use all or left-top")]
    SidesText(String),
}

/// A box size `n` (4 to 26), validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "usize", into = "usize")]
pub struct Size(usize);

impl TryFrom<usize> for Size {
    type Error = GeometryError;
    fn try_from(n: usize) -> Result<Self, Self::Error> {
        Self::new(n)
    }
}

impl From<Size> for usize {
    fn from(size: Size) -> usize {
        size.0
    }
}

impl Default for Size {
    fn default() -> Self {
        Self(DEFAULT_SIZE)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}×{0}", self.0)
    }
}

/// A cell: row and column from the top-left, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Row from the top.
    pub row: u32,
    /// Column from the left.
    pub col: u32,
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: u32, col: u32) -> Self {
        Self { row, col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{},{}>", self.row, self.col)
    }
}

impl FromStr for Cell {
    type Err = GeometryError;
    /// Reads `4,2`, `<4,2>`, `4 2` or `(4,2)`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || GeometryError::CellText(s.trim().to_string());
        let inner = s
            .trim()
            .trim_start_matches(['<', '('])
            .trim_end_matches(['>', ')']);
        let mut parts = inner
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty());
        let row = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let col = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Self { row, col })
    }
}

impl From<Cell> for tabletop::Cell {
    fn from(c: Cell) -> Self {
        Self {
            row: c.row,
            col: c.col,
        }
    }
}

/// The way a beam travels (north is up the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Up.
    North,
    /// Right.
    East,
    /// Down.
    South,
    /// Left.
    West,
}

impl Dir {
    /// The four headings, in the order of [`Dir::index`].
    pub const ALL: [Self; 4] = [Self::North, Self::East, Self::South, Self::West];

    /// 0 for north, 1 east, 2 south, 3 west.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite heading.
    pub const fn reverse(self) -> Self {
        match self {
            Self::North => Self::South,
            Self::East => Self::West,
            Self::South => Self::North,
            Self::West => Self::East,
        }
    }

    /// The heading after a cell holding `mirror` (or nothing): `/` turns
    /// east→north, north→east, west→south, south→west; `\` turns east→south,
    /// south→east, west→north, north→west.
    pub const fn turn(self, mirror: Option<crate::Mirror>) -> Self {
        use crate::Mirror::{Backslash, Slash};
        match (mirror, self) {
            (None, d) => d,
            (Some(Slash), Self::East) | (Some(Backslash), Self::West) => Self::North,
            (Some(Slash), Self::North) | (Some(Backslash), Self::South) => Self::East,
            (Some(Slash), Self::West) | (Some(Backslash), Self::East) => Self::South,
            (Some(Slash), Self::South) | (Some(Backslash), Self::North) => Self::West,
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::North => "north",
            Self::East => "east",
            Self::South => "south",
            Self::West => "west",
        })
    }
}

/// An edge of the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Holes `0..n`, bottom to top.
    Left,
    /// Holes `n..2n`, left to right.
    Top,
    /// Holes `2n..3n`, top to bottom.
    Right,
    /// Holes `3n..4n`, right to left.
    Bottom,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Left => "left",
            Self::Top => "top",
            Self::Right => "right",
            Self::Bottom => "bottom",
        })
    }
}

/// Which sides beams may be shot from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sides {
    /// All four sides (the full game, the default).
    #[default]
    All,
    /// Only the left and top sides, holes `0..2n` (the original assignment's
    /// GUI).
    LeftTop,
}

impl Sides {
    /// Whether a beam may enter by a hole on `side`.
    pub const fn allows(self, side: Side) -> bool {
        match self {
            Self::All => true,
            Self::LeftTop => matches!(side, Side::Left | Side::Top),
        }
    }
}

impl fmt::Display for Sides {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::All => "all",
            Self::LeftTop => "left-top",
        })
    }
}

impl FromStr for Sides {
    type Err = GeometryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" | "four" | "all-sides" => Ok(Self::All),
            "left-top" | "lefttop" | "left_top" | "top-left" => Ok(Self::LeftTop),
            other => Err(GeometryError::SidesText(other.to_string())),
        }
    }
}

impl Size {
    /// A box `n` cells wide.
    ///
    /// # Errors
    /// Fails unless 4 ≤ n ≤ 26.
    pub const fn new(n: usize) -> Result<Self, GeometryError> {
        if n >= MIN_SIZE && n <= MAX_SIZE {
            Ok(Self(n))
        } else {
            Err(GeometryError::Size(n))
        }
    }

    /// `n`.
    pub const fn n(self) -> usize {
        self.0
    }

    /// `n × n`.
    pub const fn cells(self) -> usize {
        self.0 * self.0
    }

    /// `4n`.
    pub const fn holes(self) -> usize {
        4 * self.0
    }

    /// The holes a player may shoot into, in order.
    pub fn shootable(self, sides: Sides) -> impl Iterator<Item = usize> {
        (0..self.holes()).filter(move |&h| self.side(h).is_some_and(|s| sides.allows(s)))
    }

    /// The side `hole` is on, or `None` when the box has no such hole.
    pub const fn side(self, hole: usize) -> Option<Side> {
        let n = self.0;
        match hole / n {
            0 => Some(Side::Left),
            1 => Some(Side::Top),
            2 => Some(Side::Right),
            3 => Some(Side::Bottom),
            _ => None,
        }
    }

    /// Checks a hole number.
    ///
    /// # Errors
    /// Fails when the box has no such hole.
    pub const fn check_hole(self, hole: usize) -> Result<usize, GeometryError> {
        if hole < self.holes() {
            Ok(hole)
        } else {
            Err(GeometryError::Hole { hole, n: self.0 })
        }
    }

    /// Checks a cell.
    ///
    /// # Errors
    /// Fails when the cell is outside the box.
    pub fn check_cell(self, cell: Cell) -> Result<Cell, GeometryError> {
        if (cell.row as usize) < self.0 && (cell.col as usize) < self.0 {
            Ok(cell)
        } else {
            Err(GeometryError::Cell { cell, n: self.0 })
        }
    }

    /// A cell's index `row * n + col` (the cell must be in the box).
    pub const fn index(self, cell: Cell) -> usize {
        cell.row as usize * self.0 + cell.col as usize
    }

    /// The cell at an index.
    pub const fn cell(self, index: usize) -> Cell {
        Cell {
            row: (index / self.0) as u32,
            col: (index % self.0) as u32,
        }
    }

    /// Where a beam shot into `hole` first is: its cell index and heading.
    /// `None` when the box has no such hole.
    pub const fn entry(self, hole: usize) -> Option<(usize, Dir)> {
        let n = self.0;
        let i = hole % n;
        match self.side(hole) {
            Some(Side::Left) => Some(((n - 1 - i) * n, Dir::East)),
            Some(Side::Top) => Some((i, Dir::South)),
            Some(Side::Right) => Some((i * n + n - 1, Dir::West)),
            Some(Side::Bottom) => Some(((n - 1) * n + n - 1 - i, Dir::North)),
            None => None,
        }
    }

    /// One step of a beam: from the cell at `index` heading `dir`, the next
    /// cell's index, or `Err(hole)` when the beam leaves the box by `hole`.
    #[inline]
    pub const fn advance(self, index: usize, dir: Dir) -> Result<usize, usize> {
        let n = self.0;
        let (row, col) = (index / n, index % n);
        match dir {
            Dir::North if row == 0 => Err(n + col),
            Dir::North => Ok(index - n),
            Dir::South if row == n - 1 => Err(4 * n - 1 - col),
            Dir::South => Ok(index + n),
            Dir::West if col == 0 => Err(n - 1 - row),
            Dir::West => Ok(index - 1),
            Dir::East if col == n - 1 => Err(2 * n + row),
            Dir::East => Ok(index + 1),
        }
    }

    /// The hole straight across the box from `hole` (where a beam that meets
    /// no mirror leaves). `None` when the box has no such hole.
    pub const fn opposite(self, hole: usize) -> Option<usize> {
        let n = self.0;
        let i = hole % n;
        match self.side(hole) {
            Some(Side::Left) => Some(3 * n - 1 - i),
            Some(Side::Top) => Some(4 * n - 1 - i),
            Some(Side::Right) => Some(n - 1 - i),
            Some(Side::Bottom) => Some(2 * n - 1 - i),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Size::new(3).is_err());
        assert!(Size::new(27).is_err());
        assert_eq!(Size::new(4).map(Size::n), Ok(4));
        assert_eq!(Size::new(26).map(Size::holes), Ok(104));
        let err = Size::new(30).unwrap_err().to_string();
        assert!(err.contains("4 to 26"), "{err}");
        assert!(serde_json::from_str::<Size>("3").is_err());
        assert_eq!(serde_json::from_str::<Size>("12").unwrap().n(), 12);
    }

    #[test]
    fn holes_follow_the_original_picture_for_ten() {
        let s = Size::new(10).unwrap();
        // Left side 0..9 bottom to top: hole 9 is row 0, hole 0 is row 9.
        assert_eq!(s.entry(9), Some((0, Dir::East)));
        assert_eq!(s.entry(0), Some((90, Dir::East)));
        assert_eq!(s.entry(7), Some((20, Dir::East)));
        // Top 10..19 left to right.
        assert_eq!(s.entry(10), Some((0, Dir::South)));
        assert_eq!(s.entry(19), Some((9, Dir::South)));
        // Right 20..29 top to bottom.
        assert_eq!(s.entry(20), Some((9, Dir::West)));
        assert_eq!(s.entry(29), Some((99, Dir::West)));
        // Bottom 30..39 right to left.
        assert_eq!(s.entry(30), Some((99, Dir::North)));
        assert_eq!(s.entry(39), Some((90, Dir::North)));
        assert_eq!(s.entry(40), None);
    }

    #[test]
    fn leaving_the_box_is_entering_backwards() {
        // For every hole, a beam leaving the entry cell the opposite way
        // leaves by that same hole: entry and exit numbering agree.
        for n in MIN_SIZE..=MAX_SIZE {
            let s = Size::new(n).unwrap();
            for h in 0..s.holes() {
                let (cell, dir) = s.entry(h).unwrap();
                assert_eq!(s.advance(cell, dir.reverse()), Err(h), "n={n} h={h}");
                let opp = s.opposite(h).unwrap();
                assert_eq!(s.opposite(opp), Some(h));
            }
        }
    }

    #[test]
    fn straight_beams_reach_the_opposite_hole() {
        let s = Size::new(7).unwrap();
        for h in 0..s.holes() {
            let (mut cell, dir) = s.entry(h).unwrap();
            let exit = loop {
                match s.advance(cell, dir) {
                    Ok(next) => cell = next,
                    Err(hole) => break hole,
                }
            };
            assert_eq!(Some(exit), s.opposite(h));
        }
    }

    #[test]
    fn mirror_turns_are_the_rules() {
        use crate::Mirror::{Backslash, Slash};
        assert_eq!(Dir::East.turn(Some(Slash)), Dir::North);
        assert_eq!(Dir::North.turn(Some(Slash)), Dir::East);
        assert_eq!(Dir::West.turn(Some(Slash)), Dir::South);
        assert_eq!(Dir::South.turn(Some(Slash)), Dir::West);
        assert_eq!(Dir::East.turn(Some(Backslash)), Dir::South);
        assert_eq!(Dir::South.turn(Some(Backslash)), Dir::East);
        assert_eq!(Dir::West.turn(Some(Backslash)), Dir::North);
        assert_eq!(Dir::North.turn(Some(Backslash)), Dir::West);
        assert_eq!(Dir::North.turn(None), Dir::North);
        // Two-sided mirrors are reversible: undoing a turn is turning the
        // reversed beam.
        for m in [Slash, Backslash] {
            for d in [Dir::North, Dir::East, Dir::South, Dir::West] {
                assert_eq!(d.turn(Some(m)).reverse().turn(Some(m)), d.reverse());
            }
        }
    }

    #[test]
    fn cells_and_sides_parse() {
        assert_eq!("4,2".parse::<Cell>(), Ok(Cell::new(4, 2)));
        assert_eq!("<4,2>".parse::<Cell>(), Ok(Cell::new(4, 2)));
        assert_eq!(" 4 2 ".parse::<Cell>(), Ok(Cell::new(4, 2)));
        assert!("4".parse::<Cell>().is_err());
        assert!("4,2,1".parse::<Cell>().is_err());
        assert!("a,b".parse::<Cell>().is_err());
        assert_eq!(Cell::new(0, 9).to_string(), "<0,9>");
        assert_eq!("left-top".parse::<Sides>(), Ok(Sides::LeftTop));
        assert_eq!("ALL".parse::<Sides>(), Ok(Sides::All));
        assert!("some".parse::<Sides>().is_err());
        let s = Size::new(10).unwrap();
        let lt: Vec<usize> = s.shootable(Sides::LeftTop).collect();
        assert_eq!(lt, (0..20).collect::<Vec<_>>());
        assert_eq!(s.shootable(Sides::All).count(), 40);
        assert!(s.check_cell(Cell::new(10, 0)).is_err());
        assert!(s.check_hole(40).is_err());
    }
}
