//! What a viewer is sent: the table's view with the match's seats, and
//! the changes watchers are told of — the protocol's types
//! ([`games::protocol`]).
//!
//! Terms:
//! - **whole view**: the game's view for a seat or a spectator, with the
//!   match's id, each seat's state (here, open, anyone, taken), which
//!   seats the asker holds, and when an unfinished match expires.
//! - **change**: the moves just played and the spectator's whole view,
//!   written once for every watcher.
//! - **compact view**: a move's answer by default: the view without what
//!   no move changes and without the log, whose new lines are the played
//!   moves' events; so its size does not grow with the match. Its
//!   `compact.log_after` is the move number the mover sent, for making the
//!   view whole again (docs/api.md).

use super::{Change, Holder, Live, Slot};
use crate::http::error::ApiError;
use games::Played;
use games::protocol::{
    self, CompactMark, LogLine, MatchFixed, MatchView, Position, ResultView, SeatResult, SeatState,
    SeatView,
};
use std::sync::Arc;
use tabletop::Code;
use tabletop::play::Viewer;

/// Tells the watchers of `slot` of a change (when anyone watches). The
/// moves are played and stored by then: a change that does not write is
/// logged as the fault it is, and the watchers' pages catch up at their
/// next change or reconnection.
pub(super) fn tell(slot: &Slot, live: &Live, played: &[Played]) {
    if slot.changes.receiver_count() > 0 {
        match change(&slot.id, live, played) {
            Ok(change) => {
                let _ = slot.changes.send(Arc::new(change));
            }
            Err(e) => tracing::error!(error = %e, "a match's change could not be told"),
        }
    }
}

/// The change after `played`, written once for every watcher.
///
/// # Errors
/// `server_error` when it does not write.
pub(super) fn change(id: &str, live: &Live, played: &[Played]) -> Result<Change, ApiError> {
    let change = protocol::Change {
        // Every watcher is told a move as the mover's rivals are.
        played: played.iter().map(Played::for_others).collect(),
        view: whole(id, live, Holder::default())?,
    };
    let json = serde_json::to_string(&change).map_err(|e| {
        ApiError::from(games::Refusal::new(
            Code::ServerError,
            format!("a match's change could not be written: {e}"),
        ))
    })?;
    Ok(Change {
        moves: live.table.moves(),
        json,
    })
}

/// Whose eyes `holder` sees the match through: the seat to move when it
/// holds it, else its first seat, else a spectator's.
pub(super) fn viewer_of(live: &Live, holder: Holder) -> Viewer {
    match live.table.to_move() {
        Some(seat) if holder.holds(seat) => Viewer::Seat { seat },
        _ => holder
            .first()
            .map_or(Viewer::Spectator, |seat| Viewer::Seat { seat }),
    }
}

/// The compact view of a move's answer for `holder`, sent after the
/// position at `after` moves (see the module's terms).
///
/// # Errors
/// `server_error` when the game's view does not write.
pub(super) fn compact(live: &Live, holder: Holder, after: usize) -> Result<MatchView, ApiError> {
    let position = live.table.position(viewer_of(live, holder))?;
    Ok(with_changing(
        live,
        holder,
        Parts {
            fixed: None,
            position,
            log: None,
            compact: Some(CompactMark { log_after: after }),
        },
    ))
}

/// The whole view for `holder`: the table's view with what the page needs
/// besides — the match's id, each seat's state, the asker's seats, and
/// when an unfinished match expires.
///
/// # Errors
/// `server_error` when the game's view does not write.
pub(super) fn whole(id: &str, live: &Live, holder: Holder) -> Result<MatchView, ApiError> {
    let table = live.table.view(viewer_of(live, holder))?;
    let host_here: u32 = live
        .tokens
        .iter()
        .filter(|t| t.host)
        .map(|t| t.seats)
        .fold(0, |a, b| a | b);
    let colours = live.table.colours();
    let players: Vec<SeatView> = table
        .fixed
        .seats
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let seat = i as u8 + 1;
            let state = live.seats.iter().find(|s| s.seat == seat).map(|row| {
                if host_here & (1 << i) != 0 {
                    SeatState::Here
                } else if row.taken {
                    SeatState::Taken
                } else if row.invite.is_some() {
                    SeatState::Open
                } else {
                    SeatState::Anyone
                }
            });
            SeatView {
                seat,
                kind: *kind,
                state,
                yours: holder.holds(seat),
                name: table.fixed.names.get(i).cloned().unwrap_or_default(),
                colour: colours.get(i).copied().unwrap_or(seat),
            }
        })
        .collect();
    let fixed = MatchFixed {
        id: id.to_string(),
        title: live.title.clone(),
        players,
        host: holder.host,
        table: table.fixed,
    };
    Ok(with_changing(
        live,
        holder,
        Parts {
            fixed: Some(fixed),
            position: table.position,
            log: Some(table.log),
            compact: None,
        },
    ))
}

/// A view's parts that differ between a whole and a compact one.
struct Parts {
    fixed: Option<MatchFixed>,
    position: Position,
    log: Option<Vec<LogLine>>,
    compact: Option<CompactMark>,
}

/// The view of `parts` with what a move may change besides the game's
/// own: the result, the rematch, and the times.
fn with_changing(live: &Live, holder: Holder, parts: Parts) -> MatchView {
    let yours: Vec<u8> = (1..=32).filter(|s| holder.holds(*s)).collect();
    let result = live.table.outcome(&yours).map(|outcome| ResultView {
        outcome,
        by_seat: yours.is_empty().then(|| {
            (1..=live.table.seats().len() as u8)
                .filter_map(|seat| live.table.outcome(&[seat]))
                .map(|o| SeatResult {
                    words: o.words,
                    you_won: o.you_won,
                })
                .collect()
        }),
    });
    let expires_ms =
        (!live.table.status().is_over()).then(|| live.updated_ms + live.kept().as_millis() as i64);
    MatchView {
        fixed: parts.fixed,
        position: parts.position,
        log: parts.log,
        result,
        rematch: live.rematch.clone(),
        updated_ms: live.updated_ms,
        expires_ms,
        compact: parts.compact,
    }
}
