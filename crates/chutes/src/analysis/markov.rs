//! Game lengths as an absorbing Markov chain: the distribution, the odds of
//! each seat, and where tokens go.
//!
//! Terms:
//! - **length** T: rolls one player makes to reach N (lost turns count).
//! - **distribution**: `probabilities[n]` = P(T = n); `cumulative[n]` =
//!   P(T ≤ n); `survival[n]` = P(T > n). Tabulated until the probability
//!   still in play is under the **tail** (1e-12 by default).
//! - **percentile** q: the smallest n with P(T ≤ n) ≥ q (the median is q =
//!   0.5).
//! - **never**: P(the game never ends), positive when a dead square
//!   ([`super::Reach`]) can be reached; the mean is then infinite.
//! - **visits** of a square: expected number of rolls made from it (time
//!   spent there, lost turns included); they add up to the mean. Index 0 is
//!   the off-board start.
//! - **landings** on a square: expected number of rolls whose count reaches
//!   it, before any jump. On a jump's start square this is the expected
//!   number of times the jump is taken.
//! - **finishing through a jump**: the jump is the last chute or ladder the
//!   game takes; after it the token reaches N without taking another (a
//!   ladder ending on N finishes through itself). These chances and the
//!   chance of taking no jump at all add up to P(the game ends).
//! - **seat**: players roll in seat order 1..P and are independent; seat i
//!   wins at round n when it finishes on its n-th roll, the seats before it
//!   have not finished by their n-th roll and the seats after it have not
//!   finished by their (n-1)-th.
//!
//! Method: the distribution of the token's square is pushed forward one roll
//! at a time through [`Chain`] (sparse: a window of squares holding
//! probability, O(window × faces) per roll; no matrix is ever formed).
//! At each roll, squares at the window's edges holding together less than
//! 1e-18 are dropped, which keeps the window to where the probability is
//! (the total dropped is reported as `dropped`; it is far below the tail).

use super::AnalysisError;
use super::chain::{Chain, Reach};
use crate::board::{Board, Jump, JumpKind};
use crate::game::MAX_PLAYERS;
use crate::rules::Rules;
use serde::Serialize;
use tabletop::Budget;

/// The tail used unless asked otherwise.
pub const DEFAULT_TAIL: f64 = 1e-12;
/// The most rolls tabulated unless asked otherwise.
pub const DEFAULT_MAX_ROLLS: u32 = 1_000_000;
/// Probability dropped at most per roll at the window's edges.
const DROP_PER_ROLL: f64 = 1e-18;
/// Square × face steps between two checks of the budget (well under a
/// millisecond of work).
const CHECK_EVERY: usize = 1 << 16;

/// How far to tabulate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkovOptions {
    /// Stop when less than this probability is still in play.
    pub tail: f64,
    /// Give up (with [`AnalysisError::TooLong`]) after this many rolls.
    pub max_rolls: u32,
}

impl Default for MarkovOptions {
    fn default() -> Self {
        Self {
            tail: DEFAULT_TAIL,
            max_rolls: DEFAULT_MAX_ROLLS,
        }
    }
}

/// Percentiles of the game length (`None` when the game too rarely ends to
/// reach that percentile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Percentiles {
    /// 25th percentile.
    pub p25: Option<u32>,
    /// 50th percentile, the median.
    pub p50: Option<u32>,
    /// 75th percentile.
    pub p75: Option<u32>,
    /// 95th percentile.
    pub p95: Option<u32>,
    /// 99th percentile.
    pub p99: Option<u32>,
}

/// The distribution of one player's game length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthDistribution {
    /// `probabilities[n]` = P(T = n), for n = 0 ..= the last roll tabulated.
    pub probabilities: Vec<f64>,
    /// `cumulative[n]` = P(T ≤ n).
    pub cumulative: Vec<f64>,
    /// `survival[n]` = P(T > n), including games that never end.
    pub survival: Vec<f64>,
    /// P(the game never ends): 0 unless a dead square can be reached.
    pub never: f64,
    /// Probability still in play after the last roll tabulated (under the
    /// tail asked for).
    pub tail: f64,
    /// Probability dropped at the edges of the window (at most 1e-18 per
    /// roll; see the module's method).
    pub dropped: f64,
    /// Mean length E\[T\]; `None` when some games never end.
    pub mean: Option<f64>,
    /// Standard deviation of T; `None` when some games never end.
    pub sd: Option<f64>,
    /// The median length.
    pub median: Option<u32>,
    /// The most likely length (`None` when no game ends).
    pub mode: Option<u32>,
    /// Percentiles 25, 50, 75, 95 and 99.
    pub percentiles: Percentiles,
    /// The shortest possible game (by breadth-first search: on a long board
    /// P(T = n) can be too small for a float there).
    pub shortest: Option<u32>,
}

impl LengthDistribution {
    /// P(T ≤ n) (1 − tail − never beyond the table).
    pub fn cdf(&self, n: u32) -> f64 {
        let n = n as usize;
        match self.cumulative.get(n) {
            Some(&c) => c,
            None => self.cumulative.last().copied().unwrap_or(0.0),
        }
    }

    /// P(T > n).
    pub fn sf(&self, n: u32) -> f64 {
        match self.survival.get(n as usize) {
            Some(&s) => s,
            None => self.tail + self.never,
        }
    }

    /// The smallest n with P(T ≤ n) ≥ `q`, if the table reaches it.
    pub fn percentile(&self, q: f64) -> Option<u32> {
        let i = self.cumulative.partition_point(|&c| c < q);
        (i < self.cumulative.len()).then_some(i as u32)
    }

    /// P(the game ends) within the table.
    pub fn finish_probability(&self) -> f64 {
        self.cumulative.last().copied().unwrap_or(0.0)
    }
}

/// Figures for one chute or ladder.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct JumpStats {
    /// The jump.
    pub jump: Jump,
    /// Ladder or chute.
    pub kind: JumpKind,
    /// Expected number of times one player takes it in a game.
    pub expected_taken: f64,
    /// P(it is the last jump of the game): see the module's terms.
    pub finish_through: f64,
}

/// Everything the Markov chain gives for one player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Markov {
    /// The game-length distribution.
    pub distribution: LengthDistribution,
    /// `visits[s]`: expected rolls made from square `s` (index 0 is the
    /// off-board start; `visits[N]` is 0). Sums to the mean.
    pub visits: Vec<f64>,
    /// `landings[s]`: expected rolls whose count reaches square `s`, before
    /// any jump (index 0 is always 0).
    pub landings: Vec<f64>,
    /// One entry per chute and ladder, ordered by start square.
    pub jumps: Vec<JumpStats>,
    /// P(a game takes no chute or ladder at all).
    pub no_jump: f64,
    /// Dead squares (see [`Reach`]); empty when every game ends.
    pub dead: Vec<u32>,
}

/// Each seat's chances in a game of P players.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatOdds {
    /// Number of players.
    pub players: usize,
    /// `seat_win[i]`: P(seat i+1 wins).
    pub seat_win: Vec<f64>,
    /// P(nobody ever wins): positive only on boards where games can go on
    /// forever.
    pub nobody: f64,
    /// Expected rounds (a round is one roll by each player; the last round
    /// ends at the winner's roll). `None` when games can go on forever.
    pub mean_rounds: Option<f64>,
    /// Expected rolls by all players together, lost turns included.
    pub mean_rolls: Option<f64>,
}

/// The game-length distribution on `board` under `rules`, to a tail under
/// `tail` (use [`DEFAULT_TAIL`]).
///
/// # Errors
/// [`AnalysisError::Tail`] when `tail` is not in (0, 1);
/// [`AnalysisError::TooLong`] when games are so long the tail is not reached
/// in [`DEFAULT_MAX_ROLLS`] rolls.
pub fn distribution(
    board: &Board,
    rules: &Rules,
    tail: f64,
) -> Result<LengthDistribution, AnalysisError> {
    let options = MarkovOptions {
        tail,
        ..MarkovOptions::default()
    };
    Ok(analyze(board, rules, &options)?.distribution)
}

/// Expected landings per square (index = square; see [`Markov::landings`]).
///
/// # Errors
/// As [`analyze`] with default options.
pub fn expected_landings(board: &Board, rules: &Rules) -> Result<Vec<f64>, AnalysisError> {
    Ok(analyze(board, rules, &MarkovOptions::default())?.landings)
}

/// Expected visits per square (index = square; see [`Markov::visits`]).
///
/// # Errors
/// As [`analyze`] with default options.
pub fn expected_visits(board: &Board, rules: &Rules) -> Result<Vec<f64>, AnalysisError> {
    Ok(analyze(board, rules, &MarkovOptions::default())?.visits)
}

/// Every seat's chance to win among `players` players, from one player's
/// distribution.
///
/// # Errors
/// [`AnalysisError::Players`] unless `players` is 1 to 8.
pub fn seat_win(dist: &LengthDistribution, players: usize) -> Result<SeatOdds, AnalysisError> {
    if !(1..=MAX_PLAYERS).contains(&players) {
        return Err(AnalysisError::Players(players));
    }
    let p = &dist.probabilities;
    let sf = |n: usize| {
        dist.survival
            .get(n)
            .copied()
            .unwrap_or(dist.tail + dist.never)
    };
    let mut seat_win = vec![0.0; players];
    let mut mean_rolls = 0.0;
    for (n, &pn) in p.iter().enumerate().skip(1) {
        if pn == 0.0 {
            continue;
        }
        let now = sf(n);
        let before = sf(n - 1);
        for (i, win) in seat_win.iter_mut().enumerate() {
            let chance = pn * now.powi(i as i32) * before.powi((players - 1 - i) as i32);
            *win += chance;
            mean_rolls += chance * ((n - 1) * players + i + 1) as f64;
        }
    }
    let nobody = dist.never.powi(players as i32);
    let finite = dist.never == 0.0;
    // Rounds R = min over players of T: E[R] = Σ_{n≥0} P(T > n)^P, with the
    // geometric tail beyond the table.
    let mean_rounds = finite.then(|| {
        let s = &dist.survival;
        let mut sum: f64 = s.iter().map(|&x| x.powi(players as i32)).sum();
        sum += geometric_rest(s, players as i32);
        sum
    });
    Ok(SeatOdds {
        players,
        seat_win,
        nobody,
        mean_rounds,
        mean_rolls: finite.then_some(mean_rolls),
    })
}

/// Σ_{k > last} s_k^power, extrapolating the survival's last ratio.
fn geometric_rest(s: &[f64], power: i32) -> f64 {
    match s {
        [.., a, b] if *a > 0.0 && *b > 0.0 && b < a => {
            let ratio = (b / a).powi(power);
            b.powi(power) * ratio / (1.0 - ratio)
        }
        _ => 0.0,
    }
}

/// The distribution, visits, landings and jump figures for one player.
///
/// # Errors
/// [`AnalysisError::Tail`] when `options.tail` is not in (0, 1);
/// [`AnalysisError::TooLong`] when the tail is not reached within
/// `options.max_rolls` rolls.
pub fn analyze(
    board: &Board,
    rules: &Rules,
    options: &MarkovOptions,
) -> Result<Markov, AnalysisError> {
    analyze_within(board, rules, options, &Budget::unlimited())
}

/// [`analyze`] within `budget`.
///
/// # Errors
/// As [`analyze`], and [`AnalysisError::Stopped`] when the budget runs out
/// or the question is withdrawn first.
pub fn analyze_within(
    board: &Board,
    rules: &Rules,
    options: &MarkovOptions,
    budget: &Budget,
) -> Result<Markov, AnalysisError> {
    let chain = Chain::new(board, rules);
    budget.check()?;
    let reach = chain.reach();
    analyze_chain(board, &chain, &reach, options, budget)
}

/// [`analyze_within`] on a chain already built.
///
/// # Errors
/// As [`analyze_within`].
pub fn analyze_chain(
    board: &Board,
    chain: &Chain,
    reach: &Reach,
    options: &MarkovOptions,
    budget: &Budget,
) -> Result<Markov, AnalysisError> {
    let tail = options.tail;
    if !(tail > 0.0 && tail < 1.0) {
        return Err(AnalysisError::Tail(tail));
    }
    let n = chain.finish() as usize;
    let f = usize::from(chain.faces());
    let finish_slot = n;
    let trap_slot = n + 1;
    // Where a regular landing on l leaves its probability.
    let slot = |t: u32| -> u32 {
        if reach.can_finish(t) {
            t
        } else {
            trap_slot as u32
        }
    };
    // Where a regular landing on l leaves its probability.
    let target: Vec<u32> = (0..=n).map(|l| slot(chain.land_to(l as u32))).collect();
    let regular: Vec<u8> = (0..n).map(|s| chain.regular(s as u32)).collect();
    // States with exceptional rolls (the overshoot region) keep their moves:
    // (where to, square landed on, lost turn).
    let first_exception = regular
        .iter()
        .position(|&k| usize::from(k) < f)
        .unwrap_or(n);
    let exceptions: Vec<Vec<(u32, u32, bool)>> = (first_exception..n)
        .map(|s| {
            chain
                .exceptions(s as u32)
                .map(|(_, m)| (slot(m.to), m.landed, m.lost))
                .collect()
        })
        .collect();

    // `p[o + s]` is the probability on state s before a roll (o zeros in
    // front, so a landing square can read its f sources without a check);
    // `q` receives the next roll's; slots N and N+1 collect the finish and
    // the dead squares.
    let o = f;
    let mut p = vec![0.0f64; o + n + 2];
    let mut q = vec![0.0f64; o + n + 2];
    let mut land = vec![0.0f64; n + f + 2];
    let mut visits = vec![0.0f64; n + 1];
    let inv = 1.0 / f as f64;

    let start = chain.start() as usize;
    let mut never = 0.0;
    let mut dropped = 0.0;
    let (mut lo, mut hi);
    if !reach.can_finish(chain.start()) {
        never = 1.0;
        lo = 1;
        hi = 0;
    } else {
        p[o + start] = 1.0;
        lo = start;
        hi = start;
    }
    let mut probabilities = vec![0.0];
    let mut survival = vec![1.0];
    let mut remaining = 1.0 - never;
    let mut rolls = 0u32;
    // Square × face steps since the budget was last checked.
    let mut work = 0usize;
    while remaining >= tail {
        work += (hi + 1).saturating_sub(lo) * f + f;
        if work >= CHECK_EVERY {
            work = 0;
            budget.check()?;
        }
        if rolls >= options.max_rolls {
            return Err(AnalysisError::TooLong {
                rolls,
                remaining,
                tail,
            });
        }
        rolls += 1;
        let land_hi = (hi + f).min(n);
        let mut new_lo = usize::MAX;
        let mut new_hi = 0usize;
        for (v, &x) in visits[lo..=hi].iter_mut().zip(&p[o + lo..=o + hi]) {
            *v += x;
        }
        // States with exceptional rolls (near the finish) push their
        // probability, and leave the others to be pulled.
        for s in lo.max(first_exception)..=hi {
            let m = p[o + s];
            if m == 0.0 {
                continue;
            }
            p[o + s] = 0.0;
            for cell in &mut land[s + 1..=s + usize::from(regular[s])] {
                *cell += m;
            }
            let w = m * inv;
            for &(to, _, _) in &exceptions[s - first_exception] {
                let to = to as usize;
                q[o + to] += w;
                if to < n {
                    new_lo = new_lo.min(to);
                    new_hi = new_hi.max(to);
                }
            }
        }
        // Every other state's rolls 1..=f are regular: a landing square l
        // receives 1/f of the probability on each of l−f..l−1.
        if lo < n {
            for j in 1..=f {
                let sources = &p[o + lo + 1 - j..=o + land_hi - j];
                for (cell, &x) in land[lo + 1..=land_hi].iter_mut().zip(sources) {
                    *cell += x;
                }
            }
        }
        p[o + lo..=o + hi].fill(0.0);
        // Each landing square sends its probability on (up a ladder, down a
        // chute, or nowhere).
        for l in lo + 1..=land_hi {
            let v = land[l] * inv;
            land[l] = 0.0;
            let t = target[l] as usize;
            q[o + t] += v;
            if t != l && t < n && v != 0.0 {
                new_lo = new_lo.min(t);
                new_hi = new_hi.max(t);
            }
        }
        if lo < n {
            new_lo = new_lo.min(lo + 1);
            new_hi = new_hi.max(land_hi.min(n - 1));
        }
        let finished = q[o + finish_slot];
        q[o + finish_slot] = 0.0;
        never += q[o + trap_slot];
        q[o + trap_slot] = 0.0;
        probabilities.push(finished);
        // Drop vanishing probability (and the empty squares) at the edges.
        let mut gone = 0.0;
        while new_lo < new_hi && gone + q[o + new_lo] < DROP_PER_ROLL {
            gone += q[o + new_lo];
            q[o + new_lo] = 0.0;
            new_lo += 1;
        }
        while new_hi > new_lo && gone + q[o + new_hi] < DROP_PER_ROLL {
            gone += q[o + new_hi];
            q[o + new_hi] = 0.0;
            new_hi -= 1;
        }
        dropped += gone;
        if new_lo > new_hi || (new_lo == new_hi && q[o + new_lo] == 0.0) {
            if new_lo == new_hi {
                q[o + new_lo] = 0.0;
            }
            remaining = 0.0;
            lo = 1;
            hi = 0;
        } else {
            remaining = q[o + new_lo..=o + new_hi].iter().sum();
            lo = new_lo;
            hi = new_hi;
        }
        survival.push(remaining + never);
        std::mem::swap(&mut p, &mut q);
    }
    // Landings: each visit to s sends 1/f of a landing to each square its
    // rolls reach.
    let mut landings = vec![0.0f64; n + 1];
    for (s, &v) in visits.iter().enumerate().take(n) {
        if v == 0.0 {
            continue;
        }
        let w = v * inv;
        for cell in &mut landings[s + 1..=s + usize::from(regular[s])] {
            *cell += w;
        }
        if s >= first_exception {
            for &(_, landed, lost) in &exceptions[s - first_exception] {
                if !lost {
                    landings[landed as usize] += w;
                }
            }
        }
    }
    let mut distribution = summarize(probabilities, survival, never, remaining);
    distribution.dropped = dropped;
    // The first n with P(T = n) > 0 may underflow on a long board: ask the
    // breadth-first search.
    distribution.shortest = chain.shortest_rolls();
    let (jumps, no_jump) = jump_stats(board, chain, reach, &landings);
    Ok(Markov {
        distribution,
        visits,
        landings,
        jumps,
        no_jump,
        dead: reach.dead.clone(),
    })
}

fn summarize(
    probabilities: Vec<f64>,
    survival: Vec<f64>,
    never: f64,
    tail: f64,
) -> LengthDistribution {
    let mut cumulative = Vec::with_capacity(probabilities.len());
    let mut acc = 0.0;
    for &x in &probabilities {
        acc += x;
        cumulative.push(acc);
    }
    let finite = never == 0.0;
    // E[T] = Σ_{n≥0} P(T > n); E[T²] = Σ (2n+1) P(T > n); the rest beyond
    // the table is extrapolated geometrically from its last ratio.
    let (mean, sd) = if finite {
        let mut m1: f64 = survival.iter().sum();
        let mut m2: f64 = survival
            .iter()
            .enumerate()
            .map(|(k, &s)| (2 * k + 1) as f64 * s)
            .sum();
        if let [.., a, b] = survival[..]
            && a > 0.0
            && b > 0.0
            && b < a
        {
            let r = b / a;
            let last = (survival.len() - 1) as f64;
            let g = r / (1.0 - r);
            m1 += b * g;
            m2 += b * (g * (2.0 * last + 1.0) + 2.0 * g / (1.0 - r));
        }
        (Some(m1), Some((m2 - m1 * m1).max(0.0).sqrt()))
    } else {
        (None, None)
    };
    let mode = probabilities
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .fold(None::<(usize, f64)>, |best, (i, &p)| match best {
            Some((_, bp)) if bp >= p => best,
            _ => Some((i, p)),
        })
        .map(|(i, _)| i as u32);
    let shortest = probabilities
        .iter()
        .position(|&p| p > 0.0)
        .map(|i| i as u32);
    let mut dist = LengthDistribution {
        probabilities,
        cumulative,
        survival,
        never,
        tail,
        dropped: 0.0,
        mean,
        sd,
        median: None,
        mode,
        percentiles: Percentiles {
            p25: None,
            p50: None,
            p75: None,
            p95: None,
            p99: None,
        },
        shortest,
    };
    dist.percentiles = Percentiles {
        p25: dist.percentile(0.25),
        p50: dist.percentile(0.5),
        p75: dist.percentile(0.75),
        p95: dist.percentile(0.95),
        p99: dist.percentile(0.99),
    };
    dist.median = dist.percentiles.p50;
    dist
}

/// Expected takings of each jump, and P(it is the game's last jump).
fn jump_stats(
    board: &Board,
    chain: &Chain,
    reach: &Reach,
    landings: &[f64],
) -> (Vec<JumpStats>, f64) {
    let g = no_jump_to_finish(chain, reach);
    let jumps = board
        .jumps()
        .iter()
        .map(|&jump| {
            let taken = landings.get(jump.from as usize).copied().unwrap_or(0.0);
            JumpStats {
                jump,
                kind: jump.kind(),
                expected_taken: taken,
                finish_through: taken * g.get(jump.to as usize).copied().unwrap_or(0.0),
            }
        })
        .collect();
    let no_jump = g.get(chain.start() as usize).copied().unwrap_or(0.0);
    (jumps, no_jump)
}

/// `g[s]`: P(from `s`, the token reaches N without taking a jump); g[N] = 1.
///
/// Moves without a jump only go up (s → s + r), except exceptions (lost
/// turns, bounces) near the finish: those squares are solved together by
/// Gaussian elimination, the rest by substitution downwards.
fn no_jump_to_finish(chain: &Chain, reach: &Reach) -> Vec<f64> {
    let n = chain.finish() as usize;
    let faces = chain.faces();
    let inv = 1.0 / f64::from(faces);
    let finishes = |s: usize| reach.can_finish(s as u32);
    let mut g = vec![0.0; n + 1];
    g[n] = 1.0;
    // The block: states with exceptions, and every state an exception goes
    // to (extended down until closed: regular moves only go up).
    let first = (0..n)
        .find(|&s| usize::from(chain.regular(s as u32)) < usize::from(faces))
        .unwrap_or(n);
    let lowest_target = (first..n)
        .flat_map(|s| chain.exceptions(s as u32))
        .filter(|(_, m)| m.jump.is_none())
        .map(|(_, m)| m.to as usize)
        .min()
        .unwrap_or(n);
    let b = first.min(lowest_target);
    let size = n - b;
    if size > 0 {
        // a · x = rhs over states b..n.
        let mut a = vec![vec![0.0; size]; size];
        let mut rhs = vec![0.0; size];
        for s in b..n {
            let row = s - b;
            a[row][row] += 1.0;
            if !finishes(s) {
                continue;
            }
            for r in 1..=faces {
                let m = chain.step(s as u32, r);
                if m.jump.is_some() {
                    continue;
                }
                let t = m.to as usize;
                if t == n {
                    rhs[row] += inv;
                } else if t >= b && finishes(t) {
                    a[row][t - b] -= inv;
                }
            }
        }
        let x = solve_dense(a, rhs);
        g[b..n].copy_from_slice(&x);
    }
    for s in (0..b).rev() {
        if !finishes(s) {
            continue;
        }
        let mut sum = 0.0;
        for r in 1..=faces {
            let m = chain.step(s as u32, r);
            if m.jump.is_none() {
                sum += g[m.to as usize];
            }
        }
        g[s] = sum * inv;
    }
    g
}

/// Solves `a · x = rhs` by Gaussian elimination with partial pivoting (a
/// singular system leaves its free unknowns at 0).
fn solve_dense(mut a: Vec<Vec<f64>>, mut rhs: Vec<f64>) -> Vec<f64> {
    let size = rhs.len();
    for col in 0..size {
        let pivot = (col..size)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        if a[pivot][col].abs() < 1e-300 {
            continue;
        }
        a.swap(col, pivot);
        rhs.swap(col, pivot);
        let head = a[col].clone();
        for row in col + 1..size {
            let factor = a[row][col] / head[col];
            if factor != 0.0 {
                for (cell, h) in a[row][col..].iter_mut().zip(&head[col..]) {
                    *cell -= factor * h;
                }
                rhs[row] -= factor * rhs[col];
            }
        }
    }
    let mut x = vec![0.0; size];
    for row in (0..size).rev() {
        let d = a[row][row];
        if d.abs() < 1e-300 {
            continue;
        }
        let sum: f64 = (row + 1..size).map(|c| a[row][c] * x[c]).sum();
        x[row] = (rhs[row] - sum) / d;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Overshoot;

    use crate::board::test_board as board;
    use tabletop::Stopped;

    /// Issue 15's board: a long one whose last square but one chutes back
    /// to 1, so games are long and the table runs to hundreds of thousands
    /// of rolls over a window of thousands of squares (minutes of work).
    fn endless_chute() -> Board {
        board(10_000, 0, &[(9_999, 1)])
    }

    #[test]
    fn a_withdrawn_analysis_stops_with_a_typed_error() {
        // Withdrawn at the third check: part way through the table.
        let budget = Budget::withdrawn_after(2);
        let stopped = analyze_within(
            &endless_chute(),
            &Rules::default(),
            &MarkovOptions::default(),
            &budget,
        )
        .unwrap_err();
        assert_eq!(stopped, AnalysisError::Stopped(Stopped::Cancelled));
        assert_eq!(budget.stopped(), Some(Stopped::Cancelled));
    }

    #[test]
    fn an_analysis_past_its_time_limit_says_so() {
        let (budget, _canceller) = Budget::with_limit(std::time::Duration::ZERO);
        let stopped = analyze_within(
            &endless_chute(),
            &Rules::default(),
            &MarkovOptions::default(),
            &budget,
        )
        .unwrap_err();
        assert!(
            stopped
                .to_string()
                .starts_with("stopped: the answer took longer than 0 ms"),
            "{stopped}"
        );
        // The unlimited form still answers small boards.
        let (budget, _canceller) = Budget::cancellable();
        let m = analyze_within(
            &Board::classic(),
            &Rules::default(),
            &MarkovOptions::default(),
            &budget,
        )
        .unwrap();
        assert!((m.distribution.mean.unwrap() - 39.2251).abs() < 5e-5);
    }

    #[test]
    fn classic_mean_is_the_published_39_2251() {
        let m = analyze(
            &Board::classic(),
            &Rules::default(),
            &MarkovOptions::default(),
        )
        .unwrap();
        let d = &m.distribution;
        let mean = d.mean.unwrap();
        assert!((mean - 39.2251).abs() < 5e-5, "{mean}");
        assert_eq!(d.shortest, Some(7));
        assert!(d.tail < 1e-12);
        assert_eq!(d.never, 0.0);
        let visits: f64 = m.visits.iter().sum();
        assert!((visits - mean).abs() < 1e-9, "{visits} vs {mean}");
        assert!((d.finish_probability() - 1.0).abs() < 1e-11);
    }

    #[test]
    fn a_one_step_board_is_geometric() {
        // N = 2, start on 1: only a roll of 1 finishes; the rest are lost
        // turns. T is geometric with p = 1/6: mean 6, sd √30.
        let m = analyze(
            &board(2, 1, &[]),
            &Rules::default(),
            &MarkovOptions::default(),
        )
        .unwrap();
        let d = &m.distribution;
        assert!((d.mean.unwrap() - 6.0).abs() < 1e-9);
        assert!((d.sd.unwrap() - 30f64.sqrt()).abs() < 1e-7);
        assert!((d.probabilities[1] - 1.0 / 6.0).abs() < 1e-15);
        assert!((d.probabilities[2] - 5.0 / 36.0).abs() < 1e-15);
        assert_eq!((d.mode, d.median), (Some(1), Some(4)));
        assert!((m.visits[1] - 6.0).abs() < 1e-9);
        assert!((m.landings[2] - 1.0).abs() < 1e-9);
        // Under `finish` every roll finishes at once.
        let rules = Rules::new(Overshoot::Finish, 6).unwrap();
        let d = distribution(&board(2, 1, &[]), &rules, 1e-12).unwrap();
        assert_eq!(d.probabilities.len(), 2);
        assert!((d.probabilities[1] - 1.0).abs() < 1e-15);
        assert!((d.mean.unwrap() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn unfinishable_boards_say_so_and_end() {
        let walled = board(12, 0, &[(5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]);
        let d = distribution(&walled, &Rules::default(), 1e-12).unwrap();
        assert_eq!(d.never, 1.0);
        assert_eq!(d.mean, None);
        assert_eq!(d.median, None);
        assert_eq!(d.shortest, None);
        // A trap beside a way through.
        let trap = board(
            20,
            0,
            &[(9, 8), (10, 8), (11, 8), (12, 8), (13, 8), (14, 8), (2, 16)],
        );
        let d = distribution(&trap, &Rules::default(), 1e-12).unwrap();
        assert!(d.never > 0.0 && d.never < 1.0, "{}", d.never);
        assert!((d.never + d.finish_probability() - 1.0).abs() < 1e-11);
        assert_eq!(d.mean, None);
        let odds = seat_win(&d, 2).unwrap();
        assert!((odds.nobody - d.never * d.never).abs() < 1e-15);
        assert_eq!(odds.mean_rounds, None);
    }

    #[test]
    fn chute_cycles_are_fine() {
        let b = board(30, 1, &[(3, 9), (9, 3), (5, 12), (12, 15), (29, 2)]);
        for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
            let rules = Rules::new(o, 6).unwrap();
            let m = analyze(&b, &rules, &MarkovOptions::default()).unwrap();
            let mean = m.distribution.mean.unwrap();
            let visits: f64 = m.visits.iter().sum();
            assert!((visits - mean).abs() < 1e-8, "{o}: {visits} vs {mean}");
            let through: f64 = m.jumps.iter().map(|j| j.finish_through).sum::<f64>() + m.no_jump;
            assert!((through - 1.0).abs() < 1e-9, "{o}: {through}");
        }
    }

    #[test]
    fn seats_share_the_wins() {
        let d = distribution(&Board::classic(), &Rules::default(), 1e-12).unwrap();
        let one = seat_win(&d, 1).unwrap();
        assert!((one.seat_win[0] - 1.0).abs() < 1e-11);
        assert!((one.mean_rounds.unwrap() - d.mean.unwrap()).abs() < 1e-9);
        let two = seat_win(&d, 2).unwrap();
        let total: f64 = two.seat_win.iter().sum();
        assert!((total - 1.0).abs() < 1e-11);
        assert!(two.seat_win[0] > two.seat_win[1]);
        assert!(seat_win(&d, 0).is_err() && seat_win(&d, 9).is_err());
    }

    /// The real interleaved game as one Markov chain over (every token's
    /// square, whose turn), pushed until nothing is left in play: P(seat i
    /// wins) without assuming the players independent.
    fn joint_seat_win(b: &Board, rules: &Rules, players: usize) -> (Vec<f64>, f64) {
        let n = b.finish() as usize;
        let states = (n + 1).pow(players as u32);
        let mut mass = vec![vec![0.0f64; states]; players];
        let start = (0..players).fold(0, |acc, _| acc * (n + 1) + b.start() as usize);
        mass[0][start] = 1.0;
        let mut wins = vec![0.0; players];
        let mut rolls = 0.0;
        let inv = 1.0 / f64::from(rules.faces());
        for _ in 0..20_000 {
            rolls += mass.iter().flatten().sum::<f64>();
            let mut next = vec![vec![0.0f64; states]; players];
            let mut left = 0.0;
            for (turn, layer) in mass.iter().enumerate() {
                let place = (n + 1).pow((players - 1 - turn) as u32);
                for (code, &m) in layer.iter().enumerate() {
                    if m == 0.0 {
                        continue;
                    }
                    let square = code / place % (n + 1);
                    for r in 1..=rules.faces() {
                        let to = rules.step(b, square as u32, r).to as usize;
                        if to == n {
                            wins[turn] += m * inv;
                        } else {
                            let moved = code - square * place + to * place;
                            next[(turn + 1) % players][moved] += m * inv;
                            left += m * inv;
                        }
                    }
                }
            }
            mass = next;
            if left < 1e-15 {
                break;
            }
        }
        (wins, rolls)
    }

    #[test]
    fn seat_odds_equal_the_interleaved_game() {
        let b = board(12, 0, &[(3, 8), (10, 2), (5, 1)]);
        for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
            let rules = Rules::new(o, 6).unwrap();
            let d = distribution(&b, &rules, 1e-14).unwrap();
            for players in [2, 3] {
                let odds = seat_win(&d, players).unwrap();
                let (joint, rolls) = joint_seat_win(&b, &rules, players);
                for (a, j) in odds.seat_win.iter().zip(&joint) {
                    assert!((a - j).abs() < 1e-11, "{o}, {players} players: {a} vs {j}");
                }
                let mean_rolls = odds.mean_rolls.unwrap();
                assert!(
                    (mean_rolls - rolls).abs() < 1e-9,
                    "{o}: {mean_rolls} vs {rolls}"
                );
            }
        }
    }

    #[test]
    fn bad_tails_are_refused() {
        for t in [0.0, 1.0, -1.0, f64::NAN] {
            assert!(matches!(
                distribution(&Board::classic(), &Rules::default(), t),
                Err(AnalysisError::Tail(_))
            ));
        }
        let opts = MarkovOptions {
            tail: 1e-12,
            max_rolls: 10,
        };
        assert!(matches!(
            analyze(&Board::classic(), &Rules::default(), &opts),
            Err(AnalysisError::TooLong { rolls: 10, .. })
        ));
    }
}
