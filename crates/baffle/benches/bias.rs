//! `cargo bench -p baffle --bench bias`: how far the estimator's cell odds
//! are from the exact ones, on boxes small enough to count.
//!
//! Per box (sizes 5 to 8, 3 to 8 mirrors, `BAFFLE_BIAS_BOXES` seeds each,
//! default 4, a random quarter to half of the box's own shots): the exact
//! odds (the count), then the estimate with the count turned off
//! (`step_limit` 0) three ways: **guided** (the chains start at guided
//! searches' leaves, as before issue 34: `find_steps` 0), **repair** (the
//! default: the chains start at layouts of the propagating and repair
//! searches), and **repair alone** (200 layouts of `find_layouts`, no
//! chains: what the chains correct). For each, over the
//! cells neither always nor never holding a mirror: the mean and largest
//! error of a cell's mirror chance, and the root mean square of the errors
//! in units of the stated standard error (about 1 when the stated error is
//! honest; the share past 2 standard errors beside it).
//! Figures: docs/performance.md.

use baffle::solve::{EstimateOptions, Method, find_layouts};
use baffle::{Evidence, Layout, Size, SolveOptions, solve};
use tabletop::{Budget, Rng};

#[derive(Default)]
struct Tally {
    cells: usize,
    abs: f64,
    max: f64,
    z2: f64,
    zn: usize,
    past2: usize,
}

impl Tally {
    fn add(&mut self, err: f64, se: Option<f64>) {
        self.cells += 1;
        self.abs += err.abs();
        self.max = self.max.max(err.abs());
        if let Some(se) = se.filter(|&s| s > 0.0) {
            let z = err / se;
            self.z2 += z * z;
            self.zn += 1;
            self.past2 += usize::from(z.abs() > 2.0);
        }
    }

    fn line(&self, name: &str) {
        let zn = self.zn.max(1) as f64;
        println!(
            "{name:>13}: {} cells, mean error {:.3}, largest {:.3}, rms z {:.2}, past 2 se {:.1}%",
            self.cells,
            self.abs / self.cells.max(1) as f64,
            self.max,
            (self.z2 / zn).sqrt(),
            100.0 * self.past2 as f64 / zn
        );
    }
}

fn main() {
    let boxes: u64 = std::env::var("BAFFLE_BIAS_BOXES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let mut tallies: [Tally; 3] = Default::default();
    let (mut counted, mut no_guided_start) = (0, 0);
    for n in 5..=8 {
        for k in [3, 5, 8] {
            for b in 0..boxes {
                let seed = n as u64 * 1000 + k as u64 * 10 + b;
                let size = Size::new(n).expect("a size");
                let truth = Layout::seeded(size, k, seed).expect("a box");
                let mut rng = Rng::new(seed);
                let mut holes: Vec<usize> = (0..4 * n).collect();
                rng.shuffle(&mut holes);
                let m = n + rng.below(n as u64 + 1) as usize;
                let shots = holes[..m]
                    .iter()
                    .map(|&h| (h, truth.trace(h).expect("a hole").exit))
                    .collect();
                let ev = Evidence {
                    size: n,
                    mirrors: k,
                    shots,
                    ..Evidence::default()
                };
                let exact_options = SolveOptions {
                    advice: false,
                    step_limit: 200_000_000,
                    ..SolveOptions::default()
                };
                let Ok(exact) = solve(&ev, &exact_options) else {
                    continue;
                };
                if !exact.method.counted() {
                    continue;
                }
                let chance = |c: &baffle::solve::CellOdds| c.slash + c.backslash;
                let open: Vec<usize> = (0..exact.cells.len())
                    .filter(|&i| {
                        let p = chance(&exact.cells[i]);
                        p > 1e-12 && p < 1.0 - 1e-12
                    })
                    .collect();
                let estimates: Vec<_> = [0, EstimateOptions::default().find_steps]
                    .into_iter()
                    .map(|find_steps| {
                        // The sampler's own shares: the calibration map is
                        // measured by the calibration bench.
                        let options = SolveOptions {
                            advice: false,
                            step_limit: 0,
                            seed,
                            calibrate: false,
                            estimate: EstimateOptions {
                                find_steps,
                                ..EstimateOptions::default()
                            },
                            ..SolveOptions::default()
                        };
                        solve(&ev, &options)
                    })
                    .collect();
                // Guided searches alone find no start on some boxes: those
                // are left out of both.
                if estimates.iter().any(Result::is_err) {
                    no_guided_start += 1;
                    continue;
                }
                counted += 1;
                for (v, est) in estimates.iter().flatten().enumerate() {
                    assert!(matches!(est.method, Method::Estimated { .. }));
                    for &i in &open {
                        let err = chance(&est.cells[i]) - chance(&exact.cells[i]);
                        tallies[v].add(err, Some(est.cells[i].std_error));
                    }
                }
                let layouts = find_layouts(&ev, 200, seed, 50_000_000, &Budget::unlimited())
                    .expect("layouts");
                let per = 1.0 / layouts.len() as f64;
                for &i in &open {
                    let cell = size.cell(i);
                    let share: f64 = layouts
                        .iter()
                        .filter(|l| l.get(cell).is_some())
                        .map(|_| per)
                        .sum();
                    tallies[2].add(share - chance(&exact.cells[i]), None);
                }
            }
        }
    }
    println!(
        "{counted} boxes counted exactly (5 x 5 to 8 x 8, 3 to 8 mirrors); {no_guided_start} more where the guided searches alone found no start"
    );
    for (t, name) in tallies.iter().zip(["guided", "repair", "repair alone"]) {
        t.line(name);
    }
}
