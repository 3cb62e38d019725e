//! The check on requests that change something: they must come from this
//! server's own pages (or from a program), and say they carry JSON.
//!
//! Terms:
//! - **state-changing request**: `POST`, `PUT`, `PATCH` or `DELETE` under
//!   `/api`: it makes, plays, edits, saves or ends something.
//! - **cross-origin request**: one a browser sends for a page of another
//!   site. The browser names that page's site in `Origin` (and says
//!   `Sec-Fetch-Site: cross-site`); a state-changing one is refused with a
//!   403, so another page cannot start, play or evict your games. A request
//!   with no `Origin` comes from a program (curl, a test), not from a page,
//!   and is let in: such a program can reach the port anyway.
//! - **JSON content type**: a `POST`, `PUT` or `PATCH` must be sent with
//!   `Content-Type: application/json`, even with an empty body. A page can
//!   send a form or `text/plain` anywhere without asking; it cannot send
//!   JSON to another site without the browser asking this server first,
//!   which it does not allow.

use crate::http::error::ApiError;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Refuses a state-changing API request from another site, or without a
/// JSON content type; lets every other request through.
pub async fn check(request: Request, next: Next) -> Response {
    match refusal(&request) {
        Some(error) => error.into_response(),
        None => next.run(request).await,
    }
}

/// Why `request` is refused, if it is.
fn refusal(request: &Request) -> Option<ApiError> {
    let path = request.uri().path();
    let method = request.method();
    let changes = [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(method);
    if !changes || !(path == "/api" || path.starts_with("/api/")) {
        return None;
    }
    let headers = request.headers();
    let text = |name| {
        headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_string())
    };
    let host = text(header::HOST).or_else(|| request.uri().authority().map(|a| a.to_string()));
    if let Some(origin) = text(header::ORIGIN) {
        let same = host.as_deref().is_some_and(|host| {
            origin_authority(&origin).is_some_and(|o| o.eq_ignore_ascii_case(host))
        });
        if !same {
            return Some(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "a {method} from a page of another site ({origin}) is refused: only this \
                     server's own pages ({}) may change games, boards and designs",
                    host.map_or_else(|| "this server".to_string(), |h| format!("http://{h}"))
                ),
            ));
        }
    } else if text(axum::http::HeaderName::from_static("sec-fetch-site"))
        .is_some_and(|site| site.eq_ignore_ascii_case("cross-site"))
    {
        return Some(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("a {method} from a page of another site is refused"),
        ));
    }
    let needs_json = *method != Method::DELETE;
    let content_type = text(header::CONTENT_TYPE);
    if needs_json
        && !content_type
            .as_deref()
            .is_some_and(crate::http::error::is_json_type)
    {
        return Some(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "a {method} is sent with Content-Type: application/json, even with an empty \
                 body (not {})",
                content_type.as_deref().unwrap_or("no Content-Type")
            ),
        ));
    }
    None
}

/// `host[:port]` of an origin `scheme://host[:port]`; `None` for `null` or
/// anything else that is not an origin.
fn origin_authority(origin: &str) -> Option<&str> {
    let (scheme, rest) = origin.split_once("://")?;
    let authority = match scheme.to_ascii_lowercase().as_str() {
        "http" => rest.strip_suffix(":80").unwrap_or(rest),
        "https" => rest.strip_suffix(":443").unwrap_or(rest),
        _ => return None,
    };
    (!authority.is_empty() && !authority.contains('/')).then_some(authority)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_name_their_authority() {
        assert_eq!(
            origin_authority("http://127.0.0.1:8080"),
            Some("127.0.0.1:8080")
        );
        assert_eq!(origin_authority("http://localhost:80"), Some("localhost"));
        assert_eq!(
            origin_authority("https://evil.example"),
            Some("evil.example")
        );
        assert_eq!(origin_authority("null"), None);
        assert_eq!(origin_authority("file://"), None);
        assert_eq!(origin_authority("http://a/b"), None);
    }
}
