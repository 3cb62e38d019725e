//! Players' names and every other text a player sees that another chose
//! (a board's or a grid's name, a match's title): one rule for all.
//!
//! Terms:
//! - **shown text** ([`check_text`]): trimmed, 1 to a most of characters,
//!   with no control character, none of Unicode's default-ignorable code
//!   points (they show nothing: zero-width characters, bidirectional
//!   controls, the soft hyphen, Hangul fillers, variation selectors, tag
//!   characters, the combining grapheme joiner, …) and no blank other than
//!   the plain space (no-break and wide spaces, the Braille blank). A
//!   right-to-left override could make a name read as someone else's; a
//!   blank name looks like no name. It is untrusted text still: front ends
//!   escape it wherever they show it.
//! - **chosen name** ([`check_name`]): a shown text of at most
//!   [`NAME_MAX`] characters that is not one the pages give a seat
//!   themselves (a **reserved name**: "Player N", "PN", "Bot", "Bot N", "Easy bot",
//!   "Normal bot", "Hard bot", "a bot", "you"), nor looks like one.
//! - **looks alike** ([`looks_alike`]): two texts whose confusables
//!   skeletons (Unicode Technical Standard 39, the `unicode-security`
//!   crate), taken without case and spaces, are equal: Cyrillic "Аda" and
//!   Latin "Ada", "B0t" and "Bot". No two players of a match may have
//!   names that look alike.
//! - **title** ([`cut_title`]): a text another chose and the page shows as
//!   a heading (a board's name as a match's title): the refused characters
//!   dropped and cut to [`TITLE_MAX`] characters, for it is shown, not
//!   refused.
//! - **seat name**: the chosen name, or for a seat with none "Player N"
//!   (a person) or the bot's name (front ends word bots, as they know
//!   whether a game's bot has levels).

use crate::Code;
use serde::Serialize;

/// The most characters a name may have.
pub const NAME_MAX: usize = 24;

/// The most characters a title keeps ([`cut_title`]).
pub const TITLE_MAX: usize = 80;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("a name needs at least one character that is not a space")]
    Empty,
    /// Longer than its most ([`NAME_MAX`] for a player's name).
    #[error("a name has at most {most} characters, not {length}")]
    TooLong {
        /// The characters the name has.
        length: usize,
        /// The most it may have.
        most: usize,
    },
    /// A seat the match does not have.
    #[error("this game has {seats} seats: there is no seat {seat} to name")]
    NoSeat {
        /// The seat named.
        seat: u8,
        /// The match's seats.
        seats: usize,
    },
    /// A control, invisible or blank character, at a 1-based position.
    #[error("a name may not hold the invisible or blank character U+{code:04X} (character {at})")]
    Invisible {
        /// The character's code point.
        code: u32,
        /// Its position in the trimmed name, from 1.
        at: usize,
    },
    /// A name the pages give a seat themselves, or one that looks like it.
    #[error(
        "'{0}' is what the page calls a seat itself (a bot or a seat with no name): choose another name"
    )]
    Reserved(String),
    /// A name that looks like another player's in the match.
    #[error("'{name}' looks like the name of another player here ('{other}'): choose another name")]
    LooksLike {
        /// The name refused.
        name: String,
        /// The other player's name it looks like.
        other: String,
    },
}

impl super::Coded for NameError {
    fn code(&self) -> Code {
        match self {
            Self::NoSeat { .. } => Code::NoSuchSeat,
            _ => Code::BadName,
        }
    }
}

/// True for Unicode's default-ignorable code points: characters shown as
/// nothing. The confusables skeleton drops exactly these, so a character
/// whose skeleton is empty is one.
fn ignorable(c: char) -> bool {
    let mut one = [0u8; 4];
    unicode_security::skeleton(c.encode_utf8(&mut one))
        .next()
        .is_none()
}

/// True for characters a shown text may not hold (see the module's
/// terms).
fn refused(c: char) -> bool {
    c.is_control()
        || ignorable(c)
        || (c.is_whitespace() && c != ' ')
        || matches!(c, '\u{2800}' | '\u{FFF9}'..='\u{FFFB}')
}

/// Checks a text a person chose that others will see, of at most `most`
/// characters: the text trimmed, or why it is refused (see the module's
/// terms). The one rule every such text passes; [`check_name`] adds the
/// players' own.
///
/// # Errors
/// [`NameError`] (code `bad_name`): empty, too long, or holding a control,
/// invisible or blank character.
pub fn check_text(text: &str, most: usize) -> Result<String, NameError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some((i, c)) = name.chars().enumerate().find(|(_, c)| refused(*c)) {
        return Err(NameError::Invisible {
            code: u32::from(c),
            at: i + 1,
        });
    }
    let length = name.chars().count();
    if length > most {
        return Err(NameError::TooLong { length, most });
    }
    Ok(name.to_string())
}

/// What two texts are compared by for looking alike: the confusables
/// skeleton, lower case, without spaces.
fn look(text: &str) -> String {
    // Skeleton, lower case, skeleton again: Cyrillic "В" looks like "B"
    // but "в" like no Latin letter, and a skeleton may be upper case.
    let lower: String = unicode_security::skeleton(text)
        .flat_map(char::to_lowercase)
        .collect();
    unicode_security::skeleton(&lower)
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `a` and `b` look alike (see the module's terms).
pub fn looks_alike(a: &str, b: &str) -> bool {
    look(a) == look(b)
}

/// The most seat number a reserved "Player N" is checked for.
const RESERVED_SEATS: u8 = 99;

/// How the names the pages give a seat look ([`look`]), worked out once.
fn reserved_looks() -> &'static std::collections::HashSet<String> {
    static LOOKS: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    LOOKS.get_or_init(|| {
        let fixed = ["Bot", "Easy bot", "Normal bot", "Hard bot", "a bot", "you"]
            .into_iter()
            .map(String::from);
        let numbered = (1..=RESERVED_SEATS)
            .flat_map(|n| [format!("Player {n}"), format!("P{n}"), format!("Bot {n}")]);
        fixed.chain(numbered).map(|r| look(&r)).collect()
    })
}

/// Whether `name` is, or looks like, a name the pages give a seat.
fn reserved(name: &str) -> bool {
    reserved_looks().contains(&look(name))
}

/// Checks a name a person gave for their seat: the name trimmed, or why it
/// is refused.
///
/// # Errors
/// [`NameError`] (code `bad_name`): as [`check_text`] with at most
/// [`NAME_MAX`] characters, or [`NameError::Reserved`].
pub fn check_name(text: &str) -> Result<String, NameError> {
    let name = check_text(text, NAME_MAX)?;
    if reserved(&name) {
        return Err(NameError::Reserved(name));
    }
    Ok(name)
}

/// Checks that `name` looks like none of `others` (the other players'
/// names in the match).
///
/// # Errors
/// [`NameError::LooksLike`] naming the first it looks like.
pub fn check_unlike<'a>(
    name: &str,
    others: impl IntoIterator<Item = &'a str>,
) -> Result<(), NameError> {
    match others.into_iter().find(|other| looks_alike(name, other)) {
        Some(other) => Err(NameError::LooksLike {
            name: name.to_string(),
            other: other.to_string(),
        }),
        None => Ok(()),
    }
}

/// A title from text another chose: refused characters dropped, spaces
/// trimmed, cut to [`TITLE_MAX`] characters (an ellipsis says it was).
pub fn cut_title(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| !refused(c))
        .collect();
    let kept = kept.trim();
    if kept.chars().count() <= TITLE_MAX {
        return kept.to_string();
    }
    let mut cut: String = kept.chars().take(TITLE_MAX - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
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
        assert_eq!(check_name("盤面").unwrap(), "盤面");
        assert_eq!(check_name("Ada Lovelace").unwrap(), "Ada Lovelace");
        assert_eq!(check_name("Robot").unwrap(), "Robot");
        assert_eq!(check_name("Player one").unwrap(), "Player one");
        assert_eq!(check_name(&"é".repeat(24)).unwrap().chars().count(), 24);
    }

    /// Each class of character the rule refuses, one example apiece, with
    /// its code point as the refusal says it.
    const REFUSED: &[(&str, &str, u32)] = &[
        ("a control character", "A\nB", 0x0A),
        ("a right-to-left override", "Ada\u{202E}evE", 0x202E),
        ("a right-to-left mark", "\u{200F}Bo", 0x200F),
        ("a zero-width space", "A\u{200B}da", 0x200B),
        ("a zero-width joiner", "A\u{200D}da", 0x200D),
        ("the byte order mark", "\u{FEFF}Ada", 0xFEFF),
        ("a soft hyphen", "A\u{00AD}da", 0x00AD),
        ("a lone Hangul filler", "\u{3164}", 0x3164),
        ("a half-width Hangul filler", "\u{FFA0}", 0xFFA0),
        ("a Hangul choseong filler", "\u{115F}x", 0x115F),
        ("the Braille blank", "\u{2800}", 0x2800),
        ("a tag character", "Ada\u{E0041}", 0xE0041),
        ("the combining grapheme joiner", "A\u{034F}da", 0x034F),
        ("a variation selector", "Ada\u{FE0F}", 0xFE0F),
        (
            "a supplementary variation selector",
            "Ada\u{E0100}",
            0xE0100,
        ),
        ("a Mongolian free variation selector", "Ada\u{180B}", 0x180B),
        ("a Khmer inherent vowel", "Ada\u{17B4}", 0x17B4),
        ("a musical symbol format character", "Ada\u{1D173}", 0x1D173),
        ("a no-break space", "Ada\u{00A0}Bo", 0x00A0),
        ("an ideographic space", "Ada\u{3000}Bo", 0x3000),
        ("an interlinear annotation", "Ada\u{FFF9}", 0xFFF9),
    ];

    #[test]
    fn every_invisible_and_blank_class_is_refused_with_where() {
        for &(what, name, code) in REFUSED {
            let at = name
                .trim()
                .chars()
                .position(|c| u32::from(c) == code)
                .unwrap()
                + 1;
            assert_eq!(
                check_name(name),
                Err(NameError::Invisible { code, at }),
                "{what}"
            );
        }
        assert_eq!(
            check_name("\u{200F}Bo").unwrap_err().to_string(),
            "a name may not hold the invisible or blank character U+200F (character 1)"
        );
    }

    #[test]
    fn empty_and_long_names_are_refused() {
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(
            check_name(&"a".repeat(200)),
            Err(NameError::TooLong {
                length: 200,
                most: NAME_MAX
            })
        );
        assert_eq!(super::super::Coded::code(&NameError::Empty), "bad_name");
        assert_eq!(check_text(&"a".repeat(64), 64).unwrap().len(), 64);
    }

    #[test]
    fn the_pages_own_seat_names_and_their_look_alikes_are_refused() {
        for name in [
            "Bot",
            "bot",
            "BOT",
            "B0t",
            "\u{0412}\u{043E}t",
            "Hard bot",
            "hard  Bot",
            "Easy bot",
            "Normal bot",
            "a bot",
            "Player 2",
            "player2",
            "Player 17",
            "Bot 2",
            "P1",
            "p2",
            "You",
        ] {
            assert_eq!(
                check_name(name),
                Err(NameError::Reserved(name.trim().to_string())),
                "{name}"
            );
        }
        assert_eq!(
            super::super::Coded::code(&NameError::Reserved("Bot".into())),
            "bad_name"
        );
    }

    #[test]
    fn names_that_look_like_another_players_are_found() {
        // Cyrillic А (U+0410) and Latin A.
        assert!(looks_alike("\u{0410}da", "Ada"));
        assert!(looks_alike("ada", "ADA"));
        assert!(looks_alike("Ad a", "Ada"));
        assert!(looks_alike("rn", "m"));
        assert!(!looks_alike("Ada", "Bo"));
        assert_eq!(
            check_unlike("\u{0410}da", ["Bo", "Ada"]),
            Err(NameError::LooksLike {
                name: "\u{0410}da".into(),
                other: "Ada".into()
            })
        );
        assert_eq!(check_unlike("Ada", ["Bo"]), Ok(()));
    }

    #[test]
    fn titles_drop_what_is_refused_and_are_cut() {
        assert_eq!(cut_title("  Race\u{202E} day "), "Race day");
        assert_eq!(cut_title("a\nb"), "a b");
        let long = format!("{}\u{202E}", "x".repeat(900_000));
        let cut = cut_title(&long);
        assert_eq!(cut.chars().count(), TITLE_MAX);
        assert!(cut.ends_with('…'));
        assert_eq!(cut_title(&"y".repeat(TITLE_MAX)), "y".repeat(TITLE_MAX));
    }
}
