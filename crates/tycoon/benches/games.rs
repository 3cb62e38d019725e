//! Bot games per second on the original assignment's sample grid: one thread, then all
//! cores. Run with `cargo bench -p tycoon --bench games`.

use std::sync::Arc;
use std::time::Instant;
use tycoon::game::DEFAULT_TURN_CAP;
use tycoon::simulate::{Options, simulate_on};
use tycoon::{Seat, parse_grid};

fn main() {
    let grid = Arc::new(parse_grid(include_str!("../tests/data/sample.grid")).unwrap_or_default());
    let games = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(200_000u64);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (label, seats) in [
        ("default bots", [Seat::Bot; 4]),
        ("random bots", [Seat::Random; 4]),
    ] {
        for threads in [1, cores] {
            let options = Options {
                games,
                seed: 1,
                seats,
                turn_cap: DEFAULT_TURN_CAP,
            };
            let start = Instant::now();
            let tally = match simulate_on(&grid, &options, Some(threads)) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("thread pool: {e}");
                    return;
                }
            };
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{label:>13}, {threads} thread(s): {games} games in {secs:.2} s = {:.0} games/s, {:.2} M turns/s (mean {:.1} turns/game)",
                games as f64 / secs,
                tally.turns as f64 / secs / 1e6,
                tally.mean_turns()
            );
        }
    }
}
