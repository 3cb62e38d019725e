//! Baffle in the match router, and its helpers: the hint and the bot's
//! move for the player.
//!
//! Terms:
//! - **setup request**: `{"fixed": true}` (the original assignment's first
//!   game), or a random box: `{"size": 10, "mirrors": 5}`, drawn from the
//!   match's own secret seed; `"sides": "all" | "left-top"` for either.
//! - **public setup**: the box's size, mirror count, sides and every hole's
//!   place round it — never a mirror.
//! - **hint**: the solver run on what the view shows (shots, found
//!   mirrors, wrong guesses), never on the hidden layout.
//! - **bot move**: the bot's move on the view, played for the player's seat
//!   as if they had made it (so it needs their token and the move number).

use super::SeatPlan;
use super::table::{GameKind, MoveInput, Played, Table, Typed};
use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::seats::Bearer;
use crate::work::Line;
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use baffle::bot::{BotError, BotOptions, Decision, decide_within};
use baffle::{Game, MoveError, Setup, Side, Sides, Size, View};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabletop::play::{DiceMode, Match, SeatKind};

/// The routes under `/api/baffle/matches`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/matches/{id}/hint", post(hint))
        .route("/matches/{id}/bot", post(bot_move))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    #[serde(default)]
    fixed: bool,
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    mirrors: Option<usize>,
    #[serde(default)]
    sides: Sides,
}

/// A new Baffle match from a page's setup request; a random box is drawn
/// from `seed`, the match's own.
///
/// # Errors
/// 400 for a bad setup (a box too small, too many mirrors), or anything
/// but one seat.
pub fn start(
    setup: Value,
    plans: &[SeatPlan],
    dice: DiceMode,
    seed: u64,
) -> Result<Box<dyn Table>, ApiError> {
    let req: SetupRequest = super::read_setup(setup)?;
    if plans.len() != 1 {
        return Err(super::bad_seats(format!(
            "Baffle has one player, not {}",
            plans.len()
        )));
    }
    let setup = if req.fixed {
        if req.size.is_some() || req.mirrors.is_some() {
            return Err(ApiError::bad_request(
                "the fixed game is the original assignment's 10 × 10 box with 5 mirrors: \
                 give no size or mirrors with it",
            ));
        }
        Setup::fixed(req.sides)
    } else {
        Setup::seeded(
            req.size.unwrap_or(baffle::geometry::DEFAULT_SIZE),
            req.mirrors.unwrap_or(5),
            req.sides,
            seed,
        )
    };
    Game::new(setup.clone())
        .map_err(|e| ApiError::bad_request(e.to_string()).with_code("bad_setup"))?;
    super::start::<Game>(setup, plans, dice)
}

/// Where a hole sits round the box.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HolePlace {
    /// The hole's number.
    pub hole: usize,
    /// Its side.
    pub side: Side,
    /// Its place along the side: from the top (left, right sides) or from
    /// the left (top, bottom sides), 0-based.
    pub at: usize,
    /// Whether beams may be shot into it in this game.
    pub shootable: bool,
}

/// Every hole's place round `game`'s box, by the library's geometry.
pub fn hole_places(game: &Game) -> Vec<HolePlace> {
    let size: Size = game.size();
    let sides = game.sides();
    (0..size.holes())
        .filter_map(|hole| {
            let side = size.side(hole)?;
            let (index, _) = size.entry(hole)?;
            let cell = size.cell(index);
            let at = match side {
                Side::Left | Side::Right => cell.row,
                Side::Top | Side::Bottom => cell.col,
            } as usize;
            Some(HolePlace {
                hole,
                side,
                at,
                shootable: sides.allows(side),
            })
        })
        .collect()
}

/// `fixed` (the original assignment's first game) or `random`.
fn origin(game: &Game) -> &'static str {
    match game.setup().origin {
        baffle::Origin::Fixed => "fixed",
        baffle::Origin::Seeded { .. } => "random",
        baffle::Origin::Given { .. } => "given",
    }
}

/// The picture's title: which game this is.
fn picture_title(game: &Game) -> String {
    match origin(game) {
        "fixed" => "Baffle: the original assignment's first game".to_string(),
        _ => format!(
            "Baffle: a {n} × {n} box with {}",
            tabletop::count(game.view().mirrors as u64, "mirror", "mirrors"),
            n = game.size().n()
        ),
    }
}

impl GameKind for Game {
    const TITLE: &'static str = "Baffle";

    fn public_setup(m: &Match<Self>) -> Value {
        let game = m.game();
        let view = game.view();
        json!({
            "size": view.size,
            "mirrors": view.mirrors,
            "sides": view.sides,
            "origin": origin(game),
            "holes": hole_places(game),
        })
    }

    fn title(setup: &Setup, _seats: &[SeatKind]) -> String {
        match Game::new(setup.clone()) {
            Ok(game) => picture_title(&game),
            Err(_) => "Baffle".to_string(),
        }
    }

    fn picture(
        m: &Match<Self>,
        _name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        let style = render::baffle::BaffleStyle {
            title: Some(picture_title(m.game())),
            steady: true,
            ..render::baffle::BaffleStyle::default()
        };
        render::baffle::view_with(&m.game().view(), &style)
    }
}

/// The Baffle match of table `t`, or a 400 for another game's.
fn baffle_of(t: &dyn Table) -> Result<&Match<Game>, ApiError> {
    t.as_any()
        .downcast_ref::<Typed<Game>>()
        .map(Typed::inner)
        .ok_or_else(|| {
            ApiError::coded(
                StatusCode::BAD_REQUEST,
                "wrong_game",
                format!("this is a {} game, not Baffle", t.game_title()),
            )
        })
}

/// What the solver says from the player's evidence.
#[derive(Serialize)]
struct Hint {
    /// The solver's whole answer (its `advice` as a value).
    #[serde(flatten)]
    solution: baffle::Solution,
    /// The advice in words.
    advice_text: String,
    /// The box drawn with each cell tinted by its odds of a mirror.
    svg: String,
}

/// `POST /api/baffle/matches/{id}/hint`.
async fn hint(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Hint> {
    let (view, title) = state
        .hub
        .with_table(&id, |t| {
            baffle_of(t).map(|m| (m.game().view(), picture_title(m.game())))
        })
        .await??;
    if view.status.is_over() {
        return Err(ApiError::coded(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over: no hint needed",
        ));
    }
    let solution = crate::baffle_api::solved(&state, view.evidence()).await?;
    let style = render::baffle::BaffleStyle {
        title: Some(title),
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
    let svg = render::baffle::view_with(&view, &style)
        .map_err(|e| ApiError::unprocessable(format!("cannot draw this: {e}")))?
        .to_svg();
    Ok(Json(Hint {
        advice_text: solution.advice.to_string(),
        solution,
        svg,
    }))
}

/// `POST /api/baffle/matches/{id}/bot`: `{"after": N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotRequest {
    after: Option<usize>,
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

/// A bot move's answer: what the bot chose and why, the move played and
/// the match after it.
#[derive(Serialize)]
struct BotAnswer {
    bot: BotMove,
    played: Vec<Played>,
    view: Value,
}

fn bot_refused(e: BotError) -> ApiError {
    match e {
        BotError::Over
        | BotError::Refused {
            error: MoveError::Over { .. },
            ..
        } => ApiError::coded(
            StatusCode::CONFLICT,
            "game_over",
            format!("{e}: the bot has no move to make"),
        ),
        _ => ApiError::unprocessable(format!("the bot cannot move: {e}")).with_code("bot_stuck"),
    }
}

async fn bot_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<BotRequest>,
) -> ApiResult<BotAnswer> {
    let after = super::need_after(req.after)?;
    let view: View = state
        .hub
        .with_table(&id, |t| baffle_of(t).map(|m| m.game().view()))
        .await??;
    if view.status.is_over() {
        return Err(bot_refused(BotError::Over));
    }
    let decision = state
        .long_work
        .run(Line::Long, move |budget| {
            decide_within(&view, &BotOptions::default(), budget)
        })
        .await?
        .map_err(bot_refused)?;
    let (played, view) = state
        .hub
        .play(
            &id,
            token.as_deref(),
            after,
            &MoveInput::Text(decision.mv.to_string()),
            None,
            false,
        )
        .await?;
    Ok(Json(BotAnswer {
        bot: BotMove {
            move_text: decision.mv.to_string(),
            reason_text: decision.reason.to_string(),
            decision,
        },
        played,
        view,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_errors_are_a_409_after_the_end_and_a_422_otherwise() {
        let over = bot_refused(BotError::Over);
        assert_eq!(over.status, StatusCode::CONFLICT);
        assert_eq!(over.code, "game_over");
        let hard = bot_refused(BotError::TooHard);
        assert_eq!(hard.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(hard.code, "bot_stuck");
        assert!(hard.message.contains("too many cases"), "{}", hard.message);
    }
}
