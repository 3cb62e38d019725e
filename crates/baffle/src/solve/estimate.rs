//! Estimating from a sample of consistent layouts, when counting them all
//! would take too long.
//!
//! Terms:
//! - **chain**: a Markov chain over the consistent layouts (exactly `k`
//!   mirrors, every shot seen traced as it came out, every found mirror in
//!   place, no wrongly guessed mirror). Its stationary distribution is the
//!   uniform one over those layouts, the distribution a player's
//!   uncertainty follows when the box was filled at random.
//! - **start**: the chains start at layouts found by a short
//!   propagating search with restarts ([`super::find`], which also proves
//!   when no layout fits), then the repair search ([`super::repair`]), a
//!   start a chain while they come cheap, then the propagating search again
//!   with the steps left when nothing was found; a chain still without one
//!   starts at the first leaf of a guided search
//!   ([`super::search::Engine::guided`]), its free cells filled at random
//!   (every chain, when those searches are turned off:
//!   [`EstimateOptions::find_steps`] 0), else where another chain starts.
//!   Starts found apart make the chains' spread, and so the stated error,
//!   more honest (docs/performance.md, the bias bench).
//! - **proposal**: a change to the layout, kept only when every shot whose
//!   beam crosses a changed cell still comes out where it did (Metropolis
//!   with symmetric proposals, so the uniform distribution is kept):
//!   **flip** a mirror; **move** a mirror to an empty cell, either way
//!   round; **slide** a mirror and another of its row (column) to another
//!   row (column) together, which a beam that turns twice between them
//!   needs (accepted with the Metropolis-Hastings ratio of the partners a
//!   mirror has in the line before and after);
//!   **slide and move**: one mirror along its row or column, another to any
//!   empty cell (a beam that turns earlier needs a mirror where it now
//!   turns again). Found mirrors never move. The other proposals are as
//!   likely as their reverses, so accepting every consistent one keeps the
//!   uniform distribution.
//! - **burn-in**: proposals made before the first sample; **thinning**:
//!   proposals between samples.
//! - **standard error** of an estimated share: from the spread of the
//!   chains' own estimates (their means, one per independent chain).
//!   **Effective samples**: the number of independent uniform samples that
//!   would give the same error, `p(1 − p) / se²`.

use super::find::{Finder, Outcome};
use super::repair::Repair;
use super::search::{Aborted, BACK, EMPTY, Engine, Leaf, Problem, SLASH, Shot, Visitor, bit};
use super::{Weights, complete};
use serde::{Deserialize, Serialize};
use tabletop::{Budget, Rng};

/// How much sampling to do (the defaults answer within a fraction of a
/// second on the largest box).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EstimateOptions {
    /// Independent chains (at least 2, for the standard error).
    pub chains: usize,
    /// Samples kept per chain.
    pub samples_per_chain: usize,
    /// Proposals between samples, per movable mirror.
    pub thin_per_mirror: usize,
    /// Proposals before the first sample, per movable mirror.
    pub burn_in_per_mirror: usize,
    /// Cell steps the guided search may take to find each chain's start.
    pub start_steps: u64,
    /// Cell steps the propagating search ([`super::find`]) and the repair
    /// search ([`super::repair`]) may take, in all, for the starts the
    /// guided searches did not find (0: neither runs).
    #[serde(default = "default_find_steps")]
    pub find_steps: u64,
    /// Cell steps the chains may take, in all (a proposal counts one, and
    /// one more for each cell of the beams it traces again): past a third
    /// of its share in the burn-in, a chain stops burning in, and it makes
    /// fewer proposals between samples than asked when its share would not
    /// cover them. The effective samples and the standard error of the
    /// answer ([`super::Method::Estimated`]) say what the sample is worth.
    #[serde(default = "default_chain_steps")]
    pub chain_steps: u64,
    /// Once one chain has a start, the repair search looks for a start for
    /// each further chain while the starts have taken less than one part
    /// in this many of [`Self::find_steps`] (each within what is left of
    /// that part). Starts found apart let the chains disagree where the
    /// layouts do; a chain without its own start begins where the first
    /// does, and then the chains agree on everything that one start holds.
    #[serde(default = "default_starts_share")]
    pub starts_share: u64,
}

const fn default_starts_share() -> u64 {
    4
}

const fn default_find_steps() -> u64 {
    20_000_000
}

const fn default_chain_steps() -> u64 {
    4_000_000
}

impl Default for EstimateOptions {
    fn default() -> Self {
        Self {
            chains: 8,
            samples_per_chain: 200,
            thin_per_mirror: 3,
            burn_in_per_mirror: 100,
            start_steps: 300_000,
            find_steps: default_find_steps(),
            chain_steps: default_chain_steps(),
            starts_share: default_starts_share(),
        }
    }
}

/// The sampled layouts, one list per chain (each layout a cell value per
/// cell: [`EMPTY`], [`SLASH`] or [`BACK`]).
pub struct Sample {
    /// Layouts by chain.
    pub chains: Vec<Vec<Vec<u8>>>,
    /// Cell steps taken by the start searches and the chains.
    pub steps: u64,
}

/// Stops at the first leaf and fills it at random.
struct First<'w> {
    weights: &'w mut Weights,
    dom: &'w [u8],
    rng: Rng,
    found: Option<Vec<u8>>,
}

impl Visitor for First<'_> {
    fn leaf(&mut self, leaf: &Leaf<'_>) {
        if self.found.is_none() {
            self.found = Some(complete(leaf, self.dom, self.weights, &mut self.rng));
        }
    }

    fn stop(&self) -> bool {
        self.found.is_some()
    }
}

/// Why no sample was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoSample {
    /// No layout fits the evidence (proven by the propagating search).
    Impossible,
    /// No start found within the effort allowed, or the budget ran out.
    GaveUp,
}

impl From<Aborted> for NoSample {
    fn from(_: Aborted) -> Self {
        Self::GaveUp
    }
}

/// Samples consistent layouts with `options.chains` chains seeded from
/// `seed`.
///
/// # Errors
/// [`NoSample::Impossible`] when no layout fits; [`NoSample::GaveUp`]
/// when none of the guided, propagating and repair searches finds a start
/// within their effort, or when `budget` runs out.
pub fn sample(
    p: &Problem,
    pairs: &[(usize, usize)],
    options: &EstimateOptions,
    seed: u64,
    budget: &Budget,
) -> Result<Sample, NoSample> {
    let shots: Vec<Shot> = pairs
        .iter()
        .map(|&(entry, exit)| Shot {
            entry,
            target: Some(exit),
        })
        .collect();
    let mut weights = Weights::default();
    let mut steps = 0;
    let chains = options.chains.max(2);
    let mut starts: Vec<Option<Vec<u8>>> = vec![None; chains];
    if options.find_steps > 0 {
        steps += find_starts(p, pairs, options, seed, budget, &mut starts)?;
    }
    // Guided searches for the chains still without a start; after the
    // searches above, the first finding nothing, the others would most
    // likely not either.
    for (c, start) in starts.iter_mut().enumerate() {
        if start.is_some() {
            continue;
        }
        let first = First {
            weights: &mut weights,
            dom: &p.dom,
            rng: Rng::stream(seed, 100 + c as u64),
            found: None,
        };
        let mut engine = Engine::new(p, shots.clone(), first, options.start_steps)
            .guided(Rng::stream(seed, 200 + c as u64))
            .within(budget);
        // A stop at the first leaf ends the run with `Aborted` too.
        let _ = engine.run();
        steps += engine.steps();
        let found = engine.into_visitor().found;
        let none = found.is_none();
        *start = found;
        if none && options.find_steps > 0 {
            break;
        }
    }
    // A chain whose search found nothing starts where another did.
    let fallback = starts
        .iter()
        .flatten()
        .next()
        .cloned()
        .ok_or(NoSample::GaveUp)?;
    let mut out = Vec::with_capacity(chains);
    for (c, start) in starts.into_iter().enumerate() {
        let mut chain = Chain::new(
            p,
            pairs,
            start.unwrap_or_else(|| fallback.clone()),
            Rng::stream(seed, 300 + c as u64),
        );
        let movable = chain.mirrors.len().max(1);
        // The chain's share of the steps: a third at most for the burn-in,
        // the rest shared by the samples (fewer proposals between samples
        // than asked when they cost more).
        let share = options.chain_steps / chains as u64;
        let burn_in = options.burn_in_per_mirror * movable;
        let made = chain.run(burn_in, share / 3, budget)?;
        let cost = (chain.steps / made.max(1) as u64).max(1);
        let samples = options.samples_per_chain.max(1) as u64;
        let affordable = (share.saturating_sub(chain.steps) / samples / cost).max(1);
        let thin = (options.thin_per_mirror.max(1) * movable).min(affordable as usize);
        let mut kept = Vec::with_capacity(options.samples_per_chain);
        for _ in 0..options.samples_per_chain {
            chain.run(thin, u64::MAX, budget)?;
            kept.push(chain.state.clone());
        }
        steps += chain.steps;
        out.push(kept);
    }
    Ok(Sample { chains: out, steps })
}

/// The chains' starts, within `options.find_steps` cell steps: first a
/// short propagating search (it proves quickly when no layout fits, and
/// finds one when few do), then the repair search ([`super::repair`]) for
/// a start per chain while they come cheap (the first with every step
/// left, the others within [`EstimateOptions::starts_share`]), then the
/// propagating search again with the steps left. Returns the steps taken.
fn find_starts(
    p: &Problem,
    pairs: &[(usize, usize)],
    options: &EstimateOptions,
    seed: u64,
    budget: &Budget,
    starts: &mut [Option<Vec<u8>>],
) -> Result<u64, NoSample> {
    let find_steps = options.find_steps;
    let share = find_steps / options.starts_share.max(1);
    if find_steps == 0 || starts.is_empty() {
        return Ok(0);
    }
    let mut finder = Finder::new(p, pairs, Rng::stream(seed, 400));
    match finder.find(find_steps / FIRST_PROOF, budget) {
        Outcome::Found(state) => starts[0] = Some(state),
        Outcome::Impossible => return Err(NoSample::Impossible),
        Outcome::GaveUp => {}
    }
    let mut steps = finder.steps();
    let mut one = starts.iter().any(Option::is_some);
    let mut repair = Repair::new(p, pairs, Rng::stream(seed, 500));
    for start in starts.iter_mut().filter(|s| s.is_none()) {
        // The first start may take every step left; once there is one, a
        // further start only what is left of the starts' share: a hard one
        // would cost as much as a whole search again, for a start the
        // chains can do without.
        let left = if one {
            share.saturating_sub(steps)
        } else {
            find_steps.saturating_sub(steps)
        };
        let before = repair.steps();
        let found = repair.find(left, budget);
        steps += repair.steps() - before;
        match found {
            Some(state) => *start = Some(state),
            None => break,
        }
        one = true;
        // One start is enough to go on; more only while cheap.
        if steps > share {
            break;
        }
    }
    if starts.iter().all(Option::is_none) {
        let left = find_steps.saturating_sub(steps);
        let before = finder.steps();
        let outcome = finder.find(left, budget);
        steps += finder.steps() - before;
        match outcome {
            Outcome::Found(state) => starts[0] = Some(state),
            Outcome::Impossible => return Err(NoSample::Impossible),
            Outcome::GaveUp => {}
        }
    }
    budget.check().map_err(|_| NoSample::GaveUp)?;
    Ok(steps)
}

/// The share of the find steps the first propagating search may take
/// (one part in this many).
const FIRST_PROOF: u64 = 40;

/// One chain: a consistent layout and the beams of the shots seen.
struct Chain<'p> {
    p: &'p Problem,
    n: usize,
    state: Vec<u8>,
    /// Cells holding a mirror that may move (not found), and cells that
    /// are empty and may take one; `slot[c]` is a cell's place in its list.
    mirrors: Vec<usize>,
    empties: Vec<usize>,
    slot: Vec<usize>,
    /// The shots seen (entry, exit) and the cells each beam crosses (a bit
    /// set of `words` words per shot, one after another).
    pairs: Vec<(usize, usize)>,
    words: usize,
    paths: Vec<u64>,
    /// Scratch space: the shots a proposal touches and their new beams.
    affected: Vec<usize>,
    scratch: Vec<u64>,
    rng: Rng,
    steps: u64,
}

impl<'p> Chain<'p> {
    fn new(p: &'p Problem, pairs: &[(usize, usize)], state: Vec<u8>, rng: Rng) -> Self {
        let cells = p.size.cells();
        let mut chain = Self {
            p,
            n: p.size.n(),
            mirrors: Vec::new(),
            empties: Vec::new(),
            slot: vec![usize::MAX; cells],
            pairs: pairs.to_vec(),
            words: cells.div_ceil(64),
            paths: vec![0; cells.div_ceil(64) * pairs.len()],
            affected: Vec::new(),
            scratch: Vec::new(),
            state,
            rng,
            steps: 0,
        };
        for c in 0..cells {
            if p.pre[c] != super::search::UNDECIDED {
                continue;
            }
            if chain.state[c] == EMPTY {
                chain.slot[c] = chain.empties.len();
                chain.empties.push(c);
            } else {
                chain.slot[c] = chain.mirrors.len();
                chain.mirrors.push(c);
            }
        }
        let mut paths = std::mem::take(&mut chain.paths);
        for (s, path) in paths.chunks_mut(chain.words).enumerate() {
            chain.trace(chain.pairs[s].0, path);
        }
        chain.paths = paths;
        chain
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
            dir = dir.turn(super::search::mirror_of(self.state[idx]));
            match self.p.step(idx, dir) {
                Ok(next) => idx = next,
                Err(exit) => return exit,
            }
        }
    }

    /// Makes `count` proposals, or fewer when the chain's steps pass
    /// `steps` (each proposal counts one step besides the beams it
    /// traces), checking `budget` every thousand or so; returns how many
    /// it made.
    fn run(&mut self, count: usize, steps: u64, budget: &Budget) -> Result<usize, Aborted> {
        if self.mirrors.is_empty() {
            return Ok(0);
        }
        for i in 0..count {
            if i % 1024 == 1023 {
                budget.check().map_err(|_| Aborted)?;
            }
            if self.steps > steps {
                return Ok(i);
            }
            self.steps += 1;
            self.propose();
        }
        Ok(count)
    }

    fn propose(&mut self) {
        let k = self.mirrors.len();
        let i = self.rng.below(k as u64) as usize;
        let from = self.mirrors[i];
        let kind = self.rng.below(5);
        let mut changes: [(usize, u8); 4] = [(usize::MAX, 0); 4];
        let n = self.n;
        match kind {
            0 => {
                let code = if self.state[from] == SLASH {
                    BACK
                } else {
                    SLASH
                };
                changes[0] = (from, code);
            }
            1 | 2 => {
                if self.empties.is_empty() {
                    return;
                }
                let to = self.empties[self.rng.below(self.empties.len() as u64) as usize];
                let code = if self.rng.below(2) == 0 { SLASH } else { BACK };
                changes[0] = (from, EMPTY);
                changes[1] = (to, code);
            }
            3 => {
                // Slide: the mirror and another in its row (column), both to
                // another row (column). The partner is drawn among the
                // mirrors of that line, so the move is accepted with the
                // ratio of the partners there before and after
                // (Metropolis-Hastings).
                let (r1, c1) = (from / n, from % n);
                let by_row = self.rng.below(2) == 0;
                let line = |t: usize| if by_row { r1 * n + t } else { t * n + c1 };
                let partners: Vec<usize> = (0..n)
                    .map(line)
                    .filter(|&c| c != from && self.movable(c))
                    .collect();
                if partners.is_empty() {
                    return;
                }
                let other = partners[self.rng.below(partners.len() as u64) as usize];
                let shift = self.rng.below(n as u64 - 1) as usize + 1;
                let (r2, c2) = (other / n, other % n);
                let (to1, to2, there) = if by_row {
                    let r = (r1 + shift) % n;
                    let there = (0..n).filter(|&t| self.movable(r * n + t)).count();
                    (r * n + c1, r * n + c2, there)
                } else {
                    let c = (c1 + shift) % n;
                    let there = (0..n).filter(|&t| self.movable(t * n + c)).count();
                    (r1 * n + c, r2 * n + c, there)
                };
                let ratio = partners.len() as f64 / (there + 1) as f64;
                if ratio < 1.0 && self.rng.unit_f64() >= ratio {
                    return;
                }
                changes[0] = (from, EMPTY);
                changes[1] = (other, EMPTY);
                changes[2] = (to1, self.state[from]);
                changes[3] = (to2, self.state[other]);
            }
            _ => {
                // Slide one along its row or column, and move another
                // anywhere: a beam turning elsewhere needs both.
                if k < 2 || self.empties.is_empty() {
                    return;
                }
                let mut j = self.rng.below(k as u64 - 1) as usize;
                if j >= i {
                    j += 1;
                }
                let other = self.mirrors[j];
                let (r1, c1) = (from / n, from % n);
                let step = self.rng.below(2 * (n as u64 - 1)) as usize;
                let to1 = if step < n - 1 {
                    r1 * n + (c1 + 1 + step) % n
                } else {
                    ((r1 + 1 + step - (n - 1)) % n) * n + c1
                };
                let to2 = self.empties[self.rng.below(self.empties.len() as u64) as usize];
                let code = if self.rng.below(2) == 0 { SLASH } else { BACK };
                if to1 == to2 {
                    return;
                }
                changes[0] = (from, EMPTY);
                changes[1] = (other, EMPTY);
                changes[2] = (to1, self.state[from]);
                changes[3] = (to2, code);
            }
        }
        // A mirror may go only where the evidence allows it: into a cell
        // that is free (never a found one), empty (unless it is the flipped
        // mirror itself), and not ruled out by a wrong guess.
        for &(c, code) in changes.iter().filter(|ch| ch.0 != usize::MAX) {
            if code == EMPTY {
                continue;
            }
            let free = self.p.pre[c] == super::search::UNDECIDED;
            let room = kind == 0 || self.state[c] == EMPTY;
            if !free || !room || self.p.dom[c] & bit(code) == 0 {
                return;
            }
        }
        let mut old = [(usize::MAX, 0u8); 4];
        let mut changed = 0;
        for &(c, code) in changes.iter().filter(|ch| ch.0 != usize::MAX) {
            old[changed] = (c, self.state[c]);
            changed += 1;
            self.state[c] = code;
        }
        let old = &old[..changed];
        let words = self.words;
        self.affected.clear();
        for (s, path) in self.paths.chunks(words).enumerate() {
            if old
                .iter()
                .any(|&(c, _)| path[c / 64] & (1 << (c % 64)) != 0)
            {
                self.affected.push(s);
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.resize(self.affected.len() * words, 0);
        let mut ok = true;
        for j in 0..self.affected.len() {
            let (entry, exit) = self.pairs[self.affected[j]];
            if self.trace(entry, &mut scratch[j * words..(j + 1) * words]) != exit {
                ok = false;
                break;
            }
        }
        if ok {
            for (j, &s) in self.affected.iter().enumerate() {
                self.paths[s * words..(s + 1) * words]
                    .copy_from_slice(&scratch[j * words..(j + 1) * words]);
            }
        }
        self.scratch = scratch;
        if !ok {
            for &(c, v) in old.iter().rev() {
                self.state[c] = v;
            }
            return;
        }
        // Keep the lists of mirrors and empty cells in step.
        for &(c, was) in old {
            let now = self.state[c];
            if (was == EMPTY) != (now == EMPTY) {
                self.relist(c, now != EMPTY);
            }
        }
    }

    /// Whether cell `c` holds a mirror that may move (not a found one).
    fn movable(&self, c: usize) -> bool {
        self.state[c] != EMPTY && self.p.pre[c] == super::search::UNDECIDED
    }

    /// Moves free cell `c` to the list of mirrors (or of empty cells).
    fn relist(&mut self, c: usize, mirror: bool) {
        let (from, to) = if mirror {
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
}

/// The share of samples in which each cell holds each value, with the
/// standard error of its mirror chance: `(shares[cell] = [empty, /, \\],
/// se[cell], effective)`, `effective` the median effective sample size of
/// the cells whose mirror chance is neither 0 nor 1 (all the samples when
/// there is none).
#[allow(clippy::needless_range_loop)] // chains and cells index the same table
pub fn cell_shares(sample: &Sample, cells: usize) -> (Vec<[f64; 3]>, Vec<f64>, f64) {
    let chains = sample.chains.len();
    let total: usize = sample.chains.iter().map(Vec::len).sum();
    let mut means = vec![vec![[0.0f64; 3]; cells]; chains];
    for (c, layouts) in sample.chains.iter().enumerate() {
        let per = 1.0 / layouts.len().max(1) as f64;
        for layout in layouts {
            for (m, &v) in means[c].iter_mut().zip(layout) {
                m[usize::from(v.saturating_sub(EMPTY)).min(2)] += per;
            }
        }
    }
    let mut shares = vec![[0.0f64; 3]; cells];
    let mut se = vec![0.0f64; cells];
    let mut effective = Vec::new();
    for cell in 0..cells {
        let mirror_of = |c: usize| means[c][cell][1] + means[c][cell][2];
        let mut mean = 0.0;
        for c in 0..chains {
            for v in 0..3 {
                shares[cell][v] += means[c][cell][v] / chains as f64;
            }
            mean += mirror_of(c) / chains as f64;
        }
        let var: f64 = (0..chains)
            .map(|c| (mirror_of(c) - mean).powi(2))
            .sum::<f64>()
            / (chains.max(2) - 1) as f64;
        se[cell] = (var / chains as f64).sqrt();
        let pq = mean * (1.0 - mean);
        if pq > 1e-12 {
            let e = if se[cell] > 0.0 {
                pq / (se[cell] * se[cell])
            } else {
                f64::INFINITY
            };
            effective.push(e.min(total as f64));
        }
    }
    effective.sort_by(f64::total_cmp);
    let median = effective
        .get(effective.len() / 2)
        .copied()
        .unwrap_or(total as f64);
    (shares, se, median)
}
