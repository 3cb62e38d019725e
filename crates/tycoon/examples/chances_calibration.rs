//! Whether the live chances' 95% intervals mean what they say: at random
//! positions of random legal grids (2 to 4 seats, from the start to late
//! in a game), each seat's interval from `tycoon::chances::estimate`
//! against a long Monte Carlo of default-bot games from the same position
//! on other dice. Prints how often the interval held the truth, overall
//! and by seats. Run with
//! `cargo run --release -p tycoon --example chances_calibration`
//! (`POSITIONS=200`, `GAMES=20000` a position by default).

use std::sync::Arc;
use tabletop::{Rng, SeededDice};
use tycoon::bots::{Bot, DefaultBot};
use tycoon::chances::{Options, estimate};
use tycoon::generate::random_grid;
use tycoon::{Game, Seat};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let positions = env("POSITIONS", 200);
    let games = env("GAMES", 20_000);
    let mut rng = Rng::new(2026);
    let mut by_seats = [(0u64, 0u64); 5];
    let mut width = 0.0;
    for i in 0..positions {
        let grid = Arc::new(random_grid(&mut rng));
        let seats = 2 + (i % 3) as usize;
        let Ok(mut game) = Game::for_seats(grid, &vec![Seat::Bot; seats]) else {
            continue;
        };
        let mut dice = SeededDice::new(rng.next_u64());
        let moves = rng.below(80);
        while game.moves() < moves {
            let before = game.clone();
            if game.apply(DefaultBot.choose(&game), &mut dice).is_err() || game.is_over() {
                game = before;
                break;
            }
        }
        let c = estimate(&game);
        let seed = rng.next_u64();
        let mut wins = vec![0u64; seats];
        for j in 0..games {
            let mut g = game.clone();
            let mut d = SeededDice::new(Rng::stream(seed, j).next_u64());
            let stop = g.turns() + Options::LIVE.horizon;
            while !g.is_over() && g.turns() < stop {
                let mv = DefaultBot.choose(&g);
                if g.apply(mv, &mut d).is_err() {
                    break;
                }
            }
            if let Some(w) = g.winner() {
                wins[usize::from(w) - 1] += 1;
            }
        }
        let Some(bands) = c.interval.as_ref() else {
            continue;
        };
        for (w, band) in wins.iter().zip(bands) {
            let truth = *w as f64 / games as f64;
            let slot = &mut by_seats[seats];
            slot.1 += 1;
            if band.low <= truth && truth <= band.high {
                slot.0 += 1;
            }
            width += band.high - band.low;
        }
    }
    let (held, all) = by_seats
        .iter()
        .fold((0, 0), |(h, a), &(x, y)| (h + x, a + y));
    println!(
        "{positions} positions, {games} games a position: the 95% interval held the truth {held} of {all} times ({:.1}%), mean width {:.1} points",
        100.0 * held as f64 / all.max(1) as f64,
        100.0 * width / all.max(1) as f64
    );
    for (seats, (h, a)) in by_seats.iter().enumerate().skip(2) {
        println!(
            "  {seats} seats: {h} of {a} ({:.1}%)",
            100.0 * *h as f64 / (*a).max(1) as f64
        );
    }
}
