//! A game of Baffle: a state machine over moves.
//!
//! Terms:
//! - **setup** ([`Setup`]): box size, mirror count, sides, and where the
//!   mirrors come from ([`Origin`]: the original assignment's fixed game, a
//!   seed, or a given layout). A [`Game`] is a setup that passed every check.
//! - **move** ([`Move`]): `shoot H`, `guess R C /` (or `\`), `quit`. Text and
//!   JSON forms; a move is applied or refused ([`MoveError`]) as a whole.
//! - **event** ([`Event`]): what a move did: a shot came out, a guess was
//!   right or wrong, the game was won or given up.
//! - **score** ([`Score`]): +1 per shot, +2 per wrong guess; lower is better.
//! - **found**: a mirror guessed right. **Status** ([`Status`]): playing,
//!   won (every mirror found) or quit (every mirror revealed).
//! - **view** ([`View`]): what the player may see. While the game is on it
//!   holds shots as entry and exit only (a path or a deflection count would
//!   give mirrors away), guesses and found mirrors; once it is over, every
//!   shot's deflections and path (the path for pictures, never in the
//!   JSON) and every mirror, found or not.
//! - **record**: the setup and the moves applied; a game is stored as its
//!   record and loaded by replaying it, so a stored game is always a legal
//!   one.

use crate::beam::{Beam, Step, trace};
use crate::geometry::{Cell, GeometryError, Side, Sides, Size};
use crate::layout::{Layout, LayoutError, Mirror, Placed, check_mirror_count};
use crate::solve::Evidence;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Where a game's mirrors come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// The original assignment's fixed first game (10 × 10, 5 mirrors).
    Fixed,
    /// Random mirrors from a seed ([`Layout::seeded`]).
    Seeded {
        /// The seed.
        seed: u64,
    },
    /// A layout given whole (a puzzle set by a teacher, a layout file).
    Given {
        /// The layout.
        layout: Layout,
    },
}

/// How to start a game: not yet checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Box size `n` (4 to 26).
    pub size: usize,
    /// Mirrors `k` (1 to n²/2).
    pub mirrors: usize,
    /// The sides beams may be shot from.
    #[serde(default)]
    pub sides: Sides,
    /// Where the mirrors come from.
    pub origin: Origin,
}

impl Default for Setup {
    /// The original assignment's first game, all four sides.
    fn default() -> Self {
        Self::fixed(Sides::All)
    }
}

impl Setup {
    /// The original assignment's fixed first game.
    pub fn fixed(sides: Sides) -> Self {
        Self {
            size: crate::geometry::DEFAULT_SIZE,
            mirrors: crate::layout::FIXED.len(),
            sides,
            origin: Origin::Fixed,
        }
    }

    /// A random game from a seed.
    pub fn seeded(size: usize, mirrors: usize, sides: Sides, seed: u64) -> Self {
        Self {
            size,
            mirrors,
            sides,
            origin: Origin::Seeded { seed },
        }
    }

    /// A game on a given layout.
    pub fn given(layout: Layout, sides: Sides) -> Self {
        Self {
            size: layout.size().n(),
            mirrors: layout.count(),
            sides,
            origin: Origin::Given { layout },
        }
    }

    /// The layout this setup plays.
    ///
    /// # Errors
    /// See [`SetupError`].
    pub fn layout(&self) -> Result<Layout, SetupError> {
        let size = Size::new(self.size).map_err(LayoutError::from)?;
        check_mirror_count(size, self.mirrors)?;
        match &self.origin {
            Origin::Fixed => {
                let fixed = Layout::fixed();
                if size != fixed.size() || self.mirrors != fixed.count() {
                    return Err(SetupError::FixedIsTenByTen {
                        size: self.size,
                        mirrors: self.mirrors,
                    });
                }
                Ok(fixed)
            }
            Origin::Seeded { seed } => Ok(Layout::seeded(size, self.mirrors, *seed)?),
            Origin::Given { layout } => {
                if layout.size() != size || layout.count() != self.mirrors {
                    return Err(SetupError::Mismatch {
                        size: self.size,
                        mirrors: self.mirrors,
                        layout_size: layout.size().n(),
                        layout_mirrors: layout.count(),
                    });
                }
                Ok(layout.clone())
            }
        }
    }
}

/// Why a game cannot start (or a stored game cannot be loaded).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Bad size, mirror count or layout.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// The fixed game asked for with another size or count.
    #[error("the fixed game is 10×10 with 5 mirrors, not {size}×{size} with {mirrors}")]
    FixedIsTenByTen {
        /// Size asked for.
        size: usize,
        /// Mirrors asked for.
        mirrors: usize,
    },
    /// A given layout that does not match the setup's size and count.
    #[error(
        "the setup says {size}×{size} with {}, but the layout is {layout_size}×{layout_size} with {layout_mirrors}",
        tabletop::count(*mirrors as u64, "mirror", "mirrors")
    )]
    Mismatch {
        /// Size in the setup.
        size: usize,
        /// Mirrors in the setup.
        mirrors: usize,
        /// The layout's size.
        layout_size: usize,
        /// The layout's mirror count.
        layout_mirrors: usize,
    },
    /// A stored move that the game refuses.
    #[error("move {number} ({mv}) of the record: {error}")]
    Replay {
        /// The move's number, from 1.
        number: usize,
        /// The move.
        mv: Move,
        /// Why it was refused.
        error: MoveError,
    },
}

/// A player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum Move {
    /// Shoot a beam into a hole.
    Shoot {
        /// The hole.
        hole: usize,
    },
    /// Guess that a cell holds a mirror.
    Guess {
        /// The cell.
        #[serde(flatten)]
        cell: Cell,
        /// The mirror.
        mirror: Mirror,
    },
    /// Give up: every mirror is revealed.
    Quit,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shoot { hole } => write!(f, "shoot {hole}"),
            Self::Guess { cell, mirror } => write!(f, "guess {} {} {mirror}", cell.row, cell.col),
            Self::Quit => f.write_str("quit"),
        }
    }
}

/// Text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a move: {why} (moves: shoot HOLE, guess ROW COL / or \\, quit)")]
pub struct MoveParseError {
    /// The text.
    pub text: String,
    /// What was wrong with it.
    pub why: String,
}

impl FromStr for Move {
    type Err = MoveParseError;
    /// Reads `shoot 7` (or `s 7`), `guess 4 2 /` (or `g 4,2,/`,
    /// `guess <4,2>=/`) and `quit`; words are case-insensitive.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        let err = |why: &str| MoveParseError {
            text: text.to_string(),
            why: why.to_string(),
        };
        let (word, rest) = text
            .split_once(char::is_whitespace)
            .map_or((text, ""), |(w, r)| (w, r.trim()));
        match word.to_ascii_lowercase().as_str() {
            "shoot" | "s" | "fire" => {
                if rest.is_empty() {
                    return Err(err("say which hole to shoot into"));
                }
                let hole = rest
                    .parse()
                    .map_err(|_| err("a hole is a number, as printed round the box"))?;
                Ok(Self::Shoot { hole })
            }
            "guess" | "g" => {
                let p: Placed = rest
                    .parse()
                    .map_err(|_| err("a guess is ROW COL and / or \\, for example guess 4 2 /"))?;
                Ok(Self::Guess {
                    cell: p.cell,
                    mirror: p.mirror,
                })
            }
            "quit" | "q" if rest.is_empty() => Ok(Self::Quit),
            "quit" | "q" => Err(err("quit takes nothing after it")),
            "" => Err(err("it is empty")),
            _ => Err(err("unknown word")),
        }
    }
}

/// Why a move was refused. A refused move changes nothing and costs nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over ({status}); start a new one")]
    Over {
        /// How it ended.
        status: Status,
    },
    /// A hole the box does not have.
    #[error("there is no hole {hole}: this box has holes 0 to {last}")]
    NoHole {
        /// The hole.
        hole: usize,
        /// The last hole.
        last: usize,
    },
    /// A hole on a side this game does not shoot from.
    #[error(
        "hole {hole} is on the {side} side; in this game beams enter only from the left and top (holes 0 to {last})"
    )]
    Side {
        /// The hole.
        hole: usize,
        /// Its side.
        side: Side,
        /// The last hole one may shoot into.
        last: usize,
    },
    /// A cell outside the box.
    #[error("there is no cell {cell}: rows and columns run from 0 to {last}")]
    NoCell {
        /// The cell.
        cell: Cell,
        /// The last row and column.
        last: usize,
    },
    /// The cell's mirror is already found.
    #[error("the mirror at {} ({}) is already found", .found.cell, .found.mirror)]
    AlreadyFound {
        /// The mirror found there.
        found: Placed,
    },
}

/// Something a move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A beam went in and came out.
    Shot {
        /// Where it went in.
        hole: usize,
        /// Where it came out.
        exit: usize,
    },
    /// A guess was judged.
    Guess {
        /// The cell.
        #[serde(flatten)]
        cell: Cell,
        /// The mirror guessed.
        mirror: Mirror,
        /// Whether the cell holds that mirror (not found before).
        right: bool,
    },
    /// Every mirror is found.
    Won {
        /// The final score.
        score: Score,
    },
    /// The player gave up; these mirrors were not found.
    Quit {
        /// The final score.
        score: Score,
        /// The mirrors not found.
        missed: Vec<Placed>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shot { hole, exit } => write!(f, "The beam into {hole} comes out at {exit}."),
            Self::Guess {
                cell,
                mirror,
                right: true,
            } => write!(f, "Right: {cell} holds {mirror}."),
            Self::Guess { cell, mirror, .. } => {
                write!(f, "Wrong: {cell} does not hold {mirror} (+2).")
            }
            Self::Won { score } => write!(f, "Every mirror found. Final score {score}."),
            Self::Quit { score, missed } => {
                let list: Vec<String> = missed.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "Game given up with score {score}; not found: {}.",
                    list.join(" ")
                )
            }
        }
    }
}

/// The score so far: lower is better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Shots fired (+1 each).
    pub shots: usize,
    /// Wrong guesses (+2 each).
    pub wrong_guesses: usize,
    /// What the wrong guesses cost: `2 × wrong_guesses`.
    pub guess_points: usize,
    /// `shots + guess_points`.
    pub total: usize,
}

/// What a wrong guess costs.
pub const WRONG_GUESS_POINTS: usize = 2;

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} shot{}, {} wrong guess{})",
            self.total,
            self.shots,
            if self.shots == 1 { "" } else { "s" },
            self.wrong_guesses,
            if self.wrong_guesses == 1 { "" } else { "es" }
        )
    }
}

/// Whether the game is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Moves may be made.
    Playing,
    /// Every mirror was found.
    Won,
    /// The player gave up.
    Quit,
}

impl Status {
    /// Won or quit.
    pub const fn is_over(self) -> bool {
        !matches!(self, Self::Playing)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Playing => "playing",
            Self::Won => "won",
            Self::Quit => "given up",
        })
    }
}

/// A shot as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShotView {
    /// Where the beam went in.
    pub hole: usize,
    /// Where it came out.
    pub exit: usize,
    /// Its deflections: only once the game is over (left out of the JSON
    /// before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deflections: Option<usize>,
    /// Its path: only once the game is over. Never in the JSON: the
    /// box's picture draws it ([`crate::trace`] gives it), and a
    /// finished box's every path would make a view tens of kilobytes.
    #[serde(skip)]
    pub path: Option<Vec<Step>>,
    /// The layouts that fit after it, and what the best shot would have
    /// left (in a match's view: [`crate::live`]); none until worked out,
    /// and none when the position after it could not be worked out in
    /// time (its bounds alone would repeat shot after shot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<ShotCount>,
}

/// The layouts left after a shot, beside the best possible shot's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShotCount {
    /// The layouts that fit after the shot.
    pub layouts: crate::live::LayoutsLeft,
    /// That in words.
    pub words: String,
    /// The layouts the best possible shot from the position before it
    /// would have left on average (when counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<f64>,
    /// That in words ("8.4", "1,204", "about 2.9 × 10⁸⁷").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_words: Option<String>,
}

/// A guess as the player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessView {
    /// The cell.
    #[serde(flatten)]
    pub cell: Cell,
    /// The mirror guessed.
    pub mirror: Mirror,
    /// Whether it was right.
    pub right: bool,
}

/// What the player may see. It never holds an unfound mirror, a beam's path
/// or a deflection count while the game is on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// Box size `n`.
    pub size: usize,
    /// Number of mirrors hidden (known to the player).
    pub mirrors: usize,
    /// The sides beams may enter by.
    pub sides: Sides,
    /// The holes one may shoot into, in order.
    pub shootable: Vec<usize>,
    /// Shots, in order.
    pub shots: Vec<ShotView>,
    /// Guesses, in order.
    pub guesses: Vec<GuessView>,
    /// Mirrors found, in the order found.
    pub found: Vec<Placed>,
    /// The score.
    pub score: Score,
    /// Whether the game is on.
    pub status: Status,
    /// The mirrors not found, in row order (those found are in `found`):
    /// only once the game is over.
    pub missed: Option<Vec<Placed>>,
    /// How many layouts still fit what the viewer knows, and each cell's
    /// chances (in a match's view: [`crate::live`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<crate::live::Live>,
}

impl View {
    /// What the shots and guesses prove, for [`crate::solve`]: the shots'
    /// entries and exits, the mirrors found, and the wrong guesses (a cell
    /// guessed wrong does not hold that mirror).
    pub fn evidence(&self) -> Evidence {
        Evidence {
            size: self.size,
            mirrors: self.mirrors,
            sides: self.sides,
            shots: self.shots.iter().map(|s| (s.hole, s.exit)).collect(),
            found: self.found.clone(),
            not: self
                .guesses
                .iter()
                .filter(|g| !g.right)
                .map(|g| Placed::new(g.cell, g.mirror))
                .collect(),
        }
    }
}

/// A game: stored as its record (setup and moves) and loaded by replaying it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Record", into = "Record")]
pub struct Game {
    setup: Setup,
    layout: Layout,
    shots: Vec<Beam>,
    guesses: Vec<GuessView>,
    found: Vec<Placed>,
    status: Status,
    moves: Vec<Move>,
}

/// A game as stored: its setup and the moves applied, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// How the game started.
    pub setup: Setup,
    /// The moves applied (refused moves are not recorded).
    pub moves: Vec<Move>,
}

impl TryFrom<Record> for Game {
    type Error = SetupError;
    fn try_from(record: Record) -> Result<Self, Self::Error> {
        Game::replay(record.setup, &record.moves)
    }
}

impl From<Game> for Record {
    fn from(game: Game) -> Self {
        Self {
            setup: game.setup,
            moves: game.moves,
        }
    }
}

impl Game {
    /// A new game.
    ///
    /// # Errors
    /// Fails when the size is not 4 to 26, the mirror count not 1 to n²/2,
    /// the fixed game is asked for with another size or count, or a given
    /// layout does not match the size and count.
    pub fn new(setup: Setup) -> Result<Self, SetupError> {
        let layout = setup.layout()?;
        Ok(Self {
            setup,
            layout,
            shots: Vec::new(),
            guesses: Vec::new(),
            found: Vec::new(),
            status: Status::Playing,
            moves: Vec::new(),
        })
    }

    /// A game replayed from its setup and moves.
    ///
    /// # Errors
    /// Fails as [`Game::new`] does, or when a move is refused (the error
    /// says which).
    pub fn replay(setup: Setup, moves: &[Move]) -> Result<Self, SetupError> {
        let mut game = Self::new(setup)?;
        for (i, &mv) in moves.iter().enumerate() {
            game.apply(mv).map_err(|error| SetupError::Replay {
                number: i + 1,
                mv,
                error,
            })?;
        }
        Ok(game)
    }

    /// Applies a move and says what happened. A refused move changes
    /// nothing.
    ///
    /// # Errors
    /// See [`MoveError`]: the game is over, no such hole or cell, a hole on a
    /// side this game does not shoot from, or a guess at a found mirror.
    pub fn apply(&mut self, mv: Move) -> Result<Vec<Event>, MoveError> {
        if self.status.is_over() {
            return Err(MoveError::Over {
                status: self.status,
            });
        }
        let events = match mv {
            Move::Shoot { hole } => self.shoot(hole)?,
            Move::Guess { cell, mirror } => self.guess(cell, mirror)?,
            Move::Quit => {
                self.status = Status::Quit;
                vec![Event::Quit {
                    score: self.score(),
                    missed: self.missed().collect(),
                }]
            }
        };
        self.moves.push(mv);
        Ok(events)
    }

    fn shoot(&mut self, hole: usize) -> Result<Vec<Event>, MoveError> {
        let size = self.layout.size();
        let side = size.side(hole).ok_or(MoveError::NoHole {
            hole,
            last: size.holes() - 1,
        })?;
        if !self.setup.sides.allows(side) {
            return Err(MoveError::Side {
                hole,
                side,
                last: 2 * size.n() - 1,
            });
        }
        let beam = trace(&self.layout, hole).map_err(|e| match e {
            GeometryError::Hole { hole, n } => MoveError::NoHole {
                hole,
                last: 4 * n - 1,
            },
            _ => MoveError::NoHole {
                hole,
                last: size.holes() - 1,
            },
        })?;
        let event = Event::Shot {
            hole,
            exit: beam.exit,
        };
        self.shots.push(beam);
        Ok(vec![event])
    }

    fn guess(&mut self, cell: Cell, mirror: Mirror) -> Result<Vec<Event>, MoveError> {
        let size = self.layout.size();
        if size.check_cell(cell).is_err() {
            return Err(MoveError::NoCell {
                cell,
                last: size.n() - 1,
            });
        }
        if let Some(&found) = self.found.iter().find(|p| p.cell == cell) {
            return Err(MoveError::AlreadyFound { found });
        }
        let right = self.layout.get(cell) == Some(mirror);
        self.guesses.push(GuessView {
            cell,
            mirror,
            right,
        });
        let mut events = vec![Event::Guess {
            cell,
            mirror,
            right,
        }];
        if right {
            self.found.push(Placed::new(cell, mirror));
            if self.found.len() == self.layout.count() {
                self.status = Status::Won;
                events.push(Event::Won {
                    score: self.score(),
                });
            }
        }
        Ok(events)
    }

    /// The mirrors not found (yet).
    fn missed(&self) -> impl Iterator<Item = Placed> + '_ {
        self.layout
            .mirrors()
            .filter(|p| !self.found.iter().any(|f| f.cell == p.cell))
    }

    /// The score so far.
    pub fn score(&self) -> Score {
        let shots = self.shots.len();
        let wrong_guesses = self.guesses.iter().filter(|g| !g.right).count();
        let guess_points = WRONG_GUESS_POINTS * wrong_guesses;
        Score {
            shots,
            wrong_guesses,
            guess_points,
            total: shots + guess_points,
        }
    }

    /// Whether the game is on.
    pub fn status(&self) -> Status {
        self.status
    }

    /// How the game started.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The moves applied, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The box size.
    pub fn size(&self) -> Size {
        self.layout.size()
    }

    /// The sides beams may enter by.
    pub fn sides(&self) -> Sides {
        self.setup.sides
    }

    /// The hidden layout. Never show it to a player while the game is on;
    /// show [`Game::view`] instead.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The shots' full beams (paths included): hidden information while the
    /// game is on.
    pub fn beams(&self) -> &[Beam] {
        &self.shots
    }

    /// What the player may see now.
    pub fn view(&self) -> View {
        let over = self.status.is_over();
        let size = self.layout.size();
        View {
            size: size.n(),
            mirrors: self.layout.count(),
            sides: self.setup.sides,
            shootable: size.shootable(self.setup.sides).collect(),
            shots: self
                .shots
                .iter()
                .map(|b| ShotView {
                    hole: b.entry,
                    exit: b.exit,
                    deflections: over.then(|| b.deflections()),
                    path: over.then(|| b.path.clone()),
                    count: None,
                })
                .collect(),
            guesses: self.guesses.clone(),
            found: self.found.clone(),
            score: self.score(),
            status: self.status,
            missed: over.then(|| self.missed().collect()),
            live: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed() -> Game {
        Game::new(Setup::default()).unwrap()
    }

    fn play(game: &mut Game, text: &str) -> Result<Vec<Event>, MoveError> {
        game.apply(text.parse().unwrap())
    }

    #[test]
    fn shots_score_and_report_their_exit() {
        let mut g = fixed();
        assert_eq!(
            play(&mut g, "shoot 7"),
            Ok(vec![Event::Shot { hole: 7, exit: 22 }])
        );
        assert_eq!(
            play(&mut g, "shoot 1"),
            Ok(vec![Event::Shot { hole: 1, exit: 24 }])
        );
        // Shooting from the right is allowed in the full game.
        assert_eq!(
            play(&mut g, "s 24"),
            Ok(vec![Event::Shot { hole: 24, exit: 1 }])
        );
        assert_eq!(g.score().total, 3);
        assert!(matches!(
            play(&mut g, "shoot 40"),
            Err(MoveError::NoHole { hole: 40, last: 39 })
        ));
        assert_eq!(g.score().total, 3, "a refused move costs nothing");
    }

    #[test]
    fn left_top_games_refuse_other_sides() {
        let mut g = Game::new(Setup::fixed(Sides::LeftTop)).unwrap();
        let e = play(&mut g, "shoot 24").unwrap_err();
        assert_eq!(
            e,
            MoveError::Side {
                hole: 24,
                side: Side::Right,
                last: 19
            }
        );
        assert!(e.to_string().contains("only from the left and top"), "{e}");
        assert!(play(&mut g, "shoot 19").is_ok());
        assert_eq!(g.view().shootable, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn guesses_win_and_score() {
        let mut g = fixed();
        let ev = play(&mut g, "guess 4 2 /").unwrap();
        assert_eq!(
            ev,
            vec![Event::Guess {
                cell: Cell::new(4, 2),
                mirror: Mirror::Slash,
                right: true
            }]
        );
        // Wrong direction on an unfound mirror: wrong, +2.
        let ev = play(&mut g, "guess 0 9 /").unwrap();
        assert!(matches!(ev[..], [Event::Guess { right: false, .. }]));
        // An empty cell: wrong, +2.
        assert!(matches!(
            play(&mut g, "guess 5 5 \\").unwrap()[..],
            [Event::Guess { right: false, .. }]
        ));
        // A found mirror: refused, no penalty, either direction.
        let before = g.score();
        assert!(matches!(
            play(&mut g, "guess 4 2 /"),
            Err(MoveError::AlreadyFound { .. })
        ));
        assert!(matches!(
            play(&mut g, "guess 4 2 \\"),
            Err(MoveError::AlreadyFound { .. })
        ));
        assert_eq!(g.score(), before);
        assert_eq!(before.total, 4);
        assert!(matches!(
            play(&mut g, "guess 10 2 /"),
            Err(MoveError::NoCell { .. })
        ));
        for m in ["guess 0 9 \\", "guess 6 0 \\", "guess 8 2 /"] {
            let ev = play(&mut g, m).unwrap();
            assert_eq!(ev.len(), 1);
        }
        let ev = play(&mut g, "guess <8,7>=\\").unwrap();
        assert_eq!(
            ev[1],
            Event::Won {
                score: Score {
                    shots: 0,
                    wrong_guesses: 2,
                    guess_points: 4,
                    total: 4
                }
            }
        );
        assert_eq!(g.status(), Status::Won);
        assert!(matches!(
            play(&mut g, "shoot 3"),
            Err(MoveError::Over {
                status: Status::Won
            })
        ));
        assert!(matches!(play(&mut g, "quit"), Err(MoveError::Over { .. })));
        let v = g.view();
        assert_eq!(v.missed, Some(vec![]));
        assert_eq!(v.found.len(), 5);
    }

    #[test]
    fn quitting_reveals_found_and_unfound() {
        let mut g = fixed();
        play(&mut g, "shoot 5").unwrap();
        play(&mut g, "guess 4 2 /").unwrap();
        let ev = play(&mut g, "quit").unwrap();
        let Event::Quit { score, missed } = &ev[0] else {
            panic!("{ev:?}")
        };
        assert_eq!(score.total, 1);
        assert_eq!(missed.len(), 4);
        let v = g.view();
        assert_eq!(v.status, Status::Quit);
        // The view shows the mirrors missed beside those found: all five.
        assert_eq!(v.missed.as_ref(), Some(missed));
        assert_eq!(v.found.len(), 1);
        let mut all: Vec<Placed> = v.found.iter().chain(missed).copied().collect();
        all.sort_by_key(|p| (p.cell.row, p.cell.col));
        assert_eq!(all, Layout::fixed().mirrors().collect::<Vec<_>>());
        assert_eq!(v.shots[0].deflections, Some(1));
        assert!(v.shots[0].path.is_some());
    }

    /// The view never contains an unfound mirror, a path or a deflection
    /// count while the game is on, whatever was played.
    #[test]
    fn views_hide_unfound_mirrors() {
        for seed in 0..60 {
            let setup = Setup::seeded(6 + (seed as usize % 5), 4, Sides::All, seed);
            let mut g = Game::new(setup).unwrap();
            let layout = g.layout().clone();
            let mut rng = tabletop::Rng::new(seed);
            let n = layout.size().n() as u64;
            for _ in 0..40 {
                let mv = if rng.below(3) == 0 {
                    Move::Guess {
                        cell: Cell::new(rng.below(n) as u32, rng.below(n) as u32),
                        mirror: if rng.below(2) == 0 {
                            Mirror::Slash
                        } else {
                            Mirror::Backslash
                        },
                    }
                } else {
                    Move::Shoot {
                        hole: rng.below(4 * n) as usize,
                    }
                };
                let _ = g.apply(mv);
                if g.status().is_over() {
                    break;
                }
                let v = g.view();
                assert!(v.missed.is_none());
                assert!(
                    v.shots
                        .iter()
                        .all(|s| s.path.is_none() && s.deflections.is_none())
                );
                for p in &v.found {
                    assert_eq!(layout.get(p.cell), Some(p.mirror));
                }
                // Nothing in the JSON names an unfound mirror's cell.
                let json = serde_json::to_value(&v).unwrap();
                let unfound: Vec<Placed> =
                    layout.mirrors().filter(|p| !v.found.contains(p)).collect();
                let found_json = json["found"].as_array().unwrap().len();
                assert_eq!(found_json, v.found.len());
                for p in unfound {
                    let wrong_guess_there = v.guesses.iter().any(|g| g.cell == p.cell);
                    if !wrong_guess_there {
                        let needle = format!(r#""row":{},"col":{}"#, p.cell.row, p.cell.col);
                        assert!(!json.to_string().contains(&needle), "{json}");
                    }
                }
            }
        }
    }

    #[test]
    fn moves_have_a_text_form() {
        for text in ["shoot 7", "guess 4 2 /", "guess 0 9 \\", "quit"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!("S 7".parse::<Move>(), Ok(Move::Shoot { hole: 7 }));
        assert_eq!(
            "g 4,2,/".parse::<Move>(),
            Ok(Move::Guess {
                cell: Cell::new(4, 2),
                mirror: Mirror::Slash
            })
        );
        for bad in [
            "",
            "shoot",
            "shoot x",
            "shoot -1",
            "guess 4 2",
            "guess 4 2 |",
            "quit now",
            "jump 3",
            "guess",
            "s 99999999999999999999999",
        ] {
            let e = bad.parse::<Move>().unwrap_err();
            assert!(e.to_string().contains("is not a move"), "{e}");
        }
    }

    #[test]
    fn moves_and_events_have_a_json_form() {
        let mv = Move::Guess {
            cell: Cell::new(4, 2),
            mirror: Mirror::Slash,
        };
        let json = serde_json::to_string(&mv).unwrap();
        assert_eq!(json, r#"{"move":"guess","row":4,"col":2,"mirror":"/"}"#);
        assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), mv);
        let shoot = serde_json::to_string(&Move::Shoot { hole: 3 }).unwrap();
        assert_eq!(shoot, r#"{"move":"shoot","hole":3}"#);
        assert_eq!(
            serde_json::to_string(&Move::Quit).unwrap(),
            r#"{"move":"quit"}"#
        );
        let mut g = fixed();
        let ev = play(&mut g, "guess 4 2 /").unwrap();
        let json = serde_json::to_string(&ev).unwrap();
        assert_eq!(
            json,
            r#"[{"event":"guess","row":4,"col":2,"mirror":"/","right":true}]"#
        );
        assert_eq!(serde_json::from_str::<Vec<Event>>(&json).unwrap(), ev);
    }

    #[test]
    fn games_store_and_load_by_replay() {
        let mut g = Game::new(Setup::seeded(8, 6, Sides::LeftTop, 99)).unwrap();
        for m in ["shoot 3", "shoot 12", "guess 1 1 /", "shoot 0"] {
            let _ = play(&mut g, m);
        }
        let json = serde_json::to_string(&g).unwrap();
        assert!(
            json.contains(r#""origin":{"kind":"seeded","seed":99}"#),
            "{json}"
        );
        let back: Game = serde_json::from_str(&json).unwrap();
        assert_eq!(back, g);
        // A record with a refused move does not load.
        let bad = json.replace(r#""hole":12"#, r#""hole":25"#);
        let e = serde_json::from_str::<Game>(&bad).unwrap_err().to_string();
        assert!(e.contains("move 2 (shoot 25)"), "{e}");
        let given = Game::new(Setup::given(Layout::fixed(), Sides::All)).unwrap();
        let back: Game = serde_json::from_str(&serde_json::to_string(&given).unwrap()).unwrap();
        assert_eq!(back.layout(), &Layout::fixed());
    }

    #[test]
    fn setups_are_checked() {
        let mut s = Setup::fixed(Sides::All);
        s.size = 12;
        assert!(matches!(
            Game::new(s),
            Err(SetupError::FixedIsTenByTen { .. })
        ));
        assert!(Game::new(Setup::seeded(3, 2, Sides::All, 1)).is_err());
        assert!(Game::new(Setup::seeded(10, 0, Sides::All, 1)).is_err());
        assert!(Game::new(Setup::seeded(10, 51, Sides::All, 1)).is_err());
        assert!(Game::new(Setup::seeded(26, 338, Sides::All, 1)).is_ok());
        let mut s = Setup::given(Layout::fixed(), Sides::All);
        s.mirrors = 4;
        assert!(matches!(Game::new(s), Err(SetupError::Mismatch { .. })));
        let empty = Layout::empty(Size::new(5).unwrap());
        assert!(Game::new(Setup::given(empty, Sides::All)).is_err());
    }

    #[test]
    fn the_view_gives_the_solver_its_evidence() {
        let mut g = fixed();
        for m in ["shoot 7", "guess 4 2 /", "guess 3 3 /"] {
            play(&mut g, m).unwrap();
        }
        let ev = g.view().evidence();
        assert_eq!(ev.shots, vec![(7, 22)]);
        assert_eq!(ev.found, vec![Placed::new(Cell::new(4, 2), Mirror::Slash)]);
        assert_eq!(ev.not, vec![Placed::new(Cell::new(3, 3), Mirror::Slash)]);
    }
}
