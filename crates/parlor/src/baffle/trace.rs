//! `parlor baffle trace`: where beams leave a box.

use super::{BoxArgs, describe};
use crate::common::{print_json, seed_or_fresh};
use anyhow::{Result, bail};
use baffle::text::layout_text;
use clap::Args;
use serde::Serialize;
use std::io::Write;

/// Arguments of `parlor baffle trace`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor baffle trace                     every hole of the original assignment's fixed game
  parlor baffle trace 7 5 1               the original assignment's checks: 7->22, 5->12, 1->24
  parlor baffle trace --layout box.txt --json
  parlor baffle trace --seed 3 --size 12 --mirrors 9")]
pub struct TraceArgs {
    #[command(flatten)]
    source: BoxArgs,
    /// Holes to shoot into (every hole when none are given).
    #[arg(value_name = "HOLE")]
    holes: Vec<usize>,
    /// Print JSON: [{"hole": h, "exit": e, "deflections": d}, ...].
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    hole: usize,
    exit: usize,
    deflections: usize,
}

/// Traces.
pub fn run(args: &TraceArgs) -> Result<()> {
    let (setup, layout) = args.source.layout(|| seed_or_fresh(None))?;
    let size = layout.size();
    let holes: Vec<usize> = if args.holes.is_empty() {
        (0..size.holes()).collect()
    } else {
        args.holes.clone()
    };
    if let Some(&bad) = holes.iter().find(|&&h| h >= size.holes()) {
        bail!(
            "there is no hole {bad}: a {size} box has holes 0 to {}",
            size.holes() - 1
        );
    }
    let beams: Vec<baffle::Beam> = holes
        .iter()
        .map(|&h| layout.trace(h))
        .collect::<Result<_, _>>()?;
    if args.json {
        let rows: Vec<Row> = beams
            .iter()
            .map(|b| Row {
                hole: b.entry,
                exit: b.exit,
                deflections: b.deflections(),
            })
            .collect();
        return print_json(&rows);
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Baffle box {size}, {} mirror{} ({}):",
        layout.count(),
        if layout.count() == 1 { "" } else { "s" },
        describe(&setup, true)
    )?;
    write!(out, "{}", layout_text(&layout))?;
    writeln!(out)?;
    writeln!(out, "hole  exit  deflections  turns at")?;
    for b in &beams {
        let turns: Vec<String> = b
            .turns()
            .map(|s| {
                format!(
                    "{}{}",
                    s.cell,
                    layout.get(s.cell).map_or(' ', |m| m.symbol())
                )
            })
            .collect();
        let line = format!(
            "{:>4}  {:>4}  {:>11}  {}",
            b.entry,
            b.exit,
            b.deflections(),
            turns.join(" ")
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
