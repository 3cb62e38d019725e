//! The bot runner: bots move on the server, one match at a time.
//!
//! Terms:
//! - **runner**: one task per match while a bot is to move; it takes the
//!   bot's turn out of the match, works the move out on the hub's threads
//!   for thinking, which run at a lower priority than moves (at most as
//!   many bots think at once as there are cores), and plays it
//!   as any move — stored, then told — until a person must answer or the
//!   match is over.
//! - **kick**: a move that may hand the turn to a bot sets the runner
//!   going; a runner already going is left to go on.
//! - **back-off**: when the store refuses a bot's move though the match can
//!   still be read (a full disk, a lost connection), the runner waits before
//!   trying again — 1 s, then twice as long each time, up to a minute — so
//!   that a failing store is not hammered, and the bot goes on by itself
//!   once the store takes moves again.
//! - **stuck bot**: a bot whose move its game refuses (not because the match
//!   moved on) or whose thinking panicked: a bug, said once in the server's
//!   log; the runner stops rather than run it again and again.

use super::{Hub, Slot};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tabletop::Code;

/// The first wait after the store refused a bot's move.
const BACKOFF_FIRST: Duration = Duration::from_secs(1);

/// The longest wait between tries while the store refuses a bot's move.
const BACKOFF_MOST: Duration = Duration::from_secs(60);

/// How a run of the bots ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ran {
    /// No bot is to move: a person must answer, the match is over, or it
    /// broke (and whoever comes next loads it afresh).
    Idle,
    /// The store refused a bot's move; the match was read again: try later.
    StoreFailed,
    /// The bot's move was refused by its game, or its thinking panicked.
    Stuck,
}

impl Hub {
    /// Sets the bots of `slot` going, unless they already are.
    pub fn kick_bots(self: &Arc<Self>, slot: &Arc<Slot>) {
        if slot.bots_running.swap(true, Ordering::SeqCst) {
            return;
        }
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            let mut wait = BACKOFF_FIRST;
            loop {
                match hub.run_bots(&slot).await {
                    Ran::StoreFailed => {
                        // Still running: the match stays in memory while
                        // its bot waits for the store.
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(BACKOFF_MOST);
                        continue;
                    }
                    Ran::Stuck => {
                        slot.bots_running.store(false, Ordering::SeqCst);
                        break;
                    }
                    Ran::Idle => {}
                }
                slot.bots_running.store(false, Ordering::SeqCst);
                // A person's move may have handed the turn to a bot after
                // the last look and before the flag went down.
                let again = {
                    let live = slot.state.lock().await;
                    let again = !live.broken && live.table.bot_turn().is_some();
                    if !again {
                        // A person is to move (or the match is over): the
                        // position a page shows for a while.
                        hub.kick_chances(&slot, &live);
                    }
                    again
                };
                if !again || slot.bots_running.swap(true, Ordering::SeqCst) {
                    break;
                }
            }
        });
    }

    /// Moves the bots of `slot` until none is to move, the store refuses a
    /// move, or a bot is stuck.
    pub(super) async fn run_bots(&self, slot: &Slot) -> Ran {
        loop {
            let work = {
                let live = slot.state.lock().await;
                if live.broken {
                    return Ran::Idle;
                }
                live.table.bot_turn()
            };
            let Some(work) = work else {
                return Ran::Idle;
            };
            let Ok(permit) = self.thinking.acquire().await else {
                return Ran::Idle;
            };
            let moves = work.moves;
            let thought = self.thinkers.run(work.choose).await;
            drop(permit);
            let Ok(mv) = thought else {
                tracing::error!(match_id = %slot.id, "a bot failed while thinking; the bot stops");
                return Ran::Stuck;
            };
            let mut live = slot.state.lock().await;
            if live.broken {
                return Ran::Idle;
            }
            let played = match live.table.play_bot(moves, &mv) {
                Ok(played) => played,
                // The match moved on while the bot thought: look again.
                Err(e)
                    if matches!(e.code, Code::StaleMove | Code::GameOver | Code::NotYourTurn) =>
                {
                    continue;
                }
                Err(e) => {
                    // The move itself is not logged: it is a player's.
                    tracing::error!(
                        match_id = %slot.id,
                        code = e.code.as_str(),
                        "a bot's move is refused by its game; the bot stops"
                    );
                    return Ran::Stuck;
                }
            };
            match self.commit(slot, &mut live, &played).await {
                Ok(()) => {}
                // Another server stored a move first, and the match was
                // read again: look again.
                Err(e) if e.code == Code::StaleMove => {}
                Err(_) if live.broken => return Ran::Idle,
                Err(_) => return Ran::StoreFailed,
            }
        }
    }
}
