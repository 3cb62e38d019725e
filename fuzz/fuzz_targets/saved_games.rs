//! Saved games: match records of each game (the one save format) and a
//! Tycoon design document. No input panics; a record that loads replays,
//! and writes back to a record that loads to the same game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::saved_games::check(data));
