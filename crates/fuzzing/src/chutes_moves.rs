//! Sequences of rolls against Chutes & Ladders games on small boards: after
//! each roll no token is off the board, the tallies add up, a winner stands
//! on the finish, and replaying the rolls gives the same game.
use arbitrary::Arbitrary;
use chutes::{Board, BoardSpec, Game, Jump, Overshoot, Rules};
use std::sync::Arc;

#[derive(Arbitrary, Debug)]
struct Input {
    size: u8,
    start: bool,
    jumps: Vec<(u8, u8)>,
    faces: u8,
    overshoot: u8,
    players: u8,
    rolls: Vec<u8>,
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
    let spec = BoardSpec {
        name: None,
        size: u32::from(input.size),
        start: u32::from(input.start),
        jumps: input
            .jumps
            .iter()
            .take(64)
            .map(|&(from, to)| Jump::new(u32::from(from), u32::from(to)))
            .collect(),
        geometry: None,
    };
    let Ok(board) = Board::new(spec) else {
        return;
    };
    let overshoot =
        [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish][usize::from(input.overshoot) % 3];
    let Ok(rules) = Rules::new(overshoot, u32::from(input.faces % 13)) else {
        return;
    };
    let board = Arc::new(board);
    let players = usize::from(input.players % 9);
    let Ok(mut game) = Game::new(board.clone(), rules, players) else {
        assert!(players == 0 || players > 8);
        return;
    };
    let mut played = Vec::new();
    for &roll in input.rolls.iter().take(2000) {
        let roll = u32::from(roll);
        let before = game.rolls();
        match game.play_roll(roll) {
            Ok(turn) => {
                played.push(roll);
                assert_eq!(game.rolls(), before + 1);
                assert!(
                    turn.to <= board.size() && turn.from <= board.size(),
                    "{turn:?}"
                );
            }
            Err(_) => assert_eq!(game.rolls(), before, "a refused roll changes nothing"),
        }
        let tallies: u32 = game.players().iter().map(|p| p.rolls).sum();
        assert_eq!(tallies, game.rolls(), "each roll is some player's");
        for p in game.players() {
            assert!(p.square <= board.size(), "{p:?} is off the board");
        }
        if let Some(w) = game.winner() {
            let square = game.players()[usize::from(w) - 1].square;
            assert_eq!(square, board.size(), "the winner stands on the finish");
        }
    }
    let (again, _) = Game::replay(board, rules, players, &played).expect("its record replays");
    assert_eq!(again.players(), game.players());
    assert_eq!(again.winner(), game.winner());
}
