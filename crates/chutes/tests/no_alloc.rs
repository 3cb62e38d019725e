//! A roll costs no allocation: count the allocator's calls while a game is
//! played roll by roll.
#![allow(unsafe_code)] // a counting allocator needs `unsafe impl GlobalAlloc`

use chutes::{Board, Game, Rules};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tabletop::SeededDice;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the test's own thread is counted: the test harness's other
    /// threads may allocate at any moment (they made this test flaky).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn rolling_does_not_allocate() {
    let board = Arc::new(Board::classic());
    let mut dice = SeededDice::new(1);
    let mut rolls = 0;
    let mut games = Vec::with_capacity(200);
    for _ in 0..200 {
        games.push(Game::new(board.clone(), Rules::default(), 4).unwrap());
    }
    COUNTING.with(|c| c.set(true));
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for game in &mut games {
        while game.winner().is_none() {
            let turn = game.play(&mut dice).unwrap();
            rolls += 1;
            for event in turn.events() {
                std::hint::black_box(event);
            }
        }
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    COUNTING.with(|c| c.set(false));
    assert!(rolls > 10_000, "only {rolls} rolls");
    assert_eq!(
        after - before,
        0,
        "{} allocations in {rolls} rolls",
        after - before
    );
}
