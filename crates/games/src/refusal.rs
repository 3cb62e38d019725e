//! A coded refusal: what went wrong, in words, under a stable code.

use tabletop::Code;
use tabletop::play::Coded;

/// Why the registry or a match refused: a stable code (`bad_setup`,
/// `game_on`, `not_your_turn`, …) and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The code: lowercase words joined by `_`.
    pub code: Code,
    /// What went wrong and where, for people.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// A library's coded error, under its own code.
    pub fn of(e: &(impl Coded + std::fmt::Display)) -> Self {
        Self::new(e.code(), e.to_string())
    }

    /// `game_on`: what is refused while a match is on (its record, with the
    /// seed of its dice, and its replay).
    pub fn game_on() -> Self {
        Self::new(
            Code::GameOn,
            "the game is still on: its record (with the seed of its dice) is given once it is over",
        )
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

impl Coded for Refusal {
    fn code(&self) -> Code {
        self.code
    }
}

impl<E: Coded + std::fmt::Display> From<tabletop::play::MatchError<E>> for Refusal {
    fn from(e: tabletop::play::MatchError<E>) -> Self {
        Self::of(&e)
    }
}

impl<E: Coded + std::fmt::Display> From<tabletop::play::StartError<E>> for Refusal {
    fn from(e: tabletop::play::StartError<E>) -> Self {
        Self::of(&e)
    }
}

impl From<tabletop::play::ReplayError> for Refusal {
    fn from(e: tabletop::play::ReplayError) -> Self {
        Self::of(&e)
    }
}
