//! One match router for every game: make a match, look at it, move, take
//! a seat, watch it live, export and replay it.
//!
//! Terms:
//! - **match**: one game being played, under a 32-hex-digit id, stored
//!   move by move ([`crate::db`]) and replayed from its record when loaded.
//! - **seat plan**: how the maker fills each seat: `here` (a person at this
//!   screen), `open` (a person who comes with the invite) or a bot
//!   ([`SeatPlan`]).
//! - **move number** (`after`): the moves the client saw; a move sent with
//!   another number is refused (`stale_move`), so a double click or a
//!   second tab never plays a move twice.
//! - **watch**: `GET …/events`, server-sent events — one `change` event
//!   (the moves just played and the spectator's view) after every move or
//!   seat taken, with the move number as its id. A stream the server ends
//!   (it is stopping) ends with a `retry` hint: reconnect in ½ s.
//! - **public setup**: what every viewer may see of the setup, for drawing
//!   (the board; never a Baffle box's mirrors).
//! - **record**: the whole match, seed and all: given out only once the
//!   match is over (export, replay).
//!
//! The game rules are in the game libraries; this module only turns
//! requests into the match layer's calls ([`table`]) and keeps the matches
//! ([`hub`]). Each game's own part — how a page's setup becomes the game's,
//! its extras — is in [`chutes`], [`baffle`] and [`tycoon`].

pub mod baffle;
pub mod chutes;
pub mod hub;
pub mod table;
pub mod tycoon;

pub use hub::{Hub, SeatPlan};

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::seats::Bearer;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::convert::Infallible;
use table::{GameKind, MoveInput, Played, Table, Typed};
use tabletop::play::{DiceMode, Match, SeatKind};

/// The games a match may be of.
pub const GAMES: [&str; 3] = ["chutes", "baffle", "tycoon"];

/// The most matches the lobby lists.
pub const LOBBY_SIZE: u32 = 50;

/// The routes under `/api`: `/matches…` and `/lobby`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/matches", post(create))
        .route("/matches/{id}", get(view))
        .route("/matches/{id}/setup", get(public_setup))
        .route("/matches/{id}/moves", post(play))
        .route("/matches/{id}/join", post(join))
        .route("/matches/{id}/seats/{seat}/invite", post(reinvite))
        .route("/matches/{id}/events", get(events))
        .route("/matches/{id}/record", get(record))
        .route("/matches/{id}/replay", get(replay))
        .route("/matches/{id}/svg", get(picture))
        .route("/lobby", get(lobby))
}

/// A table for a stored match of `game`, replayed from its header and
/// entries.
///
/// # Errors
/// Why it does not replay, in words.
pub fn load_table(game: &str, header: &str, entries: &[String]) -> Result<Box<dyn Table>, String> {
    Ok(match game {
        "chutes" => Box::new(Typed::<::chutes::contract::Table>::load(header, entries)?),
        "baffle" => Box::new(Typed::<::baffle::Game>::load(header, entries)?),
        "tycoon" => Box::new(Typed::<::tycoon::Game>::load(header, entries)?),
        other => return Err(format!("'{other}' is not a game of this Parlor")),
    })
}

/// A new match of `G`.
///
/// # Errors
/// The match layer's refusal of the setup or the seats.
pub fn start<G: GameKind>(
    setup: G::Setup,
    plans: &[SeatPlan],
    dice: DiceMode,
) -> Result<Box<dyn Table>, ApiError>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    let kinds: Vec<SeatKind> = plans.iter().map(|p| p.kind()).collect();
    Ok(Box::new(Typed::new(Match::<G>::start(setup, kinds, dice)?)))
}

/// `POST /api/matches`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    /// `chutes`, `baffle` or `tycoon`.
    game: String,
    /// The game's own setup (see docs/api.md).
    #[serde(default)]
    setup: Option<Value>,
    /// Each seat: `here`, `open`, `anyone`, `easy`, `normal`, `hard`
    /// (`bot` is a normal bot).
    #[serde(default)]
    seats: Option<Vec<String>>,
    /// The dice's seed (only when no seat is open).
    #[serde(default)]
    seed: Option<u64>,
    /// `seeded` (the default) or `chosen` (each roll sent with its move).
    #[serde(default)]
    dice: Option<String>,
}

/// A match just made.
#[derive(Serialize)]
struct Created {
    /// The match's id.
    id: String,
    /// Its page.
    url: String,
    /// The maker's token: keep it to move for the `here` seats.
    token: String,
    /// Each open seat's invite and its link.
    invites: Vec<InviteLink>,
    /// The match as its maker sees it.
    view: Value,
}

#[derive(Serialize)]
struct InviteLink {
    seat: u8,
    invite: String,
    /// The page's link with the invite after `#`.
    link: String,
}

fn page_url(game: &str, id: &str) -> String {
    format!("/{game}/m/{id}")
}

fn invite_link(game: &str, id: &str, invite: &hub::Invite) -> InviteLink {
    InviteLink {
        seat: invite.seat,
        invite: invite.invite.clone(),
        link: format!(
            "{}#invite={}.{}",
            page_url(game, id),
            invite.seat,
            invite.invite
        ),
    }
}

fn bad_seats(message: impl Into<String>) -> ApiError {
    ApiError::coded(StatusCode::BAD_REQUEST, "bad_seats", message)
}

/// Reads a game's setup request from the `setup` of `POST /api/matches`.
fn read_setup<T: serde::de::DeserializeOwned>(setup: Value) -> Result<T, ApiError> {
    if !setup.is_object() {
        return Err(ApiError::coded(
            StatusCode::BAD_REQUEST,
            "bad_json",
            "\"setup\" is a JSON object (see docs/api.md for each game's)",
        ));
    }
    serde_json::from_value(setup).map_err(|e| {
        ApiError::coded(
            StatusCode::BAD_REQUEST,
            "bad_json",
            format!("bad \"setup\": {e}"),
        )
    })
}

async fn create(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let game = req.game.trim().to_ascii_lowercase();
    let plans: Vec<SeatPlan> = match &req.seats {
        Some(words) => words
            .iter()
            .map(|w| w.parse::<SeatPlan>().map_err(bad_seats))
            .collect::<Result<_, _>>()?,
        None => default_seats(&game),
    };
    let open = plans
        .iter()
        .any(|p| matches!(p, SeatPlan::Open | SeatPlan::Anyone));
    let bots = plans.iter().any(|p| matches!(p, SeatPlan::Bot(_)));
    let chosen = match req.dice.as_deref().map(str::trim) {
        None | Some("seeded") => false,
        Some("chosen") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "dice are 'seeded' (the server rolls) or 'chosen' (each roll sent with its move), not '{other}'"
            )));
        }
    };
    if open && req.seed.is_some() {
        return Err(ApiError::coded(
            StatusCode::BAD_REQUEST,
            "bad_seed",
            "a game with open seats draws its own seed, so that no player knows the dice: give no seed",
        ));
    }
    if chosen && (open || bots) {
        return Err(bad_seats(
            "chosen dice are for a game played at one screen: no open seats and no bots",
        ));
    }
    let seed = crate::store::seed_or_fresh(req.seed)?;
    let dice = if chosen {
        DiceMode::Chosen
    } else {
        DiceMode::Seeded { seed }
    };
    let setup = req.setup.unwrap_or(Value::Object(Default::default()));
    let table = match game.as_str() {
        "chutes" => chutes::start(&state, setup, &plans, dice)?,
        "baffle" => baffle::start(setup, &plans, dice, seed)?,
        "tycoon" => tycoon::start(&state, setup, &plans, dice).await?,
        other => {
            return Err(ApiError::bad_request(format!(
                "'{other}' is not a game here: say chutes, baffle or tycoon"
            )));
        }
    };
    let game = table.game();
    let made = state.hub.create(table, &plans).await?;
    let view = state.hub.view(&made.id, Some(&made.token)).await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            url: page_url(game, &made.id),
            invites: made
                .invites
                .iter()
                .map(|i| invite_link(game, &made.id, i))
                .collect(),
            id: made.id,
            token: made.token,
            view,
        }),
    ))
}

/// The seats a match of `game` has when the request names none: one
/// person at this screen, and in Tycoon three normal bots beside them.
fn default_seats(game: &str) -> Vec<SeatPlan> {
    match game {
        "tycoon" => vec![
            SeatPlan::Here,
            SeatPlan::Bot(tabletop::BotLevel::Normal),
            SeatPlan::Bot(tabletop::BotLevel::Normal),
            SeatPlan::Bot(tabletop::BotLevel::Normal),
        ],
        _ => vec![SeatPlan::Here],
    }
}

async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> ApiResult<Value> {
    Ok(Json(state.hub.view(&id, token.as_deref()).await?))
}

async fn public_setup(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Value> {
    Ok(Json(state.hub.public_setup(&id).await?))
}

/// `POST /api/matches/{id}/moves`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The move: its text (`"shoot 7"`) or its JSON (`{"move": "shoot",
    /// "hole": 7}`).
    #[serde(rename = "move")]
    mv: Value,
    /// The moves the client saw.
    after: Option<usize>,
    /// The roll, when the dice are chosen.
    #[serde(default)]
    roll: Option<u32>,
    /// Play the move again and again while it is one of your seats' turn
    /// (Chutes' "play to the end").
    #[serde(default)]
    repeat: bool,
}

/// Moves played: what they did and the match after them.
#[derive(Serialize)]
struct MoveAnswer {
    /// What each move did.
    played: Vec<Played>,
    /// The match after it, as the mover sees it.
    view: Value,
}

/// Reads a move request's `move`.
fn move_input(mv: Value) -> MoveInput {
    match mv {
        Value::String(text) => MoveInput::Text(text),
        other => MoveInput::Json(other),
    }
}

fn need_after(after: Option<usize>) -> Result<usize, ApiError> {
    after.ok_or_else(|| {
        ApiError::coded(
            StatusCode::BAD_REQUEST,
            "bad_move",
            "say which position the move is for: \"after\": the game's moves as you saw them (the view's \"moves\")",
        )
    })
}

async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<MoveRequest>,
) -> ApiResult<MoveAnswer> {
    let after = need_after(req.after)?;
    let (played, view) = state
        .hub
        .play(
            &id,
            token.as_deref(),
            after,
            &move_input(req.mv),
            req.roll,
            req.repeat,
        )
        .await?;
    Ok(Json(MoveAnswer { played, view }))
}

/// `POST /api/matches/{id}/join`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    seat: u8,
    /// The seat's invite (none for a seat anyone may take).
    #[serde(default)]
    invite: Option<String>,
}

/// A seat taken.
#[derive(Serialize)]
struct Joined {
    /// The token to keep (the same one, when the request showed a token of
    /// this match).
    token: String,
    /// The seat.
    seat: u8,
    /// The match as the new player sees it.
    view: Value,
}

async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<JoinRequest>,
) -> ApiResult<Joined> {
    let (token, view) = state
        .hub
        .join(
            &id,
            req.seat,
            req.invite.as_deref().map(str::trim),
            token.as_deref(),
        )
        .await?;
    Ok(Json(Joined {
        token,
        seat: req.seat,
        view,
    }))
}

async fn reinvite(
    State(state): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    Bearer(token): Bearer,
) -> ApiResult<InviteLink> {
    let invite = state.hub.reinvite(&id, seat, token.as_deref()).await?;
    let game = state.hub.with_table(&id, |t| t.game()).await?;
    Ok(Json(invite_link(game, &id, &invite)))
}

/// `GET /api/matches/{id}/events`: the match's changes as server-sent
/// events; the first is the match as it stands.
async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    use futures_util::StreamExt;
    use tokio::sync::broadcast::error::RecvError;
    let (first, changes) = state.hub.watch(&id).await?;
    let to_event = |change: &hub::Change| {
        Event::default()
            .event("change")
            .id(change.moves.to_string())
            .data(change.json.clone())
    };
    let first =
        futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(to_event(&first))));
    let rest = futures_util::stream::unfold(changes, move |mut changes| async move {
        loop {
            match changes.recv().await {
                Ok(change) => return Some((Ok(to_event(&change)), changes)),
                // A watcher that fell behind skips to the newest change,
                // which carries the whole view.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
        }
    });
    let stopped = state.hub.stopped();
    // However the stream ends (the server drains, the match was dropped
    // from memory), its last word tells the page to reconnect soon: through
    // a balancer, to another server.
    let reconnect = futures_util::stream::once(std::future::ready(Ok(Event::default()
        .retry(crate::http::health::RECONNECT_AFTER)
        .comment("this stream ends here: reconnect"))));
    let mut response = Sse::new(first.chain(rest).take_until(stopped).chain(reconnect))
        .keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(15)))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

fn game_on() -> ApiError {
    ApiError::coded(
        StatusCode::CONFLICT,
        "game_on",
        "the game is still on: its record (with the seed of its dice) is given once it is over",
    )
}

/// `GET /api/matches/{id}/record`: the whole record, once over.
async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (over, record, game) = state
        .hub
        .with_table(&id, |t| (t.status().is_over(), t.record(), t.game()))
        .await?;
    if !over {
        return Err(game_on());
    }
    let disposition = format!(
        "attachment; filename=\"{game}-{}.json\"",
        &id[..8.min(id.len())]
    );
    let mut response = Json(record).into_response();
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayQuery {
    #[serde(default)]
    at: usize,
}

/// One step of a replay.
#[derive(Serialize)]
struct ReplayStep {
    /// Moves played so far in the replay.
    at: usize,
    /// Moves in the whole match.
    moves: usize,
    /// The move that led here (none at 0).
    played: Option<Played>,
    /// The match as a spectator saw it then.
    view: Value,
}

/// `GET /api/matches/{id}/replay?at=N`: a finished match after its first
/// `N` moves.
async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ReplayQuery>,
) -> ApiResult<ReplayStep> {
    let step = state
        .hub
        .with_table(&id, |t| {
            if !t.status().is_over() {
                return Err(game_on());
            }
            let (view, played) = t.replay_view(query.at)?;
            Ok(ReplayStep {
                at: query.at,
                moves: t.moves(),
                played,
                view,
            })
        })
        .await??;
    Ok(Json(step))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PictureQuery {
    #[serde(default)]
    name: Option<String>,
    /// A replay's step: the match after its first `at` moves (once over).
    #[serde(default)]
    at: Option<usize>,
}

/// `GET /api/matches/{id}/svg`: the match drawn as a spectator may see it,
/// now or (`?at=N`, once over) at a replay's step.
async fn picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let name = crate::tycoon_api::picture_name(query.name)?;
    let picture = state
        .hub
        .with_table(&id, |t| {
            if query.at.is_some() && !t.status().is_over() {
                return Err(game_on());
            }
            t.picture(name.as_deref(), query.at)
        })
        .await??;
    crate::svg_response(Ok(picture))
}

/// The lobby: matches with seats anyone may take.
#[derive(Serialize)]
struct Lobby {
    matches: Vec<LobbyEntry>,
}

#[derive(Serialize)]
struct LobbyEntry {
    #[serde(flatten)]
    row: crate::db::LobbyRow,
    url: String,
}

async fn lobby(State(state): State<AppState>) -> ApiResult<Lobby> {
    let rows = state.hub.db().lobby(LOBBY_SIZE).await?;
    Ok(Json(Lobby {
        matches: rows
            .into_iter()
            .map(|row| LobbyEntry {
                url: page_url(&row.game, &row.id),
                row,
            })
            .collect(),
    }))
}
