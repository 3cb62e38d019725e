//! The players of a match as people see them: their names, and the result
//! said to each viewer.
//!
//! Terms:
//! - **seat name**: a person's chosen name (kept in the match's record),
//!   else "Player N"; a bot is "Hard bot" (or "Bot" in a game whose bot
//!   has no levels), followed by its seat when two bots would share a name
//!   ("Normal bot 3").
//! - **outcome** ([`Outcome`]): how a finished match ended, for one viewer:
//!   the winner's seat and name, whether the viewer won, and the words
//!   every front end shows ("You win", "You lost: Ada wins", "Ada wins",
//!   "No one wins: …"). "You" is said to a viewer holding exactly one seat;
//!   several people at one screen are told the winner by name.

use crate::any_match::Adapter;
use serde::Serialize;
use tabletop::play::{Match, SeatKind, Status};

/// Every seat's name, seat 1 first.
pub(crate) fn seat_names<G: Adapter>(m: &Match<G>) -> Vec<String>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    let bot = |kind: &SeatKind| match kind {
        SeatKind::Bot { level } if G::BOT_LEVELS => {
            let level = level.name();
            let mut first = level.chars();
            let capital: String = first
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .collect();
            Some(format!("{capital}{} bot", first.as_str()))
        }
        SeatKind::Bot { .. } => Some("Bot".to_string()),
        SeatKind::Person => None,
    };
    let seats = m.seats();
    let plain: Vec<Option<String>> = seats.iter().map(bot).collect();
    seats
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let seat = i as u8 + 1;
            if let Some(name) = m.chosen_name(seat) {
                return name.to_string();
            }
            match &plain[i] {
                Some(name) if plain.iter().filter(|p| p.as_ref() == Some(name)).count() > 1 => {
                    format!("{name} {seat}")
                }
                Some(name) => name.clone(),
                None => format!("Player {seat}"),
            }
        })
        .collect()
}

/// How a finished match ended, for one viewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Outcome {
    /// The winning seat (from 1), if one won.
    pub winner: Option<u8>,
    /// The winner's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner_name: Option<String>,
    /// For a viewer holding exactly one seat: whether it won (none for a
    /// spectator, a screen of several players, or a game with no winner).
    pub you_won: Option<bool>,
    /// The result in words, the same on every front end.
    pub words: String,
}

/// The outcome of a match that stands at `status`, for a viewer holding
/// `yours` (none while it is on).
pub fn outcome(status: &Status, names: &[String], yours: &[u8]) -> Option<Outcome> {
    let name = |seat: u8| {
        names
            .get(usize::from(seat).wrapping_sub(1))
            .cloned()
            .unwrap_or_else(|| format!("Player {seat}"))
    };
    let alone = match yours {
        [seat] => Some(*seat),
        _ => None,
    };
    match status {
        Status::Playing => None,
        Status::Won { winner } => {
            let winner_name = name(*winner);
            let (you_won, words) = match alone {
                Some(seat) if seat == *winner => (Some(true), "You win".to_string()),
                Some(_) => (Some(false), format!("You lost: {winner_name} wins")),
                None => (None, format!("{winner_name} wins")),
            };
            Some(Outcome {
                winner: Some(*winner),
                winner_name: Some(winner_name),
                you_won,
                words,
            })
        }
        Status::Shared { winners } => {
            let names: Vec<String> = winners.iter().map(|&s| name(s)).collect();
            let (you_won, words) = match alone {
                Some(seat) if winners.contains(&seat) => {
                    let others: Vec<String> = winners
                        .iter()
                        .filter(|&&s| s != seat)
                        .map(|&s| name(s))
                        .collect();
                    (
                        Some(true),
                        format!("You share the win with {}", and_list(&others)),
                    )
                }
                Some(_) => (
                    Some(false),
                    format!("You lost: {} share the win", and_list(&names)),
                ),
                None => (None, format!("{} share the win", and_list(&names))),
            };
            Some(Outcome {
                winner: None,
                winner_name: None,
                you_won,
                words,
            })
        }
        Status::GivenUp => Some(Outcome {
            winner: None,
            winner_name: None,
            you_won: alone.map(|_| false),
            words: match (alone, names) {
                (Some(_), _) => "You gave up".to_string(),
                (None, [only]) => format!("{only} gave up"),
                _ => "The game was given up".to_string(),
            },
        }),
        Status::Stalled { reason, .. } => Some(Outcome {
            winner: None,
            winner_name: None,
            you_won: None,
            words: format!("No one wins: {reason}"),
        }),
    }
}

/// `Ada`, `Ada and Bo`, `Ada, Bo and Cy`.
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::play::Stall;

    fn names() -> Vec<String> {
        vec!["Ada".into(), "Player 2".into(), "Hard bot".into()]
    }

    #[test]
    fn a_shared_win_is_said_to_each_winner_the_losers_and_the_watchers() {
        let shared = Status::Shared {
            winners: vec![1, 3],
        };
        let to = |yours: &[u8]| outcome(&shared, &names(), yours).unwrap();
        assert_eq!(to(&[1]).words, "You share the win with Hard bot");
        assert_eq!(to(&[1]).you_won, Some(true));
        assert_eq!(to(&[2]).words, "You lost: Ada and Hard bot share the win");
        assert_eq!(to(&[2]).you_won, Some(false));
        assert_eq!(to(&[]).words, "Ada and Hard bot share the win");
        assert_eq!(to(&[]).winner, None);
        let three = Status::Shared {
            winners: vec![1, 2, 3],
        };
        assert_eq!(
            outcome(&three, &names(), &[]).unwrap().words,
            "Ada, Player 2 and Hard bot share the win"
        );
    }

    #[test]
    fn a_win_is_said_to_the_winner_the_losers_and_the_watchers() {
        let won = Status::Won { winner: 1 };
        let to = |yours: &[u8]| outcome(&won, &names(), yours).unwrap();
        assert_eq!(to(&[1]).words, "You win");
        assert_eq!(to(&[1]).you_won, Some(true));
        assert_eq!(to(&[2]).words, "You lost: Ada wins");
        assert_eq!(to(&[2]).you_won, Some(false));
        assert_eq!(to(&[]).words, "Ada wins");
        assert_eq!(to(&[]).you_won, None);
        // Two people at one screen are told the winner by name.
        assert_eq!(to(&[1, 2]).words, "Ada wins");
        assert_eq!(to(&[]).winner, Some(1));
        assert_eq!(to(&[]).winner_name.as_deref(), Some("Ada"));
    }

    #[test]
    fn no_winner_is_said_as_such() {
        assert_eq!(outcome(&Status::Playing, &names(), &[1]), None);
        let stalled = Status::stalled(Stall::MoveCap { moves: 10 });
        let said = outcome(&stalled, &names(), &[1]).unwrap();
        assert_eq!(
            said.words,
            "No one wins: the game reached 10 moves with no end in sight"
        );
        assert_eq!((said.winner, said.you_won), (None, None));
        let solo = ["Ada".to_string()];
        assert_eq!(
            outcome(&Status::GivenUp, &solo, &[1]).unwrap().words,
            "You gave up"
        );
        assert_eq!(
            outcome(&Status::GivenUp, &solo, &[]).unwrap().words,
            "Ada gave up"
        );
    }
}
