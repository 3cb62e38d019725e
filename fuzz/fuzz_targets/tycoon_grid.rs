//! The Tycoon grid file (text) and the grid as JSON: no input panics, and a
//! grid read is written back and read again to the same grid.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::tycoon_grid::check(data));
