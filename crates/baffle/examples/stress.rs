use baffle::solve::find::Outcome;
use baffle::{Evidence, Layout, Size, Placed};
use std::time::Instant;
use tabletop::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let trials: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(500);
    let limit: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50_000_000);
    let first: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut rng = Rng::new(99 + first);
    let mut worst: Vec<(f64, String)> = Vec::new();
    let mut fails = 0;
    let t0 = Instant::now();
    let only: Option<u64> = std::env::var("ONLY").ok().and_then(|s| s.parse().ok());
    for trial in first..first + trials {
        let n = 4 + rng.below(23) as usize;
        let max = n * n / 2;
        let k = match rng.below(4) { 0 => 1 + rng.below(max as u64) as usize, 1 => max - rng.below((max as u64).min(5)) as usize, 2 => 1 + rng.below(((max as u64)/8).max(1)) as usize, _ => 1 + rng.below(((max as u64)/3).max(1)) as usize };
        let size = Size::new(n).unwrap();
        let truth = Layout::seeded(size, k, trial).unwrap();
        let mut holes: Vec<usize> = (0..4 * n).collect();
        rng.shuffle(&mut holes);
        let m = rng.below(4 * n as u64 + 1) as usize;
        let shots: Vec<(usize, usize)> = holes[..m].iter().map(|&h| (h, truth.trace(h).unwrap().exit)).collect();
        let ev = Evidence { size: n, mirrors: k, shots: shots.clone(), ..Evidence::default() };
        if only.is_some_and(|o| o != trial) { continue; }
        if only.is_some() { println!("{}", truth.to_file_text()); println!("{:?}", shots); }
        let t = Instant::now();
        let (out, steps, conf, rest) = baffle::solve::probe(&ev, trial, limit, 1.0).unwrap();
        let dt = t.elapsed().as_secs_f64();
        let what = match &out {
            Outcome::Found(state) => {
                let ms: Vec<Placed> = state.iter().enumerate().filter_map(|(i, &v)| baffle::solve::search::mirror_of(v).map(|mm| Placed::new(size.cell(i), mm))).collect();
                let l = Layout::new(size, &ms).unwrap();
                if ms.len() == k && shots.iter().all(|&(h, e)| l.trace(h).unwrap().exit == e) { "ok" } else { "BAD" }
            }
            Outcome::Impossible => "IMPOSSIBLE",
            Outcome::GaveUp => "GAVEUP",
        };
        if what != "ok" {
            fails += 1;
            let t = Instant::now();
            let r = baffle::solve(&ev, &baffle::SolveOptions { advice: false, ..baffle::SolveOptions::default() });
            let ex = match r { Ok(s) => format!("{} layouts {:?} steps {}", s.method, s.layouts.map(|l| l.to_string()), s.steps), Err(e) => e.to_string() };
            println!("FAIL trial {trial}: n {n} k {k} shots {m}: {what} {dt:.3}s; count: {ex} {:.3}s", t.elapsed().as_secs_f64());
        }
        worst.push((dt, format!("trial {trial} n {n} k {k} shots {m} steps {steps} conflicts {conf} restarts {rest}")));
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for w in worst.iter().take(12) { println!("{:.4}s {}", w.0, w.1); }
    println!("fails {fails} of {trials}, total {:.1}s", t0.elapsed().as_secs_f64());
}
