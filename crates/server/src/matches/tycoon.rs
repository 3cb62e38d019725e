//! Snakes & Ladders Tycoon in the match router.
//!
//! Terms:
//! - **setup request**: the grid — `{"design": ID}` (a design being
//!   edited), `{"saved": NAME}` (a saved grid), `{"text": "..."}` (a grid
//!   file's text) or none (an empty grid) — and optionally `"turn_cap"`.
//! - **public setup**: the grid's objects and the cells as drawn; Tycoon
//!   hides nothing but the dice.
//! - **extras**: the decision awaited in words (`prompt`) and the moves
//!   that answer it, as JSON and text.

use super::SeatPlan;
use super::table::{GameKind, Table};
use crate::AppState;
use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabletop::play::{DiceMode, Match, SeatKind, Viewer};
use tycoon::contract::Setup;
use tycoon::game::SEATS;
use tycoon::{Game, Move};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    #[serde(default)]
    design: Option<String>,
    #[serde(default)]
    saved: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    turn_cap: Option<u32>,
}

/// A new Tycoon match from a page's setup request.
///
/// # Errors
/// 400 for more than one grid source or not four seats; 404 for an
/// unknown design or saved grid; 422 for a grid file that does not read.
pub async fn start(
    state: &AppState,
    setup: Value,
    plans: &[SeatPlan],
    dice: DiceMode,
) -> Result<Box<dyn Table>, ApiError> {
    let req: SetupRequest = super::read_setup(setup)?;
    if plans.len() != SEATS {
        return Err(super::bad_seats(format!(
            "Tycoon has {SEATS} seats, not {}",
            plans.len()
        )));
    }
    let grid = match &req.design {
        Some(id) => {
            if req.saved.is_some() || req.text.is_some() {
                return Err(ApiError::bad_request(
                    "give one of \"design\", \"saved\" or \"text\"",
                ));
            }
            state.designs.with(id, |d| d.grid().clone())?
        }
        None => {
            crate::tycoon_api::grid_from(state, req.text.as_deref(), req.saved.as_deref()).await?
        }
    };
    let mut setup = Setup::new(grid);
    if let Some(cap) = req.turn_cap {
        setup.turn_cap = cap;
    }
    super::start::<Game>(setup, plans, dice)
}

/// A move that answers the decision awaited.
#[derive(Serialize)]
struct MoveView {
    /// The move as JSON.
    #[serde(rename = "move")]
    mv: Move,
    /// `roll`, `attack ice 2`, …
    text: String,
}

impl GameKind for Game {
    const TITLE: &'static str = "Snakes & Ladders Tycoon";

    fn public_setup(m: &Match<Self>) -> Value {
        let grid = &m.record().setup.grid;
        json!({
            "objects": grid.objects().map(crate::tycoon_api::object_view).collect::<Vec<_>>(),
            "layout": crate::tycoon_api::layout(),
            "turn_cap": m.record().setup.turn_cap,
        })
    }

    fn extras(m: &Match<Self>, _viewer: Viewer) -> Value {
        let game = m.game();
        let moves: Vec<MoveView> = if m.status().is_over() {
            Vec::new()
        } else {
            game.legal_moves()
                .into_iter()
                .map(|mv| MoveView {
                    text: mv.to_string(),
                    mv,
                })
                .collect()
        };
        json!({
            "prompt": game.pending().map(|d| d.prompt()),
            "moves": moves,
        })
    }

    fn title(_setup: &Setup, seats: &[SeatKind]) -> String {
        let bots = seats.iter().filter(|s| s.is_bot()).count() as u64;
        let people = seats.len() as u64 - bots;
        format!(
            "Snakes & Ladders Tycoon: {} and {}",
            tabletop::count(people, "person", "people"),
            tabletop::count(bots, "bot", "bots")
        )
    }

    fn picture(
        m: &Match<Self>,
        name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        Ok(render::tycoon::game(m.game(), name.unwrap_or("this grid")))
    }
}
