//! The expectimax against a brute force written here: layouts enumerated
//! another way (every cell empty, / or \, counted in base 3), the
//! information set found by tracing every layout against the whole history,
//! every action tried (every hole, every cell and mirror), none skipped
//! except those that cannot change what the player knows. The only cut is
//! the textbook one: `value(.., beat)` returns `min(value, beat)`, so an
//! action is abandoned once it costs `beat` (values are never negative),
//! which leaves the result exact.

use super::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};

struct Brute {
    size: Size,
    k: usize,
    holes: Vec<usize>,
    layouts: Vec<Layout>,
    memo: HashMap<(Vec<usize>, BTreeSet<Placed>), f64>,
}

type History = (BTreeMap<usize, usize>, BTreeSet<Placed>, BTreeSet<Placed>);

impl Brute {
    fn new(n: usize, k: usize, sides: Sides) -> Self {
        let size = Size::new(n).unwrap();
        let cells = size.cells();
        let mut layouts = Vec::new();
        for mut code in 0..3u64.pow(cells as u32) {
            let mut mirrors = Vec::new();
            for i in 0..cells {
                match code % 3 {
                    1 => mirrors.push(Placed::new(size.cell(i), Mirror::Slash)),
                    2 => mirrors.push(Placed::new(size.cell(i), Mirror::Backslash)),
                    _ => {}
                }
                code /= 3;
                if mirrors.len() > k {
                    break;
                }
            }
            if mirrors.len() == k && code == 0 {
                layouts.push(Layout::new(size, &mirrors).unwrap());
            }
        }
        Self {
            size,
            k,
            holes: size.shootable(sides).collect(),
            layouts,
            memo: HashMap::new(),
        }
    }

    /// The layouts agreeing with the shots and guesses.
    fn consistent(&self, (shots, found, wrong): &History) -> Vec<usize> {
        (0..self.layouts.len())
            .filter(|&i| {
                let l = &self.layouts[i];
                shots.iter().all(|(&h, &e)| l.trace(h).unwrap().exit == e)
                    && found.iter().all(|p| l.get(p.cell) == Some(p.mirror))
                    && wrong.iter().all(|p| l.get(p.cell) != Some(p.mirror))
            })
            .collect()
    }

    /// `min(value, beat)` of the history.
    fn value(&mut self, history: &History, beat: f64) -> f64 {
        if history.1.len() == self.k {
            return 0.0;
        }
        let set = self.consistent(history);
        let key = (set.clone(), history.1.clone());
        if let Some(&v) = self.memo.get(&key) {
            return v.min(beat);
        }
        let mut best = beat;
        let total = set.len() as f64;
        for h in self.holes.clone() {
            let mut by_exit: BTreeMap<usize, usize> = BTreeMap::new();
            for &i in &set {
                *by_exit
                    .entry(self.layouts[i].trace(h).unwrap().exit)
                    .or_default() += 1;
            }
            if by_exit.len() < 2 {
                continue; // leaves the information set as it is
            }
            let mut v = 1.0;
            for (e, c) in by_exit {
                if v >= best {
                    break;
                }
                let p = c as f64 / total;
                let mut next = history.clone();
                next.0.insert(h, e);
                v += p * self.value(&next, (best - v) / p);
            }
            best = best.min(v);
        }
        for i in 0..self.size.cells() {
            for m in [Mirror::Slash, Mirror::Backslash] {
                let p = Placed::new(self.size.cell(i), m);
                if history.1.contains(&p) || history.2.contains(&p) {
                    continue;
                }
                let right = set
                    .iter()
                    .filter(|&&l| self.layouts[l].get(p.cell) == Some(m))
                    .count();
                if right == 0 {
                    continue; // a sure miss: +2 and nothing learned
                }
                let q = right as f64 / total;
                let mut v = 2.0 * (1.0 - q);
                if v >= best {
                    continue;
                }
                let mut yes = history.clone();
                yes.1.insert(p);
                v += q * self.value(&yes, (best - v) / q);
                if right < set.len() && v < best {
                    let mut no = history.clone();
                    no.2.insert(p);
                    v += (1.0 - q) * self.value(&no, (best - v) / (1.0 - q));
                }
                best = best.min(v);
            }
        }
        if best < beat {
            self.memo.insert(key, best);
        }
        best
    }
}

fn brute(n: usize, k: usize, sides: Sides) -> f64 {
    let mut b = Brute::new(n, k, sides);
    let start = (BTreeMap::new(), BTreeSet::new(), BTreeSet::new());
    b.value(&start, f64::INFINITY)
}

#[test]
fn optimal_scores_match_brute_force() {
    for (n, k, sides) in [(4, 1, Sides::All), (4, 1, Sides::LeftTop)] {
        let want = brute(n, k, sides);
        let got = expected_scores(n, k, sides, None).unwrap();
        assert!(
            (got.optimal - want).abs() < 1e-9,
            "{n}x{n} k={k} {sides:?}: {} vs brute force {want}",
            got.optimal
        );
        assert_eq!(got.layouts, Brute::new(n, k, sides).layouts.len());
    }
}

#[test]
fn one_mirror_on_four_by_four_is_found_for_a_known_cost() {
    // 32 layouts; the value the brute force above agrees with.
    let s = expected_scores(4, 1, Sides::All, Some(&BotOptions::default())).unwrap();
    assert_eq!(s.layouts, 32);
    assert!((s.optimal - 2.5).abs() < 1e-9, "{s:?}");
    let bot = s.bot.unwrap();
    assert!(
        bot >= s.optimal - 1e-9,
        "the bot cannot beat the optimum: {s:?}"
    );
}

#[test]
fn the_bot_is_never_better_than_optimal_and_its_score_is_its_games() {
    let options = BotOptions::default();
    for (n, k) in [(4, 1), (5, 1)] {
        let s = expected_scores(n, k, Sides::All, Some(&options)).unwrap();
        let bot = s.bot.unwrap();
        assert!(bot >= s.optimal - 1e-9, "{s:?}");
        // The bot's expected score is the mean of its games on every layout.
        let boxes = Boxes::new(n, k, Sides::All).unwrap();
        let mut total = 0usize;
        for layout in &boxes.layouts {
            let mut game = Game::new(Setup::given(layout.clone(), Sides::All)).unwrap();
            crate::bot::play(&mut game, &options, |_, _| {}).unwrap();
            total += game.score().total;
        }
        let mean = total as f64 / boxes.layouts.len() as f64;
        assert!((mean - bot).abs() < 1e-9, "{n}x{n}/{k}: {mean} vs {bot}");
    }
}

#[test]
fn too_many_layouts_are_refused() {
    let e = expected_scores(6, 4, Sides::All, None).unwrap_err();
    assert!(matches!(e, OptimalError::TooMany { .. }), "{e}");
    assert!(e.to_string().contains("6×6 box with 4 mirrors"), "{e}");
    assert!(expected_scores(3, 1, Sides::All, None).is_err());
}

#[test]
fn a_search_stopped_at_once_weighs_nothing() {
    let watch = Watch::default();
    watch.stop.store(true, Ordering::SeqCst);
    let s =
        expected_scores_watched(4, 2, Sides::All, Some(&BotOptions::default()), &watch).unwrap();
    assert!(s.stopped, "{s:?}");
    assert_eq!(s.first_move, None, "{s:?}");
    assert!(s.optimal.is_infinite(), "{s:?}");
    assert_eq!(s.bot, None, "a stopped search leaves the bot out: {s:?}");
}

#[test]
fn a_stopped_search_keeps_its_best_first_move_as_an_upper_bound() {
    let exact = expected_scores(4, 2, Sides::All, None).unwrap();
    assert!(!exact.stopped);
    let watch = Watch::default();
    let finished = AtomicBool::new(false);
    let s = std::thread::scope(|scope| {
        // Stop as soon as two first moves are weighed.
        scope.spawn(|| {
            while watch.done.load(Ordering::Relaxed) < 2 && !finished.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
            watch.stop.store(true, Ordering::SeqCst);
        });
        let s = expected_scores_watched(4, 2, Sides::All, None, &watch).unwrap();
        finished.store(true, Ordering::SeqCst);
        s
    });
    let total = watch.total.load(Ordering::Relaxed);
    assert!(
        total > 2,
        "the root weighs more than two first moves: {total}"
    );
    assert!(watch.done.load(Ordering::Relaxed) <= total);
    if s.stopped {
        assert!(s.first_move.is_some(), "{s:?}");
        assert!(
            s.optimal >= exact.optimal - 1e-9,
            "a strategy's score bounds the optimum from above: {} < {}",
            s.optimal,
            exact.optimal
        );
    } else {
        assert!((s.optimal - exact.optimal).abs() < 1e-9, "{s:?}");
    }
}
