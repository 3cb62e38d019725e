//! `parlor chutes …`: Chutes & Ladders commands.

mod board;
mod pictures;
mod play;

use clap::Subcommand;

/// Chutes & Ladders commands.
#[derive(Subcommand, Debug)]
pub enum ChutesCommand {
    /// Play one game and print its log.
    Play(play::PlayArgs),
    /// Show or check board files.
    #[command(subcommand)]
    Board(board::BoardCommand),
    /// Draw a board, a game on it, or a heat map, as SVG or PNG.
    Render(pictures::RenderArgs),
    /// Plot the game-length distribution, seat chances or a heat map, as SVG
    /// or PNG.
    Plot(pictures::PlotArgs),
}

/// Runs a Chutes & Ladders command.
pub fn run(cmd: ChutesCommand) -> anyhow::Result<()> {
    match cmd {
        ChutesCommand::Play(args) => play::run(&args),
        ChutesCommand::Board(cmd) => board::run(cmd),
        ChutesCommand::Render(args) => pictures::render(&args),
        ChutesCommand::Plot(args) => pictures::plot(&args),
    }
}
