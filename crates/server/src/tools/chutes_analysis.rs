//! The Chutes & Ladders analysis API: exact figures and pictures of a board.
//!
//! Terms:
//! - **rules query**: `overshoot` and `faces` as URL query parameters, the
//!   same as a game's (defaults: `stay`, 6).
//! - **report**: each answer is the `chutes` library's report for the
//!   question (`chutes::analysis::report`), the same document `parlor chutes
//!   … --json` prints; `docs/api.md` gives each schema.
//! - **analysis**: the exact Markov chain for one player (length
//!   distribution, expected landings, jump figures; with `exact=true` the
//!   mean and variance as fractions) and each seat's chance to win among
//!   `players`.
//! - **shortest games**: the library's breadth-first search, optionally for
//!   games taking exactly `chutes` chutes (and/or `ladders` ladders), with
//!   the first 20 routes listed.
//! - **minimum throws**: the fewest throws when the player chooses every
//!   roll.
//! - **plot**: a picture from `render` — `distribution`, `seats`, `heatmap`.
//! - **cost estimate** ([`line_for`]): which line of [`crate::work`] a
//!   question waits in. Boards of at most [`QUICK_SQUARES`] squares (and
//!   shortest-game searches of at most [`QUICK_STATES`] states) go to the
//!   quick line: milliseconds, never behind hints and bot moves. The rest go
//!   to the long line. Either way the answer is bounded by the line's time
//!   limit (10 s for the long line), past which it is a 503.
//!
//! All work is the libraries'; it runs off the async threads, within a
//! budget that stops it when the client hangs up or the time limit passes.
//! A heat map of a board no picture can show is refused before any
//! analysis.

use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::tools::chutes_boards::find_board;
use crate::work::Line;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use chutes::analysis::AnalysisError;
use chutes::analysis::markov::{self, Markov, MarkovOptions};
use chutes::analysis::report::{
    AnalysisOptions, AnalysisReport, MinThrowsReport, ShortestListing, ShortestReport,
};
use chutes::analysis::shortest::Constraint;
use chutes::{Board, Overshoot, Rules};
use serde::Deserialize;
use std::sync::Arc;
use tabletop::Budget;

/// The most routes listed by the shortest-games answer.
pub const LISTED_ROUTES: usize = 20;

/// The largest board whose questions wait in the quick line.
pub const QUICK_SQUARES: u32 = 1_000;

/// The most states (squares × chute counts × ladder counts) of a
/// shortest-game search that waits in the quick line.
pub const QUICK_STATES: u64 = 100_000;

/// The line a question about `board` waits in, `states` being the states
/// its search holds (the squares, unless the question multiplies them).
pub fn line_for(board: &Board, states: u64) -> Line {
    if board.size() <= QUICK_SQUARES && states <= QUICK_STATES {
        Line::Quick
    } else {
        Line::Long
    }
}

/// The line for a question about the board alone.
fn board_line(board: &Board) -> Line {
    line_for(board, u64::from(board.size()) + 1)
}

/// The routes under `/api/chutes/boards/{board}`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/boards/{board}/analysis", get(analysis))
        .route("/boards/{board}/shortest", get(shortest))
        .route("/boards/{board}/min-throws", get(min_throws))
        .route("/boards/{board}/plots/{kind}", get(plot))
}

/// `?overshoot=stay&faces=6&players=2&exact=true&chutes=2&ladders=1`.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default)]
    overshoot: Option<String>,
    #[serde(default)]
    faces: Option<u32>,
    #[serde(default)]
    players: Option<usize>,
    #[serde(default)]
    exact: Option<bool>,
    #[serde(default)]
    chutes: Option<u32>,
    #[serde(default)]
    ladders: Option<u32>,
}

impl Params {
    fn rules(&self) -> Result<Rules, ApiError> {
        let overshoot = match self.overshoot.as_deref() {
            Some(name) => name
                .parse::<Overshoot>()
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
            None => Overshoot::default(),
        };
        Rules::new(
            overshoot,
            self.faces.unwrap_or(u32::from(Rules::default().faces())),
        )
        .map_err(|e| ApiError::bad_request(e.to_string()))
    }

    fn players(&self) -> Result<usize, ApiError> {
        let players = self.players.unwrap_or(2);
        if !(2..=MOST_PLAYERS_WEIGHED).contains(&players) {
            return Err(ApiError::bad_request(format!(
                "seat chances are for 2 to {MOST_PLAYERS_WEIGHED} players, not {players}"
            )));
        }
        Ok(players)
    }
}

/// The most players whose seat chances are worked out here: the exact
/// chances' work grows with the players' positions taken together, and a
/// request is answered within the long work's time budget.
const MOST_PLAYERS_WEIGHED: usize = 4;

fn analysis_error(e: AnalysisError) -> ApiError {
    ApiError::unprocessable(e.to_string())
}

fn nothing_to_analyse(board: &Board) -> ApiError {
    ApiError::unprocessable(format!(
        "on this board no game ever reaches square {}: there is nothing to analyse",
        board.finish()
    ))
}

fn markov_of(board: &Board, rules: &Rules, budget: &Budget) -> Result<Markov, ApiError> {
    let markov = markov::analyze_within(board, rules, &MarkovOptions::default(), budget)
        .map_err(analysis_error)?;
    if markov.distribution.finish_probability() <= 0.0 {
        return Err(nothing_to_analyse(board));
    }
    Ok(markov)
}

async fn analysis(
    State(state): State<AppState>,
    Path(reference): Path<String>,
    Query(params): Query<Params>,
) -> ApiResult<AnalysisReport> {
    let board = find_board(&state, &reference).await?;
    let rules = params.rules()?;
    let options = AnalysisOptions {
        players: params.players()?,
        exact: params.exact.unwrap_or(false),
        markov: MarkovOptions::default(),
    };
    let answer = state
        .long_work
        .run(board_line(&board), move |budget| {
            let report =
                AnalysisReport::within(&board, &rules, &options, budget).map_err(analysis_error)?;
            if report.finish_probability() <= 0.0 {
                return Err(nothing_to_analyse(&board));
            }
            Ok(report)
        })
        .await??;
    Ok(Json(answer))
}

async fn shortest(
    State(state): State<AppState>,
    Path(reference): Path<String>,
    Query(params): Query<Params>,
) -> ApiResult<ShortestReport> {
    let board = find_board(&state, &reference).await?;
    let rules = params.rules()?;
    let constraint = Constraint {
        chutes: params.chutes,
        ladders: params.ladders,
    };
    let listing = ShortestListing {
        routes: LISTED_ROUTES,
        sequences: 0,
    };
    let states = (u64::from(board.size()) + 1)
        .saturating_mul(constraint.chutes.map_or(1, |k| u64::from(k) + 1))
        .saturating_mul(constraint.ladders.map_or(1, |k| u64::from(k) + 1));
    // Held until the answer is given: the search's tables are its states.
    let _held = state
        .long_work
        .memory
        .reserve(states, "states (squares × chute counts × ladder counts)")?;
    let answer = state
        .long_work
        .run(line_for(&board, states), move |budget| {
            ShortestReport::within(&board, &rules, constraint, listing, budget)
                .map_err(analysis_error)
        })
        .await??;
    Ok(Json(answer))
}

async fn min_throws(
    State(state): State<AppState>,
    Path(reference): Path<String>,
    Query(params): Query<Params>,
) -> ApiResult<MinThrowsReport> {
    let board = find_board(&state, &reference).await?;
    let rules = params.rules()?;
    let answer = state
        .long_work
        .run(board_line(&board), move |_| {
            MinThrowsReport::new(&board, &rules).map_err(analysis_error)
        })
        .await??;
    Ok(Json(answer))
}

fn board_name(board: &Board) -> String {
    match board.name() {
        Some(n) if !n.trim().is_empty() => format!("{} board", n.trim()),
        _ => "unnamed board".to_string(),
    }
}

async fn plot(
    State(state): State<AppState>,
    Path((reference, kind)): Path<(String, String)>,
    Query(params): Query<Params>,
) -> Result<Response, ApiError> {
    let board: Arc<Board> = find_board(&state, &reference).await?;
    let rules = params.rules()?;
    let kind = kind.strip_suffix(".svg").unwrap_or(&kind).to_string();
    let players = match kind.as_str() {
        "seats" => params.players()?,
        "distribution" => 1,
        "heatmap" => {
            // Refused before the analysis: no picture can show the board.
            render::chutes::check_drawable(&board)
                .map_err(|e| ApiError::unprocessable(format!("cannot draw this: {e}")))?;
            1
        }
        other => {
            return Err(ApiError::not_found(format!(
                "no plot '{other}' (plots: distribution, seats, heatmap)"
            )));
        }
    };
    let picture = state
        .long_work
        .run(board_line(&board), move |budget| {
            let m = markov_of(&board, &rules, budget)?;
            let facts = format!(
                "{} ({} squares) · {rules}",
                board_name(&board),
                board.size()
            );
            let d = &m.distribution;
            let picture = match kind.as_str() {
                "distribution" => {
                    render::chutes::length_distribution(&render::chutes::LengthDistribution {
                        probabilities: d.probabilities.clone(),
                        mean: d.mean,
                        median: d.median,
                        title: Some(format!("How long a game lasts: {}", board_name(&board))),
                        subtitle: facts,
                    })
                }
                "seats" => {
                    let odds = markov::seat_win(d, players).map_err(analysis_error)?;
                    render::chutes::seat_wins(&render::chutes::SeatWins {
                        chances: odds.seat_win,
                        title: Some(format!(
                            "Who wins: {players} players, {}",
                            board_name(&board)
                        )),
                        subtitle: facts,
                    })
                }
                "heatmap" => render::chutes::heatmap(
                    &board,
                    &render::chutes::HeatMap {
                        values: m.landings.clone(),
                        caption: "expected landings per game (one player)".into(),
                        title: Some(format!("Where tokens land: {}", board_name(&board))),
                        subtitle: Some(facts),
                        signed: false,
                        nothing_fits: Vec::new(),
                    },
                ),
                other => {
                    return Err(ApiError::not_found(format!("no plot '{other}'")));
                }
            };
            Ok(picture)
        })
        .await??;
    crate::http::svg::svg_response(picture)
}
