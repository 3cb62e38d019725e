//! `parlor baffle …`: the Baffle laser box.
//!
//! Terms:
//! - **box arguments** ([`BoxArgs`]): which mirrors: the original
//!   assignment's fixed game (`--fixed`), a seed (`--seed`), or a layout file
//!   (`--layout`), with the size (`--size`) and mirror count (`--mirrors`)
//!   for seeded boxes.

mod bot;
mod optimal;
mod play;
mod render;
mod solve;
mod trace;

use anyhow::{Context, Result, bail};
use baffle::{Layout, Setup, Sides};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// Baffle commands.
#[derive(Subcommand, Debug)]
pub enum BaffleCommand {
    /// Play at the terminal (or from a script on stdin).
    Play(play::PlayArgs),
    /// Where beams leave a box, and how often they turn.
    Trace(trace::TraceArgs),
    /// What shots prove: consistent layouts, certain cells, best next shot.
    Solve(solve::SolveArgs),
    /// Draw the box, its shots and mirrors as SVG or PNG.
    Render(render::RenderArgs),
    /// Let the solver play: a box move by move, or the scores of many.
    Bot(bot::BotArgs),
    /// The best possible play on a small box, exactly, beside the bot's.
    Optimal(optimal::OptimalArgs),
}

/// Runs a Baffle command.
pub fn run(cmd: BaffleCommand) -> Result<()> {
    match cmd {
        BaffleCommand::Play(args) => play::run(&args),
        BaffleCommand::Trace(args) => trace::run(&args),
        BaffleCommand::Solve(args) => solve::run(&args),
        BaffleCommand::Render(args) => render::run(&args),
        BaffleCommand::Bot(args) => bot::run(&args),
        BaffleCommand::Optimal(args) => optimal::run(&args),
    }
}

/// Which box: the fixed game, a seed, or a layout file.
#[derive(Args, Debug, Clone)]
pub struct BoxArgs {
    /// The original assignment's fixed first game (10×10, 5 mirrors): the
    /// default when size and mirrors are the defaults.
    #[arg(long, conflicts_with_all = ["seed", "layout"])]
    pub fixed: bool,
    /// Random mirrors from this seed (the same seed gives the same box).
    #[arg(long, short = 's', conflicts_with = "layout")]
    pub seed: Option<u64>,
    /// A layout file: n lines of n cells, each `.`, `/` or `\`.
    #[arg(long, value_name = "FILE")]
    pub layout: Option<PathBuf>,
    /// Box size n, 4 to 26 [default: 10].
    #[arg(long, short = 'n', value_name = "N")]
    pub size: Option<usize>,
    /// Mirrors k, 1 to n²/2 [default: 5].
    #[arg(long, short = 'k', value_name = "K")]
    pub mirrors: Option<usize>,
}

/// Where a box came from, for headings.
pub fn describe(setup: &Setup, with_seed: bool) -> String {
    match &setup.origin {
        baffle::Origin::Fixed => "the original assignment's fixed first game".to_string(),
        baffle::Origin::Seeded { seed } if with_seed => format!("random, seed {seed}"),
        baffle::Origin::Seeded { .. } => "random".to_string(),
        baffle::Origin::Given { .. } => "a given layout".to_string(),
    }
}

impl BoxArgs {
    /// The setup these arguments name; `fresh` supplies a seed when a random
    /// box is wanted and none was given.
    pub fn setup(&self, sides: Sides, fresh: impl FnOnce() -> u64) -> Result<Setup> {
        if let Some(path) = &self.layout {
            let layout = load_layout(path)?;
            let n = layout.size().n();
            if self.size.is_some_and(|s| s != n) {
                bail!(
                    "--size {} does not match the layout file, which is {n}×{n}",
                    self.size.unwrap_or(n)
                );
            }
            if self.mirrors.is_some_and(|k| k != layout.count()) {
                bail!(
                    "--mirrors {} does not match the layout file, which has {}",
                    self.mirrors.unwrap_or(0),
                    layout.count()
                );
            }
            return Ok(Setup::given(layout, sides));
        }
        let size = self.size.unwrap_or(baffle::geometry::DEFAULT_SIZE);
        let mirrors = self.mirrors.unwrap_or(baffle::layout::FIXED.len());
        let is_default =
            size == baffle::geometry::DEFAULT_SIZE && mirrors == baffle::layout::FIXED.len();
        if self.fixed {
            if !is_default {
                bail!(
                    "the fixed game is 10×10 with 5 mirrors; drop --size/--mirrors or use --seed"
                );
            }
            return Ok(Setup::fixed(sides));
        }
        match self.seed {
            Some(seed) => Ok(Setup::seeded(size, mirrors, sides, seed)),
            None if is_default => Ok(Setup::fixed(sides)),
            None => Ok(Setup::seeded(size, mirrors, sides, fresh())),
        }
    }

    /// The layout these arguments name (checked like a game's).
    pub fn layout(&self, fresh: impl FnOnce() -> u64) -> Result<(Setup, Layout)> {
        if let Some(path) = &self.layout
            && self.size.is_none()
            && self.mirrors.is_none()
        {
            // Any number of mirrors may be traced, none included.
            let layout = load_layout(path)?;
            return Ok((Setup::given(layout.clone(), Sides::All), layout));
        }
        let setup = self.setup(Sides::All, fresh)?;
        let layout = setup.layout()?;
        Ok((setup, layout))
    }
}

/// Reads a layout file.
pub fn load_layout(path: &Path) -> Result<Layout> {
    let text = std::fs::read_to_string(path).with_context(|| {
        if path.exists() {
            format!("cannot read layout file {}", path.display())
        } else {
            format!("no layout file {}", path.display())
        }
    })?;
    Layout::parse(&text).with_context(|| format!("{} is not a valid layout", path.display()))
}
