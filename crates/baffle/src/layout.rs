//! Mirrors and layouts: what is hidden in the box.
//!
//! Terms:
//! - **mirror** ([`Mirror`]): a two-sided mirror (the original assignment's
//!   "baffle"), `/` or `\` (its "right" and "left" baffles).
//! - **placed mirror** ([`Placed`]): a mirror in a cell, written `<4,2>=/`.
//! - **layout** ([`Layout`]): a box size and the mirrors in it, at most one
//!   per cell.
//! - **layout file**: `n` lines of `n` characters from `.`, `/`, `\` (spaces
//!   between them allowed, `#` comment lines and blank lines ignored); see
//!   [`Layout::parse`].
//! - **fixed game**: the original assignment's first game, [`Layout::fixed`].

use crate::geometry::{Cell, GeometryError, Size};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tabletop::Rng;

/// A two-sided mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Mirror {
    /// `/` (the original assignment's "right" baffle).
    #[serde(rename = "/")]
    Slash,
    /// `\` (the original assignment's "left" baffle).
    #[serde(rename = "\\")]
    Backslash,
}

impl Mirror {
    /// `/` or `\`.
    pub const fn symbol(self) -> char {
        match self {
            Self::Slash => '/',
            Self::Backslash => '\\',
        }
    }

    /// The mirror a character stands for.
    pub const fn from_symbol(c: char) -> Option<Self> {
        match c {
            '/' => Some(Self::Slash),
            '\\' => Some(Self::Backslash),
            _ => None,
        }
    }
}

impl fmt::Display for Mirror {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

impl FromStr for Mirror {
    type Err = LayoutError;
    /// Reads `/` or `\` (also the words `slash`, `right`, `backslash`, `left`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "/" | "slash" | "right" => Ok(Self::Slash),
            "\\" | "backslash" | "left" => Ok(Self::Backslash),
            other => Err(LayoutError::MirrorText(other.to_string())),
        }
    }
}

/// A mirror in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Placed {
    /// Where.
    #[serde(flatten)]
    pub cell: Cell,
    /// Which mirror.
    pub mirror: Mirror,
}

impl Placed {
    /// `mirror` at `cell`.
    pub const fn new(cell: Cell, mirror: Mirror) -> Self {
        Self { cell, mirror }
    }
}

impl fmt::Display for Placed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.cell, self.mirror)
    }
}

impl FromStr for Placed {
    type Err = LayoutError;
    /// Reads `<4,2>=/`, `4,2,/` or `4 2 /`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || LayoutError::PlacedText(t.to_string());
        let last = t.chars().next_back().ok_or_else(bad)?;
        let mirror = Mirror::from_symbol(last).ok_or_else(bad)?;
        let rest = t[..t.len() - last.len_utf8()].trim_end();
        let rest = rest
            .strip_suffix('=')
            .or_else(|| rest.strip_suffix(','))
            .unwrap_or(rest);
        let cell = rest.parse::<Cell>().map_err(|_| bad())?;
        Ok(Self { cell, mirror })
    }
}

/// Why a layout is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A bad size or a cell outside the box.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// Two mirrors in one cell.
    #[error("two mirrors in cell {0}")]
    Duplicate(Cell),
    /// The number of mirrors asked for does not fit the box.
    #[error("a {n}×{n} box holds 1 to {max} mirrors (half its cells), not {k}", max = n * n / 2)]
    MirrorCount {
        /// Mirrors asked for.
        k: usize,
        /// The box size.
        n: usize,
    },
    /// Text that is not a mirror.
    #[error("'{0}' is not a mirror: use / or \\")]
    MirrorText(String),
    /// Text that is not a placed mirror.
    #[error("'{0}' is not a placed mirror: write ROW,COL,/ or <ROW,COL>=\\")]
    PlacedText(String),
    /// A character that is not `.`, `/` or `\` in a layout file.
    #[error(
        "line {line}, column {column}: '{found}' is not a cell (use . for empty, / or \\ for a mirror)"
    )]
    Char {
        /// Line in the file, from 1.
        line: usize,
        /// Column in the line (characters), from 1.
        column: usize,
        /// What was there.
        found: char,
    },
    /// A row of the wrong length.
    #[error(
        "line {line}: {}, but the box is {expected} wide (the first row has {expected})",
        tabletop::count(*found as u64, "cell", "cells")
    )]
    RowLength {
        /// Line in the file, from 1.
        line: usize,
        /// Cells on that line.
        found: usize,
        /// Cells on the first row.
        expected: usize,
    },
    /// Not as many rows as columns.
    #[error(
        "a box is square: its rows have {}, but there {} {}{}",
        tabletop::count(*columns as u64, "cell", "cells"),
        tabletop::plural(*rows as u64, "is", "are"),
        tabletop::count(*rows as u64, "row", "rows"),
        at_line(*.line)
    )]
    NotSquare {
        /// Rows found.
        rows: usize,
        /// Cells per row.
        columns: usize,
        /// The first extra row's line, if there were too many.
        line: Option<usize>,
    },
    /// A file with no rows.
    #[error("the layout is empty: expected n lines of n cells (., / or \\)")]
    Empty,
}

fn at_line(line: Option<usize>) -> String {
    line.map_or_else(String::new, |l| format!(" (line {l} is one too many)"))
}

/// A box and the mirrors in it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "LayoutSpec", into = "LayoutSpec")]
pub struct Layout {
    size: Size,
    cells: Vec<Option<Mirror>>,
}

/// A layout as data: size and mirrors, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutSpec {
    /// `n`.
    pub size: usize,
    /// The mirrors.
    pub mirrors: Vec<Placed>,
}

impl TryFrom<LayoutSpec> for Layout {
    type Error = LayoutError;
    fn try_from(spec: LayoutSpec) -> Result<Self, Self::Error> {
        Self::new(Size::new(spec.size)?, &spec.mirrors)
    }
}

impl From<Layout> for LayoutSpec {
    fn from(layout: Layout) -> Self {
        Self {
            size: layout.size.n(),
            mirrors: layout.mirrors().collect(),
        }
    }
}

/// The original assignment's fixed first game on 10 × 10.
pub const FIXED: [(u32, u32, Mirror); 5] = [
    (0, 9, Mirror::Backslash),
    (4, 2, Mirror::Slash),
    (6, 0, Mirror::Backslash),
    (8, 2, Mirror::Slash),
    (8, 7, Mirror::Backslash),
];

impl Layout {
    /// A layout of `mirrors` in a box of `size` (any number of mirrors, none
    /// included: a layout for tracing need not be a playable game).
    ///
    /// # Errors
    /// Fails when a mirror is outside the box or two share a cell.
    pub fn new(size: Size, mirrors: &[Placed]) -> Result<Self, LayoutError> {
        let mut cells = vec![None; size.cells()];
        for p in mirrors {
            let cell = size.check_cell(p.cell)?;
            let slot = &mut cells[size.index(cell)];
            if slot.is_some() {
                return Err(LayoutError::Duplicate(cell));
            }
            *slot = Some(p.mirror);
        }
        Ok(Self { size, cells })
    }

    /// An empty box.
    pub fn empty(size: Size) -> Self {
        Self {
            size,
            cells: vec![None; size.cells()],
        }
    }

    /// The original assignment's fixed first game: 10 × 10 with `<0,9>=\`,
    /// `<4,2>=/`, `<6,0>=\`, `<8,2>=/`, `<8,7>=\`.
    pub fn fixed() -> Self {
        let mut layout = Self::empty(Size::default());
        for (row, col, m) in FIXED {
            let i = layout.size.index(Cell::new(row, col));
            layout.cells[i] = Some(m);
        }
        layout
    }

    /// A random layout: `k` mirrors on distinct cells, each `/` or `\` with
    /// equal chance, every such layout equally likely, drawn from `rng`.
    ///
    /// # Errors
    /// Fails unless 1 ≤ k ≤ n²/2.
    pub fn random(size: Size, k: usize, rng: &mut Rng) -> Result<Self, LayoutError> {
        check_mirror_count(size, k)?;
        let mut order: Vec<usize> = (0..size.cells()).collect();
        let mut cells = vec![None; size.cells()];
        // Partial Fisher–Yates: the first k of a uniform shuffle.
        for i in 0..k {
            let j = i + rng.below((order.len() - i) as u64) as usize;
            order.swap(i, j);
            let mirror = if rng.below(2) == 0 {
                Mirror::Slash
            } else {
                Mirror::Backslash
            };
            cells[order[i]] = Some(mirror);
        }
        Ok(Self { size, cells })
    }

    /// A random layout from a seed: the same seed, size and count give the
    /// same layout on every machine.
    ///
    /// # Errors
    /// Fails unless 1 ≤ k ≤ n²/2.
    pub fn seeded(size: Size, k: usize, seed: u64) -> Result<Self, LayoutError> {
        Self::random(size, k, &mut Rng::new(seed))
    }

    /// Reads a layout file: `n` lines of `n` cells, each `.` (empty), `/` or
    /// `\`. Cells may be separated by single spaces or tabs (so a row of the
    /// original assignment's printed box, without its labels, is accepted),
    /// trailing spaces are ignored, and so are blank lines and lines starting
    /// with `#`.
    ///
    /// # Errors
    /// Says the line and column of a bad character, the line of a row of the
    /// wrong length, and when the rows do not make a square of 4 to 26.
    pub fn parse(text: &str) -> Result<Self, LayoutError> {
        let mut rows: Vec<(usize, Vec<Option<Mirror>>)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let trimmed = line.trim_end();
            if trimmed.trim_start().is_empty() || trimmed.trim_start().starts_with('#') {
                continue;
            }
            let mut row = Vec::new();
            for (j, c) in trimmed.chars().enumerate() {
                match c {
                    '.' => row.push(None),
                    ' ' | '\t' => {}
                    _ => match Mirror::from_symbol(c) {
                        Some(m) => row.push(Some(m)),
                        None => {
                            return Err(LayoutError::Char {
                                line: line_no,
                                column: j + 1,
                                found: c,
                            });
                        }
                    },
                }
            }
            if let Some((_, first)) = rows.first()
                && first.len() != row.len()
            {
                return Err(LayoutError::RowLength {
                    line: line_no,
                    found: row.len(),
                    expected: first.len(),
                });
            }
            rows.push((line_no, row));
        }
        let columns = rows
            .first()
            .map(|(_, r)| r.len())
            .ok_or(LayoutError::Empty)?;
        if rows.len() != columns {
            return Err(LayoutError::NotSquare {
                rows: rows.len(),
                columns,
                line: rows.get(columns).map(|(l, _)| *l),
            });
        }
        let size = Size::new(columns)?;
        let cells = rows.into_iter().flat_map(|(_, r)| r).collect();
        Ok(Self { size, cells })
    }

    /// The layout file text: `n` lines of `.`, `/`, `\` (what
    /// [`Layout::parse`] reads back).
    pub fn to_file_text(&self) -> String {
        let n = self.size.n();
        let mut s = String::with_capacity(n * (n + 1));
        for row in self.cells.chunks(n) {
            s.extend(row.iter().map(|c| c.map_or('.', Mirror::symbol)));
            s.push('\n');
        }
        s
    }

    /// The box size.
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The mirror in a cell, if any (`None` also for a cell outside the box).
    pub fn get(&self, cell: Cell) -> Option<Mirror> {
        self.size
            .check_cell(cell)
            .ok()
            .and_then(|c| self.cells.get(self.size.index(c)).copied().flatten())
    }

    /// The mirror at a cell index, if any.
    pub fn at(&self, index: usize) -> Option<Mirror> {
        self.cells.get(index).copied().flatten()
    }

    /// The mirrors, row by row.
    pub fn mirrors(&self) -> impl Iterator<Item = Placed> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| Placed::new(self.size.cell(i), m)))
    }

    /// How many mirrors.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// The cells as a slice indexed by `row * n + col`.
    pub fn cells(&self) -> &[Option<Mirror>] {
        &self.cells
    }
}

/// Checks that a `size` box can hold `k` mirrors in a game: 1 ≤ k ≤ n²/2.
///
/// # Errors
/// Fails when it cannot.
pub const fn check_mirror_count(size: Size, k: usize) -> Result<(), LayoutError> {
    if k >= 1 && k <= size.cells() / 2 {
        Ok(())
    } else {
        Err(LayoutError::MirrorCount { k, n: size.n() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_game_has_the_original_mirrors() {
        let l = Layout::fixed();
        let text: Vec<String> = l.mirrors().map(|p| p.to_string()).collect();
        assert_eq!(
            text,
            ["<0,9>=\\", "<4,2>=/", "<6,0>=\\", "<8,2>=/", "<8,7>=\\"]
        );
        assert_eq!(l.count(), 5);
        assert_eq!(l.size().n(), 10);
    }

    #[test]
    fn layout_files_round_trip() {
        let l = Layout::fixed();
        let text = l.to_file_text();
        assert_eq!(text.lines().count(), 10);
        assert_eq!(text.lines().next(), Some(".........\\"));
        assert_eq!(Layout::parse(&text), Ok(l.clone()));
        // The original assignment's printed rows (with spaces), comments and
        // blank lines.
        let spaced = "# the fixed game\n\n".to_string()
            + &text
                .lines()
                .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" ") + "  ")
                .collect::<Vec<_>>()
                .join("\n")
            + "\n\n";
        assert_eq!(Layout::parse(&spaced), Ok(l));
    }

    #[test]
    fn bad_layout_files_say_where() {
        let e = Layout::parse("....\n..x.\n....\n....\n").unwrap_err();
        assert_eq!(
            e,
            LayoutError::Char {
                line: 2,
                column: 3,
                found: 'x'
            }
        );
        assert!(e.to_string().starts_with("line 2, column 3: 'x'"), "{e}");
        let e = Layout::parse("....\n...\n....\n....\n").unwrap_err();
        assert_eq!(
            e,
            LayoutError::RowLength {
                line: 2,
                found: 3,
                expected: 4
            }
        );
        let e = Layout::parse("....\n....\n....\n").unwrap_err();
        assert!(e.to_string().contains("3 rows"), "{e}");
        let e = Layout::parse("....\n....\n....\n....\n....\n").unwrap_err();
        assert!(e.to_string().contains("line 5"), "{e}");
        let e = Layout::parse("...\n...\n...\n").unwrap_err();
        assert!(e.to_string().contains("4 to 26"), "{e}");
        assert_eq!(Layout::parse("# nothing\n\n"), Err(LayoutError::Empty));
        assert_eq!(Layout::parse(""), Err(LayoutError::Empty));
    }

    #[test]
    fn random_layouts_are_seeded_and_valid() {
        let size = Size::new(10).unwrap();
        let a = Layout::seeded(size, 5, 42).unwrap();
        assert_eq!(a, Layout::seeded(size, 5, 42).unwrap());
        assert_ne!(a, Layout::seeded(size, 5, 43).unwrap());
        assert_eq!(a.count(), 5);
        let full = Layout::seeded(size, 50, 1).unwrap();
        assert_eq!(full.count(), 50);
        assert!(Layout::seeded(size, 0, 1).is_err());
        assert!(Layout::seeded(size, 51, 1).is_err());
        // Every cell and both mirrors turn up.
        let mut seen = [[false; 2]; 100];
        for seed in 0..400 {
            for p in Layout::seeded(size, 5, seed).unwrap().mirrors() {
                seen[size.index(p.cell)][p.mirror as usize] = true;
            }
        }
        assert!(seen.iter().all(|s| s[0] && s[1]));
    }

    #[test]
    fn layouts_check_cells_and_serialize() {
        let size = Size::new(4).unwrap();
        let p = Placed::new(Cell::new(1, 1), Mirror::Slash);
        assert_eq!(
            Layout::new(size, &[p, p]),
            Err(LayoutError::Duplicate(Cell::new(1, 1)))
        );
        assert!(Layout::new(size, &[Placed::new(Cell::new(4, 0), Mirror::Slash)]).is_err());
        let l = Layout::fixed();
        let json = serde_json::to_string(&l).unwrap();
        assert!(
            json.starts_with(r#"{"size":10,"mirrors":[{"row":0,"col":9,"mirror":"\\"}"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Layout>(&json).unwrap(), l);
        let bad = r#"{"size":10,"mirrors":[{"row":10,"col":9,"mirror":"/"}]}"#;
        assert!(serde_json::from_str::<Layout>(bad).is_err());
    }

    #[test]
    fn placed_mirrors_parse() {
        let p = Placed::new(Cell::new(4, 2), Mirror::Slash);
        assert_eq!("<4,2>=/".parse::<Placed>(), Ok(p));
        assert_eq!("4,2,/".parse::<Placed>(), Ok(p));
        assert_eq!("4 2 /".parse::<Placed>(), Ok(p));
        assert_eq!(
            "0,9,\\".parse::<Placed>(),
            Ok(Placed::new(Cell::new(0, 9), Mirror::Backslash))
        );
        assert!("4,2".parse::<Placed>().is_err());
        assert!("".parse::<Placed>().is_err());
        assert!("x/".parse::<Placed>().is_err());
        assert_eq!(p.to_string().parse::<Placed>(), Ok(p));
        assert_eq!("right".parse::<Mirror>(), Ok(Mirror::Slash));
        assert!("|".parse::<Mirror>().is_err());
    }
}
