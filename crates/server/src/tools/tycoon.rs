//! The Snakes & Ladders Tycoon API beside the match router: design
//! documents and saved grids.
//!
//! Terms:
//! - **design**: one person's [`tycoon::design::Designer`] (the grid, its
//!   undo history, and the clipboard beside it), under an id.
//! - **edit**: the library's [`Edit`] as JSON (`{"edit": "ladder", "start":
//!   10, "end": 32}`); a refused edit changes nothing and answers 422 with
//!   the library's reason.
//! - **saved grid**: a grid file's text in the store, under a name (see
//!   [`crate::tools::grids`]).
//! - **picture**: `render`'s drawing of a design's grid, or of a game on its
//!   grid (tokens, station owners, the players panel), titled with the
//!   grid's name as the page calls it (`?name=`).
//!
//! - **balance check**: bot games on a design's grid, each seat's win rate
//!   with its 95% interval and the library's verdict (balanced, unbalanced,
//!   or not enough games to tell and about how many more), run in the long
//!   line on one thread within [`BALANCE_SECONDS`]: a run the time stops is
//!   the report of the games played, marked `stopped`.
//!
//! The rules are the `tycoon` library's: every edit goes through its one
//! validator; this module only stores documents and grids. Games are played
//! through the match router ([`crate::matches`]).

use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::state::AppState;
use crate::tools::grids;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use games::{ObjectView, layout, object_view};
use serde::{Deserialize, Serialize};
use tycoon::design::{Applied, Designer, Edit};
use tycoon::{Grid, GridSpec};

/// The store of design documents.
pub type Designs = crate::sessions::Sessions<Designer>;

/// The routes under `/api/tycoon`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/designs", post(new_design))
        .route("/designs/{id}", get(design).delete(end_design))
        .route("/designs/{id}/edits", post(edit))
        .route("/designs/{id}/file", get(file))
        .route("/designs/{id}/svg", get(design_svg))
        .route("/designs/{id}/save", post(save))
        .route("/designs/{id}/balance", post(balance))
        .route("/grids", get(list_grids))
        .route("/grids/{name}", get(saved_grid).delete(delete_grid))
        .route("/cards", get(cards))
        .route("/sample.svg", get(sample_svg))
}

/// Every card number with its name, parameters and file line, for the
/// designer's palette (the library's own table).
async fn cards() -> Json<&'static [tycoon::CardInfo]> {
    Json(&tycoon::CARDS)
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
///
/// # Errors
/// 400 for both or a bad name, 404 for no such saved grid, 422 for a file
/// that does not read.
pub(crate) async fn grid_from(
    state: &AppState,
    text: Option<&str>,
    saved: Option<&str>,
) -> Result<Grid, ApiError> {
    Ok(grid_text_from(state, text, saved).await?.0)
}

/// The grid a request names and the text it was read from (none for an
/// empty grid), kept so that an unedited design saves back byte for byte.
async fn grid_text_from(
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
        (None, Some(name)) => {
            let name = grids::grid_name(name)?;
            (
                grids::load(state.hub.db(), &name).await?,
                format!("saved grid '{name}'"),
            )
        }
        (None, None) => return Ok((Grid::empty(), None)),
    };
    let grid =
        tycoon::parse_grid(&text).map_err(|e| ApiError::unprocessable(format!("{source}: {e}")))?;
    Ok((grid, Some(text)))
}

async fn new_design(
    State(state): State<AppState>,
    maker: crate::http::client::Maker,
    JsonBody(req): JsonBody<NewDesign>,
) -> ApiResult<DesignView> {
    let (grid, text) = grid_text_from(&state, req.text.as_deref(), req.saved.as_deref()).await?;
    let designer = match text {
        Some(text) => Designer::new(grid).with_source(text),
        None => Designer::new(grid),
    };
    let id = state.designs.insert_by(&designer, &maker).await?;
    Ok(Json(view(&id, &designer)))
}

async fn design(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<DesignView> {
    Ok(Json(view(&id, &state.designs.get(&id).await?)))
}

async fn end_design(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    state.designs.remove(&id).await?;
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
        .update(&id, |d| {
            let applied = d
                .apply(&edit)
                .map_err(|e| ApiError::unprocessable(format!("{edit}: {e}")))?;
            Ok(Edited {
                applied,
                design: view(&id, d),
            })
        })
        .await
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

/// A picture's name as a request gave it: trimmed, none when empty.
///
/// # Errors
/// 400 for a name longer than [`MAX_PICTURE_NAME`].
pub fn picture_name(name: Option<String>) -> Result<Option<String>, ApiError> {
    let name = name.map(|n| n.trim().to_string());
    match name {
        Some(n) if n.chars().count() > MAX_PICTURE_NAME => Err(ApiError::bad_request(format!(
            "a picture's name is at most {MAX_PICTURE_NAME} characters"
        ))),
        Some(n) if !n.is_empty() => Ok(Some(n)),
        _ => Ok(None),
    }
}

/// `GET /api/tycoon/designs/{id}/svg`: the design's grid as `render` draws
/// it.
async fn design_svg(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let name = picture_name(query.name)?.unwrap_or_else(|| "a new grid".to_string());
    let design = state.designs.get(&id).await?;
    let picture = render::tycoon::grid(design.grid(), &name);
    crate::http::svg::svg_response(Ok(picture))
}

/// `GET /api/tycoon/sample.svg`: the original assignment's sample grid, for
/// the home page.
async fn sample_svg() -> Result<Response, ApiError> {
    let grid = tycoon::parse_grid(tycoon::SAMPLE_GRID)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    crate::http::svg::svg_response(Ok(render::tycoon::grid(
        &grid,
        "the original assignment's sample grid",
    )))
}

async fn file(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = state.designs.get(&id).await?.file();
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

/// `POST /api/tycoon/designs/{id}/save`: `{"name": "my grid"}`, and
/// `"replace": true` to replace a saved grid of that name.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    name: String,
    #[serde(default)]
    replace: bool,
}

/// Where a grid was saved: its name as stored (a `.grid` dropped) and its
/// size. The answer is one grid, never the list, so that a save costs the
/// same however many grids others have saved.
#[derive(Serialize)]
struct Saved {
    name: String,
    bytes: u64,
}

async fn save(
    State(state): State<AppState>,
    Path(id): Path<String>,
    maker: crate::http::client::Maker,
    JsonBody(req): JsonBody<SaveRequest>,
) -> ApiResult<Saved> {
    let text = state.designs.get(&id).await?.file();
    let actor = grids::actor(&maker, state.config.grids_per_client);
    let name = grids::save(state.hub.db(), &req.name, &text, req.replace, &actor).await?;
    Ok(Json(Saved {
        name,
        bytes: text.len() as u64,
    }))
}

/// How many saved grids a listing gives when not told.
const GRIDS_LISTED: u32 = 100;
/// The most a listing gives.
const GRIDS_LISTED_AT_MOST: u32 = 500;

/// `GET /api/tycoon/grids?limit=N`: how many to list, 1 to 500.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<u32>,
}

/// The grids saved most recently, newest first; `more` when older ones
/// are not listed (each is still loaded by its name).
#[derive(Serialize)]
struct GridList {
    grids: Vec<crate::store::GridRow>,
    more: bool,
}

async fn list_grids(
    State(state): State<AppState>,
    axum::extract::Query(query): axum::extract::Query<ListQuery>,
) -> ApiResult<GridList> {
    let limit = match query.limit {
        None => GRIDS_LISTED,
        Some(n @ 1..=GRIDS_LISTED_AT_MOST) => n,
        Some(n) => {
            return Err(ApiError::bad_request(format!(
                "limit is how many grids to list, 1 to {GRIDS_LISTED_AT_MOST}, not {n}"
            )));
        }
    };
    let mut grids = state.hub.db().grids(limit + 1).await?;
    let more = grids.len() > limit as usize;
    grids.truncate(limit as usize);
    Ok(Json(GridList { grids, more }))
}

/// `GET /api/tycoon/grids/{name}`: a saved grid's file.
async fn saved_grid(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let name = grids::grid_name(&name)?;
    let text = grids::load(state.hub.db(), &name).await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        text,
    )
        .into_response())
}

/// `DELETE /api/tycoon/grids/{name}`.
async fn delete_grid(
    State(state): State<AppState>,
    Path(name): Path<String>,
    maker: crate::http::client::Maker,
) -> Result<axum::http::StatusCode, ApiError> {
    let name = grids::grid_name(&name)?;
    let actor = grids::actor(&maker, state.config.grids_per_client);
    if state.hub.db().delete_grid_as(&name, &actor).await? {
        Ok(axum::http::StatusCode::NO_CONTENT)
    } else {
        Err(grids::missing(&name))
    }
}

/// The most games one balance check plays.
pub const MAX_BALANCE_GAMES: u64 = 4_000;

/// The longest a balance check plays before it reports the games played.
pub const BALANCE_SECONDS: u64 = 20;

/// `POST /api/tycoon/designs/{id}/balance`: how many games, the seats'
/// levels and the margin.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct BalanceRequest {
    /// Games to play (default 1,000; at most [`MAX_BALANCE_GAMES`]).
    #[serde(default)]
    games: Option<u64>,
    /// The most the seats' win rates may differ (default 0.05).
    #[serde(default)]
    margin: Option<f64>,
    /// Who plays seats 1-4: one level for all (`"normal"`) or four
    /// (`"hard,normal,normal,normal"`); levels are easy, normal and hard.
    #[serde(default)]
    seats: Option<String>,
    /// The games' seed (default 1).
    #[serde(default)]
    seed: Option<u64>,
}

/// The four seats a request names.
fn balance_seats(text: Option<&str>) -> Result<[tycoon::Seat; tycoon::game::SEATS], ApiError> {
    let text = text
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .unwrap_or("normal");
    let seats: Vec<tycoon::Seat> = text
        .split(',')
        .map(|s| {
            s.parse::<tycoon::Seat>()
                .map_err(|e| ApiError::bad_request(format!("seats: {e}")))
        })
        .collect::<Result<_, _>>()?;
    if seats.contains(&tycoon::Seat::Human) {
        return Err(ApiError::bad_request(
            "seats: a balance check is played by bots: give easy, normal or hard",
        ));
    }
    match seats.as_slice() {
        [one] => Ok([*one; tycoon::game::SEATS]),
        [a, b, c, d] => Ok([*a, *b, *c, *d]),
        other => Err(ApiError::bad_request(format!(
            "seats: {} seats named; give 4 (or one for all)",
            other.len()
        ))),
    }
}

async fn balance(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<BalanceRequest>,
) -> ApiResult<tycoon::balance::BalanceReport> {
    let games = req.games.unwrap_or(1_000);
    if !(1..=MAX_BALANCE_GAMES).contains(&games) {
        return Err(ApiError::bad_request(format!(
            "games: give 1 to {MAX_BALANCE_GAMES}, not {games} (the command line's parlor tycoon check --balance plays more)"
        )));
    }
    let margin = req.margin.unwrap_or(0.05);
    if !(margin.is_finite() && (0.0..=1.0).contains(&margin)) {
        return Err(ApiError::bad_request(format!(
            "margin: a share between 0 and 1 (0.05 is 5 points), not {margin}"
        )));
    }
    let seats = balance_seats(req.seats.as_deref())?;
    let grid = std::sync::Arc::new(state.designs.get(&id).await?.grid().clone());
    let options = tycoon::simulate::Options {
        games,
        seed: req.seed.unwrap_or(1),
        seats,
        turn_cap: tycoon::game::DEFAULT_TURN_CAP,
    };
    let report = state
        .long_work
        .run_long_for(
            // Room for the games in play when the time is up to end (a
            // hard seat's game takes seconds).
            std::time::Duration::from_secs(BALANCE_SECONDS + 20),
            move |outer| {
                let watch = tycoon::simulate::Watch::default();
                let deadline =
                    std::time::Instant::now() + std::time::Duration::from_secs(BALANCE_SECONDS);
                let done = std::sync::atomic::AtomicBool::new(false);
                std::thread::scope(|scope| {
                    // Stops the games when the time is up or the client
                    // went away; the report is then of the games played.
                    scope.spawn(|| {
                        use std::sync::atomic::Ordering;
                        while !done.load(Ordering::SeqCst) {
                            if outer.check().is_err() || std::time::Instant::now() >= deadline {
                                watch.stop.store(true, Ordering::SeqCst);
                                break;
                            }
                            std::thread::sleep(std::time::Duration::from_millis(20));
                        }
                    });
                    let report = tycoon::balance::check_balance_on(
                        "this grid",
                        &grid,
                        &options,
                        margin,
                        &watch,
                        1,
                    );
                    done.store(true, std::sync::atomic::Ordering::SeqCst);
                    report
                })
            },
        )
        .await?
        .map_err(|e| ApiError::unprocessable(format!("the games could not start: {e}")))?;
    Ok(Json(report))
}
