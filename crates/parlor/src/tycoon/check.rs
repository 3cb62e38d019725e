//! `parlor tycoon check`: validate grid files.

use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;
use std::io::Write;

/// Arguments of `parlor tycoon check`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor tycoon check my.grid
  parlor tycoon check sample grids/*.grid
  parlor tycoon check my.grid --json")]
pub struct CheckArgs {
    /// Grid files (or `sample`).
    #[arg(required = true, value_name = "GRID")]
    grids: Vec<String>,
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
