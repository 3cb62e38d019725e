//! A game: players in seat order taking turns until one finishes.
//!
//! Terms:
//! - **player**: a seat, numbered from 1 in turn order (1 to 8 players).
//! - **turn**: one roll by one player ([`Turn`]); a lost turn is a turn.
//! - **event**: the parts of a turn as a stream — roll, move, chute, ladder,
//!   lost turn, win ([`Event`]).
//! - **record**: board, rules, players and rolls; a game replays exactly from
//!   its record ([`Game::replay`]).

use crate::analysis::Reach;
use crate::board::{Board, Jump, JumpKind};
use crate::rules::{Outcome, Rules, Step};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::{DiceError, DiceSource};

/// The most players in one game.
pub const MAX_PLAYERS: usize = 8;

/// The most rolls a game played with its whole log kept (`parlor chutes
/// play` and `render`) takes, all players together. A game without a
/// winner by then is stopped there: its log, one [`Turn`] per roll, stays
/// under a megabyte. (A match on the server keeps its record in the store
/// and only its latest events in memory; it stalls at the match layer's
/// cap, `tabletop::play::DEFAULT_MOVE_CAP`.)
/// A board whose finish can be reached may still make games that
/// practically never end (every third square a chute back to the start),
/// which the "stuck" check cannot tell from a long game.
pub const ROLL_CAP: u32 = 20_000;

/// Why a turn could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// Not 1 to 8 players.
    #[error("a game has 1 to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    /// The game already has a winner.
    #[error("the game is over: player {winner} has won")]
    Over {
        /// The winning player (from 1).
        winner: u8,
    },
    /// A roll that is not a face of the die.
    #[error("a {faces}-sided die cannot roll {roll}")]
    Roll {
        /// The roll given.
        roll: u32,
        /// Faces of the die.
        faces: u8,
    },
    /// The dice could not roll (a script ran out, or held a bad roll).
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// One roll by one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The roll's number in the game, from 1.
    pub number: u32,
    /// Who rolled, from 1.
    pub player: u8,
    /// The roll.
    pub roll: u8,
    /// Where the token was.
    pub from: u32,
    /// The square the count reached, before any jump.
    pub landed: u32,
    /// Where the token ends.
    pub to: u32,
    /// The chute or ladder taken, or `null`.
    pub jump: Option<Jump>,
    /// How the turn ended.
    pub outcome: Outcome,
    /// The player's tally after the turn, so that a front end showing
    /// turns one by one counts nothing itself.
    #[serde(default)]
    pub tally: PlayerState,
}

/// Something that happened in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A player rolled.
    Roll {
        /// Who.
        player: u8,
        /// The roll.
        roll: u8,
    },
    /// A token moved by the count of the roll.
    Move {
        /// Who.
        player: u8,
        /// From.
        from: u32,
        /// To.
        to: u32,
    },
    /// A token slid down a chute.
    Chute {
        /// Who.
        player: u8,
        /// The chute.
        jump: Jump,
    },
    /// A token climbed a ladder.
    Ladder {
        /// Who.
        player: u8,
        /// The ladder.
        jump: Jump,
    },
    /// The roll would pass the finish; the token stays.
    LostTurn {
        /// Who.
        player: u8,
        /// Where the token stays.
        at: u32,
    },
    /// A player reached the finish.
    Win {
        /// Who.
        player: u8,
        /// Rolls in the whole game.
        rolls: u32,
    },
}

impl Turn {
    /// This turn as a stream of events, without allocating.
    pub fn events(&self) -> impl Iterator<Item = Event> + use<> {
        let player = self.player;
        let mut events: [Option<Event>; 4] = [None; 4];
        events[0] = Some(Event::Roll {
            player,
            roll: self.roll,
        });
        if self.outcome == Outcome::LostTurn {
            events[1] = Some(Event::LostTurn {
                player,
                at: self.from,
            });
        } else {
            events[1] = Some(Event::Move {
                player,
                from: self.from,
                to: self.landed,
            });
            events[2] = self.jump.map(|jump| match jump.kind() {
                JumpKind::Chute => Event::Chute { player, jump },
                JumpKind::Ladder => Event::Ladder { player, jump },
            });
            if self.outcome == Outcome::Won {
                events[3] = Some(Event::Win {
                    player,
                    rolls: self.number,
                });
            }
        }
        events.into_iter().flatten()
    }
}

/// One player's tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Where the token is.
    pub square: u32,
    /// Rolls made, lost turns included.
    pub rolls: u32,
    /// Chutes taken.
    pub chutes: u32,
    /// Ladders taken.
    pub ladders: u32,
    /// Lost turns.
    pub lost_turns: u32,
}

/// A game in progress or finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    board: Arc<Board>,
    rules: Rules,
    players: Vec<PlayerState>,
    next: usize,
    rolls: u32,
    winner: Option<u8>,
}

impl Game {
    /// A new game with `players` players, all on the start square.
    ///
    /// # Errors
    /// Fails unless there are 1 to 8 players.
    pub fn new(board: Arc<Board>, rules: Rules, players: usize) -> Result<Self, GameError> {
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(GameError::Players(players));
        }
        let start = PlayerState {
            square: board.start(),
            ..PlayerState::default()
        };
        Ok(Self {
            board,
            rules,
            players: vec![start; players],
            next: 0,
            rolls: 0,
            winner: None,
        })
    }

    /// Replays a game from its record: the same board, rules, players and
    /// rolls always give the same turns. Returns the game and every turn.
    ///
    /// # Errors
    /// Fails on a bad player count, a roll that is not a face of the die, or
    /// rolls left over after someone has won.
    pub fn replay(
        board: Arc<Board>,
        rules: Rules,
        players: usize,
        rolls: &[u32],
    ) -> Result<(Self, Vec<Turn>), GameError> {
        let mut game = Self::new(board, rules, players)?;
        let mut turns = Vec::with_capacity(rolls.len());
        for &roll in rolls {
            turns.push(game.play_roll(roll)?);
        }
        Ok((game, turns))
    }

    /// The board.
    pub fn board(&self) -> &Arc<Board> {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Every player's tally, in seat order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// Who rolls next (from 1), or `None` when the game is over.
    pub fn to_move(&self) -> Option<u8> {
        if self.winner.is_some() {
            None
        } else {
            Some(self.next as u8 + 1)
        }
    }

    /// Rolls made so far, by all players.
    pub fn rolls(&self) -> u32 {
        self.rolls
    }

    /// The winner (from 1), once someone has finished.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }

    /// The game can never end: no one has won and no token can still reach
    /// the finish ([`Reach::can_finish`], from
    /// [`crate::analysis::Chain::reach`] on this game's board and rules), so
    /// no roll can ever bring one there. A loop that plays until someone
    /// wins must stop here.
    pub fn stuck(&self, reach: &Reach) -> bool {
        self.winner.is_none() && self.players.iter().all(|p| !reach.can_finish(p.square))
    }

    /// Plays the next player's turn with `roll`.
    ///
    /// # Errors
    /// Fails when the game is over or `roll` is not a face of the die; the
    /// game is then unchanged.
    pub fn play_roll(&mut self, roll: u32) -> Result<Turn, GameError> {
        if let Some(winner) = self.winner {
            return Err(GameError::Over { winner });
        }
        let faces = self.rules.faces();
        if roll == 0 || roll > u32::from(faces) {
            return Err(GameError::Roll { roll, faces });
        }
        let seat = self.next;
        let player = &mut self.players[seat];
        let step: Step = self.rules.step(&self.board, player.square, roll as u8);
        self.rolls += 1;
        player.rolls += 1;
        player.square = step.to;
        match step.jump.map(|j| j.kind()) {
            Some(JumpKind::Chute) => player.chutes += 1,
            Some(JumpKind::Ladder) => player.ladders += 1,
            None => {}
        }
        if step.outcome == Outcome::LostTurn {
            player.lost_turns += 1;
        }
        let tally = *player;
        let number = seat as u8 + 1;
        if step.outcome == Outcome::Won {
            self.winner = Some(number);
        } else {
            self.next = (seat + 1) % self.players.len();
        }
        Ok(Turn {
            number: self.rolls,
            player: number,
            roll: step.roll,
            from: step.from,
            landed: step.landed,
            to: step.to,
            jump: step.jump,
            outcome: step.outcome,
            tally,
        })
    }

    /// Plays the next player's turn with a roll from `dice`.
    ///
    /// # Errors
    /// Fails when the game is over or the dice cannot roll; the game is then
    /// unchanged.
    pub fn play(&mut self, dice: &mut (impl DiceSource + ?Sized)) -> Result<Turn, GameError> {
        if let Some(winner) = self.winner {
            return Err(GameError::Over { winner });
        }
        let roll = dice.roll(self.rules.faces())?;
        self.play_roll(u32::from(roll))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSpec;
    use tabletop::{ScriptedDice, SeededDice};

    fn classic() -> Arc<Board> {
        Arc::new(Board::classic())
    }

    #[test]
    fn players_take_turns_in_seat_order() {
        let mut game = Game::new(classic(), Rules::default(), 3).unwrap();
        let seats: Vec<u8> = (0..7).map(|_| game.play_roll(2).unwrap().player).collect();
        assert_eq!(seats, vec![1, 2, 3, 1, 2, 3, 1]);
        assert_eq!(game.to_move(), Some(2));
    }

    #[test]
    fn player_count_is_checked() {
        assert_eq!(
            Game::new(classic(), Rules::default(), 0).unwrap_err(),
            GameError::Players(0)
        );
        assert!(Game::new(classic(), Rules::default(), 9).is_err());
        assert!(Game::new(classic(), Rules::default(), 8).is_ok());
    }

    #[test]
    fn a_seven_roll_classic_game_follows_the_board() {
        // 1 climbs to 38; 51 climbs to 67; 71 climbs to 91; 94 + 6 = 100.
        let rolls = [1, 6, 6, 1, 4, 3, 6];
        let (game, turns) = Game::replay(classic(), Rules::default(), 1, &rolls).unwrap();
        let path: Vec<u32> = turns.iter().map(|t| t.to).collect();
        assert_eq!(path, vec![38, 44, 50, 67, 91, 94, 100]);
        assert_eq!(game.winner(), Some(1));
        assert_eq!(game.players()[0].ladders, 3);
        assert_eq!(turns[3].landed, 51);
        assert_eq!(turns[3].jump, Some(Jump::new(51, 67)));
    }

    #[test]
    fn a_won_game_refuses_more_rolls() {
        let board = Arc::new(
            Board::new(BoardSpec {
                size: 3,
                ..Default::default()
            })
            .unwrap(),
        );
        let mut game = Game::new(board, Rules::default(), 2).unwrap();
        let t = game.play_roll(3).unwrap();
        assert_eq!(t.outcome, Outcome::Won);
        assert_eq!(game.winner(), Some(1));
        assert_eq!(game.to_move(), None);
        assert_eq!(game.play_roll(1), Err(GameError::Over { winner: 1 }));
        let (_, turns) = Game::replay(game.board().clone(), Rules::default(), 2, &[1, 3]).unwrap();
        assert_eq!(turns.last().unwrap().player, 2);
        assert!(Game::replay(game.board().clone(), Rules::default(), 2, &[3, 1]).is_err());
    }

    #[test]
    fn bad_rolls_leave_the_game_unchanged() {
        let mut game = Game::new(classic(), Rules::default(), 1).unwrap();
        let before = game.clone();
        assert_eq!(
            game.play_roll(7),
            Err(GameError::Roll { roll: 7, faces: 6 })
        );
        assert_eq!(
            game.play_roll(0),
            Err(GameError::Roll { roll: 0, faces: 6 })
        );
        assert_eq!(game, before);
    }

    #[test]
    fn each_turn_carries_its_players_tally_after_it() {
        let board = Arc::new(Board::classic());
        let mut game = Game::new(board, Rules::default(), 2).unwrap();
        let mut dice = tabletop::SeededDice::new(11);
        while game.winner().is_none() && game.rolls() < 500 {
            let turn = game.play(&mut dice).unwrap();
            let player = game.players()[usize::from(turn.player) - 1];
            assert_eq!(turn.tally, player, "turn {}", turn.number);
            assert_eq!(turn.tally.square, turn.to);
        }
        let tallied: u32 = game.players().iter().map(|p| p.rolls).sum();
        assert_eq!(tallied, game.rolls());
    }

    #[test]
    fn lost_turns_count_as_rolls() {
        let board = Arc::new(
            Board::new(BoardSpec {
                size: 5,
                ..Default::default()
            })
            .unwrap(),
        );
        let (game, turns) = Game::replay(board, Rules::default(), 1, &[4, 6, 1]).unwrap();
        assert_eq!(turns[1].outcome, Outcome::LostTurn);
        assert_eq!(turns[1].to, 4);
        assert_eq!(game.winner(), Some(1));
        assert_eq!(game.rolls(), 3);
        assert_eq!(game.players()[0].lost_turns, 1);
    }

    #[test]
    fn events_describe_each_turn() {
        let (_, turns) = Game::replay(classic(), Rules::default(), 1, &[1, 6]).unwrap();
        let events: Vec<Event> = turns[0].events().collect();
        assert_eq!(
            events,
            vec![
                Event::Roll { player: 1, roll: 1 },
                Event::Move {
                    player: 1,
                    from: 0,
                    to: 1
                },
                Event::Ladder {
                    player: 1,
                    jump: Jump::new(1, 38)
                },
            ]
        );
        let json = serde_json::to_string(&events[2]).unwrap();
        assert_eq!(
            json,
            r#"{"event":"ladder","player":1,"jump":{"from":1,"to":38,"kind":"ladder"}}"#
        );
        let board = Arc::new(
            Board::new(BoardSpec {
                size: 3,
                ..Default::default()
            })
            .unwrap(),
        );
        let (_, turns) = Game::replay(board, Rules::default(), 1, &[6, 3]).unwrap();
        assert!(matches!(
            turns[0].events().nth(1),
            Some(Event::LostTurn { at: 0, .. })
        ));
        assert!(matches!(
            turns[1].events().last(),
            Some(Event::Win { rolls: 2, .. })
        ));
    }

    #[test]
    fn seeded_games_replay_exactly() {
        let mut game = Game::new(classic(), Rules::default(), 2).unwrap();
        let mut dice = SeededDice::new(99);
        let mut rolls = Vec::new();
        let mut turns = Vec::new();
        while game.winner().is_none() {
            let t = game.play(&mut dice).unwrap();
            rolls.push(u32::from(t.roll));
            turns.push(t);
        }
        let (again, replayed) = Game::replay(classic(), Rules::default(), 2, &rolls).unwrap();
        assert_eq!(replayed, turns);
        assert_eq!(again, game);
    }

    #[test]
    fn a_game_whose_tokens_are_all_trapped_is_stuck() {
        use crate::analysis::Chain;
        // 1 climbs to 9, next to the finish; 3 to 8 slide back to 2, so a
        // token on 2 can never leave the squares 2 to 8.
        let board = Arc::new(
            Board::from_jumps(
                10,
                0,
                &[(1, 9), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2)],
            )
            .unwrap(),
        );
        let rules = Rules::default();
        let reach = Chain::new(&board, &rules).reach();
        let mut game = Game::new(board, rules, 2).unwrap();
        assert!(!game.stuck(&reach), "both on the start square");
        game.play_roll(2).unwrap();
        assert_eq!(game.players()[0].square, 2);
        assert!(!game.stuck(&reach), "player 2 can still finish");
        game.play_roll(2).unwrap();
        assert!(game.stuck(&reach), "both tokens trapped on 2");
        // A won game is over, not stuck.
        let (won, _) = Game::replay(game.board().clone(), rules, 1, &[1, 1]).unwrap();
        assert_eq!(won.winner(), Some(1));
        assert!(!won.stuck(&reach));
    }

    #[test]
    fn scripted_dice_that_run_out_are_an_error() {
        let mut game = Game::new(classic(), Rules::default(), 1).unwrap();
        let mut dice = ScriptedDice::new(vec![3]);
        assert!(game.play(&mut dice).is_ok());
        assert!(matches!(
            game.play(&mut dice),
            Err(GameError::Dice(DiceError::Exhausted { used: 1 }))
        ));
    }
}
