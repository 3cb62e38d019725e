//! The machinery that makes random games fast: fair dice in batches, and
//! flat move tables.
//!
//! Terms:
//! - **batch**: k dice drawn from one 64-bit word w. The digits of
//!   ⌊w · Bᵏ / 2⁶⁴⌋ in base B are read one multiplication at a time; the word
//!   is used only when the low 64 bits of w · Bᵏ are at least 2⁶⁴ mod Bᵏ
//!   (Lemire's rejection), so every string of k digits is exactly equally
//!   likely. Bᵏ ≤ 2⁵⁷, so fewer than 1 word in 128 is rejected.
//! - **pair**: two rolls of an f-sided die read as one digit of base f²;
//!   a pair table moves a token by both rolls in one lookup (or by the first
//!   only, when it ends the game; the second die is then unused, which keeps
//!   the dice fair).
//! - **flat table**: `next[s · B + d]` for every state s and digit d, built
//!   from [`Chain`] (so from [`crate::Rules::step`]); the finish is N and a
//!   dead square maps to **DEAD** = N + 1, where a game can never end.

use super::chain::{Chain, Reach};
use crate::board::JumpKind;
use tabletop::Rng;

/// Dice drawn k at a time from one 64-bit word, without bias. The digits
/// come out in the order the words are drawn, however they are taken.
#[derive(Clone, Debug)]
pub(crate) struct Batch {
    base: u64,
    k: usize,
    threshold: u64,
    buf: [u8; 128],
    len: usize,
    next: usize,
}

impl Batch {
    /// Dice with `base` faces (digits `0..base`), `base` in 1..=4096.
    pub(crate) fn new(base: u64) -> Self {
        let base = base.clamp(1, 4096);
        let mut k = 0usize;
        let mut m: u64 = 1;
        while k < 64 && m.saturating_mul(base) <= 1 << 57 {
            m *= base;
            k += 1;
        }
        Self {
            base,
            k,
            threshold: m.wrapping_neg() % m,
            buf: [0; 128],
            len: 0,
            next: 0,
        }
    }

    /// Digits per word.
    #[cfg(test)]
    pub(crate) fn per_word(&self) -> usize {
        self.k
    }

    /// Keeps the digits not yet taken and draws words until the buffer is
    /// nearly full.
    #[inline(never)]
    fn refill(&mut self, rng: &mut Rng) {
        self.buf.copy_within(self.next..self.len, 0);
        self.len -= self.next;
        self.next = 0;
        while self.len + self.k <= self.buf.len() {
            let mut x = rng.next_u64();
            let mut digits = [0u8; 64];
            for slot in &mut digits[..self.k] {
                let m = u128::from(x) * u128::from(self.base);
                *slot = (m >> 64) as u8;
                x = m as u64;
            }
            // Lemire: a word whose low part falls under 2^64 mod B^k would
            // favour some digit strings; draw another.
            if x >= self.threshold {
                self.buf[self.len..self.len + self.k].copy_from_slice(&digits[..self.k]);
                self.len += self.k;
            }
        }
    }

    /// Makes sure `n` digits (at most 64) can be taken with [`Batch::take`].
    #[inline(always)]
    pub(crate) fn ensure(&mut self, n: usize, rng: &mut Rng) {
        if self.len - self.next < n {
            self.refill(rng);
        }
    }

    /// The next digit, after [`Batch::ensure`] (0 if none was ensured).
    #[inline(always)]
    pub(crate) fn take(&mut self) -> usize {
        let d = self.buf.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        usize::from(d)
    }

    /// The next digit, `0..base`.
    #[inline(always)]
    pub(crate) fn digit(&mut self, rng: &mut Rng) -> usize {
        self.ensure(1, rng);
        self.take()
    }
}

/// `next[s · faces + (r − 1)]`: the state after roll r from s, with DEAD for
/// dead squares; `jump[...]`: the jump taken.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub(crate) faces: usize,
    pub(crate) finish: u32,
    pub(crate) start: u32,
    pub(crate) next: Vec<u32>,
    pub(crate) jump: Vec<Option<JumpKind>>,
}

impl Table {
    pub(crate) fn new(chain: &Chain, reach: &Reach) -> Self {
        let n = chain.finish();
        let faces = usize::from(chain.faces());
        let dead = n + 1;
        let mut next = Vec::with_capacity((n as usize + 2) * faces);
        let mut jump = Vec::with_capacity(next.capacity());
        for s in 0..=dead {
            for r in 1..=chain.faces() {
                if s >= n || !reach.can_finish(s) {
                    next.push(if s == n { n } else { dead });
                    jump.push(None);
                    continue;
                }
                let m = chain.step(s, r);
                next.push(if reach.can_finish(m.to) { m.to } else { dead });
                jump.push(m.jump);
            }
        }
        let start = if reach.can_finish(chain.start()) {
            chain.start()
        } else {
            dead
        };
        Self {
            faces,
            finish: n,
            start,
            next,
            jump,
        }
    }

    pub(crate) fn dead(&self) -> u32 {
        self.finish + 1
    }

    #[inline(always)]
    pub(crate) fn step(&self, s: u32, digit: usize) -> u32 {
        self.next[s as usize * self.faces + digit]
    }
}

/// Two rolls per lookup, for dice of up to 8 faces: entry = (index of the
/// state after the pair, that is state · f²) · 2 + (1 when only the first
/// roll was used), so a lookup needs no multiplication.
#[derive(Clone, Debug)]
pub(crate) struct PairTable {
    pub(crate) base: usize,
    /// `finish · base`: a scaled state at or past it has ended.
    pub(crate) end: u32,
    pub(crate) start_index: u32,
    pub(crate) next: Vec<u32>,
}

impl PairTable {
    pub(crate) const MAX_FACES: usize = 8;
    /// Largest board: scaled entries must fit in 32 bits.
    pub(crate) const MAX_FINISH: u32 = 1 << 24;

    pub(crate) fn new(table: &Table) -> Option<Self> {
        let f = table.faces;
        if f > Self::MAX_FACES || table.finish > Self::MAX_FINISH {
            return None;
        }
        let base = f * f;
        let states = table.finish as usize + 2;
        let mut next = Vec::with_capacity(states * base);
        for s in 0..states as u32 {
            for d in 0..base {
                let a = table.step(s, d / f);
                let (to, one) = if a >= table.finish || s >= table.finish {
                    (a, 1)
                } else {
                    (table.step(a, d % f), 0)
                };
                next.push((to * base as u32) * 2 + one);
            }
        }
        Some(Self {
            base,
            end: table.finish * base as u32,
            start_index: table.start * base as u32,
            next,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_read_the_digits_of_one_product() {
        // The digits are those of ⌊w · Bᵏ / 2⁶⁴⌋, the rejection is Lemire's.
        for base in [2u64, 6, 36, 64] {
            let batch = Batch::new(base);
            let k = batch.per_word();
            let m = base.pow(k as u32);
            assert!(m <= 1 << 57 && m.saturating_mul(base) > 1 << 57);
            let mut rng = Rng::new(base);
            for _ in 0..1000 {
                let w = rng.next_u64();
                let product = u128::from(w) * u128::from(m);
                let mut high = (product >> 64) as u64;
                let mut x = w;
                let mut digits = Vec::new();
                for _ in 0..k {
                    let p = u128::from(x) * u128::from(base);
                    digits.push((p >> 64) as u64);
                    x = p as u64;
                }
                assert_eq!(x, product as u64);
                for d in digits.iter().rev() {
                    assert_eq!(*d, high % base);
                    high /= base;
                }
                assert_eq!(high, 0);
            }
        }
    }

    #[test]
    fn batched_dice_are_fair_and_repeatable() {
        let mut rng = Rng::new(77);
        let mut batch = Batch::new(6);
        let n = 600_000;
        let mut counts = [0u32; 6];
        let mut first = Vec::new();
        for i in 0..n {
            let d = batch.digit(&mut rng);
            counts[d] += 1;
            if i < 50 {
                first.push(d);
            }
        }
        let expected = f64::from(n) / 6.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 20.5, "chi-square {chi2}: {counts:?}");
        let mut again = Batch::new(6);
        let mut rng = Rng::new(77);
        let second: Vec<usize> = (0..50).map(|_| again.digit(&mut rng)).collect();
        assert_eq!(first, second);
        // A one-faced die always shows its face.
        let mut one = Batch::new(1);
        assert!((0..200).all(|_| one.digit(&mut rng) == 0));
    }
}
