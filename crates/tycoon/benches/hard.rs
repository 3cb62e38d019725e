//! How long the hard bot takes to decide, on one thread: every decision
//! with a real choice (more than one legal move) met in seeded games of
//! four default bots on the sample grid and on random legal grids, each
//! answered by the search at the hard level's budget. Prints the mean, the
//! 95th percentile and the slowest. Run with
//! `cargo bench -p tycoon --bench hard` (`GAMES=20` by default).

use std::sync::Arc;
use std::time::Instant;
use tabletop::Rng;
use tabletop::SeededDice;
use tycoon::bots::search::search;
use tycoon::bots::{Bot, Budget, DefaultBot};
use tycoon::game::{Decision, SEATS};
use tycoon::generate::random_grid;
use tycoon::{Game, Grid, Seat, parse_grid};

fn decisions(grid: &Arc<Grid>, seed: u64) -> Vec<Game> {
    let mut game = Game::new(grid.clone(), [Seat::Bot; SEATS]);
    let mut dice = SeededDice::new(seed);
    let mut found = Vec::new();
    while !game.is_over() {
        if game.legal_moves().len() > 1 {
            found.push(game.clone());
        }
        if game.apply(DefaultBot.choose(&game), &mut dice).is_err() {
            break;
        }
    }
    found
}

fn main() {
    let games = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(20u64);
    let sample =
        Arc::new(parse_grid(include_str!("../tests/data/sample.grid")).unwrap_or_default());
    let budget = Budget::HARD;
    println!(
        "hard bot: {} playouts a decision, horizon {} turns, time cap {} ms",
        budget.playouts,
        budget.horizon,
        budget.time_cap.as_millis()
    );
    for label in ["sample grid", "random grids"] {
        let mut times: Vec<(f64, &'static str)> = Vec::new();
        for seed in 0..games {
            let grid = if label == "sample grid" {
                sample.clone()
            } else {
                Arc::new(random_grid(&mut Rng::new(seed)))
            };
            for game in decisions(&grid, seed) {
                let kind = match game.pending() {
                    Some(Decision::RechargeOrAttack { .. }) => "recharge or attack",
                    Some(Decision::BuyOrPass { .. }) => "buy or pass",
                    _ => "pay or stay",
                };
                let mut rng = Rng::new(seed ^ game.moves());
                let start = Instant::now();
                let mv = search(&game, &budget, &mut rng);
                times.push((start.elapsed().as_secs_f64() * 1e3, kind));
                std::hint::black_box(mv);
            }
        }
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let n = times.len().max(1);
        let mean = times.iter().map(|t| t.0).sum::<f64>() / n as f64;
        let p95 = times.get(n * 95 / 100).map_or(0.0, |t| t.0);
        let max = times.last().map_or(0.0, |t| t.0);
        println!(
            "{label:>12}: {} decisions in {games} games: mean {mean:.1} ms, 95th percentile {p95:.1} ms, slowest {max:.1} ms",
            times.len()
        );
        for kind in ["recharge or attack", "buy or pass", "pay or stay"] {
            let of: Vec<f64> = times.iter().filter(|t| t.1 == kind).map(|t| t.0).collect();
            if !of.is_empty() {
                println!(
                    "{:>14}{kind}: {} decisions, mean {:.1} ms, slowest {:.1} ms",
                    "",
                    of.len(),
                    of.iter().sum::<f64>() / of.len() as f64,
                    of.iter().copied().fold(0.0, f64::max)
                );
            }
        }
    }
}
