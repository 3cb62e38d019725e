//! `parlor baffle solve`: what a set of shots proves.

use crate::common::print_json;
use anyhow::{Context, Result, bail};
use baffle::solve::{Method, Solution, SolveError, SolveOptions, solve_within};
use baffle::text::box_text;
use baffle::{Cell, Evidence, Mirror, Placed, Sides, Size};
use clap::Args;
use std::collections::HashSet;
use std::io::Write;

/// Arguments of `parlor baffle solve`.
#[derive(Args, Debug)]
#[command(
    after_help = "Shots are ENTRY:EXIT pairs (7:22, also 7->22), separated by spaces or
commas. Found mirrors and wrong guesses are ROW,COL,MIRROR (4,2,/ or <4,2>=/).

The box printed marks each cell: / or \\ certainly that mirror, . certainly
empty, x reached by no shot in any consistent layout, ? undecided.

On a terminal a spinner shows while the solver works (the largest boxes
take seconds); Ctrl-C stops it, with no answer: a search cut short proves
nothing.

Examples:
  parlor baffle solve --shots \"7:22 5:12 1:24\"
  parlor baffle solve --shots \"3:39 10:26\" --found 4,2,/ --wrong 0,0,/
  parlor baffle solve --shots \"0:29 1:24\" --sides left-top --json
  parlor baffle solve --size 6 --mirrors 3 --shots \"2:19\""
)]
pub struct SolveArgs {
    /// The shots seen: "ENTRY:EXIT ENTRY:EXIT ...".
    #[arg(long, default_value = "", value_name = "SHOTS")]
    shots: String,
    /// Box size n, 4 to 26.
    #[arg(long, short = 'n', default_value_t = 10, value_name = "N")]
    size: usize,
    /// Mirrors k, 1 to n²/2.
    #[arg(long, short = 'k', default_value_t = 5, value_name = "K")]
    mirrors: usize,
    /// Which sides beams may be shot from.
    #[arg(long, default_value = "all", value_name = "all|left-top")]
    sides: Sides,
    /// A mirror found (guessed right); repeat for more.
    #[arg(long, value_name = "ROW,COL,MIRROR")]
    found: Vec<String>,
    /// A wrong guess (the cell does not hold that mirror); repeat for more.
    #[arg(long, value_name = "ROW,COL,MIRROR")]
    wrong: Vec<String>,
    /// Advise the next shot exactly while the layouts number at most this.
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    exact_limit: u64,
    /// Steps the exact count may take before the answer is estimated by
    /// sampling instead (a hint in a game uses the default; more finds
    /// exact counts of larger cases, slower); the exact advice gets as many
    /// when that is more than its own.
    #[arg(long, default_value_t = SolveOptions::default().step_limit, value_name = "N")]
    count_steps: u64,
    /// Layouts to sample above that.
    #[arg(long, default_value_t = 4000, value_name = "N")]
    samples: usize,
    /// Seed of the sample.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON (layouts as a decimal string).
    #[arg(long)]
    json: bool,
}

/// Reads `7:22 5:12`, `7->22,5->12`.
fn parse_shots(text: &str) -> Result<Vec<(usize, usize)>> {
    let separator = |c: char| c.is_whitespace() || c == ',' || c == ';';
    if !text.trim().is_empty() && text.split(separator).all(str::is_empty) {
        bail!("--shots '{text}' holds no shot: write ENTRY:EXIT, for example 7:22");
    }
    text.split(separator)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (a, b) = t
                .split_once("->")
                .or_else(|| t.split_once(':'))
                .or_else(|| t.split_once('>'))
                .with_context(|| {
                    format!("'{t}' is not a shot: write ENTRY:EXIT, for example 7:22")
                })?;
            let hole = |s: &str| {
                s.trim()
                    .parse::<usize>()
                    .with_context(|| format!("'{t}' is not a shot: '{s}' is not a hole number"))
            };
            Ok((hole(a)?, hole(b)?))
        })
        .collect()
}

fn parse_placed(items: &[String], what: &str) -> Result<Vec<Placed>> {
    items
        .iter()
        .map(|t| {
            t.parse::<Placed>()
                .with_context(|| format!("--{what} {t}: write ROW,COL,MIRROR, for example 4,2,/"))
        })
        .collect()
}

/// Solves.
pub fn run(args: &SolveArgs) -> Result<()> {
    let evidence = Evidence {
        size: args.size,
        mirrors: args.mirrors,
        sides: args.sides,
        shots: parse_shots(&args.shots)?,
        found: parse_placed(&args.found, "found")?,
        not: parse_placed(&args.wrong, "wrong")?,
    };
    let options = SolveOptions {
        exact_limit: args.exact_limit,
        samples: args.samples,
        seed: args.seed,
        step_limit: args.count_steps,
        advice_steps: args.count_steps.max(SolveOptions::default().advice_steps),
        ..SolveOptions::default()
    };
    // On a terminal a spinner while it works (the largest boxes take a few
    // seconds); Ctrl-C withdraws the question: a search cut short is no
    // answer.
    let (budget, canceller) = tabletop::Budget::cancellable();
    crate::progress::on_ctrl_c(move || canceller.cancel());
    let bar = crate::progress::bar(
        0,
        "{spinner} solving, {elapsed} so far (Ctrl-C stops: a search cut short gives no answer)",
        args.json,
    );
    let solution = crate::progress::follow_with(
        &bar,
        |bar| bar.tick(),
        || solve_within(&evidence, &options, &budget),
    );
    let solution = match solution {
        Err(SolveError::Stopped(_)) => bail!("stopped (Ctrl-C) before the solver had an answer"),
        other => other?,
    };
    if args.json {
        return print_json(&solution);
    }
    print_text(&evidence, &solution)
}

fn cells_text(cells: &[Cell]) -> String {
    if cells.is_empty() {
        "none".to_string()
    } else {
        cells
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn big(n: &baffle::solve::BigUint) -> String {
    let s = n.to_string();
    if s.len() <= 15 {
        return s;
    }
    format!("{s} (about {}.{}e{})", &s[..1], &s[1..4], s.len() - 1)
}

fn print_text(ev: &Evidence, s: &Solution) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let n = ev.size;
    let shots: Vec<String> = ev.shots.iter().map(|(h, e)| format!("{h}:{e}")).collect();
    writeln!(
        out,
        "Baffle {n}×{n}, {}, beams from {}; {} shot{}{}{}",
        tabletop::count(ev.mirrors as u64, "mirror", "mirrors"),
        match ev.sides {
            Sides::All => "all sides",
            Sides::LeftTop => "the left and top",
        },
        shots.len(),
        if shots.len() == 1 { "" } else { "s" },
        if shots.is_empty() { "" } else { ": " },
        shots.join(" ")
    )?;
    for (label, list) in [("Found", &ev.found), ("Wrong guesses", &ev.not)] {
        if !list.is_empty() {
            let t: Vec<String> = list.iter().map(ToString::to_string).collect();
            writeln!(out, "{label}: {}", t.join(" "))?;
        }
    }
    let Some(layouts) = &s.layouts else {
        writeln!(
            out,
            "Consistent layouts: too many to count within the budget; odds {}",
            s.method
        )?;
        return print_odds(&mut out, n, s);
    };
    if *layouts == 0u32.into() {
        writeln!(out, "{}", s.advice)?;
        // What contradicts what, when the solver could tell.
        if let Some(why) = &s.contradiction {
            writeln!(out, "Why: {why}.")?;
        }
        return Ok(());
    }
    writeln!(out, "Consistent layouts: {} ({})", big(layouts), s.method)?;
    print_odds(&mut out, n, s)
}

/// The proven cells, the box and the advice.
fn print_odds(out: &mut impl Write, n: usize, s: &Solution) -> Result<()> {
    let (proven, how) = if s.method.counted() {
        ("Certain", "")
    } else {
        ("Certain", " (proven by the SAT solver within its budget)")
    };
    let mirrors: Vec<String> = s.certain_mirrors.iter().map(ToString::to_string).collect();
    writeln!(
        out,
        "{proven} mirrors{how}: {}",
        if mirrors.is_empty() {
            "none".to_string()
        } else {
            mirrors.join(" ")
        }
    )?;
    writeln!(
        out,
        "{proven} empty{how}: {}",
        tabletop::count(s.certain_empty.len() as u64, "cell", "cells")
    )?;
    let unreachable_how = match s.method {
        Method::Exact => "",
        _ => " (estimated from the sampled layouts)",
    };
    writeln!(
        out,
        "Unreachable by any shot{unreachable_how}: {}",
        cells_text(&s.unreachable)
    )?;
    let size = Size::new(n)?;
    let certain: HashSet<Placed> = s.certain_mirrors.iter().copied().collect();
    let empty: HashSet<Cell> = s.certain_empty.iter().copied().collect();
    let hidden: HashSet<Cell> = s.unreachable.iter().copied().collect();
    let mark = |c: Cell| {
        for m in [Mirror::Slash, Mirror::Backslash] {
            if certain.contains(&Placed::new(c, m)) {
                return m.symbol();
            }
        }
        if empty.contains(&c) {
            '.'
        } else if hidden.contains(&c) {
            'x'
        } else {
            '?'
        }
    };
    write!(out, "{}", box_text(size, mark))?;
    writeln!(out, "{}", likeliest_text(s))?;
    if let Some(best) = &s.best_next_shot {
        let exits: Vec<String> = best
            .exits
            .iter()
            .take(6)
            .map(|e| format!("{} ({:.1}%)", e.exit, 100.0 * e.share))
            .collect();
        writeln!(
            out,
            "Best next shot {}: it leaves by {}{}",
            best.hole,
            exits.join(", "),
            if best.exits.len() > 6 { ", ..." } else { "" }
        )?;
    }
    writeln!(out, "Advice: {}", s.advice)?;
    Ok(())
}

/// The five likeliest mirrors not proven, with their chances: exact
/// shares when counted, else estimated and calibrated.
fn likeliest_text(s: &Solution) -> String {
    let mut open: Vec<(Placed, f64)> = s
        .cells
        .iter()
        .filter(|c| !c.proven)
        .flat_map(|c| {
            [
                (Placed::new(c.cell, Mirror::Slash), c.slash),
                (Placed::new(c.cell, Mirror::Backslash), c.backslash),
            ]
        })
        .filter(|&(_, chance)| chance > 0.0)
        .collect();
    open.sort_by(|a, b| b.1.total_cmp(&a.1));
    if open.is_empty() {
        return "Likeliest mirrors not proven: none (every cell is proven)".to_string();
    }
    let items: Vec<String> = open
        .iter()
        .take(5)
        .map(|(p, chance)| format!("{p} {:.0}%", 100.0 * chance))
        .collect();
    format!(
        "Likeliest mirrors not proven ({}): {}",
        match s.method {
            Method::Estimated {
                calibrated: true, ..
            } => "estimated chances, calibrated against measured outcomes",
            Method::Estimated { .. } => "estimated chances",
            _ => "exact chances",
        },
        items.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shots_parse() {
        assert_eq!(parse_shots("7:22 5:12").unwrap(), vec![(7, 22), (5, 12)]);
        assert_eq!(parse_shots("7->22,5->12").unwrap(), vec![(7, 22), (5, 12)]);
        assert_eq!(parse_shots("").unwrap(), vec![]);
        for separators in [";", " , ", ";;"] {
            let e = parse_shots(separators).unwrap_err().to_string();
            assert!(e.contains("holds no shot"), "{e}");
        }
        assert!(
            parse_shots("7")
                .unwrap_err()
                .to_string()
                .contains("ENTRY:EXIT")
        );
        assert!(parse_shots("7:x").is_err());
    }
}
