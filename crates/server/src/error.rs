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
            &bytes
        };
        serde_json::from_slice(text)
            .map(JsonBody)
            .map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
    }
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
}
