//! `POST /api/chutes/design`: a board designed to targets, with the
//! search's progress as it goes.
//!
//! Terms:
//! - **request** ([`DesignRequest`]): the shape, rules and targets of
//!   `parlor chutes design`, as JSON (`docs/api.md`).
//! - **stream**: the answer is `application/x-ndjson`, one JSON object a
//!   line: `{"progress": {"evaluations", "limit", "best_cost"}}` every few
//!   hundred boards, then `{"design": {"id", "report"}}` — the designed
//!   board, kept among the uploaded boards under `id` (so it can be
//!   analysed and played), and the library's `DesignReport` — or
//!   `{"error": {"code", "message"}}`.
//! - **time**: the search runs in the long line of [`crate::work`], holding
//!   one of its slots, with its own limit: it ends as the command line's
//!   does (every target met, or no better board for a while), or after
//!   [`DESIGN_SECONDS`] with the best board so far; a client that hangs up
//!   withdraws it.

use crate::http::error::{ApiError, JsonBody};
use crate::state::AppState;
use crate::tools::chutes_boards::find_board;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chutes::analysis::design::{
    self, CountRange, DEFAULT_EVALUATIONS, DEFAULT_FAIR, DesignOptions, DesignShape, DesignTargets,
    MEAN_TOLERANCE, PercentileTarget, SD_TOLERANCE, default_max_jump,
};
use chutes::analysis::goal::Goal;
use chutes::analysis::quality::{DEFAULT_CROSSINGS, Quality};
use chutes::analysis::report::DesignReport;
use chutes::{Overshoot, Rules};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tabletop::Budget;

/// The most one design searches before it answers with its best board (a
/// search usually ends sooner on its own: every target met, or no better
/// board for 32,000 boards, as on the command line).
pub const DESIGN_SECONDS: u64 = 60;

/// The largest board designed through the server.
pub const MAX_DESIGN_SQUARES: u32 = 1_000;

/// The routes under `/api/chutes`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/design", post(design_board))
}

/// What to design: `parlor chutes design`'s options as JSON.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DesignRequest {
    /// The last square (default 100; with `from`, the board's own).
    #[serde(default)]
    pub size: Option<u32>,
    /// Start from this board (`classic` or an uploaded board's id) and
    /// change as few jumps as possible.
    #[serde(default)]
    pub from: Option<String>,
    /// Chutes: `"8"` or `"6..10"` (default 8; with `from`, up to 4 more or
    /// fewer than the board has).
    #[serde(default)]
    pub chutes: Option<String>,
    /// Ladders: `"8"` or `"6..10"` (default 8; with `from`, likewise).
    #[serde(default)]
    pub ladders: Option<String>,
    /// Jumps of both kinds together: `"16"` or `"12..20"` (default: any).
    #[serde(default)]
    pub jumps: Option<String>,
    /// The shortest jump (default 2).
    #[serde(default)]
    pub min_jump: Option<u32>,
    /// The longest jump (default: half the board).
    #[serde(default)]
    pub max_jump: Option<u32>,
    /// Board rules switched off: `finish`, `first-row`, `touching`,
    /// `crossings` or `all` (default: none, every rule kept).
    #[serde(default)]
    pub allow: Vec<String>,
    /// The most crossing pairs of jumps (default 2).
    #[serde(default)]
    pub crossings: Option<u32>,
    /// May a jump end where another starts?
    #[serde(default)]
    pub chains: bool,
    /// `stay`, `bounce` or `finish`.
    #[serde(default)]
    pub overshoot: Option<String>,
    /// Faces of the die (default 6).
    #[serde(default)]
    pub faces: Option<u32>,
    /// Target mean: a number (within 0.1) or a goal as the command line
    /// reads it (`30±0.5`, `20..30`, `<=30`, `min`, `max`).
    #[serde(default)]
    pub mean: Option<GoalText>,
    /// Target standard deviation, likewise.
    #[serde(default)]
    pub sd: Option<GoalText>,
    /// The designed board's name (default: the seed and the targets).
    #[serde(default)]
    pub name: Option<String>,
    /// Players (default 1; 2 or more ask for fair seats within 0.02
    /// unless `fair` says otherwise).
    #[serde(default)]
    pub players: Option<usize>,
    /// Every seat within this of 1/players, or `"off"`.
    #[serde(default)]
    pub fair: Option<GoalText>,
    /// The fewest rolls a game can take: a number (at least) or a goal.
    #[serde(default)]
    pub shortest: Option<GoalText>,
    /// Percentiles of the game length, as `"90:<=60"` (a plain number: at
    /// most).
    #[serde(default)]
    pub percentiles: Vec<String>,
    /// The search's seed (default 1).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A goal as a number or as the command line's text.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum GoalText {
    /// A plain number.
    Number(f64),
    /// `30±0.5`, `20..30`, `>=20`, `<=30`, `min`, `max` or a number.
    Text(String),
}

impl GoalText {
    /// The goal, a plain number within `tolerance` (or at least it, when
    /// `at_least`).
    fn goal(&self, name: &str, tolerance: f64, at_least: bool) -> Result<Goal, ApiError> {
        let goal = match self {
            Self::Number(v) => Goal::near(*v, tolerance),
            Self::Text(t) => Goal::parse_with(t, tolerance)
                .map_err(|e| ApiError::bad_request(format!("{name}: {e}")))?,
        };
        Ok(match goal {
            Goal::Near { value, .. } if at_least && matches!(self, Self::Number(_)) => {
                Goal::AtLeast { value }
            }
            Goal::Near {
                value,
                tolerance: 0.0,
            } if at_least => Goal::AtLeast { value },
            g => g,
        })
    }
}

/// The name a designed board gets: the one asked, or the seed and the
/// targets in words ("design-1, mean 40, 4 players").
fn design_name(
    r: &DesignRequest,
    from: Option<&str>,
    targets: &DesignTargets,
    seed: u64,
) -> String {
    if let Some(name) = r.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        return name.chars().take(80).collect();
    }
    let mut words = vec![format!("design-{seed}")];
    if let Some(from) = from {
        words.push(format!(
            "from {}",
            from.chars().take(40).collect::<String>()
        ));
    }
    if let Some(m) = targets.mean {
        words.push(format!("mean {m}"));
    }
    if let Some(sd) = targets.sd {
        words.push(format!("sd {sd}"));
    }
    if targets.players > 1 {
        words.push(format!("{} players", targets.players));
    }
    words.join(", ")
}

/// One line of the answer.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Said {
    Progress {
        evaluations: u64,
        limit: u64,
        best_cost: f64,
    },
    Design {
        id: String,
        report: Box<DesignReport>,
    },
    Error {
        code: &'static str,
        message: String,
    },
}

fn line(value: &Said) -> Bytes {
    let mut text = serde_json::to_vec(value).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}

/// The fairness margin asked: a number, `off`, or (absent) the default
/// for 2 or more players.
fn fair_margin(fair: Option<&GoalText>, players: usize) -> Result<Option<f64>, ApiError> {
    match fair {
        None => Ok((players >= 2).then_some(DEFAULT_FAIR)),
        Some(GoalText::Number(v)) => Ok(Some(*v)),
        Some(GoalText::Text(t)) => match t.trim() {
            "off" | "none" => Ok(None),
            "" => Ok((players >= 2).then_some(DEFAULT_FAIR)),
            d => d.parse::<f64>().map(Some).map_err(|_| {
                ApiError::bad_request(format!(
                    "fair: '{d}' is not a margin: give a number such as 0.02, or off"
                ))
            }),
        },
    }
}

/// The request as the library's shape, rules, targets and options.
fn read(
    from: Option<&Arc<chutes::Board>>,
    r: &DesignRequest,
) -> Result<(DesignShape, Rules, DesignTargets, DesignOptions), ApiError> {
    let size = match (&from, r.size) {
        (Some(b), Some(s)) if b.size() != s => {
            return Err(ApiError::bad_request(format!(
                "size {s} differs from the starting board's {} squares",
                b.size()
            )));
        }
        (Some(b), _) => b.size(),
        (None, s) => s.unwrap_or(100),
    };
    if size > MAX_DESIGN_SQUARES {
        return Err(ApiError::bad_request(format!(
            "boards designed through the server have at most {MAX_DESIGN_SQUARES} squares, not {size} (the command line designs larger ones)"
        )));
    }
    if from.as_ref().is_some_and(|b| b.start() != 0) {
        return Err(ApiError::bad_request(
            "from: the designer starts tokens off the board, on 0; this board starts them on 1",
        ));
    }
    let count = |text: &Option<String>, default: CountRange| -> Result<CountRange, ApiError> {
        match text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            Some(t) => t
                .parse::<CountRange>()
                .map_err(|e| ApiError::bad_request(e.to_string())),
            None => Ok(default),
        }
    };
    let (chutes, ladders) = match &from {
        Some(b) => (
            CountRange::around(b.chutes().count()),
            CountRange::around(b.ladders().count()),
        ),
        None => (CountRange::exactly(8), CountRange::exactly(8)),
    };
    let overshoot = match r.overshoot.as_deref() {
        Some(name) => name
            .parse::<Overshoot>()
            .map_err(|e| ApiError::bad_request(e.to_string()))?,
        None => Overshoot::default(),
    };
    let rules = Rules::new(overshoot, r.faces.unwrap_or(6))
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let jumps = match r.jumps.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => Some(
            t.parse::<CountRange>()
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
        ),
        None => None,
    };
    let quality = Quality::allowing(&r.allow, r.crossings.unwrap_or(DEFAULT_CROSSINGS))
        .map_err(|e| ApiError::bad_request(format!("allow: {e}")))?;
    let percentiles = r
        .percentiles
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<PercentileTarget>()
                .map_err(|e| ApiError::bad_request(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let shape = DesignShape {
        size,
        chutes: count(&r.chutes, chutes)?,
        ladders: count(&r.ladders, ladders)?,
        min_jump: r.min_jump.unwrap_or(2),
        max_jump: r.max_jump.unwrap_or(default_max_jump(size)),
        chains: r.chains,
        jumps,
        quality,
        from: from.map(|b| b.jumps().to_vec()),
    };
    let players = r.players.unwrap_or(1);
    let targets = DesignTargets {
        mean: r
            .mean
            .as_ref()
            .map(|g| g.goal("mean", MEAN_TOLERANCE, false))
            .transpose()?,
        sd: r
            .sd
            .as_ref()
            .map(|g| g.goal("sd", SD_TOLERANCE, false))
            .transpose()?,
        players,
        fair: fair_margin(r.fair.as_ref(), players)?,
        shortest: r
            .shortest
            .as_ref()
            .map(|g| g.goal("shortest", 0.0, true))
            .transpose()?,
        percentiles,
    };
    let options = DesignOptions {
        seed: r.seed.unwrap_or(1),
        evaluations: DEFAULT_EVALUATIONS,
    };
    Ok((shape, rules, targets, options))
}

async fn design_board(
    State(state): State<AppState>,
    maker: crate::http::client::Maker,
    JsonBody(request): JsonBody<DesignRequest>,
) -> Result<Response, ApiError> {
    let reference = request
        .from
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty());
    let board = match reference {
        Some(f) => Some(find_board(&state, f).await?),
        None => None,
    };
    let (shape, rules, targets, options) = read(board.as_ref(), &request)?;
    // A starting board is named by its own name (an uploaded board's id
    // says nothing to a person).
    let from = reference.map(|f| {
        board
            .as_ref()
            .and_then(|b| b.name().map(|n| n.trim().to_string()))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| f.to_string())
    });
    let name = design_name(&request, from.as_deref(), &targets, options.seed);
    // Refuse a shape or targets that cannot be designed for before any
    // work, with the library's words.
    design::check(&shape, &rules, &targets).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    let progress = tx.clone();
    let shape = Arc::new(shape);
    let work_shape = Arc::clone(&shape);
    tokio::spawn(async move {
        let answer = state
            .long_work
            .run_long_for(Duration::from_secs(DESIGN_SECONDS + 2), move |outer| {
                let (budget, stop) = Budget::with_limit(Duration::from_secs(DESIGN_SECONDS));
                design::design(&work_shape, &rules, &targets, options, &budget, &mut |p| {
                    let sent = progress.send(line(&Said::Progress {
                        evaluations: p.evaluations,
                        limit: p.limit,
                        best_cost: p.best_cost,
                    }));
                    // Nobody is reading any more, or the line withdrew the
                    // work: stop with the best board so far.
                    if sent.is_err() || outer.check().is_err() {
                        stop.cancel();
                    }
                })
                .and_then(|mut d| {
                    d.board = d.board.with_name(name.clone());
                    let report =
                        DesignReport::new(&d, &work_shape, &rules, options.seed, targets.players)?;
                    Ok((d.board, report))
                })
                .map_err(|e| ApiError::unprocessable(e.to_string()))
            })
            .await
            .and_then(|answer| answer);
        let last = match answer {
            Ok((board, report)) => match state.boards.insert_by(&board, &maker).await {
                Ok(id) => Said::Design {
                    id,
                    report: Box::new(report),
                },
                Err(e) => Said::Error {
                    code: e.code.as_str(),
                    message: e.message,
                },
            },
            Err(e) => Said::Error {
                code: e.code.as_str(),
                message: e.message,
            },
        };
        let _ = tx.send(line(&last));
    });
    let stream = futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx)
            .map(|b| b.map(Ok::<Bytes, std::convert::Infallible>))
    });
    let mut response = (StatusCode::OK, Body::from_stream(stream)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
