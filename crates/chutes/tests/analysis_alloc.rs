//! The random search and the Monte Carlo allocate per chunk of games, never
//! per game: ten times the games cost only the chunks' few allocations more.
#![allow(unsafe_code)] // a counting allocator needs `unsafe impl GlobalAlloc`

use chutes::analysis::search::{SearchOptions, search};
use chutes::analysis::simulate::{CHUNK, SimOptions, simulate};
use chutes::{Board, Rules};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// Counted on every thread (the work runs on rayon's), only while set.
static COUNTING: AtomicBool = AtomicBool::new(false);

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<T>(f: impl FnOnce() -> T) -> usize {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let out = f();
    COUNTING.store(false, Ordering::SeqCst);
    drop(out);
    ALLOCATIONS.load(Ordering::SeqCst)
}

#[test]
fn games_do_not_allocate() {
    let board = Board::classic();
    let rules = Rules::default();
    let searching = |games: u64| {
        let options = SearchOptions {
            games,
            seed: 5,
            chutes: Some(2),
            all_shortest: false,
            threads: 1,
        };
        allocations(|| search(&board, &rules, &options, &|_| {}))
    };
    let (few, many) = (searching(CHUNK), searching(10 * CHUNK));
    assert!(few > 0, "the allocator counts");
    assert!(
        many < few + 2_000,
        "search: {few} allocations for one chunk, {many} for ten"
    );

    let simulating = |games: u64, players: usize| {
        let options = SimOptions {
            games,
            players,
            seed: 5,
            threads: 1,
        };
        allocations(|| simulate(&board, &rules, &options, &|_| {}))
    };
    for players in [1, 3] {
        let (few, many) = (simulating(CHUNK, players), simulating(10 * CHUNK, players));
        assert!(
            many < few + 2_000,
            "simulate, {players} players: {few} allocations for one chunk, {many} for ten"
        );
    }
}
