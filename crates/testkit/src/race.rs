//! A game that exists only for the tests, added the way
//! docs/architecture.md says a game is added: its rules (`Playable`), its
//! adapter, and one line in a registry (`Registry::standard().with(&RACE)`).
//! The server's tests make, play, record, replay and draw it through the
//! API; the browser tests play it on the page every game without a page of
//! its own gets.
//!
//! Terms:
//! - **race**: two seats take turns rolling a three-sided die; the first
//!   whose token reaches the goal (10 by default) wins.

use games::{Adapter, GameInfo, Need, Refusal, Supplied};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;
use std::str::FromStr;
use tabletop::Code;
use tabletop::play::{Coded, Match, Playable, SeatKind, Status, Viewer};
use tabletop::{BotLevel, DiceSource, Rng};

/// A race's setup: its goal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Setup {
    goal: u8,
}

/// A race in progress.
#[derive(Clone, Debug)]
pub struct Race {
    goal: u8,
    at: [u8; 2],
    turn: u8,
}

/// The race's one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Roll {
    /// Roll the die.
    Roll,
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("roll")
    }
}

impl FromStr for Roll {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "roll" => Ok(Self::Roll),
            other => Err(format!("'{other}' is not a move of the race: say roll")),
        }
    }
}

/// A roll and where it took its seat.
#[derive(Clone, Debug, Serialize)]
pub struct Rolled {
    seat: u8,
    roll: u8,
    to: u8,
}

impl fmt::Display for Rolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {} rolls {} to {}", self.seat, self.roll, self.to)
    }
}

/// A refused race.
#[derive(Clone, Debug)]
pub struct RaceError(String);

impl fmt::Display for RaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RaceError {}

impl Coded for RaceError {
    fn code(&self) -> Code {
        Code::IllegalMove
    }
}

impl Playable for Race {
    const NAME: &'static str = "race";
    type Setup = Setup;
    type Move = Roll;
    type Event = Rolled;
    type View = Value;
    type Error = RaceError;

    fn seat_range(_: &Setup) -> std::ops::RangeInclusive<u8> {
        2..=2
    }

    fn start(setup: &Setup, _: &[SeatKind], _: u64) -> Result<Self, RaceError> {
        if setup.goal == 0 {
            return Err(RaceError("a race has a goal of 1 or more".into()));
        }
        Ok(Self {
            goal: setup.goal,
            at: [0, 0],
            turn: 1,
        })
    }

    fn to_move(&self) -> Option<u8> {
        (self.status() == Status::Playing).then_some(self.turn)
    }

    fn apply(&mut self, _: &Roll, dice: &mut dyn DiceSource) -> Result<Vec<Rolled>, RaceError> {
        let roll = dice.roll(3).map_err(|e| RaceError(e.to_string()))?;
        let seat = self.turn;
        let at = &mut self.at[usize::from(seat - 1)];
        *at = (*at + roll).min(self.goal);
        let to = *at;
        self.turn = 3 - seat;
        Ok(vec![Rolled { seat, roll, to }])
    }

    fn status(&self) -> Status {
        match self.at.iter().position(|&a| a >= self.goal) {
            Some(i) => Status::Won {
                winner: i as u8 + 1,
            },
            None => Status::Playing,
        }
    }

    fn view(&self, _: Viewer) -> Value {
        json!({"goal": self.goal, "at": self.at})
    }

    fn bot_move(&self, _: BotLevel, _: &mut Rng) -> Roll {
        Roll::Roll
    }
}

/// The race's setup as a client writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Request {
    goal: u8,
}

impl Default for Request {
    fn default() -> Self {
        Self { goal: 10 }
    }
}

impl Adapter for Race {
    const TITLE: &'static str = "A race";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 2;
    type Request = Request;

    fn need(_: &Request) -> Result<Option<Need>, Refusal> {
        Ok(None)
    }

    fn setup(request: Request, _: Option<Supplied>, _: u64) -> Result<Setup, Refusal> {
        Ok(Setup { goal: request.goal })
    }

    fn public_setup(m: &Match<Self>) -> Value {
        json!({"goal": m.record().setup.goal})
    }

    fn title(setup: &Setup, _: &[SeatKind]) -> String {
        format!("A race to {}", setup.goal)
    }

    /// The track: one lane a seat, its token where it stands, the goal at
    /// the right.
    fn picture(m: &Match<Self>, _: Option<&str>) -> Result<render::Picture, render::RenderError> {
        use render::svg::Element;
        let race = m.game();
        let goal = f64::from(race.goal.max(1));
        let mut picture =
            render::Picture::new(420.0, 110.0, Self::title(&m.record().setup, m.seats()));
        for (i, at) in race.at.iter().enumerate() {
            let y = 25.0 + 45.0 * i as f64;
            picture.push(
                Element::new("rect")
                    .attr("x", 20.0)
                    .attr("y", y)
                    .attr("width", 380.0)
                    .attr("height", 30.0)
                    .fill("#f5f2ea")
                    .stroke("#857f72", 1.0),
            );
            picture.push(
                Element::new("circle")
                    .attr("cx", 35.0 + 350.0 * f64::from(*at) / goal)
                    .attr("cy", y + 15.0)
                    .attr("r", 12.0)
                    .fill(if i == 0 { "#d62728" } else { "#7b3fb8" })
                    .class("token")
                    .data("seat", i + 1)
                    .data("at", *at),
            );
        }
        Ok(picture)
    }
}

/// The race's entry in the registry: `games::Registry::standard().with(&RACE)`.
pub static RACE: GameInfo = GameInfo::of::<Race>();
