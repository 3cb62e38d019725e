//! Baffle in the registry.
//!
//! Terms:
//! - **setup request**: `{"fixed": true}` (the original assignment's first
//!   game), or a random box: `{"size": 10, "mirrors": 5}` (the library's
//!   defaults), drawn from the match's own secret seed; `"sides": "all" |
//!   "left-top"` for either.
//! - **public setup**: the box's size, mirror count, sides and every hole's
//!   place round it — never a mirror.
//! - **race**: one to four seats on the same box ([`baffle::Race`]), each
//!   on their own copy, taking turns; with one seat, the solitaire game. A
//!   race's picture while it is on is the box with no shot; a guess in a
//!   race is told to the others as `guess`, never its cell.

use crate::Refusal;
use crate::any_match::Adapter;
use crate::registry::{Need, Supplied};
use baffle::geometry::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use baffle::{Game, Move, Race, Setup, Side, Sides, Size};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabletop::Code;
use tabletop::play::{Match, SeatKind, Viewer};

/// A Baffle setup as a client writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The original assignment's first game.
    #[serde(default)]
    fixed: bool,
    /// A random box's size (10 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<usize>,
    /// A random box's mirrors (5 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mirrors: Option<usize>,
    /// The sides beams may be shot from.
    #[serde(default)]
    sides: Sides,
}

/// The mirrors of a random box when the request names none: as many as
/// the original assignment's fixed game has.
const DEFAULT_MIRRORS: usize = baffle::layout::FIXED.len();

impl Default for Request {
    /// A random box of the default size and mirrors, beams from all sides.
    fn default() -> Self {
        Self {
            fixed: false,
            size: Some(DEFAULT_SIZE),
            mirrors: Some(DEFAULT_MIRRORS),
            sides: Sides::default(),
        }
    }
}

impl Adapter for Race {
    const TITLE: &'static str = "Baffle";
    const MIN_SEATS: u8 = 1;
    const MAX_SEATS: u8 = baffle::MAX_RACERS as u8;
    type Request = Request;

    /// The box: its size, mirror count, sides and shootable holes.
    const VIEW_FIXED: &'static [&'static str] = &["size", "mirrors", "sides", "shootable"];

    fn need(_: &Request) -> Result<Option<Need>, Refusal> {
        Ok(None)
    }

    fn setup(request: Request, _: Option<Supplied>, seed: u64) -> Result<Setup, Refusal> {
        let setup = if request.fixed {
            if request.size.is_some() || request.mirrors.is_some() {
                return Err(Refusal::new(
                    Code::BadSetup,
                    "the fixed game is the original assignment's 10 × 10 box with 5 mirrors: \
                     give no size or mirrors with it",
                ));
            }
            Setup::fixed(request.sides)
        } else {
            Setup::seeded(
                request.size.unwrap_or(DEFAULT_SIZE),
                request.mirrors.unwrap_or(DEFAULT_MIRRORS),
                request.sides,
                seed,
            )
        };
        // Checked here, so that a bad box is a `bad_setup` before any match.
        Game::new(setup.clone()).map_err(|e| Refusal::new(Code::BadSetup, e.to_string()))?;
        Ok(setup)
    }

    fn setup_limits() -> Value {
        json!({
            "size": {"min": MIN_SIZE, "max": MAX_SIZE, "default": DEFAULT_SIZE},
            "mirrors": {"min": 1, "max": "size × size / 2", "default": DEFAULT_MIRRORS},
            "sides": ["all", "left-top"],
        })
    }

    fn public_setup(m: &Match<Self>) -> Value {
        let game = m.game().board();
        let view = game.view();
        json!({
            "size": view.size,
            "mirrors": view.mirrors,
            "sides": view.sides,
            "origin": origin(game),
            "holes": hole_places(game),
        })
    }

    /// A fresh box of the same size, mirrors and sides: the fixed first
    /// game's rematch is a random box like it.
    fn rematch_setup(setup: &Setup, seed: u64) -> Setup {
        match setup.origin {
            baffle::Origin::Seeded { .. } | baffle::Origin::Fixed => {
                Setup::seeded(setup.size, setup.mirrors, setup.sides, seed)
            }
            baffle::Origin::Given { .. } => setup.clone(),
        }
    }

    fn told_move(m: &Match<Self>, mv: &Move) -> Option<String> {
        match mv {
            Move::Guess { .. } if m.game().racers() > 1 => Some("guess".to_string()),
            _ => None,
        }
    }

    fn title(setup: &Setup, _seats: &[SeatKind]) -> String {
        match Game::new(setup.clone()) {
            Ok(game) => box_title(&game),
            Err(_) => "Baffle".to_string(),
        }
    }

    fn picture(
        m: &Match<Self>,
        _name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        let style = render::baffle::BaffleStyle {
            title: Some(box_title(m.game().board())),
            steady: true,
            ..render::baffle::BaffleStyle::default()
        };
        // A spectator's box: in a race, no shot while it is on.
        render::baffle::view_with(&m.game().view(None).own, &style)
    }

    /// A racer's own box (a spectator's otherwise).
    fn picture_for(
        m: &Match<Self>,
        viewer: Viewer,
        name: Option<&str>,
    ) -> Result<render::Picture, render::RenderError> {
        let Viewer::Seat { seat } = viewer else {
            return Self::picture(m, name);
        };
        let style = render::baffle::BaffleStyle {
            title: Some(box_title(m.game().board())),
            steady: true,
            ..render::baffle::BaffleStyle::default()
        };
        render::baffle::view_with(&m.game().box_view(Some(seat)), &style)
    }

    /// A player's hint and bot move, on their own box ([`help`]).
    const HELPS: bool = true;

    fn helper(m: &Match<Self>, viewer: Viewer) -> Result<Box<dyn crate::Helper>, Refusal> {
        Ok(Box::new(help::own_box(m, viewer)?))
    }

    fn shots_look_back(
        m: &Match<Self>,
        viewer: Viewer,
        seat: Option<u8>,
    ) -> Result<Box<dyn crate::ShotsLookBack>, Refusal> {
        Ok(Box::new(help::look_back_box(m, viewer, seat)?))
    }

    fn shots_look_back_words(m: &Match<Self>, names: &[String]) -> Option<Vec<String>> {
        Some(help::look_back_words(m.game(), names))
    }
}

/// Where a hole sits round the box.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HolePlace {
    /// The hole's number.
    pub hole: usize,
    /// Its side.
    pub side: Side,
    /// Its place along the side: from the top (left, right sides) or from
    /// the left (top, bottom sides), 0-based.
    pub at: usize,
    /// Whether beams may be shot into it in this game.
    pub shootable: bool,
}

/// Every hole's place round `game`'s box, by the library's geometry.
pub fn hole_places(game: &Game) -> Vec<HolePlace> {
    let size: Size = game.size();
    let sides = game.sides();
    (0..size.holes())
        .filter_map(|hole| {
            let side = size.side(hole)?;
            let (index, _) = size.entry(hole)?;
            let cell = size.cell(index);
            let at = match side {
                Side::Left | Side::Right => cell.row,
                Side::Top | Side::Bottom => cell.col,
            } as usize;
            Some(HolePlace {
                hole,
                side,
                at,
                shootable: sides.allows(side),
            })
        })
        .collect()
}

/// `fixed` (the original assignment's first game), `random` or `given`.
fn origin(game: &Game) -> &'static str {
    match game.setup().origin {
        baffle::Origin::Fixed => "fixed",
        baffle::Origin::Seeded { .. } => "random",
        baffle::Origin::Given { .. } => "given",
    }
}

/// The picture's title: which game this is.
pub fn box_title(game: &Game) -> String {
    match origin(game) {
        "fixed" => "Baffle: the original assignment's first game".to_string(),
        _ => format!(
            "Baffle: a {n} × {n} box with {}",
            tabletop::count(game.view().mirrors as u64, "mirror", "mirrors"),
            n = game.size().n()
        ),
    }
}

mod help;

#[cfg(test)]
mod tests;
