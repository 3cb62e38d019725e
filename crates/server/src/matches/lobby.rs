//! The lobby: matches with a seat anyone may take, read on request
//! (`GET /api/lobby`) and followed live (`GET /api/lobby/events`).
//!
//! Terms:
//! - **lobby**: the store's newest open matches (at most
//!   [`LOBBY_SIZE`], a few a creator), each with its host's name when the
//!   host gave one.
//! - **feed**: one task a server that reads the lobby from the store once
//!   a [`FEED_EVERY`] while anybody follows it, and tells the followers
//!   when it changed. It reads the store, not this server's memory, so a
//!   game opened through any server of a cluster shows on every one.

use super::LOBBY_SIZE;
use crate::AppState;
use crate::http::error::{ApiError, ApiResult};
use crate::store::{Db, LobbyRow};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;
use std::sync::{Arc, Once};
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// How often the feed reads the lobby while anybody follows it.
pub const FEED_EVERY: Duration = Duration::from_secs(1);

/// The lobby as the API answers it.
#[derive(Serialize)]
struct Lobby {
    matches: Vec<LobbyEntry>,
}

#[derive(Serialize)]
struct LobbyEntry {
    #[serde(flatten)]
    row: LobbyRow,
    url: String,
}

/// The lobby's answer, as JSON text, read from `db`.
async fn read(db: &Db) -> Result<String, ApiError> {
    let rows = db.lobby(LOBBY_SIZE).await?;
    let lobby = Lobby {
        matches: rows
            .into_iter()
            .map(|row| LobbyEntry {
                url: super::page_url(&row.game, &row.id),
                row,
            })
            .collect(),
    };
    serde_json::to_string(&lobby).map_err(|e| {
        ApiError::coded(
            tabletop::Code::ServerError,
            format!("the lobby does not write: {e}"),
        )
    })
}

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

/// The lobby's feed: the newest lobby read, for every follower.
pub struct Feed {
    latest: Arc<watch::Sender<Option<Arc<str>>>>,
    wake: Arc<Notify>,
    started: Once,
    db: Arc<Db>,
    stopping: watch::Receiver<bool>,
}

impl Feed {
    /// A feed that reads `db` until `stopping` turns true.
    pub fn new(db: Arc<Db>, stopping: watch::Receiver<bool>) -> Self {
        Self {
            latest: Arc::new(watch::channel(None).0),
            wake: Arc::new(Notify::new()),
            started: Once::new(),
            db,
            stopping,
        }
    }

    /// Follows the lobby: the receiver changes when it does. The first
    /// follower starts the feed's task (in the current runtime).
    pub fn follow(&self) -> watch::Receiver<Option<Arc<str>>> {
        let changes = self.latest.subscribe();
        self.started.call_once(|| {
            tokio::spawn(run(
                Arc::clone(&self.latest),
                Arc::clone(&self.wake),
                Arc::clone(&self.db),
                self.stopping.clone(),
            ));
        });
        self.wake.notify_one();
        changes
    }
}

/// The feed's task: while anybody follows, reads the lobby every
/// [`FEED_EVERY`] and publishes it when it changed; sleeps while nobody
/// does; ends when the server stops.
async fn run(
    latest: Arc<watch::Sender<Option<Arc<str>>>>,
    wake: Arc<Notify>,
    db: Arc<Db>,
    mut stopping: watch::Receiver<bool>,
) {
    loop {
        if *stopping.borrow() {
            return;
        }
        if latest.receiver_count() == 0 {
            tokio::select! {
                () = wake.notified() => {}
                _ = stopping.changed() => {}
            }
            continue;
        }
        match read(&db).await {
            Ok(text) => {
                latest.send_if_modified(|held| {
                    if held.as_deref() == Some(text.as_str()) {
                        false
                    } else {
                        *held = Some(text.into());
                        true
                    }
                });
            }
            // The followers keep the last list; the next read may work.
            Err(e) => {
                tracing::warn!(target: "parlor::lobby", error = %e.message, "the lobby could not be read")
            }
        }
        tokio::select! {
            () = tokio::time::sleep(FEED_EVERY) => {}
            _ = stopping.changed() => {}
        }
    }
}
