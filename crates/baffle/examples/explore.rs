use baffle::solve::find::Outcome;
use baffle::{Evidence, Layout, Size};
use std::time::Instant;
use tabletop::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let temp: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let nshots: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let cases = [(2u64, 40usize), (3, 60), (6, 338), (11, 169), (12, 338), (13, 26), (15, 60), (17, 169), (18, 338), (4, 26), (8, 338), (19, 60)];
    for (seed, k) in cases {
        let truth = Layout::seeded(Size::new(26).unwrap(), k, seed).unwrap();
        let mut holes: Vec<usize> = (0..104).collect();
        Rng::new(seed * 1000 + k as u64).shuffle(&mut holes);
        let shots: Vec<(usize,usize)> = holes[..nshots].iter().map(|&h| (h, truth.trace(h).unwrap().exit)).collect();
        let ev = Evidence { size: 26, mirrors: k, shots: shots.clone(), ..Evidence::default() };
        for run in 0..1 {
            let t = Instant::now();
            let (out, steps, conf, rest) = baffle::solve::probe(&ev, run, 20_000_000, temp).unwrap();
            let what = match &out {
                Outcome::Found(state) => {
                    // verify
                    let size = Size::new(26).unwrap();
                    let ms: Vec<baffle::Placed> = state.iter().enumerate().filter_map(|(i,&v)| baffle::solve::search::mirror_of(v).map(|m| baffle::Placed::new(size.cell(i), m))).collect();
                    let l = Layout::new(size, &ms).unwrap();
                    let ok = ms.len()==k && shots.iter().all(|&(h,e)| l.trace(h).unwrap().exit==e);
                    if ok {"found ok"} else {"FOUND BAD"}
                }
                Outcome::Impossible => "IMPOSSIBLE?!",
                Outcome::GaveUp => "gave up",
            };
            println!("{seed}/{k} run {run}: {what} {:.3}s steps {steps} conflicts {conf} restarts {rest}", t.elapsed().as_secs_f64());
        }
    }
}
