//! `parlor tycoon simulate`: many bot games on all cores.

use crate::common::print_json;
use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;
use tabletop::count;
use tycoon::Seat;
use tycoon::game::{DEFAULT_TURN_CAP, SEATS};
use tycoon::simulate::{Options, Tally, simulate_on};

/// Arguments of `parlor tycoon simulate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Game i of a run rolls from stream i of the seed, so the totals do not
depend on --threads. A human seat is played by the default bot.

Examples:
  parlor tycoon simulate sample --games 100000
  parlor tycoon simulate my.grid --games 20000 --seed 7 --seats bot,random,random,random
  parlor tycoon simulate sample --games 10000 --json"
)]
pub struct SimulateArgs {
    /// The grid: a file or `sample`.
    #[arg(value_name = "GRID")]
    grid: String,
    /// Games to play.
    #[arg(long, short = 'n', default_value_t = 10_000)]
    games: u64,
    /// The run's seed.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Who plays seats 1-4: bot or random, comma-separated (one fills all).
    #[arg(long, default_value = "bot")]
    seats: String,
    /// Stop a game with no winner after this many turns.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// Print the totals as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    grid: String,
    seed: u64,
    seats: [Seat; SEATS],
    win_rate: [f64; SEATS],
    mean_turns: f64,
    card_rate: Vec<CardRate>,
    tally: Tally,
}

#[derive(Serialize)]
struct CardRate {
    card: u8,
    per_game: f64,
}

/// Runs the simulation.
pub fn run(args: &SimulateArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let grid = Arc::new(super::load_grid(&args.grid)?);
    let seats = {
        let names: Vec<Seat> = args
            .seats
            .split(',')
            .map(|s| s.parse::<Seat>().map_err(anyhow::Error::msg))
            .collect::<Result<_>>()?;
        match names.len() {
            1 => [names[0]; SEATS],
            SEATS => [names[0], names[1], names[2], names[3]],
            n => bail!("--seats names {n} seats; give 4 (or one for all)"),
        }
    };
    let options = Options {
        games: args.games,
        seed: args.seed,
        seats,
        turn_cap: args.turn_cap,
    };
    let start = Instant::now();
    let tally = simulate_on(&grid, &options, args.threads)?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} in {secs:.2} s ({:.0} games/s)",
        count(tally.games, "game", "games"),
        tally.games as f64 / secs.max(1e-9)
    );
    let present: Vec<u8> = {
        let mut v: Vec<u8> = grid.cards().map(|c| c.number()).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    if args.json {
        return print_json(&Report {
            grid: args.grid.clone(),
            seed: args.seed,
            seats,
            win_rate: std::array::from_fn(|i| tally.win_rate(i as u8 + 1)),
            mean_turns: tally.mean_turns(),
            card_rate: present
                .iter()
                .map(|&card| CardRate {
                    card,
                    per_game: tally.card_rate(card),
                })
                .collect(),
            tally,
        });
    }
    let mut out = std::io::stdout().lock();
    let n = tally.games as f64;
    let seat_names: Vec<String> = seats.iter().map(ToString::to_string).collect();
    writeln!(
        out,
        "{} on {} ({}), seats {}, seed {}",
        count(tally.games, "game", "games"),
        args.grid,
        grid,
        seat_names.join(", "),
        args.seed
    )?;
    writeln!(out, "wins by seat:")?;
    for seat in 1..=SEATS as u8 {
        let p = tally.win_rate(seat);
        let margin = 1.96 * (p * (1.0 - p) / n).sqrt();
        writeln!(
            out,
            "  P{seat}: {:>6.2}% ± {:.2}  ({})",
            100.0 * p,
            100.0 * margin,
            count(tally.wins[usize::from(seat) - 1], "game", "games")
        )?;
    }
    if tally.stalled > 0 {
        writeln!(
            out,
            "  stopped at the turn cap ({}) with no winner: {}",
            args.turn_cap,
            count(tally.stalled, "game", "games")
        )?;
    }
    writeln!(
        out,
        "game length: mean {:.1} turns in all ({:.1} rounds), shortest {}, longest {}",
        tally.mean_turns(),
        tally.mean_turns() / SEATS as f64,
        tally.min_turns,
        tally.max_turns
    )?;
    writeln!(out, "cards fired per game:")?;
    if present.is_empty() {
        writeln!(out, "  (the grid has no cards)")?;
    }
    for card in present {
        writeln!(out, "  card {card:>2}: {:.3}", tally.card_rate(card))?;
    }
    writeln!(
        out,
        "per game: {:.2} ladders, {:.2} snakes, {:.2} stations bought",
        tally.ladders as f64 / n,
        tally.snakes as f64 / n,
        tally.stations_bought as f64 / n
    )?;
    let names = ["ice", "fire", "poison", "lightning"];
    let attacks: Vec<String> = names
        .iter()
        .zip(tally.attacks)
        .map(|(name, count)| format!("{name} {:.2}", count as f64 / n))
        .collect();
    writeln!(out, "attacks per game: {}", attacks.join(", "))?;
    Ok(())
}
