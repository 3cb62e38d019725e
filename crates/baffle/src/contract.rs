//! Baffle as the match layer plays it ([`tabletop::play::Playable`]).
//!
//! Terms:
//! - **setup**: the game's own [`Setup`]; a random box is
//!   `Setup::seeded(.., seed)` with the match's own seed, so that the seed
//!   stays the match's secret (it is in the record only).
//! - **seat**: the solitaire [`Game`] has one; a person plays it, or the
//!   bot does (the browser's "Bot finishes"). A [`Race`] has one to four,
//!   each on their own copy of the box, taking turns (see [`crate::race`]);
//!   with one seat it is the solitaire game, move for move.
//! - **view**: [`View`] holds shots as entry and exit, guesses and found
//!   mirrors; paths and every mirror only once the game is over — for the
//!   player and for a spectator alike.
//! - **count**: a match's view carries how many layouts still fit the
//!   viewer's evidence, each cell's chances, and each shot's count after
//!   it ([`crate::live`]), worked out within a small time budget.
//! - **bot levels**: `normal` and `hard` play the solver's bot
//!   ([`crate::bot`]); `easy` shoots a random untried hole half the time.

use crate::bot::{BotOptions, decide};
use crate::game::{Event, Game, Move, MoveError, Setup, SetupError, Status as GameStatus, View};
use crate::race::{MAX_RACERS, Race, RaceError, RaceEvent, RaceView};
use tabletop::Code;
use tabletop::play::{Coded, Playable, SeatKind, Status, Viewer};
use tabletop::{BotLevel, DiceSource, Rng};

impl Coded for MoveError {
    fn code(&self) -> Code {
        match self {
            Self::Over { .. } => Code::GameOver,
            Self::NoHole { .. } | Self::Side { .. } | Self::NoCell { .. } => Code::IllegalMove,
            Self::AlreadyFound { .. } => Code::AlreadyFound,
        }
    }
}

/// Why a Baffle match could not start, or a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BaffleError {
    /// The setup is refused.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The move is refused.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A race of too few or too many players.
    #[error("a race on one box has 1 to {MAX_RACERS} players, not {racers}")]
    Racers {
        /// The players asked for.
        racers: usize,
    },
}

impl Coded for BaffleError {
    fn code(&self) -> Code {
        match self {
            Self::Setup(_) | Self::Racers { .. } => Code::BadSetup,
            Self::Move(e) => e.code(),
        }
    }
}

impl From<RaceError> for BaffleError {
    fn from(e: RaceError) -> Self {
        match e {
            RaceError::Setup(e) => Self::Setup(e),
            RaceError::Racers { racers } => Self::Racers { racers },
        }
    }
}

impl Playable for Game {
    const NAME: &'static str = "baffle";
    type Setup = Setup;
    type Move = Move;
    type Event = Event;
    type View = View;
    type Error = BaffleError;

    fn seat_range(_: &Setup) -> std::ops::RangeInclusive<u8> {
        1..=1
    }

    fn start(setup: &Setup, _seats: &[SeatKind], _seed: u64) -> Result<Self, BaffleError> {
        Ok(Game::new(setup.clone())?)
    }

    fn to_move(&self) -> Option<u8> {
        (!self.status().is_over()).then_some(1)
    }

    fn apply(&mut self, mv: &Move, _dice: &mut dyn DiceSource) -> Result<Vec<Event>, BaffleError> {
        Ok(Game::apply(self, *mv)?)
    }

    fn status(&self) -> Status {
        match Game::status(self) {
            GameStatus::Playing => Status::Playing,
            GameStatus::Won => Status::Won { winner: 1 },
            GameStatus::Quit => Status::GivenUp,
        }
    }

    fn view(&self, _viewer: Viewer) -> View {
        Game::view(self)
    }

    fn bot_move(&self, level: BotLevel, rng: &mut Rng) -> Move {
        bot_move_on(self, level, rng)
    }
}

/// The bot's move at `level` on `game`'s box, from what its player sees.
fn bot_move_on(game: &Game, level: BotLevel, rng: &mut Rng) -> Move {
    let view = Game::view(game);
    let untried: Vec<usize> = view
        .shootable
        .iter()
        .copied()
        .filter(|h| !view.shots.iter().any(|s| s.hole == *h || s.exit == *h))
        .collect();
    if level == BotLevel::Easy && !untried.is_empty() && rng.below(2) == 0 {
        let hole = untried[rng.below(untried.len() as u64) as usize];
        return Move::Shoot { hole };
    }
    match decide(&view, &BotOptions::default()) {
        Ok(decision) => decision.mv,
        // The bot cannot tell: try a hole no beam has used, else give up.
        Err(_) => untried
            .first()
            .map_or(Move::Quit, |&hole| Move::Shoot { hole }),
    }
}

impl Playable for Race {
    const NAME: &'static str = "baffle";
    type Setup = Setup;
    type Move = Move;
    type Event = RaceEvent;
    type View = RaceView;
    type Error = BaffleError;

    fn seat_range(_: &Setup) -> std::ops::RangeInclusive<u8> {
        1..=MAX_RACERS as u8
    }

    fn start(setup: &Setup, seats: &[SeatKind], _seed: u64) -> Result<Self, BaffleError> {
        Ok(Race::new(setup.clone(), seats.len())?)
    }

    fn to_move(&self) -> Option<u8> {
        Race::to_move(self)
    }

    fn apply(
        &mut self,
        mv: &Move,
        _dice: &mut dyn DiceSource,
    ) -> Result<Vec<RaceEvent>, BaffleError> {
        Ok(Race::apply(self, *mv)?)
    }

    fn status(&self) -> Status {
        if !self.is_over() {
            return Status::Playing;
        }
        match self.winners().as_slice() {
            [] => Status::GivenUp,
            [winner] => Status::Won { winner: *winner },
            several => Status::Shared {
                winners: several.to_vec(),
            },
        }
    }

    fn view(&self, viewer: Viewer) -> RaceView {
        match viewer {
            Viewer::Seat { seat } => Race::view_with_known_count(self, Some(seat)),
            Viewer::Spectator => Race::view_with_known_count(self, None),
        }
    }

    fn figures_work(&self) -> Option<tabletop::play::FiguresWork> {
        self.count_work()
    }

    fn bot_move(&self, level: BotLevel, rng: &mut Rng) -> Move {
        self.box_to_move()
            .map_or(Move::Quit, |game| bot_move_on(game, level, rng))
    }

    fn words(event: &RaceEvent, mover: u8, names: &[String]) -> String {
        // One unnamed player alone is named by no one.
        let who = tabletop::play::seat_name(names, mover);
        let alone = names.len() <= 1 && who == "Player 1";
        crate::words::race_words(event, (!alone).then_some(who.as_str()))
    }
}
