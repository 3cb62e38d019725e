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
        view: race.box_view(own),
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

/// The largest box whose hint and bot move take milliseconds: the
/// slowest bot move on 4 × 4 to 10 × 10 boxes took 91 ms at load 2–4.5
/// (docs/performance.md, "What does a Baffle answer cost").
const QUICK_SIZE: usize = 10;

impl Helper for OwnBox {
    fn quick(&self) -> bool {
        self.view.size <= QUICK_SIZE
    }

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

/// The solver's time for each position of a look back not counted during
/// the game.
const LOOK_BACK_EACH: std::time::Duration = std::time::Duration::from_millis(300);

/// One box's look back: the box, its view as the race's secrets allow,
/// the match's memo of worked-out positions, and the box's title.
pub(super) struct LookBackBox {
    game: baffle::Game,
    view: View,
    memo: baffle::live::LiveMemo,
    title: String,
}

/// The box whose look back `viewer` may see in Baffle match `m`: the
/// viewer's own box while the game is on (the seat's in a race; a
/// spectator of a race sees none), and once it is over any seat's
/// (`seat`, else as the viewer sees it).
///
/// # Errors
/// `no_such_seat` for a seat the match does not have; `not_your_seat` for
/// another racer's box while the race is on; `no_token` for a spectator of
/// a race in play.
pub(super) fn look_back_box(
    m: &Match<Race>,
    viewer: Viewer,
    seat: Option<u8>,
) -> Result<LookBackBox, Refusal> {
    let race = m.game();
    let own = match viewer {
        Viewer::Seat { seat } => Some(seat),
        Viewer::Spectator => None,
    };
    let asked = match seat {
        Some(s) if !(1..=race.racers()).contains(&usize::from(s)) => {
            return Err(Refusal::new(
                Code::NoSuchSeat,
                format!(
                    "there is no seat {s}: this match has seats 1 to {}",
                    race.racers()
                ),
            ));
        }
        Some(s) if !race.is_over() && race.racers() > 1 && own != Some(s) => {
            return Err(Refusal::new(
                Code::NotYourSeat,
                format!("seat {s}'s box is theirs alone while the race is on"),
            ));
        }
        Some(s) => Some(s),
        None => own,
    };
    let game = race.own_box(asked).ok_or_else(|| {
        Refusal::new(
            Code::NoToken,
            "in a race each player has their own box: send your seat token \
             (Authorization: Bearer TOKEN)",
        )
    })?;
    Ok(LookBackBox {
        game: game.clone(),
        view: race.box_view(asked),
        memo: race.memo().clone(),
        title: super::box_title(race.board()),
    })
}

impl crate::ShotsLookBack for LookBackBox {
    fn chart(&self, budget: &Budget) -> Result<render::Picture, Refusal> {
        let looks = baffle::live::look_back(&self.game, LOOK_BACK_EACH, &self.memo, budget);
        render::baffle_layouts::layouts_chart(&looks, &self.title)
            .map_err(|e| Refusal::new(Code::Invalid, e.to_string()))
    }

    fn view(&self) -> Result<GameJson, Refusal> {
        game_json(&self.view)
    }
}

/// Every box's look back of race `race` in words: the layouts left after
/// each shot beside what the best possible shot would have left.
pub(super) fn look_back_words(race: &Race, names: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, game) in race.boxes().iter().enumerate() {
        let looks = baffle::live::look_back(
            game,
            std::time::Duration::from_secs(2),
            race.memo(),
            &Budget::unlimited(),
        );
        let whose = if race.racers() > 1 {
            format!(" of {}", tabletop::play::seat_name(names, i as u8 + 1))
        } else {
            String::new()
        };
        lines.push(format!(
            "The look back{whose}: the layouts that fit after each shot."
        ));
        if looks.is_empty() {
            lines.push("       No shot was fired.".to_string());
        }
        for look in &looks {
            lines.push(format!("       {look}"));
        }
    }
    lines
}
