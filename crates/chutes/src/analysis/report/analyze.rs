//! The analysis report: one player's exact game-length distribution (mean,
//! sd, median, mode, percentiles, P(length ≤ n)), optionally the mean and
//! variance as exact fractions, each seat's chance to win, and where tokens
//! land and jump.
//!
//! Terms:
//! - **length**: rolls one player makes until reaching N, lost turns
//!   included.
//! - **never**: P(the game never ends), positive when a **dead square** (one
//!   the finish cannot be reached from) can be reached.
//! - **seats**: with several players, each seat's chance to win
//!   ([`SeatChances`]).

use super::{BoardFacts, Fraction, jump_text};
use crate::analysis::markov::{self, MarkovOptions, Percentiles};
use crate::analysis::{AnalysisError, JumpStats, exact};
use crate::board::Board;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;
use tabletop::{Budget, plural};

/// Boards up to this many squares get the landings table in words.
const MAX_SQUARE_TABLE: u32 = 400;

/// What to analyse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalysisOptions {
    /// Players (1 to 8) for the seats' chances.
    pub players: usize,
    /// Also give the mean and variance as exact fractions.
    pub exact: bool,
    /// Where to stop the distribution: tabulate until less than this
    /// probability is still in play.
    pub markov: MarkovOptions,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        Self {
            players: 1,
            exact: false,
            markov: MarkovOptions::default(),
        }
    }
}

/// The exact mean and variance of one player's game length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactMoments {
    /// E\[length\].
    pub mean: Fraction,
    /// Var\[length\].
    pub variance: Fraction,
    /// The square root of the exact variance, to the nearest `f64`.
    pub sd: f64,
}

/// Each seat's chance to win a game of `players` (seat 1 rolls first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatChances {
    /// Players in the game.
    pub players: usize,
    /// `seat_win[i]`: P(seat i + 1 wins).
    pub seat_win: Vec<f64>,
    /// P(nobody ever wins: every token ends on a dead square).
    pub nobody_wins: f64,
    /// Expected rounds until someone wins (`null` when some games never
    /// end).
    pub mean_rounds: Option<f64>,
    /// Expected rolls by all players together (`null` when some games never
    /// end).
    pub mean_rolls_all_players: Option<f64>,
}

/// The exact figures of a board for one player, and the seats' chances.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisReport {
    /// The board.
    pub board: BoardFacts,
    /// The rules.
    pub rules: Rules,
    /// Mean length in rolls (`null` when some games never end).
    pub mean: Option<f64>,
    /// Standard deviation of the length (`null` when some games never end).
    pub sd: Option<f64>,
    /// The median length.
    pub median: Option<u32>,
    /// The most likely length (`null` when no game ends).
    pub mode: Option<u32>,
    /// The shortest possible game (`null` when the finish cannot be
    /// reached).
    pub shortest: Option<u32>,
    /// Percentiles 25, 50, 75, 95 and 99 of the length.
    pub percentiles: Percentiles,
    /// P(the game never ends).
    pub never: f64,
    /// Probability still in play after the last roll tabulated.
    pub tail: f64,
    /// `probabilities[n]`: P(length = n), n from 0 to the last roll
    /// tabulated.
    pub probabilities: Vec<f64>,
    /// `cumulative[n]`: P(length ≤ n).
    pub cumulative: Vec<f64>,
    /// The exact mean and variance, when asked for and computable.
    pub exact: Option<ExactMoments>,
    /// Why the exact figures asked for could not be computed.
    pub exact_error: Option<String>,
    /// Each seat's chance to win.
    pub seats: SeatChances,
    /// `visits[s]`: expected rolls one player makes from square `s`.
    pub visits: Vec<f64>,
    /// `landings[s]`: expected rolls whose count reaches square `s`, before
    /// any jump.
    pub landings: Vec<f64>,
    /// Each chute and ladder: expected times taken, and P(it is the game's
    /// last jump).
    pub jumps: Vec<JumpStats>,
    /// P(a game takes no chute or ladder at all).
    pub no_jump: f64,
    /// Squares a game can reach but never finish from (ascending).
    pub dead_squares: Vec<u32>,
}

impl AnalysisReport {
    /// Analyses `board` under `rules`.
    ///
    /// # Errors
    /// A bad tail or number of players, or a board whose games are too long
    /// to tabulate within `options.markov.max_rolls` (see
    /// [`AnalysisError`]). Exact figures that cannot be computed are not an
    /// error: `exact_error` says why.
    pub fn new(
        board: &Board,
        rules: &Rules,
        options: &AnalysisOptions,
    ) -> Result<Self, AnalysisError> {
        Self::within(board, rules, options, &Budget::unlimited())
    }

    /// [`AnalysisReport::new`] within `budget`.
    ///
    /// # Errors
    /// As [`AnalysisReport::new`], and [`AnalysisError::Stopped`] when the
    /// budget runs out or the question is withdrawn first (also while the
    /// exact figures are worked out).
    pub fn within(
        board: &Board,
        rules: &Rules,
        options: &AnalysisOptions,
        budget: &Budget,
    ) -> Result<Self, AnalysisError> {
        let m = markov::analyze_within(board, rules, &options.markov, budget)?;
        let odds = markov::seat_win(&m.distribution, options.players)?;
        let (exact, exact_error) = if options.exact {
            match exact::moments_within(board, rules, budget) {
                Ok(e) => (
                    Some(ExactMoments {
                        mean: Fraction::from(&e.mean),
                        variance: Fraction::from(&e.variance),
                        sd: e.sd_f64(),
                    }),
                    None,
                ),
                Err(AnalysisError::Stopped(stopped)) => return Err(stopped.into()),
                Err(e) => (None, Some(e.to_string())),
            }
        } else {
            (None, None)
        };
        let d = m.distribution;
        Ok(Self {
            board: BoardFacts::of(board),
            rules: *rules,
            mean: d.mean,
            sd: d.sd,
            median: d.median,
            mode: d.mode,
            shortest: d.shortest,
            percentiles: d.percentiles,
            never: d.never,
            tail: d.tail,
            probabilities: d.probabilities,
            cumulative: d.cumulative,
            exact,
            exact_error,
            seats: SeatChances {
                players: odds.players,
                seat_win: odds.seat_win,
                nobody_wins: odds.nobody,
                mean_rounds: odds.mean_rounds,
                mean_rolls_all_players: odds.mean_rolls,
            },
            visits: m.visits,
            landings: m.landings,
            jumps: m.jumps,
            no_jump: m.no_jump,
            dead_squares: m.dead,
        })
    }

    /// P(length ≤ n) (the last tabulated value beyond the table).
    pub fn cdf(&self, n: u32) -> f64 {
        match self.cumulative.get(n as usize) {
            Some(&c) => c,
            None => self.cumulative.last().copied().unwrap_or(0.0),
        }
    }

    /// P(the game ends) within the table.
    pub fn finish_probability(&self) -> f64 {
        self.cumulative.last().copied().unwrap_or(0.0)
    }
}

/// Roll counts worth a line in the P(length ≤ n) table: the shortest, then
/// round numbers (a step of 1, 2 or 5 × 10^k, at most 20 lines) up to the
/// 99th percentile.
fn cdf_marks(shortest: u32, p99: u32) -> Vec<u32> {
    let mut marks = vec![shortest];
    let span = p99.saturating_sub(shortest).max(1);
    let mut step = 1u32;
    'find: for power in [1u32, 10, 100, 1_000, 10_000, 100_000, 1_000_000] {
        for m in [1u32, 2, 5] {
            step = power * m;
            if span / step <= 20 {
                break 'find;
            }
        }
    }
    let mut n = (shortest / step + 1) * step;
    while n < p99 {
        marks.push(n);
        n += step;
    }
    if p99 > shortest {
        marks.push(p99);
    }
    marks
}

impl fmt::Display for AnalysisReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Game length on {}, rolls by one player (lost turns count):",
            self.board.line(&self.rules)
        )?;
        if self.never > 0.0 {
            let dead = &self.dead_squares;
            let shown: Vec<String> = dead.iter().take(10).map(u32::to_string).collect();
            writeln!(
                f,
                "  Not every game ends: P(the game never ends) = {:.6}. From {} {}{} the finish cannot be reached.",
                self.never,
                plural(dead.len() as u64, "square", "squares"),
                shown.join(", "),
                if dead.len() > 10 { ", …" } else { "" }
            )?;
            if self.never >= 1.0 {
                return writeln!(f, "  No game ever ends.");
            }
        }
        let opt = |x: Option<u32>| x.map_or_else(|| "never".to_string(), |v| v.to_string());
        match (self.mean, self.sd) {
            (Some(mean), Some(sd)) => writeln!(f, "  mean {mean:.4}   sd {sd:.4}")?,
            _ => writeln!(f, "  mean: infinite (some games never end)")?,
        }
        writeln!(
            f,
            "  median {}   mode {}   shortest {}",
            opt(self.median),
            opt(self.mode),
            opt(self.shortest)
        )?;
        let p = &self.percentiles;
        writeln!(
            f,
            "  percentiles: 25% {}   75% {}   95% {}   99% {}",
            opt(p.p25),
            opt(p.p75),
            opt(p.p95),
            opt(p.p99)
        )?;
        if let Some(e) = &self.exact {
            writeln!(f, "  exact mean {} = {:.12}", e.mean.fraction, e.mean.float)?;
            writeln!(
                f,
                "  exact variance {} (sd {:.12})",
                e.variance.fraction, e.sd
            )?;
        }
        if let Some(e) = &self.exact_error {
            writeln!(f, "  exact mean: {e}")?;
        }
        writeln!(f, "\n  P(game ≤ n rolls):")?;
        let marks = cdf_marks(
            self.shortest.unwrap_or(1),
            self.percentiles.p99.unwrap_or(100),
        );
        for n in marks {
            writeln!(f, "    n = {n:>6}   {:.10}", self.cdf(n))?;
        }
        let seats = &self.seats;
        if seats.players > 1 {
            writeln!(f, "\n  {} players (seat 1 rolls first):", seats.players)?;
            for (i, w) in seats.seat_win.iter().enumerate() {
                writeln!(f, "    seat {}: wins with probability {w:.10}", i + 1)?;
            }
            if seats.nobody_wins > 0.0 {
                writeln!(f, "    nobody ever wins: {:.10}", seats.nobody_wins)?;
            }
            if let (Some(r), Some(t)) = (seats.mean_rounds, seats.mean_rolls_all_players) {
                writeln!(
                    f,
                    "    expected rounds {r:.4}; expected rolls by all players {t:.4}"
                )?;
            }
        }
        writeln!(
            f,
            "\n  Jumps (expected times one player takes each; P(it is the game's last jump)):"
        )?;
        for j in &self.jumps {
            writeln!(
                f,
                "    {:<16} {:>10.6}   {:>10.6}",
                jump_text(&j.jump),
                j.expected_taken,
                j.finish_through
            )?;
        }
        writeln!(
            f,
            "    {:<16} {:>10}   {:>10.6}",
            "(no jump at all)", "", self.no_jump
        )?;
        let mut busiest: Vec<(usize, f64)> = self.visits.iter().copied().enumerate().collect();
        busiest.sort_by(|a, b| b.1.total_cmp(&a.1));
        let top: Vec<String> = busiest
            .iter()
            .take(8)
            .map(|(s, v)| format!("{s} ({v:.3})"))
            .collect();
        writeln!(
            f,
            "\n  Squares rolled from most often (expected rolls made there): {}",
            top.join(", ")
        )?;
        if self.board.size <= MAX_SQUARE_TABLE && self.landings.len() > 1 {
            writeln!(
                f,
                "\n  Expected landings per square (rolls whose count reaches it, before any jump):"
            )?;
            for (i, values) in self.landings[1..].chunks(10).enumerate() {
                let cells: Vec<String> = values.iter().map(|v| format!("{v:>6.3}")).collect();
                writeln!(
                    f,
                    "    {:>5}-{:<5} {}",
                    i * 10 + 1,
                    i * 10 + values.len(),
                    cells.join(" ")
                )?;
            }
        }
        writeln!(
            f,
            "  (--json has every square's expected visits and landings.)"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_board_in_json_and_words() {
        let options = AnalysisOptions {
            players: 2,
            exact: true,
            ..AnalysisOptions::default()
        };
        let r = AnalysisReport::new(&Board::classic(), &Rules::default(), &options).unwrap();
        let json = serde_json::to_value(&r).unwrap();
        let mean = json["mean"].as_f64().unwrap();
        assert!((mean - 39.2251).abs() < 5e-5, "{mean}");
        let exact = &json["exact"]["mean"];
        assert!(exact["fraction"].as_str().unwrap().contains('/'));
        assert!((exact["float"].as_f64().unwrap() - mean).abs() < 1e-9);
        assert_eq!(json["seats"]["seat_win"].as_array().unwrap().len(), 2);
        assert_eq!(json["seats"]["nobody_wins"], 0.0);
        assert_eq!(json["exact_error"], serde_json::Value::Null);
        let text = r.to_string();
        assert!(text.contains("mean 39.2251"), "{text}");
        assert!(text.contains("seat 2: wins with probability"), "{text}");
        assert!(text.contains("exact mean 2258375825"), "{text}");
    }

    #[test]
    fn cdf_marks_are_round_numbers_up_to_the_99th_percentile() {
        assert_eq!(cdf_marks(7, 30)[..3], [7, 8, 10]);
        assert_eq!(*cdf_marks(7, 30).last().unwrap(), 30);
        assert_eq!(cdf_marks(5, 5), vec![5]);
    }
}
