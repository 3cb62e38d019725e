//! Counting the ways to fill the cells no beam has decided.
//!
//! Terms:
//! - **free cell**: a cell the search has not decided. A free cell of
//!   **type A** may be empty, `/` or `\`; one of **type B** may be empty or
//!   one mirror only (a wrong guess ruled the other out).
//! - **completions** `W(a, b, r)`: the ways to put exactly `r` mirrors into
//!   `a` free cells of type A and `b` of type B:
//!   `Σ_i C(a, i)·2^i·C(b, r − i)`; with no wrong guesses, `C(a, r)·2^r`.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// `W(a, b, r)` and the binomials behind it, remembered.
#[derive(Debug, Default)]
pub struct Weights {
    binomials: HashMap<(usize, usize), BigUint>,
    memo: HashMap<(usize, usize, usize), BigUint>,
}

impl Weights {
    /// `C(n, k)` (0 when k > n).
    pub fn binomial(&mut self, n: usize, k: usize) -> BigUint {
        if k > n {
            return BigUint::zero();
        }
        let k = k.min(n - k);
        if let Some(c) = self.binomials.get(&(n, k)) {
            return c.clone();
        }
        let mut c = BigUint::one();
        for i in 1..=k {
            // Exact at every step: c is C(n − k + i, i) after it.
            c = c * BigUint::from(n - k + i) / BigUint::from(i);
        }
        self.binomials.insert((n, k), c.clone());
        c
    }

    /// The completions `W(a, b, r)`.
    pub fn completions(&mut self, a: usize, b: usize, r: usize) -> BigUint {
        if let Some(w) = self.memo.get(&(a, b, r)) {
            return w.clone();
        }
        let mut total = BigUint::zero();
        for i in r.saturating_sub(b)..=r.min(a) {
            total += (self.binomial(a, i) * self.binomial(b, r - i)) << i;
        }
        self.memo.insert((a, b, r), total.clone());
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_count_fillings() {
        let mut w = Weights::default();
        assert_eq!(w.binomial(5, 2), BigUint::from(10u32));
        assert_eq!(w.binomial(2, 5), BigUint::zero());
        // No wrong guesses: C(a, r)·2^r.
        assert_eq!(w.completions(100, 0, 5), BigUint::from(75_287_520u64 * 32));
        assert_eq!(w.completions(3, 0, 0), BigUint::one());
        assert_eq!(w.completions(3, 0, 4), BigUint::zero());
        // Brute force on small a, b: each A cell has 3 states (0, 1, 1
        // mirrors), each B cell 2.
        for a in 0..5 {
            for b in 0..4 {
                let mut by_r = [0u64; 10];
                for code in 0..(3u32.pow(a as u32) * 2u32.pow(b as u32)) {
                    let mut c = code;
                    let mut r = 0;
                    for _ in 0..a {
                        r += usize::from(c % 3 != 0);
                        c /= 3;
                    }
                    for _ in 0..b {
                        r += (c % 2) as usize;
                        c /= 2;
                    }
                    by_r[r] += 1;
                }
                for (r, &count) in by_r.iter().enumerate() {
                    assert_eq!(
                        w.completions(a, b, r),
                        BigUint::from(count),
                        "a={a} b={b} r={r}"
                    );
                }
            }
        }
        // The largest game: C(676, 338)·2^338 has 1009 bits.
        assert_eq!(w.completions(676, 0, 338).bits(), 1009);
    }
}
