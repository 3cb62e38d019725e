//! Property tests: many seeded bot games keep every invariant and end;
//! random designs stay legal and round-trip.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use tabletop::Rng;
use tabletop::SeededDice;
use tycoon::design::{Designer, Edit};
use tycoon::game::MAX_ATTACKS;
use tycoon::simulate::{Options, game_seeds, play_out, simulate_on};
use tycoon::{Event, Game, Grid, Move, Seat, parse_grid, write_grid};

const SAMPLE: &str = include_str!("../data/sample.grid");

fn check_invariants(g: &Game, events: &[Event]) {
    let mut turns = 0;
    for (i, p) in g.players().iter().enumerate() {
        assert!((1..=99).contains(&p.cell), "P{} on {}", i + 1, p.cell);
        assert!(p.attacks.len() <= MAX_ATTACKS, "{:?}", p.attacks);
        if p.attacks.len() == 2 {
            assert_ne!(p.attacks[0], p.attacks[1]);
        }
        turns += p.turns;
    }
    assert_eq!(turns, g.turns(), "every turn is some player's turn");
    assert_eq!(g.players().len(), usize::from(g.count()));
    assert_eq!(g.view().players.len(), usize::from(g.count()));
    if let Some(current) = g.current() {
        assert!((1..=g.count()).contains(&current));
    }
    for mv in g.legal_moves() {
        if let Move::Attack {
            target: Some(t), ..
        } = mv
        {
            assert!((1..=g.count()).contains(&t), "{mv}: no such player");
        }
    }
    for n in [9u8, 10, 11] {
        if let Some(owner) = g.owner(n) {
            assert!((1..=g.count()).contains(&owner));
            assert!(g.grid().station_terms(n).is_some());
        }
    }
    let owned: usize = (1..=g.count()).map(|s| g.stations_of(s).len()).sum();
    let groups = [9u8, 10, 11]
        .iter()
        .filter(|&&n| g.owner(n).is_some())
        .count();
    assert_eq!(owned, groups, "one owner per station group");
    match g.winner() {
        Some(w) => {
            assert!(g.is_over());
            assert_eq!(g.player(w).unwrap().cell, 99);
        }
        None if g.is_over() => assert!(g.turns() >= g.turn_cap()),
        None => assert!(!g.legal_moves().is_empty()),
    }
    for e in events {
        if let Event::Moved { to, .. } | Event::Ladder { to, .. } | Event::Snake { to, .. } = *e {
            assert!((1..=99).contains(&to));
        }
    }
}

#[test]
fn two_thousand_seeded_bot_games_end_with_a_winner_and_keep_every_invariant() {
    let grid = Arc::new(parse_grid(SAMPLE).unwrap());
    let seatings = [
        [Seat::Bot; 4],
        [Seat::Random; 4],
        [Seat::Bot, Seat::Random, Seat::Bot, Seat::Random],
    ];
    let mut winners = [0u32; 4];
    for i in 0..2000u64 {
        let (dice_seed, bot_seed) = game_seeds(2024, i);
        let seats = seatings[(i % 3) as usize];
        let mut g = Game::new(grid.clone(), seats);
        let mut moves = 0u64;
        play_out(
            &mut g,
            &mut SeededDice::new(dice_seed),
            bot_seed,
            |g, events| {
                moves += 1;
                check_invariants(g, events);
                if moves % 97 == 0 {
                    assert_eq!(&Game::from_position(&g.to_position()).unwrap(), g);
                }
            },
        );
        assert!(g.is_over(), "game {i} did not end");
        let w = g
            .winner()
            .unwrap_or_else(|| panic!("game {i} stalled after {} turns", g.turns()));
        winners[usize::from(w) - 1] += 1;
    }
    assert!(winners.iter().all(|&w| w > 100), "{winners:?}");
}

#[test]
fn two_and_three_player_bot_games_end_with_a_winner_and_keep_every_invariant() {
    let grid = Arc::new(parse_grid(SAMPLE).unwrap());
    for players in [2usize, 3] {
        let mut winners = vec![0u32; players];
        for i in 0..600u64 {
            let (dice_seed, bot_seed) = game_seeds(48, i);
            let seats: Vec<Seat> = (0..players)
                .map(|k| {
                    if (i + k as u64) % 2 == 0 {
                        Seat::Bot
                    } else {
                        Seat::Random
                    }
                })
                .collect();
            let mut g = Game::for_seats(grid.clone(), &seats).unwrap();
            assert_eq!(g.count() as usize, players);
            let mut moves = 0u64;
            let mut seen = vec![false; players];
            play_out(
                &mut g,
                &mut SeededDice::new(dice_seed),
                bot_seed,
                |g, events| {
                    moves += 1;
                    check_invariants(g, events);
                    for e in events {
                        if let Event::Rolled { player, .. } = *e {
                            seen[usize::from(player) - 1] = true;
                        }
                    }
                    if moves % 97 == 0 {
                        assert_eq!(&Game::from_position(&g.to_position()).unwrap(), g);
                    }
                },
            );
            assert!(g.is_over(), "{players} players, game {i} did not end");
            assert!(seen.iter().all(|&s| s), "every player rolls: {seen:?}");
            let w = g.winner().unwrap_or_else(|| {
                panic!(
                    "{players} players, game {i} stalled after {} turns",
                    g.turns()
                )
            });
            winners[usize::from(w) - 1] += 1;
        }
        // Every seat wins a fair share (the first moves first: a small edge).
        for &w in &winners {
            assert!(
                w > 600 / players as u32 / 2,
                "{players} players: {winners:?}"
            );
        }
    }
    for wrong in [0usize, 1, 5] {
        let e = Game::for_seats(grid.clone(), &vec![Seat::Bot; wrong]).unwrap_err();
        assert!(e.to_string().contains("2 to 4 players"), "{e}");
    }
}

#[test]
fn simulation_totals_do_not_depend_on_threads() {
    let grid = Arc::new(parse_grid(SAMPLE).unwrap());
    let options = Options {
        games: 300,
        seed: 9,
        seats: [Seat::Bot; 4],
        turn_cap: tycoon::game::DEFAULT_TURN_CAP,
    };
    let one = simulate_on(&grid, &options, Some(1)).unwrap();
    let two = simulate_on(&grid, &options, Some(2)).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.games, 300);
    assert_eq!(one.wins.iter().sum::<u64>() + one.stalled, 300);
    assert!(one.min_turns <= one.max_turns && one.min_turns > 0);
    // The sample grid has cards 1, 4, 6, 8 and 9: only those fire.
    for card in [2u8, 3, 5, 7, 10, 11, 12] {
        assert_eq!(one.cards[usize::from(card) - 1], 0, "card {card}");
    }
    for card in [1u8, 4, 6, 8, 9] {
        assert!(one.card_rate(card) > 0.0, "card {card}");
    }
    // The same games played one by one give the same totals.
    let mut wins = [0u64; 4];
    let mut cards = [0u64; 12];
    let mut turns = 0u64;
    for i in 0..300 {
        let (dice_seed, bot_seed) = game_seeds(9, i);
        let mut g = Game::new(grid.clone(), [Seat::Bot; 4]);
        play_out(
            &mut g,
            &mut SeededDice::new(dice_seed),
            bot_seed,
            |_, events| {
                for e in events {
                    if let Event::Card { card, .. } = e {
                        cards[usize::from(*card) - 1] += 1;
                    }
                }
            },
        );
        wins[usize::from(g.winner().unwrap()) - 1] += 1;
        turns += u64::from(g.turns());
    }
    assert_eq!((one.wins, one.cards, one.turns), (wins, cards, turns));
    // A different seed gives different totals.
    let other = simulate_on(
        &grid,
        &Options {
            seed: 10,
            ..options
        },
        Some(2),
    )
    .unwrap();
    assert_ne!(one, other);
}

fn random_edit(rng: &mut Rng) -> Edit {
    let cell = |rng: &mut Rng| rng.below(110) as u32;
    match rng.below(12) {
        0..=2 => {
            let start = cell(rng);
            Edit::Ladder {
                start,
                end: start + 11 * (1 + rng.below(4) as u32),
            }
        }
        3..=4 => {
            let start = cell(rng);
            Edit::Snake {
                start,
                end: start.saturating_sub(11 * (1 + rng.below(4) as u32)),
            }
        }
        5..=7 => {
            let number = 1 + rng.below(12) as u32;
            let params = (0..tycoon::CardKind::param_count(number))
                .map(|_| 1 + rng.below(99) as u32)
                .collect();
            Edit::Card {
                number,
                cell: cell(rng),
                params,
            }
        }
        8 => Edit::Copy { cell: cell(rng) },
        9 => Edit::Paste { cell: cell(rng) },
        10 => Edit::Delete { cell: cell(rng) },
        _ => {
            if rng.below(2) == 0 {
                Edit::Undo
            } else {
                Edit::Redo
            }
        }
    }
}

#[test]
fn random_designs_stay_legal_round_trip_and_play_to_an_end() {
    let mut rng = Rng::new(5);
    for round in 0..40 {
        let mut d = Designer::default();
        let mut accepted = 0;
        for _ in 0..300 {
            let edit = random_edit(&mut rng);
            let before = d.clone();
            match d.apply(&edit) {
                Ok(_) => accepted += 1,
                Err(_) => assert_eq!(d, before, "refused {edit} changed something"),
            }
            // The document always holds a legal grid that round-trips.
            let grid = d.grid();
            assert_eq!(&Grid::new(&grid.to_spec()).unwrap(), grid);
        }
        assert!(
            accepted > 20,
            "round {round}: only {accepted} edits accepted"
        );
        let grid = d.grid().clone();
        let text = write_grid(&grid);
        assert_eq!(parse_grid(&text).unwrap(), grid, "{text}");
        let json = serde_json::to_string(&grid).unwrap();
        assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), grid);
        // Random grids play to an end (a win, or the turn cap).
        let mut g = Game::new(Arc::new(grid), [Seat::Random; 4]).with_turn_cap(3000);
        play_out(&mut g, &mut SeededDice::new(round), round, check_invariants);
        assert!(g.is_over());
    }
}

/// Numbers that tend to break things.
const NASTY: [i64; 12] = [0, 1, -1, 2, 9, 11, 12, 99, 100, 255, i64::MAX, i64::MIN];

#[test]
fn no_input_makes_the_library_panic() {
    let mut rng = Rng::new(77);
    // Grid files with tokens replaced, dropped or doubled.
    let words: Vec<&str> = SAMPLE.split_whitespace().collect();
    for _ in 0..3000 {
        let mut text = String::new();
        for (i, w) in words.iter().enumerate() {
            match rng.below(12) {
                0 => text.push_str(&NASTY[rng.below(12) as usize].to_string()),
                1 => {}
                2 => text.push('x'),
                _ => text.push_str(w),
            }
            text.push(if rng.below(5) == 0 || i % 2 == 1 {
                '\n'
            } else {
                ' '
            });
        }
        if let Ok(grid) = tycoon::parse_grid(&text) {
            assert_eq!(parse_grid(&write_grid(&grid)).unwrap(), grid);
        }
        let _ = tycoon::parse_grid_any(&text);
    }
    // Edits and moves from random words and numbers.
    let verbs = [
        "ladder", "snake", "card", "station", "copy", "cut", "paste", "delete", "clear", "undo",
        "redo", "attack", "ice", "roll", "buy", "pay",
    ];
    let mut d = Designer::new(parse_grid(SAMPLE).unwrap());
    let mut g = Game::new(Arc::new(parse_grid(SAMPLE).unwrap()), [Seat::Human; 4]);
    let mut dice = SeededDice::new(3);
    for _ in 0..5000 {
        let mut text = verbs[rng.below(verbs.len() as u64) as usize].to_string();
        for _ in 0..rng.below(5) {
            text.push(' ');
            text.push_str(&NASTY[rng.below(12) as usize].to_string());
        }
        if let Ok(edit) = text.parse::<Edit>() {
            let _ = d.apply(&edit);
        }
        if let Ok(mv) = text.parse::<tycoon::Move>() {
            let _ = g.apply(mv, &mut dice);
        }
    }
    // Positions with numbers replaced.
    let mut base = Game::new(Arc::new(parse_grid(SAMPLE).unwrap()), [Seat::Bot; 4]);
    let mut dice = SeededDice::new(8);
    for _ in 0..30 {
        let mv = tycoon::bots::bot_move(&base, 8).unwrap();
        base.apply(mv, &mut dice).unwrap();
    }
    let json = base.to_position();
    let digits: Vec<(usize, usize)> = {
        let bytes = json.as_bytes();
        let mut spans = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                spans.push((start, i));
            } else {
                i += 1;
            }
        }
        spans
    };
    for _ in 0..2000 {
        let (a, b) = digits[rng.below(digits.len() as u64) as usize];
        let text = format!(
            "{}{}{}",
            &json[..a],
            NASTY[rng.below(12) as usize],
            &json[b..]
        );
        if let Ok(mut g) = Game::from_position(&text) {
            for _ in 0..50 {
                match tycoon::bots::bot_move(&g, 1) {
                    Some(mv) => {
                        let _ = g.apply(mv, &mut dice);
                    }
                    None => break,
                }
            }
        }
    }
}
