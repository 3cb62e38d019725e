//! What a seat can do: moves, and the special attacks.
//!
//! Terms:
//! - **move** ([`Move`]): a seat's answer to the game's pending decision:
//!   `roll`, `recharge`, `attack KIND [TARGET]`, `buy`, `pass`, `pay`,
//!   `stay`.
//! - **attack** ([`Attack`]): ice, fire, poison or lightning; launched on a
//!   recharge turn instead of recharging.
//! - **seat** ([`Seat`]): who answers for a player: a person, or a bot of
//!   one level (`random` is easy, `bot` is normal, `hard` searches).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tabletop::BotLevel;

/// A special attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attack {
    /// The target loses their next turn.
    Ice,
    /// The target loses 20 coins on each of their next 3 turns.
    Fire,
    /// The target's rolls count one less for their next 5 turns.
    Poison,
    /// Every other player loses 20 coins.
    Lightning,
}

impl Attack {
    /// Every attack, in order.
    pub const ALL: [Self; 4] = [Self::Ice, Self::Fire, Self::Poison, Self::Lightning];

    /// True when the attack is aimed at one player.
    pub fn needs_target(self) -> bool {
        self != Self::Lightning
    }

    /// The attack's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ice => "ice",
            Self::Fire => "fire",
            Self::Poison => "poison",
            Self::Lightning => "lightning",
        }
    }
}

impl fmt::Display for Attack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Attack {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let w = s.trim().to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .find(|a| a.name() == w)
            .ok_or_else(|| {
                format!("unknown attack '{s}' (expected ice, fire, poison or lightning)")
            })
    }
}

/// A seat's answer to the pending decision.
///
/// In JSON, `{"move": "roll"}`; a field the move does not take is refused
/// (`{"move": "roll", "seat": 3}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "lowercase", from = "MoveJson")]
pub enum Move {
    /// Take the turn: roll and move, recharge, or let a lost turn pass.
    Roll,
    /// On a recharge turn: recharge the wallet by 10 × the roll.
    Recharge,
    /// On a recharge turn: launch an attack instead of recharging.
    Attack {
        /// Which attack.
        attack: Attack,
        /// The player aimed at (from 1); none for lightning.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<u8>,
    },
    /// Buy the station group offered.
    Buy,
    /// Do not buy it.
    Pass,
    /// Pay the fee to leave prison.
    Pay,
    /// Stay in prison and lose the next 3 turns.
    Stay,
}

/// [`Move`] as JSON is read: serde lets unknown fields beside the tag of a
/// unit variant through, so every variant here has braces.
#[derive(Deserialize)]
#[serde(tag = "move", rename_all = "lowercase", deny_unknown_fields)]
enum MoveJson {
    Roll {},
    Recharge {},
    Attack {
        attack: Attack,
        #[serde(default)]
        target: Option<u8>,
    },
    Buy {},
    Pass {},
    Pay {},
    Stay {},
}

impl From<MoveJson> for Move {
    fn from(json: MoveJson) -> Self {
        match json {
            MoveJson::Roll {} => Self::Roll,
            MoveJson::Recharge {} => Self::Recharge,
            MoveJson::Attack { attack, target } => Self::Attack { attack, target },
            MoveJson::Buy {} => Self::Buy,
            MoveJson::Pass {} => Self::Pass,
            MoveJson::Pay {} => Self::Pay,
            MoveJson::Stay {} => Self::Stay,
        }
    }
}

/// Text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a move: {reason}")]
pub struct MoveParseError {
    /// The text.
    pub text: String,
    /// Why.
    pub reason: String,
}

/// The moves' text forms, for help.
pub const MOVE_FORMS: &str =
    "roll | recharge | attack ice|fire|poison PLAYER | attack lightning | buy | pass | pay | stay";

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason: String| MoveParseError {
            text: s.trim().to_string(),
            reason,
        };
        let words: Vec<String> = s.split_whitespace().map(str::to_ascii_lowercase).collect();
        let simple = |m: Move| {
            if words.len() == 1 {
                Ok(m)
            } else {
                Err(fail(format!("`{}` takes nothing after it", words[0])))
            }
        };
        match words.first().map(String::as_str) {
            None => Err(fail(format!("it is empty (expected {MOVE_FORMS})"))),
            Some("roll") => simple(Self::Roll),
            Some("recharge") => simple(Self::Recharge),
            Some("buy") => simple(Self::Buy),
            Some("pass") => simple(Self::Pass),
            Some("pay") => simple(Self::Pay),
            Some("stay") => simple(Self::Stay),
            Some("attack") => {
                let attack: Attack = words
                    .get(1)
                    .ok_or_else(|| {
                        fail("`attack` needs a kind: ice, fire, poison or lightning".into())
                    })?
                    .parse()
                    .map_err(fail)?;
                let target = match words.get(2) {
                    None => None,
                    Some(w) => Some(
                        w.trim_start_matches('p')
                            .parse::<u8>()
                            .map_err(|_| fail(format!("'{w}' is not a player number 1 to 4")))?,
                    ),
                };
                if words.len() > 3 {
                    return Err(fail("`attack` takes a kind and at most one player".into()));
                }
                Ok(Self::Attack { attack, target })
            }
            Some(other) => Err(fail(format!(
                "unknown move '{other}' (expected {MOVE_FORMS})"
            ))),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Roll => f.write_str("roll"),
            Self::Recharge => f.write_str("recharge"),
            Self::Attack {
                attack,
                target: Some(t),
            } => write!(f, "attack {attack} {t}"),
            Self::Attack {
                attack,
                target: None,
            } => write!(f, "attack {attack}"),
            Self::Buy => f.write_str("buy"),
            Self::Pass => f.write_str("pass"),
            Self::Pay => f.write_str("pay"),
            Self::Stay => f.write_str("stay"),
        }
    }
}

/// Who answers for a player: a person, or a bot of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// A person.
    Human,
    /// The default bot ([`crate::bots::DefaultBot`]): level normal.
    #[default]
    Bot,
    /// The random bot ([`crate::bots::RandomBot`]): level easy.
    Random,
    /// The search bot ([`crate::bots::HardBot`]): level hard.
    Hard,
}

impl Seat {
    /// The seat a bot of `level` plays.
    pub fn bot(level: BotLevel) -> Self {
        match level {
            BotLevel::Easy => Self::Random,
            BotLevel::Normal => Self::Bot,
            BotLevel::Hard => Self::Hard,
        }
    }

    /// The bot level of the seat, or `None` for a person.
    pub fn level(self) -> Option<BotLevel> {
        match self {
            Self::Human => None,
            Self::Random => Some(BotLevel::Easy),
            Self::Bot => Some(BotLevel::Normal),
            Self::Hard => Some(BotLevel::Hard),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Human => "human",
            Self::Bot => "bot",
            Self::Random => "random",
            Self::Hard => "hard",
        })
    }
}

/// The seat names [`Seat`] reads, for help and errors.
pub const SEAT_FORMS: &str = "human, easy, normal or hard (bot is normal, random is easy)";

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" | "person" | "h" => Ok(Self::Human),
            "bot" | "b" | "default" | "normal" => Ok(Self::Bot),
            "random" | "r" | "easy" => Ok(Self::Random),
            "hard" => Ok(Self::Hard),
            other => Err(format!("unknown seat '{other}' (expected {SEAT_FORMS})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_as_json_refuse_fields_they_do_not_take() {
        let read = |json: &str| serde_json::from_str::<Move>(json);
        assert_eq!(read(r#"{"move":"roll"}"#).unwrap(), Move::Roll);
        for (json, field) in [
            (r#"{"move":"roll","seat":3}"#, "`seat`"),
            (r#"{"move":"buy","group":1}"#, "`group`"),
            (
                r#"{"move":"attack","attack":"ice","target":2,"how":1}"#,
                "`how`",
            ),
        ] {
            let e = read(json).unwrap_err().to_string();
            assert!(e.contains(&format!("unknown field {field}")), "{json}: {e}");
        }
        let attack = Move::Attack {
            attack: Attack::Fire,
            target: Some(2),
        };
        for mv in [Move::Stay, attack] {
            let json = serde_json::to_string(&mv).unwrap();
            assert_eq!(read(&json).unwrap(), mv, "{json}");
        }
    }

    #[test]
    fn moves_parse_and_print_back() {
        for text in [
            "roll",
            "recharge",
            "attack ice 2",
            "attack fire 4",
            "attack poison 1",
            "attack lightning",
            "buy",
            "pass",
            "pay",
            "stay",
        ] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), m);
        }
        assert_eq!(
            "Attack ICE p3".parse::<Move>().unwrap(),
            Move::Attack {
                attack: Attack::Ice,
                target: Some(3)
            }
        );
        for (bad, says) in [
            ("", "empty"),
            ("fly", "unknown move"),
            ("attack", "needs a kind"),
            ("attack frost 2", "unknown attack"),
            ("attack ice x", "player number"),
            ("roll 3", "nothing after"),
        ] {
            let err = bad.parse::<Move>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
        assert_eq!("Random".parse::<Seat>().unwrap(), Seat::Random);
        assert!("cat".parse::<Seat>().is_err());
        for level in BotLevel::ALL {
            let seat: Seat = level.name().parse().unwrap();
            assert_eq!(seat, Seat::bot(level));
            assert_eq!(seat.level(), Some(level));
            assert_eq!(seat.to_string().parse::<Seat>().unwrap(), seat);
        }
        assert_eq!(
            "bot".parse::<Seat>().unwrap().level(),
            Some(BotLevel::Normal)
        );
        assert_eq!(Seat::Human.level(), None);
        assert_eq!(serde_json::to_string(&Seat::Hard).unwrap(), "\"hard\"");
    }
}
