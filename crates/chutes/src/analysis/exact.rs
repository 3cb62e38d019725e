//! Exact answers in rational numbers: the mean and variance of the game
//! length as fractions p/q, and counts of dice sequences.
//!
//! Terms:
//! - **expected rolls** E[s]: the mean number of rolls to finish from state
//!   `s`; E[N] = 0 and E[s] = 1 + (1/f) Σ_r E[to(s, r)].
//! - **backward move**: a roll from `s` that ends below `s` (a chute, or a
//!   bounce); its end is an **anchor**.
//! - **anchor elimination**: states are solved from N downwards, each E[s]
//!   kept as an affine function of the anchors' unknown values (a lost turn
//!   only divides by f − (lost rolls)); then one small linear system over
//!   the anchors is solved exactly. On the classic board that is 10
//!   unknowns, not 100.
//! - **finishing count** c(n): the number of the fⁿ dice sequences of n rolls
//!   whose game ends exactly at roll n; P(T = n) = c(n) / fⁿ exactly.

use super::AnalysisError;
use super::chain::{Chain, Reach};
use crate::board::Board;
use crate::rules::Rules;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// The most anchors (backward move ends) an exact solve takes on.
pub const MAX_ANCHORS: usize = 400;
/// The most (reachable states × (anchors + 1)) an exact solve takes on.
pub const MAX_TERMS: usize = 4_000_000;

/// The exact mean and variance of one player's game length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactMoments {
    /// E[T] as a reduced fraction.
    pub mean: BigRational,
    /// Var[T] as a reduced fraction.
    pub variance: BigRational,
}

impl ExactMoments {
    /// The mean as `p/q` (or `p` when whole).
    pub fn mean_text(&self) -> String {
        fraction_text(&self.mean)
    }

    /// The mean rounded to an `f64`.
    pub fn mean_f64(&self) -> f64 {
        to_f64(&self.mean)
    }

    /// The standard deviation (the square root of the exact variance),
    /// rounded to an `f64`.
    pub fn sd_f64(&self) -> f64 {
        to_f64(&self.variance).sqrt()
    }
}

/// A fraction as `p/q`, or `p` when q is 1.
pub fn fraction_text(x: &BigRational) -> String {
    if x.denom().is_one() {
        x.numer().to_string()
    } else {
        format!("{}/{}", x.numer(), x.denom())
    }
}

/// A fraction rounded to the nearest `f64` (well within an ulp for
/// fractions of any size).
pub fn to_f64(x: &BigRational) -> f64 {
    // Scale so the integer quotient carries 64 significant bits.
    let num = x.numer();
    let den = x.denom();
    if num.is_zero() {
        return 0.0;
    }
    let shift = 64i64 - (num.bits() as i64 - den.bits() as i64);
    let (n, d) = if shift >= 0 {
        (num << (shift as usize), den.clone())
    } else {
        (num.clone(), den << ((-shift) as usize))
    };
    let q: BigInt = n / d;
    let mant: f64 = q.to_string().parse().unwrap_or(f64::NAN);
    mant * 2f64.powi(-(shift as i32))
}

/// The exact mean and variance of the game length on `board` under `rules`.
///
/// # Errors
/// [`AnalysisError::Unfinishable`] when some games never end (the mean is
/// infinite); [`AnalysisError::TooLarge`] when the board has more than
/// [`MAX_ANCHORS`] backward-move ends or the work would pass
/// [`MAX_TERMS`].
pub fn moments(board: &Board, rules: &Rules) -> Result<ExactMoments, AnalysisError> {
    let chain = Chain::new(board, rules);
    let reach = chain.reach();
    moments_chain(&chain, &reach)
}

/// [`moments`] on a chain already built.
///
/// # Errors
/// As [`moments`].
pub fn moments_chain(chain: &Chain, reach: &Reach) -> Result<ExactMoments, AnalysisError> {
    if let Some(&dead) = reach.dead.first() {
        return Err(AnalysisError::Unfinishable {
            dead,
            what: "mean game length",
        });
    }
    let solver = Solver::new(chain, reach)?;
    let f = BigRational::from_integer(BigInt::from(chain.faces()));
    let e = solver.solve(|_| f.clone());
    let two = BigRational::from_integer(BigInt::from(2));
    let zero = BigRational::zero();
    let value = |t: u32| -> &BigRational {
        if t == chain.finish() {
            &zero
        } else {
            e.get(&t).unwrap_or(&zero)
        }
    };
    let v = solver.solve(|s| {
        let mut sum = BigRational::zero();
        for r in 1..=chain.faces() {
            sum += value(chain.step(s, r).to);
        }
        &f + &two * sum
    });
    let start = chain.start();
    let mean = value(start).clone();
    let second = v.get(&start).cloned().unwrap_or_else(BigRational::zero);
    let variance = second - &mean * &mean;
    Ok(ExactMoments { mean, variance })
}

/// An affine function of the anchors: `c + Σ coef[i] · x[i]`.
#[derive(Clone, Debug)]
struct Affine {
    c: BigRational,
    coef: Vec<BigRational>,
}

struct Solver<'a> {
    chain: &'a Chain,
    /// Reachable transient states, descending.
    states: Vec<u32>,
    anchors: HashMap<u32, usize>,
    anchor_list: Vec<u32>,
}

impl<'a> Solver<'a> {
    fn new(chain: &'a Chain, reach: &Reach) -> Result<Self, AnalysisError> {
        let states: Vec<u32> = (0..chain.finish())
            .rev()
            .filter(|&s| reach.reachable[s as usize])
            .collect();
        let mut anchor_list = Vec::new();
        let mut anchors = HashMap::new();
        for &s in &states {
            for r in 1..=chain.faces() {
                let t = chain.step(s, r).to;
                if t < s && !anchors.contains_key(&t) {
                    anchors.insert(t, anchor_list.len());
                    anchor_list.push(t);
                }
            }
        }
        let m = anchor_list.len();
        if m > MAX_ANCHORS || states.len().saturating_mul(m + 1) > MAX_TERMS {
            return Err(AnalysisError::TooLarge(format!(
                "an exact fraction here means {} states and {m} squares that chutes or bounces lead back to \
                 (the limits are {MAX_ANCHORS} such squares and {MAX_TERMS} state × square terms); \
                 use the floating-point mean instead",
                states.len()
            )));
        }
        Ok(Self {
            chain,
            states,
            anchors,
            anchor_list,
        })
    }

    /// Solves E[s] = (rhs(s) + Σ_{r: to ≠ s} E[to]) / (f − lost(s)), E[N] = 0,
    /// for every reachable state.
    fn solve(&self, rhs: impl Fn(u32) -> BigRational) -> HashMap<u32, BigRational> {
        let chain = self.chain;
        let m = self.anchor_list.len();
        let faces = i64::from(chain.faces());
        let mut expr: HashMap<u32, Affine> = HashMap::with_capacity(self.states.len());
        for &s in &self.states {
            let mut acc = Affine {
                c: rhs(s),
                coef: vec![BigRational::zero(); m],
            };
            let mut stay = 0i64;
            for r in 1..=chain.faces() {
                let t = chain.step(s, r).to;
                if t == s {
                    stay += 1;
                } else if t == chain.finish() {
                } else if t > s {
                    if let Some(e) = expr.get(&t) {
                        acc.c += &e.c;
                        for (a, b) in acc.coef.iter_mut().zip(&e.coef) {
                            if !b.is_zero() {
                                *a += b;
                            }
                        }
                    }
                } else if let Some(&i) = self.anchors.get(&t) {
                    acc.coef[i] += BigRational::one();
                }
            }
            let d = BigRational::from_integer(BigInt::from(faces - stay));
            acc.c /= &d;
            for a in &mut acc.coef {
                if !a.is_zero() {
                    *a /= &d;
                }
            }
            expr.insert(s, acc);
        }
        // x[i] = expr(anchor i): (I - C) x = c.
        let mut a: Vec<Vec<BigRational>> = Vec::with_capacity(m);
        let mut b: Vec<BigRational> = Vec::with_capacity(m);
        for (i, t) in self.anchor_list.iter().enumerate() {
            let e = &expr[t];
            let mut row: Vec<BigRational> = e.coef.iter().map(|c| -c).collect();
            row[i] += BigRational::one();
            a.push(row);
            b.push(e.c.clone());
        }
        let x = solve_exact(a, b);
        expr.into_iter()
            .map(|(s, e)| {
                let mut v = e.c;
                for (c, xi) in e.coef.iter().zip(&x) {
                    if !c.is_zero() {
                        v += c * xi;
                    }
                }
                (s, v)
            })
            .collect()
    }
}

/// Solves `a · x = b` exactly by Gaussian elimination (the systems here are
/// nonsingular: every game ends).
fn solve_exact(mut a: Vec<Vec<BigRational>>, mut b: Vec<BigRational>) -> Vec<BigRational> {
    let m = b.len();
    for col in 0..m {
        let Some(pivot) = (col..m).find(|&r| !a[r][col].is_zero()) else {
            continue;
        };
        a.swap(col, pivot);
        b.swap(col, pivot);
        let head = a[col].clone();
        let head_b = b[col].clone();
        for row in col + 1..m {
            if a[row][col].is_zero() {
                continue;
            }
            let factor = &a[row][col] / &head[col];
            for (cell, h) in a[row][col..].iter_mut().zip(&head[col..]) {
                if !h.is_zero() {
                    *cell -= &factor * h;
                }
            }
            b[row] -= &factor * &head_b;
        }
    }
    let mut x = vec![BigRational::zero(); m];
    for row in (0..m).rev() {
        if a[row][row].is_zero() {
            continue;
        }
        let mut sum = b[row].clone();
        for c in row + 1..m {
            if !a[row][c].is_zero() {
                sum -= &a[row][c] * &x[c];
            }
        }
        x[row] = sum / &a[row][row];
    }
    x
}

/// `counts[n]`: how many of the fⁿ dice sequences of n rolls end the game
/// exactly at roll n, for n = 0..=`rolls`.
pub fn finishing_counts(board: &Board, rules: &Rules, rolls: u32) -> Vec<BigUint> {
    let chain = Chain::new(board, rules);
    let n = chain.finish() as usize;
    let mut ways = vec![BigUint::zero(); n + 1];
    ways[chain.start() as usize] = BigUint::one();
    let mut counts = vec![BigUint::zero()];
    for _ in 0..rolls {
        let mut next = vec![BigUint::zero(); n + 1];
        for (s, w) in ways.iter().enumerate().take(n) {
            if w.is_zero() {
                continue;
            }
            for r in 1..=chain.faces() {
                next[chain.step(s as u32, r).to as usize] += w;
            }
        }
        counts.push(std::mem::take(&mut next[n]));
        ways = next;
    }
    counts
}

/// P(T ≤ `rolls`) exactly: Σ_{n ≤ rolls} c(n) / fⁿ.
pub fn probability_within(board: &Board, rules: &Rules, rolls: u32) -> BigRational {
    let f = BigInt::from(rules.faces());
    let mut total = BigRational::zero();
    let mut power = BigInt::one();
    for c in finishing_counts(board, rules, rolls) {
        total += BigRational::new(BigInt::from(c), power.clone());
        power *= &f;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::markov;
    use crate::board::{BoardSpec, Jump};
    use crate::rules::Overshoot;

    fn board(size: u32, start: u32, jumps: &[(u32, u32)]) -> Board {
        Board::new(BoardSpec {
            name: None,
            size,
            start,
            jumps: jumps.iter().map(|&(a, b)| Jump::new(a, b)).collect(),
            geometry: None,
        })
        .unwrap()
    }

    fn ratio(p: i64, q: i64) -> BigRational {
        BigRational::new(BigInt::from(p), BigInt::from(q))
    }

    #[test]
    fn geometric_board_is_exact() {
        // N = 2 from 1: geometric with p = 1/6, mean 6, variance 30.
        let m = moments(&board(2, 1, &[]), &Rules::default()).unwrap();
        assert_eq!(m.mean, ratio(6, 1));
        assert_eq!(m.variance, ratio(30, 1));
        assert_eq!(m.mean_text(), "6");
        // From 0 on N = 2: first roll 1 → square 1 (then geometric), roll 2
        // finishes, 3..6 lost. E0 = 1 + E1/6 + 4 E0/6 → E0 = (6 + 6)/2 = 6.
        let m = moments(&board(2, 0, &[]), &Rules::default()).unwrap();
        assert_eq!(m.mean, ratio(6, 1));
    }

    #[test]
    fn exact_mean_agrees_with_markov_everywhere() {
        let boards = [
            Board::classic(),
            board(30, 1, &[(3, 9), (9, 3), (5, 12), (12, 15), (29, 2)]),
            board(7, 0, &[(6, 1)]),
            board(3, 0, &[]),
        ];
        for b in &boards {
            for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
                for faces in [1, 4, 6] {
                    let rules = Rules::new(o, faces).unwrap();
                    let exact = match moments(b, &rules) {
                        Ok(m) => m,
                        Err(AnalysisError::Unfinishable { .. }) => continue,
                        Err(e) => panic!("{e}"),
                    };
                    let d = markov::distribution(b, &rules, 1e-13).unwrap();
                    let (mean, sd) = (d.mean.unwrap(), d.sd.unwrap());
                    assert!(
                        (exact.mean_f64() - mean).abs() < 1e-9 * mean.max(1.0),
                        "{o} d{faces}: {} vs {mean}",
                        exact.mean_f64()
                    );
                    assert!(
                        (exact.sd_f64() - sd).abs() < 1e-6 * sd.max(1.0),
                        "{o} d{faces}: sd {} vs {sd}",
                        exact.sd_f64()
                    );
                }
            }
        }
    }

    #[test]
    fn unfinishable_boards_have_no_exact_mean() {
        let walled = board(12, 0, &[(5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]);
        assert!(matches!(
            moments(&walled, &Rules::default()),
            Err(AnalysisError::Unfinishable { .. })
        ));
    }

    #[test]
    fn finishing_counts_match_brute_force() {
        // Every one of the 6^5 sequences, played through Rules::step.
        let b = Board::classic();
        let rules = Rules::default();
        let counts = finishing_counts(&b, &rules, 8);
        assert!(counts[..7].iter().all(Zero::is_zero));
        let mut brute = 0u64;
        let mut dice = [1u8; 7];
        loop {
            let mut at = 0;
            for (i, &r) in dice.iter().enumerate() {
                at = rules.step(&b, at, r).to;
                if at == 100 {
                    if i == 6 {
                        brute += 1;
                    }
                    break;
                }
            }
            // Next sequence in base 6.
            let mut i = 0;
            while i < 7 && dice[i] == 6 {
                dice[i] = 1;
                i += 1;
            }
            if i == 7 {
                break;
            }
            dice[i] += 1;
        }
        assert_eq!(counts[7], BigUint::from(brute));
        assert!(brute > 0);
    }

    #[test]
    fn fractions_print_and_round() {
        assert_eq!(fraction_text(&ratio(6, 4)), "3/2");
        assert_eq!(to_f64(&ratio(1, 3)), 1.0 / 3.0);
        assert_eq!(to_f64(&ratio(-7, 2)), -3.5);
        assert_eq!(to_f64(&BigRational::zero()), 0.0);
    }
}
