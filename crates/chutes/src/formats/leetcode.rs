//! LeetCode 909 ("Snakes and Ladders"): an n×n grid as JSON, written from
//! the top row down, squares numbered boustrophedon from the bottom-left,
//! `-1` for no jump, else the far end. Tokens start on square 1.
//!
//! Terms:
//! - **grid row**: a row as written, the first one being the board's top.
//! - **self-jump**: a square whose entry is its own label. LeetCode allows
//!   it and it moves nobody, so it reads as no jump, said in a [`Note`].
//! - An optional `board =` before the grid, as the problem statement prints
//!   its examples, is skipped.
//!
//! LeetCode's constraints: `2 ≤ n ≤ 20`, every entry `-1` or a square
//! `1..=n²`, and squares 1 and n² start no snake or ladder. Every grid
//! within them is read; a grid larger than 20 × 20 is read too, with a note
//! that LeetCode would not pose it. An entry on square 1 or n² other than
//! -1 (or the square itself) is refused, naming the square.

use super::scan::{Token, describe, scan};
use super::{Format, Note, ParseError, Pos};
use crate::board::{Board, BoardSpec, Jump, MAX_SQUARES};
use tabletop::{Cell, Geometry, Numbering};

const FORMAT: Format = Format::Leetcode;

/// LeetCode 909's largest grid side.
pub const LEETCODE_MAX_SIDE: usize = 20;

struct Cursor {
    tokens: Vec<(Token, Pos)>,
    next: usize,
    end: Pos,
}

impl Cursor {
    fn peek(&self) -> Option<&(Token, Pos)> {
        self.tokens.get(self.next)
    }

    fn take(&mut self) -> Option<(Token, Pos)> {
        let t = self.tokens.get(self.next).cloned();
        self.next += 1;
        t
    }

    fn expect(&mut self, c: char, what: &str) -> Result<Pos, ParseError> {
        match self.take() {
            Some((Token::Punct(p), pos)) if p == c => Ok(pos),
            Some((t, pos)) => Err(ParseError::at(
                FORMAT,
                pos,
                format!("expected {what}, found {}", describe(&t)),
            )),
            None => Err(ParseError::at(
                FORMAT,
                self.end,
                format!("expected {what}, but the text ended"),
            )),
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if matches!(self.peek(), Some((Token::Punct(p), _)) if *p == c) {
            self.next += 1;
            true
        } else {
            false
        }
    }
}

/// Reads a LeetCode 909 grid, with a note for each self-jump.
pub(crate) fn parse(text: &str) -> Result<(Board, Vec<Note>), ParseError> {
    let mut tokens = scan(text);
    if let Some(eq) = tokens.iter().position(|(t, _)| *t == Token::Punct('=')) {
        tokens.drain(..=eq);
    }
    let end = Pos::of_offset(text, text.len());
    let mut cur = Cursor {
        tokens,
        next: 0,
        end,
    };
    let rows = read_rows(&mut cur)?;
    let n = rows.len();
    if n < 2 {
        return Err(ParseError::whole(
            FORMAT,
            format!(
                "the grid has {}; a board needs at least a 2×2 grid",
                tabletop::count(n as u64, "row", "rows")
            ),
        ));
    }
    if n * n > MAX_SQUARES as usize {
        return Err(ParseError::whole(
            FORMAT,
            format!("a {n}×{n} grid has more than {MAX_SQUARES} squares"),
        ));
    }
    let mut notes = Vec::new();
    if n > LEETCODE_MAX_SIDE {
        notes.push(Note::whole(format!(
            "a {n}×{n} grid is larger than LeetCode 909 poses (n ≤ {LEETCODE_MAX_SIDE}): read all the same"
        )));
    }
    let n32 = n as u32;
    let size = n32 * n32;
    let geometry = Geometry::new(n32, n32, Numbering::Boustrophedon)
        .map_err(|e| ParseError::whole(FORMAT, e.to_string()))?;
    let mut jumps = Vec::new();
    let mut places = Vec::new();
    for (r, (row_pos, row)) in rows.iter().enumerate() {
        if row.len() != n {
            return Err(ParseError::at(
                FORMAT,
                *row_pos,
                format!(
                    "row {} has {} numbers, but the grid has {n} rows: every row needs {n}",
                    r + 1,
                    row.len()
                ),
            ));
        }
        for (c, &(value, pos)) in row.iter().enumerate() {
            if value == -1 {
                continue;
            }
            if value < 1 || value > i64::from(size) {
                return Err(ParseError::at(
                    FORMAT,
                    pos,
                    format!("{value} is not a square 1 to {size} (or -1 for no jump)"),
                ));
            }
            let cell = Cell {
                row: r as u32,
                col: c as u32,
            };
            let from = geometry.square_at(cell).unwrap_or(0);
            if i64::from(from) == value {
                notes.push(Note::at(
                    pos,
                    format!("square {from} holds {value}, its own label: read as no jump"),
                ));
                continue;
            }
            jumps.push(Jump::new(from, value as u32));
            places.push(pos);
        }
    }
    let spec = BoardSpec {
        name: None,
        size,
        start: 1,
        jumps: jumps.clone(),
        geometry: Some(geometry),
    };
    let board = Board::new(spec).map_err(|e| {
        let pos = e
            .jump()
            .and_then(|j| jumps.iter().position(|&k| k == j))
            .map(|i| places[i]);
        ParseError {
            format: FORMAT,
            pos,
            message: e.to_string(),
        }
    })?;
    Ok((board, notes))
}

type Row = (Pos, Vec<(i64, Pos)>);

fn read_rows(cur: &mut Cursor) -> Result<Vec<Row>, ParseError> {
    cur.expect('[', "'[' to open the grid")?;
    let mut rows = Vec::new();
    if !cur.eat(']') {
        loop {
            let row_pos = cur.expect('[', "'[' to open a row")?;
            let mut row = Vec::new();
            if !cur.eat(']') {
                loop {
                    match cur.take() {
                        Some((Token::Int(v), pos)) => row.push((v, pos)),
                        Some((t, pos)) => {
                            return Err(ParseError::at(
                                FORMAT,
                                pos,
                                format!("expected a number, found {}", describe(&t)),
                            ));
                        }
                        None => {
                            return Err(ParseError::at(
                                FORMAT,
                                cur.end,
                                "expected a number, but the text ended",
                            ));
                        }
                    }
                    if cur.eat(']') {
                        break;
                    }
                    cur.expect(',', "',' or ']' after a number")?;
                }
            }
            rows.push((row_pos, row));
            if rows.len() > 1000 {
                return Err(ParseError::at(
                    FORMAT,
                    row_pos,
                    "more than 1000 rows: a board has at most 1,000,000 squares",
                ));
            }
            if cur.eat(']') {
                break;
            }
            cur.expect(',', "',' or ']' after a row")?;
        }
    }
    if let Some((t, pos)) = cur.take() {
        return Err(ParseError::at(
            FORMAT,
            pos,
            format!("unexpected {} after the grid", describe(&t)),
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LeetCode 909, example 1 (answer 4 rolls).
    pub(crate) const EXAMPLE_1: &str = "[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,35,-1,-1,13,-1],[-1,-1,-1,-1,-1,-1],[-1,15,-1,-1,-1,-1]]";

    fn board(text: &str) -> Board {
        parse(text).unwrap().0
    }

    #[test]
    fn example_1_maps_cells_to_squares() {
        let board = board(EXAMPLE_1);
        assert_eq!(board.size(), 36);
        assert_eq!(board.start(), 1);
        // Bottom row [-1,15,...]: square 2 climbs to 15. Fourth row from the
        // top runs right to left: 35 sits on square 14, 13 on square 17.
        assert_eq!(
            board.jumps(),
            &[Jump::new(2, 15), Jump::new(14, 35), Jump::new(17, 13)]
        );
        let prefixed = format!("board = {EXAMPLE_1}");
        assert_eq!(parse(&prefixed).unwrap().0.jumps(), board.jumps());
    }

    #[test]
    fn example_2_is_a_2x2_grid() {
        let board = board("[[-1,-1],[-1,3]]");
        assert_eq!(board.size(), 4);
        assert_eq!(board.jumps(), &[Jump::new(2, 3)]);
    }

    #[test]
    fn self_jumps_are_no_jumps_with_a_note() {
        // The grids: 6 on square 6, 2 on square 2 (and on 1, 4).
        let (b, notes) = parse("[[-1,4,-1],[6,2,6],[-1,3,-1]]").unwrap();
        assert_eq!(
            b.jumps(),
            &[
                Jump::new(2, 3),
                Jump::new(4, 6),
                Jump::new(5, 2),
                Jump::new(8, 4)
            ]
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].pos, Some(Pos { line: 1, col: 13 }));
        assert_eq!(
            notes[0].message,
            "square 6 holds 6, its own label: read as no jump"
        );
        let (b, notes) = parse("[[4,-1],[1,2]]").unwrap();
        assert!(b.jumps().is_empty());
        assert_eq!(notes.len(), 3, "{notes:?}");
        let (_, notes) = parse("[[-1,-1],[-1,-1]]").unwrap();
        assert!(notes.is_empty());
    }

    #[test]
    fn grids_beyond_leetcode_s_size_are_read_with_a_note() {
        let row = format!("[{}]", vec!["-1"; 21].join(","));
        let grid = format!("[{}]", vec![row; 21].join(","));
        let (b, notes) = parse(&grid).unwrap();
        assert_eq!(b.size(), 441);
        assert!(notes[0].message.contains("n ≤ 20"), "{}", notes[0]);
        assert_eq!(notes[0].pos, None);
    }

    #[test]
    fn malformed_grids_point_at_the_problem() {
        let err = parse("[[-1,-1],[-1,-1,-1]]").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 1, col: 10 }));
        assert!(err.message.contains("row 2 has 3 numbers"), "{err}");
        let err = parse("[[-1,-1],\n [-1,x]]").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 6 }));
        let err = parse("[[-1,-1],[-1,5]]").unwrap_err();
        assert!(err.message.contains("5 is not a square 1 to 4"), "{err}");
        let err = parse("[[-1,-1],[3,-1]]").unwrap_err();
        assert!(err.message.contains("start square"), "{err}");
        let err = parse("[[-1]]").unwrap_err();
        assert!(err.message.contains("2×2"), "{err}");
        let err = parse("[[-1,-1],[-1,-1]").unwrap_err();
        assert!(err.message.contains("text ended"), "{err}");
        let err = parse("[[-1,-1],[-1,-1]] 7").unwrap_err();
        assert!(err.message.contains("after the grid"), "{err}");
        assert!(parse("").is_err());
        assert!(parse("[]").is_err());
    }
}
