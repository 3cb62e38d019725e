//! `cargo bench -p baffle --bench bot_quality`: how good the bot is.
//!
//! 1. On 4 × 4 and 5 × 5 with 1 to 3 mirrors (beams from all sides), the
//!    optimal strategy's expected score, worked out exactly
//!    (`baffle::optimal`), and the bot's beside it.
//! 2. On 10 × 10 with 5 mirrors, the bot's mean score over `GAMES` random
//!    boxes (seeds 1 to `GAMES`) with its 95% confidence interval.
//!
//! 3. On 26 × 26 with 40 mirrors (beams from all sides), the bot's games
//!    on `BIG` random boxes (seeds 1 to
//!    `BIG`): each game's shots, wrong guesses (and how many of them were
//!    made on estimated odds rather than on layouts counted exactly, where
//!    no shot could tell the layouts apart) and score, their means, and the
//!    slowest move.
//!
//! `BAFFLE_BOT_GAMES` sets `GAMES` (default 2000; 0 skips part 2);
//! `BAFFLE_OPTIMAL_MAX` limits the layouts of the boxes weighed exactly
//! (default 20000: all; 0 skips part 1); `BAFFLE_BOT_BIG` sets `BIG`
//! (default 30; 0 skips part 3).

use baffle::bot::{BotOptions, Reason, decide, play};
use baffle::game::Event;
use baffle::optimal::expected_scores;
use baffle::solve::Advice;
use baffle::{Game, Setup, Sides};
use std::time::Duration;
use std::time::Instant;

fn main() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let games = env("BAFFLE_BOT_GAMES", 2000);
    let max = env("BAFFLE_OPTIMAL_MAX", 20_000);
    let options = BotOptions::default();
    println!("box    layouts  optimal      bot      gap   seconds");
    for (n, k) in [(4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3)] {
        let cells = (n * n) as u64;
        let layouts: u64 = (0..k).fold(1, |c, i| c * (cells - i) / (i + 1)) << k;
        if layouts > max {
            continue;
        }
        let t = Instant::now();
        match expected_scores(n as usize, k as usize, Sides::All, Some(&options)) {
            Ok(s) => {
                let bot = s.bot.unwrap_or(f64::NAN);
                println!(
                    "{n}x{n}/{k} {:>8} {:>8.4} {:>8.4} {:>8.4} {:>9.1}",
                    s.layouts,
                    s.optimal,
                    bot,
                    bot - s.optimal,
                    t.elapsed().as_secs_f64()
                );
            }
            Err(e) => println!("{n}x{n}/{k}: {e}"),
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    if games > 0 {
        small_games(games, threads, &options);
    }
    let big = env("BAFFLE_BOT_BIG", 30);
    if big > 0 {
        big_games(big, threads, &options);
    }
}

/// One game of part 3.
struct Row {
    seed: u64,
    shots: usize,
    wrong: usize,
    /// Wrong guesses made on estimated odds (the rest were made on the
    /// layouts counted exactly, when no shot could tell them apart).
    wrong_estimated: usize,
    total: usize,
    slowest: Duration,
}

/// Whether the bot chose a move on estimated odds (a sample, or no
/// solver answer at all) rather than on the layouts counted.
fn on_estimated_odds(reason: &Reason) -> bool {
    match reason {
        Reason::Advice { advice } => matches!(
            advice,
            Advice::SampleUndivided { .. } | Advice::SampledBestShot { .. }
        ),
        Reason::Likely { estimated, .. } => *estimated,
        Reason::Explore | Reason::Explains { .. } | Reason::Untried => true,
    }
}

/// Part 3: the bot on 26 × 26 boxes with 40 mirrors, seeds 1 to `games`.
fn big_games(games: u64, threads: u64, options: &BotOptions) {
    let t = Instant::now();
    let mut rows: Vec<Row> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    (1 + w..=games)
                        .step_by(threads as usize)
                        .map(|seed| {
                            let mut game =
                                Game::new(Setup::seeded(26, 40, Sides::All, seed)).expect("a box");
                            let mut slowest = Duration::ZERO;
                            let mut wrong_estimated = 0;
                            while !game.status().is_over() {
                                let m = Instant::now();
                                let d = decide(&game.view(), options).expect("a move");
                                slowest = slowest.max(m.elapsed());
                                let events = game.apply(d.mv).expect("a legal move");
                                let wrong = events
                                    .iter()
                                    .any(|e| matches!(e, Event::Guess { right: false, .. }));
                                if wrong && on_estimated_odds(&d.reason) {
                                    wrong_estimated += 1;
                                }
                            }
                            let score = game.score();
                            Row {
                                seed,
                                shots: score.shots,
                                wrong: score.wrong_guesses,
                                wrong_estimated,
                                total: score.total,
                                slowest,
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    });
    rows.sort_by_key(|r| r.seed);
    println!(
        "26x26/40, all sides: seed, shots, wrong guesses (on estimated odds), score, slowest move"
    );
    for r in &rows {
        println!(
            "  {:>3} {:>4} {:>5} ({:>3}) {:>6} {:>7.0} ms",
            r.seed,
            r.shots,
            r.wrong,
            r.wrong_estimated,
            r.total,
            r.slowest.as_secs_f64() * 1000.0
        );
    }
    let n = rows.len().max(1) as f64;
    let mean = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>() as f64 / n;
    let slowest = rows.iter().map(|r| r.slowest).max().unwrap_or_default();
    println!(
        "26x26/40, {games} random boxes: mean score {:.1} (shots {:.1}, wrong guesses {:.1}, {:.1} of them on estimated odds); slowest move {:.0} ms; {:.1} s on {threads} threads",
        mean(|r| r.total),
        mean(|r| r.shots),
        mean(|r| r.wrong),
        mean(|r| r.wrong_estimated),
        slowest.as_secs_f64() * 1000.0,
        t.elapsed().as_secs_f64()
    );
}

/// Part 2: the bot's mean score on 10 × 10 boxes with 5 mirrors.
fn small_games(games: u64, threads: u64, options: &BotOptions) {
    let t = Instant::now();
    let options = *options;
    let scores: Vec<usize> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    (1 + w..=games)
                        .step_by(threads as usize)
                        .map(|seed| {
                            let mut game =
                                Game::new(Setup::seeded(10, 5, Sides::All, seed)).expect("a box");
                            play(&mut game, &options, |_, _| {}).expect("a finished game");
                            game.score().total
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    });
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<usize>() as f64 / n;
    let var = scores
        .iter()
        .map(|&x| (x as f64 - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    println!(
        "10x10/5, {games} random boxes: mean score {mean:.3}, 95% CI {:.3} to {:.3} (sd {:.3}), {:.1} s on {threads} threads",
        mean - half,
        mean + half,
        var.sqrt(),
        t.elapsed().as_secs_f64()
    );
}
