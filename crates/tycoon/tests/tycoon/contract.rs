//! Tycoon through the match layer: records replay exactly, a bad record is
//! refused with its move, and no view or event tells the seed.

use tabletop::play::{DiceMode, Entry, Match, ReplayError, SeatKind, Viewer};
use tabletop::{BotLevel, Rng};
use tycoon::contract::Setup;
use tycoon::{Game, Move, SAMPLE_GRID, parse_grid};

fn setup() -> Setup {
    Setup::new(parse_grid(SAMPLE_GRID).expect("the sample grid"))
}

fn seats(round: u64) -> Vec<SeatKind> {
    (0..4)
        .map(|i| SeatKind::Bot {
            level: BotLevel::ALL[((round + i) % 2) as usize],
        })
        .collect()
}

#[test]
fn any_record_of_legal_moves_replays_to_the_same_match() {
    let mut rng = Rng::new(2);
    for round in 0..20 {
        let seed = rng.next_u64();
        let mut m = Match::<Game>::start(setup(), seats(round), DiceMode::Seeded { seed }).unwrap();
        let mut bot_rng = m.bot_rng();
        m.run_bots(&mut bot_rng, 20_000);
        assert!(m.status().is_over(), "round {round}: {}", m.status());
        let json = serde_json::to_string(m.record()).unwrap();
        let again = Match::<Game>::replay(serde_json::from_str(&json).unwrap()).unwrap();
        assert_eq!(again.game(), m.game(), "round {round}");
        assert_eq!(again.status(), m.status());
        let words = |m: &Match<Game>| m.log().map(|l| l.event.to_string()).collect::<Vec<_>>();
        assert_eq!(words(&again), words(&m));
    }
}

#[test]
fn a_record_with_an_illegal_move_is_refused_with_its_index() {
    let mut m = Match::<Game>::start(
        setup(),
        vec![SeatKind::Person; 4],
        DiceMode::Seeded { seed: 5 },
    )
    .unwrap();
    let roll = tabletop::play::Request::after_moves(Move::Roll, 0);
    m.play(1, roll.clone()).unwrap();
    assert_eq!(
        tabletop::play::Coded::code(&m.play(1, roll.clone()).unwrap_err()),
        "stale_move"
    );
    let mut record = m.record().clone();
    record.moves.push(Entry {
        mv: Move::Buy,
        roll: None,
        by_bot: false,
    });
    let err = Match::<Game>::replay(record).unwrap_err();
    assert!(matches!(err, ReplayError::Move { index: 1, .. }), "{err}");
    assert!(err.to_string().contains("buy"), "{err}");
}

#[test]
fn no_view_or_event_tells_the_seed_until_the_end() {
    let mut rng = Rng::new(3);
    for round in 0..8 {
        let seed = rng.next_u64() | (1 << 63);
        let mut m = Match::<Game>::start(setup(), seats(round), DiceMode::Seeded { seed }).unwrap();
        let mut bot_rng = Rng::new(round);
        while let Some(played) = m.step_bot(&mut bot_rng, None) {
            if m.status().is_over() {
                break;
            }
            let mut texts = vec![
                serde_json::to_string(&played).unwrap(),
                serde_json::to_string(&m.view(Viewer::Spectator)).unwrap(),
            ];
            texts.extend(played.events.iter().map(ToString::to_string));
            for text in &texts {
                assert!(
                    !text.contains(&seed.to_string()) && !text.contains(&format!("{seed:x}")),
                    "{text}"
                );
            }
        }
        assert!(m.status().is_over());
        assert!(
            serde_json::to_string(&m.view(Viewer::Spectator))
                .unwrap()
                .contains(&seed.to_string())
        );
    }
}

#[test]
fn two_and_three_seats_play_through_the_match_layer_and_replay() {
    for players in [2u64, 3] {
        for round in 0..6 {
            let seats: Vec<SeatKind> = seats(round).into_iter().take(players as usize).collect();
            let mut m = Match::<Game>::start(setup(), seats, DiceMode::Seeded { seed: round + 40 })
                .unwrap();
            let mut bot_rng = m.bot_rng();
            m.run_bots(&mut bot_rng, 20_000);
            assert!(m.status().is_over(), "{players} players: {}", m.status());
            assert_eq!(m.game().players().len() as u64, players);
            let view = m.view(Viewer::Spectator);
            assert_eq!(view.view.players.len() as u64, players);
            let again = Match::<Game>::replay(m.record().clone()).unwrap();
            assert_eq!(again.game(), m.game());
        }
    }
    for wrong in [1usize, 5] {
        let e = Match::<Game>::start(
            setup(),
            vec![SeatKind::Person; wrong],
            DiceMode::Seeded { seed: 1 },
        )
        .unwrap_err();
        assert_eq!(tabletop::play::Coded::code(&e), "bad_seats");
    }
}
