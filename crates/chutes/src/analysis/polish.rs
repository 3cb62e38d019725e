//! Polishing a board's mean to an exact target: the destinations of two or
//! three jumps chosen together, every combination judged exactly in a few
//! operations.
//!
//! Terms:
//! - **free heads**: the squares where the chosen jumps start; the other
//!   jumps stay as they are.
//! - **stopped chain**: the board without the chosen jumps, in which a
//!   token that lands on a free head stops there. From each square s it
//!   gives T(s), the expected rolls until the token finishes or stops, and
//!   A_i(s), the chance it stops at free head i (one LU factorisation, one
//!   solve per right-hand side).
//! - **renewal**: a token that stops at head i is sent to its destination
//!   t_i and goes on from there, so the rolls still to come after reaching
//!   head i are M_i = T(t_i) + Σ_j A_j(t_i) M_j, a k × k system; the mean
//!   from the start is T(0) + Σ_i A_i(0) M_i. With T and A known, every
//!   choice of destinations costs one small solve.

use crate::board::Jump;
use crate::rules::{Outcome, Rules};

/// A dense LU factorisation with partial pivoting.
struct Lu {
    n: usize,
    a: Vec<f64>,
    pivot: Vec<usize>,
}

impl Lu {
    /// Factorises the n × n row-major matrix `a`; `None` when singular.
    fn new(n: usize, mut a: Vec<f64>) -> Option<Self> {
        let mut pivot = vec![0; n];
        for k in 0..n {
            let p = (k..n).max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))?;
            if a[p * n + k].abs() < 1e-300 {
                return None;
            }
            pivot[k] = p;
            if p != k {
                for c in 0..n {
                    a.swap(k * n + c, p * n + c);
                }
            }
            let d = a[k * n + k];
            for i in k + 1..n {
                let f = a[i * n + k] / d;
                if f != 0.0 {
                    a[i * n + k] = f;
                    for c in k + 1..n {
                        a[i * n + c] -= f * a[k * n + c];
                    }
                } else {
                    a[i * n + k] = 0.0;
                }
            }
        }
        Some(Self { n, a, pivot })
    }

    fn solve(&self, mut b: Vec<f64>) -> Vec<f64> {
        let n = self.n;
        for k in 0..n {
            b.swap(k, self.pivot[k]);
        }
        for i in 0..n {
            let row = &self.a[i * n..i * n + i];
            let s: f64 = row.iter().zip(&b[..i]).map(|(x, y)| x * y).sum();
            b[i] -= s;
        }
        for i in (0..n).rev() {
            let row = &self.a[i * n + i + 1..(i + 1) * n];
            let s: f64 = row.iter().zip(&b[i + 1..]).map(|(x, y)| x * y).sum();
            b[i] = (b[i] - s) / self.a[i * n + i];
        }
        b
    }
}

/// T and A of the stopped chain for `free` heads (indices into `jumps`).
/// `None` when some square can neither finish nor stop.
fn stopped_chain(
    size: u32,
    rules: &Rules,
    jumps: &[Jump],
    free: &[usize],
) -> Option<(Vec<f64>, Vec<Vec<f64>>)> {
    let n = size as usize;
    let mut to: Vec<usize> = (0..=n).collect();
    let mut stop: Vec<Option<usize>> = vec![None; n + 1];
    for (i, j) in jumps.iter().enumerate() {
        match free.iter().position(|&f| f == i) {
            Some(k) => stop[j.from as usize] = Some(k),
            None => to[j.from as usize] = j.to as usize,
        }
    }
    let empty = crate::board::Board::empty(size);
    let faces = f64::from(rules.faces());
    let mut a = vec![0.0; n * n];
    let mut stops = vec![vec![0.0; n]; free.len()];
    for s in 0..n {
        a[s * n + s] += 1.0;
        for r in 1..=rules.faces() {
            let step = rules.step(&empty, s as u32, r);
            let l = step.landed as usize;
            if step.outcome == Outcome::LostTurn {
                a[s * n + s] -= 1.0 / faces;
            } else if l == n {
            } else if let Some(k) = stop[l] {
                stops[k][s] += 1.0 / faces;
            } else if to[l] != n {
                a[s * n + to[l]] -= 1.0 / faces;
            }
        }
    }
    let lu = Lu::new(n, a)?;
    let t = lu.solve(vec![1.0; n]);
    let stops: Vec<Vec<f64>> = stops.into_iter().map(|b| lu.solve(b)).collect();
    if t.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return None;
    }
    Some((t, stops))
}

/// The exact mean game length of `jumps` (stay, bounce or finish rule, as
/// `rules` says), by one linear solve; `None` when some game never ends.
pub(crate) fn mean_of(size: u32, rules: &Rules, jumps: &[Jump]) -> Option<f64> {
    stopped_chain(size, rules, jumps, &[]).map(|(t, _)| t[0])
}

/// Destinations of the jumps at `free` chosen together so that the mean
/// comes nearest `target`: the best few combinations, nearest first, as
/// (mean, destinations). `allowed(i, t)` says whether the jump at
/// `free[i]` may end on `t`.
pub(crate) fn best_destinations(
    size: u32,
    rules: &Rules,
    jumps: &[Jump],
    free: &[usize],
    target: f64,
    allowed: &dyn Fn(usize, u32) -> bool,
    keep: usize,
) -> Vec<(f64, Vec<u32>)> {
    let Some((t, a)) = stopped_chain(size, rules, jumps, free) else {
        return Vec::new();
    };
    let n = size as usize;
    // T and A at a destination (the finish: 0).
    let at = |d: usize| -> (f64, Vec<f64>) {
        if d >= n {
            (0.0, vec![0.0; free.len()])
        } else {
            (t[d], a.iter().map(|ai| ai[d]).collect())
        }
    };
    let options: Vec<Vec<u32>> = (0..free.len())
        .map(|i| (1..=size).filter(|&d| allowed(i, d)).collect())
        .collect();
    let start: Vec<f64> = a.iter().map(|ai| ai[0]).collect();
    let mut best: Vec<(f64, Vec<u32>)> = Vec::new();
    let consider = |mean: f64, dest: &[u32], best: &mut Vec<(f64, Vec<u32>)>| {
        if !mean.is_finite() || mean < 0.0 {
            return;
        }
        let miss = (mean - target).abs();
        if best.len() < keep || miss < (best[best.len() - 1].0 - target).abs() {
            best.push((mean, dest.to_vec()));
            best.sort_by(|x, y| (x.0 - target).abs().total_cmp(&(y.0 - target).abs()));
            best.truncate(keep);
        }
    };
    match free.len() {
        2 => {
            let cols: Vec<Vec<(f64, Vec<f64>)>> = options
                .iter()
                .map(|o| o.iter().map(|&d| at(d as usize)).collect())
                .collect();
            for (x, &d0) in options[0].iter().enumerate() {
                let (t0, a0) = &cols[0][x];
                for (y, &d1) in options[1].iter().enumerate() {
                    if d1 == d0 {
                        continue;
                    }
                    let (t1, a1) = &cols[1][y];
                    // (1 − a0[0]) M0 − a0[1] M1 = t0; −a1[0] M0 + (1 − a1[1]) M1 = t1.
                    let (p, q, r, s) = (1.0 - a0[0], -a0[1], -a1[0], 1.0 - a1[1]);
                    let det = p * s - q * r;
                    if det.abs() < 1e-14 {
                        continue;
                    }
                    let m0 = (t0 * s - q * t1) / det;
                    let m1 = (p * t1 - r * t0) / det;
                    let mean = t[0] + start[0] * m0 + start[1] * m1;
                    consider(mean, &[d0, d1], &mut best);
                }
            }
        }
        3 => {
            // For each pair (d0, d1), M0 and M1 are u + v·M2 (the first two
            // rows solved), so each d2 costs a few operations.
            let cols: Vec<Vec<[f64; 4]>> = options
                .iter()
                .map(|o| {
                    o.iter()
                        .map(|&d| {
                            let (tt, aa) = at(d as usize);
                            [tt, aa[0], aa[1], aa[2]]
                        })
                        .collect()
                })
                .collect();
            let (s0, s1, s2) = (start[0], start[1], start[2]);
            for (x, &d0) in options[0].iter().enumerate() {
                let [t0, a00, a01, a02] = cols[0][x];
                for (y, &d1) in options[1].iter().enumerate() {
                    if d1 == d0 {
                        continue;
                    }
                    let [t1, a10, a11, a12] = cols[1][y];
                    let (p, q, r, w) = (1.0 - a00, -a01, -a10, 1.0 - a11);
                    let det = p * w - q * r;
                    if det.abs() < 1e-14 {
                        continue;
                    }
                    let u0 = (t0 * w - q * t1) / det;
                    let u1 = (p * t1 - r * t0) / det;
                    let v0 = (a02 * w - q * a12) / det;
                    let v1 = (p * a12 - r * a02) / det;
                    let c = t[0] + s0 * u0 + s1 * u1;
                    let dd = s0 * v0 + s1 * v1 + s2;
                    for (z, &d2) in options[2].iter().enumerate() {
                        if d2 == d0 || d2 == d1 {
                            continue;
                        }
                        let [t2, a20, a21, a22] = cols[2][z];
                        let denom = 1.0 - a22 - a20 * v0 - a21 * v1;
                        if denom.abs() < 1e-14 {
                            continue;
                        }
                        let m2 = (t2 + a20 * u0 + a21 * u1) / denom;
                        let mean = c + dd * m2;
                        if best.len() < keep
                            || (mean - target).abs() < (best[best.len() - 1].0 - target).abs()
                        {
                            consider(mean, &[d0, d1, d2], &mut best);
                        }
                    }
                }
            }
        }
        _ => {}
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::{Overshoot, analysis::markov};

    #[test]
    fn the_renewal_means_are_the_markov_means_of_the_boards_they_describe() {
        let rules = Rules::new(Overshoot::Stay, 6).expect("rules");
        let classic = Board::classic();
        let jumps = classic.jumps().to_vec();
        let exact = markov::analyze(&classic, &rules, &markov::MarkovOptions::default())
            .expect("analysis")
            .distribution
            .mean
            .expect("mean");
        let direct = mean_of(100, &rules, &jumps).expect("mean");
        assert!((direct - exact).abs() < 1e-9, "{direct} vs {exact}");
        assert!((direct - 39.225_122_1).abs() < 1e-6);
        // Free the first and last jumps; each candidate's mean is the mean
        // of the board with those destinations.
        for free in [vec![0, jumps.len() - 1], vec![0, 5, jumps.len() - 1]] {
            // Any square but the head itself and the other jumps' feet.
            let allowed = |i: usize, d: u32| {
                d != jumps[free[i]].from
                    && jumps
                        .iter()
                        .enumerate()
                        .all(|(k, j)| free.contains(&k) || j.to != d)
            };
            let found = best_destinations(100, &rules, &jumps, &free, 31.4, &allowed, 3);
            assert_eq!(found.len(), 3);
            for (mean, dest) in found {
                let mut edited = jumps.clone();
                for (k, &i) in free.iter().enumerate() {
                    edited[i] = Jump::new(jumps[i].from, dest[k]);
                }
                let again = mean_of(100, &rules, &edited).expect("mean");
                assert!((again - mean).abs() < 1e-8, "{again} vs {mean}");
            }
        }
    }
}
