//! Finding consistent layouts by repair: a local search over whole layouts.
//!
//! Terms:
//! - **layout**: a value for every cell, within its domain, with exactly
//!   `k` mirrors; the search only ever holds such layouts.
//! - **wrong shot**: a shot seen whose beam, traced through the layout,
//!   leaves by another hole than it did. The search ends when no shot is
//!   wrong (a consistent layout); it never proves that none exists.
//! - **cover** of a cell: how many shots' beams cross it.
//! - **reroute**: a wrong shot drawn at random is given the way from its
//!   entry to its exit that changes the fewest cells, a cell other beams
//!   cross counting dearer (a cheapest path over (cell, heading) states,
//!   keeping a cell's value free and changing it dear, with random noise
//!   so that tries differ); the cells on it change, and as many cells no
//!   beam crosses change the other way round (mirror to empty or empty to
//!   mirror) to keep `k` mirrors.
//! - **acceptance**: a reroute is kept when it leaves no more wrong shots
//!   than before, else with probability `e^(−Δ/T)` (Metropolis, `Δ` the
//!   wrong shots it adds); a rejected reroute is undone.
//! - **restart**: after a number of reroutes without a new fewest wrong
//!   shots (the Luby sequence 1, 1, 2, 1, 1, 2, 4, … times a base per
//!   shot, so that both short and long runs get their share), the search
//!   starts again from a new random layout.
//! - **lit** cell: one that the beam of a shot seen crosses when only the
//!   decided cells (found mirrors among them) hold mirrors; the others are
//!   **dark**. Every other restart (the first included) puts the mirrors
//!   left in dark cells first: late in a game the found mirrors explain
//!   most shots, and mirrors in dark cells leave those beams as they are,
//!   so the search starts with few wrong shots (a uniformly random start
//!   breaks many, and repairing them took most of a slow move's time).

use super::find::luby;
use super::search::{BACK, EMPTY, Problem, SLASH, UNDECIDED, bit, mirror_of};
use crate::geometry::Dir;
use tabletop::{Budget, Rng};

/// Steps between two checks of the budget.
const CHECK_EVERY: u64 = 1 << 16;
/// The cost of changing a cell on a reroute's way, and of changing one
/// that another beam crosses (per beam, at most [`COVER_CAP`] of them).
const CHANGE: u32 = 8;
const CROSSED: u32 = 12;
const COVER_CAP: u32 = 4;
/// The noise added to a change's cost (below this).
const NOISE: u64 = 24;
/// Buckets of the way search: more than the dearest change costs.
const BUCKETS: usize = (CHANGE + CROSSED * COVER_CAP) as usize + NOISE as usize + 1;
/// The temperature of the acceptance, in wrong shots.
const TEMPERATURE: f64 = 0.7;
/// Reroutes without a new fewest wrong shots before a restart, per shot.
const PATIENCE_PER_SHOT: u64 = 10;

/// The search (see the module's terms).
pub struct Repair<'p> {
    p: &'p Problem,
    /// Shots seen: (entry, exit).
    pairs: Vec<(usize, usize)>,
    state: Vec<u8>,
    /// Cells that may change holding a mirror, and those empty; `slot[c]`
    /// is a cell's place in its list.
    mirrors: Vec<usize>,
    empties: Vec<usize>,
    slot: Vec<usize>,
    /// Per shot: where its beam leaves, and the cells it crosses (a bit
    /// set of `words` words per shot).
    exits: Vec<usize>,
    words: usize,
    paths: Vec<u64>,
    cover: Vec<u16>,
    wrong: usize,
    /// Scratch: the way search's costs and back-pointers, the changes of
    /// a reroute, the shots it touched and their old beams.
    dist: Vec<u32>,
    back: Vec<u32>,
    buckets: Vec<Vec<u32>>,
    changes: Vec<(usize, u8)>,
    touched: Vec<usize>,
    saved: Vec<u64>,
    saved_exits: Vec<usize>,
    scratch: Vec<u64>,
    rng: Rng,
    steps: u64,
    next_check: u64,
    /// Runs started (restarts follow the Luby sequence).
    runs: u64,
    /// The lit cells (see the module's terms).
    lit: Vec<bool>,
}

/// No way (search costs), no back-pointer.
const INF: u32 = u32::MAX;

impl<'p> Repair<'p> {
    /// A search of `p` for layouts in which every shot in `pairs` (entry,
    /// exit) comes out where it did, its random choices drawn from `rng`.
    pub fn new(p: &'p Problem, pairs: &[(usize, usize)], rng: Rng) -> Self {
        let cells = p.size.cells();
        let words = cells.div_ceil(64);
        Self {
            p,
            pairs: pairs.to_vec(),
            state: Vec::new(),
            mirrors: Vec::new(),
            empties: Vec::new(),
            slot: vec![usize::MAX; cells],
            exits: vec![0; pairs.len()],
            words,
            paths: vec![0; words * pairs.len()],
            cover: vec![0; cells],
            wrong: 0,
            dist: vec![INF; cells * 4],
            back: vec![INF; cells * 4],
            buckets: vec![Vec::new(); BUCKETS],
            changes: Vec::new(),
            touched: Vec::new(),
            saved: Vec::new(),
            saved_exits: Vec::new(),
            scratch: vec![0; words],
            rng,
            steps: 0,
            next_check: 0,
            runs: 0,
            lit: lit(p, pairs),
        }
    }

    /// Cell steps taken so far (beams traced and ways searched).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Searches for a consistent layout (a value per cell: [`EMPTY`],
    /// [`SLASH`], [`BACK`]) within `limit` more cell steps and `budget`;
    /// `None` when it finds none in them (which proves nothing).
    pub fn find(&mut self, limit: u64, budget: &Budget) -> Option<Vec<u8>> {
        let limit = self.steps.saturating_add(limit);
        let p = self.p;
        let fixed = p.pre_mirrors;
        if p.k < fixed || p.k - fixed > p.base_a + p.base_b {
            return None;
        }
        let per_run = PATIENCE_PER_SHOT * self.pairs.len().max(1) as u64;
        loop {
            let patience = per_run * luby(self.runs);
            self.runs += 1;
            self.start();
            let mut best = self.wrong;
            let mut since = 0u64;
            while self.wrong > 0 {
                if self.steps > limit {
                    return None;
                }
                if self.steps >= self.next_check {
                    self.next_check = self.steps + CHECK_EVERY;
                    if budget.check().is_err() {
                        return None;
                    }
                }
                self.reroute();
                if self.wrong < best {
                    best = self.wrong;
                    since = 0;
                } else {
                    since += 1;
                    if since > patience {
                        break;
                    }
                }
            }
            if self.wrong == 0 {
                return Some(self.state.clone());
            }
        }
    }

    /// A new random layout: the decided cells as they are, `k` mirrors
    /// in all, the rest at random; every beam traced.
    fn start(&mut self) {
        let p = self.p;
        self.state.clone_from(&p.pre);
        self.mirrors.clear();
        self.empties.clear();
        let mut free: Vec<usize> = (0..p.size.cells())
            .filter(|&c| p.pre[c] == UNDECIDED)
            .collect();
        self.rng.shuffle(&mut free);
        // Every other run (the first included): the mirrors not yet
        // placed go to dark cells first (the sort is stable, so at random
        // among them).
        if self.runs % 2 == 1 {
            free.sort_by_key(|&c| self.lit[c]);
        }
        let left = p.k - p.pre_mirrors;
        for (j, &c) in free.iter().enumerate() {
            if j < left {
                self.state[c] = self.random_mirror(c);
                self.slot[c] = self.mirrors.len();
                self.mirrors.push(c);
            } else {
                self.state[c] = EMPTY;
                self.slot[c] = self.empties.len();
                self.empties.push(c);
            }
        }
        self.cover.fill(0);
        self.wrong = 0;
        let mut paths = std::mem::take(&mut self.paths);
        for s in 0..self.pairs.len() {
            let path = &mut paths[s * self.words..(s + 1) * self.words];
            let exit = self.trace(self.pairs[s].0, path);
            self.exits[s] = exit;
            self.wrong += usize::from(exit != self.pairs[s].1);
            add_cover(&mut self.cover, path, 1);
        }
        self.paths = paths;
    }

    /// A mirror cell `c` may hold, at random among those its domain allows.
    fn random_mirror(&mut self, c: usize) -> u8 {
        let dom = self.p.dom[c];
        match (dom & bit(SLASH) != 0, dom & bit(BACK) != 0) {
            (true, true) => {
                if self.rng.below(2) == 0 {
                    SLASH
                } else {
                    BACK
                }
            }
            (true, false) => SLASH,
            _ => BACK,
        }
    }

    /// Follows a beam from `hole`, marking the cells it crosses in `path`
    /// (cleared first); returns its exit.
    fn trace(&mut self, hole: usize, path: &mut [u64]) -> usize {
        path.fill(0);
        let Some((mut idx, mut dir)) = self.p.size.entry(hole) else {
            return hole;
        };
        loop {
            self.steps += 1;
            path[idx / 64] |= 1 << (idx % 64);
            dir = dir.turn(mirror_of(self.state[idx]));
            match self.p.step(idx, dir) {
                Ok(next) => idx = next,
                Err(exit) => return exit,
            }
        }
    }

    /// One reroute of a wrong shot (see the module's terms).
    fn reroute(&mut self) {
        let wrong: Vec<usize> = (0..self.pairs.len())
            .filter(|&s| self.exits[s] != self.pairs[s].1)
            .collect();
        let s = wrong[self.rng.below(wrong.len() as u64) as usize];
        self.changes.clear();
        if !self.way(s) {
            return;
        }
        // Keep k mirrors: as many cells no beam crosses change the other
        // way round.
        let mut balance: isize = 0;
        let mut i = 0;
        while i < self.changes.len() {
            let (c, old) = self.changes[i];
            balance += isize::from(self.state[c] != EMPTY) - isize::from(old != EMPTY);
            i += 1;
        }
        while balance > 0 {
            let Some(c) = self.pick(true) else { break };
            self.changes.push((c, self.state[c]));
            self.set(c, EMPTY);
            balance -= 1;
        }
        while balance < 0 {
            let Some(c) = self.pick(false) else { break };
            let m = self.random_mirror(c);
            self.changes.push((c, self.state[c]));
            self.set(c, m);
            balance += 1;
        }
        if balance != 0 {
            self.undo();
            return;
        }
        // The shots whose beams cross a changed cell, traced again.
        let words = self.words;
        self.scratch.fill(0);
        for &(c, _) in &self.changes {
            self.scratch[c / 64] |= 1 << (c % 64);
        }
        self.touched.clear();
        self.saved.clear();
        self.saved_exits.clear();
        let before = self.wrong;
        let mut paths = std::mem::take(&mut self.paths);
        for t in 0..self.pairs.len() {
            let path = &mut paths[t * words..(t + 1) * words];
            if !path.iter().zip(&self.scratch).any(|(a, b)| a & b != 0) {
                continue;
            }
            self.touched.push(t);
            self.saved.extend_from_slice(path);
            self.saved_exits.push(self.exits[t]);
            add_cover(&mut self.cover, path, -1);
            let exit = self.trace(self.pairs[t].0, path);
            add_cover(&mut self.cover, path, 1);
            let target = self.pairs[t].1;
            self.wrong =
                self.wrong + usize::from(exit != target) - usize::from(self.exits[t] != target);
            self.exits[t] = exit;
        }
        self.paths = paths;
        if self.wrong > before {
            let delta = (self.wrong - before) as f64;
            if self.rng.unit_f64() >= (-delta / TEMPERATURE).exp() {
                self.revert();
            }
        }
    }

    /// Undoes the last reroute's beams and cells.
    fn revert(&mut self) {
        let words = self.words;
        let mut paths = std::mem::take(&mut self.paths);
        for (j, &t) in self.touched.iter().enumerate() {
            let path = &mut paths[t * words..(t + 1) * words];
            add_cover(&mut self.cover, path, -1);
            path.copy_from_slice(&self.saved[j * words..(j + 1) * words]);
            add_cover(&mut self.cover, path, 1);
            let target = self.pairs[t].1;
            let exit = self.saved_exits[j];
            self.wrong =
                self.wrong + usize::from(exit != target) - usize::from(self.exits[t] != target);
            self.exits[t] = exit;
        }
        self.paths = paths;
        self.undo();
    }

    /// Undoes the last reroute's cells.
    fn undo(&mut self) {
        while let Some((c, old)) = self.changes.pop() {
            self.set(c, old);
        }
    }

    /// A random cell that may change, holding a mirror (`mirror`) or
    /// empty and able to take one, that no beam crosses and this reroute
    /// did not change; any such cell a beam crosses when there is none
    /// after a few draws.
    fn pick(&mut self, mirror: bool) -> Option<usize> {
        let len = if mirror {
            self.mirrors.len()
        } else {
            self.empties.len()
        };
        if len == 0 {
            return None;
        }
        let mut fallback = None;
        for _ in 0..64 {
            let j = self.rng.below(len as u64) as usize;
            let c = if mirror {
                self.mirrors[j]
            } else {
                self.empties[j]
            };
            if !mirror && self.p.dom[c] & (bit(SLASH) | bit(BACK)) == 0 {
                continue;
            }
            if self.changes.iter().any(|&(x, _)| x == c) {
                continue;
            }
            if self.cover[c] == 0 {
                return Some(c);
            }
            fallback.get_or_insert(c);
        }
        fallback
    }

    /// Sets free cell `c` to `v`, keeping the lists.
    fn set(&mut self, c: usize, v: u8) {
        let was = self.state[c] != EMPTY;
        let now = v != EMPTY;
        self.state[c] = v;
        if was == now {
            return;
        }
        let (from, to) = if now {
            (&mut self.empties, &mut self.mirrors)
        } else {
            (&mut self.mirrors, &mut self.empties)
        };
        let at = self.slot[c];
        from.swap_remove(at);
        if let Some(&moved) = from.get(at) {
            self.slot[moved] = at;
        }
        self.slot[c] = to.len();
        to.push(c);
    }

    /// The cheapest way for shot `s` (see the module's terms), its changes
    /// made and listed in `changes` (cell, old value); `false` when there
    /// is no way or it changes nothing.
    fn way(&mut self, s: usize) -> bool {
        let p = self.p;
        let (entry, target) = self.pairs[s];
        let Some((c0, h0)) = p.size.entry(entry) else {
            return false;
        };
        let words = self.words;
        let own = s * words;
        self.dist.fill(INF);
        self.back.fill(INF);
        for b in &mut self.buckets {
            b.clear();
        }
        let start = (c0 * 4 + h0.index()) as u32;
        self.dist[start as usize] = 0;
        self.buckets[0].push(start);
        let mut pending = 1usize;
        let mut d = 0u32;
        // The last state and value of the cheapest way out by the target.
        let mut goal: Option<(u32, u32, u8)> = None;
        // Dial's buckets: a state's cost modulo their number, which passes
        // the dearest change.
        'search: while pending > 0 {
            let slot = d as usize % BUCKETS;
            while let Some(st) = self.buckets[slot].pop() {
                pending -= 1;
                if self.dist[st as usize] != d {
                    continue;
                }
                if goal.is_some_and(|(g, _, _)| g <= d) {
                    break 'search;
                }
                self.steps += 1;
                let (c, h) = (st as usize / 4, Dir::ALL[st as usize % 4]);
                let now = self.state[c];
                let free = p.pre[c] == UNDECIDED;
                let crossed = u32::from(self.cover[c])
                    - u32::from(self.paths[own + c / 64] & (1 << (c % 64)) != 0);
                for v in [EMPTY, SLASH, BACK] {
                    if v != now && (!free || p.dom[c] & bit(v) == 0) {
                        continue;
                    }
                    let w = if v == now {
                        0
                    } else {
                        CHANGE + CROSSED * crossed.min(COVER_CAP) + self.rng.below(NOISE) as u32
                    };
                    let nd = d + w;
                    let out = h.turn(mirror_of(v));
                    match p.step(c, out) {
                        Ok(next) => {
                            let e = next * 4 + out.index();
                            if nd < self.dist[e] {
                                self.dist[e] = nd;
                                self.back[e] = st * 4 + u32::from(v);
                                self.buckets[nd as usize % BUCKETS].push(e as u32);
                                pending += 1;
                            }
                        }
                        Err(hole) if hole == target => {
                            if goal.is_none_or(|(g, _, _)| nd < g) {
                                goal = Some((nd, st, v));
                            }
                        }
                        Err(_) => {}
                    }
                }
            }
            d += 1;
        }
        let Some((_, st, v)) = goal else {
            return false;
        };
        let mut wanted = Vec::new();
        let mut at = Some((st, v));
        while let Some((st, v)) = at {
            wanted.push((st as usize / 4, v));
            let b = self.back[st as usize];
            at = if b == INF {
                None
            } else {
                Some((b / 4, (b % 4) as u8))
            };
        }
        // The way's cells, last first: where it crosses a cell twice, the
        // earlier pass's value wins (tracing finds out whether it holds).
        for &(c, v) in &wanted {
            if self.state[c] != v {
                if !self.changes.iter().any(|&(x, _)| x == c) {
                    self.changes.push((c, self.state[c]));
                }
                self.set(c, v);
            }
        }
        !self.changes.is_empty()
    }
}

/// The lit cells of `p` (see the module's terms): those the beams of the
/// shots `pairs` (entry, exit) cross with mirrors in the decided cells
/// only, every undecided cell empty.
fn lit(p: &Problem, pairs: &[(usize, usize)]) -> Vec<bool> {
    let mut lit = vec![false; p.size.cells()];
    for &(entry, _) in pairs {
        let Some((mut idx, mut dir)) = p.size.entry(entry) else {
            continue;
        };
        // A beam crosses a cell at most once each way in each direction.
        for _ in 0..4 * p.size.cells() {
            lit[idx] = true;
            dir = dir.turn(mirror_of(p.pre[idx]));
            match p.step(idx, dir) {
                Ok(next) => idx = next,
                Err(_) => break,
            }
        }
    }
    lit
}

/// Adds `by` to the cover of every cell in `path`.
fn add_cover(cover: &mut [u16], path: &[u64], by: i16) {
    for (w, &word) in path.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = w * 64 + b;
            cover[c] = cover[c].wrapping_add_signed(by);
        }
    }
}
