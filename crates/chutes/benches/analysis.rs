//! Benchmarks of the Chutes & Ladders analysis (plain `main`, no harness).
//!
//! Run with `cargo bench -p chutes --bench analysis`.

use chutes::analysis::simulate::{SimOptions, simulate};
use chutes::analysis::{exact, markov};
use chutes::{Board, Rules};
use std::time::Instant;

fn time<T>(label: &str, repeat: u32, mut f: impl FnMut() -> T) -> T {
    let mut out = f();
    let start = Instant::now();
    for _ in 0..repeat {
        out = f();
    }
    let each = start.elapsed() / repeat.max(1);
    println!("{label:<50} {each:>12.3?}");
    out
}

fn main() {
    let board = Board::classic();
    let rules = Rules::default();
    let dist = time("markov distribution, classic", 200, || {
        markov::distribution(&board, &rules, markov::DEFAULT_TAIL)
    });
    let moments = time("exact mean and variance, classic", 5, || {
        exact::moments(&board, &rules)
    });
    for threads in [1, 2] {
        let options = SimOptions {
            games: 20_000_000,
            players: 1,
            seed: 1,
            threads,
        };
        let t = Instant::now();
        let r = simulate(&board, &rules, &options, &|_| {});
        let s = t.elapsed().as_secs_f64();
        println!(
            "simulate {threads} thread(s): {:.2}M games/s {:?}",
            2e7 / s / 1e6,
            r.ok().and_then(|r| r.mean())
        );
    }
    if let (Ok(d), Ok(m)) = (dist, moments) {
        println!("mean {:?} (exact {})", d.mean, m.mean_f64());
    }
}
