//! A game and its dice, for tests: the game holds no dice of its own.

#![allow(dead_code)]

use std::ops::{Deref, DerefMut};
use tabletop::{DiceSource, ScriptedDice, SeededDice};
use tycoon::{Event, Game, GameError, Move};

/// Dice a test hands its game: a script, or a seed.
#[derive(Clone, Debug)]
pub enum TestDice {
    /// Rolls in order.
    Script(ScriptedDice),
    /// Rolls from a seed.
    Seed(SeededDice),
}

impl TestDice {
    /// How many scripted rolls were used (0 for seeded dice).
    pub fn used(&self) -> usize {
        match self {
            Self::Script(s) => s.used(),
            Self::Seed(_) => 0,
        }
    }
}

impl DiceSource for TestDice {
    fn roll(&mut self, faces: u8) -> Result<u8, tabletop::DiceError> {
        match self {
            Self::Script(s) => s.roll(faces),
            Self::Seed(s) => s.roll(faces),
        }
    }
}

/// A game with the dice it rolls.
#[derive(Clone, Debug)]
pub struct Table {
    /// The game.
    pub game: Game,
    /// Its dice.
    pub dice: TestDice,
}

impl Table {
    /// `game` rolling `rolls` in order.
    pub fn scripted(game: Game, rolls: &[u32]) -> Self {
        Self {
            game,
            dice: TestDice::Script(ScriptedDice::new(rolls.to_vec())),
        }
    }

    /// `game` rolling from `seed`.
    pub fn seeded(game: Game, seed: u64) -> Self {
        Self {
            game,
            dice: TestDice::Seed(SeededDice::new(seed)),
        }
    }

    /// Plays `mv` with this table's dice.
    pub fn apply(&mut self, mv: Move) -> Result<Vec<Event>, GameError> {
        self.game.apply(mv, &mut self.dice)
    }

    /// The same dice on another game (a tweaked position).
    pub fn with_game(&self, game: Game) -> Self {
        Self {
            game,
            dice: self.dice.clone(),
        }
    }
}

impl PartialEq for Table {
    fn eq(&self, other: &Self) -> bool {
        self.game == other.game && self.dice.used() == other.dice.used()
    }
}

impl Deref for Table {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

impl DerefMut for Table {
    fn deref_mut(&mut self) -> &mut Game {
        &mut self.game
    }
}
