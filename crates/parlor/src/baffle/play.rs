//! `parlor baffle play`: a game at the terminal, or from a script on stdin,
//! through the match layer; `--save` writes the match's record.

use super::{BoxArgs, describe};
use crate::common::seed_or_fresh;
use crate::play::{Command, Console, Table};
use anyhow::{Context, Result, bail};
use baffle::bot::{BotError, BotOptions, decide};
use baffle::solve::{SolveOptions, solve};
use baffle::text::view_text;
use baffle::{Event, Game, Move, Origin, Setup, Sides};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use tabletop::Rng;
use tabletop::play::{DiceMode, Match, Playable, PlayedOf, Record, SeatKind, Viewer};

/// Arguments of `parlor baffle play`.
#[derive(Args, Debug)]
#[command(after_help = "Commands at the prompt (one a line):
  shoot H     fire a beam into hole H (also: s H, or just H)
  guess R C /   guess that row R, column C holds / (or \\)
  show        the box, your shots, guesses and score
  hint        what your shots prove, and the most telling next shot
  bot         let the bot (the solver) make the next move
  quit        give up: every mirror is shown
  new         a new random game
  help        this list
  exit        leave (end of input does too)

Examples:
  parlor baffle play                        the original assignment's fixed first game
  parlor baffle play --seed 7 --size 8 --mirrors 4
  parlor baffle play --sides left-top       left and top only (the original assignment's GUI)
  printf 'shoot 7\\nguess 4 2 /\\nquit\\n' | parlor baffle play")]
pub struct PlayArgs {
    #[command(flatten)]
    source: BoxArgs,
    /// Which sides beams may be shot from.
    #[arg(long, default_value = "all", value_name = "all|left-top")]
    sides: Sides,
    /// Write the game in play (JSON) here when the session ends.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Go on with a game saved by --save.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fixed", "seed", "layout", "size", "mirrors"])]
    resume: Option<PathBuf>,
}

const HELP: &str = "Commands:
  shoot H        fire a beam into hole H (also: s H, or just H)
  guess R C /    guess that row R, column C holds / (or \\); rows and columns from 0 at the top-left
  show           the box, your shots, guesses and score
  hint           what your shots prove, and the most telling next shot
  bot            let the bot (the solver) make the next move, and say why
  quit           give up: every mirror is shown
  new            a new random game
  exit           leave
Score: +1 a shot, +2 a wrong guess; lower is better.";

/// The Baffle table of the one play loop.
struct Baffle {
    next_seed: Option<u64>,
    /// The person gave `--seed`, so the seeds of this session are theirs to
    /// see; a fresh seed stays secret until the game is over.
    seed_given: bool,
    sides: Sides,
    size: usize,
    mirrors: usize,
}

/// A match of `setup` for one person; the seed is the box's own when it
/// is random, so that it stays the match's secret.
fn start(setup: Setup) -> Result<Match<Game>> {
    let seed = match setup.origin {
        Origin::Seeded { seed } => seed,
        _ => 0,
    };
    Ok(Match::start(
        setup,
        vec![SeatKind::Person],
        DiceMode::Seeded { seed },
    )?)
}

/// Reads a saved game: a match's record, or the record an older Parlor
/// saved (the setup and the moves), which is converted.
pub(crate) fn load(path: &std::path::Path) -> Result<Match<Game>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read saved game {}", path.display()))?;
    let mut value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a saved Baffle game (not JSON)", path.display()))?;
    if value.get("game").is_none()
        && let Some(setup) = value.get("setup").cloned()
    {
        // An older save: {setup, moves}.
        let setup: Setup = serde_json::from_value(setup)
            .with_context(|| format!("{} is not a saved Baffle game", path.display()))?;
        let seed = match setup.origin {
            Origin::Seeded { seed } => seed,
            _ => 0,
        };
        let moves: Vec<Move> = serde_json::from_value(value["moves"].take())
            .with_context(|| format!("{} is not a saved Baffle game", path.display()))?;
        let mut record = Record::new(
            Game::NAME,
            setup,
            vec![SeatKind::Person],
            DiceMode::Seeded { seed },
        );
        record.moves = moves
            .into_iter()
            .map(|mv| tabletop::play::Entry {
                mv,
                roll: None,
                by_bot: false,
            })
            .collect();
        return Match::replay(record)
            .with_context(|| format!("{} cannot be replayed", path.display()));
    }
    let record: Record<Setup, Move> = serde_json::from_value(value)
        .with_context(|| format!("{} is not a saved Baffle game", path.display()))?;
    Match::replay(record).with_context(|| format!("{} cannot be replayed", path.display()))
}

/// Plays the game.
pub fn run(args: &PlayArgs) -> Result<()> {
    let mut m = match &args.resume {
        Some(path) => load(path)?,
        None => start(args.source.setup(args.sides, || seed_or_fresh(None))?)?,
    };
    let next_seed = match m.game().setup().origin {
        Origin::Seeded { seed } => Some(seed.wrapping_add(1)),
        _ => args.source.seed.map(|s| s.wrapping_add(1)),
    };
    let mut table = Baffle {
        sides: m.game().sides(),
        size: m.game().size().n(),
        mirrors: m.game().layout().count(),
        next_seed,
        seed_given: args.source.seed.is_some(),
    };
    let script = !std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut talk = std::io::stdout();
    intro(&mut out, &m, table.seed_given)?;
    let outcome = {
        let mut console = Console {
            input: &mut input,
            out: &mut out,
            talk: &mut talk,
            echo: script,
            dice: None,
            rng: Rng::new(0),
        };
        crate::play::run(&mut m, &mut table, &mut console)?
    };
    // A game over waits for `new` or `exit`: keep reading until the input
    // ends or the person leaves.
    if outcome.ending == crate::play::Ending::Over {
        after_the_end(&mut m, &mut table, &mut input, &mut out, script)?;
    }
    if script {
        writeln!(out)?;
    }
    out.flush()?;
    if let Some(path) = &args.save {
        let json = serde_json::to_string_pretty(m.record())?;
        tabletop::write_atomic(path, json.as_bytes())
            .with_context(|| format!("cannot save the game to {}", path.display()))?;
        eprintln!("Game saved to {}.", path.display());
    }
    if script && outcome.not_understood > 0 {
        let n = outcome.not_understood;
        bail!(
            "{n} line{} of the script {} not understood",
            if n == 1 { "" } else { "s" },
            if n == 1 { "was" } else { "were" }
        );
    }
    Ok(())
}

/// After a game ends: `new` starts another (and play goes on), `show` and
/// `help` still answer, anything else is told the game is over.
fn after_the_end(
    m: &mut Match<Game>,
    table: &mut Baffle,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    script: bool,
) -> Result<()> {
    loop {
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let text = line.trim();
        if script {
            writeln!(out, "{text}")?;
        }
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        match table.command(m, text, out)? {
            Command::Leave => return Ok(()),
            Command::Move(mv) => {
                let request = tabletop::play::Request::new(mv);
                if let Err(e) = m.play(1, request) {
                    table.refused(&e, out)?;
                }
            }
            Command::Done | Command::NotUnderstood => {}
        }
        if !m.status().is_over() {
            let mut talk = std::io::stdout();
            let mut console = Console {
                input,
                out,
                talk: &mut talk,
                echo: script,
                dice: None,
                rng: Rng::new(0),
            };
            let outcome = crate::play::run(m, table, &mut console)?;
            if outcome.ending != crate::play::Ending::Over {
                return Ok(());
            }
        }
    }
}

fn intro(out: &mut dyn Write, m: &Match<Game>, show_seed: bool) -> Result<()> {
    let view = m.view(Viewer::Seat { seat: 1 }).view;
    let n = view.size;
    let holes = match view.sides {
        Sides::All => format!("from any side (holes 0 to {})", 4 * n - 1),
        Sides::LeftTop => format!("from the left and top only (holes 0 to {})", 2 * n - 1),
    };
    writeln!(
        out,
        "Baffle: {n}×{n} box, {} hidden ({}). Shoot beams {holes}.",
        tabletop::count(view.mirrors as u64, "mirror", "mirrors"),
        describe(m.game().setup(), show_seed)
    )?;
    write!(out, "{}", view_text(&view))?;
    writeln!(out, "Type help for the commands.")?;
    Ok(())
}

impl Table<Game> for Baffle {
    fn prompt(&mut self, _: &Match<Game>, _: u8) -> String {
        ">".into()
    }

    fn command(
        &mut self,
        m: &mut Match<Game>,
        text: &str,
        out: &mut dyn Write,
    ) -> Result<Command<Move>> {
        let word = text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let alone = text.split_whitespace().count() == 1;
        match word.as_str() {
            "help" | "?" | "h" if alone => writeln!(out, "{HELP}")?,
            "show" | "box" | "board" | "look" if alone => {
                write!(out, "{}", view_text(&m.view(Viewer::Seat { seat: 1 }).view))?;
            }
            "hint" | "solve" if alone => hint(out, m.game())?,
            "bot" | "auto" if alone => return bot_move(out, m),
            "new" if alone => {
                let seed = match self.next_seed {
                    Some(seed) => {
                        self.next_seed = Some(seed.wrapping_add(1));
                        seed
                    }
                    None => seed_or_fresh(None),
                };
                *m = start(Setup::seeded(self.size, self.mirrors, self.sides, seed))?;
                intro(out, m, self.seed_given)?;
            }
            "exit" | "bye" | "leave" if alone => return Ok(Command::Leave),
            _ => {
                return match text.parse::<usize>() {
                    Ok(hole) => Ok(Command::Move(Move::Shoot { hole })),
                    Err(_) => match text.parse::<Move>() {
                        Ok(mv) => Ok(Command::Move(mv)),
                        Err(e) => {
                            writeln!(
                                out,
                                "I don't understand '{text}': {}. Type help for the commands.",
                                e.why
                            )?;
                            Ok(Command::NotUnderstood)
                        }
                    },
                };
            }
        }
        Ok(Command::Done)
    }

    fn played(&mut self, m: &Match<Game>, p: &PlayedOf<Game>, out: &mut dyn Write) -> Result<()> {
        let score = m.game().score();
        for e in &p.events {
            match e {
                Event::Shot { .. } | Event::Guess { .. } => {
                    writeln!(out, "{e} Score {}.", score.total)?;
                }
                Event::Won { .. } | Event::Quit { .. } => {
                    writeln!(out, "{e}")?;
                    write!(out, "{}", view_text(&m.view(Viewer::Seat { seat: 1 }).view))?;
                    if let Origin::Seeded { seed } = m.game().setup().origin {
                        writeln!(
                            out,
                            "This box was seed {seed}: --seed {seed} plays it again."
                        )?;
                    }
                    writeln!(out, "Type new for another game, or exit.")?;
                }
            }
        }
        Ok(())
    }
}

/// The bot's move for the person, with its reason.
fn bot_move(out: &mut dyn Write, m: &Match<Game>) -> Result<Command<Move>> {
    match decide(
        &m.view(Viewer::Seat { seat: 1 }).view,
        &BotOptions::default(),
    ) {
        Ok(d) => {
            writeln!(out, "The bot: {} ({}).", d.mv, d.reason)?;
            Ok(Command::Move(d.mv))
        }
        Err(BotError::Over) => {
            writeln!(out, "The game is over; type new for another.")?;
            Ok(Command::Done)
        }
        Err(e) => {
            writeln!(out, "The bot cannot move: {e}.")?;
            Ok(Command::Done)
        }
    }
}

fn hint(out: &mut dyn Write, game: &Game) -> Result<()> {
    let view = game.view();
    if view.status.is_over() {
        writeln!(
            out,
            "The game is over; every mirror is shown above (type show)."
        )?;
        return Ok(());
    }
    let solution = match solve(&view.evidence(), &SolveOptions::default()) {
        Ok(s) => s,
        Err(e) => {
            writeln!(out, "No hint: {e}.")?;
            return Ok(());
        }
    };
    match &solution.layouts {
        Some(layouts) => writeln!(
            out,
            "{layouts} {} of {} {} what you know.",
            if *layouts == 1u32.into() {
                "layout"
            } else {
                "layouts"
            },
            tabletop::count(view.mirrors as u64, "mirror", "mirrors"),
            if *layouts == 1u32.into() {
                "fits"
            } else {
                "fit"
            }
        )?,
        None => writeln!(out, "Too many layouts to count: odds {}.", solution.method)?,
    }
    writeln!(out, "{}", solution.advice)?;
    Ok(())
}
