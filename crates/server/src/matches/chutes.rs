//! Chutes & Ladders in the match router.
//!
//! Terms:
//! - **setup request**: `{"board": "classic" | an uploaded board's id,
//!   "overshoot": "stay" | "bounce" | "exact"…, "faces": 6}`; the board is
//!   copied into the match, so the match outlives the upload.
//! - **public setup**: the board and the rules — Chutes hides nothing but
//!   the dice.

use super::SeatPlan;
use super::table::{GameKind, Table};
use crate::AppState;
use crate::error::ApiError;
use chutes::contract::{Setup, Table as Chutes};
use chutes::{Overshoot, Rules};
use serde::Deserialize;
use serde_json::{Value, json};
use tabletop::play::{DiceMode, Match, SeatKind};

/// The most seats a Chutes match made here has.
pub const MAX_SEATS: usize = 4;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    #[serde(default = "classic")]
    board: String,
    #[serde(default)]
    overshoot: Option<String>,
    #[serde(default)]
    faces: Option<u32>,
}

fn classic() -> String {
    "classic".to_string()
}

/// A new Chutes match from a page's setup request.
///
/// # Errors
/// 400 for a bad setup or seat count; 404 for an unknown board.
pub fn start(
    state: &AppState,
    setup: Value,
    plans: &[SeatPlan],
    dice: DiceMode,
) -> Result<Box<dyn Table>, ApiError> {
    let req: SetupRequest = super::read_setup(setup)?;
    if !(1..=MAX_SEATS).contains(&plans.len()) {
        return Err(super::bad_seats(format!(
            "a Chutes & Ladders game here has 1 to {MAX_SEATS} players, not {}",
            plans.len()
        )));
    }
    let overshoot = match req.overshoot.as_deref() {
        Some(name) => name
            .parse::<Overshoot>()
            .map_err(|e| ApiError::bad_request(e.to_string()))?,
        None => Overshoot::default(),
    };
    let rules = Rules::new(overshoot, req.faces.unwrap_or(6))
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let board = crate::chutes_api::find_board(state, &req.board)?;
    super::start::<Chutes>(
        Setup {
            board: (*board).clone(),
            rules,
        },
        plans,
        dice,
    )
}

impl GameKind for Chutes {
    const TITLE: &'static str = "Chutes & Ladders";

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

    fn picture(
        m: &Match<Self>,
        _name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        let turns: Vec<chutes::Turn> = m.log().map(|l| l.event).collect();
        render::chutes::game(&m.record().setup.board, m.seats().len(), &turns)
    }
}
