//! The Snakes & Ladders Tycoon API: design documents and saved grids.
//!
//! Terms:
//! - **design**: one person's [`tycoon::design::Designer`] (the grid, its
//!   undo history, and the clipboard beside it), under an id.
//! - **edit**: the library's [`Edit`] as JSON (`{"edit": "ladder", "start":
//!   10, "end": 32}`); a refused edit changes nothing and answers 422 with
//!   the library's reason.
//! - **saved grid**: a grid file in the data directory (see [`crate::grids`]).
//! - **picture**: `render`'s drawing of a design's grid, or of a game on its
//!   grid (tokens, station owners, the players panel), titled with the
//!   grid's name as the page calls it (`?name=`).
//!
//! The rules are the `tycoon` library's: every edit goes through its one
//! validator; this module only stores documents and files.

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::grids;
use crate::store::seed_or_fresh;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tabletop::play::{DiceMode, Match, MatchError, Request, SeatKind, Viewer};
use tycoon::design::{Applied, Designer, Edit};
use tycoon::game::{SEATS, View};
use tycoon::{Event, Game, GameError, Grid, GridSpec, Move, Object, Seat};

/// The store of design documents.
pub type Designs = crate::store::Store<Designer>;

/// The routes under `/api/tycoon`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/designs", post(new_design))
        .route("/designs/{id}", get(design).delete(end_design))
        .route("/designs/{id}/edits", post(edit))
        .route("/designs/{id}/file", get(file))
        .route("/designs/{id}/svg", get(design_svg))
        .route("/designs/{id}/save", post(save))
        .route("/grids", get(list_grids))
        .route("/games", post(new_game))
        .route("/games/{id}", get(game).delete(end_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/bots", post(play_bots))
        .route("/games/{id}/svg", get(game_svg))
        .route("/cards", get(cards))
        .route("/sample.svg", get(sample_svg))
}

/// Every card number with its name, parameters and file line, for the
/// designer's palette (the library's own table).
async fn cards() -> Json<&'static [tycoon::CardInfo]> {
    Json(&tycoon::CARDS)
}

/// One object of the grid, for the page.
#[derive(Serialize)]
pub struct ObjectView {
    /// The cell it lives on.
    pub home: u32,
    /// The object as data.
    pub object: Object,
    /// `ladder 10→32`, `card 9 on cell 13 (price 50, fee 10)`.
    pub text: String,
    /// What a card does, for people (empty for ladders and snakes).
    pub describe: String,
}

/// What the designer sees.
#[derive(Serialize)]
pub struct DesignView {
    /// The design's id.
    pub id: String,
    /// The grid as data (`ladders`, `snakes`, `cards`).
    pub grid: GridSpec,
    /// Every object, by the cell it lives on.
    pub objects: Vec<ObjectView>,
    /// The cell numbers as drawn, top row first, left to right.
    pub layout: Vec<Vec<u32>>,
    /// Whether undo and redo have something to do.
    pub can_undo: bool,
    /// See `can_undo`.
    pub can_redo: bool,
    /// The object on the clipboard, if any.
    pub clipboard: Option<ObjectView>,
    /// The grid in the grid file format.
    pub file: String,
    /// What adding each card number asks (a station's price and fee only
    /// for the first card of its number; the group's terms after).
    pub card_forms: Vec<tycoon::design::CardForm>,
}

fn object_view(object: Object) -> ObjectView {
    ObjectView {
        home: object.home(),
        object,
        text: object.to_string(),
        describe: match object {
            Object::Card(card) => card.kind.describe(),
            _ => String::new(),
        },
    }
}

/// The cell numbers as the grid is drawn, top row first.
fn layout() -> Vec<Vec<u32>> {
    let geometry = tycoon::cells::geometry();
    (0..geometry.rows())
        .map(|row| {
            (0..geometry.cols())
                .filter_map(|col| geometry.square_at(tabletop::Cell { row, col }))
                .collect()
        })
        .collect()
}

fn view(id: &str, designer: &Designer) -> DesignView {
    let grid = designer.grid();
    DesignView {
        id: id.to_string(),
        grid: grid.to_spec(),
        objects: grid.objects().map(object_view).collect(),
        layout: layout(),
        can_undo: designer.document.can_undo(),
        can_redo: designer.document.can_redo(),
        clipboard: designer.clipboard.object.map(object_view),
        file: designer.file(),
        card_forms: tycoon::design::card_forms(grid),
    }
}

/// `POST /api/tycoon/designs`: `{}` (an empty grid), `{"text": "..."}` (a
/// grid file's text) or `{"saved": "name"}` (a saved grid).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NewDesign {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    saved: Option<String>,
}

/// The grid a request names: a file's text or a saved grid's name.
pub(crate) fn grid_from(
    state: &AppState,
    text: Option<&str>,
    saved: Option<&str>,
) -> Result<Grid, ApiError> {
    Ok(grid_text_from(state, text, saved)?.0)
}

/// The grid a request names and the text it was read from (none for an
/// empty grid), kept so that an unedited design saves back byte for byte.
fn grid_text_from(
    state: &AppState,
    text: Option<&str>,
    saved: Option<&str>,
) -> Result<(Grid, Option<String>), ApiError> {
    let (text, source) = match (text, saved) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give the grid's \"text\" or a \"saved\" grid's name, not both",
            ));
        }
        (Some(text), None) => (text.to_string(), "the grid file".to_string()),
        (None, Some(name)) => (
            grids::load_text(&state.config.data_dir, name)?,
            format!("saved grid '{}'", grids::check_name(name)?),
        ),
        (None, None) => return Ok((Grid::empty(), None)),
    };
    let grid =
        tycoon::parse_grid(&text).map_err(|e| ApiError::unprocessable(format!("{source}: {e}")))?;
    Ok((grid, Some(text)))
}

async fn new_design(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NewDesign>,
) -> ApiResult<DesignView> {
    let (grid, text) = grid_text_from(&state, req.text.as_deref(), req.saved.as_deref())?;
    let designer = match text {
        Some(text) => Designer::new(grid).with_source(text),
        None => Designer::new(grid),
    };
    let id = state.designs.insert(designer)?;
    Ok(Json(state.designs.with(&id, |d| view(&id, d))?))
}

async fn design(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<DesignView> {
    Ok(Json(state.designs.with(&id, |d| view(&id, d))?))
}

async fn end_design(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    state.designs.remove(&id)?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// An accepted edit and the design after it.
#[derive(Serialize)]
pub struct Edited {
    /// What the edit did.
    pub applied: Applied,
    /// The design after it.
    pub design: DesignView,
}

async fn edit(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(edit): JsonBody<Edit>,
) -> ApiResult<Edited> {
    state
        .designs
        .with(&id, |d| {
            let applied = d
                .apply(&edit)
                .map_err(|e| ApiError::unprocessable(format!("{edit}: {e}")))?;
            Ok(Edited {
                applied,
                design: view(&id, d),
            })
        })?
        .map(Json)
}

/// The longest name a picture's title takes.
pub const MAX_PICTURE_NAME: usize = 80;

/// `?name=my grid`: what the picture calls the grid.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PictureQuery {
    #[serde(default)]
    name: Option<String>,
}

impl PictureQuery {
    /// The name to draw, or `default`; a name too long for a title is
    /// refused.
    fn name(self, default: &str) -> Result<String, ApiError> {
        let name = self.name.map(|n| n.trim().to_string());
        match name {
            Some(n) if n.chars().count() > MAX_PICTURE_NAME => Err(ApiError::bad_request(format!(
                "a picture's name is at most {MAX_PICTURE_NAME} characters"
            ))),
            Some(n) if !n.is_empty() => Ok(n),
            _ => Ok(default.to_string()),
        }
    }
}

/// `GET /api/tycoon/designs/{id}/svg`: the design's grid as `render` draws
/// it.
async fn design_svg(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let name = query.name("a new grid")?;
    let picture = state
        .designs
        .with(&id, |d| render::tycoon::grid(d.grid(), &name))?;
    crate::svg_response(Ok(picture))
}

/// `GET /api/tycoon/sample.svg`: the seed's sample grid, for the home page.
async fn sample_svg() -> Result<Response, ApiError> {
    let grid = tycoon::parse_grid(tycoon::SAMPLE_GRID)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    crate::svg_response(Ok(render::tycoon::grid(&grid, "the seed's sample grid")))
}

/// `GET /api/tycoon/games/{id}/svg`: the game on its grid as `render` draws
/// it.
async fn game_svg(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let name = query.name("this grid")?;
    let picture = state
        .tycoon
        .with(&id, |s| render::tycoon::game(s.game.game(), &name))?;
    crate::svg_response(Ok(picture))
}

async fn file(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = state.designs.with(&id, |d| d.file())?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"tycoon.grid\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `POST /api/tycoon/designs/{id}/save`: `{"name": "my grid"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    name: String,
}

/// Where a grid was saved.
#[derive(Serialize)]
struct Saved {
    name: String,
    grids: Vec<grids::SavedGrid>,
}

async fn save(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<SaveRequest>,
) -> ApiResult<Saved> {
    let text = state.designs.with(&id, |d| d.file())?;
    let dir = state.config.data_dir.clone();
    let name = tokio::task::spawn_blocking(move || grids::save(&dir, &req.name, &text))
        .await
        .map_err(|e| ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, e.to_string()))??;
    Ok(Json(Saved {
        name,
        grids: grids::list(&state.config.data_dir),
    }))
}

#[derive(Serialize)]
struct GridList {
    grids: Vec<grids::SavedGrid>,
}

async fn list_grids(State(state): State<AppState>) -> Json<GridList> {
    Json(GridList {
        grids: grids::list(&state.config.data_dir),
    })
}

/// The store of live Tycoon games.
pub type TycoonGames = crate::store::Store<TycoonSession>;

/// A live game: a match of the library's game (its dice, record and log).
pub struct TycoonSession {
    game: Match<Game>,
    /// Events in all, so far (the match keeps the newest).
    events: usize,
}

/// The most events a view carries (the newest); the page keeps the rest.
pub const LOG_TAIL: usize = 300;

/// The most bot moves one request plays.
pub const MAX_BOT_MOVES: usize = 5_000;

/// `POST /api/tycoon/games`: the grid (a design's, a saved grid, a file's
/// text, or empty), who sits where, and a seed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    #[serde(default)]
    design: Option<String>,
    #[serde(default)]
    saved: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default = "default_seats")]
    seats: [Seat; SEATS],
    #[serde(default)]
    seed: Option<u64>,
}

fn default_seats() -> [Seat; SEATS] {
    [Seat::Human, Seat::Bot, Seat::Bot, Seat::Bot]
}

/// An event and its line for the log.
#[derive(Serialize)]
pub struct EventView {
    /// The event as data.
    #[serde(flatten)]
    pub event: Event,
    /// Its line, for people.
    pub text: String,
}

/// A legal move: as data (to send back) and as text.
#[derive(Serialize)]
pub struct MoveView {
    /// The move, to send to `/moves` as it is.
    #[serde(rename = "move")]
    pub mv: Move,
    /// `roll`, `attack ice 2`, …
    pub text: String,
}

/// What the players see of a game.
#[derive(Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The seed of its dice, once the game is over (secret until then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The library's view: players (cell, wallet, turns, effects, stations,
    /// attacks left), station owners, whose turn, the decision awaited, the
    /// winner.
    #[serde(flatten)]
    pub view: View,
    /// The decision awaited, in words.
    pub prompt: Option<String>,
    /// The moves that answer it.
    pub moves: Vec<MoveView>,
    /// Whether the seat to answer is a bot.
    pub bot_to_move: bool,
    /// The grid's objects.
    pub objects: Vec<ObjectView>,
    /// The cell numbers as drawn, top row first.
    pub layout: Vec<Vec<u32>>,
    /// How many events the game has had.
    pub event_count: usize,
    /// The newest events (at most [`LOG_TAIL`]).
    pub log: Vec<EventView>,
}

fn event_view(event: Event) -> EventView {
    EventView {
        text: event.to_string(),
        event,
    }
}

fn game_view(id: &str, s: &TycoonSession) -> GameView {
    let m = &s.game;
    let view = m.view(Viewer::Spectator).view;
    let bot_to_move = m
        .to_move()
        .is_some_and(|seat| m.seats()[usize::from(seat) - 1].is_bot());
    let log: Vec<EventView> = m.log().map(|l| event_view(l.event)).collect();
    let tail = log.len().saturating_sub(LOG_TAIL);
    GameView {
        id: id.to_string(),
        seed: m.public_record().map(|r| r.dice.seed()),
        prompt: view.pending.map(|d| d.prompt()),
        moves: m
            .game()
            .legal_moves()
            .into_iter()
            .map(|mv| MoveView {
                text: mv.to_string(),
                mv,
            })
            .collect(),
        bot_to_move,
        objects: m.game().grid().objects().map(object_view).collect(),
        layout: layout(),
        event_count: s.events,
        log: log.into_iter().skip(tail).collect(),
        view,
    }
}

async fn new_game(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NewGame>,
) -> ApiResult<GameView> {
    let grid = match &req.design {
        Some(id) => {
            if req.saved.is_some() || req.text.is_some() {
                return Err(ApiError::bad_request(
                    "give one of \"design\", \"saved\" or \"text\"",
                ));
            }
            state.designs.with(id, |d| d.grid().clone())?
        }
        None => grid_from(&state, req.text.as_deref(), req.saved.as_deref())?,
    };
    let seed = seed_or_fresh(req.seed)?;
    let seats = req.seats.iter().map(|&s| seat_kind(s)).collect();
    let game = Match::start(
        tycoon::contract::Setup::new(grid),
        seats,
        DiceMode::Seeded { seed },
    )
    .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let session = TycoonSession { game, events: 0 };
    let id = state.tycoon.insert(session)?;
    Ok(Json(state.tycoon.with(&id, |s| game_view(&id, s))?))
}

async fn game(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<GameView> {
    Ok(Json(state.tycoon.with(&id, |s| game_view(&id, s))?))
}

async fn end_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    state.tycoon.remove(&id)?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// Moves played by one request: their events and the game after them.
#[derive(Serialize)]
pub struct Played {
    /// The events of the moves played, in order.
    pub events: Vec<EventView>,
    /// The game after them.
    pub game: GameView,
}

/// The match's seat for a seat of the page's form.
fn seat_kind(seat: Seat) -> SeatKind {
    seat.level()
        .map_or(SeatKind::Person, |level| SeatKind::Bot { level })
}

fn refused(e: MatchError<GameError>) -> ApiError {
    match e {
        MatchError::Game(GameError::Over { .. }) | MatchError::Over { .. } => {
            ApiError::conflict(e.to_string())
        }
        MatchError::BotSeat { seat } => ApiError::conflict(format!(
            "player {seat} is a bot: let the bots play (POST …/bots)"
        )),
        _ => ApiError::unprocessable(e.to_string()),
    }
}

async fn play_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(mv): JsonBody<Move>,
) -> ApiResult<Played> {
    state
        .tycoon
        .with(&id, |s| {
            let seat = s.game.to_move().unwrap_or(1);
            let played = s
                .game
                .play(
                    seat,
                    Request {
                        mv,
                        after: None,
                        roll: None,
                    },
                )
                .map_err(refused)?;
            s.events += played.events.len();
            Ok(Played {
                events: played.events.into_iter().map(event_view).collect(),
                game: game_view(&id, s),
            })
        })?
        .map(Json)
}

/// `POST /api/tycoon/games/{id}/bots`: `{"limit": n}` plays at most `n`
/// bot moves (default: until a person must answer or the game ends).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotsRequest {
    #[serde(default)]
    limit: Option<usize>,
}

async fn play_bots(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<BotsRequest>,
) -> ApiResult<Played> {
    let limit = req.limit.unwrap_or(MAX_BOT_MOVES).min(MAX_BOT_MOVES);
    state
        .tycoon
        .with(&id, |s| {
            let status = s.game.status();
            if status.is_over() {
                return Err(refused(MatchError::Over { status }));
            }
            let mut rng = s.game.bot_rng();
            let events: Vec<Event> = s
                .game
                .run_bots(&mut rng, limit)
                .into_iter()
                .flat_map(|p| p.events)
                .collect();
            s.events += events.len();
            Ok(Played {
                events: events.into_iter().map(event_view).collect(),
                game: game_view(&id, s),
            })
        })?
        .map(Json)
}
