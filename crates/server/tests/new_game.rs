//! A game that exists only in this test, added the way docs/architecture.md
//! says a game is added: its rules (`Playable`), its adapter, and one line
//! in the registry. Nothing else in the server changes, and it is made,
//! played by a person and a bot, finished, recorded, replayed and drawn
//! through the same routes as every game.
//!
//! The game, a **race**: two seats take turns rolling a three-sided die;
//! the first whose token reaches the goal (10 by default) wins.

mod support;

use games::{Adapter, GameInfo, Need, Refusal, Supplied};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;
use std::str::FromStr;
use support::App;
use tabletop::play::{Coded, Match, Playable, SeatKind, Status, Viewer};
use tabletop::{BotLevel, DiceSource, Rng};

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Setup {
    goal: u8,
}

#[derive(Clone, Debug)]
struct Race {
    goal: u8,
    at: [u8; 2],
    turn: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Roll {
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

#[derive(Clone, Debug, Serialize)]
struct Rolled {
    seat: u8,
    roll: u8,
    to: u8,
}

impl fmt::Display for Rolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {} rolls {} to {}", self.seat, self.roll, self.to)
    }
}

#[derive(Clone, Debug)]
struct RaceError(String);

impl fmt::Display for RaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RaceError {}

impl Coded for RaceError {
    fn code(&self) -> &'static str {
        "illegal_move"
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
struct Request {
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

    fn picture(m: &Match<Self>, _: Option<&str>) -> Result<render::Picture, render::RenderError> {
        Ok(render::Picture::new(
            100.0,
            20.0,
            Self::title(&m.record().setup, m.seats()),
        ))
    }
}

/// The race's entry in the registry.
static RACE: GameInfo = GameInfo::of::<Race>();

async fn app() -> App {
    App::with(|config| config.games = games::Registry::standard().with(&RACE)).await
}

#[tokio::test]
async fn a_game_added_to_the_registry_is_listed_made_played_recorded_and_replayed() {
    let app = app().await;
    let listed = app.get("/api/games").await;
    let race = listed
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "race")
        .cloned()
        .expect("the race is listed");
    assert_eq!(race["title"], "A race");
    assert_eq!(race["default_setup"], json!({"goal": 10}));
    assert_eq!(
        (race["min_seats"].as_u64(), race["max_seats"].as_u64()),
        (Some(2), Some(2))
    );

    // A person against a bot, to a goal of 5.
    let mut person = app
        .start(json!({"game": "race", "setup": {"goal": 5}, "seats": ["here", "easy"], "seed": 3}))
        .await;
    let setup = app.get(&format!("/api/matches/{}/setup", person.id)).await;
    assert_eq!(setup.ok()["goal"], 5);
    // Its record is the gate's while the race is on.
    app.get(&format!("/api/matches/{}/record", person.id))
        .await
        .refused(axum::http::StatusCode::CONFLICT, "game_on");
    let mut rounds = 0;
    let view = loop {
        let view = app.look(&mut person).await;
        if view["status"] != "playing" {
            break view;
        }
        if view["to_move"] == 1 {
            app.play(&mut person, json!("roll")).await.ok();
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        rounds += 1;
        assert!(rounds < 500, "the race never ended: {view}");
    };
    assert_eq!(view["status"], "won", "{view}");
    assert!(
        view["view"]["at"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == 5),
        "{view}"
    );
    let moves = view["moves"].as_u64().unwrap();
    let record = app.get(&format!("/api/matches/{}/record", person.id)).await;
    assert_eq!(record.ok()["game"], "race");
    let last = app
        .get(&format!("/api/matches/{}/replay?at={moves}", person.id))
        .await;
    assert_eq!(last.ok()["view"]["view"], view["view"]);
    let svg = app.get(&format!("/api/matches/{}/svg", person.id)).await;
    assert!(svg.body.to_string().contains("A race to 5"), "{}", svg.body);

    // An unknown game names the race among those here.
    let refused = app.post("/api/matches", json!({"game": "chess"})).await;
    assert!(
        refused
            .message()
            .ends_with("say chutes, baffle, tycoon or race"),
        "{}",
        refused.message()
    );
}

#[tokio::test]
async fn the_standard_registry_knows_nothing_of_the_race() {
    let app = App::new().await;
    app.post("/api/matches", json!({"game": "race"}))
        .await
        .refused(axum::http::StatusCode::BAD_REQUEST, "bad_request");
}
