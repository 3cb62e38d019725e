//! The search report: the original assignments' random search for short
//! games (each new record-short game), optionally every game as short as
//! the shortest found, and the exact answer beside it.
//!
//! Terms:
//! - **record**: a game shorter than every game before it, in game order.
//! - **tie**: a game as short as the shortest found; ties are grouped into
//!   distinct **routes** (the chutes and ladders taken, in order).
//! - **exact answer** ([`SearchExact`]): the breadth-first search's
//!   shortest game for the same constraint.

use super::{BoardFacts, Count, constraint_text, dice_text, int_text, rolls_text, route_text};
use crate::analysis::AnalysisError;
use crate::analysis::search::{self, Record, SearchOptions};
use crate::analysis::shortest::{Constraint, ShortestGames};
use crate::board::{Board, Jump};
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tabletop::plural;

/// The most tied sequences per route put into words (the JSON has them
/// all).
const MAX_TIES_PER_ROUTE: usize = 50;

/// The most exact routes looked up to say how many sequences a found route
/// has in all.
const MAX_EXACT_ROUTES: usize = 10_000;

/// One dice sequence seen among the ties.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenSequence {
    /// The dice.
    pub dice: Vec<u8>,
    /// Games that rolled it.
    pub games: u64,
}

/// One route of the tied games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchRoute {
    /// The chutes and ladders taken, in order.
    pub jumps: Vec<Jump>,
    /// Distinct dice sequences seen for it.
    pub sequences: u64,
    /// How many shortest dice sequences take it in all (`null` when the
    /// search's best is not the true shortest, or not looked up).
    pub exact_sequences: Option<Count>,
    /// Games that played it.
    pub games: u64,
    /// Its first sequence in dice order.
    pub example: Vec<u8>,
    /// Every distinct sequence seen for it, in dice order.
    pub seen: Vec<SeenSequence>,
}

/// The exact shortest game for the search's constraint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchExact {
    /// The fewest rolls (`null`: no such game).
    pub rolls: Option<u32>,
    /// Dice sequences that play it.
    pub sequences: Count,
    /// Distinct routes (`null` when too many to count, with
    /// `routes_error`).
    pub routes: Option<Count>,
    /// Why the routes were not counted.
    pub routes_error: Option<String>,
}

/// What the random search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchReport {
    /// The board.
    pub board: BoardFacts,
    /// The rules.
    pub rules: Rules,
    /// The seed: the same seed finds the same games whatever the threads.
    pub seed: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Random games played.
    pub games: u64,
    /// Whether the search was stopped (Ctrl-C) before the games asked for:
    /// what was found is then of the `games` played.
    pub stopped: bool,
    /// Only games down exactly this many chutes counted (`null`: any).
    pub chutes: Option<u32>,
    /// Every game as short as the shortest found was kept.
    pub all_shortest: bool,
    /// Each new record, in game order.
    pub records: Vec<Record>,
    /// The shortest length found (`null`: no game counted).
    pub shortest_found: Option<u32>,
    /// With `all_shortest`: games as short as the shortest found.
    pub tied_games: u64,
    /// With `all_shortest`: distinct dice sequences among them.
    pub tied_sequences: u64,
    /// Every distinct tied sequence was kept (at most 100,000 are).
    pub ties_complete: bool,
    /// With `all_shortest`: the routes of the tied games.
    pub routes_found: Vec<SearchRoute>,
    /// The exact answer.
    pub exact: SearchExact,
    /// Seconds the search took.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

impl SearchReport {
    /// Searches `options.games` random games on `board` under `rules`,
    /// calling `progress(games just done)`, and sets the exact answer
    /// beside what was found.
    ///
    /// # Errors
    /// See [`search::search`] and [`ShortestGames::new`]; also
    /// [`AnalysisError::NoGames`] for no games at all.
    pub fn run(
        board: &Board,
        rules: &Rules,
        options: &SearchOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Self, AnalysisError> {
        Self::run_until(board, rules, options, progress, &AtomicBool::new(false))
    }

    /// [`Self::run`], until `stop` is raised (Ctrl-C): the report is then
    /// of the games played (the exact answer beside them is whole), and
    /// says it was `stopped`.
    ///
    /// # Errors
    /// As [`Self::run`].
    pub fn run_until(
        board: &Board,
        rules: &Rules,
        options: &SearchOptions,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, AnalysisError> {
        if options.games == 0 {
            return Err(AnalysisError::NoGames);
        }
        let started = Instant::now();
        let found = search::search_until(board, rules, options, progress, stop)?;
        let seconds = started.elapsed().as_secs_f64();
        let constraint = Constraint {
            chutes: options.chutes,
            ladders: None,
        };
        let exact = ShortestGames::new(board, rules, constraint)?;
        let routes = exact.route_count();
        let exact_list = if options.all_shortest && exact.rolls() == found.shortest {
            exact.routes(MAX_EXACT_ROUTES)
        } else {
            Vec::new()
        };
        let routes_found = found
            .routes
            .into_iter()
            .map(|r| SearchRoute {
                exact_sequences: exact_list
                    .iter()
                    .find(|e| e.jumps == r.jumps)
                    .map(|e| e.sequences.clone().into()),
                jumps: r.jumps,
                sequences: r.sequences,
                games: r.games,
                example: r.example,
                seen: r
                    .seen
                    .into_iter()
                    .map(|(dice, games)| SeenSequence { dice, games })
                    .collect(),
            })
            .collect();
        Ok(Self {
            board: BoardFacts::of(board),
            rules: *rules,
            seed: found.seed,
            threads: if options.threads == 0 {
                rayon::current_num_threads()
            } else {
                options.threads
            },
            games: found.games,
            stopped: found.games < options.games,
            chutes: options.chutes,
            all_shortest: options.all_shortest,
            records: found.records,
            shortest_found: found.shortest,
            tied_games: found.tied_games,
            tied_sequences: found.tied_sequences,
            ties_complete: found.ties_complete,
            routes_found,
            exact: SearchExact {
                rolls: exact.rolls(),
                sequences: exact.sequences().clone().into(),
                routes_error: routes.as_ref().err().map(ToString::to_string),
                routes: routes.ok().map(Count::from),
            },
            seconds,
            games_per_second: found.games as f64 / seconds.max(1e-9),
        })
    }
}

impl fmt::Display for SearchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stopped {
            writeln!(
                f,
                "Stopped (Ctrl-C): the games found below are of the games played."
            )?;
        }
        let faces = self.rules.faces();
        let what = constraint_text(Constraint {
            chutes: self.chutes,
            ladders: None,
        });
        writeln!(
            f,
            "Searching {} random games on {}, seed {}{}:",
            int_text(self.games),
            self.board.line(&self.rules),
            self.seed,
            if what.is_empty() {
                String::new()
            } else {
                format!(", games with {what}")
            }
        )?;
        let width = self.games.to_string().len();
        for r in &self.records {
            writeln!(
                f,
                "  game {:>width$}: {:>4} {:<5} {}",
                r.game,
                r.rolls,
                plural(r.rolls.into(), "roll", "rolls"),
                dice_text(r.dice.iter().copied(), faces)
            )?;
        }
        match self.shortest_found {
            Some(s) => writeln!(
                f,
                "Shortest found: {} ({:.3} s).",
                rolls_text(s),
                self.seconds
            )?,
            None if what.is_empty() => writeln!(f, "No game ended ({:.3} s).", self.seconds)?,
            None => writeln!(f, "No game with {what} was found ({:.3} s).", self.seconds)?,
        }
        if self.all_shortest && self.shortest_found.is_some() {
            writeln!(
                f,
                "\nGames as short as that: {} {}, {} distinct dice {}{}, {}:",
                int_text(self.tied_games),
                plural(self.tied_games, "game", "games"),
                int_text(self.tied_sequences),
                plural(self.tied_sequences, "sequence", "sequences"),
                if self.ties_complete {
                    String::new()
                } else {
                    format!(
                        " (only the first {} kept)",
                        int_text(search::MAX_TIES as u64)
                    )
                },
                tabletop::count(self.routes_found.len() as u64, "route", "routes")
            )?;
            for (i, r) in self.routes_found.iter().enumerate() {
                let of = r
                    .exact_sequences
                    .as_ref()
                    .map(|e| format!(" of {e}"))
                    .unwrap_or_default();
                writeln!(
                    f,
                    "  {:>3}. {}  — {} {}{of} seen in {} {}:",
                    i + 1,
                    route_text(&r.jumps),
                    int_text(r.sequences),
                    plural(r.sequences, "sequence", "sequences"),
                    int_text(r.games),
                    plural(r.games, "game", "games"),
                )?;
                for seen in r.seen.iter().take(MAX_TIES_PER_ROUTE) {
                    writeln!(
                        f,
                        "         {}{}",
                        dice_text(seen.dice.iter().copied(), faces),
                        if seen.games > 1 {
                            format!("  ({} games)", int_text(seen.games))
                        } else {
                            String::new()
                        }
                    )?;
                }
                if r.seen.len() > MAX_TIES_PER_ROUTE {
                    writeln!(
                        f,
                        "         … and {} more (--json lists them all)",
                        int_text((r.seen.len() - MAX_TIES_PER_ROUTE) as u64)
                    )?;
                }
            }
        }
        let exact = &self.exact;
        let exact_text = match exact.rolls {
            Some(n) => format!(
                "{}; {} dice sequence{}, {} distinct route{}",
                rolls_text(n),
                exact.sequences,
                if exact.sequences.is_one() { "" } else { "s" },
                exact
                    .routes
                    .as_ref()
                    .map_or_else(|| "(too many to count)".to_string(), Count::to_string),
                if exact.routes.as_ref().is_some_and(Count::is_one) {
                    ""
                } else {
                    "s"
                }
            ),
            None => "no such game exists".to_string(),
        };
        writeln!(f, "\nExact answer (breadth-first search): {exact_text}.")?;
        match (self.shortest_found, exact.rolls) {
            (Some(found), Some(best)) if found == best => {
                writeln!(f, "The search found the true shortest length.")?;
            }
            (Some(found), Some(best)) => writeln!(
                f,
                "The search's best is {} longer than the true shortest: try more --games.",
                rolls_text(found.saturating_sub(best))
            )?,
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raised after the first chunk of games (one thread), the stop leaves
    /// a search of exactly those games beside the whole exact answer.
    #[test]
    fn a_stopped_search_reports_the_games_it_played() {
        let options = SearchOptions {
            games: 3 * crate::analysis::simulate::CHUNK,
            seed: 3,
            chutes: None,
            all_shortest: false,
            threads: 1,
        };
        let stop = AtomicBool::new(false);
        let raise = |_| stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let r = SearchReport::run_until(
            &Board::classic(),
            &Rules::default(),
            &options,
            &raise,
            &stop,
        )
        .expect("a report");
        assert_eq!(r.games, crate::analysis::simulate::CHUNK);
        assert!(r.stopped);
        assert_eq!(r.exact.rolls, Some(7));
        assert!(r.to_string().starts_with("Stopped (Ctrl-C)"), "{r}");
    }

    #[test]
    fn the_search_reports_records_ties_and_the_exact_answer() {
        let options = SearchOptions {
            games: 200_000,
            seed: 3,
            chutes: Some(2),
            all_shortest: true,
            threads: 1,
        };
        let r = SearchReport::run(&Board::classic(), &Rules::default(), &options, &|_| {}).unwrap();
        assert!(!r.records.is_empty());
        assert_eq!(r.exact.rolls, Some(7));
        assert_eq!(r.exact.sequences, Count::from(8));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["exact"]["sequences"], "8");
        let text = r.to_string();
        assert!(
            text.contains(
                "Exact answer (breadth-first search): 7 rolls; 8 dice sequences, 1 distinct route."
            ),
            "{text}"
        );
    }
}
