//! Board files of every kind read as Chutes & Ladders boards: the `chutes`
//! formats, and a Snakes & Ladders Tycoon grid file.
//!
//! Terms:
//! - **board format** ([`BoardFormat`]): one of `chutes`' formats, or
//!   `tycoon`. The `chutes` crate depends on no other game, so the Tycoon
//!   grid is read here, beside the registry of games: the one place both
//!   front ends (the CLI and the server) read board files through.
//! - **Tycoon board**: a grid file read by `tycoon`'s one parser and
//!   validator; its ladders and snakes ([`tycoon::Grid::jumps`]) become the
//!   jumps of a 99-square board drawn 9 × 11 row-major, tokens starting on
//!   square 1. The cards are checked with the rest of the grid, then left
//!   out.

use chutes::formats::{self, Format, Note, ParseError, Pos};
use chutes::{Board, BoardSpec, Jump};
use std::fmt;
use std::str::FromStr;

/// How a board file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardFormat {
    /// One of the `chutes` formats.
    Chutes(Format),
    /// A Snakes & Ladders Tycoon grid file: its ladders and snakes on 99
    /// squares, 9 × 11 row-major, start on square 1.
    Tycoon,
}

impl BoardFormat {
    /// Every format, in the order detection considers them.
    pub const ALL: [Self; 5] = [
        Self::Chutes(Format::Toml),
        Self::Chutes(Format::Leetcode),
        Self::Tycoon,
        Self::Chutes(Format::Moves),
        Self::Chutes(Format::Array),
    ];

    /// The format's name on the command line and in the API.
    pub fn name(self) -> &'static str {
        match self {
            Self::Chutes(f) => f.name(),
            Self::Tycoon => "tycoon",
        }
    }

    /// What the format is, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Chutes(f) => f.describe(),
            Self::Tycoon => "a Tycoon grid file",
        }
    }
}

impl fmt::Display for BoardFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardFormat {
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
pub enum BoardFileError {
    /// A `chutes` format's error, with its line and column.
    #[error(transparent)]
    Chutes(#[from] ParseError),
    /// A Tycoon grid file's first problem, with its line and column.
    #[error("{}{message} (reading a Tycoon grid file)", pos.map(|p| format!("{p}: ")).unwrap_or_default())]
    Tycoon {
        /// Where the first problem is, when it has a place.
        pos: Option<Pos>,
        /// What is wrong (and how many more problems there are).
        message: String,
    },
}

impl BoardFileError {
    /// Where the problem is, when it has a place.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            Self::Chutes(e) => e.pos,
            Self::Tycoon { pos, .. } => *pos,
        }
    }
}

/// Guesses the format of `text`: a `.grid` file, or a text with the grid
/// file's line structure, is a Tycoon grid; anything else is as
/// [`formats::detect`] says.
pub fn detect(text: &str, file_name: Option<&str>) -> BoardFormat {
    let grid_extension = file_name
        .and_then(|n| n.rsplit_once('.'))
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("grid"));
    if grid_extension {
        return BoardFormat::Tycoon;
    }
    match formats::detect(text, file_name) {
        f @ (Format::Toml | Format::Leetcode) => BoardFormat::Chutes(f),
        _ if tycoon::looks_like_grid_file(text) => BoardFormat::Tycoon,
        f => BoardFormat::Chutes(f),
    }
}

/// A board read from a file, the format it was read as, and the reader's
/// notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardFile {
    /// The board.
    pub board: Board,
    /// The format it was read as (forced or detected).
    pub format: BoardFormat,
    /// What the reader noticed (a LeetCode self-jump read as no jump…).
    pub notes: Vec<Note>,
}

/// Reads a board from `text` in `format`, or in the detected format when
/// `format` is `None`, with the reader's notes. `file_name` helps detection
/// and names the board.
///
/// # Errors
/// A [`BoardFileError`] with the line and column of the first problem.
pub fn read_board(
    text: &str,
    format: Option<BoardFormat>,
    file_name: Option<&str>,
) -> Result<BoardFile, BoardFileError> {
    let format = format.unwrap_or_else(|| detect(text, file_name));
    match format {
        BoardFormat::Chutes(f) => {
            let read = formats::read_board(text, Some(f), file_name)?;
            Ok(BoardFile {
                board: read.board,
                format,
                notes: read.notes,
            })
        }
        BoardFormat::Tycoon => {
            let board = tycoon_board(text)?;
            let board = match file_name {
                Some(file) => board.with_name(file.rsplit(['/', '\\']).next().unwrap_or(file)),
                None => board,
            };
            Ok(BoardFile {
                board,
                format,
                notes: Vec::new(),
            })
        }
    }
}

/// A Tycoon grid file as a board of its ladders and snakes.
fn tycoon_board(text: &str) -> Result<Board, BoardFileError> {
    let grid = tycoon::parse_grid(text).map_err(|e| {
        let more = e.errors.len().saturating_sub(1);
        match e.errors.first() {
            Some(first) => {
                let message = match &first.problem {
                    tycoon::file::LineProblem::Syntax(s) => s.clone(),
                    tycoon::file::LineProblem::Rule(r) => r.to_string(),
                };
                let message = if more > 0 {
                    format!(
                        "{message} (and {more} more problem{})",
                        if more == 1 { "" } else { "s" }
                    )
                } else {
                    message
                };
                BoardFileError::Tycoon {
                    pos: Some(Pos {
                        line: first.line.max(1),
                        col: first.col.unwrap_or(1),
                    }),
                    message,
                }
            }
            None => BoardFileError::Tycoon {
                pos: None,
                message: e.to_string(),
            },
        }
    })?;
    Board::new(BoardSpec {
        name: None,
        size: tycoon::cells::LAST,
        start: tycoon::cells::FIRST,
        jumps: grid.jumps().map(|(from, to)| Jump::new(from, to)).collect(),
        geometry: Some(tycoon::cells::geometry()),
    })
    .map_err(|e| BoardFileError::Tycoon {
        pos: None,
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_grid_is_a_99_square_board_of_its_ladders_and_snakes() {
        let read = read_board(tycoon::SAMPLE_GRID, None, Some("dir/sample.grid")).unwrap();
        assert_eq!(read.format, BoardFormat::Tycoon);
        assert!(read.notes.is_empty());
        let board = read.board;
        assert_eq!(board.name(), Some("sample.grid"));
        assert_eq!((board.size(), board.start()), (99, 1));
        let ladders: Vec<Jump> = board.ladders().collect();
        let snakes: Vec<Jump> = board.chutes().collect();
        assert_eq!(
            ladders,
            [(10, 32), (16, 71), (46, 68), (75, 86)].map(|(a, b)| Jump::new(a, b))
        );
        assert_eq!(
            snakes,
            [(34, 23), (59, 37), (78, 56), (85, 30)].map(|(a, b)| Jump::new(a, b))
        );
        assert_eq!(
            board.geometry(),
            tabletop::Geometry::new(9, 11, tabletop::Numbering::RowMajor).unwrap()
        );
    }

    #[test]
    fn detection_puts_grid_files_among_the_chutes_formats() {
        assert_eq!(detect("", Some("my.GRID")), BoardFormat::Tycoon);
        assert_eq!(detect(tycoon::SAMPLE_GRID, None), BoardFormat::Tycoon);
        assert_eq!(detect("0\n0\n0\n", Some("empty")), BoardFormat::Tycoon);
        assert_eq!(
            detect("size = 10\n", None),
            BoardFormat::Chutes(Format::Toml)
        );
        assert_eq!(
            detect("[[-1,-1],[-1,3]]", None),
            BoardFormat::Chutes(Format::Leetcode)
        );
        assert_eq!(
            detect("4\n-1 2 -1 -1\n", None),
            BoardFormat::Chutes(Format::Moves)
        );
        assert_eq!(detect("0 0 0", None), BoardFormat::Chutes(Format::Array));
        for f in BoardFormat::ALL {
            assert_eq!(f.name().parse::<BoardFormat>().unwrap(), f);
        }
        let err = "xml".parse::<BoardFormat>().unwrap_err();
        assert!(
            err.contains("toml, leetcode, tycoon, moves, array"),
            "{err}"
        );
    }

    #[test]
    fn bad_grid_files_keep_their_lines_and_columns() {
        let err = read_board("1\n10 33\n0\n0\n", Some(BoardFormat::Tycoon), None).unwrap_err();
        assert_eq!(err.pos(), Some(Pos { line: 2, col: 1 }));
        assert!(err.to_string().starts_with("line 2, column 1: "), "{err}");
        assert!(
            err.to_string().ends_with("(reading a Tycoon grid file)"),
            "{err}"
        );
        let err = read_board("1\n10 3x\n1\n5 2\n0\n", None, Some("bad.grid")).unwrap_err();
        assert_eq!(err.pos(), Some(Pos { line: 2, col: 4 }));
        assert!(err.to_string().contains("and 1 more problem"), "{err}");
        let err = read_board("1\n10 32\n1\n20 10\n0\n", None, Some("bad.grid")).unwrap_err();
        assert_eq!(err.pos(), Some(Pos { line: 4, col: 1 }));
        // A chutes format's error is the chutes error, unchanged.
        let err = read_board("0 0 2 0", None, None).unwrap_err();
        assert!(matches!(err, BoardFileError::Chutes(_)));
        assert!(err.to_string().contains("same square"), "{err}");
    }
}
