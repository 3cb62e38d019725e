//! The look of a designed board: the rules a board a designer would
//! publish keeps, each one switchable, and how a board stands against them.
//!
//! Terms:
//! - **picture**: the board drawn on its default grid (boustrophedon, as
//!   near square as the squares allow; square 1 bottom left); a jump is the
//!   straight line between the centres of its two squares.
//! - **first row**: the bottom row of the picture, squares 1 to the
//!   number of columns: a jump there decides the game at its first rolls.
//! - **crossing**: two jumps whose lines meet (or overlap) in the picture.
//! - **touching ends**: an end of one jump on a square beside or directly
//!   above or below an end of another (ends stacked together).
//! - **kept jump**: a jump of the board a design started from (`--from`),
//!   left as it was: the rules are asked of new and moved jumps only.

use crate::board::Jump;
use serde::Serialize;
use tabletop::{Cell, Geometry, Numbering};

/// The crossings a designed board may have unless asked otherwise.
pub const DEFAULT_CROSSINGS: u32 = 2;

/// The rules a designed board keeps (each `true` allows what it names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Quality {
    /// May a ladder end on the finish?
    pub finish: bool,
    /// May a jump start in the first row?
    pub first_row: bool,
    /// May two jumps' ends touch?
    pub touching: bool,
    /// The most crossing pairs of jumps.
    pub crossings: u32,
}

impl Default for Quality {
    /// A board a designer would publish: no ladder to the finish, no jump
    /// in the first row, no touching ends, at most [`DEFAULT_CROSSINGS`]
    /// crossings.
    fn default() -> Self {
        Self {
            finish: false,
            first_row: false,
            touching: false,
            crossings: DEFAULT_CROSSINGS,
        }
    }
}

impl Quality {
    /// No rule at all: any board of the shape.
    pub fn any() -> Self {
        Self {
            finish: true,
            first_row: true,
            touching: true,
            crossings: u32::MAX,
        }
    }

    /// The default rules with at most `crossings` crossings and the rules
    /// `allow` names switched off: `finish`, `first-row`, `touching`,
    /// `crossings`, or `all`.
    ///
    /// # Errors
    /// A name that is no rule, in words that list the names.
    pub fn allowing<S: AsRef<str>>(allow: &[S], crossings: u32) -> Result<Self, String> {
        let mut q = Self {
            crossings,
            ..Self::default()
        };
        for rule in allow {
            match rule.as_ref().trim() {
                "finish" => q.finish = true,
                "first-row" | "first_row" => q.first_row = true,
                "touching" => q.touching = true,
                "crossings" => q.crossings = u32::MAX,
                "all" => q = Self::any(),
                "" => {}
                other => {
                    return Err(format!(
                        "'{other}' is not a board rule: give finish, first-row, touching, crossings or all"
                    ));
                }
            }
        }
        Ok(q)
    }
}

/// The picture's grid for a board of `size` squares.
pub(crate) struct Picture {
    geometry: Geometry,
}

impl Picture {
    pub(crate) fn new(size: u32) -> Self {
        Self {
            geometry: Geometry::fitting(size, Numbering::Boustrophedon),
        }
    }

    /// The squares of the first row.
    pub(crate) fn first_row(&self) -> u32 {
        self.geometry.cols()
    }

    fn cell(&self, square: u32) -> (i64, i64) {
        let Cell { row, col } = self.geometry.cell_of(square).unwrap_or(Cell {
            row: self.geometry.rows(),
            col: 0,
        });
        (i64::from(col), i64::from(row))
    }

    /// Do squares `a` and `b` touch (side by side or one above the other)?
    pub(crate) fn touching(&self, a: u32, b: u32) -> bool {
        let (p, q) = (self.cell(a), self.cell(b));
        (p.0 - q.0).abs() + (p.1 - q.1).abs() == 1
    }

    /// Do two jumps' ends touch (or share a square)?
    pub(crate) fn ends_touch(&self, a: Jump, b: Jump) -> bool {
        [a.from, a.to].iter().any(|&x| {
            [b.from, b.to]
                .iter()
                .any(|&y| x == y || self.touching(x, y))
        })
    }

    /// Do the lines of two jumps meet (an end shared by a chain counts not)?
    pub(crate) fn cross(&self, a: Jump, b: Jump) -> bool {
        let shared = [a.from, a.to].iter().any(|x| [b.from, b.to].contains(x));
        if shared {
            return false;
        }
        let (p1, p2) = (self.cell(a.from), self.cell(a.to));
        let (q1, q2) = (self.cell(b.from), self.cell(b.to));
        segments_meet(p1, p2, q1, q2)
    }

    /// Crossing pairs among `jumps`.
    pub(crate) fn crossings(&self, jumps: &[Jump]) -> u32 {
        let mut n = 0;
        for (i, &a) in jumps.iter().enumerate() {
            for &b in &jumps[i + 1..] {
                n += u32::from(self.cross(a, b));
            }
        }
        n
    }
}

/// The sign of the turn p → q → r.
fn turn(p: (i64, i64), q: (i64, i64), r: (i64, i64)) -> i64 {
    ((q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)).signum()
}

/// Is `r` on the segment p–q, given the three are in line?
fn within(p: (i64, i64), q: (i64, i64), r: (i64, i64)) -> bool {
    r.0 >= p.0.min(q.0) && r.0 <= p.0.max(q.0) && r.1 >= p.1.min(q.1) && r.1 <= p.1.max(q.1)
}

/// Do the closed segments p1–p2 and q1–q2 meet?
fn segments_meet(p1: (i64, i64), p2: (i64, i64), q1: (i64, i64), q2: (i64, i64)) -> bool {
    let (d1, d2) = (turn(q1, q2, p1), turn(q1, q2, p2));
    let (d3, d4) = (turn(p1, p2, q1), turn(p1, p2, q2));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && within(q1, q2, p1))
        || (d2 == 0 && within(q1, q2, p2))
        || (d3 == 0 && within(p1, p2, q1))
        || (d4 == 0 && within(p1, p2, q2))
}

/// How a board stands against one rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleCheck {
    /// `finish`, `first_row`, `lengths`, `touching` or `crossings`.
    pub rule: &'static str,
    /// The rule in words.
    pub text: String,
    /// Was the rule asked for (not switched off)?
    pub on: bool,
    /// The jumps that break it (for crossings, the count), kept jumps
    /// included.
    pub broken_by: Vec<Jump>,
    /// Does the board keep the rule, counting only new and moved jumps?
    pub kept: bool,
}

/// Each rule beside `jumps` (of a board of `size` squares, jump lengths
/// `min_jump..=max_jump`), with `kept` the jumps a `--from` design left as
/// they were and `allowed_crossings` the most crossings asked.
pub(crate) fn check_rules(
    size: u32,
    quality: &Quality,
    lengths: (u32, u32),
    jumps: &[Jump],
    kept: &[Jump],
    allowed_crossings: u32,
) -> Vec<RuleCheck> {
    let picture = Picture::new(size);
    let new = |j: &&Jump| !kept.contains(j);
    let finish: Vec<Jump> = jumps.iter().copied().filter(|j| j.to == size).collect();
    let first: Vec<Jump> = jumps
        .iter()
        .copied()
        .filter(|j| j.from <= picture.first_row())
        .collect();
    let long: Vec<Jump> = jumps
        .iter()
        .copied()
        .filter(|j| {
            let len = j.from.abs_diff(j.to);
            len < lengths.0 || len > lengths.1
        })
        .collect();
    let mut touching = Vec::new();
    for (i, &a) in jumps.iter().enumerate() {
        for &b in &jumps[i + 1..] {
            if picture.ends_touch(a, b) && a.to != b.from && b.to != a.from {
                touching.extend([a, b]);
            }
        }
    }
    touching.sort_unstable();
    touching.dedup();
    let crossings = picture.crossings(jumps);
    let only_new = |v: &[Jump]| v.iter().filter(new).count() == 0;
    vec![
        RuleCheck {
            rule: "finish",
            text: "no ladder onto the finish".into(),
            on: !quality.finish,
            kept: quality.finish || only_new(&finish),
            broken_by: finish,
        },
        RuleCheck {
            rule: "first_row",
            text: format!(
                "no jump starting in the first row (squares 1 to {})",
                picture.first_row()
            ),
            on: !quality.first_row,
            kept: quality.first_row || only_new(&first),
            broken_by: first,
        },
        RuleCheck {
            rule: "lengths",
            text: format!("jumps of {} to {} squares", lengths.0, lengths.1),
            on: true,
            kept: only_new(&long),
            broken_by: long,
        },
        RuleCheck {
            rule: "touching",
            text: "no two jumps' ends touching".into(),
            on: !quality.touching,
            kept: quality.touching || only_new(&touching),
            broken_by: touching,
        },
        RuleCheck {
            rule: "crossings",
            text: format!("{crossings} crossings (at most {allowed_crossings})"),
            on: quality.crossings != u32::MAX,
            kept: crossings <= allowed_crossings,
            broken_by: Vec::new(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossings_and_touching_ends_are_read_off_the_picture() {
        // 100 squares: 10 × 10, square 1 bottom left, 11 above 10.
        let p = Picture::new(100);
        assert_eq!(p.first_row(), 10);
        assert!(p.touching(10, 11) && p.touching(1, 20) && p.touching(5, 6));
        assert!(!p.touching(10, 12) && !p.touching(1, 21));
        // 2->19 and 3->18 run side by side up columns 1 and 2.
        assert!(!p.cross(Jump::new(2, 19), Jump::new(3, 18)));
        // 1->100 runs up the left column, 10->91 up the right: apart; the
        // two diagonals 1->91 and 10->100 cross.
        assert!(!p.cross(Jump::new(1, 100), Jump::new(10, 91)));
        assert!(p.cross(Jump::new(1, 91), Jump::new(10, 100)));
        // Lines in one column that overlap count as crossing.
        assert!(p.cross(Jump::new(1, 100), Jump::new(20, 41)));
        // A chain shares a square: not a crossing.
        assert!(!p.cross(Jump::new(5, 40), Jump::new(40, 70)));
        assert_eq!(
            p.crossings(&[Jump::new(1, 91), Jump::new(10, 100), Jump::new(50, 47)]),
            1
        );
    }
}
