//! A bot that plays Baffle with the solver.
//!
//! Terms:
//! - **decision** ([`Decision`]): the move the bot makes on a [`View`] and
//!   why ([`Reason`]). The bot sees only what a player sees.
//! - **policy**, in order:
//!   1. guess a mirror the shots prove and that is not yet found (free);
//!   2. when the layouts were counted (so the chances are exact shares),
//!      guess the likeliest mirror when its chance is over one half: a
//!      wrong guess costs 2, so such a guess costs less than a shot on
//!      average, and it teaches as much as a shot whichever way it goes.
//!      Past the count, the same for a mirror that (nearly) every sampled
//!      layout holds ([`BotOptions::guess_sampled_above`]) when its chance
//!      stated through the calibration map is over one half: the bot's
//!      chains start from layouts found apart
//!      ([`crate::solve::EstimateOptions::starts_share`]), so a mirror they
//!      all hold is one that layouts found in different ways agree on (from
//!      one start, the chains had agreed on mirrors that were wrong more
//!      often than right);
//!   3. otherwise follow the solver's [`Advice`]: its best next shot, or,
//!      when no shot can tell the layouts apart, its likeliest mirror. Past
//!      the exact count's budget the solver estimates by sampling, so the
//!      bot always has advice;
//!   4. only if the solver cannot even sample (no consistent layout found
//!      within its budget), explore: shoot the first hole whose exit is not
//!      yet known;
//!   5. and when every exit is known, guess the mirror that alone explains
//!      the most shots: a **one-turn explanation** of a shot is a cell and
//!      mirror that, with the mirrors found and no other, send its beam out
//!      at the exit seen;
//!   6. and when no mirror explains a shot alone, guess the first mirror
//!      not yet tried (row by row), so that the game always goes on: each
//!      such guess rules one out, and an unfound mirror is always among
//!      those left.
//! - **options** ([`BotOptions`]): the solver's options (by default a
//!   lighter estimate than a hint's, [`bot_solve_options`]), the chance
//!   above which a guess is preferred to a shot, and the solver's options
//!   once **every exit is known** (or every one but the two holes that
//!   then lead to each other, [`crate::beam::last_pair`]: no shot can
//!   teach anything, so the bot must guess: more effort on the starts,
//!   [`all_exits_known_solve_options`]), used instead of the first.
//! - **budget**: [`decide_within`] passes a [`Budget`] to the solver, which
//!   stops when it runs out.

use crate::beam::{last_pair, walk};
use crate::game::{Event, Game, Move, MoveError, View};
use crate::geometry::Size;
use crate::layout::{Mirror, Placed};
use crate::solve::advice::{estimated_chance_words, likeliest};
use crate::solve::calibrate::Guessed;
use crate::solve::{Advice, Method, Solution, SolveError, SolveOptions, calibrate, solve_within};
use serde::{Deserialize, Serialize};
use std::fmt;
use tabletop::Budget;

/// Why the bot made a move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// The solver's advice, followed.
    Advice {
        /// The advice.
        advice: Advice,
    },
    /// The likeliest mirror, with this chance of being right.
    Likely {
        /// The share of consistent layouts holding it.
        chance: f64,
        /// Whether the chance is estimated from a sample.
        estimated: bool,
    },
    /// The solver could not even sample: a hole whose exit is unknown.
    Explore,
    /// The solver could not sample, every exit known: the mirror that
    /// alone explains the most shots.
    Explains {
        /// The shots it explains with one turn.
        shots: usize,
    },
    /// The solver could not sample, every exit known, and no mirror
    /// explains a shot alone: the first mirror not yet tried.
    Untried,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Advice { advice } => write!(f, "{advice}"),
            Self::Likely { chance, estimated } => write!(
                f,
                "{} likely, cheaper than a shot",
                if *estimated {
                    estimated_chance_words(*chance)
                } else {
                    format!("{:.0}%", 100.0 * chance)
                }
            ),
            Self::Explore => write!(f, "too many cases to weigh yet; an unknown exit"),
            Self::Explains { shots } => write!(
                f,
                "too many cases to weigh; alone it explains {}",
                tabletop::count(*shots as u64, "shot", "shots")
            ),
            Self::Untried => write!(
                f,
                "too many cases to weigh, and no mirror explains a shot alone; the first not yet tried"
            ),
        }
    }
}

/// A move and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Why.
    pub reason: Reason,
}

/// How the bot thinks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotOptions {
    /// The solver's options (by default [`bot_solve_options`]: a lighter
    /// estimate than a hint's).
    pub solve: SolveOptions,
    /// A mirror at least this likely is guessed rather than shot for,
    /// when the layouts were counted (exact chances), or, past the count,
    /// when its chance stated through the calibration map is and the
    /// sample agrees on it ([`Self::guess_sampled_above`]).
    pub guess_above: f64,
    /// Past the count, a mirror held by at least this share of the sampled
    /// layouts may be guessed rather than shot for (above 1: never).
    #[serde(default = "default_guess_sampled_above")]
    pub guess_sampled_above: f64,
    /// The solver's options, instead of [`Self::solve`], once every exit
    /// is known (a shot can teach nothing: the bot guesses, and a sample
    /// is all that keeps its guesses from being blind): by default
    /// [`all_exits_known_solve_options`].
    #[serde(default = "all_exits_known_solve_options")]
    pub all_exits_known: SolveOptions,
    /// Whether a guess's chance on estimated odds is stated through the
    /// in-play map ([`calibrate::likeliest`]), as a hint states it (off:
    /// through the cells' calibration map alone, which is what the bench
    /// that fits the in-play map plays with).
    #[serde(default = "in_play")]
    pub likeliest_in_play: bool,
}

const fn in_play() -> bool {
    true
}

impl Default for BotOptions {
    fn default() -> Self {
        Self {
            solve: bot_solve_options(),
            guess_above: 0.5,
            guess_sampled_above: default_guess_sampled_above(),
            all_exits_known: all_exits_known_solve_options(),
            likeliest_in_play: in_play(),
        }
    }
}

/// The share of the sampled layouts that must hold a mirror for the bot to
/// guess it past the count (with [`BotOptions::guess_above`]).
const fn default_guess_sampled_above() -> f64 {
    0.999
}

/// The solver's options for the bot's first try at a move: a hint's, but
/// with half the chains' steps, half the steps for their starts (half of
/// those for the starts after the first, as many as a hint's), and the
/// sampled shares not calibrated
/// ([`crate::solve::calibrate`]: the map is the same for every cell of a
/// box, so it hardly changes which mirror is likeliest). The bot needs a
/// good move, not odds with a small stated error, and on the largest boxes
/// late in a game the hint's effort took up to a second a move; when this
/// gives up, the bot shoots a hole whose exit is unknown (a shot always
/// teaches). Once every exit is known, [`all_exits_known_solve_options`]
/// instead.
pub fn bot_solve_options() -> SolveOptions {
    let mut options = SolveOptions::default();
    options.estimate.find_steps /= 2;
    options.estimate.chain_steps /= 2;
    options.estimate.starts_share = 2;
    options.calibrate = false;
    options
}

/// The solver's options for the bot's move once every exit is known: a
/// hint's chains, and three quarters of a hint's steps for the starts
/// (the sampled shares not calibrated, as in [`bot_solve_options`]). A
/// shot can teach nothing then, so a sample is worth more than on a move
/// that may shoot; but on the densest boxes the starts' search often
/// fails there, and a hint's whole budget, spent and failing, took up to
/// 0.6 s (26 × 26 with 126 mirrors, seed 1; three quarters of it, up to
/// 0.44 s; two thirds scored worse there, 1,222 points against 1,102).
pub fn all_exits_known_solve_options() -> SolveOptions {
    let mut options = SolveOptions::default();
    options.estimate.find_steps = options.estimate.find_steps / 4 * 3;
    options.calibrate = false;
    options
}

/// Why the bot cannot move.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BotError {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The solver failed for a reason other than the size of the search.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Every exit is known, the solver still finds the box too hard, and
    /// every mirror has been tried (a view no layout fits).
    #[error(
        "every exit is known, but there are still too many cases to weigh and every mirror has been tried"
    )]
    TooHard,
    /// The view contradicts itself (no layout fits it): not a real game.
    #[error("no layout fits these shots and guesses")]
    Contradiction,
    /// A move the bot chose was refused (a bug, reported rather than hidden).
    #[error("the game refused the bot's move {mv}: {error}")]
    Refused {
        /// The move.
        mv: Move,
        /// Why.
        error: MoveError,
    },
}

/// The bot's move on `view`.
///
/// # Errors
/// [`BotError`] when the game is over or the solver cannot help.
pub fn decide(view: &View, options: &BotOptions) -> Result<Decision, BotError> {
    decide_within(view, options, &Budget::unlimited())
}

/// [`decide`] within `budget` (see [`crate::solve::solve_within`]).
///
/// # Errors
/// As [`decide`], and [`BotError::Solve`] with [`SolveError::Stopped`] when
/// the budget runs out or the question is withdrawn first.
pub fn decide_within(
    view: &View,
    options: &BotOptions,
    budget: &Budget,
) -> Result<Decision, BotError> {
    if view.status.is_over() {
        return Err(BotError::Over);
    }
    let evidence = view.evidence();
    let solve = if unknown_exit(view).is_some() {
        &options.solve
    } else {
        &options.all_exits_known
    };
    match solve_within(&evidence, solve, budget) {
        Ok(solution) => from_solution(view, &solution, options),
        Err(SolveError::TooHard { .. }) => explore(view),
        Err(e) => Err(e.into()),
    }
}

fn from_solution(
    view: &View,
    solution: &Solution,
    options: &BotOptions,
) -> Result<Decision, BotError> {
    let advice = &solution.advice;
    match advice {
        Advice::Contradiction => return Err(BotError::Contradiction),
        Advice::GuessProven { placed } => return Ok(guess(*placed, advised(advice))),
        _ => {}
    }
    if solution.method.counted()
        && let Some((p, chance)) = likeliest(&view.evidence(), solution)
        && chance > options.guess_above
    {
        return Ok(guess(
            p,
            Reason::Likely {
                chance,
                estimated: false,
            },
        ));
    }
    if !solution.method.counted()
        && let Some((p, share)) = likeliest(&view.evidence(), solution)
        && share >= options.guess_sampled_above
        && let Some(chance) = stated_chance(&p, solution, view, options, Guessed::EverySample)
        && chance > options.guess_above
    {
        return Ok(guess(
            p,
            Reason::Likely {
                chance,
                estimated: true,
            },
        ));
    }
    if let Some(hole) = advice.hole() {
        return Ok(Decision {
            mv: Move::Shoot { hole },
            reason: advised(advice),
        });
    }
    match advice.guess() {
        Some(p) => Ok(guess(
            p,
            advised(&calibrated(advice, solution, view, options)),
        )),
        None => Err(BotError::Contradiction),
    }
}

/// The advice as the bot states it: an estimated guess's chance taken
/// from the sampled shares (which the bot ranks by) through the
/// calibration map, as a hint states it.
fn calibrated(advice: &Advice, solution: &Solution, view: &View, options: &BotOptions) -> Advice {
    let Method::Estimated {
        calibrated: false, ..
    } = solution.method
    else {
        return advice.clone();
    };
    let stated =
        |placed: &Placed| stated_chance(placed, solution, view, options, Guessed::Likeliest);
    let mut method = solution.method;
    if let Method::Estimated { calibrated, .. } = &mut method {
        *calibrated = true;
    }
    match advice {
        Advice::NothingToLearn {
            placed,
            chance,
            all_shot,
            estimated,
        } => Advice::NothingToLearn {
            placed: *placed,
            chance: stated(placed).unwrap_or(*chance),
            all_shot: *all_shot,
            estimated: *estimated,
        },
        Advice::SampleUndivided { placed, chance, .. } => Advice::SampleUndivided {
            placed: *placed,
            chance: stated(placed).unwrap_or(*chance),
            method,
        },
        other => other.clone(),
    }
}

/// The chance of `placed`, the mirror the bot would guess, as a hint
/// states it: when the solution is estimated and not calibrated yet, its
/// sampled share through the calibration map and then (with
/// [`BotOptions::likeliest_in_play`]) the in-play map of its kind of guess
/// (`guessed`); else its share as it is; none for a proven cell or one the
/// solution does not list.
fn stated_chance(
    placed: &Placed,
    solution: &Solution,
    view: &View,
    options: &BotOptions,
    guessed: Guessed,
) -> Option<f64> {
    let odds = solution
        .cells
        .iter()
        .find(|c| c.cell == placed.cell && !c.proven)?;
    let shares = [odds.empty, odds.slash, odds.backslash];
    let Method::Estimated {
        calibrated: false, ..
    } = solution.method
    else {
        return Some(chance_of(placed, shares));
    };
    let evidence = view.evidence();
    let ruled_out = |m: Mirror| evidence.not.contains(&Placed::new(placed.cell, m));
    let c = calibrate::cell(
        &evidence,
        shares,
        [
            true,
            !ruled_out(Mirror::Slash),
            !ruled_out(Mirror::Backslash),
        ],
    );
    let chance = chance_of(placed, c);
    Some(if options.likeliest_in_play {
        calibrate::likeliest(&evidence, chance, guessed)
    } else {
        chance
    })
}

/// The chance of `placed` among a cell's chances (empty, `/`, `\`).
fn chance_of(placed: &Placed, chances: [f64; 3]) -> f64 {
    match placed.mirror {
        Mirror::Slash => chances[1],
        Mirror::Backslash => chances[2],
    }
}

fn advised(advice: &Advice) -> Reason {
    Reason::Advice {
        advice: advice.clone(),
    }
}

fn guess(p: Placed, reason: Reason) -> Decision {
    Decision {
        mv: Move::Guess {
            cell: p.cell,
            mirror: p.mirror,
        },
        reason,
    }
}

/// The first shootable hole whose exit is not known yet (a beam is
/// reversible, so a shot from `h` out at `e` also tells where `e` leads).
fn explore(view: &View) -> Result<Decision, BotError> {
    unknown_exit(view)
        .map(|hole| Decision {
            mv: Move::Shoot { hole },
            reason: Reason::Explore,
        })
        .or_else(|| best_explanation(view).map(|(p, shots)| guess(p, Reason::Explains { shots })))
        .or_else(|| first_untried(view).map(|p| guess(p, Reason::Untried)))
        .ok_or(BotError::TooHard)
}

/// The first mirror, row by row, in a cell not found that no wrong guess
/// has ruled out.
fn first_untried(view: &View) -> Option<Placed> {
    let size = Size::new(view.size).ok()?;
    let evidence = view.evidence();
    (0..size.cells())
        .map(|i| size.cell(i))
        .filter(|cell| !view.found.iter().any(|p| p.cell == *cell))
        .flat_map(|cell| [Mirror::Slash, Mirror::Backslash].map(|m| Placed::new(cell, m)))
        .find(|p| !evidence.not.contains(p))
}

/// The first shootable hole whose exit is not known yet: none when the
/// only two such holes lead to each other ([`last_pair`]).
fn unknown_exit(view: &View) -> Option<usize> {
    let known = |h: usize| view.shots.iter().any(|s| s.hole == h || s.exit == h);
    let size = Size::new(view.size).ok()?;
    if last_pair(size, known).is_some() {
        return None;
    }
    view.shootable.iter().copied().find(|&h| !known(h))
}

/// The mirror, not found and not guessed wrong, that is a one-turn
/// explanation of the most shots (the first in row order on a tie).
fn best_explanation(view: &View) -> Option<(Placed, usize)> {
    let size = Size::new(view.size).ok()?;
    let evidence = view.evidence();
    let mut found = vec![None; size.cells()];
    for p in &view.found {
        if let Some(slot) = found.get_mut(size.index(p.cell)) {
            *slot = Some(p.mirror);
        }
    }
    let mut best: Option<(Placed, usize)> = None;
    for index in 0..size.cells() {
        if found.get(index).copied().flatten().is_some() {
            continue;
        }
        let cell = size.cell(index);
        for mirror in [Mirror::Slash, Mirror::Backslash] {
            let placed = Placed::new(cell, mirror);
            if evidence.not.contains(&placed) {
                continue;
            }
            let mirror_at = |i: usize| {
                if i == index {
                    Some(mirror)
                } else {
                    found.get(i).copied().flatten()
                }
            };
            let explained = view
                .shots
                .iter()
                .filter(|s| {
                    let mut crossed = false;
                    let exit = walk(size, s.hole, mirror_at, |i, _, _| crossed |= i == index);
                    crossed && exit.is_ok_and(|e| e.hole == s.exit)
                })
                .count();
            if explained > 0 && best.is_none_or(|(_, b)| explained > b) {
                best = Some((placed, explained));
            }
        }
    }
    best
}

/// Plays `game` to its end with the bot, calling `each` with every decision
/// and the events it caused.
///
/// # Errors
/// [`BotError`] when the bot cannot move; the game keeps every move made
/// before.
pub fn play(
    game: &mut Game,
    options: &BotOptions,
    mut each: impl FnMut(&Decision, &[Event]),
) -> Result<(), BotError> {
    while !game.status().is_over() {
        let decision = decide(&game.view(), options)?;
        let events = game.apply(decision.mv).map_err(|error| BotError::Refused {
            mv: decision.mv,
            error,
        })?;
        each(&decision, &events);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Setup, Status};
    use crate::geometry::Sides;

    fn finished(setup: Setup) -> Game {
        let mut game = Game::new(setup).unwrap();
        let mut moves = 0;
        play(&mut game, &BotOptions::default(), |_, _| moves += 1).unwrap();
        assert_eq!(moves, game.moves().len());
        game
    }

    /// An estimated guess is ranked by the sampled shares, and its chance
    /// stated through the calibration map and the in-play map, as a hint
    /// states it.
    #[test]
    fn states_an_estimated_guess_calibrated() {
        let options = BotOptions::default();
        let mut checked = 0;
        for seed in 1..=4 {
            let mut game = Game::new(Setup::seeded(12, 30, Sides::All, seed)).unwrap();
            for hole in 0..48 {
                let _ = game.apply(Move::Shoot { hole });
            }
            let view = game.view();
            let solution =
                solve_within(&view.evidence(), &options.solve, &Budget::unlimited()).unwrap();
            if solution.method.counted() {
                continue;
            }
            let Ok(decision) = from_solution(&view, &solution, &options) else {
                continue;
            };
            let Reason::Advice {
                advice:
                    Advice::NothingToLearn { placed, chance, .. }
                    | Advice::SampleUndivided { placed, chance, .. },
            } = decision.reason
            else {
                continue;
            };
            let odds = solution
                .cells
                .iter()
                .find(|c| c.cell == placed.cell)
                .unwrap();
            let stated = calibrate::cell(
                &view.evidence(),
                [odds.empty, odds.slash, odds.backslash],
                [true; 3],
            );
            let i = usize::from(placed.mirror == Mirror::Backslash) + 1;
            let in_play = calibrate::likeliest(&view.evidence(), stated[i], Guessed::Likeliest);
            assert!((chance - in_play).abs() < 1e-12, "{chance} {stated:?}");
            checked += 1;
        }
        assert!(checked > 0, "no estimated guess among the seeds");
    }

    /// Past the count, a mirror every sampled layout holds is guessed
    /// rather than shot for when its calibrated chance (through the in-play
    /// map) is over one half, and its reason states that chance.
    #[test]
    fn guesses_a_mirror_every_sample_holds_by_its_calibrated_chance() {
        let mut game = Game::new(Setup::seeded(26, 40, Sides::All, 1)).unwrap();
        for hole in [
            69, 60, 9, 8, 35, 59, 93, 75, 5, 47, 97, 26, 58, 79, 45, 24, 92, 3, 77, 40, 1, 55, 76,
            22, 100, 70, 87, 73, 95, 43, 64, 71, 34, 13, 31, 21, 11, 16, 67,
        ] {
            game.apply(Move::Shoot { hole }).unwrap();
        }
        let view = game.view();
        let options = BotOptions::default();
        let solution =
            solve_within(&view.evidence(), &options.solve, &Budget::unlimited()).unwrap();
        assert!(!solution.method.counted(), "{:?}", solution.method);
        let d = from_solution(&view, &solution, &options).unwrap();
        let Reason::Likely {
            chance,
            estimated: true,
        } = d.reason
        else {
            panic!("{d:?}");
        };
        let Move::Guess { cell, mirror } = d.mv else {
            panic!("{d:?}");
        };
        let odds = solution.cells.iter().find(|c| c.cell == cell).unwrap();
        let (share, i) = match mirror {
            Mirror::Slash => (odds.slash, 1),
            Mirror::Backslash => (odds.backslash, 2),
        };
        assert!(share >= 0.999, "{share}");
        let stated = calibrate::cell(
            &view.evidence(),
            [odds.empty, odds.slash, odds.backslash],
            [true; 3],
        );
        assert!(
            (chance - calibrate::likeliest(&view.evidence(), stated[i], Guessed::EverySample))
                .abs()
                < 1e-12
                && chance > 0.5,
            "{chance} {stated:?}"
        );
        // Without the in-play map, the cell's calibrated chance as it is.
        let cell_map_only = BotOptions {
            likeliest_in_play: false,
            ..options
        };
        let d = from_solution(&view, &solution, &cell_map_only).unwrap();
        assert!(
            matches!(d.reason, Reason::Likely { chance, .. } if (chance - stated[i]).abs() < 1e-12),
            "{d:?}"
        );
        // Not when the sample's agreement asked for is out of reach.
        let strict = BotOptions {
            guess_sampled_above: 1.1,
            ..options
        };
        let d = from_solution(&view, &solution, &strict).unwrap();
        assert!(!matches!(d.reason, Reason::Likely { .. }), "{d:?}");
    }

    #[test]
    fn solves_the_fixed_game() {
        let game = finished(Setup::fixed(Sides::All));
        assert_eq!(game.status(), Status::Won);
        assert_eq!(game.view().found.len(), 5);
        // Every guess it made while certain was right; the score is what
        // the moves cost.
        let score = game.score();
        assert_eq!(score.total, score.shots + 2 * score.wrong_guesses);
        assert!(score.shots < 20, "{score:?}");
    }

    #[test]
    fn wins_seeded_games_on_both_kinds_of_box() {
        for seed in 0..6 {
            for sides in [Sides::All, Sides::LeftTop] {
                let game = finished(Setup::seeded(6, 3, sides, seed));
                assert_eq!(game.status(), Status::Won, "seed {seed}, {sides:?}");
            }
        }
    }

    #[test]
    fn guesses_what_is_certain_before_shooting() {
        let mut game = Game::new(Setup::fixed(Sides::All)).unwrap();
        // A guess the shots prove is never wrong.
        let options = BotOptions::default();
        play(&mut game, &options, |d, events| {
            if matches!(
                d.reason,
                Reason::Advice {
                    advice: Advice::GuessProven { .. }
                }
            ) {
                assert!(
                    events
                        .iter()
                        .any(|e| matches!(e, Event::Guess { right: true, .. })),
                    "{d:?} {events:?}"
                );
            }
        })
        .unwrap();
    }

    /// A solver that can neither count nor sample.
    fn unable() -> SolveOptions {
        SolveOptions {
            step_limit: 1,
            estimate: crate::solve::EstimateOptions {
                start_steps: 1,
                find_steps: 0,
                ..crate::solve::EstimateOptions::default()
            },
            ..SolveOptions::default()
        }
    }

    #[test]
    fn explores_when_the_solver_gives_up() {
        let mut game = Game::new(Setup::fixed(Sides::All)).unwrap();
        // Hole 0 comes out at 29, hole 1 at 24: the next unknown exit is 2.
        game.apply(Move::Shoot { hole: 0 }).unwrap();
        game.apply(Move::Shoot { hole: 1 }).unwrap();
        let options = BotOptions {
            solve: unable(),
            all_exits_known: unable(),
            ..BotOptions::default()
        };
        let d = decide(&game.view(), &options).unwrap();
        assert_eq!(d.reason, Reason::Explore);
        assert_eq!(d.mv, Move::Shoot { hole: 2 });
    }

    /// The fixed game after shooting every hole whose exit is not yet
    /// known.
    fn fixed_game_with_every_exit_known() -> Game {
        let mut game = Game::new(Setup::fixed(Sides::All)).unwrap();
        for hole in 0..40 {
            if !game.view().shots.iter().any(|s| s.exit == hole) {
                game.apply(Move::Shoot { hole }).unwrap();
            }
        }
        game
    }

    /// The fixed game after shooting every hole but two whose exit is not
    /// yet known: those two lead to each other.
    fn fixed_game_with_the_last_pair_left() -> Game {
        let mut game = Game::new(Setup::fixed(Sides::All)).unwrap();
        let unknown = |game: &Game| {
            let view = game.view();
            (0..40)
                .filter(|&h| !view.shots.iter().any(|s| s.hole == h || s.exit == h))
                .collect::<Vec<_>>()
        };
        while unknown(&game).len() > 2 {
            let hole = unknown(&game)[0];
            game.apply(Move::Shoot { hole }).unwrap();
        }
        game
    }

    /// Once every exit is known, or every one but the last two holes'
    /// (which lead to each other), the bot asks the solver with the
    /// options for that position instead of its first ones (here the first
    /// cannot sample, the others count: the bot guesses a mirror the shots
    /// prove), and shoots no hole.
    #[test]
    fn once_every_exit_is_known_it_solves_with_those_options() {
        for game in [
            fixed_game_with_every_exit_known(),
            fixed_game_with_the_last_pair_left(),
        ] {
            assert_eq!(unknown_exit(&game.view()), None);
            let first_unable = BotOptions {
                solve: unable(),
                ..BotOptions::default()
            };
            let d = decide(&game.view(), &first_unable).unwrap();
            assert!(
                matches!(
                    d.reason,
                    Reason::Advice {
                        advice: Advice::GuessProven { .. }
                    }
                ),
                "{d:?}"
            );
            let then_unable = BotOptions {
                all_exits_known: unable(),
                ..BotOptions::default()
            };
            let d = decide(&game.view(), &then_unable).unwrap();
            assert!(matches!(d.reason, Reason::Explains { .. }), "{d:?}");
        }
    }

    #[test]
    fn guesses_the_best_single_explanation_when_the_search_is_too_big() {
        // The fixed game with every exit known but a solver that gives up
        // at once: the bot guesses mirrors that explain shots on their own.
        let mut game = fixed_game_with_every_exit_known();
        let options = BotOptions {
            solve: unable(),
            all_exits_known: unable(),
            ..BotOptions::default()
        };
        let d = decide(&game.view(), &options).unwrap();
        let Reason::Explains { shots } = d.reason else {
            panic!("{d:?}");
        };
        // <4,2>=/ alone sends 5 out at 12 and 12 out at 5 (and more).
        assert!(shots >= 2, "{d:?}");
        let events = game.apply(d.mv).unwrap();
        assert!(
            matches!(events[0], Event::Guess { right: true, .. }),
            "{d:?} {events:?}"
        );
    }

    #[test]
    fn plays_boxes_too_big_to_count_to_the_end() {
        // 10 mirrors on 8 × 8 with a small step budget: the bot follows the
        // estimated advice until the count fits, and wins.
        let mut game = Game::new(Setup::seeded(8, 10, Sides::All, 3)).unwrap();
        let options = BotOptions {
            solve: SolveOptions {
                step_limit: 200_000,
                ..SolveOptions::default()
            },
            ..BotOptions::default()
        };
        let mut reasons = Vec::new();
        play(&mut game, &options, |d, _| reasons.push(d.reason.clone())).unwrap();
        assert_eq!(game.status(), Status::Won);
        let estimated = |r: &Reason| match r {
            Reason::Advice { advice } => matches!(
                advice,
                Advice::SampledBestShot {
                    method: crate::solve::Method::Estimated { .. },
                    ..
                }
            ),
            Reason::Likely { estimated, .. } => *estimated,
            _ => false,
        };
        assert!(reasons.iter().any(estimated), "{reasons:?}");
    }

    #[test]
    fn explores_only_when_it_cannot_sample_and_still_wins() {
        let mut game = Game::new(Setup::seeded(8, 10, Sides::All, 3)).unwrap();
        let options = BotOptions {
            solve: SolveOptions {
                step_limit: 2_000_000,
                estimate: crate::solve::EstimateOptions {
                    start_steps: 1,
                    find_steps: 0,
                    ..crate::solve::EstimateOptions::default()
                },
                ..SolveOptions::default()
            },
            ..BotOptions::default()
        };
        let mut reasons = Vec::new();
        play(&mut game, &options, |d, _| reasons.push(d.reason.clone())).unwrap();
        assert_eq!(game.status(), Status::Won);
        assert!(reasons.contains(&Reason::Explore), "{reasons:?}");
    }

    /// With a solver that can neither count nor sample, the bot still
    /// plays every game to its end: it explores, then guesses what explains
    /// shots alone, then the mirrors not yet tried.
    #[test]
    fn a_solver_that_cannot_help_still_lets_the_bot_finish() {
        let options = BotOptions {
            solve: unable(),
            all_exits_known: unable(),
            ..BotOptions::default()
        };
        let mut reasons = Vec::new();
        for seed in 1..=3 {
            let mut game = Game::new(Setup::seeded(6, 12, Sides::All, seed)).unwrap();
            play(&mut game, &options, |d, _| reasons.push(d.reason.clone())).unwrap();
            assert_eq!(game.status(), Status::Won, "seed {seed}");
        }
        assert!(reasons.contains(&Reason::Untried), "{reasons:?}");
    }

    #[test]
    fn the_first_untried_mirror_skips_what_wrong_guesses_ruled_out() {
        let mut game = Game::new(Setup::fixed(Sides::All)).unwrap();
        // <0,0> holds no mirror in the fixed box: / is ruled out by a
        // wrong guess, then \ is the first untried.
        game.apply(Move::Guess {
            cell: crate::geometry::Cell { row: 0, col: 0 },
            mirror: Mirror::Slash,
        })
        .unwrap();
        let p = first_untried(&game.view()).unwrap();
        assert_eq!(
            p,
            Placed::new(crate::geometry::Cell { row: 0, col: 0 }, Mirror::Backslash)
        );
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let mut game = Game::new(Setup::fixed(Sides::All)).unwrap();
        game.apply(Move::Quit).unwrap();
        assert_eq!(
            decide(&game.view(), &BotOptions::default()),
            Err(BotError::Over)
        );
    }
}
