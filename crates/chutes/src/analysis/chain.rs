//! The board and rules as a table of moves, read off [`Rules::step`].
//!
//! Terms:
//! - **state**: a square the token can stand on before a roll, `0..N`
//!   (0 is the off-board start); N, the finish, ends the game.
//! - **move** ([`Move`]): what one roll does from one state, exactly as
//!   [`Rules::step`] says: the square the count reaches (**landed**), where the
//!   token ends (**to**), the jump taken, or a **lost turn**.
//! - **regular roll**: a roll from `s` whose count lands on `s + r` and whose
//!   end is the same for every roll landing there (so it depends only on the
//!   landing square). Rolls `1..=regular(s)` from `s` are regular; every
//!   other roll is an **exception**, stored as its own [`Move`]. With the
//!   three overshoot rules the exceptions are the rolls that would pass N.
//! - **dead square**: a state reachable from the start from which N can never
//!   be reached; a token there plays forever.
//!
//! [`Rules::step`] is the one definition of a move: every entry here is the
//! result of calling it, so analysis can never disagree with play. The
//! table is compact (O(N) memory, not O(N × faces)), which keeps a
//! million-square board with a 64-sided die cheap.

use crate::board::{Board, Jump, JumpKind};
use crate::rules::{Outcome, Rules};
use std::collections::VecDeque;

/// What one roll does from one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the count reaches before any jump (the state itself on a
    /// lost turn).
    pub landed: u32,
    /// Where the token ends.
    pub to: u32,
    /// The jump taken, if any.
    pub jump: Option<JumpKind>,
    /// The roll would pass the finish and was not played.
    pub lost: bool,
}

impl Move {
    /// The chute or ladder this move takes, if any.
    pub fn jump_taken(&self) -> Option<Jump> {
        self.jump.map(|_| Jump::new(self.landed, self.to))
    }
}

/// The moves of every state on a board under some rules.
#[derive(Clone, Debug)]
pub struct Chain {
    finish: u32,
    start: u32,
    faces: u8,
    /// `land_to[l]`: where a regular roll that lands on `l` ends.
    land_to: Vec<u32>,
    /// `land_jump[l]`: the jump taken by a regular roll landing on `l`.
    land_jump: Vec<Option<JumpKind>>,
    /// `regular[s]`: rolls `1..=regular[s]` from `s` are regular.
    regular: Vec<u8>,
    /// States `tail_from..N` keep every roll's move here, `faces` per state.
    tail_from: u32,
    tail: Vec<Move>,
}

impl Chain {
    /// Reads the moves of every state off [`Rules::step`].
    pub fn new(board: &Board, rules: &Rules) -> Self {
        let finish = board.finish();
        let faces = rules.faces();
        let n = finish as usize;
        let f = usize::from(faces);
        let mut land_to: Vec<u32> = (0..=finish).collect();
        let mut land_jump: Vec<Option<JumpKind>> = vec![None; n + 1];
        let mut land_seen = vec![false; n + 1];
        let mut regular = vec![0u8; n];
        let mut irregular_from = finish;
        for s in 0..finish {
            let mut k = 0u8;
            for r in 1..=faces {
                let st = rules.step(board, s, r);
                let l = st.landed as usize;
                let fits = st.outcome != Outcome::LostTurn
                    && u64::from(st.landed) == u64::from(s) + u64::from(r)
                    && l <= n;
                let jump = st.jump.map(|j| j.kind());
                let agrees = fits
                    && if land_seen[l] {
                        land_to[l] == st.to && land_jump[l] == jump
                    } else {
                        land_seen[l] = true;
                        land_to[l] = st.to;
                        land_jump[l] = jump;
                        true
                    };
                if agrees && k + 1 == r {
                    k = r;
                }
            }
            regular[s as usize] = k;
            if k < faces {
                irregular_from = irregular_from.min(s);
            }
        }
        let tail_from = irregular_from;
        let mut tail = Vec::with_capacity((n - tail_from as usize) * f);
        for s in tail_from..finish {
            for r in 1..=faces {
                let st = rules.step(board, s, r);
                tail.push(Move {
                    landed: st.landed,
                    to: st.to,
                    jump: st.jump.map(|j| j.kind()),
                    lost: st.outcome == Outcome::LostTurn,
                });
            }
        }
        Self {
            finish,
            start: board.start(),
            faces,
            land_to,
            land_jump,
            regular,
            tail_from,
            tail,
        }
    }

    /// The finish square, N.
    #[inline]
    pub fn finish(&self) -> u32 {
        self.finish
    }

    /// The start state (0 or 1).
    #[inline]
    pub fn start(&self) -> u32 {
        self.start
    }

    /// Faces of the die.
    #[inline]
    pub fn faces(&self) -> u8 {
        self.faces
    }

    /// Rolls `1..=regular(s)` from state `s` land on `s + r` and end on
    /// [`Chain::land_to`]`(s + r)`.
    #[inline]
    pub fn regular(&self, s: u32) -> u8 {
        self.regular.get(s as usize).copied().unwrap_or(0)
    }

    /// Where a regular roll landing on `l` ends.
    #[inline]
    pub fn land_to(&self, l: u32) -> u32 {
        self.land_to.get(l as usize).copied().unwrap_or(l)
    }

    /// The jump a regular roll landing on `l` takes.
    #[inline]
    pub fn land_jump(&self, l: u32) -> Option<JumpKind> {
        self.land_jump.get(l as usize).copied().flatten()
    }

    /// The move of roll `r` (`1..=faces`) from state `s` (`0..N`).
    #[inline]
    pub fn step(&self, s: u32, r: u8) -> Move {
        if r <= self.regular(s) {
            let l = s + u32::from(r);
            return Move {
                landed: l,
                to: self.land_to(l),
                jump: self.land_jump(l),
                lost: false,
            };
        }
        let index = (s.saturating_sub(self.tail_from) as usize) * usize::from(self.faces)
            + usize::from(r.max(1) - 1);
        self.tail.get(index).copied().unwrap_or(Move {
            landed: s,
            to: s,
            jump: None,
            lost: true,
        })
    }

    /// The exceptional moves of state `s`: rolls after `regular(s)`, each with
    /// its roll.
    pub fn exceptions(&self, s: u32) -> impl Iterator<Item = (u8, Move)> + '_ {
        (self.regular(s).saturating_add(1)..=self.faces).map(move |r| (r, self.step(s, r)))
    }

    /// The fewest rolls from the start to the finish (plain breadth-first
    /// search), `None` when it cannot be reached.
    pub fn shortest_rolls(&self) -> Option<u32> {
        let n = self.finish as usize;
        let mut dist = vec![u32::MAX; n + 1];
        let mut queue = VecDeque::from([self.start]);
        dist[self.start as usize] = 0;
        while let Some(s) = queue.pop_front() {
            let d = dist[s as usize];
            if s == self.finish {
                return Some(d);
            }
            for r in 1..=self.faces {
                let t = self.step(s, r).to as usize;
                if t <= n && dist[t] == u32::MAX {
                    dist[t] = d + 1;
                    queue.push_back(t as u32);
                }
            }
        }
        None
    }

    /// Which states can be reached from the start, and which of those can
    /// never reach the finish.
    pub fn reach(&self) -> Reach {
        let n = self.finish as usize;
        let mut reachable = vec![false; n + 1];
        let mut queue = VecDeque::new();
        reachable[self.start as usize] = true;
        queue.push_back(self.start);
        while let Some(s) = queue.pop_front() {
            if s == self.finish {
                continue;
            }
            for r in 1..=self.faces {
                let t = self.step(s, r).to as usize;
                if t <= n && !reachable[t] {
                    reachable[t] = true;
                    queue.push_back(t as u32);
                }
            }
        }
        // Backwards from the finish. A regular roll reaching `t` lands on some
        // `l` with land_to[l] == t, from a state in `l - faces..l`.
        let mut landing_start = vec![0u32; n + 2];
        for l in 0..=n {
            landing_start[self.land_to[l] as usize + 1] += 1;
        }
        for i in 0..=n {
            landing_start[i + 1] += landing_start[i];
        }
        let mut landings = vec![0u32; n + 1];
        let mut fill = landing_start.clone();
        for l in 0..=n {
            let t = self.land_to[l] as usize;
            landings[fill[t] as usize] = l as u32;
            fill[t] += 1;
        }
        let mut exception_preds: Vec<(u32, u32)> = Vec::new();
        for s in self.tail_from..self.finish {
            for (_, m) in self.exceptions(s) {
                if !m.lost && m.to != s {
                    exception_preds.push((m.to, s));
                }
            }
        }
        exception_preds.sort_unstable();
        let mut finishes = vec![false; n + 1];
        finishes[n] = true;
        queue.push_back(self.finish);
        let f = u32::from(self.faces);
        while let Some(t) = queue.pop_front() {
            let ti = t as usize;
            for &l in &landings[landing_start[ti] as usize..landing_start[ti + 1] as usize] {
                for s in l.saturating_sub(f)..l.min(self.finish) {
                    let si = s as usize;
                    if !finishes[si] && u32::from(self.regular[si]) >= l - s {
                        finishes[si] = true;
                        queue.push_back(s);
                    }
                }
            }
            let first = exception_preds.partition_point(|&(to, _)| to < t);
            for &(_, s) in exception_preds[first..]
                .iter()
                .take_while(|&&(to, _)| to == t)
            {
                if !finishes[s as usize] {
                    finishes[s as usize] = true;
                    queue.push_back(s);
                }
            }
        }
        let dead: Vec<u32> = (0..self.finish)
            .filter(|&s| reachable[s as usize] && !finishes[s as usize])
            .collect();
        Reach {
            finish_reachable: reachable[n],
            dead,
            reachable,
            finishes,
        }
    }
}

/// What can be reached on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Some sequence of rolls from the start reaches the finish.
    pub finish_reachable: bool,
    /// Dead squares: reachable from the start, but the finish cannot be
    /// reached from them (ascending). Empty on a board every game finishes.
    pub dead: Vec<u32>,
    /// `reachable[s]`: state `s` (or the finish, index N) can be reached from
    /// the start.
    pub reachable: Vec<bool>,
    /// `finishes[s]`: the finish can be reached from state `s` (index N is
    /// the finish itself); asked through [`Reach::can_finish`].
    finishes: Vec<bool>,
}

impl Reach {
    /// Every game finishes (with probability 1): the finish can be reached
    /// from every square a game can reach.
    pub fn always_finishes(&self) -> bool {
        self.dead.is_empty()
    }

    /// Can a token on square `s` still reach the finish (by some sequence
    /// of rolls)? The finish itself can; a square off the board cannot.
    /// This is the one answer to that question: the analyses, the
    /// simulation and [`crate::Game::stuck`] all ask it here.
    pub fn can_finish(&self, s: u32) -> bool {
        self.finishes.get(s as usize).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Overshoot;

    pub(crate) use crate::board::test_board as board;

    #[test]
    fn every_move_is_what_rules_step_says() {
        let boards = [
            Board::classic(),
            board(2, 0, &[]),
            board(2, 1, &[]),
            board(5, 0, &[(2, 4), (4, 1)]),
            board(30, 1, &[(3, 9), (9, 3), (5, 12), (12, 15), (29, 28)]),
        ];
        for b in &boards {
            for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
                for faces in [1, 2, 6, 8, 64] {
                    let rules = Rules::new(o, faces).unwrap();
                    let chain = Chain::new(b, &rules);
                    for s in 0..b.finish() {
                        for r in 1..=rules.faces() {
                            let st = rules.step(b, s, r);
                            let m = chain.step(s, r);
                            assert_eq!(
                                (m.landed, m.to, m.jump, m.lost),
                                (
                                    st.landed,
                                    st.to,
                                    st.jump.map(|j| j.kind()),
                                    st.outcome == Outcome::LostTurn
                                ),
                                "{o} d{faces} from {s} roll {r}"
                            );
                            assert_eq!(m.jump_taken(), st.jump);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_table_is_compact() {
        let b = Board::empty(1_000_000);
        let rules = Rules::new(Overshoot::Bounce, 64).unwrap();
        let chain = Chain::new(&b, &rules);
        assert_eq!(chain.tail_from, 1_000_000 - 64 + 1);
        assert_eq!(chain.tail.len(), 63 * 64);
        assert_eq!(chain.regular(10), 64);
    }

    #[test]
    fn reach_finds_dead_squares() {
        let rules = Rules::default();
        let reach = Chain::new(&Board::classic(), &rules).reach();
        assert!(reach.finish_reachable && reach.always_finishes());
        // Squares 5..=10 all chute back to 1: from 0 nothing passes them.
        let walled = board(12, 0, &[(5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]);
        let reach = Chain::new(&walled, &rules).reach();
        assert!(!reach.finish_reachable);
        assert_eq!(reach.dead, vec![0, 1, 2, 3, 4]);
        // A trap beside a way through: 8 is reachable, and from 8 every roll
        // lands on 9..=14, all chutes back to 8.
        let trap = board(
            20,
            0,
            &[(9, 8), (10, 8), (11, 8), (12, 8), (13, 8), (14, 8), (2, 16)],
        );
        let reach = Chain::new(&trap, &rules).reach();
        assert!(reach.finish_reachable);
        assert!(!reach.can_finish(8) && !reach.can_finish(7) && reach.can_finish(16));
        assert!(reach.can_finish(0) && reach.can_finish(reach.finishes.len() as u32 - 1));
        assert!(!reach.can_finish(10_000), "off the board");
    }

    #[test]
    fn bounce_exceptions_count_towards_reaching_the_finish() {
        // Square 9 chutes to 1; under bounce, 8 + 3 bounces back to 9 too.
        let b = board(10, 0, &[(9, 1)]);
        for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
            let reach = Chain::new(&b, &Rules::new(o, 6).unwrap()).reach();
            assert!(reach.always_finishes(), "{o}");
        }
        // With finish, a token on 1..=9 always can finish; a d1 walks there.
        let d1 = Rules::new(Overshoot::Stay, 1).unwrap();
        let reach = Chain::new(&b, &d1).reach();
        assert!(!reach.finish_reachable);
    }
}
