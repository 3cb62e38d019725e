//! `cargo bench -p baffle --bench calibration`: whether the solver's stated
//! chances mean what they say, and whether its proven cells are right.
//!
//! For every size from `BAFFLE_CALIB_FIRST` to `BAFFLE_CALIB_LAST` (4 and
//! 26), `BAFFLE_CALIB_BOXES` random boxes (default 12) with a random
//! mirror count (1 to `n²/4`) and a random subset of their own shots, one
//! hint (the default options). For every cell and each content (empty,
//! `/`, `\`) the stated chance and whether the true box has it: the
//! reliability table by decile of the stated chance (cases, mean stated,
//! observed frequency, their gap), the Brier score (mean squared gap
//! between chance and truth, over cells, the three contents summed), and
//! the proven cells that are wrong (must be 0). Counted answers (exact
//! shares) and estimated ones are tallied apart; the estimated cells not
//! proven are tallied again on their own. `BAFFLE_CALIB_PROOF_CONFLICTS`
//! sets the SAT proofs' conflicts (0: none).

use baffle::solve::Method;
use baffle::{Evidence, Layout, Mirror, Size, SolveOptions, solve};
use std::time::Instant;
use tabletop::Rng;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Stated chances and outcomes, by decile.
#[derive(Default, Clone)]
struct Tally {
    cases: [u64; 10],
    stated: [f64; 10],
    true_: [u64; 10],
    brier: f64,
    cells: u64,
    proven: u64,
    wrong_proven: u64,
    answers: u64,
    max_ms: f64,
}

impl Tally {
    fn add(&mut self, chance: f64, truth: bool) {
        let d = ((chance * 10.0) as usize).min(9);
        self.cases[d] += 1;
        self.stated[d] += chance;
        self.true_[d] += u64::from(truth);
    }

    fn merge(&mut self, o: &Self) {
        for d in 0..10 {
            self.cases[d] += o.cases[d];
            self.stated[d] += o.stated[d];
            self.true_[d] += o.true_[d];
        }
        self.brier += o.brier;
        self.cells += o.cells;
        self.proven += o.proven;
        self.wrong_proven += o.wrong_proven;
        self.answers += o.answers;
        self.max_ms = self.max_ms.max(o.max_ms);
    }

    fn print(&self, name: &str) {
        println!(
            "{name}: {} answers, {} cells, Brier {:.4} (per cell, three contents), proven {} of which wrong {}, slowest {:.0} ms",
            self.answers,
            self.cells,
            self.brier / self.cells.max(1) as f64,
            self.proven,
            self.wrong_proven,
            self.max_ms
        );
        println!("  decile       cases   stated  observed     gap");
        let mut worst: f64 = 0.0;
        for d in 0..10 {
            if self.cases[d] == 0 {
                continue;
            }
            let n = self.cases[d] as f64;
            let (s, o) = (self.stated[d] / n, self.true_[d] as f64 / n);
            worst = worst.max((s - o).abs());
            println!(
                "  {:.1}–{:.1} {:>11} {:>8.4} {:>9.4} {:>+7.4}",
                d as f64 / 10.0,
                (d + 1) as f64 / 10.0,
                self.cases[d],
                s,
                o,
                o - s
            );
        }
        println!("  largest gap {worst:.4}");
    }
}

/// [counted, estimated, estimated and not proven].
type Tallies = [Tally; 3];

fn one(n: usize, b: u64, out: &mut Tallies) {
    let size = Size::new(n).expect("a size");
    let seed = (n as u64) * 1_000_000 + 7_000 + b;
    let mut rng = Rng::new(seed);
    let k = 1 + rng.below((n * n / 4).max(1) as u64) as usize;
    let truth = Layout::seeded(size, k, seed).expect("a box");
    let mut holes: Vec<usize> = (0..4 * n).collect();
    rng.shuffle(&mut holes);
    let m = rng.below(4 * n as u64 + 1) as usize;
    let ev = Evidence {
        size: n,
        mirrors: k,
        shots: holes[..m]
            .iter()
            .map(|&h| (h, truth.trace(h).expect("a hole").exit))
            .collect(),
        ..Evidence::default()
    };
    let t = Instant::now();
    let mut options = SolveOptions::default();
    options.proof.conflicts = env("BAFFLE_CALIB_PROOF_CONFLICTS", options.proof.conflicts);
    let s = solve(&ev, &options).expect("an answer");
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let estimated = matches!(s.method, Method::Estimated { .. });
    let which = usize::from(estimated);
    out[which].answers += 1;
    out[which].max_ms = out[which].max_ms.max(ms);
    for odds in &s.cells {
        let t = truth.get(odds.cell);
        let contents = [
            (odds.empty, t.is_none()),
            (odds.slash, t == Some(Mirror::Slash)),
            (odds.backslash, t == Some(Mirror::Backslash)),
        ];
        let tallies: &[usize] = if !estimated {
            &[0]
        } else if odds.proven {
            &[1]
        } else {
            &[1, 2]
        };
        for &w in tallies {
            let tally = &mut out[w];
            tally.cells += 1;
            for (chance, truth) in contents {
                tally.add(chance, truth);
                tally.brier += (chance - f64::from(u8::from(truth))).powi(2);
            }
            if odds.proven {
                tally.proven += 1;
                if contents.iter().any(|&(c, t)| c == 1.0 && !t) {
                    tally.wrong_proven += 1;
                }
            }
        }
    }
}

fn main() {
    let boxes = env("BAFFLE_CALIB_BOXES", 12);
    let first = env("BAFFLE_CALIB_FIRST", 4) as usize;
    let last = env("BAFFLE_CALIB_LAST", 26) as usize;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let started = Instant::now();
    let jobs: Vec<(usize, u64)> = (first..=last)
        .flat_map(|n| (0..boxes).map(move |b| (n, b)))
        .collect();
    let jobs = &jobs;
    let parts: Vec<Tallies> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads as usize)
            .map(|w| {
                scope.spawn(move || {
                    let mut out = Tallies::default();
                    for &(n, b) in jobs.iter().skip(w).step_by(threads as usize) {
                        one(n, b, &mut out);
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker"))
            .collect()
    });
    let mut all = Tallies::default();
    for p in &parts {
        for (a, b) in all.iter_mut().zip(p) {
            a.merge(b);
        }
    }
    println!(
        "calibration: {first}×{first} to {last}×{last}, {boxes} random boxes a size, 1 to n²/4 mirrors, a random subset of their shots; {:.0} s on {threads} threads",
        started.elapsed().as_secs_f64()
    );
    all[0].print("counted (exact shares)");
    all[1].print("estimated, every cell");
    all[2].print("estimated, cells not proven");
}
