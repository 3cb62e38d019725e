//! Sequences of moves against Baffle games: after each move, while the game
//! is on, the view shows no mirror not yet found and no beam's path; the
//! score adds up; replaying the record gives the same game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::baffle_moves::check(data));
