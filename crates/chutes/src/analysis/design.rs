//! Boards designed to order: a board of a given shape whose exact game
//! length and seat chances meet targets, and that looks like a board.
//!
//! Terms:
//! - **shape** ([`DesignShape`]): the squares, how many chutes and ladders
//!   (each a range, and optionally a range for both together), and the
//!   constraints a real board keeps: no jump from the start or the finish,
//!   no two jumps sharing a square, jump lengths within bounds, no
//!   **chain** (a jump whose foot is another jump's head) unless allowed,
//!   and the **quality rules** of a board a designer would publish
//!   ([`Quality`]: no ladder to the finish, none in the first row, few
//!   crossings, no touching ends).
//! - **from**: a board to start from; the search then prefers the board
//!   that meets the targets with the fewest **changes** (jumps moved, added
//!   or removed: a moved jump is one change). Jumps kept as they were need
//!   not keep the quality rules.
//! - **targets** ([`DesignTargets`]): a [`Goal`] for the mean game length
//!   of one player, its standard deviation, its shortest game and any
//!   percentile, and every seat's chance within a margin of 1/P (**fair**).
//!   A plain number is met within its figure's default tolerance
//!   ([`MEAN_TOLERANCE`], [`SD_TOLERANCE`]; a shortest game or percentile
//!   is at least the number asked); `min` and `max` ask for the least or
//!   the most the search can find.
//! - **miss** of a target: how far outside its window a board is, in units
//!   of its tolerance; the **cost** of a board is the sum of the squared
//!   misses, plus a small price per crossing and per change.
//! - **bounds** ([`super::bounds`]): before any search, a relaxation of
//!   the shape proves the least mean and the least shortest game any board
//!   of it can have; a target no board can meet is refused at once with
//!   the reason ([`DesignError::Impossible`]).
//! - **search**: simulated annealing over the jumps' ends, from a seed
//!   ([`tabletop::Rng`]), with restarts from the best board; every candidate
//!   is judged exactly by the Markov chain ([`super::markov`]), never by
//!   simulation. It stops when every target is met (unless it is asked to
//!   minimise, maximise or change little: then when the best board has not
//!   improved for a while), when its evaluations run out, when it has
//!   stalled, or when its [`Budget`] is withdrawn (the best board so far is
//!   kept).
//! - **fairness bound** ([`fairness_bound`]): no board whose mean is at
//!   most a given length can be fairer than a bound that holds for every
//!   length distribution; a fairness target below it is impossible.

use super::AnalysisError;
use super::bounds::Relaxation;
use super::chain::Chain;
use super::goal::Goal;
use super::markov::{self, MarkovOptions};
use super::polish;
use super::quality::{Picture, Quality, RuleCheck, check_rules};
use crate::board::{Board, BoardError, BoardSpec, Jump};
use crate::game::MAX_PLAYERS;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use tabletop::{Budget, Rng};

/// The mean is met within this many rolls unless asked otherwise.
pub const MEAN_TOLERANCE: f64 = 0.1;
/// The standard deviation is met within this many rolls unless asked
/// otherwise.
pub const SD_TOLERANCE: f64 = 0.1;
/// The fairness margin `--players` implies when none is given.
pub const DEFAULT_FAIR: f64 = 0.02;
/// The largest figure a target may ask for, in rolls.
pub const MAX_TARGET: f64 = 1_000_000.0;
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
/// Rounds without a better board after which the search stops.
const STALL_ROUNDS: u64 = 8;
/// Rounds a search from a starting board tries with a number of changes
/// before it allows one more.
const PHASE_ROUNDS: u64 = 5;
/// The search stops once every target's miss is at most this (1 is the
/// edge of its tolerance).
const STOP_MISS: f64 = 0.9;
/// The cost of one crossing (a preference, far below a missed target).
const CROSSING_COST: f64 = 0.02;
/// The cost of a crossing past the most allowed, or of a jump short of
/// the counts asked.
const EXCESS_COST: f64 = 25.0;
/// Mean tolerances finer than this are polished ([`super::polish`]).
const POLISH_BELOW: f64 = 0.01;
/// Boards annealed before a polish.
const POLISH_ANNEAL: u64 = 5 * ROUND;
/// Pairs and triples of jumps the polish tries at most.
const POLISH_TRIES: usize = 3_000;
/// Triples a polish cycle tries after the pairs, before it moves a jump.
const POLISH_TRIPLES: usize = 60;
/// The cost of one change from the starting board.
const CHANGE_COST: f64 = 1.0;

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

    /// Around a starting board's `n` jumps of one kind: up to
    /// [`FROM_SLACK`] fewer or more.
    pub fn around(n: usize) -> Self {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        Self {
            min: n.saturating_sub(FROM_SLACK),
            max: n.saturating_add(FROM_SLACK),
        }
    }
}

/// How many jumps of each kind a design from a starting board may add or
/// take away unless the counts are asked.
pub const FROM_SLACK: u32 = 4;

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
    /// How many jumps of both kinds together, if that is asked too.
    pub jumps: Option<CountRange>,
    /// The shortest jump, in squares.
    pub min_jump: u32,
    /// The longest jump, in squares.
    pub max_jump: u32,
    /// May a jump end where another starts?
    pub chains: bool,
    /// The rules of a board a designer would publish.
    pub quality: Quality,
    /// The jumps of the board to change as little as possible, if any.
    pub from: Option<Vec<Jump>>,
}

impl DesignShape {
    /// The classic board's shape: 100 squares, 8 chutes and 8 ladders of 2
    /// to half the board's squares, no chains, the default quality rules.
    pub fn new(size: u32) -> Self {
        Self {
            size,
            chutes: CountRange::exactly(8),
            ladders: CountRange::exactly(8),
            jumps: None,
            min_jump: 2,
            max_jump: default_max_jump(size),
            chains: false,
            quality: Quality::default(),
            from: None,
        }
    }

    /// The squares a quality rule keeps jumps from starting on: the first
    /// row, unless allowed.
    fn first_row(&self) -> u32 {
        if self.quality.first_row {
            0
        } else {
            Picture::new(self.size).first_row()
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
        let (least, most) = self.total();
        if least > most {
            return Err(DesignError::Counts {
                chutes: self.chutes,
                ladders: self.ladders,
                jumps: self.jumps.unwrap_or(CountRange::exactly(least)),
            });
        }
        // Each jump takes two squares of 1..=N (the finish only as a
        // ladder's top), and heads are on 1..N-1, past the first row unless
        // allowed.
        let heads = self.size - 1 - self.first_row().min(self.size - 1);
        let room = if self.chains {
            heads
        } else {
            heads.min(self.size / 2)
        };
        if least > room {
            return Err(DesignError::NoRoom {
                chutes: self.chutes.min,
                ladders: self.ladders.min,
                jumps: least,
                size: self.size,
                first_row: !self.chains && self.first_row() > 0 && least <= self.size / 2,
            });
        }
        Ok(())
    }

    /// The fewest and most jumps in all.
    fn total(&self) -> (u32, u32) {
        let least = self.chutes.min + self.ladders.min;
        let most = self.chutes.max + self.ladders.max;
        match self.jumps {
            Some(j) => (least.max(j.min), most.min(j.max)),
            None => (least, most),
        }
    }

    /// The most rolls any board of the shape can need for its shortest
    /// game, and the most chutes it may have, when that is proven: a token
    /// that always moves to the farthest square of its roll's reach that is
    /// no chute's head (a ladder's only takes it higher, and with no chains
    /// onto a square that is no jump's head) loses at most one square for
    /// each chute head over the game, as long as no `faces` chute heads
    /// stand in a row (none touch under the touching rule, or there are
    /// fewer chutes than faces). From square 0 it is within `faces` of the
    /// finish after at most ⌊(N − F − 1 + C)/F⌋ + 1 rolls, and one more
    /// finishes.
    fn chute_walk(&self, rules: &Rules, most_jumps: u32) -> Option<(u32, u32)> {
        let faces = u32::from(rules.faces());
        let chutes = self.chutes.max.min(most_jumps);
        let no_wall =
            chutes < faces || (self.from.is_none() && !self.quality.touching && faces >= 2);
        if self.chains || !no_wall || self.size <= faces {
            return None;
        }
        let rolls = (self.size - faces - 1 + chutes) / faces + 2;
        Some((rolls, chutes))
    }

    /// The relaxation the bounds are proven on.
    fn relaxation(&self) -> Relaxation {
        let (_, most) = self.total();
        Relaxation {
            size: self.size,
            min_jump: self.min_jump,
            max_jump: self.max_jump,
            ladders: self.ladders.max > 0 && most > 0,
            most_ladders: self.ladders.max.min(most),
            chutes: self.chutes.max > 0 && most > 0,
            chains: self.chains,
            finish: self.quality.finish,
            first_row: self.first_row(),
        }
    }
}

/// The longest jump unless asked: half the board.
pub fn default_max_jump(size: u32) -> u32 {
    (size / 2).max(2)
}

/// A percentile of the game length and its goal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PercentileTarget {
    /// The share of games, in percent (0 to 100, exclusive).
    pub percent: f64,
    /// The goal for the rolls by which that share of games has finished.
    pub goal: Goal,
}

impl FromStr for PercentileTarget {
    type Err = DesignError;

    /// `90:<=60` or `90=60±2`: the percent, then the goal (a plain number
    /// is at most that many rolls).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DesignError::Percentile(s.to_string());
        let (p, g) = s.split_once([':', '=']).ok_or_else(bad)?;
        let percent = p.trim().parse::<f64>().map_err(|_| bad())?;
        if !(percent > 0.0 && percent < 100.0) {
            return Err(bad());
        }
        let goal = match Goal::parse_with(g, 0.0).map_err(|_| bad())? {
            Goal::Near {
                value,
                tolerance: 0.0,
            } => Goal::AtMost { value },
            goal => goal,
        };
        Ok(Self { percent, goal })
    }
}

/// What the designed board's games should be like. `None` leaves a figure
/// free.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignTargets {
    /// One player's mean game length, in rolls.
    pub mean: Option<Goal>,
    /// The standard deviation of one player's game length.
    pub sd: Option<Goal>,
    /// Players whose seats are compared (1 to 8).
    pub players: usize,
    /// Every seat's chance to win within this much of 1/players.
    pub fair: Option<f64>,
    /// The fewest rolls a game can take.
    pub shortest: Option<Goal>,
    /// Percentiles of the game length.
    pub percentiles: Vec<PercentileTarget>,
}

impl Default for DesignTargets {
    fn default() -> Self {
        Self {
            mean: None,
            sd: None,
            players: 1,
            fair: None,
            shortest: None,
            percentiles: Vec::new(),
        }
    }
}

impl DesignTargets {
    /// Does any goal ask for the least or the most?
    fn optimises(&self) -> bool {
        [self.mean, self.sd, self.shortest]
            .iter()
            .flatten()
            .chain(self.percentiles.iter().map(|p| &p.goal))
            .any(Goal::optimises)
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
    /// A percentile target that cannot be read.
    #[error(
        "'{0}' is not a percentile target: give the percent and a goal, such as 90:<=60 (nine games in ten end within 60 rolls) or 50=25±1"
    )]
    Percentile(String),
    /// Too many jumps of one kind.
    #[error("{count} {kind}: a designed board takes at most {MAX_DESIGN_JUMPS} of each kind")]
    TooMany {
        /// Chutes or ladders.
        kind: &'static str,
        /// How many were asked.
        count: u32,
    },
    /// Counts of each kind that the count of both cannot hold.
    #[error("{chutes} chutes and {ladders} ladders cannot make {jumps} jumps in all")]
    Counts {
        /// Chutes asked.
        chutes: CountRange,
        /// Ladders asked.
        ladders: CountRange,
        /// Jumps asked in all.
        jumps: CountRange,
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
    #[error(
        "{chutes} chutes and {ladders} ladders: {jumps} jumps do not fit on {size} squares without sharing a square{}",
        if *first_row { " (no jump starts in the first row unless allowed)" } else { "" }
    )]
    NoRoom {
        /// Chutes asked at the least.
        chutes: u32,
        /// Ladders asked at the least.
        ladders: u32,
        /// Jumps asked at the least.
        jumps: u32,
        /// The board's last square.
        size: u32,
        /// Did the first-row rule take squares away?
        first_row: bool,
    },
    /// Players out of range.
    #[error("{0} players: a design compares 1 to {MAX_PLAYERS} seats")]
    Players(usize),
    /// A target that is not a positive finite number.
    #[error("the target {name} must be a positive number of at most {MAX_TARGET}, not {value:?}")]
    Target {
        /// Which target.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// `--fair` with one player.
    #[error("a fairness target compares seats: give 2 or more players")]
    FairAlone,
    /// A target that a proven bound shows no board of the shape can meet.
    #[error("no board can meet the {name} target {goal}: {reason}")]
    Impossible {
        /// Which target.
        name: String,
        /// The goal asked.
        goal: String,
        /// The bound that rules it out, in words.
        reason: String,
    },
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
    /// `mean`, `sd`, `fair`, `shortest` or `pNN` (a percentile).
    pub name: String,
    /// The goal asked (for `fair`, at most the margin).
    pub goal: Goal,
    /// The value asked: the goal's centre or bound (for `min` and `max`,
    /// the value reached).
    pub target: f64,
    /// The board's value (for `fair`, the largest distance of a seat from
    /// 1/players).
    pub achieved: f64,
    /// Is the target met?
    pub met: bool,
    /// How far outside the goal the board is (0 when met).
    pub miss: f64,
    /// When not met: a bound shows that no board can meet it (why, in
    /// words).
    pub impossible: Option<String>,
    /// When not met: the best any board of the shape can do, as proven
    /// (in words), if a bound is known.
    pub bound: Option<String>,
}

/// The search's answer: the best board found and how it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// The board.
    pub board: Board,
    /// Each target, with the board's exact figure.
    pub targets: Vec<TargetResult>,
    /// Each quality rule and how the board stands against it.
    pub rules: Vec<RuleCheck>,
    /// Crossing pairs of jumps in the board's picture.
    pub crossings: u32,
    /// Jumps moved, added or removed from the starting board (`None`
    /// without one).
    pub changes: Option<u32>,
    /// Candidates judged.
    pub evaluations: u64,
    /// Did the search stop early because its budget was withdrawn?
    pub stopped: bool,
}

impl Design {
    /// Are all targets met and every board rule asked for kept?
    pub fn met(&self) -> bool {
        self.targets.iter().all(|t| t.met) && self.rules.iter().all(|r| !r.on || r.kept)
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
    /// The percentiles asked, in their order.
    percentiles: Vec<f64>,
}

/// The exact figures of `board` (`None` when some games never end).
fn figures(
    board: &Board,
    rules: &Rules,
    targets: &DesignTargets,
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
    let players = targets.players;
    let odds = markov::seat_win(d, players)?;
    let fair = 1.0 / players as f64;
    let unfairness = odds
        .seat_win
        .iter()
        .map(|p| (p - fair).abs())
        .fold(0.0, f64::max);
    let percentiles = targets
        .percentiles
        .iter()
        .map(|p| {
            d.percentile(p.percent / 100.0)
                .map_or(f64::INFINITY, f64::from)
        })
        .collect();
    Ok(Some(Figures {
        mean,
        sd,
        unfairness,
        shortest,
        percentiles,
    }))
}

/// One goal of the targets with its figure's unit: (name, goal, unit, the
/// board's value).
fn goals<'a>(targets: &'a DesignTargets, f: &'a Figures) -> Vec<(String, Goal, f64, f64)> {
    let mut out = Vec::new();
    if let Some(g) = targets.mean {
        out.push(("mean".to_string(), g, MEAN_TOLERANCE, f.mean));
    }
    if let Some(g) = targets.sd {
        out.push(("sd".to_string(), g, SD_TOLERANCE, f.sd));
    }
    if let Some(g) = targets.shortest {
        out.push(("shortest".to_string(), g, 1.0, f64::from(f.shortest)));
    }
    for (p, got) in targets.percentiles.iter().zip(&f.percentiles) {
        out.push((percentile_name(p.percent), p.goal, 1.0, *got));
    }
    out
}

fn percentile_name(percent: f64) -> String {
    format!("p{percent}")
}

/// How far `figures` is from each target, in units of its tolerance, and
/// the objective of the `min` and `max` goals (smaller is better).
fn misses(targets: &DesignTargets, f: &Figures) -> (Vec<f64>, f64) {
    let mut out = Vec::new();
    let mut objective = 0.0;
    for (_, goal, unit, got) in goals(targets, f) {
        match goal {
            Goal::Near { value, tolerance } => {
                // Within the inner half of the tolerance counts as 0.5.
                let tol = if tolerance > 0.0 {
                    tolerance
                } else {
                    unit * 1e-9
                };
                out.push((got - value).abs() / tol);
            }
            Goal::Least => objective += got / unit,
            Goal::Most => objective -= got / unit,
            g => out.push(0.5 + g.miss(got) / unit),
        }
    }
    if let Some(d) = targets.fair {
        out.push(f.unfairness / d);
    }
    (out, objective)
}

/// The cost of a board: 0 when every target is met within half its
/// tolerance, less for a `min` or `max` goal's better figure.
fn cost(targets: &DesignTargets, f: Option<&Figures>) -> f64 {
    match f {
        None => f64::INFINITY,
        Some(f) => {
            let (m, objective) = misses(targets, f);
            let miss: f64 = m
                .iter()
                .map(|&m| {
                    let over = (m - 0.5).max(0.0);
                    over * over
                })
                .sum();
            miss + 0.01 * objective
        }
    }
}

/// Is every target met, with a margin (so that the report's finer
/// tabulation meets it too)?
fn all_met(targets: &DesignTargets, f: Option<&Figures>) -> bool {
    f.is_some_and(|f| misses(targets, f).0.iter().all(|&m| m <= STOP_MISS))
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

/// Checks the targets against what they can be, and against the bounds
/// every board of the shape keeps.
fn check_targets(shape: &DesignShape, rules: &Rules, t: &DesignTargets) -> Result<(), DesignError> {
    if !(1..=MAX_PLAYERS).contains(&t.players) {
        return Err(DesignError::Players(t.players));
    }
    let numbers = [("mean", t.mean), ("sd", t.sd), ("shortest", t.shortest)]
        .into_iter()
        .filter_map(|(n, g)| g.map(|g| (n, g)))
        .chain(t.percentiles.iter().map(|p| ("percentile", p.goal)));
    for (name, goal) in numbers {
        for v in goal.numbers() {
            if !(v.is_finite() && (0.0..=MAX_TARGET).contains(&v)) {
                return Err(DesignError::Target { name, value: v });
            }
        }
        if let Goal::Near { value, .. } = goal
            && value <= 0.0
        {
            return Err(DesignError::Target { name, value });
        }
    }
    if let Some(v) = t.fair
        && !(v.is_finite() && v > 0.0)
    {
        return Err(DesignError::Target {
            name: "fair",
            value: v,
        });
    }
    if t.fair.is_some() && t.players < 2 {
        return Err(DesignError::FairAlone);
    }
    let impossible = |name: &str, goal: &Goal, reason: String| DesignError::Impossible {
        name: name.to_string(),
        goal: goal.to_string(),
        reason,
    };
    let relaxation = shape.relaxation();
    let least_shortest = relaxation.least_shortest(rules);
    let (least_jumps, most_jumps) = shape.total();
    let most_shortest = relaxation.most_shortest(least_jumps);
    let walk = shape.chute_walk(rules, most_jumps);
    // The shortest game: proven least and most.
    let shortest_low = t.shortest.map_or(0.0, |g| g.window().0);
    if let Some(g) = &t.shortest {
        let (low, high) = g.window();
        if let Some(least) = least_shortest
            && high < f64::from(least)
        {
            return Err(impossible(
                "shortest",
                g,
                format!(
                    "with the jumps this shape allows, no game can take fewer than {least} rolls"
                ),
            ));
        }
        if let Some((rolls, chutes)) = walk
            && low > f64::from(rolls)
        {
            return Err(impossible(
                "shortest",
                g,
                format!(
                    "a token that always moves to the farthest square its roll can reach without a chute's head finishes within {rolls} rolls on any such board: each of the at most {chutes} chutes costs it at most one square, and no {} chute heads can stand in a row{}",
                    rules.faces(),
                    if shape.quality.touching {
                        ""
                    } else {
                        " (no two jumps' ends touch)"
                    }
                ),
            ));
        }
        if low > f64::from(most_shortest) {
            return Err(impossible(
                "shortest",
                g,
                format!(
                    "a shortest game never stands on a square twice nor on a jump's start, so it takes at most {most_shortest} rolls on {} squares with {least_jumps} jumps",
                    shape.size
                ),
            ));
        }
    }
    for p in &t.percentiles {
        if let Some(least) = least_shortest
            && p.goal.window().1 < f64::from(least)
        {
            return Err(impossible(
                &percentile_name(p.percent),
                &p.goal,
                format!(
                    "no game can take fewer than {least} rolls with the jumps this shape allows"
                ),
            ));
        }
    }
    if let Some(g) = &t.mean {
        let high = g.window().1;
        if high < shortest_low {
            return Err(impossible(
                "mean",
                g,
                format!(
                    "every game is asked to take at least {shortest_low} rolls, so the mean is at least that"
                ),
            ));
        }
        if high.is_finite() {
            let least = relaxation.least_mean(rules);
            if high < least {
                return Err(impossible(
                    "mean",
                    g,
                    format!(
                        "with the jumps this shape allows ({}), no board's mean is below {least:.3} rolls (proven by letting a player choose any allowed jump on every square)",
                        allowed_words(shape)
                    ),
                ));
            }
            if let Some(fair) = t.fair
                && let Some(bound) = fairness_bound(high, t.players)
                && bound > fair
            {
                return Err(impossible(
                    "fair",
                    &Goal::AtMost { value: fair },
                    format!(
                        "with a mean of at most {high} rolls, seat 1 of {} is at least {bound:.4} ahead of an even share on any board",
                        t.players
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The jumps a shape allows, in words.
fn allowed_words(shape: &DesignShape) -> String {
    let mut words = vec![format!(
        "{} ladders, {} chutes, of {} to {} squares",
        shape.ladders, shape.chutes, shape.min_jump, shape.max_jump
    )];
    if !shape.quality.finish {
        words.push("none onto the finish".into());
    }
    if !shape.quality.first_row {
        words.push("none from the first row".into());
    }
    words.join(", ")
}

/// What a candidate jump is judged against: the shape, its picture, the
/// jumps kept from the starting board, and the crossings allowed.
struct Context<'a> {
    shape: &'a DesignShape,
    picture: Picture,
    first_row: u32,
    from: Vec<Jump>,
    crossings: u32,
}

impl<'a> Context<'a> {
    fn new(shape: &'a DesignShape) -> Self {
        let picture = Picture::new(shape.size);
        let from = shape.from.clone().unwrap_or_default();
        let crossings = shape.quality.crossings.max(picture.crossings(&from));
        Self {
            first_row: shape.first_row(),
            shape,
            picture,
            from,
            crossings,
        }
    }

    /// Jumps moved, added or removed from the starting board.
    fn changes(&self, layout: &Layout) -> Option<u32> {
        self.shape.from.as_ref()?;
        let gone = self
            .from
            .iter()
            .filter(|j| !layout.jumps.contains(j))
            .count();
        let new = layout
            .jumps
            .iter()
            .filter(|j| !self.from.contains(j))
            .count();
        Some(gone.max(new) as u32)
    }
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

    /// Crossings among the jumps other than `skip`.
    fn crossings(&self, cx: &Context<'_>, skip: Option<usize>) -> u32 {
        if cx.shape.quality.crossings == u32::MAX {
            return 0;
        }
        let others: Vec<Jump> = self
            .jumps
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != skip)
            .map(|(_, j)| *j)
            .collect();
        cx.picture.crossings(&others)
    }

    /// Does jump `j` (at index `skip` or new) fit beside the others? (The
    /// crossings are priced in the cost, not refused here.)
    fn fits(&self, cx: &Context<'_>, j: Jump, skip: Option<usize>) -> bool {
        let shape = cx.shape;
        let q = &shape.quality;
        let n = shape.size;
        let len = j.from.abs_diff(j.to);
        if j.from == 0 || j.from >= n || j.to == 0 || j.to > n || len == 0 {
            return false;
        }
        let kept = cx.from.contains(&j);
        if !kept
            && (len < shape.min_jump
                || len > shape.max_jump
                || j.from <= cx.first_row
                || (!q.finish && j.to == n))
        {
            return false;
        }
        self.jumps
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != skip)
            .all(|(_, o)| {
                let heads_apart = o.from != j.from;
                let feet_apart = o.to != j.to;
                let chained = o.to == j.from || j.to == o.from;
                let both_kept = kept && cx.from.contains(o);
                let touching =
                    !both_kept && !q.touching && !chained && cx.picture.ends_touch(j, *o);
                heads_apart && feet_apart && (shape.chains || !chained) && !touching
            })
    }

    /// How far the jumps fall short of the shape's counts.
    fn shortfall(&self, shape: &DesignShape) -> u32 {
        let (c, l) = (self.chutes() as u32, self.ladders() as u32);
        let (least, _) = shape.total();
        shape.chutes.min.saturating_sub(c)
            + shape.ladders.min.saturating_sub(l)
            + least.saturating_sub(c + l)
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
    cx: &Context<'_>,
    layout: &Layout,
    ladder: bool,
    skip: Option<usize>,
) -> Option<Jump> {
    let shape = cx.shape;
    let n = shape.size;
    let lowest = cx.first_row + 1;
    if lowest >= n {
        return None;
    }
    for _ in 0..200 {
        let from = lowest + rng.below(u64::from(n - lowest)) as u32;
        let span = shape.max_jump - shape.min_jump + 1;
        let len = shape.min_jump + rng.below(u64::from(span)) as u32;
        let to = if ladder {
            from.checked_add(len).filter(|&t| t <= n)
        } else {
            from.checked_sub(len).filter(|&t| t >= 1)
        };
        if let Some(to) = to {
            let j = Jump::new(from, to);
            if layout.fits(cx, j, skip) {
                return Some(j);
            }
        }
    }
    None
}

/// Moves one end of a jump by a few squares, keeping its kind.
fn nudge(rng: &mut Rng, cx: &Context<'_>, layout: &Layout, i: usize) -> Option<Jump> {
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
            && layout.fits(cx, c, Some(i))
        {
            return Some(c);
        }
    }
    None
}

/// How many chutes and ladders a first board has: a count of each within
/// its range and the total's.
fn first_counts(rng: &mut Rng, shape: &DesignShape) -> (u32, u32) {
    let pick =
        |rng: &mut Rng, r: CountRange| r.min + rng.below(u64::from(r.max - r.min + 1)) as u32;
    let (least, most) = shape.total();
    for _ in 0..100 {
        let (c, l) = (pick(rng, shape.chutes), pick(rng, shape.ladders));
        if (least..=most).contains(&(c + l)) {
            return (c, l);
        }
    }
    // Fill up to the least total from the fewest of each kind.
    let (mut c, mut l) = (shape.chutes.min, shape.ladders.min);
    while c + l < least {
        if l < shape.ladders.max && (rng.below(2) == 0 || c >= shape.chutes.max) {
            l += 1;
        } else {
            c += 1;
        }
    }
    (c, l)
}

/// A first board: the starting board, or random jumps of the shape.
fn first_layout(rng: &mut Rng, cx: &Context<'_>) -> Layout {
    if let Some(from) = &cx.shape.from {
        return Layout {
            jumps: from.clone(),
        };
    }
    let mut layout = Layout { jumps: Vec::new() };
    let (chutes, ladders) = first_counts(rng, cx.shape);
    for ladder in std::iter::repeat_n(true, ladders as usize)
        .chain(std::iter::repeat_n(false, chutes as usize))
    {
        if let Some(j) = random_jump(rng, cx, &layout, ladder, None) {
            layout.jumps.push(j);
        }
    }
    layout
}

/// Does `layout` have more jumps than the shape's counts allow?
fn over_counts(shape: &DesignShape, layout: &Layout) -> bool {
    let (c, l) = (layout.chutes() as u32, layout.ladders() as u32);
    let (_, most) = shape.total();
    c > shape.chutes.max || l > shape.ladders.max || c + l > most
}

/// A neighbour of `layout`: one jump nudged or moved, or one added or taken
/// away when the counts allow.
fn neighbour(rng: &mut Rng, cx: &Context<'_>, layout: &Layout) -> Option<Layout> {
    let shape = cx.shape;
    let mut next = layout.clone();
    let roll = rng.below(100);
    if roll < 6 {
        // Add or remove a jump of a kind whose range allows it.
        let ladder = rng.below(2) == 0;
        if rng.below(2) == 0 {
            next.jumps.push(random_jump(rng, cx, &next, ladder, None)?);
        } else {
            let of_kind: Vec<usize> = (0..next.jumps.len())
                .filter(|&i| (next.jumps[i].to > next.jumps[i].from) == ladder)
                .collect();
            if of_kind.is_empty() {
                return None;
            }
            let i = of_kind[rng.below(of_kind.len() as u64) as usize];
            next.jumps.swap_remove(i);
        }
        let fine = !over_counts(shape, &next) && next.shortfall(shape) <= layout.shortfall(shape);
        return fine.then_some(next);
    }
    if next.jumps.is_empty() {
        return None;
    }
    let i = rng.below(next.jumps.len() as u64) as usize;
    let j = next.jumps[i];
    let moved = if roll < 80 {
        nudge(rng, cx, &next, i)?
    } else {
        random_jump(rng, cx, &next, j.to > j.from, Some(i))?
    };
    next.jumps[i] = moved;
    Some(next)
}

/// A neighbour of a board changed from a starting board: mostly a move of
/// a jump already changed, or one change undone (a new jump put back as a
/// missing original) and another made, so the changes can wander without
/// growing in number.
fn neighbour_from(rng: &mut Rng, cx: &Context<'_>, layout: &Layout) -> Option<Layout> {
    let changed: Vec<usize> = (0..layout.jumps.len())
        .filter(|&i| !cx.from.contains(&layout.jumps[i]))
        .collect();
    let missing: Vec<Jump> = cx
        .from
        .iter()
        .copied()
        .filter(|j| !layout.jumps.contains(j))
        .collect();
    match rng.below(4) {
        0 if !changed.is_empty() => {
            // Move a changed jump.
            let i = changed[rng.below(changed.len() as u64) as usize];
            let j = layout.jumps[i];
            let mut next = layout.clone();
            next.jumps[i] = if rng.below(2) == 0 {
                nudge(rng, cx, layout, i)?
            } else {
                random_jump(rng, cx, layout, j.to > j.from, Some(i))?
            };
            Some(next)
        }
        1 if !missing.is_empty() => {
            // Put back a missing original (in place of a new jump if
            // there is one), then change something else.
            let original = missing[rng.below(missing.len() as u64) as usize];
            let mut next = layout.clone();
            let slot =
                (!changed.is_empty()).then(|| changed[rng.below(changed.len() as u64) as usize]);
            if let Some(i) = slot {
                next.jumps.swap_remove(i);
            }
            if !next.fits(cx, original, None) {
                return None;
            }
            next.jumps.push(original);
            let next = neighbour(rng, cx, &next)?;
            (!over_counts(cx.shape, &next)
                && next.shortfall(cx.shape) <= layout.shortfall(cx.shape))
            .then_some(next)
        }
        _ => neighbour(rng, cx, layout),
    }
}

/// Checks that `shape` and `targets` can be designed for under `rules`,
/// without searching: the values are in range, and no proven bound rules
/// a target out.
///
/// # Errors
/// As [`design`]: the value that cannot be and why, or the target no
/// board can meet and the bound that shows it.
pub fn check(
    shape: &DesignShape,
    rules: &Rules,
    targets: &DesignTargets,
) -> Result<(), DesignError> {
    shape.check()?;
    if let Some(from) = &shape.from {
        Board::new(BoardSpec {
            name: None,
            size: shape.size,
            start: 0,
            jumps: from.clone(),
            geometry: None,
        })?;
    }
    check_targets(shape, rules, targets)
}

/// Designs a board of `shape` under `rules` that meets `targets`, judging
/// every candidate exactly; `progress` hears from the search every few
/// hundred candidates. A withdrawn `budget` stops the search with the best
/// board so far.
///
/// # Errors
/// [`DesignError`] when the shape or the targets cannot be designed for
/// (the message says which value and why, or which bound rules a target
/// out).
pub fn design(
    shape: &DesignShape,
    rules: &Rules,
    targets: &DesignTargets,
    options: DesignOptions,
    budget: &Budget,
    progress: &mut dyn FnMut(DesignProgress),
) -> Result<Design, DesignError> {
    check(shape, rules, targets)?;
    let cx = Context::new(shape);
    let mut rng = Rng::new(options.seed);
    // A board's cost, and whether it meets every target.
    let judge = |layout: &Layout| -> Result<(f64, bool), DesignError> {
        let board = layout.board(shape)?;
        let f = figures(&board, rules, targets, SEARCH_TAIL, &Budget::unlimited())?;
        let crossings = layout.crossings(&cx, None);
        let excess = crossings.saturating_sub(cx.crossings);
        let short = layout.shortfall(shape);
        let looks = CROSSING_COST * f64::from(crossings)
            + EXCESS_COST * f64::from(excess + short)
            + CHANGE_COST * f64::from(cx.changes(layout).unwrap_or(0));
        Ok((
            cost(targets, f.as_ref()) + looks,
            all_met(targets, f.as_ref()) && excess == 0 && short == 0,
        ))
    };
    // Stop at the first board that meets every target, unless the least
    // change, the least or the most is asked for.
    let settle = shape.from.is_some() || targets.optimises();
    let mut current = first_layout(&mut rng, &cx);
    let (mut current_cost, mut best_met) = judge(&current)?;
    let mut best = current.clone();
    let mut best_cost = current_cost;
    let mut evaluations = 1u64;
    let mut improved_at = 0u64;
    let mut stopped = false;
    // An exact mean is annealed near, then polished.
    let anneal = if polish_target(shape, targets).is_some() {
        POLISH_ANNEAL
    } else {
        u64::MAX
    };
    let limit = options.evaluations.max(1);
    // From a starting board: at most `cap` changes, one more each phase
    // that meets nothing, so the first board met changes little.
    let from = shape.from.is_some();
    let mut cap = if from { 1 } else { u32::MAX };
    let mut phase_start = 0u64;
    while evaluations < limit.min(anneal) && (settle || !best_met) {
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
        let stall = if from && best_met { 2 } else { STALL_ROUNDS };
        if evaluations - improved_at > stall * ROUND {
            break;
        }
        if from && !best_met && evaluations - phase_start >= PHASE_ROUNDS * ROUND {
            cap += 1;
            phase_start = evaluations;
            improved_at = evaluations;
        }
        // Temperature falls from 1 to 0.001 over each round; a round
        // starts again from the best board.
        let into_round = evaluations % ROUND;
        if into_round == 0 {
            current = best.clone();
            current_cost = best_cost;
        }
        let temperature = 1e-3f64.powf(into_round as f64 / ROUND as f64);
        let proposed = if from {
            neighbour_from(&mut rng, &cx, &current)
        } else {
            neighbour(&mut rng, &cx, &current)
        };
        let Some(candidate) = proposed.filter(|c| cx.changes(c).is_none_or(|n| n <= cap)) else {
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
            let better = if best_met {
                met && c < best_cost
            } else {
                met || c < best_cost
            };
            if better {
                if best_cost - c > 1e-9 * best_cost.abs().max(1.0) || (met && !best_met) {
                    improved_at = evaluations;
                }
                best = current.clone();
                best_cost = c;
                best_met = met;
            }
        }
    }
    if !stopped && let Some(target) = polish_target(shape, targets) {
        polish(
            &cx,
            rules,
            target,
            &mut best,
            &mut rng,
            budget,
            &mut evaluations,
        );
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
    let f = figures(&board, rules, targets, tail, &Budget::unlimited())?;
    let crossings = cx.picture.crossings(&best.jumps);
    let mut checks = check_rules(
        shape.size,
        &shape.quality,
        (shape.min_jump, shape.max_jump),
        board.jumps(),
        &cx.from,
        cx.crossings,
    );
    let counts = if shape.jumps.is_some() {
        format!(
            "{} chutes and {} ladders, {} jumps in all",
            shape.chutes,
            shape.ladders,
            shape.jumps.map_or(String::new(), |j| j.to_string())
        )
    } else {
        format!("{} chutes and {} ladders", shape.chutes, shape.ladders)
    };
    checks.push(RuleCheck {
        rule: "counts",
        text: counts,
        on: true,
        broken_by: Vec::new(),
        kept: best.shortfall(shape) == 0 && !over_counts(shape, &best),
    });
    Ok(Design {
        targets: results(shape, rules, targets, f.as_ref()),
        rules: checks,
        crossings,
        changes: cx.changes(&best),
        board,
        evaluations,
        stopped,
    })
}

/// The mean to polish to, when the mean is the only target and its
/// tolerance is finer than annealing reaches.
fn polish_target(shape: &DesignShape, t: &DesignTargets) -> Option<(f64, f64)> {
    let alone =
        t.sd.is_none() && t.shortest.is_none() && t.fair.is_none() && t.percentiles.is_empty();
    match t.mean {
        Some(Goal::Near { value, tolerance })
            if alone && shape.from.is_none() && tolerance < POLISH_BELOW =>
        {
            Some((value, tolerance))
        }
        _ => None,
    }
}

/// Brings `best`'s mean to within the tolerance of `target` by choosing the
/// destinations of two or three jumps together ([`super::polish`]): every
/// pair of jumps, then triples drawn from `rng`, each improvement kept
/// only when the whole board still keeps the shape and its rules.
fn polish(
    cx: &Context<'_>,
    rules: &Rules,
    (target, tolerance): (f64, f64),
    best: &mut Layout,
    rng: &mut Rng,
    budget: &Budget,
    evaluations: &mut u64,
) {
    let shape = cx.shape;
    let n = shape.size;
    let kinds_free = shape.chutes.min == 0
        && shape.ladders.min == 0
        && shape.chutes.max >= shape.total().1
        && shape.ladders.max >= shape.total().1;
    let Some(best_mean) = polish::mean_of(n, rules, &best.jumps) else {
        return;
    };
    let count = best.jumps.len();
    if count < 2 {
        return;
    }
    let mut pairs: Vec<Vec<usize>> = Vec::new();
    for a in 0..count {
        for b in a + 1..count {
            pairs.push(vec![a, b]);
        }
    }
    // The board being polished, and the best so far (a cycle that finds
    // nothing moves one jump of the working board elsewhere and goes on).
    let (mut work, mut mean) = (best.clone(), best_mean);
    let mut best_miss = (best_mean - target).abs();
    let cycle = pairs.len() + POLISH_TRIPLES;
    let (mut tries, mut since) = (0, 0);
    while best_miss > tolerance * 0.5 && tries < POLISH_TRIES && budget.check().is_ok() {
        if since >= cycle {
            since = 0;
            let moved = neighbour(rng, cx, &work)
                .filter(|l| !over_counts(shape, l) && l.shortfall(shape) == 0)
                .and_then(|l| polish::mean_of(n, rules, &l.jumps).map(|m| (l, m)));
            if let Some((l, m)) = moved {
                (work, mean) = (l, m);
            }
        }
        let free: Vec<usize> = if since < pairs.len() {
            pairs[since].clone()
        } else {
            let mut pick: Vec<usize> = Vec::new();
            while pick.len() < 3.min(count) {
                let i = rng.below(count as u64) as usize;
                if !pick.contains(&i) {
                    pick.push(i);
                }
            }
            pick
        };
        tries += 1;
        since += 1;
        let jumps = work.jumps.clone();
        let allowed = |i: usize, d: u32| {
            let j = jumps[free[i]];
            let ladder = j.to > j.from;
            let len = j.from.abs_diff(d);
            d != j.from
                && (kinds_free || (d > j.from) == ladder)
                && (shape.min_jump..=shape.max_jump).contains(&len)
                && (shape.quality.finish || d != n)
                && jumps
                    .iter()
                    .enumerate()
                    .all(|(k, o)| (free.contains(&k) || o.to != d) && (shape.chains || o.from != d))
        };
        let found = polish::best_destinations(n, rules, &jumps, &free, target, &allowed, 8);
        *evaluations += 1;
        for (m, dest) in found {
            // A real step closer, not a rounding error's.
            if (m - target).abs() >= 0.9 * (mean - target).abs() {
                break;
            }
            let mut next = work.clone();
            for (k, &i) in free.iter().enumerate() {
                next.jumps[i] = Jump::new(jumps[i].from, dest[k]);
            }
            let fits = free.iter().all(|&i| next.fits(cx, next.jumps[i], Some(i)))
                && next.crossings(cx, None) <= cx.crossings
                && next.board(shape).is_ok();
            if fits {
                (work, mean) = (next, m);
                since = 0;
                if (m - target).abs() < best_miss {
                    best_miss = (m - target).abs();
                    *best = work.clone();
                }
                break;
            }
        }
    }
}

/// Each target beside the board's figures.
fn results(
    shape: &DesignShape,
    rules: &Rules,
    targets: &DesignTargets,
    f: Option<&Figures>,
) -> Vec<TargetResult> {
    let mut out = Vec::new();
    let never = f64::INFINITY;
    let missing = Figures {
        mean: never,
        sd: never,
        unfairness: never,
        shortest: 0,
        percentiles: vec![never; targets.percentiles.len()],
    };
    let figures = f.unwrap_or(&missing);
    for (name, goal, _, got) in goals(targets, figures) {
        let miss = goal.miss(got);
        let target = match goal {
            Goal::Near { value, .. } | Goal::AtLeast { value } | Goal::AtMost { value } => value,
            Goal::Least | Goal::Most => got,
        };
        let bound = (miss > 0.0 && name == "mean" && got > goal.window().1).then(|| {
            let least = shape.relaxation().least_mean(rules);
            format!("no board of this shape has a mean below {least:.3} rolls")
        });
        out.push(TargetResult {
            name,
            goal,
            target,
            achieved: got,
            met: miss == 0.0,
            miss,
            impossible: None,
            bound,
        });
    }
    if let Some(fair) = targets.fair {
        let got = figures.unfairness;
        let met = got <= fair;
        let impossible = (!met)
            .then(|| {
                // The longest mean the mean target allows.
                let mean = targets.mean?.window().1;
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
            name: "fair".to_string(),
            goal: Goal::AtMost { value: fair },
            target: fair,
            achieved: got,
            met,
            miss: (got - fair).max(0.0),
            impossible,
            bound: None,
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
            mean: Some(Goal::near(25.0, MEAN_TOLERANCE)),
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

    /// The fewest rolls from 0 to the finish (breadth first; one jump a
    /// move, a roll past the finish stays).
    fn fewest_rolls(board: &Board, faces: u32) -> Option<u32> {
        let n = board.size();
        let mut to: Vec<u32> = (0..=n).collect();
        for j in board.jumps() {
            to[j.from as usize] = j.to;
        }
        let mut dist = vec![u32::MAX; n as usize + 1];
        dist[0] = 0;
        let mut queue = std::collections::VecDeque::from([0u32]);
        while let Some(s) = queue.pop_front() {
            for r in 1..=faces {
                if s + r > n {
                    continue;
                }
                let t = to[(s + r) as usize];
                if dist[t as usize] == u32::MAX {
                    dist[t as usize] = dist[s as usize] + 1;
                    queue.push_back(t);
                }
            }
        }
        (dist[n as usize] != u32::MAX).then_some(dist[n as usize])
    }

    #[test]
    fn no_board_of_the_shape_needs_more_rolls_than_the_chute_walk() {
        // Random boards of shapes that keep the touching rule, and of shapes
        // with fewer chutes than faces: each one's shortest game is within
        // the bound, and the bound is reached on a small board.
        for (size, chutes, faces, touching) in [
            (100, 8, 6, false),
            (40, 6, 2, false),
            (30, 5, 2, false),
            (60, 3, 4, true),
        ] {
            let mut shape = DesignShape::new(size);
            shape.chutes = CountRange::exactly(chutes);
            shape.ladders = CountRange::exactly(0);
            shape.min_jump = 1;
            shape.quality.first_row = true;
            shape.quality.touching = touching;
            shape.quality.crossings = u32::MAX;
            let rules = Rules::new(crate::Overshoot::Stay, faces).expect("rules");
            let (bound, _) = shape.chute_walk(&rules, chutes).expect("a bound");
            let cx = Context::new(&shape);
            let mut checked = 0;
            for seed in 0..300 {
                let mut rng = Rng::new(seed);
                let layout = first_layout(&mut rng, &cx);
                let Ok(board) = layout.board(&shape) else {
                    continue;
                };
                if let Some(rolls) = fewest_rolls(&board, faces) {
                    assert!(rolls <= bound, "{rolls} > {bound} on {:?}", board.jumps());
                    checked += 1;
                }
            }
            assert!(checked >= 100, "{checked} boards of {size} squares checked");
        }
        // 30 squares, 5 chutes, a 2-sided die: floor((30-3+5)/2)+2 = 18,
        // reached with a chute's head every third square, each costing the
        // token one square.
        let board =
            Board::from_jumps(30, 0, &[(2, 1), (5, 3), (8, 6), (11, 9), (14, 12)]).expect("board");
        assert_eq!(fewest_rolls(&board, 2), Some(18));
    }

    #[test]
    fn a_withdrawn_budget_keeps_the_best_board_so_far() {
        let shape = DesignShape::new(100);
        // Every game at least 18 rolls (the chute walk's bound itself) is
        // beyond any board found quickly.
        let targets = DesignTargets {
            shortest: Some(Goal::AtLeast { value: 18.0 }),
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
        shape.quality.first_row = true;
        let err = go(&shape, &DesignTargets::default()).expect_err("no room");
        assert_eq!(
            err.to_string(),
            "8 chutes and 8 ladders: 16 jumps do not fit on 20 squares without sharing a square"
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
