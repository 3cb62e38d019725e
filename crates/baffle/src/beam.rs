//! The beam tracer: the one place a beam is followed through a box.
//!
//! Terms:
//! - **beam** ([`Beam`]): a shot's entry hole, exit hole and path.
//! - **step** ([`Step`]): one cell of the path, with the heading the beam
//!   had entering it and the heading it leaves with; a step whose headings
//!   differ is a **turn** (a deflection).
//! - **walk** ([`walk`]): the tracer itself, over any way of looking up a
//!   cell's mirror; [`trace`] and [`exit`] are it over a [`Layout`].
//! - **last pair** ([`last_pair`]): the two holes whose beams must lead to
//!   each other once every other hole's partner is known (below: the holes
//!   pair off), so that a shot into either tells nothing new.
//!
//! Why a beam always leaves, and never by its entry hole (tested exhaustively
//! on small boxes in this module): think of the sides of the cells (the
//! boundaries between neighbours, and the holes on the edge) as points. Each
//! cell joins its four sides in two pairs: straight across when empty, or
//! round the corner for a mirror (`/` joins west–north and south–east, `\`
//! joins west–south and north–east). So every inner side is joined to exactly
//! two others (one through each neighbouring cell) and every hole to exactly
//! one. A graph in which every point has at most two links is a set of paths
//! and loops; the holes, with one link each, are the ends of paths. A beam
//! follows the path from its hole, so it cannot loop forever, and leaves by
//! the path's other end, a different hole. Paths pair the holes: a beam
//! from `h` leaves by `e` exactly when a beam from `e` leaves by `h`. Each
//! side is crossed at most once, so a beam crosses at most `2n(n+1)` sides
//! and visits a cell at most twice.

use crate::geometry::{Cell, Dir, GeometryError, Size};
use crate::layout::{Layout, Mirror};
use serde::{Deserialize, Serialize};

/// One cell of a beam's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The cell.
    pub cell: Cell,
    /// The heading entering the cell.
    #[serde(rename = "in")]
    pub heading_in: Dir,
    /// The heading leaving the cell (different when the cell's mirror turned
    /// the beam).
    #[serde(rename = "out")]
    pub heading_out: Dir,
}

impl Step {
    /// Whether the beam turned here.
    pub fn turned(&self) -> bool {
        self.heading_in != self.heading_out
    }
}

/// A shot's whole story: where it entered, where it left, and its path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beam {
    /// The hole it entered by.
    pub entry: usize,
    /// The hole it left by.
    pub exit: usize,
    /// The cells it crossed, in order.
    pub path: Vec<Step>,
}

impl Beam {
    /// The number of deflections (turns).
    pub fn deflections(&self) -> usize {
        self.path.iter().filter(|s| s.turned()).count()
    }

    /// The cells where it turned.
    pub fn turns(&self) -> impl Iterator<Item = &Step> {
        self.path.iter().filter(|s| s.turned())
    }
}

/// Where a beam left, and how many times it turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exit {
    /// The hole it left by.
    pub hole: usize,
    /// Its deflections.
    pub deflections: usize,
}

/// Follows a beam shot into `hole` through a box of `size` whose cell at
/// index `i` holds `mirror_at(i)`, calling `on_step(index, heading_in,
/// heading_out)` for every cell crossed. This is Parlor's one beam tracer.
///
/// # Errors
/// Fails when the box has no such hole.
pub fn walk(
    size: Size,
    hole: usize,
    mirror_at: impl Fn(usize) -> Option<Mirror>,
    mut on_step: impl FnMut(usize, Dir, Dir),
) -> Result<Exit, GeometryError> {
    let (mut index, mut heading) = size
        .entry(size.check_hole(hole)?)
        .ok_or(GeometryError::Hole { hole, n: size.n() })?;
    let mut deflections = 0;
    // The loop ends: see the module documentation.
    loop {
        let out = heading.turn(mirror_at(index));
        on_step(index, heading, out);
        if out != heading {
            deflections += 1;
            heading = out;
        }
        match size.advance(index, heading) {
            Ok(next) => index = next,
            Err(exit) => {
                return Ok(Exit {
                    hole: exit,
                    deflections,
                });
            }
        }
    }
}

/// The beam shot into `hole` of `layout`, with its path.
///
/// # Errors
/// Fails when the box has no such hole.
pub fn trace(layout: &Layout, hole: usize) -> Result<Beam, GeometryError> {
    let size = layout.size();
    let mut path = Vec::new();
    let exit = walk(
        size,
        hole,
        |i| layout.at(i),
        |i, heading_in, heading_out| {
            path.push(Step {
                cell: size.cell(i),
                heading_in,
                heading_out,
            });
        },
    )?;
    Ok(Beam {
        entry: hole,
        exit: exit.hole,
        path,
    })
}

/// Where the beam shot into `hole` of `layout` leaves, without its path.
///
/// # Errors
/// Fails when the box has no such hole.
pub fn exit(layout: &Layout, hole: usize) -> Result<Exit, GeometryError> {
    walk(layout.size(), hole, |i| layout.at(i), |_, _, _| {})
}

/// The [last pair](self): when exactly two of the box's holes have no
/// known partner (`paired(h)` tells whether hole `h`'s has been seen, as
/// a shot's entry or exit), they lead to each other in every layout,
/// whichever sides beams may be shot from, since the holes pair off (see
/// the module's documentation). None otherwise.
pub fn last_pair(size: Size, paired: impl Fn(usize) -> bool) -> Option<(usize, usize)> {
    let mut unpaired = (0..size.holes()).filter(|&h| !paired(h));
    match (unpaired.next(), unpaired.next(), unpaired.next()) {
        (Some(a), Some(b), None) => Some((a, b)),
        _ => None,
    }
}

impl Layout {
    /// The beam shot into `hole` (see [`trace`]).
    ///
    /// # Errors
    /// Fails when the box has no such hole.
    pub fn trace(&self, hole: usize) -> Result<Beam, GeometryError> {
        trace(self, hole)
    }

    /// Every hole's beam, in hole order.
    pub fn trace_all(&self) -> Vec<Beam> {
        (0..self.size().holes())
            .filter_map(|h| trace(self, h).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Side;
    use crate::layout::Placed;

    #[test]
    fn the_original_assignments_checks() {
        let l = Layout::fixed();
        let b = l.trace(7).unwrap();
        assert_eq!((b.exit, b.deflections()), (22, 0));
        let b = l.trace(5).unwrap();
        assert_eq!((b.exit, b.deflections()), (12, 1));
        let b = l.trace(1).unwrap();
        assert_eq!((b.exit, b.deflections()), (24, 2));
        let turns: Vec<String> = b.turns().map(|s| s.cell.to_string()).collect();
        assert_eq!(turns, ["<8,2>", "<4,2>"]);
        assert!(l.trace(40).is_err());
    }

    /// The original assignment says that, shot only from the left and the
    /// top, its first game's one undetectable baffle would be at row "3",
    /// column "2". Its own box does not bear that out: each of the five
    /// mirrors changes the exit of some left or top shot (taken away, those
    /// shots come out elsewhere), and a sixth mirror of either kind on any
    /// empty cell would change one too. (docs/baffle.md says so.)
    #[test]
    fn every_mirror_of_the_fixed_game_shows_from_the_left_and_top() {
        let fixed = Layout::fixed();
        let size = fixed.size();
        let exits = |layout: &Layout| -> Vec<usize> {
            size.shootable(crate::Sides::LeftTop)
                .map(|h| layout.trace(h).unwrap().exit)
                .collect()
        };
        let seen = exits(&fixed);
        assert_eq!(seen.len(), 20);
        let mirrors: Vec<Placed> = fixed.mirrors().collect();
        let mut changed_by = Vec::new();
        for gone in &mirrors {
            let rest: Vec<Placed> = mirrors.iter().copied().filter(|m| m != gone).collect();
            let without = Layout::new(size, &rest).unwrap();
            let after = exits(&without);
            let holes: Vec<usize> = size
                .shootable(crate::Sides::LeftTop)
                .zip(seen.iter().zip(&after))
                .filter(|(_, (a, b))| a != b)
                .map(|(h, _)| h)
                .collect();
            changed_by.push((gone.cell.to_string(), holes));
        }
        let expect = |cell: &str, holes: &[usize]| (cell.to_string(), holes.to_vec());
        assert_eq!(
            changed_by,
            [
                expect("<0,9>", &[9, 19]),
                expect("<4,2>", &[1, 5, 12]),
                expect("<6,0>", &[3, 10]),
                expect("<8,2>", &[1]),
                expect("<8,7>", &[17]),
            ]
        );
        for row in 0..10 {
            for col in 0..10 {
                let cell = Cell::new(row, col);
                if fixed.get(cell).is_some() {
                    continue;
                }
                for mirror in [Mirror::Slash, Mirror::Backslash] {
                    let mut more = mirrors.clone();
                    more.push(Placed { cell, mirror });
                    let with = Layout::new(size, &more).unwrap();
                    assert_ne!(exits(&with), seen, "a {mirror:?} at {cell} hides");
                }
            }
        }
    }

    /// A second tracer, written independently of [`walk`] and of
    /// `Size::entry`/`advance`: it moves a point in (x, y) coordinates with
    /// y up, holes placed by their side and offset, and mirrors as
    /// reflections of the direction vector (`/` swaps (dx, dy); `\` swaps
    /// and negates).
    fn independent_exit(layout: &Layout, hole: usize) -> (usize, usize) {
        let n = layout.size().n() as i64;
        let h = hole as i64;
        // Position as (x = column, y = row counted from the bottom).
        let (mut x, mut y, mut dx, mut dy) = match h / n {
            0 => (0, h, 1, 0),
            1 => (h - n, n - 1, 0, -1),
            2 => (n - 1, n - 1 - (h - 2 * n), -1, 0),
            _ => (n - 1 - (h - 3 * n), 0, 0, 1),
        };
        let mut turns = 0;
        loop {
            let row = (n - 1 - y) as u32;
            let cell = Cell::new(row, x as u32);
            match layout.get(cell) {
                Some(Mirror::Slash) => {
                    (dx, dy) = (dy, dx);
                    turns += 1;
                }
                Some(Mirror::Backslash) => {
                    (dx, dy) = (-dy, -dx);
                    turns += 1;
                }
                None => {}
            }
            x += dx;
            y += dy;
            let exit = if x < 0 {
                Some(y)
            } else if y >= n {
                Some(n + x)
            } else if x >= n {
                Some(2 * n + (n - 1 - y))
            } else if y < 0 {
                Some(3 * n + (n - 1 - x))
            } else {
                None
            };
            if let Some(e) = exit {
                return (e as usize, turns);
            }
        }
    }

    /// The fixed game's whole beam table, every hole, traced by hand (see
    /// the file for the reasoning of each line).
    fn fixed_table() -> Vec<(usize, usize, usize)> {
        include_str!("../tests/data/fixed-game-beams.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let v: Vec<usize> = l
                    .split_whitespace()
                    .take(3)
                    .map(|x| x.parse().unwrap())
                    .collect();
                (v[0], v[1], v[2])
            })
            .collect()
    }

    #[test]
    fn the_fixed_game_beam_table() {
        let l = Layout::fixed();
        let table = fixed_table();
        assert_eq!(table.len(), 40);
        for (hole, exit, deflections) in table {
            let b = l.trace(hole).unwrap();
            assert_eq!(
                (b.exit, b.deflections()),
                (exit, deflections),
                "hole {hole}"
            );
            assert_eq!(
                independent_exit(&l, hole),
                (exit, deflections),
                "hole {hole}"
            );
        }
    }

    /// Only two holes left unpaired make a last pair; none or four, not.
    #[test]
    fn the_last_pair_is_two_holes_left_and_only_two() {
        let size = Size::new(4).unwrap();
        assert_eq!(last_pair(size, |h| h != 3 && h != 9), Some((3, 9)));
        assert_eq!(last_pair(size, |_| true), None);
        assert_eq!(last_pair(size, |h| h != 3), None);
        assert_eq!(last_pair(size, |h| ![1, 2, 5, 6].contains(&h)), None);
    }

    /// Every layout of up to two mirrors on 4 × 4 and 5 × 5, and many random
    /// denser ones: no beam leaves by its entry hole, beams pair the holes,
    /// and the tracers agree.
    #[test]
    fn beams_never_return_and_pair_the_holes() {
        let check = |l: &Layout| {
            let size = l.size();
            for h in 0..size.holes() {
                let b = l.trace(h).unwrap();
                assert_ne!(b.exit, h, "{l:?}");
                assert_eq!(l.trace(b.exit).unwrap().exit, h);
                assert_eq!(independent_exit(l, h), (b.exit, b.deflections()));
                assert!(b.path.len() <= 2 * size.cells());
                // The reversed beam retraces the path backwards.
                let back = l.trace(b.exit).unwrap();
                let fwd: Vec<Cell> = b.path.iter().map(|s| s.cell).collect();
                let mut rev: Vec<Cell> = back.path.iter().map(|s| s.cell).collect();
                rev.reverse();
                assert_eq!(fwd, rev);
            }
        };
        // Exhaustive: every layout of up to five mirrors on 4 × 4 (174,193
        // layouts) and of up to two on 5 × 5.
        fn each_layout(
            size: Size,
            k: usize,
            from: usize,
            placed: &mut Vec<Placed>,
            f: &dyn Fn(&Layout),
        ) {
            f(&Layout::new(size, placed).unwrap());
            if placed.len() == k {
                return;
            }
            for i in from..size.cells() {
                for m in [Mirror::Slash, Mirror::Backslash] {
                    placed.push(Placed::new(size.cell(i), m));
                    each_layout(size, k, i + 1, placed, f);
                    placed.pop();
                }
            }
        }
        each_layout(Size::new(4).unwrap(), 5, 0, &mut Vec::new(), &check);
        each_layout(Size::new(5).unwrap(), 2, 0, &mut Vec::new(), &check);
        // Random denser layouts, small and large.
        let size = Size::new(4).unwrap();
        for seed in 0..3000 {
            let k = 1 + (seed as usize % 8);
            check(&Layout::seeded(size, k, seed).unwrap());
        }
        for n in [6, 9, 13, 26] {
            let size = Size::new(n).unwrap();
            for seed in 0..40 {
                let k = 1 + (seed as usize * 7919) % (size.cells() / 2);
                check(&Layout::seeded(size, k, seed).unwrap());
            }
        }
    }

    #[test]
    fn every_filling_of_four_by_four_is_well_behaved() {
        // All 3^16 = 43,046,721 fillings of the 4 × 4 box (mirror counts
        // beyond any game's limit included), using the exit-only walk.
        let size = Size::new(4).unwrap();
        let mut cells = [None; 16];
        let options = [None, Some(Mirror::Slash), Some(Mirror::Backslash)];
        let total = 3u64.pow(16);
        // Enumerate a strided subset in debug builds to keep tests quick;
        // every filling is enumerated in release builds.
        let stride = if cfg!(debug_assertions) { 97 } else { 1 };
        let mut code = 0;
        while code < total {
            let mut c = code;
            for cell in &mut cells {
                *cell = options[(c % 3) as usize];
                c /= 3;
            }
            let mut exits = [0usize; 16];
            for (h, slot) in exits.iter_mut().enumerate() {
                let e = walk(size, h, |i| cells[i], |_, _, _| {}).unwrap();
                assert_ne!(e.hole, h);
                *slot = e.hole;
            }
            for (h, &e) in exits.iter().enumerate() {
                assert_eq!(exits[e], h);
            }
            code += stride;
        }
    }

    #[test]
    fn sides_of_exits_make_sense() {
        let l = Layout::fixed();
        for b in l.trace_all() {
            // A beam with no turn leaves straight across.
            if b.deflections() == 0 {
                assert_eq!(Some(b.exit), l.size().opposite(b.entry));
            }
            // One turn: it leaves by a side next to the entry side.
            if b.deflections() == 1 {
                let (a, e) = (l.size().side(b.entry), l.size().side(b.exit));
                let horizontal = |s: Option<Side>| matches!(s, Some(Side::Left | Side::Right));
                assert_ne!(horizontal(a), horizontal(e));
            }
        }
    }
}
