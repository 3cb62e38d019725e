//! `parlor tycoon play`: one four-player game, bots and people, through the
//! match layer; `--save` writes the match's record, `--resume` replays one.

use crate::common::{print_json, seed_or_fresh};
use crate::play::{Command, Console, Ending, Table};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use tabletop::play::{DiceMode, Match, MatchError, PlayedOf, Record, SeatKind, Status};
use tabletop::{ScriptedDice, count, parse_rolls, plural};
use tycoon::contract::Setup;
use tycoon::game::{
    DEFAULT_TURN_CAP, Dialogue, MIN_SEATS, MOVE_FORMS, PlayerView, SEATS, StationOwner,
};
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

A save is the match's record: the grid, the seats, the dice and every move;
--resume replays it to carry on.

Examples:
  parlor tycoon play sample                         four bots, a fresh seed
  parlor tycoon play my.grid --seats human,hard,normal,easy --seed 7
  parlor tycoon play sample --seed 3 --json
  parlor tycoon play sample --seats human,human,bot,bot --save game.json
  parlor tycoon play sample --players 2 --seats human,hard   two players
  parlor tycoon play --resume game.json"
)]
pub struct PlayArgs {
    /// The grid: a file, or `sample` (the original assignment's sample grid).
    #[arg(value_name = "GRID", required_unless_present = "resume")]
    grid: Option<String>,
    /// Who plays seats 1-4: human, easy, normal or hard, comma-separated
    /// (default: four normal bots); one name for every seat.
    #[arg(long, value_name = "SEATS")]
    seats: Option<String>,
    /// Players in the game, 2 to 4 (default: as many as --seats names, else
    /// the original assignment's four).
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// Seed for the dice and the bots.
    #[arg(long, short = 's', conflicts_with = "dice")]
    seed: Option<u64>,
    /// The rolls to use, in order (`3,5,1` or `351`); the game stops when
    /// they run out.
    #[arg(long, short = 'd', value_name = "ROLLS")]
    dice: Option<String>,
    /// Print the whole game as one JSON document at the end.
    #[arg(long)]
    json: bool,
    /// Save the match's record here when the game stops (atomically).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Carry on the match whose record this file holds.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "seats", "players", "seed", "dice"])]
    resume: Option<PathBuf>,
    /// Stop with no winner after this many turns in all.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
}

/// How the game ended, in the JSON.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Ending2 {
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
    seats: &'a [Seat],
    ending: Ending2,
    winner: Option<u8>,
    turns: u32,
    rolls: u64,
    players: Vec<PlayerView>,
    stations: Vec<StationOwner>,
    moves: &'a [MoveRecord],
}

/// The seats `--seats` names, for `players` players (2 to 4) when given:
/// one name fills every seat; else as many players as names.
fn parse_seats(text: &str, players: Option<usize>) -> Result<Vec<SeatKind>> {
    if let Some(n) = players
        && !(MIN_SEATS..=SEATS).contains(&n)
    {
        bail!("--players {n}: a game of Tycoon has 2 to 4 players");
    }
    let seats: Vec<SeatKind> = text
        .split(',')
        .map(|n| {
            let seat = n.trim().parse::<Seat>().map_err(anyhow::Error::msg)?;
            Ok(seat
                .level()
                .map_or(SeatKind::Person, |level| SeatKind::Bot { level }))
        })
        .collect::<Result<_>>()?;
    match (seats.len(), players) {
        (1, n) => Ok(vec![seats[0]; n.unwrap_or(SEATS)]),
        (n, None) if (MIN_SEATS..=SEATS).contains(&n) => Ok(seats),
        (n, Some(wanted)) if n == wanted => Ok(seats),
        (n, Some(wanted)) => bail!(
            "--seats names {n} seats but --players is {wanted}: name {wanted} (or one for all)"
        ),
        (n, None) => bail!(
            "--seats names {n} seats; give 2 to 4 (or one for all): e.g. human,hard,normal,easy"
        ),
    }
}

/// Reads a saved match, telling an old snapshot save from a record.
pub(crate) fn load_record(path: &std::path::Path) -> Result<Match<Game>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read saved game {}", path.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a saved Tycoon game (not JSON)", path.display()))?;
    if value.get("players").is_some() && value.get("moves").is_some_and(|m| m.is_u64()) {
        bail!(
            "{} is a save from an older Parlor, which kept a snapshot of the table; saves are now \
             the match's record (every move), and a snapshot cannot be turned into one. Start a new \
             game with --save to keep it.",
            path.display()
        );
    }
    let record: Record<Setup, Move> = serde_json::from_value(value)
        .with_context(|| format!("{} is not a saved Tycoon game", path.display()))?;
    Match::replay(record).with_context(|| format!("{} cannot be replayed", path.display()))
}

/// The Tycoon table of the one play loop.
struct Tycoon {
    /// Print each move as it is played (not with --json).
    log: bool,
    /// The questions being asked of the person to move (the assignment's
    /// y/n attack question, then the kind and the target), and the move
    /// number they are about.
    dialogue: Option<(usize, Dialogue)>,
    /// Every move, for the JSON.
    moves: Vec<MoveRecord>,
}

impl Table<Game> for Tycoon {
    fn prompt(&mut self, m: &Match<Game>, _seat: u8) -> String {
        let game = m.game();
        let fresh = !matches!(&self.dialogue, Some((at, _)) if *at == m.moves());
        if fresh {
            self.dialogue = Dialogue::new(game).map(|d| (m.moves(), d));
        }
        let mut text = String::new();
        if fresh {
            let status: Vec<String> = game
                .players()
                .iter()
                .enumerate()
                .map(|(i, p)| format!("P{} on {} with {} coins", i + 1, p.cell, p.coins))
                .collect();
            text = format!("[{}]\n", status.join(" | "));
        }
        let question = self
            .dialogue
            .as_ref()
            .map_or_else(String::new, |(_, d)| d.question().to_string());
        text.push_str(&format!("{question} >"));
        text
    }

    fn command(
        &mut self,
        m: &mut Match<Game>,
        line: &str,
        out: &mut dyn Write,
    ) -> Result<Command<Move>> {
        match line.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return Ok(Command::Leave),
            "help" | "?" => {
                let legal: Vec<String> = m
                    .game()
                    .legal_moves()
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                writeln!(out, "legal now: {}", legal.join(", "))?;
                writeln!(out, "moves: {MOVE_FORMS}; quit stops")?;
                return Ok(Command::Done);
            }
            _ => {}
        }
        let Some((_, dialogue)) = self.dialogue.as_mut() else {
            return Ok(Command::NotUnderstood);
        };
        match dialogue.answer(line) {
            Ok(None) => Ok(Command::Done),
            Ok(Some(mv)) => {
                // Whatever the game says of the move, the questions start
                // again from the top.
                self.dialogue = None;
                Ok(Command::Move(mv))
            }
            Err(e) => {
                writeln!(out, "{e}")?;
                Ok(Command::NotUnderstood)
            }
        }
    }

    fn played(&mut self, m: &Match<Game>, p: &PlayedOf<Game>, out: &mut dyn Write) -> Result<()> {
        if self.log {
            let text: Vec<String> = p.events.iter().map(ToString::to_string).collect();
            writeln!(out, "{:>5}  {}", m.game().turns(), text.join("; "))?;
        }
        self.moves.push(MoveRecord {
            player: p.seat,
            mv: p.mv.to_string(),
            events: p.events.clone(),
        });
        Ok(())
    }

    fn refused(&mut self, error: &MatchError<GameError>, out: &mut dyn Write) -> Result<()> {
        writeln!(out, "refused: {error}")?;
        Ok(())
    }
}

/// Plays the game.
pub fn run(args: &PlayArgs) -> Result<()> {
    let (mut m, grid_name) = match &args.resume {
        Some(path) => (load_record(path)?, path.display().to_string()),
        None => {
            let name = args.grid.clone().unwrap_or_else(|| "sample".into());
            let grid = super::load_grid(&name)?;
            let seats = parse_seats(args.seats.as_deref().unwrap_or("bot"), args.players)?;
            let dice = match &args.dice {
                Some(_) => DiceMode::Chosen,
                None => DiceMode::Seeded {
                    seed: seed_or_fresh(args.seed),
                },
            };
            let setup = Setup {
                grid,
                turn_cap: args.turn_cap,
            };
            (Match::start(setup, seats, dice)?, name)
        }
    };
    let rolls = args.dice.as_deref().map(parse_rolls).transpose()?;
    let seed = match m.record().dice {
        DiceMode::Seeded { seed } => Some(seed),
        DiceMode::Chosen => None,
    };
    let mut stdout = std::io::stdout().lock();
    if !args.json {
        let seats: Vec<String> = m.game().seats().iter().map(ToString::to_string).collect();
        let dice = seed.map_or_else(|| "given dice".to_string(), |s| format!("seed {s}"));
        writeln!(
            stdout,
            "Snakes & Ladders Tycoon on {grid_name} ({}); seats {}; {dice}",
            m.game().grid(),
            seats.join(", ")
        )?;
    }
    let mut table = Tycoon {
        log: !args.json,
        dialogue: None,
        moves: Vec::new(),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    // People are asked on stderr, so that stdout stays the game's log.
    let mut stderr = std::io::stderr().lock();
    let outcome = {
        let mut console = Console {
            input: &mut input,
            out: &mut stdout,
            talk: &mut stderr,
            echo: false,
            dice: rolls.map(ScriptedDice::new),
            rng: m.bot_rng(),
        };
        crate::play::run(&mut m, &mut table, &mut console)?
    };
    if let Some(path) = &args.save {
        let mut text = serde_json::to_string_pretty(m.record())?;
        text.push('\n');
        tabletop::write_atomic(path, text.as_bytes())?;
        if !args.json {
            writeln!(stdout, "saved the game to {}", path.display())?;
        }
    }
    let ending = match (outcome.ending, m.status()) {
        (Ending::Over, Status::Won { .. }) => Ending2::Won,
        (Ending::Over, _) => Ending2::Stalled,
        (Ending::Left, _) => Ending2::Quit,
        (Ending::InputEnded, _) => Ending2::InputEnded,
        (Ending::DiceRanOut, _) => Ending2::DiceRanOut,
    };
    let view = m.game().view();
    let report = Report {
        grid: &grid_name,
        seed,
        seats: m.game().seats(),
        ending,
        winner: m.game().winner(),
        turns: m.game().turns(),
        rolls: table
            .moves
            .iter()
            .flat_map(|mv| &mv.events)
            .filter(|e| matches!(e, Event::Rolled { .. }))
            .count() as u64,
        players: view.players,
        stations: view.owners,
        moves: &table.moves,
    };
    if args.json {
        print_json(&report)?;
    } else {
        print_summary(&mut stdout, &report)?;
    }
    match ending {
        Ending2::InputEnded => bail!(
            "the input ended while waiting for P{}{}",
            m.to_move().unwrap_or(0),
            if args.save.is_some() {
                " (the game was saved)"
            } else {
                ""
            }
        ),
        _ => Ok(()),
    }
}

fn print_summary(out: &mut impl Write, r: &Report<'_>) -> Result<()> {
    writeln!(out)?;
    let turns = count(r.turns.into(), "turn", "turns");
    match (r.ending, r.winner) {
        (Ending2::Won, Some(w)) => writeln!(out, "P{w} wins after {turns} in all.")?,
        (Ending2::Stalled, _) => writeln!(
            out,
            "Nobody won: the game stopped at the turn cap after {turns}."
        )?,
        (Ending2::DiceRanOut, _) => writeln!(
            out,
            "The given dice ran out after {} ({turns}); nobody has won.",
            count(r.rolls, "roll", "rolls")
        )?,
        (Ending2::Quit, _) => writeln!(out, "Stopped after {turns}.")?,
        _ => writeln!(out, "The input ended after {turns}.")?,
    }
    for p in &r.players {
        let list = |items: Vec<String>| {
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        let stations = list(p.stations.iter().map(ToString::to_string).collect());
        let attacks = list(p.state.attacks.iter().map(ToString::to_string).collect());
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
