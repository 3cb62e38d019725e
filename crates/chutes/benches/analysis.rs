//! Benchmarks of the Chutes & Ladders analysis (plain `main`, no harness):
//! Monte Carlo games/s on 1 and 2 threads beside the C baseline written as the assignments ask
//! (`../shared/bench/seed_sim.c`, compiled and run here when gcc is found),
//! the Markov distribution, exact shortest games, minimum throws and the
//! exact fraction, on the classic board and on a 100,000-square board.
//!
//! Run with `cargo bench -p chutes --bench analysis`; `-- --quick` for a
//! short run, `-- chances` for the live chances alone. Record results in docs/performance.md.

use chutes::analysis::markov::{self, MarkovOptions};
use chutes::analysis::min_throws::min_throws;
use chutes::analysis::search::{SearchOptions, search};
use chutes::analysis::shortest::{Constraint, ShortestGames};
use chutes::analysis::simulate::{SimOptions, simulate};
use chutes::analysis::{chances, exact};
use chutes::{Board, BoardSpec, Jump, Rules};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Best of `repeat` runs (after one warm-up), so a busy machine's noise
/// counts least.
fn best<T>(repeat: u32, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut out = f();
    let mut best = Duration::MAX;
    for _ in 0..repeat {
        let start = Instant::now();
        out = f();
        best = best.min(start.elapsed());
    }
    (best, out)
}

fn line(label: &str, time: Duration, note: &str) {
    println!("{label:<58} {:>12.3?}  {note}", time);
}

/// The classic board's jumps repeated in every block of 100 squares:
/// 100,000 squares and 19,000 jumps.
fn tiled(blocks: u32) -> Board {
    let classic = Board::classic();
    let jumps = (0..blocks)
        .flat_map(|b| {
            classic
                .jumps()
                .iter()
                .map(move |j| Jump::new(j.from + 100 * b, j.to + 100 * b))
        })
        .collect();
    let spec = BoardSpec {
        name: Some(format!("tiled classic × {blocks}")),
        size: 100 * blocks,
        start: 0,
        jumps,
        geometry: None,
    };
    Board::new(spec).unwrap_or_else(|e| panic!("tiled board: {e}"))
}

/// Compiles and runs seed_sim.c for `games` games; its games/s.
fn seed_sim(games: u64) -> Option<f64> {
    // `../shared` beside the checkout: look in every ancestor directory.
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/bench/seed_sim.c"))
        .find(|p| p.exists())?;
    let exe = std::env::temp_dir().join(format!("parlor_seed_sim_{}", std::process::id()));
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .ok()?;
    if !built.success() {
        return None;
    }
    let out = Command::new(&exe).arg(games.to_string()).output().ok()?;
    let _ = std::fs::remove_file(&exe);
    let text = String::from_utf8_lossy(&out.stdout);
    let rate = text
        .split_whitespace()
        .find_map(|w| w.strip_prefix("games_per_s="))?
        .parse()
        .ok()?;
    println!("  seed_sim.c: {}", text.trim());
    Some(rate)
}

fn games_per_second(board: &Board, rules: &Rules, games: u64, threads: usize) -> f64 {
    let options = SimOptions {
        games,
        players: 1,
        seed: 1,
        threads,
    };
    let start = Instant::now();
    let result = simulate(board, rules, &options, &|_| {});
    let rate = games as f64 / start.elapsed().as_secs_f64();
    if let Ok(r) = result {
        println!(
            "  simulate, {threads} thread(s): {:.2}M games/s, mean {:.4}",
            rate / 1e6,
            r.mean().unwrap_or(f64::NAN)
        );
    }
    rate
}

/// Each player's chance to win after every move of a 4-player game, on the
/// classic board and a 1,000-square one (`-- chances` runs only this).
fn live_chances(classic: &Board, rules: &Rules) {
    println!("Each player's chance to win, after every move of a game (4 players):");
    for (name, board) in [
        ("classic board", classic.clone()),
        ("1,000 squares", tiled(10)),
    ] {
        let chain = chutes::analysis::Chain::new(&board, rules);
        let spreader = chances::Spreader::new(&chain, &chain.reach());
        let options = chances::ChancesOptions::default();
        // The positions of one random game (seed 1): the chances after each roll.
        let mut positions = Vec::new();
        let mut squares = vec![0u32; 4];
        let mut rng = tabletop::Rng::new(1);
        for turn in 0..200usize {
            let seat = turn % 4;
            let to = chain.step(squares[seat], rng.roll(6)).to;
            if to >= chain.finish() {
                break;
            }
            squares[seat] = to;
            positions.push(chances::Position {
                squares: squares.clone(),
                to_move: ((seat + 1) % 4 + 1) as u8,
            });
        }
        // As a match's view does: only the token that moved has its
        // remaining rolls worked out again.
        let (t, _) = best(3, || {
            let mut remaining: Vec<chances::Remaining> = Vec::new();
            let mut squares: Vec<u32> = Vec::new();
            for p in &positions {
                for (i, &square) in p.squares.iter().enumerate() {
                    if squares.get(i) != Some(&square) {
                        let r = spreader
                            .remaining(square, &options)
                            .unwrap_or_else(|e| panic!("{e}"));
                        if i < remaining.len() {
                            remaining[i] = r;
                            squares[i] = square;
                        } else {
                            remaining.push(r);
                            squares.push(square);
                        }
                    }
                }
                let refs: Vec<&chances::Remaining> = remaining.iter().collect();
                let _ = spreader.combine(p, &refs, options.tail);
            }
        });
        let per_move = t / positions.len().max(1) as u32;
        line(
            &format!("chances to 1e-10, {name}, per move"),
            per_move,
            &format!("mean of {} positions of one game", positions.len()),
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "chances") {
        live_chances(&Board::classic(), &Rules::default());
        return;
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let classic = Board::classic();
    let rules = Rules::default();

    println!("Monte Carlo, classic board, one player (best of 3 runs each):");
    let games = if quick { 2_000_000 } else { 20_000_000 };
    let mut c = Vec::new();
    let mut one = Vec::new();
    let mut two = Vec::new();
    for _ in 0..3 {
        // Interleaved, so each is measured under the same load.
        if let Some(rate) = seed_sim(games / 2) {
            c.push(rate);
        }
        one.push(games_per_second(&classic, &rules, games, 1));
        two.push(games_per_second(&classic, &rules, games, 2));
    }
    let top = |v: &[f64]| v.iter().copied().fold(f64::NAN, f64::max);
    let (c, one, two) = (top(&c), top(&one), top(&two));
    println!("  best: seed_sim.c {:.2}M games/s", c / 1e6);
    println!(
        "  best: parlor 1 thread {:.2}M games/s ({:.1}× seed_sim.c), 2 threads {:.2}M games/s ({:.2}× 1 thread)",
        one / 1e6,
        one / c,
        two / 1e6,
        two / one
    );
    let options = SearchOptions {
        games,
        seed: 1,
        chutes: Some(2),
        all_shortest: true,
        threads: 1,
    };
    let (t, _) = best(1, || search(&classic, &rules, &options, &|_| {}));
    println!(
        "  search --chutes 2 --all-shortest, 1 thread: {:.2}M games/s",
        games as f64 / t.as_secs_f64() / 1e6
    );

    live_chances(&classic, &rules);

    println!("\nClassic board:");
    let (t, d) = best(200, || {
        markov::distribution(&classic, &rules, markov::DEFAULT_TAIL)
    });
    let mean = d.ok().and_then(|d| d.mean).unwrap_or(f64::NAN);
    line(
        "markov distribution to 1e-12 (mean, percentiles)",
        t,
        &format!("mean {mean:.6}"),
    );
    let (t, _) = best(200, || {
        markov::analyze(&classic, &rules, &MarkovOptions::default())
    });
    line("markov everything (landings, visits, jumps)", t, "");
    let (t, s) = best(200, || {
        ShortestGames::new(&classic, &rules, Constraint::NONE)
    });
    let note = s
        .map(|s| format!("{:?} rolls, {} sequences", s.rolls(), s.sequences()))
        .unwrap_or_default();
    line("exact shortest game (BFS + sequence count)", t, &note);
    let two_chutes = Constraint {
        chutes: Some(2),
        ladders: None,
    };
    let (t, _) = best(200, || ShortestGames::new(&classic, &rules, two_chutes));
    line("exact shortest game, exactly 2 chutes", t, "");
    let (t, r) = best(200, || {
        ShortestGames::new(&classic, &rules, Constraint::NONE).and_then(|s| s.route_count())
    });
    line(
        "exact shortest + distinct routes",
        t,
        &format!("{} routes", r.map(|r| r.to_string()).unwrap_or_default()),
    );
    let (t, _) = best(200, || min_throws(&classic, &rules));
    line(
        "minimum throws (the minimum-throws assignment's board)",
        t,
        "",
    );
    let (t, m) = best(5, || exact::moments(&classic, &rules));
    let digits = m.map(|m| m.mean.denom().to_string().len()).unwrap_or(0);
    line(
        "exact mean and variance as fractions",
        t,
        &format!("denominator of the mean: {digits} digits"),
    );

    let blocks = 1000;
    let big = tiled(blocks);
    println!(
        "\n{} ({} squares, {} jumps):",
        big.name().unwrap_or(""),
        big.size(),
        big.jumps().len()
    );
    let repeat = if quick { 1 } else { 3 };
    let (t, d) = best(repeat, || {
        markov::distribution(&big, &rules, markov::DEFAULT_TAIL)
    });
    let note = match d {
        Ok(d) => format!(
            "mean {:.3}, {} rolls tabulated",
            d.mean.unwrap_or(f64::NAN),
            d.probabilities.len()
        ),
        Err(e) => e.to_string(),
    };
    line("markov distribution to 1e-12", t, &note);
    let (t, s) = best(repeat, || {
        ShortestGames::new(&big, &rules, Constraint::NONE)
    });
    let note = s
        .map(|s| {
            format!(
                "{:?} rolls, a {}-digit count of sequences",
                s.rolls(),
                s.sequences().to_string().len()
            )
        })
        .unwrap_or_default();
    line("exact shortest game (BFS + sequence count)", t, &note);
    let (t, _) = best(repeat, || ShortestGames::new(&big, &rules, two_chutes));
    line("exact shortest game, exactly 2 chutes", t, "");
    let (t, _) = best(repeat, || min_throws(&big, &rules));
    line("minimum throws", t, "");
    let sim_games = if quick { 2_000 } else { 20_000 };
    let options = SimOptions {
        games: sim_games,
        players: 1,
        seed: 1,
        threads: 1,
    };
    let (t, r) = best(1, || simulate(&big, &rules, &options, &|_| {}));
    let rolls = r.map(|r| r.total_rolls).unwrap_or(0);
    line(
        &format!("simulate {sim_games} games, 1 thread"),
        t,
        &format!("{:.0}M rolls/s", rolls as f64 / t.as_secs_f64() / 1e6),
    );
    let empty = Board::empty(100_000);
    let (t, d) = best(repeat, || {
        markov::distribution(&empty, &rules, markov::DEFAULT_TAIL)
    });
    let mean = d.ok().and_then(|d| d.mean).unwrap_or(f64::NAN);
    line(
        "empty 100,000-square board: markov distribution",
        t,
        &format!("mean {mean:.3}"),
    );

    design_boards(quick);
}

/// The designer on the example (100 squares, 8 chutes and 8
/// ladders, mean 40 ± 0.1, four seats within 0.012 of 1/4) for seeds 1 to
/// 10 (3 when quick), one core; and the classic board's sensitivity table.
fn design_boards(quick: bool) {
    use chutes::analysis::design::{self, DesignOptions, DesignShape, DesignTargets};
    use chutes::analysis::sensitivity::sensitivity;
    use tabletop::Budget;
    let rules = Rules::default();
    let shape = DesignShape::new(100);
    let targets = DesignTargets {
        mean: Some(chutes::analysis::goal::Goal::near(40.0, 0.1)),
        players: 4,
        fair: Some(0.012),
        ..DesignTargets::default()
    };
    let seeds = if quick { 3 } else { 10 };
    let mut slowest = Duration::ZERO;
    let mut met = 0;
    let mut boards = 0;
    let start = Instant::now();
    for seed in 1..=seeds {
        let options = DesignOptions {
            seed,
            evaluations: design::DEFAULT_EVALUATIONS,
        };
        let t = Instant::now();
        let found = design::design(
            &shape,
            &rules,
            &targets,
            options,
            &Budget::unlimited(),
            &mut |_| {},
        );
        slowest = slowest.max(t.elapsed());
        if let Ok(d) = found {
            met += usize::from(d.met());
            boards += d.evaluations;
        }
    }
    let total = start.elapsed();
    line(
        &format!("design: mean 40, 4 fair seats, seeds 1..={seeds} (slowest)"),
        slowest,
        &format!(
            "{met}/{seeds} met, {boards} boards judged in {total:.2?} ({:.0} boards/s)",
            boards as f64 / total.as_secs_f64()
        ),
    );
    let classic = Board::classic();
    let (t, table) = best(3, || {
        sensitivity(&classic, &rules, 4, 10, &Budget::unlimited())
    });
    let edits = table
        .map(|t| t.jumps.len() * 25 + t.squares.len() * 2)
        .unwrap_or(0);
    line(
        "sensitivity table, classic board, 4 players",
        t,
        &format!("{edits} edited boards"),
    );
}
