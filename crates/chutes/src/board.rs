//! The board: squares, the start, chutes and ladders.
//!
//! Terms:
//! - **square**: a position `1..=N`; square `N` is the finish.
//! - **start**: where tokens begin, `0` (just off the board, the classic
//!   rule) or `1` (on the first square, as in LeetCode 909).
//! - **jump**: a chute or ladder, from its start square to its far end. A
//!   **ladder** goes up, a **chute** goes down. On a board whose tokens
//!   start on 0, a chute may lead back to 0 (as the minimum-throws
//!   assignment's boards do); no jump starts there.
//! - **spec**: a board as written (any values); a [`Board`] is a spec that has
//!   passed every rule and cannot hold an illegal board.

use serde::{Deserialize, Serialize};
use std::fmt;
use tabletop::{Geometry, GeometryError, Numbering};

/// The smallest number of squares a board may have.
pub const MIN_SQUARES: u32 = 2;
/// The largest number of squares a board may have.
pub const MAX_SQUARES: u32 = 1_000_000;

/// Which way a jump goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JumpKind {
    /// Goes up.
    Ladder,
    /// Goes down.
    Chute,
}

impl fmt::Display for JumpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Ladder => "ladder",
            Self::Chute => "chute",
        })
    }
}

/// A chute or ladder: landing on `from` moves the token to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jump {
    /// The square that triggers the jump.
    pub from: u32,
    /// The far end.
    pub to: u32,
}

impl Jump {
    /// A jump from `from` to `to` (not yet checked against any board).
    pub const fn new(from: u32, to: u32) -> Self {
        Self { from, to }
    }

    /// Ladder when it goes up, chute when it goes down.
    pub fn kind(&self) -> JumpKind {
        if self.to > self.from {
            JumpKind::Ladder
        } else {
            JumpKind::Chute
        }
    }
}

impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}→{}", self.kind(), self.from, self.to)
    }
}

#[derive(Serialize, Deserialize)]
struct JumpData {
    from: u32,
    to: u32,
    #[serde(default, skip_deserializing)]
    kind: Option<JumpKind>,
}

impl Serialize for Jump {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        JumpData {
            from: self.from,
            to: self.to,
            kind: Some(self.kind()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Jump {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let data = JumpData::deserialize(d)?;
        Ok(Self::new(data.from, data.to))
    }
}

/// A rule of the board that a spec breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The number of squares is out of range.
    #[error("a board has {MIN_SQUARES} to {MAX_SQUARES} squares, not {0}")]
    Size(u64),
    /// The start is neither 0 nor 1.
    #[error("the start square must be 0 (off the board) or 1, not {0}")]
    Start(u32),
    /// A jump leaves the board.
    #[error("{jump} is not inside the board (squares 1 to {size}{})", if *start == 0 { ", or 0 for a chute back to the start" } else { "" })]
    Outside {
        /// The jump.
        jump: Jump,
        /// Squares on the board.
        size: u32,
        /// The start square (a chute may lead to 0 when tokens start there).
        start: u32,
    },
    /// A jump starts on the start square.
    #[error("{jump} starts on the start square {start}")]
    FromStart {
        /// The jump.
        jump: Jump,
        /// The start square.
        start: u32,
    },
    /// A jump starts on the finish.
    #[error("{jump} starts on the finish square {size}")]
    FromFinish {
        /// The jump.
        jump: Jump,
        /// The finish square.
        size: u32,
    },
    /// A jump goes nowhere.
    #[error("the jump {from}→{from} starts and ends on the same square")]
    ToItself {
        /// Its square.
        from: u32,
    },
    /// Two jumps share a start square.
    #[error("square {from} starts two jumps: {first} and {second}")]
    DuplicateStart {
        /// The shared start square.
        from: u32,
        /// The first jump given.
        first: Jump,
        /// The second jump given.
        second: Jump,
    },
    /// A jump listed as a ladder goes down, or as a chute goes up.
    #[error("{jump} was given as a {given}, but it goes {}", if jump.to > jump.from { "up" } else { "down" })]
    WrongKind {
        /// The jump.
        jump: Jump,
        /// What it was given as.
        given: JumpKind,
    },
    /// The rows × columns cannot hold the squares.
    #[error("{0}")]
    Geometry(#[from] GeometryError),
}

impl BoardError {
    /// The jump this error is about, if any (so a file parser can point at
    /// the line that wrote it).
    pub fn jump(&self) -> Option<Jump> {
        match self {
            Self::Outside { jump, .. }
            | Self::FromStart { jump, .. }
            | Self::FromFinish { jump, .. }
            | Self::WrongKind { jump, .. } => Some(*jump),
            Self::DuplicateStart { second, .. } => Some(*second),
            Self::ToItself { from } => Some(Jump::new(*from, *from)),
            Self::Size(_) | Self::Start(_) | Self::Geometry(_) => None,
        }
    }
}

/// A board as written: any values, not yet checked. [`Board::new`] checks it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpec {
    /// A name to show (`classic`, a file name…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Number of squares, N.
    pub size: u32,
    /// Start square: 0 (off the board) or 1.
    #[serde(default)]
    pub start: u32,
    /// Chutes and ladders, in any order.
    #[serde(default)]
    pub jumps: Vec<Jump>,
    /// Picture layout; the most nearly square boustrophedon grid when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geometry: Option<Geometry>,
}

/// A board that obeys every rule. Its fields cannot be changed; build a new
/// one from a [`BoardSpec`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BoardSpec", into = "BoardSpec")]
pub struct Board {
    name: Option<String>,
    size: u32,
    start: u32,
    jumps: Vec<Jump>,
    /// `far_end[s]` is where landing on `s` leaves the token (`s` itself when
    /// no jump starts there); index 0 is the off-board start.
    far_end: Vec<u32>,
    geometry: Geometry,
}

impl Board {
    /// Checks `spec` against every rule and builds the board.
    ///
    /// # Errors
    /// The first rule broken: size out of `2..=1,000,000`, start not 0 or 1,
    /// a jump outside the board (a chute to 0 is inside when tokens start on
    /// 0), from the start or finish square, to itself,
    /// two jumps from one square, or a geometry too small for the squares.
    pub fn new(spec: BoardSpec) -> Result<Self, BoardError> {
        let BoardSpec {
            name,
            size,
            start,
            mut jumps,
            geometry,
        } = spec;
        if !(MIN_SQUARES..=MAX_SQUARES).contains(&size) {
            return Err(BoardError::Size(u64::from(size)));
        }
        if start > 1 {
            return Err(BoardError::Start(start));
        }
        let geometry = match geometry {
            Some(g) => {
                g.check_holds(size)?;
                g
            }
            None => Geometry::fitting(size, Numbering::Boustrophedon),
        };
        let mut far_end: Vec<u32> = (0..=size).collect();
        for &jump in &jumps {
            check_jump(jump, size, start)?;
            let slot = jump.from as usize;
            if far_end[slot] != jump.from {
                let first = jumps
                    .iter()
                    .copied()
                    .find(|j| j.from == jump.from)
                    .unwrap_or(jump);
                return Err(BoardError::DuplicateStart {
                    from: jump.from,
                    first,
                    second: jump,
                });
            }
            far_end[slot] = jump.to;
        }
        jumps.sort_unstable();
        Ok(Self {
            name,
            size,
            start,
            jumps,
            far_end,
            geometry,
        })
    }

    /// A board of `size` squares starting at `start`, with jumps given as
    /// `(from, to)` pairs, in the default picture layout.
    ///
    /// # Errors
    /// As [`Board::new`]: the first board rule the values break.
    pub fn from_jumps(size: u32, start: u32, jumps: &[(u32, u32)]) -> Result<Self, BoardError> {
        Self::new(BoardSpec {
            name: None,
            size,
            start,
            jumps: jumps
                .iter()
                .map(|&(from, to)| Jump::new(from, to))
                .collect(),
            geometry: None,
        })
    }

    /// The classic Milton Bradley board of the Java and C assignments
    /// (docs/rules.md §1): 100 squares, start off the board, 9 ladders and 10
    /// chutes.
    pub fn classic() -> Self {
        const LADDERS: [(u32, u32); 9] = [
            (1, 38),
            (4, 14),
            (9, 31),
            (21, 42),
            (28, 84),
            (36, 44),
            (51, 67),
            (71, 91),
            (80, 100),
        ];
        const CHUTES: [(u32, u32); 10] = [
            (16, 6),
            (47, 26),
            (49, 11),
            (56, 53),
            (62, 19),
            (64, 60),
            (87, 24),
            (93, 73),
            (95, 75),
            (98, 78),
        ];
        let jumps = LADDERS
            .iter()
            .chain(CHUTES.iter())
            .map(|&(from, to)| Jump::new(from, to))
            .collect();
        let spec = BoardSpec {
            name: Some("classic".into()),
            size: 100,
            start: 0,
            jumps,
            geometry: None,
        };
        // The classic board obeys every rule; the test `classic_is_valid`
        // pins that, so this fallback is never taken.
        Self::new(spec).unwrap_or_else(|_| Self::empty(100))
    }

    /// A board of `size` squares (clamped to the legal range) with no jumps.
    pub fn empty(size: u32) -> Self {
        let size = size.clamp(MIN_SQUARES, MAX_SQUARES);
        Self {
            name: None,
            size,
            start: 0,
            jumps: Vec::new(),
            far_end: (0..=size).collect(),
            geometry: Geometry::fitting(size, Numbering::Boustrophedon),
        }
    }

    /// The same board under another name.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The board's name, if it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Number of squares, N; square N is the finish.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The finish square (N).
    pub fn finish(&self) -> u32 {
        self.size
    }

    /// Where tokens start: 0 (off the board) or 1.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// All chutes and ladders, ordered by start square.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The ladders, ordered by start square.
    pub fn ladders(&self) -> impl Iterator<Item = Jump> + '_ {
        self.jumps
            .iter()
            .copied()
            .filter(|j| j.kind() == JumpKind::Ladder)
    }

    /// The chutes, ordered by start square.
    pub fn chutes(&self) -> impl Iterator<Item = Jump> + '_ {
        self.jumps
            .iter()
            .copied()
            .filter(|j| j.kind() == JumpKind::Chute)
    }

    /// The jump starting on `square`, if any.
    #[inline]
    pub fn jump_at(&self, square: u32) -> Option<Jump> {
        match self.far_end.get(square as usize) {
            Some(&to) if to != square => Some(Jump::new(square, to)),
            _ => None,
        }
    }

    /// Where landing on `square` leaves a token: the far end of its jump, or
    /// `square` itself.
    #[inline]
    pub fn far_end(&self, square: u32) -> u32 {
        self.far_end.get(square as usize).copied().unwrap_or(square)
    }

    /// The picture layout (rows × columns and numbering).
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// This board as a spec (for saving or editing).
    pub fn spec(&self) -> BoardSpec {
        BoardSpec {
            name: self.name.clone(),
            size: self.size,
            start: self.start,
            jumps: self.jumps.clone(),
            geometry: Some(self.geometry),
        }
    }
}

/// A valid board for unit tests (panics on an invalid one: tests only).
#[cfg(test)]
pub(crate) fn test_board(size: u32, start: u32, jumps: &[(u32, u32)]) -> Board {
    Board::from_jumps(size, start, jumps).expect("a valid test board")
}

fn check_jump(jump: Jump, size: u32, start: u32) -> Result<(), BoardError> {
    let inside = |s: u32| (1..=size).contains(&s);
    let back_to_start = jump.to == 0 && start == 0;
    if !inside(jump.from) || !(inside(jump.to) || back_to_start) {
        return Err(BoardError::Outside { jump, size, start });
    }
    if jump.from == jump.to {
        return Err(BoardError::ToItself { from: jump.from });
    }
    if jump.from == start {
        return Err(BoardError::FromStart { jump, start });
    }
    if jump.from == size {
        return Err(BoardError::FromFinish { jump, size });
    }
    Ok(())
}

impl TryFrom<BoardSpec> for Board {
    type Error = BoardError;
    fn try_from(spec: BoardSpec) -> Result<Self, Self::Error> {
        Self::new(spec)
    }
}

impl From<Board> for BoardSpec {
    fn from(board: Board) -> Self {
        board.spec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(size: u32, start: u32, jumps: &[(u32, u32)]) -> BoardSpec {
        BoardSpec {
            name: None,
            size,
            start,
            jumps: jumps.iter().map(|&(a, b)| Jump::new(a, b)).collect(),
            geometry: None,
        }
    }

    #[test]
    fn classic_is_valid_and_matches_the_assignments_array() {
        let board = Board::new(Board::classic().spec()).unwrap();
        assert_eq!(board.size(), 100);
        assert_eq!(board.start(), 0);
        assert_eq!(board.ladders().count(), 9);
        assert_eq!(board.chutes().count(), 10);
        // The Java assignment's cLArray, index 0..=100.
        let original: [u32; 101] = [
            0, 38, 0, 0, 14, 0, 0, 0, 0, 31, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 42, 0, 0, 0, 0, 0, 0,
            84, 0, 0, 0, 0, 0, 0, 0, 44, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 26, 0, 11, 0, 67, 0, 0, 0,
            0, 53, 0, 0, 0, 0, 0, 19, 0, 60, 0, 0, 0, 0, 0, 0, 91, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0,
            0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 73, 0, 75, 0, 0, 78, 0, 0,
        ];
        for (square, &end) in original.iter().enumerate().skip(1) {
            let square = square as u32;
            let expected = if end == 0 { square } else { end };
            assert_eq!(board.far_end(square), expected, "square {square}");
        }
        assert_eq!(board.jump_at(16), Some(Jump::new(16, 6)));
        assert_eq!(board.jump_at(16).unwrap().kind(), JumpKind::Chute);
        assert_eq!(board.jump_at(17), None);
    }

    #[test]
    fn size_and_start_are_checked() {
        assert_eq!(Board::new(spec(1, 0, &[])), Err(BoardError::Size(1)));
        assert_eq!(
            Board::new(spec(1_000_001, 0, &[])),
            Err(BoardError::Size(1_000_001))
        );
        assert!(Board::new(spec(2, 0, &[])).is_ok());
        assert!(Board::new(spec(1_000_000, 1, &[])).is_ok());
        assert_eq!(Board::new(spec(10, 2, &[])), Err(BoardError::Start(2)));
    }

    #[test]
    fn every_jump_rule_names_the_jump() {
        let err = Board::new(spec(10, 0, &[(3, 11)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ladder 3→11 is not inside the board (squares 1 to 10, or 0 for a chute back to the start)"
        );
        assert!(matches!(
            Board::new(spec(10, 0, &[(0, 5)])),
            Err(BoardError::Outside { .. })
        ));
        // A chute may lead back to 0 only where tokens start on 0.
        let back = Board::new(spec(10, 0, &[(5, 0)])).unwrap();
        assert_eq!(back.far_end(5), 0);
        assert_eq!(back.jump_at(5).map(|j| j.kind()), Some(JumpKind::Chute));
        let err = Board::new(spec(10, 1, &[(5, 0)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "chute 5→0 is not inside the board (squares 1 to 10)"
        );
        let err = Board::new(spec(10, 0, &[(5, 11)])).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("or 0 for a chute back to the start)")
        );
        let err = Board::new(spec(10, 1, &[(1, 5)])).unwrap_err();
        assert_eq!(err.to_string(), "ladder 1→5 starts on the start square 1");
        // With start 0, square 1 may start a jump (classic 1→38).
        assert!(Board::new(spec(10, 0, &[(1, 5)])).is_ok());
        let err = Board::new(spec(10, 0, &[(10, 2)])).unwrap_err();
        assert_eq!(err.to_string(), "chute 10→2 starts on the finish square 10");
        let err = Board::new(spec(10, 0, &[(4, 4)])).unwrap_err();
        assert_eq!(err, BoardError::ToItself { from: 4 });
        let err = Board::new(spec(10, 0, &[(4, 8), (5, 2), (4, 1)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "square 4 starts two jumps: ladder 4→8 and chute 4→1"
        );
        assert_eq!(err.jump(), Some(Jump::new(4, 1)));
    }

    #[test]
    fn chains_and_cycles_are_legal() {
        let board = Board::new(spec(20, 0, &[(3, 9), (9, 3), (5, 12), (12, 15)])).unwrap();
        assert_eq!(board.far_end(3), 9);
        assert_eq!(board.far_end(9), 3);
        assert_eq!(board.jumps().len(), 4);
        assert_eq!(board.jumps()[0], Jump::new(3, 9));
    }

    #[test]
    fn geometry_must_hold_the_squares() {
        let mut s = spec(30, 0, &[]);
        s.geometry = Some(Geometry::new(5, 5, Numbering::Boustrophedon).unwrap());
        assert!(matches!(Board::new(s), Err(BoardError::Geometry(_))));
        let board = Board::new(spec(30, 0, &[])).unwrap();
        assert_eq!((board.geometry().rows(), board.geometry().cols()), (5, 6));
    }

    #[test]
    fn serde_round_trips_and_validates() {
        let board = Board::classic();
        let json = serde_json::to_string(&board).unwrap();
        assert!(
            json.contains(r#"{"from":16,"to":6,"kind":"chute"}"#),
            "{json}"
        );
        let back: Board = serde_json::from_str(&json).unwrap();
        assert_eq!(back, board);
        let bad = r#"{"size": 10, "jumps": [{"from": 10, "to": 2}]}"#;
        let err = serde_json::from_str::<Board>(bad).unwrap_err().to_string();
        assert!(err.contains("finish square"), "{err}");
    }

    #[test]
    fn lookups_outside_the_board_do_not_panic() {
        let board = Board::classic();
        assert_eq!(board.far_end(5000), 5000);
        assert_eq!(board.jump_at(5000), None);
        assert_eq!(board.far_end(0), 0);
    }
}
