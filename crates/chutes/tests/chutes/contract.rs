//! Chutes & Ladders through the match layer: records replay exactly, a bad
//! record is refused with its move, and no view or event tells the seed.

use chutes::contract::{Move, Setup, Table};
use chutes::{Board, Rules};
use tabletop::Rng;
use tabletop::play::{DiceMode, Entry, Match, ReplayError, SeatKind, Viewer};

fn boards() -> Vec<Board> {
    vec![
        Board::classic(),
        Board::from_jumps(
            30,
            1,
            &[
                (3, 22),
                (5, 8),
                (11, 26),
                (20, 29),
                (27, 1),
                (21, 9),
                (17, 4),
                (19, 7),
            ],
        )
        .expect("a legal board"),
        Board::from_jumps(12, 0, &[(2, 11), (10, 1)]).expect("a legal board"),
    ]
}

fn bots(n: usize) -> Vec<SeatKind> {
    vec![
        SeatKind::Bot {
            level: tabletop::BotLevel::Normal
        };
        n
    ]
}

/// Every seed's decimal and hex forms.
fn forms(seed: u64) -> [String; 3] {
    [seed.to_string(), format!("{seed:x}"), format!("{seed:X}")]
}

#[test]
fn any_record_of_legal_moves_replays_to_the_same_match() {
    let mut rng = Rng::new(1);
    for round in 0..60u64 {
        let board = boards()[(round % 3) as usize].clone();
        let players = 1 + (round % 4) as usize;
        let setup = Setup {
            board,
            rules: Rules::default(),
        };
        let seed = rng.next_u64();
        let mut m = Match::<Table>::start(setup, bots(players), DiceMode::Seeded { seed }).unwrap();
        let mut bot_rng = m.bot_rng();
        let mut events = Vec::new();
        for played in m.run_bots(&mut bot_rng, 5_000) {
            events.extend(played.events);
        }
        let json = serde_json::to_string(m.record()).unwrap();
        let again = Match::<Table>::replay(serde_json::from_str(&json).unwrap()).unwrap();
        assert_eq!(again.status(), m.status(), "round {round}");
        let view = |m: &Match<Table>| serde_json::to_string(&m.view(Viewer::Spectator)).unwrap();
        assert_eq!(view(&again), view(&m), "round {round}");
        let logged: Vec<_> = again.log().map(|l| l.event).collect();
        assert_eq!(
            &logged[logged.len().saturating_sub(events.len())..],
            &events[events.len().saturating_sub(logged.len())..]
        );
    }
}

#[test]
fn a_record_with_an_illegal_move_is_refused_with_its_index() {
    let setup = Setup {
        board: Board::from_jumps(5, 0, &[]).unwrap(),
        rules: Rules::default(),
    };
    let mut m = Match::<Table>::start(setup, vec![SeatKind::Person], DiceMode::Chosen).unwrap();
    let mut dice = tabletop::ScriptedDice::new(vec![3, 2]);
    m.play_rolling(1, Move::Roll, &mut dice).unwrap();
    m.play_rolling(1, Move::Roll, &mut dice).unwrap();
    assert!(m.status().is_over());
    let mut record = m.record().clone();
    record.moves.push(Entry {
        mv: Move::Roll,
        roll: Some(1),
        by_bot: false,
    });
    let err = Match::<Table>::replay(record.clone()).unwrap_err();
    assert!(matches!(err, ReplayError::Move { index: 2, .. }), "{err}");
    assert!(err.to_string().contains("over"), "{err}");
    record.moves.truncate(1);
    record.moves[0].roll = Some(7);
    let err = Match::<Table>::replay(record).unwrap_err();
    assert!(matches!(err, ReplayError::Move { index: 0, .. }), "{err}");
    assert!(
        err.to_string().contains("cannot roll 7") || err.to_string().contains('7'),
        "{err}"
    );
}

#[test]
fn no_view_or_event_tells_the_seed_until_the_end() {
    let mut rng = Rng::new(9);
    for round in 0..40 {
        // Seeds large enough that their digits cannot turn up by chance.
        let seed = rng.next_u64() | (1 << 63);
        let setup = Setup {
            board: Board::classic(),
            rules: Rules::default(),
        };
        let mut m = Match::<Table>::start(setup, bots(2), DiceMode::Seeded { seed }).unwrap();
        let mut bot_rng = Rng::new(round);
        while let Some(played) = m.step_bot(&mut bot_rng, None) {
            let mut texts = vec![serde_json::to_string(&played).unwrap()];
            texts.extend(played.events.iter().map(ToString::to_string));
            if !m.status().is_over() {
                texts.push(serde_json::to_string(&m.view(Viewer::Spectator)).unwrap());
                texts.push(serde_json::to_string(&m.view(Viewer::Seat { seat: 1 })).unwrap());
                assert!(m.public_record().is_none());
            }
            for text in &texts {
                for form in forms(seed) {
                    assert!(!text.contains(&form), "round {round}: {text}");
                }
            }
        }
        let end = serde_json::to_string(&m.view(Viewer::Spectator)).unwrap();
        assert!(end.contains(&seed.to_string()), "{end}");
        assert!(m.public_record().is_some());
    }
}
