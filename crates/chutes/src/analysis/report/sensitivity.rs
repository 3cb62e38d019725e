//! The sensitivity report: how the board's mean game length and seats'
//! chances change with each chute and ladder ([`Sensitivity`]), in words
//! and as JSON.
//!
//! Terms:
//! - **table**: the library's [`Sensitivity`], whole in JSON.
//! - **words**: per jump, the effect of removing it and the range of its
//!   shifted ends' effects; then the squares where a new chute would cost
//!   most, and a new ladder save most.

use super::{BoardFacts, jump_text};
use crate::analysis::AnalysisError;
use crate::analysis::sensitivity::{self, Effect, Sensitivity, Shift};
use crate::board::Board;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;
use tabletop::Budget;

/// Squares listed in words for new chutes and ladders.
const LISTED_SQUARES: usize = 5;

/// "How sensitive is this board to each chute and ladder?"
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SensitivityReport {
    /// The board.
    pub board: BoardFacts,
    /// The rules.
    pub rules: Rules,
    /// The table.
    pub sensitivity: Sensitivity,
}

impl SensitivityReport {
    /// The table for `board` under `rules`, `players` seats, new jumps of
    /// `length` squares.
    ///
    /// # Errors
    /// As [`sensitivity::sensitivity`].
    pub fn new(
        board: &Board,
        rules: &Rules,
        players: usize,
        length: u32,
        budget: &Budget,
    ) -> Result<Self, AnalysisError> {
        Ok(Self {
            board: BoardFacts::of(board),
            rules: *rules,
            sensitivity: sensitivity::sensitivity(board, rules, players, length, budget)?,
        })
    }
}

/// `47->26`.
fn jump_words(j: &crate::board::Jump) -> String {
    format!("{}->{}", j.from, j.to)
}

/// `+1.23` rolls.
fn signed(x: f64) -> String {
    format!("{x:+.2}")
}

/// "−0.8 to +2.1" over the shifts that are edits.
fn span(shifts: &[Shift]) -> String {
    let changes: Vec<f64> = shifts
        .iter()
        .filter_map(|s| s.effect.as_ref().map(|e| e.mean_change))
        .collect();
    let lo = changes.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = changes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if changes.is_empty() {
        "no move fits".into()
    } else {
        format!("{} to {}", signed(lo), signed(hi))
    }
}

/// Seat 1's change, in percentage points, when several seats play.
fn seat_one(e: &Effect, players: usize) -> String {
    match (players, e.seat_change.first()) {
        (2.., Some(d)) => format!(", seat 1 {:+.2} points", d * 100.0),
        _ => String::new(),
    }
}

impl fmt::Display for SensitivityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.sensitivity;
        writeln!(
            f,
            "Sensitivity of {} ({} squares, {}): mean {:.4} rolls for one player.",
            self.board.name.as_deref().unwrap_or("unnamed board"),
            self.board.size,
            self.rules,
            t.mean
        )?;
        writeln!(
            f,
            "Change in the mean (rolls) when each jump is removed, and when its head or foot moves 1 to {} squares:",
            sensitivity::MAX_SHIFT
        )?;
        for j in &t.jumps {
            let removed = j
                .removed
                .as_ref()
                .map_or("no effect (games would not end)".to_string(), |e| {
                    format!("{}{}", signed(e.mean_change), seat_one(e, t.players))
                });
            writeln!(
                f,
                "  {:<18} removed {removed}; head moved {}; foot moved {}",
                jump_text(&j.jump),
                span(&j.head),
                span(&j.foot)
            )?;
        }
        let ranked = |pick: fn(&sensitivity::SquareSensitivity) -> Option<&Effect>, most: bool| {
            let mut v: Vec<(u32, f64)> = t
                .squares
                .iter()
                .filter_map(|s| pick(s).map(|e| (s.square, e.mean_change)))
                .collect();
            v.sort_by(|a, b| {
                let o = a.1.total_cmp(&b.1);
                if most { o.reverse() } else { o }
            });
            v.truncate(LISTED_SQUARES);
            v.iter()
                .map(|(s, d)| format!("{s} ({})", signed(*d)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(
            f,
            "A new chute of {} squares would add most on squares: {}",
            t.length,
            ranked(|s| s.chute.as_ref(), true)
        )?;
        writeln!(
            f,
            "A new ladder of {} squares would save most on squares: {}",
            t.length,
            ranked(|s| s.ladder.as_ref(), false)
        )?;
        // The rows that surprise: a chute that shortens the game (it sends
        // a token onto a ladder's foot, or past a worse chute) and a ladder
        // that lengthens it.
        let against = |pick: fn(&sensitivity::SquareSensitivity) -> Option<&Effect>, sign: f64| {
            let mut v: Vec<(u32, f64)> = t
                .squares
                .iter()
                .filter_map(|s| pick(s).map(|e| (s.square, e.mean_change)))
                .filter(|(_, d)| d * sign > 0.0)
                .collect();
            v.sort_by(|a, b| (b.1 * sign).total_cmp(&(a.1 * sign)));
            v.iter()
                .map(|(s, d)| format!("{s} ({})", signed(*d)))
                .collect::<Vec<_>>()
        };
        // A chute whose removal lengthens the game shortens it where it is
        // (and a ladder whose removal shortens it lengthens it).
        for j in &t.jumps {
            let chute = j.jump.to < j.jump.from;
            if let Some(e) = &j.removed
                && (if chute {
                    e.mean_change > 0.0
                } else {
                    e.mean_change < 0.0
                })
            {
                writeln!(
                    f,
                    "Surprise: the {} {} {} the game: removing it changes the mean by {}",
                    if chute { "chute" } else { "ladder" },
                    jump_words(&j.jump),
                    if chute { "SHORTENS" } else { "LENGTHENS" },
                    signed(e.mean_change)
                )?;
            }
        }
        let shorter = against(|s| s.chute.as_ref(), -1.0);
        if !shorter.is_empty() {
            writeln!(
                f,
                "Surprise: a new chute of {} squares would SHORTEN the game on {} squares: {}",
                t.length,
                shorter.len(),
                shorter.join(", ")
            )?;
        }
        let longer = against(|s| s.ladder.as_ref(), 1.0);
        if !longer.is_empty() {
            writeln!(
                f,
                "Surprise: a new ladder of {} squares would LENGTHEN the game on {} squares: {}",
                t.length,
                longer.len(),
                longer.join(", ")
            )?;
        }
        Ok(())
    }
}
