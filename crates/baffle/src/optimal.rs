//! The best possible play on small boxes, worked out exactly, and the
//! bot's expected score beside it.
//!
//! Terms:
//! - **box**: every layout of exactly `k` mirrors in an `n × n` box is
//!   equally likely (as a random game places them).
//! - **information set**: the layouts that agree with everything the
//!   player has seen, with the mirrors found so far. What a player can do
//!   next, and what it will cost, depends on nothing else.
//! - **actions**: shoot a hole (+1; the beam's exit splits the set), or
//!   guess a mirror not yet found (right: it is found, +0; wrong: +2, and
//!   the set loses the layouts holding it), as the game scores them. An
//!   action that cannot change the set (a shot with one possible exit, a
//!   guess that cannot be right) is never worth taking and is left out; a
//!   guess that cannot be wrong is always worth taking first (it is free).
//! - **value** of an information set: the least expected score still to
//!   pay, over every strategy (expectimax: the minimum over actions of the
//!   cost plus the expected value of what follows). The **optimal expected
//!   score** is the value of knowing nothing.
//! - **the bot's expected score**: the bot ([`crate::bot`]) played against
//!   every layout, averaged; worked out over the same information sets.
//! - **watch** ([`Watch`]): how far the search is (the first moves weighed
//!   out of those worth weighing) and a flag that stops it; a stopped
//!   search reports the best first move weighed so far, whose expected
//!   score is an upper bound on the optimum.

use crate::bot::{BotError, BotOptions, decide};
use crate::game::{Game, Move, Setup};
use crate::geometry::{Sides, Size};
use crate::layout::{Layout, LayoutError, Mirror, Placed, check_mirror_count};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The largest number of layouts [`expected_scores`] takes on (4 × 4 with
/// 3 mirrors has 4,480; 5 × 5 with 3 has 18,400).
pub const MAX_LAYOUTS: usize = 20_000;

/// Why the expected scores cannot be worked out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptimalError {
    /// A bad size or mirror count.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// Too many layouts to weigh exactly.
    #[error(
        "a {n}×{n} box with {k} mirrors has {layouts} layouts; the exact strategy is worked out only up to {max}"
    )]
    TooMany {
        /// Box size.
        n: usize,
        /// Mirrors.
        k: usize,
        /// Its layouts.
        layouts: u128,
        /// The most allowed.
        max: usize,
    },
    /// The bot could not move.
    #[error("the bot could not move: {0}")]
    Bot(#[from] BotError),
}

/// The expected scores on one kind of box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectedScores {
    /// Box size.
    pub size: usize,
    /// Mirrors.
    pub mirrors: usize,
    /// Sides beams may enter by.
    pub sides: Sides,
    /// Layouts, all equally likely.
    pub layouts: usize,
    /// The optimal strategy's expected score; when [`Self::stopped`], the
    /// best expected score of the first moves weighed, an upper bound on
    /// it (infinite when none was weighed).
    pub optimal: f64,
    /// The bot's expected score (`None` when not asked for).
    pub bot: Option<f64>,
    /// The optimal strategy's first move.
    pub first_move: Option<Move>,
    /// Information sets weighed.
    pub states: usize,
    /// True when the search was stopped ([`Watch::stop`]) before it was
    /// done: `optimal` is then a bound, and the bot was not weighed.
    #[serde(default)]
    pub stopped: bool,
}

/// How far a search is, and a way to stop it, shared with another thread
/// (a progress bar, a Ctrl-C handler).
#[derive(Debug, Default)]
pub struct Watch {
    /// Set to stop the search soon, with what it has.
    pub stop: AtomicBool,
    /// The first moves weighed so far.
    pub done: AtomicU64,
    /// The first moves worth weighing (0 until the search knows).
    pub total: AtomicU64,
}

impl Watch {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The optimal expected score on an `n × n` box with `k` mirrors shot from
/// `sides`, and the bot's (with `bot`'s options) when given.
///
/// # Errors
/// A bad size or mirror count, more than [`MAX_LAYOUTS`] layouts, or a bot
/// that cannot move.
pub fn expected_scores(
    n: usize,
    k: usize,
    sides: Sides,
    bot: Option<&BotOptions>,
) -> Result<ExpectedScores, OptimalError> {
    expected_scores_watched(n, k, sides, bot, &Watch::default())
}

/// [`expected_scores`], reporting its progress to `watch` and stopping
/// soon after [`Watch::stop`] is set, with the best first move weighed so
/// far ([`ExpectedScores::stopped`]).
///
/// # Errors
/// As [`expected_scores`].
pub fn expected_scores_watched(
    n: usize,
    k: usize,
    sides: Sides,
    bot: Option<&BotOptions>,
    watch: &Watch,
) -> Result<ExpectedScores, OptimalError> {
    let boxes = Boxes::new(n, k, sides)?;
    let all: Vec<u32> = (0..boxes.layouts.len() as u32).collect();
    let mut search = Search {
        boxes: &boxes,
        memo: HashMap::new(),
        watch,
        root: true,
    };
    let (optimal, first) = search.value(&all, &[]);
    let stopped = watch.stopped();
    let bot = bot
        .filter(|_| !stopped)
        .map(|options| bot_value(&boxes, &all, &mut Vec::new(), options))
        .transpose()?;
    Ok(ExpectedScores {
        size: n,
        mirrors: k,
        sides,
        layouts: boxes.layouts.len(),
        optimal,
        bot,
        first_move: first,
        states: search.memo.len(),
        stopped,
    })
}

/// Every layout, with the exit of every hole one may shoot.
struct Boxes {
    size: Size,
    sides: Sides,
    layouts: Vec<Layout>,
    /// Each layout's mirrors, as `cell * 2 + (0 for /, 1 for \)`.
    mirrors: Vec<Vec<u16>>,
    holes: Vec<usize>,
    /// `exits[layout][i]`: where a beam into `holes[i]` leaves.
    exits: Vec<Vec<u16>>,
}

fn code(p: Placed, size: Size) -> u16 {
    (size.index(p.cell) * 2 + usize::from(p.mirror == Mirror::Backslash)) as u16
}

fn placed(code: u16, size: Size) -> Placed {
    let mirror = if code % 2 == 0 {
        Mirror::Slash
    } else {
        Mirror::Backslash
    };
    Placed::new(size.cell(usize::from(code / 2)), mirror)
}

impl Boxes {
    fn new(n: usize, k: usize, sides: Sides) -> Result<Self, OptimalError> {
        let size = Size::new(n).map_err(LayoutError::from)?;
        check_mirror_count(size, k)?;
        let cells = size.cells();
        // C(cells, k) · 2^k, checked before enumerating.
        let mut count: u128 = 1;
        for i in 0..k as u128 {
            count = count * (cells as u128 - i) / (i + 1);
        }
        count <<= k;
        if count > MAX_LAYOUTS as u128 {
            return Err(OptimalError::TooMany {
                n,
                k,
                layouts: count,
                max: MAX_LAYOUTS,
            });
        }
        let holes: Vec<usize> = size.shootable(sides).collect();
        let mut boxes = Self {
            size,
            sides,
            layouts: Vec::new(),
            mirrors: Vec::new(),
            holes,
            exits: Vec::new(),
        };
        let mut chosen = Vec::with_capacity(k);
        boxes.enumerate(k, 0, &mut chosen)?;
        Ok(boxes)
    }

    fn enumerate(
        &mut self,
        k: usize,
        from: usize,
        chosen: &mut Vec<Placed>,
    ) -> Result<(), OptimalError> {
        if chosen.len() == k {
            let layout = Layout::new(self.size, chosen)?;
            let exits = self
                .holes
                .iter()
                .map(|&h| layout.trace(h).map_or(h, |b| b.exit) as u16)
                .collect();
            self.mirrors
                .push(chosen.iter().map(|&p| code(p, self.size)).collect());
            self.exits.push(exits);
            self.layouts.push(layout);
            return Ok(());
        }
        for index in from..self.size.cells() {
            for mirror in [Mirror::Slash, Mirror::Backslash] {
                chosen.push(Placed::new(self.size.cell(index), mirror));
                self.enumerate(k, index + 1, chosen)?;
                chosen.pop();
            }
        }
        Ok(())
    }

    fn holds(&self, layout: u32, mirror: u16) -> bool {
        self.mirrors[layout as usize].contains(&mirror)
    }
}

/// The expectimax, remembered by information set, with branch and bound:
/// a sequence of wrong guesses can reach almost any subset of layouts, so
/// each call is told the score it must beat and stops looking once it
/// cannot.
struct Search<'b> {
    boxes: &'b Boxes,
    /// An information set's value (exact), or a lower bound on it.
    memo: HashMap<(Vec<u32>, Vec<u16>), Known>,
    /// Progress and the stop flag.
    watch: &'b Watch,
    /// True until the first set that weighs its moves (the root) has
    /// counted them for the watch.
    root: bool,
}

#[derive(Clone, Copy)]
enum Known {
    Exact(f64, Option<Move>),
    AtLeast(f64),
}

impl Search<'_> {
    /// The value of the information set `set` with `found` found (sorted),
    /// and the best action.
    fn value(&mut self, set: &[u32], found: &[u16]) -> (f64, Option<Move>) {
        match self.bounded(set, found, f64::INFINITY) {
            Known::Exact(v, m) => (v, m),
            Known::AtLeast(v) => (v, None),
        }
    }

    /// The value if it is below `bound` (exact), else a lower bound on it
    /// that is at least `bound`.
    fn bounded(&mut self, set: &[u32], found: &[u16], bound: f64) -> Known {
        if self.watch.stopped() {
            // Not remembered: a stopped search's bounds are not true ones.
            return Known::AtLeast(bound);
        }
        let b = self.boxes;
        let k = b.mirrors[set[0] as usize].len();
        if found.len() == k || set.len() == 1 {
            // Found, or every mirror left is certain: free guesses.
            return Known::Exact(0.0, None);
        }
        // A mirror every layout holds is a free guess: take it.
        if let Some(&m) = b.mirrors[set[0] as usize]
            .iter()
            .find(|m| !found.contains(m) && set.iter().all(|&l| b.holds(l, **m)))
        {
            let mut more = found.to_vec();
            more.push(m);
            more.sort_unstable();
            return match self.bounded(set, &more, bound) {
                Known::Exact(v, _) => Known::Exact(v, Some(guess_move(placed(m, b.size)))),
                other => other,
            };
        }
        let key = (set.to_vec(), found.to_vec());
        match self.memo.get(&key) {
            Some(&Known::Exact(v, m)) => return Known::Exact(v, m),
            Some(&Known::AtLeast(v)) if v >= bound => return Known::AtLeast(v),
            _ => {}
        }
        let total = set.len() as f64;
        // The guesses, likeliest first, and each one's right and wrong sets.
        let mut counts: HashMap<u16, usize> = HashMap::new();
        for &l in set {
            for &m in &b.mirrors[l as usize] {
                if !found.contains(&m) {
                    *counts.entry(m).or_insert(0) += 1;
                }
            }
        }
        let mut guesses: Vec<(u16, usize)> = counts.into_iter().collect();
        guesses.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        // Any first move costs at least a shot or a likely-wrong guess.
        let q_max = guesses.first().map_or(0.0, |g| g.1 as f64 / total);
        let lower = 1.0f64.min(2.0 * (1.0 - q_max));
        if lower >= bound {
            return self.at_least(key, lower);
        }
        // The shots that split the set, the most telling first.
        let mut shots: Vec<(f64, usize, Vec<Vec<u32>>)> = Vec::new();
        for (i, &hole) in b.holes.iter().enumerate() {
            let mut parts: HashMap<u16, Vec<u32>> = HashMap::new();
            for &l in set {
                parts.entry(b.exits[l as usize][i]).or_default().push(l);
            }
            if parts.len() < 2 {
                continue;
            }
            let mut parts: Vec<Vec<u32>> = parts.into_values().collect();
            parts.sort();
            let share: f64 = parts.iter().map(|p| (p.len() as f64 / total).powi(2)).sum();
            shots.push((share, hole, parts));
        }
        shots.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let root = std::mem::take(&mut self.root);
        if root {
            let moves = shots.len() + guesses.len();
            self.watch.total.store(moves as u64, Ordering::Relaxed);
        }
        let weighed = |watch: &Watch| {
            if root {
                watch.done.fetch_add(1, Ordering::Relaxed);
            }
        };
        let mut best: Option<(f64, Move)> = None;
        let limit = |best: &Option<(f64, Move)>| best.map_or(bound, |b| b.0.min(bound));
        for (_, hole, parts) in &shots {
            let t = limit(&best);
            let mut v = 1.0;
            for part in parts {
                if v >= t {
                    break;
                }
                let p = part.len() as f64 / total;
                v += p * known(self.bounded(part, found, (t - v) / p));
            }
            if v < t && !self.watch.stopped() {
                best = Some((v, Move::Shoot { hole: *hole }));
            }
            weighed(self.watch);
        }
        for (m, right) in guesses {
            let t = limit(&best);
            let q = right as f64 / total;
            let mut v = 2.0 * (1.0 - q);
            weighed(self.watch);
            if v >= t {
                continue;
            }
            let mut more = found.to_vec();
            more.push(m);
            more.sort_unstable();
            let (yes, no): (Vec<u32>, Vec<u32>) = set.iter().partition(|&&l| b.holds(l, m));
            v += q * known(self.bounded(&yes, &more, (t - v) / q));
            if v < t {
                v += (1.0 - q) * known(self.bounded(&no, found, (t - v) / (1.0 - q)));
            }
            if v < t && !self.watch.stopped() {
                best = Some((v, guess_move(placed(m, b.size))));
            }
        }
        match best {
            // A stopped search keeps the root's best so far, remembers nothing.
            Some((v, mv)) if v < bound && self.watch.stopped() => Known::Exact(v, Some(mv)),
            Some((v, mv)) if v < bound => {
                self.memo.insert(key, Known::Exact(v, Some(mv)));
                Known::Exact(v, Some(mv))
            }
            _ => self.at_least(key, bound),
        }
    }

    fn at_least(&mut self, key: (Vec<u32>, Vec<u16>), v: f64) -> Known {
        let entry = self.memo.entry(key).or_insert(Known::AtLeast(v));
        if let Known::AtLeast(old) = entry {
            *old = old.max(v);
        }
        *entry
    }
}

/// The number a [`Known`] stands for (exact, or the bound).
fn known(k: Known) -> f64 {
    match k {
        Known::Exact(v, _) | Known::AtLeast(v) => v,
    }
}

fn guess_move(p: Placed) -> Move {
    Move::Guess {
        cell: p.cell,
        mirror: p.mirror,
    }
}

/// The bot's expected score from the information set `set` after `moves`:
/// the bot decides on the view (the same for every layout of the set), and
/// the set splits by what its move shows.
fn bot_value(
    b: &Boxes,
    set: &[u32],
    moves: &mut Vec<Move>,
    options: &BotOptions,
) -> Result<f64, OptimalError> {
    let replay = |layout: u32| -> Result<Game, OptimalError> {
        let setup = Setup::given(b.layouts[layout as usize].clone(), b.sides);
        let mut game = Game::new(setup).map_err(|_| BotError::Contradiction)?;
        for &mv in moves.iter() {
            game.apply(mv)
                .map_err(|error| BotError::Refused { mv, error })?;
        }
        Ok(game)
    };
    let game = replay(set[0])?;
    if game.status().is_over() {
        return Ok(0.0);
    }
    let mv = decide(&game.view(), options)?.mv;
    // What the move shows, layout by layout, and what it costs.
    let mut parts: HashMap<(usize, bool), Vec<u32>> = HashMap::new();
    for &l in set {
        let outcome = match mv {
            Move::Shoot { hole } => (
                b.layouts[l as usize].trace(hole).map_or(hole, |t| t.exit),
                true,
            ),
            Move::Guess { cell, mirror } => (0, b.layouts[l as usize].get(cell) == Some(mirror)),
            Move::Quit => (0, true),
        };
        parts.entry(outcome).or_default().push(l);
    }
    let total = set.len() as f64;
    let mut value = 0.0;
    let mut sorted: Vec<_> = parts.into_iter().collect();
    sorted.sort_by_key(|(outcome, _)| *outcome);
    for ((_, right), part) in sorted {
        let cost = match mv {
            Move::Shoot { .. } => 1.0,
            Move::Guess { .. } if right => 0.0,
            Move::Guess { .. } => 2.0,
            Move::Quit => return Err(BotError::Over.into()),
        };
        moves.push(mv);
        let rest = bot_value(b, &part, moves, options);
        moves.pop();
        value += part.len() as f64 / total * (cost + rest?);
    }
    Ok(value)
}

#[cfg(test)]
mod tests;
