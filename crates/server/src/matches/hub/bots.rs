//! The bot runner: bots move on the server, one match at a time.
//!
//! Terms:
//! - **runner**: one task per match while a bot is to move; it takes the
//!   bot's turn out of the match, works the move out on the blocking pool
//!   (at most as many bots think at once as there are cores), and plays it
//!   as any move — stored, then told — until a person must answer or the
//!   match is over.
//! - **kick**: a move that may hand the turn to a bot sets the runner
//!   going; a runner already going is left to go on.

use super::{Hub, Slot};
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Hub {
    /// Sets the bots of `slot` going, unless they already are.
    pub fn kick_bots(self: &Arc<Self>, slot: &Arc<Slot>) {
        if slot.bots_running.swap(true, Ordering::SeqCst) {
            return;
        }
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            loop {
                hub.run_bots(&slot).await;
                slot.bots_running.store(false, Ordering::SeqCst);
                // A person's move may have handed the turn to a bot after
                // the last look and before the flag went down.
                let again = {
                    let live = slot.state.lock().await;
                    !live.broken && live.table.bot_turn().is_some()
                };
                if !again || slot.bots_running.swap(true, Ordering::SeqCst) {
                    break;
                }
            }
        });
    }

    pub(super) async fn run_bots(&self, slot: &Slot) {
        loop {
            let work = {
                let live = slot.state.lock().await;
                if live.broken {
                    return;
                }
                live.table.bot_turn()
            };
            let Some(work) = work else { return };
            let Ok(permit) = self.thinking.acquire().await else {
                return;
            };
            let moves = work.moves;
            let Ok(mv) = tokio::task::spawn_blocking(work.choose).await else {
                return;
            };
            drop(permit);
            let mut live = slot.state.lock().await;
            if live.broken {
                return;
            }
            let Ok(played) = live.table.play_bot(moves, &mv) else {
                // The match moved on while the bot thought: look again.
                continue;
            };
            if self.commit(slot, &mut live, &played).await.is_err() {
                return;
            }
        }
    }
}
