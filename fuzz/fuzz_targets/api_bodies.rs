//! Every API request body, through the router: whatever the body, the
//! answer is never a 5xx (but for long work stopped at its time limit,
//! 503 `too_long`), and an error is JSON with a code and a message.
//!
//! Each input picks a route that takes a body; the thing the route needs
//! (a match of the right game and seats, a design) is made first, and the
//! body is sent with that match's seat token where the route wants one.
//! `{invite}` in a body stands for the open seat's invite, so that a join
//! can succeed.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::api_bodies::check(data));
