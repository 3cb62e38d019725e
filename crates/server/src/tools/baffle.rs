//! The Baffle API beside the match router: the solver on any evidence,
//! and the preview picture of the home page.
//!
//! Terms:
//! - **evidence**: what a player has seen of a box — shots as entry and
//!   exit, mirrors found, wrong guesses ([`Evidence`]).
//! - **solve**: the library's solver on evidence alone (never a hidden
//!   layout): the same document as `parlor baffle solve --json`.
//!
//! Games are played through the match router ([`crate::matches`]; the hint
//! and the bot's move are the match contract's, routed by [`crate::matches::help`]).

use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::state::AppState;
use crate::work::Line;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use baffle::{Evidence, Game};
use tabletop::Code;

/// The routes under `/api/baffle`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/preview.svg", get(preview))
        .route("/solve", post(solve))
}

/// `GET /api/baffle/preview.svg`: a fresh fixed game as its player sees it
/// (no mirrors: nothing is found yet), for the home page.
async fn preview() -> Result<axum::response::Response, ApiError> {
    let game =
        Game::new(baffle::Setup::default()).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let style = render::baffle::BaffleStyle {
        title: Some("Baffle".to_string()),
        ..render::baffle::BaffleStyle::default()
    };
    crate::http::svg::svg_response(render::baffle::view_with(&game.view(), &style))
}

/// The solver's answer to `evidence` with the default options (the same
/// as `parlor baffle solve`'s), off the async workers.
///
/// # Errors
/// 503 when the long-work line is full; 422 for evidence that does not
/// read (a hole the box does not have). Evidence no box can have is a
/// solution with no layout and its contradiction ([`baffle::Solution::consistent`]).
pub(crate) async fn solved(
    state: &AppState,
    evidence: Evidence,
) -> Result<baffle::Solution, ApiError> {
    state
        .long_work
        .run(Line::Long, move |budget| {
            baffle::solve_within(&evidence, &baffle::SolveOptions::default(), budget)
        })
        .await?
        .map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// `POST /api/baffle/solve`: what evidence (`size`, `mirrors`, `sides`,
/// `shots` as `[entry, exit]` pairs, `found`, `not`) proves: the same
/// document as `parlor baffle solve --json`.
async fn solve(
    State(state): State<AppState>,
    JsonBody(evidence): JsonBody<Evidence>,
) -> ApiResult<baffle::Solution> {
    let solution = solved(&state, evidence).await?;
    Ok(Json(solution.consistent().map_err(refused_evidence)?))
}

/// Evidence no box can have: `400 contradiction`, saying what contradicts
/// what (the shots that cannot all hold, two shots that give one hole two
/// other ends, …); another refusal as before.
fn refused_evidence(e: baffle::SolveError) -> ApiError {
    match e {
        baffle::SolveError::Contradiction(c) => ApiError::coded(
            Code::Contradiction,
            format!("no box fits this evidence: {c}"),
        ),
        other => ApiError::unprocessable(other.to_string()),
    }
}
