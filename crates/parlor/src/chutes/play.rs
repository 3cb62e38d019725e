//! `parlor chutes play`: one game, logged roll by roll.

use crate::common::{BoardArgs, dice_string, print_json, seed_or_fresh};
use crate::play::{Command, Console, Table};
use anyhow::{Context, Result, bail};
use chutes::contract;
use chutes::{Board, Game, Outcome, PlayerState, Rules, Turn};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;
use tabletop::play::{DiceMode, Match, PlayedOf, SeatKind, Status};
use tabletop::{BotLevel, ScriptedDice, count, parse_rolls, plural};

/// Arguments of `parlor chutes play`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes play                      one player, classic board, a fresh seed
  parlor chutes play --players 2 --seed 7
  parlor chutes play --dice 1,6,6,1,4,3,6  the rolls you choose (also: --dice 1661436)
  parlor chutes play --board my.toml --rules bounce --json")]
pub struct PlayArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Number of players (1 to 8), taking turns in seat order.
    #[arg(long, short = 'p', default_value_t = 1)]
    players: usize,
    /// Seed for the dice: the same seed replays the same game.
    #[arg(long, short = 's', conflicts_with = "dice")]
    seed: Option<u64>,
    /// The rolls to use, in order: `1,3,6`, `1 3 6` or `136`.
    #[arg(long, short = 'd', value_name = "ROLLS")]
    dice: Option<String>,
    /// Print the whole game as one JSON document.
    #[arg(long)]
    json: bool,
}

/// How the game ended.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Ending {
    Won,
    DiceRanOut,
    /// Every token stands on a square from which the finish cannot be
    /// reached: the game would never end.
    Stuck,
    /// Nobody had won after [`chutes::game::ROLL_CAP`] rolls: the game was
    /// stopped there, so that its log stays bounded.
    Capped,
}

#[derive(Serialize)]
struct Report<'a> {
    board: Option<&'a str>,
    squares: u32,
    rules: Rules,
    players: usize,
    seed: Option<u64>,
    ending: Ending,
    winner: Option<u8>,
    rolls: u32,
    dice: String,
    unused_rolls: usize,
    turns: &'a [Turn],
    summary: &'a [PlayerState],
}

/// A game played to its end (or until given dice ran out).
pub(crate) struct Played {
    /// The game as it ended.
    pub game: Game,
    /// Every turn, in order.
    pub turns: Vec<Turn>,
    /// The seed, when the dice were seeded.
    pub seed: Option<u64>,
    /// How it ended.
    pub ending: Ending,
    /// How many rolls `--dice` gave (0 when seeded).
    pub given: usize,
}

/// The Chutes & Ladders table of the one play loop: every seat rolls on its
/// own, and each turn is kept for the log.
struct Roller {
    turns: Vec<Turn>,
}

impl Table<contract::Table> for Roller {
    fn prompt(&mut self, _: &Match<contract::Table>, seat: u8) -> String {
        format!("P{seat}>")
    }

    fn command(
        &mut self,
        _: &mut Match<contract::Table>,
        line: &str,
        _: &mut dyn Write,
    ) -> Result<Command<contract::Move>> {
        Ok(line.parse().map_or(Command::NotUnderstood, Command::Move))
    }

    fn played(
        &mut self,
        _: &Match<contract::Table>,
        played: &PlayedOf<contract::Table>,
        _: &mut dyn Write,
    ) -> Result<()> {
        self.turns.extend_from_slice(&played.events);
        Ok(())
    }
}

/// Plays one game with seeded dice (`seed`, or a fresh one) or the rolls in
/// `dice`, through the match layer: the one game loop shared by `play` and
/// `render`.
pub(crate) fn play_game(
    board: Arc<Board>,
    rules: Rules,
    players: usize,
    seed: Option<u64>,
    dice: Option<&str>,
) -> Result<Played> {
    let given = dice.map(parse_rolls).transpose()?;
    let given_count = given.as_ref().map_or(0, Vec::len);
    if let Some(rolls) = &given {
        ScriptedDice::new(rolls.clone())
            .check(rules.faces())
            .context("--dice")?;
    }
    let (mode, seed) = match &given {
        Some(_) => (DiceMode::Chosen, None),
        None => {
            let seed = seed_or_fresh(seed);
            (DiceMode::Seeded { seed }, Some(seed))
        }
    };
    let setup = contract::Setup {
        board: (*board).clone(),
        rules,
    };
    let seats = vec![
        SeatKind::Bot {
            level: BotLevel::Normal
        };
        players
    ];
    let mut m = Match::<contract::Table>::start(setup, seats, mode)?
        .with_move_cap(chutes::game::ROLL_CAP as usize);
    let mut table = Roller { turns: Vec::new() };
    let mut console = Console {
        input: &mut std::io::empty(),
        out: &mut std::io::sink(),
        talk: &mut std::io::sink(),
        echo: false,
        dice: given.map(ScriptedDice::new),
        rng: m.bot_rng(),
    };
    crate::play::run(&mut m, &mut table, &mut console)?;
    let ending = match m.status() {
        Status::Won { .. } | Status::Shared { .. } => Ending::Won,
        Status::Stalled { .. } if m.game().stuck() => Ending::Stuck,
        Status::Stalled { .. } => Ending::Capped,
        Status::Playing | Status::GivenUp => Ending::DiceRanOut,
    };
    Ok(Played {
        game: m.game().game().clone(),
        turns: table.turns,
        seed,
        ending,
        given: given_count,
    })
}

/// Plays the game.
pub fn run(args: &PlayArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    let board = Arc::new(board);
    let Played {
        game,
        turns,
        seed,
        ending,
        given: given_count,
    } = play_game(
        board.clone(),
        rules,
        args.players,
        args.seed,
        args.dice.as_deref(),
    )?;
    let report = Report {
        board: board.name(),
        squares: board.size(),
        rules,
        players: args.players,
        seed,
        ending,
        winner: game.winner(),
        rolls: game.rolls(),
        dice: dice_string(turns.iter().map(|t| t.roll), rules.faces()),
        unused_rolls: given_count.saturating_sub(turns.len()),
        turns: &turns,
        summary: game.players(),
    };
    if args.json {
        print_json(&report)?;
    } else {
        print_log(&report, &board)?;
    }
    if ending == Ending::Capped {
        bail!(capped());
    }
    Ok(())
}

/// What `play` and `render` say about a game stopped at the roll cap.
pub(crate) fn capped() -> String {
    format!(
        "the game was stopped after {} without a winner: Parlor caps a game's log there. \
         On this board a game may practically never end (chutes send the tokens back \
         faster than they advance)",
        count(chutes::game::ROLL_CAP.into(), "roll", "rolls")
    )
}

fn print_log(r: &Report<'_>, board: &Board) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let name = r.board.unwrap_or("unnamed");
    let who = if r.players == 1 {
        "1 player".to_string()
    } else {
        format!("{} players", r.players)
    };
    let source = r
        .seed
        .map_or_else(|| "given dice".to_string(), |s| format!("seed {s}"));
    writeln!(
        out,
        "Chutes & Ladders: {name} board ({} squares), {who}, {}, {source}",
        r.squares, r.rules
    )?;
    let width = r.squares.to_string().len().max(4);
    writeln!(
        out,
        "{:>5}  {:<8} {:>4}  {:>width$}    {:>width$}",
        "roll", "player", "die", "from", "to"
    )?;
    for t in r.turns {
        let what = describe(t, board);
        let line = format!(
            "{:>5}  {:<8} {:>4}  {:>width$} -> {:>width$}  {what}",
            t.number,
            format!("P{}", t.player),
            t.roll,
            t.from,
            t.to
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out)?;
    match (r.ending, r.winner) {
        (Ending::Won, Some(w)) => {
            let own = r.summary[usize::from(w - 1)].rolls;
            if r.players == 1 {
                writeln!(
                    out,
                    "Player 1 reached {} in {}.",
                    r.squares,
                    count(r.rolls.into(), "roll", "rolls")
                )?;
            } else {
                writeln!(
                    out,
                    "Player {w} reached {} first, on their roll {own} ({} in all).",
                    r.squares,
                    count(r.rolls.into(), "roll", "rolls")
                )?;
            }
        }
        (ending, _) => {
            let places: Vec<String> = r
                .summary
                .iter()
                .enumerate()
                .map(|(i, p)| format!("player {} on {}", i + 1, p.square))
                .collect();
            let why = match ending {
                Ending::Stuck => "Stopped",
                Ending::Capped => "Stopped at the cap",
                _ => "The given dice ran out",
            };
            writeln!(
                out,
                "{why} after {} and nobody has won: {}.",
                count(r.rolls.into(), "roll", "rolls"),
                places.join(", ")
            )?;
            if ending == Ending::Stuck {
                writeln!(
                    out,
                    "The game can never end: from every token's square the finish {} cannot be reached.",
                    r.squares
                )?;
            }
        }
    }
    for (i, p) in r.summary.iter().enumerate() {
        writeln!(
            out,
            "  P{}: on square {}; rolls {}, chutes {}, ladders {}, lost turns {}",
            i + 1,
            p.square,
            p.rolls,
            p.chutes,
            p.ladders,
            p.lost_turns
        )?;
    }
    writeln!(out, "Dice: {}", r.dice)?;
    if r.unused_rolls > 0 {
        writeln!(
            out,
            "Note: {} given {} not used; the game was over.",
            r.unused_rolls,
            plural(r.unused_rolls as u64, "roll was", "rolls were")
        )?;
    }
    Ok(())
}

fn describe(t: &Turn, board: &Board) -> String {
    match (t.outcome, t.jump) {
        (Outcome::LostTurn, _) => format!(
            "lost turn: {} + {} passes {}",
            t.from,
            t.roll,
            board.finish()
        ),
        (outcome, Some(j)) => {
            let verb = match j.kind() {
                chutes::JumpKind::Ladder => "climbs the ladder",
                chutes::JumpKind::Chute => "slides down the chute",
            };
            let win = if outcome == Outcome::Won {
                ", wins"
            } else {
                ""
            };
            format!("{verb} {}->{}{win}", j.from, j.to)
        }
        (Outcome::Won, None) => "wins".to_string(),
        (Outcome::Moved, None) if t.landed != t.from + u32::from(t.roll) => {
            format!("bounces back from {}", board.finish())
        }
        (Outcome::Moved, None) => String::new(),
    }
}
