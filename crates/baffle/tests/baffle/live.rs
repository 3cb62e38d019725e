//! How many layouts still fit, in a match's view: checked against an
//! enumeration of every layout of small boxes, and shown to depend on the
//! viewer's evidence only (never on the hidden box).

use baffle::live::{self, LayoutsLeft, Live, LiveMemo};
use baffle::solve::{BigUint, Evidence, SolveOptions, solve};
use baffle::{Cell, Layout, Mirror, Move, Placed, Race, Setup, Sides, Size, trace};
use std::time::Duration;
use tabletop::Rng;

/// Time enough for any small box, so that no answer depends on the
/// machine's speed.
const AMPLE: Duration = Duration::from_secs(600);

/// Every layout of `k` mirrors in an `n × n` box.
fn every_layout(n: usize, k: usize) -> Vec<Layout> {
    let size = Size::new(n).expect("a legal case");
    let cells = n * n;
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    fn walk(
        size: Size,
        cells: usize,
        k: usize,
        from: usize,
        chosen: &mut Vec<usize>,
        out: &mut Vec<Layout>,
    ) {
        if chosen.len() == k {
            for kinds in 0..(1u32 << k) {
                let placed: Vec<Placed> = chosen
                    .iter()
                    .enumerate()
                    .map(|(j, &i)| {
                        let mirror = if kinds >> j & 1 == 0 {
                            Mirror::Slash
                        } else {
                            Mirror::Backslash
                        };
                        Placed::new(size.cell(i), mirror)
                    })
                    .collect();
                out.push(Layout::new(size, &placed).expect("a legal case"));
            }
            return;
        }
        for i in from..cells {
            chosen.push(i);
            walk(size, cells, k, i + 1, chosen, out);
            chosen.pop();
        }
    }
    walk(size, cells, k, 0, &mut chosen, &mut out);
    out
}

/// Whether `layout` fits `ev`: every shot comes out where it did, every
/// found mirror is there, no wrongly guessed mirror is.
fn fits(layout: &Layout, ev: &Evidence) -> bool {
    ev.shots
        .iter()
        .all(|&(h, e)| trace(layout, h).is_ok_and(|b| b.exit == e))
        && ev
            .found
            .iter()
            .all(|p| layout.get(p.cell) == Some(p.mirror))
        && ev.not.iter().all(|p| layout.get(p.cell) != Some(p.mirror))
}

/// The count and each cell's (slash, backslash) counts, by enumeration.
fn enumerate(all: &[Layout], ev: &Evidence) -> (u64, Vec<(u64, u64)>) {
    let n = ev.size;
    let size = Size::new(n).expect("a legal case");
    let mut cells = vec![(0, 0); n * n];
    let mut count = 0;
    for layout in all.iter().filter(|l| fits(l, ev)) {
        count += 1;
        for (i, c) in cells.iter_mut().enumerate() {
            match layout.get(size.cell(i)) {
                Some(Mirror::Slash) => c.0 += 1,
                Some(Mirror::Backslash) => c.1 += 1,
                None => {}
            }
        }
    }
    (count, cells)
}

fn exact(n: u64) -> LayoutsLeft {
    LayoutsLeft::Exact {
        layouts: BigUint::from(n),
    }
}

/// The live answer agrees with the enumeration: the count, each cell's
/// share of each mirror and its count of layouts with a mirror.
fn check_live(live: &Live, all: &[Layout], ev: &Evidence, what: &str) {
    let (count, cells) = enumerate(all, ev);
    assert_eq!(live.layouts, exact(count), "{what}");
    assert_eq!(live.cells.len(), cells.len(), "{what}");
    for (i, (c, &(slash, back))) in live.cells.iter().zip(&cells).enumerate() {
        let share = |x: u64| x as f64 / count as f64;
        assert!((c.slash - share(slash)).abs() <= 6e-5, "{what} cell {i}");
        assert!((c.backslash - share(back)).abs() <= 6e-5, "{what} cell {i}");
        assert_eq!(c.mirror_layouts, Some(slash + back), "{what} cell {i}");
        let certain = [count - slash - back, slash, back].contains(&count);
        assert_eq!(c.proven, certain, "{what} cell {i}");
    }
}

/// Random small boxes, random shots and guesses, played through the
/// match's race: after each move the view's count and every cell's chance
/// equal the enumeration's, and each shot in the history carries the
/// count after it.
#[test]
fn the_count_and_the_chances_equal_an_enumeration_of_every_layout() {
    let mut rng = Rng::new(52);
    for (n, k) in [(4, 2), (4, 3), (4, 4), (5, 2), (5, 3)] {
        let all = every_layout(n, k);
        for round in 0..3 {
            let setup = Setup::seeded(n, k, Sides::All, rng.next_u64());
            let mut race = Race::new(setup, 1).expect("a legal case");
            race.set_count_budgets(AMPLE, AMPLE);
            let holes = 4 * n as u64;
            for step in 0..6 {
                let mv = if step % 3 == 2 {
                    let cell = Cell::new(rng.below(n as u64) as u32, rng.below(n as u64) as u32);
                    let mirror = if rng.below(2) == 0 {
                        Mirror::Slash
                    } else {
                        Mirror::Backslash
                    };
                    Move::Guess { cell, mirror }
                } else {
                    Move::Shoot {
                        hole: rng.below(holes) as usize,
                    }
                };
                if race.apply(mv).is_err() || race.is_over() {
                    continue;
                }
                let view = race.view_with_count(Some(1)).own;
                let ev = view.evidence();
                let what = format!("{n}×{n}, {k} mirrors, round {round}, evidence {ev:?}");
                check_live(view.live.as_ref().expect("a legal case"), &all, &ev, &what);
                // The history: each shot's count is the enumeration's after it.
                let by_move = live::evidence_by_move(&race.boxes()[0]);
                let shot_moves: Vec<usize> = race.boxes()[0]
                    .moves()
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| matches!(m, Move::Shoot { .. }))
                    .map(|(i, _)| i)
                    .collect();
                for (shot, &m) in view.shots.iter().zip(&shot_moves) {
                    let count = shot.count.as_ref().expect("every shot's count");
                    assert_eq!(
                        count.layouts,
                        exact(enumerate(&all, &by_move[m + 1]).0),
                        "{what}"
                    );
                }
            }
        }
    }
}

/// Two boxes that the same shots cannot tell apart give the same count,
/// chances and history: the count is a function of the evidence, never
/// of the hidden box; and a spectator of a one-player game sees the same
/// as its player.
#[test]
fn no_hidden_mirror_leaks_through_the_count() {
    let mut rng = Rng::new(7);
    let all = every_layout(5, 3);
    let mut checked = 0;
    for _ in 0..40 {
        let first = &all[rng.below(all.len() as u64) as usize];
        let shots: Vec<usize> = (0..3).map(|_| rng.below(20) as usize).collect();
        let ev = Evidence {
            size: 5,
            mirrors: 3,
            shots: shots
                .iter()
                .map(|&h| (h, trace(first, h).expect("a legal case").exit))
                .collect(),
            ..Evidence::default()
        };
        let Some(second) = all.iter().find(|l| *l != first && fits(l, &ev)) else {
            continue;
        };
        let play = |layout: &Layout| {
            let mut race =
                Race::new(Setup::given(layout.clone(), Sides::All), 1).expect("a legal case");
            race.set_count_budgets(AMPLE, AMPLE);
            for &hole in &shots {
                race.apply(Move::Shoot { hole }).expect("a legal case");
            }
            race
        };
        let (a, b) = (play(first), play(second));
        let (seat_a, seat_b) = (
            a.view_with_count(Some(1)).own,
            b.view_with_count(Some(1)).own,
        );
        assert_eq!(seat_a.live, seat_b.live);
        let counts = |v: &baffle::View| v.shots.iter().map(|s| s.count.clone()).collect::<Vec<_>>();
        assert_eq!(counts(&seat_a), counts(&seat_b));
        let spectator = a.view_with_count(None).own;
        assert_eq!(spectator.live, seat_a.live);
        assert_eq!(counts(&spectator), counts(&seat_a));
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} pairs of boxes checked");
}

/// In a race each seat's count is its own box's; a spectator sees the
/// count of the box with nothing played while the race is on.
#[test]
fn in_a_race_each_seat_sees_its_own_count_and_a_spectator_the_blank_box() {
    let mut race = Race::new(Setup::seeded(5, 2, Sides::All, 3), 2).expect("a legal case");
    race.set_count_budgets(AMPLE, AMPLE);
    race.apply(Move::Shoot { hole: 1 }).expect("a legal case"); // seat 1
    race.apply(Move::Shoot { hole: 7 }).expect("a legal case"); // seat 2
    race.apply(Move::Shoot { hole: 12 }).expect("a legal case"); // seat 1
    let all = every_layout(5, 2);
    for seat in [1u8, 2] {
        let view = race.view_with_count(Some(seat)).own;
        check_live(
            view.live.as_ref().expect("a legal case"),
            &all,
            &view.evidence(),
            "seat",
        );
    }
    let spectator = race.view_with_count(None).own;
    assert!(spectator.shots.is_empty());
    // 25 cells, 2 mirrors of 2 kinds: C(25, 2) · 4.
    assert_eq!(
        spectator.live.expect("a legal case").layouts,
        exact(300 * 4)
    );
}

/// When the solver only estimates, the bounds still hold the true count:
/// at least the layouts found, at most the ways round the proven cells.
#[test]
fn estimated_bounds_hold_the_true_count() {
    let mut rng = Rng::new(11);
    let all = every_layout(5, 3);
    let mut checked = 0;
    for _ in 0..12 {
        let layout = &all[rng.below(all.len() as u64) as usize];
        let shots: Vec<(usize, usize)> = (0..4)
            .map(|_| rng.below(20) as usize)
            .map(|h| (h, trace(layout, h).expect("a legal case").exit))
            .collect();
        let ev = Evidence {
            size: 5,
            mirrors: 3,
            shots,
            ..Evidence::default()
        };
        // A step limit of 1 sends the solver to its estimator.
        let options = SolveOptions {
            step_limit: 1,
            ..SolveOptions::default()
        };
        let Ok(solution) = solve(&ev, &options) else {
            continue;
        };
        let live = live::from_solution(&ev, Some(&solution));
        let (count, _) = enumerate(&all, &ev);
        match &live.layouts {
            LayoutsLeft::Between { at_least, at_most } => {
                assert!(*at_least >= BigUint::from(1u8));
                assert!(*at_least <= BigUint::from(count), "{ev:?}");
                assert!(*at_most >= BigUint::from(count), "{ev:?}");
                checked += 1;
            }
            LayoutsLeft::Exact { layouts } => assert_eq!(*layouts, BigUint::from(count)),
        }
        // No answer at all: the bounds alone, which hold too.
        let bare = live::from_solution(&ev, None);
        let LayoutsLeft::Between { at_most, .. } = bare.layouts else {
            panic!("no answer is never exact");
        };
        assert!(at_most >= BigUint::from(count));
        assert!(bare.cells.is_empty());
        assert_eq!(bare.worked, live::Worked::OutOfTime);
        assert!(
            bare.words
                .starts_with("too many layouts to count in time: at most "),
            "{}",
            bare.words
        );
    }
    assert!(checked >= 6, "only {checked} estimates checked");
}

/// The look back: each shot's layouts before and after it, and the best
/// possible shot's average, agree with the enumeration.
#[test]
fn the_look_back_sets_each_shot_beside_the_best_one() {
    let mut race = Race::new(Setup::seeded(4, 2, Sides::All, 9), 1).expect("a legal case");
    for hole in [0, 5, 9] {
        race.apply(Move::Shoot { hole }).expect("a legal case");
    }
    let game = &race.boxes()[0];
    let all = every_layout(4, 2);
    let looks = live::look_back(
        game,
        AMPLE,
        &LiveMemo::default(),
        &tabletop::Budget::unlimited(),
    );
    assert_eq!(looks.len(), 3);
    let by_move = live::evidence_by_move(game);
    for (i, look) in looks.iter().enumerate() {
        assert_eq!(look.number, i + 1);
        assert_eq!(look.before, exact(enumerate(&all, &by_move[i]).0));
        assert_eq!(look.after, exact(enumerate(&all, &by_move[i + 1]).0));
        // The best shot's average: Σ c_e² / N over its exits, by enumeration.
        let Some(best) = look.best else {
            continue;
        };
        let hole = look.best_hole.expect("a legal case");
        let fitting: Vec<&Layout> = all.iter().filter(|l| fits(l, &by_move[i])).collect();
        let mut by_exit = std::collections::HashMap::new();
        for l in &fitting {
            *by_exit
                .entry(trace(l, hole).expect("a legal case").exit)
                .or_insert(0u64) += 1;
        }
        let expected = by_exit.values().map(|c| (c * c) as f64).sum::<f64>() / fitting.len() as f64;
        assert!((best - expected).abs() < 0.01, "shot {}", i + 1);
        // No shot beats the best on average.
        let took: f64 = {
            let mut by_exit = std::collections::HashMap::new();
            for l in &fitting {
                *by_exit
                    .entry(trace(l, look.hole).expect("a legal case").exit)
                    .or_insert(0u64) += 1;
            }
            by_exit.values().map(|c| (c * c) as f64).sum::<f64>() / fitting.len() as f64
        };
        assert!(best <= took + 0.01, "shot {}", i + 1);
    }
}

/// The memo keeps the cells' chances of the newest positions only; a view
/// of an older position works them out again, the same.
#[test]
fn old_positions_keep_their_count_and_give_their_cells_again() {
    let mut race = Race::new(Setup::seeded(5, 2, Sides::All, 21), 1).expect("a legal case");
    race.set_count_budgets(AMPLE, AMPLE);
    let first = {
        race.apply(Move::Shoot { hole: 0 }).expect("a legal case");
        race.view_with_count(Some(1)).own
    };
    for hole in 1..12 {
        race.apply(Move::Shoot { hole }).expect("a legal case");
        race.view_with_count(Some(1));
    }
    let ev = first.evidence();
    let kept = race.memo().get(&ev).expect("still remembered");
    assert!(
        kept.cells.is_empty(),
        "an old position keeps its count only"
    );
    assert_eq!(Some(&kept.layouts), first.live.as_ref().map(|l| &l.layouts));
    // Its view (as in a replay step) has its cells again.
    let mut view = first.clone();
    view.live = None;
    live::fill(&mut view, None, race.memo());
    assert_eq!(view.live, first.live);
}

/// A position the solver could not work out in time gives the shot before
/// it no count (its bounds alone would repeat shot after shot, and a big
/// box's answer would carry them all); the position now still says its
/// bounds.
#[test]
fn a_shot_whose_position_ran_out_of_time_has_no_count() {
    let mut race = Race::new(Setup::seeded(26, 300, Sides::All, 3), 1).expect("a legal case");
    // No time for any position, ample for the history as a whole: each
    // position is tried and runs out of time.
    race.set_count_budgets(Duration::ZERO, AMPLE);
    for hole in 0..12 {
        race.apply(Move::Shoot { hole }).expect("a legal case");
    }
    let view = race.view_with_count(Some(1)).own;
    let now = view.live.as_ref().expect("the position now");
    assert_eq!(now.worked, live::Worked::OutOfTime);
    assert!(
        now.words.starts_with("too many layouts to count in time"),
        "{}",
        now.words
    );
    assert_eq!(view.shots.len(), 12);
    assert!(
        view.shots.iter().all(|s| s.count.is_none()),
        "{:?}",
        view.shots
    );
    let json = serde_json::to_string(&view).expect("a view writes");
    assert!(!json.contains("\"count\""), "{json}");
}
