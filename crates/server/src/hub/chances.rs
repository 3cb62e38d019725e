//! Live chances, and a game's own live figures (Baffle's count of the
//! layouts that still fit), worked out away from the move's path.
//!
//! Terms:
//! - **slow chances**: a game whose chances take a while (an estimate by
//!   playouts) offers their work for a position
//!   ([`games::AnyMatch::chances_work`]); its views carry them only once
//!   worked out, so no move's answer and no change waits for them. Cheap
//!   chances (exact ones) are worked out by the view itself, and offer no
//!   work.
//! - **own figures**: a game's figures that its views show once worked
//!   out ([`games::AnyMatch::figures_work`]): the work fills a memo the
//!   game shares, views carry what it holds, and the watchers are told a
//!   change with no moves. Worked out for a settled position, and for the
//!   last one once the match is over.
//! - **settled**: the match is on and a person is to move: the position a
//!   page will show for a while. A bot's position is soon gone, and is not
//!   worked out.
//! - **looked at**: someone on this server follows the match's stream,
//!   or has just asked for its view. Only a position looked at is worked
//!   out: behind a balancer a match's moves may reach one server and its
//!   stream another, and the server with no one to tell does no work (the
//!   other reads the move from the shared store and works it out).
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

/// What a runner works out for a position (see the module's terms).
enum Work {
    /// Its chances, kept with the match once worked out.
    Chances(games::ChancesWork),
    /// Its own figures, which fill the game's shared memo.
    Figures {
        moves: usize,
        work: tabletop::play::FiguresWork,
    },
}

/// The work `live`'s position lacks: its chances or its own figures when
/// it is settled, its own figures once the match is over (the final
/// position's).
fn work_for(live: &Live) -> Option<Work> {
    if live.broken {
        return None;
    }
    let figures = || {
        live.table
            .figures_work()
            .map(|(moves, work)| Work::Figures { moves, work })
    };
    if settled(live) {
        live.table
            .chances_work()
            .map(Work::Chances)
            .or_else(figures)
    } else if live.table.status().is_over() {
        figures()
    } else {
        None
    }
}

/// True when someone on this server follows `slot`'s stream.
fn watched(slot: &Slot) -> bool {
    slot.changes.receiver_count() > 0
}

impl Hub {
    /// Sets what `slot`'s position (`live`, locked by the caller) lacks
    /// being worked out, when it is slow, not yet known, the position
    /// settled (or the match over) and someone here follows the match
    /// (see **looked at**), unless a runner already goes (it looks again
    /// when done).
    pub(super) fn kick_chances(self: &Arc<Self>, slot: &Arc<Slot>, live: &Live) {
        if watched(slot) {
            self.kick_chances_asked(slot, live);
        }
    }

    /// [`Hub::kick_chances`] for a view just asked for, watched or not.
    pub(super) fn kick_chances_asked(self: &Arc<Self>, slot: &Arc<Slot>, live: &Live) {
        slot.chances_asked
            .store(live.table.moves() + 1, Ordering::SeqCst);
        if slot.chances_running.load(Ordering::SeqCst) {
            return;
        }
        let Some(work) = work_for(live) else {
            return;
        };
        if slot.chances_running.swap(true, Ordering::SeqCst) {
            return;
        }
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move { hub.run_chances(&slot, work).await });
    }

    /// [`Hub::kick_chances`] for a match just made or loaded, once its
    /// lock is free (its first position's figures).
    pub(super) fn kick_chances_soon(self: &Arc<Self>, slot: &Arc<Slot>) {
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            let live = slot.state.lock().await;
            hub.kick_chances(&slot, &live);
        });
    }

    /// Works out `work` and every position after it that lacks its
    /// chances or figures, one at a time; puts the runner's flag down under
    /// the match's lock once there is nothing left (or no thread was free).
    async fn run_chances(&self, slot: &Slot, mut work: Work) {
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
            let worked = match work {
                Work::Chances(chances) => {
                    let moves = chances.moves;
                    self.thinkers
                        .run(chances.work)
                        .await
                        .map(|answer| (moves, Some(answer)))
                }
                Work::Figures { moves, work } => {
                    self.thinkers.run(work).await.map(|()| (moves, None))
                }
            };
            drop(permit);
            let figures_done = match &worked {
                Ok((moves, None)) => Some(*moves),
                _ => None,
            };
            let mut live = slot.state.lock().await;
            match worked {
                Ok((moves, Some(chances))) => {
                    if live.table.keep_chances(moves, chances) {
                        tell(slot, &live, &[]);
                    }
                }
                Ok((moves, None)) => {
                    // The memo is filled: views of the same position now
                    // carry the figures.
                    if live.table.moves() == moves {
                        tell(slot, &live, &[]);
                    }
                }
                Err(why) => {
                    tracing::error!(match_id = %slot.id, why, "a position's chances were not worked out");
                    slot.chances_running.store(false, Ordering::SeqCst);
                    return;
                }
            }
            // Figures just worked out for this very position that are still
            // lacking (the memo kept too little) are not worked out again.
            // Gone on with only while looked at (the lock is held, so a
            // view asked for meanwhile has named its position).
            let asked = slot.chances_asked.load(Ordering::SeqCst) == live.table.moves() + 1;
            let next =
                work_for(&live)
                    .filter(|_| asked || watched(slot))
                    .filter(|next| match next {
                        Work::Figures { moves, .. } => figures_done != Some(*moves),
                        Work::Chances(_) => true,
                    });
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
