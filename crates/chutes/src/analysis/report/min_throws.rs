//! The minimum-throws report (the original assignment's "minimum dice
//! throws", LeetCode 909): the fewest throws when the player chooses every
//! roll, one best sequence step by step, and how many sequences are best.
//!
//! Terms:
//! - **throw**: one roll the player picks, 1..=faces.
//! - A board whose finish cannot be reached has no answer: `throws` is
//!   `null`, which is a report, not an error.

use super::{BoardFacts, Count, step_text};
use crate::analysis::AnalysisError;
use crate::analysis::min_throws::min_throws;
use crate::board::Board;
use crate::rules::{Rules, Step};
use serde::Serialize;
use std::fmt;

/// The fewest throws to finish a board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MinThrowsReport {
    /// The board (with its start square).
    pub board: BoardFacts,
    /// The rules.
    pub rules: Rules,
    /// The fewest throws; `null` when the finish cannot be reached.
    pub throws: Option<u32>,
    /// One best sequence of throws, the first in dice order (empty when
    /// none).
    pub example: Vec<u8>,
    /// What each throw of `example` does.
    pub example_steps: Vec<Step>,
    /// How many sequences of that many throws finish.
    pub sequences: Count,
}

impl MinThrowsReport {
    /// The fewest throws to finish `board` under `rules`.
    ///
    /// # Errors
    /// None in practice (see [`min_throws`]).
    pub fn new(board: &Board, rules: &Rules) -> Result<Self, AnalysisError> {
        let m = min_throws(board, rules)?;
        Ok(Self {
            board: BoardFacts::of(board),
            rules: *rules,
            throws: m.throws,
            example: m.rolls,
            example_steps: m.steps,
            sequences: m.sequences.into(),
        })
    }
}

impl fmt::Display for MinThrowsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = if self.board.start == 0 {
            "off the board (0)"
        } else {
            "square 1"
        };
        writeln!(
            f,
            "{}, starting {start}, the player choosing every throw:",
            self.board.line(&self.rules)
        )?;
        let Some(throws) = self.throws else {
            return writeln!(
                f,
                "The finish {} cannot be reached: no sequence of throws ends the game.",
                self.board.size
            );
        };
        writeln!(f, "Fewest throws: {throws}")?;
        for (i, s) in self.example_steps.iter().enumerate() {
            writeln!(
                f,
                "  throw {:>3}: {}  {}",
                i + 1,
                s.roll,
                step_text(s, self.board.size)
            )?;
        }
        writeln!(
            f,
            "({} of the {}^{throws} sequences of {} {}.)",
            self.sequences,
            self.rules.faces(),
            tabletop::count(throws.into(), "throw", "throws"),
            if self.sequences.is_one() {
                "finishes"
            } else {
                "finish"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, parse_board};

    #[test]
    fn leetcode_909_examples_in_json_and_words() {
        let board = parse_board("[[-1,-1],[-1,3]]", Some(Format::Leetcode), None).unwrap();
        let r = MinThrowsReport::new(&board, &Rules::default()).unwrap();
        assert_eq!(r.throws, Some(1));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["throws"], 1);
        assert_eq!(json["board"]["start"], 1);
        assert!(r.to_string().contains("Fewest throws: 1"));
    }

    #[test]
    fn an_unreachable_finish_is_a_report() {
        let board =
            crate::analysis::min_throws::board_from_pairs("5 1 6 1 7 1 8 1 9 1 10 1", 12, 0)
                .unwrap();
        let r = MinThrowsReport::new(&board, &Rules::default()).unwrap();
        assert_eq!(r.throws, None);
        assert!(r.to_string().contains("cannot be reached"));
    }
}
