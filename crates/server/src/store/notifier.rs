//! Tells the other servers of moves after they are committed, not inside
//! the moves' transactions.
//!
//! Terms:
//! - **pending**: for each match moved since the last send, the highest
//!   move number committed (a newer move replaces an older one: a follower
//!   catches up from the store by number, so the newest number is all it
//!   needs).
//! - **send**: one statement on the notifier's own connection, one
//!   `pg_notify` per pending match, so one notifying commit carries every
//!   move committed meanwhile. PostgreSQL serialises commits that notify;
//!   moves' own commits no longer do (docs/performance.md, issue 34 part 3).
//! - **retry**: a send that fails puts its notices back and is tried again
//!   on a new connection; a notice is never older than what it replaced.
//!   A server that dies between a commit and its send leaves the others to
//!   catch up at their next notice of that match, or at their sweep of the
//!   matches watched on them (`matches::hub::follow`, every 5 s).

use super::Notice;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{Client, Config, NoTls};

/// Matches moved and not yet told, by id: their newest move number.
type Pending = Arc<Mutex<HashMap<String, u32>>>;

/// The notifier's handle: moves committed go in, a task of its own sends
/// them. Dropping it ends the task once it has sent what is pending.
pub(super) struct Notifier {
    pending: Pending,
    wake: mpsc::Sender<()>,
}

impl Notifier {
    /// Starts the task sending on `channel` for the server `origin`.
    pub(super) fn start(config: Config, channel: &'static str, origin: String) -> Self {
        let pending = Pending::default();
        // One wake-up waiting is enough: the task takes everything pending.
        let (wake, woken) = mpsc::channel(1);
        tokio::spawn(send_for_ever(
            config,
            channel,
            origin,
            Arc::clone(&pending),
            woken,
        ));
        Self { pending, wake }
    }

    /// Match `id` now holds `moves` moves, committed.
    pub(super) fn moved(&self, id: &str, moves: u32) {
        put(&self.pending, id, moves);
        let _ = self.wake.try_send(());
    }
}

/// Records `moves` for `id` unless a newer number is pending.
fn put(pending: &Pending, id: &str, moves: u32) {
    let mut pending = pending.lock().unwrap_or_else(PoisonError::into_inner);
    match pending.get_mut(id) {
        Some(have) => *have = (*have).max(moves),
        None => {
            pending.insert(id.to_string(), moves);
        }
    }
}

/// How long a failed send waits before it is tried again.
const RETRY: Duration = Duration::from_millis(200);

/// Waits for moves and sends them, until the handle is dropped.
async fn send_for_ever(
    config: Config,
    channel: &'static str,
    origin: String,
    pending: Pending,
    mut woken: mpsc::Receiver<()>,
) {
    let mut client: Option<Client> = None;
    let mut open = true;
    while open {
        open = woken.recv().await.is_some();
        loop {
            let batch: Vec<(String, u32)> =
                std::mem::take(&mut *pending.lock().unwrap_or_else(PoisonError::into_inner))
                    .into_iter()
                    .collect();
            if batch.is_empty() {
                break;
            }
            let payloads: Vec<String> = batch
                .iter()
                .map(|(id, moves)| {
                    Notice::Moved {
                        id: id.clone(),
                        moves: *moves,
                    }
                    .payload(&origin)
                })
                .collect();
            let sent = match send(&mut client, &config, channel, &payloads).await {
                Ok(()) => true,
                Err(e) => {
                    tracing::warn!(error = %e, "store: notifying the other servers failed");
                    client = None;
                    false
                }
            };
            if !sent {
                for (id, moves) in &batch {
                    put(&pending, id, *moves);
                }
                if !open {
                    return;
                }
                tokio::time::sleep(RETRY).await;
            }
        }
    }
}

/// One statement: a notice per payload, in one transaction of its own.
async fn send(
    client: &mut Option<Client>,
    config: &Config,
    channel: &str,
    payloads: &[String],
) -> Result<(), tokio_postgres::Error> {
    if client.as_ref().is_none_or(Client::is_closed) {
        let (made, connection) = config.connect(NoTls).await?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        *client = Some(made);
    }
    let Some(conn) = client.as_ref() else {
        return Ok(());
    };
    conn.execute(
        "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload",
        &[&channel, &payloads],
    )
    .await
    .map(|_| ())
}
