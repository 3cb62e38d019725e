//! What a server does on its own: follow the other servers' notices, and
//! expire old unfinished matches.
//!
//! Terms:
//! - **notice**: another server's move or seat claim on the same
//!   PostgreSQL ([`crate::store::Notice`]); a live match here catches up by
//!   reading what it lacks from the store, and tells its watchers.
//! - **resync**: notices may have been missed; every live match is read
//!   again.
//! - **bots of another server**: a match caught up here may have handed
//!   the turn to a bot. The server that took the move moves it; if it has
//!   not within [`BOT_GRACE`] (it died, say), this server does.
//! - **expiry**: unfinished matches untouched for [`UNFINISHED_KEPT`] are
//!   deleted, at start and every hour.
//! - **sweep**: a move's notice is sent in its commit (never committed
//!   untold), but a listener may miss it (its connection dropped and not
//!   yet back); on a shared store, every [`SWEEP_EVERY`] each match watched
//!   here reads the moves it lacks, so its watchers see such a move within
//!   that time.

use super::{Hub, Live, Slot, tell};
use crate::store::{Notice, UNFINISHED_KEPT};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::broadcast;

/// How long a server leaves a bot to the server that handed it the turn
/// before moving it itself.
pub const BOT_GRACE: Duration = Duration::from_secs(2);

/// How often the matches watched here look in a shared store for moves no
/// notice told of.
pub const SWEEP_EVERY: Duration = Duration::from_secs(5);

impl Hub {
    /// Follows the other servers' notices (from `notices`) for as long as
    /// the hub lives. It holds the hub weakly, so a hub its server has
    /// dropped (a test's, a fuzz run's) is freed, and this ends at the
    /// next notice or when the store's notices close.
    pub(super) async fn follow_notices(hub: Weak<Self>, mut notices: broadcast::Receiver<Notice>) {
        loop {
            let notice = notices.recv().await;
            let Some(hub) = hub.upgrade() else {
                return;
            };
            match notice {
                Ok(Notice::Moved { id, moves }) => hub.catch_up(&id, Some(moves)).await,
                Ok(Notice::Seated { id }) => hub.catch_up(&id, None).await,
                Ok(Notice::Resync) | Err(broadcast::error::RecvError::Lagged(_)) => {
                    let ids: Vec<String> = hub.map().keys().cloned().collect();
                    for id in ids {
                        hub.catch_up(&id, None).await;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }

    /// Every [`SWEEP_EVERY`], brings each match with watchers here up to
    /// the store (see the module's terms), for as long as the
    /// hub lives (held weakly, as [`Hub::follow_notices`]).
    pub(super) async fn sweep_watched(hub: Weak<Self>) {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await;
        loop {
            every.tick().await;
            let Some(hub) = hub.upgrade() else {
                return;
            };
            let watched: Vec<String> = hub
                .map()
                .iter()
                .filter(|(_, slot)| slot.changes.receiver_count() > 0)
                .map(|(id, _)| id.clone())
                .collect();
            for id in watched {
                hub.catch_up(&id, Some(u32::MAX)).await;
            }
        }
    }

    /// Brings live match `id` up to the store: the moves it lacks (up to
    /// `moves`), or everything when `moves` is none; then sees that its
    /// bots move ([`BOT_GRACE`]). Matches not in memory are left to be
    /// loaded when asked for.
    async fn catch_up(self: &Arc<Self>, id: &str, moves: Option<u32>) {
        let Some(slot) = self.map().get(id).cloned() else {
            return;
        };
        let mut live = slot.state.lock().await;
        if live.broken {
            return;
        }
        self.read_lacking(&slot, &mut live, moves).await;
        let bot_to_move = live.table.to_move().is_some_and(|seat| {
            live.table
                .seats()
                .get(usize::from(seat).wrapping_sub(1))
                .is_some_and(|kind| kind.is_bot())
        });
        if !live.broken && bot_to_move {
            let moves = live.table.moves();
            drop(live);
            self.kick_bots_later(slot, moves);
        } else {
            // A person is to move: this server's watchers get the
            // position's slow chances too.
            self.kick_chances(&slot, &live);
        }
    }

    /// Reads into `live` the moves of the store it lacks (up to `moves`),
    /// or the whole match again when `moves` is none or they do not fit;
    /// tells its watchers. Marks it broken when the store cannot be read.
    pub(super) async fn read_lacking(&self, slot: &Slot, live: &mut Live, moves: Option<u32>) {
        let have = live.table.moves();
        match moves {
            Some(moves) if moves as usize <= have => {}
            Some(_) => {
                let Ok(rows) = self.db.moves_after(&slot.id, have as u32).await else {
                    self.break_slot(slot, live);
                    return;
                };
                let mut played = Vec::new();
                let mut fits = true;
                for row in rows {
                    match live.table.apply_entry(&row.entry) {
                        Ok(p) => played.push(p),
                        Err(_) => {
                            fits = false;
                            break;
                        }
                    }
                    live.updated_ms = crate::store::touched(
                        live.updated_ms,
                        row.at_ms,
                        live.table.status().is_over(),
                    );
                }
                if fits {
                    // Nothing new (a sweep, a notice overtaken): no change.
                    if !played.is_empty() {
                        tell(slot, live, &played);
                    }
                } else {
                    self.reread(slot, live).await;
                }
            }
            None => self.reread(slot, live).await,
        }
    }

    /// Sets the bots of `slot` going after [`BOT_GRACE`], if the match
    /// still has `moves` moves then (no other server moved its bot).
    fn kick_bots_later(self: &Arc<Self>, slot: Arc<Slot>, moves: usize) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(BOT_GRACE).await;
            let waiting = {
                let live = slot.state.lock().await;
                !live.broken && live.table.moves() == moves
            };
            if waiting {
                hub.kick_bots(&slot);
            }
        });
    }

    /// Deletes unfinished matches untouched for [`UNFINISHED_KEPT`], and
    /// those nobody played in for the store's
    /// [`crate::store::Bounds::unplayed_kept`], now and every hour (or a
    /// quarter of that time, when shorter), for as long as the hub lives (held weakly, as
    /// [`Hub::follow_notices`] holds it).
    pub(super) async fn expire_old(hub: Weak<Self>) {
        loop {
            let Some(hub) = hub.upgrade() else {
                return;
            };
            let now = crate::store::now_ms();
            let before = now - UNFINISHED_KEPT.as_millis() as i64;
            let unplayed = hub.db.bounds().unplayed_kept;
            let unplayed_before = now - unplayed.as_millis() as i64;
            if let Ok(gone) = hub.db.expire(before, unplayed_before).await
                && gone > 0
            {
                tracing::info!(
                    "{} expired",
                    tabletop::count(gone, "unfinished game", "unfinished games")
                );
            }
            drop(hub);
            // Hourly, or more often when unplayed matches are kept less
            // than a few hours.
            let every = (unplayed / 4).clamp(
                std::time::Duration::from_secs(1),
                std::time::Duration::from_secs(60 * 60),
            );
            tokio::time::sleep(every).await;
        }
    }
}
