//! `parlor baffle render`: the box, its shots and mirrors as SVG or PNG.
//!
//! Terms:
//! - **output**: `-o FILE.svg` or `-o FILE.png`; the extension picks the
//!   format, the file is written whole or not at all.
//! - **pixels**: the picture's longer side (`--px`; `--size` is the box).

use super::{BoxArgs, describe};
use crate::common::seed_or_fresh;
use anyhow::{Context, Result};
use baffle::solve::{SolveOptions, solve};
use baffle::{Game, Move, Placed, Sides};
use clap::Args;
use render::baffle::{BaffleStyle, view_with};
use std::path::PathBuf;

/// Arguments of `parlor baffle render`.
#[derive(Args, Debug)]
#[command(
    after_help = "Shots and guesses are played as moves on the box; the picture shows what
the player sees: entry holes blue, exit holes cyan, each shot numbered beside
both, found mirrors red, wrong guesses dashed. With --reveal the game is given
up: every beam is drawn and the mirrors not found appear in magenta.

Examples:
  parlor baffle render --shots \"7 5 1\" -o shots.png            the fixed game, three shots
  parlor baffle render --shots \"7 5 1\" --guess 4,2,/ --reveal -o reveal.svg
  parlor baffle render --shots \"7 5\" --odds -o odds.png        cells tinted by the solver's odds
  parlor baffle render --seed 4 --size 8 --mirrors 4 --reveal -o box.png
  parlor baffle render --game game.json -o game.png            a game saved by play --save"
)]
pub struct RenderArgs {
    #[command(flatten)]
    source: BoxArgs,
    /// Which sides beams may be shot from.
    #[arg(long, default_value = "all", value_name = "all|left-top")]
    sides: Sides,
    /// A game saved by `parlor baffle play --save` (instead of a box, shots
    /// and guesses).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fixed", "seed", "layout", "size", "mirrors", "shots", "guess"])]
    game: Option<PathBuf>,
    /// Holes to shoot into, in order: "7 5 1" (or 7,5,1).
    #[arg(long, default_value = "", value_name = "HOLES")]
    shots: String,
    /// A guess, after the shots: ROW,COL,MIRROR (4,2,/); repeat for more.
    #[arg(long, value_name = "ROW,COL,MIRROR")]
    guess: Vec<String>,
    /// Give the game up at the end: draw every beam and every mirror.
    #[arg(long)]
    reveal: bool,
    /// Tint each cell by the solver's odds of a mirror there (before any
    /// reveal), and draw the certain mirrors.
    #[arg(long)]
    odds: bool,
    /// The picture file to write: `.svg` or `.png`.
    #[arg(long, short = 'o', value_name = "FILE.svg|FILE.png")]
    output: PathBuf,
    /// The picture's longer side in pixels (16 to 8192).
    #[arg(long, default_value_t = 900, value_name = "PX")]
    px: u32,
}

fn parse_holes(text: &str) -> Result<Vec<usize>> {
    let separator = |c: char| c.is_whitespace() || c == ',';
    if !text.trim().is_empty() && text.split(separator).all(str::is_empty) {
        anyhow::bail!("--shots '{text}' holds no hole number");
    }
    text.split(separator)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>()
                .with_context(|| format!("--shots: '{t}' is not a hole number"))
        })
        .collect()
}

/// Draws.
pub fn run(args: &RenderArgs) -> Result<()> {
    let mut game = match &args.game {
        // What `play --save` writes (a match's record), or an older save.
        Some(path) => super::play::load(path)?.game().clone(),
        None => {
            let mut game = Game::new(args.source.setup(args.sides, || seed_or_fresh(None))?)?;
            for hole in parse_holes(&args.shots)? {
                game.apply(Move::Shoot { hole })
                    .with_context(|| format!("cannot shoot into {hole}"))?;
            }
            for text in &args.guess {
                let p: Placed = text.parse().with_context(|| {
                    format!("--guess {text}: write ROW,COL,MIRROR, for example 4,2,/")
                })?;
                game.apply(Move::Guess {
                    cell: p.cell,
                    mirror: p.mirror,
                })
                .with_context(|| format!("cannot guess {p}"))?;
            }
            game
        }
    };
    let odds = if args.odds {
        let solution = solve(&game.view().evidence(), &SolveOptions::default())?;
        Some(solution.cells)
    } else {
        None
    };
    if args.reveal && !game.status().is_over() {
        game.apply(Move::Quit)?;
    }
    let style = BaffleStyle {
        title: Some(format!("Baffle: {}", describe(game.setup(), true))),
        subtitle: None,
        odds,
        ..BaffleStyle::default()
    };
    let picture = view_with(&game.view(), &style)?;
    let what = format!("Baffle box ({})", describe(game.setup(), true));
    crate::common::save_picture(&picture, &args.output, args.px, &what)
}
