//! The pending decision and each answer to it said in words, for a page
//! that shows a few clear buttons rather than the CLI's grammar.
//!
//! Terms:
//! - **asked** ([`Asked`]): the question for the player to move, in words
//!   ("Player 1's recharge turn: Do you wish to launch a special attack
//!   instead of recharging?", the original assignment's question), and every
//!   legal move as an [`Answer`].
//! - **answer** ([`Answer`]): one legal move with a button's label ("Buy
//!   for 50 coins", "Ice on Player 2") and what it does ("Player 1 owns
//!   every station 9 …"; an attack on a chosen player says it with its
//!   kind). An attack's answers carry their kind and target, so that a
//!   page can ask the kind first and the target second without knowing
//!   any rule.
//! - **attack kind** ([`AttackChoice`], [`attack_kinds`]): a kind of
//!   attack with its label and effect; the same for every game, so a page
//!   is told them once (with the match's setup) and an answer names its
//!   kind.
//! - **outcome** ([`outcome`]): how a finished game ended, counting the
//!   winner's own turns and the turns of all players apart.
//!
//! The answers are [`Game::legal_moves`], in its order: this module words
//! them and holds no rule of its own. Players are called by the names
//! passed in (seat 1's first), "Player N" for a seat past their end.

use super::dialogue::ATTACK_QUESTION;
use super::{Attack, Decision, Game, Move, PRISON_TURNS, RECHARGE_PER_PIP, TurnKind};
use serde::Serialize;

/// A seat's name for people: its name in `names`, else `Player 2`.
pub fn player_name(names: &[String], seat: u8) -> String {
    tabletop::play::seat_name(names, seat)
}

/// The pending decision in words, with every answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Asked {
    /// Who must answer (from 1).
    pub player: u8,
    /// The question, naming the player.
    pub question: String,
    /// Every legal move, in [`Game::legal_moves`]'s order.
    pub answers: Vec<Answer>,
}

/// One legal move, worded for a button. Written as JSON, its move is its
/// text (one way to send it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The move.
    #[serde(skip)]
    pub mv: Move,
    /// Its text form (`attack ice 2`), as the API and the CLI read it.
    pub text: String,
    /// A button's words: `Roll`, `Buy for 50 coins`, `Ice on Player 2`.
    pub label: String,
    /// What it does, in a sentence's words; empty (and left out of its
    /// JSON) for an attack on a chosen player, whose kind's words say it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// The attack it launches, if it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<Attack>,
    /// The player it is aimed at, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u8>,
}

/// A kind of attack, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AttackChoice {
    /// The kind.
    pub attack: Attack,
    /// Its name, capitalised: `Ice`.
    pub label: &'static str,
    /// What it does, for the player choosing.
    pub detail: &'static str,
    /// True when a target is chosen next.
    pub needs_target: bool,
}

/// Every kind of attack in words, in [`Attack::ALL`]'s order (the order
/// answers offer them in).
pub fn attack_kinds() -> Vec<AttackChoice> {
    Attack::ALL
        .into_iter()
        .map(|attack| AttackChoice {
            attack,
            label: attack_label(attack),
            detail: attack_effect(attack),
            needs_target: attack.needs_target(),
        })
        .collect()
}

/// What an attack does, for the player choosing it.
pub fn attack_effect(attack: Attack) -> &'static str {
    // The numbers are the rules' constants; a test checks the words say them.
    match attack {
        Attack::Ice => "the player you choose loses their next turn",
        Attack::Fire => "the player you choose loses 20 coins on each of their next 3 turns",
        Attack::Poison => {
            "the rolls of the player you choose count one less for their next 5 turns"
        }
        Attack::Lightning => "every other player loses 20 coins",
    }
}

fn attack_label(attack: Attack) -> &'static str {
    match attack {
        Attack::Ice => "Ice",
        Attack::Fire => "Fire",
        Attack::Poison => "Poison",
        Attack::Lightning => "Lightning",
    }
}

/// `1st`, `2nd`, `3rd`, `11th`, `22nd`.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn coins(n: impl Into<i64>) -> String {
    let n: i64 = n.into();
    format!(
        "{n} {}",
        tabletop::plural(n.unsigned_abs(), "coin", "coins")
    )
}

/// The decision `game` waits for, in words, with every answer, each seat
/// called by `names`; `None` once the game is over.
pub fn asked(game: &Game, names: &[String]) -> Option<Asked> {
    let decision = game.pending()?;
    let player = decision.player();
    let me = game.player(player)?;
    let name = player_name(names, player);
    let recharge = format!("adds {RECHARGE_PER_PIP} × the roll to the wallet");
    let question = match decision {
        Decision::Roll { turn, .. } => match turn {
            TurnKind::Move => format!("{name} to roll."),
            TurnKind::Recharge => {
                format!("{name}'s recharge turn (both attacks are used): the roll {recharge}.")
            }
            TurnKind::Lost => {
                let more = me.lost_turns.saturating_sub(1);
                if more == 0 {
                    format!("{name} loses this turn.")
                } else {
                    format!(
                        "{name} loses this turn, and {} after it.",
                        tabletop::count(more.into(), "more", "more")
                    )
                }
            }
            TurnKind::EmptyWallet => {
                format!("{name}'s wallet is empty: this turn passes without a move.")
            }
        },
        // The original assignment's question, as its console asks it (less
        // the "y/n": the answers are buttons).
        Decision::RechargeOrAttack { .. } => format!(
            "{name}'s recharge turn: {}?",
            ATTACK_QUESTION
                .trim_end_matches(" y/n")
                .trim_end_matches('?')
        ),
        Decision::BuyOrPass { station, price, .. } => format!(
            "{name} stopped on station {station}, which nobody owns: buy it for {}? ({name} has {}.)",
            coins(price),
            coins(me.coins)
        ),
        Decision::PayOrStay { fee, .. } => format!(
            "{name} is in prison: pay {} to leave, or stay and lose the next {PRISON_TURNS} turns?",
            coins(fee)
        ),
    };
    let answers = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let (label, detail) = match (decision, mv) {
                (Decision::Roll { turn, .. }, _) => match turn {
                    TurnKind::Move => ("Roll".to_string(), "roll the die and move".to_string()),
                    TurnKind::Recharge => ("Roll to recharge".to_string(), recharge.clone()),
                    TurnKind::Lost | TurnKind::EmptyWallet => (
                        "Go on".to_string(),
                        "the turn passes to the next player".to_string(),
                    ),
                },
                (_, Move::Recharge) => ("Recharge".to_string(), recharge.clone()),
                // An attack on a chosen player: its kind's words say what
                // it does (`attack_kinds`), its label whom.
                (_, Move::Attack { attack, target }) => match target {
                    Some(t) => (
                        format!("{} on {}", attack_label(attack), player_name(names, t)),
                        String::new(),
                    ),
                    None => (
                        format!("{} on everyone", attack_label(attack)),
                        attack_effect(attack).to_string(),
                    ),
                },
                (Decision::BuyOrPass { station, price, .. }, Move::Buy) => {
                    let fee = game
                        .grid()
                        .station_terms(station)
                        .map(|t| {
                            format!(" and takes {} from anyone who stops on one", coins(t.fee))
                        })
                        .unwrap_or_default();
                    (
                        format!("Buy for {}", coins(price)),
                        format!("{name} owns every station {station}{fee}"),
                    )
                }
                (_, Move::Pass) => (
                    "Don't buy".to_string(),
                    "the station stays for sale".to_string(),
                ),
                (Decision::PayOrStay { fee, .. }, Move::Pay) => (
                    format!("Pay {}", coins(fee)),
                    format!("{name} leaves prison and plays the next turn"),
                ),
                (_, Move::Stay) => (
                    format!("Stay {PRISON_TURNS} turns"),
                    format!("{name} keeps the coins and loses the next {PRISON_TURNS} turns"),
                ),
                (_, other) => (other.to_string(), String::new()),
            };
            let (attack, target) = match mv {
                Move::Attack { attack, target } => (Some(attack), target),
                _ => (None, None),
            };
            Answer {
                text: mv.to_string(),
                mv,
                label,
                detail,
                attack,
                target,
            }
        })
        .collect::<Vec<_>>();
    Some(Asked {
        player,
        question,
        answers,
    })
}

/// How a finished game ended, in a sentence; `None` while it is on. A win
/// counts the winner's own turns, and the turns of all players apart:
/// "Ada reaches 99 and wins on their 25th turn (99 turns in all)."
pub fn outcome(game: &Game, names: &[String]) -> Option<String> {
    if !game.is_over() {
        return None;
    }
    let all = tabletop::count(game.turns().into(), "turn", "turns");
    Some(match game.winner() {
        Some(w) => {
            let own = game.player(w).map_or(0, |p| p.turns);
            format!(
                "{} reaches 99 and wins on their {} turn ({all} in all).",
                player_name(names, w),
                ordinal(own)
            )
        }
        None => format!("Nobody has won after {all} in all: the game stops at its turn cap."),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{
        FIRE_COINS, FIRE_TURNS, LIGHTNING_COINS, MAX_ATTACKS, POISON_TURNS, SEATS, Seat,
    };
    use crate::grid::Grid;
    use crate::parse_grid;
    use std::sync::Arc;
    use tabletop::ScriptedDice;

    fn game_on(grid: Grid) -> Game {
        Game::new(Arc::new(grid), [Seat::Human; SEATS])
    }

    /// Plays `rolls` as each pending decision's first legal move.
    fn play(game: &mut Game, rolls: &[u32]) {
        let mut dice = ScriptedDice::new(rolls.to_vec());
        for _ in rolls {
            let mv = game.legal_moves()[0];
            game.apply(mv, &mut dice).unwrap();
        }
    }

    #[test]
    fn ordinals() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th"
            ]
        );
    }

    #[test]
    fn a_roll_is_asked_in_words() {
        let g = game_on(Grid::empty());
        let asked = asked(&g, &[]).unwrap();
        assert_eq!(asked.player, 1);
        assert_eq!(asked.question, "Player 1 to roll.");
        assert_eq!(asked.answers.len(), 1);
        assert_eq!(asked.answers[0].label, "Roll");
        assert_eq!(asked.answers[0].text, "roll");
        assert!(asked.answers.iter().all(|a| a.attack.is_none()));
    }

    #[test]
    fn a_recharge_turn_offers_recharge_and_each_attack_by_kind_and_named_target() {
        let mut g = game_on(Grid::empty());
        play(&mut g, &[2; 8]);
        let asked = asked(&g, &[]).unwrap();
        assert_eq!(
            asked.question,
            "Player 1's recharge turn: Do you wish to launch a special attack instead of recharging?"
        );
        // Every legal move is an answer, in the game's order.
        let texts: Vec<&str> = asked.answers.iter().map(|a| a.text.as_str()).collect();
        let legal: Vec<String> = g.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(texts, legal);
        assert_eq!(asked.answers[0].label, "Recharge");
        let ice2 = asked
            .answers
            .iter()
            .find(|a| a.text == "attack ice 2")
            .unwrap();
        assert_eq!(ice2.label, "Ice on Player 2");
        assert_eq!(ice2.detail, "", "its kind's words say what it does");
        assert_eq!((ice2.attack, ice2.target), (Some(Attack::Ice), Some(2)));
        let lightning = asked
            .answers
            .iter()
            .find(|a| a.text == "attack lightning")
            .unwrap();
        assert_eq!(lightning.label, "Lightning on everyone");
        assert_eq!(lightning.target, None);
        // The answers offer the kinds in their words' order, and those
        // words say the rules' numbers.
        let mut offered: Vec<Attack> = asked.answers.iter().filter_map(|a| a.attack).collect();
        offered.dedup();
        let kinds = attack_kinds();
        assert_eq!(offered, kinds.iter().map(|k| k.attack).collect::<Vec<_>>());
        let labels: Vec<&str> = kinds.iter().map(|c| c.label).collect();
        assert_eq!(labels, ["Ice", "Fire", "Poison", "Lightning"]);
        assert!(kinds[1].detail.contains(&format!("{FIRE_COINS} coins")));
        assert!(kinds[1].detail.contains(&format!("{FIRE_TURNS} turns")));
        assert!(kinds[2].detail.contains(&format!("{POISON_TURNS} turns")));
        assert!(
            kinds[3]
                .detail
                .contains(&format!("{LIGHTNING_COINS} coins"))
        );
        assert!(!kinds[3].needs_target);
        // Nobody is offered as their own target.
        assert!(asked.answers.iter().all(|a| a.target != Some(1)));
        assert_eq!(MAX_ATTACKS, 2);
    }

    #[test]
    fn a_station_and_prison_are_asked_with_their_prices() {
        // Card 9 on cell 3 (price 50, fee 10): a roll of 2 stops there.
        let mut g = game_on(parse_grid("0\n0\n1\n9 3 50 10\n").unwrap());
        play(&mut g, &[2]);
        let asked_now = asked(&g, &[]).unwrap();
        assert_eq!(
            asked_now.question,
            "Player 1 stopped on station 9, which nobody owns: buy it for 50 coins? (Player 1 has 100 coins.)"
        );
        let labels: Vec<&str> = asked_now.answers.iter().map(|a| a.label.as_str()).collect();
        assert_eq!(labels, ["Buy for 50 coins", "Don't buy"]);
        assert_eq!(
            asked_now.answers[0].detail,
            "Player 1 owns every station 9 and takes 10 coins from anyone who stops on one"
        );

        // Card 8 on cell 3 (fee 40): prison.
        let mut g = game_on(parse_grid("0\n0\n1\n8 3 40\n").unwrap());
        play(&mut g, &[2]);
        let asked_now = asked(&g, &[]).unwrap();
        assert_eq!(
            asked_now.question,
            "Player 1 is in prison: pay 40 coins to leave, or stay and lose the next 3 turns?"
        );
        let labels: Vec<&str> = asked_now.answers.iter().map(|a| a.label.as_str()).collect();
        assert_eq!(labels, ["Pay 40 coins", "Stay 3 turns"]);
    }

    #[test]
    fn a_lost_turn_says_how_many_more() {
        // Card 4 on cell 3: the next turn is lost.
        let mut g = game_on(parse_grid("0\n0\n1\n4 3\n").unwrap());
        play(&mut g, &[2, 2, 2, 2]);
        let asked_now = asked(&g, &[]).unwrap();
        assert_eq!(asked_now.question, "Player 1 loses this turn.");
        assert_eq!(asked_now.answers[0].label, "Go on");
    }

    #[test]
    fn the_outcome_counts_the_winner_s_turns_and_all_turns_apart() {
        // Card 6 on cell 3 sends to 99: P1 wins on their first turn.
        let mut g = game_on(parse_grid("0\n0\n1\n6 3 99\n").unwrap());
        assert_eq!(outcome(&g, &[]), None);
        play(&mut g, &[1, 1, 1, 1, 1]);
        assert_eq!(g.winner(), Some(1));
        assert_eq!(
            outcome(&g, &[]).unwrap(),
            "Player 1 reaches 99 and wins on their 2nd turn (5 turns in all)."
        );
        let mut g = game_on(Grid::empty()).with_turn_cap(4);
        play(&mut g, &[1, 1, 1, 1]);
        assert_eq!(
            outcome(&g, &[]).unwrap(),
            "Nobody has won after 4 turns in all: the game stops at its turn cap."
        );
    }
}
