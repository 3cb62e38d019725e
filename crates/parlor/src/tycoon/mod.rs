//! `parlor tycoon …`: Snakes & Ladders Tycoon commands.
//!
//! Terms:
//! - **grid argument**: `sample` (the original assignment's sample grid), or
//!   a grid file in its format or the JSON form.

mod check;
mod edit;
mod play;
mod render;
mod simulate;
mod tournament;

use anyhow::{Context, Result};
use clap::Subcommand;
use std::path::Path;
use tycoon::Grid;
use tycoon::design::Designer;

/// Snakes & Ladders Tycoon commands.
#[derive(Subcommand, Debug)]
pub enum TycoonCommand {
    /// Check grid files: a summary, or every problem with its line.
    Check(check::CheckArgs),
    /// Design a grid by edits and write it (only if every edit is accepted).
    Edit(edit::EditArgs),
    /// Play one four-player game to the end; people answer at the terminal.
    Play(play::PlayArgs),
    /// Play many bot games on all cores and report what they show.
    Simulate(simulate::SimulateArgs),
    /// Play the bot levels (easy, normal, hard) against each other.
    Tournament(tournament::TournamentArgs),
    /// Draw a grid, or a game on it, as SVG or PNG.
    Render(render::RenderArgs),
}

/// Runs a Tycoon command.
pub fn run(cmd: TycoonCommand) -> Result<()> {
    match cmd {
        TycoonCommand::Check(args) => check::run(&args),
        TycoonCommand::Edit(args) => edit::run(&args),
        TycoonCommand::Play(args) => play::run(&args),
        TycoonCommand::Simulate(args) => simulate::run(&args),
        TycoonCommand::Tournament(args) => tournament::run(&args),
        TycoonCommand::Render(args) => render::run(&args),
    }
}

/// The grid a grid argument names: `sample`, or a file.
pub fn load_grid(source: &str) -> Result<Grid> {
    Ok(load_grid_text(source)?.0)
}

/// The grid a grid argument names, and the text it was read from (kept so
/// that an unedited grid saves back byte for byte).
pub fn load_grid_text(source: &str) -> Result<(Grid, String)> {
    if source.eq_ignore_ascii_case("sample") && !Path::new(source).exists() {
        let text = tycoon::SAMPLE_GRID.to_string();
        return Ok((tycoon::parse_grid(&text)?, text));
    }
    let text = std::fs::read_to_string(source).with_context(|| {
        if Path::new(source).exists() {
            format!("cannot read grid file {source}")
        } else {
            format!("no grid file {source} (the original assignment's sample grid is `sample`)")
        }
    })?;
    let grid =
        tycoon::parse_grid_any(&text).with_context(|| format!("{source} is not a valid grid"))?;
    Ok((grid, text))
}

/// Writes the design's grid to `path`, atomically: JSON when the name ends
/// in `.json`, else the grid file format, keeping the text of the file it
/// was opened from where nothing changed.
pub fn save_design(designer: &Designer, path: &Path) -> Result<()> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let bytes = if is_json {
        let mut text = serde_json::to_string_pretty(designer.grid())?;
        text.push('\n');
        text.into_bytes()
    } else {
        designer.file().into_bytes()
    };
    tabletop::write_atomic(path, &bytes)?;
    Ok(())
}

/// A one-paragraph description of a grid.
pub fn describe(grid: &Grid) -> Vec<String> {
    let mut lines = Vec::new();
    let ladders: Vec<String> = grid
        .ladders()
        .map(|l| format!("{}→{}", l.start, l.end))
        .collect();
    let snakes: Vec<String> = grid
        .snakes()
        .map(|s| format!("{}→{}", s.start, s.end))
        .collect();
    if !ladders.is_empty() {
        lines.push(format!("ladders: {}", ladders.join(", ")));
    }
    if !snakes.is_empty() {
        lines.push(format!("snakes:  {}", snakes.join(", ")));
    }
    for card in grid.cards() {
        lines.push(format!(
            "card {:>2} on {:>2}: {}",
            card.number(),
            card.cell,
            card.kind.describe()
        ));
    }
    lines
}

/// Who plays seats 1-4, from `--seats`: easy, normal or hard (or their
/// other names), comma-separated; one name fills all four.
pub fn parse_seats(text: &str) -> Result<[tycoon::Seat; tycoon::game::SEATS]> {
    let names: Vec<tycoon::Seat> = text
        .split(',')
        .map(|s| s.parse::<tycoon::Seat>().map_err(anyhow::Error::msg))
        .collect::<Result<_>>()?;
    match names.len() {
        1 => Ok([names[0]; tycoon::game::SEATS]),
        tycoon::game::SEATS => Ok([names[0], names[1], names[2], names[3]]),
        n => anyhow::bail!("--seats names {n} seats; give 4 (or one for all)"),
    }
}
