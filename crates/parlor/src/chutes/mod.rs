//! `parlor chutes …`: Chutes & Ladders commands.

mod board;
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
}

/// Runs a Chutes & Ladders command.
pub fn run(cmd: ChutesCommand) -> anyhow::Result<()> {
    match cmd {
        ChutesCommand::Play(args) => play::run(&args),
        ChutesCommand::Board(cmd) => board::run(cmd),
    }
}
