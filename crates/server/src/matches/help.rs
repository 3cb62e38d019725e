//! Help for a player on their turn, for every game that offers it (the
//! registry's [`games::GameInfo::helps`]): `POST
//! /api/{game}/matches/{id}/hint` and `…/bot`.
//!
//! Terms:
//! - **hint**: the game's own answer for the position the asker sees
//!   ([`games::Helper::hint`]: Baffle's solver run on the shots, found
//!   mirrors and wrong guesses of the asker's own box, never on the hidden
//!   layout). In a race, the seat token says whose box.
//! - **bot move**: the game's bot's move for the asker's seat, played as
//!   if they had made it (so it needs their token and the move number),
//!   with the game's account of why ([`games::BotChoice`]).
//!
//! - **look back** (`GET …/layouts.svg[?seat=N]`): the game's own look
//!   back of the asker's box as a chart ([`games::ShotsLookBack`]: Baffle's
//!   layouts left after each shot beside what the best shot would have
//!   left); the asker's own box while the game is on, any seat's once it
//!   is over.
//! - **box** (`GET …/box[?seat=N]`): the same box as the game's view of it
//!   (Baffle: a racer's shots, guesses and, once over, the mirrors they
//!   missed), for a race's end, whose answer says only each racer's counts.
//!
//! All are taken from the match under its lock ([`games::AnyMatch::helper`])
//! and worked out away from it: in the quick line for help that takes
//! milliseconds (a small box, [`games::Helper::quick`]), else in the
//! long-work line. A match of another
//! game is refused `wrong_game`.

use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::matches::seats::Bearer;
use crate::state::AppState;
use crate::work::Line;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::{get, post};
use games::protocol::MatchView;
use games::{GameInfo, GameJson, Helper, MoveInput, Played, Refusal};
use serde::{Deserialize, Serialize};
use tabletop::Code;

/// The routes under `/api`: a hint and a bot's move for each game of
/// `games` that offers help.
pub fn routes(games: &games::Registry) -> Router<AppState> {
    let mut routes = Router::new();
    for &game in games.games().iter().filter(|g| g.helps) {
        routes = routes
            .route(
                &format!("/{}/matches/{{id}}/hint", game.name),
                post(
                    move |State(state): State<AppState>,
                          Path(id): Path<String>,
                          Bearer(token): Bearer| async move {
                        hint(state, game, id, token).await
                    },
                ),
            )
            .route(
                &format!("/{}/matches/{{id}}/layouts.svg", game.name),
                get(
                    move |State(state): State<AppState>,
                          Path(id): Path<String>,
                          Query(query): Query<SeatQuery>,
                          Bearer(token): Bearer| async move {
                        layouts_picture(state, game, id, token, query).await
                    },
                ),
            )
            .route(
                &format!("/{}/matches/{{id}}/box", game.name),
                get(
                    move |State(state): State<AppState>,
                          Path(id): Path<String>,
                          Query(query): Query<SeatQuery>,
                          Bearer(token): Bearer| async move {
                        box_view(state, game, id, token, query).await
                    },
                ),
            )
            .route(
                &format!("/{}/matches/{{id}}/bot", game.name),
                post(
                    move |State(state): State<AppState>,
                          Path(id): Path<String>,
                          Bearer(token): Bearer,
                          JsonBody(req): JsonBody<BotRequest>| async move {
                        bot_move(state, game, id, token, req).await
                    },
                ),
            );
    }
    routes
}

/// The help for the holder of `token` in match `id`, a match of `game`.
async fn helper(
    state: &AppState,
    game: &'static GameInfo,
    id: &str,
    token: Option<&str>,
) -> Result<Box<dyn Helper>, ApiError> {
    let helper = state
        .hub
        .with_table_as(id, token, |m, viewer| {
            if m.game() != game.name {
                return Err(Refusal::new(
                    Code::WrongGame,
                    format!("this is a {} game, not {}", m.game_title(), game.title),
                ));
            }
            m.helper(viewer)
        })
        .await??;
    Ok(helper)
}

/// The line a piece of help waits in: the quick one for help that takes
/// milliseconds (a small box), so that a player's hint never waits behind
/// another's big box; the long one otherwise.
fn line_for(helper: &dyn games::Helper) -> Line {
    if helper.quick() {
        Line::Quick
    } else {
        Line::Long
    }
}

/// `POST /api/{game}/matches/{id}/hint`: the game's hint, as it writes it.
async fn hint(
    state: AppState,
    game: &'static GameInfo,
    id: String,
    token: Option<String>,
) -> ApiResult<GameJson> {
    let helper = helper(&state, game, &id, token.as_deref()).await?;
    let hint = state
        .long_work
        .run(line_for(helper.as_ref()), move |budget| helper.hint(budget))
        .await??;
    Ok(Json(hint))
}

/// `POST /api/{game}/matches/{id}/bot`: `{"after": N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotRequest {
    after: Option<usize>,
}

/// A bot move's answer: what the bot chose and why (the game's account),
/// the move played and the match after it.
#[derive(Serialize)]
struct BotAnswer {
    bot: GameJson,
    played: Vec<Played>,
    view: MatchView,
}

async fn bot_move(
    state: AppState,
    game: &'static GameInfo,
    id: String,
    token: Option<String>,
    req: BotRequest,
) -> ApiResult<BotAnswer> {
    let after = super::need_after(req.after)?;
    let helper = helper(&state, game, &id, token.as_deref()).await?;
    let choice = state
        .long_work
        .run(line_for(helper.as_ref()), move |budget| {
            helper.bot_move(budget)
        })
        .await??;
    let (played, view) = state
        .hub
        .play(
            &id,
            token.as_deref(),
            after,
            &MoveInput::Text(choice.text),
            None,
            crate::hub::Play::ChosenByBot,
            crate::hub::Answer::Full,
        )
        .await?;
    Ok(Json(BotAnswer {
        bot: choice.why,
        played,
        view,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatQuery {
    /// Whose box, once the game is over (a race's seat).
    #[serde(default)]
    seat: Option<u8>,
}

/// The box of match `id` (a match of `game`) that the holder of `token`
/// may see: their own, or `query`'s seat's once the game is over.
async fn look_back(
    state: &AppState,
    game: &'static GameInfo,
    id: &str,
    token: Option<&str>,
    query: &SeatQuery,
) -> Result<Box<dyn games::ShotsLookBack>, ApiError> {
    let look_back = state
        .hub
        .with_table_as(id, token, |m, viewer| {
            if m.game() != game.name {
                return Err(Refusal::new(
                    Code::WrongGame,
                    format!("this is a {} game, not {}", m.game_title(), game.title),
                ));
            }
            m.shots_look_back(viewer, query.seat)
        })
        .await??;
    Ok(look_back)
}

/// `GET /api/{game}/matches/{id}/box[?seat=N]`: a box, as the game's view
/// of it.
async fn box_view(
    state: AppState,
    game: &'static GameInfo,
    id: String,
    token: Option<String>,
    query: SeatQuery,
) -> ApiResult<GameJson> {
    let look_back = look_back(&state, game, &id, token.as_deref(), &query).await?;
    Ok(Json(look_back.view()?))
}

/// `GET /api/{game}/matches/{id}/layouts.svg[?seat=N]`: the game's own
/// look back of a box, as a chart.
async fn layouts_picture(
    state: AppState,
    game: &'static GameInfo,
    id: String,
    token: Option<String>,
    query: SeatQuery,
) -> Result<Response, ApiError> {
    let look_back = look_back(&state, game, &id, token.as_deref(), &query).await?;
    let svg = state
        .long_work
        .run(Line::Long, move |budget| {
            look_back.chart(budget).map(|picture| picture.to_svg())
        })
        .await??;
    crate::http::svg::svg_text_response(Ok(svg))
}
