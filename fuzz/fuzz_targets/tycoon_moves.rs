//! Sequences of moves against Tycoon games, on the sample grid or a grid
//! the input builds: a refused move changes nothing; after each accepted
//! move no token is off the grid, a winner stands on the last cell, attacks
//! and owners are legal, the view carries no seed; the match's record,
//! written and read back, replays to the same game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::tycoon_moves::check(data));
