//! The Host check against DNS rebinding: a server on a loopback address
//! answers only requests addressed to a loopback name; one exposed on a
//! network address answers its `--public-host` names (and loopback ones)
//! when it has any, and every name when it has none (and warns); a loopback
//! server behind a reverse proxy on the same machine answers its public
//! names too; health probes pass whatever their host.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use tower::ServiceExt;

async fn app(listen: Option<&str>) -> (Router, tempfile::TempDir) {
    app_named(listen, &[]).await
}

/// The app listening on `listen`, answering to the public host `names`.
async fn app_named(listen: Option<&str>, names: &[&str]) -> (Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary data dir");
    let mut config = server::Config::new(dir.path());
    config.listen = listen.map(|a| a.parse().expect("an address"));
    config.public_hosts = names.iter().map(|n| n.to_string()).collect();
    let router = server::router(config).await.expect("the app starts");
    (router, dir)
}

/// Sends `method uri` with `host` (none: no Host header); returns the
/// status, the Content-Type and the body.
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    host: Option<&str>,
) -> (StatusCode, String, String) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(host) = host {
        request = request.header(header::HOST, host);
    }
    let body = if method == "POST" {
        request = request.header(header::CONTENT_TYPE, "application/json");
        Body::from(r#"{"game": "baffle", "setup": {"fixed": true}}"#)
    } else {
        Body::empty()
    };
    let response = app
        .clone()
        .oneshot(request.body(body).expect("a request"))
        .await
        .expect("an answer");
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    (status, kind, String::from_utf8_lossy(&bytes).into_owned())
}

const LOOPBACK_HOSTS: [&str; 8] = [
    "127.0.0.1:8080",
    "127.0.0.1",
    "127.8.9.10:1234",
    "localhost:8080",
    "LOCALHOST",
    "Localhost:80",
    "[::1]:8080",
    "[::1]",
];

const OTHER_HOSTS: [&str; 8] = [
    "evil.example",
    "evil.example:8080",
    "127.0.0.1.evil.example:8080",
    "localhost.evil.example",
    "0.0.0.0:8080",
    "192.168.1.20:8080",
    "[::2]:8080",
    "localhost:8080:8080",
];

#[tokio::test]
async fn a_loopback_server_answers_loopback_hosts_only() {
    let (app, _dir) = app(Some("127.0.0.1:8080")).await;
    for host in LOOPBACK_HOSTS {
        let (status, _, body) = call(&app, "GET", "/baffle", Some(host)).await;
        assert_eq!(status, StatusCode::OK, "{host}: {body}");
        let (status, _, body) = call(&app, "POST", "/api/matches", Some(host)).await;
        assert_eq!(status, StatusCode::CREATED, "{host}: {body}");
    }
    for host in OTHER_HOSTS {
        // The API: a JSON error that says why and how to get in.
        for (method, uri) in [
            ("POST", "/api/matches"),
            ("GET", "/api/lobby"),
            ("GET", "/api/tycoon/grids"),
            ("GET", "/api/no-such-route"),
        ] {
            let (status, kind, body) = call(&app, method, uri, Some(host)).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{host} {uri}: {body}");
            assert!(kind.starts_with("application/json"), "{kind}");
            let json: serde_json::Value = serde_json::from_str(&body).expect("JSON");
            assert_eq!(json["error"]["code"], "forbidden", "{json}");
            let error = json["error"]["message"].as_str().expect("an error message");
            assert!(error.contains("http://127.0.0.1:8080/"), "{error}");
            assert!(error.contains("--addr"), "{error}");
            assert!(error.contains(&format!("{host:?}")), "{error}");
        }
        // A page: the same reason in plain text.
        for uri in ["/", "/tycoon", "/static/baffle.js", "/no-such-page"] {
            let (status, kind, body) = call(&app, "GET", uri, Some(host)).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{host} {uri}: {body}");
            assert!(kind.starts_with("text/plain"), "{kind}");
            assert!(body.contains("Open http://127.0.0.1:8080/"), "{body}");
        }
    }
}

#[tokio::test]
async fn an_absolute_request_target_is_checked_too() {
    let (app, _dir) = app(Some("127.0.0.1:8080")).await;
    let (status, _, body) = call(
        &app,
        "GET",
        "http://evil.example:8080/",
        Some("127.0.0.1:8080"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _, body) = call(&app, "GET", "http://localhost:8080/", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_request_without_a_host_is_answered() {
    // Browsers always send a Host; a request without one comes from a
    // program that can reach the port anyway.
    let (app, _dir) = app(Some("127.0.0.1:8080")).await;
    let (status, _, body) = call(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn an_ipv6_loopback_server_is_checked_and_named_in_the_refusal() {
    let (app, _dir) = app(Some("[::1]:9000")).await;
    let (status, _, body) = call(&app, "GET", "/api/tycoon/grids", Some("[::1]:9000")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = call(&app, "GET", "/", Some("evil.example:9000")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body.contains("http://[::1]:9000/"), "{body}");
}

#[tokio::test]
async fn a_server_exposed_on_purpose_answers_any_host() {
    for listen in [Some("0.0.0.0:8080"), Some("192.168.1.20:8080"), None] {
        let (app, _dir) = app(listen).await;
        for host in OTHER_HOSTS.iter().chain(&LOOPBACK_HOSTS) {
            let (status, _, body) = call(&app, "POST", "/api/matches", Some(host)).await;
            assert_eq!(status, StatusCode::CREATED, "{listen:?} {host}: {body}");
        }
    }
}

/// Sends raw `request` to `addr`; returns the whole answer.
fn raw(addr: SocketAddr, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("a connection");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    stream
        .write_all(request.as_bytes())
        .expect("the request sent");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// The real server, over TCP: `run` knows it listens on 127.0.0.1 and
/// checks the Host.
#[test]
fn the_served_app_checks_the_host_it_is_reached_by() {
    let dir = tempfile::tempdir().expect("a temporary data dir");
    let config = server::Config::new(dir.path());
    let (tx, rx) = std::sync::mpsc::channel::<SocketAddr>();
    std::thread::spawn(move || {
        let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
        let _ = server::run(addr, config, move |bound| {
            let _ = tx.send(bound);
        });
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server to start");
    let port = addr.port();

    let evil = raw(
        addr,
        &format!(
            "GET /api/tycoon/grids HTTP/1.1\r\nHost: evil.example:{port}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    assert!(
        evil.contains(&format!("http://127.0.0.1:{port}/")),
        "{evil}"
    );

    let good = raw(
        addr,
        &format!(
            "GET /api/tycoon/grids HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(good.starts_with("HTTP/1.1 200"), "{good}");

    // HTTP/1.0 without a Host: answered.
    let old = raw(addr, "GET / HTTP/1.0\r\n\r\n");
    assert!(old.starts_with("HTTP/1.0 200"), "{old}");
}

/// An exposed server with public host names answers those names (any
/// port, any case), loopback names and a request without a host; any other
/// name gets a 403 that names the hosts it answers to, in JSON under /api
/// and in words elsewhere.
#[tokio::test]
async fn an_exposed_server_with_public_hosts_answers_those_names_only() {
    let (app, _dir) = app_named(
        Some("0.0.0.0:8080"),
        &["parlor.example.org", "192.168.1.20:8080"],
    )
    .await;
    for host in [
        Some("parlor.example.org"),
        Some("Parlor.Example.ORG:8080"),
        Some("parlor.example.org."),
        Some("192.168.1.20:8080"),
        Some("192.168.1.20"),
        Some("localhost:8080"),
        Some("127.0.0.1:8080"),
        None,
    ] {
        let (status, _, body) = call(&app, "GET", "/api/lobby", host).await;
        assert_eq!(status, StatusCode::OK, "{host:?}: {body}");
        let (status, _, body) = call(&app, "POST", "/api/matches", host).await;
        assert_eq!(status, StatusCode::CREATED, "{host:?}: {body}");
    }
    for host in [
        "evil.example:8080",
        "parlor.example.org.evil.example",
        "192.168.1.21:8080",
    ] {
        let (status, kind, body) = call(&app, "POST", "/api/matches", Some(host)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}: {body}");
        assert!(kind.starts_with("application/json"), "{kind}");
        assert!(
            body.contains("parlor.example.org, 192.168.1.20:8080") && body.contains(host),
            "{body}"
        );
        let (status, kind, body) = call(&app, "GET", "/", Some(host)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}: {body}");
        assert!(kind.starts_with("text/plain"), "{kind}");
    }
}

/// Sends `method uri` with `headers` to `app`, with a JSON body for a
/// POST; returns the status.
async fn call_with(app: &Router, method: &str, uri: &str, headers: &[(&str, &str)]) -> StatusCode {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = if method == "POST" {
        request = request.header(header::CONTENT_TYPE, "application/json");
        Body::from(r#"{"game": "baffle", "setup": {"fixed": true}}"#)
    } else {
        Body::empty()
    };
    app.clone()
        .oneshot(request.body(body).expect("a request"))
        .await
        .expect("an answer")
        .status()
}

/// The headers Caddy's `reverse_proxy` sends by default (it keeps the
/// browser's Host) and nginx's with `proxy_set_header Host $host` and the
/// usual `X-Real-IP`, for a page of https://parlor.example.org.
const CADDY: [(&str, &str); 5] = [
    ("host", "parlor.example.org"),
    ("origin", "https://parlor.example.org"),
    ("x-forwarded-for", "203.0.113.7"),
    ("x-forwarded-proto", "https"),
    ("x-forwarded-host", "parlor.example.org"),
];
const NGINX: [(&str, &str); 5] = [
    ("host", "parlor.example.org"),
    ("origin", "https://parlor.example.org"),
    ("x-real-ip", "203.0.113.7"),
    ("x-forwarded-for", "203.0.113.7"),
    ("connection", "close"),
];

#[tokio::test]
async fn a_loopback_server_behind_a_proxy_on_this_machine_answers_its_public_names() {
    let (app, _dir) = app_named(Some("127.0.0.1:8080"), &["parlor.example.org"]).await;
    for (proxy, headers) in [("Caddy", CADDY), ("nginx", NGINX)] {
        for (method, uri, expected) in [
            ("GET", "/", StatusCode::OK),
            ("GET", "/api/lobby", StatusCode::OK),
            ("POST", "/api/matches", StatusCode::CREATED),
        ] {
            let status = call_with(&app, method, uri, &headers).await;
            assert_eq!(status, expected, "{proxy}: {method} {uri}");
        }
    }
    // Loopback names still, and no other name.
    let (status, _, body) = call(&app, "POST", "/api/matches", Some("localhost:8080")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    for host in ["evil.example", "parlor.example.org.evil.example"] {
        let (status, _, body) = call(&app, "POST", "/api/matches", Some(host)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}: {body}");
    }
    // Without public names, the proxy's requests are refused.
    let (bare, _bare_dir) = app_named(Some("127.0.0.1:8080"), &[]).await;
    let status = call_with(&bare, "GET", "/api/lobby", &CADDY).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn health_probes_by_the_servers_own_address_pass_the_host_check() {
    let (guarded, _a) = app_named(Some("127.0.0.1:8080"), &["parlor.example.org"]).await;
    let (exposed, _b) = app_named(Some("0.0.0.0:8080"), &["parlor.example.org"]).await;
    // Kubernetes probes by the pod's address; a cloud balancer by the
    // instance's; a rebinding page's name changes nothing either.
    for app in [&guarded, &exposed] {
        for host in ["10.1.2.3:8080", "192.168.1.20", "evil.example"] {
            for (method, uri) in [
                ("GET", "/healthz"),
                ("GET", "/readyz"),
                ("HEAD", "/healthz"),
            ] {
                let (status, _, body) = call(app, method, uri, Some(host)).await;
                assert_eq!(status, StatusCode::OK, "{host} {method} {uri}: {body}");
            }
            // Only the probes: everything else is still checked.
            for uri in ["/", "/api/lobby", "/healthz/x"] {
                let (status, _, _) = call(app, "GET", uri, Some(host)).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{host} {uri}");
            }
        }
    }
}

#[test]
fn a_public_host_is_a_name_or_an_address_and_nothing_else() {
    for good in [
        "parlor.example.org",
        "192.168.1.20",
        "192.168.1.20:8080",
        "[fd00::1]:8080",
        "localhost",
    ] {
        assert_eq!(
            server::http::host::check_public_host(good),
            Ok(()),
            "{good}"
        );
    }
    for bad in [
        "",
        "http://parlor.example.org",
        "parlor.example.org/games",
        "two words",
        "caf\u{e9}.example",
    ] {
        let error = server::http::host::check_public_host(bad).expect_err(bad);
        assert!(error.contains("is not a host name"), "{error}");
    }
}

#[test]
fn an_exposed_server_without_public_hosts_is_warned_about() {
    let exposed: SocketAddr = "0.0.0.0:8080".parse().expect("an address");
    let warning = server::http::host::exposure_warning(exposed, &[]).expect("a warning");
    assert!(
        warning.contains("without --public-host") && warning.contains("DNS rebinding"),
        "{warning}"
    );
    let named = ["parlor.example.org".to_string()];
    assert_eq!(server::http::host::exposure_warning(exposed, &named), None);
    let loopback: SocketAddr = "127.0.0.1:8080".parse().expect("an address");
    assert_eq!(server::http::host::exposure_warning(loopback, &[]), None);
}
