//! Proofs: the cells the evidence decides, shown by a SAT solver, when
//! there are too many layouts to count.
//!
//! Terms:
//! - **encoding**: one variable per cell and content (empty, `/`, `\`;
//!   exactly one true), and per shot one per **side** (the boundary between
//!   two neighbouring cells, or a hole): true when the shot's beam crosses
//!   it. A cell joins its four sides in two pairs by its content (see
//!   [`crate::beam`]); a side crossed makes the side joined to it crossed,
//!   the shot's own two holes are crossed and every other hole is not. So
//!   the beam's path is forced from either end, and a layout that would
//!   send it out elsewhere has no model. Exactly `k` mirrors by a
//!   sequential counter (a register per prefix of the cells: "at least
//!   `j` mirrors among the first `i`").
//! - **witness**: a consistent layout the solver found (a model). Each
//!   shows one possible content at every cell, so a cell seen with two
//!   contents needs no question.
//! - **proven**: a cell whose one content seen in the witnesses the
//!   solver, asked for a layout with that content ruled out (an
//!   assumption, on the same solver: incremental), showed no layout can
//!   change. Only such answers prove; a question the budget cut short
//!   proves nothing, and its cell is simply not proven.
//! - **work**: the solver's decisions (a deterministic measure of its
//!   time), for all questions together and for each one
//!   ([`ProofOptions`]); the caller's [`Budget`] too.

use super::search::{BACK, EMPTY, Problem, SLASH, UNDECIDED, bit, mirror_of};
use crate::geometry::Dir;
use batsat::{Callbacks, Lit, Solver, SolverInterface, SolverOpts, Var, lbool};
use serde::{Deserialize, Serialize};
use std::cell::Cell as Counter;
use tabletop::Budget;

/// How much work the proofs may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofOptions {
    /// The solver's decisions for every question together (0: no proof
    /// is tried).
    pub decisions: u64,
    /// The solver's conflicts for every question together (0: no proof
    /// is tried).
    pub conflicts: u64,
    /// The conflicts one question may take (the first, for a witness, may
    /// take all).
    pub conflicts_per_question: u64,
    /// Witnesses kept.
    pub witnesses: usize,
    /// The largest box the solver is asked about, as cells times shot
    /// pairs (its clauses are about twelve times that): past it, no proof
    /// is tried, as the questions would not be answered within the
    /// hint's time.
    pub max_work: usize,
}

impl Default for ProofOptions {
    fn default() -> Self {
        Self {
            decisions: 40_000,
            conflicts: 500,
            conflicts_per_question: 100,
            witnesses: 4,
            max_work: 3_000,
        }
    }
}

/// What the solver showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// No layout fits the evidence.
    Impossible,
    /// No witness found within the work allowed: nothing proven.
    GaveUp {
        /// Decisions taken.
        decisions: u64,
    },
    /// Witnesses found, and the cells proven.
    Found(Found),
}

/// The cells proven and the witnesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Each cell's proven content ([`EMPTY`], [`SLASH`], [`BACK`]), or
    /// [`UNDECIDED`] when not proven.
    pub proven: Vec<u8>,
    /// Consistent layouts found (a content code per cell), the first
    /// first, at most [`ProofOptions::witnesses`].
    pub witnesses: Vec<Vec<u8>>,
    /// Whether every cell was decided: proven, or seen with two contents.
    pub complete: bool,
    /// Decisions taken.
    pub decisions: u64,
}

/// Stops the solver when its work or the caller's budget runs out.
struct Stop<'b> {
    budget: &'b Budget,
    /// Decisions so far, and the count at which to stop.
    taken: Counter<u64>,
    limit: Counter<u64>,
    /// Conflicts so far, and the count at which to stop.
    conflicts: Counter<u64>,
    conflict_limit: Counter<u64>,
}

impl Callbacks for Stop<'_> {
    fn on_new_clause(&mut self, _: &[Lit], kind: batsat::ClauseKind) {
        if kind == batsat::ClauseKind::Learnt {
            self.conflicts.set(self.conflicts.get() + 1);
        }
    }

    fn stop(&self) -> bool {
        let taken = self.taken.get() + 1;
        self.taken.set(taken);
        taken >= self.limit.get()
            || self.conflicts.get() >= self.conflict_limit.get()
            || (taken % 256 == 0 && self.budget.check().is_err())
    }
}

/// A literal, or a constant (the holes: a shot's own are crossed, the
/// others not; the counter's registers known from the prefix length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum L {
    True,
    False,
    Var(Lit),
}

impl std::ops::Not for L {
    type Output = Self;
    fn not(self) -> Self {
        match self {
            Self::True => Self::False,
            Self::False => Self::True,
            Self::Var(l) => Self::Var(!l),
        }
    }
}

/// Adds clauses with constants simplified away.
struct Builder<'b> {
    solver: Solver<Stop<'b>>,
    clause: Vec<Lit>,
    ok: bool,
}

impl<'b> Builder<'b> {
    /// A variable the solver never decides: unit propagation sets it
    /// once every cell's content is decided (a counter's register), or
    /// leaving it unset satisfies its clauses (a side no beam crosses:
    /// its clauses are implications, true with it false).
    fn var(&mut self) -> L {
        L::Var(Lit::new(self.solver.new_var(lbool::FALSE, false), true))
    }

    fn add(&mut self, lits: &[L]) {
        self.clause.clear();
        for &l in lits {
            match l {
                L::True => return,
                L::False => {}
                L::Var(l) => self.clause.push(l),
            }
        }
        let mut clause = std::mem::take(&mut self.clause);
        if !self.solver.add_clause_reuse(&mut clause) {
            self.ok = false;
        }
        self.clause = clause;
    }

    /// `Σ lits = k`: a sequential counter whose registers say "at least
    /// `j` of the first `i`", each both ways, with the registers fixed by
    /// the prefix length (`j > i`, `j > k`: false; `j ≤ k − (n − i)`:
    /// true in every model) left constant.
    fn exactly(&mut self, lits: &[L], k: usize) {
        let n = lits.len();
        if k > n {
            self.add(&[]);
            return;
        }
        // reg[i][j] for i in 0..=n, j in 0..=k+1.
        let mut prev: Vec<L> = (0..=k + 1)
            .map(|j| if j == 0 { L::True } else { L::False })
            .collect();
        for (i, &x) in lits.iter().enumerate() {
            let i = i + 1;
            let mut cur = vec![L::False; k + 2];
            cur[0] = L::True;
            for j in 1..=k + 1 {
                cur[j] = if j > i || j > k {
                    L::False
                } else if j + (n - i) <= k {
                    L::True
                } else {
                    self.var()
                };
                let (s, up, diag) = (cur[j], prev[j], prev[j - 1]);
                // s ↔ up ∨ (x ∧ diag)
                self.add(&[!up, s]);
                self.add(&[!x, !diag, s]);
                self.add(&[!s, up, x]);
                self.add(&[!s, up, diag]);
            }
            prev = cur;
        }
        if k > 0 {
            self.add(&[prev[k]]);
        }
    }
}

/// The encoding's variables.
struct Encoding<'b> {
    b: Builder<'b>,
    /// Per cell, its three content literals (empty, `/`, `\`).
    content: Vec<[Lit; 3]>,
}

/// The content codes in the order of [`Encoding::content`].
const CODES: [u8; 3] = [EMPTY, SLASH, BACK];

/// The index of the side of cell `i` in direction `d`: inner sides by the
/// cell west or north of them, holes after the inner sides.
fn side(p: &Problem, i: usize, d: Dir) -> Result<usize, usize> {
    match p.step(i, d) {
        Ok(j) => Ok(match d {
            Dir::East | Dir::South => 2 * i + usize::from(d == Dir::South),
            Dir::West => 2 * j,
            Dir::North => 2 * j + 1,
        }),
        Err(hole) => Err(hole),
    }
}

fn encode<'b>(p: &Problem, pairs: &[(usize, usize)], budget: &'b Budget) -> Encoding<'b> {
    let stop = Stop {
        budget,
        taken: Counter::new(0),
        limit: Counter::new(u64::MAX),
        conflicts: Counter::new(0),
        conflict_limit: Counter::new(u64::MAX),
    };
    let mut b = Builder {
        solver: Solver::new(SolverOpts::default(), stop),
        clause: Vec::new(),
        ok: true,
    };
    let cells = p.size.cells();
    let mut content = Vec::with_capacity(cells);
    for i in 0..cells {
        // The start's content first (so the first model is the start, and
        // each question looks near it), else empty: most cells are.
        let v: [Var; 3] = std::array::from_fn(|_| b.solver.new_var(lbool::UNDEF, true));
        let l = v.map(|v| Lit::new(v, true));
        let ls = l.map(L::Var);
        b.add(&ls);
        for x in 0..3 {
            for y in x + 1..3 {
                b.add(&[!ls[x], !ls[y]]);
            }
            if p.dom[i] & bit(CODES[x]) == 0 {
                b.add(&[!ls[x]]);
            }
        }
        content.push(l);
    }
    // Exactly k mirrors: k among the cells not empty.
    let mirrors: Vec<L> = content.iter().map(|c| !L::Var(c[0])).collect();
    b.exactly(&mirrors, p.k);
    for &(entry, exit) in pairs {
        let sides: Vec<L> = (0..2 * cells).map(|_| b.var()).collect();
        let at = |r: Result<usize, usize>| match r {
            Ok(s) => sides[s],
            Err(h) if h == entry || h == exit => L::True,
            Err(_) => L::False,
        };
        for (i, c) in content.iter().enumerate() {
            for (x, &code) in CODES.iter().enumerate() {
                if p.dom[i] & bit(code) == 0 {
                    continue;
                }
                let mirror = mirror_of(code);
                for d in Dir::ALL {
                    // Entering heading d: in by the side at d's reverse,
                    // out by the side the content turns it to.
                    let from = at(side(p, i, d.reverse()));
                    let to = at(side(p, i, d.turn(mirror)));
                    b.add(&[!L::Var(c[x]), !from, to]);
                }
            }
        }
    }
    Encoding { b, content }
}

/// Reads the model: a content code per cell.
fn model(e: &Encoding<'_>) -> Vec<u8> {
    e.content
        .iter()
        .map(|c| {
            CODES
                .iter()
                .zip(c)
                .find(|(_, l)| e.b.solver.value_lit(**l) == lbool::TRUE)
                .map_or(EMPTY, |(&code, _)| code)
        })
        .collect()
}

/// Proves what it can of `p` with the shots `pairs`, within `options`
/// and `budget`: a question for each cell whose content is the same in
/// every layout of `known` (consistent layouts already found, such as a
/// sampler's: a cell they show with two contents needs none), mirrors
/// first. The first of `known` is where the solver starts looking.
pub fn prove<S: AsRef<[u8]>>(
    p: &Problem,
    pairs: &[(usize, usize)],
    known: &[S],
    options: &ProofOptions,
    budget: &Budget,
) -> Proof {
    let work = p.size.cells().saturating_mul(pairs.len().max(1));
    if options.decisions == 0 || options.conflicts == 0 || work > options.max_work {
        return Proof::GaveUp { decisions: 0 };
    }
    let mut e = encode(p, pairs, budget);
    if !e.b.ok {
        return Proof::Impossible;
    }
    let cells = p.size.cells();
    let taken = |e: &Encoding<'_>| e.b.solver.cb().taken.get();
    let spent = |e: &Encoding<'_>| {
        let stop = e.b.solver.cb();
        stop.taken.get() >= options.decisions || stop.conflicts.get() >= options.conflicts
    };
    let solve = |e: &mut Encoding<'_>, assumptions: &[Lit], conflicts: u64| {
        let stop = e.b.solver.cb();
        stop.limit.set(options.decisions);
        let c = stop.conflicts.get();
        stop.conflict_limit
            .set(c.saturating_add(conflicts).min(options.conflicts));
        if spent(e) {
            return lbool::UNDEF;
        }
        e.b.solver.solve_limited(assumptions)
    };
    // The first known layout, assumed: its model at once, and the
    // solver's saved phases then look near it.
    let assumed: Vec<Lit> = known
        .first()
        .map(|s| {
            s.as_ref()
                .iter()
                .zip(&e.content)
                .filter_map(|(&v, c)| CODES.iter().position(|&x| x == v).map(|x| c[x]))
                .collect()
        })
        .unwrap_or_default();
    let mut first = solve(&mut e, &assumed, options.conflicts);
    if first == lbool::FALSE && !assumed.is_empty() {
        first = solve(&mut e, &[], options.conflicts);
    }
    if first == lbool::FALSE {
        return Proof::Impossible;
    }
    if first != lbool::TRUE {
        return Proof::GaveUp {
            decisions: taken(&e),
        };
    }
    let mut seen = vec![0u8; cells];
    let mut witnesses = Vec::new();
    let note = |state: Vec<u8>, seen: &mut [u8], witnesses: &mut Vec<Vec<u8>>| {
        for (s, &v) in seen.iter_mut().zip(&state) {
            *s |= bit(v);
        }
        if witnesses.len() < options.witnesses {
            witnesses.push(state);
        }
    };
    for layout in known {
        for (s, &v) in seen.iter_mut().zip(layout.as_ref()) {
            *s |= bit(v);
        }
    }
    note(model(&e), &mut seen, &mut witnesses);
    let mut proven = vec![UNDECIDED; cells];
    // Mirrors first: a proven mirror is a free guess.
    let mut order: Vec<usize> = (0..cells).collect();
    order.sort_by_key(|&i| seen[i] == bit(EMPTY));
    let mut complete = true;
    for i in order {
        if p.pre[i] != UNDECIDED {
            proven[i] = p.pre[i];
            continue;
        }
        if seen[i].count_ones() > 1 {
            continue;
        }
        let code = seen[i].trailing_zeros() as u8;
        let x = CODES.iter().position(|&c| c == code).unwrap_or(0);
        let lit = e.content[i][x];
        match solve(&mut e, &[!lit], options.conflicts_per_question) {
            r if r == lbool::TRUE => {
                let state = model(&e);
                note(state, &mut seen, &mut witnesses);
            }
            r if r == lbool::FALSE => {
                proven[i] = code;
                // A fact now: later questions start from it.
                e.b.add(&[L::Var(lit)]);
            }
            _ => {
                complete = false;
                if spent(&e) || budget.check().is_err() {
                    break;
                }
            }
        }
    }
    // Cells after a stop were not asked.
    let complete =
        complete && (0..cells).all(|i| proven[i] != UNDECIDED || seen[i].count_ones() > 1);
    Proof::Found(Found {
        proven,
        witnesses,
        complete,
        decisions: taken(&e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Size;
    use crate::layout::Layout;
    use crate::solve::{Evidence, SolveOptions, check, solve};
    use tabletop::Rng;

    /// Unlimited work, for small boxes.
    fn unlimited() -> ProofOptions {
        ProofOptions {
            decisions: u64::MAX,
            conflicts: u64::MAX,
            conflicts_per_question: u64::MAX,
            witnesses: 8,
            max_work: usize::MAX,
        }
    }

    fn evidence(n: usize, k: usize, seed: u64, shots: usize) -> Evidence {
        let size = Size::new(n).unwrap();
        let truth = Layout::seeded(size, k, seed).unwrap();
        let mut holes: Vec<usize> = (0..size.holes()).collect();
        Rng::new(seed).shuffle(&mut holes);
        Evidence {
            size: n,
            mirrors: k,
            shots: holes[..shots]
                .iter()
                .map(|&h| (h, truth.trace(h).unwrap().exit))
                .collect(),
            ..Evidence::default()
        }
    }

    /// The proofs against the exact count: with unlimited work every cell
    /// is decided, and the proven cells are exactly the certain ones.
    #[test]
    fn proves_exactly_what_the_count_finds_certain() {
        let mut proven_somewhere = 0;
        for seed in 0..24 {
            let n = 4 + (seed as usize % 3);
            let k = 1 + (seed as usize % 4);
            let ev = evidence(n, k, seed, 2 + (seed as usize * 7) % (4 * n - 2));
            let exact = solve(&ev, &SolveOptions::default()).unwrap();
            assert!(exact.method.counted());
            let checked = check(&ev).unwrap();
            let p = checked.problem.unwrap();
            let Proof::Found(found) = prove(
                &p,
                &checked.pairs,
                &[] as &[Vec<u8>],
                &unlimited(),
                &Budget::unlimited(),
            ) else {
                panic!("no witness for {ev:?}");
            };
            assert!(found.complete, "{ev:?}");
            let size = Size::new(n).unwrap();
            for (i, &v) in found.proven.iter().enumerate() {
                let cell = size.cell(i);
                let certain = if exact.certain_empty.contains(&cell) {
                    EMPTY
                } else if let Some(m) = exact.certain_mirrors.iter().find(|m| m.cell == cell) {
                    super::super::search::code_of(Some(m.mirror))
                } else {
                    UNDECIDED
                };
                assert_eq!(v, certain, "cell {cell} of {ev:?}");
                proven_somewhere += usize::from(v != UNDECIDED);
            }
            // Every witness reproduces every shot.
            for w in &found.witnesses {
                let placed: Vec<_> = w
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &v)| {
                        mirror_of(v).map(|m| crate::layout::Placed::new(size.cell(i), m))
                    })
                    .collect();
                let layout = Layout::new(size, &placed).unwrap();
                assert_eq!(layout.count(), k);
                for &(a, b) in &ev.shots {
                    assert_eq!(layout.trace(a).unwrap().exit, b);
                }
            }
        }
        assert!(proven_somewhere > 100, "{proven_somewhere}");
    }

    #[test]
    fn finds_contradictions() {
        // One mirror cannot send a beam from the left out at the left.
        let ev = Evidence {
            size: 5,
            mirrors: 1,
            shots: vec![(0, 1)],
            ..Evidence::default()
        };
        let checked = check(&ev).unwrap();
        let p = checked.problem.unwrap();
        let proof = prove(
            &p,
            &checked.pairs,
            &[] as &[Vec<u8>],
            &unlimited(),
            &Budget::unlimited(),
        );
        assert_eq!(proof, Proof::Impossible);
    }

    #[test]
    fn no_work_proves_nothing() {
        let ev = evidence(6, 3, 1, 6);
        let checked = check(&ev).unwrap();
        let p = checked.problem.unwrap();
        let options = ProofOptions {
            conflicts: 0,
            ..ProofOptions::default()
        };
        let proof = prove(
            &p,
            &checked.pairs,
            &[] as &[Vec<u8>],
            &options,
            &Budget::unlimited(),
        );
        assert_eq!(proof, Proof::GaveUp { decisions: 0 });
    }
}
