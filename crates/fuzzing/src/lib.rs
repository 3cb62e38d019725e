//! The fuzz targets' bodies, one module per target in `fuzz/fuzz_targets/`.
//!
//! Each module's `check` takes the fuzzer's raw bytes and panics when the
//! input finds a fault (a library panic, a broken round trip, a 5xx). Two
//! things call them:
//!
//! - the cargo-fuzz targets in `fuzz/` (nightly, libFuzzer), which search
//!   for new inputs: `scripts/fuzz-smoke.sh`, `scripts/fuzz-long.sh`;
//! - this crate's test `tests/corpus.rs` (stable, part of `cargo test`),
//!   which replays every seed input in `fuzz/corpus/TARGET/`, so that an
//!   input that once found a fault keeps being tried on every change.
//!
//! Glossary: a *target* is one kind of input with its checks; its *corpus*
//! is the inputs kept for it (seeds and what the fuzzer found that reached
//! new code).

pub mod api_bodies;
pub mod baffle_layout;
pub mod baffle_moves;
pub mod board_formats;
pub mod chutes_moves;
pub mod move_text;
pub mod saved_games;
pub mod tycoon_grid;
pub mod tycoon_moves;

/// A target's check: the fuzzer's bytes in, a panic when they find a fault.
pub type Check = fn(&[u8]);

/// Every target: its name (the directory of its corpus, the cargo-fuzz
/// target's name) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("api_bodies", api_bodies::check),
    ("baffle_layout", baffle_layout::check),
    ("baffle_moves", baffle_moves::check),
    ("board_formats", board_formats::check),
    ("chutes_moves", chutes_moves::check),
    ("move_text", move_text::check),
    ("saved_games", saved_games::check),
    ("tycoon_grid", tycoon_grid::check),
    ("tycoon_moves", tycoon_moves::check),
];
