//! Every board file format (Chutes TOML, array, LeetCode, moves, and the
//! Tycoon grid read as a board; forced or detected): no input panics, and a
//! board read is written back as TOML and read again to the same board.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::board_formats::check(data));
