//! The Chutes & Ladders analysis API: exact figures and pictures of a board.
//!
//! Terms:
//! - **rules query**: `overshoot` and `faces` as URL query parameters, the
//!   same as a game's (defaults: `stay`, 6).
//! - **analysis**: the `chutes` library's exact Markov chain for one player
//!   (length distribution, expected landings, jump figures) and each seat's
//!   chance to win among `players`.
//! - **shortest games**: the library's breadth-first search, optionally for
//!   games taking exactly `chutes` chutes (and/or `ladders` ladders).
//! - **plot**: a picture from `render` — `distribution`, `seats`, `heatmap`.
//!
//! All work is the libraries'; it runs off the async threads.

use crate::AppState;
use crate::chutes_api::find_board;
use crate::error::{ApiError, ApiResult};
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use chutes::analysis::markov::{self, Markov, MarkovOptions, SeatOdds};
use chutes::analysis::shortest::{Constraint, ShortestGames};
use chutes::analysis::{AnalysisError, JumpStats};
use chutes::{Board, Overshoot, Rules};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most routes listed by the shortest-games answer.
pub const LISTED_ROUTES: usize = 20;

/// The routes under `/api/chutes/boards/{board}`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/boards/{board}/analysis", get(analysis))
        .route("/boards/{board}/shortest", get(shortest))
        .route("/boards/{board}/plots/{kind}", get(plot))
}

/// `?overshoot=stay&faces=6&players=2&chutes=2&ladders=1`.
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
        Rules::new(overshoot, self.faces.unwrap_or(6))
            .map_err(|e| ApiError::bad_request(e.to_string()))
    }

    fn players(&self) -> Result<usize, ApiError> {
        let players = self.players.unwrap_or(2);
        if !(2..=crate::chutes_api::MAX_PLAYERS).contains(&players) {
            return Err(ApiError::bad_request(format!(
                "seat chances are for 2 to {} players, not {players}",
                crate::chutes_api::MAX_PLAYERS
            )));
        }
        Ok(players)
    }
}

fn analysis_error(e: AnalysisError) -> ApiError {
    ApiError::unprocessable(e.to_string())
}

fn markov_of(board: &Board, rules: &Rules) -> Result<Markov, ApiError> {
    let markov =
        markov::analyze(board, rules, &MarkovOptions::default()).map_err(analysis_error)?;
    if markov.distribution.finish_probability() <= 0.0 {
        return Err(ApiError::unprocessable(format!(
            "on this board no game ever reaches square {}: there is nothing to analyse",
            board.finish()
        )));
    }
    Ok(markov)
}

/// The exact figures of a board for one player, and the seats' chances.
#[derive(Serialize)]
struct Analysis {
    board_id: String,
    rules: Rules,
    /// Mean game length in rolls (`null` when some games never end).
    mean: Option<f64>,
    sd: Option<f64>,
    median: Option<u32>,
    mode: Option<u32>,
    shortest: Option<u32>,
    percentiles: chutes::analysis::markov::Percentiles,
    /// P(a game never ends).
    never: f64,
    /// P(no chute or ladder at all).
    no_jump: f64,
    /// P(length = n), n from 0, to a tail under 1e-12.
    probabilities: Vec<f64>,
    jumps: Vec<JumpStats>,
    seats: SeatOdds,
}

async fn analysis(
    State(state): State<AppState>,
    Path(reference): Path<String>,
    Query(params): Query<Params>,
) -> ApiResult<Analysis> {
    let board = find_board(&state, &reference)?;
    let rules = params.rules()?;
    let players = params.players()?;
    let answer = state
        .long_work
        .run(move || {
            let m = markov_of(&board, &rules)?;
            let seats = markov::seat_win(&m.distribution, players).map_err(analysis_error)?;
            let d = m.distribution;
            Ok(Analysis {
                board_id: reference,
                rules,
                mean: d.mean,
                sd: d.sd,
                median: d.median,
                mode: d.mode,
                shortest: d.shortest,
                percentiles: d.percentiles,
                never: d.never,
                no_jump: m.no_jump,
                probabilities: d.probabilities,
                jumps: m.jumps,
                seats,
            })
        })
        .await??;
    Ok(Json(answer))
}

/// A shortest route, for people.
#[derive(Serialize)]
struct RouteView {
    jumps: Vec<chutes::Jump>,
    /// How many shortest dice sequences take it (decimal).
    sequences: String,
    example: Vec<u8>,
}

#[derive(Serialize)]
struct Shortest {
    board_id: String,
    rules: Rules,
    constraint: Constraint,
    /// The fewest rolls (`null`: no game meets the constraint).
    rolls: Option<u32>,
    /// Shortest dice sequences (decimal).
    sequences: String,
    /// Distinct routes (decimal), or `null` with `routes_error`.
    routes: Option<String>,
    routes_error: Option<String>,
    /// The first shortest sequence.
    example: Vec<u8>,
    /// Up to 20 routes.
    route_list: Vec<RouteView>,
}

async fn shortest(
    State(state): State<AppState>,
    Path(reference): Path<String>,
    Query(params): Query<Params>,
) -> ApiResult<Shortest> {
    let board = find_board(&state, &reference)?;
    let rules = params.rules()?;
    let constraint = Constraint {
        chutes: params.chutes,
        ladders: params.ladders,
    };
    let answer = state
        .long_work
        .run(move || {
            let games = ShortestGames::new(&board, &rules, constraint).map_err(analysis_error)?;
            let routes = games.route_count();
            let route_list = if routes.is_ok() {
                games
                    .routes(LISTED_ROUTES)
                    .into_iter()
                    .map(|r| RouteView {
                        jumps: r.jumps,
                        sequences: r.sequences.to_string(),
                        example: r.example,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Ok(Shortest {
                board_id: reference,
                rules,
                constraint,
                rolls: games.rolls(),
                sequences: games.sequences().to_string(),
                routes_error: routes.as_ref().err().map(ToString::to_string),
                routes: routes.ok().map(|r| r.to_string()),
                example: games.example(),
                route_list,
            })
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
    let board: Arc<Board> = find_board(&state, &reference)?;
    let rules = params.rules()?;
    let kind = kind.strip_suffix(".svg").unwrap_or(&kind).to_string();
    let players = if kind == "seats" {
        params.players()?
    } else {
        1
    };
    let picture = state
        .long_work
        .run(move || {
            let m = markov_of(&board, &rules)?;
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
                    },
                ),
                other => {
                    return Err(ApiError::not_found(format!(
                        "no plot '{other}' (plots: distribution, seats, heatmap)"
                    )));
                }
            };
            Ok(picture)
        })
        .await??;
    crate::svg_response(picture)
}
