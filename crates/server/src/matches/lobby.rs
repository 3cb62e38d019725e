//! The lobby: matches with a seat anyone may take, read on request
//! (`GET /api/lobby`) and followed live (`GET /api/lobby/events`).
//!
//! The lobby and its feed are the hub's ([`crate::hub::lobby`]); these
//! are its routes.

use crate::http::error::{ApiError, ApiResult};
use crate::hub::lobby::read;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// `GET /api/lobby`: the open matches, newest first.
pub(super) async fn lobby(
    State(state): State<AppState>,
) -> ApiResult<Box<serde_json::value::RawValue>> {
    let text = read(state.hub.db()).await?;
    serde_json::value::RawValue::from_string(text)
        .map(Json)
        .map_err(|e| ApiError::coded(tabletop::Code::ServerError, e.to_string()))
}

/// `GET /api/lobby/events`: the lobby as server-sent events, a `lobby`
/// event with the whole list (as `GET /api/lobby` answers) first and
/// whenever it changes.
pub(super) async fn events(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
) -> Result<Response, ApiError> {
    use futures_util::StreamExt;
    // Counted against its client's streams while it lasts.
    let held = state.streams.open(client.map(|c| c.0))?;
    let changes = state.hub.lobby_feed().follow();
    let first_text = read(state.hub.db()).await?;
    let event = |text: &str| Event::default().event("lobby").data(text);
    let first = event(&first_text).retry(crate::http::health::RECONNECT_AFTER);
    let first = futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(first)));
    // Each list once: the feed's next read may be the list just sent.
    let sent: Arc<str> = first_text.into();
    let rest =
        futures_util::stream::unfold((changes, sent), move |(mut changes, sent)| async move {
            loop {
                changes.changed().await.ok()?;
                let latest = changes.borrow_and_update().clone();
                if let Some(text) = latest.filter(|text| *text != sent) {
                    return Some((Ok(event(&text)), (changes, text)));
                }
            }
        });
    let reconnect = futures_util::stream::once(std::future::ready(Ok(Event::default()
        .retry(crate::http::health::RECONNECT_AFTER)
        .comment("this stream ends here: reconnect"))));
    let stream = first
        .chain(rest)
        .take_until(state.hub.stopped())
        .chain(reconnect)
        .map(move |event| {
            let _held = &held;
            event
        });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
