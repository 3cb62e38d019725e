//! What a viewer is sent: the table's view with the match's seats, and
//! the changes watchers are told of.
//!
//! Terms:
//! - **decorated view**: the game's view for a seat or a spectator, with
//!   the match's id, each seat's state (here, open, anyone, taken), which
//!   seats the asker holds, and when an unfinished match expires.
//! - **change**: the moves just played and the spectator's view, made once
//!   for every watcher.

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
    let viewer = match live.table.to_move() {
        Some(seat) if holder.holds(seat) => Viewer::Seat { seat },
        _ => holder
            .first()
            .map_or(Viewer::Spectator, |seat| Viewer::Seat { seat }),
    };
    let mut view = live.table.view(viewer);
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
    view
}
