//! `parlor chutes design`: a board made to targets (mean game length, its
//! spread, fair seats, a least shortest game). Glue only: the search and
//! its report are the library's (`chutes::analysis::design`,
//! `chutes::analysis::report::DesignReport`).
//!
//! Terms:
//! - **progress**: drawn on stderr only when stderr is a terminal.
//! - **interrupt**: Ctrl-C stops the search; the best board so far is
//!   reported and written.

use crate::common::{print_json, print_text, seed_or_fresh};
use anyhow::{Context, Result};
use chutes::analysis::design::{
    self, CountRange, DEFAULT_EVALUATIONS, DesignOptions, DesignShape, DesignTargets,
};
use chutes::analysis::report::DesignReport;
use chutes::{Overshoot, Rules};
use clap::Args;
use std::path::PathBuf;
use tabletop::Budget;

/// Arguments of `parlor chutes design`.
#[derive(Args, Debug)]
#[command(
    after_help = "Every candidate board is judged exactly (Markov chain). The same seed,
shape, rules and targets give the same board. Ctrl-C keeps the best board so far.

Examples:
  parlor chutes design --mean 30 --seed 1                 100 squares, 8 chutes and 8 ladders, 30 rolls on average
  parlor chutes design --chutes 8 --ladders 8 --mean 40 --players 4 --fair 0.012 --seed 1 --out fair.toml
  parlor chutes design --size 64 --chutes 4..6 --ladders 3..5 --sd 8 --shortest 5 --seed 2 --json"
)]
pub struct DesignArgs {
    /// The last square (tokens start off the board).
    #[arg(long, default_value_t = 100)]
    size: u32,
    /// How many chutes: a number or a range such as 6..10.
    #[arg(long, default_value = "8", value_name = "K|MIN..MAX")]
    chutes: CountRange,
    /// How many ladders: a number or a range such as 6..10.
    #[arg(long, default_value = "8", value_name = "K|MIN..MAX")]
    ladders: CountRange,
    /// The shortest jump, in squares.
    #[arg(long, default_value_t = 2)]
    min_jump: u32,
    /// The longest jump, in squares (default: the board's size less one).
    #[arg(long)]
    max_jump: Option<u32>,
    /// Allow a jump to end where another starts.
    #[arg(long)]
    chains: bool,
    /// What a roll that would pass the finish does.
    #[arg(long, default_value = "stay", value_name = "stay|bounce|finish")]
    rules: Overshoot,
    /// Faces of the die (1 to 64).
    #[arg(long, default_value_t = 6)]
    faces: u32,
    /// Target: one player's mean game length in rolls (met within 0.1).
    #[arg(long, value_name = "ROLLS")]
    mean: Option<f64>,
    /// Target: the standard deviation of the game length (met within 0.1).
    #[arg(long, value_name = "ROLLS")]
    sd: Option<f64>,
    /// Players whose seats are compared by --fair (1 to 8).
    #[arg(long, short = 'p', default_value_t = 1)]
    players: usize,
    /// Target: every seat's chance to win within D of 1/players.
    #[arg(long, value_name = "D")]
    fair: Option<f64>,
    /// Target: the fewest rolls a game can take is at least N.
    #[arg(long, value_name = "N")]
    shortest: Option<u32>,
    /// The seed of the search (a fresh one when absent; the report says it).
    #[arg(long)]
    seed: Option<u64>,
    /// The most candidate boards to judge.
    #[arg(long, default_value_t = DEFAULT_EVALUATIONS)]
    evaluations: u64,
    /// Write the board as a TOML board file here.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print the report as JSON (the board, the targets and the board's
    /// analysis).
    #[arg(long)]
    json: bool,
}

/// Runs `parlor chutes design`.
pub fn run(args: &DesignArgs) -> Result<()> {
    let rules = Rules::new(args.rules, args.faces)?;
    let shape = DesignShape {
        size: args.size,
        chutes: args.chutes,
        ladders: args.ladders,
        min_jump: args.min_jump,
        max_jump: args.max_jump.unwrap_or(args.size.saturating_sub(1)),
        chains: args.chains,
    };
    let targets = DesignTargets {
        mean: args.mean,
        sd: args.sd,
        players: args.players,
        fair: args.fair,
        shortest: args.shortest,
    };
    let options = DesignOptions {
        seed: seed_or_fresh(args.seed),
        evaluations: args.evaluations,
    };
    let (budget, canceller) = Budget::cancellable();
    // The first Ctrl-C stops the search (the best board is kept); a second
    // ends the process at once.
    crate::progress::on_ctrl_c(move || canceller.cancel());
    let bar = crate::progress::bar(
        options.evaluations,
        "designing {bar:40} {human_pos}/{human_len} boards, {msg}, {elapsed} (Ctrl-C keeps the best so far)",
        args.json,
    );
    let found = design::design(&shape, &rules, &targets, options, &budget, &mut |p| {
        bar.set_position(p.evaluations);
        bar.set_message(format!("best miss {:.3}", p.best_cost));
    });
    bar.finish_and_clear();
    let found = found?;
    let report = DesignReport::new(&found, &shape, &rules, options.seed, args.players)?;
    if let Some(path) = &args.out {
        tabletop::write_atomic(path, report.board_file.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        if !args.json {
            println!("Wrote the board to {}.", path.display());
        }
    }
    if args.json {
        print_json(&report)
    } else {
        print_text(&report)
    }
}
