//! The shortest-game report: the fewest rolls, how many dice sequences and
//! distinct routes play it, one of them step by step, and optionally lists.
//!
//! Terms:
//! - **constraint**: only games taking exactly so many chutes and/or
//!   ladders count.
//! - **listing** ([`ShortestListing`]): how many routes and dice sequences
//!   the report lists (none by default).

use super::{BoardFacts, Count, constraint_text, dice_text, rolls_text, route_text, step_text};
use crate::analysis::AnalysisError;
use crate::analysis::min_throws::play;
use crate::analysis::shortest::{Constraint, ShortestGames};
use crate::board::{Board, Jump};
use crate::rules::{Rules, Step};
use serde::Serialize;
use std::fmt;
use tabletop::Budget;

/// The most rolls of a game put one per line in words (the JSON always has
/// them all).
const MAX_STEP_LINES: usize = 200;

/// How much of the shortest games a report lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShortestListing {
    /// List up to this many distinct routes (only when they could be
    /// counted).
    pub routes: usize,
    /// List up to this many dice sequences, in dice order.
    pub sequences: usize,
}

/// One distinct route of the shortest games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RouteReport {
    /// The chutes and ladders taken, in order.
    pub jumps: Vec<Jump>,
    /// How many shortest dice sequences take this route.
    pub sequences: Count,
    /// The first of them in dice order.
    pub example: Vec<u8>,
}

/// The shortest games on a board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShortestReport {
    /// The board.
    pub board: BoardFacts,
    /// The rules.
    pub rules: Rules,
    /// Which games count.
    pub constraint: Constraint,
    /// The fewest rolls; `null` when no game meets the constraint (or the
    /// finish cannot be reached).
    pub rolls: Option<u32>,
    /// Dice sequences of that many rolls that play a shortest game.
    pub sequences: Count,
    /// Distinct routes among them; `null` when too many to count, with
    /// `routes_error` saying why.
    pub routes: Option<Count>,
    /// Why the routes were not counted.
    pub routes_error: Option<String>,
    /// The first shortest dice sequence in dice order (empty when none).
    pub example: Vec<u8>,
    /// What each roll of `example` does.
    pub example_steps: Vec<Step>,
    /// The first routes (as many as the listing asks; empty when the routes
    /// were not counted).
    pub route_list: Vec<RouteReport>,
    /// The first dice sequences in dice order (as many as the listing asks).
    pub sequence_list: Vec<Vec<u8>>,
}

impl ShortestReport {
    /// The shortest games on `board` under `rules` that meet `constraint`,
    /// with the lists `listing` asks for.
    ///
    /// # Errors
    /// [`AnalysisError::TooLarge`] when the constrained search would hold
    /// too many states.
    pub fn new(
        board: &Board,
        rules: &Rules,
        constraint: Constraint,
        listing: ShortestListing,
    ) -> Result<Self, AnalysisError> {
        Self::within(board, rules, constraint, listing, &Budget::unlimited())
    }

    /// [`ShortestReport::new`] within `budget`.
    ///
    /// # Errors
    /// As [`ShortestReport::new`], and [`AnalysisError::Stopped`] when the
    /// budget runs out or the question is withdrawn first.
    pub fn within(
        board: &Board,
        rules: &Rules,
        constraint: Constraint,
        listing: ShortestListing,
        budget: &Budget,
    ) -> Result<Self, AnalysisError> {
        let games = ShortestGames::within(board, rules, constraint, budget)?;
        let routes = games.route_count();
        let route_list = match &routes {
            Ok(_) if listing.routes > 0 => games
                .routes(listing.routes)
                .into_iter()
                .map(|r| RouteReport {
                    jumps: r.jumps,
                    sequences: r.sequences.into(),
                    example: r.example,
                })
                .collect(),
            _ => Vec::new(),
        };
        let example = games.example();
        let sequence_list = games.sequences_list(listing.sequences);
        // A listing cut short by the budget is no answer.
        if let Some(stopped) = budget.stopped() {
            return Err(stopped.into());
        }
        Ok(Self {
            board: BoardFacts::of(board),
            rules: *rules,
            constraint,
            rolls: games.rolls(),
            sequences: games.sequences().clone().into(),
            routes_error: routes.as_ref().err().map(ToString::to_string),
            routes: routes.ok().map(Count::from),
            example_steps: play(board, rules, &example),
            example,
            route_list,
            sequence_list,
        })
    }
}

impl fmt::Display for ShortestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let faces = self.rules.faces();
        let what = constraint_text(self.constraint);
        let scope = if what.is_empty() {
            "shortest game".to_string()
        } else {
            format!("shortest game with {what}")
        };
        let board = self.board.line(&self.rules);
        let Some(rolls) = self.rolls else {
            let missing = if what.is_empty() {
                "an end (the finish cannot be reached)".to_string()
            } else {
                what
            };
            return writeln!(f, "No game on {board} has {missing}: there is no {scope}.");
        };
        writeln!(f, "The {scope} on {board}: {}.", rolls_text(rolls))?;
        writeln!(
            f,
            "\nOne of them: dice {}",
            dice_text(self.example.iter().copied(), faces)
        )?;
        for (i, s) in self.example_steps.iter().enumerate().take(MAX_STEP_LINES) {
            writeln!(
                f,
                "  roll {:>3}: {}  {}",
                i + 1,
                s.roll,
                step_text(s, self.board.size)
            )?;
        }
        if self.example_steps.len() > MAX_STEP_LINES {
            writeln!(
                f,
                "  … the first {MAX_STEP_LINES} of {} rolls are shown (--json has the whole path).",
                self.example_steps.len()
            )?;
        }
        writeln!(
            f,
            "\nDice sequences of {} that play it: {} (of {faces}^{rolls}).",
            rolls_text(rolls),
            self.sequences,
        )?;
        match (&self.routes, &self.routes_error) {
            (Some(r), _) => writeln!(
                f,
                "Distinct routes: {r} (sequences taking the same chutes and ladders in the same order are one route)."
            )?,
            (None, e) => writeln!(
                f,
                "Distinct routes: not counted ({}).",
                e.as_deref().unwrap_or("too many")
            )?,
        }
        if !self.route_list.is_empty() {
            writeln!(f, "\nRoutes:")?;
            for (i, r) in self.route_list.iter().enumerate() {
                writeln!(
                    f,
                    "  {:>4}. {}  — {} sequence{}, e.g. {}",
                    i + 1,
                    route_text(&r.jumps),
                    r.sequences,
                    if r.sequences.is_one() { "" } else { "s" },
                    dice_text(r.example.iter().copied(), faces)
                )?;
            }
            if let Some(total) = &self.routes
                && Count::from(self.route_list.len() as u64) < *total
            {
                writeln!(
                    f,
                    "  … the first {} of {total} routes are listed.",
                    self.route_list.len(),
                )?;
            }
        }
        if !self.sequence_list.is_empty() {
            writeln!(f, "\nDice sequences (in dice order; --limit N for more):")?;
            for s in &self.sequence_list {
                writeln!(f, "  {}", dice_text(s.iter().copied(), faces))?;
            }
            if Count::from(self.sequence_list.len() as u64) < self.sequences {
                writeln!(
                    f,
                    "  … {} of {} listed.",
                    super::int_text(self.sequence_list.len() as u64),
                    self.sequences
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_shortest_game_in_json_and_words() {
        let listing = ShortestListing {
            routes: 100,
            sequences: 2,
        };
        let r = ShortestReport::new(
            &Board::classic(),
            &Rules::default(),
            Constraint::NONE,
            listing,
        )
        .unwrap();
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["rolls"], 7);
        assert_eq!(json["sequences"], "423");
        assert_eq!(json["routes"], "7");
        assert_eq!(json["route_list"].as_array().unwrap().len(), 7);
        assert_eq!(json["sequence_list"].as_array().unwrap().len(), 2);
        assert_eq!(json["example_steps"][6]["to"], 100);
        assert_eq!(json["board"]["name"], "classic");
        let text = r.to_string();
        assert!(text.contains(": 7 rolls."), "{text}");
        assert!(text.contains("play it: 423 (of 6^7)"), "{text}");
        assert!(text.contains("Distinct routes: 7 "), "{text}");
        assert!(text.contains("… 2 of 423 listed."), "{text}");
    }

    #[test]
    fn no_lists_unless_asked() {
        let r = ShortestReport::new(
            &Board::classic(),
            &Rules::default(),
            Constraint::NONE,
            ShortestListing::default(),
        )
        .unwrap();
        assert!(r.route_list.is_empty() && r.sequence_list.is_empty());
        assert!(!r.to_string().contains("Routes:"));
    }
}
