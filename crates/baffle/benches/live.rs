//! `cargo bench -p baffle --bench live`: what the count of layouts left
//! adds to a move's answer — the move played and the mover's view built,
//! without the count (the view alone) and with it (worked out within its
//! budget, the memo cold as after each new move) — on 8 × 8 and 26 × 26
//! boxes.
//!
//! Each box (seeds 1 to `BOXES`) is played by `SHOTS` shots into a seeded
//! shuffle of its holes, then a guess of each of its first mirrors' cells
//! (a wrong mirror, then the right one); every move timed. The table
//! prints the median, the 90th percentile and the slowest move, each
//! way, and how many views had an exact count. `BAFFLE_LIVE_BOXES` sets
//! `BOXES` (default 3).

use baffle::{Mirror, Move, Race, Setup, Sides};
use std::time::{Duration, Instant};
use tabletop::Rng;

const SHOTS: usize = 30;

/// The moves of one game on `race`'s box: shots into a shuffle of its
/// holes, then guesses at its mirrors (each wrong first).
fn moves(race: &Race, seed: u64) -> Vec<Move> {
    let game = race.board();
    let mut holes: Vec<usize> = game.view().shootable;
    let mut rng = Rng::new(seed);
    for i in (1..holes.len()).rev() {
        holes.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut out: Vec<Move> = holes
        .into_iter()
        .take(SHOTS)
        .map(|hole| Move::Shoot { hole })
        .collect();
    for p in game.layout().mirrors().take(3) {
        out.push(Move::Guess {
            cell: p.cell,
            mirror: match p.mirror {
                Mirror::Slash => Mirror::Backslash,
                Mirror::Backslash => Mirror::Slash,
            },
        });
        out.push(Move::Guess {
            cell: p.cell,
            mirror: p.mirror,
        });
    }
    out
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let boxes: u64 = std::env::var("BAFFLE_LIVE_BOXES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    println!("A move's answer (the move and the mover's view), {boxes} boxes each, ms:");
    println!(
        "{:<18} {:>6}  {:>22}  {:>22}  exact counts",
        "box", "moves", "view alone p50/p90/max", "with count p50/p90/max"
    );
    let mut slowest = Duration::ZERO;
    for (n, k) in [(8, 5), (26, 5), (26, 40)] {
        let mut alone = Vec::new();
        let mut counted = Vec::new();
        let (mut exact, mut views) = (0, 0);
        for seed in 1..=boxes {
            let setup = Setup::seeded(n, k, Sides::All, seed);
            let start = Race::new(setup, 1).expect("a legal box");
            let plan = moves(&start, seed);
            for with_count in [false, true] {
                let mut race = start.clone();
                race.set_count_budgets(baffle::live::LIVE_BUDGET, baffle::live::HISTORY_BUDGET);
                for mv in &plan {
                    let t = Instant::now();
                    if race.apply(*mv).is_err() {
                        continue;
                    }
                    let view = if with_count {
                        race.view_with_count(Some(1))
                    } else {
                        race.view(Some(1))
                    };
                    let took = t.elapsed();
                    if with_count {
                        counted.push(took);
                        views += 1;
                        exact += usize::from(
                            view.own
                                .live
                                .as_ref()
                                .is_some_and(|l| l.layouts.exact().is_some()),
                        );
                    } else {
                        alone.push(took);
                    }
                    std::hint::black_box(view);
                }
            }
        }
        alone.sort();
        counted.sort();
        slowest = slowest.max(counted.last().copied().unwrap_or_default());
        let three = |v: &[Duration]| {
            format!(
                "{:.3} / {:.3} / {:.1}",
                ms(quantile(v, 0.5)),
                ms(quantile(v, 0.9)),
                ms(*v.last().unwrap_or(&Duration::ZERO))
            )
        };
        println!(
            "{:<18} {:>6}  {:>22}  {:>22}  {exact} of {views}",
            format!("{n} × {n}, {k} mirrors"),
            counted.len(),
            three(&alone),
            three(&counted)
        );
    }
    println!("slowest move with the count: {:.1} ms", ms(slowest));
}
