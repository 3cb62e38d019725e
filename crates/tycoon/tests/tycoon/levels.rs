//! The bot levels: every level answers with a legal move in any position;
//! the hard bot's choice comes from its own dice, never from the game's
//! future rolls; it finds the move that matters where one does.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;
use tabletop::SeededDice;
use tabletop::{BotLevel, Rng};
use tycoon::bots::search::search;
use tycoon::bots::{Bot, Budget, DefaultBot, bot_move, level_move, move_rng};
use tycoon::game::{Decision, SEATS};
use tycoon::generate::random_grid;
use tycoon::{Attack, Game, Grid, GridSpec, Move, Seat, parse_grid};

/// A small budget: debug builds are slow, and legality does not need more.
const SMALL: Budget = Budget {
    playouts: 60,
    horizon: 400,
    time_cap: Duration::from_secs(600),
};

fn sample() -> Arc<Grid> {
    Arc::new(parse_grid(include_str!("../data/sample.grid")).unwrap())
}

/// Positions with a real choice (more than one legal move), met in a game
/// of four default bots on `grid` rolling from `seed`.
fn choices(grid: &Arc<Grid>, seed: u64) -> Vec<Game> {
    let mut game = Game::new(grid.clone(), [Seat::Bot; SEATS]);
    let mut dice = SeededDice::new(seed);
    let mut found = Vec::new();
    while !game.is_over() {
        if game.legal_moves().len() > 1 {
            found.push(game.clone());
        }
        let mv = DefaultBot.choose(&game);
        game.apply(mv, &mut dice).unwrap();
    }
    found
}

#[test]
fn every_level_always_answers_with_a_legal_move() {
    // Many games, each on a random legal grid with random levels in the
    // seats; every move every level would make is legal, and the game is
    // played on with the seat's own.
    let mut rng = Rng::new(16);
    let mut checked = [0u32; 3];
    for g in 0..40u64 {
        let grid = Arc::new(random_grid(&mut rng));
        let levels: [BotLevel; SEATS] =
            std::array::from_fn(|_| BotLevel::ALL[rng.below(3) as usize]);
        let seats = levels.map(Seat::bot);
        let mut game = Game::new(grid, seats).with_turn_cap(2000);
        let mut dice = SeededDice::new(g);
        while let Some(seat) = game.current() {
            let legal = game.legal_moves();
            let mut pick = Rng::new(g ^ game.moves());
            for (i, level) in BotLevel::ALL.into_iter().enumerate() {
                let mv = match level {
                    // The hard level's own budget is for release builds:
                    // here the same search with fewer playouts.
                    BotLevel::Hard => search(&game, &SMALL, &mut pick),
                    _ => level_move(&game, seat, level, &mut pick).unwrap(),
                };
                assert!(legal.contains(&mv), "{level} chose {mv}: not in {legal:?}");
                if legal.len() > 1 {
                    checked[i] += 1;
                }
            }
            // Nobody else is asked.
            let other = seat % SEATS as u8 + 1;
            assert_eq!(level_move(&game, other, BotLevel::Normal, &mut pick), None);
            let mv = match levels[usize::from(seat) - 1] {
                BotLevel::Hard => search(&game, &SMALL, &mut pick),
                _ => bot_move(&game, g).unwrap(),
            };
            game.apply(mv, &mut dice).unwrap();
        }
        assert_eq!(level_move(&game, 1, BotLevel::Easy, &mut rng), None);
    }
    // Real choices were met, many of them.
    assert!(checked.iter().all(|&c| c > 200), "{checked:?}");
}

#[test]
fn the_hard_level_answers_at_once_when_there_is_no_choice() {
    let game = Game::new(sample(), [Seat::Hard; SEATS]);
    assert_eq!(game.legal_moves(), vec![Move::Roll]);
    assert_eq!(bot_move(&game, 5), Some(Move::Roll));
    let mut rng = Rng::new(1);
    assert_eq!(
        level_move(&game, 1, BotLevel::Hard, &mut rng),
        Some(Move::Roll)
    );
}

#[test]
fn the_hard_bot_does_not_see_the_future_rolls() {
    let grid = sample();
    let mut positions: Vec<Game> = Vec::new();
    for seed in 0..6 {
        positions.extend(choices(&grid, seed).into_iter().step_by(3));
    }
    assert!(positions.len() > 20, "{}", positions.len());
    let budget = Budget {
        playouts: 200,
        ..SMALL
    };
    let mut differs_from_normal = 0;
    for (i, game) in positions.iter().enumerate() {
        // The game holds no dice (the match does), so the search can only
        // roll its own: its answer depends on the position and its rng
        // alone, whatever the real game will roll next.
        let mv = search(game, &budget, &mut Rng::new(i as u64));
        assert_eq!(
            search(&game.clone(), &budget, &mut Rng::new(i as u64)),
            mv,
            "position {i}"
        );
        differs_from_normal += usize::from(mv != DefaultBot.choose(game));
    }
    // The test has teeth: the search does choose for itself, so a search
    // that played on the game's own dice would answer differently.
    assert!(differs_from_normal > 0);
}

#[test]
fn the_hard_bot_is_reproducible_from_its_seed() {
    let grid = sample();
    let positions = choices(&grid, 3);
    let budget = Budget {
        playouts: 100,
        ..SMALL
    };
    for game in positions.iter().take(10) {
        let a = search(game, &budget, &mut move_rng(7, game));
        let b = search(game, &budget, &mut move_rng(7, game));
        assert_eq!(a, b);
    }
}

fn empty() -> Arc<Grid> {
    Arc::new(Grid::new(&GridSpec::default()).unwrap())
}

#[test]
fn the_hard_bot_ices_an_opponent_about_to_win() {
    // P2 on 97 moves next and wins with a 2 or more; P3 (the bot) is on its
    // recharge turn with every attack left. Only ice stops the win.
    let game = Game::new(empty(), [Seat::Hard; SEATS]);
    let mut v: serde_json::Value = serde_json::from_str(&game.to_position()).unwrap();
    for (i, (cell, turns)) in [(60, 3), (97, 3), (50, 2), (55, 2)].into_iter().enumerate() {
        v["players"][i]["cell"] = cell.into();
        v["players"][i]["turns"] = turns.into();
    }
    v["current"] = 3.into();
    v["turns"] = 10.into();
    let game = Game::from_position(&v.to_string()).unwrap();
    assert_eq!(
        game.pending(),
        Some(Decision::RechargeOrAttack { player: 3 })
    );
    let budget = Budget {
        playouts: 600,
        ..SMALL
    };
    assert_eq!(
        search(&game, &budget, &mut Rng::new(4)),
        Move::Attack {
            attack: Attack::Ice,
            target: Some(2)
        }
    );
}
