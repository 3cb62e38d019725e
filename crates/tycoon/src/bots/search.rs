//! The hard bot: a search over the legal moves by playouts.
//!
//! Terms:
//! - **playout**: the game played on from one candidate move to its end (or
//!   to the [`Budget::horizon`]), every seat played by the default bot, on
//!   **imagined dice**: before every move of a playout the copy of the game
//!   gets a fresh die drawn from the bot's own generator (`imagine`). A
//!   playout never rolls the real game's dice, so the bot cannot see the
//!   future.
//! - **common dice**: in playout `j` of every candidate, each seat's `k`-th
//!   turn rolls the same imagined die, so two candidates are compared on
//!   the same luck (their difference is far less noisy than either rate),
//!   even when one of them changes who rolls when.
//! - **successive halving**: the playout budget is spent in rounds; after
//!   each round the worse half of the candidates is dropped, so the best
//!   ones get the most playouts.
//! - **budget** ([`Budget`]): the playouts per decision, which fix the
//!   answer for a given generator seed; a wall-clock cap is only a safety
//!   net.
//! - The default bot's own answer is tried first and keeps ties: the search
//!   leaves it only for a move that won clearly more of the same playouts
//!   (`SWITCH_MARGIN`).

use super::{Bot, DefaultBot};
use crate::game::{Decision, Game, Move};
use std::time::{Duration, Instant};
use tabletop::{Rng, SeededDice};

/// How much work one decision of the hard bot may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Playouts per decision, over all candidates.
    pub playouts: u32,
    /// Turns (all players') a playout plays at most; one that gets there
    /// counts as lost.
    pub horizon: u32,
    /// Wall-clock time after which the search stops early and answers with
    /// what it has (a safety net on a slow or loaded machine; within it the
    /// answer depends only on the playouts).
    pub time_cap: Duration,
}

impl Budget {
    /// The hard level's budget.
    pub const HARD: Self = Self {
        playouts: 6000,
        horizon: 1000,
        time_cap: Duration::from_millis(400),
    };
}

impl Default for Budget {
    fn default() -> Self {
        Self::HARD
    }
}

/// The search bot at the hard level, drawing its imagined dice from
/// `seed`. Like the random bot, its choice depends only on its seed, its
/// seat and the game's move count (and the position), so a saved game
/// resumes with the same choices.
#[derive(Clone, Copy, Debug)]
pub struct HardBot {
    seed: u64,
    budget: Budget,
}

impl HardBot {
    /// A hard bot drawing from `seed`, with [`Budget::HARD`].
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            budget: Budget::HARD,
        }
    }

    /// The same bot with another budget.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }
}

impl Bot for HardBot {
    fn choose(&self, game: &Game) -> Move {
        let mut rng = super::move_rng(self.seed, game);
        search(game, &self.budget, &mut rng)
    }
}

/// `game` about to roll imagined die number `turn` of seat `seat` in
/// playout `playout` of a search drawn with `seed`: every turn of every
/// seat has a die of its own, so a candidate that changes who rolls when
/// (an attack rolls nothing, a lost turn neither) leaves the other turns'
/// luck as it was (see **common dice**). The game holds no dice of its
/// own, so the bot cannot see the real game's future rolls: every roll of a
/// playout comes from here.
fn imagine(seed: u64, playout: u64, seat: u8, turn: u32) -> SeededDice {
    let key = (playout << 40) ^ (u64::from(seat) << 32) ^ u64::from(turn);
    SeededDice::new(Rng::stream(seed, key).next_u64())
}

/// The hard bot's answer to `game`'s pending decision: the legal move that
/// wins the most playouts, unless the default bot's answer is not clearly
/// worse (see the module's terms), drawing its imagined dice from `rng`. A decision with one legal move is answered at once;
/// a game that is over gets `roll` (which it refuses).
pub fn search(game: &Game, budget: &Budget, rng: &mut Rng) -> Move {
    let Some(decision) = game.pending() else {
        return Move::Roll;
    };
    let mut candidates = game.legal_moves();
    if candidates.len() <= 1 || matches!(decision, Decision::Roll { .. }) {
        return candidates.first().copied().unwrap_or(Move::Roll);
    }
    // The default bot's answer first: it keeps ties.
    let normal = DefaultBot.choose(game);
    if let Some(i) = candidates.iter().position(|&m| m == normal) {
        let m = candidates.remove(i);
        candidates.insert(0, m);
    }
    let me = decision.player();
    let seed = rng.next_u64();
    let started = Instant::now();
    let mut alive: Vec<Candidate> = candidates
        .into_iter()
        .map(|mv| Candidate {
            mv,
            wins: 0,
            won: Vec::new(),
        })
        .collect();
    let rounds = usize::BITS - (alive.len() - 1).leading_zeros();
    let per_round = budget.playouts.max(1) / rounds.max(1);
    let mut done = 0u64;
    loop {
        let each = (per_round / alive.len() as u32).max(1);
        for c in &mut alive {
            for j in done..done + u64::from(each) {
                let won = playout(game, c.mv, seed, j, me, budget.horizon);
                c.wins += u32::from(won);
                c.won.push(won);
            }
        }
        done += u64::from(each);
        // Stable: on a tie the earlier candidate (the default bot's move
        // first) stays ahead.
        alive.sort_by_key(|c| std::cmp::Reverse(c.wins));
        if alive.len() <= 2 || started.elapsed() > budget.time_cap {
            break;
        }
        alive.truncate(alive.len().div_ceil(2));
    }
    let best = &alive[0];
    match alive.iter().find(|c| c.mv == normal) {
        Some(n) if n.mv != best.mv && !clearly_better(best, n) => normal,
        _ => best.mv,
    }
}

/// How many standard deviations a move must win more playouts by, over the
/// same playouts, to be played instead of the default bot's.
const SWITCH_MARGIN: f64 = 1.0;

/// A candidate move and the playouts it won (by playout number).
struct Candidate {
    mv: Move,
    wins: u32,
    won: Vec<bool>,
}

/// True when `a` won clearly more of the playouts both were tried in than
/// `b` (a sign test on the playouts where only one of them won).
fn clearly_better(a: &Candidate, b: &Candidate) -> bool {
    let (mut only_a, mut only_b) = (0u32, 0u32);
    for (&x, &y) in a.won.iter().zip(&b.won) {
        only_a += u32::from(x && !y);
        only_b += u32::from(y && !x);
    }
    let lead = f64::from(only_a) - f64::from(only_b);
    lead > SWITCH_MARGIN * f64::from(only_a + only_b).sqrt()
}

/// Plays `first`, then every seat as the default bot, on imagined dice
/// (playout `playout` of a search drawn with `seed`), until the game ends or
/// `horizon` more turns have passed. True when seat `me` wins.
fn playout(game: &Game, first: Move, seed: u64, playout: u64, me: u8, horizon: u32) -> bool {
    playout_with(game, first, seed, playout, me, horizon, |g| {
        DefaultBot.choose(g)
    })
}

/// Plays `first`, then every decision but a roll as `policy` answers it,
/// on the imagined dice of playout `playout` of a search drawn with `seed`
/// (every seat's `k`-th turn rolls the same die whatever the moves, see
/// **common dice**), until the game ends or `horizon` more turns have
/// passed. True when seat `me` wins. The hard bot's playouts give every
/// seat to the default bot; a measure of what a search could gain against
/// other opponents (`examples/decision_values.rs --lookahead`) gives
/// them other policies.
pub fn playout_with(
    game: &Game,
    first: Move,
    seed: u64,
    playout: u64,
    me: u8,
    horizon: u32,
    policy: impl Fn(&Game) -> Move,
) -> bool {
    let mut g = game.clone();
    let mut events = Vec::with_capacity(16);
    let stop = g.turns().saturating_add(horizon);
    let mut mv = first;
    while let Some((seat, turns)) = g.current().and_then(|s| g.player(s).map(|p| (s, p.turns))) {
        let mut dice = imagine(seed, playout, seat, turns);
        events.clear();
        if g.apply_into(mv, &mut dice, &mut events).is_err() {
            return false;
        }
        let Some(pending) = g.pending() else {
            break;
        };
        if g.turns() >= stop {
            return false;
        }
        mv = match pending {
            Decision::Roll { .. } => Move::Roll,
            _ => policy(&g),
        };
    }
    g.winner() == Some(me)
}
