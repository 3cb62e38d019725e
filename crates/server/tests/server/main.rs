//! The server's integration tests (all but the browser's, which is a binary
//! of its own: `tests/browser/`), one binary with a module per subject.
//!
//! - [`api`]: the JSON API through the router, apart from playing games;
//! - [`bots`]: the bot runner when things go wrong;
//! - [`classroom`]: classrooms, their students and their games, on both
//!   stores;
//! - [`codes`]: every refusal code the API documents is answered;
//! - [`connections`]: the server over real TCP on loopback;
//! - [`fairness`]: fair share under abuse;
//! - [`games`]: each game played through the match API;
//! - [`guards`]: what protects the server from other pages and sloppy
//!   requests;
//! - [`host`]: the Host check against DNS rebinding;
//! - [`layout`]: no import cycle among the server's modules;
//! - [`long_work`]: long work stopped when its client goes;
//! - [`matches`]: making matches and moving for a seat;
//! - [`new_game`]: a game added the way a new one would be;
//! - [`players`]: playing together;
//! - [`race`]: friends racing on one Baffle box, and Tycoon for two or
//!   three;
//! - [`servers`]: several servers on one PostgreSQL;
//! - [`sizes`]: what answers weigh as sent, and which are compressed;
//! - [`store`]: the store, on SQLite and PostgreSQL;
//! - [`support`]: the app on a fresh store, shared by the subjects.

mod api;
mod bots;
mod classroom;
mod codes;
mod connections;
mod fairness;
mod games;
mod guards;
mod host;
mod layout;
mod long_work;
mod matches;
mod new_game;
mod players;
mod race;
mod servers;
mod sizes;
mod store;
mod support;
