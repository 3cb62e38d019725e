//! Baffle's help for a player: the solver's hint on the box they see, and
//! the bot's move for them ([`crate::help`]).
//!
//! Terms:
//! - **own box**: what a player's hint and bot move are worked out from:
//!   the shots, the mirrors found and the wrong guesses of their own box
//!   (in a race, each seat's own; in the solitaire game, the one box);
//!   never the hidden layout.

use crate::Refusal;
use crate::help::{BotChoice, Helper};
use crate::protocol::{GameJson, game_json};
use baffle::bot::{BotError, BotOptions, Decision, decide_within};
use baffle::{MoveError, Race, View};
use serde::Serialize;
use tabletop::play::{Match, Viewer};
use tabletop::{Budget, Code};

/// A Baffle player's own box while the match is on, and its title.
pub(super) struct OwnBox {
    view: View,
    title: String,
}

/// The own box of `viewer` in match `m` (see the module's terms).
///
/// # Errors
/// `game_over` once the match is over (nothing is left to help with);
/// `no_token` for a spectator of a race (who has no box of their own).
pub(super) fn own_box(m: &Match<Race>, viewer: Viewer) -> Result<OwnBox, Refusal> {
    if m.status().is_over() {
        return Err(Refusal::new(
            Code::GameOver,
            "the game is over: there is no move left to help with",
        ));
    }
    let race = m.game();
    let own = match viewer {
        Viewer::Seat { seat } if usize::from(seat) <= race.racers() => Some(seat),
        _ if race.racers() == 1 => Some(1),
        _ => {
            return Err(Refusal::new(
                Code::NoToken,
                "in a race each player has their own box: send your seat token \
                 (Authorization: Bearer TOKEN)",
            ));
        }
    };
    Ok(OwnBox {
        view: race.view(own).own,
        title: super::box_title(race.board()),
    })
}

/// What the solver says from the player's evidence.
#[derive(Serialize)]
struct Hint {
    /// The solver's whole answer (its `advice` as a value).
    #[serde(flatten)]
    solution: baffle::Solution,
    /// The advice in one short sentence ("Shoot hole 7: it tells you the
    /// most.").
    advice_short: String,
    /// The advice's detail, for whoever asks why: its figures and how
    /// they were counted.
    advice_text: String,
    /// The box drawn with each cell tinted by its odds of a mirror.
    svg: String,
}

/// The bot's move: its JSON form and reason, and both in words.
#[derive(Serialize)]
struct BotMove {
    /// The library's decision: `move` and `reason` (tagged by `kind`).
    #[serde(flatten)]
    decision: Decision,
    /// The move's text form (`shoot 7`, `guess 4 2 /`).
    move_text: String,
    /// Why, in one sentence.
    reason_text: String,
}

/// A bot that cannot move: `game_over` (409) after the end, `bot_stuck`
/// (422) otherwise.
pub(super) fn bot_refused(e: &BotError) -> Refusal {
    match e {
        BotError::Over
        | BotError::Refused {
            error: MoveError::Over { .. },
            ..
        } => Refusal::new(Code::GameOver, format!("{e}: the bot has no move to make")),
        _ => Refusal::new(Code::BotStuck, format!("the bot cannot move: {e}")),
    }
}

impl Helper for OwnBox {
    fn hint(&self, budget: &Budget) -> Result<GameJson, Refusal> {
        let solution = baffle::solve_within(
            &self.view.evidence(),
            &baffle::SolveOptions::default(),
            budget,
        )
        .map_err(|e| Refusal::new(Code::Invalid, e.to_string()))?;
        let style = render::baffle::BaffleStyle {
            title: Some(self.title.clone()),
            subtitle: Some(match &solution.layouts {
                Some(layouts) => format!(
                    "{layouts} {} the evidence: each cell tinted by its chance of a mirror",
                    if *layouts == 1u32.into() {
                        "layout fits"
                    } else {
                        "layouts fit"
                    }
                ),
                None => format!(
                    "Odds {}: each cell tinted by its chance of a mirror",
                    solution.method
                ),
            }),
            odds: Some(solution.cells.clone()),
            steady: true,
        };
        let svg = render::baffle::view_with(&self.view, &style)
            .map_err(|e| Refusal::new(Code::Invalid, format!("cannot draw this: {e}")))?
            .to_svg();
        game_json(&Hint {
            advice_short: baffle::words::hint_words(&solution.advice),
            advice_text: baffle::words::hint_detail(&solution.advice),
            solution,
            svg,
        })
    }

    fn bot_move(&self, budget: &Budget) -> Result<BotChoice, Refusal> {
        let decision = decide_within(&self.view, &BotOptions::default(), budget)
            .map_err(|e| bot_refused(&e))?;
        let text = decision.mv.to_string();
        let why = game_json(&BotMove {
            move_text: text.clone(),
            reason_text: baffle::words::reason_words(&decision.reason),
            decision,
        })?;
        Ok(BotChoice { text, why })
    }
}
