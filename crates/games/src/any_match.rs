//! The match of any game, behind one interface: what every front end
//! drives, and the gate through which every viewer sees a match.
//!
//! Terms:
//! - **adapter** ([`Adapter`]): what the registry needs of a game beyond
//!   the match layer — its name for people, its setup request, what of its
//!   setup every viewer may see, a page's extras, its lobby line and its
//!   picture. It holds no rule.
//! - **any match** ([`AnyMatch`]): a `Match` of some game with its type
//!   forgotten, taking moves as text or JSON and giving the protocol's
//!   views and moves ([`crate::protocol`]).
//! - **played** ([`Played`], in [`crate::protocol`]): one move as a front
//!   end tells it: its number, the seat, whether a bot made it, the move's
//!   text, the roll (chosen dice), and its events, each with its words
//!   (`text`).
//! - **gate**: while a match is on, its record (with the seed) is refused
//!   (`game_on`, [`AnyMatch::record_once_over`]), and a look back at an
//!   earlier move ([`AnyMatch::replay_step`], [`AnyMatch::picture`]) shows
//!   only what its viewer could see then. Views hold only what their
//!   viewer may know (the game's own [`Playable::view`]).

use crate::Refusal;
use crate::help::{Helper, ShotsLookBack};
use crate::protocol::{
    DiceKind, Fixed, GameJson, LogLine, Played, Position, ReplayStep, TableView, game_json,
};
use crate::registry::{Need, Supplied};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tabletop::Code;
use tabletop::play::{
    Chances, DiceMode, DiceView, Entry, Match, Playable, PlayedOf, Record, SeatKind, Status, Viewer,
};

/// The events a view's log carries (the newest); older ones are in the
/// record. Each line is worded once, when its move is played.
pub const LOG_TAIL: usize = 100;

/// The most moves a game's chances are charted for (each step is one
/// position's chances, exact or estimated).
pub const CHANCES_MAX_MOVES: usize = 5_000;

/// A game's chances over its moves, for the look back: the same figures
/// each position gave live, and each move's mover and words (the swings
/// are named from them).
#[derive(Clone, Debug, PartialEq)]
pub struct LookBack {
    /// `steps[m]`: every seat's chances after the first `m` moves.
    pub steps: Vec<Chances>,
    /// `moves[m - 1]`: move `m`, as everyone was told it.
    pub moves: Vec<MoveLine>,
}

/// One move of a look back: who made it and what it did, in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveLine {
    /// The seat that moved (from 1).
    pub seat: u8,
    /// Its events' words, in order.
    pub texts: Vec<String>,
}

/// What the registry needs of a game beyond the match layer.
pub trait Adapter: Playable + Send + Sync + 'static
where
    Self::Setup: Send + Sync,
    Self::Move: Send + Sync,
    Self::Event: Send + Sync,
{
    /// The game's name for people ("Chutes & Ladders").
    const TITLE: &'static str;

    /// The fewest seats a match made through the registry has (within the
    /// library's bounds, which [`Playable::seat_range`] checks again).
    const MIN_SEATS: u8;
    /// The most seats a match made through the registry has.
    const MAX_SEATS: u8;

    /// The setup as a client writes it: every field optional, its defaults
    /// the library's.
    type Request: DeserializeOwned + Serialize + Default + Send + 'static;

    /// What the request names that the front end keeps (an uploaded board,
    /// a design), if anything.
    ///
    /// # Errors
    /// `bad_setup` for a request that names two things at once.
    fn need(request: &Self::Request) -> Result<Option<Need>, Refusal>;

    /// The game's setup from the request and what the front end supplied
    /// for its need; `seed` is the match's own (a random box is drawn from
    /// it).
    ///
    /// # Errors
    /// `bad_setup` when the setup breaks one of the game's rules.
    fn setup(
        request: Self::Request,
        supplied: Option<Supplied>,
        seed: u64,
    ) -> Result<Self::Setup, Refusal>;

    /// Whether the game's bot plays differently at each level (easy,
    /// normal, hard); false when it has no choice to make.
    const BOT_LEVELS: bool = true;

    /// Who sits at a match whose maker names no seats: one person.
    fn default_seats() -> Vec<SeatKind> {
        vec![SeatKind::Person]
    }

    /// The bounds of the setup's numbers, for a form (JSON). None by
    /// default.
    fn setup_limits() -> Value {
        Value::Null
    }

    /// What every viewer may see of the setup, for drawing (the board; a
    /// Baffle box's size, never its mirrors).
    fn public_setup(m: &Match<Self>) -> Value;

    /// The top-level fields of the game's view that no move changes (a
    /// Baffle box's size and holes): a move's compact answer leaves them
    /// out, and the page keeps its own ([`crate::protocol::Fixed::view_fixed`]).
    /// None by default.
    const VIEW_FIXED: &'static [&'static str] = &[];

    /// What a page needs besides the game's view, for `viewer` (Tycoon's
    /// question in words). Nothing by default.
    fn extras(_m: &Match<Self>, _viewer: Viewer) -> Value {
        Value::Null
    }

    /// The setup of a rematch of a match of `setup`, whose seed is `seed`:
    /// the same setup by default; a game that drew something from its seed
    /// (Baffle's random box) draws it afresh.
    fn rematch_setup(setup: &Self::Setup, _seed: u64) -> Self::Setup {
        setup.clone()
    }

    /// A move as the other players and the watchers are told it while the
    /// match is on, when the move itself would tell them one seat's secret
    /// (where a Baffle racer guessed); `None` (the default) tells the move
    /// as it is.
    fn told_move(_m: &Match<Self>, _mv: &Self::Move) -> Option<String> {
        None
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

    /// The match drawn as `viewer` may see it: the spectator's picture by
    /// default; a game whose seats each see their own (a Baffle racer's
    /// box) draws the seat's.
    ///
    /// # Errors
    /// As [`Adapter::picture`].
    fn picture_for(
        m: &Match<Self>,
        viewer: Viewer,
        name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        let _ = viewer;
        Self::picture(m, name)
    }

    /// The game's own page module, when it has one: the source of a
    /// JavaScript module (`include_str!` from the game's crate) that draws
    /// the game's view and turns a click into a move. Served at
    /// `/static/games/GAME.js` and run by any game's page on the one page
    /// shell (docs/architecture.md, "A game's page module"). `None` (the
    /// default): any game's page draws the game's picture and takes moves
    /// in words.
    const PAGE_MODULE: Option<&'static str> = None;

    /// Whether the game offers a player help on their turn: a hint and a
    /// bot's move played for them ([`Adapter::helper`]). The registry says
    /// so ([`crate::GameInfo::helps`]); the server gives such a game its
    /// help routes.
    const HELPS: bool = false;

    /// Help for `viewer` in match `m` (see [`crate::help`]), taken now
    /// and worked out later away from the match.
    ///
    /// # Errors
    /// `wrong_game` for a game that offers no help (the default); the
    /// game's own refusal (the game is over, a viewer with no position of
    /// their own).
    fn helper(m: &Match<Self>, viewer: Viewer) -> Result<Box<dyn Helper>, Refusal> {
        let _ = (m, viewer);
        Err(Refusal::new(
            Code::WrongGame,
            format!("{} offers no hint and no bot move", Self::TITLE),
        ))
    }

    /// The game's own look back of `viewer`'s box in match `m` (`seat`'s
    /// box instead, where the game allows), taken now and drawn later
    /// ([`crate::help::ShotsLookBack`]).
    ///
    /// # Errors
    /// `wrong_game` for a game with no such look back (the default); the
    /// game's own refusal (a box the viewer may not see yet).
    fn shots_look_back(
        m: &Match<Self>,
        viewer: Viewer,
        seat: Option<u8>,
    ) -> Result<Box<dyn ShotsLookBack>, Refusal> {
        let _ = (m, viewer, seat);
        Err(Refusal::new(
            Code::WrongGame,
            format!("{} has no look back of its shots", Self::TITLE),
        ))
    }

    /// The game's own look back of every box of match `m`, in words for
    /// `parlor replay --explain` (a record's reader sees every box); `None`
    /// (the default) for a game with none.
    fn shots_look_back_words(m: &Match<Self>, names: &[String]) -> Option<Vec<String>> {
        let _ = (m, names);
        None
    }

    /// The game's length once it is over, in the game's own count (Chutes:
    /// rolls by all players together), for a classroom's figures; none
    /// while it is on, or for a game that counts none (the default).
    fn length(m: &Match<Self>) -> Option<u32> {
        let _ = m;
        None
    }
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
pub trait AnyMatch: Send + Sync {
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
    /// The match as `viewer` sees it, with the log's tail.
    ///
    /// # Errors
    /// `server_error` when the game's view does not write.
    fn view(&self, viewer: Viewer) -> Result<TableView, Refusal>;
    /// What a move may change, as `viewer` sees it: a move's compact
    /// answer's part (the client has the rest), its game view without the
    /// fields no move changes ([`Fixed::view_fixed`], when the game has
    /// any).
    ///
    /// # Errors
    /// As [`AnyMatch::view`].
    fn position(&self, viewer: Viewer) -> Result<Position, Refusal> {
        Ok(self.view(viewer)?.position)
    }
    /// What every viewer may see of the setup.
    ///
    /// # Errors
    /// `server_error` when it does not write.
    fn public_setup(&self) -> Result<GameJson, Refusal>;
    /// The lobby's line.
    fn title(&self) -> String;
    /// Plays a person's move for `seat`, sent for the position after
    /// `after` moves (when given: the match layer refuses another as
    /// `stale_move`, before anything else).
    ///
    /// # Errors
    /// A move that does not read (`bad_move`), or the match's refusal.
    fn play(
        &mut self,
        seat: u8,
        mv: &MoveInput,
        after: Option<usize>,
        roll: Option<u32>,
    ) -> Result<Played, Refusal>;
    /// Plays a move a bot chose for a person's `seat` (Baffle's Bot move),
    /// sent for the position after `after` moves: recorded, told and
    /// replayed as the bot's choice.
    ///
    /// # Errors
    /// As [`AnyMatch::play`].
    fn play_chosen_by_bot(
        &mut self,
        seat: u8,
        mv: &MoveInput,
        after: Option<usize>,
    ) -> Result<Played, Refusal>;
    /// The bot's turn, to be worked out off the match: the move number it
    /// was taken at, and the work, which gives the move's text.
    fn bot_turn(&self) -> Option<BotWork>;
    /// Plays the move a bot chose at move number `moves`.
    ///
    /// # Errors
    /// The match's refusal (it moved on meanwhile).
    fn play_bot(&mut self, moves: usize, mv: &str) -> Result<Played, Refusal>;
    /// Plays a stored record entry (another server's move).
    ///
    /// # Errors
    /// Why the entry does not fit, in words.
    fn apply_entry(&mut self, entry: &str) -> Result<Played, String>;
    /// The record without its moves, as JSON, for the store only: it holds
    /// the seed (and a Baffle box's mirrors) while the match is on.
    ///
    /// # Errors
    /// `server_error` when it does not write.
    fn header(&self) -> Result<String, Refusal>;
    /// The whole record, as JSON, once the match is over.
    ///
    /// # Errors
    /// `game_on` while it is on; `server_error` when it does not write.
    fn record_once_over(&self) -> Result<GameJson, Refusal>;
    /// A step back in the match: the view after its first `at` moves and
    /// the `at`-th move's play. While the match is on, `viewer`'s view then
    /// (what they saw at the time, never more); once over, a spectator's,
    /// which shows everything.
    ///
    /// # Errors
    /// `bad_step` when `at` is past the last move.
    fn replay_step(&self, at: usize, viewer: Viewer) -> Result<ReplayStep, Refusal>;
    /// Every seat's name, seat 1 first: a person's chosen name, else
    /// "Player N"; a bot's name.
    fn names(&self) -> Vec<String>;
    /// Every seat's colour (from 1), seat 1 first: a person keeps theirs
    /// across rematches, though their seat moves on. Seat order by default.
    fn colours(&self) -> Vec<u8> {
        (1..=self.seats().len() as u8).collect()
    }
    /// Names seat `seat` with a person's chosen name (`None` takes it away).
    ///
    /// # Errors
    /// `bad_name` for a name refused (empty, too long, invisible
    /// characters), `no_such_seat`.
    fn set_name(&mut self, seat: u8, name: Option<&str>) -> Result<(), Refusal>;
    /// How the match ended, said to a viewer holding `yours`; none while
    /// it is on.
    fn outcome(&self, yours: &[u8]) -> Option<crate::Outcome>;
    /// A new match after this one is over: the same game and setup (a
    /// random box drawn afresh), the same seats, names and colours with the
    /// first seat moved to the next player (seat 2 becomes seat 1, seat 1
    /// the last), and fresh dice from `seed` (chosen dice stay chosen).
    ///
    /// # Errors
    /// `game_on` while the match is on.
    fn rematch(&self, seed: u64) -> Result<Box<dyn AnyMatch>, Refusal>;
    /// The match drawn for a spectator: as it stands, or after its first
    /// `at` moves (as a spectator saw it then: while the match is on, no
    /// more than anyone could see at the time).
    ///
    /// # Errors
    /// `bad_step` when `at` is past the last move; `invalid` when the
    /// renderer refuses.
    fn picture(&self, name: Option<&str>, at: Option<usize>) -> Result<render::Picture, Refusal>;
    /// The match drawn as `viewer` may see it, now or after its first `at`
    /// moves (what they saw then): the spectator's picture unless the game
    /// draws each seat its own.
    ///
    /// # Errors
    /// As [`AnyMatch::picture`].
    fn picture_as(
        &self,
        viewer: Viewer,
        name: Option<&str>,
        at: Option<usize>,
    ) -> Result<render::Picture, Refusal> {
        let _ = viewer;
        self.picture(name, at)
    }
    /// Each seat's chance to win from here, exact or estimated, when the
    /// game knows it ([`tabletop::play::Playable::chances`]).
    fn chances(&self) -> Option<Chances> {
        None
    }
    /// The work of this position's chances, to be done away from the
    /// move's path, when they take a while and no view carries them yet
    /// ([`tabletop::play::Playable::chances_work`]); `None` when they are
    /// cheap (a view works them out itself), already known, or unknown to
    /// the game. Its answer is kept with [`AnyMatch::keep_chances`].
    fn chances_work(&self) -> Option<ChancesWork> {
        None
    }
    /// The work of this position's own figures, to be done away from the
    /// move's path ([`tabletop::play::Playable::figures_work`]), with the
    /// move number of the position; `None` when nothing is lacking.
    fn figures_work(&self) -> Option<(usize, tabletop::play::FiguresWork)> {
        None
    }
    /// Keeps `chances`, worked out by [`AnyMatch::chances_work`] after the
    /// first `moves` moves, when the match still stands there; true when
    /// kept (views carry them from now on).
    fn keep_chances(&mut self, moves: usize, chances: Chances) -> bool {
        let _ = (moves, chances);
        false
    }
    /// Every seat's chance to win after each move, from the start (the
    /// game replayed from its record), for a game that knows its chances:
    /// the same figures each position gave live.
    ///
    /// The work checks `budget` after each position, and stops when it
    /// says so.
    ///
    /// # Errors
    /// `no_chances` when the game does not know them; `invalid` past
    /// 5,000 moves (`CHANCES_MAX_MOVES`); `bad_record` when the record does not
    /// replay; `too_long` when `budget` stopped the work.
    fn chances_over_game(&self, budget: &tabletop::Budget) -> Result<LookBack, Refusal> {
        let _ = budget;
        Err(Refusal::new(
            Code::NoChances,
            format!(
                "{} does not know each player's chance to win",
                self.game_title()
            ),
        ))
    }
    /// Help for `viewer` on their turn: a hint and a bot's move for them
    /// ([`Adapter::helper`], [`crate::help`]).
    ///
    /// # Errors
    /// `wrong_game` for a game that offers no help (the default); the
    /// game's own refusal.
    fn helper(&self, viewer: Viewer) -> Result<Box<dyn Helper>, Refusal> {
        let _ = viewer;
        Err(Refusal::new(
            Code::WrongGame,
            format!("{} offers no hint and no bot move", self.game_title()),
        ))
    }
    /// The game's own look back of `viewer`'s box (or `seat`'s)
    /// ([`Adapter::shots_look_back`]).
    ///
    /// # Errors
    /// `wrong_game` for a game with none (the default); the game's own
    /// refusal.
    fn shots_look_back(
        &self,
        viewer: Viewer,
        seat: Option<u8>,
    ) -> Result<Box<dyn ShotsLookBack>, Refusal> {
        let _ = (viewer, seat);
        Err(Refusal::new(
            Code::WrongGame,
            format!("{} has no look back of its shots", self.game_title()),
        ))
    }
    /// The game's own look back of every box, in words
    /// ([`Adapter::shots_look_back_words`]); none by default.
    fn shots_look_back_words(&self, names: &[String]) -> Option<Vec<String>> {
        let _ = names;
        None
    }
    /// The game's length once it is over, in its own count
    /// ([`Adapter::length`]); none by default.
    fn length(&self) -> Option<u32> {
        None
    }
    /// A copy of the match as it stands, for a long read (a replay's step,
    /// a picture, the chances over the game) to work on away from the
    /// match, which goes on meanwhile.
    fn copy(&self) -> Box<dyn AnyMatch>;
}

/// A position's chances taken out of the match, to be worked out away from
/// the move's path ([`AnyMatch::chances_work`]).
pub struct ChancesWork {
    /// The move number of the position.
    pub moves: usize,
    /// The work: the position's chances.
    pub work: tabletop::play::ChancesWork,
}

/// A bot's turn taken out of the match.
pub struct BotWork {
    /// The move number it was taken at.
    pub moves: usize,
    /// The work: the move's text.
    pub choose: Box<dyn FnOnce() -> String + Send>,
}

/// A match of game `G`, and the newest events of its log in words.
pub struct TypedMatch<G: Playable> {
    m: Match<G>,
    log: std::collections::VecDeque<LogLine>,
}

impl<G: Adapter> TypedMatch<G>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    /// The match `m`, behind the one interface.
    pub fn new(m: Match<G>) -> Self {
        let lines: Vec<LogLine> = m
            .log()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .take(LOG_TAIL)
            .rev()
            .map(|l| LogLine {
                number: l.number,
                seat: l.seat,
                text: String::new(),
            })
            .collect();
        let mut typed = Self {
            m,
            log: lines.into(),
        };
        typed.reword();
        typed
    }

    /// Words the log's lines again with the seats' names as they are now
    /// (a player named themselves).
    fn reword(&mut self) {
        let names = crate::players::seat_names(&self.m);
        let tail: Vec<String> = {
            let all: Vec<_> = self.m.log().collect();
            let skip = all.len().saturating_sub(self.log.len());
            all.into_iter()
                .skip(skip)
                .map(|l| G::words(&l.event, l.seat, &names))
                .collect()
        };
        for (line, text) in self.log.iter_mut().zip(tail) {
            line.text = text;
        }
    }

    /// Words a move's events into the log, keeping the newest.
    fn note(&mut self, played: &PlayedOf<G>) {
        let names = crate::players::seat_names(&self.m);
        for event in &played.events {
            if self.log.len() == LOG_TAIL {
                self.log.pop_front();
            }
            self.log.push_back(LogLine {
                number: played.number,
                seat: played.seat,
                text: G::words(event, played.seat, &names),
            });
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

impl<G: Adapter> TypedMatch<G>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    /// What a move may change of the match layer's `view` for `viewer`:
    /// the one place a [`Position`] is built.
    fn position_of(
        &self,
        view: tabletop::play::MatchView<G::View>,
        viewer: Viewer,
    ) -> Result<Position, Refusal> {
        Ok(Position {
            status: view.status,
            moves: view.moves,
            to_move: view.to_move,
            you: view.you,
            seed: match view.dice {
                DiceView::Seeded { seed } => seed,
                DiceView::Chosen => None,
            },
            view: game_json(&view.view)?,
            page: game_json(&G::extras(&self.m, viewer))?,
        })
    }

    /// The match after its first `at` moves, replayed from the record, and
    /// the `at`-th move's play (none at 0).
    fn replayed(&self, at: usize) -> Result<(Match<G>, Option<Played>), Refusal> {
        let all = self.m.record();
        if at > all.moves.len() {
            return Err(Refusal::new(
                Code::BadStep,
                format!(
                    "this game has {} moves: a replay goes from 0 to {}",
                    all.moves.len(),
                    all.moves.len()
                ),
            ));
        }
        let mut record = all.clone();
        record.moves.truncate(at.saturating_sub(1));
        let mut m = Match::<G>::replay(record)?;
        let last = match all.moves.get(at.wrapping_sub(1)) {
            Some(entry) if at > 0 => {
                let done = m
                    .apply_entry(entry.clone())
                    .map_err(|why| Refusal::new(Code::BadRecord, why))?;
                Some(played::<G>(done, &m)?)
            }
            _ => None,
        };
        Ok((m, last))
    }
}

/// The JSON of an event, with `words` (the event in a sentence, the
/// seats named: [`Playable::words`]) under `text` (an event that is
/// not an object goes under `event`). An event that does not write —
/// the game's fault, never the player's, and after its move was played —
/// keeps its words and says why under `unwritten`, so that the move and
/// its record stay one.
///
/// # Errors
/// `server_error` were the map of its fields not to write.
pub fn event_json<E: Serialize>(event: &E, words: String) -> Result<GameJson, Refusal> {
    let text = Value::String(words);
    let mut fields = Map::new();
    match serde_json::to_value(event) {
        Ok(Value::Object(own)) => fields = own,
        Ok(other) => {
            fields.insert("event".into(), other);
        }
        Err(e) => {
            fields.insert("unwritten".into(), e.to_string().into());
        }
    }
    fields.insert("text".into(), text);
    game_json(&fields)
}

/// A game's view `view` without its top-level `fields` (a compact
/// answer's: [`Adapter::VIEW_FIXED`]).
///
/// # Errors
/// `server_error` when the view is not a JSON object or does not write.
fn without_fields(view: &GameJson, fields: &[&str]) -> Result<GameJson, Refusal> {
    let unwritten = |e: serde_json::Error| {
        Refusal::new(
            Code::ServerError,
            format!("a game's compact view could not be written: {e}"),
        )
    };
    let mut own: Map<String, Value> = serde_json::from_str(view.get()).map_err(unwritten)?;
    for field in fields {
        own.remove(*field);
    }
    game_json(&own)
}

/// A move as the API tells it; `m` is the match it was just played in (its
/// record's last entry is the move as stored: with its roll, and marked
/// when a bot chose it for a person).
///
/// # Errors
/// `server_error` when an event does not write.
fn played<G: Adapter>(p: PlayedOf<G>, m: &Match<G>) -> Result<Played, Refusal>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    let names = crate::players::seat_names(m);
    let entry = m
        .record()
        .moves
        .last()
        .map(ToString::to_string)
        .unwrap_or_default();
    Ok(Played {
        number: p.number,
        seat: p.seat,
        bot: p.bot,
        mv: p.mv.to_string(),
        told: if m.status().is_over() {
            None
        } else {
            G::told_move(m, &p.mv)
        },
        roll: p.roll,
        events: p
            .events
            .iter()
            .map(|e| event_json(e, G::words(e, p.seat, &names)))
            .collect::<Result<_, _>>()?,
        entry,
    })
}

/// Reads a move in its text or JSON form.
fn read_move<G: Playable>(mv: &MoveInput) -> Result<G::Move, Refusal> {
    let bad = |why: String| Refusal::new(Code::BadMove, why);
    match mv {
        MoveInput::Text(text) => text.parse::<G::Move>().map_err(|e| bad(e.to_string())),
        MoveInput::Json(value) => serde_json::from_value::<G::Move>(value.clone()).map_err(|e| {
            let shown: String = value.to_string().chars().take(80).collect();
            bad(format!(
                "'{shown}' is not a move of this game: {}",
                move_words(&e.to_string())
            ))
        }),
    }
}

/// serde's words about a move that does not read, with Rust's type names
/// said as a person knows them.
fn move_words(text: &str) -> String {
    let mut text = text.to_string();
    for rust in ["expected internally tagged enum ", "expected struct "] {
        if let Some(at) = text.find(rust) {
            let name_start = at + rust.len();
            let name_end = text[name_start..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .map_or(text.len(), |n| name_start + n);
            text.replace_range(
                at..name_end,
                "expected a move: a word, or an object with its \"move\"",
            );
        }
    }
    text
}

impl<G: Adapter> AnyMatch for TypedMatch<G>
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

    fn view(&self, viewer: Viewer) -> Result<TableView, Refusal> {
        let view = self.m.view(viewer);
        let fixed = Fixed {
            game: view.game,
            seats: view.seats.clone(),
            dice: match view.dice {
                DiceView::Seeded { .. } => DiceKind::Seeded,
                DiceView::Chosen => DiceKind::Chosen,
            },
            names: self.names(),
            view_fixed: G::VIEW_FIXED,
        };
        Ok(TableView {
            fixed,
            position: self.position_of(view, viewer)?,
            log: self.log.iter().cloned().collect(),
        })
    }

    fn position(&self, viewer: Viewer) -> Result<Position, Refusal> {
        let mut position = self.position_of(self.m.view(viewer), viewer)?;
        if !G::VIEW_FIXED.is_empty() {
            position.view = without_fields(&position.view, G::VIEW_FIXED)?;
        }
        Ok(position)
    }

    fn public_setup(&self) -> Result<GameJson, Refusal> {
        game_json(&G::public_setup(&self.m))
    }

    fn title(&self) -> String {
        // A board's name is another's text: shown by the one rule, cut.
        tabletop::play::cut_title(&G::title(&self.m.record().setup, self.m.seats()))
    }

    fn play(
        &mut self,
        seat: u8,
        mv: &MoveInput,
        after: Option<usize>,
        roll: Option<u32>,
    ) -> Result<Played, Refusal> {
        let mv = read_move::<G>(mv)?;
        let request = tabletop::play::Request { mv, after, roll };
        let done = self.m.play(seat, request)?;
        self.note(&done);
        played::<G>(done, &self.m)
    }

    fn play_chosen_by_bot(
        &mut self,
        seat: u8,
        mv: &MoveInput,
        after: Option<usize>,
    ) -> Result<Played, Refusal> {
        let mv = read_move::<G>(mv)?;
        let request = tabletop::play::Request {
            mv,
            after,
            roll: None,
        };
        let done = self.m.play_chosen_by_bot(seat, request)?;
        self.note(&done);
        played::<G>(done, &self.m)
    }

    fn bot_turn(&self) -> Option<BotWork> {
        let turn = self.m.bot_turn()?;
        Some(BotWork {
            moves: turn.moves,
            choose: Box::new(move || turn.choose().1.to_string()),
        })
    }

    fn play_bot(&mut self, moves: usize, mv: &str) -> Result<Played, Refusal> {
        let mv = read_move::<G>(&MoveInput::Text(mv.to_string()))?;
        let done = self.m.play_bot(moves, mv)?;
        self.note(&done);
        played::<G>(done, &self.m)
    }

    fn apply_entry(&mut self, entry: &str) -> Result<Played, String> {
        let entry = entry.parse::<Entry<G::Move>>()?;
        let done = self.m.apply_entry(entry)?;
        self.note(&done);
        played::<G>(done, &self.m).map_err(|e| e.to_string())
    }

    fn header(&self) -> Result<String, Refusal> {
        let record = self.m.record();
        let header = Record::<&G::Setup, G::Move> {
            game: record.game.clone(),
            version: record.version,
            setup: &record.setup,
            seats: record.seats.clone(),
            dice: record.dice,
            names: record.names.clone(),
            colours: record.colours.clone(),
            moves: Vec::new(),
        };
        serde_json::to_string(&header).map_err(|e| {
            Refusal::new(
                Code::ServerError,
                format!("the match's record could not be written: {e}"),
            )
        })
    }

    fn record_once_over(&self) -> Result<GameJson, Refusal> {
        game_json(&self.m.public_record().ok_or_else(Refusal::game_on)?)
    }

    fn replay_step(&self, at: usize, viewer: Viewer) -> Result<ReplayStep, Refusal> {
        let viewer = if self.m.status().is_over() {
            Viewer::Spectator
        } else {
            viewer
        };
        let (m, played) = self.replayed(at)?;
        // While the match is on, another's move is told as they were told.
        let played = played.map(|p| match viewer {
            Viewer::Seat { seat } if seat == p.seat => p,
            _ if self.m.status().is_over() => Played { told: None, ..p },
            _ => p.for_others(),
        });
        Ok(ReplayStep {
            at,
            moves: self.m.moves(),
            played,
            view: TypedMatch::new(m).view(viewer)?,
        })
    }

    fn names(&self) -> Vec<String> {
        crate::players::seat_names(&self.m)
    }

    fn colours(&self) -> Vec<u8> {
        (1..=self.m.seats().len() as u8)
            .map(|seat| self.m.colour(seat))
            .collect()
    }

    fn set_name(&mut self, seat: u8, name: Option<&str>) -> Result<(), Refusal> {
        self.m.set_name(seat, name).map_err(|e| Refusal::of(&e))?;
        self.reword();
        Ok(())
    }

    fn outcome(&self, yours: &[u8]) -> Option<crate::Outcome> {
        crate::players::outcome(&self.m.status(), &self.names(), yours)
    }

    fn rematch(&self, seed: u64) -> Result<Box<dyn AnyMatch>, Refusal> {
        if !self.m.status().is_over() {
            return Err(Refusal::new(
                Code::GameOn,
                "the game is still on: a rematch is made once it is over",
            ));
        }
        let record = self.m.record();
        let n = record.seats.len();
        let next = |i: usize| (i + 1) % n;
        let seats = (0..n).map(|i| record.seats[next(i)]).collect();
        let dice = match record.dice {
            DiceMode::Seeded { .. } => DiceMode::Seeded { seed },
            DiceMode::Chosen => DiceMode::Chosen,
        };
        let mut m = Match::<G>::start(G::rematch_setup(&record.setup, seed), seats, dice)?;
        for i in 0..n {
            if let Some(name) = self.m.chosen_name(next(i) as u8 + 1) {
                m.set_name(i as u8 + 1, Some(name))
                    .map_err(|e| Refusal::of(&e))?;
            }
        }
        let colours = (0..n).map(|i| self.m.colour(next(i) as u8 + 1)).collect();
        m.set_colours(colours)
            .map_err(|e| Refusal::new(Code::ServerError, e.to_string()))?;
        Ok(Box::new(TypedMatch::new(m)))
    }

    fn picture_as(
        &self,
        viewer: Viewer,
        name: Option<&str>,
        at: Option<usize>,
    ) -> Result<render::Picture, Refusal> {
        let drawn = match at {
            None => G::picture_for(&self.m, viewer, name),
            Some(at) => G::picture_for(&self.replayed(at)?.0, viewer, name),
        };
        drawn.map_err(|e| Refusal::new(Code::Invalid, format!("cannot draw this: {e}")))
    }

    fn picture(&self, name: Option<&str>, at: Option<usize>) -> Result<render::Picture, Refusal> {
        // A past step is drawn as a spectator saw it then: while the match
        // is on, what every viewer could see at the time (the game's own
        // picture holds nothing hidden while it is on).
        let drawn = match at {
            None => G::picture(&self.m, name),
            Some(at) => G::picture(&self.replayed(at)?.0, name),
        };
        drawn.map_err(|e| Refusal::new(Code::Invalid, format!("cannot draw this: {e}")))
    }

    fn chances(&self) -> Option<Chances> {
        self.m.game().chances()
    }

    fn chances_work(&self) -> Option<ChancesWork> {
        let work = self.m.game().chances_work()?;
        Some(ChancesWork {
            moves: self.moves(),
            work,
        })
    }

    fn figures_work(&self) -> Option<(usize, tabletop::play::FiguresWork)> {
        Some((self.moves(), self.m.game().figures_work()?))
    }

    fn keep_chances(&mut self, moves: usize, chances: Chances) -> bool {
        if self.moves() != moves {
            return false;
        }
        self.m.game().keep_chances(chances);
        true
    }

    fn chances_over_game(&self, budget: &tabletop::Budget) -> Result<LookBack, Refusal> {
        let no = || {
            Refusal::new(
                Code::NoChances,
                format!("{} does not know each player's chance to win", G::TITLE),
            )
        };
        let all = self.m.record();
        if all.moves.len() > CHANCES_MAX_MOVES {
            return Err(Refusal::new(
                Code::Invalid,
                format!(
                    "this game has {} moves: its chances are charted for games of up to {CHANCES_MAX_MOVES}",
                    all.moves.len()
                ),
            ));
        }
        let mut record = all.clone();
        record.moves.clear();
        let mut m = Match::<G>::replay(record)?;
        let mut steps = vec![m.game().chances().ok_or_else(no)?];
        let mut moves = Vec::with_capacity(all.moves.len());
        for entry in &all.moves {
            let p = m
                .apply_entry(entry.clone())
                .map_err(|why| Refusal::new(Code::BadRecord, why))?;
            let told = played(p, &m)?.for_others();
            moves.push(MoveLine {
                seat: told.seat,
                texts: told.words(),
            });
            steps.push(m.game().chances().ok_or_else(no)?);
            budget
                .check()
                .map_err(|stopped| Refusal::new(Code::TooLong, stopped.to_string()))?;
        }
        Ok(LookBack { steps, moves })
    }

    fn copy(&self) -> Box<dyn AnyMatch> {
        Box::new(Self {
            m: self.m.clone(),
            log: self.log.clone(),
        })
    }

    fn helper(&self, viewer: Viewer) -> Result<Box<dyn Helper>, Refusal> {
        G::helper(&self.m, viewer)
    }

    fn shots_look_back(
        &self,
        viewer: Viewer,
        seat: Option<u8>,
    ) -> Result<Box<dyn ShotsLookBack>, Refusal> {
        G::shots_look_back(&self.m, viewer, seat)
    }

    fn shots_look_back_words(&self, names: &[String]) -> Option<Vec<String>> {
        G::shots_look_back_words(&self.m, names)
    }

    fn length(&self) -> Option<u32> {
        if self.m.status().is_over() {
            G::length(&self.m)
        } else {
            None
        }
    }
}
