//! The simulation report: what a run of bot games shows about a grid, as
//! one serde type put into words once (`parlor tycoon simulate` prints its
//! words, or with `--json` the report itself).
//!
//! Terms:
//! - **run**: [`crate::simulate::simulate`]'s games, from one seed; the
//!   totals do not depend on the threads.
//! - **rate**: a total divided by the games played ("per game"); a seat's
//!   **win rate** comes with the half-width of its 95% interval.
//! - **tally** ([`Tally`]): the raw totals, kept whole in the report.

use crate::game::{SEATS, Seat};
use crate::grid::Grid;
use crate::simulate::{Options, Tally};
use serde::Serialize;
use std::fmt;
use tabletop::count;

/// How often one card fired.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CardRate {
    /// The card's number (1–12).
    pub card: u8,
    /// Times it fired per game.
    pub per_game: f64,
}

/// Attacks launched per game, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AttackRates {
    /// Ice attacks per game.
    pub ice: f64,
    /// Fire attacks per game.
    pub fire: f64,
    /// Poison attacks per game.
    pub poison: f64,
    /// Lightning attacks per game.
    pub lightning: f64,
}

/// What a run of bot games shows about a grid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulationReport {
    /// The grid as it was named (a file, or `sample`).
    pub grid: String,
    /// The grid in a few words (its ladders, snakes and cards).
    pub grid_summary: String,
    /// The run's seed.
    pub seed: u64,
    /// Who played each seat.
    pub seats: [Seat; SEATS],
    /// Turns after which a game stopped with no winner.
    pub turn_cap: u32,
    /// Games played.
    pub games: u64,
    /// Whether the run was stopped (Ctrl-C) before all the games asked for
    /// were played: the rates are then of the `games` played.
    pub stopped: bool,
    /// Each seat's share of the games won.
    pub win_rate: [f64; SEATS],
    /// Half the width of each win rate's 95% interval.
    pub win_margin95: [f64; SEATS],
    /// Mean turns per game, all players' turns together.
    pub mean_turns: f64,
    /// Mean rounds per game (turns / seats).
    pub mean_rounds: f64,
    /// How often each card on the grid fired (cards in number order).
    pub card_rate: Vec<CardRate>,
    /// Ladders climbed per game.
    pub ladders_per_game: f64,
    /// Snakes slid down per game.
    pub snakes_per_game: f64,
    /// Stations bought per game.
    pub stations_bought_per_game: f64,
    /// Attacks launched per game.
    pub attacks_per_game: AttackRates,
    /// The raw totals.
    pub tally: Tally,
}

/// Half the width of the normal 95% interval of a share `p` of `games`
/// games.
pub fn margin95(p: f64, games: f64) -> f64 {
    1.96 * (p * (1.0 - p) / games).sqrt()
}

impl SimulationReport {
    /// The report of `tally`, a run of `options` on `grid` (named `name`).
    pub fn new(name: &str, grid: &Grid, options: &Options, tally: Tally) -> Self {
        let n = tally.games.max(1) as f64;
        let per_game = |x: u64| x as f64 / n;
        let mut present: Vec<u8> = grid.cards().map(|c| c.number()).collect();
        present.sort_unstable();
        present.dedup();
        let win_rate: [f64; SEATS] = std::array::from_fn(|i| tally.win_rate(i as u8 + 1));
        Self {
            grid: name.to_string(),
            grid_summary: grid.to_string(),
            seed: options.seed,
            seats: options.seats,
            turn_cap: options.turn_cap,
            games: tally.games,
            stopped: tally.games < options.games,
            win_margin95: win_rate.map(|p| margin95(p, n)),
            win_rate,
            mean_turns: tally.mean_turns(),
            mean_rounds: tally.mean_turns() / SEATS as f64,
            card_rate: present
                .into_iter()
                .map(|card| CardRate {
                    card,
                    per_game: tally.card_rate(card),
                })
                .collect(),
            ladders_per_game: per_game(tally.ladders),
            snakes_per_game: per_game(tally.snakes),
            stations_bought_per_game: per_game(tally.stations_bought),
            attacks_per_game: AttackRates {
                ice: per_game(tally.attacks[0]),
                fire: per_game(tally.attacks[1]),
                poison: per_game(tally.attacks[2]),
                lightning: per_game(tally.attacks[3]),
            },
            tally,
        }
    }
}

impl fmt::Display for SimulationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seats: Vec<String> = self.seats.iter().map(ToString::to_string).collect();
        if self.stopped {
            writeln!(
                f,
                "Stopped (Ctrl-C): the rates below are of the games played."
            )?;
        }
        writeln!(
            f,
            "{} on {} ({}), seats {}, seed {}",
            count(self.games, "game", "games"),
            self.grid,
            self.grid_summary,
            seats.join(", "),
            self.seed
        )?;
        writeln!(f, "wins by seat:")?;
        for (i, (p, margin)) in self.win_rate.iter().zip(self.win_margin95).enumerate() {
            writeln!(
                f,
                "  P{}: {:>6.2}% ± {:.2}  ({})",
                i + 1,
                100.0 * p,
                100.0 * margin,
                count(self.tally.wins[i], "game", "games")
            )?;
        }
        if self.tally.stalled > 0 {
            writeln!(
                f,
                "  stopped at the turn cap ({}) with no winner: {}",
                self.turn_cap,
                count(self.tally.stalled, "game", "games")
            )?;
        }
        writeln!(
            f,
            "game length: mean {:.1} turns in all ({:.1} rounds), shortest {}, longest {}",
            self.mean_turns, self.mean_rounds, self.tally.min_turns, self.tally.max_turns
        )?;
        writeln!(f, "cards fired per game:")?;
        if self.card_rate.is_empty() {
            writeln!(f, "  (the grid has no cards)")?;
        }
        for c in &self.card_rate {
            writeln!(f, "  card {:>2}: {:.3}", c.card, c.per_game)?;
        }
        writeln!(
            f,
            "per game: {:.2} ladders, {:.2} snakes, {:.2} stations bought",
            self.ladders_per_game, self.snakes_per_game, self.stations_bought_per_game
        )?;
        let a = &self.attacks_per_game;
        writeln!(
            f,
            "attacks per game: ice {:.2}, fire {:.2}, poison {:.2}, lightning {:.2}",
            a.ice, a.fire, a.poison, a.lightning
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::simulate;
    use std::sync::Arc;

    #[test]
    fn a_run_in_json_and_words() {
        let grid = Arc::new(crate::parse_grid(crate::SAMPLE_GRID).unwrap());
        let options = Options {
            games: 40,
            seed: 3,
            seats: [Seat::Bot; SEATS],
            turn_cap: crate::game::DEFAULT_TURN_CAP,
        };
        let tally = simulate(&grid, &options);
        let r = SimulationReport::new("sample", &grid, &options, tally.clone());
        assert_eq!(r.games, 40);
        let wins: u64 = tally.wins.iter().sum::<u64>() + tally.stalled;
        assert_eq!(wins, 40);
        let rates: f64 = r.win_rate.iter().sum::<f64>() + tally.stalled as f64 / 40.0;
        assert!((rates - 1.0).abs() < 1e-12, "{rates}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["tally"]["games"], 40);
        assert_eq!(json["win_rate"].as_array().unwrap().len(), SEATS);
        let text = r.to_string();
        assert!(text.starts_with("40 games on sample ("), "{text}");
        assert!(text.contains("wins by seat:") && text.contains("attacks per game: ice"));
    }
}
