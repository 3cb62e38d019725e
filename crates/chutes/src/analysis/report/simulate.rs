//! The Monte Carlo report: many random games, their mean length with a 95%
//! interval, each seat's share of wins, a histogram, and the exact figures
//! beside them to check against.
//!
//! Terms:
//! - **sample**: the games played, from one seed; the same seed gives the
//!   same sample whatever the number of threads.
//! - **exact beside** ([`SimulationExact`]): the Markov chain's figures for
//!   the same board, rules and players (left out for boards whose games run
//!   past 100,000 rolls).
//! - **unfinished**: a game that can never end (every token on a dead
//!   square), left out of the mean.

use super::{BoardFacts, inside, int_text, percent};
use crate::analysis::AnalysisError;
use crate::analysis::markov::{self, MarkovOptions};
use crate::analysis::simulate::{self, SimOptions};
use crate::board::Board;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tabletop::plural;

/// The longest games the exact figures beside a sample are tabulated to.
const EXACT_MAX_ROLLS: u32 = 100_000;

/// The exact figures set beside a sample.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SimulationExact {
    /// The exact mean length (rolls by all players); `null` with
    /// `mean_error` when infinite or not computed.
    pub mean: Option<f64>,
    /// Why there is no exact mean.
    pub mean_error: Option<String>,
    /// With games that never end (one player): the exact mean of the games
    /// that do.
    pub mean_of_finished: Option<f64>,
    /// The exact expected rounds.
    pub mean_rounds: Option<f64>,
    /// Each seat's exact chance to win.
    pub seat_win: Option<Vec<f64>>,
}

impl SimulationExact {
    /// The exact figures for `players` on `board` under `rules` (bounded:
    /// a board whose games run past 100,000 rolls goes without them).
    pub fn new(board: &Board, rules: &Rules, players: usize) -> Self {
        let options = MarkovOptions {
            tail: markov::DEFAULT_TAIL,
            max_rolls: EXACT_MAX_ROLLS,
        };
        let dist = match markov::analyze(board, rules, &options) {
            Ok(m) => m.distribution,
            Err(e) => {
                return Self {
                    mean_error: Some(format!("not computed ({e})")),
                    ..Self::default()
                };
            }
        };
        let mean_of_finished = (dist.never > 0.0 && players == 1)
            .then(|| {
                let ended: f64 = dist.probabilities.iter().sum();
                let sum: f64 = dist
                    .probabilities
                    .iter()
                    .enumerate()
                    .map(|(n, p)| n as f64 * p)
                    .sum();
                (ended > 0.0).then(|| sum / ended)
            })
            .flatten();
        let odds = markov::seat_win(&dist, players);
        let mean = odds.as_ref().ok().and_then(|o| o.mean_rolls);
        let mean_error = match (&odds, mean) {
            (_, Some(_)) => None,
            (Err(e), None) => Some(format!("not computed ({e})")),
            (Ok(_), None) => Some("infinite: some games never end".to_string()),
        };
        Self {
            mean,
            mean_error,
            mean_of_finished,
            mean_rounds: odds.as_ref().ok().and_then(|o| o.mean_rounds),
            seat_win: odds.ok().map(|o| o.seat_win),
        }
    }
}

/// One seat's share of the games won.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SeatShare {
    /// Games won by the seat / games played.
    pub share: f64,
    /// Half the width of its 95% interval.
    pub margin95: f64,
}

/// What many random games gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulationReport {
    /// The board.
    pub board: BoardFacts,
    /// The rules.
    pub rules: Rules,
    /// Players per game.
    pub players: usize,
    /// The seed: the same seed gives the same sample whatever the threads.
    pub seed: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Games played.
    pub games: u64,
    /// Whether the run was stopped (Ctrl-C) before the games asked for:
    /// the figures are then of the `games` played.
    pub stopped: bool,
    /// Games that can never end (left out of the mean).
    pub unfinished: u64,
    /// Mean length of the games that ended, in rolls by all players.
    pub mean: Option<f64>,
    /// Standard deviation of the length.
    pub sd: Option<f64>,
    /// The 95% confidence interval of the mean, `[low, high]`.
    pub ci95: Option<[f64; 2]>,
    /// Mean rounds of the games that ended.
    pub mean_rounds: Option<f64>,
    /// `seat_wins[i]`: games won by seat i + 1.
    pub seat_wins: Vec<u64>,
    /// Each seat's share of the games, with its margin.
    pub seat_shares: Vec<SeatShare>,
    /// `histogram[n]`: games of length n (rolls by all players).
    pub histogram: Vec<u64>,
    /// The exact figures beside the sample.
    pub exact: SimulationExact,
    /// Seconds the games took.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

impl SimulationReport {
    /// Plays `options.games` random games, calling `progress(games just
    /// done)` as they finish, and sets `exact` (from
    /// [`SimulationExact::new`]) beside them.
    ///
    /// # Errors
    /// See [`simulate::simulate`]; also [`AnalysisError::NoGames`] for no
    /// games at all.
    pub fn run(
        board: &Board,
        rules: &Rules,
        options: &SimOptions,
        exact: SimulationExact,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Self, AnalysisError> {
        Self::run_until(
            board,
            rules,
            options,
            exact,
            progress,
            &AtomicBool::new(false),
        )
    }

    /// [`Self::run`], until `stop` is raised (Ctrl-C): the report is then
    /// of the games played, and says it was `stopped`.
    ///
    /// # Errors
    /// As [`Self::run`].
    pub fn run_until(
        board: &Board,
        rules: &Rules,
        options: &SimOptions,
        exact: SimulationExact,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, AnalysisError> {
        if options.games == 0 {
            return Err(AnalysisError::NoGames);
        }
        let started = Instant::now();
        let r = simulate::simulate_until(board, rules, options, progress, stop)?;
        let seconds = started.elapsed().as_secs_f64();
        Ok(Self {
            board: BoardFacts::of(board),
            rules: *rules,
            players: r.players,
            seed: r.seed,
            threads: if options.threads == 0 {
                rayon::current_num_threads()
            } else {
                options.threads
            },
            games: r.games,
            stopped: r.games < options.games,
            unfinished: r.unfinished,
            mean: r.mean(),
            sd: r.sd(),
            ci95: r.ci95().map(|(lo, hi)| [lo, hi]),
            mean_rounds: r.mean_rounds(),
            seat_shares: r
                .seat_shares()
                .into_iter()
                .map(|(share, margin95)| SeatShare { share, margin95 })
                .collect(),
            seat_wins: r.seat_wins,
            histogram: r.histogram,
            exact,
            seconds,
            games_per_second: r.games as f64 / seconds.max(1e-9),
        })
    }

    /// Games that ended.
    pub fn finished(&self) -> u64 {
        self.games - self.unfinished
    }
}

impl fmt::Display for SimulationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stopped {
            writeln!(
                f,
                "Stopped (Ctrl-C): the figures below are of the games played."
            )?;
        }
        writeln!(
            f,
            "Monte Carlo on {}: {} {}, {} {}, seed {}, {} {}.",
            self.board.line(&self.rules),
            int_text(self.games),
            plural(self.games, "game", "games"),
            self.players,
            plural(self.players as u64, "player", "players"),
            self.seed,
            self.threads,
            plural(self.threads as u64, "thread", "threads"),
        )?;
        let what = if self.players == 1 {
            "rolls"
        } else {
            "rolls by all players"
        };
        let exact = &self.exact;
        match (self.mean, self.ci95) {
            (Some(mean), Some([lo, hi])) => {
                writeln!(
                    f,
                    "  mean {mean:.4} {what}, 95% interval [{lo:.4}, {hi:.4}]"
                )?;
                match exact.mean {
                    Some(e) => writeln!(
                        f,
                        "  exact mean {e:.4} ({} the interval)",
                        inside(e, (lo, hi))
                    )?,
                    None => {
                        writeln!(
                            f,
                            "  exact mean: {}",
                            exact.mean_error.as_deref().unwrap_or("not computed")
                        )?;
                        if let Some(e) = exact.mean_of_finished {
                            writeln!(
                                f,
                                "  exact mean of the games that end {e:.4} ({} the interval)",
                                inside(e, (lo, hi))
                            )?;
                        }
                    }
                }
                if let Some(sd) = self.sd {
                    writeln!(f, "  sd {sd:.4}")?;
                }
            }
            (Some(mean), None) => writeln!(f, "  mean {mean:.4} {what}")?,
            _ => writeln!(f, "  no game ended")?,
        }
        if self.unfinished > 0 {
            writeln!(
                f,
                "  {} {} never end (every token on a dead square): left out of the mean",
                int_text(self.unfinished),
                plural(self.unfinished, "game can", "games can")
            )?;
        }
        if self.players > 1 {
            for (i, s) in self.seat_shares.iter().enumerate() {
                let beside = exact
                    .seat_win
                    .as_ref()
                    .and_then(|e| e.get(i))
                    .map(|e| format!("   exact {e:.4}"))
                    .unwrap_or_default();
                writeln!(
                    f,
                    "  seat {} wins {:.4} ± {:.4}{beside}",
                    i + 1,
                    s.share,
                    s.margin95
                )?;
            }
            if let Some(rounds) = self.mean_rounds {
                let beside = exact
                    .mean_rounds
                    .map(|e| format!("   exact {e:.4}"))
                    .unwrap_or_default();
                writeln!(f, "  mean rounds {rounds:.4}{beside}")?;
            }
        }
        writeln!(
            f,
            "  {} games/s ({:.3} s)",
            int_text(self.games_per_second as u64),
            self.seconds
        )?;
        if self.finished() == 0 {
            // "no game ended" was said above: no empty histogram.
            return Ok(());
        }
        writeln!(f, "\n  Histogram of game length ({what}):")?;
        for line in histogram_lines(&self.histogram, self.finished()) {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

/// The histogram in at most ~30 bins of equal width, with bars.
fn histogram_lines(hist: &[u64], total: u64) -> Vec<String> {
    let Some(first) = hist.iter().position(|&c| c > 0) else {
        return Vec::new();
    };
    let last = hist.iter().rposition(|&c| c > 0).unwrap_or(first);
    let span = last - first + 1;
    let width = span.div_ceil(30).max(1);
    let bins: Vec<(usize, u64)> = (first..=last)
        .step_by(width)
        .map(|lo| (lo, hist[lo..(lo + width).min(last + 1)].iter().sum()))
        .collect();
    let most = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1);
    bins.iter()
        .map(|&(lo, count)| {
            let label = if width == 1 {
                format!("{lo}")
            } else {
                format!("{lo}-{}", (lo + width - 1).min(last))
            };
            let bar = "#".repeat(((count as f64 / most as f64) * 50.0).round() as usize);
            format!(
                "{label:>11} {:>8}  {bar}",
                percent(count as f64 / total.max(1) as f64)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raised after the first chunk of games (one thread plays them in
    /// order), the stop leaves a report of exactly those games, which says
    /// it was stopped.
    #[test]
    fn a_stopped_run_reports_the_games_it_played() {
        let board = Board::classic();
        let rules = Rules::default();
        let options = SimOptions {
            games: 3 * simulate::CHUNK,
            players: 1,
            seed: 5,
            threads: 1,
        };
        let stop = AtomicBool::new(false);
        let raise = |_| stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let exact = SimulationExact::new(&board, &rules, 1);
        let r = SimulationReport::run_until(&board, &rules, &options, exact, &raise, &stop)
            .expect("a report");
        assert_eq!(r.games, simulate::CHUNK);
        assert!(r.stopped);
        assert_eq!(r.histogram.iter().sum::<u64>(), simulate::CHUNK);
        let text = r.to_string();
        assert!(text.starts_with("Stopped (Ctrl-C)"), "{text}");
        let exact = SimulationExact::new(&board, &rules, 1);
        let whole = SimulationReport::run(&board, &rules, &options, exact, &|_| {}).unwrap();
        assert!(!whole.stopped);
        assert_eq!(whole.games, 3 * simulate::CHUNK);
    }

    #[test]
    fn a_sample_sits_beside_the_exact_mean() {
        let board = Board::classic();
        let rules = Rules::default();
        let options = SimOptions {
            games: 20_000,
            players: 2,
            seed: 5,
            threads: 1,
        };
        let exact = SimulationExact::new(&board, &rules, 2);
        assert!(exact.mean.is_some() && exact.mean_error.is_none());
        let r = SimulationReport::run(&board, &rules, &options, exact, &|_| {}).unwrap();
        assert_eq!(r.seat_wins.iter().sum::<u64>(), 20_000);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["exact"]["seat_win"].as_array().unwrap().len(), 2);
        assert_eq!(json["ci95"].as_array().unwrap().len(), 2);
        let text = r.to_string();
        assert!(
            text.contains("20,000 games, 2 players, seed 5, 1 thread."),
            "{text}"
        );
        assert!(text.contains("seat 2 wins"), "{text}");
        assert!(text.contains("Histogram"), "{text}");
    }

    #[test]
    fn no_games_is_refused() {
        let board = Board::classic();
        let rules = Rules::default();
        let options = SimOptions {
            games: 0,
            ..SimOptions::default()
        };
        let exact = SimulationExact::default();
        let refused = SimulationReport::run(&board, &rules, &options, exact, &|_| {});
        assert_eq!(refused, Err(AnalysisError::NoGames));
    }
}
