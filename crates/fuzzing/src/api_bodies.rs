//! Every API request body, through the router: whatever the body, the
//! answer is never a 5xx (but for long work stopped at its time limit,
//! 503 `too_long`), and an error is JSON with a code and a message.
//!
//! Each input picks a route that takes a body; the thing the route needs
//! (a match of the right game and seats, a design) is made first, and the
//! body is sent with that match's seat token where the route wants one.
//! `{invite}` in a body stands for the open seat's invite, so that a join
//! can succeed.
use arbitrary::Arbitrary;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use std::sync::{Mutex, OnceLock};
use tower::ServiceExt;

#[derive(Arbitrary, Debug)]
struct Input {
    route: u8,
    body: String,
}

/// The routes that take a body, with `{id}` for the match or design made
/// first, of the kind named.
const ROUTES: &[(&str, &str)] = &[
    ("none", "/api/matches"),
    ("chutes", "/api/matches/{id}/moves"),
    ("chosen", "/api/matches/{id}/moves"),
    ("baffle", "/api/matches/{id}/moves"),
    ("tycoon", "/api/matches/{id}/moves"),
    ("open", "/api/matches/{id}/join"),
    ("open+token", "/api/matches/{id}/join"),
    ("small-baffle", "/api/baffle/matches/{id}/hint"),
    ("small-baffle", "/api/baffle/matches/{id}/bot"),
    ("none", "/api/baffle/solve"),
    ("none", "/api/chutes/boards"),
    ("none", "/api/tycoon/designs"),
    ("design", "/api/tycoon/designs/{id}/edits"),
    ("design", "/api/tycoon/designs/{id}/save"),
];

/// How many inputs one app (one store) takes before a fresh one: the store
/// keeps every match made, and refuses new ones past 100,000 unfinished.
const INPUTS_PER_STORE: u32 = 20_000;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

/// The app, on a store in a temporary directory of this process; a fresh
/// one every [`INPUTS_PER_STORE`] inputs.
async fn app() -> Router {
    static APP: Mutex<Option<(Router, u32, u32)>> = Mutex::new(None);
    // The lock is never held across an await: inputs run one at a time
    // (libFuzzer, or the corpus replay's one test), so nobody makes a
    // second app meanwhile.
    let generation = {
        let mut guard = APP.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some((router, used, _)) if *used < INPUTS_PER_STORE => {
                *used += 1;
                return router.clone();
            }
            _ => {}
        }
        guard.as_ref().map_or(0, |(_, _, g)| g + 1)
    };
    let base = std::env::temp_dir().join(format!("parlor-fuzz-api-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(base.join((generation.wrapping_sub(1)).to_string()));
    let dir = base.join(generation.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    // Long work stops after 200 ms, and the answer at the limit (a 503
    // `too_long`) is checked like any other. The solver and the hint still
    // run on every input that reaches them, up to the limit; with 2 s
    // those inputs (which the run keeps, for their coverage) slowed the
    // whole run to a few hundred inputs a second.
    let config = server::Config {
        long_work_limit: std::time::Duration::from_millis(200),
        ..server::Config::new(dir)
    };
    let router = server::router(config).await.expect("the app starts");
    *APP.lock().unwrap_or_else(|e| e.into_inner()) = Some((router.clone(), 1, generation));
    router
}

async fn post(
    app: &Router,
    uri: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, serde_json::Value) {
    let mut request = Request::builder()
        .method("POST")
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let request = request
        .body(Body::from(body.to_string()))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, value)
}

/// What a route needs made first: the path to post to, the body, and
/// whether it makes a match (`201`) or a design (`200`).
fn maker(kind: &str) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        "chutes" => (
            "/api/matches",
            r#"{"game": "chutes", "seats": ["here", "here"], "seed": 7}"#,
        ),
        "chosen" => (
            "/api/matches",
            r#"{"game": "chutes", "seats": ["here", "here"], "dice": "chosen"}"#,
        ),
        "baffle" => (
            "/api/matches",
            r#"{"game": "baffle", "setup": {"fixed": true}}"#,
        ),
        "small-baffle" => (
            "/api/matches",
            r#"{"game": "baffle", "setup": {"size": 5, "mirrors": 2}, "seed": 3}"#,
        ),
        "tycoon" => (
            "/api/matches",
            r#"{"game": "tycoon", "seats": ["here", "here", "here", "here"], "seed": 5}"#,
        ),
        "open" | "open+token" => (
            "/api/matches",
            r#"{"game": "chutes", "seats": ["here", "open", "open"]}"#,
        ),
        "design" => ("/api/tycoon/designs", "{}"),
        _ => return None,
    })
}

/// Checks one input (the fuzzer's bytes, read as an [`Input`] the way
/// libFuzzer's `fuzz_target!` reads them): panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Ok(input) = <Input as arbitrary::Arbitrary<'_>>::arbitrary_take_rest(
        arbitrary::Unstructured::new(data),
    ) else {
        return;
    };
    run(input);
}

fn run(input: Input) {
    let (kind, route) = ROUTES[usize::from(input.route) % ROUTES.len()];
    runtime().block_on(async {
        let app = app().await;
        let mut uri = route.to_string();
        let mut body = input.body.clone();
        let mut token = None;
        if let Some((make, with)) = maker(kind) {
            let (status, made) = post(&app, make, None, with).await;
            assert!(status.is_success(), "{make} {with}: {status} {made}");
            let id = made["id"].as_str().expect("an id");
            uri = uri.replace("{id}", id);
            if kind != "open" {
                token = made["token"].as_str().map(str::to_string);
            }
            if let Some(invite) = made["invites"][0]["invite"].as_str() {
                body = body.replace("{invite}", invite);
            }
        }
        let (status, answer) = post(&app, &uri, token.as_deref(), &body).await;
        // Long work stopped at its time limit is the one 5xx the server
        // means to send (documented, "try something smaller").
        let stopped =
            status == StatusCode::SERVICE_UNAVAILABLE && answer["error"]["code"] == "too_long";
        assert!(
            !status.is_server_error() || stopped,
            "{uri} {:?}: {status} {answer}",
            input.body
        );
        if status.is_client_error() || stopped {
            let code = answer["error"]["code"].as_str();
            let message = answer["error"]["message"].as_str();
            assert!(code.is_some_and(|c| !c.is_empty()), "{uri}: {answer}");
            assert!(message.is_some_and(|m| !m.is_empty()), "{uri}: {answer}");
        }
    });
}
