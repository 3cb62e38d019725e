//! The `parlor` command's integration tests, one binary with a module per
//! subject; each subject but [`test_binaries`] runs the real binary.
//!
//! - [`baffle_bot`]: `baffle bot`, the solver playing;
//! - [`baffle_cli`]: `baffle play`, `trace`, `solve`, `render`;
//! - [`baffle_solve_api`]: `baffle solve --json` and the server agree;
//! - [`chutes_analysis`]: `chutes search|shortest|analyze|simulate|min-throws`;
//! - [`chutes_cli`]: `chutes play`, `chutes board`, `completions`;
//! - [`chutes_reports`]: the reports' documents;
//! - [`cluster`]: the deployment of docs/deploy.md (`scripts/cluster.sh`);
//! - [`documented_commands`]: every command the README and docs show;
//! - [`hostile_input`]: hostile or absurd input;
//! - [`online`]: online play with real `parlor serve` processes;
//! - [`operations`]: `parlor serve` as an operator runs it;
//! - [`pictures`]: `chutes render` and `chutes plot`;
//! - [`serve`]: `parlor serve` as a person runs it;
//! - [`tycoon_cli`]: `tycoon check|edit|play|simulate|tournament|render`;
//! - [`words`]: the CLI's words, the same across commands;
//! - [`common`]: running the binary and a server, shared by the subjects;
//! - [`test_binaries`]: the workspace's tests stay one binary a crate.

mod baffle_bot;
mod baffle_cli;
mod baffle_solve_api;
mod chutes_analysis;
mod chutes_cli;
mod chutes_reports;
mod cluster;
mod common;
mod documented_commands;
mod hostile_input;
mod online;
mod operations;
mod pictures;
mod serve;
mod test_binaries;
mod tycoon_cli;
mod words;
