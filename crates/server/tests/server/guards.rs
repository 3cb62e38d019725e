//! What protects the server from other pages and from sloppy requests,
//! through the router: security headers on every answer, the Origin check
//! and the JSON content type on requests that change something, bodies
//! that must be JSON objects with known fields, errors that name no server
//! path, and the leftovers of a crash cleaned at start.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

async fn app_in(dir: &std::path::Path) -> Router {
    server::router(server::Config::new(dir))
        .await
        .expect("the app starts")
}

/// Sends a request with `headers`; returns the status, the answer's
/// headers and its body as JSON (or a string).
async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Body::from(body.to_string()))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, headers, value)
}

const JSON: (&str, &str) = ("content-type", "application/json");

/// A match of the fixed Baffle game, as `POST /api/matches` takes it.
const FIXED_BAFFLE: &str = r#"{"game": "baffle", "setup": {"fixed": true}}"#;

fn error_of(value: &Value) -> &str {
    value["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("a JSON error, not {value}"))
}

fn code_of(value: &Value) -> &str {
    value["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("a JSON error, not {value}"))
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path()).await;
    for (method, uri, body) in [
        ("GET", "/", ""),
        ("GET", "/chutes", ""),
        ("GET", "/static/chutes.js", ""),
        ("GET", "/no/such/page", ""),
        ("GET", "/api/chutes/boards", ""),
        ("GET", "/api/nope", ""),
        ("POST", "/api/matches", FIXED_BAFFLE),
        ("POST", "/api/matches", "not json"),
        ("GET", "/api/matches/00000000000000000000000000000000", ""),
    ] {
        let (status, headers, _) = send(&app, method, uri, &[JSON], body).await;
        let csp = headers
            .get(header::CONTENT_SECURITY_POLICY)
            .unwrap_or_else(|| panic!("{method} {uri} ({status}) has no CSP"))
            .to_str()
            .unwrap();
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{uri}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{uri}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer", "{uri}");
    }
}

/// The CSP allows no inline script or style, so the pages must have none:
/// every script is a file under /static/, no element has a `style` or an
/// `on...` attribute.
#[tokio::test]
async fn the_pages_need_nothing_the_policy_forbids() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path()).await;
    for page in ["/", "/chutes", "/baffle", "/tycoon", "/no/such/page"] {
        let (_, _, body) = send(&app, "GET", page, &[], "").await;
        let html = body.as_str().unwrap().to_ascii_lowercase();
        let mut rest = html.as_str();
        while let Some(at) = rest.find("<script") {
            let tag_end = rest[at..].find('>').unwrap() + at;
            let tag = &rest[at..tag_end];
            assert!(tag.contains("src=\"/static/"), "{page}: inline {tag}");
            assert!(
                rest[tag_end + 1..].starts_with("</script>"),
                "{page}: {tag}"
            );
            rest = &rest[tag_end..];
        }
        for attribute in [
            " style=",
            " onclick=",
            " onload=",
            " onchange=",
            " oninput=",
        ] {
            assert!(!html.contains(attribute), "{page} has{attribute}");
        }
        assert!(!html.contains("<style"), "{page} has a style element");
    }
}

#[tokio::test]
async fn a_state_changing_request_from_another_site_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path()).await;
    let host = ("host", "127.0.0.1:8080");
    for (method, uri) in [
        ("POST", "/api/matches"),
        (
            "POST",
            "/api/matches/00000000000000000000000000000000/moves",
        ),
        ("POST", "/api/tycoon/designs"),
        ("PUT", "/api/matches"),
        ("DELETE", "/api/tycoon/grids/mine"),
    ] {
        for origin in ["http://evil.example", "null", "http://127.0.0.1:9999"] {
            let (status, _, body) =
                send(&app, method, uri, &[JSON, host, ("origin", origin)], "{}").await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "{method} {uri} from {origin}"
            );
            assert!(error_of(&body).contains("another site"), "{body}");
            assert_eq!(code_of(&body), "forbidden", "{body}");
        }
        let fetch_site = ("sec-fetch-site", "cross-site");
        let (status, _, body) = send(&app, method, uri, &[JSON, host, fetch_site], "{}").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    }
    // The server's own pages, and programs that send no Origin, get in.
    let own = ("origin", "http://127.0.0.1:8080");
    let (status, _, body) = send(
        &app,
        "POST",
        "/api/matches",
        &[JSON, host, own],
        FIXED_BAFFLE,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, _, body) = send(&app, "POST", "/api/matches", &[JSON, host], FIXED_BAFFLE).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, _, body) = send(&app, "POST", "/api/tycoon/designs", &[JSON, host], "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Reading is not changing: a GET from anywhere is answered (the
    // browser keeps the answer from the other page).
    let (status, _, _) = send(
        &app,
        "GET",
        "/api/chutes/boards",
        &[host, ("origin", "http://evil.example")],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// The eviction attack of the issue: empty text/plain posts (which any page
/// may send) made sessions until a victim's design was dropped.
#[tokio::test]
async fn an_empty_post_without_the_json_type_makes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path()).await;
    for uri in ["/api/tycoon/designs", "/api/matches", "/api/chutes/boards"] {
        for headers in [&[("content-type", "text/plain")][..], &[][..]] {
            let (status, _, body) = send(&app, "POST", uri, headers, "").await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{uri}: {body}");
            assert_eq!(code_of(&body), "not_json", "{body}");
            assert!(
                error_of(&body).contains("even with an empty body"),
                "{body}"
            );
        }
    }
    let (status, _, body) = send(&app, "GET", "/api/lobby", &[], "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["matches"], serde_json::json!([]), "no match was made");
}

#[tokio::test]
async fn a_body_is_an_object_with_known_fields() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path()).await;
    for uri in ["/api/matches", "/api/tycoon/designs", "/api/chutes/boards"] {
        for body in ["[]", " [1, 2]", "\"text\"", "3", "null"] {
            let (status, _, answer) = send(&app, "POST", uri, &[JSON], body).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}: {answer}");
            assert_eq!(code_of(&answer), "bad_json", "{answer}");
            assert!(error_of(&answer).contains("JSON object"), "{answer}");
        }
    }
    // Unknown fields beside a known tag are refused (they were dropped).
    let (status, _, design) = send(&app, "POST", "/api/tycoon/designs", &[JSON], "{}").await;
    assert_eq!(status, StatusCode::OK, "{design}");
    let id = design["id"].as_str().unwrap();
    let edits = format!("/api/tycoon/designs/{id}/edits");
    let (status, _, answer) = send(&app, "POST", &edits, &[JSON], r#"{"edit":"undo","x":1}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(error_of(&answer).contains("unknown field `x`"), "{answer}");
    let (status, _, made) = send(
        &app,
        "POST",
        "/api/matches",
        &[JSON],
        r#"{"game": "tycoon"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap();
    let bearer = format!("Bearer {}", made["token"].as_str().unwrap());
    let token = ("authorization", bearer.as_str());
    let moves = format!("/api/matches/{id}/moves");
    let (status, _, answer) = send(
        &app,
        "POST",
        &moves,
        &[JSON, token],
        r#"{"move":"roll","after":0,"seat":3}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        error_of(&answer).contains("unknown field `seat`"),
        "{answer}"
    );
    // And in the solver's evidence.
    let (status, _, answer) = send(
        &app,
        "POST",
        "/api/baffle/solve",
        &[JSON],
        r#"{"size": 5, "mirrors": 1, "shots": [[1, 2]], "count": 3}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        error_of(&answer).contains("unknown field `count`"),
        "{answer}"
    );
    // Unknown fields in a game's setup too.
    let (status, _, answer) = send(
        &app,
        "POST",
        "/api/matches",
        &[JSON],
        r#"{"game": "tycoon", "setup": {"grid": "x"}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        error_of(&answer).contains("unknown field `grid`"),
        "{answer}"
    );
    let (status, _, answer) = send(
        &app,
        "POST",
        &moves,
        &[JSON, token],
        r#"{"move":"roll","after":0}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

/// A save the store cannot keep is refused with the reason in words, names
/// no path of the server, and keeps nothing; once the store can write
/// again, the same save goes through. (Here another program holds the
/// store's write lock past its 5 s wait: the same answer as a store that
/// cannot be reached. A full or read-only store is `507` with its reason;
/// `scripts/load.sh` makes both on small tmpfs mounts.)
#[tokio::test]
async fn a_save_the_store_cannot_keep_says_why_and_names_no_path() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let app = app_in(&data).await;
    let (status, _, design) = send(&app, "POST", "/api/tycoon/designs", &[JSON], "{}").await;
    assert_eq!(status, StatusCode::OK, "{design}");
    let save = format!(
        "/api/tycoon/designs/{}/save",
        design["id"].as_str().unwrap()
    );
    let holder = rusqlite::Connection::open(data.join("parlor.db")).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let (status, _, answer) = send(&app, "POST", &save, &[JSON], r#"{"name": "mine"}"#).await;
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    assert_eq!(code_of(&answer), "store_unavailable", "{answer}");
    let message = error_of(&answer);
    assert!(message.contains("cannot store this"), "{message}");
    assert!(message.contains("try again"), "{message}");
    let root = dir.path().to_string_lossy();
    assert!(!message.contains(root.as_ref()), "{message}");
    assert!(!message.contains('/'), "{message}");
    assert!(!message.contains("parlor.db"), "{message}");
    let (status, _, grids) = send(&app, "GET", "/api/tycoon/grids", &[], "").await;
    assert_eq!(status, StatusCode::OK, "{grids}");
    assert_eq!(grids["grids"], serde_json::json!([]), "nothing was kept");
    let (status, _, answer) = send(&app, "POST", &save, &[JSON], r#"{"name": "mine"}"#).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}
