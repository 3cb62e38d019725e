//! Every move's text form (and the other short texts a person types): no
//! input panics, and what reads prints back to text that reads the same.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::move_text::check(data));
