//! Errors as the API sends them, and the JSON body extractor.
//!
//! Terms:
//! - **API error** ([`ApiError`]): an HTTP status (always 4xx for a bad
//!   request) and a message, sent as `{"error": "..."}`.
//! - **JSON body** ([`JsonBody`]): a request body read as JSON; a body that is
//!   too large, not JSON, or the wrong shape becomes an API error, never a
//!   panic or a 500.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// An error the API answers with: a status and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed or asks for something illegal.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such thing (game, board, grid, page).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request is well formed but the game's state refuses it (a
    /// move after the game is over, an edit the rules forbid).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    /// 422: the request is well formed but its content is invalid (a board
    /// file that does not parse, a grid that breaks a rule).
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: &self.message,
            }),
        )
            .into_response()
    }
}

/// What every handler returns.
pub type ApiResult<T> = Result<Json<T>, ApiError>;

/// A JSON request body. An empty body reads as `{}` so that requests whose
/// fields are all optional need no body at all.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).to_ascii_lowercase());
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            let status = rejection.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(status, "the request body is too large")
            } else {
                ApiError::new(status, rejection.body_text())
            }
        })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            // A body must say it is JSON: a form or a text/plain post, which
            // any web page may send here without asking, is refused.
            if !content_type.as_deref().is_some_and(is_json_type) {
                return Err(ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!(
                        "a request body is JSON, sent with Content-Type: application/json (not {})",
                        content_type.as_deref().unwrap_or("no Content-Type")
                    ),
                ));
            }
            // Every request body is an object: serde would read `[]` as
            // a struct with every field left out.
            if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
                return Err(ApiError::bad_request(
                    "bad JSON body: expected a JSON object `{...}`",
                ));
            }
            &bytes
        };
        serde_json::from_slice(text)
            .map(JsonBody)
            .map_err(|e| ApiError::bad_request(format!("bad JSON body: {}", in_words(&e))))
    }
}

/// `application/json`, with or without parameters (`; charset=utf-8`).
pub(crate) fn is_json_type(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|media| media.trim() == "application/json")
}

/// serde's message with Rust's type names said in words: `expected u32`
/// becomes `expected a whole number from 0 to 4294967295`, `expected struct
/// Shot` becomes `expected a JSON object`.
fn in_words(error: &serde_json::Error) -> String {
    let mut text = error.to_string();
    let numbers = [
        ("usize", u64::MAX),
        ("u64", u64::MAX),
        ("u32", u64::from(u32::MAX)),
        ("u16", u64::from(u16::MAX)),
        ("u8", u64::from(u8::MAX)),
    ];
    for (name, max) in numbers {
        let rust = format!("expected {name}");
        if let Some(at) = text.find(&rust) {
            let end = at + rust.len();
            // Only the whole word: `u8` must not match inside `u80`.
            if !text[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                text.replace_range(at..end, &format!("expected a whole number from 0 to {max}"));
            }
        }
    }
    if let Some(at) = text.find("expected struct ") {
        let name_start = at + "expected struct ".len();
        let name_end = text[name_start..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .map_or(text.len(), |n| name_start + n);
        text.replace_range(at..name_end, "expected a JSON object");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_their_status_and_message() {
        let e = ApiError::not_found("no game abc");
        assert_eq!(e.status, StatusCode::NOT_FOUND);
        assert_eq!(e.to_string(), "404 Not Found: no game abc");
        assert_eq!(ApiError::bad_request("x").status, StatusCode::BAD_REQUEST);
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Shot {
        hole: u32,
        small: Option<u8>,
    }

    fn refusal(json: &str) -> String {
        let e = serde_json::from_str::<Shot>(json).unwrap_err();
        in_words(&e)
    }

    #[test]
    fn serde_messages_say_rust_types_in_words() {
        let big = refusal(r#"{"hole": 99999999999}"#);
        assert!(
            big.contains("expected a whole number from 0 to 4294967295"),
            "{big}"
        );
        assert!(!big.contains("u32"), "{big}");
        let negative = refusal(r#"{"hole": -1}"#);
        assert!(
            negative.contains("integer `-1`, expected a whole number from 0 to"),
            "{negative}"
        );
        let small = refusal(r#"{"hole": 1, "small": 300}"#);
        assert!(small.contains("from 0 to 255"), "{small}");
        let array = refusal("null");
        assert!(array.contains("expected a JSON object"), "{array}");
        assert!(!array.contains("Shot"), "{array}");
    }
}
