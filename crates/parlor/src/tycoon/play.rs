//! `parlor tycoon play`: one four-player game, bots and people.

use crate::common::{print_json, seed_or_fresh};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use tabletop::{DiceError, count, parse_rolls, plural};
use tycoon::bots::bot_move;
use tycoon::game::{DEFAULT_TURN_CAP, Dialogue, Dice, MOVE_FORMS, PlayerView, SEATS, StationOwner};
use tycoon::{Event, Game, GameError, Move, Seat};

/// Arguments of `parlor tycoon play`.
#[derive(Args, Debug)]
#[command(
    after_help = "Seats: human, or a bot level: easy (a legal move at random; also
`random`), normal (the default bot; also `bot`), hard (the search bot), in
seat order; one name fills all four. People answer at the terminal (or a script on
stdin), one answer a line. A recharge turn asks \"Do you wish to launch a special
attack instead of recharging? y/n\", then the kind and the player; otherwise
answer roll, buy, pass, pay or stay. A move's own text (recharge, attack ice 2,
attack lightning) answers any question; `help` lists the legal moves, `quit`
stops (and saves with --save).

Examples:
  parlor tycoon play sample                         four bots, a fresh seed
  parlor tycoon play my.grid --seats human,hard,normal,easy --seed 7
  parlor tycoon play sample --seed 3 --json
  parlor tycoon play sample --seats human,human,bot,bot --save game.json
  parlor tycoon play --resume game.json"
)]
pub struct PlayArgs {
    /// The grid: a file or `sample` (not needed with --resume).
    #[arg(value_name = "GRID", required_unless_present = "resume")]
    grid: Option<String>,
    /// Who plays seats 1-4: human, easy, normal or hard, comma-separated.
    #[arg(long, value_name = "SEATS")]
    seats: Option<String>,
    /// Seed for the dice (and the bots): the same seed replays the game.
    #[arg(long, short = 's', conflicts_with = "dice")]
    seed: Option<u64>,
    /// The rolls to use, in order: `1,3,6`, `1 3 6` or `136`.
    #[arg(long, short = 'd', value_name = "ROLLS")]
    dice: Option<String>,
    /// Print the whole game as one JSON document.
    #[arg(long)]
    json: bool,
    /// Write the game (JSON) here when it stops, to resume later.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Resume a saved game.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "seats", "seed", "dice"])]
    resume: Option<PathBuf>,
    /// Stop with no winner after this many turns in all.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
}

/// How the run ended.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Ending {
    Won,
    Stalled,
    DiceRanOut,
    Quit,
    InputEnded,
}

#[derive(Serialize)]
struct MoveRecord {
    player: u8,
    #[serde(rename = "move")]
    mv: String,
    events: Vec<Event>,
}

#[derive(Serialize)]
struct Report<'a> {
    grid: &'a str,
    seed: Option<u64>,
    seats: [Seat; SEATS],
    ending: Ending,
    winner: Option<u8>,
    turns: u32,
    rolls: u64,
    players: Vec<PlayerView>,
    stations: Vec<StationOwner>,
    moves: &'a [MoveRecord],
}

fn parse_seats(text: &str) -> Result<[Seat; SEATS]> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    let seats: Vec<Seat> = names
        .iter()
        .map(|n| n.parse::<Seat>().map_err(anyhow::Error::msg))
        .collect::<Result<_>>()?;
    match seats.len() {
        1 => Ok([seats[0]; SEATS]),
        SEATS => Ok([seats[0], seats[1], seats[2], seats[3]]),
        n => bail!("--seats names {n} seats; give 4 (or one for all): e.g. human,hard,normal,easy"),
    }
}

/// Plays the game.
pub fn run(args: &PlayArgs) -> Result<()> {
    let (mut game, grid_name) = match &args.resume {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read saved game {}", path.display()))?;
            let game = Game::from_json(&text).with_context(|| path.display().to_string())?;
            (game, path.display().to_string())
        }
        None => {
            let name = args.grid.clone().unwrap_or_else(|| "sample".into());
            let grid = Arc::new(super::load_grid(&name)?);
            let seats = parse_seats(args.seats.as_deref().unwrap_or("bot"))?;
            let dice = match &args.dice {
                Some(text) => Dice::scripted(parse_rolls(text)?),
                None => Dice::seeded(seed_or_fresh(args.seed)),
            };
            let game = Game::new(grid, seats, dice).with_turn_cap(args.turn_cap);
            (game, name)
        }
    };
    let bot_seed = game.dice().seed().unwrap_or(0);
    let has_human = game.seats().contains(&Seat::Human);
    let stream = has_human && !args.json;
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut records: Vec<MoveRecord> = Vec::new();
    if !args.json {
        let seats: Vec<String> = game.seats().iter().map(ToString::to_string).collect();
        let dice = match game.dice().seed() {
            Some(s) => format!("seed {s}"),
            None => "given dice".into(),
        };
        writeln!(
            out,
            "Snakes & Ladders Tycoon on {grid_name} ({}); seats {}; {dice}",
            game.grid(),
            seats.join(", ")
        )?;
    }
    let ending = loop {
        if game.is_over() {
            break if game.winner().is_some() {
                Ending::Won
            } else {
                Ending::Stalled
            };
        }
        let Some(player) = game.current() else {
            break Ending::Stalled;
        };
        let (mv, human) = match bot_move(&game, bot_seed) {
            Some(mv) => (mv, false),
            None => match ask(&game, &mut input)? {
                Answer::Move(mv) => (mv, true),
                Answer::Quit => break Ending::Quit,
                Answer::End => break Ending::InputEnded,
            },
        };
        match game.apply(mv) {
            Ok(events) => {
                if !args.json {
                    let text: Vec<String> = events.iter().map(ToString::to_string).collect();
                    writeln!(out, "{:>5}  {}", game.turns(), text.join("; "))?;
                    if stream {
                        out.flush()?;
                    }
                }
                records.push(MoveRecord {
                    player,
                    mv: mv.to_string(),
                    events,
                });
            }
            Err(GameError::Dice(DiceError::Exhausted { .. })) => break Ending::DiceRanOut,
            Err(e) if human => eprintln!("refused: {e}"),
            Err(e) => bail!("the bot for P{player} chose '{mv}', which was refused: {e}"),
        }
    };
    if let Some(path) = &args.save {
        let mut text = game.to_json();
        text.push('\n');
        tabletop::write_atomic(path, text.as_bytes())?;
        if !args.json {
            writeln!(out, "saved the game to {}", path.display())?;
        }
    }
    let view = game.view();
    let report = Report {
        grid: &grid_name,
        seed: game.dice().seed(),
        seats: game.seats(),
        ending,
        winner: game.winner(),
        turns: game.turns(),
        rolls: game.dice().used(),
        players: view.players,
        stations: view.owners,
        moves: &records,
    };
    if args.json {
        print_json(&report)?;
    } else {
        print_summary(&mut out, &report)?;
    }
    match ending {
        Ending::InputEnded => bail!(
            "the input ended while waiting for P{}{}",
            game.current().unwrap_or(0),
            if args.save.is_some() {
                " (the game was saved)"
            } else {
                ""
            }
        ),
        _ => Ok(()),
    }
}

enum Answer {
    Move(Move),
    Quit,
    End,
}

/// Asks the person in the current seat for a move, on stderr/stdin, in the
/// library's dialogue (the assignment's y/n attack question, then the kind
/// and the target).
fn ask(game: &Game, input: &mut impl BufRead) -> Result<Answer> {
    let Some(mut dialogue) = Dialogue::new(game) else {
        return Ok(Answer::End);
    };
    let status: Vec<String> = game
        .players()
        .iter()
        .enumerate()
        .map(|(i, p)| format!("P{} on {} with {} coins", i + 1, p.cell, p.coins))
        .collect();
    eprintln!("[{}]", status.join(" | "));
    loop {
        eprint!("{} > ", dialogue.question());
        std::io::stderr().flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            eprintln!();
            return Ok(Answer::End);
        }
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => return Ok(Answer::Quit),
            "help" | "?" => {
                let legal: Vec<String> =
                    game.legal_moves().iter().map(ToString::to_string).collect();
                eprintln!("legal now: {}", legal.join(", "));
                eprintln!("moves: {MOVE_FORMS}; quit stops");
                continue;
            }
            _ => {}
        }
        match dialogue.answer(text) {
            Ok(None) => {}
            Ok(Some(mv)) if game.legal_moves().contains(&mv) => return Ok(Answer::Move(mv)),
            Ok(Some(mv)) => {
                let mut probe = game.clone();
                match probe.apply(mv) {
                    Err(e) => eprintln!("refused: {e}"),
                    Ok(_) => return Ok(Answer::Move(mv)),
                }
            }
            Err(e) => eprintln!("{e}"),
        }
    }
}

fn print_summary(out: &mut impl Write, r: &Report<'_>) -> Result<()> {
    writeln!(out)?;
    let turns = count(r.turns.into(), "turn", "turns");
    match (r.ending, r.winner) {
        (Ending::Won, Some(w)) => writeln!(out, "P{w} wins after {turns} in all.")?,
        (Ending::Stalled, _) => writeln!(
            out,
            "Nobody won: the game stopped at the turn cap after {turns}."
        )?,
        (Ending::DiceRanOut, _) => writeln!(
            out,
            "The given dice ran out after {} ({turns}); nobody has won.",
            count(r.rolls, "roll", "rolls")
        )?,
        (Ending::Quit, _) => writeln!(out, "Stopped after {turns}.")?,
        _ => writeln!(out, "The input ended after {turns}.")?,
    }
    for p in &r.players {
        let stations = if p.stations.is_empty() {
            "none".to_string()
        } else {
            p.stations
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let attacks = if p.state.attacks.is_empty() {
            "none".to_string()
        } else {
            p.state
                .attacks
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(
            out,
            "  P{} ({}): cell {}, {} {}, {}, stations: {stations}, attacks: {attacks}",
            p.seat,
            p.kind,
            p.state.cell,
            p.state.coins,
            plural(p.state.coins.unsigned_abs(), "coin", "coins"),
            count(p.state.turns.into(), "turn", "turns")
        )?;
    }
    Ok(())
}
