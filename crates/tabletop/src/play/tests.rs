//! The match layer on a toy game: a race to square 10 with a secret.

use super::*;
use crate::Code;
use crate::DiceError;

/// Two or three racers roll a die and move; the first to reach 10 wins.
/// Each racer's "hand" is a secret number only that seat may see.
#[derive(Clone, Debug)]
struct Race {
    squares: Vec<u32>,
    hands: Vec<u64>,
    next: usize,
    winner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
enum RaceMove {
    Roll,
    Wait,
}

impl fmt::Display for RaceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Roll => "roll",
            Self::Wait => "wait",
        })
    }
}

impl FromStr for RaceMove {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "roll" => Ok(Self::Roll),
            "wait" => Ok(Self::Wait),
            _ => Err(format!("'{s}' is not a move")),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum RaceError {
    #[error("no racers")]
    Empty,
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl Coded for RaceError {
    fn code(&self) -> Code {
        match self {
            Self::Empty => Code::BadSetup,
            Self::Dice(e) => e.code(),
        }
    }
}

#[derive(Serialize)]
struct RaceView {
    squares: Vec<u32>,
    hand: Option<u64>,
}

impl Playable for Race {
    const NAME: &'static str = "race";
    type Setup = u32;
    type Move = RaceMove;
    type Event = String;
    type View = RaceView;
    type Error = RaceError;

    fn seat_range(_: &u32) -> std::ops::RangeInclusive<u8> {
        2..=3
    }

    fn start(setup: &u32, seats: &[SeatKind], seed: u64) -> Result<Self, RaceError> {
        if *setup == 0 {
            return Err(RaceError::Empty);
        }
        let mut rng = Rng::stream(seed, 1);
        Ok(Self {
            squares: vec![0; seats.len()],
            hands: seats.iter().map(|_| rng.next_u64()).collect(),
            next: 0,
            winner: None,
        })
    }

    fn to_move(&self) -> Option<u8> {
        self.winner.is_none().then_some(self.next as u8 + 1)
    }

    fn apply(
        &mut self,
        mv: &RaceMove,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<String>, RaceError> {
        let mut events = Vec::new();
        if *mv == RaceMove::Roll {
            let roll = dice.roll(6)?;
            self.squares[self.next] += u32::from(roll);
            events.push(format!("seat {} rolls {roll}", self.next + 1));
            if self.squares[self.next] >= 10 {
                self.winner = Some(self.next as u8 + 1);
                return Ok(events);
            }
        }
        self.next = (self.next + 1) % self.squares.len();
        Ok(events)
    }

    fn status(&self) -> Status {
        match self.winner {
            Some(winner) => Status::Won { winner },
            None => Status::Playing,
        }
    }

    fn view(&self, viewer: Viewer) -> RaceView {
        RaceView {
            squares: self.squares.clone(),
            hand: match viewer {
                Viewer::Seat { seat } => self.hands.get(usize::from(seat) - 1).copied(),
                Viewer::Spectator => None,
            },
        }
    }

    fn bot_move(&self, level: BotLevel, rng: &mut Rng) -> RaceMove {
        if level == BotLevel::Easy && rng.below(2) == 0 {
            RaceMove::Wait
        } else {
            RaceMove::Roll
        }
    }
}

const PEOPLE: [SeatKind; 2] = [SeatKind::Person, SeatKind::Person];

fn roll() -> Request<RaceMove> {
    Request::new(RaceMove::Roll)
}

#[test]
fn seats_take_turns_and_refuse_out_of_turn() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 7 }).unwrap();
    assert_eq!(m.to_move(), Some(1));
    let err = m.play(2, roll()).unwrap_err();
    assert_eq!(
        err,
        MatchError::NotYourTurn {
            seat: 2,
            to_move: 1
        }
    );
    assert_eq!(err.code(), "not_your_turn");
    assert_eq!(m.play(3, roll()).unwrap_err().code(), "no_such_seat");
    let played = m.play(1, roll()).unwrap();
    assert_eq!((played.number, played.seat, played.bot), (1, 1, false));
    assert_eq!(m.to_move(), Some(2));
    assert_eq!(m.moves(), 1);
}

#[test]
fn a_stale_move_number_is_refused_and_changes_nothing() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 7 }).unwrap();
    m.play(
        1,
        Request {
            after: Some(0),
            ..roll()
        },
    )
    .unwrap();
    // The same click again, sent twice: the second says it saw move 0.
    let err = m
        .play(
            2,
            Request {
                after: Some(0),
                ..roll()
            },
        )
        .unwrap_err();
    assert_eq!(
        err,
        MatchError::Stale {
            expected: 1,
            got: 0
        }
    );
    assert_eq!(err.code(), "stale_move");
    assert_eq!(m.moves(), 1);
}

#[test]
fn seeded_dice_refuse_a_chosen_roll_and_chosen_dice_need_one() {
    let mut seeded =
        Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 1 }).unwrap();
    let err = seeded
        .play(
            1,
            Request {
                roll: Some(6),
                ..roll()
            },
        )
        .unwrap_err();
    assert_eq!(err.code(), "roll_not_chosen");
    let mut chosen = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Chosen).unwrap();
    assert_eq!(chosen.play(1, roll()).unwrap_err().code(), "roll_needed");
    let waiting = Request {
        mv: RaceMove::Wait,
        after: None,
        roll: Some(3),
    };
    assert_eq!(chosen.play(1, waiting).unwrap_err().code(), "roll_unused");
    assert_eq!(
        chosen
            .play(
                1,
                Request {
                    roll: Some(7),
                    ..roll()
                }
            )
            .unwrap_err()
            .code(),
        "bad_roll"
    );
    assert_eq!(chosen.moves(), 0);
    let played = chosen
        .play(
            1,
            Request {
                roll: Some(6),
                ..roll()
            },
        )
        .unwrap();
    assert_eq!(played.roll, Some(6));
    assert_eq!(chosen.record().moves[0].roll, Some(6));
}

#[test]
fn bots_move_until_a_person_must_answer() {
    let seats = vec![
        SeatKind::Person,
        SeatKind::Bot {
            level: BotLevel::Normal,
        },
        SeatKind::Bot {
            level: BotLevel::Hard,
        },
    ];
    let mut m = Match::<Race>::start(5, seats, DiceMode::Seeded { seed: 3 }).unwrap();
    let mut rng = m.bot_rng();
    assert!(m.run_bots(&mut rng, 100).is_empty(), "seat 1 is a person");
    assert_eq!(m.play(2, roll()).unwrap_err().code(), "bot_seat");
    m.play(1, roll()).unwrap();
    let played = m.run_bots(&mut rng, 100);
    assert!(played.iter().all(|p| p.bot));
    assert!(m.to_move() == Some(1) || m.status().is_over());
    assert!(played.len() == 2 || m.status().is_over());
}

#[test]
fn a_record_replays_to_the_same_match() {
    let seats = vec![
        SeatKind::Bot {
            level: BotLevel::Easy
        };
        3
    ];
    let mut m = Match::<Race>::start(5, seats, DiceMode::Seeded { seed: 11 }).unwrap();
    let mut rng = Rng::new(5);
    m.run_bots(&mut rng, 1000);
    assert!(m.status().is_over());
    let json = serde_json::to_string(m.record()).unwrap();
    let again = Match::<Race>::replay(serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(again.game().squares, m.game().squares);
    assert_eq!(again.status(), m.status());
    assert_eq!(again.record(), m.record());
}

#[test]
fn a_record_with_an_illegal_move_names_it() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Chosen).unwrap();
    for _ in 0..3 {
        let seat = m.to_move().unwrap();
        m.play(
            seat,
            Request {
                roll: Some(1),
                ..roll()
            },
        )
        .unwrap();
    }
    let mut record = m.record().clone();
    record.moves[1].roll = Some(9);
    let err = Match::<Race>::replay(record.clone()).unwrap_err();
    assert!(matches!(err, ReplayError::Move { index: 1, .. }), "{err}");
    assert!(err.to_string().contains("move #2"), "{err}");
    record.game = "chess".into();
    assert!(
        Match::<Race>::replay(record)
            .unwrap_err()
            .to_string()
            .contains("chess")
    );
}

#[test]
fn the_move_cap_stalls_a_match() {
    let seats = vec![
        SeatKind::Bot {
            level: BotLevel::Easy
        };
        2
    ];
    let mut m = Match::<Race>::start(5, seats, DiceMode::Seeded { seed: 2 })
        .unwrap()
        .with_move_cap(3);
    let mut rng = Rng::new(1);
    // Waiting never ends a race: only the cap stops these bots if they wait.
    while m.step_bot(&mut rng, None).is_some() {}
    assert!(m.moves() <= 3);
    if m.moves() == 3 && m.game().winner.is_none() {
        assert!(
            matches!(m.status(), Status::Stalled { .. }),
            "{}",
            m.status()
        );
        assert_eq!(m.to_move(), None);
    }
}

#[test]
fn views_keep_the_seed_and_other_seats_secrets_until_the_end() {
    let seed = 0xDEAD_BEEF_u64;
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed }).unwrap();
    let hands = m.game().hands.clone();
    let spectator = serde_json::to_string(&m.view(Viewer::Spectator)).unwrap();
    let seat1 = serde_json::to_string(&m.view(Viewer::Seat { seat: 1 })).unwrap();
    for text in [&spectator, &seat1] {
        assert!(
            !text.contains(&seed.to_string()) && !text.contains("\"seed\""),
            "{text}"
        );
        assert!(!text.contains(&hands[1].to_string()), "{text}");
    }
    assert!(seat1.contains(&hands[0].to_string()));
    assert!(!spectator.contains(&hands[0].to_string()));
    assert!(m.public_record().is_none());
    while let Some(seat) = m.to_move() {
        m.play(seat, roll()).unwrap();
    }
    let after = serde_json::to_string(&m.view(Viewer::Spectator)).unwrap();
    assert!(after.contains(&format!("\"seed\":{seed}")), "{after}");
    assert!(m.public_record().is_some());
}

#[test]
fn record_entries_are_the_moves_text() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Chosen).unwrap();
    m.play(
        1,
        Request {
            roll: Some(4),
            ..roll()
        },
    )
    .unwrap();
    m.play(2, Request::new(RaceMove::Wait)).unwrap();
    let json = serde_json::to_value(m.record()).unwrap();
    assert_eq!(json["moves"], serde_json::json!(["roll @4", "wait"]));
    assert_eq!(json["dice"], serde_json::json!("chosen"));
    let bad = |moves: serde_json::Value| {
        let mut j = json.clone();
        j["moves"] = moves;
        serde_json::from_value::<Record<u32, RaceMove>>(j)
            .unwrap_err()
            .to_string()
    };
    assert!(bad(serde_json::json!(["jump"])).contains("'jump' is not a move"));
    assert!(bad(serde_json::json!(["roll @0"])).contains("roll after @"));
    let mut extra = json.clone();
    extra["cheat"] = serde_json::json!(true);
    assert!(serde_json::from_value::<Record<u32, RaceMove>>(extra).is_err());
}

#[test]
fn seat_kinds_read_every_spelling() {
    assert_eq!("human".parse::<SeatKind>().unwrap(), SeatKind::Person);
    assert_eq!(
        "bot".parse::<SeatKind>().unwrap(),
        SeatKind::Bot {
            level: BotLevel::Normal
        }
    );
    assert_eq!(
        "hard".parse::<SeatKind>().unwrap(),
        SeatKind::Bot {
            level: BotLevel::Hard
        }
    );
    assert_eq!(
        "bot:easy".parse::<SeatKind>().unwrap(),
        SeatKind::Bot {
            level: BotLevel::Easy
        }
    );
    assert!("robot".parse::<SeatKind>().unwrap_err().contains("robot"));
    let json = serde_json::to_string(&SeatKind::Bot {
        level: BotLevel::Hard,
    })
    .unwrap();
    assert_eq!(json, r#"{"kind":"bot","level":"hard"}"#);
}

#[test]
fn names_are_kept_in_the_record_and_replayed() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 3 }).unwrap();
    let bare = serde_json::to_value(m.record()).unwrap();
    assert!(bare.get("names").is_none(), "no names, no field: {bare}");
    m.set_name(2, Some("  Ada ")).unwrap();
    assert_eq!(m.chosen_name(2), Some("Ada"));
    assert_eq!(m.chosen_name(1), None);
    assert_eq!(
        m.set_name(3, Some("Bo")).unwrap_err().to_string(),
        "this game has 2 seats: there is no seat 3 to name"
    );
    assert_eq!(
        crate::play::Coded::code(&m.set_name(1, Some("\u{202E}x")).unwrap_err()),
        "bad_name"
    );
    m.play(1, roll()).unwrap();
    let json = serde_json::to_value(m.record()).unwrap();
    assert_eq!(json["names"], serde_json::json!([null, "Ada"]));
    let again = Match::<Race>::replay(serde_json::from_value(json).unwrap()).unwrap();
    assert_eq!(again.chosen_name(2), Some("Ada"));
    assert_eq!(again.record(), m.record());
    // A record holding a name the rule now refuses (kept before the rule
    // was stricter, or edited) replays with that seat unnamed.
    let mut old = serde_json::to_value(m.record()).unwrap();
    old["names"] = serde_json::json!(["Bot", "Ada"]);
    let again = Match::<Race>::replay(serde_json::from_value(old).unwrap()).unwrap();
    assert_eq!(again.chosen_name(1), None);
    assert_eq!(again.chosen_name(2), Some("Ada"));
    // Two seats may not look alike.
    assert_eq!(
        m.set_name(1, Some("ADA")).unwrap_err().to_string(),
        "'ADA' looks like the name of another player here ('Ada'): choose another name"
    );
    // Taking the last name away leaves a record with no names.
    m.set_name(2, None).unwrap();
    assert!(
        serde_json::to_value(m.record())
            .unwrap()
            .get("names")
            .is_none()
    );
}

#[test]
fn a_move_a_bot_chose_for_a_person_is_marked_and_replayed() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 3 }).unwrap();
    let played = m.play_chosen_by_bot(1, roll()).unwrap();
    assert!(played.bot, "told as the bot's");
    let plain = m.play(2, roll()).unwrap();
    assert!(!plain.bot);
    let json = serde_json::to_value(m.record()).unwrap();
    assert_eq!(json["moves"], serde_json::json!(["roll (bot)", "roll"]));
    let mut again = Match::<Race>::replay(serde_json::from_value(json).unwrap()).unwrap();
    assert_eq!(again.record(), m.record());
    // Replayed entry by entry, the mark is told again.
    let mut fresh = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 3 }).unwrap();
    let first = fresh.apply_entry("roll (bot)".parse().unwrap()).unwrap();
    assert!(first.bot);
    assert!(again.play(1, roll()).is_ok());
    // A bot's own seat is not marked: its seat says who chose.
    let seats = vec![
        SeatKind::Bot {
            level: BotLevel::Easy,
        },
        SeatKind::Person,
    ];
    let mut bots = Match::<Race>::start(5, seats, DiceMode::Seeded { seed: 3 }).unwrap();
    let mut rng = Rng::new(1);
    bots.run_bots(&mut rng, 1);
    assert!(!bots.record().moves[0].to_string().ends_with("(bot)"));
    assert!(!bots.record().moves[0].by_bot);
}

#[test]
fn colours_are_each_seats_once_and_the_record_keeps_them() {
    let mut m = Match::<Race>::start(5, PEOPLE.to_vec(), DiceMode::Seeded { seed: 3 }).unwrap();
    assert_eq!((m.colour(1), m.colour(2)), (1, 2), "seat order by default");
    for bad in [vec![1], vec![1, 1], vec![0, 1], vec![2, 3], vec![1, 2, 3]] {
        assert!(m.set_colours(bad.clone()).is_err(), "{bad:?}");
    }
    m.set_colours(vec![2, 1]).unwrap();
    assert_eq!((m.colour(1), m.colour(2)), (2, 1));
    let json = serde_json::to_value(m.record()).unwrap();
    assert_eq!(json["colours"], serde_json::json!([2, 1]));
    let again = Match::<Race>::replay(serde_json::from_value(json).unwrap()).unwrap();
    assert_eq!(again.colour(1), 2);
    // Seat order is kept as no colours at all.
    m.set_colours(vec![1, 2]).unwrap();
    assert!(
        serde_json::to_value(m.record())
            .unwrap()
            .get("colours")
            .is_none()
    );
    // A record whose colours are not each seat's once does not replay.
    let mut json = serde_json::to_value(m.record()).unwrap();
    json["colours"] = serde_json::json!([3, 3]);
    assert!(Match::<Race>::replay(serde_json::from_value(json).unwrap()).is_err());
}

#[test]
fn a_seat_is_named_by_its_name_else_by_its_number() {
    let names = ["Ada".to_string()];
    assert_eq!(super::seat_name(&names, 1), "Ada");
    assert_eq!(super::seat_name(&names, 2), "Player 2");
    assert_eq!(super::seat_name(&names, 0), "Player 0");
}
