//! Each seat's chance to win from a position, exact or estimated.
//!
//! Terms:
//! - **chances** ([`Chances`]): one figure a seat, in seat order, each the
//!   chance that seat wins from here. They add up to at most 1: the rest is
//!   the chance that nobody wins (a game stopped at its cap).
//! - **exact**: worked out to within a rounding error (Chutes & Ladders'
//!   Markov chain); it has no interval.
//! - **estimate**: the share of **playouts** (games played on from here by
//!   bots, on dice of their own) each seat won, with its 95% **interval**
//!   (Wilson's score interval: it covers the true chance in about 95 of 100
//!   estimates, even near 0 and 1).

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A range a chance lies in, `low ≤ high`, both in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Interval {
    /// The lower end.
    pub low: f64,
    /// The upper end.
    pub high: f64,
}

/// Each seat's chance to win from a position: exact, or estimated with an
/// interval a seat and the number of playouts. A view carries it
/// flattened: `chances` (seat order), and for an estimate
/// `chances_interval` and `chances_playouts`.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Chances {
    /// Each seat's chance, seat 1 first.
    #[serde(rename = "chances")]
    pub each: Vec<f64>,
    /// For an estimate, each seat's 95% interval; none when exact.
    #[serde(rename = "chances_interval", skip_serializing_if = "Option::is_none")]
    pub interval: Option<Vec<Interval>>,
    /// For an estimate, the playouts it rests on; none when exact.
    #[serde(rename = "chances_playouts", skip_serializing_if = "Option::is_none")]
    pub playouts: Option<u32>,
}

/// A position's chances to be worked out away from the move's path
/// ([`crate::play::Playable::chances_work`]): it owns a copy of the
/// position.
pub type ChancesWork = Box<dyn FnOnce() -> Chances + Send>;

/// A position's own figures to be worked out away from the move's path
/// ([`crate::play::Playable::figures_work`]): it owns a copy of the
/// position and fills the game's memo, which the game shares with it.
pub type FiguresWork = Box<dyn FnOnce() + Send>;

impl Chances {
    /// Exact chances, seat 1 first.
    pub fn exact(each: Vec<f64>) -> Self {
        Self {
            each,
            interval: None,
            playouts: None,
        }
    }

    /// The estimate from `playouts` playouts of which seat `i` won
    /// `wins[i]`: each seat's share, with its 95% Wilson interval. Wins
    /// above the playouts count as all of them.
    pub fn estimated(wins: &[u32], playouts: u32) -> Self {
        let each = wins
            .iter()
            .map(|&w| {
                if playouts == 0 {
                    0.0
                } else {
                    f64::from(w.min(playouts)) / f64::from(playouts)
                }
            })
            .collect();
        Self {
            each,
            interval: Some(
                wins.iter()
                    .map(|&w| wilson(u64::from(w), u64::from(playouts)))
                    .collect(),
            ),
            playouts: Some(playouts),
        }
    }

    /// True for an estimate (it has intervals).
    pub fn is_estimate(&self) -> bool {
        self.interval.is_some()
    }

    /// The same chances with every figure rounded to `digits` decimals (a
    /// view is for people, and a move's answer stays small).
    #[must_use]
    pub fn rounded(&self, digits: i32) -> Self {
        let scale = 10f64.powi(digits);
        let round = |p: f64| (p * scale).round() / scale;
        Self {
            each: self.each.iter().map(|&p| round(p)).collect(),
            interval: self.interval.as_ref().map(|all| {
                all.iter()
                    .map(|i| Interval {
                        low: round(i.low),
                        high: round(i.high),
                    })
                    .collect()
            }),
            playouts: self.playouts,
        }
    }
}

/// The 95% Wilson score interval of `wins` successes in `trials` (wins
/// above the trials count as all of them; no trial gives 0 to 1).
pub fn wilson(wins: u64, trials: u64) -> Interval {
    if trials == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = wins.min(trials) as f64 / n;
    let z2n = Z95 * Z95 / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z95 * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    // The interval always holds the share (exactly, whatever the
    // rounding), and reaches 0 or 1 when the share does.
    Interval {
        low: if wins == 0 {
            0.0
        } else {
            (centre - half).clamp(0.0, p)
        },
        high: if wins >= trials {
            1.0
        } else {
            (centre + half).clamp(p, 1.0)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_by_hand() {
        // 30 of 100: the textbook Wilson interval is 0.2189 to 0.3958.
        let i = wilson(30, 100);
        assert!(
            (i.low - 0.2189).abs() < 1e-4 && (i.high - 0.3958).abs() < 1e-4,
            "{i:?}"
        );
        let none = wilson(0, 10);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.2775).abs() < 1e-4, "{none:?}");
        let all = wilson(10, 10);
        assert_eq!(all.high, 1.0);
        assert!((all.low - 0.7225).abs() < 1e-4, "{all:?}");
        assert_eq!(
            wilson(0, 0),
            Interval {
                low: 0.0,
                high: 1.0
            }
        );
        assert_eq!(wilson(5, 3), wilson(3, 3));
    }

    #[test]
    fn estimates_and_exact_chances_write_as_a_view_carries_them() {
        let exact = serde_json::to_value(Chances::exact(vec![0.25, 0.75])).unwrap();
        assert_eq!(exact, serde_json::json!({"chances": [0.25, 0.75]}));
        let estimate = Chances::estimated(&[620, 380], 1000).rounded(4);
        assert!(estimate.is_estimate());
        assert_eq!(estimate.each, vec![0.62, 0.38]);
        let json = serde_json::to_value(&estimate).unwrap();
        assert_eq!(json["chances_playouts"], 1000);
        let first = &json["chances_interval"][0];
        assert_eq!(first["low"], 0.5895);
        assert_eq!(first["high"], 0.6496);
        assert_eq!(Chances::estimated(&[0, 0], 0).each, vec![0.0, 0.0]);
    }
}
