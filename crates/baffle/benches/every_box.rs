//! `cargo bench -p baffle --bench every_box`: the solver on every box size
//! the game allows (4 × 4 to 26 × 26) and mirror counts from 1 to the most
//! allowed (`n²/2`), on evidence that is consistent (the true box is one).
//!
//! Two parts:
//! - **hints**: per size, per mirror count in `1, n²/32, n²/16, n²/8,
//!   3n²/16, n²/4, n²/2`, `BAFFLE_EVERY_BOXES` random boxes (default 4), each with
//!   a random subset of its own shots (0 to all `4n` holes): one hint (the
//!   solver with advice and the default options, as `parlor baffle solve`,
//!   the page's Hint and the bot use), timed once. A failure is any error,
//!   or a layout count of 0 (the true box fits, so it cannot be 0).
//! - **bot games** (`BAFFLE_EVERY_GAMES`, default 1 a configuration; 0 to
//!   skip): the bot plays whole games on the same configurations, each
//!   move timed; a game must finish.
//!
//! Prints, per size, the calls, the failures, the slowest call and how the
//! answers were worked out; the moves played, those that took 0.5 s or
//! more, the points the games scored (shots plus 2 a wrong guess: lower
//! is better) and the slowest bot move.
//! `BAFFLE_EVERY_FIRST` and `BAFFLE_EVERY_LAST` bound the sizes;
//! `BAFFLE_EVERY_FIND_STEPS=0` turns the propagating and repair searches
//! off (the solver as it was before issue 34); `BAFFLE_EVERY_STEP_LIMIT`
//! sets the counting search's steps; `BAFFLE_EVERY_SLOW_MS` prints every
//! bot move that took that long, `BAFFLE_EVERY_K` plays one mirror count.
//! Figures:
//! docs/performance.md.

use baffle::bot::{BotOptions, decide};
use baffle::solve::Method;
use baffle::{Evidence, Game, Layout, Setup, Sides, Size, SolveOptions, solve};
use std::time::{Duration, Instant};
use tabletop::Rng;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The mirror counts tried on an `n × n` box (only `BAFFLE_EVERY_K`, when
/// set).
fn mirror_counts(n: usize) -> Vec<usize> {
    if let Some(k) = std::env::var("BAFFLE_EVERY_K")
        .ok()
        .and_then(|k| k.parse().ok())
    {
        return vec![k];
    }
    let max = n * n / 2;
    let mut ks: Vec<usize> = [1, max / 16, max / 8, max / 4, 3 * max / 8, max / 2, max]
        .into_iter()
        .filter(|&k| k >= 1)
        .collect();
    ks.dedup();
    ks
}

fn main() {
    let boxes = env("BAFFLE_EVERY_BOXES", 4);
    let games = env("BAFFLE_EVERY_GAMES", 1);
    let first = env("BAFFLE_EVERY_FIRST", 4) as usize;
    let last = env("BAFFLE_EVERY_LAST", 26) as usize;
    // BAFFLE_EVERY_FIND_STEPS=0: without the propagating and repair
    // searches (the solver as it was before issue 34).
    let mut options = SolveOptions::default();
    options.estimate.find_steps = env("BAFFLE_EVERY_FIND_STEPS", options.estimate.find_steps);
    // BAFFLE_EVERY_STEP_LIMIT: the counting search's budget (to compare).
    options.step_limit = env("BAFFLE_EVERY_STEP_LIMIT", options.step_limit);
    let started = Instant::now();
    println!(
        "hints: {boxes} random boxes per size and mirror count, a random subset of their shots"
    );
    println!(
        "{:>5} {:>6} {:>6} {:>9} {:>8} {:>8} {:>9}  slowest case",
        "size", "calls", "fails", "slowest", "exact", "sampled", "estimated"
    );
    let (mut all_calls, mut all_fails) = (0, 0);
    let mut overall = Duration::ZERO;
    for n in first..=last {
        let size = Size::new(n).expect("a size");
        let (mut calls, mut fails) = (0, 0);
        let mut methods = [0usize; 3];
        let mut slowest = (Duration::ZERO, String::new());
        for k in mirror_counts(n) {
            for b in 0..boxes {
                let seed = (n as u64) * 1_000_000 + (k as u64) * 100 + b;
                let truth = Layout::seeded(size, k, seed).expect("a box");
                let mut rng = Rng::new(seed);
                let mut holes: Vec<usize> = (0..4 * n).collect();
                rng.shuffle(&mut holes);
                let m = rng.below(4 * n as u64 + 1) as usize;
                let shots: Vec<(usize, usize)> = holes[..m]
                    .iter()
                    .map(|&h| (h, truth.trace(h).expect("a hole").exit))
                    .collect();
                let ev = Evidence {
                    size: n,
                    mirrors: k,
                    shots,
                    ..Evidence::default()
                };
                let t = Instant::now();
                let answer = solve(&ev, &options);
                let dt = t.elapsed();
                calls += 1;
                let case = format!("k {k} seed {seed} shots {m}");
                match answer {
                    Ok(s) if s.layouts.as_ref().is_some_and(|l| *l == 0u32.into()) => {
                        fails += 1;
                        println!("  FAIL {n}×{n} {case}: 0 layouts");
                    }
                    Ok(s) => {
                        methods[match s.method {
                            Method::Exact => 0,
                            Method::Sampled { .. } => 1,
                            Method::Estimated { .. } => 2,
                        }] += 1;
                    }
                    Err(e) => {
                        fails += 1;
                        println!("  FAIL {n}×{n} {case}: {e}");
                    }
                }
                if dt > slowest.0 {
                    slowest = (dt, case);
                }
            }
        }
        overall = overall.max(slowest.0);
        all_calls += calls;
        all_fails += fails;
        println!(
            "{:>5} {calls:>6} {fails:>6} {:>7.0}ms {:>8} {:>8} {:>9}  {}",
            format!("{n}×{n}"),
            1000.0 * slowest.0.as_secs_f64(),
            methods[0],
            methods[1],
            methods[2],
            slowest.1
        );
    }
    println!(
        "hints: {all_fails} failed of {all_calls}; slowest {:.0} ms; {:.0} s in all",
        1000.0 * overall.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    if games == 0 {
        return;
    }
    println!("bot games: {games} per size and mirror count, every move timed");
    println!(
        "{:>5} {:>6} {:>8} {:>7} {:>7} {:>7} {:>9}  slowest move",
        "size", "games", "unfinished", "moves", "≥0.5s", "points", "slowest"
    );
    // BAFFLE_EVERY_SLOW_MS: print each bot move that took this long.
    let slow_ms = env("BAFFLE_EVERY_SLOW_MS", u64::MAX);
    // The bot's own options ([`baffle::bot::bot_solve_options`]), with the
    // same overrides.
    let mut bot = BotOptions::default();
    for solve in [&mut bot.solve, &mut bot.all_exits_known] {
        solve.estimate.find_steps = env("BAFFLE_EVERY_FIND_STEPS", solve.estimate.find_steps);
        solve.step_limit = env("BAFFLE_EVERY_STEP_LIMIT", solve.step_limit);
    }
    let mut overall = Duration::ZERO;
    let (mut all_games, mut unfinished) = (0, 0);
    for n in first..=last {
        let (mut played, mut stuck, mut moves, mut over, mut points) = (0, 0, 0, 0, 0);
        let mut slowest = (Duration::ZERO, String::new());
        for k in mirror_counts(n) {
            for g in 0..games {
                let seed = 1 + g;
                let mut game = Game::new(Setup::seeded(n, k, Sides::All, seed)).expect("a game");
                played += 1;
                let mut finished = false;
                for turn in 0..10 * n * n {
                    let view = game.view();
                    if view.status.is_over() {
                        finished = true;
                        break;
                    }
                    let t = Instant::now();
                    let decision = decide(&view, &bot);
                    let dt = t.elapsed();
                    if dt.as_millis() >= u128::from(slow_ms) {
                        let evidence = view.evidence();
                        println!(
                            "  slow {n}×{n} k {k} seed {seed} move {turn}: {:.0} ms, {} shots, {} found, {} wrong",
                            1000.0 * dt.as_secs_f64(),
                            evidence.shots.len(),
                            evidence.found.len(),
                            evidence.not.len()
                        );
                    }
                    if dt > slowest.0 {
                        slowest = (dt, format!("k {k} seed {seed} move {turn}"));
                    }
                    let Ok(decision) = decision else {
                        println!("  STUCK {n}×{n} k {k} seed {seed} move {turn}: {decision:?}");
                        break;
                    };
                    moves += 1;
                    over += usize::from(dt >= Duration::from_millis(500));
                    if let Err(e) = game.apply(decision.mv) {
                        println!("  REFUSED {n}×{n} k {k} seed {seed}: {e}");
                        break;
                    }
                }
                if !finished && !game.view().status.is_over() {
                    stuck += 1;
                }
                points += game.score().total;
            }
        }
        overall = overall.max(slowest.0);
        all_games += played;
        unfinished += stuck;
        println!(
            "{:>5} {played:>6} {stuck:>8} {moves:>7} {over:>7} {points:>7} {:>7.0}ms  {}",
            format!("{n}×{n}"),
            1000.0 * slowest.0.as_secs_f64(),
            slowest.1
        );
    }
    println!(
        "bot games: {unfinished} unfinished of {all_games}; slowest move {:.0} ms; {:.0} s in all",
        1000.0 * overall.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
