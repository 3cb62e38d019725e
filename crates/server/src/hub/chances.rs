//! Live chances worked out away from the move's path.
//!
//! Terms:
//! - **slow chances**: a game whose chances take a while (an estimate by
//!   playouts) offers their work for a position
//!   ([`games::AnyMatch::chances_work`]); its views carry them only once
//!   worked out, so no move's answer and no change waits for them. Cheap
//!   chances (exact ones) are worked out by the view itself, and offer no
//!   work.
//! - **settled**: the match is on and a person is to move: the position a
//!   page will show for a while. A bot's position is soon gone, and is not
//!   worked out.
//! - **chances runner**: at most one task a match works its chances out,
//!   on the hub's threads for thinking (at a lower priority than moves),
//!   when one is free: while the bots of any match think, it waits
//!   [`BUSY_WAIT`] and looks again, at most [`BUSY_TRIES`] times, then
//!   leaves it to the next settled move. Once worked out, the chances are
//!   kept when the match still stands where they were taken, and the
//!   watchers are told a change with no moves; a newer settled position
//!   is then worked out in turn (a burst of moves supersedes the older
//!   positions rather than queue them).

use super::{Hub, Live, Slot, tell};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long the chances runner waits for a free thread before looking
/// again.
const BUSY_WAIT: Duration = Duration::from_millis(50);

/// How many times the chances runner looks for a free thread before it
/// leaves the position to the next settled move.
const BUSY_TRIES: u32 = 40;

/// True when `live` is on and a person is to move.
fn settled(live: &Live) -> bool {
    if live.broken {
        return false;
    }
    live.table.to_move().is_some_and(|seat| {
        live.table
            .seats()
            .get(usize::from(seat).wrapping_sub(1))
            .is_some_and(|kind| !kind.is_bot())
    })
}

impl Hub {
    /// Sets the chances of `slot`'s position (`live`, locked by the caller)
    /// being worked out, when they are slow, not yet known and the position
    /// is settled, unless a runner already goes (it looks again when done).
    pub(super) fn kick_chances(self: &Arc<Self>, slot: &Arc<Slot>, live: &Live) {
        if slot.chances_running.load(Ordering::SeqCst) || !settled(live) {
            return;
        }
        let Some(work) = live.table.chances_work() else {
            return;
        };
        if slot.chances_running.swap(true, Ordering::SeqCst) {
            return;
        }
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move { hub.run_chances(&slot, work).await });
    }

    /// Works out `work` and every settled position after it that lacks its
    /// chances, one at a time; puts the runner's flag down under the
    /// match's lock once there is nothing left (or no thread was free).
    async fn run_chances(&self, slot: &Slot, mut work: games::ChancesWork) {
        loop {
            let mut tries = 0;
            let permit = loop {
                if let Ok(permit) = self.thinking.try_acquire() {
                    break Some(permit);
                }
                tries += 1;
                if tries >= BUSY_TRIES {
                    break None;
                }
                tokio::time::sleep(BUSY_WAIT).await;
            };
            let Some(permit) = permit else {
                // Left to the next settled move.
                slot.chances_running.store(false, Ordering::SeqCst);
                return;
            };
            let worked = self.thinkers.run(work.work).await;
            drop(permit);
            let mut live = slot.state.lock().await;
            match worked {
                Ok(chances) => {
                    if live.table.keep_chances(work.moves, chances) {
                        tell(slot, &live, &[]);
                    }
                }
                Err(why) => {
                    tracing::error!(match_id = %slot.id, why, "a position's chances were not worked out");
                    slot.chances_running.store(false, Ordering::SeqCst);
                    return;
                }
            }
            let next = if settled(&live) {
                live.table.chances_work()
            } else {
                None
            };
            match next {
                Some(next) => work = next,
                None => {
                    slot.chances_running.store(false, Ordering::SeqCst);
                    return;
                }
            }
            drop(live);
        }
    }
}
