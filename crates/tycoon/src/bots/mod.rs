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
//! - **hard bot** ([`HardBot`], in [`search`]): tries every legal move in
//!   playouts on dice of its own, within a fixed playout budget.
//! - **level** ([`BotLevel`]): easy is the random bot, normal the default
//!   bot, hard the search bot; [`level_move`] answers for any of them.
//! - **move generator** ([`move_rng`]): the generator a seat's bot draws
//!   from for one move, fixed by a seed, the seat and the game's move count.

pub mod default;
pub mod outlook;
pub mod search;

pub use default::{DefaultBot, TunedBot, Tuning, reserve};
pub use search::{Budget, HardBot};

use crate::game::{Game, Move};
use tabletop::{BotLevel, Rng};

/// Something that chooses moves for a seat.
pub trait Bot {
    /// A legal answer to `game`'s pending decision (any move when the game
    /// is over; the game will refuse it).
    fn choose(&self, game: &Game) -> Move;
}

/// The generator a bot drawing from `seed` uses for the move now pending in
/// `game`: it depends only on the seed, the seat to move and the number of
/// moves made, so a game replayed or resumed gets the same choices.
pub fn move_rng(seed: u64, game: &Game) -> Rng {
    let seat = game.current().unwrap_or(0);
    Rng::stream(seed ^ (u64::from(seat) << 56), game.moves())
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
        random_move(game, &mut move_rng(self.seed, game))
    }
}

fn random_move(game: &Game, rng: &mut Rng) -> Move {
    let moves = game.legal_moves();
    moves
        .get(rng.below(moves.len() as u64) as usize)
        .copied()
        .unwrap_or(Move::Roll)
}

/// The move a bot of `level` plays for `seat` (from 1), drawing what it
/// needs from `rng`: easy a legal move at random, normal the default bot's,
/// hard the search bot's ([`Budget::HARD`]). `None` when the game is over
/// or the pending decision is not `seat`'s. The move is always legal.
pub fn level_move(game: &Game, seat: u8, level: BotLevel, rng: &mut Rng) -> Option<Move> {
    if game.current() != Some(seat) {
        return None;
    }
    Some(match level {
        BotLevel::Easy => random_move(game, rng),
        BotLevel::Normal => DefaultBot.choose(game),
        BotLevel::Hard => search::search(game, &Budget::HARD, rng),
    })
}

/// The bot's move for the seat whose decision is pending, at the seat's
/// level, or `None` when that seat is a person (or the game is over).
/// `seed` drives the random and search bots (through [`move_rng`]).
pub fn bot_move(game: &Game, seed: u64) -> Option<Move> {
    let seat = game.current()?;
    let level = game.seats().get(usize::from(seat) - 1)?.level()?;
    level_move(game, seat, level, &mut move_rng(seed, game))
}
