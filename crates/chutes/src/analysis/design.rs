//! Boards designed to order: a board of a given shape whose exact game
//! length and seat chances meet targets.
//!
//! Terms:
//! - **shape** ([`DesignShape`]): the squares, how many chutes and ladders
//!   (each a range), and the constraints a real board keeps: no jump from
//!   the start or the finish, no two jumps sharing a square, jump lengths
//!   within bounds, and no **chain** (a jump whose foot is another jump's
//!   head) unless allowed.
//! - **targets** ([`DesignTargets`]): the mean game length of one player,
//!   its standard deviation, every seat's chance within a margin of 1/P
//!   (**fair**), and a least shortest game. Each has a **tolerance**: the
//!   mean and sd within [`MEAN_TOLERANCE`] and [`SD_TOLERANCE`] rolls, the
//!   seats within the margin asked, the shortest game at least the number
//!   asked.
//! - **miss** of a target: how far outside the target a board is, in units
//!   of its tolerance (0 inside the inner half of the tolerance); the
//!   **cost** of a board is the sum of the squared misses.
//! - **search**: simulated annealing over the jumps' ends, from a seed
//!   ([`tabletop::Rng`]), with restarts from the best board; every candidate
//!   is judged exactly by the Markov chain ([`super::markov`]), never by
//!   simulation. It stops when every target is met with room to spare, when
//!   its evaluations run out, or when its [`Budget`] is withdrawn (the best
//!   board so far is kept).
//! - **fairness bound** ([`fairness_bound`]): no board whose mean is at
//!   most a given length can be fairer than a bound that holds for every
//!   length distribution; a fairness target below it is said to be
//!   impossible.

use super::AnalysisError;
use super::chain::Chain;
use super::markov::{self, MarkovOptions};
use crate::board::{Board, BoardError, BoardSpec, Jump};
use crate::game::MAX_PLAYERS;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use tabletop::{Budget, Rng};

/// The mean is met within this many rolls.
pub const MEAN_TOLERANCE: f64 = 0.1;
/// The standard deviation is met within this many rolls.
pub const SD_TOLERANCE: f64 = 0.1;
/// Candidates judged unless asked otherwise.
pub const DEFAULT_EVALUATIONS: u64 = 200_000;
/// The tail the search tabulates to (the report's analysis uses the
/// default, 1e-12).
const SEARCH_TAIL: f64 = 1e-10;
/// The largest board the designer takes.
pub const MAX_DESIGN_SQUARES: u32 = 10_000;
/// The most chutes or ladders of each kind.
pub const MAX_DESIGN_JUMPS: u32 = 500;
/// Evaluations in one annealing round (then it restarts from the best).
const ROUND: u64 = 4_000;
/// The search stops once every target's miss is at most this (1 is the
/// edge of its tolerance).
const STOP_MISS: f64 = 0.9;

/// A number of jumps: one number (`8`) or an inclusive range (`6..10`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CountRange {
    /// The fewest.
    pub min: u32,
    /// The most.
    pub max: u32,
}

impl CountRange {
    /// Exactly `n`.
    pub fn exactly(n: u32) -> Self {
        Self { min: n, max: n }
    }
}

impl fmt::Display for CountRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}..{}", self.min, self.max)
        }
    }
}

impl FromStr for CountRange {
    type Err = DesignError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DesignError::Count(s.to_string());
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        let range = match s.split_once("..") {
            Some((a, b)) => {
                let (min, max) = (number(a)?, number(b.trim_start_matches('='))?);
                if min > max {
                    return Err(bad());
                }
                Self { min, max }
            }
            None => Self::exactly(number(s)?),
        };
        Ok(range)
    }
}

/// The board to design: its squares, its jumps and their constraints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignShape {
    /// The last square (tokens start off the board, on 0).
    pub size: u32,
    /// How many chutes.
    pub chutes: CountRange,
    /// How many ladders.
    pub ladders: CountRange,
    /// The shortest jump, in squares.
    pub min_jump: u32,
    /// The longest jump, in squares.
    pub max_jump: u32,
    /// May a jump end where another starts?
    pub chains: bool,
}

impl DesignShape {
    /// The classic board's shape: 100 squares, 8 chutes and 8 ladders of 2
    /// to 99 squares, no chains.
    pub fn new(size: u32) -> Self {
        Self {
            size,
            chutes: CountRange::exactly(8),
            ladders: CountRange::exactly(8),
            min_jump: 2,
            max_jump: size.saturating_sub(1),
            chains: false,
        }
    }

    fn check(&self) -> Result<(), DesignError> {
        if !(3..=MAX_DESIGN_SQUARES).contains(&self.size) {
            return Err(DesignError::Size(self.size));
        }
        for (kind, r) in [("chutes", self.chutes), ("ladders", self.ladders)] {
            if r.max > MAX_DESIGN_JUMPS {
                return Err(DesignError::TooMany { kind, count: r.max });
            }
        }
        let longest = self.size - 2;
        if self.min_jump == 0 || self.min_jump > self.max_jump || self.min_jump > longest {
            return Err(DesignError::JumpLengths {
                min: self.min_jump,
                max: self.max_jump,
                longest,
            });
        }
        // Each jump takes two squares of 1..=N (the finish only as a
        // ladder's top), and heads are on 1..N-1.
        let jumps = self.chutes.min + self.ladders.min;
        let room = if self.chains {
            self.size - 1
        } else {
            self.size / 2
        };
        if jumps > room {
            return Err(DesignError::NoRoom {
                jumps,
                size: self.size,
            });
        }
        Ok(())
    }
}

/// What the designed board's games should be like. `None` leaves a figure
/// free.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignTargets {
    /// One player's mean game length, in rolls.
    pub mean: Option<f64>,
    /// The standard deviation of one player's game length.
    pub sd: Option<f64>,
    /// Players whose seats are compared (1 to 8).
    pub players: usize,
    /// Every seat's chance to win within this much of 1/players.
    pub fair: Option<f64>,
    /// The fewest rolls a game can take: at least this.
    pub shortest: Option<u32>,
}

impl Default for DesignTargets {
    fn default() -> Self {
        Self {
            mean: None,
            sd: None,
            players: 1,
            fair: None,
            shortest: None,
        }
    }
}

/// How the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DesignOptions {
    /// The seed: the same seed, shape, rules and targets give the same
    /// board.
    pub seed: u64,
    /// The most candidates judged.
    pub evaluations: u64,
}

/// Where the search is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DesignProgress {
    /// Candidates judged so far.
    pub evaluations: u64,
    /// The most the search will judge.
    pub limit: u64,
    /// The best board's cost so far (0: every target met with room).
    pub best_cost: f64,
}

/// Why a design could not start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DesignError {
    /// The board size is out of range.
    #[error("a designed board has 3 to {MAX_DESIGN_SQUARES} squares, not {0}")]
    Size(u32),
    /// A count that is neither a number nor a range.
    #[error("'{0}' is not a count of jumps: give a number (8) or a range (6..10)")]
    Count(String),
    /// Too many jumps of one kind.
    #[error("{count} {kind}: a designed board takes at most {MAX_DESIGN_JUMPS} of each kind")]
    TooMany {
        /// Chutes or ladders.
        kind: &'static str,
        /// How many were asked.
        count: u32,
    },
    /// Jump lengths that no jump can have.
    #[error(
        "jump lengths from {min} to {max} squares: the shortest must be at least 1, no more than the longest, and at most {longest} on this board"
    )]
    JumpLengths {
        /// The shortest asked.
        min: u32,
        /// The longest asked.
        max: u32,
        /// The longest a jump can be on this board.
        longest: u32,
    },
    /// More jumps than the board has squares for.
    #[error("{jumps} jumps do not fit on {size} squares without sharing a square")]
    NoRoom {
        /// Jumps asked at the least.
        jumps: u32,
        /// The board's last square.
        size: u32,
    },
    /// Players out of range.
    #[error("{0} players: a design compares 1 to {MAX_PLAYERS} seats")]
    Players(usize),
    /// A target that is not a positive finite number.
    #[error("the target {name} must be a positive number, not {value}")]
    Target {
        /// Which target.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// `--fair` with one player.
    #[error("a fairness target compares seats: give 2 or more players")]
    FairAlone,
    /// The analysis failed.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// A board the search built broke a board rule (a bug).
    #[error("the designed board is not a valid board: {0}")]
    Board(#[from] BoardError),
}

/// One target and how close the designed board came.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetResult {
    /// `mean`, `sd`, `fair` or `shortest`.
    pub name: &'static str,
    /// The value asked (for `fair`, the margin).
    pub target: f64,
    /// The board's value (for `fair`, the largest distance of a seat from
    /// 1/players).
    pub achieved: f64,
    /// Is the target met?
    pub met: bool,
    /// When not met: a bound shows that no board can meet it (why, in
    /// words).
    pub impossible: Option<String>,
}

/// The search's answer: the best board found and how it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// The board.
    pub board: Board,
    /// Each target, with the board's exact figure.
    pub targets: Vec<TargetResult>,
    /// Candidates judged.
    pub evaluations: u64,
    /// Did the search stop early because its budget was withdrawn?
    pub stopped: bool,
}

impl Design {
    /// Are all targets met?
    pub fn met(&self) -> bool {
        self.targets.iter().all(|t| t.met)
    }
}

/// The exact figures the targets speak of, for one board.
#[derive(Clone, Debug, PartialEq)]
struct Figures {
    mean: f64,
    sd: f64,
    /// The largest distance of a seat's chance from 1/players.
    unfairness: f64,
    shortest: u32,
}

/// The exact figures of `board` (`None` when some games never end).
fn figures(
    board: &Board,
    rules: &Rules,
    players: usize,
    tail: f64,
    budget: &Budget,
) -> Result<Option<Figures>, AnalysisError> {
    let chain = Chain::new(board, rules);
    let reach = chain.reach();
    if !reach.always_finishes() {
        return Ok(None);
    }
    let options = MarkovOptions {
        tail,
        ..MarkovOptions::default()
    };
    let m = markov::analyze_chain(board, &chain, &reach, &options, budget)?;
    let d = &m.distribution;
    let (Some(mean), Some(sd), Some(shortest)) = (d.mean, d.sd, d.shortest) else {
        return Ok(None);
    };
    let odds = markov::seat_win(d, players)?;
    let fair = 1.0 / players as f64;
    let unfairness = odds
        .seat_win
        .iter()
        .map(|p| (p - fair).abs())
        .fold(0.0, f64::max);
    Ok(Some(Figures {
        mean,
        sd,
        unfairness,
        shortest,
    }))
}

/// How far `figures` is from each target, in units of its tolerance.
fn misses(targets: &DesignTargets, f: &Figures) -> [f64; 4] {
    let rel = |got: f64, want: Option<f64>, tol: f64| want.map_or(0.0, |w| (got - w).abs() / tol);
    [
        rel(f.mean, targets.mean, MEAN_TOLERANCE),
        rel(f.sd, targets.sd, SD_TOLERANCE),
        targets.fair.map_or(0.0, |d| f.unfairness / d),
        targets
            .shortest
            .map_or(0.0, |n| f64::from(n.saturating_sub(f.shortest))),
    ]
}

/// The cost of a board: 0 when every target is met within half its
/// tolerance.
fn cost(targets: &DesignTargets, f: Option<&Figures>) -> f64 {
    match f {
        None => f64::INFINITY,
        Some(f) => misses(targets, f)
            .iter()
            .map(|&m| {
                let over = (m - 0.5).max(0.0);
                over * over
            })
            .sum(),
    }
}

/// Is every target met, with a margin (so that the report's finer
/// tabulation meets it too)?
fn all_met(targets: &DesignTargets, f: Option<&Figures>) -> bool {
    f.is_some_and(|f| misses(targets, f).iter().all(|&m| m <= STOP_MISS))
}

/// Survival levels of the fairness bound's grid.
const BOUND_GRID: usize = 1_600;

/// The fairness bound: a number B such that, on any board under any rules
/// whose mean game length for one player is at most `mean` rolls, seat 1's
/// chance to win among `players` players is at least 1/`players` + B. So
/// no such board has every seat within less than B of an even share.
/// `None` for fewer than 2 or more than 8 players, or a mean under 1.
///
/// Method, over every length distribution (so every board): with the
/// survival S(n) = P(T > n), seat 1's chance less 1/P is the sum over rolls
/// of g(S(n−1), S(n)), g(a, b) = a^(P−1)(a − b) − (a^P − b^P)/P ≥ 0, and
/// the mean is Σ_{n≥0} S(n). For every λ ≥ 0, the least of
/// Σ g(S(n−1), S(n)) + λ(Σ S(n) − mean) over all falling sequences from 1
/// is at most the least over those with the mean, and it is found by
/// dynamic programming over a grid of survival levels, each step rounded
/// so that its cost is never overstated (g grows with a and falls with b);
/// the bound is the largest over λ (the function is concave in λ).
pub fn fairness_bound(mean: f64, players: usize) -> Option<f64> {
    fairness_bound_on(mean, players, BOUND_GRID)
}

/// [`fairness_bound`] on a grid of `m` survival levels (a coarser grid
/// gives a lower, still valid, bound).
fn fairness_bound_on(mean: f64, players: usize, m: usize) -> Option<f64> {
    if !(2..=MAX_PLAYERS).contains(&players) || mean.is_nan() || mean < 1.0 || m == 0 {
        return None;
    }
    let p = players as i32;
    let level = |i: usize| i as f64 / m as f64;
    // Powers of the levels: g(a, b) = a^(P−1)(a − b) − (a^P − b^P)/P.
    let before: Vec<f64> = (0..=m).map(|i| level(i).powi(p - 1)).collect();
    let power: Vec<f64> = (0..=m).map(|i| level(i).powi(p)).collect();
    let players_f = f64::from(p);
    // The least g of a step from a survival in cell i, [i/m, (i+1)/m), to
    // one in cell j < i: at a = i/m, b = (j+1)/m.
    let least_g = |i: usize, j: usize| {
        let (a, b) = (level(i), level(j + 1));
        if a <= b {
            0.0
        } else {
            (before[i] * (a - b) - (power[i] - power[j + 1]) / players_f).max(0.0)
        }
    };
    let value = |lambda: f64| {
        let mut v = vec![0.0f64; m + 1];
        for i in 1..=m {
            v[i] = (0..i)
                .map(|j| least_g(i, j) + lambda * level(j) + v[j])
                .fold(f64::INFINITY, f64::min);
        }
        // S(0) = 1 counts in the mean too.
        v[m] + lambda * (1.0 - mean)
    };
    // Golden-section search for the largest value over λ in [0, 1].
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut va, mut vb) = (value(a), value(b));
    for _ in 0..36 {
        if va < vb {
            lo = a;
            a = b;
            va = vb;
            b = lo + ratio * (hi - lo);
            vb = value(b);
        } else {
            hi = b;
            b = a;
            vb = va;
            a = hi - ratio * (hi - lo);
            va = value(a);
        }
    }
    let best = va.max(vb).max(value(0.0));
    Some(best.max(0.0))
}

/// Checks the targets against what they can be.
fn check_targets(t: &DesignTargets) -> Result<(), DesignError> {
    if !(1..=MAX_PLAYERS).contains(&t.players) {
        return Err(DesignError::Players(t.players));
    }
    for (name, value) in [("mean", t.mean), ("sd", t.sd), ("fair", t.fair)] {
        if let Some(v) = value
            && !(v.is_finite() && v > 0.0)
        {
            return Err(DesignError::Target { name, value: v });
        }
    }
    if t.fair.is_some() && t.players < 2 {
        return Err(DesignError::FairAlone);
    }
    Ok(())
}

/// Jumps under design, with the squares they take.
#[derive(Clone, Debug)]
struct Layout {
    jumps: Vec<Jump>,
}

impl Layout {
    fn chutes(&self) -> usize {
        self.jumps.iter().filter(|j| j.to < j.from).count()
    }

    fn ladders(&self) -> usize {
        self.jumps.len() - self.chutes()
    }

    /// Does jump `j` (at index `skip` or new) fit beside the others?
    fn fits(&self, shape: &DesignShape, j: Jump, skip: Option<usize>) -> bool {
        let n = shape.size;
        let len = j.from.abs_diff(j.to);
        if j.from == 0 || j.from >= n || j.to == 0 || j.to > n || len == 0 {
            return false;
        }
        if len < shape.min_jump || len > shape.max_jump {
            return false;
        }
        // A chute to the finish cannot be; a chute's foot is below its head.
        self.jumps
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != skip)
            .all(|(_, o)| {
                let heads_apart = o.from != j.from;
                let feet_apart = o.to != j.to;
                let crossing = o.to == j.from || j.to == o.from;
                heads_apart && feet_apart && (shape.chains || !crossing)
            })
    }

    fn board(&self, shape: &DesignShape) -> Result<Board, BoardError> {
        Board::new(BoardSpec {
            name: None,
            size: shape.size,
            start: 0,
            jumps: self.jumps.clone(),
            geometry: None,
        })
    }
}

/// A random jump of one kind, or `None` when none fits after a few tries.
fn random_jump(
    rng: &mut Rng,
    shape: &DesignShape,
    layout: &Layout,
    ladder: bool,
    skip: Option<usize>,
) -> Option<Jump> {
    let n = shape.size;
    for _ in 0..200 {
        let from = 1 + rng.below(u64::from(n - 1)) as u32;
        let span = shape.max_jump - shape.min_jump + 1;
        let len = shape.min_jump + rng.below(u64::from(span)) as u32;
        let to = if ladder {
            from.checked_add(len).filter(|&t| t <= n)
        } else {
            from.checked_sub(len).filter(|&t| t >= 1)
        };
        if let Some(to) = to {
            let j = Jump::new(from, to);
            if layout.fits(shape, j, skip) {
                return Some(j);
            }
        }
    }
    None
}

/// Moves one end of a jump by a few squares, keeping its kind.
fn nudge(rng: &mut Rng, shape: &DesignShape, layout: &Layout, i: usize) -> Option<Jump> {
    let j = layout.jumps[i];
    let ladder = j.to > j.from;
    for _ in 0..20 {
        let step = 1 + rng.below(6) as i64;
        let delta = if rng.below(2) == 0 { step } else { -step };
        let moved = |s: u32| u32::try_from(i64::from(s) + delta).ok();
        let candidate = match rng.below(3) {
            0 => moved(j.from).map(|f| Jump::new(f, j.to)),
            1 => moved(j.to).map(|t| Jump::new(j.from, t)),
            _ => moved(j.from).zip(moved(j.to)).map(|(f, t)| Jump::new(f, t)),
        };
        if let Some(c) = candidate
            && (c.to > c.from) == ladder
            && layout.fits(shape, c, Some(i))
        {
            return Some(c);
        }
    }
    None
}

/// A first board of the shape: random jumps, as many of each kind as the
/// middle of its range.
fn first_layout(rng: &mut Rng, shape: &DesignShape) -> Layout {
    let mut layout = Layout { jumps: Vec::new() };
    let pick =
        |rng: &mut Rng, r: CountRange| r.min + rng.below(u64::from(r.max - r.min + 1)) as u32;
    let (chutes, ladders) = (pick(rng, shape.chutes), pick(rng, shape.ladders));
    for ladder in std::iter::repeat_n(true, ladders as usize)
        .chain(std::iter::repeat_n(false, chutes as usize))
    {
        if let Some(j) = random_jump(rng, shape, &layout, ladder, None) {
            layout.jumps.push(j);
        }
    }
    layout
}

/// A neighbour of `layout`: one jump nudged or moved, or one added or taken
/// away when the counts allow.
fn neighbour(rng: &mut Rng, shape: &DesignShape, layout: &Layout) -> Option<Layout> {
    let mut next = layout.clone();
    let roll = rng.below(100);
    let (c, l) = (next.chutes() as u32, next.ladders() as u32);
    if roll < 6 {
        // Add or remove a jump of a kind whose range allows it.
        let ladder = rng.below(2) == 0;
        let (count, range) = if ladder {
            (l, shape.ladders)
        } else {
            (c, shape.chutes)
        };
        let add = rng.below(2) == 0;
        if add && count < range.max {
            next.jumps
                .push(random_jump(rng, shape, &next, ladder, None)?);
            return Some(next);
        }
        if !add && count > range.min {
            let of_kind: Vec<usize> = (0..next.jumps.len())
                .filter(|&i| (next.jumps[i].to > next.jumps[i].from) == ladder)
                .collect();
            let i = of_kind[rng.below(of_kind.len() as u64) as usize];
            next.jumps.swap_remove(i);
            return Some(next);
        }
    }
    if next.jumps.is_empty() {
        return None;
    }
    let i = rng.below(next.jumps.len() as u64) as usize;
    let j = next.jumps[i];
    let moved = if roll < 80 {
        nudge(rng, shape, &next, i)?
    } else {
        random_jump(rng, shape, &next, j.to > j.from, Some(i))?
    };
    next.jumps[i] = moved;
    Some(next)
}

/// Checks that `shape` and `targets` can be designed for, without
/// searching.
///
/// # Errors
/// As [`design`]: the value that cannot be and why.
pub fn check(shape: &DesignShape, targets: &DesignTargets) -> Result<(), DesignError> {
    shape.check()?;
    check_targets(targets)
}

/// Designs a board of `shape` under `rules` that meets `targets`, judging
/// every candidate exactly; `progress` hears from the search every few
/// hundred candidates. A withdrawn `budget` stops the search with the best
/// board so far.
///
/// # Errors
/// [`DesignError`] when the shape or the targets cannot be designed for
/// (the message says which value and why).
pub fn design(
    shape: &DesignShape,
    rules: &Rules,
    targets: &DesignTargets,
    options: DesignOptions,
    budget: &Budget,
    progress: &mut dyn FnMut(DesignProgress),
) -> Result<Design, DesignError> {
    check(shape, targets)?;
    let mut rng = Rng::new(options.seed);
    // A board's cost, and whether it meets every target.
    let judge = |layout: &Layout| -> Result<(f64, bool), DesignError> {
        let board = layout.board(shape)?;
        let f = figures(
            &board,
            rules,
            targets.players,
            SEARCH_TAIL,
            &Budget::unlimited(),
        )?;
        Ok((cost(targets, f.as_ref()), all_met(targets, f.as_ref())))
    };
    let mut current = first_layout(&mut rng, shape);
    let (mut current_cost, mut best_met) = judge(&current)?;
    let mut best = current.clone();
    let mut best_cost = current_cost;
    let mut evaluations = 1u64;
    let mut stopped = false;
    let limit = options.evaluations.max(1);
    while evaluations < limit && !best_met {
        if evaluations % 256 == 0 {
            progress(DesignProgress {
                evaluations,
                limit,
                best_cost,
            });
            if budget.check().is_err() {
                stopped = true;
                break;
            }
        }
        // Temperature falls from 1 to 0.001 over each round; a round
        // starts again from the best board.
        let into_round = evaluations % ROUND;
        if into_round == 0 {
            current = best.clone();
            current_cost = best_cost;
        }
        let temperature = 1e-3f64.powf(into_round as f64 / ROUND as f64);
        let Some(candidate) = neighbour(&mut rng, shape, &current) else {
            evaluations += 1;
            continue;
        };
        let (c, met) = judge(&candidate)?;
        evaluations += 1;
        let accept = c <= current_cost
            || (c.is_finite()
                && (rng.below(1 << 30) as f64 / f64::from(1u32 << 30))
                    < (-(c - current_cost) / temperature).exp());
        if accept {
            current = candidate;
            current_cost = c;
            if c < best_cost || (met && !best_met) {
                best = current.clone();
                best_cost = c;
                best_met = met;
            }
        }
    }
    progress(DesignProgress {
        evaluations,
        limit,
        best_cost,
    });
    let board = best
        .board(shape)?
        .with_name(format!("design-{}", options.seed));
    let tail = markov::DEFAULT_TAIL;
    let f = figures(&board, rules, targets.players, tail, &Budget::unlimited())?;
    Ok(Design {
        targets: results(targets, f.as_ref()),
        board,
        evaluations,
        stopped,
    })
}

/// Each target beside the board's figures.
fn results(targets: &DesignTargets, f: Option<&Figures>) -> Vec<TargetResult> {
    let mut out = Vec::new();
    let never = f64::INFINITY;
    if let Some(mean) = targets.mean {
        let got = f.map_or(never, |f| f.mean);
        out.push(TargetResult {
            name: "mean",
            target: mean,
            achieved: got,
            met: (got - mean).abs() <= MEAN_TOLERANCE,
            impossible: None,
        });
    }
    if let Some(sd) = targets.sd {
        let got = f.map_or(never, |f| f.sd);
        out.push(TargetResult {
            name: "sd",
            target: sd,
            achieved: got,
            met: (got - sd).abs() <= SD_TOLERANCE,
            impossible: None,
        });
    }
    if let Some(fair) = targets.fair {
        let got = f.map_or(never, |f| f.unfairness);
        let met = got <= fair;
        let impossible = (!met)
            .then(|| {
                // The longest mean the mean target allows.
                let mean = targets.mean? + MEAN_TOLERANCE;
                let bound = fairness_bound(mean, targets.players)?;
                (bound > fair).then(|| {
                    format!(
                        "with a mean of at most {mean:.1} rolls, seat 1 of {} is at least {bound:.4} ahead of an even share on any board",
                        targets.players
                    )
                })
            })
            .flatten();
        out.push(TargetResult {
            name: "fair",
            target: fair,
            achieved: got,
            met,
            impossible,
        });
    }
    if let Some(shortest) = targets.shortest {
        let got = f.map_or(0, |f| f.shortest);
        out.push(TargetResult {
            name: "shortest",
            target: f64::from(shortest),
            achieved: f64::from(got),
            met: got >= shortest,
            impossible: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Overshoot;

    fn rules() -> Rules {
        Rules::new(Overshoot::Stay, 6).expect("d6")
    }

    #[test]
    fn counts_read_as_numbers_or_ranges() {
        assert_eq!("8".parse::<CountRange>(), Ok(CountRange::exactly(8)));
        assert_eq!(
            "6..10".parse::<CountRange>(),
            Ok(CountRange { min: 6, max: 10 })
        );
        assert_eq!(
            "6..=10".parse::<CountRange>(),
            Ok(CountRange { min: 6, max: 10 })
        );
        assert!("10..6".parse::<CountRange>().is_err());
        assert!("many".parse::<CountRange>().is_err());
    }

    #[test]
    fn the_same_seed_gives_the_same_board_and_every_board_keeps_the_shape() {
        let mut shape = DesignShape::new(60);
        shape.chutes = CountRange { min: 3, max: 5 };
        shape.ladders = CountRange::exactly(4);
        shape.min_jump = 3;
        shape.max_jump = 20;
        let targets = DesignTargets {
            mean: Some(25.0),
            ..DesignTargets::default()
        };
        let options = DesignOptions {
            seed: 9,
            evaluations: 3_000,
        };
        let run = || {
            design(
                &shape,
                &rules(),
                &targets,
                options,
                &Budget::unlimited(),
                &mut |_| {},
            )
            .expect("designs")
        };
        let (a, b) = (run(), run());
        assert_eq!(a.board, b.board);
        assert!(a.met(), "{:?}", a.targets);
        let chutes = a.board.chutes().count() as u32;
        assert!((3..=5).contains(&chutes));
        assert_eq!(a.board.ladders().count(), 4);
        let mut squares = Vec::new();
        for j in a.board.jumps() {
            let len = j.from.abs_diff(j.to);
            assert!((3..=20).contains(&len), "{j}");
            assert!(j.from >= 1 && j.from < 60, "{j}");
            squares.extend([j.from, j.to]);
        }
        let all = squares.len();
        squares.sort_unstable();
        squares.dedup();
        assert_eq!(squares.len(), all, "no two jumps share a square");
    }

    #[test]
    fn a_withdrawn_budget_keeps_the_best_board_so_far() {
        let shape = DesignShape::new(100);
        // No board of 100 squares makes every game last 1,000 rolls.
        let targets = DesignTargets {
            shortest: Some(1000),
            ..DesignTargets::default()
        };
        let options = DesignOptions {
            seed: 1,
            evaluations: 1_000_000,
        };
        let budget = Budget::withdrawn_after(2);
        let d = design(&shape, &rules(), &targets, options, &budget, &mut |_| {}).expect("designs");
        assert!(d.stopped);
        assert!(d.evaluations < 1_000);
        assert!(!d.met());
    }

    #[test]
    fn shapes_and_targets_that_cannot_be_are_refused_with_the_reason() {
        let mut shape = DesignShape::new(20);
        shape.chutes = CountRange::exactly(8);
        shape.ladders = CountRange::exactly(8);
        let none = DesignOptions {
            seed: 1,
            evaluations: 1,
        };
        let go = |shape: &DesignShape, t: &DesignTargets| {
            design(shape, &rules(), t, none, &Budget::unlimited(), &mut |_| {})
        };
        let err = go(&shape, &DesignTargets::default()).expect_err("no room");
        assert_eq!(
            err.to_string(),
            "16 jumps do not fit on 20 squares without sharing a square"
        );
        let fair_alone = DesignTargets {
            fair: Some(0.01),
            ..DesignTargets::default()
        };
        assert_eq!(
            go(&DesignShape::new(100), &fair_alone),
            Err(DesignError::FairAlone)
        );
        let mut lengths = DesignShape::new(100);
        lengths.min_jump = 50;
        lengths.max_jump = 10;
        assert!(matches!(
            go(&lengths, &DesignTargets::default()),
            Err(DesignError::JumpLengths { .. })
        ));
    }

    #[test]
    fn the_fairness_bound_is_below_the_exact_two_player_least_and_close_to_it() {
        // Two players: seat 1 wins every tie, so P(seat 1) − ½ = ½ Σ p(n)²,
        // least for a given mean on a distribution falling linearly to 0
        // (a convex problem, solved here by trying every support 1..=L).
        let exact = |mean: f64| {
            let mut best = f64::INFINITY;
            for len in 2..=(mean * 4.0) as u64 + 4 {
                let l = len as f64;
                let (s0, s1, s2) = (
                    l,
                    l * (l + 1.0) / 2.0,
                    l * (l + 1.0) * (2.0 * l + 1.0) / 6.0,
                );
                let det = s1 * s1 - s0 * s2;
                let a = (s1 * mean - s2) / det;
                let b = (s0 * mean - s1) / det;
                if a - b * l < -1e-12 || a - b < -1e-12 {
                    continue;
                }
                let sum: f64 = (1..=len).map(|n| (a - b * n as f64).powi(2)).sum();
                best = best.min(sum / 2.0);
            }
            best
        };
        // On a coarse grid (fast; a coarser grid's bound is lower, still
        // valid), then once on the real one.
        let coarse =
            |mean: f64, players: usize| fairness_bound_on(mean, players, 400).expect("bound");
        for mean in [5.0, 30.0] {
            let least = exact(mean);
            let bound = coarse(mean, 2);
            assert!(bound <= least + 1e-12, "mean {mean}: {bound} > {least}");
            assert!(
                bound >= 0.6 * least,
                "mean {mean}: {bound} far below {least}"
            );
        }
        let fine = fairness_bound(30.0, 2).expect("bound");
        assert!(
            fine <= exact(30.0) + 1e-12 && fine >= 0.9 * exact(30.0),
            "{fine}"
        );
        assert!(fine >= coarse(30.0, 2));
        // More players, more advantage to the first; longer games, less.
        let four = coarse(30.0, 4);
        assert!(four > coarse(30.0, 2));
        assert!(coarse(40.0, 4) < four);
        // The example: four seats within 0.005 at a mean of 30 is
        // impossible on any board (even the coarse bound shows it).
        assert!(four > 0.005, "{four}");
        // The classic board (mean 39.2) has its four seats within 0.0101:
        // the bound must not exceed what a real board achieves.
        assert!(fairness_bound(39.3, 4).expect("bound") < 0.0101);
        assert_eq!(fairness_bound(30.0, 1), None);
    }
}
