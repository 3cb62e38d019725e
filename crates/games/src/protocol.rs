//! The match protocol: every answer about a match that the API and the
//! live stream send, as types. `docs/protocol.schema.json` is their JSON
//! Schema, generated from them ([`schema`]); a test fails when it drifts.
//!
//! Terms:
//! - **fixed part** ([`Fixed`], [`MatchFixed`]): what no move changes: the
//!   game, the seats and their names, the dice's kind; the match's id,
//!   title, players and the asker's host flag.
//! - **position** ([`Position`]): what a move may change: the status, the
//!   move count, whose turn, the viewer's seat, the seed (once over), the
//!   game's own view and the page's extras.
//! - **table view** ([`TableView`]): a match as one viewer sees it, from
//!   the match layer: its fixed part, its position and its history's
//!   newest lines ([`LogLine`]).
//! - **match view** ([`MatchView`]): what the API sends: a table view with
//!   the match's own fixed part, its result, its rematch and its times.
//!   **Whole** (`GET /api/matches/{id}`, a live change) or **compact** (a
//!   move's answer by default): without the fixed part and the history,
//!   which the mover's page already has (the played moves are the new
//!   lines) — the one rule of what a change carries is this type's shape:
//!   a compact view is a whole one whose optional fixed part and history
//!   are left out, and it says so with `compact`.
//! - **played** ([`Played`]): one move as a front end tells it.
//! - **change** ([`Change`]): what a match's watchers are told after moves:
//!   the moves and the match as a spectator sees it, written once.
//! - **game JSON** ([`GameJson`]): a game's own part (its view, its page
//!   extras, an event, its public setup): typed in the game's crate,
//!   written once when made, and carried as written. Each game's docs say
//!   what it holds.

use crate::Outcome;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::value::RawValue;
use tabletop::Code;
use tabletop::play::{SeatKind, Status};

/// A game's own part of a message, as the game's crate wrote it.
pub type GameJson = Box<RawValue>;

/// Writes `value` as [`GameJson`].
///
/// # Errors
/// `server_error` when it does not write (a type whose JSON is not
/// text-keyed): a fault of the game's crate, said rather than sent empty.
pub fn game_json(value: &impl Serialize) -> Result<GameJson, crate::Refusal> {
    serde_json::value::to_raw_value(value).map_err(|e| {
        crate::Refusal::new(
            Code::ServerError,
            format!("a game's answer could not be written: {e}"),
        )
    })
}

/// One line of a match's history: one event of a move, in words.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LogLine {
    /// The move's number, from 1.
    pub number: usize,
    /// The seat that moved, from 1.
    pub seat: u8,
    /// The event in words.
    pub text: String,
}

/// How a match's dice are thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DiceKind {
    /// From the match's seed (shown once the match is over).
    Seeded,
    /// Every roll chosen by a player.
    Chosen,
}

/// What no move changes of a match, as the match layer knows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Fixed {
    /// The game's name (`chutes`).
    pub game: &'static str,
    /// Who answers for each seat, in order.
    pub seats: Vec<SeatKind>,
    /// How the dice are thrown.
    pub dice: DiceKind,
    /// Every seat's name, seat 1 first.
    pub names: Vec<String>,
    /// The top-level fields of the game's `view` that no move changes (a
    /// Baffle box's `size`, `mirrors`, `sides` and `shootable`): a move's
    /// compact answer leaves them out of its `view`, and the page keeps
    /// the ones it has. None for most games.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub view_fixed: &'static [&'static str],
}

/// What a move may change, for one viewer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Position {
    /// Where the match stands.
    #[serde(flatten)]
    pub status: Status,
    /// Moves made so far: send it back with the next move as `after`.
    pub moves: usize,
    /// Who must move next (from 1); none once over.
    pub to_move: Option<u8>,
    /// The seat looking (from 1); none for a spectator.
    pub you: Option<u8>,
    /// The dice's seed, once a match of seeded dice is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The game's own view for this viewer (each game's docs).
    #[schemars(with = "serde_json::Value")]
    pub view: GameJson,
    /// What the game's page shows besides (Tycoon's question in words);
    /// `null` when nothing.
    #[schemars(with = "serde_json::Value")]
    pub page: GameJson,
}

/// A match as one viewer sees it, from the match layer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TableView {
    /// What no move changes.
    #[serde(flatten)]
    pub fixed: Fixed,
    /// Where it stands.
    #[serde(flatten)]
    pub position: Position,
    /// The history's newest lines (up to [`crate::LOG_TAIL`]), oldest first.
    pub log: Vec<LogLine>,
}

/// A person seat's state, as the page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatState {
    /// Played at the screen of the person who made the match.
    Here,
    /// Waiting for someone with its invite.
    Open,
    /// Waiting for anyone (listed in the lobby).
    Anyone,
    /// Someone took it with its invite.
    Taken,
}

/// One seat as the page shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SeatView {
    /// The seat, from 1.
    pub seat: u8,
    /// Who answers for it.
    #[serde(flatten)]
    pub kind: SeatKind,
    /// For a person seat: here, open, anyone or taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<SeatState>,
    /// True when the asking token holds it.
    pub yours: bool,
    /// The player's name: chosen, else "Player N", or the bot's.
    pub name: String,
    /// The player's colour (from 1; the pages' `p1`…): the seat's own,
    /// but a rematch keeps each person's colour as their seat moves on.
    pub colour: u8,
}

/// What no move changes of a match, as the API sends it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MatchFixed {
    /// The match's id.
    pub id: String,
    /// The lobby's line for it.
    pub title: String,
    /// Each seat as the page shows it.
    pub players: Vec<SeatView>,
    /// True when the asker made the match.
    pub host: bool,
    /// The match layer's fixed part.
    #[serde(flatten)]
    pub table: Fixed,
}

/// What one seat's player is told of the result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SeatResult {
    /// The result in words, for that seat's player.
    pub words: String,
    /// Whether that seat won (none when no one did).
    pub you_won: Option<bool>,
}

/// How a finished match ended.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ResultView {
    /// The result for the asker.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// What each seat's player is told, seat 1 first: for a page that
    /// follows the live stream (a spectator's views) to show its own
    /// player theirs. Only in a spectator's view: a player's own has its
    /// words in `outcome`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_seat: Option<Vec<SeatResult>>,
}

/// Marks a compact view.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct CompactMark {
    /// The move number the mover sent: the page's history up to it is
    /// whole, the played moves' events follow it.
    pub log_after: usize,
}

/// A match as the API sends it to one asker: whole or compact.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MatchView {
    /// What no move changes: left out of a compact view.
    #[serde(flatten)]
    pub fixed: Option<MatchFixed>,
    /// Where it stands, for the asker.
    #[serde(flatten)]
    pub position: Position,
    /// The history's newest lines: left out of a compact view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<Vec<LogLine>>,
    /// How it ended, once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The rematch's id, once one is made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// When it last changed (milliseconds since 1970).
    pub updated_ms: i64,
    /// When an unfinished match is dropped if nobody moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_ms: Option<i64>,
    /// Present on a compact view only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compact: Option<CompactMark>,
}

/// One move as the API tells it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Played {
    /// The move's number, from 1.
    pub number: usize,
    /// The seat that moved (from 1).
    pub seat: u8,
    /// Whether a bot made it.
    pub bot: bool,
    /// The move, in its text form.
    #[serde(rename = "move")]
    pub mv: String,
    /// The roll, when the players choose the dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
    /// Its events: each game's own, each with `text`, its words.
    #[schemars(with = "Vec<serde_json::Value>")]
    pub events: Vec<GameJson>,
    /// The record entry to store (the move, ` @ROLL` when chosen, ` (bot)`
    /// when a bot chose it for a person).
    #[serde(skip)]
    pub entry: String,
    /// The move as the other players and the watchers are told it while
    /// the match is on, when that is less than the move (a guess in a
    /// Baffle race): see [`Played::for_others`].
    #[serde(skip)]
    pub told: Option<String>,
}

impl Played {
    /// The move as everyone but its mover is told it: the move's text
    /// replaced by what the game tells the others, when it keeps a secret.
    pub fn for_others(&self) -> Played {
        match &self.told {
            Some(told) => Played {
                mv: told.clone(),
                ..self.clone()
            },
            None => self.clone(),
        }
    }

    /// Each event's words (its `text`), in order.
    pub fn words(&self) -> Vec<String> {
        #[derive(serde::Deserialize)]
        struct Words {
            text: String,
        }
        self.events
            .iter()
            .filter_map(|event| serde_json::from_str::<Words>(event.get()).ok())
            .map(|w| w.text)
            .collect()
    }
}

/// What a match's watchers are told after moves (each live event's data).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Change {
    /// The moves just played.
    pub played: Vec<Played>,
    /// The match after them, as a spectator sees it (whole).
    pub view: MatchView,
}

/// A move's answer: what the moves did and the match after them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MoveAnswer {
    /// What each move did.
    pub played: Vec<Played>,
    /// The match after it, as the mover sees it: compact unless the
    /// request asked for the whole view.
    pub view: MatchView,
}

/// One step of a look back.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReplayStep {
    /// Moves played so far in the replay.
    pub at: usize,
    /// Moves in the whole match.
    pub moves: usize,
    /// The move that led here (none at 0).
    pub played: Option<Played>,
    /// The match as its viewer saw it then.
    pub view: TableView,
}

/// The messages of the match protocol, for its schema: each is one of
/// these.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Protocol {
    /// `GET /api/matches/{id}`, a join's, a name's and a rematch's view.
    View(MatchView),
    /// `POST /api/matches/{id}/move`'s answer.
    Move(MoveAnswer),
    /// A live event's data (`GET /api/matches/{id}/events`).
    Change(Change),
    /// `GET /api/matches/{id}/replay?at=N`.
    Step(ReplayStep),
}

/// The JSON Schema of every message of the match protocol, as pretty JSON
/// (what `docs/protocol.schema.json` holds).
///
/// # Errors
/// serde_json's, were the schema not to write.
pub fn schema() -> Result<String, serde_json::Error> {
    let schema = schemars::schema_for!(Protocol);
    let mut text = serde_json::to_string_pretty(&schema)?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema in the docs is the one the types give: regenerate it with
    /// `PARLOR_WRITE_SCHEMA=1 cargo test -p games protocol` after changing
    /// a type.
    #[test]
    fn the_documented_schema_is_the_types_schema() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/protocol.schema.json"
        );
        let made = schema().expect("the schema writes");
        if std::env::var_os("PARLOR_WRITE_SCHEMA").is_some() {
            std::fs::write(path, &made).expect("write the schema");
        }
        let written = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            written == made,
            "docs/protocol.schema.json is not the protocol's schema: run \
             PARLOR_WRITE_SCHEMA=1 cargo test -p games protocol"
        );
        for name in ["MatchView", "Played", "Change", "ReplayStep", "SeatView"] {
            assert!(made.contains(&format!("\"{name}\"")), "{name} missing");
        }
    }
}
