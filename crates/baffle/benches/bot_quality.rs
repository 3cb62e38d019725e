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
//!    Then, for its guesses on estimated odds, the chance it stated by
//!    tenth beside how often such guesses were right (the in-play map's
//!    check: [`baffle::solve::calibrate::likeliest`]).
//!
//! `BAFFLE_BOT_GAMES` sets `GAMES` (default 2000; 0 skips part 2);
//! `BAFFLE_OPTIMAL_MAX` limits the layouts of the boxes weighed exactly
//! (default 20000: all; 0 skips part 1); `BAFFLE_BOT_BIG` sets `BIG`
//! (default 30; 0 skips part 3); `BAFFLE_BOT_FIRST_SEED` the first seed
//! of part 3 (default 1) and `BAFFLE_BOT_MIRRORS` its mirror counts
//! (default `40`; a comma-separated list plays `BIG` boxes of each).
//! `BAFFLE_BOT_FIT=path` fits the in-play map instead: part 3 is played
//! with guesses' chances stated through the cells' map alone, and the
//! isotonic regression of how often they were right is written to `path`
//! (`crates/baffle/src/solve/calibrate/likeliest.rs`; then `cargo fmt`).

use baffle::bot::{BotOptions, Reason, decide, play};
use baffle::game::Event;
use baffle::optimal::expected_scores;
use baffle::solve::Advice;
use baffle::solve::calibrate::{GROUPS, Guessed, group_of, isotonic};
use baffle::{Game, Setup, Sides};
use std::collections::HashMap;
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
    let first = env("BAFFLE_BOT_FIRST_SEED", 1);
    let mirrors: Vec<usize> = std::env::var("BAFFLE_BOT_MIRRORS")
        .unwrap_or_else(|_| "40".into())
        .split(',')
        .filter_map(|m| m.trim().parse().ok())
        .collect();
    let fit = std::env::var("BAFFLE_BOT_FIT").ok();
    let options = BotOptions {
        likeliest_in_play: fit.is_none(),
        ..options
    };
    let mut stated = Vec::new();
    if big > 0 {
        for &k in &mirrors {
            let rows = big_games(first..first + big, k, threads, &options);
            stated.extend(rows.iter().flat_map(|r| {
                r.stated
                    .iter()
                    .map(move |&(chance, right, group, guessed)| Case {
                        chance,
                        right,
                        group,
                        guessed,
                        game: r.seed * 1000 + k as u64,
                    })
            }));
        }
        let all: Vec<&Case> = stated.iter().collect();
        in_play_reliability("every guess", &all);
        for (guessed, what) in [
            (Guessed::EverySample, "a mirror every sample holds"),
            (Guessed::Likeliest, "the likeliest mirror"),
        ] {
            let kind: Vec<&Case> = stated.iter().filter(|c| c.guessed == guessed).collect();
            in_play_reliability(what, &kind);
        }
    }
    if let Some(path) = fit {
        write_in_play_map(&path, &stated, first..first + big, &mirrors);
    }
}

/// A guess on estimated odds in part 3.
struct Case {
    /// The chance stated.
    chance: f64,
    /// Whether the guess was right.
    right: bool,
    /// The position's group ([`group_of`]).
    group: usize,
    /// Which kind of guess it was.
    guessed: Guessed,
    /// The game (its seed and mirror count).
    game: u64,
}

/// The isotonic regression of `cases`' outcomes on their chances.
fn fitted<'a>(cases: impl Iterator<Item = &'a Case>) -> Vec<(f64, f64)> {
    let cases: Vec<(f64, bool, u64)> = cases.map(|c| (c.chance, c.right, c.game)).collect();
    isotonic(&cases)
}

/// A map as Rust: `&[(x, y), ...]`.
fn points_text(points: &[(f64, f64)]) -> String {
    let points: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("({x:.4}, {y:.4})"))
        .collect();
    format!("&[{}]", points.join(", "))
}

/// Writes the in-play maps fitted on `stated`, for each kind of guess per
/// group and pooled, to `path`.
fn write_in_play_map(path: &str, stated: &[Case], seeds: std::ops::Range<u64>, mirrors: &[usize]) {
    let list: Vec<String> = mirrors.iter().map(ToString::to_string).collect();
    let mut text = format!(
        "//! The in-play maps (see [`super::likeliest`]), as fitted by the bot's\n\
         //! games on 26 × 26 with {} mirrors, seeds {} to {}, {} guesses on\n\
         //! estimated odds: `BAFFLE_BOT_GAMES=0 BAFFLE_OPTIMAL_MAX=0 \\\n\
         //! BAFFLE_BOT_BIG={} BAFFLE_BOT_FIRST_SEED={} BAFFLE_BOT_MIRRORS={} \\\n\
         //! BAFFLE_BOT_FIT=crates/baffle/src/solve/calibrate/likeliest.rs \\\n\
         //! cargo bench -p baffle --bench bot_quality` (then `cargo fmt`). A\n\
         //! group's map is empty when its guesses came from too few games or\n\
         //! were all pooled into one point (the pooled map then serves).\n\n\
         use super::GROUPS;\n",
        list.join(", "),
        seeds.start,
        seeds.end - 1,
        stated.len(),
        seeds.end - seeds.start,
        seeds.start,
        list.join(","),
    );
    for (guessed, name, what) in [
        (
            Guessed::Likeliest,
            "LIKELIEST",
            "the likeliest mirror where no shot told the samples apart",
        ),
        (
            Guessed::EverySample,
            "EVERY_SAMPLE",
            "a mirror every sampled layout holds",
        ),
    ] {
        let cases: Vec<&Case> = stated.iter().filter(|c| c.guessed == guessed).collect();
        let pooled = fitted(cases.iter().copied());
        // A group's map of one point would state one chance for every guess
        // of the group, whatever its stated chance: the pooled map instead.
        let groups: Vec<Vec<(f64, f64)>> = (0..GROUPS)
            .map(|g| fitted(cases.iter().copied().filter(|c| c.group == g)))
            .map(|map| if map.len() < 2 { Vec::new() } else { map })
            .collect();
        text.push_str(&format!(
            "\n/// Each group's points for {what}\n\
             /// (stated chance, observed frequency), both increasing.\n\
             pub const {name}: [&[(f64, f64)]; GROUPS] = [\n"
        ));
        for map in &groups {
            text.push_str(&format!("    {},\n", points_text(map)));
        }
        text.push_str(&format!(
            "];\n\n/// Every group's guesses of {what},\n\
             /// pooled, for a group without a map.\n\
             pub const {name}_POOLED: &[(f64, f64)] = {};\n",
            points_text(&pooled)
        ));
        println!(
            "in-play maps for {what}: {} guesses, {} groups and the pooled one",
            cases.len(),
            groups.iter().filter(|m| !m.is_empty()).count(),
        );
    }
    // A relative path is the workspace's (a bench runs in its crate).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, text).expect("the map written");
    std::fs::rename(&tmp, &path).expect("the map in place");
    println!("in-play maps written to {}", path.display());
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
    /// Each guess made on estimated odds: the chance the bot stated,
    /// whether it was right, its position's group and the kind of guess.
    stated: Vec<(f64, bool, usize, Guessed)>,
}

/// The chance the bot stated for a guess made on estimated odds (through
/// the calibration map, as a hint states it) and the kind of guess, if the
/// move was such a guess.
fn stated_estimated_chance(reason: &Reason) -> Option<(f64, Guessed)> {
    match reason {
        Reason::Likely {
            chance,
            estimated: true,
        } => Some((*chance, Guessed::EverySample)),
        Reason::Advice {
            advice:
                Advice::SampleUndivided { chance, .. }
                | Advice::NothingToLearn {
                    chance,
                    estimated: true,
                    ..
                },
        } => Some((*chance, Guessed::Likeliest)),
        _ => None,
    }
}

/// Whether the bot chose a move on estimated odds (a sample, or no
/// solver answer at all) rather than on the layouts counted.
fn on_estimated_odds(reason: &Reason) -> bool {
    match reason {
        Reason::Advice { advice } => matches!(
            advice,
            Advice::SampleUndivided { .. }
                | Advice::SampledBestShot { .. }
                | Advice::NothingToLearn {
                    estimated: true,
                    ..
                }
        ),
        Reason::Likely { estimated, .. } => *estimated,
        Reason::Explore | Reason::Explains { .. } | Reason::Untried => true,
    }
}

/// Part 3: the bot on 26 × 26 boxes with `k` mirrors, `seeds`.
fn big_games(
    seeds: std::ops::Range<u64>,
    k: usize,
    threads: u64,
    options: &BotOptions,
) -> Vec<Row> {
    let games = seeds.end - seeds.start;
    let t = Instant::now();
    let mut rows: Vec<Row> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    (seeds.start + w..seeds.end)
                        .step_by(threads as usize)
                        .map(|seed| {
                            let mut game =
                                Game::new(Setup::seeded(26, k, Sides::All, seed)).expect("a box");
                            let mut slowest = Duration::ZERO;
                            let mut wrong_estimated = 0;
                            let mut stated = Vec::new();
                            while !game.status().is_over() {
                                let m = Instant::now();
                                let view = game.view();
                                let d = decide(&view, options).expect("a move");
                                slowest = slowest.max(m.elapsed());
                                let events = game.apply(d.mv).expect("a legal move");
                                let wrong = events
                                    .iter()
                                    .any(|e| matches!(e, Event::Guess { right: false, .. }));
                                if wrong && on_estimated_odds(&d.reason) {
                                    wrong_estimated += 1;
                                }
                                if let Some((chance, guessed)) = stated_estimated_chance(&d.reason)
                                {
                                    stated.push((
                                        chance,
                                        !wrong,
                                        group_of(&view.evidence()),
                                        guessed,
                                    ));
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
                                stated,
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
        "26x26/{k}, all sides: seed, shots, wrong guesses (on estimated odds), score, slowest move"
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
        "26x26/{k}, {games} random boxes: mean score {:.1} (shots {:.1}, wrong guesses {:.1}, {:.1} of them on estimated odds); slowest move {:.0} ms; {:.1} s on {threads} threads",
        mean(|r| r.total),
        mean(|r| r.shots),
        mean(|r| r.wrong),
        mean(|r| r.wrong_estimated),
        slowest.as_secs_f64() * 1000.0,
        t.elapsed().as_secs_f64()
    );
    rows
}

/// The chances the bot stated for its guesses on estimated odds, by tenth,
/// beside how often such guesses were right: the calibration where the
/// chances are used (the likeliest mirror, on the positions the bot's own
/// play reaches), not on random positions as the calibration bench checks.
/// Beside each tenth, right minus stated with its 95% interval, clustered
/// by game (a game's guesses go right or wrong together, so its games,
/// not its guesses, are the sample).
fn in_play_reliability(what: &str, stated: &[&Case]) {
    let mut tenths: Vec<Vec<&Case>> = vec![Vec::new(); 10];
    for &case in stated {
        tenths[((case.chance * 10.0) as usize).min(9)].push(case);
    }
    println!(
        "guesses on estimated odds ({what}): stated chance, guesses, games, mean stated, right, right - stated (95%, by game)"
    );
    for (i, cases) in tenths.iter().enumerate() {
        if cases.is_empty() {
            continue;
        }
        let n = cases.len() as f64;
        let stated_mean = cases.iter().map(|c| c.chance).sum::<f64>() / n;
        let right = cases.iter().filter(|c| c.right).count() as f64 / n;
        let gap = right - stated_mean;
        // Each game's summed gap, less its guesses' share of the mean.
        let mut games: HashMap<u64, (f64, f64)> = HashMap::new();
        for c in cases {
            let g = games.entry(c.game).or_default();
            g.0 += f64::from(u8::from(c.right)) - c.chance;
            g.1 += 1.0;
        }
        let clusters = games.len() as f64;
        let spread = if clusters > 1.0 {
            let sum: f64 = games
                .values()
                .map(|&(sum, count)| (sum - count * gap).powi(2))
                .sum();
            1.96 * (sum * clusters / (clusters - 1.0)).sqrt() / n
        } else {
            f64::NAN
        };
        println!(
            "  {:>3}-{:>3}% {:>5} {:>4} {:>7.3} {:>7.3} {:>+7.3} ± {:.3}",
            i * 10,
            i * 10 + 10,
            cases.len(),
            games.len(),
            stated_mean,
            right,
            gap,
            spread
        );
    }
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
