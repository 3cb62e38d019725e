//! Live chances: each seat's chance to win from a position, estimated by
//! the bots' own play.
//!
//! Terms:
//! - **playout**: the game played on from the position to its end, every
//!   seat answered by the default bot ([`DefaultBot`]), on **imagined
//!   dice**; a playout still on [`Options::horizon`] turns later, or
//!   stopped by the game's turn cap, has no winner.
//! - **imagined dice**: playout `j`'s die for seat `s`'s `k`-th turn is
//!   drawn from stream (`j`, `s`, `k`) of the **public seed**, a hash of
//!   the grid and the number of seats: never the match's dice or its seed,
//!   so the estimate is a function of what every viewer sees, and a
//!   position gives the same figures to everyone, every time (a replay
//!   too).
//! - **common dice**: the imagined die of a turn does not change from one
//!   position of a game to the next, so two estimates a move apart differ
//!   by what that move did far more than by chance; the look back's swings
//!   and each player's luck rest on those differences.
//! - **estimate** ([`tabletop::play::Chances`]): the share of the playouts
//!   each seat won, with its 95% Wilson interval and the number of
//!   playouts. It is the chance to win *if everyone played as the default
//!   bot from here*; a person or a bot of another level may do better or
//!   worse.
//! - **budget**: at most [`Options::playouts`] playouts and
//!   [`Options::turn_budget`] turns in all, whichever comes first (a long
//!   game's playouts are fewer, and its interval says so). Counted in
//!   turns, not time, so the figures never depend on the machine.

use crate::bots::{Bot, DefaultBot};
use crate::game::{Decision, Game, Move};
use tabletop::play::Chances;
use tabletop::{DiceError, DiceSource, Rng};

/// How much work one estimate may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The most playouts.
    pub playouts: u32,
    /// Turns (all players') a playout plays at most beyond the position.
    pub horizon: u32,
    /// Turns played over all playouts, after which no playout is started.
    pub turn_budget: u64,
}

impl Options {
    /// The live estimate's budget: about 2 ms for four seats on the
    /// original assignment's sample grid (docs/performance.md).
    pub const LIVE: Self = Self {
        playouts: 1000,
        horizon: 1000,
        turn_budget: 100_000,
    };
}

impl Default for Options {
    fn default() -> Self {
        Self::LIVE
    }
}

/// Each seat's chance to win from `game`, estimated with [`Options::LIVE`]
/// (see the module's terms); exact once the game is over (the winner 1,
/// the others 0; all 0 when it stopped with no winner).
pub fn estimate(game: &Game) -> Chances {
    estimate_with(game, &Options::LIVE)
}

/// As [`estimate`], within `options`.
pub fn estimate_with(game: &Game, options: &Options) -> Chances {
    let seats = usize::from(game.count());
    if game.is_over() {
        return Chances::exact(
            (1..=game.count())
                .map(|s| if game.winner() == Some(s) { 1.0 } else { 0.0 })
                .collect(),
        );
    }
    let seed = public_seed(game);
    let mut wins = vec![0u32; seats];
    let mut played = 0u32;
    let mut turns = 0u64;
    while played < options.playouts && turns < options.turn_budget {
        let (winner, took) = playout(game, seed, u64::from(played), options.horizon);
        if let Some(w) = winner {
            wins[usize::from(w) - 1] += 1;
        }
        played += 1;
        turns += u64::from(took.max(1));
    }
    Chances::estimated(&wins, played)
}

/// The seed of a game's imagined dice: a hash of what no move changes and
/// every viewer sees — the grid and the number of seats.
pub fn public_seed(game: &Game) -> u64 {
    let grid = serde_json::to_vec(&game.grid().to_spec()).unwrap_or_default();
    let mut h = Fnv::default();
    h.write(b"tycoon chances v1");
    h.write(&[game.count()]);
    h.write(&grid);
    h.0
}

/// Plays `game` on from here as the default bot for every seat, on the
/// imagined dice of playout `playout`: the winner (none at the horizon or
/// the turn cap) and the turns it took.
fn playout(game: &Game, seed: u64, playout: u64, horizon: u32) -> (Option<u8>, u32) {
    let mut g = game.clone();
    let start = g.turns();
    let stop = start.saturating_add(horizon);
    let mut events = Vec::with_capacity(16);
    while let Some(pending) = g.pending() {
        if g.turns() >= stop {
            return (None, g.turns() - start);
        }
        let seat = pending.player();
        let turn = g.player(seat).map_or(0, |p| p.turns);
        let mv = match pending {
            Decision::Roll { .. } => Move::Roll,
            _ => DefaultBot.choose(&g),
        };
        let mut die = Imagined(Rng::stream(
            seed,
            (playout << 36) ^ (u64::from(seat) << 32) ^ u64::from(turn),
        ));
        events.clear();
        if g.apply_into(mv, &mut die, &mut events).is_err() {
            // The default bot answers with a legal move and the die never
            // runs out: this cannot happen, and counts as no winner.
            return (None, g.turns() - start);
        }
    }
    (g.winner(), g.turns() - start)
}

/// One imagined turn's die.
struct Imagined(Rng);

impl DiceSource for Imagined {
    fn roll(&mut self, faces: u8) -> Result<u8, DiceError> {
        Ok(self.0.roll(faces))
    }
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and build.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::game::{SEATS, Seat};
    use std::sync::Arc;
    use tabletop::SeededDice;

    fn sample(seats: usize) -> Game {
        let grid = Arc::new(crate::parse_grid(crate::SAMPLE_GRID).unwrap());
        Game::for_seats(grid, &vec![Seat::Bot; seats]).unwrap()
    }

    #[test]
    fn the_start_is_an_estimate_that_adds_up_and_covers_its_share() {
        for seats in 2..=SEATS {
            let c = estimate(&sample(seats));
            assert_eq!(c.each.len(), seats);
            assert_eq!(c.playouts, Some(Options::LIVE.playouts));
            let sum: f64 = c.each.iter().sum();
            assert!(sum <= 1.0 + 1e-12 && sum > 0.99, "{c:?}");
            for (p, i) in c.each.iter().zip(c.interval.as_ref().unwrap()) {
                assert!(i.low <= *p && *p <= i.high, "{c:?}");
            }
        }
    }

    #[test]
    fn the_same_position_gives_the_same_figures() {
        let mut a = sample(3);
        let mut dice = SeededDice::new(7);
        for _ in 0..20 {
            let mv = DefaultBot.choose(&a);
            a.apply(mv, &mut dice).unwrap();
        }
        let b = a.clone();
        assert_eq!(estimate(&a), estimate(&b));
        assert_eq!(public_seed(&a), public_seed(&sample(3)));
        assert_ne!(public_seed(&a), public_seed(&sample(2)));
    }

    #[test]
    fn a_finished_game_is_certain() {
        let mut g = sample(2);
        let mut dice = SeededDice::new(3);
        while !g.is_over() {
            let mv = DefaultBot.choose(&g);
            g.apply(mv, &mut dice).unwrap();
        }
        let c = estimate(&g);
        assert!(!c.is_estimate());
        let winner = usize::from(g.winner().unwrap()) - 1;
        for (i, p) in c.each.iter().enumerate() {
            assert_eq!(*p, if i == winner { 1.0 } else { 0.0 });
        }
    }

    #[test]
    fn the_turn_budget_cuts_the_playouts() {
        let options = Options {
            playouts: 1000,
            horizon: 1000,
            turn_budget: 500,
        };
        let c = estimate_with(&sample(4), &options);
        let n = c.playouts.unwrap();
        assert!((1..20).contains(&n), "{n} playouts");
    }
}
