//! The Chutes & Ladders API's boards: the built-in ones, and board files
//! uploaded to play on.
//!
//! Terms:
//! - **board reference**: `classic` (a built-in board) or the id of a board
//!   file uploaded with `POST /api/chutes/boards`.
//! - **upload**: a board file read by the library's readers, kept in memory
//!   under an id until a match is made on it (the match keeps its own copy
//!   of the board, so it outlives the upload).
//!
//! Games are played through the match router ([`crate::matches`]).

use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::state::AppState;
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chutes::Board;
use chutes::formats::{self, Note};
use games::board_files::{self, BoardFormat};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::Code;

/// The most squares a board uploaded here may have (the board files allow
/// 1,000,000): every square costs memory in each game and analysis made on
/// the board, and a 40-byte file may ask for a million.
pub const MAX_UPLOADED_SQUARES: u32 = 10_000;

/// The routes under `/api/chutes`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/boards", get(list_boards).post(upload_board))
        .route("/boards/{board}", get(board))
        .route("/boards/{board}/svg", get(board_svg))
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
    maker: crate::http::client::Maker,
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
    if let Some(name) = read.board.name() {
        tabletop::play::check_text(name, BOARD_NAME_MAX).map_err(|e| {
            ApiError::bad_request(format!("the board's name: {e}")).with_code(Code::BadName)
        })?;
    }
    let id = state.boards.insert_by(&read.board, &maker).await?;
    Ok(Json(Uploaded {
        view: BoardView {
            id,
            board: read.board,
        },
        notes: read.notes,
    }))
}

/// The most characters an uploaded board's name may have (it titles the
/// matches played on it).
pub const BOARD_NAME_MAX: usize = 64;

/// The last part of a path a browser may send as a file name.
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The board a reference names.
pub(crate) async fn find_board(state: &AppState, reference: &str) -> Result<Arc<Board>, ApiError> {
    if let Some(board) = formats::builtin(reference) {
        return Ok(Arc::new(board));
    }
    state.boards.get(reference).await.map(Arc::new)
}

async fn board(
    State(state): State<AppState>,
    Path(reference): Path<String>,
) -> ApiResult<BoardView> {
    let board = find_board(&state, &reference).await?;
    Ok(Json(BoardView {
        id: reference,
        board: (*board).clone(),
    }))
}

/// What drawing a board holds in memory, in bytes a square: the picture's
/// tree and its SVG text (a 10,000-square board's text is 12.6 MB).
pub const PICTURE_BYTES_PER_SQUARE: u64 = 2_500;

/// The memory a picture of `board` is counted as, in the long work's
/// states ([`crate::work::BYTES_PER_STATE`] bytes each).
pub fn picture_states(board: &Board) -> u64 {
    (u64::from(board.size()) + 1)
        .saturating_mul(PICTURE_BYTES_PER_SQUARE)
        .div_ceil(crate::work::BYTES_PER_STATE)
}

/// `GET /api/chutes/boards/{board}/svg`: drawn as long work (the quick
/// line for a board of at most
/// [`crate::tools::chutes_analysis::QUICK_SQUARES`] squares, else the long
/// one), its memory counted against the long work's budget while it is
/// drawn and written.
async fn board_svg(
    State(state): State<AppState>,
    Path(reference): Path<String>,
) -> Result<Response, ApiError> {
    let board = find_board(&state, &reference).await?;
    let _held = state
        .long_work
        .memory
        .reserve(picture_states(&board), "states' worth of picture")?;
    let line = crate::tools::chutes_analysis::line_for(&board, u64::from(board.size()) + 1);
    let drawn = state
        .long_work
        .run(line, move |_| {
            render::chutes::board(&board).map(|p| p.to_svg())
        })
        .await?;
    crate::http::svg::svg_text_response(drawn)
}
