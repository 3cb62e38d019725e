//! The request log: one line per request, through `tracing`, and the
//! request metrics beside it; panics in a handler are caught here.
//!
//! Terms:
//! - **request line**: `method` (its label), `route` (the route template), `status`,
//!   `ms` (the time to the answer's headers) and `request_id`, at level
//!   `INFO` with the target `parlor::request`. Never the path itself, its
//!   query or a header: a match's id, a token or an invite may be in them.
//! - **route template**: the route as declared, its
//!   parameters written `:name` (`/api/matches/:id/moves`, [`template`]),
//!   noted by [`note_route`] where the router matched it; `unmatched` when
//!   no route took the request.
//! - **request id**: made here for every request (a per-process random
//!   prefix and a count, 16 hex digits), given back in the `x-request-id`
//!   header and written in the request line, so that a person's report of
//!   an error can be found in the log. One sent by the client is not
//!   used: whatever a client sends could be a secret.
//! - **panic caught**: a handler that panics is answered `500`; the line
//!   says `panic caught` with the route and request id (the panic's own
//!   message is a line of its own: `parlor serve` logs panics, target
//!   `parlor::panic`).
//! - **method label** ([`method_label`]): a request's method as logs and
//!   metrics show it, from a closed set: one of HTTP's nine (`GET`, `POST`,
//!   …), else `other`, however long or many the made-up methods a client
//!   sends.
//! - **cut** ([`cut`]): any other value a log line carries that may be
//!   long (an error's words) is cut at [`LOGGED_MOST`] characters, with an
//!   ellipsis.
//! - **log writer** ([`non_blocking`]): the log's lines go to a channel
//!   that one thread of its own writes out; a request never waits for the
//!   log's reader. When that reader is stuck (a pipe nobody reads, a paused
//!   log shipper) and the channel is full ([`LOG_LINES_BUFFERED`]), a new
//!   line is dropped, and counted ([`dropped_lines`], the metric
//!   `parlor_log_lines_dropped_total`).

use crate::AppState;
use crate::http::error::{ApiError, Refused as ApiErrorRefused};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Instant;

pub use crate::logged::{LOGGED_MOST, cut};

/// A request's method as logs and metrics label it: HTTP's own methods by
/// name, any other `other` (see the module's terms).
pub fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "other",
    }
}

/// The most lines the log holds waiting for its reader: at a few hundred
/// bytes a line, a few megabytes at most.
pub const LOG_LINES_BUFFERED: usize = 8192;

/// What keeps a [`non_blocking`] log writer's thread: dropped, it writes
/// out the lines still waiting (for up to a second) and stops.
pub use tracing_appender::non_blocking::WorkerGuard as LogGuard;

/// The dropped-line count of the process's log writer, once one is made.
static DROPPED: OnceLock<tracing_appender::non_blocking::ErrorCounter> = OnceLock::new();

/// A log writer over `out` that never blocks its caller (see the module's
/// terms), and the guard that flushes it when dropped (keep it until the
/// process ends). The first one made in a process is the one whose dropped
/// lines [`dropped_lines`] counts.
pub fn non_blocking<W: std::io::Write + Send + 'static>(
    out: W,
) -> (tracing_appender::non_blocking::NonBlocking, LogGuard) {
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(LOG_LINES_BUFFERED)
        .thread_name("parlor-log")
        .finish(out);
    let _ = DROPPED.set(writer.error_counter());
    (writer, guard)
}

/// The lines the process's log writer dropped because its reader was not
/// keeping up (0 without one).
pub fn dropped_lines() -> u64 {
    DROPPED
        .get()
        .map_or(0, |c| u64::try_from(c.dropped_lines()).unwrap_or(u64::MAX))
}

/// The header that carries the request id back.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Where [`note_route`] writes the route template of the request
/// [`observe`] is timing: a nested router's note comes last and wins, and
/// it is there even when the handler panics.
#[derive(Debug, Clone, Default)]
struct RouteSlot(Arc<Mutex<Option<String>>>);

/// What the route of a request no route took is logged as.
pub const UNMATCHED: &str = "unmatched";

/// A fresh request id: 16 hex digits.
fn next_request_id() -> String {
    static PREFIX: OnceLock<u32> = OnceLock::new();
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let prefix = *PREFIX.get_or_init(|| {
        let mut bytes = [0u8; 4];
        // Without randomness the prefix is 0: ids stay unique in one run.
        let _ = getrandom::fill(&mut bytes);
        u32::from_le_bytes(bytes)
    });
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{prefix:08x}{:08x}", n & 0xffff_ffff)
}

/// Notes the route template the router matched for [`observe`] (a nested
/// router's note, made last, is kept: it knows the whole template).
pub async fn note_route(request: Request, next: Next) -> Response {
    if let (Some(path), Some(slot)) = (
        request.extensions().get::<MatchedPath>(),
        request.extensions().get::<RouteSlot>(),
    ) {
        *slot.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(template(path.as_str()));
    }
    next.run(request).await
}

/// A route as the router declares it (`/api/matches/{id}/moves`), written
/// as logs and metrics show it: `/api/matches/:id/moves` (`{*rest}` as
/// `*rest`), with no brace, which some Prometheus text parsers and log
/// tools read badly.
pub fn template(route: &str) -> String {
    let mut out = String::with_capacity(route.len());
    let mut chars = route.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if !name.starts_with('*') {
                    out.push(':');
                }
                out.push_str(&name);
            }
            c => out.push(c),
        }
    }
    out
}

/// Times the request, catches a panic, gives the request id, writes the
/// request line and counts the request in the metrics.
pub async fn observe(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = next_request_id();
    let method = method_label(request.method());
    let slot = RouteSlot::default();
    request.extensions_mut().insert(slot.clone());
    // Whether the server drained already when the request came: one that
    // came before is answered, however long its body takes to arrive.
    request
        .extensions_mut()
        .insert(super::health::CameWhileDraining(state.health.is_draining()));
    let answered = AssertUnwindSafe(next.run(request)).catch_unwind().await;
    let metrics = state.hub.metrics();
    let (mut response, panicked) = match answered {
        Ok(response) => (response, false),
        Err(_) => {
            metrics.panicked();
            let answer = ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the server failed on this request (its log has the details)",
            );
            (answer.into_response(), true)
        }
    };
    let took = started.elapsed();
    let route = slot
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
        .unwrap_or_else(|| UNMATCHED.to_string());
    let status = response.status().as_u16();
    // Milliseconds to two decimals: a number in JSON, short in words.
    let ms = (took.as_secs_f64() * 100_000.0).round() / 100.0;
    if panicked {
        tracing::error!(
            target: "parlor::request",
            method,
            route = %route,
            status,
            request_id = %id,
            "panic caught"
        );
    }
    tracing::info!(
        target: "parlor::request",
        method,
        route = %route,
        status,
        ms,
        request_id = %id,
        "request"
    );
    metrics.request(method, &route, status, took);
    if let Some(refused) = response.extensions().get::<ApiErrorRefused>() {
        metrics.refused(refused.0.as_str());
    }
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_name_their_parameters_without_braces() {
        assert_eq!(
            template("/api/matches/{id}/moves"),
            "/api/matches/:id/moves"
        );
        assert_eq!(
            template("/api/matches/{id}/seats/{seat}/invite"),
            "/api/matches/:id/seats/:seat/invite"
        );
        assert_eq!(template("/static/{*path}"), "/static/*path");
        assert_eq!(template("/healthz"), "/healthz");
    }

    #[tokio::test]
    async fn a_panicking_handler_is_answered_500_and_counted_under_its_route() {
        use axum::Router;
        use axum::routing::get;
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::open(crate::Config::new(dir.path()))
            .await
            .unwrap();
        let app = Router::new()
            .route(
                "/boom/{id}",
                get(
                    |axum::extract::Path(id): axum::extract::Path<String>| async move {
                        let found: Option<&'static str> =
                            id.parse::<u8>().ok().filter(|n| *n > 9).map(|_| "found");
                        found.expect("a bug in a handler")
                    },
                ),
            )
            .route_layer(axum::middleware::from_fn(note_route))
            .layer(axum::middleware::from_fn_with_state(state.clone(), observe));
        let request = axum::http::Request::get("/boom/7")
            .body(axum::body::Body::empty())
            .unwrap();
        let answer = app.oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(answer.headers().contains_key(REQUEST_ID));
        let metrics = crate::http::metrics::render(&state);
        assert!(metrics.contains("parlor_panics_total 1"), "{metrics}");
        assert!(
            metrics.contains(
                r#"parlor_http_requests_total{method="GET",route="/boom/:id",status="500"} 1"#
            ),
            "{metrics}"
        );
    }

    #[test]
    fn methods_are_labelled_from_a_closed_set() {
        use axum::http::Method;
        for (method, label) in [
            (Method::GET, "GET"),
            (Method::POST, "POST"),
            (Method::DELETE, "DELETE"),
            (Method::OPTIONS, "OPTIONS"),
            (Method::CONNECT, "CONNECT"),
        ] {
            assert_eq!(method_label(&method), label);
        }
        for made_up in ["FROB", "get", "PROPFIND", &"X".repeat(70_000)] {
            let method = Method::from_bytes(made_up.as_bytes()).unwrap();
            assert_eq!(method_label(&method), "other", "{}", &made_up[..4]);
        }
    }

    #[test]
    fn long_values_are_cut_at_a_char_boundary() {
        assert_eq!(cut("short"), "short");
        let exact = "é".repeat(LOGGED_MOST);
        assert_eq!(cut(&exact), exact);
        let long = "é".repeat(70_000);
        let logged = cut(&long);
        assert_eq!(logged.chars().count(), LOGGED_MOST + 1);
        assert!(logged.ends_with("é…"));
    }

    #[test]
    fn request_ids_are_16_hex_digits_and_differ() {
        let a = next_request_id();
        let b = next_request_id();
        assert_eq!(a.len(), 16);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b);
    }
}
