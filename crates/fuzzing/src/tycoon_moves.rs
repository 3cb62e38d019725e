//! Sequences of moves against Tycoon games of two to four players (half of
//! them four, by the seed), on the sample grid or a grid the input builds: a refused move changes nothing; after each accepted
//! move no token is off the grid, a winner stands on the last cell, attacks
//! and owners are legal, the view carries no seed; the match's record,
//! written and read back, replays to the same game.
use arbitrary::Arbitrary;
use tabletop::play::{DiceMode, Match, Record, Request, SeatKind, Viewer};
use tycoon::cells::{LAST, on_grid};
use tycoon::contract::Setup;
use tycoon::{Attack, Game, Grid, GridSpec, Ladder, Move, Snake};

#[derive(Arbitrary, Debug)]
enum Step {
    /// One of the legal moves, by index.
    Legal(u8),
    /// Any move, legal or not.
    Any(u8, u8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    sample: bool,
    ladders: Vec<(u8, u8)>,
    snakes: Vec<(u8, u8)>,
    seed: u64,
    turn_cap: u16,
    steps: Vec<Step>,
}

fn any_move(kind: u8, target: u8) -> Move {
    let attack = [Attack::Ice, Attack::Fire, Attack::Poison, Attack::Lightning];
    match kind % 8 {
        0 => Move::Roll,
        1 => Move::Recharge,
        2 => Move::Buy,
        3 => Move::Pass,
        4 => Move::Pay,
        5 => Move::Stay,
        _ => Move::Attack {
            attack: attack[usize::from(target) % 4],
            target: (target >= 4).then_some(target % 6),
        },
    }
}

/// Checks one input (the fuzzer's bytes, read as an [`Input`] the way
/// libFuzzer's `fuzz_target!` reads them): panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Ok(input) = <Input as arbitrary::Arbitrary<'_>>::arbitrary_take_rest(
        arbitrary::Unstructured::new(data),
    ) else {
        return;
    };
    run(input);
}

fn run(input: Input) {
    let grid = if input.sample {
        tycoon::parse_grid(tycoon::SAMPLE_GRID).expect("the sample grid")
    } else {
        let spec = GridSpec {
            ladders: input
                .ladders
                .iter()
                .take(20)
                .map(|&(s, e)| Ladder {
                    start: u32::from(s),
                    end: u32::from(e),
                })
                .collect(),
            snakes: input
                .snakes
                .iter()
                .take(20)
                .map(|&(s, e)| Snake {
                    start: u32::from(s),
                    end: u32::from(e),
                })
                .collect(),
            cards: Vec::new(),
        };
        let Ok(grid) = Grid::new(&spec) else {
            return;
        };
        grid
    };
    let setup = Setup {
        grid,
        turn_cap: u32::from(input.turn_cap).max(1),
    };
    let players: u8 = match input.seed % 4 {
        0 => 2,
        1 => 3,
        _ => 4,
    };
    let mut m = Match::<Game>::start(
        setup,
        vec![SeatKind::Person; usize::from(players)],
        DiceMode::Seeded { seed: input.seed },
    )
    .expect("two to four people on a legal grid");
    for step in input.steps.iter().take(400) {
        let game = m.game();
        let mv = match *step {
            Step::Legal(i) => {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    assert!(game.is_over(), "a game on has a legal move");
                    break;
                }
                legal[usize::from(i) % legal.len()]
            }
            Step::Any(kind, target) => any_move(kind, target),
        };
        let before = game.clone();
        let moves_before = m.moves();
        let seat = m.to_move().unwrap_or(1);
        let request = Request::after_moves(mv, m.moves());
        if m.play(seat, request).is_err() {
            // Nothing changed, so nothing below can have: the checks after
            // the last accepted move stand.
            assert_eq!(m.game(), &before, "a refused move changes nothing");
            assert_eq!(m.moves(), moves_before, "a refused move is not recorded");
            continue;
        }
        let game = m.game();
        assert_eq!(game.players().len(), usize::from(players));
        for (i, p) in game.players().iter().enumerate() {
            assert!(on_grid(p.cell), "player {} on cell {}", i + 1, p.cell);
            assert!(p.attacks.len() <= 2, "{:?}", p.attacks);
            if p.cell == LAST {
                assert_eq!(
                    game.winner(),
                    Some(i as u8 + 1),
                    "only the winner is on the last cell"
                );
            }
        }
        for number in 9..=11 {
            if let Some(owner) = game.owner(number) {
                assert!((1..=players).contains(&owner));
            }
        }
        let view = m.view(Viewer::Spectator);
        assert_eq!(view.view.over, game.is_over());
        if !m.status().is_over() {
            let text = serde_json::to_string(&view).expect("a view is JSON");
            assert!(!text.contains("\"seed\""), "the view carries the seed");
            assert!(!text.contains(&input.seed.to_string()) || input.seed < 1000);
        }
    }
    let saved = serde_json::to_string(m.record()).expect("a record is JSON");
    let record: Record<Setup, Move> =
        serde_json::from_str(&saved).unwrap_or_else(|e| panic!("the record does not load: {e}"));
    let again = Match::<Game>::replay(record).expect("a record of legal moves replays");
    assert_eq!(again.game(), m.game(), "the moves replay to the same game");
}
