//! `parlor tycoon tournament`: the bot levels against each other.

use crate::common::print_json;
use anyhow::{Result, bail};
use clap::Args;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;
use tabletop::count;
use tycoon::game::DEFAULT_TURN_CAP;
use tycoon::simulate::Watch;
use tycoon::tournament::{Grids, Matchup, Options, Rate, play_watched_on};

/// Arguments of `parlor tycoon tournament`.
#[derive(Args, Debug)]
#[command(
    after_help = "A matchup ONE:REST is one bot of level ONE against three of level REST
(levels: easy = a legal move at random, normal = the default bot, hard = the
search bot). The lone bot sits in each of the four seats in turn, GAMES games
in each; game i rolls the same dice in every seat and matchup, and on random
grids is played on the same random legal grid. Each rate comes with its 95%
interval (Wilson); a fair share is 25%. Game i draws from stream i of the
seed, so the report does not depend on --threads.

Examples:
  parlor tycoon tournament --games 250
  parlor tycoon tournament --matchups hard:normal,normal:easy --games 1000 --seed 1
  parlor tycoon tournament --grids random --games 100 --json"
)]
pub struct TournamentArgs {
    /// Games per seat, per matchup, per grid set.
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    /// The tournament's seed.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Matchups ONE:REST, comma-separated (default: every pair of levels).
    #[arg(long, value_name = "ONE:REST,...")]
    matchups: Option<String>,
    /// Grid sets, comma-separated: sample, random.
    #[arg(long, default_value = "sample,random", value_name = "sample,random")]
    grids: String,
    /// Threads (default: all cores).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Stop a game with no winner after this many turns.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

fn list<T: std::str::FromStr>(text: &str, what: &str) -> Result<Vec<T>>
where
    T::Err: std::fmt::Display,
{
    let items: Vec<T> = text
        .split(',')
        .map(|s| s.trim().parse::<T>().map_err(|e| anyhow::anyhow!("{e}")))
        .collect::<Result<_>>()?;
    if items.is_empty() {
        bail!("--{what} names nothing");
    }
    Ok(items)
}

fn percent(r: &Rate) -> String {
    format!(
        "{:5.1}% [{:4.1}, {:4.1}]",
        100.0 * r.rate,
        100.0 * r.low,
        100.0 * r.high
    )
}

/// Runs the tournament.
pub fn run(args: &TournamentArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let matchups = match &args.matchups {
        Some(text) => list::<Matchup>(text, "matchups")?,
        None => Matchup::all(),
    };
    let grids = list::<Grids>(&args.grids, "grids")?;
    let options = Options {
        games: args.games,
        seed: args.seed,
        matchups,
        grids,
        turn_cap: args.turn_cap,
    };
    let start = Instant::now();
    let watch = Arc::new(Watch::default());
    // The first Ctrl-C stops the tournament (the games played are
    // reported); a second ends the process at once.
    let stopper = Arc::clone(&watch);
    crate::progress::on_ctrl_c(move || stopper.stop.store(true, Ordering::SeqCst));
    let terminal = crate::progress::shown(args.json);
    let bar = crate::progress::games_bar(options.total_games(), "", "games", args.json);
    let report = crate::progress::follow(&bar, &watch.played, || {
        play_watched_on(&options, args.threads, &watch)
    })?;
    if args.json {
        return print_json(&report);
    }
    let played: u64 = report.outcomes.iter().map(|o| o.overall.games).sum();
    if terminal {
        eprintln!(
            "{} in {:.1} s",
            count(played, "game", "games"),
            start.elapsed().as_secs_f64()
        );
    }
    let mut out = std::io::stdout().lock();
    if report.stopped {
        writeln!(
            out,
            "Stopped (Ctrl-C) after {played} of {}: the rates below are of the games played.",
            count(options.total_games(), "game", "games")
        )?;
    }
    writeln!(
        out,
        "Tournament, seed {}: {} per seat, per matchup, per grid set",
        args.seed,
        count(args.games, "game", "games")
    )?;
    writeln!(
        out,
        "The lone bot's win rate with its 95% interval (a fair share is 25%):"
    )?;
    for o in &report.outcomes {
        let by_seat: Vec<String> = o
            .seats
            .iter()
            .enumerate()
            .map(|(i, r)| format!("P{} {:.1}%", i + 1, 100.0 * r.rate))
            .collect();
        writeln!(
            out,
            "  {:<6} vs 3 {:<6} on {:<6} grids: {}  ({}; {} of {})",
            o.matchup.one.to_string(),
            o.matchup.rest.to_string(),
            o.grids.to_string(),
            percent(&o.overall),
            by_seat.join(", "),
            o.overall.wins,
            count(o.overall.games, "game", "games"),
        )?;
        if o.stalled > 0 {
            writeln!(
                out,
                "    stopped at the turn cap with no winner: {}",
                count(o.stalled, "game", "games")
            )?;
        }
    }
    Ok(())
}
