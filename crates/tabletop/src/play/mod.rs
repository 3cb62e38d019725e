//! The match layer: one way to play every game, for every front end.
//!
//! Terms:
//! - **game contract** ([`Playable`]): what a game gives the match layer —
//!   a setup checked into a game, moves with text and JSON forms, events
//!   that say themselves in words, a view for a seat or a spectator, a
//!   status, and a bot's move at each [`BotLevel`].
//! - **seat**: a player's place, numbered from 1 in turn order; a person or
//!   a bot answers for it ([`SeatKind`]).
//! - **viewer** ([`Viewer`]): who looks — a seat, or a spectator.
//! - **dice** ([`DiceMode`]): `seeded` (the match draws every roll from a
//!   seed it keeps secret until the end) or `chosen` (each rolling move
//!   carries its roll: the CLI's `--dice`, a teacher's scripted game). A
//!   seeded match refuses a chosen roll.
//! - **record** ([`Record`]): the game's name, setup, seats, dice and moves;
//!   the one save format of every game. A match is loaded by replaying it.
//! - **move number**: how many moves the record holds. A client sends the
//!   number it saw with its move, so that a stale or doubled move is refused
//!   ([`MatchError::Stale`]) and never applied twice.
//! - **status** ([`Status`]): playing, won, given up, or stalled with its
//!   reason.
//! - **stall rule**: a match stops as stalled when its game says it can
//!   never end, or when it reaches its move cap ([`Match::with_move_cap`]).
//! - **chances** ([`Chances`]): each seat's chance to win from here, exact
//!   or estimated with a 95% interval, worked out from what every viewer
//!   sees ([`Playable::chances`]).
//! - **secrets policy**: while a match is on, nothing it hands out — a
//!   view, an event, an error, the public record — carries the seed or
//!   anything a game hides ([`Playable::view`] builds views that hold only
//!   what the viewer may know); once it is over, everything is shown.

mod chances;
mod names;
mod record;
mod status;

pub use chances::{Chances, ChancesWork, FiguresWork, Interval, Z95, wilson};
pub use names::{
    NAME_MAX, NameError, TITLE_MAX, check_name, check_text, check_unlike, cut_title, looks_alike,
};
pub use record::{DiceMode, Entry, RECORD_VERSION, Record, ReplayError};
pub use status::{Stall, Status};

use crate::Code;
use crate::{BotLevel, DiceSource, Rng, ScriptedDice, SeededDice};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The default most moves in one match, after which it is stalled.
pub const DEFAULT_MOVE_CAP: usize = 100_000;

/// The most events a match keeps in its log; older ones are dropped (the
/// whole log can always be rebuilt by replaying the record).
pub const LOG_CAP: usize = 2_000;

/// A refusal's stable, machine-readable name (`not_your_turn`,
/// `illegal_move`, …), for front ends that must tell refusals apart.
pub trait Coded {
    /// The code: lowercase words joined by `_`, never changed once shipped.
    fn code(&self) -> crate::Code;
}

/// Who answers for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatKind {
    /// A person (at this screen, or on their own device).
    Person,
    /// A bot, moved by the match.
    Bot {
        /// How strong it plays.
        #[serde(default)]
        level: BotLevel,
    },
}

impl SeatKind {
    /// True for a bot seat.
    pub fn is_bot(self) -> bool {
        matches!(self, Self::Bot { .. })
    }
}

impl fmt::Display for SeatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Person => f.write_str("person"),
            Self::Bot { level } => write!(f, "{level} bot"),
        }
    }
}

impl FromStr for SeatKind {
    type Err = String;
    /// Reads `person` (or `human`), `bot` (a normal bot), `easy` (or
    /// `random`), `normal`, `hard`, or `bot:LEVEL`.
    fn from_str(s: &str) -> Result<Self, String> {
        let word = s.trim().to_ascii_lowercase();
        let level = word.strip_prefix("bot:").unwrap_or(&word);
        match level {
            "person" | "human" => Ok(Self::Person),
            "bot" => Ok(Self::Bot {
                level: BotLevel::Normal,
            }),
            "random" => Ok(Self::Bot {
                level: BotLevel::Easy,
            }),
            other => other
                .parse::<BotLevel>()
                .map(|level| Self::Bot { level })
                .map_err(|_| format!("'{s}' is not a seat: say person, bot, easy, normal or hard")),
        }
    }
}

/// Who looks at a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "viewer", rename_all = "snake_case")]
pub enum Viewer {
    /// The player in this seat (from 1).
    Seat {
        /// The seat.
        seat: u8,
    },
    /// Someone watching, who holds no seat.
    Spectator,
}

/// What a game gives the match layer.
///
/// A game value is always a legal position: [`Playable::start`] checks the
/// setup, [`Playable::apply`] refuses an illegal move and then changes
/// nothing. The game never holds dice: the match hands them to `apply`, so
/// that a bot searching a copy of the game cannot see future rolls.
pub trait Playable: Clone + Sized {
    /// The game's name in records, URLs and the API: `chutes`, `baffle`,
    /// `tycoon`.
    const NAME: &'static str;
    /// How to start a game; not yet checked.
    type Setup: Clone + fmt::Debug + Serialize + DeserializeOwned;
    /// A player's move, in text (`FromStr` + `Display`) and JSON.
    type Move: Clone
        + fmt::Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + fmt::Display
        + FromStr<Err: fmt::Display>;
    /// What a move did, in words (`Display`) and JSON.
    type Event: Clone + fmt::Debug + Serialize + fmt::Display;
    /// What one viewer may see.
    type View: Serialize;
    /// Why a setup or a move was refused.
    type Error: std::error::Error + Coded + Clone;

    /// The seats a game of this setup may have (for example 1 to 8).
    fn seat_range(setup: &Self::Setup) -> std::ops::RangeInclusive<u8>;

    /// Checks `setup` and starts a game for these seats (their count is in
    /// [`Playable::seat_range`]); `seed` is the match's secret seed, for a
    /// game that draws something at the start (Baffle's random mirrors).
    ///
    /// # Errors
    /// The game's error when the setup breaks one of its rules.
    fn start(setup: &Self::Setup, seats: &[SeatKind], seed: u64) -> Result<Self, Self::Error>;

    /// The seat (from 1) that must answer next, or `None` once the game is
    /// over.
    fn to_move(&self) -> Option<u8>;

    /// Plays `mv` for the seat [`Playable::to_move`] names, rolling `dice`
    /// when the move rolls.
    ///
    /// # Errors
    /// The game's error when the move is illegal here, or the dice cannot
    /// roll; the game is then unchanged.
    fn apply(
        &mut self,
        mv: &Self::Move,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Self::Event>, Self::Error>;

    /// Where the game stands. A game that can never end says so here
    /// ([`Status::Stalled`]).
    fn status(&self) -> Status;

    /// What `viewer` may see now. While the game is on it must hold nothing
    /// the viewer may not know (an unfound mirror, another seat's secret).
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The move a bot at `level` makes for the seat to move. `rng` is the
    /// bot's own randomness, never the match's dice.
    fn bot_move(&self, level: BotLevel, rng: &mut Rng) -> Self::Move;

    /// Each seat's chance to win from here, in seat order — exact, or
    /// estimated with its intervals ([`Chances`]) — when the game can work
    /// it out from what every viewer sees alone (the live bar, the look
    /// back's swings and luck read it); `None` (the default) when it
    /// cannot. The same position always gives the same chances.
    fn chances(&self) -> Option<Chances> {
        None
    }

    /// The chances a view carries now: [`Playable::chances`] when they
    /// are cheap (the default), or only those already worked out for this
    /// position when they take a while (a game that offers
    /// [`Playable::chances_work`]), so that a view never waits for them.
    fn known_chances(&self) -> Option<Chances> {
        self.chances()
    }

    /// The work of this position's chances, to be done away from the
    /// move's path, when they take a while and are not yet worked out;
    /// `None` (the default) when they are cheap, already known, or the
    /// game has none. Its answer is kept with [`Playable::keep_chances`].
    fn chances_work(&self) -> Option<ChancesWork> {
        None
    }

    /// The work of this position's own figures that its views show once
    /// worked out (Baffle: how many layouts still fit), to be done away
    /// from the move's path; it fills a memo the game shares with it, and
    /// views carry what the memo holds. `None` (the default) when nothing
    /// is lacking or the game has no such figures.
    fn figures_work(&self) -> Option<FiguresWork> {
        None
    }

    /// Keeps `chances`, worked out by [`Playable::chances_work`] for this
    /// very position, so that views carry them from now on; the default
    /// keeps nothing.
    fn keep_chances(&self, chances: Chances) {
        let _ = chances;
    }

    /// `event` of a move by seat `mover` (from 1) in a sentence for
    /// people, each seat called by its name (`names[0]` is seat 1's: "Ada
    /// rolls 6 and climbs the ladder from 28 to 84"). The default is the
    /// event's own words (`Display`), which name no seat.
    fn words(event: &Self::Event, mover: u8, names: &[String]) -> String {
        let _ = (mover, names);
        event.to_string()
    }
}

/// Seat `seat`'s (from 1) name in `names`, or "Player N" when `names` has
/// none for it: the one rule by which a game's words name a seat.
pub fn seat_name(names: &[String], seat: u8) -> String {
    names
        .get(usize::from(seat).wrapping_sub(1))
        .cloned()
        .unwrap_or_else(|| format!("Player {seat}"))
}

/// A move as a client sends it: the move, the move number it saw, and (in
/// a match with chosen dice) the roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request<M> {
    /// The move.
    #[serde(rename = "move")]
    pub mv: M,
    /// The move number the client saw; a different one is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<usize>,
    /// The roll, in a match with chosen dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u32>,
}

impl<M> Request<M> {
    /// `mv` with no move number (not checked) and no roll (the match's
    /// own dice).
    pub fn new(mv: M) -> Self {
        Self {
            mv,
            after: None,
            roll: None,
        }
    }

    /// `mv` sent by a client that saw `moves` moves (refused when the
    /// match has moved on), with the match's own dice.
    pub fn after_moves(mv: M, moves: usize) -> Self {
        Self {
            mv,
            after: Some(moves),
            roll: None,
        }
    }
}

/// Why the match refused a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError<E> {
    /// The match is over.
    #[error("the game is over ({status}); start a new one")]
    Over {
        /// How it ended.
        status: Status,
    },
    /// Another seat must move.
    #[error("it is not seat {seat}'s turn: seat {to_move} is to move")]
    NotYourTurn {
        /// Who tried.
        seat: u8,
        /// Who must move.
        to_move: u8,
    },
    /// The seat is answered by a bot.
    #[error("seat {seat} is a bot's; the match moves it")]
    BotSeat {
        /// The seat.
        seat: u8,
    },
    /// No such seat.
    #[error("there is no seat {seat}: this match has seats 1 to {seats}")]
    NoSeat {
        /// The seat asked for.
        seat: u8,
        /// How many seats there are.
        seats: u8,
    },
    /// The move was made for another position than the current one.
    #[error(
        "the game has moved on: this move was made after move {got}, but the game has {expected} (reload to see the latest)"
    )]
    Stale {
        /// The move number now.
        expected: usize,
        /// The move number the client saw.
        got: usize,
    },
    /// A roll was given in a match whose dice are seeded.
    #[error("this match rolls its own dice: a move cannot say its roll")]
    RollNotChosen,
    /// A rolling move came with no roll in a match with chosen dice.
    #[error("this match's rolls are chosen: say the roll with the move")]
    RollNeeded,
    /// A roll was given with a move that does not roll.
    #[error("'{mv}' does not roll: give no roll with it")]
    RollUnused {
        /// The move, as text.
        mv: String,
    },
    /// The game refused the move.
    #[error(transparent)]
    Game(E),
}

impl<E: Coded> Coded for MatchError<E> {
    fn code(&self) -> Code {
        match self {
            Self::Over { .. } => Code::GameOver,
            Self::NotYourTurn { .. } => Code::NotYourTurn,
            Self::BotSeat { .. } => Code::BotSeat,
            Self::NoSeat { .. } => Code::NoSuchSeat,
            Self::Stale { .. } => Code::StaleMove,
            Self::RollNotChosen => Code::RollNotChosen,
            Self::RollNeeded => Code::RollNeeded,
            Self::RollUnused { .. } => Code::RollUnused,
            Self::Game(e) => e.code(),
        }
    }
}

/// An event as the match logs it: the move (from 1) that caused it, and the
/// seat that moved.
#[derive(Clone, Debug, Serialize)]
pub struct Logged<E> {
    /// The move's number, from 1.
    pub number: usize,
    /// Who moved (from 1).
    pub seat: u8,
    /// What happened.
    #[serde(flatten)]
    pub event: E,
}

/// What one move did: who moved, the move, and its events.
#[derive(Clone, Debug, Serialize)]
pub struct Played<M, E> {
    /// The move's number, from 1.
    pub number: usize,
    /// Who moved (from 1).
    pub seat: u8,
    /// Whether a bot made it.
    pub bot: bool,
    /// The move.
    #[serde(rename = "move")]
    pub mv: M,
    /// The roll the move used, when it rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
    /// What happened.
    pub events: Vec<E>,
}

/// What a move of game `G` did.
pub type PlayedOf<G> = Played<<G as Playable>::Move, <G as Playable>::Event>;

/// A move of game `G` played, or why it was refused.
pub type MoveResult<G> = Result<PlayedOf<G>, MatchError<<G as Playable>::Error>>;

/// The dice as a viewer sees them: how they roll, and the seed once the
/// match is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "dice", rename_all = "snake_case")]
pub enum DiceView {
    /// Seeded dice; the seed is shown once the match is over.
    Seeded {
        /// The seed, only once the match is over.
        #[serde(skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
    /// Every roll was chosen by a player.
    Chosen,
}

/// What a viewer sees of a match: its state and the game's own view.
#[derive(Clone, Debug, Serialize)]
pub struct MatchView<V> {
    /// The game's name.
    pub game: &'static str,
    /// Where it stands.
    #[serde(flatten)]
    pub status: Status,
    /// Moves made so far (send it back with the next move).
    pub moves: usize,
    /// Who must move next (from 1), or none once over.
    pub to_move: Option<u8>,
    /// Who answers for each seat, in order.
    pub seats: Vec<SeatKind>,
    /// The seat looking (from 1), or none for a spectator.
    pub you: Option<u8>,
    /// The dice.
    #[serde(flatten)]
    pub dice: DiceView,
    /// The game's view for this viewer.
    pub view: V,
}

/// A bot's turn, taken out of the match to be worked out elsewhere
/// ([`Match::bot_turn`]).
#[derive(Clone, Debug)]
pub struct BotTurn<G> {
    /// A copy of the game (it holds no dice, so no future roll).
    pub game: G,
    /// How strong the bot plays.
    pub level: BotLevel,
    /// The bot's own randomness.
    pub rng: Rng,
    /// The match's move number when the turn was taken.
    pub moves: usize,
}

impl<G: Playable> BotTurn<G> {
    /// The bot's move (may take a while: a search bot thinks).
    pub fn choose(mut self) -> (usize, G::Move) {
        let mv = self.game.bot_move(self.level, &mut self.rng);
        (self.moves, mv)
    }
}

#[derive(Clone, Debug)]
enum MatchDice {
    Seeded(SeededDice),
    Chosen,
}

/// One game being played: the game, its record, its dice and its log.
#[derive(Clone, Debug)]
pub struct Match<G: Playable> {
    game: G,
    record: Record<G::Setup, G::Move>,
    dice: MatchDice,
    log: std::collections::VecDeque<Logged<G::Event>>,
    move_cap: usize,
    capped: bool,
}

/// "4 players" or "1 to 8 players".
fn players_allowed(allowed: &std::ops::RangeInclusive<u8>) -> String {
    if allowed.start() == allowed.end() {
        format!("{} players", allowed.start())
    } else {
        format!("{} to {} players", allowed.start(), allowed.end())
    }
}

/// Colours that are not each seat's once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a match of {seats} seats gives each of the colours 1 to {seats} once, not {colours:?}")]
pub struct ColourError {
    /// The colours given.
    pub colours: Vec<u8>,
    /// The match's seats.
    pub seats: usize,
}

/// True when `colours` holds each of 1 to `seats` once.
fn is_permutation(colours: &[u8], seats: usize) -> bool {
    let mut seen = vec![false; seats];
    colours.len() == seats
        && colours.iter().all(|&c| {
            let i = usize::from(c).wrapping_sub(1);
            i < seats && !std::mem::replace(&mut seen[i], true)
        })
}

/// Why a match could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError<E> {
    /// Not a seat count the game allows.
    #[error("this game takes {}, not {seats}", players_allowed(.allowed))]
    Seats {
        /// Seats given.
        seats: usize,
        /// Seats allowed.
        allowed: std::ops::RangeInclusive<u8>,
    },
    /// The game refused the setup.
    #[error(transparent)]
    Game(E),
}

impl<E: Coded> Coded for StartError<E> {
    fn code(&self) -> Code {
        match self {
            Self::Seats { .. } => Code::BadSeats,
            Self::Game(e) => e.code(),
        }
    }
}

impl<G: Playable> Match<G> {
    /// Starts a match of `setup` with these seats and dice.
    ///
    /// # Errors
    /// A [`StartError`] when the seat count or the setup is refused.
    pub fn start(
        setup: G::Setup,
        seats: Vec<SeatKind>,
        dice: DiceMode,
    ) -> Result<Self, StartError<G::Error>> {
        let allowed = G::seat_range(&setup);
        if !u8::try_from(seats.len()).is_ok_and(|n| allowed.contains(&n)) {
            return Err(StartError::Seats {
                seats: seats.len(),
                allowed,
            });
        }
        let game = G::start(&setup, &seats, dice.seed()).map_err(StartError::Game)?;
        let mut new = Self {
            game,
            record: Record::new(G::NAME, setup, seats, dice),
            dice: match dice {
                DiceMode::Seeded { seed } => MatchDice::Seeded(SeededDice::new(seed)),
                DiceMode::Chosen => MatchDice::Chosen,
            },
            log: std::collections::VecDeque::new(),
            move_cap: DEFAULT_MOVE_CAP,
            capped: false,
        };
        new.check_cap();
        Ok(new)
    }

    /// Names seat `seat` (from 1) with a person's chosen name, checked by
    /// [`check_name`] and [`check_unlike`] the other seats' chosen names,
    /// or takes its name away (`None`). The record keeps it.
    ///
    /// # Errors
    /// A [`NameError`] for a refused name; a seat the match does not have
    /// is [`NameError::NoSeat`].
    pub fn set_name(&mut self, seat: u8, name: Option<&str>) -> Result<(), NameError> {
        let seats = self.record.seats.len();
        let index = usize::from(seat).wrapping_sub(1);
        if index >= seats {
            return Err(NameError::NoSeat { seat, seats });
        }
        let name = name.map(check_name).transpose()?;
        if let Some(name) = &name {
            let others = self
                .record
                .names
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != index)
                .filter_map(|(_, n)| n.as_deref());
            check_unlike(name, others)?;
        }
        let names = &mut self.record.names;
        if names.len() < seats {
            names.resize(seats, None);
        }
        names[index] = name;
        if names.iter().all(Option::is_none) {
            names.clear();
        }
        Ok(())
    }

    /// Gives the seats these colours (from 1, seat 1's first): a rematch
    /// keeps each player's colour though their seat moved on.
    ///
    /// # Errors
    /// [`ColourError`] unless `colours` holds each of 1 to the seats' count
    /// once.
    pub fn set_colours(&mut self, colours: Vec<u8>) -> Result<(), ColourError> {
        if !is_permutation(&colours, self.record.seats.len()) {
            return Err(ColourError {
                colours,
                seats: self.record.seats.len(),
            });
        }
        let plain = colours
            .iter()
            .enumerate()
            .all(|(i, &c)| usize::from(c) == i + 1);
        self.record.colours = if plain { Vec::new() } else { colours };
        Ok(())
    }

    /// Seat `seat`'s colour (from 1): the record's, else the seat itself
    /// (also for a record whose colours are not each seat's once).
    pub fn colour(&self, seat: u8) -> u8 {
        let colours = &self.record.colours;
        if !is_permutation(colours, self.record.seats.len()) {
            return seat;
        }
        colours
            .get(usize::from(seat).wrapping_sub(1))
            .copied()
            .unwrap_or(seat)
    }

    /// Seat `seat`'s chosen name (from 1), if it has one.
    pub fn chosen_name(&self, seat: u8) -> Option<&str> {
        self.record
            .names
            .get(usize::from(seat).wrapping_sub(1))
            .and_then(Option::as_deref)
    }

    /// Sets the most moves this match may have before it is stalled.
    pub fn with_move_cap(mut self, cap: usize) -> Self {
        self.move_cap = cap.max(1);
        self.check_cap();
        self
    }

    /// Loads a match by replaying its record.
    ///
    /// # Errors
    /// A [`ReplayError`] naming the first move that is refused, and why, or
    /// saying that the record is of another game or a bad setup.
    pub fn replay(record: Record<G::Setup, G::Move>) -> Result<Self, ReplayError> {
        if record.game != G::NAME {
            return Err(ReplayError::Game {
                found: record.game,
                expected: G::NAME,
            });
        }
        if record.version != RECORD_VERSION {
            return Err(ReplayError::Version {
                found: record.version,
            });
        }
        let names = record.names;
        let mut game = Self::start(record.setup, record.seats, record.dice)
            .map_err(|e| ReplayError::Setup(e.to_string()))?;
        for (i, name) in names.into_iter().enumerate() {
            if let Some(name) = name {
                let seat = u8::try_from(i + 1).unwrap_or(u8::MAX);
                // A name kept before a stricter rule refused it (a look-alike,
                // a blank) leaves the seat unnamed: the record still replays.
                // One no rule ever allowed (a control or direction character,
                // too long) means the record was not written by Parlor.
                match game.set_name(seat, Some(&name)) {
                    Ok(()) => {}
                    Err(NameError::NoSeat { .. }) => {
                        return Err(ReplayError::Setup(format!(
                            "seat {seat} is named, but the game has {} seats",
                            game.record.seats.len()
                        )));
                    }
                    Err(e @ (NameError::Empty | NameError::TooLong { .. })) => {
                        return Err(ReplayError::Setup(format!("seat {seat}'s name: {e}")));
                    }
                    Err(e @ NameError::Invisible { code, .. }) if never_allowed(code) => {
                        return Err(ReplayError::Setup(format!("seat {seat}'s name: {e}")));
                    }
                    Err(_) => {}
                }
            }
        }
        if !record.colours.is_empty() {
            game.set_colours(record.colours)
                .map_err(|e| ReplayError::Setup(e.to_string()))?;
        }
        for (index, entry) in record.moves.into_iter().enumerate() {
            game.apply_entry(entry)
                .map_err(|why| ReplayError::Move { index, why })?;
        }
        Ok(game)
    }

    /// Plays the next entry of a record, as [`Match::replay`] does: for the
    /// seat to move, with the entry's roll in a match with chosen dice. A
    /// server that shares its matches with others uses it to catch up with
    /// the moves another server stored.
    ///
    /// # Errors
    /// Why the entry does not fit here, in words: the game was over, a
    /// roll given to a seeded match or a move that does not roll, or the
    /// game refused the move. The match is then unchanged.
    pub fn apply_entry(&mut self, entry: Entry<G::Move>) -> Result<PlayedOf<G>, String> {
        let seat = self
            .to_move()
            .ok_or_else(|| format!("the game was already over ({})", self.status()))?;
        let bot = entry.by_bot || self.record.seats[usize::from(seat) - 1].is_bot();
        let mut roll = ScriptedDice::new(entry.roll.map(u32::from).into_iter().collect::<Vec<_>>());
        let given: Option<&mut dyn DiceSource> = match (self.dice_chosen(), entry.roll) {
            (true, _) => Some(&mut roll),
            (false, None) => None,
            (false, Some(_)) => {
                return Err(MatchError::<G::Error>::RollNotChosen.to_string());
            }
        };
        let roll_given = entry.roll.is_some();
        self.play_as(seat, entry.mv, given, bot, roll_given)
            .map_err(|e| match e {
                MatchError::RollUnused { .. } => {
                    "its roll does not match the move (a roll the move did not use)".to_string()
                }
                e => e.to_string(),
            })
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The whole record, seed and all. Front ends must not hand it to a
    /// player while the match is on: use [`Match::public_record`].
    pub fn record(&self) -> &Record<G::Setup, G::Move> {
        &self.record
    }

    /// The record, once the match is over (for replays and export); `None`
    /// while it is on, since it holds the seed.
    pub fn public_record(&self) -> Option<&Record<G::Setup, G::Move>> {
        self.status().is_over().then_some(&self.record)
    }

    /// Where the match stands: the game's status, or stalled at the move
    /// cap.
    pub fn status(&self) -> Status {
        match self.game.status() {
            Status::Playing if self.capped => Status::stalled(Stall::MoveCap {
                moves: self.move_cap,
            }),
            status => status,
        }
    }

    /// Who must move next (from 1), or `None` once the match is over.
    pub fn to_move(&self) -> Option<u8> {
        if self.status().is_over() {
            None
        } else {
            self.game.to_move()
        }
    }

    /// Moves made so far.
    pub fn moves(&self) -> usize {
        self.record.moves.len()
    }

    /// Who answers for each seat.
    pub fn seats(&self) -> &[SeatKind] {
        &self.record.seats
    }

    /// True when the match's rolls are chosen by the players.
    pub fn dice_chosen(&self) -> bool {
        matches!(self.dice, MatchDice::Chosen)
    }

    /// The latest events (at most [`LOG_CAP`]), oldest first.
    pub fn log(&self) -> impl Iterator<Item = &Logged<G::Event>> {
        self.log.iter()
    }

    /// What `viewer` may see now.
    pub fn view(&self, viewer: Viewer) -> MatchView<G::View> {
        let over = self.status().is_over();
        MatchView {
            game: G::NAME,
            status: self.status(),
            moves: self.moves(),
            to_move: self.to_move(),
            seats: self.record.seats.clone(),
            you: match viewer {
                Viewer::Seat { seat } => Some(seat),
                Viewer::Spectator => None,
            },
            dice: match self.record.dice {
                DiceMode::Seeded { seed } => DiceView::Seeded {
                    seed: over.then_some(seed),
                },
                DiceMode::Chosen => DiceView::Chosen,
            },
            view: self.game.view(viewer),
        }
    }

    /// Plays a person's move for `seat`, as a client sent it (with the move
    /// number it saw, and its roll when the dice are chosen).
    ///
    /// # Errors
    /// A [`MatchError`]: the match is over, it is not `seat`'s turn, the
    /// seat is a bot's, the move number is stale, the roll does not fit the
    /// dice, or the game refuses the move. A refused move changes nothing.
    pub fn play(&mut self, seat: u8, request: Request<G::Move>) -> MoveResult<G> {
        self.play_for(seat, request, false)
    }

    /// Plays a move a bot chose for a person's `seat` (Baffle's Bot move):
    /// as [`Match::play`], and the record and the play say a bot chose it.
    ///
    /// # Errors
    /// As [`Match::play`].
    pub fn play_chosen_by_bot(&mut self, seat: u8, request: Request<G::Move>) -> MoveResult<G> {
        self.play_for(seat, request, true)
    }

    fn play_for(&mut self, seat: u8, request: Request<G::Move>, by_bot: bool) -> MoveResult<G> {
        // The move number first: a request sent for another position (a
        // double click, a second tab) is stale whatever else is true now.
        if let Some(after) = request.after
            && after != self.moves()
        {
            return Err(MatchError::Stale {
                expected: self.moves(),
                got: after,
            });
        }
        self.check_person(seat)?;
        match (self.dice_chosen(), request.roll) {
            (false, Some(_)) => Err(MatchError::RollNotChosen),
            (false, None) => self.play_as(seat, request.mv, None, by_bot, false),
            (true, roll) => {
                let mut script = ScriptedDice::new(roll.into_iter().collect::<Vec<_>>());
                match self.play_as(seat, request.mv, Some(&mut script), by_bot, roll.is_some()) {
                    Err(MatchError::Game(_)) if roll.is_none() && script.ran_out() => {
                        Err(MatchError::RollNeeded)
                    }
                    other => other,
                }
            }
        }
    }

    /// Plays a person's move for `seat` in a match with chosen dice, rolling
    /// `dice` (a front end's script of rolls) if the move rolls.
    ///
    /// # Errors
    /// As [`Match::play`]; [`MatchError::RollNotChosen`] when the match's
    /// dice are seeded, and the game's dice error when `dice` runs out.
    pub fn play_rolling(
        &mut self,
        seat: u8,
        mv: G::Move,
        dice: &mut dyn DiceSource,
    ) -> MoveResult<G> {
        self.check_person(seat)?;
        if !self.dice_chosen() {
            return Err(MatchError::RollNotChosen);
        }
        self.play_as(seat, mv, Some(dice), false, false)
    }

    /// The move the bot in the seat to move would make, without making it;
    /// `None` when a person must answer or the match is over.
    pub fn bot_choice(&self, rng: &mut Rng) -> Option<G::Move> {
        let seat = self.to_move()?;
        let SeatKind::Bot { level } = self.record.seats[usize::from(seat) - 1] else {
            return None;
        };
        Some(self.game.bot_move(level, rng))
    }

    /// What a bot to move needs to choose its move away from the match (on
    /// another thread, say): a copy of the game, its level and its own
    /// randomness. `None` when a person must answer or the match is over.
    /// Play the move it chooses with [`Match::play_bot`].
    pub fn bot_turn(&self) -> Option<BotTurn<G>> {
        let seat = self.to_move()?;
        let SeatKind::Bot { level } = self.record.seats[usize::from(seat) - 1] else {
            return None;
        };
        Some(BotTurn {
            game: self.game.clone(),
            level,
            rng: self.bot_rng(),
            moves: self.moves(),
        })
    }

    /// Plays a bot's move, chosen by a [`BotTurn`], for the seat to move.
    ///
    /// # Errors
    /// [`MatchError::Stale`] when the match has moved since the turn was
    /// taken, [`MatchError::Over`] once over, [`MatchError::NotYourTurn`]
    /// (naming seat 0) when a person is to move, and the game's refusal.
    pub fn play_bot(&mut self, turn_moves: usize, mv: G::Move) -> MoveResult<G> {
        let status = self.status();
        if status.is_over() {
            return Err(MatchError::Over { status });
        }
        if turn_moves != self.moves() {
            return Err(MatchError::Stale {
                expected: self.moves(),
                got: turn_moves,
            });
        }
        let seat = self.to_move().unwrap_or(1);
        if !self.record.seats[usize::from(seat) - 1].is_bot() {
            return Err(MatchError::NotYourTurn {
                seat: 0,
                to_move: seat,
            });
        }
        if self.dice_chosen() {
            return Err(MatchError::RollNeeded);
        }
        self.play_as(seat, mv, None, true, false)
    }

    /// Plays a bot's move for the seat to move; `None` when a person must
    /// answer or the match is over. In a match with chosen dice, `dice`
    /// gives the bot's rolls (with none, a bot that must roll waits).
    pub fn step_bot(
        &mut self,
        rng: &mut Rng,
        dice: Option<&mut dyn DiceSource>,
    ) -> Option<PlayedOf<G>> {
        let seat = self.to_move()?;
        let mv = self.bot_choice(rng)?;
        // A bot's move is one of the game's own legal moves, so only the
        // dice can refuse it (chosen rolls that ran out).
        self.play_as(seat, mv, dice, true, false).ok()
    }

    /// Lets the bots move until a person must answer or the match is over,
    /// at most `limit` moves; returns what they played. In a match with
    /// chosen dice no bot can roll: use [`Match::step_bot`] with dice.
    pub fn run_bots(&mut self, rng: &mut Rng, limit: usize) -> Vec<PlayedOf<G>> {
        let mut played = Vec::new();
        while played.len() < limit {
            match self.step_bot(rng, None) {
                Some(p) => played.push(p),
                None => break,
            }
        }
        played
    }

    /// The bots' randomness for this match: a stream of its own, drawn from
    /// the seed so that a bot's choices never tell the dice.
    pub fn bot_rng(&self) -> Rng {
        Rng::stream(self.record.dice.seed(), 0xB07 + self.moves() as u64)
    }

    fn check_person(&self, seat: u8) -> Result<(), MatchError<G::Error>> {
        let seats = self.record.seats.len() as u8;
        if seat == 0 || seat > seats {
            return Err(MatchError::NoSeat { seat, seats });
        }
        if self.record.seats[usize::from(seat) - 1].is_bot() {
            return Err(MatchError::BotSeat { seat });
        }
        Ok(())
    }

    /// Plays `mv` for `seat`: with the match's seeded dice, or with `given`
    /// dice in a match whose rolls are chosen. With `roll_given`, a move
    /// that does not roll is refused ([`MatchError::RollUnused`]) and the
    /// match left as it was.
    fn play_as(
        &mut self,
        seat: u8,
        mv: G::Move,
        given: Option<&mut dyn DiceSource>,
        bot: bool,
        roll_given: bool,
    ) -> MoveResult<G> {
        let status = self.status();
        if status.is_over() {
            return Err(MatchError::Over { status });
        }
        let to_move = self.game.to_move().unwrap_or(seat);
        if seat != to_move {
            return Err(MatchError::NotYourTurn { seat, to_move });
        }
        let (events, roll) = match (&mut self.dice, given) {
            (MatchDice::Seeded(dice), _) => {
                // A refused move must not use up a roll, or the record
                // would no longer replay.
                let before = dice.clone();
                match self.game.apply(&mv, dice) {
                    Ok(events) => (events, None),
                    Err(e) => {
                        *dice = before;
                        return Err(MatchError::Game(e));
                    }
                }
            }
            (MatchDice::Chosen, given) => {
                // A refused move leaves the game as it was; a move that
                // leaves a given roll unused is undone from this copy.
                let before = roll_given.then(|| self.game.clone());
                let mut none = ScriptedDice::default();
                let mut noted = Noted {
                    dice: given.unwrap_or(&mut none),
                    roll: None,
                };
                let events = self.game.apply(&mv, &mut noted).map_err(MatchError::Game)?;
                if let (Some(before), None) = (before, noted.roll) {
                    self.game = before;
                    return Err(MatchError::RollUnused { mv: mv.to_string() });
                }
                (events, noted.roll)
            }
        };
        // A bot's own seat says who chose; a person's seat is marked when a
        // bot chose its move.
        let by_bot = bot && !self.record.seats[usize::from(seat) - 1].is_bot();
        self.record.moves.push(Entry {
            mv: mv.clone(),
            roll,
            by_bot,
        });
        let number = self.moves();
        for event in &events {
            if self.log.len() == LOG_CAP {
                self.log.pop_front();
            }
            self.log.push_back(Logged {
                number,
                seat,
                event: event.clone(),
            });
        }
        self.check_cap();
        Ok(Played {
            number,
            seat,
            bot,
            mv,
            roll,
            events,
        })
    }

    fn check_cap(&mut self) {
        self.capped = self.moves() >= self.move_cap;
    }
}

/// Chosen dice that note the roll a move used.
struct Noted<'a> {
    dice: &'a mut dyn DiceSource,
    roll: Option<u8>,
}

impl DiceSource for Noted<'_> {
    fn roll(&mut self, faces: u8) -> Result<u8, crate::DiceError> {
        let roll = self.dice.roll(faces)?;
        self.roll = Some(roll);
        Ok(roll)
    }
}

/// A character no rule for names ever allowed: a control character, a
/// direction mark or override, or a zero-width one.
fn never_allowed(code: u32) -> bool {
    char::from_u32(code).is_none_or(char::is_control)
        || matches!(
            code,
            0x061C | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2069 | 0xFEFF
        )
}

#[cfg(test)]
mod tests;
