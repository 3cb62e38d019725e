//! Sequences of rolls against Chutes & Ladders games on small boards: after
//! each roll no token is off the board, the tallies add up, a winner stands
//! on the finish, and replaying the rolls gives the same game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::chutes_moves::check(data));
