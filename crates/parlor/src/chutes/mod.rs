//! `parlor chutes …`: Chutes & Ladders commands.

mod analysis;
mod board;
mod chances;
mod design;
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
    /// The original assignments' random search for short games, beside the
    /// exact answer.
    Search(analysis::SearchArgs),
    /// The exact shortest games: length, dice sequences, distinct routes.
    Shortest(analysis::ShortestArgs),
    /// The exact game-length distribution, seats' chances, squares and jumps.
    Analyze(analysis::AnalyzeArgs),
    /// Monte Carlo on all cores, beside the exact mean.
    Simulate(analysis::SimulateArgs),
    /// The minimum-throws assignment: the fewest throws when the player chooses
    /// every roll.
    MinThrows(analysis::MinThrowsArgs),
    /// Each player's exact chance to win from a position: every token's
    /// square and whose turn it is.
    Chances(chances::ChancesArgs),
    /// Design a board to targets: mean game length, its spread, fair seats,
    /// a least shortest game (each candidate judged exactly).
    Design(design::DesignArgs),
}

/// Runs a Chutes & Ladders command.
pub fn run(cmd: ChutesCommand) -> anyhow::Result<()> {
    match cmd {
        ChutesCommand::Play(args) => play::run(&args),
        ChutesCommand::Board(cmd) => board::run(cmd),
        ChutesCommand::Render(args) => pictures::render(&args),
        ChutesCommand::Plot(args) => pictures::plot(&args),
        ChutesCommand::Search(args) => analysis::search(&args),
        ChutesCommand::Shortest(args) => analysis::shortest(&args),
        ChutesCommand::Analyze(args) => analysis::analyze(&args),
        ChutesCommand::Simulate(args) => analysis::simulate(&args),
        ChutesCommand::MinThrows(args) => analysis::min_throws_cmd(&args),
        ChutesCommand::Chances(args) => chances::run(&args),
        ChutesCommand::Design(args) => design::run(&args),
    }
}
