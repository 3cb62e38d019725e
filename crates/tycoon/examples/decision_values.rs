//! What each kind of choice is worth: one bot against three random bots on
//! the original assignment's sample grid, the default bot with one kind of
//! decision played another way, each line's win rate with its 95% interval.
//!
//! Terms:
//! - **lone seat**: the seat of the bot measured; game `i` puts it in seat
//!   `i % 4 + 1`, so every seat has the same share of games.
//! - **same luck**: game `i` rolls the same seeded dice for every line (the
//!   rolls are one stream, so a line that changes who rolls when shifts
//!   them), and its random bots draw from the same seed.
//! - **emergency**: an opponent whose next move wins with 2 faces or more
//!   ([`tycoon::bots::default::threatens_to_win`]).
//!
//! ```sh
//! cargo run --release -p tycoon --example decision_values -- 200000
//! ```
//!
//! The results are in docs/tycoon.md (Bots).

use rayon::prelude::*;
use std::sync::Arc;
use tabletop::{Rng, SeededDice};
use tycoon::bots::outlook::Outlook;
use tycoon::bots::{Bot, DefaultBot, RandomBot};
use tycoon::{Attack, Decision, Game, Grid, Move, Seat};

/// How the lone bot plays.
#[derive(Clone, Copy, Debug)]
enum Line {
    Random,
    Default,
    StaysInPrison,
    NeverBuys,
    AlwaysBuys,
    NeverAttacks,
    AttacksOnlyInAnEmergency,
    AttacksTheLeaderAtOnce,
    /// The default bot, recharging where it would launch this attack.
    Never(Attack),
}

impl Line {
    const ALL: [Line; 12] = [
        Line::Random,
        Line::Default,
        Line::StaysInPrison,
        Line::NeverBuys,
        Line::AlwaysBuys,
        Line::NeverAttacks,
        Line::AttacksOnlyInAnEmergency,
        Line::AttacksTheLeaderAtOnce,
        Line::Never(Attack::Ice),
        Line::Never(Attack::Fire),
        Line::Never(Attack::Poison),
        Line::Never(Attack::Lightning),
    ];

    fn describe(self) -> String {
        let name = match self {
            Line::Random => "a random bot (the fair share)",
            Line::Default => "the default bot",
            Line::StaysInPrison => "default, but stays in prison",
            Line::NeverBuys => "default, but never buys a station",
            Line::AlwaysBuys => "default, but buys every station offered",
            Line::NeverAttacks => "default, but never attacks",
            Line::AttacksOnlyInAnEmergency => "default, but attacks only in an emergency",
            Line::AttacksTheLeaderAtOnce => {
                "default, but attacks the leader at once (ice, poison, fire, lightning)"
            }
            Line::Never(attack) => {
                return format!("default, but recharges where it would launch {attack:?}")
                    .to_lowercase();
            }
        };
        name.to_string()
    }

    fn choose(self, game: &Game, seed: u64) -> Move {
        let Some(decision) = game.pending() else {
            return Move::Roll;
        };
        let default = DefaultBot.choose(game);
        match (self, decision) {
            (Line::Random, _) => RandomBot::new(seed).choose(game),
            (Line::StaysInPrison, Decision::PayOrStay { .. }) => Move::Stay,
            (Line::NeverBuys, Decision::BuyOrPass { .. }) => Move::Pass,
            (Line::AlwaysBuys, Decision::BuyOrPass { .. }) => Move::Buy,
            (Line::NeverAttacks, Decision::RechargeOrAttack { .. }) => Move::Recharge,
            (Line::AttacksOnlyInAnEmergency, Decision::RechargeOrAttack { player }) => {
                if emergency(game, player) {
                    default
                } else {
                    Move::Recharge
                }
            }
            (Line::AttacksTheLeaderAtOnce, Decision::RechargeOrAttack { player }) => {
                attack_the_leader(game, player)
            }
            (Line::Never(kind), _) => match default {
                Move::Attack { attack, .. } if attack == kind => Move::Recharge,
                other => other,
            },
            _ => default,
        }
    }
}

/// True when an opponent of `seat` threatens to win with its next move.
fn emergency(game: &Game, seat: u8) -> bool {
    let outlook = Outlook::of(game.grid());
    (1..=4u8).filter(|&s| s != seat).any(|s| {
        game.player(s)
            .is_some_and(|p| tycoon::bots::default::threatens_to_win(p, outlook.cell(p.cell), 2))
    })
}

/// The first attack left of ice, poison, fire and lightning, on the
/// opponent furthest ahead.
fn attack_the_leader(game: &Game, seat: u8) -> Move {
    let legal = game.legal_moves();
    let leader = (1..=4u8)
        .filter(|&s| s != seat)
        .max_by_key(|&s| game.player(s).map_or(0, |p| p.cell));
    for attack in [Attack::Ice, Attack::Poison, Attack::Fire, Attack::Lightning] {
        let target = (attack != Attack::Lightning).then_some(leader).flatten();
        let mv = Move::Attack { attack, target };
        if legal.contains(&mv) {
            return mv;
        }
    }
    Move::Recharge
}

/// True when the lone bot, playing `line` in seat `i % 4 + 1`, wins game `i`.
fn lone_bot_wins(grid: &Arc<Grid>, line: Line, i: u64) -> bool {
    let lone = (i % 4) as u8 + 1;
    let mut rng = Rng::stream(1, i);
    let mut dice = SeededDice::new(rng.next_u64());
    let bots_seed = rng.next_u64();
    let mut game = Game::new(grid.clone(), [Seat::Human; 4]);
    let mut events = Vec::new();
    while let Some(pending) = game.pending() {
        let mv = if matches!(pending, Decision::Roll { .. }) {
            Move::Roll
        } else if pending.player() == lone {
            line.choose(&game, !bots_seed)
        } else {
            RandomBot::new(bots_seed).choose(&game)
        };
        events.clear();
        if game.apply_into(mv, &mut dice, &mut events).is_err() {
            break;
        }
    }
    game.winner() == Some(lone)
}

fn main() {
    let games: u64 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 100_000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("decision_values: give the number of games for each line (1 or more)");
            std::process::exit(2);
        }
    };
    let grid = Arc::new(tycoon::parse_grid(tycoon::SAMPLE_GRID).expect("the sample grid"));
    println!("One bot against three random bots, sample grid, {games} games a line:\n");
    println!("| the lone bot | wins | 95% interval |");
    println!("| --- | --- | --- |");
    for line in Line::ALL {
        let wins = (0..games)
            .into_par_iter()
            .filter(|&i| lone_bot_wins(&grid, line, i))
            .count() as u64;
        let rate = tycoon::tournament::Rate::new(wins, games);
        println!(
            "| {} | {:.1}% | {:.1}%–{:.1}% |",
            line.describe(),
            100.0 * rate.rate,
            100.0 * rate.low,
            100.0 * rate.high
        );
    }
}
