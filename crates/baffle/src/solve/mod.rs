//! The solver: what the shots so far prove.
//!
//! Terms:
//! - **evidence** ([`Evidence`]): box size, mirror count `k`, sides, the
//!   shots seen (entry and exit), the mirrors found, and the wrong guesses.
//!   [`crate::View::evidence`] gives it for a game.
//! - **consistent layout**: exactly `k` mirrors, agreeing with every shot
//!   and guess. The solver counts them exactly ([`Solution::layouts`]).
//! - **certain**: true in every consistent layout: a cell that certainly
//!   holds a given mirror, or is certainly empty.
//! - **unreachable**: a cell that no beam from an allowed hole crosses, in
//!   any consistent layout: no shot can ever tell what it holds. Found
//!   mirrors and cells ruled out by guesses are not listed.
//! - **expected layouts** of a candidate shot: if it came out at `e` in
//!   `c_e` of the `N` consistent layouts, `Σ c_e² / N` layouts would be left
//!   on average. The best next shot leaves the fewest.
//! - **method** ([`Method`]): **exact** (every consistent layout weighed)
//!   while the count finishes within [`SolveOptions::step_limit`] and
//!   there are at most [`SolveOptions::exact_limit`] layouts; **sampled**
//!   (counted exactly, the next-shot advice and the unreachable cells from
//!   a uniform sample) above that limit; **estimated** ([`estimate`]) when
//!   the count would pass its step limit: every share from a Markov chain
//!   sample of consistent layouts, with its standard error, and no count.
//!   Then a cell is certain only when proven by a SAT solver ([`proof`]),
//!   within its budget; a cell every sample agrees on is not certain by
//!   that alone.
//! - **advice** ([`Advice`]): what to do next, in one value, worded once.
//! - **budget** ([`tabletop::Budget`]): [`solve_within`] stops with
//!   [`SolveError::Stopped`] when it runs out or the question is withdrawn;
//!   [`solve`] never does (its step limits still bound it).
//!
//! How: see [`search`]: backtracking along the beams, deciding only cells
//! a beam crosses, with the cells no beam decided filled in combinatorially
//! ([`count`]). The shots' holes pair up (a beam from `h` leaving at `e`
//! means a beam from `e` leaves at `h`), so each pair is walked once.

pub mod advice;
pub mod calibrate;
pub mod count;
pub mod estimate;
pub mod find;
pub mod proof;
pub mod repair;
pub mod search;

pub use advice::Advice;
pub use estimate::EstimateOptions;
pub use proof::ProofOptions;

use crate::geometry::{Cell, GeometryError, Sides, Size};
use crate::layout::{LayoutError, Mirror, Placed, check_mirror_count};
use count::Weights;
pub use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use search::{
    ALL, Aborted, BACK, EMPTY, Engine, Leaf, Problem, SLASH, Shot, UNDECIDED, Visitor, bit,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tabletop::{Budget, Rng, Stopped};

/// What a player knows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// Box size `n`.
    pub size: usize,
    /// Mirrors hidden, `k`.
    pub mirrors: usize,
    /// The sides beams may enter by.
    #[serde(default)]
    pub sides: Sides,
    /// Shots seen: (entry hole, exit hole).
    #[serde(default)]
    pub shots: Vec<(usize, usize)>,
    /// Mirrors found.
    #[serde(default)]
    pub found: Vec<Placed>,
    /// Wrong guesses: the cell does not hold that mirror.
    #[serde(default)]
    pub not: Vec<Placed>,
}

impl Evidence {
    /// The mirrors not found yet: what the calibration map's group counts
    /// ([`calibrate::group_of`]).
    pub fn mirrors_to_find(&self) -> usize {
        self.mirrors.saturating_sub(self.found.len())
    }
}

/// How hard to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// The next-shot advice and the unreachable cells are exact while the
    /// consistent layouts number at most this.
    pub exact_limit: u64,
    /// Layouts sampled above that.
    pub samples: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// Cell steps the counting search may take; past them, every answer is
    /// estimated by sampling ([`estimate`]).
    pub step_limit: u64,
    /// Cell steps the exact next-shot advice may take once the count has
    /// finished (it weighs each candidate shot's exits over every layout);
    /// past them, the advice is sampled.
    #[serde(default = "default_advice_steps")]
    pub advice_steps: u64,
    /// Whether to advise a next shot (and find unreachable cells).
    pub advice: bool,
    /// How much to sample when estimating.
    #[serde(default)]
    pub estimate: EstimateOptions,
    /// How much the SAT solver may work, when estimating, to prove the
    /// cells the sample agrees on ([`proof`]).
    #[serde(default)]
    pub proof: ProofOptions,
    /// Whether estimated chances are passed through the measured
    /// calibration map ([`calibrate`]) before they are stated (on by
    /// default; off gives the sampled shares themselves, as the
    /// calibration and bias benches need to measure them).
    #[serde(default = "yes")]
    pub calibrate: bool,
}

const fn yes() -> bool {
    true
}

/// The exact advice's steps: the original assignment's fixed game after
/// three shots (533,685 layouts) is advised exactly.
const fn default_advice_steps() -> u64 {
    8_000_000
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self {
            exact_limit: 10_000_000,
            samples: 4000,
            seed: 0,
            // About 40 ms of counting on this project's 2-core machine
            // (more when loaded): a count that needs more is estimated, so
            // that a hint or a bot's move answers within 0.5 s on every box
            // (docs/performance.md; 10⁷ steps cost up to 200 ms for the
            // few counts, 4 of 278 random cases, that finished only past
            // 2·10⁶). `parlor baffle solve --count-steps` asks for more.
            step_limit: 2_000_000,
            advice_steps: default_advice_steps(),
            advice: true,
            estimate: EstimateOptions::default(),
            proof: ProofOptions::default(),
            calibrate: true,
        }
    }
}

/// Why the solver cannot answer. Contradictory evidence is not an error:
/// it has 0 consistent layouts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Bad size or mirror count.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// A hole or cell that the box does not have.
    #[error("shot {entry}:{exit}: {error}")]
    Shot {
        /// Entry given.
        entry: usize,
        /// Exit given.
        exit: usize,
        /// What is wrong.
        error: GeometryError,
    },
    /// A shot from a side the game does not shoot from.
    #[error(
        "shot {entry}:{exit}: hole {entry} is on the {side} side, but beams enter only from the left and top (holes 0 to {last})"
    )]
    Side {
        /// Entry given.
        entry: usize,
        /// Exit given.
        exit: usize,
        /// The entry's side.
        side: crate::geometry::Side,
        /// The last hole one may shoot into.
        last: usize,
    },
    /// A guessed cell outside the box.
    #[error("guess {placed}: {error}")]
    Guess {
        /// The guess.
        placed: Placed,
        /// What is wrong.
        error: GeometryError,
    },
    /// The search would take too long, and no layout to sample from was
    /// found within the estimator's budget either.
    #[error(
        "too many cases to search ({steps} steps), and no consistent layout found to sample from: take more shots, or use a smaller box or fewer mirrors"
    )]
    TooHard {
        /// Steps taken before stopping.
        steps: u64,
    },
    /// The budget ran out, or the question was withdrawn, before the
    /// answer was ready.
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// No layout fits the evidence ([`Solution::consistent`]; [`solve`]
    /// itself answers 0 layouts and says why in
    /// [`Solution::contradiction`]).
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
}

/// What contradicts what, when no layout fits the evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Contradiction {
    /// A shot said to leave by the hole it entered (a beam never turns
    /// back).
    #[error("shot {hole}:{hole}: a beam never leaves by the hole it entered")]
    SameHole {
        /// The hole.
        hole: usize,
    },
    /// Two shots that give one hole different other ends: a beam from a
    /// hole leaves by one hole only, and a beam shot back in there comes
    /// back out of the first.
    #[error(
        "shots {}:{} and {}:{} cannot both hold: they give hole {hole} two different other ends, but a beam from a hole leaves by one hole only, and a beam shot back in there comes back the same way",
        first.0, first.1, second.0, second.1
    )]
    TwoShots {
        /// The hole both name.
        hole: usize,
        /// The earlier shot (entry, exit), as given.
        first: (usize, usize),
        /// The later, as given.
        second: (usize, usize),
    },
    /// A cell whose found mirror a wrong guess rules out, or that holds
    /// two different found mirrors.
    #[error("cell {cell}: the mirrors found and the wrong guesses there leave it nothing")]
    Cell {
        /// The cell.
        cell: Cell,
    },
    /// More mirrors found than the box holds.
    #[error("{found} mirrors found, but the box holds {mirrors}")]
    TooManyFound {
        /// Mirrors found.
        found: usize,
        /// Mirrors in the box.
        mirrors: usize,
    },
    /// Shots that no layout sends out where they came out (with the
    /// mirrors found and the wrong guesses, if any): remove any one of them
    /// and the rest can hold, unless `minimal` is false (then the search
    /// for a smaller set ran out of time).
    #[error(
        "no box of {mirrors} {} sends {} out where {}{}",
        if *mirrors == 1 { "mirror" } else { "mirrors" },
        shot_list(shots),
        if shots.len() == 1 { "it came out" } else { "they came out: they cannot all hold" },
        if *with_found { " together with the mirrors found and the wrong guesses" } else { "" }
    )]
    Shots {
        /// The box's mirrors.
        mirrors: usize,
        /// The shots (entry, exit).
        shots: Vec<(usize, usize)>,
        /// Whether the mirrors found or the wrong guesses take part.
        with_found: bool,
        /// Whether every shot listed is needed for the contradiction.
        minimal: bool,
    },
}

/// "shot 1:5" or "shots 1:5, 7:3 and 2:9".
fn shot_list(shots: &[(usize, usize)]) -> String {
    let items: Vec<String> = shots.iter().map(|(a, b)| format!("{a}:{b}")).collect();
    match items.split_last() {
        None => "no shot".to_string(),
        Some((last, [])) => format!("shot {last}"),
        Some((last, rest)) => format!("shots {} and {last}", rest.join(", ")),
    }
}

/// How the answer was worked out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Method {
    /// Every consistent layout weighed.
    Exact,
    /// Layouts counted exactly; the next-shot advice and the unreachable
    /// cells estimated from a uniform sample of them.
    Sampled {
        /// Layouts in the sample.
        samples: usize,
    },
    /// Too many cases to count: every share estimated from layouts sampled
    /// by Markov chains ([`estimate`]); no count.
    Estimated {
        /// Independent chains.
        chains: usize,
        /// Layouts sampled, all chains together.
        samples: usize,
        /// The median effective sample size of the cells' mirror chances
        /// (of the cells neither always nor never holding a mirror).
        effective_samples: f64,
        /// The largest standard error of any cell's sampled share of a
        /// mirror.
        std_error: f64,
        /// Whether the cells' chances not proven are the sampled shares
        /// passed through the measured calibration map ([`calibrate`]).
        #[serde(default)]
        calibrated: bool,
    },
}

impl Method {
    /// Whether the counts, the cells' odds and the certain cells are exact
    /// (exact or sampled advice).
    pub const fn counted(&self) -> bool {
        !matches!(self, Self::Estimated { .. })
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Exact => write!(f, "exact"),
            Self::Sampled { samples } => write!(
                f,
                "counted exactly; the advice estimated from {}",
                tabletop::count(*samples as u64, "sampled layout", "sampled layouts")
            ),
            Self::Estimated {
                chains,
                samples,
                effective_samples,
                std_error,
                calibrated,
            } => write!(
                f,
                "estimated from {} ({chains} chains, about {:.0} effective; standard error at most {:.1} points{})",
                tabletop::count(*samples as u64, "sampled layout", "sampled layouts"),
                effective_samples,
                100.0 * std_error,
                if *calibrated {
                    "; chances calibrated against measured outcomes"
                } else {
                    ""
                }
            ),
        }
    }
}

/// One possible exit of a candidate shot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExitOdds {
    /// The exit hole.
    pub exit: usize,
    /// The share of consistent layouts in which the beam leaves here.
    pub share: f64,
    /// How many layouts that is (exact method only).
    #[serde(with = "decimal_opt")]
    pub layouts: Option<BigUint>,
}

/// What a shot not yet fired would tell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShotOdds {
    /// The hole to shoot into.
    pub hole: usize,
    /// The share of the consistent layouts left on average after it,
    /// `Σ p_e²` over its exits (the ranking: fewest first).
    pub expected_share: f64,
    /// Consistent layouts left on average after it (`None` when the
    /// layouts were not counted).
    pub expected_layouts: Option<f64>,
    /// Its possible exits, likeliest first.
    pub exits: Vec<ExitOdds>,
}

/// What one cell may hold, as shares of the consistent layouts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellOdds {
    /// The cell.
    #[serde(flatten)]
    pub cell: Cell,
    /// Share of layouts in which it is empty.
    pub empty: f64,
    /// Share with `/`.
    pub slash: f64,
    /// Share with `\`.
    pub backslash: f64,
    /// The standard error of its chance of a mirror (0 unless estimated).
    #[serde(default)]
    pub std_error: f64,
    /// Whether its content is proven: the same in every consistent layout
    /// (counted exactly, or shown by the SAT solver when estimated). Only
    /// proven cells are listed as certain.
    #[serde(default)]
    pub proven: bool,
}

/// What the evidence proves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// Box size.
    pub size: usize,
    /// Mirrors.
    pub mirrors: usize,
    /// Sides.
    pub sides: Sides,
    /// The exact number of consistent layouts (a decimal string in JSON);
    /// `None` when there were too many cases to count (estimated).
    #[serde(with = "decimal_opt")]
    pub layouts: Option<BigUint>,
    /// How the answer was worked out.
    pub method: Method,
    /// Cells that certainly hold a given mirror (found mirrors included):
    /// proven, by the exact count or, when estimated, by the SAT solver
    /// ([`proof`]).
    pub certain_mirrors: Vec<Placed>,
    /// Cells that are certainly empty (proven, as above).
    pub certain_empty: Vec<Cell>,
    /// Cells no allowed shot can ever reach (exact only when the method
    /// is exact).
    pub unreachable: Vec<Cell>,
    /// Every cell's odds, row by row (empty when there are no layouts).
    pub cells: Vec<CellOdds>,
    /// The shot that leaves the fewest layouts on average; `None` when no
    /// shot can tell the layouts apart (or none are left).
    pub best_next_shot: Option<ShotOdds>,
    /// Every shot not yet fired, best first (empty when advice was not
    /// asked for).
    pub candidates: Vec<ShotOdds>,
    /// What to do next.
    pub advice: Advice,
    /// Cell steps the searches took (a measure of the work done).
    pub steps: u64,
    /// When no layout fits the evidence: what contradicts what.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<Contradiction>,
    /// When estimated: how many different consistent layouts the sample
    /// holds (each fits the evidence, so the count is at least this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_layouts: Option<u64>,
}

impl Solution {
    /// The solution, or what contradicts what when no layout fits.
    ///
    /// # Errors
    /// [`SolveError::Contradiction`] when the evidence has no layout.
    pub fn consistent(self) -> Result<Self, SolveError> {
        match &self.contradiction {
            Some(c) => Err(c.clone().into()),
            None if self.layouts.as_ref().is_some_and(Zero::is_zero) => Err(Contradiction::Shots {
                mirrors: self.mirrors,
                shots: Vec::new(),
                with_found: false,
                minimal: false,
            }
            .into()),
            None => Ok(self),
        }
    }
}

mod decimal_opt {
    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    #[allow(clippy::ref_option)]
    pub fn serialize<S: Serializer>(v: &Option<BigUint>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&v.to_string()),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BigUint>, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        s.map(|s| s.parse().map_err(D::Error::custom)).transpose()
    }
}

/// The checked evidence: the problem, the shot pairs, and the candidate
/// holes; `None` for the problem when the evidence contradicts itself, and
/// then what contradicts what.
struct Checked {
    size: Size,
    problem: Option<Problem>,
    contradiction: Option<Contradiction>,
    pairs: Vec<(usize, usize)>,
    candidates: Vec<usize>,
}

fn check(ev: &Evidence) -> Result<Checked, SolveError> {
    let size = Size::new(ev.size).map_err(LayoutError::from)?;
    check_mirror_count(size, ev.mirrors)?;
    let holes = size.holes();
    let mut partner = vec![None; holes];
    let mut pairs = Vec::new();
    let mut contradiction = None;
    for &(entry, exit) in &ev.shots {
        for h in [entry, exit] {
            size.check_hole(h)
                .map_err(|error| SolveError::Shot { entry, exit, error })?;
        }
        if let Some(side) = size.side(entry)
            && !ev.sides.allows(side)
        {
            return Err(SolveError::Side {
                entry,
                exit,
                side,
                last: 2 * size.n() - 1,
            });
        }
        if entry == exit {
            contradiction.get_or_insert(Contradiction::SameHole { hole: entry });
            continue;
        }
        match (partner[entry], partner[exit]) {
            (None, None) => {
                partner[entry] = Some(exit);
                partner[exit] = Some(entry);
                pairs.push((entry, exit));
            }
            (Some(e), _) if e == exit => {}
            (Some(e), _) | (None, Some(e)) => {
                let hole = if partner[entry].is_some() {
                    entry
                } else {
                    exit
                };
                // The shot that paired the hole, as it was given.
                let first = ev
                    .shots
                    .iter()
                    .copied()
                    .find(|&s| s == (hole, e) || s == (e, hole))
                    .unwrap_or((hole, e));
                contradiction.get_or_insert(Contradiction::TwoShots {
                    hole,
                    first,
                    second: (entry, exit),
                });
            }
        }
    }
    // Two holes left unpaired lead to each other: a shot the player need
    // not make (so no candidate either).
    if contradiction.is_none()
        && let Some((a, b)) = crate::beam::last_pair(size, |h| partner[h].is_some())
    {
        partner[a] = Some(b);
        partner[b] = Some(a);
        pairs.push((a, b));
    }
    let cells = size.cells();
    let mut dom = vec![ALL; cells];
    for p in &ev.found {
        let cell = size
            .check_cell(p.cell)
            .map_err(|error| SolveError::Guess { placed: *p, error })?;
        dom[size.index(cell)] &= bit(search::code_of(Some(p.mirror)));
    }
    for p in &ev.not {
        let cell = size
            .check_cell(p.cell)
            .map_err(|error| SolveError::Guess { placed: *p, error })?;
        dom[size.index(cell)] &= !bit(search::code_of(Some(p.mirror)));
    }
    // A found mirror ruled out by a wrong guess, or two found mirrors in one
    // cell, leave a cell nothing.
    if let Some(i) = dom.iter().position(|&d| d == 0) {
        contradiction.get_or_insert(Contradiction::Cell { cell: size.cell(i) });
    }
    let problem = Problem::new(size, ev.mirrors, dom);
    if problem.pre_mirrors > ev.mirrors {
        contradiction.get_or_insert(Contradiction::TooManyFound {
            found: problem.pre_mirrors,
            mirrors: ev.mirrors,
        });
    }
    let candidates = size
        .shootable(ev.sides)
        .filter(|&h| partner[h].is_none())
        .collect();
    // Deflected shots first: they need mirrors, which the budget limits.
    pairs.sort_by_key(|&(h, e)| size.opposite(h) == Some(e));
    let problem = contradiction.is_none().then_some(problem);
    Ok(Checked {
        size,
        problem,
        contradiction,
        pairs,
        candidates,
    })
}

/// A fast hasher for packed integer keys (the multiply of FxHash).
#[derive(Default, Clone, Copy)]
struct PackedHasher(u64);

impl std::hash::Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

type PackedMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<PackedHasher>>;

/// `(exit, a, b, r)` in one word (each part below 2^16).
fn pack(exit: usize, a: usize, b: usize, r: usize) -> u64 {
    let p = |x: usize| (x as u64) & 0xffff;
    p(exit) << 48 | p(a) << 32 | p(b) << 16 | p(r)
}

fn unpack(key: u64) -> (usize, usize, usize, usize) {
    let p = |shift: u32| ((key >> shift) & 0xffff) as usize;
    (p(48), p(32), p(16), p(0))
}

/// Open-shot leaves counted by candidate and (exit, a, b, r): a dense table
/// when the box has no type-B cells and the table is small (laid out so the
/// leaves of one search leaf fall close together), else hash maps.
enum OpenCounts {
    Dense {
        holes: usize,
        candidates: usize,
        a_span: usize,
        r_span: usize,
        counts: Vec<u64>,
    },
    Sparse(Vec<PackedMap<u64>>),
}

impl OpenCounts {
    /// The most entries a dense table may have.
    const DENSE_LIMIT: usize = 8_000_000;

    fn for_problem(p: &Problem, candidates: usize) -> Self {
        let (holes, a_span, r_span) = (p.size.holes(), p.base_a + 1, p.k + 1);
        let entries = holes
            .saturating_mul(a_span)
            .saturating_mul(r_span)
            .saturating_mul(candidates);
        if p.base_b == 0 && entries <= Self::DENSE_LIMIT {
            Self::Dense {
                holes,
                candidates,
                a_span,
                r_span,
                counts: vec![0; entries],
            }
        } else {
            Self::Sparse(vec![PackedMap::default(); candidates])
        }
    }

    #[inline]
    fn add(&mut self, candidate: usize, exit: usize, a: usize, b: usize, r: usize) {
        match self {
            Self::Dense {
                holes,
                candidates,
                r_span,
                counts,
                ..
            } => {
                let i = ((a * *r_span + r) * *candidates + candidate) * *holes + exit;
                if let Some(c) = counts.get_mut(i) {
                    *c += 1;
                }
            }
            Self::Sparse(maps) => {
                if let Some(map) = maps.get_mut(candidate) {
                    *map.entry(pack(exit, a, b, r)).or_insert(0) += 1;
                }
            }
        }
    }

    /// Candidate `j`'s counts by (exit, a, b, r).
    fn entries(&self, j: usize) -> Vec<((usize, usize, usize, usize), u64)> {
        match self {
            Self::Dense {
                holes,
                candidates,
                a_span,
                r_span,
                counts,
            } => {
                let mut out = Vec::new();
                for a in 0..*a_span {
                    for r in 0..*r_span {
                        let base = ((a * r_span + r) * candidates + j) * holes;
                        for exit in 0..*holes {
                            let c = counts.get(base + exit).copied().unwrap_or(0);
                            if c > 0 {
                                out.push(((exit, a, 0, r), c));
                            }
                        }
                    }
                }
                out
            }
            Self::Sparse(maps) => maps
                .get(j)
                .map(|m| m.iter().map(|(&k, &c)| (unpack(k), c)).collect())
                .unwrap_or_default(),
        }
    }
}

/// Leaves grouped by their completions key, with per-cell tallies.
struct Tally {
    cells: usize,
    keys: PackedMap<usize>,
    key_list: Vec<(usize, usize, usize)>,
    counts: Vec<u64>,
    decided: Vec<u64>,
    reach: Vec<u64>,
    /// Open-shot leaves by candidate and (exit, a, b, r).
    exits: OpenCounts,
}

impl Tally {
    fn new(cells: usize, exits: OpenCounts) -> Self {
        Self {
            cells,
            keys: PackedMap::default(),
            key_list: Vec::new(),
            counts: Vec::new(),
            decided: Vec::new(),
            reach: vec![0; cells.div_ceil(64)],
            exits,
        }
    }
}

impl Visitor for Tally {
    fn leaf(&mut self, leaf: &Leaf<'_>) {
        let key = (leaf.free_a, leaf.free_b, leaf.r);
        let id = *self
            .keys
            .entry(pack(0, key.0, key.1, key.2))
            .or_insert_with(|| {
                self.key_list.push(key);
                self.counts.push(0);
                self.decided.resize(self.decided.len() + self.cells * 3, 0);
                self.key_list.len() - 1
            });
        self.counts[id] += 1;
        let base = id * self.cells * 3;
        for &c in leaf.trail {
            self.decided[base + c * 3 + usize::from(leaf.state[c] - 1)] += 1;
        }
        for (r, d) in self.reach.iter_mut().zip(leaf.decided) {
            *r |= d;
        }
    }

    fn open_leaf(&mut self, candidate: usize, leaf: &Leaf<'_>) {
        let exit = leaf.open_exit.unwrap_or(usize::MAX);
        self.exits
            .add(candidate, exit, leaf.free_a, leaf.free_b, leaf.r);
        for (r, d) in self.reach.iter_mut().zip(leaf.decided) {
            *r |= d;
        }
    }
}

/// Picks the leaves that hold given positions of the running total of
/// layouts, and fills each into a whole layout at random.
struct Sampler<'w> {
    weights: &'w mut Weights,
    targets: Vec<BigUint>,
    next: usize,
    cumulative: BigUint,
    rng: Rng,
    dom: Vec<u8>,
    samples: Vec<Vec<u8>>,
}

impl Visitor for Sampler<'_> {
    fn leaf(&mut self, leaf: &Leaf<'_>) {
        if self.next >= self.targets.len() {
            return;
        }
        let w = self.weights.completions(leaf.free_a, leaf.free_b, leaf.r);
        let upper = &self.cumulative + &w;
        while self.next < self.targets.len() && self.targets[self.next] < upper {
            let sample = complete(leaf, &self.dom, self.weights, &mut self.rng);
            self.samples.push(sample);
            self.next += 1;
        }
        self.cumulative = upper;
    }
}

/// A uniformly random completion of a leaf: `r` mirrors among its free
/// cells.
pub(crate) fn complete(
    leaf: &Leaf<'_>,
    dom: &[u8],
    weights: &mut Weights,
    rng: &mut Rng,
) -> Vec<u8> {
    let (a, b, r) = (leaf.free_a, leaf.free_b, leaf.r);
    let mut state = leaf.state.to_vec();
    // How many of the r mirrors go to type-A cells: i with weight
    // C(a, i)·2^i·C(b, r − i).
    let options: Vec<(usize, f64)> = (r.saturating_sub(b)..=r.min(a))
        .map(|i| {
            let w = (weights.binomial(a, i) * weights.binomial(b, r - i)) << i;
            (i, w.to_f64().unwrap_or(f64::MAX))
        })
        .collect();
    let total: f64 = options.iter().map(|o| o.1).sum();
    let mut x = rng.unit_f64() * total;
    let mut in_a = options.last().map_or(0, |o| o.0);
    for &(i, w) in &options {
        if x < w {
            in_a = i;
            break;
        }
        x -= w;
    }
    let mut free_a: Vec<usize> = Vec::with_capacity(a);
    let mut free_b: Vec<usize> = Vec::with_capacity(b);
    for (i, &v) in leaf.state.iter().enumerate() {
        if v == UNDECIDED {
            if dom[i] == ALL {
                free_a.push(i);
            } else {
                free_b.push(i);
            }
        }
    }
    for cell in &free_a {
        state[*cell] = EMPTY;
    }
    for cell in &free_b {
        state[*cell] = EMPTY;
    }
    for j in 0..in_a.min(free_a.len()) {
        let pick = j + rng.below((free_a.len() - j) as u64) as usize;
        free_a.swap(j, pick);
        state[free_a[j]] = if rng.below(2) == 0 { SLASH } else { BACK };
    }
    let in_b = r - in_a;
    for j in 0..in_b.min(free_b.len()) {
        let pick = j + rng.below((free_b.len() - j) as u64) as usize;
        free_b.swap(j, pick);
        state[free_b[j]] = if dom[free_b[j]] & bit(SLASH) != 0 {
            SLASH
        } else {
            BACK
        };
    }
    state
}

fn random_below(limit: &BigUint, rng: &mut Rng) -> BigUint {
    let bits = limit.bits();
    if bits == 0 {
        return BigUint::zero();
    }
    let words = bits.div_ceil(64) as usize;
    loop {
        let mut digits: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
        let extra = words as u64 * 64 - bits;
        if let Some(top) = digits.last_mut() {
            *top >>= extra;
        }
        let mut bytes = Vec::with_capacity(words * 8);
        for d in &digits {
            bytes.extend_from_slice(&d.to_le_bytes());
        }
        let x = BigUint::from_bytes_le(&bytes);
        if &x < limit {
            return x;
        }
    }
}

fn shots_of(pairs: &[(usize, usize)]) -> Vec<Shot> {
    pairs
        .iter()
        .map(|&(entry, exit)| Shot {
            entry,
            target: Some(exit),
        })
        .collect()
}

/// What the evidence proves: the number of consistent layouts, the certain
/// cells, every cell's odds, the unreachable cells, the best next shot and
/// the advice; exactly where the count finishes within
/// `options.step_limit`, else estimated by sampling ([`Method`]).
///
/// # Errors
/// Fails on a bad size or mirror count, a hole or cell outside the box, a
/// shot from a side the game does not shoot from, and when the count passes
/// its step limit and the estimator finds no consistent layout to start
/// from within its own budget. Contradictory evidence is not an error: it
/// has 0 layouts.
pub fn solve(ev: &Evidence, options: &SolveOptions) -> Result<Solution, SolveError> {
    solve_within(ev, options, &Budget::unlimited())
}

/// [`solve`] within `budget`: the searches and the estimator's chains
/// check it as they go.
///
/// # Errors
/// As [`solve`], and [`SolveError::Stopped`] when the budget runs out or
/// the question is withdrawn before the answer is ready.
pub fn solve_within(
    ev: &Evidence,
    options: &SolveOptions,
    budget: &Budget,
) -> Result<Solution, SolveError> {
    let solution = solve_inner(ev, options, budget);
    // Whatever a search cut short by the budget made of it is no answer.
    match budget.stopped() {
        Some(stopped) => Err(stopped.into()),
        None => solution,
    }
}

fn solve_inner(
    ev: &Evidence,
    options: &SolveOptions,
    budget: &Budget,
) -> Result<Solution, SolveError> {
    let checked = check(ev)?;
    let size = checked.size;
    let mut solution = Solution {
        size: size.n(),
        mirrors: ev.mirrors,
        sides: ev.sides,
        layouts: Some(BigUint::zero()),
        method: Method::Exact,
        certain_mirrors: Vec::new(),
        certain_empty: Vec::new(),
        unreachable: Vec::new(),
        cells: Vec::new(),
        best_next_shot: None,
        candidates: Vec::new(),
        advice: Advice::Contradiction,
        steps: 0,
        contradiction: None,
        found_layouts: None,
    };
    let Some(problem) = &checked.problem else {
        solution.contradiction.clone_from(&checked.contradiction);
        return Ok(solution);
    };
    let mut weights = Weights::default();
    let shots = shots_of(&checked.pairs);
    let mut engine = Engine::new(
        problem,
        shots.clone(),
        Tally::new(size.cells(), OpenCounts::Sparse(Vec::new())),
        options.step_limit,
    )
    .within(budget);
    if engine.run().is_err() {
        budget.check()?;
        solution.steps = engine.steps();
        estimated(ev, problem, &checked, options, budget, &mut solution)?;
        rank(&mut solution);
        solution.advice = advise(ev, &solution, options);
        return Ok(solution);
    }
    let steps_used = engine.steps();
    solution.steps = steps_used;
    let tally = engine.into_visitor();
    let (total, marginals) = marginals(problem, &tally, &mut weights);
    solution.layouts = Some(total.clone());
    if total.is_zero() {
        solution.contradiction = Some(explain(ev, problem, &checked.pairs, budget));
        return Ok(solution);
    }
    let total_f = total.to_f64().unwrap_or(f64::MAX);
    for (i, m) in marginals.iter().enumerate() {
        let cell = size.cell(i);
        if m[0] == total {
            solution.certain_empty.push(cell);
        }
        for (j, mirror) in [(1, Mirror::Slash), (2, Mirror::Backslash)] {
            if m[j] == total {
                solution.certain_mirrors.push(Placed::new(cell, mirror));
            }
        }
        let share = |x: &BigUint| x.to_f64().unwrap_or(0.0) / total_f;
        solution.cells.push(CellOdds {
            cell,
            empty: share(&m[0]),
            slash: share(&m[1]),
            backslash: share(&m[2]),
            std_error: 0.0,
            proven: m.contains(&total),
        });
    }
    if options.advice {
        let mut reach = tally.reach.clone();
        let exact = total <= BigUint::from(options.exact_limit)
            && exact_advice(
                problem,
                &shots,
                &checked.candidates,
                &total,
                &mut weights,
                &mut reach,
                options.advice_steps,
                budget,
                &mut solution,
            )
            .is_ok();
        budget.check()?;
        if !exact {
            reach.clone_from(&tally.reach);
            sampled_advice(
                problem,
                &shots,
                &checked.candidates,
                &total,
                &mut weights,
                &mut reach,
                options,
                budget,
                &mut solution,
            )?;
        }
        solution.unreachable = unreachable(problem, &reach);
        rank(&mut solution);
    }
    solution.advice = advise(ev, &solution, options);
    Ok(solution)
}

fn advise(ev: &Evidence, solution: &Solution, options: &SolveOptions) -> Advice {
    if options.advice || solution.layouts.as_ref().is_some_and(Zero::is_zero) {
        Advice::of(ev, solution)
    } else {
        Advice::NotAsked
    }
}

/// The cells not pre-decided that no beam crossed (`reach` is a bit set).
fn unreachable(p: &Problem, reach: &[u64]) -> Vec<Cell> {
    (0..p.size.cells())
        .filter(|&i| p.pre[i] == UNDECIDED && reach[i / 64] & (1 << (i % 64)) == 0)
        .map(|i| p.size.cell(i))
        .collect()
}

/// Fills `solution` from layouts sampled by the estimator's chains: the
/// cells' odds with their errors, the proven cells, the candidates'
/// exits and the cells no sampled beam crossed.
fn estimated(
    ev: &Evidence,
    p: &Problem,
    checked: &Checked,
    options: &SolveOptions,
    budget: &Budget,
    solution: &mut Solution,
) -> Result<(), SolveError> {
    let size = p.size;
    let sample = match estimate::sample(p, &checked.pairs, &options.estimate, options.seed, budget)
    {
        Ok(sample) => sample,
        // Proven: no layout fits (the answer of an exact count of 0).
        Err(estimate::NoSample::Impossible) => {
            solution.layouts = Some(BigUint::zero());
            solution.contradiction = Some(explain(ev, p, &checked.pairs, budget));
            return Ok(());
        }
        Err(estimate::NoSample::GaveUp) => {
            return Err(match budget.stopped() {
                Some(stopped) => SolveError::Stopped(stopped),
                None => SolveError::TooHard {
                    steps: solution.steps,
                },
            });
        }
    };
    solution.steps += sample.steps;
    let (shares, se, effective) = estimate::cell_shares(&sample, size.cells());
    let all: Vec<&Vec<u8>> = sample.chains.iter().flatten().collect();
    let n = all.len().max(1) as f64;
    solution.layouts = None;
    let distinct: std::collections::HashSet<&Vec<u8>> = all.iter().copied().collect();
    solution.found_layouts = Some(distinct.len() as u64);
    solution.method = Method::Estimated {
        chains: sample.chains.len(),
        samples: all.len(),
        effective_samples: effective,
        std_error: se.iter().copied().fold(0.0, f64::max),
        calibrated: options.calibrate,
    };
    let proven = proven_cells(p, &checked.pairs, &all, options, budget);
    for (i, (m, &e)) in shares.iter().zip(&se).enumerate() {
        let cell = size.cell(i);
        let m = if options.calibrate {
            calibrate::cell(ev, *m, [EMPTY, SLASH, BACK].map(|c| p.dom[i] & bit(c) != 0))
        } else {
            *m
        };
        let mut odds = CellOdds {
            cell,
            empty: m[0],
            slash: m[1],
            backslash: m[2],
            std_error: e,
            proven: false,
        };
        match proven[i] {
            EMPTY => solution.certain_empty.push(cell),
            SLASH => solution
                .certain_mirrors
                .push(Placed::new(cell, Mirror::Slash)),
            BACK => solution
                .certain_mirrors
                .push(Placed::new(cell, Mirror::Backslash)),
            _ => {}
        }
        if proven[i] != UNDECIDED {
            // Every sample agrees (each is a consistent layout): the
            // shares are exact.
            let v = usize::from(proven[i] - 1);
            odds.proven = true;
            odds.std_error = 0.0;
            odds.empty = f64::from(u8::from(v == 0));
            odds.slash = f64::from(u8::from(v == 1));
            odds.backslash = f64::from(u8::from(v == 2));
        }
        solution.cells.push(odds);
    }
    if !options.advice {
        return Ok(());
    }
    let allowed: Vec<usize> = size.shootable(solution.sides).collect();
    let candidates = &checked.candidates;
    let mut reach = vec![0u64; size.cells().div_ceil(64)];
    let exits_of = sampled_exits(size, &allowed, candidates, &all, &mut reach, budget)?;
    solution.candidates = shot_odds(candidates, exits_of, n, None);
    solution.unreachable = unreachable(p, &reach);
    Ok(())
}

/// Each cell's proven content ([`UNDECIDED`] when not proven), when the
/// layouts were not counted: the decided cells, the cells the SAT solver
/// proves within its budget ([`proof`]; `samples` are consistent layouts,
/// so a cell they show with two contents needs no question), and, when
/// the proven mirrors are all `k`, every other cell, empty.
fn proven_cells(
    p: &Problem,
    pairs: &[(usize, usize)],
    samples: &[&Vec<u8>],
    options: &SolveOptions,
    budget: &Budget,
) -> Vec<u8> {
    let mut proven = match proof::prove(p, pairs, samples, &options.proof, budget) {
        proof::Proof::Found(found) => found.proven,
        proof::Proof::Impossible | proof::Proof::GaveUp { .. } => p.pre.clone(),
    };

    let mirrors = proven.iter().filter(|&&v| v == SLASH || v == BACK).count();
    if mirrors == p.k {
        for v in &mut proven {
            if *v == UNDECIDED {
                *v = EMPTY;
            }
        }
    }
    proven
}

/// Cell steps each trial of [`explain`] may take, and all of them.
const EXPLAIN_STEPS: u64 = 100_000;
const EXPLAIN_ALL_STEPS: u64 = 4_000_000;

/// Which shots cannot all hold, when no layout fits `pairs` in `p`: a
/// shot is dropped while the rest are still proven to contradict each
/// other (by the propagating search), so that every shot left is needed
/// (unless a trial ran out of steps: then the list may be longer than
/// needed, and says so).
fn explain(ev: &Evidence, p: &Problem, pairs: &[(usize, usize)], budget: &Budget) -> Contradiction {
    let mut keep = pairs.to_vec();
    let mut minimal = true;
    let mut spent = 0;
    let mut i = 0;
    while i < keep.len() {
        let mut trial = keep.clone();
        trial.remove(i);
        let left = EXPLAIN_ALL_STEPS.saturating_sub(spent);
        let mut finder = find::Finder::new(p, &trial, Rng::new(i as u64));
        let outcome = finder.find(EXPLAIN_STEPS.min(left), budget);
        spent += finder.steps();
        match outcome {
            find::Outcome::Impossible => keep = trial,
            find::Outcome::Found(_) => i += 1,
            find::Outcome::GaveUp => {
                minimal = false;
                i += 1;
            }
        }
    }
    // In the order given.
    keep.sort_by_key(|&(a, b)| {
        ev.shots
            .iter()
            .position(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
            .unwrap_or(usize::MAX)
    });
    let shots = keep
        .into_iter()
        .map(|(a, b)| {
            if ev.shots.contains(&(a, b)) {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    Contradiction::Shots {
        mirrors: ev.mirrors,
        shots,
        with_found: !ev.found.is_empty() || !ev.not.is_empty(),
        minimal,
    }
}

/// Every allowed hole's shot through each sampled layout (`samples`, a
/// cell state a cell): for each candidate hole (sorted), how many samples
/// sent its beam out of each exit hole; every cell a beam crossed is set in
/// `reach` (a bit set). Checks `budget` once a sample, so a big sample on a
/// big box stops with its budget like the search before it.
fn sampled_exits<S: AsRef<[u8]>>(
    size: Size,
    allowed: &[usize],
    candidates: &[usize],
    samples: &[S],
    reach: &mut [u64],
    budget: &Budget,
) -> Result<Vec<HashMap<usize, usize>>, Stopped> {
    let mut exits_of: Vec<HashMap<usize, usize>> = vec![HashMap::new(); candidates.len()];
    for state in samples {
        budget.check()?;
        let state = state.as_ref();
        let at = |i: usize| search::mirror_of(state[i]);
        for &hole in allowed {
            let mark = |i: usize, _, _| reach[i / 64] |= 1 << (i % 64);
            let Ok(exit) = crate::beam::walk(size, hole, at, mark) else {
                continue;
            };
            if let Ok(j) = candidates.binary_search(&hole) {
                *exits_of[j].entry(exit.hole).or_insert(0) += 1;
            }
        }
    }
    Ok(exits_of)
}

/// Candidates' odds from sampled exits (`n` samples; `total` layouts when
/// counted), best first: by the share left on average, then by hole.
fn shot_odds(
    candidates: &[usize],
    exits_of: Vec<HashMap<usize, usize>>,
    n: f64,
    total: Option<f64>,
) -> Vec<ShotOdds> {
    let mut out: Vec<(u64, ShotOdds)> = candidates
        .iter()
        .zip(exits_of)
        .map(|(&hole, counts)| {
            let squares: u64 = counts.values().map(|&c| (c as u64) * (c as u64)).sum();
            let mut exits: Vec<ExitOdds> = counts
                .into_iter()
                .map(|(exit, c)| ExitOdds {
                    exit,
                    share: c as f64 / n,
                    layouts: None,
                })
                .collect();
            exits.sort_by(|x, y| y.share.total_cmp(&x.share).then(x.exit.cmp(&y.exit)));
            let share = squares as f64 / (n * n);
            (
                squares,
                ShotOdds {
                    hole,
                    expected_share: share,
                    expected_layouts: total.map(|t| t * share),
                    exits,
                },
            )
        })
        .collect();
    out.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.hole.cmp(&y.1.hole)));
    out.into_iter().map(|(_, s)| s).collect()
}

/// The exact number of layouts and, for each cell, the layouts in which it
/// is empty, `/` and `\`.
fn marginals(p: &Problem, tally: &Tally, weights: &mut Weights) -> (BigUint, Vec<[BigUint; 3]>) {
    let cells = p.size.cells();
    let mut total = BigUint::zero();
    let mut marg: Vec<[BigUint; 3]> = vec![Default::default(); cells];
    for (id, &(a, b, r)) in tally.key_list.iter().enumerate() {
        let count = tally.counts[id];
        let w = weights.completions(a, b, r);
        total += &w * count;
        // A free cell's layouts: by its own value, the rest filled.
        let wa_empty = if a > 0 {
            weights.completions(a - 1, b, r)
        } else {
            BigUint::zero()
        };
        let wa_mirror = if a > 0 && r > 0 {
            weights.completions(a - 1, b, r - 1)
        } else {
            BigUint::zero()
        };
        let wb_empty = if b > 0 {
            weights.completions(a, b - 1, r)
        } else {
            BigUint::zero()
        };
        let wb_mirror = if b > 0 && r > 0 {
            weights.completions(a, b - 1, r - 1)
        } else {
            BigUint::zero()
        };
        let base = id * cells * 3;
        for (c, m) in marg.iter_mut().enumerate() {
            if p.pre[c] != UNDECIDED {
                continue;
            }
            let dec = &tally.decided[base + c * 3..base + c * 3 + 3];
            let free = count - dec.iter().sum::<u64>();
            for v in 0..3 {
                if dec[v] > 0 {
                    m[v] += &w * dec[v];
                }
            }
            if free > 0 {
                if p.dom[c] == ALL {
                    m[0] += &wa_empty * free;
                    m[1] += &wa_mirror * free;
                    m[2] += &wa_mirror * free;
                } else {
                    m[0] += &wb_empty * free;
                    let v = if p.dom[c] & bit(SLASH) != 0 { 1 } else { 2 };
                    m[v] += &wb_mirror * free;
                }
            }
        }
    }
    for (c, m) in marg.iter_mut().enumerate() {
        match p.pre[c] {
            EMPTY => m[0].clone_from(&total),
            SLASH => m[1].clone_from(&total),
            BACK => m[2].clone_from(&total),
            _ => {}
        }
    }
    (total, marg)
}

#[allow(clippy::too_many_arguments)]
fn exact_advice(
    p: &Problem,
    shots: &[Shot],
    candidates: &[usize],
    total: &BigUint,
    weights: &mut Weights,
    reach: &mut [u64],
    steps: u64,
    budget: &Budget,
    solution: &mut Solution,
) -> Result<(), Aborted> {
    let tally = Tally::new(p.size.cells(), OpenCounts::for_problem(p, candidates.len()));
    let mut engine = Engine::new(p, shots.to_vec(), tally, steps)
        .with_open(candidates.to_vec())
        .within(budget);
    let run = engine.run();
    solution.steps += engine.steps();
    run?;
    let tally = engine.into_visitor();
    for (r, t) in reach.iter_mut().zip(&tally.reach) {
        *r |= t;
    }
    let total_f = total.to_f64().unwrap_or(f64::MAX);
    let mut out = Vec::new();
    for (j, &hole) in candidates.iter().enumerate() {
        let mut by_exit: HashMap<usize, BigUint> = HashMap::new();
        for ((exit, a, b, r), count) in tally.exits.entries(j) {
            *by_exit.entry(exit).or_default() += weights.completions(a, b, r) * count;
        }
        let mut exits: Vec<ExitOdds> = by_exit
            .into_iter()
            .map(|(exit, layouts)| ExitOdds {
                exit,
                share: layouts.to_f64().unwrap_or(0.0) / total_f,
                layouts: Some(layouts),
            })
            .collect();
        let squares: BigUint = exits
            .iter()
            .filter_map(|e| e.layouts.as_ref())
            .map(|l| l * l)
            .sum();
        let expected = ratio(&squares, total);
        let expected_share = ratio(&squares, &(total * total));
        exits.sort_by(|x, y| y.layouts.cmp(&x.layouts).then(x.exit.cmp(&y.exit)));
        out.push((
            squares,
            ShotOdds {
                hole,
                expected_share,
                expected_layouts: Some(expected),
                exits,
            },
        ));
    }
    // Exact ranking: by Σ c², then by hole.
    out.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.hole.cmp(&y.1.hole)));
    solution.candidates = out.into_iter().map(|(_, s)| s).collect();
    Ok(())
}

/// `x / y` as a float, for numbers too big for floats one at a time.
fn ratio(x: &BigUint, y: &BigUint) -> f64 {
    let shift = x.bits().max(y.bits()).saturating_sub(1000);
    let (xs, ys) = (x >> shift, y >> shift);
    xs.to_f64().unwrap_or(f64::MAX) / ys.to_f64().unwrap_or(f64::MAX)
}

#[allow(clippy::too_many_arguments)]
fn sampled_advice(
    p: &Problem,
    shots: &[Shot],
    candidates: &[usize],
    total: &BigUint,
    weights: &mut Weights,
    reach: &mut [u64],
    options: &SolveOptions,
    budget: &Budget,
    solution: &mut Solution,
) -> Result<(), SolveError> {
    let mut rng = Rng::stream(options.seed, 1);
    let count = options.samples.max(1);
    let mut targets: Vec<BigUint> = (0..count).map(|_| random_below(total, &mut rng)).collect();
    targets.sort();
    let sampler = Sampler {
        weights,
        targets,
        next: 0,
        cumulative: BigUint::zero(),
        rng: Rng::stream(options.seed, 2),
        dom: p.dom.clone(),
        samples: Vec::with_capacity(count),
    };
    let mut engine = Engine::new(p, shots.to_vec(), sampler, options.step_limit).within(budget);
    engine.run().map_err(|Aborted| match budget.stopped() {
        Some(stopped) => SolveError::Stopped(stopped),
        None => SolveError::TooHard {
            steps: engine.steps(),
        },
    })?;
    solution.steps += engine.steps();
    let samples = engine.into_visitor().samples;
    let size = p.size;
    let allowed: Vec<usize> = size.shootable(solution.sides).collect();
    let exits_of = sampled_exits(size, &allowed, candidates, &samples, reach, budget)?;
    let n = samples.len().max(1) as f64;
    let total_f = total.to_f64().unwrap_or(f64::MAX);
    solution.candidates = shot_odds(candidates, exits_of, n, Some(total_f));
    solution.method = Method::Sampled {
        samples: samples.len(),
    };
    Ok(())
}

/// Up to `count` layouts consistent with `ev`, found within `steps` cell
/// steps in all and `budget`: by a short propagating search with restarts
/// ([`find`]), which proves quickly when none fits, then the repair search
/// ([`repair`]), then the propagating search again with the steps left if
/// nothing was found; each run's random choices differ, so the layouts
/// usually differ too (not a uniform sample: [`solve`] mixes them with Markov
/// chains before it weighs anything). Every layout returned has exactly
/// `ev.mirrors` mirrors and sends every shot in `ev` out where it came out;
/// an empty list means the evidence contradicts itself (proven).
///
/// # Errors
/// As [`solve`] for evidence no box can have; [`SolveError::TooHard`] when
/// no layout was found within `steps` and none was proven impossible;
/// [`SolveError::Stopped`] when the budget ran out first.
pub fn find_layouts(
    ev: &Evidence,
    count: usize,
    seed: u64,
    steps: u64,
    budget: &Budget,
) -> Result<Vec<crate::layout::Layout>, SolveError> {
    let checked = check(ev)?;
    let Some(problem) = &checked.problem else {
        return Ok(Vec::new());
    };
    let size = checked.size;
    let to_layout = |state: Vec<u8>| {
        let placed: Vec<Placed> = state
            .iter()
            .enumerate()
            .filter_map(|(i, &v)| search::mirror_of(v).map(|m| Placed::new(size.cell(i), m)))
            .collect();
        crate::layout::Layout::new(size, &placed)
    };
    let mut finder = find::Finder::new(problem, &checked.pairs, Rng::new(seed));
    let mut repair = repair::Repair::new(problem, &checked.pairs, Rng::stream(seed, 1));
    let mut out = Vec::with_capacity(count.min(1024));
    let spent = |f: &find::Finder<'_>, r: &repair::Repair<'_>| f.steps() + r.steps();
    // First a short propagating search: it proves quickly when no layout
    // fits.
    if count > 0 {
        match finder.find(steps / 20, budget) {
            find::Outcome::Found(state) => out.push(to_layout(state)?),
            find::Outcome::Impossible => return Ok(Vec::new()),
            find::Outcome::GaveUp => {}
        }
    }
    while out.len() < count {
        let left = steps.saturating_sub(spent(&finder, &repair));
        match repair.find(left, budget) {
            Some(state) => out.push(to_layout(state)?),
            None => break,
        }
    }
    if out.is_empty() && count > 0 {
        let left = steps.saturating_sub(spent(&finder, &repair));
        match finder.find(left, budget) {
            find::Outcome::Found(state) => out.push(to_layout(state)?),
            find::Outcome::Impossible => return Ok(Vec::new()),
            find::Outcome::GaveUp => {}
        }
    }
    if let Some(stopped) = budget.stopped() {
        return Err(stopped.into());
    }
    if out.is_empty() && count > 0 {
        return Err(SolveError::TooHard {
            steps: spent(&finder, &repair),
        });
    }
    Ok(out)
}

/// The best next shot: the first candidate, unless no candidate can tell
/// any layouts apart (every one has a single possible exit).
fn rank(solution: &mut Solution) {
    solution.best_next_shot = solution
        .candidates
        .first()
        .filter(|c| c.exits.len() > 1)
        .cloned();
}

#[cfg(test)]
mod tests;
