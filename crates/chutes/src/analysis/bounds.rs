//! Proven bounds on what any board of a designed shape can do, found
//! before a search so that an impossible target is answered at once.
//!
//! Terms:
//! - **relaxation**: a game in which the player, on landing on any square
//!   where the shape lets a jump start, may choose to take any jump the
//!   shape allows from there (a ladder if ladders are allowed, a chute if
//!   chutes are), or none. Every real board of the shape is one way of
//!   choosing, so the best the player can do in the relaxation is a bound
//!   for every board.
//! - **least mean**: the relaxation's least expected number of rolls, by
//!   value iteration from zero (Gauss–Seidel, from the finish down). Each
//!   sweep only raises the values and never past the relaxation's true
//!   value, so the figure after any number of sweeps is a valid lower bound
//!   on every board's mean game length.
//! - **least shortest**: the fewest rolls of any game in the relaxation
//!   (breadth-first over square and ladders climbed, since a shortest game
//!   never climbs the same ladder twice): no board's shortest game is
//!   shorter.
//! - **most shortest**: a game never stands on the same square twice on its
//!   shortest way, nor on a jump's start, so no board's shortest game is
//!   longer than the squares a token can stand on.

use crate::board::Board;
use crate::rules::{Outcome, Rules};
use std::collections::VecDeque;

/// The shape as the relaxation sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Relaxation {
    /// The last square.
    pub size: u32,
    /// Jump lengths allowed.
    pub min_jump: u32,
    /// Jump lengths allowed.
    pub max_jump: u32,
    /// May the board have a ladder?
    pub ladders: bool,
    /// The most ladders.
    pub most_ladders: u32,
    /// May the board have a chute?
    pub chutes: bool,
    /// May jumps chain?
    pub chains: bool,
    /// May a ladder end on the finish?
    pub finish: bool,
    /// Squares `1..=first_row` start no jump.
    pub first_row: u32,
}

/// Work (square × roll steps) the least-mean bound spends at most.
const MEAN_WORK: u64 = 60_000_000;

impl Relaxation {
    /// The squares a jump from `l` may end on, ladders then chutes, as
    /// inclusive ranges.
    fn ends(&self, l: u32) -> [Option<(u32, u32)>; 2] {
        let n = self.size;
        if l == 0 || l >= n || l <= self.first_row {
            return [None, None];
        }
        let top = if self.finish { n } else { n - 1 };
        let ladder = self.ladders.then(|| {
            if self.chains {
                (l + 1, top)
            } else {
                (l + self.min_jump, (l + self.max_jump).min(top))
            }
        });
        let chute = self.chutes.then(|| {
            if self.chains {
                (1, l - 1)
            } else {
                (
                    l.saturating_sub(self.max_jump).max(1),
                    l.saturating_sub(self.min_jump),
                )
            }
        });
        [
            ladder.filter(|(a, b)| a <= b),
            chute.filter(|(a, b)| a <= b && *b >= 1),
        ]
    }

    /// The landing squares of each roll from each state (`None`: a lost
    /// turn), read off [`Rules::step`] on the empty board.
    fn landings(&self, rules: &Rules) -> Vec<Vec<Option<u32>>> {
        let board = Board::empty(self.size);
        (0..self.size)
            .map(|s| {
                (1..=rules.faces())
                    .map(|r| {
                        let step = rules.step(&board, s, r);
                        (step.outcome != Outcome::LostTurn).then_some(step.landed)
                    })
                    .collect()
            })
            .collect()
    }

    /// A lower bound on every board's mean game length (from square 0).
    pub(crate) fn least_mean(&self, rules: &Rules) -> f64 {
        let n = self.size as usize;
        let faces = f64::from(rules.faces());
        let landings = self.landings(rules);
        let ends: Vec<[Option<(u32, u32)>; 2]> = (0..=self.size).map(|l| self.ends(l)).collect();
        let mut v = vec![0.0f64; n + 1];
        let sweep_work = (n as u64 + 1) * (u64::from(rules.faces()) + 20);
        let sweeps = (MEAN_WORK / sweep_work.max(1)).max(1);
        for _ in 0..sweeps {
            let table = MinTable::new(&v);
            let mut change = 0.0f64;
            for s in (0..n).rev() {
                let (mut sum, mut lost) = (0.0, 0.0);
                for landed in &landings[s] {
                    match *landed {
                        None => lost += 1.0,
                        Some(l) => {
                            let li = l as usize;
                            let mut w = v[li];
                            for (a, b) in ends[li].iter().flatten() {
                                w = w.min(table.min(*a as usize, *b as usize));
                            }
                            if li == n {
                                w = 0.0;
                            }
                            sum += w;
                        }
                    }
                }
                let value = (1.0 + sum / faces) / (1.0 - lost / faces);
                if value.is_finite() {
                    change = change.max(value - v[s]);
                    v[s] = value;
                }
            }
            if change <= 1e-12 * v[0].max(1.0) {
                break;
            }
        }
        v[0]
    }

    /// The fewest rolls of any game on any board of the shape.
    pub(crate) fn least_shortest(&self, rules: &Rules) -> Option<u32> {
        let n = self.size as usize;
        // Track ladders climbed when few; otherwise let every game climb
        // any number (a looser, still valid, bound).
        let layers = if self.ladders && self.most_ladders <= 16 {
            self.most_ladders as usize + 1
        } else {
            1
        };
        let landings = self.landings(rules);
        let at = |s: usize, k: usize| k * n + s;
        let mut seen = vec![false; n * layers];
        // Unvisited squares per layer, for visiting a jump's range once.
        let mut next: Vec<Vec<u32>> = (0..layers).map(|_| (0..=n as u32).collect()).collect();
        let mut queue = VecDeque::from([(0usize, 0usize, 0u32)]);
        seen[at(0, 0)] = true;
        while let Some((s, k, d)) = queue.pop_front() {
            for landed in landings[s].iter().flatten() {
                let l = *landed as usize;
                if l == n {
                    return Some(d + 1);
                }
                let mut visit = |t: usize, k2: usize, queue: &mut VecDeque<(usize, usize, u32)>| {
                    if !seen[at(t, k2)] {
                        seen[at(t, k2)] = true;
                        queue.push_back((t, k2, d + 1));
                    }
                };
                visit(l, k, &mut queue);
                let [ladder, chute] = self.ends(*landed);
                let climbs = if layers == 1 {
                    Some(0)
                } else {
                    (k + 1 < layers).then_some(k + 1)
                };
                if let (Some((a, b)), Some(k2)) = (ladder, climbs) {
                    if b as usize == n {
                        return Some(d + 1);
                    }
                    let mut t = find(&mut next[k2], a as usize);
                    while t <= b as usize {
                        visit(t, k2, &mut queue);
                        next[k2][t] = t as u32 + 1;
                        t = find(&mut next[k2], t + 1);
                    }
                }
                if let Some((a, b)) = chute {
                    let mut t = find(&mut next[k], a as usize);
                    while t <= b as usize {
                        visit(t, k, &mut queue);
                        next[k][t] = t as u32 + 1;
                        t = find(&mut next[k], t + 1);
                    }
                }
            }
        }
        None
    }

    /// The most rolls a shortest game can take with at least `jumps` jumps
    /// on the board.
    pub(crate) fn most_shortest(&self, jumps: u32) -> u32 {
        self.size.saturating_sub(jumps)
    }
}

/// The first unvisited square at or after `i` (path-halving union–find).
fn find(next: &mut [u32], mut i: usize) -> usize {
    if i >= next.len() {
        return next.len();
    }
    while next[i] as usize != i {
        let j = next[i] as usize;
        if j >= next.len() {
            return next.len();
        }
        next[i] = next[j];
        i = j;
    }
    i
}

/// Range minima of a vector, answered in O(1) (a sparse table).
struct MinTable {
    levels: Vec<Vec<f64>>,
}

impl MinTable {
    fn new(v: &[f64]) -> Self {
        let mut levels = vec![v.to_vec()];
        let mut width = 1;
        while width * 2 <= v.len() {
            let last = &levels[levels.len() - 1];
            let next: Vec<f64> = (0..=v.len() - width * 2)
                .map(|i| last[i].min(last[i + width]))
                .collect();
            levels.push(next);
            width *= 2;
        }
        Self { levels }
    }

    /// The least of `v[a..=b]`.
    fn min(&self, a: usize, b: usize) -> f64 {
        let len = b - a + 1;
        let k = (usize::BITS - 1 - len.leading_zeros()) as usize;
        let level = &self.levels[k];
        level[a].min(level[b + 1 - (1 << k)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Overshoot;
    use crate::analysis::markov;

    fn open(size: u32) -> Relaxation {
        Relaxation {
            size,
            min_jump: 2,
            max_jump: size - 1,
            ladders: true,
            most_ladders: 8,
            chutes: true,
            chains: false,
            finish: true,
            first_row: 0,
        }
    }

    #[test]
    fn with_no_ladders_the_least_mean_is_the_empty_boards() {
        // Chutes only move a token back: on the empty board of 100 squares
        // (stay rule) the mean is 33.33; the relaxation may not beat it.
        let rules = Rules::new(Overshoot::Stay, 6).expect("rules");
        let mut r = open(100);
        r.ladders = false;
        let bound = r.least_mean(&rules);
        let empty = markov::analyze(
            &Board::empty(100),
            &rules,
            &markov::MarkovOptions::default(),
        )
        .expect("analysis")
        .distribution
        .mean
        .expect("mean");
        assert!((bound - empty).abs() < 1e-6, "{bound} vs {empty}");
        assert_eq!(r.least_shortest(&rules), Some(17));
    }

    #[test]
    fn every_real_board_is_at_or_above_the_bounds() {
        let rules = Rules::new(Overshoot::Stay, 6).expect("rules");
        let r = open(100);
        let (mean, shortest) = (
            r.least_mean(&rules),
            r.least_shortest(&rules).expect("some"),
        );
        // One ladder 2->100 makes 1 roll possible.
        assert_eq!(shortest, 1);
        let classic = Board::classic();
        let m =
            markov::analyze(&classic, &rules, &markov::MarkovOptions::default()).expect("analysis");
        assert!(mean <= m.distribution.mean.expect("mean"));
        assert!(mean >= 1.0);
        // With the finish and the first row closed, no game is shorter than
        // 4 rolls: 1 to 6, then at most 12, a ladder to at most 99 ...
        let mut closed = r;
        closed.finish = false;
        closed.first_row = 10;
        closed.max_jump = 50;
        let s = closed.least_shortest(&rules).expect("some");
        assert!(s >= 3, "{s}");
        assert!(closed.least_mean(&rules) > mean);
    }
}
