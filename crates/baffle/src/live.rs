//! How many layouts still fit, and each cell's chances, as the game goes:
//! worked out from what the viewer knows, never from the hidden box.
//!
//! Terms:
//! - **layouts left** ([`LayoutsLeft`]): the consistent layouts of the
//!   evidence (exactly `k` mirrors, every shot coming out where it did,
//!   the mirrors found in place, no wrongly guessed mirror; see
//!   [`crate::solve`]). **Exact** when the solver counted them; otherwise
//!   **between** two proven bounds: at least the different layouts the
//!   estimator found (each fits), at most every way to put the mirrors not
//!   yet proven into the cells not yet proven (found mirrors, proven cells
//!   and wrong guesses taken out).
//! - **live** ([`Live`]): the layouts left, each cell's chance of each
//!   content (proven cells say so), and what the best next shot would leave
//!   on average; a function of the evidence alone.
//! - **budget** ([`LIVE_BUDGET`]): the solver gets this much time per
//!   position, first to count, then to advise in the time left; past it,
//!   the answer is the bounds (from the mirrors found and the wrong
//!   guesses), and no cell's chance ([`Worked::OutOfTime`]).
//! - **look back** ([`ShotLook`], [`look_back`]): for each shot, the
//!   layouts left after it beside what the best possible shot from the
//!   position before it would have left on average.
//! - **memo** ([`LiveMemo`]): the answers already worked out, by evidence,
//!   so that each position is solved once however many viewers ask.

use crate::game::{Game, Move, View};
use crate::geometry::Cell;
use crate::layout::Mirror;
use crate::solve::count::Weights;
use crate::solve::{BigUint, Evidence, Method, Solution, SolveOptions, solve_within};
use num_traits::{ToPrimitive, Zero};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabletop::Budget;

/// How much slower this build is than a release build: a debug build
/// (the tests') gets that much more time, so that it works out the same
/// answers.
const SLOWER: u32 = if cfg!(debug_assertions) { 40 } else { 1 };

/// The solver's time for one position of a game in play: small, so that
/// building a view after a move stays quick on every box
/// (docs/performance.md); 30 ms in a release build.
pub const LIVE_BUDGET: Duration = Duration::from_millis(30 * SLOWER as u64);

/// The most positions a [`LiveMemo`] keeps.
const MEMO_LIMIT: usize = 512;

/// The positions, newest first, whose cells' chances a [`LiveMemo`] keeps
/// (on a 26 × 26 box they are 676 cells each); older ones keep their count
/// only, which is all a history needs.
const KEEP_CELLS: u64 = 8;

/// How many layouts fit the evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LayoutsLeft {
    /// Counted by the solver: exactly this many (a decimal string in JSON).
    Exact {
        /// The count.
        #[serde(with = "decimal")]
        layouts: BigUint,
    },
    /// Not counted (too many cases, or not within the time allowed): the
    /// count is proven to lie between these (decimal strings in JSON).
    Between {
        /// At least this many: the different layouts found that fit.
        #[serde(with = "decimal")]
        at_least: BigUint,
        /// At most this many: every way to place the mirrors not proven in
        /// the cells not proven, past 15 digits rounded up to its first
        /// four.
        #[serde(with = "decimal")]
        at_most: BigUint,
    },
}

impl LayoutsLeft {
    /// The exact count, when counted.
    pub fn exact(&self) -> Option<&BigUint> {
        match self {
            Self::Exact { layouts } => Some(layouts),
            Self::Between { .. } => None,
        }
    }
}

impl std::fmt::Display for LayoutsLeft {
    /// "12 layouts still fit", "1 layout fits: every mirror is certain",
    /// "between 3,000 and 2 million layouts fit".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Exact { layouts } if layouts.is_zero() => {
                f.write_str("no layout fits the evidence")
            }
            Self::Exact { layouts } if *layouts == BigUint::from(1u8) => {
                f.write_str("1 layout fits: every mirror is certain")
            }
            Self::Exact { layouts } => {
                write!(f, "{} layouts still fit", number(layouts, Round::Near))
            }
            Self::Between { at_least, at_most } if at_least == at_most => {
                write!(f, "{} layouts still fit", number(at_least, Round::Near))
            }
            Self::Between { at_least, at_most } => write!(
                f,
                "between {} and {} layouts fit",
                number(at_least, Round::Down),
                number(at_most, Round::Up)
            ),
        }
    }
}

/// Which way a number said in words may be rounded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    Down,
    Near,
    Up,
}

/// `n` for people: every digit below a billion ("3,000", "2,304,110"),
/// then "2.3 billion", "45.1 trillion", and past that "3 × 10⁴⁰"; a number
/// rounded says "about", and a bound is rounded the way that keeps it
/// true.
fn number(n: &BigUint, round: Round) -> String {
    let digits = n.to_string();
    let len = digits.len();
    if len <= 9 {
        return grouped(&digits);
    }
    let about = if round == Round::Near { "about " } else { "" };
    // Keep `keep` leading digits, rounded as asked.
    let rounded = |keep: usize| -> u64 {
        let head: u64 = digits[..keep].parse().unwrap_or(0);
        let rest = &digits.as_bytes()[keep..];
        match round {
            Round::Down => head,
            Round::Near => head + u64::from(rest[0] >= b'5'),
            Round::Up => head + u64::from(rest.iter().any(|&b| b != b'0')),
        }
    };
    let tenths = |t: u64| {
        if t % 10 == 0 {
            format!("{}", t / 10)
        } else {
            format!("{}.{}", t / 10, t % 10)
        }
    };
    if len <= 15 {
        // In billions (10 to 12 digits) or trillions (13 to 15), to a
        // tenth.
        let (name, scale) = if len <= 12 {
            ("billion", 9)
        } else {
            ("trillion", 12)
        };
        let t = rounded(len - scale + 1);
        return format!("{about}{} {name}", grouped_tenths(t, &tenths));
    }
    // Two significant digits: `t` is 10 to 100.
    let t = rounded(2);
    let (t, exp) = if t >= 100 {
        (t / 10, len)
    } else {
        (t, len - 1)
    };
    format!("{about}{} × 10{}", tenths(t), superscript(exp))
}

fn grouped_tenths(t: u64, tenths: &dyn Fn(u64) -> String) -> String {
    let text = tenths(t);
    match text.split_once('.') {
        Some((whole, frac)) => format!("{}.{frac}", grouped(whole)),
        None => grouped(&text),
    }
}

/// An average count of layouts for people: "8.4", "1,204", "about 2.3
/// billion", "about 2.9 × 10⁸⁷".
pub fn average_words(x: f64) -> String {
    if x < 100.0 {
        format!("{x:.1}")
    } else if x < 1e15 {
        number(&BigUint::from(x.round() as u64), Round::Near)
    } else {
        let mut e = x.log10().floor();
        let mut m = x / 10f64.powf(e);
        if m >= 9.95 {
            m /= 10.0;
            e += 1.0;
        }
        format!("about {m:.1} × 10{}", superscript(e as usize))
    }
}

fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn superscript(n: usize) -> String {
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string()
        .bytes()
        .map(|b| SUP[usize::from(b - b'0')])
        .collect()
}

/// One cell's chances (shares of the layouts that fit), to four decimals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellChance {
    /// The chance it holds `/`.
    pub slash: f64,
    /// The chance it holds `\`.
    pub backslash: f64,
    /// Whether its content is proven (the same in every layout that fits).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proven: bool,
    /// The standard error of its chance of a mirror, when estimated.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub std_error: f64,
    /// In how many of the layouts it holds a mirror, when they were
    /// counted and number at most [`Live::COUNTED_CELLS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mirror_layouts: Option<u64>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// How the count was worked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Worked {
    /// Counted: the count and every chance exact.
    Counted,
    /// Too many cases to count: the chances estimated from a sample, the
    /// count between proven bounds.
    Estimated,
    /// The solver did not answer within its time: the count between the
    /// bounds the found mirrors and wrong guesses prove, no chances.
    OutOfTime,
}

/// What the evidence says now, for people.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Live {
    /// How it was worked out.
    pub worked: Worked,
    /// How many layouts still fit.
    pub layouts: LayoutsLeft,
    /// That in words ("12 layouts still fit").
    pub words: String,
    /// Every cell's chances, row by row; empty when the solver did not
    /// answer within its time.
    pub cells: Vec<CellChance>,
    /// The layouts the best next shot would leave on average, when counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_next: Option<f64>,
    /// The hole of that shot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_hole: Option<usize>,
}

impl Live {
    /// The largest count for which each cell's own count of layouts is
    /// given ([`CellChance::mirror_layouts`]).
    pub const COUNTED_CELLS: u64 = 1_000_000;

    /// `cell`'s chances (`None` outside the box or when not worked out).
    pub fn cell(&self, size: usize, cell: Cell) -> Option<&CellChance> {
        let (r, c) = (cell.row as usize, cell.col as usize);
        (r < size && c < size)
            .then(|| self.cells.get(r * size + c))
            .flatten()
    }
}

/// What the evidence says, worked out within `budget` (never fails: past
/// the budget, or on evidence the solver refuses, the answer is the
/// bounds). First the count and the cells; then, in the time left, the
/// best next shot.
pub fn live_within(ev: &Evidence, budget: Duration) -> Live {
    let started = std::time::Instant::now();
    let (b, _cancel) = Budget::with_limit(budget);
    let count_only = SolveOptions {
        advice: false,
        ..SolveOptions::default()
    };
    let Ok(counted) = solve_within(ev, &count_only, &b) else {
        return from_solution(ev, None);
    };
    let left = budget.saturating_sub(started.elapsed());
    // The advice only where the layouts were counted (an estimate's
    // advice gives no count to compare a shot with).
    let advised = (counted.layouts.is_some() && !left.is_zero())
        .then(|| {
            let (b, _cancel) = Budget::with_limit(left);
            solve_within(ev, &SolveOptions::default(), &b).ok()
        })
        .flatten();
    from_solution(ev, Some(advised.as_ref().unwrap_or(&counted)))
}

/// [`Live`] from the solver's answer (`None`: it gave none).
pub fn from_solution(ev: &Evidence, solution: Option<&Solution>) -> Live {
    let (worked, layouts) = match solution {
        Some(s) => match (&s.layouts, s.method) {
            (Some(n), _) => (Worked::Counted, LayoutsLeft::Exact { layouts: n.clone() }),
            (None, Method::Estimated { .. }) => (
                Worked::Estimated,
                LayoutsLeft::Between {
                    at_least: BigUint::from(s.found_layouts.unwrap_or(1).max(1)),
                    at_most: upper_bound(ev, Some(s)),
                },
            ),
            (None, _) => (Worked::OutOfTime, bounds_only(ev)),
        },
        None => (Worked::OutOfTime, bounds_only(ev)),
    };
    let counted = layouts
        .exact()
        .and_then(ToPrimitive::to_u64)
        .filter(|&n| n <= Live::COUNTED_CELLS);
    let round = |x: f64| (x * 1e4).round() / 1e4;
    let cells = solution
        .map(|s| {
            s.cells
                .iter()
                .map(|c| CellChance {
                    slash: round(c.slash),
                    backslash: round(c.backslash),
                    proven: c.proven,
                    std_error: round(c.std_error),
                    mirror_layouts: counted
                        .map(|n| ((c.slash + c.backslash) * n as f64).round() as u64),
                })
                .collect()
        })
        .unwrap_or_default();
    let best = solution.and_then(|s| s.best_next_shot.as_ref());
    let words = match (worked, &layouts) {
        (Worked::OutOfTime, LayoutsLeft::Between { at_most, .. }) => format!(
            "too many layouts to count in time: at most {} fit",
            number(at_most, Round::Up)
        ),
        _ => layouts.to_string(),
    };
    Live {
        worked,
        words,
        layouts,
        cells,
        best_next: best
            .and_then(|b| b.expected_layouts)
            .map(|x| (x * 100.0).round() / 100.0),
        best_hole: best.map(|b| b.hole),
    }
}

/// The bounds when the solver said nothing: at least the box itself, at
/// most the ways round the found mirrors and the wrong guesses.
fn bounds_only(ev: &Evidence) -> LayoutsLeft {
    LayoutsLeft::Between {
        at_least: BigUint::from(1u8),
        at_most: upper_bound(ev, None),
    }
}

/// Every way to put the mirrors not proven into the cells not proven: a
/// cell a wrong guess ruled one mirror out of has two contents left, one
/// ruled both out of is empty, any other has three.
fn upper_bound(ev: &Evidence, solution: Option<&Solution>) -> BigUint {
    let n = ev.size;
    let cells = n * n;
    let mut proven_mirrors = 0usize;
    let mut settled = vec![false; cells];
    // A cell outside the box indexes past the end, and is passed over.
    let index = |c: Cell| {
        if (c.row as usize) < n && (c.col as usize) < n {
            c.row as usize * n + c.col as usize
        } else {
            usize::MAX
        }
    };
    for p in &ev.found {
        if let Some(s) = settled.get_mut(index(p.cell)) {
            if !*s {
                proven_mirrors += 1;
            }
            *s = true;
        }
    }
    if let Some(s) = solution {
        for (i, c) in s.cells.iter().enumerate() {
            if c.proven && i < cells && !settled[i] {
                settled[i] = true;
                proven_mirrors += usize::from(c.empty < 0.5);
            }
        }
    }
    let mut ruled = vec![[false; 2]; cells];
    for p in &ev.not {
        if let Some(r) = ruled.get_mut(index(p.cell)) {
            r[usize::from(p.mirror == Mirror::Backslash)] = true;
        }
    }
    let (mut a, mut b) = (0, 0);
    for i in 0..cells {
        if settled[i] {
            continue;
        }
        match ruled[i] {
            [false, false] => a += 1,
            [true, true] => {}
            _ => b += 1,
        }
    }
    let left = ev.mirrors.saturating_sub(proven_mirrors);
    rounded_up(Weights::default().completions(a, b, left))
}

/// A bound of more than this many digits is written with its first
/// [`BOUND_DIGITS`] only, rounded up (the rest zeros): still a proven
/// upper bound, and its hundreds of digits said nothing a player reads
/// ("2.8 × 10²⁹⁰") but took a big box's answer past 1 KB.
const FULL_DIGITS: usize = 15;

/// The digits kept of a bound past [`FULL_DIGITS`].
const BOUND_DIGITS: u32 = 4;

/// `n`, or past [`FULL_DIGITS`] digits the least number of
/// [`BOUND_DIGITS`] leading digits, then zeros, that is at least `n`.
fn rounded_up(n: BigUint) -> BigUint {
    let digits = n.to_string().len();
    if digits <= FULL_DIGITS {
        return n;
    }
    let scale = BigUint::from(10u8).pow(digits as u32 - BOUND_DIGITS);
    let head = (&n + &scale - 1u8) / &scale;
    head * scale
}

/// The evidence after each number of moves of `game`: entry `m` is what
/// its player knew after their first `m` moves (the shots and the guesses
/// in the order made).
pub fn evidence_by_move(game: &Game) -> Vec<Evidence> {
    evidence_by_move_of(&game.view(), game.moves())
}

/// [`evidence_by_move`] from a view and the moves that made it.
pub fn evidence_by_move_of(view: &View, moves: &[Move]) -> Vec<Evidence> {
    let mut ev = Evidence {
        size: view.size,
        mirrors: view.mirrors,
        sides: view.sides,
        ..Evidence::default()
    };
    let mut out = vec![ev.clone()];
    let (mut shots, mut guesses) = (view.shots.iter(), view.guesses.iter());
    for mv in moves {
        match mv {
            Move::Shoot { .. } => {
                if let Some(s) = shots.next() {
                    ev.shots.push((s.hole, s.exit));
                }
            }
            Move::Guess { .. } => {
                if let Some(g) = guesses.next() {
                    let placed = crate::layout::Placed::new(g.cell, g.mirror);
                    if g.right {
                        ev.found.push(placed);
                    } else {
                        ev.not.push(placed);
                    }
                }
            }
            Move::Quit => {}
        }
        out.push(ev.clone());
    }
    out
}

/// One shot in the look back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShotLook {
    /// The shot's number (from 1).
    pub number: usize,
    /// Its hole.
    pub hole: usize,
    /// Where it came out.
    pub exit: usize,
    /// The layouts that fit before it.
    pub before: LayoutsLeft,
    /// The layouts that fit after it.
    pub after: LayoutsLeft,
    /// The layouts the best possible shot from the position before it
    /// would have left on average (when counted).
    pub best: Option<f64>,
    /// That shot's hole.
    pub best_hole: Option<usize>,
}

impl std::fmt::Display for ShotLook {
    /// "Shot 3, 7 → 22: 12 layouts still fit (the best shot then, into 9,
    /// would have left 8.4 on average)."
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Shot {}, {} → {}: {}",
            self.number, self.hole, self.exit, self.after
        )?;
        match (self.best, self.best_hole) {
            (Some(best), Some(hole)) => write!(
                f,
                " (the best shot then, into {hole}, would have left {} on average).",
                average_words(best)
            ),
            _ if self.before.exact().is_some() => {
                f.write_str(" (no shot could have told the layouts apart).")
            }
            _ => f.write_str(" (the best shot was not worked out: too many layouts to count)."),
        }
    }
}

/// The look back of `game`'s shots, each position worked out within
/// `each` through `memo`: a position the memo holds counted or estimated
/// is not solved again; one that ran out of time during the game is, with
/// `each`. Once `total` runs out (or is withdrawn), the positions left
/// take what the memo holds, else the bounds.
pub fn look_back(game: &Game, each: Duration, memo: &LiveMemo, total: &Budget) -> Vec<ShotLook> {
    let evidence = evidence_by_move(game);
    let view = game.view();
    let mut out = Vec::new();
    let mut shots = view.shots.iter();
    for (m, mv) in game.moves().iter().enumerate() {
        if !matches!(mv, Move::Shoot { .. }) {
            continue;
        }
        let Some(shot) = shots.next() else { break };
        let at = |ev: &Evidence| {
            let known = memo.get(ev);
            match known {
                Some(live) if live.worked != Worked::OutOfTime => live,
                _ if total.check().is_err() => {
                    known.unwrap_or_else(|| Arc::new(from_solution(ev, None)))
                }
                _ => memo.solve_again(ev, each),
            }
        };
        let before = at(&evidence[m]);
        let after = at(&evidence[m + 1]);
        out.push(ShotLook {
            number: out.len() + 1,
            hole: shot.hole,
            exit: shot.exit,
            before: before.layouts.clone(),
            after: after.layouts.clone(),
            best: before.best_next,
            best_hole: before.best_hole,
        });
    }
    out
}

/// The solver's time for the shots of a view's history not yet worked
/// out (after a restart, or in a replay), in all, beyond the current
/// position's: the rest say nothing until a later view (60 ms in a
/// release build).
pub const HISTORY_BUDGET: Duration = Duration::from_millis(60 * SLOWER as u64);

/// Fills `view` (of `game`'s box, as its player or a spectator sees it)
/// with what its evidence says: [`View::live`] for the position now, and
/// each shot's [`crate::game::ShotCount`] from the positions before and
/// after it, where the position after it was counted or estimated (not
/// where it ran out of time). Worked out from the view's evidence only, through `memo`;
/// the current position within [`LIVE_BUDGET`], the history's positions
/// not yet known within [`HISTORY_BUDGET`] in all. `game` is `None` for a
/// box with nothing played (a spectator's view of a race).
pub fn fill(view: &mut View, game: Option<&Game>, memo: &LiveMemo) {
    fill_with(view, game, memo, true);
}

/// Fills `view` as [`fill`] does, but only with what `memo` already
/// holds: nothing is solved, so it costs no time (a view built on a
/// move's path); [`fill`] on a copy of the game, away from it, works the
/// rest out into the shared memo.
pub fn fill_known(view: &mut View, game: Option<&Game>, memo: &LiveMemo) {
    fill_with(view, game, memo, false);
}

/// Whether `memo` already holds the answer for the position `view` (of
/// `game`'s box) shows now.
pub fn known(view: &View, game: Option<&Game>, memo: &LiveMemo) -> bool {
    let now = match game {
        Some(game) => evidence_by_move_of(view, game.moves()).pop(),
        None => Some(view.evidence()),
    };
    now.is_none_or(|now| {
        memo.get(&now)
            .is_some_and(|live| !live.cells.is_empty() || live.worked == Worked::OutOfTime)
    })
}

/// [`fill`] (solving what `memo` lacks when `solve`) or [`fill_known`].
fn fill_with(view: &mut View, game: Option<&Game>, memo: &LiveMemo, solve: bool) {
    let (now_budget, history_budget) = memo.budgets();
    let evidence = match game {
        Some(game) => evidence_by_move_of(view, game.moves()),
        None => vec![view.evidence()],
    };
    let Some(now) = evidence.last() else { return };
    // A position whose cells the memo no longer keeps is solved again.
    let live = match memo.get(now) {
        Some(live) if !live.cells.is_empty() || live.worked == Worked::OutOfTime => Some(live),
        _ if solve => Some(memo.solve_again(now, now_budget)),
        _ => None,
    };
    view.live = live.map(|live| (*live).clone());
    let Some(game) = game else { return };
    let started = std::time::Instant::now();
    let known = |ev: &Evidence| -> Option<Arc<Live>> {
        memo.get(ev).or_else(|| {
            (solve && started.elapsed() < history_budget).then(|| memo.get_or_solve(ev, now_budget))
        })
    };
    let shot_moves = game
        .moves()
        .iter()
        .enumerate()
        .filter(|(_, mv)| matches!(mv, Move::Shoot { .. }))
        .map(|(m, _)| m);
    // Latest first: the newest shots matter most when time runs short.
    let pairs: Vec<(usize, usize)> = shot_moves.enumerate().collect();
    for &(i, m) in pairs.iter().rev() {
        let (Some(before), Some(after)) = (evidence.get(m), evidence.get(m + 1)) else {
            continue;
        };
        // A position not worked out in time has the evidence's bounds
        // only, the same shot after shot: its count says nothing a
        // player can use, and `live` gives the bounds for the position
        // now.
        let Some(after) = known(after).filter(|a| a.worked != Worked::OutOfTime) else {
            continue;
        };
        let best = known(before).and_then(|b| b.best_next);
        if let Some(shot) = view.shots.get_mut(i) {
            shot.count = Some(crate::game::ShotCount {
                layouts: after.layouts.clone(),
                words: after.words.clone(),
                best,
                best_words: best.map(average_words),
            });
        }
    }
}

/// The answers worked out so far, by evidence (bounded: the oldest half
/// is dropped when full), and the time [`fill`] gives the solver. Clones
/// share it; it is no part of a game's state, so two memos are always
/// equal.
#[derive(Clone, Debug)]
pub struct LiveMemo {
    memo: Arc<Mutex<Memo>>,
    /// The current position's budget, and the history's in all.
    budgets: (Duration, Duration),
}

impl Default for LiveMemo {
    /// [`LIVE_BUDGET`] and [`HISTORY_BUDGET`].
    fn default() -> Self {
        Self::with_budgets(LIVE_BUDGET, HISTORY_BUDGET)
    }
}

#[derive(Debug, Default)]
struct Memo {
    by_evidence: HashMap<Evidence, (u64, Arc<Live>)>,
    clock: u64,
}

impl PartialEq for LiveMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LiveMemo {}

impl LiveMemo {
    /// An empty memo whose [`fill`] gives the solver `now` for the current
    /// position and `history` in all for the history's (tests give ample
    /// time, so that their answers do not depend on the machine's speed).
    pub fn with_budgets(now: Duration, history: Duration) -> Self {
        Self {
            memo: Arc::default(),
            budgets: (now, history),
        }
    }

    /// The current position's budget, and the history's in all.
    pub fn budgets(&self) -> (Duration, Duration) {
        self.budgets
    }

    /// The answer for `ev`, if worked out.
    pub fn get(&self, ev: &Evidence) -> Option<Arc<Live>> {
        let memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        memo.by_evidence.get(ev).map(|(_, live)| Arc::clone(live))
    }

    /// The answer for `ev`, worked out within `budget` if not yet known.
    pub fn get_or_solve(&self, ev: &Evidence, budget: Duration) -> Arc<Live> {
        if let Some(live) = self.get(ev) {
            return live;
        }
        self.solve_again(ev, budget)
    }

    /// The answer for `ev` worked out within `budget`, kept in place of
    /// what the memo held unless that was better (counted or estimated
    /// where this ran out of time).
    pub fn solve_again(&self, ev: &Evidence, budget: Duration) -> Arc<Live> {
        // Solved outside the lock: another viewer may solve the same
        // position meanwhile, and the answers are the same.
        let live = Arc::new(live_within(ev, budget));
        if live.worked == Worked::OutOfTime
            && let Some(known) = self.get(ev)
            && known.worked != Worked::OutOfTime
        {
            return known;
        }
        let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        memo.clock += 1;
        let now = memo.clock;
        if memo.by_evidence.len() >= MEMO_LIMIT {
            let mut ages: Vec<u64> = memo.by_evidence.values().map(|(t, _)| *t).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            memo.by_evidence.retain(|_, (t, _)| *t > cut);
        }
        memo.by_evidence
            .insert(ev.clone(), (now, Arc::clone(&live)));
        for (t, old) in memo.by_evidence.values_mut() {
            if *t + KEEP_CELLS <= now && !old.cells.is_empty() {
                let mut count_only = (**old).clone();
                count_only.cells = Vec::new();
                *old = Arc::new(count_only);
            }
        }
        live
    }
}

mod decimal {
    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    pub fn serialize<S: Serializer>(v: &BigUint, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BigUint, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: u128, round: Round) -> String {
        number(&BigUint::from(n), round)
    }

    #[test]
    fn numbers_read_for_people_and_bounds_stay_true() {
        assert_eq!(words(12, Round::Near), "12");
        assert_eq!(words(3000, Round::Down), "3,000");
        assert_eq!(words(2_304_110, Round::Near), "2,304,110");
        assert_eq!(words(2_340_000_000, Round::Near), "about 2.3 billion");
        assert_eq!(words(2_340_000_000, Round::Up), "2.4 billion");
        assert_eq!(words(2_340_000_000, Round::Down), "2.3 billion");
        assert_eq!(words(99_990_000_000, Round::Up), "100 billion");
        assert_eq!(words(999_999_999_999, Round::Up), "1,000 billion");
        assert_eq!(words(45_000_000_000_000, Round::Near), "about 45 trillion");
        assert_eq!(words(3 * 10u128.pow(20), Round::Near), "about 3 × 10²⁰");
        assert_eq!(words(3 * 10u128.pow(20) + 1, Round::Up), "3.1 × 10²⁰");
        assert_eq!(words(999 * 10u128.pow(20), Round::Up), "1 × 10²³");
        assert_eq!(words(999 * 10u128.pow(20), Round::Down), "9.9 × 10²²");
        assert_eq!(average_words(8.44), "8.4");
        assert_eq!(average_words(1204.4), "1,204");
        assert_eq!(average_words(2.85e87), "about 2.9 × 10⁸⁷");
        assert_eq!(average_words(9.96e40), "about 1.0 × 10⁴¹");
        let between = LayoutsLeft::Between {
            at_least: BigUint::from(3000u32),
            at_most: BigUint::from(2_000_000u32),
        };
        assert_eq!(
            between.to_string(),
            "between 3,000 and 2,000,000 layouts fit"
        );
        let one = LayoutsLeft::Exact {
            layouts: BigUint::from(1u8),
        };
        assert_eq!(one.to_string(), "1 layout fits: every mirror is certain");
    }

    #[test]
    fn a_long_bound_keeps_four_digits_rounded_up() {
        let up = |n: u128| rounded_up(BigUint::from(n)).to_string();
        // Up to 15 digits, as it is.
        assert_eq!(up(999_999_999_999_999), "999999999999999");
        assert_eq!(up(1_234_000_000_000_000), "1234000000000000");
        assert_eq!(up(1_234_000_000_000_001), "1235000000000000");
        assert_eq!(up(9_999_100_000_000_000), "10000000000000000");
        // A box's real bound: 26 × 26, 300 mirrors, nothing proven.
        let ev = Evidence {
            size: 26,
            mirrors: 300,
            ..Evidence::default()
        };
        let full = Weights::default().completions(676, 0, 300);
        let bound = upper_bound(&ev, None);
        assert!(bound >= full);
        let written = bound.to_string();
        assert_eq!(written.len(), full.to_string().len());
        assert_eq!(written.trim_end_matches('0').len(), 4, "{written}");
        assert!(bound - &full < BigUint::from(10u8).pow(287));
    }
}
