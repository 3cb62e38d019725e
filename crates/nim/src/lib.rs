//! Nim, a game that exists only for Parlor's tests, added as
//! docs/architecture.md says a game is added: this crate (its rules, its
//! adapter, its picture and its page module, `page.js`) and one line in a
//! registry (`games::Registry::standard().with(&nim::NIM)`). Nothing else
//! of Parlor knows it: the tests list it, make it, play it against a bot
//! and between two browsers, look back at it, draw it and replay its record.
//!
//! Terms:
//! - **pile**: the counters left on the table (15 at the start by default).
//! - **take**: a move, `take N`: the player to move takes 1 to `most`
//!   counters (3 by default), never more than are left.
//! - **normal play**: whoever takes the last counter wins.

use games::{Adapter, GameInfo, Need, Refusal, Supplied};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;
use std::str::FromStr;
use tabletop::Code;
use tabletop::play::{Coded, Match, Playable, SeatKind, Status, Viewer, seat_name};
use tabletop::{BotLevel, DiceSource, Rng};

/// The most counters a pile starts with.
pub const MOST_COUNTERS: u8 = 60;
/// The most counters a take may allow.
pub const MOST_TAKE: u8 = 9;

/// A game's setup: the pile at the start, and the most one take may take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// Counters at the start.
    pub pile: u8,
    /// The most counters one take may take.
    pub most: u8,
}

/// A game of Nim in progress.
#[derive(Clone, Debug)]
pub struct Nim {
    setup: Setup,
    pile: u8,
    turn: u8,
    /// The seat that took the last counter, once it is taken.
    last: Option<u8>,
}

/// A move: take this many counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Take(pub u8);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {}", self.0)
    }
}

impl FromStr for Take {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["take", n] => n
                .parse()
                .map(Take)
                .map_err(|_| format!("'{n}' is not a number of counters: say take 1, take 2 …")),
            _ => Err(format!(
                "'{}' is not a move of Nim: say take 1, take 2 …",
                s.trim()
            )),
        }
    }
}

/// What a take did: who took how many, and how many are left.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Took {
    /// The seat that took.
    pub seat: u8,
    /// The counters taken.
    pub count: u8,
    /// The counters left.
    pub left: u8,
}

impl fmt::Display for Took {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {} takes {}, {} left",
            self.seat, self.count, self.left
        )
    }
}

/// A refused take.
#[derive(Clone, Debug)]
pub struct NimError(String);

impl fmt::Display for NimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NimError {}

impl Coded for NimError {
    fn code(&self) -> Code {
        Code::IllegalMove
    }
}

fn counters(n: u8) -> String {
    tabletop::count(u64::from(n), "counter", "counters")
}

impl Nim {
    /// The most the player to move may take now.
    fn most_now(&self) -> u8 {
        self.setup.most.min(self.pile)
    }

    /// The take that leaves the other player a losing pile (a multiple of
    /// `most + 1`), when there is one.
    fn winning_take(&self) -> Option<u8> {
        let take = self.pile % (self.setup.most + 1);
        (take > 0).then_some(take)
    }
}

impl Playable for Nim {
    const NAME: &'static str = "nim";
    type Setup = Setup;
    type Move = Take;
    type Event = Took;
    type View = Value;
    type Error = NimError;

    fn seat_range(_: &Setup) -> std::ops::RangeInclusive<u8> {
        2..=2
    }

    fn start(setup: &Setup, _: &[SeatKind], _: u64) -> Result<Self, NimError> {
        if !(1..=MOST_COUNTERS).contains(&setup.pile) {
            return Err(NimError(format!(
                "a pile has 1 to {MOST_COUNTERS} counters, not {}",
                setup.pile
            )));
        }
        if !(1..=MOST_TAKE).contains(&setup.most) {
            return Err(NimError(format!(
                "a take takes at most 1 to {MOST_TAKE} counters, not {}",
                setup.most
            )));
        }
        Ok(Self {
            setup: setup.clone(),
            pile: setup.pile,
            turn: 1,
            last: None,
        })
    }

    fn to_move(&self) -> Option<u8> {
        (self.status() == Status::Playing).then_some(self.turn)
    }

    fn apply(&mut self, take: &Take, _: &mut dyn DiceSource) -> Result<Vec<Took>, NimError> {
        let most = self.most_now();
        if take.0 == 0 || take.0 > most {
            return Err(NimError(format!(
                "take 1 to {most}: {} left",
                counters(self.pile)
            )));
        }
        let seat = self.turn;
        self.pile -= take.0;
        if self.pile == 0 {
            self.last = Some(seat);
        }
        self.turn = 3 - seat;
        Ok(vec![Took {
            seat,
            count: take.0,
            left: self.pile,
        }])
    }

    fn status(&self) -> Status {
        match self.last {
            Some(winner) => Status::Won { winner },
            None => Status::Playing,
        }
    }

    fn view(&self, _: Viewer) -> Value {
        json!({"pile": self.pile, "start": self.setup.pile, "most": self.most_now()})
    }

    /// Easy takes at random; normal takes the winning take once the pile
    /// is small, hard always (leaving a multiple of `most + 1`); with no
    /// winning take, one counter.
    fn bot_move(&self, level: BotLevel, rng: &mut Rng) -> Take {
        let small = self.pile <= 2 * (self.setup.most + 1);
        match (level, self.winning_take()) {
            (BotLevel::Easy, _) => Take(1 + (rng.next_u64() % u64::from(self.most_now())) as u8),
            (BotLevel::Hard, Some(t)) => Take(t),
            (BotLevel::Normal, Some(t)) if small => Take(t),
            _ => Take(1),
        }
    }

    fn words(took: &Took, _: u8, names: &[String]) -> String {
        format!(
            "{} takes {}: {} left",
            seat_name(names, took.seat),
            took.count,
            took.left
        )
    }
}

/// A game's setup as a client writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Request {
    pile: u8,
    most: u8,
}

impl Default for Request {
    fn default() -> Self {
        Self { pile: 15, most: 3 }
    }
}

impl Adapter for Nim {
    const TITLE: &'static str = "Nim";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 2;
    const PAGE_MODULE: Option<&'static str> = Some(include_str!("page.js"));
    type Request = Request;

    fn need(_: &Request) -> Result<Option<Need>, Refusal> {
        Ok(None)
    }

    fn default_seats() -> Vec<SeatKind> {
        vec![
            SeatKind::Person,
            SeatKind::Bot {
                level: BotLevel::Normal,
            },
        ]
    }

    fn setup_limits() -> Value {
        json!({"pile": [1, MOST_COUNTERS], "most": [1, MOST_TAKE]})
    }

    fn setup(request: Request, _: Option<Supplied>, _: u64) -> Result<Setup, Refusal> {
        let setup = Setup {
            pile: request.pile,
            most: request.most,
        };
        Self::start(&setup, &[], 0).map_err(|e| Refusal::new(Code::BadSetup, e.to_string()))?;
        Ok(setup)
    }

    fn public_setup(m: &Match<Self>) -> Value {
        json!(m.record().setup)
    }

    fn title(setup: &Setup, _: &[SeatKind]) -> String {
        format!("Nim from {}", counters(setup.pile))
    }

    /// The counters in rows of ten, those taken hollow.
    fn picture(m: &Match<Self>, _: Option<&str>) -> Result<render::Picture, render::RenderError> {
        use render::svg::Element;
        let nim = m.game();
        let start = nim.setup.pile;
        let rows = f64::from(start.div_ceil(10));
        let mut picture = render::Picture::new(
            340.0,
            30.0 + 32.0 * rows,
            format!(
                "{}: {} left",
                Self::title(&nim.setup, m.seats()),
                counters(nim.pile)
            ),
        );
        for i in 0..start {
            let left = i < nim.pile;
            picture.push(
                Element::new("circle")
                    .attr("cx", 25.0 + 32.0 * f64::from(i % 10))
                    .attr("cy", 25.0 + 32.0 * f64::from(i / 10))
                    .attr("r", 12.0)
                    .fill(if left { "#b8860b" } else { "none" })
                    .stroke("#857f72", 1.5)
                    .class(if left { "counter" } else { "counter taken" }),
            );
        }
        Ok(picture)
    }
}

/// Nim's entry in a registry: `games::Registry::standard().with(&NIM)`.
pub static NIM: GameInfo = GameInfo::of::<Nim>();

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::play::{DiceMode, Request as MoveRequest};

    fn game(pile: u8, most: u8) -> Match<Nim> {
        let seats = vec![SeatKind::Person, SeatKind::Person];
        Match::start(Setup { pile, most }, seats, DiceMode::Seeded { seed: 1 }).expect("a game")
    }

    fn take(m: &mut Match<Nim>, seat: u8, n: u8) -> Result<(), String> {
        let request = MoveRequest::new(Take(n));
        m.play(seat, request).map(|_| ()).map_err(|e| e.to_string())
    }

    #[test]
    fn whoever_takes_the_last_counter_wins() {
        let mut m = game(5, 3);
        take(&mut m, 1, 3).unwrap();
        assert_eq!(m.status(), Status::Playing);
        take(&mut m, 2, 2).unwrap();
        assert_eq!(m.status(), Status::Won { winner: 2 });
    }

    #[test]
    fn a_take_outside_the_rule_is_refused_and_changes_nothing() {
        let mut m = game(2, 3);
        let err = take(&mut m, 1, 3).unwrap_err();
        assert!(err.contains("take 1 to 2: 2 counters left"), "{err}");
        assert!(take(&mut m, 1, 0).is_err());
        assert_eq!(m.moves(), 0);
        assert_eq!(
            "fly".parse::<Take>().unwrap_err(),
            "'fly' is not a move of Nim: say take 1, take 2 …"
        );
        assert_eq!("take 2".parse::<Take>(), Ok(Take(2)));
    }

    /// The hard bot is perfect: from a pile that is not a multiple of
    /// `most + 1` it beats every line of the other seat's (all checked by
    /// brute force on piles up to 20).
    #[test]
    fn the_hard_bot_wins_every_pile_it_can() {
        fn bot_wins(nim: &Nim, bot_to_move: bool, rng: &mut Rng) -> bool {
            if nim.pile == 0 {
                return !bot_to_move;
            }
            if bot_to_move {
                let mut next = nim.clone();
                let t = nim.bot_move(BotLevel::Hard, rng);
                next.pile -= t.0;
                bot_wins(&next, false, rng)
            } else {
                (1..=nim.most_now()).all(|t| {
                    let mut next = nim.clone();
                    next.pile -= t;
                    bot_wins(&next, true, rng)
                })
            }
        }
        let mut rng = Rng::new(7);
        for most in 1..=4u8 {
            for pile in 1..=20u8 {
                let nim = Nim::start(&Setup { pile, most }, &[], 0).unwrap();
                let winnable = pile % (most + 1) != 0;
                assert_eq!(
                    bot_wins(&nim, true, &mut rng),
                    winnable,
                    "pile {pile}, most {most}"
                );
            }
        }
    }

    #[test]
    fn bad_setups_are_refused_with_their_bounds() {
        let refused = Nim::setup(Request { pile: 0, most: 3 }, None, 0).unwrap_err();
        assert!(
            refused.to_string().contains("1 to 60 counters, not 0"),
            "{refused}"
        );
        let refused = Nim::setup(Request { pile: 9, most: 10 }, None, 0).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("at most 1 to 9 counters, not 10"),
            "{refused}"
        );
    }
}
