//! The Chutes & Ladders API: boards, games played roll by roll or to the end.
//!
//! Terms:
//! - **board reference**: `classic` (a built-in board) or the id of a board
//!   file uploaded with `POST /api/chutes/boards`.
//! - **game view** ([`GameView`]): everything a player sees of a game: the
//!   board, the rules, the seed that replays it, each player's tally, whose
//!   turn it is, every turn so far.
//! - **roll limit**: a game stops taking rolls after [`MAX_ROLLS`], so a board
//!   whose finish cannot be reached never runs forever.
//!
//! The rules are the `chutes` library's: this module turns requests into
//! `Game::play` calls and returns what the game says.

use crate::AppState;
use crate::board_files::{self, BoardFormat};
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::store::seed_or_fresh;
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use chutes::formats::{self, Note};
use chutes::{Board, Game, GameError, Overshoot, PlayerState, Rules, Turn};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::SeededDice;

/// The most rolls one game takes (all players together): the library's cap.
pub const MAX_ROLLS: u32 = chutes::game::ROLL_CAP;

/// The most squares a board uploaded here may have (the board files allow
/// 1,000,000): every square costs memory in each game and analysis made on
/// the board, and a 40-byte file may ask for a million.
pub const MAX_UPLOADED_SQUARES: u32 = 10_000;

/// The most players the page offers and the API accepts.
pub const MAX_PLAYERS: usize = 4;

/// A live game: the library's game, its dice, its log, and the board
/// reference it was started on.
pub struct ChutesSession {
    game: Game,
    dice: SeededDice,
    seed: u64,
    turns: Vec<Turn>,
    board_id: String,
}

/// The store of live Chutes games.
pub type ChutesGames = crate::store::Store<ChutesSession>;

/// The routes under `/api/chutes`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/boards", get(list_boards).post(upload_board))
        .route("/boards/{board}", get(board))
        .route("/boards/{board}/svg", get(board_svg))
        .route("/games", post(new_game))
        .route("/games/{id}", get(game).delete(end_game))
        .route("/games/{id}/turns", post(play_turn))
        .route("/games/{id}/finish", post(finish))
        .route("/games/{id}/svg", get(game_svg))
}

/// A board and the reference that names it.
#[derive(Serialize)]
pub struct BoardView {
    /// `classic` or the uploaded board's id.
    pub id: String,
    /// The board: name, size, start, jumps (each with its kind), geometry.
    pub board: Board,
}

/// The built-in boards and the file formats an upload may use.
#[derive(Serialize)]
struct BoardList {
    builtin: Vec<BoardView>,
    formats: Vec<FormatInfo>,
}

#[derive(Serialize)]
struct FormatInfo {
    name: &'static str,
    describe: &'static str,
}

async fn list_boards() -> Json<BoardList> {
    let builtin = formats::BUILTIN_NAMES
        .iter()
        .filter_map(|name| {
            formats::builtin(name).map(|board| BoardView {
                id: (*name).to_string(),
                board,
            })
        })
        .collect();
    let formats = BoardFormat::ALL
        .iter()
        .map(|f| FormatInfo {
            name: f.name(),
            describe: f.describe(),
        })
        .collect();
    Json(BoardList { builtin, formats })
}

/// `POST /api/chutes/boards`: a board file's text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Upload {
    /// The file's text.
    text: String,
    /// The file's name (helps detect the format and names the board).
    #[serde(default)]
    file_name: Option<String>,
    /// Read as this format instead of detecting it.
    #[serde(default)]
    format: Option<String>,
}

/// An uploaded board and what the reader noticed (a LeetCode self-jump
/// read as no jump…), when anything.
#[derive(Serialize)]
struct Uploaded {
    #[serde(flatten)]
    view: BoardView,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<Note>,
}

async fn upload_board(
    State(state): State<AppState>,
    JsonBody(upload): JsonBody<Upload>,
) -> ApiResult<Uploaded> {
    let format = upload
        .format
        .as_deref()
        .map(str::parse::<BoardFormat>)
        .transpose()
        .map_err(ApiError::bad_request)?;
    let file_name = upload.file_name.as_deref().map(base_name);
    let read = board_files::read_board(&upload.text, format, file_name)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    if read.board.size() > MAX_UPLOADED_SQUARES {
        return Err(ApiError::unprocessable(format!(
            "this board has {} squares; boards uploaded to the server have at most \
             {MAX_UPLOADED_SQUARES} (the command line reads larger ones)",
            read.board.size()
        )));
    }
    let board = Arc::new(read.board);
    let id = state.boards.insert(board.clone())?;
    Ok(Json(Uploaded {
        view: BoardView {
            id,
            board: (*board).clone(),
        },
        notes: read.notes,
    }))
}

/// The last part of a path a browser may send as a file name.
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The board a reference names.
pub(crate) fn find_board(state: &AppState, reference: &str) -> Result<Arc<Board>, ApiError> {
    if let Some(board) = formats::builtin(reference) {
        return Ok(Arc::new(board));
    }
    state.boards.with(reference, |b| b.clone())
}

async fn board(
    State(state): State<AppState>,
    Path(reference): Path<String>,
) -> ApiResult<BoardView> {
    let board = find_board(&state, &reference)?;
    Ok(Json(BoardView {
        id: reference,
        board: (*board).clone(),
    }))
}

async fn board_svg(
    State(state): State<AppState>,
    Path(reference): Path<String>,
) -> Result<Response, ApiError> {
    let board = find_board(&state, &reference)?;
    crate::svg_response(render::chutes::board(&board))
}

async fn game_svg(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (board, players, turns) = state.chutes.with(&id, |s| {
        (
            s.game.board().clone(),
            s.game.players().len(),
            s.turns.clone(),
        )
    })?;
    crate::svg_response(render::chutes::game(&board, players, &turns))
}

/// `POST /api/chutes/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    #[serde(default = "classic")]
    board: String,
    #[serde(default = "one")]
    players: usize,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    overshoot: Option<String>,
    #[serde(default)]
    faces: Option<u32>,
}

fn classic() -> String {
    "classic".to_string()
}

fn one() -> usize {
    1
}

/// What a player sees of a game.
#[derive(Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The board reference the game was started on.
    pub board_id: String,
    /// The board.
    #[serde(serialize_with = "serialize_board")]
    pub board: Arc<Board>,
    /// The die and the overshoot rule.
    pub rules: Rules,
    /// The seed of the dice: the same board, rules, players and seed replay
    /// the same game.
    pub seed: u64,
    /// Each player's tally, in seat order.
    pub players: Vec<PlayerState>,
    /// Who rolls next (from 1), or `null` when the game is over.
    pub to_move: Option<u8>,
    /// The winner (from 1), once someone has finished.
    pub winner: Option<u8>,
    /// Rolls so far, all players together.
    pub rolls: u32,
    /// Whether the game stopped at the roll limit without a winner.
    pub stalled: bool,
    /// Every turn so far, in order.
    pub turns: Vec<Turn>,
}

fn serialize_board<S: serde::Serializer>(board: &Arc<Board>, s: S) -> Result<S::Ok, S::Error> {
    board.as_ref().serialize(s)
}

/// A game after some turns: the new turns and the whole view.
#[derive(Serialize)]
pub struct Played {
    /// The turns this request played.
    pub played: Vec<Turn>,
    /// The game after them.
    pub game: GameView,
}

fn view(id: &str, s: &ChutesSession) -> GameView {
    GameView {
        id: id.to_string(),
        board_id: s.board_id.clone(),
        board: s.game.board().clone(),
        rules: s.game.rules(),
        seed: s.seed,
        players: s.game.players().to_vec(),
        to_move: s.game.to_move(),
        winner: s.game.winner(),
        rolls: s.game.rolls(),
        stalled: s.game.winner().is_none() && s.game.rolls() >= MAX_ROLLS,
        turns: s.turns.clone(),
    }
}

async fn new_game(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NewGame>,
) -> ApiResult<GameView> {
    if !(1..=MAX_PLAYERS).contains(&req.players) {
        return Err(ApiError::bad_request(format!(
            "a game here has 1 to {MAX_PLAYERS} players, not {}",
            req.players
        )));
    }
    let overshoot = match req.overshoot.as_deref() {
        Some(name) => name
            .parse::<Overshoot>()
            .map_err(|e| ApiError::bad_request(e.to_string()))?,
        None => Overshoot::default(),
    };
    let rules = Rules::new(overshoot, req.faces.unwrap_or(6))
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let board = find_board(&state, &req.board)?;
    let game =
        Game::new(board, rules, req.players).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let seed = seed_or_fresh(req.seed)?;
    let session = ChutesSession {
        game,
        dice: SeededDice::new(seed),
        seed,
        turns: Vec::new(),
        board_id: req.board,
    };
    let id = state.chutes.insert(session)?;
    with_session(&state, &id, |s| Ok(view(&id, s)))
}

async fn game(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<GameView> {
    with_session(&state, &id, |s| Ok(view(&id, s)))
}

async fn end_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    state.chutes.remove(&id)?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

fn with_session<R>(
    state: &AppState,
    id: &str,
    f: impl FnOnce(&mut ChutesSession) -> Result<R, ApiError>,
) -> ApiResult<R> {
    state.chutes.with(id, f)?.map(Json)
}

/// `POST /api/chutes/games/{id}/turns`: `{}` rolls the game's dice; `{"roll":
/// n}` plays the roll given.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnRequest {
    #[serde(default)]
    roll: Option<u32>,
}

async fn play_turn(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TurnRequest>,
) -> ApiResult<Played> {
    with_session(&state, &id, |s| {
        let turn = one_turn(s, req.roll)?;
        Ok(Played {
            played: vec![turn],
            game: view(&id, s),
        })
    })
}

async fn finish(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Played> {
    with_session(&state, &id, |s| {
        // A finished or stalled game says why, as a single turn would.
        let mut played = vec![one_turn(s, None)?];
        while s.game.winner().is_none() && s.game.rolls() < MAX_ROLLS {
            played.push(one_turn(s, None)?);
        }
        Ok(Played {
            played,
            game: view(&id, s),
        })
    })
}

fn one_turn(s: &mut ChutesSession, roll: Option<u32>) -> Result<Turn, ApiError> {
    if s.game.winner().is_none() && s.game.rolls() >= MAX_ROLLS {
        return Err(ApiError::conflict(format!(
            "this game has gone on for {MAX_ROLLS} rolls without a winner; \
             the board may have no way to reach its finish"
        )));
    }
    let turn = match roll {
        Some(roll) => s.game.play_roll(roll),
        None => s.game.play(&mut s.dice),
    }
    .map_err(|e| match e {
        GameError::Over { .. } => ApiError::conflict(e.to_string()),
        _ => ApiError::bad_request(e.to_string()),
    })?;
    s.turns.push(turn);
    Ok(turn)
}
