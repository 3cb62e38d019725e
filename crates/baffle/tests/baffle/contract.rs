//! Baffle through the match layer: records replay exactly, a bad record is
//! refused with its move, and no view or event shows an unfound mirror or
//! the seed while the game is on.

use baffle::{Game, Move, Setup, Sides};
use tabletop::play::{DiceMode, Entry, Match, ReplayError, SeatKind, Viewer};
use tabletop::{BotLevel, Rng};

fn easy_bot() -> Vec<SeatKind> {
    vec![SeatKind::Bot {
        level: BotLevel::Easy,
    }]
}

fn random_match(seed: u64, size: usize, mirrors: usize) -> Match<Game> {
    let setup = Setup::seeded(size, mirrors, Sides::All, seed);
    Match::start(setup, easy_bot(), DiceMode::Seeded { seed }).expect("a legal setup")
}

#[test]
fn any_record_of_legal_moves_replays_to_the_same_match() {
    let mut rng = Rng::new(4);
    for round in 0..12 {
        let seed = rng.next_u64();
        let mut m = random_match(seed, 5 + round % 3, 1 + round % 3);
        let mut bot_rng = m.bot_rng();
        let played = m.run_bots(&mut bot_rng, 500);
        assert!(!played.is_empty());
        let json = serde_json::to_string(m.record()).unwrap();
        let again = Match::<Game>::replay(serde_json::from_str(&json).unwrap()).unwrap();
        assert_eq!(again.status(), m.status(), "round {round}");
        assert_eq!(again.game(), m.game(), "round {round}");
        let view = |m: &Match<Game>| serde_json::to_string(&m.view(Viewer::Spectator)).unwrap();
        assert_eq!(view(&again), view(&m));
        let words = |m: &Match<Game>| m.log().map(|l| l.event.to_string()).collect::<Vec<_>>();
        assert_eq!(words(&again), words(&m));
    }
}

#[test]
fn a_record_with_an_illegal_move_is_refused_with_its_index() {
    let mut m = Match::<Game>::start(
        Setup::default(),
        vec![SeatKind::Person],
        DiceMode::Seeded { seed: 1 },
    )
    .unwrap();
    let shoot = |hole| tabletop::play::Request::new(Move::Shoot { hole });
    m.play(1, shoot(7)).unwrap();
    m.play(1, shoot(5)).unwrap();
    let mut record = m.record().clone();
    record.moves.insert(
        1,
        Entry {
            mv: Move::Shoot { hole: 99 },
            roll: None,
            by_bot: false,
        },
    );
    let err = Match::<Game>::replay(record).unwrap_err();
    assert!(matches!(err, ReplayError::Move { index: 1, .. }), "{err}");
    assert!(err.to_string().contains("no hole 99"), "{err}");
    let err = m.play(1, shoot(40)).unwrap_err();
    assert_eq!(tabletop::play::Coded::code(&err), "illegal_move");
}

#[test]
fn no_view_shows_an_unfound_mirror_or_the_seed_while_the_game_is_on() {
    let mut rng = Rng::new(11);
    for round in 0..10 {
        let seed = rng.next_u64() | (1 << 63);
        let mut m = random_match(seed, 6, 2 + round % 3);
        let mut bot_rng = Rng::new(round as u64);
        while let Some(played) = m.step_bot(&mut bot_rng, None) {
            let on = !m.status().is_over();
            let view = m.view(Viewer::Seat { seat: 1 });
            let mut texts = vec![serde_json::to_string(&played).unwrap()];
            texts.extend(played.events.iter().map(ToString::to_string));
            if on {
                assert!(view.view.missed.is_none(), "round {round}");
                assert!(
                    view.view
                        .shots
                        .iter()
                        .all(|s| s.path.is_none() && s.deflections.is_none())
                );
                texts.push(serde_json::to_string(&view).unwrap());
                texts.push(serde_json::to_string(&m.view(Viewer::Spectator)).unwrap());
                for text in &texts {
                    assert!(
                        !text.contains(&seed.to_string()) && !text.contains(&format!("{seed:x}")),
                        "{text}"
                    );
                }
            }
        }
        let end = m.view(Viewer::Spectator);
        assert!(end.view.missed.is_some());
        assert!(
            serde_json::to_string(&end)
                .unwrap()
                .contains(&seed.to_string())
        );
    }
}
