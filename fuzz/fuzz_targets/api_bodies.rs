//! Every API request body, through the router: whatever the body, the
//! answer is never a 5xx, and an error is JSON with a message.
#![no_main]

use arbitrary::Arbitrary;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tower::ServiceExt;

#[derive(Arbitrary, Debug)]
struct Input {
    route: u8,
    body: String,
}

/// The routes that take a body, with `{id}` for the session made first.
const ROUTES: &[(&str, &str)] = &[
    ("baffle", "/api/baffle/games"),
    ("baffle", "/api/baffle/games/{id}/shots"),
    ("baffle", "/api/baffle/games/{id}/guesses"),
    ("baffle", "/api/baffle/games/{id}/quit"),
    ("chutes", "/api/chutes/boards"),
    ("chutes", "/api/chutes/games"),
    ("chutes", "/api/chutes/games/{id}/turns"),
    ("chutes", "/api/chutes/games/{id}/finish"),
    ("design", "/api/tycoon/designs"),
    ("design", "/api/tycoon/designs/{id}/edits"),
    ("tycoon", "/api/tycoon/games"),
    ("tycoon", "/api/tycoon/games/{id}/moves"),
    ("tycoon", "/api/tycoon/games/{id}/bots"),
];

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

async fn post(app: &Router, uri: &str, body: &str) -> (StatusCode, serde_json::Value) {
    let request = Request::builder()
        .method("POST")
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
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

fuzz_target!(|input: Input| {
    let (kind, route) = ROUTES[usize::from(input.route) % ROUTES.len()];
    runtime().block_on(async {
        let dir = std::env::temp_dir().join("parlor-fuzz-api");
        let app = server::router(server::Config::new(dir));
        let (make, body) = match kind {
            "baffle" => ("/api/baffle/games", r#"{"fixed": true}"#),
            "chutes" => ("/api/chutes/games", r#"{"players": 2, "seed": 7}"#),
            "design" => ("/api/tycoon/designs", "{}"),
            _ => ("/api/tycoon/games", "{}"),
        };
        let (status, made) = post(&app, make, body).await;
        assert_eq!(status, StatusCode::OK, "{made}");
        let id = made["id"].as_str().expect("an id").to_string();
        let uri = route.replace("{id}", &id);
        let (status, answer) = post(&app, &uri, &input.body).await;
        assert!(
            !status.is_server_error(),
            "{uri} {:?}: {status} {answer}",
            input.body
        );
        if status.is_client_error() {
            let message = answer["error"].as_str();
            assert!(message.is_some_and(|m| !m.is_empty()), "{uri}: {answer}");
        }
    });
});
