//! Board files: reading every supported format, and telling them apart.
//!
//! Terms:
//! - **format**: how a board is written ([`Format`]): a TOML board file, the
//!   original assignments' board array, a LeetCode 909 grid, or the
//!   minimum-throws assignment's `N` and `move[]`. (A Tycoon grid file is
//!   read as a board by the front ends, from the `tycoon` crate's jumps:
//!   this crate depends on no other game.)
//! - **built-in**: a board known by name (`classic`).
//! - **detection**: choosing the format from the file's extension, then its
//!   content, when none is forced.
//! - **position**: the 1-based line and column an error points at ([`Pos`]).
//! - **note** ([`Note`]): something a reader noticed and how it read it
//!   (LeetCode's self-jump read as no jump), not an error.
//!
//! The library does no I/O: callers read the file and pass its text.

mod array;
mod leetcode;
mod moves;
mod scan;
mod toml_board;

use crate::board::Board;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

pub use leetcode::LEETCODE_MAX_SIDE;
pub use toml_board::write_toml;

/// A place in a text: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
}

impl Pos {
    /// The position of byte `offset` in `text` (clamped to the text).
    pub fn of_offset(text: &str, offset: usize) -> Self {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Self {
            line,
            col: before[line_start..].chars().count() + 1,
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.col)
    }
}

/// How a board is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Parlor's TOML board file (docs/board-files.md).
    Toml,
    /// The Java and C assignments' array: N+1 integers, index 0 ignored, 0 =
    /// no jump, else the far end.
    Array,
    /// LeetCode 909: an n×n JSON grid, boustrophedon from the bottom-left,
    /// -1 = no jump, start on square 1.
    Leetcode,
    /// The minimum-throws assignment's form: `N`, then `move[0..N-1]`,
    /// 0-based, -1 = no jump; cells keep their numbers, start on 0.
    Moves,
}

impl Format {
    /// Every format, in the order detection considers them.
    pub const ALL: [Self; 4] = [Self::Toml, Self::Leetcode, Self::Moves, Self::Array];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Toml => "toml",
            Self::Array => "array",
            Self::Leetcode => "leetcode",
            Self::Moves => "moves",
        }
    }

    /// What the format is, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Toml => "a TOML board file",
            Self::Array => "a board array (N+1 integers)",
            Self::Leetcode => "a LeetCode 909 grid",
            Self::Moves => "an N and move[0..N-1] list",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .find(|f| f.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|f| f.name()).collect();
                format!("unknown board format '{s}' (expected {})", names.join(", "))
            })
    }
}

/// A board file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message} (reading {})", pos.map(|p| format!("{p}: ")).unwrap_or_default(), format.describe())]
pub struct ParseError {
    /// The format the text was read as.
    pub format: Format,
    /// Where the problem is, when it has a place.
    pub pos: Option<Pos>,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    /// An error at `pos`.
    pub fn at(format: Format, pos: Pos, message: impl Into<String>) -> Self {
        Self {
            format,
            pos: Some(pos),
            message: message.into(),
        }
    }

    /// An error about the whole text.
    pub fn whole(format: Format, message: impl Into<String>) -> Self {
        Self {
            format,
            pos: None,
            message: message.into(),
        }
    }
}

/// Something a reader noticed and how it read it: not an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Where, when it has a place.
    pub pos: Option<Pos>,
    /// What was noticed and how it was read.
    pub message: String,
}

impl Note {
    pub(crate) fn at(pos: Pos, message: impl Into<String>) -> Self {
        Self {
            pos: Some(pos),
            message: message.into(),
        }
    }

    pub(crate) fn whole(message: impl Into<String>) -> Self {
        Self {
            pos: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(pos) = self.pos {
            write!(f, "{pos}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// A board read from a text, the format it was read as, and the reader's
/// notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadBoard {
    /// The board.
    pub board: Board,
    /// The format it was read as (forced or detected).
    pub format: Format,
    /// What the reader noticed (empty for most files).
    pub notes: Vec<Note>,
}

/// The board known by `name` (`classic`), if any.
pub fn builtin(name: &str) -> Option<Board> {
    match name.trim().to_ascii_lowercase().as_str() {
        "classic" => Some(Board::classic()),
        _ => None,
    }
}

/// The names of the built-in boards.
pub const BUILTIN_NAMES: [&str; 1] = ["classic"];

/// Guesses the format of `text`, from `file_name`'s extension when it has a
/// telling one, else from the content.
pub fn detect(text: &str, file_name: Option<&str>) -> Format {
    let extension = file_name
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, ext)| ext.to_ascii_lowercase());
    match extension.as_deref() {
        Some("toml") => return Format::Toml,
        Some("json") => return Format::Leetcode,
        _ => {}
    }
    let looks_like_toml = text.lines().any(|line| {
        let line = line.trim_start();
        line.strip_prefix("size")
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    if looks_like_toml {
        return Format::Toml;
    }
    let body = text.split_once('=').map_or(text, |(_, rest)| rest);
    let mut significant = body.chars().filter(|c| !c.is_whitespace());
    if significant.next() == Some('[') && significant.next() == Some('[') {
        return Format::Leetcode;
    }
    if moves::looks_like(text) {
        return Format::Moves;
    }
    Format::Array
}

/// Reads a board from `text` in `format`, or in the detected format when
/// `format` is `None`, with the reader's notes. `file_name` helps detection
/// and names the board.
///
/// # Errors
/// A [`ParseError`] with the line and column of the first problem: a
/// malformed number, a wrong count, a square off the board, or any broken
/// board rule.
pub fn read_board(
    text: &str,
    format: Option<Format>,
    file_name: Option<&str>,
) -> Result<ReadBoard, ParseError> {
    let format = format.unwrap_or_else(|| detect(text, file_name));
    let (board, notes) = match format {
        Format::Toml => (toml_board::parse(text)?, Vec::new()),
        Format::Array => (array::parse(text)?, Vec::new()),
        Format::Leetcode => leetcode::parse(text)?,
        Format::Moves => moves::parse(text)?,
    };
    let board = match (board.name(), file_name) {
        (None, Some(file)) => {
            let stem = file.rsplit(['/', '\\']).next().unwrap_or(file);
            board.with_name(stem)
        }
        _ => board,
    };
    Ok(ReadBoard {
        board,
        format,
        notes,
    })
}

/// [`read_board`]'s board alone, for callers that show no notes.
///
/// # Errors
/// As [`read_board`].
pub fn parse_board(
    text: &str,
    format: Option<Format>,
    file_name: Option<&str>,
) -> Result<Board, ParseError> {
    read_board(text, format, file_name).map(|read| read.board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_uses_extension_then_content() {
        assert_eq!(detect("", Some("b.toml")), Format::Toml);
        assert_eq!(detect("", Some("B.JSON")), Format::Leetcode);
        assert_eq!(detect("size = 10\n", None), Format::Toml);
        assert_eq!(
            detect("board = [[-1, 2], [-1, -1]]", None),
            Format::Leetcode
        );
        assert_eq!(detect(" [ [-1]]", None), Format::Leetcode);
        assert_eq!(detect("int board[] = {-1, 0, 0}", None), Format::Array);
        assert_eq!(detect("-1 0 0 0", None), Format::Array);
        assert_eq!(detect("4\n-1 2 -1 -1\n", None), Format::Moves);
        assert_eq!(detect("4\n0 2 0 0\n", None), Format::Array);
    }

    #[test]
    fn positions_of_offsets() {
        let text = "ab\ncdé\nf";
        assert_eq!(Pos::of_offset(text, 0), Pos { line: 1, col: 1 });
        assert_eq!(Pos::of_offset(text, 3), Pos { line: 2, col: 1 });
        assert_eq!(Pos::of_offset(text, 8), Pos { line: 3, col: 1 });
        assert_eq!(Pos::of_offset(text, 999), Pos { line: 3, col: 2 });
        assert_eq!(Pos::of_offset(text, 6), Pos { line: 2, col: 3 });
    }

    #[test]
    fn formats_parse_from_their_names() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
        }
        let err = "xml".parse::<Format>().unwrap_err();
        assert!(err.contains("toml"), "{err}");
    }

    #[test]
    fn builtins_are_found_by_name() {
        assert_eq!(builtin("Classic").unwrap(), Board::classic());
        assert!(builtin("nope").is_none());
    }

    #[test]
    fn file_names_name_boards() {
        let board = parse_board("0 0 0", None, Some("dir/tiny.txt")).unwrap();
        assert_eq!(board.name(), Some("tiny.txt"));
    }
}
