//! `parlor`: the command line for every Parlor game.
//!
//! Glossary:
//! - **command**: a game (`chutes`, …) and what to do with it (`play`, …).
//! - **glue**: this binary parses arguments, calls a library and prints; it
//!   holds no game rules.

mod backup;
mod baffle;
mod chutes;
mod common;
mod health;
mod play;
mod progress;
mod replay;
mod serve;
mod tycoon;

use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// The allocator: mimalloc, whose per-thread heaps cost a server request
/// less than glibc's malloc (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Play, design, solve and draw classic board games.
#[derive(Parser, Debug)]
#[command(
    name = "parlor",
    version,
    about,
    propagate_version = true,
    after_help = "Examples:\n  parlor chutes play --seed 7\n  parlor chutes board show classic\n  parlor serve\n  parlor completions bash > /etc/bash_completion.d/parlor"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Chutes & Ladders: play, check boards, analyse.
    #[command(subcommand)]
    Chutes(chutes::ChutesCommand),
    /// Baffle, the laser box: play, trace beams, solve from shots, let the bot play, draw.
    #[command(subcommand)]
    Baffle(baffle::BaffleCommand),
    /// Snakes & Ladders Tycoon: check, design, play, simulate and draw grids.
    #[command(subcommand)]
    Tycoon(tycoon::TycoonCommand),
    /// Serve the browser app: play, design and analyse in a browser.
    Serve(serve::ServeArgs),
    /// Back up the server's SQLite store while it runs (a consistent copy).
    Backup(backup::BackupArgs),
    /// Ask a running server whether it is healthy (or ready): exit 0 if so.
    Health(health::HealthArgs),
    /// Step through a match's record (any game), move by move.
    Replay(replay::ReplayArgs),
    /// Print shell completions for `parlor`.
    #[command(after_help = "Example:\n  parlor completions zsh > ~/.zfunc/_parlor")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Chutes(cmd) => chutes::run(cmd),
        Command::Baffle(cmd) => baffle::run(cmd),
        Command::Serve(args) => serve::run(&args),
        Command::Backup(args) => backup::run(&args),
        Command::Health(args) => health::run(&args),
        Command::Replay(args) => replay::run(&games::Registry::standard(), &args),
        Command::Tycoon(cmd) => tycoon::run(cmd),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            // Written whole by us: clap_complete panics when its own write
            // fails, as it does when the reader goes away (`| head`).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "parlor", &mut script);
            let mut out = std::io::stdout().lock();
            out.write_all(&script)?;
            out.flush()?;
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A bad value from a variable is named by its variable.
            eprint!("{}", common::parse_error_words(&e, &Cli::command()));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if common::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
