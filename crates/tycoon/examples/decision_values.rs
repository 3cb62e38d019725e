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
//! - **lookahead** (`--lookahead N`): the default bot, but at every choice
//!   each legal move is played on in `N` playouts
//!   ([`tycoon::bots::search::playout_with`], common dice) in which the
//!   bot's later choices are the default bot's and its opponents' are
//!   random, as they are; it leaves the default bot's move only for one
//!   that won more of the same playouts by two standard deviations (a
//!   sign test). It knows its opponents exactly, so its gain over the
//!   default bot bounds what one better choice at a time can add here.
//! - **paired gain**: the lookahead's wins minus the default bot's over the
//!   same games (same dice, same random bots), with its 95% interval: much
//!   tighter than the difference of the two rates.
//!
//! ```sh
//! cargo run --release -p tycoon --example decision_values -- 200000
//! cargo run --release -p tycoon --example decision_values -- 12000 --lookahead 300
//! ```
//!
//! The results are in docs/tycoon.md (Bots).

use rayon::prelude::*;
use std::sync::Arc;
use tabletop::{Rng, SeededDice};
use tycoon::bots::outlook::Outlook;
use tycoon::bots::{Bot, DefaultBot, RandomBot, search};
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
    /// The default bot, but every choice searched in this many playouts a
    /// move (see **lookahead**).
    Lookahead(u64),
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
            Line::Lookahead(n) => {
                return format!("default, but every choice searched ({n} playouts a move)");
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
            (Line::Lookahead(n), _) => lookahead(game, default, n, seed),
            _ => default,
        }
    }
}

/// How many standard deviations (of a sign test) a move must win more of
/// the same playouts by to be played instead of the default bot's.
const LOOKAHEAD_MARGIN: f64 = 2.0;

/// The lookahead's answer to `game`'s pending choice (see **lookahead**):
/// `default` unless another legal move won clearly more of `n` playouts,
/// whose imagined dice and random bots are drawn from `seed` and the
/// position (so the answer does not depend on the real game's dice).
fn lookahead(game: &Game, default: Move, n: u64, seed: u64) -> Move {
    let Some(me) = game.current() else {
        return default;
    };
    let moves = game.legal_moves();
    if moves.len() <= 1 {
        return default;
    }
    let seed = Rng::stream(seed, game.moves()).next_u64();
    let wins = |first: Move| -> Vec<bool> {
        (0..n)
            .map(|j| {
                let opponents = RandomBot::new(Rng::stream(seed, j).next_u64());
                search::playout_with(game, first, seed, j, me, 10_000, |g: &Game| {
                    if g.current() == Some(me) {
                        DefaultBot.choose(g)
                    } else {
                        opponents.choose(g)
                    }
                })
            })
            .collect()
    };
    let base = wins(default);
    let mut best = (LOOKAHEAD_MARGIN, default);
    for &mv in moves.iter().filter(|&&mv| mv != default) {
        let (mut only_mv, mut only_default) = (0.0f64, 0.0f64);
        for (won, base) in wins(mv).into_iter().zip(&base) {
            only_mv += f64::from(u8::from(won && !base));
            only_default += f64::from(u8::from(!won && *base));
        }
        let z = (only_mv - only_default) / (only_mv + only_default).max(1.0).sqrt();
        if z > best.0 {
            best = (z, mv);
        }
    }
    best.1
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

/// The command line: the games for each line, and `--lookahead N` for
/// the default bot and the lookahead only.
fn arguments() -> Result<(u64, Option<u64>), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |text: Option<&String>, what: &str| -> Result<u64, String> {
        match text.map(|t| t.parse::<u64>()) {
            Some(Ok(n)) if n > 0 => Ok(n),
            _ => Err(format!("give the number of {what} (1 or more)")),
        }
    };
    let games = if args.is_empty() {
        100_000
    } else {
        number(args.first(), "games for each line")?
    };
    match args.get(1).map(String::as_str) {
        None => Ok((games, None)),
        Some("--lookahead") if args.len() == 3 => {
            Ok((games, Some(number(args.get(2), "playouts a move")?)))
        }
        Some(other) => Err(format!(
            "unknown argument `{other}`: the arguments are GAMES [--lookahead PLAYOUTS]"
        )),
    }
}

/// One table row: the line and its rate.
fn row(line: Line, wins: u64, games: u64) {
    let rate = tycoon::tournament::Rate::new(wins, games);
    println!(
        "| {} | {:.1}% | {:.1}%–{:.1}% |",
        line.describe(),
        100.0 * rate.rate,
        100.0 * rate.low,
        100.0 * rate.high
    );
}

fn main() {
    let (games, lookahead) = match arguments() {
        Ok(arguments) => arguments,
        Err(message) => {
            eprintln!("decision_values: {message}");
            std::process::exit(2);
        }
    };
    let grid = Arc::new(tycoon::parse_grid(tycoon::SAMPLE_GRID).expect("the sample grid"));
    println!("One bot against three random bots, sample grid, {games} games a line:\n");
    println!("| the lone bot | wins | 95% interval |");
    println!("| --- | --- | --- |");
    let Some(playouts) = lookahead else {
        for line in Line::ALL {
            let wins = (0..games)
                .into_par_iter()
                .filter(|&i| lone_bot_wins(&grid, line, i))
                .count() as u64;
            row(line, wins, games);
        }
        return;
    };
    let searched = Line::Lookahead(playouts);
    let pairs: Vec<(bool, bool)> = (0..games)
        .into_par_iter()
        .map(|i| {
            (
                lone_bot_wins(&grid, Line::Default, i),
                lone_bot_wins(&grid, searched, i),
            )
        })
        .collect();
    let count = |keep: fn(&(bool, bool)) -> bool| pairs.iter().filter(|p| keep(p)).count() as u64;
    row(Line::Default, count(|p| p.0), games);
    row(searched, count(|p| p.1), games);
    let only_searched = count(|p| p.1 && !p.0) as f64;
    let only_default = count(|p| p.0 && !p.1) as f64;
    let gain = (only_searched - only_default) / games as f64;
    let half = 1.96 * (only_searched + only_default).sqrt() / games as f64;
    println!(
        "\nPaired gain of the lookahead over the default bot: {:+.2} points ± {:.2} (95%)",
        100.0 * gain,
        100.0 * half
    );
}
