//! What the router tests share: the app on a fresh store, requests with or
//! without a seat token, and answers read as JSON.
//!
//! Terms:
//! - **app** ([`App`]): the router on a store of its own (SQLite in a
//!   temporary data directory, or a fresh PostgreSQL database).
//! - **answer** ([`Answer`]): a status, the headers and the body (JSON, or
//!   the text as a JSON string).
//! - **seat** ([`Seat`]): a match as one player holds it: its id, their
//!   token, and the move number they last saw.
//! - **over TCP** ([`serve_over_tcp`]): the whole server on a loopback
//!   port, for what only a real connection shows (limits, timeouts).

#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use tower::ServiceExt;

/// A client at a loopback address: `client(2)` is 127.0.0.2.
pub fn client(n: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, n])
}

/// A request that says it carries JSON, with a seat token (or none) and
/// these extra headers; its body still to give.
fn json_request(
    method: &str,
    uri: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
) -> axum::http::request::Builder {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
}

/// The request with a JSON body, or an empty one.
fn with_body(request: axum::http::request::Builder, body: Option<&Value>) -> Request<Body> {
    request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request")
}

/// The router on a store of its own.
pub struct App {
    /// The router.
    pub router: Router,
    /// The data directory (kept while the app lives).
    pub dir: tempfile::TempDir,
}

/// What the app answered.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The body: JSON, or its text as a string.
    pub body: Value,
}

impl Answer {
    /// The body of a 2xx answer.
    ///
    /// # Panics
    /// On any other status.
    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(
            self.status.is_success(),
            "expected success, got {}: {}",
            self.status,
            self.body
        );
        &self.body
    }

    /// The error's code.
    #[track_caller]
    pub fn code(&self) -> &str {
        self.body["error"]["code"]
            .as_str()
            .unwrap_or_else(|| panic!("a JSON error, not {}", self.body))
    }

    /// The error's message.
    #[track_caller]
    pub fn message(&self) -> &str {
        self.body["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("a JSON error, not {}", self.body))
    }

    /// Asserts a refusal with this status and code; returns the message.
    #[track_caller]
    pub fn refused(&self, status: StatusCode, code: &str) -> &str {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.code(), code, "{}", self.body);
        self.message()
    }
}

impl App {
    /// The app with the default settings.
    pub async fn new() -> Self {
        Self::with(|_| {}).await
    }

    /// The app with settings changed by `tweak` (its store in a temporary
    /// data directory unless `tweak` names one).
    pub async fn with(tweak: impl FnOnce(&mut server::Config)) -> Self {
        let dir = tempfile::tempdir().expect("a temporary data dir");
        let mut config = server::Config::new(dir.path());
        // A debug build is many times slower than the release build the
        // 10 s limit on long answers is set for (long_work.rs tests it).
        config.long_work_limit = std::time::Duration::from_secs(600);
        tweak(&mut config);
        let router = server::router(config).await.expect("the app starts");
        Self { router, dir }
    }

    /// The app on a fresh PostgreSQL database of the test cluster.
    pub async fn on_postgres() -> Self {
        let url = testkit::fresh_postgres().await;
        Self::with(|c| c.database = Some(server::store::Location::Postgres(url))).await
    }

    /// Sends `method uri` with a JSON body (or none) and a seat token (or
    /// none).
    pub async fn send(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        self.request(with_body(json_request(method, uri, token, &[]), body))
            .await
    }

    /// Sends `method uri` as the accept loop hands it on from the client
    /// address `from`, with these extra headers, a seat token (or none) and
    /// a JSON body (or none).
    pub async fn send_from(
        &self,
        from: IpAddr,
        method: &str,
        uri: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> Answer {
        let request = json_request(method, uri, token, headers)
            .extension(ConnectInfo(SocketAddr::new(from, 40_000)));
        self.request(with_body(request, body)).await
    }

    /// Sends a request as built (any headers, any body).
    pub async fn request(&self, request: Request<Body>) -> Answer {
        self.request_on_the_wire(request).await.0
    }

    /// Sends `method uri` as a browser does, accepting a gzip answer, with
    /// a seat token (or none) and a JSON body (or none); returns the answer
    /// (its body unpacked) and the bytes its body took as sent.
    pub async fn send_as_a_browser(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (Answer, usize) {
        let headers = [("accept-encoding", "gzip, deflate, br")];
        self.request_on_the_wire(with_body(json_request(method, uri, token, &headers), body))
            .await
    }

    /// Sends a request as built; returns the answer (a gzip body
    /// unpacked) and the bytes its body took as sent.
    async fn request_on_the_wire(&self, request: Request<Body>) -> (Answer, usize) {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("an answer");
        let status = response.status();
        let headers = response.headers().clone();
        let sent = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        let bytes = if headers
            .get(header::CONTENT_ENCODING)
            .is_some_and(|e| e == "gzip")
        {
            let mut unpacked = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&sent[..]), &mut unpacked)
                .expect("a gzip body that unpacks");
            unpacked
        } else {
            sent.to_vec()
        };
        let body = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (
            Answer {
                status,
                headers,
                body,
            },
            sent.len(),
        )
    }

    /// `GET uri`.
    pub async fn get(&self, uri: &str) -> Answer {
        self.send("GET", uri, None, None).await
    }

    /// `GET uri` with a token.
    pub async fn get_as(&self, token: &str, uri: &str) -> Answer {
        self.send("GET", uri, Some(token), None).await
    }

    /// `POST uri` with `body`.
    pub async fn post(&self, uri: &str, body: Value) -> Answer {
        self.send("POST", uri, None, Some(&body)).await
    }

    /// `POST uri` with `body` and a token.
    pub async fn post_as(&self, token: &str, uri: &str, body: Value) -> Answer {
        self.send("POST", uri, Some(token), Some(&body)).await
    }

    /// Makes a match (`POST /api/matches`) and returns its maker's seat.
    pub async fn start(&self, request: Value) -> Seat {
        let made = self.post("/api/matches", request).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        Seat::from_made(&made.body)
    }

    /// Plays `mv` for `seat` at the move number it last saw, and remembers
    /// the number after. The answer carries the full view
    /// (`?view=full`; the compact one is `matches.rs`'s subject).
    pub async fn play(&self, seat: &mut Seat, mv: Value) -> Answer {
        let answer = self
            .post_as(
                &seat.token,
                &format!("/api/matches/{}/moves?view=full", seat.id),
                json!({"move": mv, "after": seat.after}),
            )
            .await;
        if answer.status.is_success() {
            seat.after = answer.body["view"]["moves"].as_u64().expect("moves") as usize;
        }
        answer
    }

    /// The match as `seat` sees it now (and remembers its move number).
    pub async fn look(&self, seat: &mut Seat) -> Value {
        let view = self
            .get_as(&seat.token, &format!("/api/matches/{}", seat.id))
            .await;
        let view = view.ok().clone();
        seat.after = view["moves"].as_u64().expect("moves") as usize;
        view
    }

    /// Waits (up to 20 s) until `seat`'s view of its match satisfies
    /// `done` (figures the server works out after a move's answer, say),
    /// and returns that view.
    pub async fn look_until(&self, seat: &mut Seat, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let view = self.look(seat).await;
            if done(&view) {
                return view;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the view did not get there: {view}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Waits (up to 20 s) until match `id` satisfies `done` as a spectator
    /// sees it — the bots move on the server, after the answer — and
    /// returns that view.
    pub async fn wait_for(&self, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let view = self.get(&format!("/api/matches/{id}")).await;
            let view = view.ok().clone();
            if done(&view) {
                return view;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the match did not get there: {view}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}

/// A match as one player holds it.
#[derive(Debug, Clone)]
pub struct Seat {
    /// The match's id.
    pub id: String,
    /// The player's token.
    pub token: String,
    /// The move number they last saw.
    pub after: usize,
    /// The invites (for the maker), by seat.
    pub invites: Vec<(u8, String)>,
}

impl Seat {
    /// The maker's seat from `POST /api/matches`'s answer.
    pub fn from_made(made: &Value) -> Self {
        Self {
            id: made["id"].as_str().expect("an id").to_string(),
            token: made["token"].as_str().expect("a token").to_string(),
            after: made["view"]["moves"].as_u64().expect("moves") as usize,
            invites: made["invites"]
                .as_array()
                .expect("invites")
                .iter()
                .map(|i| {
                    (
                        i["seat"].as_u64().expect("a seat") as u8,
                        i["invite"].as_str().expect("an invite").to_string(),
                    )
                })
                .collect(),
        }
    }
}

/// A server over real TCP on a free loopback port, with settings changed
/// by `tweak`: its address, what stops it (send, or drop), its thread, and
/// its data directory (kept while it lives).
pub fn serve_over_tcp(
    tweak: impl FnOnce(&mut server::Config),
) -> (
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    std::thread::JoinHandle<()>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().expect("a data dir");
    let mut config = server::Config::new(dir.path());
    tweak(&mut config);
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a port");
            ready_tx
                .send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            server::serve_until(listener, config, async {
                let _ = stop_rx.await;
            })
            .await
            .expect("served");
        });
    });
    let addr = ready_rx.recv().expect("the server starts");
    (addr, stop_tx, thread, dir)
}
