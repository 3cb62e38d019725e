//! Security headers on every answer.
//!
//! Terms:
//! - **CSP** (`Content-Security-Policy`): the pages load scripts, styles,
//!   pictures and API answers from this server only; no inline script or
//!   style runs, no plugin loads, no other site may frame a page
//!   (`frame-ancestors 'none'`) and forms post nowhere else.
//! - **framing**: `X-Frame-Options: DENY` says the same to browsers that
//!   predate `frame-ancestors`, so a page cannot be shown inside another
//!   site's frame (clickjacking).
//! - **nosniff**: `X-Content-Type-Options: nosniff`: a browser takes each
//!   answer's `Content-Type` as given (an SVG or JSON answer is never run
//!   as a script).
//! - **referrer**: `Referrer-Policy: no-referrer`: a link followed from a
//!   page does not tell the next site which game was open.

use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;

/// The policy every answer carries.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers, by name and value.
pub const SECURITY_HEADERS: [(HeaderName, &str); 5] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    ),
];

/// Adds the security headers to `response` (a handler's own value for one
/// of them is replaced: there is one policy).
pub async fn add(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}
