//! Exact answers in rational numbers: the mean and variance of the game
//! length as fractions p/q, and counts of dice sequences.
//!
//! Terms:
//! - **expected rolls** E\[s\]: the mean number of rolls to finish from state
//!   `s`; E\[N\] = 0 and E\[s\] = 1 + (1/f) Σ_r E\[to(s, r)\].
//! - **backward move**: a roll from `s` that ends below `s` (a chute, or a
//!   bounce); its end is an **anchor**.
//! - **anchor elimination**: states are solved from N downwards, each E\[s\]
//!   kept as an affine function of the anchors' unknown values (a lost turn
//!   only divides by f − (lost rolls)); then one small linear system over
//!   the anchors is solved. On the classic board that is 10 unknowns, not
//!   100. All of it is done modulo 62-bit primes.
//! - **rational reconstruction**: the residues, joined by the Chinese
//!   remainder theorem, determine the fraction once the primes' product
//!   passes a proven bound on its numerator and denominator.
//! - **finishing count** c(n): the number of the fⁿ dice sequences of n rolls
//!   whose game ends exactly at roll n; P(T = n) = c(n) / fⁿ exactly.

use super::AnalysisError;
use super::chain::{Chain, Reach};
use crate::board::Board;
use crate::rules::Rules;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use tabletop::{Budget, Stopped};

/// The most anchors (backward move ends) an exact solve takes on.
pub const MAX_ANCHORS: usize = 1_000;
/// The most (reachable states × (anchors + 1)) an exact solve takes on.
pub const MAX_TERMS: usize = 8_000_000;
/// The most modular multiplications an exact solve takes on (some
/// seconds on one core).
pub const MAX_WORK: f64 = 1e10;

/// The exact mean and variance of one player's game length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactMoments {
    /// E\[T\] as a reduced fraction.
    pub mean: BigRational,
    /// Var\[T\] as a reduced fraction.
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
/// [`MAX_TERMS`] or [`MAX_WORK`].
pub fn moments(board: &Board, rules: &Rules) -> Result<ExactMoments, AnalysisError> {
    moments_within(board, rules, &Budget::unlimited())
}

/// [`moments`] within `budget`.
///
/// # Errors
/// As [`moments`], and [`AnalysisError::Stopped`] when the budget runs out
/// or the question is withdrawn first.
pub fn moments_within(
    board: &Board,
    rules: &Rules,
    budget: &Budget,
) -> Result<ExactMoments, AnalysisError> {
    let chain = Chain::new(board, rules);
    let reach = chain.reach();
    moments_chain(&chain, &reach, budget)
}

/// [`moments`] on a chain already built.
///
/// Method: the system M·e = f·1 (M = f·I − C over the reachable states, C
/// counting the rolls from each state to each other) is solved modulo
/// 62-bit primes by anchor elimination, the residues are joined by the
/// Chinese remainder theorem, and the fraction is recovered by rational
/// reconstruction once the primes' product passes a proven bound (Hadamard's
/// bound on det M and Cramer's rule), so the result is exact, not a guess.
/// The second moment solves M·v = f + 2·C'·e the same way.
///
/// # Errors
/// As [`moments_within`].
pub fn moments_chain(
    chain: &Chain,
    reach: &Reach,
    budget: &Budget,
) -> Result<ExactMoments, AnalysisError> {
    if let Some(&dead) = reach.dead.first() {
        return Err(AnalysisError::Unfinishable {
            dead,
            what: "mean game length",
        });
    }
    let system = System::new(chain, reach)?;
    let bounds = system.bounds();
    // Modular multiplications: per prime, the elimination and the anchors'
    // factorisation.
    let primes = (bounds.mean_bits.max(bounds.var_bits) / 61.0).ceil();
    let m = system.anchors.len() as f64;
    let per_prime =
        system.states.len() as f64 * f64::from(chain.faces()) * (m + 2.0) + m * m * m / 3.0;
    if primes * per_prime > MAX_WORK {
        return Err(AnalysisError::TooLarge(format!(
            "an exact fraction here needs about {primes} primes × {per_prime:.1e} modular steps ({} states, {} squares \
             that chutes or bounces lead back to): more than the limit of {MAX_WORK:.0e}; use the floating-point mean instead",
            system.states.len(),
            system.anchors.len()
        )));
    }
    let mut mean_crt = Crt::new();
    let mut var_crt = Crt::new();
    let mut prime = 1u64 << 62;
    let mut mean = None;
    let mut variance = None;
    let mut skipped = 0;
    while mean.is_none() || variance.is_none() {
        prime = previous_prime(prime);
        budget.check()?;
        let Some((e, v)) = system.solve_mod(prime, budget)? else {
            // p divides det M: try the next prime (a nonzero det has fewer
            // prime factors this large than the bound allows).
            skipped += 1;
            if skipped > 64 {
                return Err(AnalysisError::TooLarge(
                    "the system of expected rolls is singular (this is a bug: please report it)"
                        .into(),
                ));
            }
            continue;
        };
        let var_mod = sub_mod(v, mul_mod(e, e, prime), prime);
        if mean.is_none() {
            mean_crt.add(e, prime);
            if mean_crt.bits() > bounds.mean_bits {
                mean = mean_crt.reconstruct(bounds.mean_num_bits, bounds.mean_den_bits);
                if mean.is_none() {
                    return Err(AnalysisError::TooLarge(
                        "rational reconstruction failed (this is a bug: please report it)".into(),
                    ));
                }
            }
        }
        var_crt.add(var_mod, prime);
        if variance.is_none() && var_crt.bits() > bounds.var_bits {
            variance = var_crt.reconstruct(bounds.var_num_bits, bounds.var_den_bits);
            if variance.is_none() {
                return Err(AnalysisError::TooLarge(
                    "rational reconstruction failed (this is a bug: please report it)".into(),
                ));
            }
        }
    }
    match (mean, variance) {
        (Some(mean), Some(variance)) => Ok(ExactMoments { mean, variance }),
        _ => Err(AnalysisError::TooLarge("no exact answer".into())),
    }
}

/// The linear system of expected rolls over the reachable states.
struct System<'a> {
    chain: &'a Chain,
    /// Reachable transient states, descending.
    states: Vec<u32>,
    /// Index of each state in `states` (u32::MAX when unreachable).
    index: Vec<u32>,
    /// Anchor number of each state that is one (u32::MAX otherwise).
    anchor_of: Vec<u32>,
    anchors: Vec<u32>,
}

/// Bit bounds for the rational reconstructions.
struct Bounds {
    mean_num_bits: f64,
    mean_den_bits: f64,
    mean_bits: f64,
    var_num_bits: f64,
    var_den_bits: f64,
    var_bits: f64,
}

impl<'a> System<'a> {
    fn new(chain: &'a Chain, reach: &Reach) -> Result<Self, AnalysisError> {
        let n = chain.finish() as usize;
        let states: Vec<u32> = (0..chain.finish())
            .rev()
            .filter(|&s| reach.reachable[s as usize])
            .collect();
        let mut index = vec![u32::MAX; n + 1];
        for (i, &s) in states.iter().enumerate() {
            index[s as usize] = i as u32;
        }
        let mut anchor_of = vec![u32::MAX; n + 1];
        let mut anchors = Vec::new();
        for &s in &states {
            for r in 1..=chain.faces() {
                let t = chain.step(s, r).to;
                if t < s && anchor_of[t as usize] == u32::MAX {
                    anchor_of[t as usize] = anchors.len() as u32;
                    anchors.push(t);
                }
            }
        }
        let m = anchors.len();
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
            index,
            anchor_of,
            anchors,
        })
    }

    /// Hadamard and Cramer bounds (in bits) on the reduced fractions.
    fn bounds(&self) -> Bounds {
        let f = f64::from(self.chain.faces());
        let n = self.states.len().max(1) as f64;
        // log2 |det M| ≤ Σ_rows log2 ‖row‖.
        let mut det_bits = 0.0;
        for &s in &self.states {
            let mut counts: Vec<(u32, f64)> = Vec::new();
            let mut diag = f;
            for r in 1..=self.chain.faces() {
                let t = self.chain.step(s, r).to;
                if t == s {
                    diag -= 1.0;
                } else if t != self.chain.finish() {
                    match counts.iter_mut().find(|(u, _)| *u == t) {
                        Some((_, c)) => *c += 1.0,
                        None => counts.push((t, 1.0)),
                    }
                }
            }
            let norm2 = diag * diag + counts.iter().map(|(_, c)| c * c).sum::<f64>();
            det_bits += 0.5 * norm2.max(1.0).log2();
        }
        let slack = 8.0;
        // e = adj(M)·b / det M: |numerator| ≤ N · f · (largest cofactor ≤ det bound).
        let mean_den_bits = det_bits + slack;
        let mean_num_bits = det_bits + (n * f).log2() + slack;
        // det·(f + 2·C'e) has entries ≤ f·det + 2f·num(e); v = adj(M)·that / det²;
        // Var = v − e² has denominator | det² and numerator ≤ N·G·det + num(e)².
        let g_bits = (f * 3.0).log2() + mean_num_bits.max(mean_den_bits);
        let var_den_bits = 2.0 * det_bits + slack;
        let var_num_bits = (n.log2() + g_bits + det_bits).max(2.0 * mean_num_bits) + 1.0 + slack;
        Bounds {
            mean_bits: mean_num_bits + mean_den_bits + 1.0,
            mean_num_bits,
            mean_den_bits,
            var_bits: var_num_bits + var_den_bits + 1.0,
            var_num_bits,
            var_den_bits,
        }
    }

    /// E\[T\] and E\[T²\] modulo `p`, or `None` when M is singular modulo p.
    fn solve_mod(&self, p: u64, budget: &Budget) -> Result<Option<(u64, u64)>, Stopped> {
        let chain = self.chain;
        let m = self.anchors.len();
        let count = self.states.len();
        let faces = u64::from(chain.faces());
        let finish = chain.finish();
        // Per state: coefficients on the anchors, and the constant, for
        // E[s] = (rhs + Σ_{to > s} E[to] + Σ_{to < s} x[to]) / (f − lost).
        let mut coef = vec![0u64; count * m];
        let mut constant = vec![0u64; count];
        let mut inverse = vec![0u64; count];
        for (i, &s) in self.states.iter().enumerate() {
            if i % 1024 == 1023 {
                budget.check()?;
            }
            let mut lost = 0u64;
            let mut c = faces % p;
            let (done, row) = coef.split_at_mut(i * m);
            let row = &mut row[..m];
            for r in 1..=chain.faces() {
                let t = chain.step(s, r).to;
                if t == s {
                    lost += 1;
                } else if t == finish {
                } else if t > s {
                    let j = self.index[t as usize] as usize;
                    c = add_mod(c, constant[j], p);
                    for (a, &b) in row.iter_mut().zip(&done[j * m..j * m + m]) {
                        *a = add_mod(*a, b, p);
                    }
                } else {
                    let k = self.anchor_of[t as usize] as usize;
                    row[k] = add_mod(row[k], 1, p);
                }
            }
            let Some(inv) = inverse_mod(faces - lost, p) else {
                return Ok(None);
            };
            inverse[i] = inv;
            constant[i] = mul_mod(c, inv, p);
            for a in row.iter_mut() {
                *a = mul_mod(*a, inv, p);
            }
        }
        // x[k] = E[anchor k]: (I − coefficients) x = constants.
        let mut a = vec![0u64; m * m];
        for (k, &t) in self.anchors.iter().enumerate() {
            let i = self.index[t as usize] as usize;
            for (j, cell) in a[k * m..k * m + m].iter_mut().enumerate() {
                *cell = sub_mod(u64::from(j == k), coef[i * m + j], p);
            }
        }
        budget.check()?;
        let Some(lu) = Lu::new(a, m, p) else {
            return Ok(None);
        };
        let anchor_rhs: Vec<u64> = self
            .anchors
            .iter()
            .map(|&t| constant[self.index[t as usize] as usize])
            .collect();
        let x = lu.solve(anchor_rhs);
        let value = |i: usize, constant: &[u64], x: &[u64]| -> u64 {
            let mut v = constant[i];
            for (c, xv) in coef[i * m..i * m + m].iter().zip(x) {
                if *c != 0 {
                    v = add_mod(v, mul_mod(*c, *xv, p), p);
                }
            }
            v
        };
        let e: Vec<u64> = (0..count).map(|i| value(i, &constant, &x)).collect();
        let e_of = |t: u32| -> u64 {
            if t == finish {
                0
            } else {
                e[self.index[t as usize] as usize]
            }
        };
        // Second moment: the same recursion with rhs f + 2 Σ_r E[to].
        let mut constant2 = vec![0u64; count];
        for (i, &s) in self.states.iter().enumerate() {
            let mut rhs = faces % p;
            let mut c = 0u64;
            for r in 1..=chain.faces() {
                let t = chain.step(s, r).to;
                rhs = add_mod(rhs, mul_mod(2, e_of(t), p), p);
                if t > s && t != finish {
                    c = add_mod(c, constant2[self.index[t as usize] as usize], p);
                }
            }
            constant2[i] = mul_mod(add_mod(rhs, c, p), inverse[i], p);
        }
        let anchor_rhs2: Vec<u64> = self
            .anchors
            .iter()
            .map(|&t| constant2[self.index[t as usize] as usize])
            .collect();
        let x2 = lu.solve(anchor_rhs2);
        let start = self.index[chain.start() as usize] as usize;
        Ok(Some((e[start], value(start, &constant2, &x2))))
    }
}

/// An LU factorisation modulo a prime (row swaps kept).
struct Lu {
    a: Vec<u64>,
    m: usize,
    p: u64,
    perm: Vec<usize>,
}

impl Lu {
    fn new(mut a: Vec<u64>, m: usize, p: u64) -> Option<Self> {
        let mut perm: Vec<usize> = (0..m).collect();
        for col in 0..m {
            let pivot = (col..m).find(|&r| a[r * m + col] != 0)?;
            if pivot != col {
                for j in 0..m {
                    a.swap(pivot * m + j, col * m + j);
                }
                perm.swap(pivot, col);
            }
            let inv = inverse_mod(a[col * m + col], p)?;
            for row in col + 1..m {
                let factor = mul_mod(a[row * m + col], inv, p);
                a[row * m + col] = factor;
                if factor == 0 {
                    continue;
                }
                for j in col + 1..m {
                    let sub = mul_mod(factor, a[col * m + j], p);
                    a[row * m + j] = sub_mod(a[row * m + j], sub, p);
                }
            }
        }
        Some(Self { a, m, p, perm })
    }

    fn solve(&self, b: Vec<u64>) -> Vec<u64> {
        let (m, p) = (self.m, self.p);
        let mut y: Vec<u64> = self.perm.iter().map(|&i| b[i]).collect();
        for row in 0..m {
            for col in 0..row {
                let sub = mul_mod(self.a[row * m + col], y[col], p);
                y[row] = sub_mod(y[row], sub, p);
            }
        }
        for row in (0..m).rev() {
            for col in row + 1..m {
                let sub = mul_mod(self.a[row * m + col], y[col], p);
                y[row] = sub_mod(y[row], sub, p);
            }
            let inv = inverse_mod(self.a[row * m + row], p).unwrap_or(0);
            y[row] = mul_mod(y[row], inv, p);
        }
        y
    }
}

#[inline]
fn add_mod(a: u64, b: u64, p: u64) -> u64 {
    let s = a + b;
    if s >= p { s - p } else { s }
}

#[inline]
fn sub_mod(a: u64, b: u64, p: u64) -> u64 {
    if a >= b { a - b } else { a + p - b }
}

#[inline]
fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(p)) as u64
}

fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1 % p;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, p);
        }
        a = mul_mod(a, a, p);
        e >>= 1;
    }
    r
}

fn inverse_mod(a: u64, p: u64) -> Option<u64> {
    let a = a % p;
    (a != 0).then(|| pow_mod(a, p - 2, p))
}

/// Deterministic Miller–Rabin for 64-bit numbers.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for q in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if n % q == 0 {
            return n == q;
        }
    }
    let mut d = n - 1;
    let mut r = 0;
    while d % 2 == 0 {
        d /= 2;
        r += 1;
    }
    'witness: for a in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..r {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// The largest prime below `n`.
fn previous_prime(n: u64) -> u64 {
    let mut c = n - 1;
    while !is_prime(c) {
        c -= 1;
    }
    c
}

/// Residues joined by the Chinese remainder theorem.
struct Crt {
    value: BigInt,
    modulus: BigInt,
}

impl Crt {
    fn new() -> Self {
        Self {
            value: BigInt::zero(),
            modulus: BigInt::one(),
        }
    }

    fn bits(&self) -> f64 {
        self.modulus.bits() as f64 - 1.0
    }

    fn add(&mut self, residue: u64, p: u64) {
        let big_p = BigInt::from(p);
        let current = (&self.value % &big_p + &big_p) % &big_p;
        let current = u64::try_from(&current).unwrap_or(0);
        let m_mod = (&self.modulus % &big_p + &big_p) % &big_p;
        let m_mod = u64::try_from(&m_mod).unwrap_or(0);
        let Some(inv) = inverse_mod(m_mod, p) else {
            return;
        };
        let k = mul_mod(sub_mod(residue, current, p), inv, p);
        self.value += &self.modulus * BigInt::from(k);
        self.modulus *= big_p;
    }

    /// The fraction n/d ≡ value (mod modulus) with |n| < 2^num_bits and
    /// 0 < d < 2^den_bits (unique when the modulus passes 2^(num+den+1)).
    fn reconstruct(&self, num_bits: f64, den_bits: f64) -> Option<BigRational> {
        let bound = BigInt::one() << (num_bits.ceil() as usize);
        let den_bound = BigInt::one() << (den_bits.ceil() as usize);
        let (mut r0, mut r1) = (self.modulus.clone(), self.value.clone());
        let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
        while r1 >= bound {
            let q = &r0 / &r1;
            let r2 = &r0 - &q * &r1;
            let t2 = &t0 - &q * &t1;
            r0 = std::mem::replace(&mut r1, r2);
            t0 = std::mem::replace(&mut t1, t2);
        }
        if t1.is_zero() || t1.magnitude() >= den_bound.magnitude() {
            return None;
        }
        Some(BigRational::new(r1, t1))
    }
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
    use crate::rules::Overshoot;

    use crate::board::test_board as board;

    #[test]
    fn exact_moments_stop_when_withdrawn() {
        // Withdrawn at the second check: after the first prime.
        let budget = Budget::withdrawn_after(1);
        let stopped = moments_within(&Board::classic(), &Rules::default(), &budget).unwrap_err();
        assert_eq!(stopped, AnalysisError::Stopped(Stopped::Cancelled));
        let (budget, _canceller) = Budget::cancellable();
        let m = moments_within(&Board::classic(), &Rules::default(), &budget).unwrap();
        assert_eq!(m, moments(&Board::classic(), &Rules::default()).unwrap());
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

    /// The full system M·e = f·1 and M·v = f + 2·C'·e solved densely over
    /// the rationals (Gauss–Jordan), for small boards.
    fn dense_oracle(b: &Board, rules: &Rules) -> (BigRational, BigRational) {
        let chain = Chain::new(b, rules);
        let n = chain.finish() as usize;
        let f = BigRational::from_integer(BigInt::from(rules.faces()));
        let solve = |rhs: &dyn Fn(usize) -> BigRational| -> Vec<BigRational> {
            let mut a = vec![vec![BigRational::zero(); n + 1]; n];
            for (s, row) in a.iter_mut().enumerate() {
                row[s] += &f;
                for r in 1..=rules.faces() {
                    let t = chain.step(s as u32, r).to as usize;
                    if t < n {
                        row[t] -= BigRational::one();
                    }
                }
                row[n] = rhs(s);
            }
            for col in 0..n {
                let pivot = (col..n).find(|&r| !a[r][col].is_zero()).unwrap();
                a.swap(col, pivot);
                let head = a[col].clone();
                for (row, line) in a.iter_mut().enumerate() {
                    if row != col && !line[col].is_zero() {
                        let k = &line[col] / &head[col];
                        for (x, h) in line.iter_mut().zip(&head) {
                            *x -= &k * h;
                        }
                    }
                }
            }
            (0..n).map(|i| &a[i][n] / &a[i][i]).collect()
        };
        let e = solve(&|_| f.clone());
        let e_of = |t: usize| {
            if t == n {
                BigRational::zero()
            } else {
                e[t].clone()
            }
        };
        let two = BigRational::from_integer(BigInt::from(2));
        let v = solve(&|s| {
            let mut sum = f.clone();
            for r in 1..=rules.faces() {
                sum += &two * e_of(chain.step(s as u32, r).to as usize);
            }
            sum
        });
        let start = b.start() as usize;
        (e[start].clone(), &v[start] - &e[start] * &e[start])
    }

    #[test]
    fn modular_solve_equals_a_dense_rational_solve() {
        let mut rng = tabletop::Rng::new(2026);
        let mut checked = 0;
        for _ in 0..40 {
            let size = 2 + rng.below(25) as u32;
            let start = rng.below(2) as u32;
            let mut jumps = Vec::new();
            for _ in 0..rng.below(6) {
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
                let rules = Rules::new(o, 1 + rng.below(8) as u32).unwrap();
                // The dense oracle needs every state to finish.
                let reach = Chain::new(&b, &rules).reach();
                let every = (0..size).all(|s| reach.can_finish(s));
                if !every {
                    continue;
                }
                let m = moments(&b, &rules).unwrap();
                let (mean, variance) = dense_oracle(&b, &rules);
                assert_eq!(m.mean, mean, "{rules} {jumps:?} on {size}");
                assert_eq!(m.variance, variance, "{rules} {jumps:?} on {size}");
                checked += 1;
            }
        }
        assert!(checked > 40, "{checked}");
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
