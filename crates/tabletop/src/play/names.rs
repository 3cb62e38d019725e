//! Players' names: what a person calls themselves at the table.
//!
//! Terms:
//! - **chosen name**: the name a person gave for their seat, checked by
//!   [`check_name`]: trimmed, 1 to [`NAME_MAX`] characters, with no control
//!   character and no invisible formatting character (a right-to-left
//!   override could make a name read as someone else's). A name is
//!   untrusted text: front ends escape it wherever they show it.
//! - **seat name**: the chosen name, or for a seat with none "Player N"
//!   (a person) or the bot's name (front ends word bots, as they know
//!   whether a game's bot has levels).

use serde::Serialize;

/// The most characters a name may have.
pub const NAME_MAX: usize = 24;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("a name needs at least one character that is not a space")]
    Empty,
    /// Longer than [`NAME_MAX`].
    #[error("a name has at most {NAME_MAX} characters, not {0}")]
    TooLong(usize),
    /// A seat the match does not have.
    #[error("this game has {seats} seats: there is no seat {seat} to name")]
    NoSeat {
        /// The seat named.
        seat: u8,
        /// The match's seats.
        seats: usize,
    },
    /// A control or invisible formatting character, at a 1-based position.
    #[error("a name may not hold the invisible character U+{code:04X} (character {at})")]
    Invisible {
        /// The character's code point.
        code: u32,
        /// Its position in the trimmed name, from 1.
        at: usize,
    },
}

impl super::Coded for NameError {
    fn code(&self) -> &'static str {
        match self {
            Self::NoSeat { .. } => "no_such_seat",
            _ => "bad_name",
        }
    }
}

/// True for characters that change how text around them reads but show
/// nothing: bidirectional controls, zero-width characters, the byte order
/// mark, and the soft hyphen.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// Checks a name a person gave: the name trimmed, or why it is refused.
///
/// # Errors
/// [`NameError`] (code `bad_name`): empty, too long, or holding an
/// invisible character.
pub fn check_name(text: &str) -> Result<String, NameError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some((i, c)) = name.chars().enumerate().find(|(_, c)| invisible(*c)) {
        return Err(NameError::Invisible {
            code: u32::from(c),
            at: i + 1,
        });
    }
    let length = name.chars().count();
    if length > NAME_MAX {
        return Err(NameError::TooLong(length));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_kept_as_text() {
        assert_eq!(check_name("  Ada ").unwrap(), "Ada");
        assert_eq!(check_name("<script>").unwrap(), "<script>");
        assert_eq!(check_name("Zoë & \"Bo\"").unwrap(), "Zoë & \"Bo\"");
        assert_eq!(check_name("אדה").unwrap(), "אדה");
        assert_eq!(check_name(&"é".repeat(24)).unwrap().chars().count(), 24);
    }

    #[test]
    fn empty_long_and_invisible_names_are_refused_with_where() {
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(check_name(&"a".repeat(200)), Err(NameError::TooLong(200)));
        assert_eq!(
            check_name("Ada\u{202E}evE"),
            Err(NameError::Invisible {
                code: 0x202E,
                at: 4
            })
        );
        assert_eq!(
            check_name("A\nB"),
            Err(NameError::Invisible { code: 0x0A, at: 2 })
        );
        assert_eq!(
            check_name("\u{200F}Bo").unwrap_err().to_string(),
            "a name may not hold the invisible character U+200F (character 1)"
        );
        assert_eq!(super::super::Coded::code(&NameError::Empty), "bad_name");
    }
}
