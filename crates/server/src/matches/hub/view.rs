//! What a viewer is sent: the table's view with the match's seats, and
//! the changes watchers are told of.
//!
//! Terms:
//! - **decorated view**: the game's view for a seat or a spectator, with
//!   the match's id, each seat's state (here, open, anyone, taken), which
//!   seats the asker holds, and when an unfinished match expires.
//! - **change**: the moves just played and the spectator's view, made once
//!   for every watcher.
//! - **compact view**: a move's answer by default: the decorated view
//!   without the fields no move changes ([`KEPT`]: the mover's last view
//!   has them) and without the log, whose new lines are the played moves'
//!   events; so its size does not grow with the match. Its
//!   `compact.log_after` is the move number the mover sent, for making the
//!   view whole again (docs/api.md).

use super::{Change, Holder, Live, Slot};
use crate::matches::seats::SeatState;
use games::Played;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;
use tabletop::play::{SeatKind, Viewer};

/// Tells the watchers of `slot` of a change (when anyone watches).
pub(super) fn tell(slot: &Slot, live: &Live, played: &[Played]) {
    if slot.changes.receiver_count() > 0 {
        let _ = slot.changes.send(Arc::new(change(&slot.id, live, played)));
    }
}

pub(super) fn change(id: &str, live: &Live, played: &[Played]) -> Change {
    let mut fields = Map::new();
    fields.insert(
        "played".into(),
        serde_json::to_value(played).unwrap_or(Value::Null),
    );
    fields.insert("view".into(), decorate(id, live, Holder::default()));
    Change {
        moves: live.table.moves(),
        json: Value::Object(fields).to_string(),
    }
}

/// The decorated view's fields no move changes, left out of a compact
/// view.
pub const KEPT: [&str; 8] = [
    "id", "title", "names", "seats", "players", "game", "dice", "host",
];

/// The compact view of a move's answer for `holder`, sent after the
/// position at `after` moves (see the module's terms).
pub(super) fn compact(id: &str, live: &Live, holder: Holder, after: usize) -> Value {
    // Lines after the current move: none (the log is left out).
    let mut view = decorate_after(id, live, holder, Some(live.table.moves()));
    if let Value::Object(fields) = &mut view {
        for field in KEPT.into_iter().chain(["log"]) {
            fields.remove(field);
        }
        fields.insert("compact".into(), serde_json::json!({ "log_after": after }));
    }
    view
}

/// One seat as the page shows it.
#[derive(Serialize)]
struct SeatView {
    seat: u8,
    #[serde(flatten)]
    kind: SeatKind,
    /// For a person seat: here, open or taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<SeatState>,
    /// True when the asking token holds it.
    yours: bool,
    /// The player's name: chosen, else "Player N", or the bot's.
    name: String,
}

/// The table's view for `holder`, with what the page needs besides: the
/// match's id, each seat's state, the asker's seats, and when an unfinished
/// match expires.
pub(super) fn decorate(id: &str, live: &Live, holder: Holder) -> Value {
    decorate_after(id, live, holder, None)
}

/// [`decorate`]; for a compact view (`log_after` given), with the log's
/// lines after that move only and without the seats' list.
fn decorate_after(id: &str, live: &Live, holder: Holder, log_after: Option<usize>) -> Value {
    let viewer = match live.table.to_move() {
        Some(seat) if holder.holds(seat) => Viewer::Seat { seat },
        _ => holder
            .first()
            .map_or(Viewer::Spectator, |seat| Viewer::Seat { seat }),
    };
    let mut view = match log_after {
        Some(after) => live.table.view_after(viewer, after),
        None => live.table.view(viewer),
    };
    if let (Some(_), Value::Object(fields)) = (log_after, &mut view) {
        add_changing(fields, live, holder);
        return view;
    }
    let host_here: u32 = live
        .tokens
        .iter()
        .filter(|t| t.host)
        .map(|t| t.seats)
        .fold(0, |a, b| a | b);
    let names = live.table.names();
    let seats: Vec<SeatView> = live
        .table
        .seats()
        .into_iter()
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
                kind,
                state,
                yours: holder.holds(seat),
                name: names.get(i).cloned().unwrap_or_default(),
            }
        })
        .collect();
    if let Value::Object(fields) = &mut view {
        fields.insert("id".into(), id.into());
        fields.insert("title".into(), live.title.clone().into());
        fields.insert(
            "players".into(),
            serde_json::to_value(seats).unwrap_or(Value::Null),
        );
        add_changing(fields, live, holder);
    }
    view
}

/// The decorated view's fields a move may change, besides the game's own:
/// the asker's host flag, the result, the rematch, and the times.
fn add_changing(fields: &mut Map<String, Value>, live: &Live, holder: Holder) {
    fields.insert("host".into(), holder.host.into());
    let yours: Vec<u8> = (1..=32).filter(|s| holder.holds(*s)).collect();
    if let Some(outcome) = live.table.outcome(&yours) {
        let mut result = serde_json::to_value(outcome).unwrap_or(Value::Null);
        // What each seat's player is told, for a page that follows the
        // watchers' stream (its changes are a spectator's views) to
        // show its own player theirs.
        let by_seat: Vec<Value> = (1..=live.table.seats().len() as u8)
            .filter_map(|seat| live.table.outcome(&[seat]))
            .map(|o| serde_json::json!({"words": o.words, "you_won": o.you_won}))
            .collect();
        if let Value::Object(result) = &mut result {
            result.insert("by_seat".into(), by_seat.into());
        }
        fields.insert("result".into(), result);
    }
    if let Some(rematch) = &live.rematch {
        fields.insert("rematch".into(), rematch.clone().into());
    }
    fields.insert("updated_ms".into(), live.updated_ms.into());
    if !live.table.status().is_over() {
        let expires = live.updated_ms + live.kept().as_millis() as i64;
        fields.insert("expires_ms".into(), expires.into());
    }
}
