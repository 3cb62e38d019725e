//! `cargo bench -p baffle`: the solver on subsets of the fixed game's 40
//! shots (10 × 10, 5 mirrors, all four sides), advice included.
//!
//! Every subset size from 0 to 40 is drawn `PER_SIZE` times at random
//! (seeded), plus the subsets a player is likeliest to hold: all 40 shots,
//! the 20 left and top shots, every undeflected shot, every deflected shot.
//! Prints the slowest, median and mean time per band of subset sizes, and
//! the slowest subset overall. `BAFFLE_BENCH_PER_SIZE` sets `PER_SIZE`.
//!
//! Each subset is solved `RUNS` times and its best wall-clock time is kept,
//! so that other work on a shared machine counts as little as possible; the
//! slowest single run of all is printed too.

use baffle::{Evidence, Layout, Sides, SolveOptions, solve};
use std::time::{Duration, Instant};
use tabletop::Rng;

fn main() {
    let per_size: usize = std::env::var("BAFFLE_BENCH_PER_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let layout = Layout::fixed();
    let all: Vec<(usize, usize)> = (0..40)
        .map(|h| (h, layout.trace(h).map_or(h, |b| b.exit)))
        .collect();
    let opposite = |h: usize| layout.size().opposite(h);
    let mut subsets: Vec<(String, Vec<(usize, usize)>)> = vec![
        ("all 40".into(), all.clone()),
        ("left and top 20".into(), all[..20].to_vec()),
        (
            "undeflected".into(),
            all.iter()
                .copied()
                .filter(|&(h, e)| opposite(h) == Some(e))
                .collect(),
        ),
        (
            "deflected".into(),
            all.iter()
                .copied()
                .filter(|&(h, e)| opposite(h) != Some(e))
                .collect(),
        ),
    ];
    let mut rng = Rng::new(2024);
    for size in 0..=40 {
        for _ in 0..per_size {
            let mut pool = all.clone();
            rng.shuffle(&mut pool);
            pool.truncate(size);
            subsets.push((format!("random {size}"), pool));
        }
    }
    let options = SolveOptions::default();
    let mut bands: Vec<(usize, Vec<Duration>)> = (0..=8).map(|b| (b * 5, Vec::new())).collect();
    let mut slowest = (Duration::ZERO, String::new(), Vec::new());
    let mut slowest_wall = Duration::ZERO;
    let mut most_steps = 0;
    let mut named = Vec::new();
    let started = Instant::now();
    for (name, shots) in &subsets {
        let ev = Evidence {
            size: 10,
            mirrors: 5,
            sides: Sides::All,
            shots: shots.clone(),
            ..Evidence::default()
        };
        let mut elapsed = Duration::MAX;
        let mut solution = solve(&ev, &options);
        for _ in 0..RUNS {
            let t = Instant::now();
            solution = solve(&ev, &options);
            let wall = t.elapsed();
            slowest_wall = slowest_wall.max(wall);
            elapsed = elapsed.min(wall);
        }
        let Ok(solution) = solution else {
            println!("{name}: error {solution:?}");
            continue;
        };
        most_steps = most_steps.max(solution.steps);
        if !name.starts_with("random") {
            named.push((
                name.clone(),
                elapsed,
                solution
                    .layouts
                    .as_ref()
                    .map_or_else(|| "not counted".to_string(), ToString::to_string),
                solution.method,
            ));
        }
        bands[shots.len().div_ceil(5).min(8)].1.push(elapsed);
        if elapsed > slowest.0 {
            slowest = (elapsed, name.clone(), shots.clone());
        }
    }
    println!(
        "Baffle solver, fixed game (10x10, 5 mirrors), {} subsets, {per_size} random per size",
        subsets.len()
    );
    for (name, t, layouts, method) in named {
        println!(
            "  {name:<16} {:>9.3} ms  layouts {layouts}  {method:?}",
            ms(t)
        );
    }
    println!("  best of {RUNS} runs per subset:");
    println!("  shots      count   slowest ms  median ms    mean ms");
    for (i, (_, times)) in bands.iter_mut().enumerate() {
        if times.is_empty() {
            continue;
        }
        times.sort();
        let lo = if i == 0 { 0 } else { 5 * i - 4 };
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        println!(
            "  {:>2}..={:<2} {:>9} {:>12.3} {:>10.3} {:>10.3}",
            lo,
            5 * i,
            times.len(),
            ms(times[times.len() - 1]),
            ms(times[times.len() / 2]),
            ms(mean)
        );
    }
    println!(
        "  slowest: {} ({:.3} ms): {:?}",
        slowest.1,
        ms(slowest.0),
        slowest.2
    );
    println!("  slowest single run of all: {:.3} ms", ms(slowest_wall));
    println!("  most search steps of any solve: {most_steps}");
    println!("  total {:.2} s", started.elapsed().as_secs_f64());
}

/// Solves of each subset; the best time is kept.
const RUNS: usize = 3;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
