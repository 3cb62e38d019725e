//! The Java and C assignments' board array: `N+1` integers, index 0 ignored,
//! then for each square 0 (no jump) or the far end of the jump that starts
//! there.
//!
//! Terms:
//! - **declaration**: an optional `int board[] =` or `private int[] cLArray =`
//!   before the numbers, as in the assignments' own literals; it is
//!   skipped.
//! - **separators**: commas, whitespace, braces, brackets and a final `;`.
//!
//! Tokens start off the board (square 0), as in the assignments.

use super::scan::{Token, describe, scan};
use super::{Format, ParseError, Pos};
use crate::board::{Board, BoardSpec, Jump, MAX_SQUARES};

const FORMAT: Format = Format::Array;

/// Reads a board array.
pub(crate) fn parse(text: &str) -> Result<Board, ParseError> {
    let tokens = scan(text);
    let body_start = tokens
        .iter()
        .position(|(t, _)| *t == Token::Punct('='))
        .map_or(0, |i| i + 1);
    let mut values: Vec<(i64, Pos)> = Vec::new();
    for (token, pos) in &tokens[body_start..] {
        match token {
            Token::Int(v) => values.push((*v, *pos)),
            Token::Punct(',' | '{' | '}' | '[' | ']' | ';') => {}
            other => {
                return Err(ParseError::at(
                    FORMAT,
                    *pos,
                    format!("expected a number, found {}", describe(other)),
                ));
            }
        }
        if values.len() > MAX_SQUARES as usize + 1 {
            return Err(ParseError::at(
                FORMAT,
                *pos,
                format!(
                    "too many numbers: a board has at most {MAX_SQUARES} squares ({} numbers)",
                    MAX_SQUARES + 1
                ),
            ));
        }
    }
    if values.len() < 3 {
        return Err(ParseError::whole(
            FORMAT,
            format!(
                "found {} numbers; a board array needs N+1 of them (index 0, then one per square, N ≥ 2)",
                values.len()
            ),
        ));
    }
    let size = (values.len() - 1) as u32;
    let mut jumps = Vec::new();
    let mut places = Vec::new();
    for (square, &(value, pos)) in values.iter().enumerate().skip(1) {
        if value == 0 {
            continue;
        }
        if value < 0 || value > i64::from(size) {
            return Err(ParseError::at(
                FORMAT,
                pos,
                format!(
                    "square {square} holds {value}, but a jump must end on a square 1 to {size} (0 = no jump)"
                ),
            ));
        }
        jumps.push(Jump::new(square as u32, value as u32));
        places.push(pos);
    }
    let spec = BoardSpec {
        size,
        start: 0,
        jumps: jumps.clone(),
        ..BoardSpec::default()
    };
    Board::new(spec).map_err(|e| {
        let pos = e
            .jump()
            .and_then(|j| jumps.iter().position(|&k| k == j))
            .map(|i| places[i]);
        ParseError {
            format: FORMAT,
            pos,
            message: e.to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const JAVA_LITERAL: &str = "private int[] cLArray =
        {-1, 38,  0,  0, 14,  0,  0,  0,  0, 31,  0,
              0,  0,  0,  0,  0,  6,  0,  0,  0,  0,
             42,  0,  0,  0,  0,  0,  0, 84,  0,  0,
              0,  0,  0,  0,  0, 44,  0,  0,  0,  0,
              0,  0,  0,  0,  0,  0, 26,  0, 11,  0,
             67,  0,  0,  0,  0, 53,  0,  0,  0,  0,
              0, 19,  0, 60,  0,  0,  0,  0,  0,  0,
             91,  0,  0,  0,  0,  0,  0,  0,  0, 100,
              0,  0,  0,  0,  0,  0, 24,  0,  0,  0,
              0,  0, 73,  0, 75,  0,  0, 78,  0,  0};";

    #[test]
    fn the_assignments_literals_are_the_classic_board() {
        let board = parse(JAVA_LITERAL).unwrap();
        assert_eq!(board.jumps(), Board::classic().jumps());
        assert_eq!(board.size(), 100);
        let c_literal = JAVA_LITERAL.replace("private int[] cLArray", "int board[]");
        assert_eq!(parse(&c_literal).unwrap().jumps(), Board::classic().jumps());
        let small = parse("-1 3 0 0 0").unwrap();
        assert_eq!(small.size(), 4);
        assert_eq!(small.start(), 0);
        assert_eq!(small.jumps(), &[Jump::new(1, 3)]);
    }

    #[test]
    fn malformed_arrays_point_at_the_problem() {
        let err = parse("{0, 0,\n 0, x, 0}").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 5 }));
        assert!(err.message.contains("'x'"), "{err}");
        let err = parse("0 0").unwrap_err();
        assert!(err.message.contains("found 2 numbers"), "{err}");
        let err = parse("0 0 0\n0 9").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, col: 3 }));
        assert!(err.message.contains("square 4 holds 9"), "{err}");
        let err = parse("0 0 -3 0").unwrap_err();
        assert!(err.message.contains("square 2 holds -3"), "{err}");
        let err = parse("0 0 2 0").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 1, col: 5 }));
        assert!(err.message.contains("same square"), "{err}");
        let err = parse("0 0 0 1").unwrap_err();
        assert!(err.message.contains("finish"), "{err}");
        assert!(err.to_string().starts_with("line 1, column 7: "), "{err}");
        let err = parse("0 0 0 99999999999999999999").unwrap_err();
        assert!(err.message.contains("expected a number"), "{err}");
        assert!(parse("").is_err());
    }
}
