//! Random legal grids, for tournaments and tests.
//!
//! Terms:
//! - **random grid** ([`random_grid`]): 2–6 ladders, 2–6 snakes and 4–12
//!   cards of any number (1–12) placed at random, each kept only when the
//!   grid still passes the one validator ([`crate::rules::validate`]), and
//!   the whole kept only when cell 99 can be reached from cell 1
//!   ([`crate::game::can_reach_last`]): games on it can be won.
//! - Every random choice comes from the generator given, so a seed fixes
//!   the grid.

use crate::cells::{COLS, LAST, ROWS};
use crate::game::can_reach_last;
use crate::grid::{Grid, GridSpec};
use crate::objects::{Card, CardKind, Ladder, Object, Snake};
use crate::rules;
use std::sync::Arc;
use tabletop::Rng;

/// Tries to place each object before giving it up.
const TRIES_PER_OBJECT: u32 = 50;
/// Whole grids drawn before falling back to one with no snakes.
const TRIES_PER_GRID: u32 = 20;

/// A random legal grid from `rng` (see the module's terms).
pub fn random_grid(rng: &mut Rng) -> Grid {
    for _ in 0..TRIES_PER_GRID {
        let spec = random_spec(rng, true);
        if let Ok(grid) = Grid::new(&spec)
            && can_reach_last(&Arc::new(grid.clone()))
        {
            return grid;
        }
    }
    // Without snakes every cell reaches 99 by rolls alone (cards can only
    // send a token to a cell that does too); this is not expected to be
    // needed, but keeps the function total.
    Grid::new(&random_spec(rng, false)).unwrap_or_default()
}

fn between(rng: &mut Rng, low: u32, high: u32) -> u32 {
    low + rng.below(u64::from(high - low + 1)) as u32
}

fn cell_at(row: u32, col: u32) -> u32 {
    row * COLS + col + 1
}

fn random_spec(rng: &mut Rng, snakes: bool) -> GridSpec {
    let mut spec = GridSpec::default();
    let ladders = between(rng, 2, 6);
    let snake_count = if snakes { between(rng, 2, 6) } else { 0 };
    let cards = between(rng, 4, 12);
    // One price and fee per station number for the whole grid.
    let terms: [(u32, u32); 3] = std::array::from_fn(|_| {
        let price = 10 * between(rng, 3, 12);
        (price, price / 10 * between(rng, 1, 3))
    });
    for _ in 0..ladders {
        place(&mut spec, rng, |rng| {
            let col = between(rng, 0, COLS - 1);
            let low = between(rng, 0, ROWS - 2);
            let high = between(rng, low + 1, ROWS - 1);
            Object::Ladder(Ladder {
                start: cell_at(low, col),
                end: cell_at(high, col),
            })
        });
    }
    for _ in 0..snake_count {
        place(&mut spec, rng, |rng| {
            let col = between(rng, 0, COLS - 1);
            let high = between(rng, 1, ROWS - 1);
            let low = between(rng, 0, high - 1);
            Object::Snake(Snake {
                start: cell_at(high, col),
                end: cell_at(low, col),
            })
        });
    }
    for _ in 0..cards {
        place(&mut spec, rng, |rng| {
            let cell = between(rng, 2, LAST - 1);
            let kind = match between(rng, 1, 12) {
                1 => CardKind::TakeCoins {
                    coins: 10 * between(rng, 1, 8),
                },
                2 => CardKind::NextLadder,
                3 => CardKind::ExtraRoll,
                4 => CardKind::LoseTurn,
                5 => CardKind::GoBack,
                6 => CardKind::GoTo {
                    destination: between(rng, 1, LAST),
                },
                7 => CardKind::Restart,
                8 => CardKind::Prison {
                    fee: 10 * between(rng, 2, 8),
                },
                n @ 9..=11 => {
                    let (price, fee) = terms[(n - 9) as usize];
                    CardKind::Station {
                        number: n as u8,
                        price,
                        fee,
                    }
                }
                _ => CardKind::GiveStation,
            };
            Object::Card(Card { cell, kind })
        });
    }
    spec
}

/// Adds an object drawn by `draw` to `spec`, trying again while the grid
/// would break a rule; gives up on it after [`TRIES_PER_OBJECT`] tries.
fn place(spec: &mut GridSpec, rng: &mut Rng, mut draw: impl FnMut(&mut Rng) -> Object) {
    for _ in 0..TRIES_PER_OBJECT {
        let mut next = spec.clone();
        next.push(draw(rng));
        if rules::validate(&next).is_empty() {
            *spec = next;
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_grids_are_legal_winnable_and_fixed_by_the_seed() {
        let mut sizes = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let grid = random_grid(&mut Rng::new(seed));
            // Legal: the one validator accepts its spec again.
            assert!(rules::validate(&grid.to_spec()).is_empty(), "{seed}");
            assert!(can_reach_last(&Arc::new(grid.clone())), "{seed}");
            assert_eq!(grid, random_grid(&mut Rng::new(seed)));
            let (l, s, c) = grid.counts();
            assert!((1..=6).contains(&l) && s <= 6 && c <= 12, "{seed}");
            sizes.insert((l, s, c));
        }
        // Not one grid over and over.
        assert!(sizes.len() > 30, "{sizes:?}");
    }
}
