//! Benchmarks of the Chutes & Ladders analysis (plain `main`, no harness).
//!
//! Run with `cargo bench -p chutes --bench analysis`.

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
    if let (Ok(d), Ok(m)) = (dist, moments) {
        println!("mean {:?} (exact {})", d.mean, m.mean_f64());
    }
}
