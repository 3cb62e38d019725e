//! `parlor baffle play`: a game at the terminal, or from a script on stdin.

use super::{BoxArgs, describe};
use crate::common::seed_or_fresh;
use anyhow::{Context, Result, bail};
use baffle::bot::{BotError, BotOptions, decide};
use baffle::solve::{SolveOptions, solve};
use baffle::text::view_text;
use baffle::{Event, Game, Move, Origin, Setup, Sides};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

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
  parlor baffle play                        the seed's fixed first game
  parlor baffle play --seed 7 --size 8 --mirrors 4
  parlor baffle play --sides left-top       beams only from the left and top (the seed's GUI)
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

struct Session {
    game: Game,
    /// The next seed for `new` when the first game was seeded.
    next_seed: Option<u64>,
    sides: Sides,
    size: usize,
    mirrors: usize,
    script: bool,
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

/// Plays.
pub fn run(args: &PlayArgs) -> Result<()> {
    let game = match &args.resume {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read saved game {}", path.display()))?;
            serde_json::from_str::<Game>(&text)
                .with_context(|| format!("{} is not a saved Baffle game", path.display()))?
        }
        None => Game::new(args.source.setup(args.sides, || seed_or_fresh(None))?)?,
    };
    let next_seed = match game.setup().origin {
        Origin::Seeded { seed } => Some(seed.wrapping_add(1)),
        _ => args.source.seed.map(|s| s.wrapping_add(1)),
    };
    let mut session = Session {
        sides: game.sides(),
        size: game.size().n(),
        mirrors: game.layout().count(),
        next_seed,
        script: !std::io::stdin().is_terminal(),
        game,
    };
    let mut out = std::io::stdout().lock();
    intro(&mut out, &session)?;
    let mut not_understood = 0;
    let stdin = std::io::stdin().lock();
    prompt(&mut out, &session)?;
    for line in stdin.lines() {
        let line = line.context("cannot read the input")?;
        let text = line.trim();
        if session.script {
            writeln!(out, "{text}")?;
        }
        if text.is_empty() || text.starts_with('#') {
            prompt(&mut out, &session)?;
            continue;
        }
        match command(&mut out, &mut session, text)? {
            Step::Go => {}
            Step::NotUnderstood => not_understood += 1,
            Step::Exit => break,
        }
        prompt(&mut out, &session)?;
    }
    if session.script {
        writeln!(out)?;
    }
    out.flush()?;
    if let Some(path) = &args.save {
        let json = serde_json::to_string_pretty(&session.game)?;
        tabletop::write_atomic(path, json.as_bytes())
            .with_context(|| format!("cannot save the game to {}", path.display()))?;
        eprintln!("Game saved to {}.", path.display());
    }
    if session.script && not_understood > 0 {
        bail!(
            "{not_understood} line{} of the script {} not understood",
            if not_understood == 1 { "" } else { "s" },
            if not_understood == 1 { "was" } else { "were" }
        );
    }
    Ok(())
}

fn prompt(out: &mut impl Write, _session: &Session) -> Result<()> {
    write!(out, "> ")?;
    out.flush()?;
    Ok(())
}

fn intro(out: &mut impl Write, s: &Session) -> Result<()> {
    let view = s.game.view();
    let n = view.size;
    let holes = match s.sides {
        Sides::All => format!("from any side (holes 0 to {})", 4 * n - 1),
        Sides::LeftTop => format!("from the left and top only (holes 0 to {})", 2 * n - 1),
    };
    writeln!(
        out,
        "Baffle: {n}×{n} box, {} hidden ({}). Shoot beams {holes}.",
        tabletop::count(view.mirrors as u64, "mirror", "mirrors"),
        describe(s.game.setup())
    )?;
    write!(out, "{}", view_text(&view))?;
    writeln!(out, "Type help for the commands.")?;
    Ok(())
}

enum Step {
    Go,
    NotUnderstood,
    Exit,
}

fn command(out: &mut impl Write, s: &mut Session, text: &str) -> Result<Step> {
    let word = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let alone = text.split_whitespace().count() == 1;
    match word.as_str() {
        "help" | "?" | "h" if alone => writeln!(out, "{HELP}")?,
        "show" | "box" | "board" | "look" if alone => write!(out, "{}", view_text(&s.game.view()))?,
        "hint" | "solve" if alone => hint(out, &s.game)?,
        "bot" | "auto" if alone => bot_move(out, s)?,
        "new" if alone => new_game(out, s)?,
        "exit" | "bye" | "leave" if alone => return Ok(Step::Exit),
        _ => {
            let mv = match text.parse::<usize>() {
                Ok(hole) => Move::Shoot { hole },
                Err(_) => match text.parse::<Move>() {
                    Ok(mv) => mv,
                    Err(e) => {
                        writeln!(
                            out,
                            "I don't understand '{text}': {}. Type help for the commands.",
                            e.why
                        )?;
                        return Ok(Step::NotUnderstood);
                    }
                },
            };
            play_move(out, s, mv)?;
        }
    }
    Ok(Step::Go)
}

fn play_move(out: &mut impl Write, s: &mut Session, mv: Move) -> Result<()> {
    match s.game.apply(mv) {
        Err(e) => writeln!(out, "Refused: {e}.")?,
        Ok(events) => {
            let score = s.game.score();
            for e in &events {
                match e {
                    Event::Shot { .. } | Event::Guess { .. } => {
                        writeln!(out, "{e} Score {}.", score.total)?;
                    }
                    Event::Won { .. } | Event::Quit { .. } => {
                        writeln!(out, "{e}")?;
                        write!(out, "{}", view_text(&s.game.view()))?;
                        writeln!(out, "Type new for another game, or exit.")?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn bot_move(out: &mut impl Write, s: &mut Session) -> Result<()> {
    match decide(&s.game.view(), &BotOptions::default()) {
        Ok(d) => {
            writeln!(out, "The bot: {} ({}).", d.mv, d.reason)?;
            play_move(out, s, d.mv)
        }
        Err(BotError::Over) => {
            writeln!(out, "The game is over; type new for another.")?;
            Ok(())
        }
        Err(e) => {
            writeln!(out, "The bot cannot move: {e}.")?;
            Ok(())
        }
    }
}

fn new_game(out: &mut impl Write, s: &mut Session) -> Result<()> {
    let seed = match s.next_seed {
        Some(seed) => {
            s.next_seed = Some(seed.wrapping_add(1));
            seed
        }
        None => seed_or_fresh(None),
    };
    s.game = Game::new(Setup::seeded(s.size, s.mirrors, s.sides, seed))?;
    intro(out, s)
}

fn hint(out: &mut impl Write, game: &Game) -> Result<()> {
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
