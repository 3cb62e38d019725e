//! How a board's games change when one chute or ladder changes: the exact
//! change in the mean game length and in each seat's chance to win.
//!
//! Terms:
//! - **edit**: one change to the board — a jump removed, its head (where
//!   it starts) or foot (where it ends) moved by 1 to [`MAX_SHIFT`]
//!   squares, or a new jump of a given length put on an empty square.
//! - **effect** ([`Effect`]): the edited board's mean and seats' chances
//!   minus the board's own, each from the Markov chain. An edit that breaks
//!   a board rule (off the board, two jumps from one square, a ladder that
//!   would become a chute) or that makes some games endless has none.
//! - **table** ([`Sensitivity`]): every jump's edits, and every empty
//!   square's effect of a chute and of a ladder starting there.

use super::AnalysisError;
use super::markov::{self, MarkovOptions};
use crate::board::{Board, BoardSpec, Jump};
use crate::rules::Rules;
use serde::Serialize;
use tabletop::Budget;

/// The most squares a jump's end is moved by.
pub const MAX_SHIFT: u32 = 6;

/// The change an edit makes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Effect {
    /// The edited board's mean game length minus the board's.
    pub mean_change: f64,
    /// Each seat's chance on the edited board minus on the board.
    pub seat_change: Vec<f64>,
}

/// One end of a jump moved by `by` squares (negative: towards square 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shift {
    /// Squares moved.
    pub by: i32,
    /// Its effect (`null` when the moved jump breaks a rule or some games
    /// never end).
    pub effect: Option<Effect>,
}

/// Every edit of one chute or ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JumpSensitivity {
    /// The jump.
    pub jump: Jump,
    /// Taking it off the board.
    pub removed: Option<Effect>,
    /// Moving its head by -6..=-1 and 1..=6 squares.
    pub head: Vec<Shift>,
    /// Moving its foot by -6..=-1 and 1..=6 squares.
    pub foot: Vec<Shift>,
}

/// A new jump on one empty square.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SquareSensitivity {
    /// The square.
    pub square: u32,
    /// A chute of the table's length starting there (`null` when it would
    /// leave the board or games could never end).
    pub chute: Option<Effect>,
    /// A ladder of the table's length starting there.
    pub ladder: Option<Effect>,
}

/// The whole table for one board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sensitivity {
    /// Players whose seats are compared.
    pub players: usize,
    /// The board's own mean game length.
    pub mean: f64,
    /// The board's own seats' chances.
    pub seat_win: Vec<f64>,
    /// The length of the new jumps on empty squares.
    pub length: u32,
    /// Each chute and ladder, ordered by start square.
    pub jumps: Vec<JumpSensitivity>,
    /// Each square no jump starts or ends on (not the finish).
    pub squares: Vec<SquareSensitivity>,
}

/// The mean and seats' chances of a board (`None` when some games never
/// end).
fn figures(
    board: &Board,
    rules: &Rules,
    players: usize,
    budget: &Budget,
) -> Result<Option<(f64, Vec<f64>)>, AnalysisError> {
    let m = markov::analyze_within(board, rules, &MarkovOptions::default(), budget)?;
    let Some(mean) = m.distribution.mean else {
        return Ok(None);
    };
    let odds = markov::seat_win(&m.distribution, players)?;
    Ok(Some((mean, odds.seat_win)))
}

/// `board` with its jumps replaced by `jumps`, if that is a board.
fn edited(board: &Board, jumps: Vec<Jump>) -> Option<Board> {
    Board::new(BoardSpec {
        jumps,
        ..board.spec()
    })
    .ok()
}

/// The sensitivity table of `board` under `rules` for `players` players,
/// new jumps being `length` squares long.
///
/// # Errors
/// [`AnalysisError::Players`] unless `players` is 1 to 8;
/// [`AnalysisError::Unfinishable`] when some of the board's own games never
/// end; as [`markov::analyze`] otherwise, and [`AnalysisError::Stopped`]
/// when `budget` runs out.
pub fn sensitivity(
    board: &Board,
    rules: &Rules,
    players: usize,
    length: u32,
    budget: &Budget,
) -> Result<Sensitivity, AnalysisError> {
    let m = markov::analyze_within(board, rules, &MarkovOptions::default(), budget)?;
    let odds = markov::seat_win(&m.distribution, players)?;
    let mean = m.distribution.mean.ok_or(AnalysisError::Unfinishable {
        dead: m.dead.first().copied().unwrap_or(0),
        what: "mean game length",
    })?;
    let base = odds.seat_win;
    let effect_of = |jumps: Vec<Jump>| -> Result<Option<Effect>, AnalysisError> {
        let Some(b) = edited(board, jumps) else {
            return Ok(None);
        };
        Ok(
            figures(&b, rules, players, budget)?.map(|(m, seats)| Effect {
                mean_change: m - mean,
                seat_change: seats.iter().zip(&base).map(|(a, b)| a - b).collect(),
            }),
        )
    };
    let all = board.jumps();
    let mut jumps = Vec::with_capacity(all.len());
    for (i, &j) in all.iter().enumerate() {
        let others = || {
            all.iter()
                .enumerate()
                .filter(move |&(k, _)| k != i)
                .map(|(_, &o)| o)
        };
        let removed = effect_of(others().collect())?;
        let shifts = |head: bool| -> Result<Vec<Shift>, AnalysisError> {
            let max = MAX_SHIFT as i32;
            let mut out = Vec::new();
            for by in (-max..=max).filter(|&b| b != 0) {
                let end = if head { j.from } else { j.to };
                let moved = u32::try_from(i64::from(end) + i64::from(by)).ok();
                let jump = moved.map(|m| {
                    if head {
                        Jump::new(m, j.to)
                    } else {
                        Jump::new(j.from, m)
                    }
                });
                // The same kind of jump, or no edit.
                let effect = match jump.filter(|n| (n.to > n.from) == (j.to > j.from)) {
                    Some(n) => effect_of(others().chain([n]).collect())?,
                    None => None,
                };
                out.push(Shift { by, effect });
            }
            Ok(out)
        };
        jumps.push(JumpSensitivity {
            jump: j,
            removed,
            head: shifts(true)?,
            foot: shifts(false)?,
        });
    }
    let taken: std::collections::HashSet<u32> = all.iter().flat_map(|j| [j.from, j.to]).collect();
    let mut squares = Vec::new();
    for s in (board.start() + 1)..board.finish() {
        if taken.contains(&s) {
            continue;
        }
        let with = |to: Option<u32>| -> Result<Option<Effect>, AnalysisError> {
            match to {
                Some(to) => effect_of(all.iter().copied().chain([Jump::new(s, to)]).collect()),
                None => Ok(None),
            }
        };
        squares.push(SquareSensitivity {
            square: s,
            chute: with(s.checked_sub(length).filter(|&t| t >= 1))?,
            ladder: with(s.checked_add(length).filter(|&t| t <= board.finish()))?,
        });
    }
    Ok(Sensitivity {
        players,
        mean,
        seat_win: base,
        length,
        jumps,
        squares,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Overshoot;

    #[test]
    fn every_entry_is_the_analysis_of_the_edited_board() {
        let board =
            Board::from_jumps(30, 0, &[(3, 17), (12, 25), (22, 5), (28, 14)]).expect("board");
        let rules = Rules::new(Overshoot::Stay, 6).expect("rules");
        let t = sensitivity(&board, &rules, 2, 5, &Budget::unlimited()).expect("table");
        let mean_of = |jumps: &[(u32, u32)]| {
            let b = Board::from_jumps(30, 0, jumps).expect("board");
            markov::analyze(&b, &rules, &MarkovOptions::default())
                .expect("analysis")
                .distribution
                .mean
                .expect("mean")
        };
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        // Removing the ladder 3->17.
        let removed = t.jumps[0].removed.as_ref().expect("an effect");
        close(
            t.mean + removed.mean_change,
            mean_of(&[(12, 25), (22, 5), (28, 14)]),
        );
        // Its head moved up by 2: 5->17.
        let up2 = t.jumps[0].head.iter().find(|s| s.by == 2).expect("shift");
        let e = up2.effect.as_ref().expect("an effect");
        close(
            t.mean + e.mean_change,
            mean_of(&[(5, 17), (12, 25), (22, 5), (28, 14)]),
        );
        // The chute 22->5's foot moved below square 1 is no edit.
        let chute = t.jumps.iter().find(|j| j.jump.from == 22).expect("chute");
        assert!(
            chute
                .foot
                .iter()
                .find(|s| s.by == -6)
                .expect("shift")
                .effect
                .is_none()
        );
        // A ladder of 5 squares on the empty square 9.
        let sq = t.squares.iter().find(|s| s.square == 9).expect("square 9");
        let e = sq.ladder.as_ref().expect("a ladder 9->14");
        close(
            t.mean + e.mean_change,
            mean_of(&[(3, 17), (9, 14), (12, 25), (22, 5), (28, 14)]),
        );
        // Seats' changes sum to 0 (one seat wins).
        assert!(e.seat_change.iter().sum::<f64>().abs() < 1e-9);
        assert!(
            t.squares
                .iter()
                .all(|s| ![3, 17, 12, 25, 22, 5, 28, 14].contains(&s.square))
        );
    }
}
