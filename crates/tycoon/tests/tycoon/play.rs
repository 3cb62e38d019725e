//! Every rule of play and every card, on hand-built grids with scripted dice.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use tycoon::game::{Cause, Decision, LostReason, TurnKind};

use crate::support;
use support::Table;
use tycoon::{Attack, Card, CardKind, Event, Game, GameError, GridSpec, Ladder, Move, Seat, Snake};

fn grid(
    ladders: &[(u32, u32)],
    snakes: &[(u32, u32)],
    cards: &[(u32, u32, &[u32])],
) -> Arc<tycoon::Grid> {
    let spec = GridSpec {
        ladders: ladders.iter().map(|&(a, b)| Ladder::new(a, b)).collect(),
        snakes: snakes.iter().map(|&(a, b)| Snake::new(a, b)).collect(),
        cards: cards
            .iter()
            .map(|&(n, cell, p)| Card::new(cell, CardKind::from_params(n, p).unwrap()))
            .collect(),
    };
    Arc::new(tycoon::Grid::new(&spec).unwrap())
}

fn game(g: &Arc<tycoon::Grid>, rolls: &[u32]) -> Table {
    Table::scripted(Game::new(g.clone(), [Seat::Human; 4]), rolls)
}

fn play(g: &mut Table, mv: &str) -> Vec<Event> {
    g.apply(mv.parse().unwrap())
        .unwrap_or_else(|e| panic!("{mv}: {e}"))
}

/// Takes the pending turn plainly: recharge on a recharge turn, else roll.
fn step(g: &mut Table) -> Vec<Event> {
    match g.pending() {
        Some(Decision::RechargeOrAttack { .. }) => play(g, "recharge"),
        _ => play(g, "roll"),
    }
}

/// Changes a game's state through its saved form (which is validated).
fn tweak(g: &Table, f: impl FnOnce(&mut serde_json::Value)) -> Table {
    let mut v: serde_json::Value = serde_json::from_str(&g.to_position()).unwrap();
    f(&mut v);
    g.with_game(Game::from_position(&v.to_string()).unwrap())
}

fn set(v: &mut serde_json::Value, seat: usize, field: &str, value: serde_json::Value) {
    v["players"][seat - 1][field] = value;
}

fn cell(g: &Game, seat: u8) -> u32 {
    g.player(seat).unwrap().cell
}

fn coins(g: &Game, seat: u8) -> i64 {
    g.player(seat).unwrap().coins
}

#[test]
fn a_game_starts_with_four_players_on_cell_1_with_100_coins() {
    let g = game(&grid(&[], &[], &[]), &[]);
    for p in g.players() {
        assert_eq!((p.cell, p.coins, p.turns), (1, 100, 0));
    }
    assert_eq!(g.current(), Some(1));
    assert_eq!(
        g.pending(),
        Some(Decision::Roll {
            player: 1,
            turn: TurnKind::Move
        })
    );
    assert_eq!(g.legal_moves(), vec![Move::Roll]);
}

#[test]
fn players_move_by_the_roll_in_seat_order() {
    let mut g = game(&grid(&[], &[], &[]), &[4, 2, 6, 1]);
    let e = play(&mut g, "roll");
    assert_eq!(
        e,
        vec![
            Event::TurnStarted {
                player: 1,
                turn: 1,
                recharge: false
            },
            Event::Rolled {
                player: 1,
                roll: 4,
                counts: 4
            },
            Event::Moved {
                player: 1,
                from: 1,
                to: 5,
                cause: Cause::Dice
            },
        ]
    );
    for _ in 0..3 {
        play(&mut g, "roll");
    }
    assert_eq!(
        [cell(&g, 1), cell(&g, 2), cell(&g, 3), cell(&g, 4)],
        [5, 3, 7, 2]
    );
    assert_eq!(g.turns(), 4);
    assert_eq!(g.current(), Some(1));
}

#[test]
fn every_third_turn_recharges_instead_of_moving() {
    // 8 moves of 2, then P1's third turn.
    let mut g = game(&grid(&[], &[], &[]), &[2, 2, 2, 2, 2, 2, 2, 2, 4, 5]);
    for _ in 0..8 {
        play(&mut g, "roll");
    }
    assert_eq!(g.pending(), Some(Decision::RechargeOrAttack { player: 1 }));
    // A plain roll does not answer a recharge turn; it changes nothing.
    let before = g.clone();
    assert!(matches!(
        g.apply(Move::Roll),
        Err(GameError::WrongMove { .. })
    ));
    assert_eq!(g, before);
    let e = play(&mut g, "recharge");
    assert!(e.contains(&Event::Recharged {
        player: 1,
        coins: 40
    }));
    assert_eq!((cell(&g, 1), coins(&g, 1)), (5, 140));
    assert_eq!(g.player(1).unwrap().turns, 3);
    // P2's third turn too.
    play(&mut g, "recharge");
    assert_eq!((cell(&g, 2), coins(&g, 2)), (5, 150));
}

#[test]
fn ice_makes_the_target_lose_their_next_turn_which_still_counts() {
    let mut g = game(&grid(&[], &[], &[]), &[2, 2, 2, 2, 2, 2, 2, 2, 3]);
    for _ in 0..8 {
        play(&mut g, "roll");
    }
    let e = play(&mut g, "attack ice 2");
    assert!(e.contains(&Event::Attacked {
        player: 1,
        attack: Attack::Ice,
        target: Some(2)
    }));
    assert_eq!(coins(&g, 1), 100, "an attack replaces the recharge");
    assert_eq!(
        g.pending(),
        Some(Decision::Roll {
            player: 2,
            turn: TurnKind::Lost
        })
    );
    // P2's third turn is lost: no attack, no recharge, no roll used.
    let used = g.dice.used();
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::TurnLost { player: 2, left: 0 }));
    assert_eq!(g.dice.used(), used);
    assert_eq!(g.player(2).unwrap().turns, 3);
    assert_eq!(coins(&g, 2), 100);
    assert_eq!(g.player(1).unwrap().attacks, vec![Attack::Ice]);
}

/// A game where P1 is on a recharge turn (turn 3 next).
fn on_recharge_turn(rolls_after: &[u32]) -> Table {
    let mut rolls = vec![1; 8];
    rolls.extend_from_slice(rolls_after);
    let mut g = game(&grid(&[], &[], &[]), &rolls);
    for _ in 0..8 {
        play(&mut g, "roll");
    }
    g
}

#[test]
fn attacks_are_at_most_two_of_different_kinds_and_never_on_yourself() {
    let g = on_recharge_turn(&[]);
    let refused = |mv: &str, says: &str| {
        let mut h = g.clone();
        let err = h.apply(mv.parse().unwrap()).unwrap_err().to_string();
        assert!(err.contains(says), "{mv}: {err}");
        assert_eq!(h, g);
    };
    refused("attack ice 1", "themselves");
    refused("attack ice 5", "no player 5");
    refused("attack ice", "needs a player");
    refused("attack lightning 2", "name nobody");
    refused("buy", "recharge");
    // Already used fire: fire again is refused; with two used, none is offered.
    let used_fire = tweak(&g, |v| set(v, 1, "attacks", serde_json::json!(["fire"])));
    let mut h = used_fire.clone();
    let err = h
        .apply("attack fire 2".parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("fire was used already"), "{err}");
    assert_eq!(used_fire.legal_moves().len(), 1 + 3 + 3 + 1);
    let used_two = tweak(&g, |v| {
        set(v, 1, "attacks", serde_json::json!(["fire", "ice"]))
    });
    assert_eq!(
        used_two.pending(),
        Some(Decision::Roll {
            player: 1,
            turn: TurnKind::Recharge
        })
    );
    // Three attacks, or one twice, is not a valid save.
    let mut v: serde_json::Value = serde_json::from_str(&g.to_position()).unwrap();
    set(&mut v, 1, "attacks", serde_json::json!(["ice", "ice"]));
    assert!(Game::from_position(&v.to_string()).is_err());
}

#[test]
fn no_attack_while_barred_from_rolling() {
    let g = on_recharge_turn(&[]);
    let barred = tweak(&g, |v| set(v, 1, "lost_turns", serde_json::json!(1)));
    assert_eq!(
        barred.pending(),
        Some(Decision::Roll {
            player: 1,
            turn: TurnKind::Lost
        })
    );
    assert_eq!(barred.legal_moves(), vec![Move::Roll]);
}

#[test]
fn fire_burns_20_on_each_of_the_next_3_turns() {
    let mut g = on_recharge_turn(&[1; 20]);
    play(&mut g, "attack fire 2");
    assert_eq!(coins(&g, 2), 100);
    // P2's turn 3 (recharge +10), then turns 4 and 5 (moves): each burns.
    let e = play(&mut g, "recharge");
    assert!(e.contains(&Event::Burned {
        player: 2,
        coins: 20,
        left: 2
    }));
    assert_eq!(coins(&g, 2), 90);
    for _ in 0..2 {
        for _ in 0..4 {
            step(&mut g);
        }
    }
    assert_eq!(coins(&g, 2), 100 - 60 + 10);
    assert_eq!(g.player(2).unwrap().fire_turns, 0);
}

#[test]
fn poison_makes_rolls_count_one_less_for_5_turns_and_a_1_counts_0() {
    let g = game(&grid(&[], &[], &[]), &[1, 1, 1, 1, 4, 1, 1, 1, 3]);
    let mut g = tweak(&g, |v| set(v, 1, "poison_turns", serde_json::json!(5)));
    // Turn 1: a roll of 1 counts 0: no move.
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::Rolled {
        player: 1,
        roll: 1,
        counts: 0
    }));
    assert!(!e.iter().any(|e| matches!(e, Event::Moved { .. })));
    assert_eq!(cell(&g, 1), 1);
    for _ in 0..3 {
        play(&mut g, "roll");
    }
    // Turn 2: 4 counts 3.
    play(&mut g, "roll");
    assert_eq!(cell(&g, 1), 4);
    for _ in 0..3 {
        play(&mut g, "roll");
    }
    // Turn 3 (recharge, poisoned): 3 counts 2: +20.
    let g2 = {
        let mut g = g.clone();
        let e = play(&mut g, "recharge");
        assert!(e.contains(&Event::Recharged {
            player: 1,
            coins: 20
        }));
        g
    };
    assert_eq!(g2.player(1).unwrap().poison_turns, 2);
}

#[test]
fn lightning_takes_20_from_every_other_player() {
    let mut g = on_recharge_turn(&[]);
    play(&mut g, "attack lightning");
    assert_eq!(
        [coins(&g, 1), coins(&g, 2), coins(&g, 3), coins(&g, 4)],
        [100, 80, 80, 80]
    );
}

#[test]
fn an_empty_wallet_passes_the_turn_without_a_move_but_recharges() {
    let g = game(&grid(&[], &[], &[]), &[1, 1, 1, 1, 1, 1, 1, 1, 5]);
    let mut g = tweak(&g, |v| set(v, 1, "coins", serde_json::json!(0)));
    assert_eq!(
        g.pending(),
        Some(Decision::Roll {
            player: 1,
            turn: TurnKind::EmptyWallet
        })
    );
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::WalletEmpty {
        player: 1,
        coins: 0
    }));
    assert_eq!(cell(&g, 1), 1);
    assert_eq!(g.dice.used(), 0);
    for _ in 0..3 {
        play(&mut g, "roll");
    }
    play(&mut g, "roll"); // P1 turn 2: still empty
    for _ in 0..3 {
        play(&mut g, "roll");
    }
    // Turn 3 recharges even with an empty wallet (attacks are allowed too).
    let e = play(&mut g, "recharge");
    assert!(e.contains(&Event::Recharged {
        player: 1,
        coins: 10
    }));
    // A wallet emptied by fire at the start of a turn also stops the move.
    let g = game(&grid(&[], &[], &[]), &[3]);
    let g = tweak(&g, |v| {
        set(v, 1, "coins", serde_json::json!(20));
        set(v, 1, "fire_turns", serde_json::json!(1));
    });
    assert_eq!(
        g.pending(),
        Some(Decision::Roll {
            player: 1,
            turn: TurnKind::EmptyWallet
        })
    );
}

#[test]
fn reaching_or_passing_99_stops_on_99_and_wins() {
    let g = game(&grid(&[], &[], &[]), &[6]);
    let mut g = tweak(&g, |v| set(v, 1, "cell", serde_json::json!(96)));
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::Moved {
        player: 1,
        from: 96,
        to: 99,
        cause: Cause::Dice
    }));
    assert_eq!(
        e.last(),
        Some(&Event::Won {
            player: 1,
            turns: 1
        })
    );
    assert_eq!(g.winner(), Some(1));
    assert!(g.is_over() && g.pending().is_none() && g.legal_moves().is_empty());
    assert!(matches!(
        g.apply(Move::Roll),
        Err(GameError::Over { winner: Some(1) })
    ));
    // A ladder to 99 wins too.
    let mut g = game(&grid(&[(88, 99)], &[], &[]), &[3]);
    g = tweak(&g, |v| set(v, 1, "cell", serde_json::json!(85)));
    play(&mut g, "roll");
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn ladders_and_snakes_are_taken_then_the_card_at_their_end() {
    let g = grid(&[(5, 27)], &[(30, 8)], &[(1, 27, &[30]), (1, 8, &[5])]);
    let mut game1 = game(&g, &[4, 6]);
    let e = play(&mut game1, "roll");
    assert!(e.contains(&Event::Ladder {
        player: 1,
        from: 5,
        to: 27
    }));
    assert!(e.contains(&Event::Card {
        player: 1,
        cell: 27,
        card: 1
    }));
    assert_eq!((cell(&game1, 1), coins(&game1, 1)), (27, 70));
    let mut game2 = tweak(&game(&g, &[3]), |v| {
        set(v, 1, "cell", serde_json::json!(27))
    });
    let e = play(&mut game2, "roll");
    assert!(e.contains(&Event::Snake {
        player: 1,
        from: 30,
        to: 8
    }));
    assert_eq!((cell(&game2, 1), coins(&game2, 1)), (8, 95));
}

#[test]
fn cards_act_only_where_a_player_stops() {
    let g = grid(&[], &[], &[(1, 3, &[50])]);
    let mut g = game(&g, &[4]);
    play(&mut g, "roll");
    assert_eq!((cell(&g, 1), coins(&g, 1)), (5, 100));
}

#[test]
fn card_1_takes_coins_even_below_zero() {
    let g = grid(&[], &[], &[(1, 5, &[150])]);
    let mut g = game(&g, &[4]);
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::Paid {
        player: 1,
        coins: 150,
        to: None
    }));
    assert_eq!(coins(&g, 1), -50);
}

#[test]
fn card_2_climbs_the_next_ladder_ahead_or_does_nothing() {
    let g = grid(&[(10, 32), (20, 42)], &[], &[(2, 5, &[]), (2, 30, &[])]);
    let mut game1 = game(&g, &[4]);
    let e = play(&mut game1, "roll");
    assert!(e.contains(&Event::Moved {
        player: 1,
        from: 5,
        to: 10,
        cause: Cause::NextLadder
    }));
    assert!(e.contains(&Event::Ladder {
        player: 1,
        from: 10,
        to: 32
    }));
    assert_eq!(cell(&game1, 1), 32);
    let mut game2 = tweak(&game(&g, &[4]), |v| {
        set(v, 1, "cell", serde_json::json!(26))
    });
    let e = play(&mut game2, "roll");
    assert!(e.contains(&Event::NoLadderAhead { player: 1 }));
    assert_eq!(cell(&game2, 1), 30);
}

#[test]
fn card_3_rolls_again_now_and_the_extra_turn_counts() {
    let g = grid(&[], &[], &[(3, 5, &[])]);
    let mut g = game(&g, &[4, 2, 1]);
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::ExtraRoll { player: 1 }));
    assert_eq!(g.current(), Some(1));
    play(&mut g, "roll");
    assert_eq!(cell(&g, 1), 7);
    assert_eq!(g.player(1).unwrap().turns, 2);
    // The extra turn counted: P1's next turn is their third, a recharge turn.
    play(&mut g, "roll"); // P2
    g = tweak(&g, |v| {
        v["current"] = serde_json::json!(1);
    });
    assert_eq!(g.pending(), Some(Decision::RechargeOrAttack { player: 1 }));
}

#[test]
fn card_4_loses_the_next_turn() {
    let g = grid(&[], &[], &[(4, 5, &[])]);
    let mut g = game(&g, &[4, 1, 1, 1, 6]);
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::WillLoseTurns {
        player: 1,
        turns: 1,
        reason: LostReason::Card
    }));
    for _ in 0..3 {
        play(&mut g, "roll");
    }
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::TurnLost { player: 1, left: 0 }));
    assert_eq!((cell(&g, 1), g.player(1).unwrap().turns), (5, 2));
    assert_eq!(g.dice.used(), 4);
}

#[test]
fn card_5_goes_back_by_the_roll_and_takes_what_is_there() {
    let g = grid(&[(3, 25)], &[], &[(5, 8, &[])]);
    let mut g = tweak(&game(&g, &[5]), |v| set(v, 1, "cell", serde_json::json!(3)));
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::Moved {
        player: 1,
        from: 8,
        to: 3,
        cause: Cause::GoBack
    }));
    // Back on 3, the ladder there is taken (3 was the turn's start, not a
    // cell reached in it).
    assert_eq!(cell(&g, 1), 25);
    // Going back below cell 1 stops on cell 1.
    let g = grid(&[], &[], &[(5, 4, &[])]);
    let mut g = tweak(&game(&g, &[1]), |v| set(v, 1, "cell", serde_json::json!(3)));
    play(&mut g, "roll");
    assert_eq!(cell(&g, 1), 3);
}

#[test]
fn card_6_goes_to_its_destination_and_takes_what_is_there() {
    let g = grid(&[(20, 42)], &[], &[(6, 5, &[20]), (6, 7, &[99])]);
    let mut game1 = game(&g, &[4]);
    let e = play(&mut game1, "roll");
    assert!(e.contains(&Event::Moved {
        player: 1,
        from: 5,
        to: 20,
        cause: Cause::GoTo
    }));
    assert_eq!(cell(&game1, 1), 42);
    // A destination of 99 wins.
    let mut game2 = game(&g, &[6]);
    play(&mut game2, "roll");
    assert_eq!(game2.winner(), Some(1));
}

#[test]
fn card_7_sends_the_nearest_player_ahead_back_to_1() {
    let g = grid(&[], &[], &[(7, 5, &[])]);
    let base = tweak(&game(&g, &[4]), |v| {
        set(v, 2, "cell", serde_json::json!(10));
        set(v, 3, "cell", serde_json::json!(8));
        set(v, 4, "cell", serde_json::json!(8));
    });
    let mut g1 = base.clone();
    let e = play(&mut g1, "roll");
    assert!(e.contains(&Event::SentBack {
        player: 1,
        target: Some(3)
    }));
    assert_eq!([cell(&g1, 2), cell(&g1, 3), cell(&g1, 4)], [10, 1, 8]);
    // Nobody ahead: nothing happens.
    let mut g2 = game(&g, &[4]);
    let e = play(&mut g2, "roll");
    assert!(e.contains(&Event::SentBack {
        player: 1,
        target: None
    }));
}

#[test]
fn card_8_prison_pay_or_stay_3_turns() {
    let g = grid(&[], &[], &[(8, 5, &[30])]);
    let mut pay = game(&g, &[4, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let e = play(&mut pay, "roll");
    assert!(e.contains(&Event::PrisonChoice { player: 1, fee: 30 }));
    assert_eq!(
        pay.pending(),
        Some(Decision::PayOrStay { player: 1, fee: 30 })
    );
    assert!(pay.apply(Move::Buy).is_err());
    let mut stay = pay.clone();
    play(&mut pay, "pay");
    assert_eq!(coins(&pay, 1), 70);
    assert_eq!(pay.current(), Some(2));
    play(&mut stay, "stay");
    assert_eq!(stay.player(1).unwrap().lost_turns, 3);
    // Three lost turns (the third is a recharge turn, lost too).
    for _ in 0..3 {
        for _ in 0..3 {
            step(&mut stay);
        }
        let e = play(&mut stay, "roll");
        assert!(matches!(e[1], Event::TurnLost { player: 1, .. }), "{e:?}");
    }
    assert_eq!(stay.player(1).unwrap().turns, 4);
    // Without the fee in the wallet, the player stays.
    let mut poor = tweak(&game(&g, &[4]), |v| {
        set(v, 1, "coins", serde_json::json!(20))
    });
    let e = play(&mut poor, "roll");
    assert!(e.contains(&Event::CannotPayPrison { player: 1, fee: 30 }));
    assert_eq!(poor.player(1).unwrap().lost_turns, 3);
    assert_eq!(poor.current(), Some(2));
}

#[test]
fn stations_are_bought_as_a_group_and_charge_fees() {
    let g = grid(
        &[],
        &[],
        &[(9, 5, &[60, 15]), (9, 7, &[60, 15]), (10, 3, &[500, 5])],
    );
    let mut g = game(&g, &[4, 6, 2]);
    play(&mut g, "roll");
    assert_eq!(
        g.pending(),
        Some(Decision::BuyOrPass {
            player: 1,
            station: 9,
            price: 60
        })
    );
    let mut passed = g.clone();
    play(&mut passed, "pass");
    assert_eq!((passed.owner(9), coins(&passed, 1)), (None, 100));
    play(&mut g, "buy");
    assert_eq!((g.owner(9), coins(&g, 1)), (Some(1), 40));
    assert_eq!(g.stations_of(1), vec![9]);
    // P2 stops on the other card 9 (cell 7): pays P1 the fee.
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::Paid {
        player: 2,
        coins: 15,
        to: Some(1)
    }));
    assert_eq!((coins(&g, 1), coins(&g, 2)), (55, 85));
    // P3 cannot afford station 10: no offer.
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::CannotAfford {
        player: 3,
        station: 10,
        price: 500
    }));
    assert_eq!(g.current(), Some(4));
}

#[test]
fn station_fees_may_drive_a_wallet_below_zero_and_owners_pay_nothing() {
    let g = grid(&[], &[], &[(9, 5, &[60, 15]), (9, 7, &[60, 15])]);
    let base = tweak(&game(&g, &[4, 2]), |v| {
        v["owners"] = serde_json::json!([2, null, null]);
        set(v, 1, "coins", serde_json::json!(10));
    });
    let mut g1 = base.clone();
    play(&mut g1, "roll");
    assert_eq!((coins(&g1, 1), coins(&g1, 2)), (-5, 115));
    let mut g2 = tweak(&base, |v| set(v, 2, "cell", serde_json::json!(5)));
    play(&mut g2, "roll");
    let e = play(&mut g2, "roll");
    assert!(e.contains(&Event::OwnStation {
        player: 2,
        station: 9
    }));
}

#[test]
fn card_12_gives_your_dearest_station_to_the_poorest_player() {
    let g = grid(
        &[],
        &[],
        &[(12, 5, &[]), (9, 20, &[50, 5]), (10, 21, &[80, 5])],
    );
    let base = tweak(&game(&g, &[4]), |v| {
        v["owners"] = serde_json::json!([1, 1, null]);
        set(v, 2, "coins", serde_json::json!(30));
        set(v, 3, "coins", serde_json::json!(30));
        set(v, 4, "coins", serde_json::json!(200));
    });
    let mut g1 = base.clone();
    let e = play(&mut g1, "roll");
    assert!(e.contains(&Event::StationGiven {
        player: 1,
        station: Some(10),
        to: Some(2)
    }));
    assert_eq!((g1.owner(9), g1.owner(10)), (Some(1), Some(2)));
    // Nothing when you are the poorest.
    let mut g2 = tweak(&base, |v| set(v, 1, "coins", serde_json::json!(5)));
    let e = play(&mut g2, "roll");
    assert!(e.contains(&Event::StationGiven {
        player: 1,
        station: None,
        to: None
    }));
    // Nothing when you own none.
    let mut g3 = tweak(&base, |v| v["owners"] = serde_json::json!([3, 3, null]));
    play(&mut g3, "roll");
    assert_eq!((g3.owner(9), g3.owner(10)), (Some(3), Some(3)));
}

#[test]
fn card_chains_stop_when_they_return_to_a_cell_reached_this_turn() {
    // 5 sends to 30, 30 sends back to 5: the chain stops on 5.
    let g = grid(&[], &[], &[(6, 5, &[30]), (6, 30, &[5])]);
    let mut g1 = game(&g, &[4]);
    let e = play(&mut g1, "roll");
    assert_eq!(e.last(), Some(&Event::ChainStopped { player: 1, cell: 5 }));
    assert_eq!(cell(&g1, 1), 5);
    // A longer chain through a ladder and card 5 is followed to its end.
    let g = grid(
        &[(10, 32)],
        &[],
        &[(6, 5, &[10]), (5, 32, &[]), (1, 28, &[7])],
    );
    let mut g2 = game(&g, &[4]);
    play(&mut g2, "roll");
    assert_eq!((cell(&g2, 1), coins(&g2, 1)), (28, 93));
    // Card 2 and card 6 looping through a ladder.
    let g = grid(&[(10, 32)], &[], &[(2, 5, &[]), (6, 32, &[5])]);
    let mut g3 = game(&g, &[4]);
    let e = play(&mut g3, "roll");
    assert!(e.contains(&Event::ChainStopped { player: 1, cell: 5 }));
}

#[test]
fn a_match_record_replays_exactly() {
    use tabletop::play::{DiceMode, Match, SeatKind};
    use tabletop::{BotLevel, Rng};
    let g = grid(
        &[(10, 32)],
        &[(34, 23)],
        &[(8, 19, &[20]), (3, 40, &[]), (6, 28, &[60])],
    );
    let seats = vec![
        SeatKind::Bot {
            level: BotLevel::Normal,
        },
        SeatKind::Bot {
            level: BotLevel::Easy,
        },
        SeatKind::Bot {
            level: BotLevel::Normal,
        },
        SeatKind::Bot {
            level: BotLevel::Easy,
        },
    ];
    let setup = tycoon::contract::Setup::new((*g).clone());
    let mut a = Match::<Game>::start(setup, seats, DiceMode::Seeded { seed: 77 }).unwrap();
    let mut rng = Rng::new(5);
    a.run_bots(&mut rng, 40);
    let json = serde_json::to_string(a.record()).unwrap();
    let mut b = Match::<Game>::replay(serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(a.game(), b.game());
    let (mut ra, mut rb) = (rng.clone(), rng);
    while !a.status().is_over() {
        let pa = a.step_bot(&mut ra, None).unwrap();
        let pb = b.step_bot(&mut rb, None).unwrap();
        assert_eq!((pa.mv, &pa.events), (pb.mv, &pb.events));
    }
    assert_eq!(a.game(), b.game());
    assert!(b.status().is_over());
}

#[test]
fn bad_saves_are_refused_with_a_reason() {
    let g = game(&grid(&[], &[], &[(8, 5, &[30])]), &[]);
    let json: serde_json::Value = serde_json::from_str(&g.to_position()).unwrap();
    type Change = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Change, &str)> = vec![
        (
            Box::new(|v| set(v, 2, "cell", serde_json::json!(120))),
            "off the grid",
        ),
        (
            Box::new(|v| v["current"] = serde_json::json!(5)),
            "current player",
        ),
        (
            Box::new(|v| v["owners"] = serde_json::json!([1, null, null])),
            "no card 9",
        ),
        (
            Box::new(|v| v["phase"] = serde_json::json!({"state": "prison", "fee": 30})),
            "prison",
        ),
        (Box::new(|v| v["version"] = serde_json::json!(9)), "version"),
        (
            Box::new(|v| set(v, 1, "coins", serde_json::json!(i64::MIN))),
            "coins",
        ),
        (
            Box::new(|v| set(v, 3, "lost_turns", serde_json::json!(u32::MAX))),
            "counter",
        ),
        (
            Box::new(|v| v["turn_cap"] = serde_json::json!(u32::MAX)),
            "turn cap",
        ),
        (
            Box::new(|v| v["grid"]["ladders"] = serde_json::json!([{"start": 10, "end": 20}])),
            "column",
        ),
        (
            Box::new(|v| v["moves"] = serde_json::json!(u64::MAX)),
            "moves, beyond",
        ),
        (
            Box::new(|v| v["turn_cap"] = serde_json::json!(0)),
            "turn cap 0",
        ),
        (
            Box::new(|v| set(v, 2, "cell", serde_json::json!(99))),
            "player 2 is on cell 99 but has not won",
        ),
    ];
    for (change, says) in cases {
        let mut v = json.clone();
        change(&mut v);
        let err = Game::from_position(&v.to_string()).unwrap_err().to_string();
        assert!(err.contains(says), "{says}: {err}");
        assert_eq!(err.matches("not a valid position").count(), 1, "{err}");
    }
    assert!(Game::from_position("{").is_err());
}

#[test]
fn a_save_whose_winner_and_phase_disagree_is_refused() {
    let g = game(&grid(&[], &[], &[(8, 5, &[30])]), &[]);
    let json: serde_json::Value = serde_json::from_str(&g.to_position()).unwrap();
    let over = serde_json::json!({"state": "over"});
    let load = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut v = json.clone();
        change(&mut v);
        Game::from_position(&v.to_string()).map_err(|e| e.to_string())
    };
    // Over, nobody won, long before the turn cap.
    let err = load(&|v| v["phase"] = over.clone()).unwrap_err();
    assert!(
        err.contains("over with no winner") && err.contains("0 turns"),
        "{err}"
    );
    assert_eq!(err.matches("not a valid position").count(), 1, "{err}");
    // A winner named while the game goes on.
    let err = load(&|v| {
        set(v, 1, "cell", serde_json::json!(99));
        v["winner"] = serde_json::json!(1);
    })
    .unwrap_err();
    assert!(
        err.contains("player 1 is said to have won, but the game is not over"),
        "{err}"
    );
    // Over with a winner who is not on 99.
    let err = load(&|v| {
        v["phase"] = over.clone();
        v["winner"] = serde_json::json!(2);
    })
    .unwrap_err();
    assert!(err.contains("not on cell 99"), "{err}");
    // The two consistent endings load.
    let stalled = load(&|v| {
        v["phase"] = over.clone();
        v["turns"] = serde_json::json!(3);
        v["turn_cap"] = serde_json::json!(3);
    })
    .unwrap();
    assert!(stalled.is_over() && stalled.winner().is_none());
    let won = load(&|v| {
        v["phase"] = over.clone();
        v["winner"] = serde_json::json!(1);
        set(v, 1, "cell", serde_json::json!(99));
    })
    .unwrap();
    assert_eq!(won.winner(), Some(1));
}

#[test]
fn scripted_dice_that_run_out_refuse_the_move_and_change_nothing() {
    let mut g = game(&grid(&[], &[], &[]), &[3]);
    play(&mut g, "roll");
    let before = g.clone();
    assert!(matches!(g.apply(Move::Roll), Err(GameError::Dice(_))));
    assert_eq!(g, before);
}

#[test]
fn a_grid_that_cannot_be_won_stops_at_the_turn_cap() {
    // Every cell from 93 to 98 is a snake: 99 can never be reached.
    let snakes: Vec<(u32, u32)> = (93..=98).map(|c| (c, c - 88)).collect();
    let g = grid(&[], &snakes, &[]);
    let mut g = Game::new(g, [Seat::Bot; 4]).with_turn_cap(400);
    let mut last = Vec::new();
    let mut dice = tabletop::SeededDice::new(1);
    tycoon::simulate::play_out(&mut g, &mut dice, 0, |_, e| last = e.to_vec());
    assert!(g.is_over());
    assert_eq!(g.winner(), None);
    assert_eq!(g.turns(), 400);
    assert_eq!(last.last(), Some(&Event::Stalled { turns: 400 }));
}

#[test]
fn lost_turns_from_several_effects_add_up() {
    // P1 stays in prison (3 turns), then P2 ices P1: four turns to lose.
    let g = grid(&[], &[], &[(8, 5, &[30])]);
    let mut g = game(
        &g,
        &[4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    play(&mut g, "roll");
    play(&mut g, "stay");
    let mut g = tweak(&g, |v| set(v, 2, "turns", serde_json::json!(2)));
    play(&mut g, "attack ice 1");
    assert_eq!(g.player(1).unwrap().lost_turns, 4);
    let mut lost = 0;
    while g.player(1).unwrap().lost_turns > 0 {
        if g.current() == Some(1) {
            let e = play(&mut g, "roll");
            assert!(matches!(e[1], Event::TurnLost { player: 1, .. }), "{e:?}");
            lost += 1;
        } else {
            step(&mut g);
        }
    }
    assert_eq!(lost, 4);
    assert_eq!(cell(&g, 1), 5);
}

#[test]
fn fire_and_poison_from_two_attackers_last_twice_as_long() {
    let g = on_recharge_turn(&[1; 40]);
    let mut g = tweak(&g, |v| {
        set(v, 2, "turns", serde_json::json!(2));
        set(v, 4, "fire_turns", serde_json::json!(3));
    });
    play(&mut g, "attack fire 4");
    play(&mut g, "attack poison 4");
    assert_eq!(g.player(4).unwrap().fire_turns, 6);
    assert_eq!(g.player(4).unwrap().poison_turns, 5);
    let mut g = tweak(&g, |v| set(v, 4, "poison_turns", serde_json::json!(5 + 5)));
    // Each of P4's next six turns burns 20 (not 40).
    let start = coins(&g, 4);
    let mut burned = 0;
    while g.player(4).unwrap().fire_turns > 0 {
        let e = step(&mut g);
        burned += e
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Burned {
                        player: 4,
                        coins: 20,
                        ..
                    }
                )
            })
            .count();
    }
    assert_eq!(burned, 6);
    assert!(
        coins(&g, 4) <= start - 120 + 60,
        "recharges aside, 120 burned"
    );
    assert_eq!(g.player(4).unwrap().poison_turns, 4);
}

#[test]
fn station_11_and_station_10_are_separate_groups() {
    let g = grid(
        &[],
        &[],
        &[(11, 5, &[40, 7]), (10, 7, &[30, 3]), (11, 9, &[40, 7])],
    );
    let mut g = game(&g, &[4, 6, 8 - 2]);
    play(&mut g, "roll");
    play(&mut g, "buy");
    assert_eq!((g.owner(11), g.owner(10)), (Some(1), None));
    let e = play(&mut g, "roll");
    // P2 stops on 7: station 10 is for sale although P1 owns 11.
    assert!(e.contains(&Event::ForSale {
        player: 2,
        station: 10,
        price: 30
    }));
    play(&mut g, "buy");
    // P3 on 7 pays P2 station 10's fee; P1 owns both cards 11.
    let e = play(&mut g, "roll");
    assert!(e.contains(&Event::Paid {
        player: 3,
        coins: 3,
        to: Some(2)
    }));
    assert_eq!(g.stations_of(1), vec![11]);
    assert_eq!(g.stations_of(2), vec![10]);
}

#[test]
fn reachability_of_cell_99_is_known() {
    assert!(tycoon::game::can_reach_last(&grid(&[], &[], &[])));
    assert!(tycoon::game::can_reach_last(&Arc::new(
        tycoon::parse_grid(tycoon::SAMPLE_GRID).unwrap()
    )));
    let snakes: Vec<(u32, u32)> = (93..=98).map(|c| (c, c - 88)).collect();
    assert!(!tycoon::game::can_reach_last(&grid(&[], &snakes, &[])));
    // A ladder to 99 opens it again; so does card 6 to 99.
    assert!(tycoon::game::can_reach_last(&grid(
        &[(88, 99)],
        &snakes,
        &[]
    )));
    assert!(tycoon::game::can_reach_last(&grid(
        &[],
        &snakes,
        &[(6, 50, &[99])]
    )));
    assert_eq!(
        tycoon::game::landing(&grid(&[(10, 32)], &[], &[]), 6, 4),
        32
    );
}

#[test]
fn the_original_assignments_worked_example_of_a_recharge() {
    // The original assignment: "He rolls the dice to get 5 ... in his next
    // turn he gets 2 ... in his third turn he rolls 4. Then, 40 coins are
    // added to his wallet, and he will not move." It counts from step 0; the
    // rules of record put every token on cell 1, so 5 and 2 reach cells 6
    // and 8.
    let mut g = game(&grid(&[], &[], &[]), &[5, 1, 1, 1, 2, 1, 1, 1, 4]);
    for _ in 0..8 {
        play(&mut g, "roll");
    }
    assert_eq!((cell(&g, 1), coins(&g, 1)), (8, 100));
    let e = play(&mut g, "recharge");
    assert!(e.contains(&Event::Recharged {
        player: 1,
        coins: 40
    }));
    assert_eq!((cell(&g, 1), coins(&g, 1)), (8, 140));
}
