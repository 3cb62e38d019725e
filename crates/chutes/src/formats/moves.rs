//! The minimum-throws assignment's own form: `N`, the number of cells, then
//! `move[0..N-1]`, one entry per cell, 0-based: `-1` for no jump, else the
//! cell the snake or ladder starting there leads to (a snake may lead back
//! to cell 0).
//!
//! Terms:
//! - **cell**: the assignment's 0-based cell `0..N-1`; tokens start on cell
//!   0 and finish on cell `N-1`.
//! - **mapping**: cell `i` is Parlor's square `i`: the board has `N-1`
//!   squares and tokens start on 0 (Parlor's off-board start), so every
//!   square keeps the number the assignment gives it, in every output.
//! - **separators**: whitespace, commas, braces, brackets and `;`, so a
//!   Java or C array literal can be pasted as it is; `//` and `#` comments.
//!
//! Entries that can never act are read as the assignment's own search reads
//! them, and said in a [`Note`]: `move[u] == u` is no jump, and a jump on
//! cell 0 is never taken (tokens only leave cell 0; a snake back to 0 ends
//! the move there). A jump on the finish cell is refused: the game is over
//! there.

use super::scan::{Token, describe, scan};
use super::{Format, Note, ParseError, Pos};
use crate::board::{Board, BoardSpec, Jump, MAX_SQUARES};

const FORMAT: Format = Format::Moves;

/// True when `text` is `N` then exactly `N` entries, at least one of them
/// `-1` (which a board array, whose squares hold 0 for no jump, never has).
pub(crate) fn looks_like(text: &str) -> bool {
    let mut numbers = scan(text).into_iter().filter_map(|(t, _)| match t {
        Token::Int(v) => Some(v),
        _ => None,
    });
    let Some(n) = numbers.next() else {
        return false;
    };
    let rest: Vec<i64> = numbers.collect();
    usize::try_from(n).is_ok_and(|n| n == rest.len()) && rest.contains(&-1)
}

/// Reads `N` and `move[0..N-1]`.
pub(crate) fn parse(text: &str) -> Result<(Board, Vec<Note>), ParseError> {
    let mut values: Vec<(i64, Pos)> = Vec::new();
    for (token, pos) in scan(text) {
        match token {
            Token::Int(v) => values.push((v, pos)),
            Token::Punct(',' | '{' | '}' | '[' | ']' | ';') => {}
            other => {
                return Err(ParseError::at(
                    FORMAT,
                    pos,
                    format!("expected a number, found {}", describe(&other)),
                ));
            }
        }
        if values.len() > MAX_SQUARES as usize + 2 {
            return Err(ParseError::at(
                FORMAT,
                pos,
                format!(
                    "too many numbers: a board has at most {} cells",
                    MAX_SQUARES + 1
                ),
            ));
        }
    }
    let Some(&(n, n_pos)) = values.first() else {
        return Err(ParseError::whole(
            FORMAT,
            "the text is empty: expected N, the number of cells, then move[0..N-1]",
        ));
    };
    let moves = &values[1..];
    let cells = i64::from(MAX_SQUARES) + 1;
    if !(3..=cells).contains(&n) {
        return Err(ParseError::at(
            FORMAT,
            n_pos,
            format!(
                "N = {n}: a board has 3 to {cells} cells (the start, at least one square, the finish)"
            ),
        ));
    }
    if moves.len() as i64 != n {
        let at = moves.get(n as usize).map_or(n_pos, |&(_, pos)| pos);
        return Err(ParseError::at(
            FORMAT,
            at,
            format!(
                "N = {n}, so move[0..{}] needs {n} entries, but {} follow",
                n - 1,
                moves.len()
            ),
        ));
    }
    let finish = (n - 1) as u32;
    let mut jumps = Vec::new();
    let mut places = Vec::new();
    let mut notes = Vec::new();
    for (cell, &(value, pos)) in moves.iter().enumerate() {
        let cell = cell as u32;
        if value == -1 {
            continue;
        }
        if !(0..n).contains(&value) {
            return Err(ParseError::at(
                FORMAT,
                pos,
                format!(
                    "move[{cell}] is {value}, but an entry is -1 (no jump) or a cell 0 to {finish}"
                ),
            ));
        }
        let to = value as u32;
        if to == cell {
            notes.push(Note::at(
                pos,
                format!("move[{cell}] is {cell}, its own cell: read as no jump"),
            ));
        } else if cell == 0 {
            notes.push(Note::at(
                pos,
                format!(
                    "move[0] is {to}, but tokens only leave cell 0 (a snake back to 0 ends the move there): the jump 0→{to} is never taken, left out"
                ),
            ));
        } else if cell == finish {
            return Err(ParseError::at(
                FORMAT,
                pos,
                format!(
                    "move[{cell}] is {to}, but cell {cell} is the finish: the game ends there, so no jump may start on it"
                ),
            ));
        } else {
            jumps.push(Jump::new(cell, to));
            places.push(pos);
        }
    }
    let spec = BoardSpec {
        size: finish,
        start: 0,
        jumps: jumps.clone(),
        ..BoardSpec::default()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The assignment's own board: A = 30, ladders 1→7, 5→21, 10→12,
    /// 20→15 (written among the ladders, but it goes down), snakes 26→0,
    /// 21→4, 14→9, 19→2.
    pub(crate) fn assignment_board() -> String {
        let mut moves = vec![-1i64; 30];
        for (from, to) in [
            (1, 7),
            (5, 21),
            (10, 12),
            (20, 15),
            (26, 0),
            (21, 4),
            (14, 9),
            (19, 2),
        ] {
            moves[from] = to;
        }
        let list: Vec<String> = moves.iter().map(i64::to_string).collect();
        format!("30\n{}\n", list.join(" "))
    }

    #[test]
    fn the_assignment_board_keeps_its_cell_numbers() {
        let (board, notes) = parse(&assignment_board()).unwrap();
        assert!(notes.is_empty());
        assert_eq!((board.size(), board.start(), board.finish()), (29, 0, 29));
        assert_eq!(board.far_end(26), 0);
        assert_eq!(board.far_end(1), 7);
        assert_eq!(board.far_end(20), 15);
        assert_eq!(board.jumps().len(), 8);
        assert!(looks_like(&assignment_board()));
    }

    #[test]
    fn array_literals_and_comments_are_read() {
        let text = "// A = 4\n4 {-1, 2, -1, -1};";
        let (board, _) = parse(text).unwrap();
        assert_eq!(board.jumps(), &[Jump::new(1, 2)]);
    }

    #[test]
    fn entries_that_never_act_are_notes() {
        let (board, notes) = parse("5  3 1 -1 -1 -1").unwrap();
        assert!(board.jumps().is_empty());
        assert_eq!(notes.len(), 2);
        assert_eq!(notes[0].pos, Some(Pos { line: 1, col: 4 }));
        assert!(notes[0].message.contains("never taken"), "{}", notes[0]);
        assert!(notes[1].message.contains("own cell"), "{}", notes[1]);
        assert!(notes[1].to_string().starts_with("line 1, column 6: "));
    }

    #[test]
    fn bad_entries_point_at_the_problem() {
        let err = parse("4 -1 -1\n -1 x").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 5 }));
        let err = parse("4 -1 4 -1 -1").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 1, col: 6 }));
        assert!(err.message.contains("move[1] is 4"), "{err}");
        let err = parse("4 -1 -2 -1 -1").unwrap_err();
        assert!(
            err.message.contains("-1 (no jump) or a cell 0 to 3"),
            "{err}"
        );
        let err = parse("4 -1 -1 -1 1").unwrap_err();
        assert!(err.message.contains("is the finish"), "{err}");
        let err = parse("4 -1 -1 -1").unwrap_err();
        assert!(err.message.contains("but 3 follow"), "{err}");
        let err = parse("4 -1 -1 -1 -1 -1").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 1, col: 15 }));
        let err = parse("2 -1 -1").unwrap_err();
        assert!(err.message.contains("3 to"), "{err}");
        assert!(parse("").is_err());
        assert!(!looks_like("4 -1 -1 -1"));
        assert!(!looks_like("3 0 0 0"));
        assert!(!looks_like("{-1, 38, 0}"));
    }
}
