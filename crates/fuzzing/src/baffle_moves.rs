//! Sequences of moves against Baffle games: after each move, while the game
//! is on, the view shows no mirror not yet found and no beam's path; the
//! score adds up; replaying the record gives the same game.
use arbitrary::Arbitrary;
use baffle::{Cell, Game, Mirror, Move, Setup, Sides, Status};

/// The most moves one input plays: every hole of a 9×9 box shot, and
/// then guesses. Each move's checks (a copy of the game, its view) grow
/// with the moves before it, so a longer game costs the square of its
/// length; past this, inputs would only repeat shots already made.
const MAX_STEPS: usize = 160;

#[derive(Arbitrary, Debug)]
enum Step {
    Shoot(u8),
    Guess(u8, u8, bool),
    Quit,
}

#[derive(Arbitrary, Debug)]
struct Input {
    fixed: bool,
    size: u8,
    mirrors: u8,
    left_top: bool,
    seed: u64,
    steps: Vec<Step>,
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
    let sides = if input.left_top {
        Sides::LeftTop
    } else {
        Sides::All
    };
    let setup = if input.fixed {
        Setup::fixed(sides)
    } else {
        Setup::seeded(
            usize::from(input.size % 10),
            usize::from(input.mirrors % 20),
            sides,
            input.seed,
        )
    };
    let Ok(mut game) = Game::new(setup.clone()) else {
        return;
    };
    let mirrors = game.layout().count();
    for step in input.steps.iter().take(MAX_STEPS) {
        let mv = match *step {
            Step::Shoot(hole) => Move::Shoot {
                hole: usize::from(hole),
            },
            Step::Guess(row, col, slash) => Move::Guess {
                cell: Cell {
                    row: u32::from(row % 12),
                    col: u32::from(col % 12),
                },
                mirror: if slash {
                    Mirror::Slash
                } else {
                    Mirror::Backslash
                },
            },
            Step::Quit => Move::Quit,
        };
        let before = game.clone();
        if game.apply(mv).is_err() {
            assert_eq!(game, before, "a refused move changes nothing");
        }
        let view = game.view();
        let wrong = view.guesses.iter().filter(|g| !g.right).count();
        assert_eq!(view.score.shots, view.shots.len());
        assert_eq!(view.score.wrong_guesses, wrong);
        assert_eq!(view.score.total, view.score.shots + 2 * wrong);
        assert!(view.found.len() <= mirrors);
        for found in &view.found {
            assert_eq!(
                game.layout().get(found.cell),
                Some(found.mirror),
                "{found:?}"
            );
        }
        if view.found.len() == mirrors {
            assert_eq!(view.status, Status::Won);
        }
        if view.status == Status::Playing {
            assert!(view.missed.is_none(), "mirrors shown while the game is on");
            for shot in &view.shots {
                assert!(
                    shot.path.is_none() && shot.deflections.is_none(),
                    "{shot:?}"
                );
            }
        }
    }
    let again = Game::replay(setup, game.moves()).expect("its record replays");
    assert_eq!(again, game);
}
