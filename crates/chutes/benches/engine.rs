//! Rolls per second of the game engine on the classic board: whole games
//! played roll by roll through `Game::play` with seeded dice, and the bare
//! `Rules::step`. Run with `cargo bench -p chutes --bench engine`.

use chutes::{Board, Game, Rules};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabletop::{Rng, SeededDice};

/// Runs `f` repeatedly for about `budget`, returning (calls, seconds) of the
/// best of three rounds.
fn measure(budget: Duration, mut f: impl FnMut() -> u64) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..3 {
        let start = Instant::now();
        let mut work = 0u64;
        while start.elapsed() < budget {
            work += f();
        }
        best = best.max(work as f64 / start.elapsed().as_secs_f64());
    }
    best
}

/// Builds and runs `../shared/bench/seed_sim.c` (the assignments' own style of
/// simulator) when it and gcc are present, for a same-run baseline.
fn seed_sim_baseline() {
    // `../shared` beside the checkout: look in every ancestor directory.
    let found = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/bench/seed_sim.c"))
        .find(|p| p.exists());
    let Some(source) = found else {
        println!("baseline: shared/bench/seed_sim.c not found; skipped");
        return;
    };
    let source = source.display().to_string();
    let exe = std::env::temp_dir().join("parlor-seed-sim");
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .is_ok_and(|s| s.success());
    if !built {
        println!("baseline: gcc could not build {source}; skipped");
        return;
    }
    match std::process::Command::new(&exe).arg("2000000").output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            let games_per_s: f64 = text
                .split_whitespace()
                .find_map(|w| w.strip_prefix("games_per_s="))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0);
            println!(
                "baseline/seed_sim.c classic, 1 player:   {:>7.1} M rolls/s ({})",
                games_per_s * 39.2251 / 1e6,
                text.trim()
            );
        }
        Err(e) => println!("baseline: could not run seed_sim: {e}"),
    }
}

fn main() {
    seed_sim_baseline();
    let board = Arc::new(Board::classic());
    let rules = Rules::default();
    let budget = Duration::from_millis(700);

    for players in [1, 4] {
        let mut dice = SeededDice::new(7);
        let rolls_per_s = measure(budget, || {
            let mut game = Game::new(board.clone(), rules, players).expect("valid game");
            while game.winner().is_none() {
                black_box(game.play(&mut dice).expect("seeded dice never fail"));
            }
            u64::from(game.rolls())
        });
        println!(
            "engine/game_play    classic, {players} player(s): {:>7.1} M rolls/s",
            rolls_per_s / 1e6
        );
    }

    let mut rng = Rng::new(11);
    let steps_per_s = measure(budget, || {
        let mut square = 0;
        for _ in 0..10_000 {
            let step = rules.step(&board, square, rng.roll(6));
            square = if step.to == 100 { 0 } else { step.to };
        }
        black_box(square);
        10_000
    });
    println!(
        "engine/rules_step   classic:              {:>7.1} M rolls/s",
        steps_per_s / 1e6
    );
}
