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
//! - **explain** (`--explain`, for a game that knows each seat's chance to
//!   win from any position: exact in Chutes & Ladders, estimated by the
//!   bots' playouts with a 95% interval in Tycoon): the chances after each
//!   move, the biggest **swings** (how much a move changed its mover's
//!   chance) and each player's **luck**: the sum of the swings of their own
//!   moves, which on average is zero. For a game with a look back of its
//!   own shots instead (Baffle), each box's shots: the layouts left after
//!   each beside what the best possible shot would have left
//!   ([`games::AnyMatch::shots_look_back_words`]).

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use tabletop::Code;
use tabletop::play::{Chances, DiceMode, SeatKind, Status, Viewer};

/// Arguments of `parlor replay`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor replay chutes-9f0c1a2b.json        every move of a downloaded match
  parlor replay game.json --step            one move per Enter (q stops)
  parlor replay game.json --to 10           the first 10 moves
  parlor replay game.json --json            each move as JSON, one per line
  parlor replay game.json --explain         the chances after each move, the swings and the luck

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
    /// Also each player's chance to win after every move, the biggest
    /// swings and each player's luck (games that know their chances).
    #[arg(long, conflicts_with = "json")]
    explain: bool,
}

/// Replays the record `args.file` names, of any game of `games` (the
/// shipped registry: `games::Registry::standard()`).
///
/// # Errors
/// When the file cannot be read, is not a record, or a move does not
/// replay (with its number and why).
pub fn run(games: &games::Registry, args: &ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let value: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not JSON", args.file.display()))?;
    value
        .get("game")
        .and_then(Value::as_str)
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
    replay(games, value, args, &mut input, &mut out)
}

/// Replays a record of any game of the registry, move by move.
fn replay(
    games: &games::Registry,
    mut value: Value,
    args: &ReplayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    // The record's moves, in their text form; the match starts from the
    // record without them and plays them one by one.
    let moves: Vec<String> = match value.get_mut("moves").map(Value::take) {
        Some(Value::Array(entries)) => entries
            .into_iter()
            .map(|e| match e {
                Value::String(text) => Ok(text),
                other => Err(anyhow::anyhow!(
                    "the record does not read: a move is text, not {other}"
                )),
            })
            .collect::<Result<_>>()?,
        None | Some(Value::Null) => Vec::new(),
        Some(other) => bail!("the record does not read: \"moves\" is a list, not {other}"),
    };
    let dice: Option<DiceMode> = value
        .get("dice")
        .and_then(|d| serde_json::from_value(d.clone()).ok());
    value["moves"] = Value::Array(Vec::new());
    let mut m = games
        .start_from_record(value)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let total = moves.len();
    let start = m.chances();
    let own_look_back = !matches!(
        m.shots_look_back(Viewer::Spectator, None),
        Err(refused) if refused.code == Code::WrongGame
    );
    if args.explain && start.is_none() && !own_look_back {
        bail!(
            "{} does not know each player's chance to win, so --explain has nothing to say",
            m.game_title()
        );
    }
    // Names are checked when given (no control character), so they print
    // as they are.
    let names = m.names();
    if !args.json {
        writeln!(
            out,
            "A {} match: {}, {}.",
            m.game(),
            seats_in_words(&m.seats()),
            tabletop::count(total as u64, "move", "moves")
        )?;
    }
    if args.explain
        && let Some(c) = &start
    {
        if let Some(n) = c.playouts {
            writeln!(
                out,
                "       (Estimates: from each position the default bot plays every seat to the end, {n} times; in brackets, the 95% interval.)"
            )?;
        }
    }
    let mut luck = Luck::new(start.map(|c| c.each).unwrap_or_default());
    let last = args.to.unwrap_or(total).min(total);
    for (index, entry) in moves.iter().take(last).enumerate() {
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
            let line = serde_json::json!({
                "number": played.number,
                "seat": played.seat,
                "bot": played.bot,
                "move": played.mv,
                "roll": played.roll,
                "events": played.events,
            });
            writeln!(out, "{line}")?;
            continue;
        }
        let name = names
            .get(usize::from(played.seat).wrapping_sub(1))
            .map_or("", String::as_str);
        // A move a bot chose for a person's seat (Baffle's Bot move) says so.
        let person = m
            .seats()
            .get(usize::from(played.seat).wrapping_sub(1))
            .is_some_and(|kind| !kind.is_bot());
        let chosen = if played.bot && person {
            " (the bot's choice)"
        } else {
            ""
        };
        writeln!(out, "{:>5}. {name}: {}{chosen}", played.number, played.mv)?;
        let words = played.words();
        for text in &words {
            writeln!(out, "       {text}")?;
        }
        if args.explain
            && let Some(after) = m.chances()
        {
            writeln!(out, "       Chances: {}", chances_words(&names, &after))?;
            luck.note(played.number, played.seat, words.join("; "), after.each);
        }
    }
    if args.explain {
        match m.shots_look_back_words(&names) {
            Some(lines) => {
                for line in lines {
                    writeln!(out, "{line}")?;
                }
            }
            None => luck.say(&names, out)?,
        }
    }
    if !args.json {
        let status = m.status();
        let end = match &status {
            Status::Playing if m.moves() < total => {
                format!("Stopped after move {} of {total}.", m.moves())
            }
            Status::Playing => "The record ends with the game still on.".to_string(),
            _ => match m.outcome(&[]) {
                Some(said) => format!("{}.", said.words),
                None => "The game is over.".to_string(),
            },
        };
        writeln!(out, "{end}")?;
        if let (true, Some(DiceMode::Seeded { seed })) = (status.is_over(), dice) {
            writeln!(out, "Its dice were seeded with {seed}.")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// "2 seats: person, hard bot".
fn seats_in_words(seats: &[SeatKind]) -> String {
    let kinds: Vec<String> = seats.iter().map(ToString::to_string).collect();
    format!(
        "{}: {}",
        tabletop::count(kinds.len() as u64, "seat", "seats"),
        kinds.join(", ")
    )
}

/// Each player's chances as words: "Ada 55.1% · Bo 44.9%" when exact,
/// "Ada about 55.1% (52.0–58.2%) · …" when estimated.
fn chances_words(names: &[String], chances: &Chances) -> String {
    chances
        .each
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let name = names.get(i).map_or("?", String::as_str);
            match chances.interval.as_ref().and_then(|all| all.get(i)) {
                Some(band) => format!(
                    "{name} about {:.1}% ({:.1}–{:.1}%)",
                    p * 100.0,
                    band.low * 100.0,
                    band.high * 100.0
                ),
                None => format!("{name} {:.1}%", p * 100.0),
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The swings of a game's moves and each player's luck, as the replay
/// goes.
struct Luck {
    /// The chances before the next move.
    before: Vec<f64>,
    /// Each move's swing: (move number, seat, its words, the change in
    /// its mover's chance).
    swings: Vec<(usize, u8, String, f64)>,
    /// The sum of each seat's own swings.
    luck: Vec<f64>,
}

impl Luck {
    fn new(start: Vec<f64>) -> Self {
        Self {
            luck: vec![0.0; start.len()],
            before: start,
            swings: Vec::new(),
        }
    }

    fn note(&mut self, number: usize, seat: u8, words: String, after: Vec<f64>) {
        let i = usize::from(seat).wrapping_sub(1);
        if let (Some(a), Some(b)) = (after.get(i), self.before.get(i)) {
            let swing = a - b;
            self.luck[i] += swing;
            self.swings.push((number, seat, words, swing));
        }
        self.before = after;
    }

    fn say(&mut self, names: &[String], out: &mut dyn Write) -> Result<()> {
        let name = |seat: u8| {
            names
                .get(usize::from(seat).wrapping_sub(1))
                .map_or("?", String::as_str)
        };
        self.swings
            .sort_by(|a, b| b.3.abs().total_cmp(&a.3.abs()).then(a.0.cmp(&b.0)));
        writeln!(
            out,
            "Biggest swings (the change in the mover's chance to win):"
        )?;
        for (number, seat, words, swing) in self.swings.iter().take(3) {
            writeln!(
                out,
                "  move {number}, {}: {:+.1}% ({words})",
                name(*seat),
                swing * 100.0
            )?;
        }
        writeln!(
            out,
            "Luck (the sum of each player's own swings; 0 on average):"
        )?;
        for (i, luck) in self.luck.iter().enumerate() {
            writeln!(out, "  {}: {:+.1}%", name(i as u8 + 1), luck * 100.0)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nim::{Nim, Setup, Take};
    use tabletop::play::{Match, Request};

    /// A game the shipped registry does not hold (the tests' Nim) is
    /// replayed by the same command once its registry line is added: the
    /// command reads every game through the registry it is given.
    #[test]
    fn a_game_added_to_the_registry_is_replayed_by_parlor_replay() {
        let seats = vec![SeatKind::Person, SeatKind::Person];
        let mut m = Match::<Nim>::start(
            Setup { pile: 5, most: 3 },
            seats,
            DiceMode::Seeded { seed: 9 },
        )
        .expect("a game of Nim");
        m.set_name(1, Some("Ada")).expect("a name");
        m.set_name(2, Some("Bo")).expect("a name");
        for (seat, n) in [(1, 2), (2, 3)] {
            let request = Request::new(Take(n));
            m.play(seat, request).expect("a take");
        }
        let record = serde_json::to_value(m.record()).expect("a record");
        let args = ReplayArgs {
            file: PathBuf::from("nim.json"),
            step: false,
            to: None,
            json: false,
            explain: false,
        };
        let mut out = Vec::new();
        let shipped = games::Registry::standard();
        let refused = replay(
            &shipped,
            record.clone(),
            &args,
            &mut std::io::empty(),
            &mut out,
        )
        .expect_err("the shipped registry has no Nim");
        assert!(refused.to_string().contains("nim"), "{refused}");

        let mut out = Vec::new();
        let with_nim = games::Registry::standard().with(&nim::NIM);
        replay(&with_nim, record, &args, &mut std::io::empty(), &mut out).expect("replayed");
        let text = String::from_utf8(out).expect("text");
        assert!(text.starts_with("A nim match: "), "{text}");
        assert!(text.contains("Ada takes 2: 3 left"), "{text}");
        assert!(text.contains("Bo takes 3: 0 left"), "{text}");
        assert!(text.contains("Bo wins"), "{text}");
    }
}
