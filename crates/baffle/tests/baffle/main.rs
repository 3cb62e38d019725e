//! Baffle's integration tests, one binary with a module per subject.
//!
//! - [`contract`]: the match layer (records, refusals, what views hide);
//! - [`fuzz`]: random input never makes the library panic;
//! - [`live`]: how many layouts still fit, against an enumeration;
//! - [`solve_props`]: the solver's properties on random boxes.

mod contract;
mod fuzz;
mod live;
mod solve_props;
