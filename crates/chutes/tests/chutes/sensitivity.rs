//! The sensitivity table of the classic board against an independent
//! computation: each edited board's mean solved here by Gauss–Seidel on the
//! equations E(s) = 1 + (1/6) Σ E(next(s, r)), with the rules written out
//! (a roll past 100 stays put, a jump is taken on landing, one jump a
//! move: a token a jump leaves on another jump's start stays there), not
//! read from the library's chain.

use chutes::analysis::sensitivity::{Effect, sensitivity};
use chutes::{Board, Overshoot, Rules};
use tabletop::Budget;

/// The mean game length of one player on 100 squares with `jumps`, tokens
/// starting off the board, a six-sided die, a roll past 100 staying put.
fn mean_of(jumps: &[(u32, u32)]) -> f64 {
    let mut to: Vec<usize> = (0..=100).collect();
    for &(a, b) in jumps {
        to[a as usize] = b as usize;
    }
    let mut e = vec![0.0f64; 101];
    for _ in 0..1_000_000 {
        let mut change = 0.0f64;
        for s in (0..100).rev() {
            let (mut sum, mut stay) = (0.0, 0.0);
            for r in 1..=6 {
                if s + r > 100 {
                    stay += 1.0;
                } else {
                    sum += e[to[s + r]];
                }
            }
            // E = 1 + (sum + stay·E)/6  =>  E = (6 + sum)/(6 - stay)
            let v = (6.0 + sum) / (6.0 - stay);
            change = change.max((v - e[s]).abs());
            e[s] = v;
        }
        if change < 1e-13 {
            return e[0];
        }
    }
    panic!("no convergence");
}

fn classic_pairs() -> Vec<(u32, u32)> {
    Board::classic()
        .jumps()
        .iter()
        .map(|j| (j.from, j.to))
        .collect()
}

fn close(what: &str, got: f64, want: f64) {
    assert!((got - want).abs() < 1e-8, "{what}: {got} vs {want}");
}

#[test]
fn every_row_of_the_classic_table_is_the_independent_mean() {
    let rules = Rules::new(Overshoot::Stay, 6).expect("rules");
    let t = sensitivity(&Board::classic(), &rules, 1, 10, &Budget::unlimited()).expect("table");
    let pairs = classic_pairs();
    let base = mean_of(&pairs);
    close("the classic mean", t.mean, base);
    // The published figure, to its six decimals.
    assert!((base - 39.225_122).abs() < 5e-7, "{base}");
    let check = |what: String, effect: &Option<Effect>, jumps: Vec<(u32, u32)>| {
        let e = effect
            .as_ref()
            .unwrap_or_else(|| panic!("{what}: no entry"));
        close(&what, t.mean + e.mean_change, mean_of(&jumps));
    };
    let mut rows = 0;
    for (i, row) in t.jumps.iter().enumerate() {
        let others = || {
            pairs
                .iter()
                .enumerate()
                .filter(move |&(k, _)| k != i)
                .map(|(_, &p)| p)
        };
        let (a, b) = pairs[i];
        assert_eq!((row.jump.from, row.jump.to), (a, b));
        check(
            format!("{a}->{b} removed"),
            &row.removed,
            others().collect(),
        );
        rows += 1;
        for (head, shifts) in [(true, &row.head), (false, &row.foot)] {
            for s in shifts.iter().filter(|s| s.effect.is_some()) {
                let moved = if head {
                    ((a as i32 + s.by) as u32, b)
                } else {
                    (a, (b as i32 + s.by) as u32)
                };
                check(
                    format!("{a}->{b} moved to {}->{}", moved.0, moved.1),
                    &s.effect,
                    others().chain([moved]).collect(),
                );
                rows += 1;
            }
        }
    }
    for sq in &t.squares {
        for (effect, to) in [
            (&sq.chute, sq.square.checked_sub(10)),
            (&sq.ladder, Some(sq.square + 10)),
        ] {
            if effect.is_some() {
                let to = to.expect("an end");
                check(
                    format!("new jump {}->{to}", sq.square),
                    effect,
                    pairs.iter().copied().chain([(sq.square, to)]).collect(),
                );
                rows += 1;
            }
        }
    }
    assert!(rows > 300, "{rows} rows checked");
    // Known rows: the ladder 1->38 is worth 0.8229 rolls; the chute 56->53
    // shortens the game; the new chute 81->71 (onto the ladder 71->91)
    // takes 2.56 rolls away.
    let row = |from: u32| {
        t.jumps
            .iter()
            .find(|j| j.jump.from == from)
            .expect("a jump")
    };
    let removed = |from: u32| row(from).removed.as_ref().expect("removed").mean_change;
    assert!((removed(1) - 0.8229).abs() < 5e-5, "{}", removed(1));
    assert!(removed(56) > 0.0, "{}", removed(56));
    let sq81 = t.squares.iter().find(|s| s.square == 81).expect("81");
    let c81 = sq81.chute.as_ref().expect("a chute").mean_change;
    assert!((c81 + 2.56).abs() < 5e-3, "{c81}");
}

#[test]
fn a_short_new_ladder_can_lengthen_the_classic_game() {
    // The ladder 79->81 passes over the ladder 80->100: 41.9487 rolls.
    let rules = Rules::new(Overshoot::Stay, 6).expect("rules");
    let t = sensitivity(&Board::classic(), &rules, 1, 2, &Budget::unlimited()).expect("table");
    let sq = t.squares.iter().find(|s| s.square == 79).expect("79");
    let e = sq.ladder.as_ref().expect("a ladder 79->81");
    let mut jumps = classic_pairs();
    jumps.push((79, 81));
    let independent = mean_of(&jumps);
    close("79->81", t.mean + e.mean_change, independent);
    assert!((independent - 41.9487).abs() < 5e-5, "{independent}");
}
