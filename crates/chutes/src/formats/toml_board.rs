//! Parlor's TOML board file (documented in docs/board-files.md).
//!
//! ```toml
//! name = "My board"            # optional
//! size = 100                   # squares; square `size` is the finish
//! start = 0                    # optional: 0 = off the board (default), 1
//! rows = 10                    # optional, with `columns`
//! columns = 10
//! numbering = "boustrophedon"  # optional: or "row-major"
//! ladders = [[1, 38], [4, 14]] # [from, to], going up
//! chutes = [[16, 6]]           # [from, to], going down
//! jumps = []                   # optional: [from, to] either way
//! ```
//!
//! Terms: a **ladders** entry must go up and a **chutes** entry down; a
//! **jumps** entry may go either way.

use super::{Format, ParseError, Pos};
use crate::board::{Board, BoardError, BoardSpec, Jump, JumpKind};
use serde::Deserialize;
use std::fmt::Write as _;
use tabletop::{Geometry, Numbering};
use toml::Spanned;

const FORMAT: Format = Format::Toml;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    size: Spanned<i64>,
    start: Option<Spanned<i64>>,
    rows: Option<Spanned<i64>>,
    columns: Option<Spanned<i64>>,
    numbering: Option<Spanned<String>>,
    #[serde(default)]
    ladders: Vec<Spanned<Vec<Spanned<i64>>>>,
    #[serde(default)]
    chutes: Vec<Spanned<Vec<Spanned<i64>>>>,
    #[serde(default)]
    jumps: Vec<Spanned<Vec<Spanned<i64>>>>,
}

struct Reader<'a> {
    text: &'a str,
}

impl Reader<'_> {
    fn pos<T>(&self, value: &Spanned<T>) -> Pos {
        Pos::of_offset(self.text, value.span().start)
    }

    fn err<T>(&self, value: &Spanned<T>, message: impl Into<String>) -> ParseError {
        ParseError::at(FORMAT, self.pos(value), message)
    }

    fn number<T: TryFrom<i64>>(&self, value: &Spanned<i64>, what: &str) -> Result<T, ParseError> {
        T::try_from(*value.get_ref())
            .map_err(|_| self.err(value, format!("{what} {} is out of range", value.get_ref())))
    }
}

/// Reads a TOML board file.
pub(crate) fn parse(text: &str) -> Result<Board, ParseError> {
    let file: File = toml::from_str(text).map_err(|e| ParseError {
        format: FORMAT,
        pos: e.span().map(|s| Pos::of_offset(text, s.start)),
        message: e.message().trim().to_string(),
    })?;
    let r = Reader { text };
    let size: u32 = r.number(&file.size, "size")?;
    let start: u32 = match &file.start {
        Some(s) => r.number(s, "start")?,
        None => 0,
    };
    let numbering = match &file.numbering {
        Some(n) => n
            .get_ref()
            .parse::<Numbering>()
            .map_err(|e| r.err(n, e.to_string()))?,
        None => Numbering::Boustrophedon,
    };
    let geometry = match (&file.rows, &file.columns) {
        (Some(rows), Some(cols)) => {
            let g = Geometry::new(
                r.number(rows, "rows")?,
                r.number(cols, "columns")?,
                numbering,
            )
            .map_err(|e| r.err(rows, e.to_string()))?;
            g.check_holds(size)
                .map_err(|e| r.err(rows, e.to_string()))?;
            Some(g)
        }
        (Some(one), None) | (None, Some(one)) => {
            return Err(r.err(one, "give both rows and columns, or neither"));
        }
        (None, None) => file
            .numbering
            .is_some()
            .then(|| Geometry::fitting(size, numbering)),
    };
    let mut jumps = Vec::new();
    let mut places = Vec::new();
    let lists = [
        (&file.ladders, Some(JumpKind::Ladder)),
        (&file.chutes, Some(JumpKind::Chute)),
        (&file.jumps, None),
    ];
    for (list, kind) in lists {
        for entry in list {
            let pair = entry.get_ref();
            if pair.len() != 2 {
                return Err(r.err(
                    entry,
                    format!(
                        "a jump is [from, to], two squares, not {} numbers",
                        pair.len()
                    ),
                ));
            }
            let from: u32 = r.number(&pair[0], "square")?;
            let to: u32 = r.number(&pair[1], "square")?;
            let jump = Jump::new(from, to);
            if let Some(given) = kind
                && from != to
                && jump.kind() != given
            {
                return Err(r.err(entry, BoardError::WrongKind { jump, given }.to_string()));
            }
            jumps.push(jump);
            places.push(r.pos(entry));
        }
    }
    let spec = BoardSpec {
        name: file.name,
        size,
        start,
        jumps: jumps.clone(),
        geometry,
    };
    Board::new(spec).map_err(|e| {
        let pos = match &e {
            BoardError::Size(_) => Some(r.pos(&file.size)),
            BoardError::Start(_) => file.start.as_ref().map(|s| r.pos(s)),
            _ => e
                .jump()
                .and_then(|j| jumps.iter().rposition(|&k| k == j))
                .map(|i| places[i]),
        };
        ParseError {
            format: FORMAT,
            pos,
            message: e.to_string(),
        }
    })
}

/// Writes `board` as a TOML board file that reads back as the same board.
pub fn write_toml(board: &Board) -> String {
    let mut out = String::new();
    if let Some(name) = board.name() {
        let quoted = toml::Value::String(name.to_string()).to_string();
        let _ = writeln!(out, "name = {quoted}");
    }
    let g = board.geometry();
    let _ = writeln!(out, "size = {}", board.size());
    let _ = writeln!(out, "start = {}", board.start());
    let _ = writeln!(out, "rows = {}", g.rows());
    let _ = writeln!(out, "columns = {}", g.cols());
    let _ = writeln!(out, "numbering = \"{}\"", g.numbering());
    let list = |jumps: Vec<Jump>| {
        let items: Vec<String> = jumps
            .iter()
            .map(|j| format!("[{}, {}]", j.from, j.to))
            .collect();
        format!("[{}]", items.join(", "))
    };
    let _ = writeln!(out, "ladders = {}", list(board.ladders().collect()));
    let _ = writeln!(out, "chutes = {}", list(board.chutes().collect()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_reads() {
        let text = r#"
name = "Tiny"
size = 12
start = 1
rows = 3
columns = 4
numbering = "row-major"
ladders = [[2, 9]]
chutes = [[11, 3]]
jumps = [[5, 7]]
"#;
        let board = parse(text).unwrap();
        assert_eq!(board.name(), Some("Tiny"));
        assert_eq!(board.start(), 1);
        assert_eq!(board.geometry().numbering(), Numbering::RowMajor);
        assert_eq!(
            board.jumps(),
            &[Jump::new(2, 9), Jump::new(5, 7), Jump::new(11, 3)]
        );
    }

    #[test]
    fn the_classic_board_round_trips() {
        let board = Board::classic();
        let text = write_toml(&board);
        assert_eq!(parse(&text).unwrap(), board);
        let odd = Board::new(BoardSpec {
            name: Some("quote \" and \\ backslash".into()),
            size: 7,
            start: 1,
            jumps: vec![Jump::new(3, 6)],
            geometry: Some(Geometry::new(1, 7, Numbering::RowMajor).unwrap()),
        })
        .unwrap();
        assert_eq!(parse(&write_toml(&odd)).unwrap(), odd);
    }

    #[test]
    fn errors_point_at_the_entry() {
        let err = parse("size = 10\nladders = [[2, 5],\n  [7, 3]]").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 3, col: 3 }));
        assert_eq!(
            err.message,
            "chute 7→3 was given as a ladder, but it goes down"
        );
        let err = parse("size = 10\nladders = [[2, 5]]\nchutes = [[2, 1]]").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 3, col: 11 }));
        assert!(err.message.contains("square 2 starts two jumps"), "{err}");
        let err = parse("size = 10\nchutes = [[12, 1]]").unwrap_err();
        assert!(err.message.contains("not inside the board"), "{err}");
        let err = parse("size = 10\njumps = [[1, 2, 3]]").unwrap_err();
        assert!(err.message.contains("two squares"), "{err}");
        let err = parse("size = 1").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 1, col: 8 }));
        let err = parse("size = -5").unwrap_err();
        assert!(err.message.contains("size -5 is out of range"), "{err}");
        let err = parse("size = 10\nstart = 3").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 9 }));
        let err = parse("size = 10\nrows = 3").unwrap_err();
        assert!(err.message.contains("both rows and columns"), "{err}");
        let err = parse("size = 10\nrows = 3\ncolumns = 3").unwrap_err();
        assert!(err.message.contains("cannot hold 10 squares"), "{err}");
        let err = parse("size = 10\nnumbering = \"spiral\"").unwrap_err();
        assert!(err.message.contains("spiral"), "{err}");
    }

    #[test]
    fn syntax_errors_and_unknown_keys_have_positions() {
        let err = parse("size = 10\nladders = [[2, x]]").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(2));
        let err = parse("size = 10\nladder = [[2, 5]]").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(2));
        assert!(err.message.contains("ladder"), "{err}");
        let err = parse("start = 0").unwrap_err();
        assert!(err.message.contains("size"), "{err}");
    }
}
