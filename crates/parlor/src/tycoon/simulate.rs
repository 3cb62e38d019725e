//! `parlor tycoon simulate`: many bot games on all cores. Glue only: the
//! library's report (`tycoon::report::SimulationReport`) is printed in its
//! words, or with `--json` as itself.

use crate::common::{print_json, print_text};
use crate::progress;
use anyhow::{Result, bail};
use clap::Args;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;
use tabletop::count;
use tycoon::game::DEFAULT_TURN_CAP;
use tycoon::report::SimulationReport;
use tycoon::simulate::{Options, Watch, simulate_watched_on};

/// Arguments of `parlor tycoon simulate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Game i of a run rolls from stream i of the seed, so the totals do not
depend on --threads. Seats: easy (a legal move at random; also `random`),
normal (the default bot; also `bot`), hard (the search bot); a human seat is
played by the default bot.

Examples:
  parlor tycoon simulate sample --games 100000
  parlor tycoon simulate my.grid --games 20000 --seed 7 --seats hard,normal,normal,normal
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
    /// Who plays seats 1-4: easy, normal or hard, comma-separated (one fills all).
    #[arg(long, default_value = "normal")]
    seats: String,
    /// Stop a game with no winner after this many turns.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// Print the report as JSON (the schema is in docs/api.md).
    #[arg(long)]
    json: bool,
}

/// Runs the simulation.
pub fn run(args: &SimulateArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let grid = Arc::new(super::load_grid(&args.grid)?);
    let seats = super::parse_seats(&args.seats)?;
    let options = Options {
        games: args.games,
        seed: args.seed,
        seats,
        turn_cap: args.turn_cap,
    };
    let start = Instant::now();
    let watch = Arc::new(Watch::default());
    // The first Ctrl-C stops the run: the report is of the games played.
    let stopper = Arc::clone(&watch);
    progress::on_ctrl_c(move || stopper.stop.store(true, Ordering::SeqCst));
    let bar = progress::games_bar(args.games, "simulating", "games", args.json);
    let tally = progress::follow(&bar, &watch.played, || {
        simulate_watched_on(&grid, &options, args.threads, &watch)
    })?;
    let secs = start.elapsed().as_secs_f64();
    if tally.games < args.games {
        eprintln!(
            "Stopped (Ctrl-C) after {} of {}: the report is of the games played.",
            tally.games,
            count(args.games, "game", "games")
        );
    }
    eprintln!(
        "{} in {secs:.2} s ({:.0} games/s)",
        count(tally.games, "game", "games"),
        tally.games as f64 / secs.max(1e-9)
    );
    let report = SimulationReport::new(&args.grid, &grid, &options, tally);
    if args.json {
        print_json(&report)
    } else {
        print_text(&report)
    }
}
