//! `parlor replay`: step through a finished match's record, move by move.
//!
//! Terms:
//! - **record**: a match's setup, seats, dice and moves — what `play --save`
//!   writes and the browser's "Download the record" gives (`GET
//!   /api/matches/{id}/record`). Its `game` says which game it is.
//! - **step**: one move, replayed by the game's library and printed with
//!   its events in words.
//! - **pause**: with `--step`, the replay waits for Enter before each move
//!   (`q` stops it).

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use tabletop::play::{Match, Playable, Record, Status};

/// Arguments of `parlor replay`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor replay chutes-9f0c1a2b.json        every move of a downloaded match
  parlor replay game.json --step            one move per Enter (q stops)
  parlor replay game.json --to 10           the first 10 moves
  parlor replay game.json --json            each move as JSON, one per line

A record is what `parlor baffle|tycoon play --save FILE` writes and
what a finished game's page offers as \"Download the record\".")]
pub struct ReplayArgs {
    /// The record (JSON).
    #[arg(value_name = "RECORD")]
    file: PathBuf,
    /// Wait for Enter before each move (q then Enter stops).
    #[arg(long)]
    step: bool,
    /// Stop after this many moves.
    #[arg(long, value_name = "N")]
    to: Option<usize>,
    /// Print each move as a JSON line (the API's `played` form).
    #[arg(long, conflicts_with = "step")]
    json: bool,
}

/// Replays the record `args.file` names.
///
/// # Errors
/// When the file cannot be read, is not a record, or a move does not
/// replay (with its number and why).
pub fn run(args: &ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let value: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not JSON", args.file.display()))?;
    let game = value
        .get("game")
        .and_then(Value::as_str)
        .map(str::to_string)
        .with_context(|| {
            format!(
                "{} is not a match record: it has no \"game\" (an older save? `parlor … play --resume` reads those)",
                args.file.display()
            )
        })?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match game.as_str() {
        "chutes" => replay::<chutes::contract::Table>(value, args, &mut input, &mut out),
        "baffle" => replay::<baffle::Game>(value, args, &mut input, &mut out),
        "tycoon" => replay::<tycoon::Game>(value, args, &mut input, &mut out),
        other => bail!("'{other}' is not a game of this Parlor (chutes, baffle or tycoon)"),
    }
}

fn replay<G: Playable>(
    value: Value,
    args: &ReplayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let record: Record<G::Setup, G::Move> =
        serde_json::from_value(value).context("the record does not read")?;
    let total = record.moves.len();
    let mut start = record.clone();
    start.moves.clear();
    let mut m = Match::<G>::replay(start)?;
    if !args.json {
        writeln!(
            out,
            "A {} match: {}, {}.",
            G::NAME,
            seats_in_words(&m),
            tabletop::count(total as u64, "move", "moves")
        )?;
    }
    let last = args.to.unwrap_or(total).min(total);
    for (index, entry) in record.moves.into_iter().take(last).enumerate() {
        if args.step {
            write!(out, "[Enter: move {} of {total}; q: stop] ", index + 1)?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 || line.trim().eq_ignore_ascii_case("q") {
                writeln!(out)?;
                break;
            }
        }
        let played = m.apply_entry(entry).map_err(|why| {
            anyhow::anyhow!("move #{} of the record is refused: {why}", index + 1)
        })?;
        if args.json {
            let events: Vec<Value> = played
                .events
                .iter()
                .map(|e| {
                    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
                    if let Value::Object(fields) = &mut v {
                        fields.insert("text".into(), e.to_string().into());
                    }
                    v
                })
                .collect();
            let line = serde_json::json!({
                "number": played.number,
                "seat": played.seat,
                "bot": played.bot,
                "move": played.mv.to_string(),
                "roll": played.roll,
                "events": events,
            });
            writeln!(out, "{line}")?;
            continue;
        }
        let who = if played.bot { "bot" } else { "person" };
        writeln!(
            out,
            "{:>5}. seat {} ({who}): {}",
            played.number, played.seat, played.mv
        )?;
        for event in &played.events {
            writeln!(out, "       {event}")?;
        }
    }
    if !args.json {
        let status = m.status();
        let end = match &status {
            Status::Playing if m.moves() < total => {
                format!("Stopped after move {} of {total}.", m.moves())
            }
            Status::Playing => "The record ends with the game still on.".to_string(),
            Status::Won { winner } => format!("Seat {winner} won."),
            Status::GivenUp => "The player gave up.".to_string(),
            Status::Stalled { reason } => format!("The game stalled: {reason}."),
        };
        writeln!(out, "{end}")?;
        if let (true, tabletop::play::DiceMode::Seeded { seed }) = (status.is_over(), record.dice) {
            writeln!(out, "Its dice were seeded with {seed}.")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// "2 seats: person, hard bot".
fn seats_in_words<G: Playable>(m: &Match<G>) -> String {
    let kinds: Vec<String> = m.seats().iter().map(ToString::to_string).collect();
    format!(
        "{}: {}",
        tabletop::count(kinds.len() as u64, "seat", "seats"),
        kinds.join(", ")
    )
}
