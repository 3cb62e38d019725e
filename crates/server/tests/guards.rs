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

fn app_in(dir: &std::path::Path) -> Router {
    server::router(server::Config::new(dir))
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

fn error_of(value: &Value) -> &str {
    value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("a JSON error, not {value}"))
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path());
    for (method, uri, body) in [
        ("GET", "/", ""),
        ("GET", "/chutes", ""),
        ("GET", "/static/chutes.js", ""),
        ("GET", "/no/such/page", ""),
        ("GET", "/api/chutes/boards", ""),
        ("GET", "/api/nope", ""),
        ("POST", "/api/baffle/games", "{\"fixed\": true}"),
        ("POST", "/api/baffle/games", "not json"),
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
    let app = app_in(dir.path());
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
    let app = app_in(dir.path());
    let host = ("host", "127.0.0.1:8080");
    for (method, uri) in [
        ("POST", "/api/baffle/games"),
        ("POST", "/api/tycoon/designs"),
        ("PUT", "/api/chutes/games"),
        ("DELETE", "/api/chutes/games/0123"),
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
        }
        let fetch_site = ("sec-fetch-site", "cross-site");
        let (status, _, body) = send(&app, method, uri, &[JSON, host, fetch_site], "{}").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    }
    // The server's own pages, and programs that send no Origin, get in.
    let own = ("origin", "http://127.0.0.1:8080");
    let (status, _, body) = send(&app, "POST", "/api/baffle/games", &[JSON, host, own], "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = send(&app, "POST", "/api/baffle/games", &[JSON, host], "").await;
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
    let app = app_in(dir.path());
    for uri in [
        "/api/tycoon/designs",
        "/api/baffle/games",
        "/api/chutes/games",
    ] {
        for headers in [&[("content-type", "text/plain")][..], &[][..]] {
            let (status, _, body) = send(&app, "POST", uri, headers, "").await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{uri}: {body}");
            assert!(
                error_of(&body).contains("even with an empty body"),
                "{body}"
            );
        }
    }
}

#[tokio::test]
async fn a_body_is_an_object_with_known_fields() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path());
    for uri in [
        "/api/baffle/games",
        "/api/tycoon/designs",
        "/api/chutes/games",
    ] {
        for body in ["[]", " [1, 2]", "\"text\"", "3", "null"] {
            let (status, _, answer) = send(&app, "POST", uri, &[JSON], body).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}: {answer}");
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
    let (status, _, game) = send(&app, "POST", "/api/tycoon/games", &[JSON], "{}").await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let id = game["id"].as_str().unwrap();
    let moves = format!("/api/tycoon/games/{id}/moves");
    let (status, _, answer) =
        send(&app, "POST", &moves, &[JSON], r#"{"move":"roll","seat":3}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        error_of(&answer).contains("unknown field `seat`"),
        "{answer}"
    );
    let (status, _, answer) = send(&app, "POST", &moves, &[JSON], r#"{"move":"roll"}"#).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

/// A save that fails says why in words, and names no path of the server.
#[cfg(unix)]
#[tokio::test]
async fn a_failed_save_names_no_server_path() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("grids")).unwrap();
    std::fs::set_permissions(data.join("grids"), std::fs::Permissions::from_mode(0o500)).unwrap();
    let probe = data.join("grids/probe");
    if std::fs::write(&probe, "x").is_ok() {
        // Running as root: permissions do not stop the write.
        return;
    }
    let app = app_in(&data);
    let (status, _, design) = send(&app, "POST", "/api/tycoon/designs", &[JSON], "{}").await;
    assert_eq!(status, StatusCode::OK, "{design}");
    let id = design["id"].as_str().unwrap();
    let (status, _, answer) = send(
        &app,
        "POST",
        &format!("/api/tycoon/designs/{id}/save"),
        &[JSON],
        r#"{"name": "mine"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{answer}");
    let message = error_of(&answer);
    assert!(message.contains("cannot save the grid 'mine'"), "{message}");
    assert!(message.contains("may not write"), "{message}");
    let root = dir.path().to_string_lossy();
    assert!(!message.contains(root.as_ref()), "{message}");
    assert!(!message.contains('/'), "{message}");
}
