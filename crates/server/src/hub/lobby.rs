//! The lobby's feed: the store's newest open matches, read while anybody
//! follows them, for every follower of this server.
//!
//! Terms:
//! - **lobby**: the store's newest open matches (at most [`LOBBY_SIZE`],
//!   a few a creator), each with its host's name when the host gave one.
//! - **feed** ([`Feed`]): one task a server that reads the lobby from the
//!   store once a [`FEED_EVERY`] while anybody follows it, and tells the
//!   followers when it changed. It reads the store, not this server's
//!   memory, so a game opened through any server of a cluster shows on
//!   every one.

use crate::http::error::ApiError;
use crate::store::{Db, LobbyRow};
use serde::Serialize;
use std::sync::{Arc, Once};
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// The most matches the lobby lists.
pub const LOBBY_SIZE: u32 = 50;

/// How often the feed reads the lobby while anybody follows it.
pub const FEED_EVERY: Duration = Duration::from_secs(1);

/// A match's page: `/{game}/m/{id}`.
pub(crate) fn page_url(game: &str, id: &str) -> String {
    format!("/{game}/m/{id}")
}

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
pub(crate) async fn read(db: &Db) -> Result<String, ApiError> {
    let rows = db.lobby(LOBBY_SIZE).await?;
    let lobby = Lobby {
        matches: rows
            .into_iter()
            .map(|row| LobbyEntry {
                url: page_url(&row.game, &row.id),
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
