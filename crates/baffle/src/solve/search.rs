//! The exact search: backtracking along beams.
//!
//! Terms:
//! - **state**: each cell undecided (0) or decided empty (1), `/` (2) or
//!   `\` (3). **Pre-decided** cells are fixed by the evidence (a found
//!   mirror; a cell both mirrors were wrongly guessed in).
//! - **domain**: the values an undecided cell may take (all three, or empty
//!   and one mirror after a wrong guess).
//! - **shot**: an entry hole and the exit it must reach, or no exit (an
//!   **open** shot, used to ask where a shot not yet fired would go).
//! - **walk**: a shot's beam followed through decided cells; at an undecided
//!   cell the search **branches** over its domain, so only cells some beam
//!   crosses are ever decided.
//! - **leaf**: every shot walked to its exit. The cells still undecided
//!   ([`Leaf::free_a`], [`Leaf::free_b`]) take the remaining `r` mirrors in
//!   any way: the leaf stands for `W(a, b, r)` layouts (see `count`).
//! - **distance map**: for one shot, the fewest mirrors still to place in
//!   undecided cells for a beam entering a cell with a heading to reach the
//!   shot's exit; a 0-1 breadth-first search backwards from the exit. It is a
//!   lower bound for every state below the node it was computed at (a cell
//!   decided since can save at most one turn, once, because the beam has
//!   already used one of its two pairs of sides), so a branch is cut when the
//!   mirrors used when the map was made plus the distance exceed `k`. When
//!   only the mirrors used now would exceed `k`, the map is remade (unless
//!   at most one mirror is left: then walking on costs less). Maps made at a
//!   node serve every node below it, for every shot.
//! - **budget**: the search counts cell steps and stops with [`Aborted`]
//!   past its limit, so no input makes it run without end; given a
//!   [`Budget`] ([`Engine::within`]) it also stops when that runs out.
//! - **guided** search ([`Engine::guided`]): tries a cell's values in a
//!   random order, likeliest first (by the mirrors left per free cell and
//!   the mirrors the shot's distance map says each choice still needs), so
//!   that its first leaf is a plausible layout rather than the first in a
//!   fixed order; used to start the estimator's chains. A visitor may stop
//!   the search ([`Visitor::stop`]).

use crate::geometry::{Dir, Size};
use crate::layout::Mirror;
use std::collections::VecDeque;
use tabletop::{Budget, Rng};

/// Undecided.
pub const UNDECIDED: u8 = 0;
/// Empty.
pub const EMPTY: u8 = 1;
/// `/`.
pub const SLASH: u8 = 2;
/// `\`.
pub const BACK: u8 = 3;

/// The domain bit of a value.
pub const fn bit(code: u8) -> u8 {
    1 << code
}

/// Every value.
pub const ALL: u8 = bit(EMPTY) | bit(SLASH) | bit(BACK);

/// The mirror a value holds.
pub const fn mirror_of(code: u8) -> Option<Mirror> {
    match code {
        SLASH => Some(Mirror::Slash),
        BACK => Some(Mirror::Backslash),
        _ => None,
    }
}

/// The value of a mirror.
pub const fn code_of(mirror: Option<Mirror>) -> u8 {
    match mirror {
        None => EMPTY,
        Some(Mirror::Slash) => SLASH,
        Some(Mirror::Backslash) => BACK,
    }
}

const INF: u16 = u16::MAX;

/// The checked evidence, ready to search.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The box.
    pub size: Size,
    /// Mirrors in every layout.
    pub k: usize,
    /// Domain bits of each cell.
    pub dom: Vec<u8>,
    /// Pre-decided value of each cell, or [`UNDECIDED`].
    pub pre: Vec<u8>,
    /// Mirrors among the pre-decided cells.
    pub pre_mirrors: usize,
    /// Undecided cells whose domain is all three values.
    pub base_a: usize,
    /// Undecided cells whose domain is empty and one mirror.
    pub base_b: usize,
    /// [`Size::advance`] for every cell and heading, remembered: the next
    /// cell, or [`EXIT`] plus the hole the beam leaves by.
    next: Vec<u32>,
}

/// Marks a [`Problem`] step that leaves the box.
const EXIT: u32 = 1 << 31;

impl Problem {
    /// The problem of a box of `size` with `k` mirrors whose cells may take
    /// the values in `dom` (domain bits; a single value pre-decides a cell).
    pub fn new(size: Size, k: usize, dom: Vec<u8>) -> Self {
        let mut pre = vec![UNDECIDED; dom.len()];
        let (mut pre_mirrors, mut base_a, mut base_b) = (0, 0, 0);
        for (i, &d) in dom.iter().enumerate() {
            if d.count_ones() == 1 {
                let code = d.trailing_zeros() as u8;
                pre[i] = code;
                pre_mirrors += usize::from(code != EMPTY);
            } else if d == ALL {
                base_a += 1;
            } else {
                base_b += 1;
            }
        }
        let next = (0..size.cells() * 4)
            .map(|s| match size.advance(s / 4, Dir::ALL[s % 4]) {
                Ok(cell) => cell as u32,
                Err(hole) => EXIT | hole as u32,
            })
            .collect();
        Self {
            size,
            k,
            dom,
            pre,
            pre_mirrors,
            base_a,
            base_b,
            next,
        }
    }

    /// Whether a cell that is not pre-decided is of type B.
    pub fn is_type_b(&self, idx: usize) -> bool {
        self.dom[idx] != ALL
    }

    /// One step of a beam (see [`Size::advance`]).
    #[inline]
    pub fn step(&self, idx: usize, dir: Dir) -> Result<usize, usize> {
        let v = self.next[idx * 4 + dir.index()];
        if v & EXIT == 0 {
            Ok(v as usize)
        } else {
            Err((v & !EXIT) as usize)
        }
    }
}

/// A shot to walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shot {
    /// Entry hole.
    pub entry: usize,
    /// The exit it must reach, or `None` for an open shot.
    pub target: Option<usize>,
}

/// A leaf of the search.
pub struct Leaf<'a> {
    /// Undecided type-A cells.
    pub free_a: usize,
    /// Undecided type-B cells.
    pub free_b: usize,
    /// Mirrors still to place among them.
    pub r: usize,
    /// Every cell's value (pre-decided included; 0 = undecided).
    pub state: &'a [u8],
    /// The cells the search decided, in order.
    pub trail: &'a [usize],
    /// The cells the search decided, as a bit set (64 cells a word).
    pub decided: &'a [u64],
    /// Where the open shot left, if there is one.
    pub open_exit: Option<usize>,
}

/// What to do at each leaf.
pub trait Visitor {
    /// Called at every leaf that stands for at least one layout.
    fn leaf(&mut self, leaf: &Leaf<'_>);

    /// Called at every leaf of open shot number `candidate` walked from a
    /// leaf (see [`Engine::with_open`]); `leaf.open_exit` is where it left.
    fn open_leaf(&mut self, candidate: usize, leaf: &Leaf<'_>) {
        let _ = (candidate, leaf);
    }

    /// Whether the search should stop now (checked after each leaf; the
    /// run then ends with [`Aborted`]).
    fn stop(&self) -> bool {
        false
    }
}

/// The search went past its step limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aborted;

enum Follow {
    Exit(usize),
    Open(usize, Dir),
}

struct Frame {
    shot: usize,
    dist: Vec<u16>,
}

/// The backtracking search over one problem and a list of shots.
pub struct Engine<'p, V> {
    p: &'p Problem,
    shots: Vec<Shot>,
    done: Vec<bool>,
    resolved: Vec<usize>,
    state: Vec<u8>,
    used: usize,
    free_a: usize,
    free_b: usize,
    trail: Vec<usize>,
    decided: Vec<u64>,
    open_exit: Option<usize>,
    frames: Vec<Frame>,
    pool: Vec<Vec<u16>>,
    queue: VecDeque<(u32, bool)>,
    open: Vec<usize>,
    in_open: Option<usize>,
    steps: u64,
    limit: u64,
    budget: Budget,
    guide: Option<Rng>,
    visitor: V,
}

/// Cell steps between two checks of the budget.
const CHECK_EVERY: u64 = 1 << 16;

impl<'p, V: Visitor> Engine<'p, V> {
    /// A search of `shots` (walked in this order when several are open) that
    /// stops after `limit` cell steps.
    pub fn new(p: &'p Problem, shots: Vec<Shot>, visitor: V, limit: u64) -> Self {
        let cells = p.size.cells();
        Self {
            p,
            done: vec![false; shots.len()],
            shots,
            resolved: Vec::new(),
            state: p.pre.clone(),
            used: p.pre_mirrors,
            free_a: p.base_a,
            free_b: p.base_b,
            trail: Vec::new(),
            decided: vec![0; cells.div_ceil(64)],
            open_exit: None,
            frames: Vec::new(),
            pool: Vec::new(),
            queue: VecDeque::new(),
            open: Vec::new(),
            in_open: None,
            steps: 0,
            limit,
            budget: Budget::unlimited(),
            guide: None,
            visitor,
        }
    }

    /// Tries each cell's values in a random order drawn from `rng`,
    /// likeliest first (see the module's terms).
    #[must_use]
    pub fn guided(mut self, rng: Rng) -> Self {
        self.guide = Some(rng);
        self
    }

    /// Also stops (with [`Aborted`]) when `budget` runs out or its question
    /// is withdrawn: checked every few tens of thousands of cell steps.
    #[must_use]
    pub fn within(mut self, budget: &Budget) -> Self {
        self.budget = budget.clone();
        self
    }

    /// At every leaf, also walks a shot into each of `holes` (one at a time,
    /// with no exit to reach) and calls [`Visitor::open_leaf`] at each of
    /// its leaves: where a shot not yet fired would leave, layout by layout.
    #[must_use]
    pub fn with_open(mut self, holes: Vec<usize>) -> Self {
        self.open = holes;
        self
    }

    /// Runs the search, calling the visitor at every leaf.
    ///
    /// # Errors
    /// [`Aborted`] past the step limit.
    pub fn run(&mut self) -> Result<(), Aborted> {
        if self.p.pre_mirrors > self.p.k {
            return Ok(());
        }
        self.next_shot()
    }

    /// Cell steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The visitor, with what it gathered.
    pub fn into_visitor(self) -> V {
        self.visitor
    }

    fn follow(&self, hole: usize) -> Follow {
        let Some((mut idx, mut dir)) = self.p.size.entry(hole) else {
            return Follow::Exit(hole);
        };
        loop {
            let v = self.state[idx];
            if v == UNDECIDED {
                return Follow::Open(idx, dir);
            }
            dir = dir.turn(mirror_of(v));
            match self.p.step(idx, dir) {
                Ok(next) => idx = next,
                Err(exit) => return Follow::Exit(exit),
            }
        }
    }

    fn next_shot(&mut self) -> Result<(), Aborted> {
        let mark = self.resolved.len();
        let open_exit = self.open_exit;
        let frames = self.frames.len();
        let result = self.next_shot_inner();
        self.pop_frames(frames);
        while self.resolved.len() > mark {
            if let Some(s) = self.resolved.pop() {
                self.done[s] = false;
            }
        }
        self.open_exit = open_exit;
        result
    }

    /// Resolves the shots the decided cells already settle, checks the
    /// others can still reach their exits, and branches on the one that needs
    /// the most mirrors (the most constrained), or ends at a leaf.
    fn next_shot_inner(&mut self) -> Result<(), Aborted> {
        let mut open = None;
        let mut best: Option<(usize, Dir, usize, u16)> = None;
        for s in 0..self.shots.len() {
            if self.done[s] {
                continue;
            }
            let shot = self.shots[s];
            self.steps += 1;
            match (self.follow(shot.entry), shot.target) {
                (Follow::Exit(h), Some(t)) if t != h => return Ok(()),
                (Follow::Exit(h), target) => {
                    if target.is_none() {
                        self.open_exit = Some(h);
                    }
                    self.done[s] = true;
                    self.resolved.push(s);
                }
                (Follow::Open(idx, dir), None) => {
                    if open.is_none() {
                        open = Some((s, idx, dir));
                    }
                }
                (Follow::Open(idx, dir), Some(t)) => {
                    if let Follow::Exit(h) = self.follow(t)
                        && h != shot.entry
                    {
                        return Ok(());
                    }
                    let Some(d) = self.bound(s, t, idx, dir) else {
                        return Ok(());
                    };
                    if best.is_none_or(|b| d > b.3) {
                        best = Some((idx, dir, s, d));
                    }
                }
            }
        }
        if let Some((idx, dir, s, _)) = best {
            self.done[s] = true;
            let r = self.branch(s, idx, dir);
            self.done[s] = false;
            r
        } else if let Some((s, idx, dir)) = open {
            self.done[s] = true;
            let r = self.branch(s, idx, dir);
            self.done[s] = false;
            r
        } else {
            self.leaf()
        }
    }

    fn leaf(&mut self) -> Result<(), Aborted> {
        let r = self.p.k - self.used;
        if r > self.free_a + self.free_b {
            return Ok(());
        }
        let leaf = Leaf {
            free_a: self.free_a,
            free_b: self.free_b,
            r,
            state: &self.state,
            trail: &self.trail,
            decided: &self.decided,
            open_exit: self.open_exit,
        };
        if let Some(j) = self.in_open {
            self.visitor.open_leaf(j, &leaf);
            return Ok(());
        }
        self.visitor.leaf(&leaf);
        if self.visitor.stop() {
            return Err(Aborted);
        }
        for j in 0..self.open.len() {
            self.in_open = Some(j);
            self.shots.push(Shot {
                entry: self.open[j],
                target: None,
            });
            self.done.push(false);
            let r = self.next_shot();
            self.shots.pop();
            self.done.pop();
            self.in_open = None;
            r?;
        }
        Ok(())
    }

    fn walk(&mut self, s: usize, mut idx: usize, mut dir: Dir) -> Result<(), Aborted> {
        loop {
            self.steps += 1;
            if self.steps > self.limit
                || (self.steps % CHECK_EVERY == 0 && self.budget.check().is_err())
            {
                return Err(Aborted);
            }
            let v = self.state[idx];
            if v == UNDECIDED {
                return self.branch(s, idx, dir);
            }
            dir = dir.turn(mirror_of(v));
            match self.p.step(idx, dir) {
                Ok(next) => idx = next,
                Err(exit) => return self.finish_shot(s, exit),
            }
        }
    }

    fn finish_shot(&mut self, s: usize, exit: usize) -> Result<(), Aborted> {
        match self.shots[s].target {
            Some(t) if t != exit => Ok(()),
            Some(_) => self.next_shot(),
            None => {
                let before = self.open_exit.replace(exit);
                let r = self.next_shot();
                self.open_exit = before;
                r
            }
        }
    }

    fn set(&mut self, idx: usize, code: u8) {
        self.state[idx] = code;
        if code != EMPTY {
            self.used += 1;
        }
        if self.p.is_type_b(idx) {
            self.free_b -= 1;
        } else {
            self.free_a -= 1;
        }
        self.trail.push(idx);
        self.decided[idx / 64] |= 1 << (idx % 64);
    }

    fn unset(&mut self, idx: usize, code: u8) {
        self.state[idx] = UNDECIDED;
        if code != EMPTY {
            self.used -= 1;
        }
        if self.p.is_type_b(idx) {
            self.free_b += 1;
        } else {
            self.free_a += 1;
        }
        self.trail.pop();
        self.decided[idx / 64] &= !(1 << (idx % 64));
    }

    fn branch(&mut self, s: usize, idx: usize, dir: Dir) -> Result<(), Aborted> {
        let target = self.shots[s].target;
        let base = self.frames.len();
        let dom = self.p.dom[idx];
        let mut result = Ok(());
        for code in self.order(s, idx, dir, dom) {
            if dom & bit(code) == 0 || (code != EMPTY && self.used >= self.p.k) {
                continue;
            }
            let out = dir.turn(mirror_of(code));
            self.set(idx, code);
            if self.p.k - self.used <= self.free_a + self.free_b {
                let next = self.p.step(idx, out);
                let go = match (next, target) {
                    (Ok(nx), Some(t)) => self.bound(s, t, nx, out).is_some(),
                    (Err(h), Some(t)) => h == t,
                    (_, None) => true,
                };
                if go {
                    result = match next {
                        Ok(nx) => self.walk(s, nx, out),
                        Err(h) => self.finish_shot(s, h),
                    };
                }
                // Maps made for this choice do not hold for the next one.
                self.pop_frames(base);
            }
            self.unset(idx, code);
            if result.is_err() {
                break;
            }
        }
        result
    }

    /// The order in which to try a cell's values: empty, `/`, `\\`, unless
    /// the search is guided. Then each value is weighed by its prior chance
    /// (mirrors left per free cell `ρ`: empty `1 − ρ`, each mirror `ρ / 2`)
    /// times `ρ^d`, `d` the mirrors the shot's latest distance map says it
    /// still needs after that choice, and drawn without replacement.
    fn order(&mut self, s: usize, idx: usize, dir: Dir, dom: u8) -> [u8; 3] {
        const PLAIN: [u8; 3] = [EMPTY, SLASH, BACK];
        if self.guide.is_none() {
            return PLAIN;
        }
        let free = (self.free_a + self.free_b).max(1) as f64;
        let rho = ((self.p.k - self.used) as f64 / free).clamp(1e-6, 0.5);
        let target = self.shots[s].target;
        let frame = self.frames.iter().rev().find(|f| f.shot == s);
        let mut weights = [0.0f64; 3];
        for (w, code) in weights.iter_mut().zip(PLAIN) {
            if dom & bit(code) == 0 {
                continue;
            }
            let prior = if code == EMPTY { 1.0 - rho } else { rho / 2.0 };
            let out = dir.turn(mirror_of(code));
            let d = match (self.p.step(idx, out), target) {
                (_, None) => 0,
                (Err(h), Some(t)) => {
                    if h == t {
                        0
                    } else {
                        INF
                    }
                }
                (Ok(nx), Some(_)) => frame.map_or(0, |f| f.dist[nx * 4 + out.index()]),
            };
            // Hopeless choices still come last: the bound cuts them.
            *w = if d == INF {
                1e-300
            } else {
                prior * rho.powi(i32::from(d.min(300)))
            };
        }
        let Some(rng) = self.guide.as_mut() else {
            return PLAIN;
        };
        let mut order = PLAIN;
        for i in 0..3 {
            let total: f64 = weights[i..].iter().sum();
            let mut x = rng.unit_f64() * total;
            let mut pick = i;
            for (j, w) in weights.iter().enumerate().skip(i) {
                if x < *w {
                    pick = j;
                    break;
                }
                x -= w;
            }
            order.swap(i, pick);
            weights.swap(i, pick);
        }
        order
    }

    /// A lower bound on the mirrors still to place for shot `s`, entering
    /// `idx` heading `dir`, to reach `target`; `None` when it cannot within
    /// the budget. Uses the latest distance map of the shot (made at this
    /// node or above it), and makes one when there is none or when only the
    /// mirrors used since would cut.
    fn bound(&mut self, s: usize, target: usize, idx: usize, dir: Dir) -> Option<u16> {
        let state = idx * 4 + dir.index();
        let k = self.p.k;
        if let Some(f) = self.frames.iter().rev().find(|f| f.shot == s) {
            let d = f.dist[state];
            if d == INF {
                return None;
            }
            if self.used + usize::from(d) <= k {
                return Some(d);
            }
            // With at most one mirror left the walk itself is cheaper than a
            // new map: let it find out.
            if k - self.used <= 1 {
                return Some(d);
            }
        }
        self.push_frame(s, target);
        let d = self.frames.last().map_or(INF, |f| f.dist[state]);
        (d != INF && self.used + usize::from(d) <= k).then_some(d)
    }

    fn pop_frames(&mut self, len: usize) {
        while self.frames.len() > len {
            if let Some(f) = self.frames.pop() {
                self.pool.push(f.dist);
            }
        }
    }

    /// Pushes the distance map to `target` for the cells decided now: for a
    /// beam entering a cell with a heading, the fewest mirrors still to place
    /// to leave by `target` ([`INF`] above the mirrors still allowed). A 0-1
    /// breadth-first search backwards from the target.
    fn push_frame(&mut self, shot: usize, target: usize) {
        let p = self.p;
        let n4 = p.size.cells() * 4;
        let budget = (p.k - self.used).min(usize::from(INF - 1)) as u16;
        let mut dist = self.pool.pop().unwrap_or_default();
        dist.clear();
        dist.resize(n4, INF);
        self.queue.clear();
        // Relax every way into `cell` that leaves it heading `out`, at `d`
        // plus the cost of the cell's value.
        let relax = |dist: &mut Vec<u16>,
                     queue: &mut VecDeque<(u32, bool)>,
                     state: &[u8],
                     cell: usize,
                     out: Dir,
                     d: u16| {
            let v = state[cell];
            let options = if v == UNDECIDED { p.dom[cell] } else { bit(v) };
            for code in [EMPTY, SLASH, BACK] {
                if options & bit(code) == 0 {
                    continue;
                }
                let cost = u16::from(v == UNDECIDED && code != EMPTY);
                let nd = d + cost;
                let din = PREIMAGE[out.index()][usize::from(code)];
                let e = cell * 4 + din.index();
                if nd <= budget && nd < dist[e] {
                    dist[e] = nd;
                    if cost == 0 {
                        queue.push_front((e as u32, false));
                    } else {
                        queue.push_back((e as u32, false));
                    }
                }
            }
        };
        if let Some((c0, h0)) = p.size.entry(target) {
            relax(&mut dist, &mut self.queue, &self.state, c0, h0.reverse(), 0);
        }
        while let Some((st, _)) = self.queue.pop_front() {
            let st = st as usize;
            self.steps += 1;
            let (cell, heading) = (st / 4, Dir::ALL[st % 4]);
            // The cell behind, which the beam left with this heading.
            if let Ok(prev) = p.step(cell, heading.reverse()) {
                let d = dist[st];
                relax(&mut dist, &mut self.queue, &self.state, prev, heading, d);
            }
        }
        self.frames.push(Frame { shot, dist });
    }
}

/// `PREIMAGE[out][value]`: the heading into a cell holding `value` that
/// leaves it heading `out` (two-sided mirrors are reversible).
pub(crate) const PREIMAGE: [[Dir; 4]; 4] = {
    let mut table = [[Dir::North; 4]; 4];
    let mut o = 0;
    while o < 4 {
        let out = Dir::ALL[o];
        table[o][EMPTY as usize] = out;
        table[o][SLASH as usize] = out.reverse().turn(mirror_of(SLASH)).reverse();
        table[o][BACK as usize] = out.reverse().turn(mirror_of(BACK)).reverse();
        o += 1;
    }
    table
};
