//! Chutes' integration tests, one binary with a module per subject. The
//! allocation counts (`tests/no_alloc.rs`, `tests/analysis_alloc.rs`) are
//! binaries of their own: each installs its own global allocator.
//!
//! - [`analysis`]: known answers for the analysis;
//! - [`contract`]: the match layer;
//! - [`formats`]: boards read in other programs' forms;
//! - [`leetcode_909`]: LeetCode 909's grids against a breadth-first search;
//! - [`sensitivity`]: the classic board's sensitivity table against an
//!   independent computation.

mod analysis;
mod contract;
mod formats;
mod leetcode_909;
mod sensitivity;
