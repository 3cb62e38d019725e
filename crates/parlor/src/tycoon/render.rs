//! `parlor tycoon render`: the picture of a grid, or of a game on it.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use tycoon::game::SEATS;
use tycoon::{Game, Seat};

/// Arguments of `parlor tycoon render`.
#[derive(Args, Debug)]
#[command(
    after_help = "The picture shows every cell numbered, ladders and snakes, cards with
their numbers and parameters; a game adds the tokens, station owners and a
panel with each player's wallet, turns, stations and attacks.

Examples:
  parlor tycoon render sample -o sample.png
  parlor tycoon render my.grid -o my-grid.svg
  parlor tycoon render --game game.json -o game.png     a saved game (play --save)
  parlor tycoon render sample --seed 7 -o end.png       where four bots finish, seed 7"
)]
pub struct RenderArgs {
    /// The grid: a file or `sample` (not needed with --game).
    #[arg(value_name = "GRID", required_unless_present = "game")]
    grid: Option<String>,
    /// Draw a saved game (from `play --save`) on its grid.
    #[arg(long, value_name = "SAVE.json", conflicts_with_all = ["grid", "seed"])]
    game: Option<PathBuf>,
    /// Draw the end of a four-bot game played with this seed.
    #[arg(long, short = 's')]
    seed: Option<u64>,
    /// The picture file to write: `.svg` or `.png`.
    #[arg(long, short = 'o', value_name = "FILE.svg|FILE.png")]
    output: PathBuf,
    /// The picture's longer side in pixels (16 to 8192).
    #[arg(long, default_value_t = 1000, value_name = "PX")]
    size: u32,
}

/// Draws and saves the picture.
pub fn run(args: &RenderArgs) -> Result<()> {
    let (picture, what) = match (&args.game, &args.grid) {
        (Some(path), _) => {
            let m = super::play::load_record(path)?;
            let game = m.game();
            let name = path.file_name().map_or_else(
                || "a saved game".into(),
                |n| n.to_string_lossy().into_owned(),
            );
            (
                render::tycoon::game(game, &name),
                format!("the game {name}"),
            )
        }
        (None, Some(name)) => {
            let grid = super::load_grid(name)?;
            match args.seed {
                Some(seed) => {
                    let mut game = Game::new(Arc::new(grid), [Seat::Bot; SEATS]);
                    let mut dice = tabletop::SeededDice::new(seed);
                    tycoon::simulate::play_out(&mut game, &mut dice, seed, |_, _| {});
                    (
                        render::tycoon::game(&game, name),
                        format!("a bot game on {name}, seed {seed}"),
                    )
                }
                None => (
                    render::tycoon::grid(&grid, name),
                    format!("the grid {name}"),
                ),
            }
        }
        (None, None) => anyhow::bail!("give a GRID or --game SAVE.json"),
    };
    crate::common::save_picture(&picture, &args.output, args.size, &what)
}
