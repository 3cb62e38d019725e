//! The Baffle layout file: no input panics, and a layout read is written
//! back and read again to the same layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::baffle_layout::check(data));
