//! How strong a bot plays.
//!
//! Terms:
//! - **level** ([`BotLevel`]): `easy` (a legal move at random), `normal`
//!   (the game's rule-of-thumb bot), `hard` (a search within a bounded
//!   amount of work). Every game's bots answer at every level; a game with
//!   no choices to make (Chutes & Ladders) plays them all alike.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How strong a bot plays.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// A legal move at random.
    Easy,
    /// The game's rule-of-thumb bot.
    #[default]
    Normal,
    /// A search, bounded in work.
    Hard,
}

impl BotLevel {
    /// Every level, weakest first.
    pub const ALL: [Self; 3] = [Self::Easy, Self::Normal, Self::Hard];

    /// The level's name: `easy`, `normal` or `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Easy => "easy",
            Self::Normal => "normal",
            Self::Hard => "hard",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no bot level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot level '{0}' (expected easy, normal or hard)")]
pub struct BotLevelParseError(pub String);

impl FromStr for BotLevel {
    type Err = BotLevelParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim().to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .find(|level| level.name() == text)
            .ok_or_else(|| BotLevelParseError(s.trim().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_write_back() {
        for level in BotLevel::ALL {
            assert_eq!(level.to_string().parse::<BotLevel>().unwrap(), level);
            let json = serde_json::to_string(&level).unwrap();
            assert_eq!(json, format!("\"{level}\""));
        }
        assert_eq!(" HARD ".parse::<BotLevel>().unwrap(), BotLevel::Hard);
        assert!(
            "expert"
                .parse::<BotLevel>()
                .unwrap_err()
                .to_string()
                .contains("'expert'")
        );
    }
}
