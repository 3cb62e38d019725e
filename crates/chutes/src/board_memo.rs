//! What the live chances know of a board, worked out once for every game
//! on it.
//!
//! Terms:
//! - **board memo** ([`BoardMemo`]): a board's moves as the chances read
//!   them (its [`Spreader`], and which squares can still reach the finish)
//!   and the remaining rolls of a token on each square the games have
//!   asked about, under one die and overshoot rule. Every game on the same
//!   board and rules shares one, so that a move's chances are only the
//!   combination of its tokens' tables: one table a square for all the
//!   games on the classic board, not one a move.
//! - **kept memos**: the most recently used [`KEPT_BOARDS`] boards' memos,
//!   handed to the next game on the same board; a memo no longer kept
//!   lives on with its games, but keeps nothing more.
//! - **room**: the bytes one memo's tables may take ([`BOARD_BYTES`]) and
//!   all kept memos together ([`ALL_BYTES`]); past either, a square's
//!   table is worked out and used but not kept.

use crate::analysis::chances::{self, ChancesOptions, Remaining, Spreader};
use crate::analysis::{Chain, Reach};
use crate::board::{Board, Jump};
use crate::rules::Rules;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The boards whose memos are kept for the next game on them.
pub const KEPT_BOARDS: usize = 64;
/// The bytes one board's tables may take.
pub const BOARD_BYTES: usize = 8 << 20;
/// The bytes all kept boards' tables may take together.
pub const ALL_BYTES: usize = 64 << 20;

/// What makes two boards the same to the chances: squares, start, jumps
/// and rules (not a name or a picture's layout).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    size: u32,
    start: u32,
    jumps: Vec<Jump>,
    rules: Rules,
}

impl Key {
    fn of(board: &Board, rules: &Rules) -> Self {
        let mut jumps = board.jumps().to_vec();
        jumps.sort_unstable();
        Self {
            size: board.size(),
            start: board.start(),
            jumps,
            rules: *rules,
        }
    }
}

/// A board's moves and the remaining rolls from its squares, shared by
/// every game on it.
#[derive(Debug)]
pub struct BoardMemo {
    key: Key,
    reach: Reach,
    spreader: Spreader,
    /// Each square's remaining rolls once asked (`None`: past the view's
    /// budget of work, which is not tried again).
    squares: Mutex<HashMap<u32, Option<Arc<Remaining>>>>,
    bytes: AtomicUsize,
    /// No longer among the kept memos: it keeps nothing more.
    retired: AtomicBool,
}

/// The kept memos, the most recently used last.
static KEPT: Mutex<Vec<Arc<BoardMemo>>> = Mutex::new(Vec::new());
/// The bytes the kept memos' tables take.
static KEPT_BYTES: AtomicUsize = AtomicUsize::new(0);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl BoardMemo {
    /// The memo of `board` under `rules`: a kept one, or a new one, kept.
    pub fn of(board: &Board, rules: &Rules) -> Arc<Self> {
        let key = Key::of(board, rules);
        if let Some(memo) = Self::kept(&key) {
            return memo;
        }
        // Read the board outside the lock: a big board takes a while.
        let chain = Chain::new(board, rules);
        let reach = chain.reach();
        let fresh = Arc::new(Self {
            spreader: Spreader::new(&chain, &reach),
            reach,
            key,
            squares: Mutex::default(),
            bytes: AtomicUsize::new(0),
            retired: AtomicBool::new(false),
        });
        let mut kept = lock(&KEPT);
        if let Some(memo) = kept.iter().find(|m| m.key == fresh.key) {
            return Arc::clone(memo);
        }
        if kept.len() >= KEPT_BOARDS {
            let oldest = kept.remove(0);
            oldest.retire();
        }
        kept.push(Arc::clone(&fresh));
        fresh
    }

    /// A kept memo of `key`, marked as the most recently used.
    fn kept(key: &Key) -> Option<Arc<Self>> {
        let mut kept = lock(&KEPT);
        let at = kept.iter().position(|m| &m.key == key)?;
        let memo = kept.remove(at);
        kept.push(Arc::clone(&memo));
        Some(memo)
    }

    fn retire(&self) {
        if !self.retired.swap(true, Ordering::Relaxed) {
            KEPT_BYTES.fetch_sub(self.bytes.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    /// Which squares can still reach the finish.
    pub fn reach(&self) -> &Reach {
        &self.reach
    }

    /// The board's moves as the chances read them.
    pub fn spreader(&self) -> &Spreader {
        &self.spreader
    }

    /// The remaining rolls of a token on `square`, within the view's
    /// budget of work ([`chances::VIEW_MAX_STEPS`]); `None` past it.
    pub fn remaining(&self, square: u32) -> Option<Arc<Remaining>> {
        if let Some(known) = lock(&self.squares).get(&square) {
            return known.clone();
        }
        let options = ChancesOptions {
            max_steps: chances::VIEW_MAX_STEPS,
            ..ChancesOptions::default()
        };
        let worked = self.spreader.remaining(square, &options).ok().map(Arc::new);
        let bytes = worked.as_ref().map_or(0, |r| r.bytes()) + 64;
        let room = !self.retired.load(Ordering::Relaxed)
            && self.bytes.load(Ordering::Relaxed) + bytes <= BOARD_BYTES
            && KEPT_BYTES.load(Ordering::Relaxed) + bytes <= ALL_BYTES;
        if room {
            let mut squares = lock(&self.squares);
            if squares.insert(square, worked.clone()).is_none() {
                self.bytes.fetch_add(bytes, Ordering::Relaxed);
                KEPT_BYTES.fetch_add(bytes, Ordering::Relaxed);
            }
        }
        worked
    }

    /// The bytes this memo's tables take.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::chances::Position;

    #[test]
    fn games_on_the_same_board_share_one_memo_and_others_do_not() {
        let classic = Board::classic();
        let a = BoardMemo::of(&classic, &Rules::default());
        let b = BoardMemo::of(&classic, &Rules::default());
        assert!(Arc::ptr_eq(&a, &b), "the same board and rules: one memo");
        let four = Rules::new(Rules::default().overshoot(), 4).expect("a four-sided die");
        let c = BoardMemo::of(&classic, &four);
        assert!(!Arc::ptr_eq(&a, &c), "another die: another memo");
    }

    /// A square's table is worked out once and then shared, and the
    /// chances combined from the memo's tables are the chances worked out
    /// afresh.
    #[test]
    fn the_memos_tables_give_the_chances_worked_out_afresh() {
        let board = Board::classic();
        let memo = BoardMemo::of(&board, &Rules::default());
        let first = memo.remaining(17).expect("a table");
        let again = memo.remaining(17).expect("a table");
        assert!(Arc::ptr_eq(&first, &again), "kept, not worked out again");
        assert!(memo.bytes() >= first.bytes());
        let position = Position {
            squares: vec![17, 40, 3],
            to_move: 2,
        };
        let tables: Vec<Arc<Remaining>> = position
            .squares
            .iter()
            .map(|&s| memo.remaining(s).expect("a table"))
            .collect();
        let refs: Vec<&Remaining> = tables.iter().map(AsRef::as_ref).collect();
        let options = ChancesOptions {
            max_steps: chances::VIEW_MAX_STEPS,
            ..ChancesOptions::default()
        };
        let combined = memo
            .spreader()
            .combine(&position, &refs, options.tail)
            .expect("chances");
        let chain = Chain::new(&board, &Rules::default());
        let afresh =
            chances::chances(&chain, &chain.reach(), &position, &options).expect("chances");
        assert_eq!(combined, afresh);
    }
}
