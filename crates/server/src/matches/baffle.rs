//! Baffle's own routes: the hint and the bot's move for the player.
//!
//! Terms:
//! - **hint**: the solver run on what the view shows (shots, found
//!   mirrors, wrong guesses), never on the hidden layout. In a race, on the
//!   asker's own box: the seat token says whose.
//! - **bot move**: the bot's move on the view, played for the player's seat
//!   as if they had made it (so it needs their token and the move number).
//! - **look back**: the layouts left after each shot beside what the best
//!   shot would have left, as a chart ([`baffle::live::look_back`]).

use crate::AppState;
use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::matches::seats::Bearer;
use crate::work::Line;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::{get, post};
use baffle::MoveError;
use baffle::bot::{BotError, BotOptions, Decision, decide_within};
use games::protocol::MatchView;
use games::{MoveInput, Played, box_in_play, look_back_box};
use serde::{Deserialize, Serialize};
use tabletop::Code;

/// The routes under `/api/baffle/matches`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/matches/{id}/hint", post(hint))
        .route("/matches/{id}/bot", post(bot_move))
        .route("/matches/{id}/layouts.svg", get(layouts_picture))
}

/// The solver's time for each position of a look back not counted during
/// the game.
const LOOK_BACK_EACH: std::time::Duration = std::time::Duration::from_millis(300);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutsQuery {
    /// Whose box, once the game is over (a race's seat).
    #[serde(default)]
    seat: Option<u8>,
}

/// `GET /api/baffle/matches/{id}/layouts.svg[?seat=N]`: the layouts left
/// after each shot beside what the best shot would have left, as a chart;
/// the asker's own box while the game is on, any seat's once it is over.
async fn layouts_picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<LayoutsQuery>,
    Bearer(token): Bearer,
) -> Result<Response, ApiError> {
    let (game, memo, title) = state
        .hub
        .with_table_as(&id, token.as_deref(), |m, viewer| {
            look_back_box(m, viewer, query.seat)
        })
        .await??;
    let svg = state
        .long_work
        .run(Line::Long, move |budget| {
            let looks = baffle::live::look_back(&game, LOOK_BACK_EACH, &memo, budget);
            render::baffle_layouts::layouts_chart(&looks, &title).map(|p| p.to_svg())
        })
        .await?;
    crate::svg_text_response(svg)
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

/// `POST /api/baffle/matches/{id}/hint`.
async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> ApiResult<Hint> {
    let (view, title) = state
        .hub
        .with_table_as(&id, token.as_deref(), box_in_play)
        .await??;
    let solution = crate::tools::baffle::solved(&state, view.evidence()).await?;
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
        advice_short: baffle::words::hint_words(&solution.advice),
        advice_text: baffle::words::hint_detail(&solution.advice),
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
    view: MatchView,
}

fn bot_refused(e: BotError) -> ApiError {
    match e {
        BotError::Over
        | BotError::Refused {
            error: MoveError::Over { .. },
            ..
        } => ApiError::coded(Code::GameOver, format!("{e}: the bot has no move to make")),
        _ => ApiError::unprocessable(format!("the bot cannot move: {e}")).with_code(Code::BotStuck),
    }
}

async fn bot_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<BotRequest>,
) -> ApiResult<BotAnswer> {
    let after = super::need_after(req.after)?;
    let (view, _) = state
        .hub
        .with_table_as(&id, token.as_deref(), box_in_play)
        .await??;
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
            super::hub::Play::ChosenByBot,
            super::hub::Answer::Full,
        )
        .await?;
    Ok(Json(BotAnswer {
        bot: BotMove {
            move_text: decision.mv.to_string(),
            reason_text: baffle::words::reason_words(&decision.reason),
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
        assert_eq!(over.status, axum::http::StatusCode::CONFLICT);
        assert_eq!(over.code, "game_over");
        let hard = bot_refused(BotError::TooHard);
        assert_eq!(hard.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(hard.code, "bot_stuck");
        assert!(hard.message.contains("too many cases"), "{}", hard.message);
    }
}
