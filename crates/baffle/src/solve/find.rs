//! Finding consistent layouts: a propagating search with restarts.
//!
//! Terms:
//! - **directed shot**: a shot seen, walked from one of its two holes to
//!   the other. Each shot is walked from both ends (its beam reversed
//!   comes back the same way), so both ends constrain the cells near them.
//!   The two directed shots of a shot are a **pair**.
//! - **front**: where a directed shot's walk through the decided cells
//!   stops: the first undecided cell it meets and its heading there, or
//!   done when the walk leaves the box (by the right hole, else the
//!   choices so far contradict the shot).
//! - **turn map**: for one directed shot, the fewest turns at undecided
//!   cells for a beam entering a cell with a heading to leave by the
//!   shot's target hole (a 0-1 breadth-first search backwards from the
//!   target, over the values the cells may still take). No way within the
//!   mirrors left is a **conflict**. Deciding a cell can only raise the
//!   map, except a new mirror where a beam may now turn for nothing: the
//!   map is then remade if the turn there is cheaper than the map says, so
//!   every map in use is a lower bound.
//! - **mirror bounds**: every new mirror turns at most two beams' passes
//!   (one on each face), so the mirrors placed plus half the sum over the
//!   pairs of their fewest turns may not pass `k`; and one shot's fewest
//!   turns are its fewest new mirrors while every undecided cell may be
//!   empty (a shortest way never turns twice at one cell: the cell empty
//!   would cut out, or run backwards, the loop between, two turns fewer).
//! - **route map**: for one directed shot, the cost of the likeliest way
//!   to its target: an undecided cell costs `−ln` of the chance that a
//!   random free cell holds the value (a mirror where few are left is
//!   dear, an empty cell where most must be mirrors is dear), a decided
//!   cell nothing (Dial's shortest paths). Its cheapest way, cell by cell,
//!   is the shot's **route**; a decision that disagrees with the route
//!   marks the map **stale**, and stale maps are remade before the next
//!   branch. The route maps order the values tried.
//! - **viable value** of a front cell: one after which the shot's beam
//!   still reaches its target within the mirror bounds, and that the count
//!   allows (a mirror only while fewer than `k` are placed; empty only
//!   while the cells left can still take the mirrors left). A single
//!   viable value is **forced**; none is a conflict. Forcing repeats until
//!   nothing changes (**propagation**).
//! - **branch**: the shot being walked goes on until it is done (so it
//!   follows one route); then the front with the fewest viable values (the
//!   costliest route on a tie) is taken. Its values are tried cheapest
//!   route first, in an order drawn at random with the routes' likelihoods.
//! - **restart**: after a number of conflicts (the Luby sequence times a
//!   base) the search starts again from the root with new random choices;
//!   a run that tries every branch without a restart proves that no layout
//!   fits ([`Outcome::Impossible`]).
//! - **completion**: when every shot is walked, the cells no beam decided
//!   take the mirrors left uniformly at random.

use super::count::Weights;
use super::search::{ALL, BACK, EMPTY, Leaf, PREIMAGE, Problem, SLASH, UNDECIDED, bit, mirror_of};
use crate::geometry::Dir;
use std::collections::VecDeque;
use tabletop::{Budget, Rng};

/// No route.
const INF: u32 = u32::MAX;
/// No way within the mirrors left.
const INF16: u16 = u16::MAX;
/// A directed shot walked to its target.
const DONE: u32 = u32::MAX;
/// No map.
const NONE: u32 = u32::MAX;
/// Steps between two checks of the budget.
const CHECK_EVERY: u64 = 1 << 16;
/// Lowered turn maps are remade when a mirror bound comes this close.
const TIGHT: usize = 2;
/// A mirror where `h` pairs could turn costs `2^-min(h, HOT_SHIFT)` of one
/// elsewhere on the route maps.
const HOT_SHIFT: u8 = 3;
/// Conflicts of the first run; runs follow the Luby sequence times this.
const RESTART_BASE: u64 = 64;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A consistent layout (a value per cell: [`EMPTY`], [`SLASH`],
    /// [`BACK`]).
    Found(Vec<u8>),
    /// No layout fits the evidence: the search tried everything.
    Impossible,
    /// The step limit or the budget ran out first.
    GaveUp,
}

#[derive(Clone, Copy)]
struct DShot {
    entry: usize,
    target: usize,
}

/// One directed shot's maps, made at one node of the search.
#[derive(Default)]
struct Frame {
    shot: u32,
    /// Trail length when made: valid while the trail is at least this long.
    level: u32,
    /// The shot's previous frame.
    prev: u32,
    /// Fewest turns per state (`cell * 4 + heading`) when made.
    turns: Vec<u16>,
    /// The mirrors left when made: [`INF16`] in `turns` means more.
    cap: u16,
    /// Mirrors placed when made.
    used_at: u32,
    /// Mirrors placed since that may have lowered the map (each by two
    /// turns at most: a way crosses a cell twice at most).
    loosened: u16,
    /// Route cost per state, [`INF`] for no way.
    cost: Vec<u32>,
    /// Weights of an undecided empty cell and mirror when made.
    w_empty: u32,
    w_mirror: u32,
    /// Cost units per nat.
    scale: f64,
    /// The route: undecided cells and the values it takes there.
    route: Vec<(u32, u8)>,
    /// The route's cells as a bit set.
    bits: Vec<u64>,
}

enum Undo {
    Cell(u32),
    Front(u32, u32),
}

struct Choice {
    shot: u32,
    mark: usize,
    cell: u32,
    values: [u8; 3],
    count: u8,
    next: u8,
}

struct Conflict;

enum Run {
    Found,
    Exhausted,
    Restart,
}

/// A front's viable values, the route cost after each, and how many.
struct Viable {
    values: [u8; 3],
    costs: [u32; 3],
    count: usize,
}

/// The search (see the module's terms).
pub struct Finder<'p> {
    p: &'p Problem,
    shots: Vec<DShot>,
    state: Vec<u8>,
    used: usize,
    free: usize,
    front: Vec<u32>,
    trail: Vec<Undo>,
    frames: Vec<Frame>,
    top: Vec<u32>,
    /// Route spoiled: remake the route map.
    stale: Vec<bool>,
    /// Per pair, the larger of its two fronts' fewest turns, and the sum.
    need: Vec<u16>,
    need_sum: usize,
    /// Per cell and mirror (`cell * 2`, `+ 1` for `\\`), how many pairs
    /// could turn there on one of their ways with the fewest turns; and
    /// each pair's such places, as last worked out.
    hot: Vec<u8>,
    pair_hot: Vec<Vec<u32>>,
    choices: Vec<Choice>,
    pool: Vec<Frame>,
    buckets: Vec<Vec<u32>>,
    queue: VecDeque<u32>,
    rng: Rng,
    steps: u64,
    limit: u64,
    budget: Budget,
    next_check: u64,
    weights: Weights,
    /// Randomness of the value order: 0 cheapest first, 1 drawn by weight.
    temperature: f64,
    /// Whether the count allows another mirror, and another empty cell.
    flags: (bool, bool),
    /// Conflicts met in all.
    pub conflicts: u64,
    /// Restarts made in all.
    pub restarts: u64,
}

impl<'p> Finder<'p> {
    /// A search of `p` for layouts in which every shot in `pairs` (entry,
    /// exit, no hole twice) comes out where it did, its random choices
    /// drawn from `rng`.
    pub fn new(p: &'p Problem, pairs: &[(usize, usize)], rng: Rng) -> Self {
        let mut shots = Vec::with_capacity(2 * pairs.len());
        for &(entry, exit) in pairs {
            shots.push(DShot {
                entry,
                target: exit,
            });
            shots.push(DShot {
                entry: exit,
                target: entry,
            });
        }
        let count = shots.len();
        Self {
            p,
            shots,
            state: p.pre.clone(),
            used: p.pre_mirrors,
            free: p.base_a + p.base_b,
            front: vec![DONE; count],
            trail: Vec::new(),
            frames: Vec::new(),
            top: vec![NONE; count],
            stale: vec![true; count],
            need: vec![0; pairs.len()],
            need_sum: 0,
            hot: vec![0; p.size.cells() * 2],
            pair_hot: vec![Vec::new(); pairs.len()],
            choices: Vec::new(),
            pool: Vec::new(),
            buckets: Vec::new(),
            queue: VecDeque::new(),
            rng,
            steps: 0,
            limit: u64::MAX,
            budget: Budget::unlimited(),
            next_check: 0,
            weights: Weights::default(),
            temperature: 1.0,
            flags: (true, true),
            conflicts: 0,
            restarts: 0,
        }
    }

    /// Cell steps taken so far (walks and map searches).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Sets how random the value order is: 0 tries the cheapest route
    /// first always, 1 draws the order with the routes' likelihoods.
    pub fn set_temperature(&mut self, t: f64) {
        self.temperature = t.max(0.0);
    }

    /// Searches for a layout from scratch, within `limit` more cell steps
    /// and `budget`.
    pub fn find(&mut self, limit: u64, budget: &Budget) -> Outcome {
        self.limit = self.steps.saturating_add(limit);
        self.budget = budget.clone();
        self.reset();
        if self.p.k < self.used || self.p.k - self.used > self.free {
            return Outcome::Impossible;
        }
        for d in 0..self.shots.len() {
            let Some((cell, dir)) = self.p.size.entry(self.shots[d].entry) else {
                return Outcome::Impossible;
            };
            self.front[d] = (cell * 4 + dir.index()) as u32;
        }
        if self.propagate().is_err() {
            return self.exhausted();
        }
        let root = self.trail.len();
        let mut run = 0u64;
        loop {
            let limit = luby(run) * RESTART_BASE;
            run += 1;
            match self.run(limit) {
                Run::Found => return Outcome::Found(self.complete()),
                Run::Exhausted => return self.exhausted(),
                Run::Restart => {
                    if self.out_of_steps() {
                        return Outcome::GaveUp;
                    }
                    self.restarts += 1;
                    self.choices.clear();
                    self.undo_to(root);
                }
            }
        }
    }

    /// Every branch tried: a proof, unless the steps ran out on the way.
    fn exhausted(&self) -> Outcome {
        if self.out_of_steps() {
            Outcome::GaveUp
        } else {
            Outcome::Impossible
        }
    }

    fn out_of_steps(&self) -> bool {
        self.steps > self.limit || self.budget.stopped().is_some()
    }

    /// Back to the evidence alone.
    fn reset(&mut self) {
        self.choices.clear();
        self.undo_to(0);
        while let Some(f) = self.frames.pop() {
            self.pool.push(f);
        }
        self.top.fill(NONE);
        self.stale.fill(true);
        self.hot.fill(0);
        for h in &mut self.pair_hot {
            h.clear();
        }
        self.state.clone_from(&self.p.pre);
        self.used = self.p.pre_mirrors;
        self.free = self.p.base_a + self.p.base_b;
        self.flags = self.allowed();
    }

    /// One run: depth first until a layout, exhaustion, or `limit`
    /// conflicts.
    fn run(&mut self, limit: u64) -> Run {
        let mut conflicts = 0;
        loop {
            if self.propagate().is_ok() {
                match self.pick() {
                    None => return Run::Found,
                    Some(choice) => {
                        let (cell, value) = (choice.cell, choice.values[0]);
                        self.choices.push(choice);
                        self.set(cell as usize, value);
                        continue;
                    }
                }
            }
            self.conflicts += 1;
            conflicts += 1;
            if self.out_of_steps() {
                return Run::Restart;
            }
            loop {
                let Some(choice) = self.choices.last_mut() else {
                    return Run::Exhausted;
                };
                choice.next += 1;
                if choice.next < choice.count {
                    if conflicts > limit {
                        return Run::Restart;
                    }
                    let (mark, cell, value) = (
                        choice.mark,
                        choice.cell,
                        choice.values[usize::from(choice.next)],
                    );
                    self.undo_to(mark);
                    self.set(cell as usize, value);
                    break;
                }
                self.choices.pop();
            }
        }
    }

    /// Whether the count allows another mirror, and another empty cell.
    fn allowed(&self) -> (bool, bool) {
        let left = self.p.k.saturating_sub(self.used);
        (left > 0, self.free > left)
    }

    /// The values cell `c` may still take.
    fn options(&self, c: usize) -> u8 {
        let v = self.state[c];
        if v != UNDECIDED {
            return bit(v);
        }
        let mut d = self.p.dom[c];
        let (mirror, empty) = self.flags;
        if !mirror {
            d &= bit(EMPTY);
        }
        if !empty {
            d &= !bit(EMPTY);
        }
        d
    }

    fn set(&mut self, c: usize, v: u8) {
        self.state[c] = v;
        if v != EMPTY {
            self.used += 1;
        }
        self.free -= 1;
        self.trail.push(Undo::Cell(c as u32));
        if v != EMPTY {
            self.loosen(c, v);
        }
        let flags = self.allowed();
        if flags == self.flags {
            // Spoil the routes that wanted something else here.
            for d in 0..self.shots.len() {
                if self.front[d] == DONE || self.stale[d] || self.top[d] == NONE {
                    continue;
                }
                let f = &self.frames[self.top[d] as usize];
                if f.bits[c / 64] & (1 << (c % 64)) != 0
                    && f.route.iter().any(|&(rc, rv)| rc as usize == c && rv != v)
                {
                    self.stale[d] = true;
                }
            }
        } else {
            self.flags = flags;
            self.recheck_routes();
        }
    }

    /// A mirror `v` now at `c`: counts it against every turn map of an
    /// unfinished shot on which a beam would turn here for less than the
    /// map says (against every map already loosened: its values are no
    /// longer exact, so the test would not hold).
    fn loosen(&mut self, c: usize, v: u8) {
        for d in 0..self.shots.len() {
            if self.front[d] == DONE {
                continue;
            }
            let target = self.shots[d].target;
            let mut t = self.top[d];
            while t != NONE {
                let f = &self.frames[t as usize];
                let cheaper = f.loosened > 0
                    || Dir::ALL.iter().any(|&h| {
                        let out = h.turn(mirror_of(v));
                        let after = match self.p.step(c, out) {
                            Ok(next) => f.turns[next * 4 + out.index()],
                            Err(hole) if hole == target => 0,
                            Err(_) => INF16,
                        };
                        after < f.turns[c * 4 + h.index()]
                    });
                let prev = f.prev;
                if cheaper {
                    self.frames[t as usize].loosened += 1;
                }
                t = prev;
            }
        }
    }

    /// A lower bound on the turns directed shot `d` still needs from state
    /// `st`, from its latest map.
    fn turns_lb(&self, d: usize, st: usize) -> u16 {
        let f = &self.frames[self.top[d] as usize];
        let since = (self.used as u32).saturating_sub(f.used_at);
        let m = u32::from(f.loosened).min(since).min(u32::from(INF16 / 4)) as u16;
        let t = f.turns[st];
        let t = if t == INF16 {
            f.cap.saturating_add(1)
        } else {
            t
        };
        t.saturating_sub(2 * m)
    }

    /// The turns directed shot `d` needs from state `st` on its latest map
    /// as made (a lower bound unless the map was lowered since).
    fn turns_raw(&self, d: usize, st: usize) -> u16 {
        let f = &self.frames[self.top[d] as usize];
        let t = f.turns[st];
        if t == INF16 {
            f.cap.saturating_add(1)
        } else {
            t
        }
    }

    /// Whether `d`'s turn map has been lowered since it was made.
    fn loose(&self, d: usize) -> bool {
        let f = &self.frames[self.top[d] as usize];
        f.loosened > 0 && (self.used as u32) > f.used_at
    }

    /// Marks stale every map whose route the decided cells or the count
    /// now rule out.
    fn recheck_routes(&mut self) {
        for d in 0..self.shots.len() {
            let t = self.top[d];
            if t == NONE {
                self.stale[d] = true;
                continue;
            }
            let f = &self.frames[t as usize];
            let ok = f.route.iter().all(|&(c, v)| {
                let s = self.state[c as usize];
                if s == UNDECIDED {
                    self.options(c as usize) & bit(v) != 0
                } else {
                    s == v
                }
            });
            self.stale[d] = !ok;
        }
    }

    fn undo_to(&mut self, mark: usize) {
        let mut changed = false;
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Undo::Cell(c)) => {
                    let c = c as usize;
                    if self.state[c] != EMPTY {
                        self.used -= 1;
                    }
                    self.state[c] = UNDECIDED;
                    self.free += 1;
                }
                Some(Undo::Front(d, old)) => self.front[d as usize] = old,
                None => break,
            }
            changed = true;
        }
        while let Some(f) = self.frames.last() {
            if (f.level as usize) <= mark {
                break;
            }
            if let Some(f) = self.frames.pop() {
                self.top[f.shot as usize] = f.prev;
                self.pool.push(f);
            }
            changed = true;
        }
        if changed {
            self.flags = self.allowed();
            self.recheck_routes();
        }
    }

    fn move_front(&mut self, d: usize, to: u32) {
        let old = self.front[d];
        if old != to {
            self.trail.push(Undo::Front(d as u32, old));
            self.front[d] = to;
        }
    }

    /// Walks every directed shot through the decided cells.
    fn advance(&mut self) -> Result<(), Conflict> {
        for d in 0..self.shots.len() {
            let s = self.front[d];
            if s == DONE {
                continue;
            }
            let (mut c, mut h) = ((s / 4) as usize, Dir::ALL[(s % 4) as usize]);
            if self.state[c] == UNDECIDED {
                continue;
            }
            loop {
                let v = self.state[c];
                if v == UNDECIDED {
                    self.move_front(d, (c * 4 + h.index()) as u32);
                    break;
                }
                self.steps += 1;
                h = h.turn(mirror_of(v));
                match self.p.step(c, h) {
                    Ok(next) => c = next,
                    Err(hole) => {
                        if hole != self.shots[d].target {
                            return Err(Conflict);
                        }
                        self.move_front(d, DONE);
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Propagates to a fixed point: walks, remakes stale and loose maps,
    /// checks the mirror bounds, forces single viable values.
    fn propagate(&mut self) -> Result<(), Conflict> {
        loop {
            if self.steps > self.limit {
                return Err(Conflict);
            }
            if self.steps >= self.next_check {
                self.next_check = self.steps + CHECK_EVERY;
                if self.budget.check().is_err() {
                    return Err(Conflict);
                }
            }
            if self.p.k < self.used || self.free < self.p.k - self.used {
                return Err(Conflict);
            }
            self.advance()?;
            for d in 0..self.shots.len() {
                if self.front[d] != DONE && (self.stale[d] || self.top[d] == NONE) {
                    self.remake(d, true);
                }
            }
            self.bounds()?;
            let mut forced = false;
            for d in 0..self.shots.len() {
                let s = self.front[d];
                if s == DONE || self.state[(s / 4) as usize] != UNDECIDED {
                    continue;
                }
                let viable = self.viable(d);
                match viable.count {
                    0 => return Err(Conflict),
                    1 => {
                        let v = viable.values[0];
                        self.set((s / 4) as usize, v);
                        forced = true;
                        // A mirror changes the bounds: work them out again.
                        if v != EMPTY {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            if !forced {
                return Ok(());
            }
        }
    }

    /// Works out each pair's need and checks the mirror bounds (see the
    /// module's terms). Lowered maps are remade first where their values
    /// as made come within [`TIGHT`] of the limit: then a fresh map may
    /// cut where a lowered one does not.
    fn bounds(&mut self) -> Result<(), Conflict> {
        let k = self.p.k;
        let strict = self.flags.1;
        let half = |t: u16| if strict { t } else { t.div_ceil(2) };
        let mut raw_sum = 0usize;
        let mut any_loose = false;
        for pair in 0..self.shots.len() / 2 {
            let mut raw = 0u16;
            let mut loose = false;
            for d in [2 * pair, 2 * pair + 1] {
                let s = self.front[d];
                if s == DONE {
                    raw = 0;
                    loose = false;
                    break;
                }
                raw = raw.max(self.turns_raw(d, s as usize));
                loose |= self.loose(d);
            }
            raw_sum += usize::from(raw);
            any_loose |= loose;
            if loose && self.used + usize::from(half(raw)) + TIGHT > k {
                self.remake(2 * pair, false);
                self.remake(2 * pair + 1, false);
            }
        }
        if any_loose && self.used + raw_sum.div_ceil(2) + TIGHT > k {
            for d in 0..self.shots.len() {
                if self.front[d] != DONE && self.loose(d) {
                    self.remake(d, false);
                }
            }
        }
        let mut sum = 0usize;
        for pair in 0..self.shots.len() / 2 {
            let mut most = 0u16;
            for d in [2 * pair, 2 * pair + 1] {
                let s = self.front[d];
                if s == DONE {
                    most = 0;
                    break;
                }
                most = most.max(self.turns_lb(d, s as usize));
            }
            if self.used + usize::from(half(most)) > k {
                return Err(Conflict);
            }
            self.need[pair] = most;
            sum += usize::from(most);
        }
        self.need_sum = sum;
        if self.used + sum.div_ceil(2) > k {
            return Err(Conflict);
        }
        Ok(())
    }

    /// The viable values at directed shot `d`'s front, and the route cost
    /// after each.
    fn viable(&self, d: usize) -> Viable {
        let s = self.front[d] as usize;
        let (c, h) = (s / 4, Dir::ALL[s % 4]);
        let opts = self.options(c);
        let target = self.shots[d].target;
        let f = &self.frames[self.top[d] as usize];
        let pair = d / 2;
        let other = d ^ 1;
        let other_turns = match self.front[other] {
            DONE => 0,
            o => self.turns_lb(other, o as usize),
        };
        let k = self.p.k;
        let strict = self.flags.1;
        let mut out = Viable {
            values: [0; 3],
            costs: [0; 3],
            count: 0,
        };
        for v in [EMPTY, SLASH, BACK] {
            if opts & bit(v) == 0 {
                continue;
            }
            let heading = h.turn(mirror_of(v));
            let (rest, turns) = match self.p.step(c, heading) {
                Err(hole) if hole == target => (0, 0),
                Err(_) => continue,
                Ok(next) => {
                    let st = next * 4 + heading.index();
                    (f.cost[st], self.turns_lb(d, st))
                }
            };
            if rest == INF {
                continue;
            }
            // After the choice: the beam may come back to this cell and
            // turn on its other face for nothing, and the other end's way
            // may turn here (twice at most).
            let mirror = u16::from(v != EMPTY);
            let need = turns
                .saturating_sub(mirror)
                .max(other_turns.saturating_sub(2 * mirror));
            let used = self.used + usize::from(mirror);
            let alone = if strict { need } else { need.div_ceil(2) };
            // A new mirror's other face may save another pair one turn.
            let sum = (self.need_sum + usize::from(need))
                .saturating_sub(usize::from(self.need[pair]) + usize::from(mirror));
            if used + usize::from(alone) > k || used + sum.div_ceil(2) > k {
                continue;
            }
            let w = self.weight(f, c, v);
            out.values[out.count] = v;
            out.costs[out.count] = rest.saturating_add(w);
            out.count += 1;
        }
        out
    }

    /// The front to branch on, with its values in the order to try, or
    /// `None` when every shot is walked.
    fn pick(&mut self) -> Option<Choice> {
        // Go on with the shot being walked, so that it follows one route.
        let mut chosen = self
            .choices
            .last()
            .map(|c| c.shot as usize)
            .filter(|&d| self.front[d] != DONE);
        if chosen.is_none() {
            let mut best: Option<(usize, usize, u32, u64)> = None;
            for d in 0..self.shots.len() {
                if self.front[d] == DONE {
                    continue;
                }
                let viable = self.viable(d);
                let n = viable.count;
                let cheapest = viable.costs[..n].iter().copied().min().unwrap_or(INF);
                let tie = self.rng.next_u64();
                let better = best.is_none_or(|(_, bn, bc, bt)| {
                    n < bn || (n == bn && (cheapest > bc || (cheapest == bc && tie < bt)))
                });
                if better {
                    best = Some((d, n, cheapest, tie));
                }
            }
            chosen = best.map(|b| b.0);
        }
        let d = chosen?;
        let viable = self.viable(d);
        let n = viable.count;
        let scale = self.frames[self.top[d] as usize].scale;
        // Draw the order: the Gumbel trick gives weights exp(−cost / scale).
        let lo = viable.costs[..n].iter().copied().min().unwrap_or(0);
        let mut keys = [f64::INFINITY; 3];
        for (key, &cost) in keys.iter_mut().zip(&viable.costs[..n]) {
            let noise = if self.temperature > 0.0 {
                let u = self.rng.unit_f64().max(1e-300);
                self.temperature * -(-u.ln()).ln()
            } else {
                0.0
            };
            *key = f64::from(cost - lo) / scale - noise;
        }
        let mut order = [0usize, 1, 2];
        order[..n].sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
        let s = self.front[d] as usize;
        Some(Choice {
            shot: d as u32,
            mark: self.trail.len(),
            cell: (s / 4) as u32,
            values: order.map(|i| viable.values[i]),
            count: n as u8,
            next: 0,
        })
    }

    /// The route weight of value `v` in undecided cell `c` on `f`'s map.
    fn weight(&self, f: &Frame, c: usize, v: u8) -> u32 {
        if v == EMPTY {
            f.w_empty
        } else {
            let h = self.hot[c * 2 + usize::from(v == BACK)];
            (f.w_mirror >> h.min(HOT_SHIFT)).max(1)
        }
    }

    /// The weights of an undecided empty cell and mirror now, and the
    /// cost units per nat.
    fn weights_now(&self) -> (u32, u32, f64) {
        let left = self.p.k.saturating_sub(self.used) as f64;
        let rho = (left / self.free.max(1) as f64).clamp(1e-3, 0.99);
        let nat_empty = -(1.0 - rho).ln();
        let nat_mirror = -(rho / 2.0).ln();
        // An empty cell costs 4 units; a mirror in proportion, within 1 to
        // 1023 units.
        let scale = 4.0 / nat_empty;
        let w_mirror = (nat_mirror * scale).round().clamp(1.0, 1023.0) as u32;
        (4, w_mirror, scale)
    }

    /// Makes directed shot `d`'s turn map afresh, and its route map and
    /// route too when they are spoiled or `all`.
    fn remake(&mut self, d: usize, all: bool) {
        let mut f = self.pool.pop().unwrap_or_default();
        f.shot = d as u32;
        f.level = self.trail.len() as u32;
        f.prev = self.top[d];
        let target = self.shots[d].target;
        let old = self.top[d];
        if old != NONE && !all && !self.stale[d] {
            let old = &self.frames[old as usize];
            f.cost.clone_from(&old.cost);
            f.route.clone_from(&old.route);
            f.bits.clone_from(&old.bits);
            (f.w_empty, f.w_mirror, f.scale) = (old.w_empty, old.w_mirror, old.scale);
        } else {
            (f.w_empty, f.w_mirror, f.scale) = self.weights_now();
            let mut cost = std::mem::take(&mut f.cost);
            self.route_map(&mut cost, target, f.w_empty, f.w_mirror);
            f.cost = cost;
            self.route(d, &mut f);
        }
        let mut turns = std::mem::take(&mut f.turns);
        f.cap = self.turn_map(&mut turns, target);
        f.turns = turns;
        f.used_at = self.used as u32;
        f.loosened = 0;
        self.top[d] = self.frames.len() as u32;
        self.frames.push(f);
        self.stale[d] = false;
        self.update_hot(d / 2);
    }

    /// Works out again where pair `pair` could turn on a way with the
    /// fewest turns (from both its maps), and the counts.
    fn update_hot(&mut self, pair: usize) {
        let mut list = std::mem::take(&mut self.pair_hot[pair]);
        for &i in &list {
            self.hot[i as usize] = self.hot[i as usize].saturating_sub(1);
        }
        list.clear();
        let (d0, d1) = (2 * pair, 2 * pair + 1);
        if self.front[d0] != DONE
            && self.front[d1] != DONE
            && self.top[d0] != NONE
            && self.top[d1] != NONE
        {
            let fwd = &self.frames[self.top[d0] as usize].turns;
            let back = &self.frames[self.top[d1] as usize].turns;
            let (entry, target) = (self.shots[d0].entry, self.shots[d0].target);
            let t = fwd[self.front[d0] as usize];
            if t != INF16 && t > 0 {
                for c in 0..self.p.size.cells() {
                    if self.state[c] != UNDECIDED {
                        continue;
                    }
                    let opts = self.options(c);
                    for (o, v) in [(0u32, SLASH), (1, BACK)] {
                        if opts & bit(v) == 0 {
                            continue;
                        }
                        let hot = Dir::ALL.iter().any(|&h| {
                            let before = match self.p.step(c, h.reverse()) {
                                Ok(prev) => back[prev * 4 + h.reverse().index()],
                                Err(hole) if hole == entry => 0,
                                Err(_) => INF16,
                            };
                            let out = h.turn(mirror_of(v));
                            let after = match self.p.step(c, out) {
                                Ok(next) => fwd[next * 4 + out.index()],
                                Err(hole) if hole == target => 0,
                                Err(_) => INF16,
                            };
                            before != INF16
                                && after != INF16
                                && u32::from(before) + u32::from(after) + 1 == u32::from(t)
                        });
                        if hot {
                            list.push(c as u32 * 2 + o);
                        }
                    }
                }
            }
        }
        for &i in &list {
            self.hot[i as usize] = self.hot[i as usize].saturating_add(1);
        }
        self.pair_hot[pair] = list;
    }

    /// The turn map to leave by `target` (see the module's terms), and the
    /// mirrors left (past which the map does not look).
    fn turn_map(&mut self, dist: &mut Vec<u16>, target: usize) -> u16 {
        let p = self.p;
        let budget = p.k.saturating_sub(self.used).min(usize::from(INF16 - 1)) as u16;
        dist.clear();
        dist.resize(p.size.cells() * 4, INF16);
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        let relax = |dist: &mut Vec<u16>,
                     queue: &mut VecDeque<u32>,
                     opts: u8,
                     decided: bool,
                     cell: usize,
                     out: Dir,
                     d: u16| {
            for v in [EMPTY, SLASH, BACK] {
                if opts & bit(v) == 0 {
                    continue;
                }
                let cost = u16::from(!decided && v != EMPTY);
                let nd = d + cost;
                let e = cell * 4 + PREIMAGE[out.index()][usize::from(v)].index();
                if nd <= budget && nd < dist[e] {
                    dist[e] = nd;
                    if cost == 0 {
                        queue.push_front(e as u32);
                    } else {
                        queue.push_back(e as u32);
                    }
                }
            }
        };
        if let Some((c0, h0)) = p.size.entry(target) {
            let decided = self.state[c0] != UNDECIDED;
            relax(
                dist,
                &mut queue,
                self.options(c0),
                decided,
                c0,
                h0.reverse(),
                0,
            );
        }
        while let Some(st) = queue.pop_front() {
            let st = st as usize;
            self.steps += 1;
            let (cell, heading) = (st / 4, Dir::ALL[st % 4]);
            if let Ok(prev) = p.step(cell, heading.reverse()) {
                let decided = self.state[prev] != UNDECIDED;
                let opts = self.options(prev);
                relax(dist, &mut queue, opts, decided, prev, heading, dist[st]);
            }
        }
        self.queue = queue;
        budget
    }

    /// The route map to leave by `target` (Dial's shortest paths,
    /// backwards from the target).
    fn route_map(&mut self, dist: &mut Vec<u32>, target: usize, w_empty: u32, w_mirror: u32) {
        let p = self.p;
        dist.clear();
        dist.resize(p.size.cells() * 4, INF);
        let width = w_empty.max(w_mirror) as usize + 1;
        let mut buckets = std::mem::take(&mut self.buckets);
        if buckets.len() < width {
            buckets.resize_with(width, Vec::new);
        }
        for b in &mut buckets {
            b.clear();
        }
        let mut pending = 0usize;
        let hot = std::mem::take(&mut self.hot);
        let relax = |dist: &mut Vec<u32>,
                     buckets: &mut Vec<Vec<u32>>,
                     pending: &mut usize,
                     opts: u8,
                     decided: bool,
                     cell: usize,
                     out: Dir,
                     d: u32| {
            for v in [EMPTY, SLASH, BACK] {
                if opts & bit(v) == 0 {
                    continue;
                }
                let w = match (decided, v) {
                    (true, _) => 0,
                    (false, EMPTY) => w_empty,
                    (false, m) => {
                        let h = hot[cell * 2 + usize::from(m == BACK)];
                        (w_mirror >> h.min(HOT_SHIFT)).max(1)
                    }
                };
                let nd = d + w;
                let e = cell * 4 + PREIMAGE[out.index()][usize::from(v)].index();
                if nd < dist[e] {
                    dist[e] = nd;
                    buckets[nd as usize % width].push(e as u32);
                    *pending += 1;
                }
            }
        };
        if let Some((c0, h0)) = p.size.entry(target) {
            let decided = self.state[c0] != UNDECIDED;
            let opts = self.options(c0);
            relax(
                dist,
                &mut buckets,
                &mut pending,
                opts,
                decided,
                c0,
                h0.reverse(),
                0,
            );
        }
        let mut at = 0u32;
        while pending > 0 {
            let slot = at as usize % width;
            while let Some(st) = buckets[slot].pop() {
                pending -= 1;
                let st = st as usize;
                if dist[st] != at {
                    continue;
                }
                self.steps += 1;
                let (cell, heading) = (st / 4, Dir::ALL[st % 4]);
                if let Ok(prev) = p.step(cell, heading.reverse()) {
                    let decided = self.state[prev] != UNDECIDED;
                    let opts = self.options(prev);
                    relax(
                        dist,
                        &mut buckets,
                        &mut pending,
                        opts,
                        decided,
                        prev,
                        heading,
                        at,
                    );
                }
            }
            at += 1;
        }
        self.buckets = buckets;
        self.hot = hot;
    }

    /// The cheapest route on `f`'s route map from `d`'s front.
    fn route(&self, d: usize, f: &mut Frame) {
        f.route.clear();
        f.bits.clear();
        f.bits.resize(self.p.size.cells().div_ceil(64), 0);
        let target = self.shots[d].target;
        let mut s = self.front[d] as usize;
        if f.cost[s] == INF {
            return;
        }
        for _ in 0..4 * self.p.size.cells() + 4 {
            let (c, h) = (s / 4, Dir::ALL[s % 4]);
            let decided = self.state[c] != UNDECIDED;
            let opts = self.options(c);
            let mut next = None;
            for v in [EMPTY, SLASH, BACK] {
                if opts & bit(v) == 0 {
                    continue;
                }
                let w = if decided { 0 } else { self.weight(f, c, v) };
                let out = h.turn(mirror_of(v));
                let rest = match self.p.step(c, out) {
                    Err(hole) if hole == target => 0,
                    Err(_) => INF,
                    Ok(nx) => f.cost[nx * 4 + out.index()],
                };
                if rest != INF && rest + w == f.cost[s] {
                    next = Some((v, out));
                    break;
                }
            }
            let Some((v, out)) = next else {
                return;
            };
            if !decided {
                f.route.push((c as u32, v));
                f.bits[c / 64] |= 1 << (c % 64);
            }
            match self.p.step(c, out) {
                Ok(nx) => s = nx * 4 + out.index(),
                Err(_) => return,
            }
        }
    }

    /// The current state with its free cells given the mirrors left,
    /// uniformly at random.
    fn complete(&mut self) -> Vec<u8> {
        let (mut a, mut b) = (0, 0);
        for (i, &v) in self.state.iter().enumerate() {
            if v == UNDECIDED {
                if self.p.dom[i] == ALL {
                    a += 1;
                } else {
                    b += 1;
                }
            }
        }
        let leaf = Leaf {
            free_a: a,
            free_b: b,
            r: self.p.k - self.used,
            state: &self.state,
            trail: &[],
            decided: &[],
            open_exit: None,
        };
        super::complete(&leaf, &self.p.dom, &mut self.weights, &mut self.rng)
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, … (`i` from 0).
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i + 1;
    loop {
        // The smallest k with 2^k − 1 ≥ i.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_luby_sequence() {
        let got: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
