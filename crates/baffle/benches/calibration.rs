//! `cargo bench -p baffle --bench calibration`: whether the solver's stated
//! chances mean what they say, and whether its proven cells are right.
//!
//! For every size from `BAFFLE_CALIB_FIRST` to `BAFFLE_CALIB_LAST` (4 and
//! 26), `BAFFLE_CALIB_BOXES` random boxes (default 12) with a random
//! mirror count (1 to `n²/2`, every count the game allows) and a random subset of their own shots, one
//! hint (the default options). For every cell and each content (empty,
//! `/`, `\`) the stated chance and whether the true box has it: the
//! reliability table by decile of the stated chance (cases, mean stated,
//! observed frequency, their gap), the Brier score (mean squared gap
//! between chance and truth, over cells, the three contents summed), and
//! the proven cells that are wrong (must be 0). Counted answers (exact
//! shares) and estimated ones are tallied apart; the estimated cells not
//! proven are tallied again on their own. `BAFFLE_CALIB_PROOF_CONFLICTS`
//! sets the SAT proofs' conflicts (0: none). `BAFFLE_CALIB_GUESSES=P`
//! adds a player's guesses to P% of the positions (default 0; 100: every
//! one): up to half the mirrors found and up to three wrong guesses.
//!
//! The seeds: `BAFFLE_CALIB_SET` picks a set of boxes (default 0; box `b`
//! of size `n` in set `s` has seed `n·10⁶ + 7000 + s·10⁵ + b`), so that
//! the calibration map ([`baffle::solve::calibrate`]) is fitted on one set
//! (1) and checked on another (0). `BAFFLE_CALIB_BIG` boxes of the last
//! size (default `BAFFLE_CALIB_BOXES`). `BAFFLE_CALIB_RAW=1` states the
//! sampled shares without the calibration map, and `BAFFLE_CALIB_DUMP=FILE`
//! writes each estimated cell not proven as a line (size, mirrors, shots,
//! sampled shares of empty, `/` and `\`, their standard error, the truth:
//! 0 empty, 1 `/`, 2 `\`), the data the map is fitted on.

use baffle::solve::{Method, calibrate};
use baffle::{Cell, Evidence, Layout, Mirror, Placed, Size, SolveError, SolveOptions, solve};
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
    too_hard: u64,
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
        self.too_hard += o.too_hard;
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

/// [counted, estimated, estimated and not proven, estimated on the last
/// size].
type Tallies = [Tally; 4];

/// An estimated cell not proven: its group, sampled shares (or stated
/// chances), true content (0 empty, 1 `/`, 2 `\\`) and box (its seed).
type Case = (usize, [f64; 3], usize, u64);

fn raw() -> bool {
    env("BAFFLE_CALIB_RAW", 0) != 0 || std::env::var("BAFFLE_CALIB_FIT").is_ok()
}

fn one(n: usize, b: u64, last: usize, out: &mut Tallies, cases: &mut Vec<Case>) {
    let size = Size::new(n).expect("a size");
    let seed = (n as u64) * 1_000_000 + 7_000 + env("BAFFLE_CALIB_SET", 0) * 100_000 + b;
    let mut rng = Rng::new(seed);
    let k = 1 + rng.below((n * n / 2).max(1) as u64) as usize;
    let truth = Layout::seeded(size, k, seed).expect("a box");
    let mut holes: Vec<usize> = (0..4 * n).collect();
    rng.shuffle(&mut holes);
    let m = rng.below(4 * n as u64 + 1) as usize;
    let mut ev = Evidence {
        size: n,
        mirrors: k,
        shots: holes[..m]
            .iter()
            .map(|&h| (h, truth.trace(h).expect("a hole").exit))
            .collect(),
        ..Evidence::default()
    };
    let guesses = env("BAFFLE_CALIB_GUESSES", 0);
    if guesses > 0 && rng.below(100) < guesses {
        add_guesses(&mut ev, &truth, &mut rng);
    }
    let t = Instant::now();
    let mut options = SolveOptions::default();
    options.proof.conflicts = env("BAFFLE_CALIB_PROOF_CONFLICTS", options.proof.conflicts);
    options.calibrate = !raw();
    let s = match solve(&ev, &options) {
        Ok(s) => s,
        // No layout found to sample from within the steps: no odds stated.
        Err(SolveError::TooHard { .. }) => {
            out[0].too_hard += 1;
            println!("no answer (too hard): {n}×{n}, {k} mirrors, {m} shots, seed {seed}");
            return;
        }
        Err(e) => panic!("no answer to {ev:?}: {e}"),
    };
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let estimated = matches!(s.method, Method::Estimated { .. });
    for which in [
        usize::from(estimated),
        if estimated && n == last { 3 } else { 9 },
    ] {
        if let Some(t) = out.get_mut(which) {
            t.answers += 1;
            t.max_ms = t.max_ms.max(ms);
        }
    }
    for odds in &s.cells {
        let t = truth.get(odds.cell);
        let contents = [
            (odds.empty, t.is_none()),
            (odds.slash, t == Some(Mirror::Slash)),
            (odds.backslash, t == Some(Mirror::Backslash)),
        ];
        if estimated && !odds.proven {
            let truth = match t {
                None => 0,
                Some(Mirror::Slash) => 1,
                Some(Mirror::Backslash) => 2,
            };
            cases.push((
                calibrate::group_of(&ev),
                [odds.empty, odds.slash, odds.backslash],
                truth,
                seed,
            ));
        }
        let tallies: &[usize] = match (estimated, odds.proven, n == last) {
            (false, _, _) => &[0],
            (true, true, false) => &[1],
            (true, true, true) => &[1, 3],
            (true, false, false) => &[1, 2],
            (true, false, true) => &[1, 2, 3],
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

/// A player's guesses besides the shots (`BAFFLE_CALIB_GUESSES`): up to
/// half the box's mirrors found, chosen at random, and up to three wrong
/// guesses (a random cell and a mirror it does not hold).
fn add_guesses(ev: &mut Evidence, truth: &Layout, rng: &mut Rng) {
    let mut mirrors: Vec<Placed> = truth.mirrors().collect();
    rng.shuffle(&mut mirrors);
    let found = rng.below((mirrors.len() / 2 + 1) as u64) as usize;
    ev.found = mirrors[..found].to_vec();
    let n = ev.size as u64;
    for _ in 0..rng.below(4) {
        let cell = Cell::new(rng.below(n) as u32, rng.below(n) as u32);
        let mirror = match truth.get(cell) {
            Some(Mirror::Slash) => Mirror::Backslash,
            Some(Mirror::Backslash) => Mirror::Slash,
            None if rng.below(2) == 0 => Mirror::Slash,
            None => Mirror::Backslash,
        };
        if ev.not.iter().all(|p| p.cell != cell) {
            ev.not.push(Placed::new(cell, mirror));
        }
    }
}

fn main() {
    let boxes = env("BAFFLE_CALIB_BOXES", 12);
    let first = env("BAFFLE_CALIB_FIRST", 4) as usize;
    let last = env("BAFFLE_CALIB_LAST", 26) as usize;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let started = Instant::now();
    let big = env("BAFFLE_CALIB_BIG", boxes);
    let jobs: Vec<(usize, u64)> = (first..=last)
        .flat_map(|n| (0..if n == last { big } else { boxes }).map(move |b| (n, b)))
        .collect();
    let jobs = &jobs;
    let parts: Vec<(Tallies, Vec<Case>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads as usize)
            .map(|w| {
                scope.spawn(move || {
                    let mut out = Tallies::default();
                    let mut cases = Vec::new();
                    for &(n, b) in jobs.iter().skip(w).step_by(threads as usize) {
                        one(n, b, last, &mut out, &mut cases);
                    }
                    (out, cases)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker"))
            .collect()
    });
    let mut all = Tallies::default();
    let mut cases = Vec::new();
    for (p, c) in &parts {
        for (a, b) in all.iter_mut().zip(p) {
            a.merge(b);
        }
        cases.extend(c.iter().copied());
    }
    if let Ok(path) = std::env::var("BAFFLE_CALIB_FIT") {
        // A relative path is the workspace's (a bench runs in its crate).
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        let written = path.with_extension("rs.new");
        std::fs::write(
            &written,
            fitted(&cases, boxes, big, env("BAFFLE_CALIB_GUESSES", 0)),
        )
        .expect("the map written");
        std::fs::rename(&written, &path).expect("the map put in place");
        println!(
            "calibration map fitted on {} cells, written to {}",
            cases.len(),
            path.display()
        );
    }
    println!(
        "calibration: {first}×{first} to {last}×{last}, {boxes} random boxes a size ({big} of {last}×{last}), seed set {}, 1 to n²/2 mirrors, a random subset of their shots, {}; {:.0} s on {threads} threads",
        env("BAFFLE_CALIB_SET", 0),
        if raw() {
            "sampled shares, not calibrated"
        } else {
            "calibrated"
        },
        started.elapsed().as_secs_f64()
    );
    println!(
        "{} boxes had no answer (too hard: no layout found within the steps)",
        all[0].too_hard
    );
    all[0].print("counted (exact shares)");
    all[1].print("estimated, every cell");
    all[2].print("estimated, cells not proven");
    all[3].print(&format!("estimated, {last}×{last} only"));
}

/// The calibration maps fitted on `cases` (sampled shares), as the Rust
/// source of `calibrate/table.rs`.
fn fitted(cases: &[Case], boxes: u64, big: u64, guesses: u64) -> String {
    let points = |v: &[(f64, f64)]| {
        let items: Vec<String> = v.iter().map(|(x, y)| format!("({x:.4}, {y:.4})")).collect();
        format!("&[{}]", items.join(", "))
    };
    let mut out = format!(
        "//! The calibration maps, one per group ([`super::group`]), as fitted by\n\
         //! the calibration bench on the seed set 1, {boxes} boxes a size and {big} of\n\
         //! 26 × 26, {guesses}% of the positions with guesses: `BAFFLE_CALIB_SET=1 \\\n\
         //! BAFFLE_CALIB_BOXES={boxes} BAFFLE_CALIB_BIG={big} BAFFLE_CALIB_GUESSES={guesses} \\\n\
         //! BAFFLE_CALIB_FIT=crates/baffle/src/solve/calibrate/table.rs \\\n\
         //! cargo bench -p baffle --bench calibration` (then `cargo fmt`). An empty\n\
         //! map: cases from too few boxes to fit one (shares stated as they are).\n\n\
         use super::{{GROUPS, Map}};\n\n\
         /// The maps by group.\n\
         #[allow(\n\
             clippy::approx_constant,\n\
             reason = \"measured frequencies, which may come near a constant\"\n\
         )]\n\
         pub const MAPS: [Map; GROUPS] = [\n",
    );
    for g in 0..calibrate::GROUPS {
        let of = |content: usize| -> Vec<(f64, bool, u64)> {
            cases
                .iter()
                .filter(|c| c.0 == g)
                .flat_map(|c| {
                    let contents: &[usize] = if content == 0 { &[0] } else { &[1, 2] };
                    contents.iter().map(move |&i| (c.1[i], c.2 == i, c.3))
                })
                .collect()
        };
        out += &format!(
            "    Map {{ empty: {}, mirror: {} }},\n",
            points(&calibrate::isotonic(&of(0))),
            points(&calibrate::isotonic(&of(1)))
        );
    }
    out + "];\n"
}
