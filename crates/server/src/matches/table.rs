//! One table for every game: a match of any game, behind one interface the
//! router drives with JSON.
//!
//! Terms:
//! - **game kind** ([`GameKind`]): what the router needs of a game beyond
//!   the match layer — its name for people, what of its setup every viewer
//!   may see, a page's extras, its lobby line and its picture. Implemented
//!   in each game's API module; it holds no rule.
//! - **table** ([`Table`]): a `Match` of some game with its type forgotten,
//!   taking moves as text or JSON and giving views and events as JSON.
//! - **played** ([`Played`]): one move as the API tells it: its number, the
//!   seat, whether a bot made it, the move's text, the roll (chosen dice),
//!   and its events, each with its words (`text`).

use crate::error::ApiError;
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::{Map, Value};
use tabletop::play::{Entry, Match, Playable, PlayedOf, Record, SeatKind, Status, Viewer};

/// The events a view's log carries (the newest); older ones are in the
/// record. Each line is worded once, when its move is played.
pub const LOG_TAIL: usize = 100;

/// What the router needs of a game beyond the match layer.
pub trait GameKind: Playable + Send + Sync + 'static
where
    Self::Setup: Send + Sync,
    Self::Move: Send + Sync,
    Self::Event: Send + Sync,
{
    /// The game's name for people ("Chutes & Ladders").
    const TITLE: &'static str;

    /// What every viewer may see of the setup, for drawing (the board; a
    /// Baffle box's size, never its mirrors).
    fn public_setup(m: &Match<Self>) -> Value;

    /// What a page needs besides the game's view, for `viewer` (Tycoon's
    /// prompt in words). Nothing by default.
    fn extras(_m: &Match<Self>, _viewer: Viewer) -> Value {
        Value::Null
    }

    /// The lobby's line for a match of this setup.
    fn title(setup: &Self::Setup, seats: &[SeatKind]) -> String;

    /// The match drawn as a spectator may see it; `name` titles it where the
    /// game takes one.
    ///
    /// # Errors
    /// The renderer's refusal (a board too big to draw).
    fn picture(m: &Match<Self>, name: Option<&str>)
    -> Result<render::Picture, render::RenderError>;
}

/// One move as the API tells it.
#[derive(Debug, Clone, Serialize)]
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
    /// Its events, as JSON, each with `text`: its words.
    pub events: Vec<Value>,
    /// The record entry to store (the move, and ` @ROLL` when chosen).
    #[serde(skip)]
    pub entry: String,
}

/// A move as a client sent it: its text form or its JSON form.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveInput {
    /// `"shoot 7"`.
    Text(String),
    /// `{"move": "shoot", "hole": 7}`.
    Json(Value),
}

/// A match of some game.
pub trait Table: Send + Sync {
    /// The game's name (`chutes`).
    fn game(&self) -> &'static str;
    /// The game's name for people.
    fn game_title(&self) -> &'static str;
    /// Moves made.
    fn moves(&self) -> usize;
    /// Where it stands.
    fn status(&self) -> Status;
    /// Who must move (from 1), none once over.
    fn to_move(&self) -> Option<u8>;
    /// Who answers for each seat.
    fn seats(&self) -> Vec<SeatKind>;
    /// True when the players choose the rolls.
    fn dice_chosen(&self) -> bool;
    /// The match view for `viewer` (status, moves, seats, dice, the game's
    /// view), the page's extras under `page`, and the log's tail.
    fn view(&self, viewer: Viewer) -> Value;
    /// What every viewer may see of the setup.
    fn public_setup(&self) -> Value;
    /// The lobby's line.
    fn title(&self) -> String;
    /// Plays a person's move for `seat`.
    ///
    /// # Errors
    /// A move that does not read (`bad_move`), or the match's refusal.
    fn play(&mut self, seat: u8, mv: &MoveInput, roll: Option<u32>) -> Result<Played, ApiError>;
    /// The bot's turn, to be worked out off the match: the move number it
    /// was taken at, and the work, which gives the move's text.
    fn bot_turn(&self) -> Option<BotWork>;
    /// Plays the move a bot chose at move number `moves`.
    ///
    /// # Errors
    /// The match's refusal (it moved on meanwhile).
    fn play_bot(&mut self, moves: usize, mv: &str) -> Result<Played, ApiError>;
    /// Plays a stored record entry (another server's move).
    ///
    /// # Errors
    /// Why the entry does not fit, in words.
    fn apply_entry(&mut self, entry: &str) -> Result<Played, String>;
    /// The record without its moves, as JSON (secret while on).
    fn header(&self) -> String;
    /// The whole record, as JSON (secret while on: callers check).
    fn record(&self) -> Value;
    /// The view a spectator had after the first `at` moves, and those
    /// moves' plays, replayed from the record (for replays once over).
    ///
    /// # Errors
    /// 400 when `at` is past the last move.
    fn replay_view(&self, at: usize) -> Result<(Value, Option<Played>), ApiError>;
    /// The match drawn for a spectator: as it stands, or after its first
    /// `at` moves (replayed from the record, for replays once over).
    ///
    /// # Errors
    /// 400 when `at` is past the last move; 422 when the renderer refuses.
    fn picture(&self, name: Option<&str>, at: Option<usize>) -> Result<render::Picture, ApiError>;
    /// The table as `Any`, for a game's own extras to find its match
    /// ([`Typed::inner`]).
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A bot's turn taken out of the match.
pub struct BotWork {
    /// The move number it was taken at.
    pub moves: usize,
    /// The work: the move's text.
    pub choose: Box<dyn FnOnce() -> String + Send>,
}

/// A match of game `G`, and the newest events of its log in words.
pub struct Typed<G: Playable> {
    m: Match<G>,
    log: std::collections::VecDeque<Value>,
}

impl<G: GameKind> Typed<G>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    /// A table for `m`.
    pub fn new(m: Match<G>) -> Self {
        let lines: Vec<Value> = m
            .log()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .take(LOG_TAIL)
            .rev()
            .map(|l| log_line(l.number, l.seat, &l.event))
            .collect();
        Self {
            m,
            log: lines.into(),
        }
    }

    /// Words a move's events into the log, keeping the newest.
    fn note(&mut self, played: &PlayedOf<G>) {
        for event in &played.events {
            if self.log.len() == LOG_TAIL {
                self.log.pop_front();
            }
            self.log
                .push_back(log_line(played.number, played.seat, event));
        }
    }

    /// The match.
    pub fn inner(&self) -> &Match<G> {
        &self.m
    }

    /// Loads a match from its header (the record without moves) and its
    /// entries, replaying them.
    ///
    /// # Errors
    /// When the header does not read or a move does not replay.
    pub fn load(header: &str, entries: &[String]) -> Result<Self, String> {
        let mut record: Record<G::Setup, G::Move> = serde_json::from_str(header)
            .map_err(|e| format!("the stored record does not read: {e}"))?;
        record.moves = entries
            .iter()
            .enumerate()
            .map(|(i, text)| {
                text.parse::<Entry<G::Move>>()
                    .map_err(|e| format!("stored move #{}: {e}", i + 1))
            })
            .collect::<Result<_, _>>()?;
        Match::replay(record)
            .map(Self::new)
            .map_err(|e| e.to_string())
    }
}

/// One line of a view's log: the move's number, the seat, the event in
/// words.
fn log_line(number: usize, seat: u8, event: &impl std::fmt::Display) -> Value {
    let mut line = Map::new();
    line.insert("number".into(), number.into());
    line.insert("seat".into(), seat.into());
    line.insert("text".into(), event.to_string().into());
    Value::Object(line)
}

impl<G: GameKind> Typed<G>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    /// The match after its first `at` moves, replayed from the record, and
    /// the `at`-th move's play (none at 0).
    fn replayed(&self, at: usize) -> Result<(Match<G>, Option<Played>), ApiError> {
        let all = self.m.record();
        if at > all.moves.len() {
            return Err(ApiError::bad_request(format!(
                "this game has {} moves: a replay goes from 0 to {}",
                all.moves.len(),
                all.moves.len()
            )));
        }
        let mut record = all.clone();
        record.moves.truncate(at.saturating_sub(1));
        let mut m = Match::<G>::replay(record)?;
        let last = match all.moves.get(at.wrapping_sub(1)) {
            Some(entry) if at > 0 => Some(m.apply_entry(entry.clone()).map(played::<G>).map_err(
                |why| ApiError::coded(StatusCode::UNPROCESSABLE_ENTITY, "bad_record", why),
            )?),
            _ => None,
        };
        Ok((m, last))
    }
}

/// The JSON of an event, with its words under `text`.
fn event_json<E: Serialize + std::fmt::Display>(event: &E) -> Value {
    let text = Value::String(event.to_string());
    match serde_json::to_value(event) {
        Ok(Value::Object(mut fields)) => {
            fields.insert("text".into(), text);
            Value::Object(fields)
        }
        Ok(other) => {
            let mut fields = Map::new();
            fields.insert("event".into(), other);
            fields.insert("text".into(), text);
            Value::Object(fields)
        }
        Err(_) => {
            let mut fields = Map::new();
            fields.insert("text".into(), text);
            Value::Object(fields)
        }
    }
}

fn played<G: Playable>(p: PlayedOf<G>) -> Played {
    let entry = Entry {
        mv: p.mv.clone(),
        roll: p.roll,
    }
    .to_string();
    Played {
        number: p.number,
        seat: p.seat,
        bot: p.bot,
        mv: p.mv.to_string(),
        roll: p.roll,
        events: p.events.iter().map(event_json).collect(),
        entry,
    }
}

/// Reads a move in its text or JSON form.
fn read_move<G: Playable>(mv: &MoveInput) -> Result<G::Move, ApiError> {
    let bad = |why: String| ApiError::coded(StatusCode::BAD_REQUEST, "bad_move", why);
    match mv {
        MoveInput::Text(text) => text.parse::<G::Move>().map_err(|e| bad(e.to_string())),
        MoveInput::Json(value) => serde_json::from_value::<G::Move>(value.clone())
            .map_err(|e| bad(format!("'{value}' is not a move of this game: {e}"))),
    }
}

fn to_value(x: &impl Serialize) -> Value {
    serde_json::to_value(x).unwrap_or(Value::Null)
}

impl<G: GameKind> Table for Typed<G>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn game_title(&self) -> &'static str {
        G::TITLE
    }

    fn moves(&self) -> usize {
        self.m.moves()
    }

    fn status(&self) -> Status {
        self.m.status()
    }

    fn to_move(&self) -> Option<u8> {
        self.m.to_move()
    }

    fn seats(&self) -> Vec<SeatKind> {
        self.m.seats().to_vec()
    }

    fn dice_chosen(&self) -> bool {
        self.m.dice_chosen()
    }

    fn view(&self, viewer: Viewer) -> Value {
        let mut view = to_value(&self.m.view(viewer));
        if let Value::Object(fields) = &mut view {
            fields.insert("page".into(), G::extras(&self.m, viewer));
            fields.insert(
                "log".into(),
                Value::Array(self.log.iter().cloned().collect()),
            );
        }
        view
    }

    fn public_setup(&self) -> Value {
        G::public_setup(&self.m)
    }

    fn title(&self) -> String {
        G::title(&self.m.record().setup, self.m.seats())
    }

    fn play(&mut self, seat: u8, mv: &MoveInput, roll: Option<u32>) -> Result<Played, ApiError> {
        let mv = read_move::<G>(mv)?;
        let request = tabletop::play::Request {
            mv,
            after: None,
            roll,
        };
        let done = self.m.play(seat, request)?;
        self.note(&done);
        Ok(played::<G>(done))
    }

    fn bot_turn(&self) -> Option<BotWork> {
        let turn = self.m.bot_turn()?;
        Some(BotWork {
            moves: turn.moves,
            choose: Box::new(move || turn.choose().1.to_string()),
        })
    }

    fn play_bot(&mut self, moves: usize, mv: &str) -> Result<Played, ApiError> {
        let mv = read_move::<G>(&MoveInput::Text(mv.to_string()))?;
        let done = self.m.play_bot(moves, mv)?;
        self.note(&done);
        Ok(played::<G>(done))
    }

    fn apply_entry(&mut self, entry: &str) -> Result<Played, String> {
        let entry = entry.parse::<Entry<G::Move>>()?;
        let done = self.m.apply_entry(entry)?;
        self.note(&done);
        Ok(played::<G>(done))
    }

    fn header(&self) -> String {
        let record = self.m.record();
        let header = Record::<&G::Setup, G::Move> {
            game: record.game.clone(),
            version: record.version,
            setup: &record.setup,
            seats: record.seats.clone(),
            dice: record.dice,
            moves: Vec::new(),
        };
        serde_json::to_string(&header).unwrap_or_default()
    }

    fn record(&self) -> Value {
        to_value(self.m.record())
    }

    fn replay_view(&self, at: usize) -> Result<(Value, Option<Played>), ApiError> {
        let (m, last) = self.replayed(at)?;
        Ok((Typed::new(m).view(Viewer::Spectator), last))
    }

    fn picture(&self, name: Option<&str>, at: Option<usize>) -> Result<render::Picture, ApiError> {
        let drawn = match at {
            None => G::picture(&self.m, name),
            Some(at) => G::picture(&self.replayed(at)?.0, name),
        };
        drawn.map_err(|e| ApiError::unprocessable(format!("cannot draw this: {e}")))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
