//! Is a grid fair to every seat? Bot games on the grid, each seat's win
//! rate with its 95% interval, and the cells and cards that decide games.
//!
//! Terms:
//! - **spread**: the largest seat's win rate less the smallest.
//! - **verdict** ([`Verdict`]), read from the 95% intervals of the two
//!   extreme seats (Agresti–Coull: two wins and two losses added, so a
//!   seat that won every game still has one): **unbalanced** when even the
//!   least spread they allow
//!   (the spread less both half-widths) is more than the margin asked;
//!   **balanced** when even the largest (the spread plus both half-widths)
//!   is within it; otherwise **not enough games to tell**, with about how
//!   many more games would shrink the intervals enough (their width falls
//!   as one over the square root of the games).
//! - **feature**: something on the grid that happens to a player — a card
//!   fired on a cell, a ladder climbed, a snake slid down.
//! - **lift** of a feature: the win rate of players it happened to in a game
//!   less the win rate of players it did not; the features with the largest
//!   lifts (either way) **decide** games.

use crate::game::{Event, Game, SEATS, Seat};
use crate::grid::Grid;
use crate::simulate::{Options, Watch, game_seeds, play_out, watched_games};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use tabletop::{SeededDice, count};

/// Features listed as deciding games.
pub const DECIDERS: usize = 8;
/// A feature must happen in at least this share of player-games to be
/// ranked (rarer ones have no meaningful rate).
const MIN_SHARE: f64 = 0.01;

/// Something that happens to a player on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Feature {
    /// Card `card` fired on cell `cell`.
    Card {
        /// The cell.
        cell: u32,
        /// The card number.
        card: u8,
    },
    /// The ladder `from` → `to` climbed.
    Ladder {
        /// Its foot.
        from: u32,
        /// Its top.
        to: u32,
    },
    /// The snake `from` → `to` slid down.
    Snake {
        /// Its head.
        from: u32,
        /// Its tail.
        to: u32,
    },
}

impl Feature {
    /// The feature an event is, and the player it happened to.
    fn of(e: &Event) -> Option<(u8, Self)> {
        match *e {
            Event::Card { player, cell, card } => Some((player, Self::Card { cell, card })),
            Event::Ladder { player, from, to } => Some((player, Self::Ladder { from, to })),
            Event::Snake { player, from, to } => Some((player, Self::Snake { from, to })),
            _ => None,
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Card { cell, card } => write!(f, "card {card} on cell {cell}"),
            Self::Ladder { from, to } => write!(f, "the ladder {from} -> {to}"),
            Self::Snake { from, to } => write!(f, "the snake {from} -> {to}"),
        }
    }
}

/// One feature's record over the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decider {
    /// The feature.
    pub feature: Feature,
    /// Player-games it happened in (at least once).
    pub player_games: u64,
    /// The win rate of players it happened to.
    pub win_rate_with: f64,
    /// The win rate of players it did not happen to.
    pub win_rate_without: f64,
    /// `win_rate_with - win_rate_without`.
    pub lift: f64,
}

/// The answer to "is this grid fair to every seat?".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceReport {
    /// The grid as it was named.
    pub grid: String,
    /// The run's seed.
    pub seed: u64,
    /// Who played each seat.
    pub seats: [Seat; SEATS],
    /// Games played.
    pub games: u64,
    /// Whether the run was stopped (Ctrl-C) before every game asked for:
    /// the figures are then of the `games` played.
    pub stopped: bool,
    /// Games stopped at the turn cap with no winner.
    pub stalled: u64,
    /// Each seat's share of the games won.
    pub win_rate: [f64; SEATS],
    /// Half the width of each win rate's 95% interval (Agresti–Coull).
    pub win_margin95: [f64; SEATS],
    /// The largest win rate less the smallest.
    pub spread: f64,
    /// The spread allowed.
    pub margin: f64,
    /// Is the spread more than the margin, beyond the intervals?
    pub unbalanced: bool,
    /// The verdict read from the intervals.
    pub verdict: Verdict,
    /// The features with the largest lifts, largest first.
    pub deciders: Vec<Decider>,
}

/// What the games show about a grid's balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Even the largest spread the intervals allow is within the margin.
    Balanced,
    /// Even the least spread the intervals allow is more than the margin.
    Unbalanced,
    /// The intervals straddle the margin.
    Undecided {
        /// About how many more games would decide it.
        more_games: u64,
    },
}

/// The verdict on a spread with the two extreme seats' half-widths summed
/// (`width`) after `games` games, against `margin`.
pub fn verdict(spread: f64, width: f64, margin: f64, games: u64) -> Verdict {
    if spread - width > margin {
        Verdict::Unbalanced
    } else if spread + width <= margin {
        Verdict::Balanced
    } else {
        // The half-widths fall as 1/√games: games·(width/gap)² decide it
        // if the rates stay where they are.
        let gap = (spread - margin).abs().max(1e-4);
        let needed = games as f64 * (width / gap).powi(2);
        let more = (needed - games as f64).ceil().clamp(1.0, 1e12) as u64;
        Verdict::Undecided { more_games: more }
    }
}

/// Totals of one run, merged across threads.
#[derive(Clone, Debug, Default)]
struct Totals {
    games: u64,
    stalled: u64,
    wins: [u64; SEATS],
    /// Per feature: player-games it happened in, and how many of those the
    /// player won.
    features: HashMap<Feature, (u64, u64)>,
}

impl Totals {
    fn merge(mut self, other: Self) -> Self {
        self.games += other.games;
        self.stalled += other.stalled;
        for i in 0..SEATS {
            self.wins[i] += other.wins[i];
        }
        for (k, (n, w)) in other.features {
            let e = self.features.entry(k).or_default();
            e.0 += n;
            e.1 += w;
        }
        self
    }
}

/// Plays `options.games` bot games on `grid` (on the current rayon pool;
/// game `i` rolls from stream `i` of the seed, so the answer does not
/// depend on the threads) and reports each seat's win rate, whether they
/// differ by more than `margin`, and the features that decide games.
/// `watch` counts the games played and stops the run when raised: the
/// report is then of the games played (`stopped`).
pub fn check_balance(
    name: &str,
    grid: &Arc<Grid>,
    options: &Options,
    margin: f64,
    watch: &Watch,
) -> BalanceReport {
    use std::sync::atomic::Ordering;
    let totals = watched_games(options.games, watch)
        .fold(Totals::default, |mut t, i| {
            let (dice_seed, bot_seed) = game_seeds(options.seed, i);
            let mut game = Game::new(grid.clone(), options.seats).with_turn_cap(options.turn_cap);
            let mut dice = SeededDice::new(dice_seed);
            let mut seen: Vec<(u8, Feature)> = Vec::new();
            play_out(&mut game, &mut dice, bot_seed, |_, events| {
                seen.extend(events.iter().filter_map(Feature::of));
            });
            seen.sort_unstable();
            seen.dedup();
            let winner = game.winner();
            t.games += 1;
            match winner {
                Some(w) => t.wins[usize::from(w).clamp(1, SEATS) - 1] += 1,
                None => t.stalled += 1,
            }
            for (player, feature) in seen {
                let e = t.features.entry(feature).or_default();
                e.0 += 1;
                e.1 += u64::from(winner == Some(player));
            }
            watch.played.fetch_add(1, Ordering::Relaxed);
            t
        })
        .reduce(Totals::default, Totals::merge);
    report(name, options, margin, totals)
}

/// [`check_balance`] on `threads` threads of a pool of its own (0 means 1;
/// the report does not depend on the threads).
///
/// # Errors
/// Fails when the thread pool cannot be built.
pub fn check_balance_on(
    name: &str,
    grid: &Arc<Grid>,
    options: &Options,
    margin: f64,
    watch: &Watch,
    threads: usize,
) -> Result<BalanceReport, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.clamp(1, crate::simulate::MAX_THREADS))
        .build()?;
    Ok(pool.install(|| check_balance(name, grid, options, margin, watch)))
}

fn report(name: &str, options: &Options, margin: f64, t: Totals) -> BalanceReport {
    let n = t.games.max(1) as f64;
    let win_rate: [f64; SEATS] = std::array::from_fn(|i| t.wins[i] as f64 / n);
    let hi = win_rate.iter().copied().fold(0.0, f64::max);
    let lo = win_rate.iter().copied().fold(1.0, f64::min);
    let (best, worst) = extremes(&win_rate);
    // Agresti–Coull half-widths (two wins and two losses added), so that a
    // seat that won every game or none still has an interval.
    let half = |p: f64| crate::report::margin95((p * n + 2.0) / (n + 4.0), n + 4.0);
    let verdict_now = verdict(
        hi - lo,
        half(win_rate[best]) + half(win_rate[worst]),
        margin,
        t.games,
    );
    let player_games = t.games * SEATS as u64;
    let all_wins = t.games - t.stalled;
    let mut deciders: Vec<Decider> = t
        .features
        .into_iter()
        .filter(|&(_, (k, _))| k as f64 >= MIN_SHARE * player_games as f64 && k < player_games)
        .map(|(feature, (k, w))| {
            let with = w as f64 / k as f64;
            let without = (all_wins - w) as f64 / (player_games - k) as f64;
            Decider {
                feature,
                player_games: k,
                win_rate_with: with,
                win_rate_without: without,
                lift: with - without,
            }
        })
        .collect();
    deciders.sort_by(|a, b| {
        b.lift
            .abs()
            .total_cmp(&a.lift.abs())
            .then(a.feature.cmp(&b.feature))
    });
    deciders.truncate(DECIDERS);
    BalanceReport {
        grid: name.to_string(),
        seed: options.seed,
        seats: options.seats,
        games: t.games,
        stopped: t.games < options.games,
        stalled: t.stalled,
        win_margin95: win_rate.map(half),
        win_rate,
        spread: hi - lo,
        margin,
        unbalanced: matches!(verdict_now, Verdict::Unbalanced),
        verdict: verdict_now,
        deciders,
    }
}

impl fmt::Display for BalanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Seats by their level's name, as they were given.
        let seats: Vec<String> = self
            .seats
            .iter()
            .map(|s| match s {
                Seat::Bot => "normal".to_string(),
                Seat::Random => "easy".to_string(),
                other => other.to_string(),
            })
            .collect();
        if self.stopped {
            writeln!(
                f,
                "Stopped (Ctrl-C): the figures below are of the games played."
            )?;
        }
        writeln!(
            f,
            "Balance of {}: {} (seats {}, seed {})",
            self.grid,
            count(self.games, "game", "games"),
            seats.join(", "),
            self.seed
        )?;
        for (i, (p, m)) in self.win_rate.iter().zip(self.win_margin95).enumerate() {
            writeln!(
                f,
                "  P{}: wins {:>6.2}% ± {:.2}",
                i + 1,
                100.0 * p,
                100.0 * m
            )?;
        }
        if self.stalled > 0 {
            writeln!(
                f,
                "  no winner (turn cap): {}",
                count(self.stalled, "game", "games")
            )?;
        }
        let (best, worst) = extremes(&self.win_rate);
        let width = 100.0 * (self.win_margin95[best] + self.win_margin95[worst]);
        match self.verdict {
            Verdict::Unbalanced => writeln!(
                f,
                "UNBALANCED: P{} wins {:.2} points more often than P{}; even with both 95% intervals ({:.2} points together) that is more than the {:.2} points allowed.",
                best + 1,
                100.0 * self.spread,
                worst + 1,
                width,
                100.0 * self.margin
            )?,
            Verdict::Balanced => writeln!(
                f,
                "Balanced: the seats' win rates differ by {:.2} points at most, and by at most {:.2} within their 95% intervals, inside the {:.2} points allowed.",
                100.0 * self.spread,
                100.0 * self.spread + width,
                100.0 * self.margin
            )?,
            Verdict::Undecided { more_games } => writeln!(
                f,
                "Not enough games to tell: P{} and P{} differ by {:.2} points ± {:.2}, which straddles the {:.2} points allowed; about {} more would tell.",
                best + 1,
                worst + 1,
                100.0 * self.spread,
                width,
                100.0 * self.margin,
                count(more_games, "game", "games")
            )?,
        }
        if self.deciders.is_empty() {
            return writeln!(f, "No cell or card happens often enough to rank.");
        }
        writeln!(
            f,
            "What decides games (a player it happens to wins … of games, against … otherwise):"
        )?;
        for d in &self.deciders {
            writeln!(
                f,
                "  {:<24} {:>6.2}% against {:>6.2}%  ({:+.2} points; {})",
                d.feature.to_string(),
                100.0 * d.win_rate_with,
                100.0 * d.win_rate_without,
                100.0 * d.lift,
                count(d.player_games, "player-game", "player-games")
            )?;
        }
        Ok(())
    }
}

/// The seats with the highest and the lowest win rate.
fn extremes(rates: &[f64; SEATS]) -> (usize, usize) {
    let mut best = 0;
    let mut worst = 0;
    for (i, r) in rates.iter().enumerate() {
        if *r > rates[best] {
            best = i;
        }
        if *r < rates[worst] {
            worst = i;
        }
    }
    (best, worst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DEFAULT_TURN_CAP;

    fn sample() -> Arc<Grid> {
        Arc::new(crate::parse_grid(crate::SAMPLE_GRID).expect("sample grid"))
    }

    /// A run stopped (Ctrl-C raises the watch's stop) reports the games it
    /// played and says it was stopped; a whole run counts every game.
    #[test]
    fn a_stopped_balance_check_reports_the_games_it_played() {
        use std::sync::atomic::Ordering;
        let options = Options {
            games: 12,
            seed: 3,
            seats: [Seat::Bot; SEATS],
            turn_cap: DEFAULT_TURN_CAP,
        };
        let watch = Watch::default();
        let whole = check_balance("sample", &sample(), &options, 0.05, &watch);
        assert!(!whole.stopped);
        assert_eq!(whole.games, 12);
        assert_eq!(watch.played.load(Ordering::SeqCst), 12);
        let watch = Watch::default();
        watch.stop.store(true, Ordering::SeqCst);
        let none = check_balance("sample", &sample(), &options, 0.05, &watch);
        assert!(none.stopped);
        assert_eq!(none.games, 0);
        assert!(none.to_string().starts_with("Stopped (Ctrl-C)"), "{none}");
    }

    #[test]
    fn the_verdict_reads_the_intervals() {
        // 100 games, a 7-point spread, intervals of ±8: cannot tell.
        assert_eq!(
            verdict(0.07, 0.17, 0.05, 100),
            Verdict::Undecided { more_games: 7125 }
        );
        assert_eq!(verdict(0.30, 0.17, 0.05, 100), Verdict::Unbalanced);
        assert_eq!(verdict(0.01, 0.02, 0.05, 10_000), Verdict::Balanced);
        // The estimate: 100·(0.17/0.02)² = 7,225 games in all.
        let Verdict::Undecided { more_games } = verdict(0.07, 0.17, 0.05, 100) else {
            panic!("undecided");
        };
        let after = 100 + more_games;
        let width_after = 0.17 * (100.0 / after as f64).sqrt();
        assert!((width_after - 0.02).abs() < 1e-4, "{width_after}");
    }

    #[test]
    fn the_report_adds_up_and_repeats_for_its_seed() {
        let options = Options {
            games: 300,
            seed: 5,
            seats: [Seat::Bot; SEATS],
            turn_cap: DEFAULT_TURN_CAP,
        };
        let a = check_balance("sample", &sample(), &options, 0.05, &Watch::default());
        let b = check_balance("sample", &sample(), &options, 0.05, &Watch::default());
        assert_eq!(a, b);
        assert_eq!(a.games, 300);
        let won: f64 = a.win_rate.iter().sum::<f64>() + a.stalled as f64 / 300.0;
        assert!((won - 1.0).abs() < 1e-9);
        let hi = a.win_rate.iter().copied().fold(0.0, f64::max);
        let lo = a.win_rate.iter().copied().fold(1.0, f64::min);
        assert!((a.spread - (hi - lo)).abs() < 1e-12);
        // The verdict is the intervals': spread ± both extreme seats'
        // half-widths against the margin.
        let half = |p: f64| {
            let q = (p * 300.0 + 2.0) / 304.0;
            1.96 * (q * (1.0 - q) / 304.0).sqrt()
        };
        let width = half(hi) + half(lo);
        assert_eq!(a.unbalanced, a.spread - width > 0.05);
        assert_eq!(
            matches!(a.verdict, Verdict::Balanced),
            a.spread + width <= 0.05
        );
        assert!(!a.deciders.is_empty());
        for d in &a.deciders {
            assert!((d.lift - (d.win_rate_with - d.win_rate_without)).abs() < 1e-12);
        }
        // A margin of 0 cannot be shown met; a margin of 1 always is.
        let strict = check_balance("sample", &sample(), &options, 0.0, &Watch::default());
        assert!(!matches!(strict.verdict, Verdict::Balanced));
        let loose = check_balance("sample", &sample(), &options, 1.0, &Watch::default());
        assert!(!loose.unbalanced);
        assert!(
            loose
                .to_string()
                .contains("Balanced: the seats' win rates differ by"),
            "{loose}"
        );
    }
}
