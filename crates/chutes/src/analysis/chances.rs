//! Each player's chance to win from a position in the middle of a game.
//!
//! Terms:
//! - **position** ([`Position`]): every token's square (0 is the off-board
//!   start) and whose turn it is.
//! - **remaining rolls** `T_i`: the rolls player `i` still needs from its
//!   square to reach N (lost turns count), a random variable pushed forward
//!   one roll at a time through the [`Chain`]; `S_i(n) = P(T_i > n)`.
//! - **round**: one roll by each player, starting with the player to move.
//!   Tokens are independent, so in the turn order from the player to move
//!   (`j = 0` moves first) player `j` wins on its `n`-th roll from now with
//!   probability `P(T_j = n) · Π_{k<j} S_k(n) · Π_{k>j} S_k(n−1)`.
//! - **unresolved**: the probability that the game is still on when the
//!   tabulation stops (under the tail asked for); every chance is exact to
//!   within it.
//! - **nobody**: the probability that no token ever finishes (a token on a
//!   square from which the finish cannot be reached plays forever).
//!
//! This is the same computation as [`super::markov::seat_win`] (all tokens
//! on the start square, seat 1 to move), from any position.

use super::AnalysisError;
use super::chain::{Chain, Reach};
use super::markov::DEFAULT_MAX_ROLLS;
use crate::game::MAX_PLAYERS;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The tail used unless asked otherwise: chances exact to 1e-10.
pub const DEFAULT_CHANCES_TAIL: f64 = 1e-10;
/// The most square × face steps a match's view spends on its chances
/// (a few milliseconds); past it the view says nothing rather than guess.
pub const VIEW_MAX_STEPS: u64 = 5_000_000;

/// How far to tabulate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChancesOptions {
    /// Stop when less than this probability is undecided.
    pub tail: f64,
    /// Give up (with [`AnalysisError::TooLarge`]) after this many
    /// square × face steps, all tokens together.
    pub max_steps: u64,
}

impl Default for ChancesOptions {
    fn default() -> Self {
        Self {
            tail: DEFAULT_CHANCES_TAIL,
            max_steps: u64::MAX,
        }
    }
}
/// Probability dropped at most per roll and token at the window's edges.
const DROP_PER_ROLL: f64 = 1e-18;

/// Where the tokens stand and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// Each player's square, in seat order (0 is the off-board start; the
    /// finish N means that player has won).
    pub squares: Vec<u32>,
    /// The player to move, from 1.
    pub to_move: u8,
}

/// Each player's chance to win from a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chances {
    /// The position these chances are from.
    pub position: Position,
    /// `win[i]`: the chance that player `i + 1` wins, in seat order.
    pub win: Vec<f64>,
    /// The chance that nobody ever wins (positive only when a token can be
    /// trapped on a square from which the finish cannot be reached).
    pub nobody: f64,
    /// The probability not yet decided when the tabulation stopped: every
    /// chance is exact to within it.
    pub unresolved: f64,
    /// Rounds tabulated.
    pub rounds: u32,
}

impl fmt::Display for Chances {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let squares: Vec<String> = self
            .position
            .squares
            .iter()
            .map(ToString::to_string)
            .collect();
        writeln!(
            f,
            "Tokens on squares {}, player {} to move.",
            squares.join(", "),
            self.position.to_move
        )?;
        for (i, p) in self.win.iter().enumerate() {
            writeln!(f, "Player {}: {:.4}% to win", i + 1, p * 100.0)?;
        }
        if self.nobody > 0.0 {
            writeln!(f, "Nobody ever wins: {:.4}%", self.nobody * 100.0)?;
        }
        writeln!(
            f,
            "Exact (Markov chain over {} rounds; within {:.1e}).",
            self.rounds, self.unresolved
        )
    }
}

/// Why a position was refused.
fn bad_position(what: String) -> AnalysisError {
    AnalysisError::Position(what)
}

/// Checks a position against the board: 1 to 8 players, squares on the
/// board (not a chute's or ladder's start, where no token stops), a player
/// to move among them.
fn check(chain: &Chain, position: &Position) -> Result<(), AnalysisError> {
    let players = position.squares.len();
    if !(1..=MAX_PLAYERS).contains(&players) {
        return Err(AnalysisError::Players(players));
    }
    if !(1..=players).contains(&usize::from(position.to_move)) {
        return Err(bad_position(format!(
            "player {} cannot be to move: the players are 1 to {players}",
            position.to_move
        )));
    }
    let n = chain.finish();
    for (i, &s) in position.squares.iter().enumerate() {
        if s > n {
            return Err(bad_position(format!(
                "player {}'s square {s} is off the board (squares 0 to {n})",
                i + 1
            )));
        }
        if s != chain.start() && s != n && chain.land_to(s) != s {
            return Err(bad_position(format!(
                "player {}'s square {s} is the start of a {} to {}: a token never stops there",
                i + 1,
                if chain.land_to(s) > s {
                    "ladder"
                } else {
                    "chute"
                },
                chain.land_to(s)
            )));
        }
    }
    if position.squares.iter().filter(|&&s| s == n).count() > 1 {
        return Err(bad_position(format!(
            "more than one token is on the finish {n}: only one player can have won"
        )));
    }
    Ok(())
}

/// The board's moves as slots a roll sends probability to, read once per
/// board and shared by every position asked of it.
///
/// A **slot** is a square `0..N` a token can stand on, [`Spreader::FINISHED`]
/// relative to N (the finish), or N + 1 (a square from which the finish
/// can never be reached).
#[derive(Clone, Debug)]
pub struct Spreader {
    chain: Chain,
    /// N.
    n: usize,
    /// Faces of the die.
    faces: usize,
    /// `target[l]`: the slot a regular roll landing on `l` ends in.
    target: Vec<u32>,
    /// The landing squares `1..N` whose slot is not themselves (a jump's
    /// start, or a square from which the finish cannot be reached),
    /// ascending.
    special: Vec<u32>,
    /// States from here on have some roll that is not regular (the
    /// overshoot region): their rolls are pushed one by one.
    first_exception: usize,
    /// `pushed[(s - first_exception) * faces + r - 1]`: roll `r`'s slot from `s`.
    pushed: Vec<u32>,
    /// Can the finish be reached from each square.
    reach: Reach,
}

impl Spreader {
    /// The offset of the finish's slot from N.
    const FINISHED: usize = 0;

    /// Reads the moves of `chain` (whose dead squares `reach` gives).
    pub fn new(chain: &Chain, reach: &Reach) -> Self {
        let n = chain.finish() as usize;
        let faces = usize::from(chain.faces());
        let slot = |t: u32| -> u32 {
            if t as usize >= n {
                (n + Self::FINISHED) as u32
            } else if reach.can_finish(t) {
                t
            } else {
                n as u32 + 1
            }
        };
        let target: Vec<u32> = (0..=n).map(|l| slot(chain.land_to(l as u32))).collect();
        let special = (1..n as u32).filter(|&l| target[l as usize] != l).collect();
        let first_exception = (0..n)
            .position(|s| usize::from(chain.regular(s as u32)) < faces)
            .unwrap_or(n);
        let pushed = (first_exception..n)
            .flat_map(|s| (1..=chain.faces()).map(move |r| (s, r)))
            .map(|(s, r)| slot(chain.step(s as u32, r).to))
            .collect();
        Self {
            chain: chain.clone(),
            n,
            faces,
            target,
            special,
            first_exception,
            pushed,
            reach: reach.clone(),
        }
    }

    /// The chain read.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// Each player's chance to win from `position`; see [`chances`].
    ///
    /// # Errors
    /// As [`chances`].
    pub fn chances(
        &self,
        position: &Position,
        options: &ChancesOptions,
    ) -> Result<Chances, AnalysisError> {
        run(self, position, options)
    }
}

/// One token's remaining rolls, pushed forward a roll at a time.
struct Token {
    /// Probability on each square before the next roll (index N receives
    /// the finish's share during a roll).
    p: Vec<f64>,
    q: Vec<f64>,
    /// The window of squares holding probability (empty when lo > hi).
    lo: usize,
    hi: usize,
    /// Probability on the board's live squares.
    live: f64,
    /// Probability on squares from which the finish cannot be reached.
    trapped: f64,
    /// Jumps taken this roll: (slot, probability).
    moves: Vec<(usize, f64)>,
}

impl Token {
    fn new(k: &Spreader, square: u32) -> Self {
        let n = k.n;
        let mut token = Token {
            p: vec![0.0; n + 1],
            q: vec![0.0; n + 1],
            lo: 1,
            hi: 0,
            live: 0.0,
            trapped: 0.0,
            moves: Vec::new(),
        };
        if square as usize == n {
            // Finished: nothing left to roll.
        } else if !k.reach.can_finish(square) {
            token.trapped = 1.0;
        } else {
            token.p[square as usize] = 1.0;
            token.lo = square as usize;
            token.hi = square as usize;
            token.live = 1.0;
        }
        token
    }

    /// P(T > rolls so far), the token's trapped probability included.
    fn survival(&self) -> f64 {
        self.live + self.trapped
    }

    /// Square × face steps the next roll takes.
    fn work(&self, faces: usize) -> u64 {
        ((self.hi + 1).saturating_sub(self.lo) * faces) as u64
    }

    /// One roll: returns P(T = this roll).
    fn roll(&mut self, k: &Spreader) -> f64 {
        if self.lo > self.hi {
            return 0.0;
        }
        let (n, f, lo, hi) = (k.n, k.faces, self.lo, self.hi);
        let inv = 1.0 / f as f64;
        let mut new_lo = usize::MAX;
        let mut new_hi = 0usize;
        let mut finished = 0.0;
        let mut trapped = 0.0;
        // Regular states: every roll lands on s + r (at most N), so a
        // landing square gathers 1/f of each of the f states before it:
        // f contiguous adds, then the few landing squares that are a
        // jump's start (or dead) send their share on.
        let reg_hi = hi.min(k.first_exception.wrapping_sub(1));
        if k.first_exception > lo && lo <= reg_hi {
            for j in 1..=f {
                let sources = &self.p[lo..=reg_hi];
                for (cell, &x) in self.q[lo + j..=reg_hi + j].iter_mut().zip(sources) {
                    *cell += x * inv;
                }
            }
            let top = (reg_hi + f).min(n);
            new_lo = lo + 1;
            new_hi = top.min(n - 1);
            let first = k.special.partition_point(|&l| (l as usize) < lo + 1);
            for &l in &k.special[first..] {
                let l = l as usize;
                if l > top {
                    break;
                }
                let m = std::mem::take(&mut self.q[l]);
                if m != 0.0 {
                    self.moves.push((k.target[l] as usize, m));
                }
            }
            finished += std::mem::take(&mut self.q[n]);
        }
        // States in the overshoot region push each roll.
        for s in lo.max(k.first_exception)..=hi {
            let m = self.p[s];
            if m == 0.0 {
                continue;
            }
            let from = (s - k.first_exception) * f;
            for &slot in &k.pushed[from..from + f] {
                self.moves.push((slot as usize, m * inv));
            }
        }
        for (slot, m) in self.moves.drain(..) {
            if slot < n {
                self.q[slot] += m;
                new_lo = new_lo.min(slot);
                new_hi = new_hi.max(slot);
            } else if slot == n + Spreader::FINISHED {
                finished += m;
            } else {
                trapped += m;
            }
        }
        self.p[lo..=hi].fill(0.0);
        self.trapped += trapped;
        self.live -= finished + trapped;
        // Drop vanishing probability at the window's edges.
        let q = &mut self.q;
        let mut dropped = 0.0;
        while new_lo < new_hi && q[new_lo] < DROP_PER_ROLL {
            dropped += std::mem::take(&mut q[new_lo]);
            new_lo += 1;
        }
        while new_hi > new_lo && q[new_hi] < DROP_PER_ROLL {
            dropped += std::mem::take(&mut q[new_hi]);
            new_hi -= 1;
        }
        if new_lo > new_hi || (new_lo == new_hi && q[new_lo] < DROP_PER_ROLL) {
            if new_lo == new_hi {
                q[new_lo] = 0.0;
            }
            self.lo = 1;
            self.hi = 0;
            self.live = 0.0;
        } else {
            self.lo = new_lo;
            self.hi = new_hi;
            self.live = (self.live - dropped).max(0.0);
        }
        std::mem::swap(&mut self.p, &mut self.q);
        finished
    }
}

/// Each player's chance to win from `position`, tabulated until less than
/// `options.tail` of the probability is undecided.
///
/// # Errors
/// [`AnalysisError::Players`] unless there are 1 to 8 players;
/// [`AnalysisError::Position`] when the player to move is not a player, a
/// square is off the board or on a jump's start, or two tokens are on the
/// finish; [`AnalysisError::Tail`] when the tail is not in (0, 1);
/// [`AnalysisError::TooLong`] when the games are too long to tabulate;
/// [`AnalysisError::TooLarge`] past `options.max_steps`.
pub fn chances(
    chain: &Chain,
    reach: &Reach,
    position: &Position,
    options: &ChancesOptions,
) -> Result<Chances, AnalysisError> {
    Spreader::new(chain, reach).chances(position, options)
}

/// One token's remaining rolls from one square: `P(T = n)` for each `n`
/// until less than the tail is still on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Remaining {
    /// `finish[n - 1]`: P(T = n).
    finish: Vec<f64>,
    /// `survival[n]`: P(T > n), trapped probability included.
    survival: Vec<f64>,
    /// P(the token never finishes).
    trapped: f64,
}

impl Remaining {
    /// The bytes its tables take.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + std::mem::size_of::<f64>() * (self.finish.capacity() + self.survival.capacity())
    }

    /// P(T = n), 0 past the rolls tabulated.
    fn finish_at(&self, n: usize) -> f64 {
        self.finish.get(n.wrapping_sub(1)).copied().unwrap_or(0.0)
    }

    /// P(T > n), taken as its last tabulated value past the table (an
    /// upper bound).
    fn survival_at(&self, n: usize) -> f64 {
        self.survival
            .get(n)
            .or(self.survival.last())
            .copied()
            .unwrap_or(0.0)
    }
}

impl Spreader {
    /// The remaining rolls of a token on `square` (a square where a token
    /// can stand: checked by [`Spreader::chances`]).
    ///
    /// # Errors
    /// [`AnalysisError::Tail`] when the tail is not in (0, 1);
    /// [`AnalysisError::TooLong`] when the games are too long to tabulate;
    /// [`AnalysisError::TooLarge`] past `options.max_steps`.
    pub fn remaining(
        &self,
        square: u32,
        options: &ChancesOptions,
    ) -> Result<Remaining, AnalysisError> {
        let tail = options.tail;
        if !(tail > 0.0 && tail < 1.0) {
            return Err(AnalysisError::Tail(tail));
        }
        let mut token = Token::new(self, square);
        let mut finish = Vec::new();
        let mut survival = vec![token.survival()];
        let mut steps = 0u64;
        while token.live >= tail {
            if finish.len() >= DEFAULT_MAX_ROLLS as usize {
                return Err(AnalysisError::TooLong {
                    rolls: DEFAULT_MAX_ROLLS,
                    remaining: token.live,
                    tail,
                });
            }
            steps += token.work(self.faces);
            if steps > options.max_steps {
                return Err(AnalysisError::TooLarge(format!(
                    "the chances need more than {} steps of work on this board",
                    options.max_steps
                )));
            }
            finish.push(token.roll(self));
            survival.push(token.survival());
        }
        Ok(Remaining {
            finish,
            survival,
            trapped: token.trapped,
        })
    }

    /// Each player's chance to win from `position`, from each token's
    /// remaining rolls (`remaining[i]` for player `i + 1`, as
    /// [`Spreader::remaining`] gives them for its square).
    ///
    /// # Errors
    /// As [`chances`], but for the work, which is done.
    pub fn combine(
        &self,
        position: &Position,
        remaining: &[&Remaining],
        tail: f64,
    ) -> Result<Chances, AnalysisError> {
        check(&self.chain, position)?;
        if remaining.len() != position.squares.len() {
            return Err(AnalysisError::Position(format!(
                "{} tokens' remaining rolls for {} players",
                remaining.len(),
                position.squares.len()
            )));
        }
        let players = position.squares.len();
        let mut win = vec![0.0; players];
        let finish = self.chain.finish();
        if let Some(winner) = position.squares.iter().position(|&s| s == finish) {
            win[winner] = 1.0;
            return Ok(Chances {
                position: position.clone(),
                win,
                nobody: 0.0,
                unresolved: 0.0,
                rounds: 0,
            });
        }
        // Turn order from the player to move: order[j] is a seat index.
        let first = usize::from(position.to_move) - 1;
        let order: Vec<usize> = (0..players).map(|j| (first + j) % players).collect();
        let tokens: Vec<&Remaining> = order.iter().map(|&seat| remaining[seat]).collect();
        let nobody: f64 = tokens.iter().map(|t| t.trapped).product();
        let longest = tokens.iter().map(|t| t.finish.len()).max().unwrap_or(0);
        let mut before: Vec<f64> = tokens.iter().map(|t| t.survival_at(0)).collect();
        let mut now = vec![0.0; players];
        let mut rounds = 0usize;
        loop {
            let undecided = (before.iter().product::<f64>() - nobody).max(0.0);
            if undecided < tail || rounds >= longest {
                return Ok(Chances {
                    position: position.clone(),
                    win,
                    nobody,
                    unresolved: undecided,
                    rounds: rounds as u32,
                });
            }
            rounds += 1;
            for (j, token) in tokens.iter().enumerate() {
                now[j] = token.survival_at(rounds);
            }
            for (j, token) in tokens.iter().enumerate() {
                let finished = token.finish_at(rounds);
                if finished == 0.0 {
                    continue;
                }
                let earlier: f64 = now[..j].iter().product();
                let later: f64 = before[j + 1..].iter().product();
                win[order[j]] += finished * earlier * later;
            }
            std::mem::swap(&mut before, &mut now);
        }
    }
}

fn run(
    k: &Spreader,
    position: &Position,
    options: &ChancesOptions,
) -> Result<Chances, AnalysisError> {
    check(&k.chain, position)?;
    let mut known: Vec<(u32, Remaining)> = Vec::new();
    for &square in &position.squares {
        if !known.iter().any(|(s, _)| *s == square) {
            known.push((square, k.remaining(square, options)?));
        }
    }
    let remaining: Vec<&Remaining> = position
        .squares
        .iter()
        .filter_map(|&square| known.iter().find(|(s, _)| *s == square).map(|(_, r)| r))
        .collect();
    k.combine(position, &remaining, options.tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::markov::{self, MarkovOptions};
    use crate::{Board, Overshoot, Rules};

    fn chances_on(board: &Board, rules: &Rules, squares: &[u32], to_move: u8) -> Chances {
        let chain = Chain::new(board, rules);
        let reach = chain.reach();
        let position = Position {
            squares: squares.to_vec(),
            to_move,
        };
        let options = ChancesOptions {
            tail: 1e-13,
            ..ChancesOptions::default()
        };
        chances(&chain, &reach, &position, &options).unwrap()
    }

    #[test]
    fn from_the_start_they_are_the_seats_odds() {
        for overshoot in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
            let rules = Rules::new(overshoot, 6).unwrap();
            let board = Board::classic();
            let dist = markov::analyze(&board, &rules, &MarkovOptions::default())
                .unwrap()
                .distribution;
            for players in 1..=4 {
                let odds = markov::seat_win(&dist, players).unwrap();
                let got = chances_on(&board, &rules, &vec![0; players], 1);
                for (a, b) in got.win.iter().zip(&odds.seat_win) {
                    assert!((a - b).abs() < 1e-9, "{overshoot}: {a} vs {b}");
                }
                let total: f64 = got.win.iter().sum();
                assert!((total - 1.0).abs() < 1e-9, "{total}");
            }
        }
    }

    #[test]
    fn the_player_to_move_goes_first() {
        let board = Board::classic();
        let rules = Rules::default();
        let a = chances_on(&board, &rules, &[0, 0], 1);
        let b = chances_on(&board, &rules, &[0, 0], 2);
        assert!((a.win[0] - b.win[1]).abs() < 1e-12);
        assert!(a.win[0] > a.win[1]);
    }

    #[test]
    fn one_roll_from_the_finish() {
        // Square 99 on the classic board: only a 1 finishes (the classic
        // overshoot rule), so a lone player wins, and against a token on 0
        // the player to move wins with 1/6 at once and more later.
        let board = Board::classic();
        let rules = Rules::default();
        let solo = chances_on(&board, &rules, &[99], 1);
        assert!((solo.win[0] - 1.0).abs() < 1e-12);
        let duel = chances_on(&board, &rules, &[99, 0], 1);
        assert!(duel.win[0] > 1.0 / 6.0 && duel.win[0] < 1.0);
        let won = chances_on(&board, &rules, &[3, 100], 1);
        assert_eq!(won.win, vec![0.0, 1.0]);
    }

    #[test]
    fn bad_positions_are_refused_with_what_and_where() {
        let board = Board::classic();
        let chain = Chain::new(&board, &Rules::default());
        let reach = chain.reach();
        let refuse = |squares: &[u32], to_move: u8| {
            chances(
                &chain,
                &reach,
                &Position {
                    squares: squares.to_vec(),
                    to_move,
                },
                &ChancesOptions::default(),
            )
            .unwrap_err()
            .to_string()
        };
        assert!(refuse(&[101], 1).contains("square 101 is off the board"));
        assert!(refuse(&[16, 3], 1).contains("square 16 is the start of a chute to 6"));
        assert!(refuse(&[2, 3], 3).contains("player 3 cannot be to move"));
        assert!(refuse(&[100, 100], 1).contains("more than one token"));
        assert!(refuse(&[], 1).contains("0 players"));
    }

    #[test]
    fn a_trapped_token_never_wins() {
        // 1 → 9 leads to the trap at 9 only by the ladder; 3..8 all fall to 2.
        let board =
            Board::from_jumps(10, 0, &[(3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2)]).unwrap();
        let rules = Rules::default();
        let got = chances_on(&board, &rules, &[2, 9], 1);
        // From 2 every roll falls back to 2 except 8 (past the finish: lost)
        // ... a token on 2 can never finish; a token on 9 finishes with a 1.
        assert_eq!(got.win[0], 0.0);
        assert!((got.win[1] - 1.0).abs() < 1e-12);
    }
}
