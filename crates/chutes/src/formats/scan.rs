//! A tiny scanner for the integer-list board formats, keeping each token's
//! line and column so errors can point at it.
//!
//! Terms:
//! - **position**: 1-based line and column (in characters) of a token.
//! - **token**: an integer, one punctuation character, or a word.

use super::Pos;

/// One piece of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// An integer (possibly negative), as written.
    Int(i64),
    /// A run of digits too long for an integer.
    BigInt(String),
    /// One punctuation character.
    Punct(char),
    /// Anything else: a run of letters, digits and underscores.
    Word(String),
}

/// Splits `text` into tokens with positions. `//` and `#` start comments that
/// run to the end of the line.
pub(crate) fn scan(text: &str) -> Vec<(Token, Pos)> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut col = 0;
    let mut chars = text.chars().peekable();
    let mut in_comment = false;
    while let Some(c) = chars.next() {
        col += 1;
        if c == '\n' {
            line += 1;
            col = 0;
            in_comment = false;
            continue;
        }
        if in_comment || c.is_whitespace() {
            continue;
        }
        let pos = Pos { line, col };
        if c == '#' || (c == '/' && chars.peek() == Some(&'/')) {
            in_comment = true;
            continue;
        }
        let starts_number =
            c.is_ascii_digit() || (c == '-' && chars.peek().is_some_and(|d| d.is_ascii_digit()));
        if starts_number || c.is_alphanumeric() || c == '_' {
            let mut word = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    word.push(d);
                    chars.next();
                    col += 1;
                } else {
                    break;
                }
            }
            let token = if word
                .trim_start_matches('-')
                .chars()
                .all(|d| d.is_ascii_digit())
            {
                match word.parse::<i64>() {
                    Ok(v) => Token::Int(v),
                    Err(_) => Token::BigInt(word),
                }
            } else {
                Token::Word(word)
            };
            out.push((token, pos));
        } else {
            out.push((Token::Punct(c), pos));
        }
    }
    out
}

/// How a token reads in an error message.
pub(crate) fn describe(token: &Token) -> String {
    match token {
        Token::Int(v) => v.to_string(),
        Token::BigInt(s) | Token::Word(s) => format!("'{s}'"),
        Token::Punct(c) => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_positions() {
        let t = scan("{-1, 38,\n  0 x}");
        assert_eq!(t[0], (Token::Punct('{'), Pos { line: 1, col: 1 }));
        assert_eq!(t[1], (Token::Int(-1), Pos { line: 1, col: 2 }));
        assert_eq!(t[3], (Token::Int(38), Pos { line: 1, col: 6 }));
        assert_eq!(t[5], (Token::Int(0), Pos { line: 2, col: 3 }));
        assert_eq!(t[6], (Token::Word("x".into()), Pos { line: 2, col: 5 }));
    }

    #[test]
    fn comments_and_huge_numbers() {
        let t = scan("1 // two\n# three\n99999999999999999999 4x");
        assert_eq!(t.len(), 3);
        assert!(matches!(t[1].0, Token::BigInt(_)));
        assert_eq!(t[2].0, Token::Word("4x".into()));
    }
}
