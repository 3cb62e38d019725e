//! Snakes & Ladders Tycoon in the registry.
//!
//! Terms:
//! - **setup request**: the grid — `{"design": ID}` (a design being
//!   edited: a [`Need::Design`]), `{"saved": NAME}` (a saved grid: a
//!   [`Need::SavedGrid`]), `{"text": "..."}` (a grid file's text),
//!   `{"sample": true}` (the original assignment's sample) or none (an
//!   empty grid) — and optionally `"turn_cap"`.
//! - **public setup**: the grid's objects and the cells as drawn, and the
//!   kinds of attack in words; Tycoon hides nothing but the dice.
//! - **extras**: the decision awaited in words (`question`) and the moves
//!   that answer it (each its text, with a button's label and what it
//!   does, an attack's kind and target); once over, how the game ended (`outcome`): the
//!   library's words ([`tycoon::game::words`]).

use crate::Refusal;
use crate::any_match::Adapter;
use crate::registry::{Need, Supplied};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabletop::BotLevel;
use tabletop::Code;
use tabletop::play::{Match, SeatKind, Viewer};
use tycoon::contract::Setup;
use tycoon::game::{DEFAULT_TURN_CAP, MAX_TURN_CAP, MIN_SEATS, SEATS, words};
use tycoon::{Game, Grid, Object};

/// A Tycoon setup as a client writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// A design being edited, by its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    design: Option<String>,
    /// A saved grid, by its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    saved: Option<String>,
    /// A grid file's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    /// The original assignment's sample grid.
    #[serde(default)]
    sample: bool,
    /// The turns after which the game stops.
    #[serde(default = "default_turn_cap")]
    turn_cap: u32,
}

fn default_turn_cap() -> u32 {
    DEFAULT_TURN_CAP
}

impl Default for Request {
    fn default() -> Self {
        Self {
            design: None,
            saved: None,
            text: None,
            sample: false,
            turn_cap: DEFAULT_TURN_CAP,
        }
    }
}

impl Adapter for Game {
    const TITLE: &'static str = "Snakes & Ladders Tycoon";
    const MIN_SEATS: u8 = MIN_SEATS as u8;
    const MAX_SEATS: u8 = SEATS as u8;
    type Request = Request;

    fn need(request: &Request) -> Result<Option<Need>, Refusal> {
        let sources = usize::from(request.design.is_some())
            + usize::from(request.saved.is_some())
            + usize::from(request.text.is_some())
            + usize::from(request.sample);
        if sources > 1 {
            return Err(Refusal::new(
                Code::BadSetup,
                "give one of \"design\", \"saved\", \"text\" or \"sample\"",
            ));
        }
        Ok(match (&request.design, &request.saved) {
            (Some(id), _) => Some(Need::Design(id.clone())),
            (_, Some(name)) => Some(Need::SavedGrid(name.clone())),
            _ => None,
        })
    }

    fn setup(request: Request, supplied: Option<Supplied>, _seed: u64) -> Result<Setup, Refusal> {
        let grid = match (supplied, &request.text) {
            (Some(Supplied::Grid(grid)), _) => grid,
            (_, Some(text)) => tycoon::parse_grid(text)
                .map_err(|e| Refusal::new(Code::Invalid, format!("the grid file: {e}")))?,
            _ if request.sample => tycoon::parse_grid(tycoon::SAMPLE_GRID)
                .map_err(|e| Refusal::new(Code::Invalid, format!("the sample grid: {e}")))?,
            _ if request.design.is_some() || request.saved.is_some() => {
                return Err(Refusal::new(Code::NoGrid, "the grid named was not found"));
            }
            _ => Grid::empty(),
        };
        let mut setup = Setup::new(grid);
        setup.turn_cap = request.turn_cap;
        Ok(setup)
    }

    fn default_seats() -> Vec<SeatKind> {
        let bot = SeatKind::Bot {
            level: BotLevel::Normal,
        };
        vec![SeatKind::Person, bot, bot, bot]
    }

    fn setup_limits() -> Value {
        json!({ "turn_cap": {"min": 1, "max": MAX_TURN_CAP, "default": DEFAULT_TURN_CAP} })
    }

    fn public_setup(m: &Match<Self>) -> Value {
        let grid = &m.record().setup.grid;
        json!({
            "objects": grid.objects().map(object_view).collect::<Vec<_>>(),
            "layout": layout(),
            "turn_cap": m.record().setup.turn_cap,
            // The same in every game: told once, and named by the answers.
            "attacks": words::attack_kinds(),
        })
    }

    fn extras(m: &Match<Self>, _viewer: Viewer) -> Value {
        let game = m.game();
        let names = crate::players::seat_names(m);
        // A match stopped by the match layer (its move cap) is over even
        // though the game still waits for a move: offer none then.
        let asked = if m.status().is_over() {
            None
        } else {
            words::asked(game, &names)
        };
        // Every viewer is told the answers (the live stream's one view
        // serves all, and the seat to move shows them as buttons).
        let (question, moves) = match asked {
            Some(a) => (Some(a.question), a.answers),
            None => (None, Vec::new()),
        };
        json!({
            "question": question,
            "moves": moves,
            "outcome": words::outcome(game, &names),
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
        let seats = m.seats().len() as u8;
        let who = render::seats::Seats {
            names: crate::players::seat_names(m),
            colours: (1..=seats).map(|s| m.colour(s)).collect(),
        };
        Ok(render::tycoon::game_for(
            m.game(),
            name.unwrap_or("this grid"),
            &who,
        ))
    }
}

/// An object as a page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ObjectView {
    /// The cell it lives on.
    pub home: u32,
    /// The object as data.
    pub object: Object,
    /// `ladder 10→32`, `card 9 on cell 13 (price 50, fee 10)`.
    pub text: String,
    /// What a card does, for people (empty for ladders and snakes).
    pub describe: String,
}

/// An object as a page shows it.
pub fn object_view(object: Object) -> ObjectView {
    ObjectView {
        home: object.home(),
        object,
        text: object.to_string(),
        describe: match object {
            Object::Card(card) => card.kind.describe(),
            _ => String::new(),
        },
    }
}

/// The cell numbers as the grid is drawn, top row first.
pub fn layout() -> Vec<Vec<u32>> {
    let geometry = tycoon::cells::geometry();
    (0..geometry.rows())
        .map(|row| {
            (0..geometry.cols())
                .filter_map(|col| geometry.square_at(tabletop::Cell { row, col }))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::Registry;
    use serde_json::{Value, json};
    use tabletop::BotLevel;
    use tabletop::play::{DiceMode, SeatKind, Viewer};

    #[test]
    fn two_and_three_seats_play_to_an_end_through_the_registry() {
        let bot = |level| SeatKind::Bot { level };
        for seats in [
            vec![bot(BotLevel::Normal), bot(BotLevel::Easy)],
            vec![
                bot(BotLevel::Easy),
                bot(BotLevel::Normal),
                bot(BotLevel::Easy),
            ],
        ] {
            let n = seats.len();
            let mut m = Registry::standard()
                .find("tycoon")
                .unwrap()
                .prepare(json!({"sample": true}))
                .unwrap()
                .start(None, seats, DiceMode::Seeded { seed: 48 }, 1)
                .unwrap();
            let mut moves = 0;
            while let Some(work) = m.bot_turn() {
                let at = work.moves;
                let played = m.play_bot(at, &(work.choose)()).unwrap();
                assert!(usize::from(played.seat) <= n);
                moves += 1;
                assert!(moves < 20_000, "{n} seats: the game does not end");
            }
            assert!(m.status().is_over());
            let view: Value =
                serde_json::from_str(m.view(Viewer::Spectator).unwrap().position.view.get())
                    .unwrap();
            assert_eq!(view["players"].as_array().unwrap().len(), n);
            if let Some(w) = m.status().winner() {
                assert!(usize::from(w) <= n);
                assert_eq!(view["players"][usize::from(w) - 1]["cell"], 99);
            }
        }
    }
}
