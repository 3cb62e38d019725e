//! The Baffle API: games of the laser box, shot by shot, guess by guess.
//!
//! Terms:
//! - **view**: the library's [`baffle::View`] — what the player may see. It
//!   never holds an unfound mirror, a beam's path or a deflection count while
//!   the game is on; neither does anything else this module sends (the seed
//!   of a random game is withheld until the game ends, as it would give the
//!   layout away).
//! - **hole place**: where a hole sits round the box, for drawing: its side
//!   and its place along that side (from the top for left and right, from
//!   the left for top and bottom), worked out by the library's geometry.
//! - **hint**: the library's solver run on the view's evidence alone (shots
//!   seen, mirrors found, wrong guesses).
//! - **bot move**: the library's bot ([`baffle::bot::decide`]) asked for one
//!   move on the view (never the hidden layout) and the move applied, as if
//!   the player had made it; the answer says which move and why.
//! - **picture**: `render`'s drawing of the view (never of the game), so it
//!   shows no more than the view: no unfound mirror and no beam path while
//!   the game is on. The hint's picture adds the solver's odds, which come
//!   from the evidence too.

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::store::seed_or_fresh;
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use baffle::bot::{BotError, BotOptions, Decision, decide};
use baffle::{
    Cell, Event, Evidence, Game, Mirror, Move, MoveError, Setup, Side, Sides, Size, View,
};
use serde::{Deserialize, Serialize};

/// The store of live Baffle games.
pub type BaffleGames = crate::store::Store<Game>;

/// The routes under `/api/baffle`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games", post(new_game))
        .route("/games/{id}", get(game).delete(end_game))
        .route("/games/{id}/shots", post(shoot))
        .route("/games/{id}/guesses", post(guess))
        .route("/games/{id}/quit", post(quit))
        .route("/games/{id}/hint", post(hint))
        .route("/games/{id}/bot", post(bot_move))
        .route("/games/{id}/svg", get(picture))
        .route("/preview.svg", get(preview))
        .route("/solve", post(solve))
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

/// What the player sees of a game.
#[derive(Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The library's view.
    #[serde(flatten)]
    pub view: View,
    /// Every hole's place round the box.
    pub holes: Vec<HolePlace>,
    /// `fixed` (the seed's first game), `seeded` or `given`.
    pub origin: &'static str,
    /// The seed of a random game: only once the game is over.
    pub seed: Option<u64>,
    /// Every event so far, for the log, in words.
    pub log: Vec<String>,
}

/// A move's answer: what it did and the game after it.
#[derive(Serialize)]
pub struct Answer {
    /// The shot's exit hole (shots only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<usize>,
    /// Whether the guess was right (guesses only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<bool>,
    /// The move's events.
    pub events: Vec<Event>,
    /// The game after it.
    #[serde(flatten)]
    pub game: GameView,
}

fn hole_places(game: &Game) -> Vec<HolePlace> {
    let size: Size = game.size();
    let n = size.n();
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
            debug_assert!(at < n);
            Some(HolePlace {
                hole,
                side,
                at,
                shootable: sides.allows(side),
            })
        })
        .collect()
}

/// Every event of `game` so far, in words, replayed from its moves.
fn log(game: &Game) -> Vec<String> {
    let Ok(mut replay) = Game::new(game.setup().clone()) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for &mv in game.moves() {
        if let Ok(events) = replay.apply(mv) {
            lines.extend(events.iter().map(ToString::to_string));
        }
    }
    lines
}

fn game_view(id: &str, game: &Game) -> GameView {
    let view = game.view();
    let over = view.status.is_over();
    let (origin, seed) = match &game.setup().origin {
        baffle::Origin::Fixed => ("fixed", None),
        baffle::Origin::Seeded { seed } => ("seeded", over.then_some(*seed)),
        baffle::Origin::Given { .. } => ("given", None),
    };
    GameView {
        id: id.to_string(),
        holes: hole_places(game),
        origin,
        seed,
        log: log(game),
        view,
    }
}

/// `POST /api/baffle/games`: `{"fixed": true}` (the seed's first game) or
/// `{"seed": S}`, or neither (a random game from a fresh seed); `size`,
/// `mirrors` (random games) and `sides` (`all` or `left-top`) optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NewGame {
    #[serde(default)]
    fixed: bool,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    mirrors: Option<usize>,
    #[serde(default)]
    sides: Sides,
}

async fn new_game(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NewGame>,
) -> ApiResult<GameView> {
    let setup = if req.fixed {
        if req.seed.is_some() || req.size.is_some() || req.mirrors.is_some() {
            return Err(ApiError::bad_request(
                "the fixed game is the seed's 10 × 10 box with 5 mirrors: \
                 give no seed, size or mirrors with it",
            ));
        }
        Setup::fixed(req.sides)
    } else {
        let seed = seed_or_fresh(req.seed)?;
        Setup::seeded(
            req.size.unwrap_or(baffle::geometry::DEFAULT_SIZE),
            req.mirrors.unwrap_or(5),
            req.sides,
            seed,
        )
    };
    let game = Game::new(setup).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let id = state.baffle.insert(game)?;
    Ok(Json(state.baffle.with(&id, |g| game_view(&id, g))?))
}

async fn game(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<GameView> {
    Ok(Json(state.baffle.with(&id, |g| game_view(&id, g))?))
}

async fn end_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    state.baffle.remove(&id)?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

fn refused(e: MoveError) -> ApiError {
    match e {
        MoveError::Over { .. } => ApiError::conflict(e.to_string()),
        _ => ApiError::unprocessable(e.to_string()),
    }
}

fn play(state: &AppState, id: &str, mv: Move) -> ApiResult<Answer> {
    play_after(state, id, mv, None).map(Json)
}

/// Plays `mv` on game `id`; with `after`, only if the game has had exactly
/// that many moves (the bot's move was chosen on the view after them).
fn play_after(
    state: &AppState,
    id: &str,
    mv: Move,
    after: Option<usize>,
) -> Result<Answer, ApiError> {
    state.baffle.with(id, |g| {
        if after.is_some_and(|n| n != g.moves().len()) && !g.status().is_over() {
            return Err(ApiError::conflict(
                "the game moved on while the bot was thinking: ask it again",
            ));
        }
        let events = g.apply(mv).map_err(refused)?;
        let exit = events.iter().find_map(|e| match e {
            Event::Shot { exit, .. } => Some(*exit),
            _ => None,
        });
        let right = events.iter().find_map(|e| match e {
            Event::Guess { right, .. } => Some(*right),
            _ => None,
        });
        Ok(Answer {
            exit,
            right,
            events,
            game: game_view(id, g),
        })
    })?
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Shot {
    hole: usize,
}

async fn shoot(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(shot): JsonBody<Shot>,
) -> ApiResult<Answer> {
    play(&state, &id, Move::Shoot { hole: shot.hole })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Guess {
    row: u32,
    col: u32,
    mirror: Mirror,
}

async fn guess(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(guess): JsonBody<Guess>,
) -> ApiResult<Answer> {
    play(
        &state,
        &id,
        Move::Guess {
            cell: Cell::new(guess.row, guess.col),
            mirror: guess.mirror,
        },
    )
}

async fn quit(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Answer> {
    play(&state, &id, Move::Quit)
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

/// The picture's title: which game this is (a random game's seed only once
/// it is over, as in the view).
fn title(game: &Game) -> String {
    match &game.setup().origin {
        baffle::Origin::Fixed => "Baffle: the original's first game".to_string(),
        baffle::Origin::Seeded { seed } if game.view().status.is_over() => {
            format!("Baffle: a random game, seed {seed}")
        }
        baffle::Origin::Seeded { .. } => "Baffle: a random game".to_string(),
        baffle::Origin::Given { .. } => "Baffle".to_string(),
    }
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
    crate::svg_response(render::baffle::view_with(&game.view(), &style))
}

/// `GET /api/baffle/games/{id}/svg`: the player's view as `render` draws it.
async fn picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::response::Response, ApiError> {
    let (view, title) = state.baffle.with(&id, |g| (g.view(), title(g)))?;
    let style = render::baffle::BaffleStyle {
        title: Some(title),
        steady: true,
        ..render::baffle::BaffleStyle::default()
    };
    crate::svg_response(render::baffle::view_with(&view, &style))
}

async fn hint(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Hint> {
    let (view, title) = state.baffle.with(&id, |g| (g.view(), title(g)))?;
    if view.status.is_over() {
        return Err(ApiError::conflict("the game is over: no hint needed"));
    }
    let evidence = view.evidence();
    let solution = solved(&state, evidence).await?;
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

/// The solver's answer to `evidence` with the default options (the same
/// as `parlor baffle solve`'s), off the async workers.
async fn solved(state: &AppState, evidence: Evidence) -> Result<baffle::Solution, ApiError> {
    state
        .long_work
        .run(move || baffle::solve(&evidence, &baffle::SolveOptions::default()))
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
    Ok(Json(solved(&state, evidence).await?))
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

/// A bot move's answer: the move's answer, and the bot's decision.
#[derive(Serialize)]
struct BotAnswer {
    /// What the bot did and why.
    bot: BotMove,
    /// What a shot or guess answers.
    #[serde(flatten)]
    answer: Answer,
}

fn bot_refused(e: BotError) -> ApiError {
    match e {
        BotError::Over
        | BotError::Refused {
            error: MoveError::Over { .. },
            ..
        } => ApiError::conflict(format!("{e}: the bot has no move to make")),
        _ => ApiError::unprocessable(format!("the bot cannot move: {e}")),
    }
}

/// `POST /api/baffle/games/{id}/bot`: the bot's move on the player's view,
/// played.
async fn bot_move(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<BotAnswer> {
    let (view, moves) = state.baffle.with(&id, |g| (g.view(), g.moves().len()))?;
    if view.status.is_over() {
        return Err(bot_refused(BotError::Over));
    }
    // The solve may take about a second: off the async workers.
    let decision = state
        .long_work
        .run(move || decide(&view, &BotOptions::default()))
        .await?
        .map_err(bot_refused)?;
    let answer = play_after(&state, &id, decision.mv, Some(moves))?;
    Ok(Json(BotAnswer {
        bot: BotMove {
            move_text: decision.mv.to_string(),
            reason_text: decision.reason.to_string(),
            decision,
        },
        answer,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn bot_errors_are_a_409_after_the_end_and_a_422_otherwise() {
        let over = bot_refused(BotError::Over);
        assert_eq!(over.status, StatusCode::CONFLICT);
        assert!(over.message.contains("over"), "{}", over.message);
        let refused = bot_refused(BotError::Refused {
            mv: Move::Quit,
            error: MoveError::Over {
                status: baffle::Status::Won,
            },
        });
        assert_eq!(refused.status, StatusCode::CONFLICT);
        let hard = bot_refused(BotError::TooHard);
        assert_eq!(hard.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            hard.message.contains("too many cases"),
            "the library's reason is kept: {}",
            hard.message
        );
        let odd = bot_refused(BotError::Contradiction);
        assert_eq!(odd.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(odd.message.contains("no layout fits"), "{}", odd.message);
    }
}
