//! The pending decision asked as the assignment asks it: a few short
//! questions, each with the answers it takes, ending in one [`Move`].
//!
//! Terms:
//! - **dialogue** ([`Dialogue`]): the questions for one decision. A recharge
//!   turn with attacks left asks, in the assignment's words, "Do you wish to
//!   launch a special attack instead of recharging? y/n"; `y` asks the kind
//!   (only the attacks left), then the target (only the other players) when
//!   the kind needs one; `n` recharges. Every other decision is one question,
//!   its [`Decision::prompt`].
//! - **question** ([`Question`]): the text to show and the answers it takes.
//! - **answer**: a line a person typed. A move's own text (`recharge`,
//!   `attack ice 2`, `buy`, …) answers any question directly, so scripts
//!   written with moves keep working; the game then checks it as it checks
//!   every move.
//!
//! The answers offered come from [`Game::legal_moves`]: the dialogue holds no
//! rule of its own. JSON clients send moves and never see it.

use super::{Attack, Decision, Game, Move};
use std::fmt;

/// The assignment's question on a recharge turn with attacks left.
pub const ATTACK_QUESTION: &str =
    "Do you wish to launch a special attack instead of recharging? y/n";

/// One question: what to show, and the answers it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The text to show, naming the player (`P1: Do you wish…`).
    pub text: String,
    /// The answers it takes (a move's own text is always taken as well).
    pub answers: Vec<String>,
}

/// An answer the current question does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{answer}' does not answer \"{question}\": expected {}", expected.join(" or "))]
pub struct AnswerError {
    /// What was typed.
    pub answer: String,
    /// The question.
    pub question: String,
    /// The answers it takes.
    pub expected: Vec<String>,
}

/// Where the dialogue is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The decision's first question.
    First,
    /// Which attack.
    Kind,
    /// Whom to attack with this one.
    Target(Attack),
}

/// The questions for a game's pending decision.
#[derive(Clone, Debug)]
pub struct Dialogue {
    decision: Decision,
    legal: Vec<Move>,
    step: Step,
}

impl Dialogue {
    /// The dialogue for `game`'s pending decision; `None` once the game is
    /// over.
    pub fn new(game: &Game) -> Option<Self> {
        Some(Self {
            decision: game.pending()?,
            legal: game.legal_moves(),
            step: Step::First,
        })
    }

    /// The decision being asked.
    pub fn decision(&self) -> Decision {
        self.decision
    }

    fn attacks(&self) -> Vec<Attack> {
        let mut kinds: Vec<Attack> = self
            .legal
            .iter()
            .filter_map(|m| match m {
                Move::Attack { attack, .. } => Some(*attack),
                _ => None,
            })
            .collect();
        kinds.dedup();
        kinds
    }

    fn targets(&self, kind: Attack) -> Vec<u8> {
        self.legal
            .iter()
            .filter_map(|m| match *m {
                Move::Attack {
                    attack,
                    target: Some(t),
                } if attack == kind => Some(t),
                _ => None,
            })
            .collect()
    }

    /// The question to ask now.
    pub fn question(&self) -> Question {
        let player = self.decision.player();
        match (self.decision, self.step) {
            (Decision::RechargeOrAttack { .. }, Step::First) => Question {
                text: format!("P{player}: {ATTACK_QUESTION}"),
                answers: vec!["y".into(), "n".into()],
            },
            (_, Step::Kind) => {
                let kinds: Vec<String> = self.attacks().iter().map(|a| a.to_string()).collect();
                Question {
                    text: format!("P{player}: which special attack? {}", kinds.join(" | ")),
                    answers: kinds,
                }
            }
            (_, Step::Target(kind)) => {
                let targets: Vec<String> =
                    self.targets(kind).iter().map(|t| t.to_string()).collect();
                Question {
                    text: format!("P{player}: {kind} which player? {}", targets.join(" | ")),
                    answers: targets,
                }
            }
            (decision, Step::First) => Question {
                text: decision.prompt(),
                answers: self.legal.iter().map(ToString::to_string).collect(),
            },
        }
    }

    /// Takes one answer: `Ok(Some(move))` when the dialogue is done,
    /// `Ok(None)` when there is a next [`Dialogue::question`].
    ///
    /// # Errors
    /// An [`AnswerError`] naming the answers the question takes; the
    /// dialogue stays where it was.
    pub fn answer(&mut self, text: &str) -> Result<Option<Move>, AnswerError> {
        let word = text.trim().to_ascii_lowercase();
        let word = word.as_str();
        match (self.decision, self.step) {
            (Decision::RechargeOrAttack { .. }, Step::First) => match word {
                "y" | "yes" => {
                    self.step = Step::Kind;
                    return Ok(None);
                }
                "n" | "no" => return Ok(Some(Move::Recharge)),
                _ => {}
            },
            (_, Step::Kind) => {
                if let Some(kind) = self.attacks().into_iter().find(|a| a.name() == word) {
                    if !kind.needs_target() {
                        return Ok(Some(Move::Attack {
                            attack: kind,
                            target: None,
                        }));
                    }
                    self.step = Step::Target(kind);
                    return Ok(None);
                }
            }
            (_, Step::Target(kind)) => {
                let number = word.trim_start_matches('p').parse::<u8>().ok();
                if let Some(target) = number.filter(|t| self.targets(kind).contains(t)) {
                    return Ok(Some(Move::Attack {
                        attack: kind,
                        target: Some(target),
                    }));
                }
            }
            (_, Step::First) => {}
        }
        if let Ok(mv) = word.parse::<Move>() {
            return Ok(Some(mv));
        }
        let question = self.question();
        Err(AnswerError {
            answer: text.trim().to_string(),
            question: question.text,
            expected: question.answers,
        })
    }
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{SEATS, Seat};
    use crate::grid::Grid;
    use std::sync::Arc;
    use tabletop::SeededDice;

    /// A game on an empty grid at P1's third turn (a recharge turn).
    fn at_recharge() -> Game {
        let seats = [Seat::Human; SEATS];
        let mut g = Game::new(Arc::new(Grid::empty()), seats);
        let mut twos = tabletop::ScriptedDice::new(vec![2; 20]);
        for _ in 0..8 {
            g.apply(Move::Roll, &mut twos).unwrap();
        }
        assert_eq!(g.pending(), Some(Decision::RechargeOrAttack { player: 1 }));
        g
    }

    fn ask(d: &mut Dialogue, answers: &[&str]) -> Result<Option<Move>, AnswerError> {
        let mut last = Ok(None);
        for a in answers {
            last = d.answer(a);
        }
        last
    }

    #[test]
    fn a_recharge_turn_asks_the_assignment_s_question_then_kind_then_target() {
        let g = at_recharge();
        let mut d = Dialogue::new(&g).unwrap();
        let q = d.question();
        assert_eq!(
            q.text,
            "P1: Do you wish to launch a special attack instead of recharging? y/n"
        );
        assert_eq!(q.answers, ["y", "n"]);
        assert_eq!(d.answer("Y"), Ok(None));
        let q = d.question();
        assert_eq!(
            q.text,
            "P1: which special attack? ice | fire | poison | lightning"
        );
        assert_eq!(d.answer("fire"), Ok(None));
        let q = d.question();
        assert_eq!(q.text, "P1: fire which player? 2 | 3 | 4");
        assert_eq!(q.answers, ["2", "3", "4"]);
        let err = d.answer("1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "'1' does not answer \"P1: fire which player? 2 | 3 | 4\": expected 2 or 3 or 4"
        );
        let mv = d.answer("p3").unwrap().unwrap();
        assert_eq!(
            mv,
            Move::Attack {
                attack: Attack::Fire,
                target: Some(3)
            }
        );
        // The move the dialogue gives is one the game takes.
        assert!(g.legal_moves().contains(&mv));
    }

    #[test]
    fn no_recharges_and_lightning_needs_no_target() {
        let g = at_recharge();
        let mut d = Dialogue::new(&g).unwrap();
        assert_eq!(d.answer("n"), Ok(Some(Move::Recharge)));
        let mut d = Dialogue::new(&g).unwrap();
        assert_eq!(
            ask(&mut d, &["yes", "lightning"]),
            Ok(Some(Move::Attack {
                attack: Attack::Lightning,
                target: None
            }))
        );
    }

    #[test]
    fn only_the_attacks_left_are_offered() {
        let mut g = at_recharge();
        let mut dice = SeededDice::new(1);
        g.apply(
            Move::Attack {
                attack: Attack::Ice,
                target: Some(2),
            },
            &mut dice,
        )
        .unwrap();
        // Round to P1's sixth turn: used ice once, three kinds left.
        while g.pending() != Some(Decision::RechargeOrAttack { player: 1 }) {
            let mv = match g.pending() {
                Some(Decision::RechargeOrAttack { .. }) => Move::Recharge,
                _ => Move::Roll,
            };
            g.apply(mv, &mut dice).unwrap();
        }
        let mut d = Dialogue::new(&g).unwrap();
        d.answer("y").unwrap();
        assert_eq!(d.question().answers, ["fire", "poison", "lightning"]);
        let err = d.answer("ice").unwrap_err();
        assert_eq!(err.expected, ["fire", "poison", "lightning"]);
        // Refused answers leave the dialogue where it was.
        assert_eq!(d.question().answers, ["fire", "poison", "lightning"]);
    }

    #[test]
    fn a_move_s_own_text_answers_any_question() {
        let g = at_recharge();
        let mut d = Dialogue::new(&g).unwrap();
        assert_eq!(
            d.answer("attack ice 2"),
            Ok(Some(Move::Attack {
                attack: Attack::Ice,
                target: Some(2)
            }))
        );
        let mut d = Dialogue::new(&g).unwrap();
        assert_eq!(ask(&mut d, &["y", "recharge"]), Ok(Some(Move::Recharge)));
        let err = Dialogue::new(&g).unwrap().answer("maybe").unwrap_err();
        assert_eq!(err.expected, ["y", "n"]);
    }

    #[test]
    fn other_decisions_are_one_question() {
        let g = Game::new(Arc::new(Grid::empty()), [Seat::Human; SEATS]);
        let mut d = Dialogue::new(&g).unwrap();
        let q = d.question();
        assert_eq!(q.text, "P1: roll");
        assert_eq!(q.answers, ["roll"]);
        assert_eq!(d.answer("roll"), Ok(Some(Move::Roll)));
        let err = d.answer("y").unwrap_err();
        assert_eq!(err.expected, ["roll"]);
    }
}
