//! `parlor tycoon check`: validate grid files, and with `--balance` play
//! bot games on a grid to see whether it is fair to every seat (the
//! library's `tycoon::balance`).

use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;
use std::io::Write;

/// Arguments of `parlor tycoon check`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor tycoon check my.grid
  parlor tycoon check sample grids/*.grid
  parlor tycoon check my.grid --json
  parlor tycoon check sample --balance                    is the grid fair to every seat?
  parlor tycoon check my.grid --balance --games 20000 --margin 0.02 --seats hard,normal,normal,normal")]
pub struct CheckArgs {
    /// Grid files (or `sample`).
    #[arg(required = true, value_name = "GRID")]
    grids: Vec<String>,
    /// Also play bot games on each grid: every seat's win rate with its 95%
    /// interval, a flag when they differ by more than --margin, and the
    /// cells and cards that decide games. Exits 1 when a grid is
    /// unbalanced.
    #[arg(long)]
    balance: bool,
    /// Games for --balance.
    #[arg(long, default_value_t = 4_000, requires = "balance")]
    games: u64,
    /// The most the seats' win rates may differ for --balance (a share:
    /// 0.05 is 5 points).
    #[arg(long, default_value_t = 0.05, requires = "balance")]
    margin: f64,
    /// Who plays seats 1-4 for --balance: easy, normal or hard,
    /// comma-separated (one fills all).
    #[arg(long, default_value = "normal", requires = "balance")]
    seats: String,
    /// The seed of --balance's games.
    #[arg(long, default_value_t = 1, requires = "balance")]
    seed: u64,
    /// Print the results as JSON (the grid, or every problem).
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Checked {
    file: String,
    ok: bool,
    /// Whether cell 99 can be reached from cell 1 at all.
    #[serde(skip_serializing_if = "Option::is_none")]
    reachable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<tycoon::Grid>,
    problems: Vec<tycoon::file::FileProblem>,
}

/// Runs the check.
pub fn run(args: &CheckArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let mut bad = 0;
    let mut results = Vec::new();
    for name in &args.grids {
        match super::load_grid(name) {
            Ok(grid) => {
                let reachable = tycoon::game::can_reach_last(&std::sync::Arc::new(grid.clone()));
                if !args.json {
                    writeln!(out, "ok: {name}: {grid}")?;
                    for line in super::describe(&grid) {
                        writeln!(out, "  {line}")?;
                    }
                    if !reachable {
                        writeln!(
                            out,
                            "  warning: no rolls lead from cell 1 to cell 99, so no game on this grid can be won (games stop at the turn cap)"
                        )?;
                    }
                }
                results.push(Checked {
                    file: name.clone(),
                    ok: true,
                    reachable: Some(reachable),
                    grid: Some(grid),
                    problems: Vec::new(),
                });
            }
            Err(e) => {
                bad += 1;
                let problems = e
                    .downcast_ref::<tycoon::LoadError>()
                    .map(tycoon::LoadError::problems)
                    .unwrap_or_default();
                if !args.json {
                    eprintln!("error: {e:#}");
                }
                results.push(Checked {
                    file: name.clone(),
                    ok: false,
                    reachable: None,
                    grid: None,
                    problems,
                });
            }
        }
    }
    if args.balance && bad == 0 {
        return balance(args, &results);
    }
    if args.json {
        crate::common::print_json(&results)?;
    }
    if bad > 0 {
        bail!(
            "{bad} of {} {} not valid",
            tabletop::count(args.grids.len() as u64, "grid file", "grid files"),
            tabletop::plural(bad, "is", "are")
        );
    }
    Ok(())
}

/// Games timed to estimate a run with hard seats.
const TIMED_GAMES: u64 = 2;

/// Says on stderr, before a run with hard seats (each move a search), about
/// how long it will take: a few games timed on the first grid, scaled to
/// the games asked and the cores.
fn estimate_hard(
    args: &CheckArgs,
    results: &[Checked],
    seats: [tycoon::game::Seat; tycoon::game::SEATS],
) {
    let Some(grid) = results.iter().find_map(|c| c.grid.clone()) else {
        return;
    };
    let grids = results.iter().filter(|c| c.grid.is_some()).count() as f64;
    let options = tycoon::simulate::Options {
        games: TIMED_GAMES.min(args.games),
        seed: args.seed,
        seats,
        turn_cap: tycoon::game::DEFAULT_TURN_CAP,
    };
    let started = std::time::Instant::now();
    let watch = tycoon::simulate::Watch::default();
    let _ = tycoon::balance::check_balance(
        "timing",
        &std::sync::Arc::new(grid),
        &options,
        args.margin,
        &watch,
    );
    let per_game = started.elapsed().as_secs_f64() / options.games as f64;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get) as f64;
    let total = per_game * args.games as f64 * grids / cores;
    eprintln!(
        "note: hard seats search every move: {} timed games took {:.1} s each, so {} on {} will take about {} on {} cores (Ctrl-C keeps the games played)",
        options.games,
        per_game,
        tabletop::count(args.games, "game", "games"),
        tabletop::count(grids as u64, "grid", "grids"),
        duration_words(total),
        cores
    );
}

/// Seconds in words: "40 s", "12 min", "3.5 h".
fn duration_words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// `--balance`: bot games on each (valid) grid.
fn balance(args: &CheckArgs, results: &[Checked]) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.margin) {
        bail!(
            "--margin is a share between 0 and 1 (0.05 is 5 points), not {}",
            args.margin
        );
    }
    let seats = super::parse_seats(&args.seats)?;
    if seats.contains(&tycoon::game::Seat::Hard) {
        estimate_hard(args, results, seats);
    }
    // One count and one stop for every grid: the first Ctrl-C stops the
    // run, and each report is of the games played.
    let watch = std::sync::Arc::new(tycoon::simulate::Watch::default());
    let stopper = std::sync::Arc::clone(&watch);
    crate::progress::on_ctrl_c(move || {
        stopper
            .stop
            .store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let grids = results.iter().filter(|c| c.grid.is_some()).count() as u64;
    let bar = crate::progress::games_bar(args.games * grids, "playing", "games", args.json);
    let options = tycoon::simulate::Options {
        games: args.games,
        seed: args.seed,
        seats,
        turn_cap: tycoon::game::DEFAULT_TURN_CAP,
    };
    let reports: Vec<_> = crate::progress::follow(&bar, &watch.played, || {
        results
            .iter()
            .filter_map(|checked| {
                let grid = std::sync::Arc::new(checked.grid.clone()?);
                let check = tycoon::balance::check_balance;
                Some(check(&checked.file, &grid, &options, args.margin, &watch))
            })
            .collect()
    });
    if args.json {
        crate::common::print_json(&reports)?;
    } else {
        for r in &reports {
            crate::common::print_text(r)?;
        }
    }
    let unbalanced = reports.iter().filter(|r| r.unbalanced).count() as u64;
    if unbalanced > 0 {
        let grids = tabletop::count(reports.len() as u64, "grid", "grids");
        bail!(
            "{} of {grids} {} unbalanced",
            unbalanced,
            tabletop::plural(unbalanced, "is", "are")
        );
    }
    Ok(())
}
