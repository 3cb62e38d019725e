//! Parlor's games, declared once: the registry every front end reads (the
//! server's create, load and lobby, `GET /api/games` and the pages' forms,
//! the CLI's `replay`), the one setup path, and the match of any game
//! behind one interface — the gate through which a viewer sees a match.
//!
//! Terms:
//! - **registry** ([`GAMES`], [`Registry`]): each game's name, title, seats,
//!   default seats and setup, and how to make, load and replay its matches.
//! - **setup request**: a game's setup as a client writes it (JSON, every
//!   field optional, the defaults the game's library gives). It may name
//!   something a front end keeps (an uploaded board, a design, a saved
//!   grid): a **need** ([`Need`]), which the front end looks up and
//!   supplies ([`Supplied`]); it translates nothing.
//! - **adapter** ([`Adapter`]): what the registry needs of a game beyond
//!   the match layer — its title, setup request, public setup, extras for
//!   a page, lobby line and picture. One module per game holds it, and no
//!   rule.
//! - **any match** ([`AnyMatch`]): a `tabletop::play::Match` of some game
//!   with its type forgotten, taking moves as text or JSON and giving
//!   views, events, records and pictures as JSON or drawings. It is the
//!   **gate**: the record is refused (`game_on`) while the match is on,
//!   and a look back at an earlier move shows only what its viewer could
//!   see then — here and nowhere else.
//! - **board files** ([`board_files`]): a Chutes board read from a file of
//!   any game's format (a Tycoon grid file too), for the CLI and the
//!   server alike.
//! - **players** ([`Outcome`]): each seat's name (a person's chosen one,
//!   kept in the record, else "Player N" or the bot's) and the result said
//!   to each viewer.
//! - **protocol** ([`protocol`]): every answer about a match as a type —
//!   views, moves, live changes, look backs — and their JSON Schema.
//! - **refusal** ([`Refusal`]): a coded error (`bad_setup`, `game_on`, …)
//!   that a front end shows or maps to an HTTP status by its code.

mod any_match;
mod baffle_adapter;
pub mod board_files;
mod chutes_adapter;
pub mod help;
mod players;
pub mod protocol;
mod refusal;
mod registry;
mod tycoon_adapter;

pub use any_match::{
    Adapter, AnyMatch, BotWork, ChancesWork, LOG_TAIL, LookBack, MoveInput, MoveLine, TypedMatch,
    event_json,
};
pub use baffle_adapter::{HolePlace, box_title, hole_places};
pub use help::{BotChoice, Helper, ShotsLookBack};
pub use players::Outcome;
pub use protocol::{GameJson, Played, ReplayStep};
pub use refusal::Refusal;
pub use registry::{GAMES, GameInfo, Need, Prepared, Registry, Supplied};
pub use tycoon_adapter::{ObjectView, layout, object_view};
