//! Bots: players that choose their own moves.
//!
//! Terms:
//! - **default bot** ([`DefaultBot`]): buys a station when it keeps a
//!   reserve of [`RESERVE`] coins afterwards, pays its way out of prison
//!   whenever it can, and on a recharge turn attacks the **leader** (the
//!   other player furthest along; lowest seat on a tie) when the leader is
//!   ahead of it and its own wallet holds at least [`ATTACK_FLOOR`] coins,
//!   with ice, then poison, then fire, then lightning, whichever is unused.
//! - **random bot** ([`RandomBot`]): picks uniformly among the legal moves.
//!   Its choice depends only on its seed, its seat and the game's move count,
//!   so a saved game resumes with the same choices.

use crate::game::{Attack, Decision, Game, Move, SEATS, Seat};
use tabletop::Rng;

/// Coins the default bot keeps after buying a station.
pub const RESERVE: i64 = 50;
/// Coins the default bot wants before giving up a recharge to attack.
pub const ATTACK_FLOOR: i64 = 40;

/// Something that chooses moves for a seat.
pub trait Bot {
    /// A legal answer to `game`'s pending decision (any move when the game
    /// is over; the game will refuse it).
    fn choose(&self, game: &Game) -> Move;
}

/// The sensible default bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultBot;

impl Bot for DefaultBot {
    fn choose(&self, game: &Game) -> Move {
        let Some(decision) = game.pending() else {
            return Move::Roll;
        };
        let me_seat = decision.player();
        let Some(me) = game.player(me_seat) else {
            return Move::Roll;
        };
        match decision {
            Decision::Roll { .. } => Move::Roll,
            Decision::BuyOrPass { price, .. } => {
                if me.coins - i64::from(price) >= RESERVE {
                    Move::Buy
                } else {
                    Move::Pass
                }
            }
            Decision::PayOrStay { .. } => Move::Pay,
            Decision::RechargeOrAttack { .. } => {
                let leader = (1..=SEATS as u8)
                    .filter(|&s| s != me_seat)
                    .filter_map(|s| game.player(s).map(|p| (s, p.cell)))
                    .max_by_key(|&(s, cell)| (cell, std::cmp::Reverse(s)));
                let left = me.attacks_left();
                match leader {
                    Some((target, cell)) if cell > me.cell && me.coins >= ATTACK_FLOOR => {
                        let pick = [Attack::Ice, Attack::Poison, Attack::Fire, Attack::Lightning]
                            .into_iter()
                            .find(|a| left.contains(a));
                        match pick {
                            Some(attack) => Move::Attack {
                                attack,
                                target: attack.needs_target().then_some(target),
                            },
                            None => Move::Recharge,
                        }
                    }
                    _ => Move::Recharge,
                }
            }
        }
    }
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
