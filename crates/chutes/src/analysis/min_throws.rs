//! The minimum-throws assignment: the fewest throws to finish when the player
//! chooses every roll.
//!
//! Terms:
//! - **throw**: one roll the player picks, 1..=faces.
//! - **minimum throws**: the length of the shortest game
//!   ([`super::shortest`], no constraint): choosing the rolls is the same as
//!   finding the dice sequence of a shortest game.
//! - **pairs**: a board written as `start end start end …` (the
//!   minimum-throws assignment's GeeksforGeeks form), with its number of
//!   squares and start square.
//! - Overshoot: LeetCode 909 lets a throw go no further than N. Here the
//!   overshoot rule is applied as the board's rules say, and the fewest
//!   throws is the same under all three: a throw that would pass N from `s`
//!   can always be replaced by the throw N − s (at most the die's faces),
//!   which lands on N exactly. So LeetCode's answer is every rule's answer.
//!   The *number* of best sequences does depend on the rule: under `finish`
//!   every throw past N also finishes.
//!
//! Chute cycles cannot trap the search: each state is visited once.

use super::AnalysisError;
use super::chain::Chain;
use super::shortest::{Constraint, ShortestGames};
use crate::board::{Board, BoardError, BoardSpec, Jump};
use crate::rules::{Rules, Step};
use num_bigint::BigUint;
use serde::Serialize;

/// The answer to the minimum-throws assignment's question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MinThrows {
    /// The fewest throws; `None` when the finish cannot be reached.
    pub throws: Option<u32>,
    /// One best sequence of throws (the first in dice order).
    pub rolls: Vec<u8>,
    /// What each of those throws does.
    pub steps: Vec<Step>,
    /// How many sequences of that many throws finish.
    pub sequences: BigUint,
}

/// The fewest throws to finish `board` under `rules` when every roll is
/// chosen.
///
/// # Errors
/// None in practice ([`AnalysisError::TooLarge`] is reserved for
/// constrained searches).
pub fn min_throws(board: &Board, rules: &Rules) -> Result<MinThrows, AnalysisError> {
    let games = ShortestGames::from_chain(
        Chain::new(board, rules),
        Constraint::NONE,
        &tabletop::Budget::unlimited(),
    )?;
    let rolls = games.example();
    let steps = play(board, rules, &rolls);
    Ok(MinThrows {
        throws: games.rolls(),
        rolls,
        steps,
        sequences: games.sequences().clone(),
    })
}

/// Plays `rolls` from the start through [`Rules::step`].
pub fn play(board: &Board, rules: &Rules, rolls: &[u8]) -> Vec<Step> {
    let mut at = board.start();
    rolls
        .iter()
        .map(|&r| {
            let step = rules.step(board, at, r);
            at = step.to;
            step
        })
        .collect()
}

/// A pairs list that cannot make a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairsError {
    /// A number that is not a whole number.
    #[error("number #{index} is '{text}', which is not a whole number of a square")]
    NotANumber {
        /// 1-based position in the list.
        index: usize,
        /// What was written.
        text: String,
    },
    /// An odd count of numbers.
    #[error("{count} numbers: the list needs pairs (start end start end …), so an even count")]
    Odd {
        /// How many numbers were given.
        count: usize,
    },
    /// The pairs break a board rule.
    #[error("pair #{index} ({jump}): {rule}")]
    Board {
        /// 1-based pair number.
        index: usize,
        /// The pair.
        jump: Jump,
        /// The rule broken (not an error `source`: the message already says
        /// it, and a chain printing sources would say it twice).
        rule: BoardError,
    },
    /// The size or start breaks a board rule.
    #[error(transparent)]
    Setup(BoardError),
}

/// A board of `size` squares starting on `start` (0 or 1) with the jumps
/// `text` lists as `start end start end …` (spaces and/or commas).
///
/// # Errors
/// A [`PairsError`] naming the number or pair at fault.
pub fn board_from_pairs(text: &str, size: u32, start: u32) -> Result<Board, PairsError> {
    let mut numbers = Vec::new();
    for (i, token) in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let value: u32 = token.parse().map_err(|_| PairsError::NotANumber {
            index: i + 1,
            text: token.to_string(),
        })?;
        numbers.push(value);
    }
    if numbers.len() % 2 != 0 {
        return Err(PairsError::Odd {
            count: numbers.len(),
        });
    }
    let jumps: Vec<Jump> = numbers
        .chunks_exact(2)
        .map(|p| Jump::new(p[0], p[1]))
        .collect();
    let spec = BoardSpec {
        name: Some("pairs".into()),
        size,
        start,
        jumps: jumps.clone(),
        geometry: None,
    };
    Board::new(spec).map_err(|e| match e.jump() {
        Some(jump) => PairsError::Board {
            index: jumps.iter().position(|&j| j == jump).unwrap_or(0) + 1,
            jump,
            rule: e,
        },
        None => PairsError::Setup(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, parse_board};
    use crate::rules::Overshoot;

    fn leetcode(text: &str) -> Board {
        parse_board(text, Some(Format::Leetcode), None).unwrap()
    }

    #[test]
    fn leetcode_909_examples() {
        let example_1 = "[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,35,-1,-1,13,-1],[-1,-1,-1,-1,-1,-1],[-1,15,-1,-1,-1,-1]]";
        let m = min_throws(&leetcode(example_1), &Rules::default()).unwrap();
        assert_eq!(m.throws, Some(4));
        assert_eq!(m.steps.last().unwrap().to, 36);
        assert_eq!(m.rolls.len(), 4);
        let m = min_throws(&leetcode("[[-1,-1],[-1,3]]"), &Rules::default()).unwrap();
        assert_eq!(m.throws, Some(1));
    }

    #[test]
    fn the_minimum_throws_assignments_board_takes_3_throws() {
        // Ladders 3→22, 5→8, 11→26, 20→29; snakes 27→1, 21→9, 17→4, 19→7.
        let b = board_from_pairs("3 22 5 8 11 26 20 29 27 1 21 9 17 4 19 7", 30, 1).unwrap();
        for o in [Overshoot::Stay, Overshoot::Finish, Overshoot::Bounce] {
            let m = min_throws(&b, &Rules::new(o, 6).unwrap()).unwrap();
            assert_eq!(m.throws, Some(3), "{o}");
        }
        // The assignment's Java program, 0-based cells 0..29, moved to
        // squares 1..30: its published output is 3.
        let java = board_from_pairs("2 8 6 22 11 13 21 16 27 1 22 5 15 10 20 3", 30, 1).unwrap();
        assert_eq!(
            min_throws(&java, &Rules::default()).unwrap().throws,
            Some(3)
        );
    }

    #[test]
    fn the_assignment_s_own_boards_give_its_own_answers() {
        // Its BFS program's board, in its own form: A = 30, move[0..29].
        let mut moves = vec![-1i64; 30];
        for (from, to) in [
            (1, 7),
            (5, 21),
            (10, 12),
            (20, 15),
            (26, 0),
            (21, 4),
            (14, 9),
            (19, 2),
        ] {
            moves[from] = to;
        }
        let list: Vec<String> = moves.iter().map(i64::to_string).collect();
        let text = format!("30\n{}", list.join(" "));
        let own = parse_board(&text, None, None).unwrap();
        let m = min_throws(&own, &Rules::default()).unwrap();
        assert_eq!(m.throws, Some(3), "its printed answer");
        assert_eq!(m.steps.last().unwrap().to, 29, "its last cell, N-1");
        // The same board as pairs, squares numbered as the assignment does.
        let pairs = board_from_pairs("1 7 5 21 10 12 20 15 26 0 21 4 14 9 19 2", 29, 0).unwrap();
        assert_eq!(pairs.jumps(), own.jumps());
        // Its recursive program's board: pairs on cells 1..30 from cell 1,
        // any throw reaching 30 or beyond finishing: throw 5 (6, up to 26),
        // then 4.
        let b = board_from_pairs("4 12 8 15 6 26 2 21 14 19 12 7 26 3 29 9", 30, 1).unwrap();
        let m = min_throws(&b, &Rules::new(Overshoot::Finish, 6).unwrap()).unwrap();
        assert_eq!(m.throws, Some(2));
        assert_eq!(m.rolls, vec![5, 4]);
    }

    #[test]
    fn unreachable_finish_has_no_answer() {
        let walled = board_from_pairs("5 1 6 1 7 1 8 1 9 1 10 1", 12, 0).unwrap();
        let m = min_throws(&walled, &Rules::default()).unwrap();
        assert_eq!(m.throws, None);
        assert!(m.rolls.is_empty() && m.steps.is_empty());
    }

    #[test]
    fn every_overshoot_rule_gives_the_same_fewest_throws() {
        let mut rng = tabletop::Rng::new(4);
        for _ in 0..200 {
            let size = 2 + rng.below(40) as u32;
            let mut pairs = String::new();
            let mut used = std::collections::HashSet::new();
            for _ in 0..rng.below(8) {
                let from = 1 + rng.below(u64::from(size - 1)) as u32;
                let to = 1 + rng.below(u64::from(size)) as u32;
                if from != to && used.insert(from) {
                    pairs.push_str(&format!("{from} {to} "));
                }
            }
            let b = board_from_pairs(&pairs, size, 0).unwrap();
            let answers: Vec<(Option<u32>, BigUint)> =
                [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish]
                    .iter()
                    .map(|&o| {
                        let m = min_throws(&b, &Rules::new(o, 6).unwrap()).unwrap();
                        (m.throws, m.sequences)
                    })
                    .collect();
            assert_eq!(answers[0].0, answers[1].0, "{pairs} on {size}");
            assert_eq!(answers[0].0, answers[2].0, "{pairs} on {size}");
            assert!(answers[2].1 >= answers[0].1);
        }
    }

    #[test]
    fn bad_pairs_name_the_culprit() {
        let err = board_from_pairs("3 22 5", 30, 1).unwrap_err();
        assert_eq!(err, PairsError::Odd { count: 3 });
        let err = board_from_pairs("3 x", 30, 1).unwrap_err().to_string();
        assert!(err.contains("#2") && err.contains("'x'"), "{err}");
        let err = board_from_pairs("3 22 5 40", 30, 1)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("pair #2 (ladder 5→40)"), "{err}");
        // Said once, also where error chains are printed (as the CLI does).
        let err = board_from_pairs("3 22 5 40", 30, 1).unwrap_err();
        assert!(std::error::Error::source(&err).is_none());
        assert!(matches!(
            board_from_pairs("", 1, 0),
            Err(PairsError::Setup(BoardError::Size(1)))
        ));
    }
}
