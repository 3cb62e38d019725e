//! Tycoon as the match layer plays it ([`tabletop::play::Playable`]).
//!
//! Terms:
//! - **setup** ([`Setup`]): the grid (checked by the one grid validator when
//!   read) and the turn cap; a match of Tycoon has two to four seats (four
//!   by default, as in the original assignment).
//! - **seat kinds**: a person is a `human` seat of the game; a bot plays at
//!   its level: `easy` the random bot, `normal` the default bot, `hard` the
//!   search bot (see [`crate::bots`]).
//! - **view** ([`TableView`]): the whole table — Tycoon hides nothing from
//!   anyone but the dice, which the game never holds — and each seat's
//!   chance to win from here, estimated by the default bot's playouts with
//!   a 95% interval ([`crate::chances`]): a function of the table alone,
//!   the same for every viewer. A view never works the estimate out: it
//!   carries it once worked out for the position (the server does so away
//!   from the move's path, [`Playable::chances_work`]), exact once the
//!   game is over.

use crate::game::{
    DEFAULT_TURN_CAP, Event, Game, GameError, MAX_TURN_CAP, MIN_SEATS, Move, SEATS, Seat, View,
};
use crate::grid::Grid;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::Code;
use tabletop::play::{Chances, ChancesWork, Coded, Playable, SeatKind, Stall, Status, Viewer};
use tabletop::{BotLevel, DiceSource, Rng};

/// What a viewer sees of a Tycoon match: the whole table, and each seat's
/// estimated chance to win from here (`chances`, `chances_interval`,
/// `chances_playouts`; exact once the game is over), when already worked
/// out for this position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableView {
    /// The table.
    #[serde(flatten)]
    pub table: View,
    /// Each seat's chance to win, to four decimals, once worked out for
    /// this position (away from the move's path: absent meanwhile).
    #[serde(flatten)]
    pub chances: Option<Chances>,
}

impl std::ops::Deref for TableView {
    type Target = View;
    fn deref(&self) -> &View {
        &self.table
    }
}

/// How to start a Tycoon match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The grid.
    pub grid: Grid,
    /// Turns in all after which the game stops with no winner.
    #[serde(default = "default_turn_cap")]
    pub turn_cap: u32,
}

fn default_turn_cap() -> u32 {
    DEFAULT_TURN_CAP
}

impl Setup {
    /// A setup on `grid` with the default turn cap.
    pub fn new(grid: Grid) -> Self {
        Self {
            grid,
            turn_cap: DEFAULT_TURN_CAP,
        }
    }
}

/// The game's seat for a match seat.
pub fn seat_of(kind: SeatKind) -> Seat {
    match kind {
        SeatKind::Person => Seat::Human,
        SeatKind::Bot { level } => Seat::bot(level),
    }
}

impl Coded for GameError {
    fn code(&self) -> Code {
        match self {
            Self::Over { .. } => Code::GameOver,
            Self::WrongMove { .. } | Self::Attack { .. } => Code::IllegalMove,
            Self::TurnCap { .. } | Self::Position(_) => Code::BadSetup,
            Self::Seats { .. } => Code::BadSeats,
            Self::Dice(e) => e.code(),
        }
    }
}

impl Playable for Game {
    const NAME: &'static str = "tycoon";
    type Setup = Setup;
    type Move = Move;
    type Event = Event;
    type View = TableView;
    type Error = GameError;

    fn seat_range(_: &Setup) -> std::ops::RangeInclusive<u8> {
        MIN_SEATS as u8..=SEATS as u8
    }

    fn start(setup: &Setup, seats: &[SeatKind], _seed: u64) -> Result<Self, GameError> {
        if !(1..=MAX_TURN_CAP).contains(&setup.turn_cap) {
            return Err(GameError::TurnCap {
                cap: setup.turn_cap,
            });
        }
        let seats: Vec<Seat> = seats.iter().copied().map(seat_of).collect();
        Ok(Game::for_seats(Arc::new(setup.grid.clone()), &seats)?.with_turn_cap(setup.turn_cap))
    }

    fn to_move(&self) -> Option<u8> {
        self.current()
    }

    fn apply(&mut self, mv: &Move, dice: &mut dyn DiceSource) -> Result<Vec<Event>, GameError> {
        Game::apply(self, *mv, dice)
    }

    fn status(&self) -> Status {
        match (self.is_over(), self.winner()) {
            (false, _) => Status::Playing,
            (true, Some(winner)) => Status::Won { winner },
            (true, None) => Status::stalled(Stall::TurnCap {
                goal: crate::cells::LAST,
                turns: self.turn_cap(),
            }),
        }
    }

    fn view(&self, _viewer: Viewer) -> TableView {
        TableView {
            table: Game::view(self),
            chances: self.known_chances().map(|c| c.rounded(4)),
        }
    }

    fn bot_move(&self, level: BotLevel, rng: &mut Rng) -> Move {
        let seat = self.current().unwrap_or(1);
        crate::bots::level_move(self, seat, level, rng).unwrap_or(Move::Roll)
    }

    fn chances(&self) -> Option<Chances> {
        Some(Chances::clone(&self.live_chances()))
    }

    fn known_chances(&self) -> Option<Chances> {
        Game::known_chances(self).map(|c| Chances::clone(&c))
    }

    fn chances_work(&self) -> Option<ChancesWork> {
        if Game::known_chances(self).is_some() {
            return None;
        }
        let position = self.clone();
        Some(Box::new(move || crate::chances::estimate(&position)))
    }

    fn keep_chances(&self, chances: Chances) {
        Game::keep_chances(self, chances);
    }

    fn words(event: &Event, _mover: u8, names: &[String]) -> String {
        event.words(names)
    }
}
