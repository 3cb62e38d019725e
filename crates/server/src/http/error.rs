//! Errors as the API sends them, and the JSON body extractor.
//!
//! Terms:
//! - **API error** ([`ApiError`]): an HTTP status (always 4xx for a bad
//!   request), a **code** — a stable, machine-readable name for the kind of
//!   refusal (`not_your_turn`, `bad_json`, …; every code is listed in
//!   `docs/api.md`) — and a message for a person, sent as
//!   `{"error": {"code": "...", "message": "..."}}`.
//! - **coded error**: a library error that names its own code
//!   ([`tabletop::play::Coded`]); it becomes an API error by `From`, with
//!   the status its code calls for ([`status_of`]).
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
use tabletop::Code;
use tabletop::play::Coded;

/// An error the API answers with: a status, a code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status: always its code's ([`status_of`]).
    pub status: StatusCode,
    /// The kind of refusal, for programs (see `docs/api.md`).
    pub code: Code,
    /// What went wrong, for a person.
    pub message: String,
    /// How long the refusal may last, in seconds: sent as `Retry-After`
    /// (rate limits, quotas, a full store).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// 400 `bad_request`: the request is malformed or asks for something
    /// illegal.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404 `not_found`: no such thing (match, board, grid, page).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 409 `conflict`: the request is well formed but the state refuses it.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    /// 422 `invalid`: the request is well formed but its content is invalid
    /// (a board file that does not parse, a grid that breaks a rule).
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// An error of the code that `status` stands for ([`code_of`]).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self::coded(code_of(status), message)
    }

    /// An error with its own code, answered with the code's status.
    pub fn coded(code: Code, message: impl Into<String>) -> Self {
        Self {
            status: status_of(code),
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same error under another code (and that code's status).
    #[must_use]
    pub fn with_code(mut self, code: Code) -> Self {
        self.code = code;
        self.status = status_of(code);
        self
    }

    /// The same error, saying it may last `seconds` (at least 1):
    /// answered with `Retry-After`.
    #[must_use]
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// A library's coded refusal, with the status its code calls for.
    pub fn from_coded(e: &(impl Coded + std::fmt::Display)) -> Self {
        Self::coded(e.code(), e.to_string())
    }
}

/// The code an error of `status` has when nothing more precise is known.
pub fn code_of(status: StatusCode) -> Code {
    match status.as_u16() {
        400 => Code::BadRequest,
        401 => Code::NoToken,
        403 => Code::Forbidden,
        404 => Code::NotFound,
        405 => Code::MethodNotAllowed,
        408 => Code::BodyTimeout,
        409 => Code::Conflict,
        413 => Code::TooLarge,
        415 => Code::NotJson,
        422 => Code::Invalid,
        429 => Code::TooMany,
        503 => Code::Busy,
        507 => Code::StorageFull,
        _ if status.is_server_error() => Code::ServerError,
        _ => Code::BadRequest,
    }
}

/// The status a refusal of `code` is answered with ([`Code::status`]).
pub fn status_of(code: Code) -> StatusCode {
    StatusCode::from_u16(code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorFields<'a>,
}

#[derive(Serialize)]
struct ErrorFields<'a> {
    code: &'a str,
    message: &'a str,
}

/// The code of a refusal (`429`, `503`, `507`: the server would not do it
/// now), carried on the answer for the request log and metrics
/// ([`crate::http::log`]): one of the API's fixed codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused(pub Code);

/// Whether an answer with `status` is a refusal ([`Refused`]).
pub fn is_refusal(status: StatusCode) -> bool {
    matches!(status.as_u16(), 429 | 503 | 507)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = self.retry_after;
        let mut response = (
            self.status,
            Json(ErrorBody {
                error: ErrorFields {
                    code: self.code.as_str(),
                    message: &self.message,
                },
            }),
        )
            .into_response();
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        if is_refusal(self.status) {
            response.extensions_mut().insert(Refused(self.code));
        }
        response
    }
}

impl<E: Coded + std::fmt::Display> From<tabletop::play::MatchError<E>> for ApiError {
    fn from(e: tabletop::play::MatchError<E>) -> Self {
        Self::from_coded(&e)
    }
}

impl<E: Coded + std::fmt::Display> From<tabletop::play::StartError<E>> for ApiError {
    fn from(e: tabletop::play::StartError<E>) -> Self {
        Self::from_coded(&e)
    }
}

impl From<games::Refusal> for ApiError {
    fn from(e: games::Refusal) -> Self {
        Self::from_coded(&e)
    }
}

impl From<tabletop::play::ReplayError> for ApiError {
    fn from(e: tabletop::play::ReplayError) -> Self {
        Self::from_coded(&e)
    }
}

impl From<crate::random::NoRandomness> for ApiError {
    fn from(e: crate::random::NoRandomness) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string())
    }
}

impl From<crate::store::DbError> for ApiError {
    fn from(e: crate::store::DbError) -> Self {
        use crate::store::DbError;
        let code = match &e {
            DbError::Stale { .. } => Code::StaleMove,
            DbError::NoMatch => Code::NoMatch,
            DbError::Full => Code::StorageFull,
            DbError::ReadOnly => Code::StoreReadOnly,
            DbError::Unavailable(_) | DbError::Incompatible(_) | DbError::TimedOut { .. } => {
                Code::StoreUnavailable
            }
            DbError::Damaged(_) => Code::DamagedRecord,
            DbError::AtCapacity { .. } => Code::StoreAtCapacity,
            DbError::Quota { .. } => Code::MatchQuota,
            DbError::NotOwner => Code::NotOwner,
            DbError::GridQuota { whole: false, .. } => Code::GridQuota,
            DbError::GridQuota { whole: true, .. } => Code::StorageFull,
        };
        let message = match &e {
            DbError::Stale { now } => {
                format!("the game has moved on: it now has {now} moves (reload to see the latest)")
            }
            DbError::NoMatch => "no such game (it may have expired)".to_string(),
            DbError::Full => "cannot store this: the server's disk is full".to_string(),
            DbError::ReadOnly => "cannot store this: the server's store is read-only".to_string(),
            DbError::Damaged(what) => format!("this record is damaged in the server's store ({what}): it is lost, and asking again will not bring it back"),
            DbError::AtCapacity { retry_after } => format!(
                "the server holds {} unfinished games, its most; the first of them expires in {}, or sooner when some end",
                crate::store::MAX_UNFINISHED,
                in_time(*retry_after)
            ),
            DbError::Quota {
                limit,
                by,
                retry_after,
                unplayed_kept,
            } => format!(
                "{limit} unfinished games were made from this {by}, the most one {by} may have; finish some (a game nobody plays in ends after {}), or try again in {}",
                in_time(*unplayed_kept),
                in_time(*retry_after)
            ),
            DbError::NotOwner => "this grid was saved by someone else: you may open it and save a copy under another name, not replace or delete it".to_string(),
            DbError::GridQuota { limit, whole: false, network: false } => format!(
                "you (this address, or the token you showed) have saved {limit} grids, the most one may; delete some of yours first"
            ),
            DbError::GridQuota { limit, whole: false, network: true } => format!(
                "the addresses of your network have saved {limit} grids, the most one network may; delete some first"
            ),
            DbError::GridQuota { limit, whole: true, .. } => format!(
                "the server holds {limit} saved grids, its most; a grid must be deleted before another is saved"
            ),
            other => format!("cannot store this now: {other}; try again in a moment"),
        };
        let retry_after = match &e {
            DbError::AtCapacity { retry_after } | DbError::Quota { retry_after, .. } => {
                Some(*retry_after)
            }
            DbError::Unavailable(_) | DbError::TimedOut { .. } => {
                Some(crate::http::health::RETRY_AFTER_SECONDS)
            }
            _ => None,
        };
        let error = Self::coded(code, message);
        match retry_after {
            Some(seconds) => error.with_retry_after(seconds),
            None => error,
        }
    }
}

/// `seconds` in words: `45 s`, `12 min`, `5 h`, `30 days` (rounded up).
pub fn in_time(seconds: u64) -> String {
    match seconds {
        0..=90 => format!("{} s", seconds.max(1)),
        91..=5_400 => format!("{} min", seconds.div_ceil(60)),
        5_401..=172_800 => format!("{} h", seconds.div_ceil(3_600)),
        _ => format!("{} days", seconds.div_ceil(86_400)),
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
                return Err(
                    ApiError::bad_request("bad JSON body: expected a JSON object `{...}`")
                        .with_code(Code::BadJson),
                );
            }
            &bytes
        };
        serde_json::from_slice(text).map(JsonBody).map_err(|e| {
            ApiError::bad_request(format!("bad JSON body: {}", in_words(&e)))
                .with_code(Code::BadJson)
        })
    }
}

/// `application/json` in any case (media types are case-insensitive),
/// with or without parameters (`; charset=utf-8`).
pub(crate) fn is_json_type(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
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

    /// docs/api.md's table of error codes lists every code with the status
    /// it is answered with, and no code that is not one.
    #[test]
    fn the_documented_codes_are_the_codes() {
        let doc = include_str!("../../../../docs/api.md");
        let table = doc
            .split("## Error codes")
            .nth(1)
            .expect("docs/api.md has its Error codes section");
        let mut documented = std::collections::HashMap::new();
        for row in table.lines().filter(|l| l.starts_with("| ")) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let Ok(status) = cells[1].parse::<u16>() else {
                continue;
            };
            for code in cells[2].split(',') {
                let code = code.trim().trim_matches('`');
                documented.insert(code.to_string(), status);
            }
        }
        for code in tabletop::Code::ALL {
            assert_eq!(
                documented.get(code.as_str()),
                Some(&code.status()),
                "{code} is documented with its status {}",
                code.status()
            );
        }
        for code in documented.keys() {
            assert!(
                tabletop::Code::ALL.iter().any(|c| c == code.as_str()),
                "docs/api.md lists {code}, which is no code"
            );
        }
    }

    #[test]
    fn errors_have_their_status_and_message() {
        let e = ApiError::not_found("no game abc");
        assert_eq!(e.status, StatusCode::NOT_FOUND);
        assert_eq!(e.code, "not_found");
        assert_eq!(e.to_string(), "404 Not Found not_found: no game abc");
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
