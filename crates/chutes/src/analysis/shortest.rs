//! The shortest games, exactly: breadth-first search over (square, chutes
//! taken, ladders taken).
//!
//! Terms:
//! - **constraint**: games must take exactly K chutes and/or exactly K
//!   ladders ([`Constraint`]); a state then also counts the jumps taken so
//!   far (counts never fall, so a count past K is dropped).
//! - **state**: (square, chutes taken, ladders taken); the finish with
//!   counts meeting the constraint is a **goal**.
//! - **shortest length** L: the fewest rolls from the start to a goal (a
//!   lost turn is a roll, so it never helps: a game with one is never
//!   shortest).
//! - **sequence**: a string of L dice that plays a shortest game. Every
//!   state on such a game is at its BFS distance (else a shorter game would
//!   exist), so the sequences are the paths of the BFS layers, and their
//!   number is counted exactly (big integers) along those layers.
//! - **route**: the chutes and ladders a game takes, in order
//!   (docs/rules.md §1): sequences that differ only in where the token lands
//!   between jumps are the same route. Routes are counted exactly by merging the states that
//!   share a route so far.
//! - **budget**: [`ShortestGames::within`] keeps a [`Budget`] and checks it
//!   every few thousand states, so a search of millions of states stops
//!   when the answer is no longer wanted.

use super::AnalysisError;
use super::chain::{Chain, Move};
use crate::board::{Board, Jump, JumpKind};
use crate::rules::Rules;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use tabletop::{Budget, Stopped};

/// The most states (squares × chute counts × ladder counts) searched.
pub const MAX_STATES: u64 = 20_000_000;
/// The most route prefixes merged while counting routes.
pub const MAX_ROUTE_NODES: usize = 2_000_000;
/// States (or listing steps) between two checks of the budget.
const CHECK_EVERY: usize = 4096;

/// Which games count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Constraint {
    /// Exactly this many chutes, when given.
    pub chutes: Option<u32>,
    /// Exactly this many ladders, when given.
    pub ladders: Option<u32>,
}

impl Constraint {
    /// Any game counts.
    pub const NONE: Self = Self {
        chutes: None,
        ladders: None,
    };
}

/// A route: the jumps of a shortest game, in order, with how many sequences
/// play it and the first of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Route {
    /// The chutes and ladders taken, in order.
    pub jumps: Vec<Jump>,
    /// How many shortest dice sequences take exactly these jumps.
    pub sequences: BigUint,
    /// The first such sequence (in dice order).
    pub example: Vec<u8>,
}

/// The breadth-first search's result: the shortest length and the layers of
/// states that lead to a goal in that many rolls.
#[derive(Clone, Debug)]
pub struct ShortestGames {
    chain: Chain,
    constraint: Constraint,
    cc: u32,
    cl: u32,
    rolls: Option<u32>,
    /// Distance of every discovered state (`u32::MAX`: not within L).
    dist: HashMap<u32, u32>,
    /// The states on some shortest game, with their sequence counts from
    /// the start, in BFS order.
    useful: Vec<u32>,
    counts: HashMap<u32, BigUint>,
    sequences: BigUint,
    /// Checked by the search, the route count and the listings.
    budget: Budget,
}

impl ShortestGames {
    /// Searches `board` under `rules` for the shortest games meeting
    /// `constraint`.
    ///
    /// # Errors
    /// [`AnalysisError::TooLarge`] when squares × (chute count + 1) ×
    /// (ladder count + 1) passes [`MAX_STATES`].
    pub fn new(
        board: &Board,
        rules: &Rules,
        constraint: Constraint,
    ) -> Result<Self, AnalysisError> {
        Self::from_chain(Chain::new(board, rules), constraint, &Budget::unlimited())
    }

    /// [`ShortestGames::new`] within `budget`. The budget is kept: the route
    /// count stops with [`AnalysisError::Stopped`] when it runs out, and the
    /// listings ([`ShortestGames::routes`], [`ShortestGames::sequences_list`])
    /// end early (check [`Budget::stopped`] after them).
    ///
    /// # Errors
    /// As [`ShortestGames::new`], and [`AnalysisError::Stopped`] when the
    /// budget runs out or the question is withdrawn during the search.
    pub fn within(
        board: &Board,
        rules: &Rules,
        constraint: Constraint,
        budget: &Budget,
    ) -> Result<Self, AnalysisError> {
        Self::from_chain(Chain::new(board, rules), constraint, budget)
    }

    /// [`ShortestGames::within`] on a chain already built.
    ///
    /// # Errors
    /// As [`ShortestGames::within`].
    pub fn from_chain(
        chain: Chain,
        constraint: Constraint,
        budget: &Budget,
    ) -> Result<Self, AnalysisError> {
        let cc = constraint.chutes.map_or(1, |k| u64::from(k) + 1);
        let cl = constraint.ladders.map_or(1, |k| u64::from(k) + 1);
        let states = (u64::from(chain.finish()) + 1)
            .saturating_mul(cc)
            .saturating_mul(cl);
        if states > MAX_STATES {
            return Err(AnalysisError::TooLarge(format!(
                "{states} states (squares × chute counts × ladder counts) is more than the {MAX_STATES} searched; \
                 ask for fewer chutes or ladders"
            )));
        }
        let mut games = Self {
            chain,
            constraint,
            cc: cc as u32,
            cl: cl as u32,
            rolls: None,
            dist: HashMap::new(),
            useful: Vec::new(),
            counts: HashMap::new(),
            sequences: BigUint::zero(),
            budget: budget.clone(),
        };
        games.search()?;
        Ok(games)
    }

    fn id(&self, square: u32, c: u32, l: u32) -> u32 {
        (square * self.cc + c) * self.cl + l
    }

    fn square(&self, id: u32) -> u32 {
        id / (self.cc * self.cl)
    }

    fn is_goal(&self, id: u32) -> bool {
        // Counts are kept only up to K, so a goal is the finish with counts
        // at K (or with no constraint, the finish).
        let square = self.square(id);
        let c = id / self.cl % self.cc;
        let l = id % self.cl;
        square == self.chain.finish()
            && self.constraint.chutes.is_none_or(|k| c == k)
            && self.constraint.ladders.is_none_or(|k| l == k)
    }

    /// The state after roll `r` from state `u`, with its move; `None` when
    /// the move takes more jumps than the constraint allows.
    fn next(&self, u: u32, r: u8) -> Option<(u32, Move)> {
        let square = self.square(u);
        let mut c = u / self.cl % self.cc;
        let mut l = u % self.cl;
        let m = self.chain.step(square, r);
        match m.jump {
            Some(JumpKind::Chute) if self.constraint.chutes.is_some() => c += 1,
            Some(JumpKind::Ladder) if self.constraint.ladders.is_some() => l += 1,
            _ => {}
        }
        (c < self.cc && l < self.cl).then(|| (self.id(m.to, c, l), m))
    }

    /// The edges of a shortest game out of `u`: (roll, next state, move).
    fn forward(&self, u: u32) -> impl Iterator<Item = (u8, u32, Move)> + '_ {
        let d = self.dist.get(&u).copied().unwrap_or(u32::MAX);
        (1..=self.chain.faces()).filter_map(move |r| {
            let (v, m) = self.next(u, r)?;
            (self.counts.contains_key(&v) && self.dist.get(&v) == Some(&(d + 1)))
                .then_some((r, v, m))
        })
    }

    fn search(&mut self) -> Result<(), Stopped> {
        let start = self.id(self.chain.start(), 0, 0);
        let mut order = Vec::new();
        let mut queue = VecDeque::new();
        self.dist.insert(start, 0);
        queue.push_back(start);
        let mut best = None;
        while let Some(u) = queue.pop_front() {
            if order.len() % CHECK_EVERY == CHECK_EVERY - 1 {
                self.budget.check()?;
            }
            let d = self.dist[&u];
            if best.is_some_and(|b| d >= b) {
                order.push(u);
                order.extend(queue.drain(..));
                break;
            }
            order.push(u);
            if self.square(u) == self.chain.finish() {
                continue;
            }
            for r in 1..=self.chain.faces() {
                let Some((v, _)) = self.next(u, r) else {
                    continue;
                };
                if let std::collections::hash_map::Entry::Vacant(e) = self.dist.entry(v) {
                    e.insert(d + 1);
                    if best.is_none() && self.is_goal(v) {
                        best = Some(d + 1);
                    }
                    queue.push_back(v);
                }
            }
        }
        let Some(length) = best else {
            self.dist.clear();
            return Ok(());
        };
        self.budget.check()?;
        self.rolls = Some(length);
        // Keep the states from which a goal is reached in exactly the rolls
        // left (backwards over the BFS order).
        let mut useful: HashSet<u32> = order
            .iter()
            .copied()
            .filter(|&v| self.dist[&v] == length && self.is_goal(v))
            .collect();
        for (i, &u) in order.iter().rev().enumerate() {
            if i % CHECK_EVERY == CHECK_EVERY - 1 {
                self.budget.check()?;
            }
            let d = self.dist[&u];
            if d >= length || self.square(u) == self.chain.finish() {
                continue;
            }
            let on_path = (1..=self.chain.faces()).any(|r| {
                self.next(u, r).is_some_and(|(v, _)| {
                    self.dist.get(&v) == Some(&(d + 1)) && useful.contains(&v)
                })
            });
            if on_path {
                useful.insert(u);
            }
        }
        self.useful = order.into_iter().filter(|v| useful.contains(v)).collect();
        self.dist.retain(|k, _| useful.contains(k));
        // Count sequences forwards along the layers.
        for &u in &self.useful {
            self.counts.insert(u, BigUint::zero());
        }
        self.counts.insert(start, BigUint::one());
        for i in 0..self.useful.len() {
            if i % CHECK_EVERY == CHECK_EVERY - 1 {
                self.budget.check()?;
            }
            let u = self.useful[i];
            let count = self.counts.get(&u).cloned().unwrap_or_default();
            let targets: Vec<u32> = self.forward(u).map(|(_, v, _)| v).collect();
            for v in targets {
                if let Some(c) = self.counts.get_mut(&v) {
                    *c += &count;
                }
            }
        }
        self.sequences = self
            .useful
            .iter()
            .filter(|&&v| self.is_goal(v))
            .map(|v| self.counts[v].clone())
            .sum();
        Ok(())
    }

    /// The constraint searched.
    pub fn constraint(&self) -> Constraint {
        self.constraint
    }

    /// The fewest rolls of a game meeting the constraint; `None` when no
    /// game meets it.
    pub fn rolls(&self) -> Option<u32> {
        self.rolls
    }

    /// How many dice sequences of the shortest length meet the constraint.
    pub fn sequences(&self) -> &BigUint {
        &self.sequences
    }

    /// The first shortest sequence in dice order (empty when none).
    pub fn example(&self) -> Vec<u8> {
        self.sequences_list(1)
            .into_iter()
            .next()
            .unwrap_or_default()
    }

    /// The first `limit` shortest sequences in dice order.
    pub fn sequences_list(&self, limit: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        if self.rolls.is_none() || limit == 0 {
            return out;
        }
        let start = self.id(self.chain.start(), 0, 0);
        if self.square(start) == self.chain.finish() {
            out.push(Vec::new());
            return out;
        }
        // Depth first in dice order, on an explicit stack: a shortest game
        // may be a million rolls long. `dice` holds one roll per frame
        // below the top.
        let mut dice = Vec::new();
        let mut stack = vec![self.edges(start)];
        let mut steps = 0usize;
        while let Some(edges) = stack.last_mut() {
            if out.len() >= limit || self.tired(&mut steps) {
                break;
            }
            match edges.next() {
                Some((r, v, _)) if self.square(v) == self.chain.finish() => {
                    dice.push(r);
                    out.push(dice.clone());
                    dice.pop();
                }
                Some((r, v, _)) => {
                    dice.push(r);
                    stack.push(self.edges(v));
                }
                None => {
                    stack.pop();
                    dice.pop();
                }
            }
        }
        out
    }

    /// Counts a step of a listing; every [`CHECK_EVERY`] steps, whether the
    /// budget has run out (the listing then ends early).
    fn tired(&self, steps: &mut usize) -> bool {
        *steps += 1;
        *steps % CHECK_EVERY == 0 && self.budget.check().is_err()
    }

    /// The moves on from `u` along shortest games, in dice order.
    fn edges(&self, u: u32) -> std::vec::IntoIter<(u8, u32, Move)> {
        self.forward(u).collect::<Vec<_>>().into_iter()
    }

    /// From a set of states that share a route so far: does the route end
    /// here (a goal is reached without another jump), and the sets reached
    /// by each next jump.
    fn closure(&self, set: &[u32]) -> (bool, BTreeMap<Jump, Vec<u32>>) {
        let mut accept = false;
        let mut by_jump: BTreeMap<Jump, Vec<u32>> = BTreeMap::new();
        let mut seen: HashSet<u32> = set.iter().copied().collect();
        let mut stack: Vec<u32> = set.to_vec();
        let mut steps = 0usize;
        while let Some(u) = stack.pop() {
            if self.tired(&mut steps) {
                break;
            }
            if self.square(u) == self.chain.finish() {
                accept |= self.is_goal(u);
                continue;
            }
            for (_, v, m) in self.forward(u) {
                match m.jump_taken() {
                    Some(j) => by_jump.entry(j).or_default().push(v),
                    None => {
                        if seen.insert(v) {
                            stack.push(v);
                        }
                    }
                }
            }
        }
        for targets in by_jump.values_mut() {
            targets.sort_unstable();
            targets.dedup();
        }
        (accept, by_jump)
    }

    /// The number of distinct routes among the shortest games.
    ///
    /// # Errors
    /// [`AnalysisError::TooLarge`] when more than [`MAX_ROUTE_NODES`]
    /// route prefixes would have to be merged; [`AnalysisError::Stopped`]
    /// when the budget runs out first.
    pub fn route_count(&self) -> Result<BigUint, AnalysisError> {
        if self.rolls.is_none() {
            return Ok(BigUint::zero());
        }
        // Sets of states reachable by one route prefix: each set's routes
        // continue the same way whatever the prefix, so count once per set.
        let start = vec![self.id(self.chain.start(), 0, 0)];
        let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut nodes: Vec<(bool, Vec<usize>, u32)> = Vec::new();
        let mut work = vec![start.clone()];
        index.insert(start, 0);
        nodes.push((false, Vec::new(), 0));
        while let Some(set) = work.pop() {
            self.budget.check()?;
            let me = index[&set];
            let (accept, next) = self.closure(&set);
            let mut children = Vec::with_capacity(next.len());
            for (_, targets) in next {
                let low = targets.iter().map(|v| self.dist[v]).min().unwrap_or(0);
                let id = match index.get(&targets) {
                    Some(&id) => id,
                    None => {
                        if nodes.len() >= MAX_ROUTE_NODES {
                            return Err(AnalysisError::TooLarge(format!(
                                "counting routes needs more than {MAX_ROUTE_NODES} route prefixes; \
                                 the sequence count is still exact"
                            )));
                        }
                        let id = nodes.len();
                        nodes.push((false, Vec::new(), low));
                        index.insert(targets.clone(), id);
                        work.push(targets);
                        id
                    }
                };
                children.push(id);
            }
            nodes[me].0 = accept;
            nodes[me].1 = children;
        }
        // Children start at later rolls than their parents: count from the
        // latest down.
        let mut by_low: Vec<usize> = (0..nodes.len()).collect();
        by_low.sort_by_key(|&i| std::cmp::Reverse(nodes[i].2));
        let mut count = vec![BigUint::zero(); nodes.len()];
        for i in by_low {
            let mut c = if nodes[i].0 {
                BigUint::one()
            } else {
                BigUint::zero()
            };
            for &child in &nodes[i].1 {
                c += &count[child];
            }
            count[i] = c;
        }
        Ok(count.swap_remove(0))
    }

    /// The first `limit` routes (in order of their jumps), each with its
    /// sequence count and first sequence.
    pub fn routes(&self, limit: usize) -> Vec<Route> {
        let mut out = Vec::new();
        if self.rolls.is_none() || limit == 0 {
            return out;
        }
        // Depth first over route prefixes, on an explicit stack (a route
        // may take thousands of jumps). `jumps` holds one jump per frame
        // below the top.
        let mut jumps = Vec::new();
        let start = [self.id(self.chain.start(), 0, 0)];
        let mut stack = vec![self.route_step(&start, &jumps, limit, &mut out)];
        while let Some(next) = stack.last_mut() {
            if out.len() >= limit || self.budget.check().is_err() {
                break;
            }
            match next.next() {
                Some((jump, targets)) => {
                    jumps.push(jump);
                    let frame = self.route_step(&targets, &jumps, limit, &mut out);
                    stack.push(frame);
                }
                None => {
                    stack.pop();
                    jumps.pop();
                }
            }
        }
        out
    }

    /// Records the route `jumps` if it ends at `set`, and returns the jumps
    /// that continue it.
    fn route_step(
        &self,
        set: &[u32],
        jumps: &[Jump],
        limit: usize,
        out: &mut Vec<Route>,
    ) -> std::collections::btree_map::IntoIter<Jump, Vec<u32>> {
        let (accept, next) = self.closure(set);
        if accept && out.len() < limit {
            out.push(self.route(jumps.to_vec()));
        }
        next.into_iter()
    }

    /// Counts and finds the first sequence of one route.
    fn route(&self, jumps: Vec<Jump>) -> Route {
        let start = self.id(self.chain.start(), 0, 0);
        // Sequence counts per (state, jumps matched), layer by layer.
        let mut layer: HashMap<(u32, usize), BigUint> = HashMap::new();
        layer.insert((start, 0), BigUint::one());
        let mut sequences = BigUint::zero();
        while !layer.is_empty() {
            if self.budget.check().is_err() {
                break;
            }
            let mut next: HashMap<(u32, usize), BigUint> = HashMap::new();
            for ((u, i), count) in layer {
                if self.square(u) == self.chain.finish() {
                    if i == jumps.len() && self.is_goal(u) {
                        sequences += count;
                    }
                    continue;
                }
                for (_, v, m) in self.forward(u) {
                    let j = match m.jump_taken() {
                        None => i,
                        Some(jump) if jumps.get(i) == Some(&jump) => i + 1,
                        Some(_) => continue,
                    };
                    *next.entry((v, j)).or_default() += &count;
                }
            }
            layer = next;
        }
        let example = self.route_example(start, &jumps);
        Route {
            jumps,
            sequences,
            example,
        }
    }

    /// The first sequence (in dice order) from `start` that takes exactly
    /// `jumps`, or none. Depth first on an explicit stack; states known to
    /// lead nowhere are remembered as dead.
    fn route_example(&self, start: u32, jumps: &[Jump]) -> Vec<u8> {
        if self.square(start) == self.chain.finish() {
            return Vec::new();
        }
        let mut dead: HashSet<(u32, usize)> = HashSet::new();
        let mut dice = Vec::new();
        let mut stack = vec![(start, 0, self.edges(start))];
        let mut steps = 0usize;
        while let Some((u, i, edges)) = stack.last_mut() {
            if self.tired(&mut steps) {
                break;
            }
            let (u, i) = (*u, *i);
            let Some((r, v, m)) = edges.next() else {
                dead.insert((u, i));
                stack.pop();
                dice.pop();
                continue;
            };
            let j = match m.jump_taken() {
                None => i,
                Some(jump) if jumps.get(i) == Some(&jump) => i + 1,
                Some(_) => continue,
            };
            if self.square(v) == self.chain.finish() {
                if j == jumps.len() {
                    dice.push(r);
                    return dice;
                }
            } else if !dead.contains(&(v, j)) {
                dice.push(r);
                stack.push((v, j, self.edges(v)));
            }
        }
        Vec::new()
    }
}

/// The shortest games on `board` under `rules` meeting `constraint`, with
/// counts.
///
/// # Errors
/// As [`ShortestGames::new`].
pub fn shortest(
    board: &Board,
    rules: &Rules,
    constraint: Constraint,
) -> Result<ShortestGames, AnalysisError> {
    ShortestGames::new(board, rules, constraint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Overshoot;
    use tabletop::Rng;

    use crate::board::test_board as board;
    use tabletop::Budget;

    #[test]
    fn a_search_of_millions_of_states_stops_when_withdrawn() {
        // Issue 15: exactly 65,536 chutes and 2 ladders on the classic board
        // is 19.9 million states (49 s and 572 MB unstopped).
        let k = Constraint {
            chutes: Some(65_536),
            ladders: Some(2),
        };
        // Withdrawn at the second check: after 4,096 states of the search.
        let budget = Budget::withdrawn_after(1);
        assert_eq!(
            ShortestGames::within(&Board::classic(), &Rules::default(), k, &budget).unwrap_err(),
            AnalysisError::Stopped(Stopped::Cancelled)
        );
        // A budget that has run out also ends the route count and listings.
        let games =
            ShortestGames::new(&Board::classic(), &Rules::default(), Constraint::NONE).unwrap();
        let (budget, canceller) = Budget::cancellable();
        let games = ShortestGames {
            budget: budget.clone(),
            ..games
        };
        canceller.cancel();
        assert_eq!(
            games.route_count().unwrap_err(),
            AnalysisError::Stopped(Stopped::Cancelled)
        );
        assert!(games.routes(5).len() <= 1);
        assert_eq!(budget.stopped(), Some(Stopped::Cancelled));
    }

    /// Brute force: every dice sequence up to `depth` rolls, played through
    /// Rules::step; the shortest that meets the constraint, how many
    /// sequences, and their distinct jump lists.
    fn brute(
        b: &Board,
        rules: &Rules,
        k: Constraint,
        depth: u32,
    ) -> Option<(u32, u64, HashMap<Vec<Jump>, u64>)> {
        let f = rules.faces();
        for len in 1..=depth {
            let mut count = 0u64;
            let mut routes: HashMap<Vec<Jump>, u64> = HashMap::new();
            let mut dice = vec![1u8; len as usize];
            loop {
                let mut at = b.start();
                let mut jumps = Vec::new();
                let mut done_at = None;
                for (i, &r) in dice.iter().enumerate() {
                    let st = rules.step(b, at, r);
                    at = st.to;
                    jumps.extend(st.jump);
                    if at == b.finish() {
                        done_at = Some(i + 1);
                        break;
                    }
                }
                if done_at == Some(len as usize) {
                    let chutes =
                        jumps.iter().filter(|j| j.kind() == JumpKind::Chute).count() as u32;
                    let ladders = jumps.len() as u32 - chutes;
                    if k.chutes.is_none_or(|c| c == chutes)
                        && k.ladders.is_none_or(|l| l == ladders)
                    {
                        count += 1;
                        *routes.entry(jumps).or_default() += 1;
                    }
                }
                let mut i = 0;
                while i < dice.len() && dice[i] == f {
                    dice[i] = 1;
                    i += 1;
                }
                if i == dice.len() {
                    break;
                }
                dice[i] += 1;
            }
            if count > 0 {
                return Some((len, count, routes));
            }
        }
        None
    }

    fn check(b: &Board, rules: &Rules, k: Constraint, depth: u32) {
        let games = shortest(b, rules, k).unwrap();
        let expected = brute(b, rules, k, depth);
        let what = format!("{rules} {k:?} on {:?}", b.jumps());
        match expected {
            None => assert!(games.rolls().is_none_or(|r| r > depth), "{what}"),
            Some((len, count, routes)) => {
                assert_eq!(games.rolls(), Some(len), "{what}");
                assert_eq!(games.sequences(), &BigUint::from(count), "{what}");
                assert_eq!(
                    games.route_count().unwrap(),
                    BigUint::from(routes.len()),
                    "{what}"
                );
                let listed = games.routes(usize::MAX);
                assert_eq!(listed.len(), routes.len(), "{what}");
                for route in &listed {
                    assert_eq!(
                        route.sequences,
                        BigUint::from(routes[&route.jumps]),
                        "{what}"
                    );
                    // The example plays that route.
                    let mut at = b.start();
                    let mut taken = Vec::new();
                    for &r in &route.example {
                        let st = rules.step(b, at, r);
                        at = st.to;
                        taken.extend(st.jump);
                    }
                    assert_eq!((at, &taken), (b.finish(), &route.jumps), "{what}");
                }
                let all = games.sequences_list(usize::MAX);
                assert_eq!(all.len() as u64, count, "{what}");
                assert_eq!(games.example(), all[0]);
            }
        }
    }

    #[test]
    fn classic_shortest_is_7_rolls() {
        let b = Board::classic();
        let games = shortest(&b, &Rules::default(), Constraint::NONE).unwrap();
        assert_eq!(games.rolls(), Some(7));
        check(&b, &Rules::default(), Constraint::NONE, 7);
    }

    #[test]
    fn small_boards_agree_with_brute_force_under_every_rule() {
        let mut rng = Rng::new(909);
        for trial in 0..60 {
            let size = 6 + rng.below(12) as u32;
            let start = (trial % 2) as u32;
            let mut jumps = Vec::new();
            for _ in 0..rng.below(5) {
                let from = 1 + rng.below(u64::from(size - 1)) as u32;
                // With tokens starting on 0, a chute may lead back to 0.
                let to = if start == 0 {
                    rng.below(u64::from(size) + 1) as u32
                } else {
                    1 + rng.below(u64::from(size)) as u32
                };
                if from != to && from != start && !jumps.iter().any(|&(f, _)| f == from) {
                    jumps.push((from, to));
                }
            }
            let b = board(size, start, &jumps);
            for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
                for faces in [3, 6] {
                    let rules = Rules::new(o, faces).unwrap();
                    let depth = if faces == 3 { 9 } else { 6 };
                    for k in [
                        Constraint::NONE,
                        Constraint {
                            chutes: Some(1),
                            ladders: None,
                        },
                        Constraint {
                            chutes: Some(0),
                            ladders: Some(1),
                        },
                    ] {
                        check(&b, &rules, k, depth);
                    }
                }
            }
        }
    }

    #[test]
    fn impossible_constraints_say_none() {
        let b = board(10, 0, &[(3, 7)]);
        let k = Constraint {
            chutes: Some(1),
            ladders: None,
        };
        let games = shortest(&b, &Rules::default(), k).unwrap();
        assert_eq!(games.rolls(), None);
        assert!(games.sequences().is_zero());
        assert!(games.route_count().unwrap().is_zero());
        assert!(games.example().is_empty());
        // Two ladders on a board with one ladder: none either.
        let k = Constraint {
            chutes: None,
            ladders: Some(2),
        };
        assert_eq!(shortest(&b, &Rules::default(), k).unwrap().rolls(), None);
    }

    #[test]
    fn games_far_longer_than_the_stack_is_deep_are_listed() {
        // A one-faced die on 200,000 squares: one game, 200,000 rolls. The
        // listings walk it on explicit stacks (a test thread's stack is
        // 2 MiB: one frame per roll would overflow it).
        let rules = Rules::new(Overshoot::Stay, 1).unwrap();
        let games = shortest(&board(200_000, 0, &[]), &rules, Constraint::default()).unwrap();
        assert_eq!(games.rolls(), Some(200_000));
        let list = games.sequences_list(3);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].len(), 200_000);
        assert!(list[0].iter().all(|&r| r == 1));
        let routes = games.routes(3);
        assert_eq!(routes.len(), 1);
        assert_eq!(routes[0].example.len(), 200_000);
        assert_eq!(routes[0].sequences, BigUint::one());
        // And a route of 2,000 jumps: a chute back one square, taken 2,000
        // times.
        let k = Constraint {
            chutes: Some(2_000),
            ladders: None,
        };
        // Two faces: from 2, a 1 lands on 3 and slides back to 2; a 2 goes on.
        let rules = Rules::new(Overshoot::Stay, 2).unwrap();
        let games = shortest(&board(6, 0, &[(3, 2)]), &rules, k).unwrap();
        // 0 -> 2 takes one roll (a 2), each chute one roll, 2 -> 4 -> 6 two.
        assert_eq!(games.rolls(), Some(1 + 2_000 + 2));
        let routes = games.routes(1);
        assert_eq!(routes[0].jumps.len(), 2_000);
        assert_eq!(routes[0].example.len(), 1 + 2_000 + 2);
    }

    #[test]
    fn huge_constraints_are_refused() {
        let k = Constraint {
            chutes: Some(1_000_000),
            ladders: Some(1_000_000),
        };
        assert!(matches!(
            shortest(&Board::classic(), &Rules::default(), k),
            Err(AnalysisError::TooLarge(_))
        ));
    }
}
