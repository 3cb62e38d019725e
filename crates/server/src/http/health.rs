//! Health, readiness and draining: what a load balancer asks, and what the
//! server does when told to stop.
//!
//! Terms:
//! - **health** (`GET /healthz`): the process answers; it asks nothing of
//!   the store, so it is cheap enough to poll often. `200 {"status": "ok"}`.
//! - **readiness** (`GET /readyz`): the server should be sent traffic: it
//!   is not draining and its store answers a trivial question (`SELECT 1`)
//!   within [`READY_WITHIN`]. `200 {"ready": true}`, or `503 {"ready":
//!   false, "reason": "..."}` with `Retry-After`.
//! - **draining** ([`Health::start_draining`]): the server was told to stop
//!   (SIGTERM, Ctrl-C). From then on it answers not ready; it refuses new
//!   work — a request under `/api` that changes something (a move, a new
//!   match, a seat taken) and a new live stream — with `503`, code
//!   `draining`, `Retry-After: 1` and `Connection: close`, so that a client
//!   or balancer sends it again to another server; the live streams end
//!   with a hint to reconnect in [`RECONNECT_AFTER`]; the requests it is
//!   answering (moves in flight, each stored before it is answered) finish;
//!   then it exits (see [`crate::serve_until`]).
//! - **transition**: readiness going from ready to not ready or back; each
//!   is one line in the server's log, with the reason.

use crate::http::error::ApiError;
use axum::http::{HeaderValue, Method, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::Duration;
use tabletop::Code;

/// How long the store has to answer the readiness check.
pub const READY_WITHIN: Duration = Duration::from_secs(2);

/// The reconnection time a live stream ended by draining suggests to its
/// follower (the server-sent events' `retry` field).
pub const RECONNECT_AFTER: Duration = Duration::from_millis(500);

/// What a refusal while draining, or a not-ready answer, says to wait, in
/// seconds.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// The server's readiness as it was last reported (0 before the first
/// check): ready, or not.
const READY: u8 = 1;
const NOT_READY: u8 = 2;

/// Whether the server is draining, and what its readiness was last.
#[derive(Debug, Default)]
pub struct Health {
    draining: AtomicBool,
    last: AtomicU8,
}

impl Health {
    /// Starts draining (see the module's terms); true the first time.
    pub fn start_draining(&self) -> bool {
        let first = !self.draining.swap(true, Ordering::SeqCst);
        if first {
            tracing::info!(
                "draining: not ready any more, refusing new moves and streams, \
                 finishing the requests being answered"
            );
        }
        first
    }

    /// True once the server was told to stop.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Notes a readiness, logging it when it changed.
    pub fn note(&self, ready: &Readiness) {
        let now = if ready.ready { READY } else { NOT_READY };
        let before = self.last.swap(now, Ordering::SeqCst);
        if before == now {
            return;
        }
        match &ready.reason {
            None => tracing::info!("ready"),
            Some(reason) => tracing::warn!(reason = %super::log::cut(reason), "not ready"),
        }
    }
}

/// The answer to `GET /readyz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Readiness {
    /// True when the server should be sent traffic.
    pub ready: bool,
    /// Why not, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Readiness {
    /// Not ready, for `reason`.
    pub fn not(reason: impl Into<String>) -> Self {
        Self {
            ready: false,
            reason: Some(reason.into()),
        }
    }
}

/// True for a request that starts new work: under `/api`, one that may
/// change something (any method but `GET` and `HEAD`) or opens a live
/// stream (`…/events`).
pub fn is_new_work(method: &Method, path: &str) -> bool {
    path.starts_with("/api/")
        && ((method != Method::GET && method != Method::HEAD) || path.ends_with("/events"))
}

/// Whether the server was draining when a request's head came (noted by
/// the outermost layer, before its body is read).
#[derive(Clone, Copy, Debug)]
pub struct CameWhileDraining(pub bool);

/// The `503` new work gets while the server drains.
pub fn draining() -> Response {
    let mut answer = ApiError::coded(
        Code::Draining,
        "this server is stopping: send the request again in a moment (another server, or this one \
         once restarted, answers it)",
    )
    .into_response();
    let headers = answer.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_work_is_what_changes_something_or_follows_a_match() {
        let id = "0123456789abcdef0123456789abcdef";
        assert!(is_new_work(
            &Method::POST,
            &format!("/api/matches/{id}/moves")
        ));
        assert!(is_new_work(&Method::POST, "/api/matches"));
        assert!(is_new_work(&Method::DELETE, "/api/tycoon/grids/x"));
        assert!(is_new_work(
            &Method::GET,
            &format!("/api/matches/{id}/events")
        ));
        assert!(!is_new_work(&Method::GET, &format!("/api/matches/{id}")));
        assert!(!is_new_work(&Method::GET, "/readyz"));
        assert!(!is_new_work(&Method::POST, "/chutes"));
    }

    #[test]
    fn draining_starts_once() {
        let health = Health::default();
        assert!(!health.is_draining());
        assert!(health.start_draining());
        assert!(!health.start_draining());
        assert!(health.is_draining());
    }
}
