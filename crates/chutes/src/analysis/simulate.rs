//! Monte Carlo: many random games on all cores, reproducible for a seed
//! whatever the number of threads.
//!
//! Terms:
//! - **chunk**: [`CHUNK`] consecutive games played with their own random
//!   stream `Rng::stream(seed, chunk number)`; chunks are independent, so
//!   the result depends on the seed only, never on the threads.
//! - **length**: rolls by all players in the game, lost turns included
//!   (with one player, that player's rolls).
//! - **round**: one roll by each player; the last round stops at the winner.
//! - **unfinished**: a game where every token reached a dead square (it can
//!   never end); counted apart, never played forever.
//! - **95% interval**: mean ± 1.96 · sd / √games.

use super::AnalysisError;
use super::chain::Chain;
use super::fast::{Batch, PairTable, Table};
use crate::board::Board;
use crate::game::MAX_PLAYERS;
use crate::rules::Rules;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use tabletop::Rng;

/// The most worker threads a simulation or search takes (0 means all cores).
pub const MAX_THREADS: usize = 256;

/// Games per chunk (each chunk has its own random stream).
pub const CHUNK: u64 = 1 << 16;

/// What to simulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Number of games.
    pub games: u64,
    /// Players per game (1 to 8).
    pub players: usize,
    /// The seed.
    pub seed: u64,
    /// Worker threads; 0 uses rayon's default (all cores).
    pub threads: usize,
}

impl Default for SimOptions {
    fn default() -> Self {
        Self {
            games: 1_000_000,
            players: 1,
            seed: 0,
            threads: 0,
        }
    }
}

/// What the games gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimResult {
    /// Games played.
    pub games: u64,
    /// Players per game.
    pub players: usize,
    /// The seed.
    pub seed: u64,
    /// `histogram[n]`: games of length n (rolls by all players).
    pub histogram: Vec<u64>,
    /// Games that can never end (every token on a dead square).
    pub unfinished: u64,
    /// `seat_wins[i]`: games won by seat i + 1.
    pub seat_wins: Vec<u64>,
    /// Total rounds over finished games.
    pub total_rounds: u64,
    /// Total rolls over finished games.
    pub total_rolls: u64,
}

impl SimResult {
    /// Games that ended.
    pub fn finished(&self) -> u64 {
        self.games - self.unfinished
    }

    /// Mean length of the finished games.
    pub fn mean(&self) -> Option<f64> {
        let n = self.finished();
        (n > 0).then(|| self.total_rolls as f64 / n as f64)
    }

    /// Sample standard deviation of the length.
    pub fn sd(&self) -> Option<f64> {
        let n = self.finished();
        if n < 2 {
            return None;
        }
        let mean = self.mean()?;
        let ss: f64 = self
            .histogram
            .iter()
            .enumerate()
            .map(|(len, &c)| c as f64 * (len as f64 - mean).powi(2))
            .sum();
        Some((ss / (n - 1) as f64).sqrt())
    }

    /// The 95% confidence interval of the mean length.
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let mean = self.mean()?;
        let half = 1.96 * self.sd()? / (self.finished() as f64).sqrt();
        Some((mean - half, mean + half))
    }

    /// Mean rounds of the finished games.
    pub fn mean_rounds(&self) -> Option<f64> {
        let n = self.finished();
        (n > 0).then(|| self.total_rounds as f64 / n as f64)
    }

    /// Share of games each seat won, with a 95% half-width.
    pub fn seat_shares(&self) -> Vec<(f64, f64)> {
        let n = self.games.max(1) as f64;
        self.seat_wins
            .iter()
            .map(|&w| {
                let p = w as f64 / n;
                (p, 1.96 * (p * (1.0 - p) / n).sqrt())
            })
            .collect()
    }

    fn empty(options: &SimOptions) -> Self {
        Self {
            games: 0,
            players: options.players,
            seed: options.seed,
            histogram: Vec::new(),
            unfinished: 0,
            seat_wins: vec![0; options.players],
            total_rounds: 0,
            total_rolls: 0,
        }
    }

    fn add(&mut self, other: &Self) {
        self.games += other.games;
        if self.histogram.len() < other.histogram.len() {
            self.histogram.resize(other.histogram.len(), 0);
        }
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        self.unfinished += other.unfinished;
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        self.total_rounds += other.total_rounds;
        self.total_rolls += other.total_rolls;
    }

    fn record(&mut self, length: u32) {
        let i = length as usize;
        if i >= self.histogram.len() {
            self.histogram.resize(i + 1, 0);
        }
        self.histogram[i] += 1;
        self.total_rolls += u64::from(length);
    }
}

/// Plays `options.games` random games on `board` under `rules`, calling
/// `progress(games just done)` after each chunk.
///
/// # Errors
/// [`AnalysisError::Players`] unless 1 to 8 players;
/// [`AnalysisError::Threads`] when the thread pool cannot be built or
/// more than [`MAX_THREADS`] threads are asked for.
pub fn simulate(
    board: &Board,
    rules: &Rules,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimResult, AnalysisError> {
    simulate_until(board, rules, options, progress, &AtomicBool::new(false))
}

/// [`simulate`], until `stop` is raised (Ctrl-C): the chunks of games not
/// yet started are then skipped, and the result is of the games played
/// (`games` says how many).
///
/// # Errors
/// As [`simulate`].
pub fn simulate_until(
    board: &Board,
    rules: &Rules,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<SimResult, AnalysisError> {
    if !(1..=MAX_PLAYERS).contains(&options.players) {
        return Err(AnalysisError::Players(options.players));
    }
    let chain = Chain::new(board, rules);
    let reach = chain.reach();
    let table = Table::new(&chain, &reach);
    let pairs = if options.players == 1 {
        PairTable::new(&table)
    } else {
        None
    };
    let chunks = options.games.div_ceil(CHUNK);
    let run = || {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let mut out = SimResult::empty(options);
                let games = CHUNK.min(options.games - c * CHUNK);
                let mut rng = Rng::stream(options.seed, c);
                match &pairs {
                    Some(p) => solo_pairs(p, games, &mut rng, &mut out),
                    None => several(&table, options.players, games, &mut rng, &mut out),
                }
                progress(games);
                Some(out)
            })
            // After a stop no chunk starts: a huge count is not walked.
            .while_some()
            // Summed as they come (sums do not depend on the order), so
            // memory stays the same however many games are asked for.
            .reduce(
                || SimResult::empty(options),
                |mut total, part| {
                    total.add(&part);
                    total
                },
            )
    };
    in_pool(options.threads, run)
}

/// Runs `f` on a pool of `threads` threads (rayon's own pool when 0).
pub(crate) fn in_pool<T: Send>(
    threads: usize,
    f: impl FnOnce() -> T + Send,
) -> Result<T, AnalysisError> {
    if threads == 0 {
        return Ok(f());
    }
    if threads > MAX_THREADS {
        return Err(AnalysisError::Threads(format!(
            "{threads} threads asked for; at most {MAX_THREADS}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| AnalysisError::Threads(e.to_string()))?;
    Ok(pool.install(f))
}

/// Games played side by side by [`solo_pairs`], to overlap their lookups.
const LANES: usize = 4;

/// One player, two rolls per lookup, [`LANES`] games side by side: a lane
/// starts the next game as soon as its game ends; when every game has been
/// started, the lanes still playing finish in lane order.
fn solo_pairs(table: &PairTable, games: u64, rng: &mut Rng, out: &mut SimResult) {
    let mut dice = Batch::new(table.base as u64);
    let end = table.end;
    let next = &table.next[..];
    let lanes = LANES.min(games as usize);
    let mut pos = [table.start_index; LANES];
    let mut rolls = [0u32; LANES];
    let mut won = 0u64;
    let mut end_game = |position: u32, length: u32, out: &mut SimResult| {
        if position == end {
            out.record(length);
            won += 1;
        } else {
            out.unfinished += 1;
        }
    };
    let mut done: [bool; LANES] = std::array::from_fn(|lane| lane >= lanes);
    if lanes == LANES {
        let mut to_start = games - LANES as u64;
        'all: loop {
            dice.ensure(LANES, rng);
            for lane in 0..LANES {
                let e = next
                    .get(pos[lane] as usize + dice.take())
                    .copied()
                    .unwrap_or(end * 2);
                pos[lane] = e >> 1;
                rolls[lane] += 2 - (e & 1);
                if pos[lane] >= end {
                    end_game(pos[lane], rolls[lane], out);
                    pos[lane] = table.start_index;
                    rolls[lane] = 0;
                    if to_start == 0 {
                        done[lane] = true;
                        break 'all;
                    }
                    to_start -= 1;
                }
            }
        }
    }
    for lane in 0..LANES {
        if done[lane] {
            continue;
        }
        loop {
            let e = next
                .get(pos[lane] as usize + dice.digit(rng))
                .copied()
                .unwrap_or(end * 2);
            pos[lane] = e >> 1;
            rolls[lane] += 2 - (e & 1);
            if pos[lane] >= end {
                end_game(pos[lane], rolls[lane], out);
                break;
            }
        }
    }
    out.games += games;
    out.seat_wins[0] += won;
    out.total_rounds = out.total_rolls;
}

/// Any number of players, one roll per lookup, in seat order.
fn several(table: &Table, players: usize, games: u64, rng: &mut Rng, out: &mut SimResult) {
    let mut dice = Batch::new(table.faces as u64);
    let finish = table.finish;
    let dead = table.dead();
    let mut pos = [0u32; MAX_PLAYERS];
    for _ in 0..games {
        pos[..players].fill(table.start);
        let mut dead_count = pos[..players].iter().filter(|&&p| p == dead).count();
        let mut rounds = 0u32;
        let mut winner = None;
        'game: while dead_count < players {
            rounds += 1;
            for (seat, p) in pos[..players].iter_mut().enumerate() {
                if *p == dead {
                    // A token that can never finish still rolls (its turn
                    // passes), but nothing can change.
                    let _ = dice.digit(rng);
                    continue;
                }
                *p = table.step(*p, dice.digit(rng));
                if *p == finish {
                    winner = Some(seat);
                    break 'game;
                }
                if *p == dead {
                    dead_count += 1;
                }
            }
        }
        out.games += 1;
        match winner {
            Some(seat) => {
                let length = (rounds - 1) * players as u32 + seat as u32 + 1;
                out.record(length);
                out.seat_wins[seat] += 1;
                out.total_rounds += u64::from(rounds);
            }
            None => out.unfinished += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{exact, markov};

    fn quiet(_: u64) {}

    #[test]
    fn classic_mean_falls_in_its_interval_and_threads_do_not_matter() {
        let b = Board::classic();
        let rules = Rules::default();
        let mut options = SimOptions {
            games: 300_000,
            players: 1,
            seed: 2024,
            threads: 1,
        };
        let one = simulate(&b, &rules, &options, &quiet).unwrap();
        options.threads = 2;
        let two = simulate(&b, &rules, &options, &quiet).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.games, 300_000);
        assert_eq!(one.histogram.iter().sum::<u64>(), 300_000);
        assert_eq!(one.histogram.iter().position(|&c| c > 0), Some(7));
        let exact = exact::moments(&b, &rules).unwrap().mean_f64();
        let (lo, hi) = one.ci95().unwrap();
        assert!(lo < exact && exact < hi, "{exact} not in [{lo}, {hi}]");
        options.seed = 2025;
        assert_ne!(simulate(&b, &rules, &options, &quiet).unwrap(), one);
    }

    #[test]
    fn seats_and_rounds_match_the_markov_odds() {
        let b = Board::classic();
        let rules = Rules::default();
        let options = SimOptions {
            games: 200_000,
            players: 3,
            seed: 5,
            threads: 0,
        };
        let sim = simulate(&b, &rules, &options, &quiet).unwrap();
        let d = markov::distribution(&b, &rules, 1e-12).unwrap();
        let odds = markov::seat_win(&d, 3).unwrap();
        for ((p, half), exact) in sim.seat_shares().iter().zip(&odds.seat_win) {
            assert!((p - exact).abs() < 1.3 * half, "{p} ± {half} vs {exact}");
        }
        let (lo, hi) = sim.ci95().unwrap();
        let rolls = odds.mean_rolls.unwrap();
        assert!(lo < rolls && rolls < hi, "{rolls} not in [{lo}, {hi}]");
        let rounds = sim.mean_rounds().unwrap();
        assert!((rounds - odds.mean_rounds.unwrap()).abs() < 0.2, "{rounds}");
    }

    #[test]
    fn unfinishable_games_end_at_once() {
        let jumps = [(9, 8), (10, 8), (11, 8), (12, 8), (13, 8), (14, 8), (2, 16)];
        let b = Board::from_jumps(20, 0, &jumps).unwrap();
        let rules = Rules::default();
        for players in [1, 2] {
            let options = SimOptions {
                games: 100_000,
                players,
                seed: 1,
                threads: 0,
            };
            let sim = simulate(&b, &rules, &options, &quiet).unwrap();
            let never = markov::distribution(&b, &rules, 1e-12).unwrap().never;
            let share = sim.unfinished as f64 / sim.games as f64;
            let expected = never.powi(players as i32);
            let half = 4.0 * (expected * (1.0 - expected) / sim.games as f64).sqrt();
            assert!((share - expected).abs() < half, "{share} vs {expected}");
        }
    }

    #[test]
    fn players_are_checked() {
        let options = SimOptions {
            players: 9,
            ..SimOptions::default()
        };
        assert!(simulate(&Board::classic(), &Rules::default(), &options, &quiet).is_err());
    }

    #[test]
    fn absurd_thread_counts_are_refused_not_spawned() {
        let options = SimOptions {
            games: 10,
            threads: 100_000,
            ..SimOptions::default()
        };
        let err = simulate(&Board::classic(), &Rules::default(), &options, &quiet).unwrap_err();
        assert!(err.to_string().contains("at most 256"), "{err}");
        let options = SimOptions {
            threads: MAX_THREADS,
            ..options
        };
        assert!(simulate(&Board::classic(), &Rules::default(), &options, &quiet).is_ok());
    }
}
