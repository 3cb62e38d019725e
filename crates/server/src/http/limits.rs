//! Limits on one request: its body must arrive in time and fit.
//!
//! Terms:
//! - **body timeout** ([`Config::body_timeout`]): a request's whole body
//!   must arrive within this time of its headers, or the request is
//!   answered `408` and its connection closed; a client that sends a body
//!   byte by byte cannot hold a connection open for ever.
//! - **body limit** ([`Config::body_limit`]): the largest body accepted;
//!   a larger one is answered `413`.
//!
//! The connection-level limits (how many connections, how long headers may
//! take) are in [`crate::http::listen`].

use crate::Config;
use crate::http::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Reads the body of `request` within the body timeout and limit, then
/// passes the request on with that body.
pub async fn body_in_time(
    State(config): State<Arc<Config>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, config.body_limit);
    let bytes = match tokio::time::timeout(config.body_timeout, read).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is too large (the limit is {} bytes)",
                    config.body_limit
                ),
            )
            .into_response();
        }
        Err(_) => {
            let mut answer = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    config.body_timeout.as_secs_f64()
                ),
            )
            .into_response();
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
