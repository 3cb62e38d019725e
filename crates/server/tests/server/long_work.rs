//! Long work through the router: stopped when its client goes
//! away, bounded by the time limit, a heat map refused before its analysis,
//! and cheap analyses answered while the long line is full.
//!
//! Outcomes are read from the long work's tally (started, finished, timed
//! out, withdrawn), never from how long something took. The work stopped
//! here runs for minutes unstopped (hours in a debug build), so a time limit
//! of 200 ms always runs out and a withdrawn question is always still being
//! worked on; the only bounds on time are generous ones (60 s) that keep a
//! broken build from hanging the suite.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use server::work::Tally;
use server::{AppState, Config};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The analysis of issue 15's board would not end: 10,000 squares (the
/// most the server takes; the had 1,000,000, which the server now
/// refuses at upload) whose last square but one chutes back to 1.
const ENDLESS_CHUTE: &str = "size = 10000\nchutes = [[9999, 1]]\n";

/// The same board laid out on one row of 10,000 columns: no picture can
/// show it.
const ONE_ROW: &str = "size = 10000\nrows = 1\ncolumns = 10000\nchutes = [[9999, 1]]\n";

/// A generous bound for what takes milliseconds, so a broken build fails
/// instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

async fn app(configure: impl FnOnce(&mut Config)) -> (Router, AppState, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary data dir");
    let mut config = Config::new(dir.path());
    configure(&mut config);
    let state = AppState::open(config).await.expect("the store opens");
    (server::router_for(state.clone()), state, dir)
}

fn request(method: &str, uri: &str, body: Option<Value>) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request")
}

/// Sends a request; the status and the JSON body (or `null`). An answer
/// that does not come within [`PATIENCE`] fails the test.
async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let response = tokio::time::timeout(PATIENCE, app.clone().oneshot(request(method, uri, body)))
        .await
        .unwrap_or_else(|_| panic!("no answer to {method} {uri} within {PATIENCE:?}"))
        .expect("an answer");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Uploads a board; its id.
async fn upload(app: &Router, text: &str) -> String {
    let (status, body) = call(
        app,
        "POST",
        "/api/chutes/boards",
        Some(json!({ "text": text, "format": "toml" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["id"].as_str().expect("an id").to_string()
}

/// Waits until the tally says `done`, at most [`PATIENCE`].
async fn until(state: &AppState, what: &str, done: impl Fn(&Tally) -> bool) -> Tally {
    let start = Instant::now();
    loop {
        let tally = state.long_work.tally();
        if done(&tally) {
            return tally;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "still waiting for {what}: {tally:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The error's message (`{"error": {"code", "message"}}`).
fn error_of(answer: &(StatusCode, Value)) -> &str {
    answer.1["error"]["message"].as_str().unwrap_or_default()
}

/// The error's code.
fn code_of(answer: &(StatusCode, Value)) -> &str {
    answer.1["error"]["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn an_analysis_abandoned_by_its_client_stops_burning_cpu() {
    // No time limit to speak of: only the client's going away can stop it.
    let (app, state, _dir) = app(|c| c.long_work_limit = Duration::from_secs(24 * 3600)).await;
    let board = upload(&app, ENDLESS_CHUTE).await;
    let client = {
        let app = app.clone();
        let uri = format!("/api/chutes/boards/{board}/analysis");
        tokio::spawn(async move { call(&app, "GET", &uri, None).await })
    };
    until(&state, "the analysis to start", |t| t.running == 1).await;
    // The client hangs up: its request's future is dropped.
    client.abort();
    let tally = until(&state, "the analysis to stop", |t| {
        t.withdrawn == 1 && t.running == 0
    })
    .await;
    assert_eq!((tally.finished, tally.timed_out), (0, 0), "{tally:?}");
    // Its slot is free: the next question is answered.
    let (status, _) = call(&app, "GET", "/api/chutes/boards/classic/analysis", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_analysis_past_the_time_limit_is_a_503_that_says_so() {
    let (app, state, _dir) = app(|c| c.long_work_limit = Duration::from_millis(200)).await;
    let board = upload(&app, ENDLESS_CHUTE).await;
    let answer = call(
        &app,
        "GET",
        &format!("/api/chutes/boards/{board}/analysis"),
        None,
    )
    .await;
    assert_eq!(answer.0, StatusCode::SERVICE_UNAVAILABLE, "{}", answer.1);
    assert_eq!(code_of(&answer), "too_long");
    assert!(
        error_of(&answer).starts_with("stopped: the answer took longer than 200 ms"),
        "{}",
        answer.1
    );
    let tally = state.long_work.tally();
    assert_eq!((tally.timed_out, tally.finished), (1, 0), "{tally:?}");
    // Its distribution picture too.
    let answer = call(
        &app,
        "GET",
        &format!("/api/chutes/boards/{board}/plots/distribution"),
        None,
    )
    .await;
    assert_eq!(answer.0, StatusCode::SERVICE_UNAVAILABLE, "{}", answer.1);
    assert!(error_of(&answer).starts_with("stopped:"), "{}", answer.1);
}

#[tokio::test]
async fn shortest_games_with_65536_chutes_are_bounded() {
    // 49 s and 572 MB before; then stopped at the time limit (the memory
    // budget, which now refuses it before any work, is lifted here:
    // fairness.rs tests it).
    let (app, state, _dir) = app(|c| {
        c.long_work_limit = Duration::from_millis(200);
        c.long_work_states = u64::MAX / 64;
    })
    .await;
    let answer = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/shortest?chutes=65536&ladders=2",
        None,
    )
    .await;
    assert_eq!(answer.0, StatusCode::SERVICE_UNAVAILABLE, "{}", answer.1);
    assert!(
        error_of(&answer).starts_with("stopped: the answer took longer than 200 ms"),
        "{}",
        answer.1
    );
    let tally = state.long_work.tally();
    assert_eq!(
        (tally.started, tally.timed_out, tally.moved),
        (1, 1, 0),
        "19.9 million states wait in the long line: {tally:?}"
    );
    // A small constraint is still answered.
    let (status, body) = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/shortest?chutes=2",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A board's picture is long work: drawn off the request threads in its
/// line, its memory counted, so that pictures of big boards cannot take
/// the server's memory or threads.
#[tokio::test]
async fn a_big_boards_picture_is_long_work_with_its_memory_counted() {
    let (router, state, _dir) = app(|_| {}).await;
    let board = upload(&router, ENDLESS_CHUTE).await;
    let uri = format!("/api/chutes/boards/{board}/svg");
    let response = router
        .clone()
        .oneshot(request("GET", &uri, None))
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let tally = state.long_work.tally();
    assert_eq!((tally.started, tally.finished), (1, 1), "{tally:?}");
    assert_eq!(state.long_work.memory.held(), 0, "given back once drawn");
    // Where one picture does not fit in what one question may hold, it is
    // refused before any drawing.
    let squares = 10_001u64;
    let (small, state, _dir) = app(|c| c.long_work_states = squares).await;
    let board = upload(&small, ENDLESS_CHUTE).await;
    let answer = call(
        &small,
        "GET",
        &format!("/api/chutes/boards/{board}/svg"),
        None,
    )
    .await;
    assert_eq!(answer.0, StatusCode::UNPROCESSABLE_ENTITY, "{}", answer.1);
    assert!(error_of(&answer).contains("picture"), "{}", answer.1);
    assert_eq!(state.long_work.tally().started, 0);
    // A small board is drawn as before.
    let classic = call(&small, "GET", "/api/chutes/boards/classic", None).await;
    assert_eq!(classic.0, StatusCode::OK);
}

#[tokio::test]
async fn a_heat_map_no_picture_can_show_is_refused_before_any_analysis() {
    let (app, state, _dir) = app(|c| c.long_work_limit = Duration::from_millis(200)).await;
    let board = upload(&app, ONE_ROW).await;
    let answer = call(
        &app,
        "GET",
        &format!("/api/chutes/boards/{board}/plots/heatmap"),
        None,
    )
    .await;
    assert_eq!(answer.0, StatusCode::UNPROCESSABLE_ENTITY, "{}", answer.1);
    assert_eq!(code_of(&answer), "invalid");
    assert!(
        error_of(&answer).contains("cannot draw this"),
        "{}",
        answer.1
    );
    assert_eq!(state.long_work.tally().started, 0, "no analysis ran");
    // An unknown plot is refused before any analysis too.
    let answer = call(
        &app,
        "GET",
        &format!("/api/chutes/boards/{board}/plots/pie"),
        None,
    )
    .await;
    assert_eq!(answer.0, StatusCode::NOT_FOUND, "{}", answer.1);
    assert_eq!(state.long_work.tally().started, 0);
}

/// Issue 15's Baffle hint: a 6 × 6 box with 18 mirrors after eight shots.
fn hard_box() -> Value {
    let mut game =
        baffle::Game::new(baffle::Setup::seeded(6, 18, baffle::Sides::All, 2)).expect("a game");
    for hole in 0..8 {
        game.apply(baffle::Move::Shoot { hole }).expect("a shot");
    }
    serde_json::to_value(game.view().evidence()).expect("evidence as JSON")
}

#[tokio::test]
async fn the_solver_checks_its_time_limit() {
    // With no time at all, the solver's first check stops it, part way
    // through its search (unstopped, it answers a 422 after about ½ s of
    // release-build work).
    let (app, state, _dir) = app(|c| c.long_work_limit = Duration::ZERO).await;
    let answer = call(&app, "POST", "/api/baffle/solve", Some(hard_box())).await;
    assert_eq!(answer.0, StatusCode::SERVICE_UNAVAILABLE, "{}", answer.1);
    assert!(
        error_of(&answer).starts_with("stopped: the answer took longer than 0 ms"),
        "{}",
        answer.1
    );
    assert_eq!(state.long_work.tally().timed_out, 1);
}

/// A server whose long line is full: one endless analysis holds its one
/// slot and as many more as may wait are waiting.
struct LongLineFull {
    app: Router,
    state: AppState,
    clients: Vec<tokio::task::JoinHandle<(StatusCode, Value)>>,
    _dir: tempfile::TempDir,
}

impl LongLineFull {
    async fn make() -> Self {
        let (app, state, dir) = app(|c| {
            c.max_long_work = 1;
            c.long_work_limit = Duration::from_secs(24 * 3600);
        })
        .await;
        let board = upload(&app, ENDLESS_CHUTE).await;
        let waiting = server::work::WAITING_PER_SLOT as u64;
        let mut clients = Vec::new();
        for _ in 0..=waiting {
            let app = app.clone();
            let uri = format!("/api/chutes/boards/{board}/analysis");
            clients.push(tokio::spawn(
                async move { call(&app, "GET", &uri, None).await },
            ));
        }
        until(&state, "the long line to fill", |t| {
            t.running == 1 && t.waiting == waiting
        })
        .await;
        Self {
            app,
            state,
            clients,
            _dir: dir,
        }
    }

    /// Hangs up every client, which withdraws the endless analysis.
    async fn empty(self) {
        for client in &self.clients {
            client.abort();
        }
        until(&self.state, "the endless analysis to stop", |t| {
            t.withdrawn == 1 && t.running == 0
        })
        .await;
    }
}

/// A Baffle match's hint from the API: (its status, its answer).
async fn match_hint(app: &Router, size: usize) -> (StatusCode, Value) {
    let setup = serde_json::json!({"game": "baffle", "setup": {"size": size, "mirrors": 4}});
    let (status, made) = call(app, "POST", "/api/matches", Some(setup)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().expect("an id");
    let empty = serde_json::json!({});
    call(
        app,
        "POST",
        &format!("/api/baffle/matches/{id}/hint"),
        Some(empty),
    )
    .await
}

/// A small box's hint takes milliseconds: it waits in the quick line, so
/// a long line full of others' work never holds it back; a big box's
/// waits in the long line, and is refused while it is full.
#[tokio::test]
async fn a_small_boxs_hint_does_not_wait_behind_the_long_line() {
    let full = LongLineFull::make().await;
    let app = &full.app;
    let small = match_hint(app, 8).await;
    assert_eq!(small.0, StatusCode::OK, "{}", small.1);
    assert!(small.1["advice_short"].is_string(), "{}", small.1);
    let big = match_hint(app, 26).await;
    assert_eq!(big.0, StatusCode::SERVICE_UNAVAILABLE, "{}", big.1);
    assert_eq!(code_of(&big), "busy");
    full.empty().await;
}

#[tokio::test]
async fn cheap_analyses_are_answered_while_the_long_line_is_full() {
    let full = LongLineFull::make().await;
    let (app, state) = (&full.app, &full.state);
    // One endless analysis holds the long line's slot, and eight more
    // wait: the line is full.
    // A hint's solve is refused at once.
    let answer = call(app, "POST", "/api/baffle/solve", Some(hard_box())).await;
    assert_eq!(answer.0, StatusCode::SERVICE_UNAVAILABLE, "{}", answer.1);
    assert_eq!(code_of(&answer), "busy");
    assert!(error_of(&answer).contains("try again"), "{}", answer.1);
    // The classic board's analysis waits in the quick line: answered.
    for _ in 0..5 {
        let (status, body) = call(app, "GET", "/api/chutes/boards/classic/analysis", None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, _) = call(app, "GET", "/api/chutes/boards/classic/min-throws", None).await;
        assert_eq!(status, StatusCode::OK);
    }
    let tally = state.long_work.tally();
    assert_eq!(tally.finished, 10, "{tally:?}");
    full.empty().await;
}
