//! Bots: players that choose their own moves.
//!
//! Terms:
//! - **default bot** ([`DefaultBot`], in [`default`]): weighs its choices:
//!   on a recharge turn it compares recharging with every attack it may
//!   still launch (whom it would hurt, how much, how likely they are to
//!   win), keeps ice and its last attack for an opponent about to win, buys
//!   stations others can still land on while keeping a reserve that grows
//!   with the bills ahead, and pays its way out of prison whenever it can.
//! - **random bot** ([`RandomBot`]): picks uniformly among the legal moves.
//!   Its choice depends only on its seed, its seat and the game's move count,
//!   so a saved game resumes with the same choices.
//! - **outlook** ([`outlook::Outlook`]): what each cell of a grid promises
//!   (expected moves to 99, winning faces…), worked out once per grid.

pub mod default;
pub mod outlook;

pub use default::{DefaultBot, TunedBot, Tuning, reserve};

use crate::game::{Game, Move, Seat};
use tabletop::Rng;

/// Something that chooses moves for a seat.
pub trait Bot {
    /// A legal answer to `game`'s pending decision (any move when the game
    /// is over; the game will refuse it).
    fn choose(&self, game: &Game) -> Move;
}

/// A bot that picks uniformly among the legal moves.
#[derive(Clone, Copy, Debug)]
pub struct RandomBot {
    seed: u64,
}

impl RandomBot {
    /// A random bot drawing from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { seed }
    }
}

impl Bot for RandomBot {
    fn choose(&self, game: &Game) -> Move {
        let moves = game.legal_moves();
        let seat = game.current().unwrap_or(0);
        let mut rng = Rng::stream(self.seed ^ (u64::from(seat) << 56), game.moves());
        moves
            .get(rng.below(moves.len() as u64) as usize)
            .copied()
            .unwrap_or(Move::Roll)
    }
}

/// The bot's move for the seat whose decision is pending, or `None` when
/// that seat is a person (or the game is over). `seed` drives random bots.
pub fn bot_move(game: &Game, seed: u64) -> Option<Move> {
    let seat = game.current()?;
    match game.seats().get(usize::from(seat) - 1)? {
        Seat::Human => None,
        Seat::Bot => Some(DefaultBot.choose(game)),
        Seat::Random => Some(RandomBot::new(seed).choose(game)),
    }
}
