//! Baffle races through the registry: a race plays to its end and the
//! fewest points win; no seat's view, no watcher's change and no look back
//! shows another seat's shots' exits, guesses or mirrors while it is on;
//! one seat is the solitaire game as it always was.

use crate::{AnyMatch, GameJson, MoveInput, Registry};
use serde_json::{Value, json};
use tabletop::BotLevel;
use tabletop::play::{DiceMode, SeatKind, Status, Viewer};

fn as_json(raw: &GameJson) -> Value {
    serde_json::from_str(raw.get()).unwrap()
}

fn race(request: Value, seats: Vec<SeatKind>, seed: u64) -> Box<dyn AnyMatch> {
    Registry::standard()
        .find("baffle")
        .unwrap()
        .prepare(request)
        .unwrap()
        .start(None, seats, DiceMode::Seeded { seed }, 1)
        .unwrap()
}

fn bot(level: BotLevel) -> SeatKind {
    SeatKind::Bot { level }
}

/// The game's own view of `viewer`, as JSON.
fn game_view(m: &dyn AnyMatch, viewer: Viewer) -> Value {
    as_json(&m.view(viewer).unwrap().position.view)
}

/// The box of `seat` (else the viewer's own) as `viewer` may see it, as
/// JSON ([`AnyMatch::shots_look_back`]).
fn own_box(m: &dyn AnyMatch, viewer: Viewer, seat: Option<u8>) -> Value {
    as_json(&m.shots_look_back(viewer, seat).unwrap().view().unwrap())
}

/// The exits a view's own box shows, by the hole shot.
fn exits(view: &Value) -> Vec<(u64, u64)> {
    view["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["hole"].as_u64().unwrap(), s["exit"].as_u64().unwrap()))
        .collect()
}

#[test]
fn a_race_of_bots_plays_to_its_end_and_the_fewest_points_win() {
    for seed in 1..=6u64 {
        let seats = vec![
            bot(BotLevel::Normal),
            bot(BotLevel::Easy),
            bot(BotLevel::Normal),
        ];
        let mut m = race(json!({"size": 6, "mirrors": 3}), seats, seed);
        let mut moves = 0;
        while let Some(work) = m.bot_turn() {
            let at = work.moves;
            m.play_bot(at, &(work.choose)()).unwrap();
            moves += 1;
            assert!(moves < 2_000, "seed {seed}: the race does not end");
        }
        let end = game_view(m.as_ref(), Viewer::Spectator);
        let racers = end["racers"].as_array().unwrap();
        assert_eq!(racers.len(), 3);
        let finished: Vec<(u8, u64)> = racers
            .iter()
            .filter(|r| r["status"] == "won")
            .map(|r| {
                (
                    r["seat"].as_u64().unwrap() as u8,
                    r["points"].as_u64().unwrap(),
                )
            })
            .collect();
        // Worked out here from the counts, independently of the library.
        let best = finished.iter().map(|f| f.1).min();
        let winners: Vec<u8> = finished
            .iter()
            .filter(|f| Some(f.1) == best)
            .map(|f| f.0)
            .collect();
        match m.status() {
            Status::Won { winner } => assert_eq!(winners, [winner], "seed {seed}"),
            Status::Shared { winners: shared } => assert_eq!(winners, shared, "seed {seed}"),
            Status::GivenUp => assert!(winners.is_empty(), "seed {seed}"),
            other => panic!("seed {seed}: {other:?}"),
        }
        // Once over, the race's view says each racer's counts (not their
        // box), and anyone may see every box on its own: its shots and
        // wrong guesses are the counts, and what it found and missed is
        // the box's mirrors.
        for r in racers {
            assert!(r.get("board").is_none(), "seed {seed}: {r}");
            let seat = r["seat"].as_u64().unwrap() as u8;
            let own = own_box(m.as_ref(), Viewer::Spectator, Some(seat));
            let shots = own["shots"].as_array().unwrap().len() as u64;
            let wrong = own["guesses"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["right"] == false)
                .count() as u64;
            assert_eq!(
                (r["shots"].as_u64(), r["wrong_guesses"].as_u64()),
                (Some(shots), Some(wrong))
            );
            assert_eq!(r["points"].as_u64().unwrap(), shots + 2 * wrong);
            let found = own["found"].as_array().unwrap().len();
            let missed = own["missed"].as_array().unwrap().len();
            assert_eq!(found + missed, 3, "seed {seed}: {own}");
            assert!(own.get("racers").is_none(), "seed {seed}");
        }
    }
}

#[test]
fn no_seat_sees_another_seats_shots_guesses_or_mirrors_while_the_race_is_on() {
    let seats = vec![SeatKind::Person, bot(BotLevel::Normal)];
    let mut m = race(json!({"size": 8, "mirrors": 4}), seats, 11);
    let mut turn = 0u64;
    while !m.status().is_over() {
        let after = m.moves();
        let played = if m.to_move() == Some(1) {
            // The person shoots round the box, then guesses at random cells.
            let text = if turn < 12 {
                format!("shoot {}", turn * 3 % 32)
            } else {
                format!("guess {} {} /", turn % 8, (turn / 8) % 8)
            };
            turn += 1;
            match m.play(1, &MoveInput::Text(text), Some(after), None) {
                Ok(played) => played,
                Err(_) => m
                    .play(1, &MoveInput::Text("quit".into()), Some(after), None)
                    .unwrap(),
            }
        } else {
            let work = m.bot_turn().unwrap();
            m.play_bot(work.moves, &(work.choose)()).unwrap()
        };
        let on = !m.status().is_over();
        let one = game_view(m.as_ref(), Viewer::Seat { seat: 1 });
        let two = game_view(m.as_ref(), Viewer::Seat { seat: 2 });
        let watcher = game_view(m.as_ref(), Viewer::Spectator);
        if on {
            // Each seat's own box is its own; the other is counts only.
            for (view, other) in [(&one, &two), (&two, &one)] {
                for racer in view["racers"].as_array().unwrap() {
                    assert!(racer.get("board").is_none(), "{racer}");
                }
                assert!(view["missed"].is_null());
                let mine = exits(view);
                let theirs = exits(other);
                assert!(
                    theirs.is_empty() || mine != theirs,
                    "two views share their shots: {mine:?}"
                );
            }
            // A watcher sees the box with no shot, guess or mirror.
            assert_eq!(watcher["shots"], json!([]));
            assert_eq!(watcher["guesses"], json!([]));
            assert_eq!(watcher["found"], json!([]));
            assert!(watcher["missed"].is_null());
            // The counts agree with each seat's own box.
            let racers = watcher["racers"].as_array().unwrap();
            assert_eq!(racers[0]["shots"], one["score"]["shots"]);
            assert_eq!(racers[1]["shots"], two["score"]["shots"]);
            assert_eq!(
                racers[0]["found"],
                json!(one["found"].as_array().unwrap().len())
            );
            // The move's words and the watchers' copy of it say no cell.
            let told = played.for_others();
            if played.mv.starts_with("guess") {
                assert_eq!(told.mv, "guess");
            }
            for event in told.events.iter().map(as_json) {
                assert!(event.get("exit").is_none(), "{event}");
                assert!(event.get("row").is_none(), "{event}");
                assert!(event.get("missed").is_none(), "{event}");
            }
            // Looking back while it is on, seat 2 sees seat 1's move as told.
            let step = m.replay_step(m.moves(), Viewer::Seat { seat: 2 }).unwrap();
            let step_played = step.played.unwrap();
            if step_played.seat == 1 && played.mv.starts_with("guess") {
                assert_eq!(step_played.mv, "guess");
            }
            let log = m.view(Viewer::Spectator).unwrap().log;
            for line in log {
                assert!(!line.text.contains("comes out"), "{}", line.text);
            }
            // A seat's box on its own is theirs alone, as in their view.
            let mine = own_box(m.as_ref(), Viewer::Seat { seat: 1 }, None);
            assert_eq!(exits(&mine), exits(&one));
            assert!(mine["missed"].is_null());
            for (viewer, seat) in [(Viewer::Seat { seat: 2 }, 1), (Viewer::Spectator, 2)] {
                let refused = m.shots_look_back(viewer, Some(seat)).err().unwrap();
                assert_eq!(refused.code, tabletop::Code::NotYourSeat);
            }
        } else {
            assert!(one["missed"].is_array());
            let theirs = own_box(m.as_ref(), Viewer::Seat { seat: 1 }, Some(2));
            assert_eq!(exits(&theirs), exits(&two));
            assert!(theirs["missed"].is_array());
        }
    }
}

#[test]
fn one_seat_is_the_solitaire_game_as_before() {
    let mut m = race(json!({"fixed": true}), vec![SeatKind::Person], 3);
    let played = m
        .play(1, &MoveInput::Text("shoot 7".into()), Some(0), None)
        .unwrap();
    assert_eq!(
        as_json(&played.events[0]),
        json!({"event": "shot", "hole": 7, "exit": 22, "text": "The beam into 7 comes out at 22"})
    );
    let view = game_view(m.as_ref(), Viewer::Spectator);
    assert!(view.get("racers").is_none(), "{view}");
    assert_eq!(exits(&view), [(7, 22)]);
    let guess = m
        .play(1, &MoveInput::Text("guess 4 2 /".into()), Some(1), None)
        .unwrap();
    assert_eq!(guess.for_others().mv, "guess 4 2 /");
}

#[test]
fn a_race_holds_one_to_four_seats_and_play_again_deals_a_fresh_box() {
    let baffle = Registry::standard().find("baffle").unwrap();
    assert_eq!((baffle.min_seats, baffle.max_seats), (1, 4));
    let e = baffle
        .prepare(json!({}))
        .unwrap()
        .start(
            None,
            vec![SeatKind::Person; 5],
            DiceMode::Seeded { seed: 1 },
            1,
        )
        .err()
        .unwrap();
    assert_eq!(e.code, "bad_seats");
    // The fixed first game's rematch is a random box like it.
    let mut m = race(json!({"fixed": true}), vec![SeatKind::Person; 2], 5);
    m.play(1, &MoveInput::Text("quit".into()), Some(0), None)
        .unwrap();
    m.play(2, &MoveInput::Text("quit".into()), Some(1), None)
        .unwrap();
    assert_eq!(m.status(), Status::GivenUp);
    let next = m.rematch(99).unwrap();
    let public = as_json(&next.public_setup().unwrap());
    assert_eq!(public["origin"], "random");
    assert_eq!(
        (public["size"].clone(), public["mirrors"].clone()),
        (json!(10), json!(5))
    );
    assert_eq!(next.seats().len(), 2);
}

#[test]
fn bot_errors_are_a_409_after_the_end_and_a_422_otherwise() {
    let over = super::help::bot_refused(&baffle::bot::BotError::Over);
    assert_eq!(over.code, tabletop::Code::GameOver);
    assert_eq!(over.code.status(), 409);
    let hard = super::help::bot_refused(&baffle::bot::BotError::TooHard);
    assert_eq!(hard.code, tabletop::Code::BotStuck);
    assert_eq!(hard.code.status(), 422);
    assert!(hard.to_string().contains("too many cases"), "{hard}");
}

#[test]
fn help_is_for_a_player_of_a_match_on_and_other_games_offer_none() {
    let solo = race(json!({"size": 4, "mirrors": 1}), vec![SeatKind::Person], 1);
    let help = solo.helper(Viewer::Spectator).unwrap();
    let hint = help.hint(&tabletop::Budget::unlimited()).unwrap();
    let hint = as_json(&hint);
    // One mirror in a 4 × 4 box, nothing shot yet: 16 cells × 2 mirrors.
    assert_eq!(hint["layouts"], "32");
    assert_eq!(hint["advice_short"], "Shoot hole 0: it tells you the most.");
    assert!(hint["svg"].as_str().is_some_and(|s| s.contains("<svg")));
    let choice = help.bot_move(&tabletop::Budget::unlimited()).unwrap();
    let why: Value = serde_json::from_str(choice.why.get()).unwrap();
    assert_eq!(why["move_text"], choice.text.as_str());
    let two = race(
        json!({"size": 4, "mirrors": 1}),
        vec![SeatKind::Person, SeatKind::Person],
        1,
    );
    let refused = two.helper(Viewer::Spectator).err().unwrap();
    assert_eq!(refused.code, tabletop::Code::NoToken);
    assert!(two.helper(Viewer::Seat { seat: 2 }).is_ok());
    let chutes = Registry::standard()
        .find("chutes")
        .unwrap()
        .prepare(json!({}))
        .unwrap()
        .start(
            None,
            vec![SeatKind::Person],
            DiceMode::Seeded { seed: 1 },
            1,
        )
        .unwrap();
    let refused = chutes.helper(Viewer::Seat { seat: 1 }).err().unwrap();
    assert_eq!(refused.code, tabletop::Code::WrongGame);
    let listed: Vec<&str> = Registry::standard()
        .games()
        .iter()
        .filter(|g| g.helps)
        .map(|g| g.name)
        .collect();
    assert_eq!(listed, ["baffle"]);
}
