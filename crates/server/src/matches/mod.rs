//! One match router for every game: make a match, look at it, move, take
//! a seat, watch it live, export and replay it.
//!
//! Terms:
//! - **match**: one game being played, under a 32-hex-digit id, stored
//!   move by move ([`crate::store`]) and replayed from its record when loaded.
//! - **seat plan**: how the maker fills each seat: `here` (a person at this
//!   screen), `open` (a person who comes with the invite) or a bot
//!   ([`SeatPlan`]).
//! - **move number** (`after`): the moves the client saw; a move sent with
//!   another number is refused (`stale_move`), so a double click or a
//!   second tab never plays a move twice.
//! - **watch**: `GET …/events`, server-sent events — one `change` event
//!   (the moves just played and the spectator's view) after every move or
//!   seat taken, with the move number as its id. A stream the server ends
//!   (it is stopping) ends with a `retry` hint: reconnect in ½ s; the
//!   first event carries the same hint, for a stream cut without its end.
//! - **public setup**: what every viewer may see of the setup, for drawing
//!   (the board; never a Baffle box's mirrors).
//! - **record**: the whole match, seed and all: given out only once the
//!   match is over (export, replay).
//!
//! The game rules are in the game libraries, and the games, their setups
//! and what a viewer may see of a match in the registry (the `games`
//! crate); this module only turns requests into the registry's calls and
//! keeps the matches ([`hub`]). Baffle's hint and bot moves for the player
//! are in [`baffle`].

pub mod help;
pub mod lobby;
pub mod qr;
pub mod seats;

use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::hub::{self, SeatPlan};
use crate::matches::seats::Bearer;
use crate::state::AppState;
use crate::work::Line;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use games::GameJson;
use games::protocol::MatchView;
use games::{MoveInput, Need, ReplayStep, Supplied};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::convert::Infallible;
use std::sync::Arc;
use tabletop::Code;
use tabletop::play::{DiceMode, SeatKind};

/// The routes under `/api`: `/matches…` and `/lobby`.
pub fn routes() -> Router<AppState> {
    // Answers that never hold a token or an invite: compressed when the
    // asker accepts it (`http::compress`).
    let open = Router::new()
        .route("/matches/{id}", get(view))
        .route("/matches/{id}/setup", get(public_setup))
        .route("/matches/{id}/moves", post(play))
        .route("/matches/{id}/record", get(record))
        .route("/matches/{id}/replay", get(replay))
        .route("/matches/{id}/svg", get(picture))
        .route("/matches/{id}/chances.svg", get(chances_picture))
        .route("/matches/{id}/chances", get(chances_over_game))
        .route("/lobby", get(lobby::lobby))
        .route("/games", get(list_games))
        .route_layer(axum::middleware::map_response(
            crate::http::compress::mark::<axum::body::Body>,
        ));
    Router::new()
        .route("/matches", post(create))
        .route("/matches/{id}/join", post(join))
        .route("/matches/{id}/seats/{seat}/invite", post(reinvite))
        .route("/matches/{id}/rematch", post(rematch))
        .route("/matches/{id}/name", post(name_seat))
        .route("/matches/{id}/events", get(events))
        .route("/lobby/events", get(lobby::events))
        .route("/qr", post(qr::picture))
        .merge(open)
}

/// `GET /api/games`: every game of this Parlor, as the registry declares
/// it (names, titles, seats, default setups and their bounds), for the
/// pages' forms and any client.
async fn list_games(State(state): State<AppState>) -> Json<games::Registry> {
    Json(state.hub.games().clone())
}

/// `POST /api/matches`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    /// The game's name, one of the registry's (`GET /api/games`).
    game: String,
    /// The game's own setup (see docs/api.md).
    #[serde(default)]
    setup: Option<Value>,
    /// Each seat: `here`, `open`, `anyone`, `easy`, `normal`, `hard`
    /// (`bot` is a normal bot), or `{"plan": …, "name": …}` to name a
    /// person's seat.
    #[serde(default)]
    seats: Option<Vec<SeatRequest>>,
    /// The dice's seed (only when no seat is open).
    #[serde(default)]
    seed: Option<u64>,
    /// `seeded` (the default) or `chosen` (each roll sent with its move).
    #[serde(default)]
    dice: Option<String>,
}

/// One seat of `POST /api/matches`: its plan, or its plan and the name of
/// the person who sits there.
#[derive(Deserialize)]
#[serde(untagged)]
enum SeatRequest {
    Plan(String),
    Named {
        plan: String,
        #[serde(default)]
        name: Option<String>,
    },
}

/// The seats' plans and names, each name checked by the match layer's
/// rule (`400 bad_name`); a bot takes no name.
fn read_seats(seats: &[SeatRequest]) -> Result<(Vec<SeatPlan>, Vec<Option<String>>), ApiError> {
    let mut plans = Vec::with_capacity(seats.len());
    let mut names = Vec::with_capacity(seats.len());
    for (i, seat) in seats.iter().enumerate() {
        let (plan, name) = match seat {
            SeatRequest::Plan(plan) => (plan, None),
            SeatRequest::Named { plan, name } => (plan, name.as_deref()),
        };
        let plan = plan.parse::<SeatPlan>().map_err(bad_seats)?;
        let name = name
            .map(|n| {
                tabletop::play::check_name(n).map_err(|e| bad_name(format!("seat {}: {e}", i + 1)))
            })
            .transpose()?;
        if name.is_some() && matches!(plan, SeatPlan::Bot(_)) {
            return Err(bad_name(format!(
                "seat {} is a bot's: a bot takes no name",
                i + 1
            )));
        }
        if let Some(name) = &name {
            tabletop::play::check_unlike(name, names.iter().flatten().map(String::as_str))
                .map_err(|e| bad_name(format!("seat {}: {e}", i + 1)))?;
        }
        plans.push(plan);
        names.push(name);
    }
    Ok((plans, names))
}

/// `400 bad_name`.
pub(crate) fn bad_name(message: impl Into<String>) -> ApiError {
    ApiError::coded(Code::BadName, message)
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
    view: MatchView,
}

#[derive(Serialize)]
struct InviteLink {
    seat: u8,
    invite: String,
    /// The page's link with the invite after `#`.
    link: String,
}

pub(crate) use crate::hub::lobby::page_url;

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
    ApiError::coded(Code::BadSeats, message)
}

/// What the front end keeps for a setup's need: an uploaded board, a
/// design, a saved grid.
async fn supply(state: &AppState, need: &Need) -> Result<Supplied, ApiError> {
    Ok(match need {
        Need::Board(id) => {
            Supplied::Board((*crate::tools::chutes_boards::find_board(state, id).await?).clone())
        }
        Need::Design(id) => Supplied::Grid(state.designs.get(id).await?.grid().clone()),
        Need::SavedGrid(name) => {
            Supplied::Grid(crate::tools::tycoon::grid_from(state, None, Some(name)).await?)
        }
    })
}

async fn create(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
    Bearer(bearer): Bearer,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    // Who makes it, for the store's quota and the lobby (digests only).
    let creator = crate::store::Creator {
        client: client.map(|c| c.0.digest()),
        token: bearer.as_deref().map(crate::random::digest),
    };
    let info = state.hub.games().find(&req.game)?;
    let (plans, names) = match &req.seats {
        Some(seats) => read_seats(seats)?,
        None => {
            let plans: Vec<SeatPlan> = (info.default_seats)()
                .into_iter()
                .map(SeatPlan::from_kind)
                .collect();
            let names = vec![None; plans.len()];
            (plans, names)
        }
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
            Code::BadSeed,
            "a game with open seats draws its own seed, so that no player knows the dice: give no seed",
        ));
    }
    if chosen && (open || bots) {
        return Err(bad_seats(
            "chosen dice are for a game played at one screen: no open seats and no bots",
        ));
    }
    let seed = crate::sessions::seed_or_fresh(req.seed)?;
    let dice = if chosen {
        DiceMode::Chosen
    } else {
        DiceMode::Seeded { seed }
    };
    let prepared = info.prepare(req.setup.unwrap_or(Value::Null))?;
    let supplied = match prepared.need() {
        Some(need) => Some(supply(&state, need).await?),
        None => None,
    };
    let kinds: Vec<SeatKind> = plans.iter().map(|p| p.kind()).collect();
    let mut table = prepared.start(supplied, kinds, dice, seed)?;
    for (i, name) in names.iter().enumerate() {
        if name.is_some() {
            table.set_name(i as u8 + 1, name.as_deref())?;
        }
    }
    let game = table.game();
    let made = state.hub.create_for(table, &plans, &names, creator).await?;
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

async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> ApiResult<MatchView> {
    Ok(Json(state.hub.view(&id, token.as_deref()).await?))
}

async fn public_setup(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<GameJson> {
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

/// `POST /api/matches/{id}/moves?view=…`: the view the answer carries.
#[derive(Deserialize)]
struct MoveQuery {
    /// `compact` (the default) or `full`.
    view: Option<String>,
}

/// The answer's view a move's query asks for.
fn answer_view(query: &MoveQuery) -> Result<hub::Answer, ApiError> {
    match query.view.as_deref() {
        None | Some("compact") => Ok(hub::Answer::Compact),
        Some("full") => Ok(hub::Answer::Full),
        Some(_) => Err(ApiError::coded(
            Code::BadRequest,
            "view is compact (what the move changed, the default) or full (the whole match view)",
        )),
    }
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
        ApiError::coded(Code::BadMove,
            "say which position the move is for: \"after\": the game's moves as you saw them (the view's \"moves\")",
        )
    })
}

async fn play(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    Query(query): Query<MoveQuery>,
    JsonBody(req): JsonBody<MoveRequest>,
) -> ApiResult<games::protocol::MoveAnswer> {
    let after = need_after(req.after)?;
    let answer = answer_view(&query)?;
    let (played, view) = state
        .hub
        .play(
            &id,
            token.as_deref(),
            after,
            &move_input(req.mv),
            req.roll,
            if req.repeat {
                hub::Play::Repeat
            } else {
                hub::Play::Once
            },
            answer,
        )
        .await?;
    // A repeat's every move counts against the address's everyday rate,
    // as that many requests would (the request itself counted one).
    if let Some(client) = client {
        state.rates.charge(
            crate::http::fair::Kind::Everyday,
            client.0,
            played.len().saturating_sub(1),
        );
    }
    Ok(Json(games::protocol::MoveAnswer { played, view }))
}

/// `POST /api/matches/{id}/join`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    seat: u8,
    /// The seat's invite (none for a seat anyone may take).
    #[serde(default)]
    invite: Option<String>,
    /// The name the new player goes by (none: the name the seat was given,
    /// or "Player N").
    #[serde(default)]
    name: Option<String>,
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
    view: MatchView,
}

async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<JoinRequest>,
) -> ApiResult<Joined> {
    let name = req
        .name
        .as_deref()
        .map(|n| tabletop::play::check_name(n).map_err(|e| bad_name(e.to_string())))
        .transpose()?;
    let (token, view) = state
        .hub
        .join(
            &id,
            req.seat,
            req.invite.as_deref().map(str::trim),
            token.as_deref(),
            name.as_deref(),
        )
        .await?;
    Ok(Json(Joined {
        token,
        seat: req.seat,
        view,
    }))
}

/// `POST /api/matches/{id}/name`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameRequest {
    /// The seat to name: one the token holds.
    seat: u8,
    /// The name.
    name: String,
}

/// `POST /api/matches/{id}/name`: a player names their own seat while the
/// game is on; everyone watching sees it.
async fn name_seat(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<NameRequest>,
) -> ApiResult<MatchView> {
    let name = tabletop::play::check_name(&req.name).map_err(|e| bad_name(e.to_string()))?;
    Ok(Json(
        state
            .hub
            .name_seat(&id, req.seat, token.as_deref(), &name)
            .await?,
    ))
}

/// A rematch: the new match, as the asker sees it.
#[derive(Serialize)]
struct Rematch {
    /// The new match's id.
    id: String,
    /// Its page.
    url: String,
    /// The new match as the asker sees it (their seats are theirs again).
    view: MatchView,
    /// New invites for seats nobody had taken (to the host only).
    invites: Vec<InviteLink>,
}

/// `POST /api/matches/{id}/rematch`: the same game again, for a token
/// holding a seat of the finished match; a second call answers the same
/// new match.
async fn rematch(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<(StatusCode, Json<Rematch>), ApiError> {
    let seed = crate::sessions::seed_or_fresh(None)?;
    // The asker makes it: it counts against their quota and lobby share.
    let creator = crate::store::Creator {
        client: client.map(|c| c.0.digest()),
        token: token.as_deref().map(crate::random::digest),
    };
    let made = state
        .hub
        .rematch(&id, token.as_deref(), seed, creator)
        .await?;
    let game = made.game;
    Ok((
        if made.fresh {
            StatusCode::CREATED
        } else {
            StatusCode::OK
        },
        Json(Rematch {
            url: page_url(game, &made.id),
            invites: made
                .invites
                .iter()
                .map(|i| invite_link(game, &made.id, i))
                .collect(),
            id: made.id,
            view: made.view,
        }),
    ))
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
    client: Option<axum::Extension<crate::http::client::Client>>,
) -> Result<Response, ApiError> {
    use futures_util::StreamExt;
    use tokio::sync::broadcast::error::RecvError;
    // Counted against its client's streams while it lasts.
    let held = state.streams.open(client.map(|c| c.0))?;
    let (first, changes) = state.hub.watch(&id).await?;
    let to_event = |change: &hub::Change| {
        Event::default()
            .event("change")
            .id(change.moves.to_string())
            .data(change.json.clone())
    };
    // The first event says how soon to reconnect too: a stream cut
    // without its last word (the server killed) is followed again within
    // that, not after the browser's own default of seconds.
    let first = to_event(&first).retry(crate::http::health::RECONNECT_AFTER);
    let first = futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(first)));
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
    let stream = first
        .chain(rest)
        .take_until(stopped)
        .chain(reconnect)
        .map(move |event| {
            let _held = &held;
            event
        });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(15)))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET /api/matches/{id}/record`: the whole record, once over.
async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (record, game) = state
        .hub
        .with_table(&id, |t| t.record_once_over().map(|r| (r, t.game())))
        .await??;
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

/// `GET /api/matches/{id}/replay?at=N`: the match after its first `N`
/// moves: while it is on, as the asker saw it then (a token's seat, or a
/// spectator); once over, all of it.
async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    Query(query): Query<ReplayQuery>,
) -> ApiResult<ReplayStep> {
    // The seat the asker's view shows (the seat to move when theirs).
    let (copy, viewer) = state
        .hub
        .with_table_as(&id, token.as_deref(), |t, viewer| (t.copy(), viewer))
        .await?;
    let at = query.at;
    let step = state
        .long_work
        .run(Line::Quick, move |_| copy.replay_step(at, viewer))
        .await??;
    Ok(Json(step))
}

/// A copy of match `id`, for a long read to work on away from it.
async fn copy_of(state: &AppState, id: &str) -> Result<Arc<dyn games::AnyMatch>, ApiError> {
    Ok(Arc::from(state.hub.with_table(id, |t| t.copy()).await?))
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

/// `GET /api/matches/{id}/svg`: the match drawn as the asker may see it (a
/// spectator, or with a seat token the seat: a Baffle racer's own box), now
/// or (`?at=N`) at a replay's step.
async fn picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<PictureQuery>,
    Bearer(token): Bearer,
) -> Result<Response, ApiError> {
    let name = crate::tools::tycoon::picture_name(query.name)?;
    let (copy, viewer) = state.hub.copy_for(&id, token.as_deref()).await?;
    let at = query.at;
    let picture = state
        .long_work
        .run(Line::Quick, move |_| {
            copy.picture_as(viewer, name.as_deref(), at)
        })
        .await??;
    crate::http::svg::svg_response(Ok(picture))
}

/// `GET /api/matches/{id}/chances.svg`: each player's chance to win
/// after every move, an estimate's 95% interval as a band (`422
/// no_chances` for a game that does not know them).
async fn chances_picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let over = chances_of(&state, &id).await?;
    let bands: Vec<Vec<(f64, f64)>> = over
        .intervals
        .iter()
        .flatten()
        .map(|step| step.iter().map(|i| (i.low, i.high)).collect())
        .collect();
    crate::http::svg::svg_response(render::chances::chances_chart(
        &over.names,
        &over.series,
        &bands,
    ))
}

/// Each player's chance to win after every move of a match.
#[derive(Serialize)]
struct ChancesOverGame {
    /// The players' names, seat 1 first.
    names: Vec<String>,
    /// `series[m]`: every player's chance after the first `m` moves.
    series: Vec<Vec<f64>>,
    /// For estimated chances, `intervals[m]`: every player's 95% interval
    /// after the first `m` moves; absent when the chances are exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    intervals: Option<Vec<Vec<tabletop::play::Interval>>>,
    /// For estimated chances, `playouts[m]`: the playouts behind step `m`.
    #[serde(skip_serializing_if = "Option::is_none")]
    playouts: Option<Vec<u32>>,
    /// `moves[m - 1]`: who made move `m` and its events' words (the page
    /// names the biggest swing from them).
    moves: Vec<games::MoveLine>,
}

/// `GET /api/matches/{id}/chances`: the look back's figures, as the chart
/// draws them (`422 no_chances` for a game that does not know them).
async fn chances_over_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<ChancesOverGame> {
    Ok(Json(chances_of(&state, &id).await?))
}

/// The players' names and every player's chance after each move of match
/// `id`, worked out in the long-work line on a copy of the match.
async fn chances_of(state: &AppState, id: &str) -> Result<ChancesOverGame, ApiError> {
    let copy = copy_of(state, id).await?;
    let names = copy.names();
    let games::LookBack { steps, moves } = state
        .long_work
        .run(Line::Quick, move |budget| copy.chances_over_game(budget))
        .await??;
    let estimated = steps.iter().any(tabletop::play::Chances::is_estimate);
    // An estimate's figures to four decimals, as its views give them.
    let steps: Vec<tabletop::play::Chances> = if estimated {
        steps.iter().map(|c| c.rounded(4)).collect()
    } else {
        steps
    };
    // An estimate's finished game is exact: its step gets a zero-width
    // interval, so every step has one.
    let intervals = estimated.then(|| {
        steps
            .iter()
            .map(|c| {
                c.interval.clone().unwrap_or_else(|| {
                    c.each
                        .iter()
                        .map(|&p| tabletop::play::Interval { low: p, high: p })
                        .collect()
                })
            })
            .collect()
    });
    let playouts = estimated.then(|| steps.iter().map(|c| c.playouts.unwrap_or(0)).collect());
    Ok(ChancesOverGame {
        names,
        series: steps.into_iter().map(|c| c.each).collect(),
        intervals,
        playouts,
        moves,
    })
}
