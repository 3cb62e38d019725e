//! How long the live chances take: the estimate (default-bot playouts on
//! imagined dice, `tycoon::chances::estimate`) at every position of seeded
//! games of default bots, for 2 and 4 seats, on the sample grid and on
//! random legal grids, one thread. Prints the mean, the 95th percentile
//! and the slowest, and the playouts behind each. Run with
//! `cargo bench -p tycoon --bench chances` (`GAMES=10` by default).

use std::sync::Arc;
use std::time::Instant;
use tabletop::{Rng, SeededDice};
use tycoon::bots::{Bot, DefaultBot};
use tycoon::chances::{Options, estimate};
use tycoon::generate::random_grid;
use tycoon::{Game, Grid, Seat, parse_grid};

/// Every position of one game of default bots on `grid` (a fresh copy
/// each, so no estimate is cached).
fn positions(grid: &Arc<Grid>, seats: usize, seed: u64) -> Vec<Game> {
    let Ok(mut game) = Game::for_seats(grid.clone(), &vec![Seat::Bot; seats]) else {
        return Vec::new();
    };
    let mut dice = SeededDice::new(seed);
    let mut found = vec![game.clone()];
    while !game.is_over() {
        if game.apply(DefaultBot.choose(&game), &mut dice).is_err() {
            break;
        }
        found.push(game.clone());
    }
    found
}

fn main() {
    let games = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(10u64);
    let sample =
        Arc::new(parse_grid(include_str!("../tests/data/sample.grid")).unwrap_or_default());
    let o = Options::LIVE;
    println!(
        "live chances: at most {} playouts and {} turns an estimate, horizon {} turns",
        o.playouts, o.turn_budget, o.horizon
    );
    // The same work as plain games on seeded dice, for comparison: 1,000
    // games of four default bots from the start, and the estimate there.
    let start = Game::new(sample.clone(), [Seat::Bot; 4]);
    let mut plain = f64::MAX;
    let mut estimated = f64::MAX;
    for round in 0..5u64 {
        let t = Instant::now();
        let mut turns = 0u64;
        for i in 0..1000 {
            let mut g = start.clone();
            let mut dice = SeededDice::new(round * 1000 + i);
            tycoon::simulate::play_out(&mut g, &mut dice, 0, |_, _| {});
            turns += u64::from(g.turns());
        }
        plain = plain.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let _ = estimate(&start);
        estimated = estimated.min(t.elapsed().as_secs_f64() * 1e3);
        if round == 0 {
            println!("1,000 plain games from the start: {turns} turns");
        }
    }
    println!(
        "sample grid, 4 seats, from the start (best of 5): 1,000 plain games {plain:.2} ms, the estimate {estimated:.2} ms"
    );
    for label in ["sample grid", "random grids"] {
        for seats in [2, 4] {
            let mut times = Vec::new();
            let mut fewest = u32::MAX;
            for seed in 0..games {
                let grid = if label == "sample grid" {
                    sample.clone()
                } else {
                    Arc::new(random_grid(&mut Rng::new(seed)))
                };
                for game in positions(&grid, seats, seed) {
                    let start = Instant::now();
                    let c = estimate(&game);
                    times.push(start.elapsed().as_secs_f64() * 1e3);
                    if let Some(n) = c.playouts {
                        fewest = fewest.min(n);
                    }
                }
            }
            times.sort_by(f64::total_cmp);
            let n = times.len();
            if n == 0 {
                continue;
            }
            let mean = times.iter().sum::<f64>() / n as f64;
            println!(
                "{label}, {seats} seats: {n} positions, mean {mean:.2} ms, 95th percentile {:.2} ms, slowest {:.2} ms (fewest playouts {fewest})",
                times[(n * 95 / 100).min(n - 1)],
                times[n - 1]
            );
        }
    }
}
