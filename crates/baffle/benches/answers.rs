//! `cargo bench -p baffle --bench answers`: how long a player waits for
//! each answer — the odds (the solver without advice), a hint (the solver
//! with advice) and a bot move — on 10 × 10 with 5, 10 and 20 mirrors and
//! on 26 × 26 with 40, after 0, 3 and 10 shots.
//!
//! Each configuration is played on `BOXES` random boxes (seeds 1, 2, …);
//! the shots are the first holes of a seeded shuffle, as fired in a game.
//! Each answer is timed `RUNS` times and its best wall-clock time kept (the
//! machine is shared); the table prints the slowest box's best time, the
//! slowest single run, and how the answer was worked out.
//! `BAFFLE_BENCH_BOXES` sets `BOXES`.

use baffle::bot::{BotOptions, decide};
use baffle::solve::Method;
use baffle::{Game, Move, Setup, Sides, SolveOptions, solve};
use std::time::{Duration, Instant};
use tabletop::Rng;

/// Timings of each answer, best of this many.
const RUNS: usize = 3;

fn main() {
    let boxes: u64 = std::env::var("BAFFLE_BENCH_BOXES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    println!(
        "Baffle answers: slowest of {boxes} boxes (best of {RUNS} runs each); the slowest single run in brackets"
    );
    println!(
        "{:<9} {:>5}  {:>18}  {:>18}  {:>18}  method",
        "box", "shots", "odds ms", "hint ms", "bot move ms"
    );
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    for (n, k) in [(10, 5), (10, 10), (10, 20), (26, 40)] {
        for shots in [0, 3, 10] {
            let mut best = [Duration::ZERO; 3];
            let mut worst = [Duration::ZERO; 3];
            let mut methods: Vec<&str> = Vec::new();
            for seed in 1..=boxes {
                let mut game = Game::new(Setup::seeded(n, k, Sides::All, seed)).expect("a box");
                let mut holes: Vec<usize> = (0..4 * n).collect();
                Rng::new(seed).shuffle(&mut holes);
                for &hole in holes.iter().take(shots) {
                    game.apply(Move::Shoot { hole }).expect("a shot");
                }
                let view = game.view();
                let evidence = view.evidence();
                let odds = SolveOptions {
                    advice: false,
                    ..SolveOptions::default()
                };
                let hint = SolveOptions::default();
                let bot = BotOptions::default();
                let mut method = Method::Exact;
                let times = [
                    time(|| {
                        solve(&evidence, &odds).expect("odds");
                    }),
                    time(|| {
                        method = solve(&evidence, &hint).expect("a hint").method;
                    }),
                    time(|| {
                        decide(&view, &bot).expect("a bot move");
                    }),
                ];
                for (i, (b, w)) in times.iter().enumerate() {
                    best[i] = best[i].max(*b);
                    worst[i] = worst[i].max(*w);
                    slowest = slowest.max(*w);
                }
                let name = match method {
                    Method::Exact => "exact",
                    Method::Sampled { .. } => "sampled",
                    Method::Estimated { .. } => "estimated",
                };
                if !methods.contains(&name) {
                    methods.push(name);
                }
            }
            let cell = |i: usize| format!("{:.1} [{:.1}]", ms(best[i]), ms(worst[i]));
            println!(
                "{:<9} {:>5}  {:>18}  {:>18}  {:>18}  {}",
                format!("{n}x{n}/{k}"),
                shots,
                cell(0),
                cell(1),
                cell(2),
                methods.join(", ")
            );
        }
    }
    println!("slowest single answer: {:.1} ms", ms(slowest));
    println!("total {:.1} s", started.elapsed().as_secs_f64());
}

/// The best and the worst of `RUNS` runs of `f`.
fn time(mut f: impl FnMut()) -> (Duration, Duration) {
    let mut best = Duration::MAX;
    let mut worst = Duration::ZERO;
    for _ in 0..RUNS {
        let t = Instant::now();
        f();
        let e = t.elapsed();
        best = best.min(e);
        worst = worst.max(e);
    }
    (best, worst)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
