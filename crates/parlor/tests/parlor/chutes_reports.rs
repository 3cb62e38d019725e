//! One question, one document: `parlor chutes shortest|analyze|min-throws
//! --json` (the real binary) prints exactly the JSON the web API answers
//! for the same board and options (the router, called in-process).
//!
//! Terms: **same question** — a CLI command line and an API query that ask
//! for the same board, rules and options (the API lists the first 20
//! routes of the shortest games, so the CLI side asks `--list --limit 0`).

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::*;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// The API's answer to `GET uri`, after uploading the board `upload` (then
/// named `{id}` in `uri`) when there is one.
fn api(uri: &str, upload: Option<Value>) -> (StatusCode, Value) {
    let dir = tempfile::tempdir().expect("a temporary data dir");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let app = ::server::router(::server::Config::new(dir.path()))
            .await
            .expect("the app starts");
        // An upload first, when asked for: the board is then `{id}`.
        let mut uri = uri.to_string();
        if let Some(upload) = upload {
            let (status, board) = send(&app, "POST", "/api/chutes/boards", Some(upload)).await;
            assert_eq!(status, StatusCode::OK, "{board}");
            uri = uri.replace("{id}", board["id"].as_str().expect("a board id"));
        }
        send(&app, "GET", &uri, None).await
    })
}

async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    (status, serde_json::from_slice(&bytes).expect("JSON"))
}

/// Asserts the CLI's `--json` and the API's body are the same document.
fn same(cli: &[&str], uri: &str, upload: Option<Value>) -> Value {
    let printed = json(cli);
    let (status, answered) = api(uri, upload);
    assert_eq!(status, StatusCode::OK, "{uri}: {answered}");
    assert_eq!(printed, answered, "parlor {cli:?} against GET {uri}");
    printed
}

#[test]
fn shortest_is_one_document() {
    let doc = same(
        &["chutes", "shortest", "--list", "--limit", "0", "--json"],
        "/api/chutes/boards/classic/shortest",
        None,
    );
    // The known answer: 7 rolls, 423 dice sequences, 7 routes.
    assert_eq!(doc["rolls"], 7);
    assert_eq!(doc["sequences"], "423");
    assert_eq!(doc["routes"], "7");
    assert_eq!(doc["route_list"].as_array().unwrap().len(), 7);
    let doc = same(
        &[
            "chutes", "shortest", "--chutes", "2", "--list", "--limit", "0", "--json",
        ],
        "/api/chutes/boards/classic/shortest?chutes=2",
        None,
    );
    // The original assignment's exactly-two-chutes game: 7 rolls.
    assert_eq!(doc["rolls"], 7);
    assert_eq!(doc["constraint"], json!({"chutes": 2, "ladders": null}));
    same(
        &[
            "chutes",
            "shortest",
            "--rules",
            "bounce",
            "--faces",
            "4",
            "--ladders",
            "1",
            "--list",
            "--limit",
            "0",
            "--json",
        ],
        "/api/chutes/boards/classic/shortest?overshoot=bounce&faces=4&ladders=1",
        None,
    );
}

#[test]
fn analyze_is_one_document() {
    let doc = same(
        &["chutes", "analyze", "--players", "2", "--json"],
        "/api/chutes/boards/classic/analysis?players=2",
        None,
    );
    let mean = doc["mean"].as_f64().unwrap();
    assert!((mean - 39.2251).abs() < 5e-5, "{mean}");
    assert_eq!(doc["exact"], Value::Null, "exact only when asked");
    let doc = same(
        &["chutes", "analyze", "--players", "3", "--exact", "--json"],
        "/api/chutes/boards/classic/analysis?players=3&exact=true",
        None,
    );
    let exact = doc["exact"]["mean"]["float"].as_f64().unwrap();
    assert!((exact - 39.2251).abs() < 5e-5, "{exact}");
    assert_eq!(doc["seats"]["seat_win"].as_array().unwrap().len(), 3);
    // An uploaded board: the same board facts (its name from the file).
    let trap = chutes_data("analysis-trap.toml");
    let text = std::fs::read_to_string(&trap).unwrap();
    let doc = same(
        &[
            "chutes",
            "analyze",
            "--board",
            &trap,
            "--players",
            "2",
            "--rules",
            "finish",
            "--exact",
            "--json",
        ],
        "/api/chutes/boards/{id}/analysis?players=2&overshoot=finish&exact=true",
        Some(json!({"text": text, "file_name": "analysis-trap.toml"})),
    );
    assert_eq!(doc["board"]["name"], "trap");
    assert!(doc["exact_error"].as_str().unwrap().contains("infinite"));
    assert!(doc["seats"]["nobody_wins"].as_f64().unwrap() > 0.0);
}

#[test]
fn min_throws_is_one_document() {
    let doc = same(
        &["chutes", "min-throws", "--json"],
        "/api/chutes/boards/classic/min-throws",
        None,
    );
    assert_eq!(doc["throws"], 7);
    // LeetCode 909's examples: 4 throws and 1.
    for (file, throws) in [
        ("leetcode-example-1.json", 4),
        ("leetcode-example-2.json", 1),
    ] {
        let path = chutes_data(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = same(
            &["chutes", "min-throws", "--board", &path, "--json"],
            "/api/chutes/boards/{id}/min-throws",
            Some(json!({"text": text, "file_name": file})),
        );
        assert_eq!(doc["throws"], throws, "{file}");
        assert_eq!(doc["board"]["start"], 1, "{file}");
    }
    // The assignment's own 0-based form: start on 0, finish on 29, 3 throws.
    let path = chutes_data("min-throws-assignment.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = same(
        &["chutes", "min-throws", "--board", &path, "--json"],
        "/api/chutes/boards/{id}/min-throws",
        Some(json!({"text": text, "file_name": "min-throws-assignment.txt"})),
    );
    assert_eq!(doc["throws"], 3);
    assert_eq!(doc["board"]["start"], 0);
    assert_eq!(doc["board"]["size"], 29);
    same(
        &[
            "chutes",
            "min-throws",
            "--rules",
            "finish",
            "--faces",
            "3",
            "--json",
        ],
        "/api/chutes/boards/classic/min-throws?overshoot=finish&faces=3",
        None,
    );
}
