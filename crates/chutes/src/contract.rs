//! Chutes & Ladders as the match layer plays it
//! ([`tabletop::play::Playable`]).
//!
//! Terms:
//! - **setup** ([`Setup`]): the board and the rules; 1 to 8 seats.
//! - **move** ([`Move`]): `roll` — the only choice a player has; the match
//!   rolls (seeded dice) or the move carries the roll (chosen dice).
//! - **event**: a [`Turn`], which says itself in words ("P1 rolls 4: 0 → 4,
//!   climbs the ladder 4 → 14").
//! - **stuck**: every token stands on a square from which the finish can no
//!   longer be reached; the match then stops as stalled.
//! - **view** ([`View`]): every token and tally, and each player's exact
//!   chance to win from here; Chutes hides nothing but the dice, which the
//!   game never holds, so the chances are a function of what every viewer
//!   sees.

use crate::analysis::chances::{Chances, ChancesOptions, Position, Remaining};
use crate::board::{Board, JumpKind};
use crate::board_memo::BoardMemo;
use crate::game::{Game, GameError, PlayerState, Turn};
use crate::rules::{Outcome, Rules};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use tabletop::Code;
use tabletop::play::{Coded, Playable, SeatKind, Stall, Status, Viewer};
use tabletop::{BotLevel, DiceSource, Rng};

/// How to start a Chutes & Ladders match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The board.
    pub board: Board,
    /// The die and the overshoot rule.
    #[serde(default)]
    pub rules: Rules,
}

/// A player's move: roll the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum Move {
    /// Roll and move.
    Roll,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("roll")
    }
}

/// Text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move: the only move is roll")]
pub struct MoveParseError(pub String);

impl FromStr for Move {
    type Err = MoveParseError;
    /// Reads `roll` (or `r`), in any case.
    fn from_str(s: &str) -> Result<Self, MoveParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "roll" | "r" => Ok(Self::Roll),
            _ => Err(MoveParseError(s.trim().to_string())),
        }
    }
}

impl fmt::Display for Turn {
    /// "P1 rolls 4: 0 → 4, climbs the ladder 4 → 14".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{} rolls {}: ", self.player, self.roll)?;
        match (self.outcome, self.jump) {
            (Outcome::LostTurn, _) => write!(
                f,
                "{} + {} would pass the finish; stays on {}",
                self.from, self.roll, self.from
            ),
            (outcome, Some(j)) => {
                let verb = match j.kind() {
                    JumpKind::Ladder => "climbs the ladder",
                    JumpKind::Chute => "slides down the chute",
                };
                write!(
                    f,
                    "{} → {}, {verb} {} → {}",
                    self.from, self.landed, j.from, j.to
                )?;
                if outcome == Outcome::Won {
                    f.write_str(" and wins")?;
                }
                Ok(())
            }
            (outcome, None) => {
                write!(f, "{} → {}", self.from, self.to)?;
                if self.landed != self.from + u32::from(self.roll) {
                    f.write_str(", bouncing back from the finish")?;
                }
                if outcome == Outcome::Won {
                    f.write_str(" and wins")?;
                }
                Ok(())
            }
        }
    }
}

impl Turn {
    /// The turn in a sentence for people, its player called by `names`
    /// (seat 1's first; "Player N" past its end): "Ada rolls 6 and climbs
    /// the ladder from 28 to 84", "Bo rolls 3 and moves from 4 to 7".
    pub fn words(&self, names: &[String]) -> String {
        let who = tabletop::play::seat_name(names, self.player);
        let roll = self.roll;
        let bounced = self.landed != self.from + u32::from(roll);
        let mut s = match (self.outcome, self.jump) {
            (Outcome::LostTurn, _) => {
                return format!(
                    "{who} rolls {roll}, which would pass the finish, and stays on {}",
                    self.from
                );
            }
            (_, Some(j)) => {
                let verb = match j.kind() {
                    JumpKind::Ladder => "climbs the ladder",
                    JumpKind::Chute => "slides down the chute",
                };
                if bounced {
                    format!(
                        "{who} rolls {roll}, bounces back from the finish to {} and {verb} from {} to {}",
                        self.landed, j.from, j.to
                    )
                } else {
                    format!("{who} rolls {roll} and {verb} from {} to {}", j.from, j.to)
                }
            }
            (_, None) if bounced => format!(
                "{who} rolls {roll} and bounces back from the finish to {}",
                self.to
            ),
            (_, None) if self.from == 0 => {
                format!("{who} rolls {roll} and moves onto square {}", self.to)
            }
            (_, None) => format!(
                "{who} rolls {roll} and moves from {} to {}",
                self.from, self.to
            ),
        };
        if self.outcome == Outcome::Won {
            s.push_str(" and wins");
        }
        s
    }
}

impl Coded for GameError {
    fn code(&self) -> Code {
        match self {
            Self::Players(_) => Code::BadSeats,
            Self::Over { .. } => Code::GameOver,
            Self::Roll { .. } => Code::BadRoll,
            Self::Dice(e) => e.code(),
        }
    }
}

/// A Chutes & Ladders game with what it knows of its board: which squares
/// can still reach the finish, and the remaining rolls from each square
/// (shared with every game on the same board: [`BoardMemo`]).
#[derive(Clone, Debug)]
pub struct Table {
    game: Game,
    memo: Arc<BoardMemo>,
    /// The chances from the current position, computed when a view first
    /// asks for them after a move (a replay computes none).
    chances: OnceLock<Option<Chances>>,
}

impl Table {
    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True when no token can ever reach the finish again.
    pub fn stuck(&self) -> bool {
        self.game.stuck(self.memo.reach())
    }

    /// Each player's exact chance to win from the current position, or
    /// `None` on a board too large to work them out within
    /// [`crate::analysis::chances::VIEW_MAX_STEPS`].
    pub fn chances(&self) -> Option<&Chances> {
        self.chances
            .get_or_init(|| {
                let game = &self.game;
                let position = Position {
                    squares: game.players().iter().map(|p| p.square).collect(),
                    to_move: game.to_move().or(game.winner()).unwrap_or(1),
                };
                let remaining: Option<Vec<Arc<Remaining>>> = position
                    .squares
                    .iter()
                    .map(|&square| self.memo.remaining(square))
                    .collect();
                let remaining = remaining?;
                let refs: Vec<&Remaining> = remaining.iter().map(AsRef::as_ref).collect();
                let tail = ChancesOptions::default().tail;
                self.memo.spreader().combine(&position, &refs, tail).ok()
            })
            .as_ref()
    }
}

/// What every viewer sees of a Chutes & Ladders match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The board's name, if it has one.
    pub board: Option<String>,
    /// Its squares.
    pub squares: u32,
    /// Faces of the die.
    pub faces: u8,
    /// Each player's token and tally, in seat order.
    pub players: Vec<PlayerState>,
    /// Rolls made so far, by all players.
    pub rolls: u32,
    /// The winner (from 1), once someone has finished.
    pub winner: Option<u8>,
    /// True when no token can ever reach the finish again.
    pub stuck: bool,
    /// Each player's exact chance to win from here, in seat order, to four
    /// decimals (`chances`; absent on a board too large to work them out
    /// for every move).
    #[serde(flatten)]
    pub chances: Option<tabletop::play::Chances>,
}

impl Playable for Table {
    const NAME: &'static str = "chutes";
    type Setup = Setup;
    type Move = Move;
    type Event = Turn;
    type View = View;
    type Error = GameError;

    fn seat_range(_: &Setup) -> std::ops::RangeInclusive<u8> {
        1..=crate::game::MAX_PLAYERS as u8
    }

    fn start(setup: &Setup, seats: &[SeatKind], _seed: u64) -> Result<Self, GameError> {
        let board = Arc::new(setup.board.clone());
        let game = Game::new(Arc::clone(&board), setup.rules, seats.len())?;
        Ok(Self {
            game,
            memo: BoardMemo::of(&board, &setup.rules),
            chances: OnceLock::new(),
        })
    }

    fn to_move(&self) -> Option<u8> {
        self.game.to_move()
    }

    fn apply(&mut self, _mv: &Move, dice: &mut dyn DiceSource) -> Result<Vec<Turn>, GameError> {
        let turn = self.game.play(dice)?;
        self.chances = OnceLock::new();
        Ok(vec![turn])
    }

    fn status(&self) -> Status {
        match self.game.winner() {
            Some(winner) => Status::Won { winner },
            None if self.stuck() => Status::stalled(Stall::Trapped {
                finish: self.game.board().finish(),
            }),
            None => Status::Playing,
        }
    }

    fn view(&self, _viewer: Viewer) -> View {
        View {
            board: self.game.board().name().map(str::to_string),
            squares: self.game.board().size(),
            faces: self.game.rules().faces(),
            players: self.game.players().to_vec(),
            rolls: self.game.rolls(),
            winner: self.game.winner(),
            stuck: self.stuck(),
            // To four decimals: a view is for people, and a move's answer
            // stays small (the CLI's `chutes chances` gives every digit).
            chances: Playable::chances(self).map(|c| c.rounded(4)),
        }
    }

    fn bot_move(&self, _level: BotLevel, _rng: &mut Rng) -> Move {
        Move::Roll
    }

    fn chances(&self) -> Option<tabletop::play::Chances> {
        Table::chances(self).map(|c| tabletop::play::Chances::exact(c.win.clone()))
    }

    fn words(turn: &Turn, _mover: u8, names: &[String]) -> String {
        turn.words(names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::play::{DiceMode, Match};

    #[test]
    fn turns_say_themselves_in_words() {
        let board = Board::classic();
        let (_, turns) =
            Game::replay(Arc::new(board), Rules::default(), 1, &[1, 6, 6, 1, 4, 3, 6]).unwrap();
        let words: Vec<String> = turns.iter().map(ToString::to_string).collect();
        assert_eq!(words[0], "P1 rolls 1: 0 → 1, climbs the ladder 1 → 38");
        assert_eq!(words[1], "P1 rolls 6: 38 → 44");
        assert_eq!(words[6], "P1 rolls 6: 94 → 100 and wins");
    }

    #[test]
    fn turns_say_themselves_in_sentences_with_names() {
        let board = Board::classic();
        let (_, turns) =
            Game::replay(Arc::new(board), Rules::default(), 2, &[1, 3, 6, 4, 3]).unwrap();
        let names = ["Ada".to_string(), "Bo".to_string()];
        let words: Vec<String> = turns.iter().map(|t| t.words(&names)).collect();
        // The classic board: a ladder 1 → 38, a chute 47 → 26 (none on 3,
        // 4, 44 nor 45).
        assert_eq!(words[0], "Ada rolls 1 and climbs the ladder from 1 to 38");
        assert_eq!(words[1], "Bo rolls 3 and moves onto square 3");
        assert_eq!(words[2], "Ada rolls 6 and moves from 38 to 44");
        assert_eq!(words[3], "Bo rolls 4 and moves from 3 to 7");
        assert_eq!(
            words[4],
            "Ada rolls 3 and slides down the chute from 47 to 26"
        );
        // A seat past the names given is "Player N".
        assert!(turns[1].words(&names[..1]).starts_with("Player 2 rolls 3"));
        for w in &words {
            assert!(
                !w.contains("->") && !w.contains('→') && !w.contains("P1"),
                "{w}"
            );
        }
    }

    #[test]
    fn a_trapped_match_stalls() {
        let board = Board::from_jumps(
            10,
            0,
            &[(1, 9), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2)],
        )
        .unwrap();
        let setup = Setup {
            board,
            rules: Rules::default(),
        };
        let mut m = Match::<Table>::start(setup, vec![SeatKind::Person], DiceMode::Chosen).unwrap();
        let mut two = tabletop::ScriptedDice::new(vec![2]);
        m.play_rolling(1, Move::Roll, &mut two).unwrap();
        assert!(
            matches!(m.status(), Status::Stalled { .. }),
            "{}",
            m.status()
        );
        assert_eq!(m.to_move(), None);
    }
}
