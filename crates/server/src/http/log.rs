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
//! - **log writer** ([`non_blocking`], [`crate::http::log_writer`]): the
//!   log's lines are handed to a thread of its own that writes them out a
//!   few at a time; a request never waits for the log's reader. When that
//!   reader is stuck (a pipe nobody reads, a paused log shipper) and the
//!   pending lines are full, a new line is dropped, and counted
//!   ([`dropped_lines`], the metric `parlor_log_lines_dropped_total`).

use axum::extract::{MatchedPath, Request};
use axum::http::HeaderName;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

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

pub use crate::http::log_writer::{LogGuard, LogWriter};

/// The process's log writer, once one is made (its dropped lines).
static WRITER: OnceLock<LogWriter> = OnceLock::new();

/// A log writer over `out` that never blocks its caller (see the module's
/// terms), and the guard that flushes it when dropped (keep it until the
/// process ends). The first one made in a process is the one whose dropped
/// lines [`dropped_lines`] counts.
///
/// # Errors
/// When its thread cannot be started.
pub fn non_blocking<W: std::io::Write + Send + 'static>(
    out: W,
) -> std::io::Result<(LogWriter, LogGuard)> {
    let (writer, guard) = LogWriter::new(out)?;
    let _ = WRITER.set(writer.clone());
    Ok((writer, guard))
}

/// The lines the process's log writer dropped because its reader was not
/// keeping up (0 without one).
pub fn dropped_lines() -> u64 {
    WRITER.get().map_or(0, LogWriter::dropped)
}

/// The header that carries the request id back.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Where [`note_route`] writes the route template of the request
/// [`observe`] is timing: a nested router's note comes last and wins, and
/// it is there even when the handler panics.
#[derive(Debug, Clone, Default)]
pub(crate) struct RouteSlot(pub(crate) Arc<Mutex<Option<String>>>);

/// What the route of a request no route took is logged as.
pub const UNMATCHED: &str = "unmatched";

/// A fresh request id: 16 hex digits.
pub(crate) fn next_request_id() -> String {
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
