//! `parlor chutes board show|check`: print or validate board files.

use crate::common::{FORMAT_NAMES, load_board, print_json};
use anyhow::{Result, bail};
use chutes::formats::write_toml;
use chutes::{Board, JumpKind};
use clap::{Subcommand, ValueEnum};
use games::board_files::BoardFormat;
use std::io::Write;
use tabletop::{Cell, count, plural};

/// Board file commands.
#[derive(Subcommand, Debug)]
pub enum BoardCommand {
    /// Print a board: its size, start, jumps and a picture in text.
    #[command(after_help = "Examples:
  parlor chutes board show classic
  parlor chutes board show leetcode.json --as toml > board.toml
  parlor chutes board show board.txt --format array --as json")]
    Show {
        /// `classic`, or a board file.
        board: String,
        /// Read the file as this format instead of detecting it.
        #[arg(long, value_name = FORMAT_NAMES)]
        format: Option<BoardFormat>,
        /// How to print it.
        #[arg(long = "as", value_enum, default_value_t = ShowAs::Text)]
        show_as: ShowAs,
    },
    /// Check board files: ok with a summary, or the first problem in each with its line and column.
    #[command(after_help = "Example:\n  parlor chutes board check boards/*.toml")]
    Check {
        /// Board files (or built-in names).
        #[arg(required = true)]
        boards: Vec<String>,
        /// Read the files as this format instead of detecting it.
        #[arg(long, value_name = FORMAT_NAMES)]
        format: Option<BoardFormat>,
    },
}

/// Output forms of `board show`.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ShowAs {
    /// A summary, the jumps and a text picture.
    Text,
    /// Parlor's TOML board file.
    Toml,
    /// JSON.
    Json,
}

/// Runs a board command.
pub fn run(cmd: BoardCommand) -> Result<()> {
    match cmd {
        BoardCommand::Show {
            board,
            format,
            show_as,
        } => {
            let board = load_board(&board, format)?;
            match show_as {
                ShowAs::Text => show_text(&board),
                ShowAs::Toml => {
                    let mut out = std::io::stdout().lock();
                    out.write_all(write_toml(&board).as_bytes())?;
                    Ok(())
                }
                ShowAs::Json => print_json(&board),
            }
        }
        BoardCommand::Check { boards, format } => {
            let mut out = std::io::stdout().lock();
            let mut bad = 0;
            for name in &boards {
                match load_board(name, format) {
                    Ok(board) => writeln!(out, "ok: {name}: {}", summary(&board))?,
                    Err(e) => {
                        bad += 1;
                        eprintln!("error: {e:#}");
                    }
                }
            }
            if bad > 0 {
                bail!(
                    "{bad} of {} {} not valid",
                    count(boards.len() as u64, "board file", "board files"),
                    plural(bad, "is", "are")
                );
            }
            Ok(())
        }
    }
}

fn summary(board: &Board) -> String {
    let g = board.geometry();
    format!(
        "{} squares ({} × {}, {}), start {}, {}, {}",
        board.size(),
        g.rows(),
        g.cols(),
        g.numbering(),
        if board.start() == 0 {
            "off the board".to_string()
        } else {
            "on square 1".to_string()
        },
        count(board.ladders().count() as u64, "ladder", "ladders"),
        count(board.chutes().count() as u64, "chute", "chutes")
    )
}

/// Widest board drawn as text.
const MAX_TEXT_COLUMNS: u32 = 30;

fn show_text(board: &Board) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {}",
        board.name().unwrap_or("board"),
        summary(board)
    )?;
    let list = |kind: JumpKind| -> String {
        let items: Vec<String> = board
            .jumps()
            .iter()
            .filter(|j| j.kind() == kind)
            .map(|j| format!("{}->{}", j.from, j.to))
            .collect();
        if items.is_empty() {
            "none".into()
        } else {
            items.join(" ")
        }
    };
    writeln!(out, "Ladders: {}", list(JumpKind::Ladder))?;
    writeln!(out, "Chutes:  {}", list(JumpKind::Chute))?;
    let g = board.geometry();
    if g.cols() > MAX_TEXT_COLUMNS {
        writeln!(
            out,
            "(The board is {} columns wide: too wide to draw as text.)",
            g.cols()
        )?;
        return Ok(());
    }
    writeln!(out)?;
    let width = board.size().to_string().len();
    for row in 0..g.rows() {
        let mut line = String::new();
        for col in 0..g.cols() {
            match g.square_at(Cell { row, col }) {
                Some(s) if s <= board.size() => {
                    let mark = match board.jump_at(s).map(|j| j.kind()) {
                        Some(JumpKind::Ladder) => '^',
                        Some(JumpKind::Chute) => 'v',
                        None => ' ',
                    };
                    line.push_str(&format!(" {s:>width$}{mark}"));
                }
                _ => line.push_str(&" ".repeat(width + 2)),
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out, "\n^ ladder starts here   v chute starts here")?;
    Ok(())
}
