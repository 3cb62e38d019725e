//! What several commands share: reading boards and rules, seeds, output.
//!
//! Terms:
//! - **board argument**: `classic` (a built-in name) or a board file path.
//! - **seed**: fixed with `--seed`, or drawn from the clock and printed so a
//!   game can be replayed.

use anyhow::{Context, Result};
use chutes::formats;
use chutes::{Board, Overshoot, Rules};
use clap::Args;
use games::board_files::{self, BoardFormat};
use std::path::Path;

/// `--board`, `--format`, `--rules` and `--faces`.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// `classic`, or a board file (TOML, board array, LeetCode 909 JSON, N and move[], Tycoon grid).
    #[arg(
        long,
        short = 'b',
        default_value = "classic",
        value_name = "classic|FILE"
    )]
    pub board: String,
    /// Read the board file as this format instead of detecting it.
    #[arg(long, value_name = FORMAT_NAMES)]
    pub format: Option<BoardFormat>,
    /// What a roll that would pass the finish does.
    #[arg(long, default_value = "stay", value_name = "stay|bounce|finish")]
    pub rules: Overshoot,
    /// Faces of the die (1 to 64).
    #[arg(long, default_value_t = 6)]
    pub faces: u32,
}

impl BoardArgs {
    /// The board and rules these arguments name.
    pub fn load(&self) -> Result<(Board, Rules)> {
        let board = load_board(&self.board, self.format)?;
        let rules = Rules::new(self.rules, self.faces)?;
        Ok((board, rules))
    }
}

/// The board formats `--format` takes, for help.
pub const FORMAT_NAMES: &str = "toml|array|leetcode|moves|tycoon";

/// Says a reader's notes on stderr (`note: FILE: line 1, column 13: …`), so
/// that stdout keeps only the answer (a TOML board, a JSON document).
pub fn print_notes(source: &str, notes: &[formats::Note]) {
    for note in notes {
        eprintln!("note: {source}: {note}");
    }
}

/// A built-in board by name, or a board file; the reader's notes are said
/// on stderr.
pub fn load_board(source: &str, format: Option<BoardFormat>) -> Result<Board> {
    if format.is_none()
        && let Some(board) = formats::builtin(source)
    {
        return Ok(board);
    }
    let path = Path::new(source);
    let text = std::fs::read_to_string(path).with_context(|| {
        if path.exists() {
            format!("cannot read board file {source}")
        } else {
            format!(
                "no board file {source} (and no built-in board of that name; built-in: {})",
                formats::BUILTIN_NAMES.join(", ")
            )
        }
    })?;
    let name = path.file_name().and_then(|n| n.to_str());
    let read = board_files::read_board(&text, format, name)
        .with_context(|| format!("{source} is not a valid board"))?;
    print_notes(source, &read.notes);
    Ok(read.board)
}

/// The seed to use: the one given, or a fresh one from the clock.
pub fn seed_or_fresh(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish() % 1_000_000_000
    })
}

/// Rolls as `--dice` takes them (the library's one dice text).
pub use chutes::analysis::report::dice_text as dice_string;

/// True when `err` is only a closed stdout (as with `| head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let pipe = Some(std::io::ErrorKind::BrokenPipe);
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().map(|e| e.kind()) == pipe
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == pipe
    })
}

/// Prints `value`'s words (its `Display`) on stdout.
pub fn print_text(value: &impl std::fmt::Display) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    write!(out, "{value}")?;
    Ok(())
}

/// Prints `value` as pretty JSON on stdout.
pub fn print_json(value: &impl serde::Serialize) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// Saves `picture` to `path` (SVG or PNG by its extension, `size` pixels on
/// the longer side) and says on stdout what was written.
pub fn save_picture(picture: &render::Picture, path: &Path, size: u32, what: &str) -> Result<()> {
    let format = render::save(picture, path, Some(size))?;
    let (w, h) = picture.pixel_size(Some(size));
    let kind = match format {
        render::Format::Svg => "SVG",
        render::Format::Png => "PNG",
    };
    println!("wrote {} ({kind}, {w} × {h}): {what}", path.display());
    Ok(())
}

/// How to name option `--long` whose variable is `var` in a message: the
/// variable when the value came from it (it is set and the command line
/// does not give the option), else the option.
pub fn source_of(long: &str, var: &str) -> String {
    let given = std::env::args_os().any(|a| {
        let a = a.to_string_lossy();
        a == long || a.starts_with(&format!("{long}="))
    });
    if !given && std::env::var_os(var).is_some() {
        format!("{var} (the variable for {long})")
    } else {
        long.to_string()
    }
}

/// A command-line error from clap, said with the variable a bad value came
/// from when it came from one (clap names the option either way).
pub fn parse_error_words(error: &clap::Error, command: &clap::Command) -> String {
    use clap::error::{ContextKind, ContextValue};
    let text = error.render().to_string();
    let Some(ContextValue::String(arg)) = error.get(ContextKind::InvalidArg) else {
        return text;
    };
    let Some(long) = arg
        .split_whitespace()
        .next()
        .filter(|l| l.starts_with("--"))
    else {
        return text;
    };
    let name = long.trim_start_matches("--");
    let mut commands = vec![command];
    while let Some(c) = commands.pop() {
        for a in c.get_arguments() {
            if a.get_long() == Some(name) {
                if let Some(var) = a.get_env() {
                    let named = source_of(long, &var.to_string_lossy());
                    if named != long {
                        return text.replace(&format!("'{arg}'"), &named);
                    }
                }
            }
        }
        commands.extend(c.get_subcommands());
    }
    text
}
