//! What happens in a game, as a stream of events.
//!
//! Terms:
//! - **event** ([`Event`]): one thing that happened; players are numbered
//!   from 1 in seat order. Every event has a one-line text form for logs.
//! - **cause** ([`Cause`]): why a token moved (the die, or a card).
//! - **lost-turn reason** ([`LostReason`]): why turns are to be lost.

use super::moves::Attack;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a token moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The roll.
    Dice,
    /// Card 2: to the next ladder.
    NextLadder,
    /// Card 5: back by the roll.
    GoBack,
    /// Card 6: to its destination.
    GoTo,
    /// Card 7 played by another player: back to cell 1.
    Restart,
}

/// Why turns are to be lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LostReason {
    /// Card 4.
    Card,
    /// Card 8, staying in prison.
    Prison,
    /// The ice attack.
    Ice,
}

/// Something that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A player's turn began; `turn` is their own turn counter.
    TurnStarted {
        /// Who.
        player: u8,
        /// Their turn number, from 1.
        turn: u32,
        /// True on a recharge turn (3, 6, 9…).
        recharge: bool,
    },
    /// Fire burned coins at the start of a turn.
    Burned {
        /// Who.
        player: u8,
        /// Coins lost.
        coins: u32,
        /// Burning turns left after this one.
        left: u32,
    },
    /// The turn is lost (card 4, prison, ice).
    TurnLost {
        /// Who.
        player: u8,
        /// Lost turns still to come after this one.
        left: u32,
    },
    /// The wallet is empty (0 coins or fewer): the turn passes without a move.
    WalletEmpty {
        /// Who.
        player: u8,
        /// The wallet.
        coins: i64,
    },
    /// The die was rolled.
    Rolled {
        /// Who.
        player: u8,
        /// The face rolled.
        roll: u8,
        /// What it counts for (one less under poison).
        counts: u8,
    },
    /// The wallet was recharged by 10 × the roll.
    Recharged {
        /// Who.
        player: u8,
        /// Coins added.
        coins: u32,
    },
    /// A token moved.
    Moved {
        /// Whose.
        player: u8,
        /// From.
        from: u32,
        /// To.
        to: u32,
        /// Why.
        cause: Cause,
    },
    /// A token climbed a ladder.
    Ladder {
        /// Whose.
        player: u8,
        /// Its start.
        from: u32,
        /// Its end.
        to: u32,
    },
    /// A token slid down a snake.
    Snake {
        /// Whose.
        player: u8,
        /// Its start.
        from: u32,
        /// Its end.
        to: u32,
    },
    /// A card applies to the player who stopped on it.
    Card {
        /// Who.
        player: u8,
        /// Where.
        cell: u32,
        /// The card number, 1–12.
        card: u8,
    },
    /// Coins paid: to the bank (`to` none: card 1, prison) or to a station
    /// owner.
    Paid {
        /// Who paid.
        player: u8,
        /// Coins.
        coins: u32,
        /// Who received them, if a player.
        to: Option<u8>,
    },
    /// Card 2 with no ladder ahead: nothing happens.
    NoLadderAhead {
        /// Who.
        player: u8,
    },
    /// Card 3: the player rolls again now.
    ExtraRoll {
        /// Who.
        player: u8,
    },
    /// Turns to be lost were added.
    WillLoseTurns {
        /// Who.
        player: u8,
        /// How many were added.
        turns: u32,
        /// Why.
        reason: LostReason,
    },
    /// Card 7: a player was sent back to cell 1 (`target` none: nobody ahead).
    SentBack {
        /// Who played the card.
        player: u8,
        /// Who went back to cell 1.
        target: Option<u8>,
    },
    /// Prison: the player can pay the fee, and must choose.
    PrisonChoice {
        /// Who.
        player: u8,
        /// The fee.
        fee: u32,
    },
    /// Prison: the player cannot pay the fee and stays.
    CannotPayPrison {
        /// Who.
        player: u8,
        /// The fee.
        fee: u32,
    },
    /// A station nobody owns is for sale to the player, who must choose.
    ForSale {
        /// Who.
        player: u8,
        /// The station number.
        station: u8,
        /// Its price.
        price: u32,
    },
    /// The player cannot afford the station nobody owns.
    CannotAfford {
        /// Who.
        player: u8,
        /// The station number.
        station: u8,
        /// Its price.
        price: u32,
    },
    /// The player bought a station group.
    Bought {
        /// Who.
        player: u8,
        /// The station number.
        station: u8,
        /// The price paid.
        price: u32,
    },
    /// The player chose not to buy.
    Passed {
        /// Who.
        player: u8,
        /// The station number.
        station: u8,
    },
    /// The player stopped on their own station.
    OwnStation {
        /// Who.
        player: u8,
        /// The station number.
        station: u8,
    },
    /// Card 12: a station group changed hands (`to` none: nothing happened).
    StationGiven {
        /// Who played the card.
        player: u8,
        /// The station group, if one moved.
        station: Option<u8>,
        /// Who received it.
        to: Option<u8>,
    },
    /// A special attack.
    Attacked {
        /// The attacker.
        player: u8,
        /// Which attack.
        attack: Attack,
        /// The target (none for lightning).
        target: Option<u8>,
    },
    /// A chain of cards returned to a cell already reached this turn and
    /// stopped there.
    ChainStopped {
        /// Whose.
        player: u8,
        /// The cell.
        cell: u32,
    },
    /// A player stopped on cell 99 and won.
    Won {
        /// Who.
        player: u8,
        /// Turns taken in the whole game.
        turns: u32,
    },
    /// The game reached its turn cap with no winner.
    Stalled {
        /// Turns taken in the whole game.
        turns: u32,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TurnStarted {
                player,
                turn,
                recharge,
            } => write!(
                f,
                "P{player} turn {turn}{}",
                if recharge { " (recharge turn)" } else { "" }
            ),
            Self::Burned {
                player,
                coins,
                left,
            } => write!(
                f,
                "P{player} burns: -{coins} coins ({left} burning turn{} left)",
                if left == 1 { "" } else { "s" }
            ),
            Self::TurnLost { player, left } => write!(
                f,
                "P{player} loses this turn{}",
                if left > 0 {
                    format!(" ({left} more to lose)")
                } else {
                    String::new()
                }
            ),
            Self::WalletEmpty { player, coins } => {
                write!(f, "P{player} has {coins} coins: no move this turn")
            }
            Self::Rolled {
                player,
                roll,
                counts,
            } => {
                if roll == counts {
                    write!(f, "P{player} rolls {roll}")
                } else {
                    write!(f, "P{player} rolls {roll}, poisoned: counts {counts}")
                }
            }
            Self::Recharged { player, coins } => write!(f, "P{player} recharges +{coins} coins"),
            Self::Moved {
                player,
                from,
                to,
                cause,
            } => {
                let why = match cause {
                    Cause::Dice => "",
                    Cause::NextLadder => " (to the next ladder)",
                    Cause::GoBack => " (back by the roll)",
                    Cause::GoTo => " (sent by the card)",
                    Cause::Restart => " (back to the start)",
                };
                write!(f, "P{player} moves {from} -> {to}{why}")
            }
            Self::Ladder { player, from, to } => {
                write!(f, "P{player} climbs the ladder {from} -> {to}")
            }
            Self::Snake { player, from, to } => {
                write!(f, "P{player} slides down the snake {from} -> {to}")
            }
            Self::Card { player, cell, card } => {
                write!(f, "P{player} draws card {card} on cell {cell}")
            }
            Self::Paid { player, coins, to } => match to {
                Some(o) => write!(
                    f,
                    "P{player} pays P{o} {}",
                    tabletop::count(coins.into(), "coin", "coins")
                ),
                None => write!(
                    f,
                    "P{player} pays {}",
                    tabletop::count(coins.into(), "coin", "coins")
                ),
            },
            Self::NoLadderAhead { player } => write!(f, "P{player}: no ladder ahead"),
            Self::ExtraRoll { player } => write!(f, "P{player} rolls again"),
            Self::WillLoseTurns {
                player,
                turns,
                reason,
            } => {
                let why = match reason {
                    LostReason::Card => "card 4",
                    LostReason::Prison => "prison",
                    LostReason::Ice => "ice",
                };
                write!(
                    f,
                    "P{player} will lose {turns} turn{} ({why})",
                    if turns == 1 { "" } else { "s" }
                )
            }
            Self::SentBack { player, target } => match target {
                Some(t) => write!(f, "P{player} sends P{t} back to cell 1"),
                None => write!(f, "P{player}: nobody ahead to send back"),
            },
            Self::PrisonChoice { player, fee } => {
                write!(f, "P{player} is in prison: pay {fee} or stay 3 turns?")
            }
            Self::CannotPayPrison { player, fee } => {
                write!(f, "P{player} cannot pay the prison fee of {fee} and stays")
            }
            Self::ForSale {
                player,
                station,
                price,
            } => write!(f, "P{player} may buy station {station} for {price}"),
            Self::CannotAfford {
                player,
                station,
                price,
            } => write!(
                f,
                "P{player} cannot afford station {station} ({price} coins)"
            ),
            Self::Bought {
                player,
                station,
                price,
            } => write!(f, "P{player} buys station {station} for {price}"),
            Self::Passed { player, station } => {
                write!(f, "P{player} does not buy station {station}")
            }
            Self::OwnStation { player, station } => write!(f, "P{player} owns station {station}"),
            Self::StationGiven {
                player,
                station,
                to,
            } => match (station, to) {
                (Some(s), Some(t)) => write!(f, "P{player}'s station {s} passes to P{t}"),
                _ => write!(f, "P{player}: no station changes hands"),
            },
            Self::Attacked {
                player,
                attack,
                target,
            } => match target {
                Some(t) => write!(f, "P{player} attacks P{t} with {attack}"),
                None => write!(f, "P{player} strikes everyone with {attack}"),
            },
            Self::ChainStopped { player, cell } => write!(
                f,
                "P{player} is back on cell {cell}, already reached this turn: the chain stops"
            ),
            Self::Won { player, turns } => {
                // The game's turns are every player's: say so, not "after".
                let turns = tabletop::count(turns.into(), "turn", "turns");
                write!(f, "P{player} reaches 99 and wins ({turns} in all)")
            }
            Self::Stalled { turns } => {
                let turns = tabletop::count(turns.into(), "turn", "turns");
                write!(f, "nobody has won after {turns}: the game stops")
            }
        }
    }
}

impl Event {
    /// The event in a sentence for people, each player called by `names`
    /// (seat 1's first; "Player N" past its end), with no arrows: "Ada
    /// rolls 1", "Ada moves from 6 to 7", "Ada pays Bo 10 coins". The CLI's
    /// log keeps the short form (`Display`: "P1 moves 6 -> 7").
    pub fn words(&self, names: &[String]) -> String {
        let name = |seat: u8| tabletop::play::seat_name(names, seat);
        let coins = |n: u32| tabletop::count(n.into(), "coin", "coins");
        let turns = |n: u32| tabletop::count(n.into(), "turn", "turns");
        match *self {
            Self::TurnStarted {
                player,
                turn,
                recharge,
            } => format!(
                "{}'s {} turn{}",
                name(player),
                super::words::ordinal(turn),
                if recharge { ", a recharge turn" } else { "" }
            ),
            Self::Burned {
                player,
                coins: lost,
                left,
            } => format!(
                "{} burns and loses {} ({} of burning left)",
                name(player),
                coins(lost),
                turns(left)
            ),
            Self::TurnLost { player, left } if left > 0 => format!(
                "{} loses this turn, and {} more after it",
                name(player),
                turns(left)
            ),
            Self::TurnLost { player, .. } => format!("{} loses this turn", name(player)),
            Self::WalletEmpty { player, coins: has } => format!(
                "{} has {has} {} and cannot move this turn",
                name(player),
                tabletop::plural(has.unsigned_abs(), "coin", "coins")
            ),
            Self::Rolled {
                player,
                roll,
                counts,
            } if roll == counts => format!("{} rolls {roll}", name(player)),
            Self::Rolled {
                player,
                roll,
                counts,
            } => format!(
                "{} rolls {roll}, which counts {counts} under poison",
                name(player)
            ),
            Self::Recharged { player, coins: got } => {
                format!("{} recharges {}", name(player), coins(got))
            }
            Self::Moved {
                player,
                from,
                to,
                cause,
            } => {
                let why = match cause {
                    Cause::Dice => "",
                    Cause::NextLadder => ", to the next ladder",
                    Cause::GoBack => ", back by the roll",
                    Cause::GoTo => ", sent by the card",
                    Cause::Restart => ", back to the start",
                };
                format!("{} moves from {from} to {to}{why}", name(player))
            }
            Self::Ladder { player, from, to } => {
                format!("{} climbs the ladder from {from} to {to}", name(player))
            }
            Self::Snake { player, from, to } => {
                format!("{} slides down the snake from {from} to {to}", name(player))
            }
            Self::Card { player, cell, card } => {
                format!("{} draws card {card} on cell {cell}", name(player))
            }
            Self::Paid {
                player,
                coins: paid,
                to: Some(o),
            } => format!("{} pays {} {}", name(player), name(o), coins(paid)),
            Self::Paid {
                player,
                coins: paid,
                to: None,
            } => format!("{} pays {}", name(player), coins(paid)),
            Self::NoLadderAhead { player } => {
                format!("{} has no ladder ahead", name(player))
            }
            Self::ExtraRoll { player } => format!("{} rolls again", name(player)),
            Self::WillLoseTurns {
                player,
                turns: lost,
                reason,
            } => {
                let why = match reason {
                    LostReason::Card => "card 4",
                    LostReason::Prison => "prison",
                    LostReason::Ice => "ice",
                };
                format!("{} will lose {} to {why}", name(player), turns(lost))
            }
            Self::SentBack {
                player,
                target: Some(t),
            } => format!("{} sends {} back to cell 1", name(player), name(t)),
            Self::SentBack {
                player,
                target: None,
            } => {
                format!("{} finds nobody ahead to send back", name(player))
            }
            Self::PrisonChoice { player, fee } => format!(
                "{} is in prison: pay {} or stay 3 turns",
                name(player),
                coins(fee)
            ),
            Self::CannotPayPrison { player, fee } => format!(
                "{} cannot pay the prison fee of {} and stays",
                name(player),
                coins(fee)
            ),
            Self::ForSale {
                player,
                station,
                price,
            } => format!(
                "{} may buy station {station} for {}",
                name(player),
                coins(price)
            ),
            Self::CannotAfford {
                player,
                station,
                price,
            } => format!(
                "{} cannot afford station {station}, which costs {}",
                name(player),
                coins(price)
            ),
            Self::Bought {
                player,
                station,
                price,
            } => format!(
                "{} buys station {station} for {}",
                name(player),
                coins(price)
            ),
            Self::Passed { player, station } => {
                format!("{} does not buy station {station}", name(player))
            }
            Self::OwnStation { player, station } => {
                format!("{} owns station {station}", name(player))
            }
            Self::StationGiven {
                player,
                station: Some(s),
                to: Some(t),
            } => format!("{}'s station {s} passes to {}", name(player), name(t)),
            Self::StationGiven { player, .. } => {
                format!("No station of {}'s changes hands", name(player))
            }
            Self::Attacked {
                player,
                attack,
                target: Some(t),
            } => format!("{} attacks {} with {attack}", name(player), name(t)),
            Self::Attacked {
                player,
                attack,
                target: None,
            } => format!("{} strikes everyone with {attack}", name(player)),
            Self::ChainStopped { player, cell } => format!(
                "{} is back on cell {cell}, already reached this turn, so the chain stops",
                name(player)
            ),
            Self::Won { player, turns: all } => format!(
                "{} reaches 99 and wins ({} in all)",
                name(player),
                turns(all)
            ),
            Self::Stalled { turns: all } => {
                format!("Nobody has won after {}: the game stops", turns(all))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_one_are_singular() {
        let paid = |coins, to| Event::Paid {
            player: 1,
            coins,
            to,
        };
        assert_eq!(paid(1, None).to_string(), "P1 pays 1 coin");
        assert_eq!(paid(1, Some(2)).to_string(), "P1 pays P2 1 coin");
        assert_eq!(paid(5, None).to_string(), "P1 pays 5 coins");
        let won = Event::Won {
            player: 3,
            turns: 1,
        };
        assert_eq!(won.to_string(), "P3 reaches 99 and wins (1 turn in all)");
        assert_eq!(
            Event::Stalled { turns: 1 }.to_string(),
            "nobody has won after 1 turn: the game stops"
        );
        assert_eq!(
            Event::Stalled { turns: 2 }.to_string(),
            "nobody has won after 2 turns: the game stops"
        );
    }

    #[test]
    fn events_say_themselves_in_sentences_with_names() {
        let names = ["Ada".to_string(), "Bo".to_string()];
        let said = |e: Event| e.words(&names);
        assert_eq!(
            said(Event::TurnStarted {
                player: 1,
                turn: 2,
                recharge: false
            }),
            "Ada's 2nd turn"
        );
        assert_eq!(
            said(Event::Moved {
                player: 2,
                from: 6,
                to: 7,
                cause: Cause::Dice
            }),
            "Bo moves from 6 to 7"
        );
        assert_eq!(
            said(Event::Paid {
                player: 1,
                coins: 1,
                to: Some(2)
            }),
            "Ada pays Bo 1 coin"
        );
        // A seat past the names given is "Player N".
        assert_eq!(
            said(Event::Won {
                player: 3,
                turns: 9
            }),
            "Player 3 reaches 99 and wins (9 turns in all)"
        );
    }
}
