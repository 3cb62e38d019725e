//! Snakes & Ladders Tycoon in the match router.
//!
//! Terms:
//! - **setup request**: the grid — `{"design": ID}` (a design being
//!   edited), `{"saved": NAME}` (a saved grid), `{"text": "..."}` (a grid
//!   file's text), `{"sample": true}` (the original assignment's sample)
//!   or none (an empty grid) — and optionally `"turn_cap"`.
//! - **public setup**: the grid's objects and the cells as drawn; Tycoon
//!   hides nothing but the dice.
//! - **extras**: the decision awaited in words (`question`, and the CLI's
//!   `prompt`), the moves that answer it (as JSON and text, each with a
//!   button's label and what it does), the kinds of attack offered, and
//!   once over, how the game ended (`outcome`): the library's words
//!   ([`tycoon::game::words`]).

use super::SeatPlan;
use super::table::{GameKind, Table};
use crate::AppState;
use crate::error::ApiError;
use serde::Deserialize;
use serde_json::{Value, json};
use tabletop::play::{DiceMode, Match, SeatKind, Viewer};
use tycoon::Game;
use tycoon::contract::Setup;
use tycoon::game::{SEATS, words};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    #[serde(default)]
    design: Option<String>,
    #[serde(default)]
    saved: Option<String>,
    #[serde(default)]
    text: Option<String>,
    /// The original assignment's sample grid.
    #[serde(default)]
    sample: bool,
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
    let sources = usize::from(req.design.is_some())
        + usize::from(req.saved.is_some())
        + usize::from(req.text.is_some())
        + usize::from(req.sample);
    if sources > 1 {
        return Err(ApiError::bad_request(
            "give one of \"design\", \"saved\", \"text\" or \"sample\"",
        ));
    }
    let grid = match &req.design {
        Some(id) => state.designs.with(id, |d| d.grid().clone())?,
        None if req.sample => tycoon::parse_grid(tycoon::SAMPLE_GRID)
            .map_err(|e| ApiError::unprocessable(format!("the sample grid: {e}")))?,
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
        // A match stopped by the match layer (its move cap) is over even
        // though the game still waits for a move: offer none then.
        let asked = if m.status().is_over() {
            None
        } else {
            words::asked(game)
        };
        let (question, moves, attacks) = match asked {
            Some(a) => (Some(a.question), a.answers, a.attacks),
            None => (None, Vec::new(), Vec::new()),
        };
        json!({
            "prompt": game.pending().filter(|_| !m.status().is_over()).map(|d| d.prompt()),
            "question": question,
            "moves": moves,
            "attacks": attacks,
            "outcome": words::outcome(game),
        })
    }

    fn title(_setup: &Setup, seats: &[SeatKind]) -> String {
        let bots = seats.iter().filter(|s| s.is_bot()).count() as u64;
        let people = seats.len() as u64 - bots;
        let who = match (people, bots) {
            (_, 0) => tabletop::count(people, "person", "people"),
            (0, _) => tabletop::count(bots, "bot", "bots"),
            _ => format!(
                "{} and {}",
                tabletop::count(people, "person", "people"),
                tabletop::count(bots, "bot", "bots")
            ),
        };
        format!("Snakes & Ladders Tycoon: {who}")
    }

    fn picture(
        m: &Match<Self>,
        name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        Ok(render::tycoon::game(m.game(), name.unwrap_or("this grid")))
    }
}
