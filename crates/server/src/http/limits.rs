//! Limits on one request: its body must arrive in time and fit.
//!
//! Terms:
//! - **body timeout** ([`Config::body_timeout`]): a request's whole body
//!   must arrive within this time of its headers, or the request is
//!   answered `408` and its connection closed; a client that sends a body
//!   byte by byte cannot hold a connection open for ever.
//! - **byte-rate floor** ([`BODY_FLOOR`] bytes a second after
//!   [`BODY_GRACE`]): a body must keep arriving at least that fast, or the
//!   request is answered `408` and its connection closed at once, long
//!   before the body timeout: a body sent a byte a second holds its
//!   connection two seconds, not ten.
//! - **reading a body** ([`ReadingBody`]): while its body arrives, a
//!   request is marked so on its connection; when the server is out of
//!   connections, such a connection of the address holding the most may be
//!   closed to make room ([`crate::http::listen`]), as an idle one is.
//! - **body limit** ([`Config::body_limit`]): the largest body accepted;
//!   a larger one is answered `413`.
//!
//! The connection-level limits (how many connections, how long headers may
//! take) are in [`crate::http::listen`].

use crate::config::Config;
use crate::http::error::ApiError;
use axum::body::Body;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a body may take before the byte-rate floor counts.
pub const BODY_GRACE: Duration = Duration::from_secs(2);

/// The fewest bytes a second a body must arrive at, after [`BODY_GRACE`].
pub const BODY_FLOOR: u64 = 1024;

/// The mark a connection gives its requests ([`crate::http::listen`]):
/// the count of its requests whose bodies are being read.
#[derive(Clone, Debug, Default)]
pub struct ReadingBody(pub Arc<AtomicUsize>);

/// Counts one body being read until dropped.
struct Reading(Option<Arc<AtomicUsize>>);

impl Drop for Reading {
    fn drop(&mut self) {
        if let Some(n) = &self.0 {
            n.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Why a body was not read.
enum Unread {
    TooLarge,
    TooSlow,
    Late,
    Broken,
}

/// Reads `body` whole: at most `limit` bytes, within `timeout`, and never
/// slower than the byte-rate floor.
async fn read_body(body: Body, limit: usize, timeout: Duration) -> Result<Bytes, Unread> {
    let start = Instant::now();
    let last = start + timeout;
    let mut body = body.into_data_stream();
    let mut read = Vec::new();
    loop {
        // The floor's deadline: the grace, and a second a floor's worth of
        // bytes received.
        let floor =
            start + BODY_GRACE + Duration::from_secs_f64(read.len() as f64 / BODY_FLOOR as f64);
        let deadline = floor.min(last);
        match tokio::time::timeout_at(deadline.into(), body.next()).await {
            Err(_) if deadline == last => return Err(Unread::Late),
            Err(_) => return Err(Unread::TooSlow),
            Ok(None) => return Ok(Bytes::from(read)),
            Ok(Some(Err(_))) => return Err(Unread::Broken),
            Ok(Some(Ok(data))) => {
                if read.len() + data.len() > limit {
                    return Err(Unread::TooLarge);
                }
                read.extend_from_slice(&data);
            }
        }
    }
}

/// Reads the body of `request` within the body timeout, the byte-rate
/// floor and the limit, then passes the request on with that body.
pub async fn body_in_time(
    State(config): State<Arc<Config>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let reading = parts.extensions.get::<ReadingBody>().map(|r| {
        r.0.fetch_add(1, Ordering::SeqCst);
        Arc::clone(&r.0)
    });
    let held = Reading(reading);
    let read = read_body(body, config.body_limit, config.body_timeout).await;
    drop(held);
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(Unread::TooLarge | Unread::Broken) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is too large (the limit is {} bytes)",
                    config.body_limit
                ),
            )
            .into_response();
        }
        Err(why) => {
            let message = match why {
                Unread::TooSlow => {
                    format!("the request body arrived slower than {BODY_FLOOR} bytes a second")
                }
                _ => format!(
                    "the request body did not arrive within {} s",
                    config.body_timeout.as_secs_f64()
                ),
            };
            let mut answer = ApiError::new(StatusCode::REQUEST_TIMEOUT, message).into_response();
            answer.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            return answer;
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
