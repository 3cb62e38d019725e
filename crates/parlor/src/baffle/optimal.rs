//! `parlor baffle optimal`: the best possible play on a small box, worked
//! out exactly, beside the bot's.

use crate::common::print_json;
use anyhow::Result;
use baffle::Sides;
use baffle::bot::BotOptions;
use baffle::optimal::{Watch, expected_scores_watched};
use clap::Args;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Arguments of `parlor baffle optimal`.
#[derive(Args, Debug)]
#[command(
    after_help = "Every layout of the box is equally likely. The optimal strategy's expected
score is an expectimax over what a player can see (the layouts that agree
with every shot and guess so far): shoot a hole (+1) or guess a mirror
(+2 when wrong), whichever costs least on average from there on. The bot's
expected score is its score averaged over every layout. Up to 20,000
layouts (5×5 with 3 mirrors has 18,400; that takes minutes). On a terminal
a bar counts the first moves weighed; Ctrl-C stops with the best first move
weighed so far, whose expected score bounds the optimum from above.

Examples:
  parlor baffle optimal --size 4 --mirrors 2
  parlor baffle optimal --size 5 --mirrors 1 --sides left-top --json"
)]
pub struct OptimalArgs {
    /// Box size n (4 or 5 in practice).
    #[arg(long, short = 'n', default_value_t = 4, value_name = "N")]
    size: usize,
    /// Mirrors k.
    #[arg(long, short = 'k', default_value_t = 1, value_name = "K")]
    mirrors: usize,
    /// Which sides beams may be shot from.
    #[arg(long, default_value = "all", value_name = "all|left-top")]
    sides: Sides,
    /// Leave out the bot's expected score (faster).
    #[arg(long)]
    no_bot: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Works it out, with a bar of the first moves weighed on a terminal; the
/// first Ctrl-C stops with the best first move weighed so far.
pub fn run(args: &OptimalArgs) -> Result<()> {
    let bot = BotOptions::default();
    let watch = Arc::new(Watch::default());
    let stopper = Arc::clone(&watch);
    crate::progress::on_ctrl_c(move || stopper.stop.store(true, Ordering::SeqCst));
    let bar = crate::progress::bar(
        0,
        "weighing first moves {bar:40} {pos}/{len}, {elapsed} so far \
         (Ctrl-C stops with the best first move so far)",
        args.json,
    );
    let scores = crate::progress::follow_with(
        &bar,
        |bar| {
            bar.set_length(watch.total.load(Ordering::Relaxed));
            bar.set_position(watch.done.load(Ordering::Relaxed));
        },
        || {
            expected_scores_watched(
                args.size,
                args.mirrors,
                args.sides,
                (!args.no_bot).then_some(&bot),
                &watch,
            )
        },
    )?;
    if args.json {
        return print_json(&scores);
    }
    let mut out = std::io::stdout().lock();
    let n = scores.size;
    writeln!(
        out,
        "Baffle {n}×{n}, {}, beams from {}: {} layouts, all equally likely.",
        tabletop::count(scores.mirrors as u64, "mirror", "mirrors"),
        match scores.sides {
            Sides::All => "all four sides",
            Sides::LeftTop => "the left and top",
        },
        scores.layouts
    )?;
    if scores.stopped {
        let best = match scores.first_move {
            Some(first) => format!(
                "the best first move weighed, {first}, expects {:.4}: the optimum is at most that",
                scores.optimal
            ),
            None => "no first move was weighed to the end".to_string(),
        };
        writeln!(
            out,
            "Stopped (Ctrl-C) after {} information sets: {best}.",
            scores.states
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "Optimal expected score: {:.4} (exact; {} information sets weighed){}",
        scores.optimal,
        scores.states,
        scores
            .first_move
            .map(|m| format!("; first move: {m}"))
            .unwrap_or_default()
    )?;
    if let Some(bot) = scores.bot {
        writeln!(
            out,
            "The bot's expected score: {bot:.4} ({:+.4} above optimal)",
            bot - scores.optimal
        )?;
    }
    Ok(())
}
