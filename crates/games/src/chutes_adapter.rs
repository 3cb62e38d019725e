//! Chutes & Ladders in the registry.
//!
//! Terms:
//! - **setup request**: `{"board": "classic" | an uploaded board's id,
//!   "overshoot": "stay" | "bounce" | "finish", "faces": 6}`, each
//!   optional (the library's defaults); a board that is not built in is a
//!   [`Need::Board`]. The board is copied into the match, so the match
//!   outlives the upload.
//! - **public setup**: the board and the rules — Chutes hides nothing but
//!   the dice.

use crate::Refusal;
use crate::any_match::Adapter;
use crate::registry::{Need, Supplied};
use chutes::contract::{Setup, Table as Chutes};
use chutes::{Overshoot, Rules};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabletop::Code;
use tabletop::play::{Match, SeatKind};

/// A Chutes setup as a client writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Request {
    /// `classic`, or an uploaded board's id.
    board: String,
    /// What a roll past the finish does.
    overshoot: String,
    /// The die's faces.
    faces: u32,
}

impl Default for Request {
    fn default() -> Self {
        let rules = Rules::default();
        Self {
            board: "classic".to_string(),
            overshoot: rules.overshoot().to_string(),
            faces: u32::from(rules.faces()),
        }
    }
}

impl Adapter for Chutes {
    const TITLE: &'static str = "Chutes & Ladders";
    const MIN_SEATS: u8 = 1;
    /// Four, not the library's eight: on the pages each player's token has
    /// one of four colours. The CLI plays up to eight at one screen.
    const MAX_SEATS: u8 = 4;
    /// A Chutes bot has no choice to make: every move is a roll.
    const BOT_LEVELS: bool = false;
    type Request = Request;

    fn need(request: &Request) -> Result<Option<Need>, Refusal> {
        Ok(chutes::formats::builtin(&request.board)
            .is_none()
            .then(|| Need::Board(request.board.trim().to_string())))
    }

    fn setup(request: Request, supplied: Option<Supplied>, _seed: u64) -> Result<Setup, Refusal> {
        let bad = |e: &dyn std::fmt::Display| Refusal::new(Code::BadSetup, e.to_string());
        let overshoot = request
            .overshoot
            .parse::<Overshoot>()
            .map_err(|e| bad(&e))?;
        let rules = Rules::new(overshoot, request.faces).map_err(|e| bad(&e))?;
        let board = match (chutes::formats::builtin(&request.board), supplied) {
            (Some(board), _) | (None, Some(Supplied::Board(board))) => board,
            _ => {
                return Err(Refusal::new(
                    Code::NoBoard,
                    format!("no board '{}' here", request.board.trim()),
                ));
            }
        };
        Ok(Setup { board, rules })
    }

    fn setup_limits() -> Value {
        json!({
            "faces": {"min": 1, "max": chutes::rules::MAX_FACES},
            "overshoot": ["stay", "bounce", "finish"],
        })
    }

    fn public_setup(m: &Match<Self>) -> Value {
        let setup = &m.record().setup;
        json!({ "board": setup.board, "rules": setup.rules })
    }

    fn title(setup: &Setup, seats: &[SeatKind]) -> String {
        // "the classic board", "Tiny test board" (a name that says
        // "board" is not told it twice), "a board of 30 squares".
        let board = match setup.board.name().map(str::trim) {
            Some(name) if name.to_lowercase().ends_with("board") => name.to_string(),
            Some(name) if !name.is_empty() => format!("the {name} board"),
            _ => format!("a board of {} squares", setup.board.size()),
        };
        format!(
            "Chutes & Ladders on {board}, {}",
            tabletop::count(seats.len() as u64, "player", "players")
        )
    }

    /// Rolls by all players together.
    fn length(m: &Match<Self>) -> Option<u32> {
        Some(m.game().game().rolls())
    }

    fn picture(
        m: &Match<Self>,
        _name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        let turns: Vec<chutes::Turn> = m.log().map(|l| l.event).collect();
        let players = m.seats().len();
        let style = render::chutes::GameStyle {
            trails: players <= 2,
            seats: render::seats::Seats {
                names: crate::players::seat_names(m),
                colours: (1..=players as u8).map(|s| m.colour(s)).collect(),
            },
            ..render::chutes::GameStyle::default()
        };
        render::chutes::game_with(&m.record().setup.board, players, &turns, &style)
    }
}
