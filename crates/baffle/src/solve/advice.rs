//! The solver's advice: what to do next, as one value, put into words here
//! and nowhere else.
//!
//! Terms:
//! - **proven**: true in every consistent layout: the layouts counted
//!   exactly, or, when estimated, shown by the SAT solver
//!   ([`super::proof`]). A cell every sampled layout agrees on is not
//!   proven by that, and is never advised as a sure guess.
//! - **best shot**: the hole whose beam leaves the smallest share of the
//!   layouts on average ([`super::ShotOdds::expected_share`]).
//! - **nothing left to learn**: no shot can tell the layouts apart: every
//!   hole is shot, or the two holes left lead to each other
//!   ([`crate::beam::last_pair`]), or, counted exactly, every remaining
//!   shot comes out at the same hole in every layout. Only then does the
//!   advice say so; when a sample merely failed to show a difference, it
//!   says that instead.

use super::{Evidence, Method, Solution};
use crate::layout::{Mirror, Placed};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What to do next, given what the solver found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Advice {
    /// No layout fits the shots and guesses.
    Contradiction,
    /// Only the odds were asked for ([`super::SolveOptions::advice`] off).
    NotAsked,
    /// Every mirror is found.
    Done,
    /// The shots prove this mirror, and it is not found yet: guessing it
    /// is free.
    GuessProven {
        /// The mirror.
        placed: Placed,
    },
    /// The best shot, every layout weighed.
    ExactBestShot {
        /// The hole.
        hole: usize,
        /// Consistent layouts now (a decimal string).
        layouts: String,
        /// Layouts left on average after it.
        expected_layouts: f64,
    },
    /// The best shot as a sample of layouts shows it.
    SampledBestShot {
        /// The hole.
        hole: usize,
        /// The share of the layouts left on average after it.
        expected_share: f64,
        /// How the sample was drawn.
        method: Method,
    },
    /// Proven: no shot can tell the layouts apart; guess the likeliest
    /// mirror.
    NothingToLearn {
        /// The likeliest mirror not yet found.
        placed: Placed,
        /// Its chance.
        chance: f64,
        /// Whether every allowed hole has been shot or seen as an exit
        /// (else every remaining shot has one possible exit).
        all_shot: bool,
        /// Whether the chance is estimated from a sample (too many layouts
        /// to count), not counted: what no shot can do is proven either
        /// way.
        #[serde(default)]
        estimated: bool,
    },
    /// No shot told the sampled layouts apart (not proven: a bigger sample
    /// might); the likeliest mirror.
    SampleUndivided {
        /// The likeliest mirror not yet found.
        placed: Placed,
        /// Its estimated chance.
        chance: f64,
        /// How the sample was drawn.
        method: Method,
    },
}

impl Advice {
    /// The advice for `solution`, the solver's answer to `ev` with advice
    /// asked for.
    pub fn of(ev: &Evidence, solution: &Solution) -> Self {
        let Some(layouts) = &solution.layouts else {
            return Self::estimated(ev, solution);
        };
        if *layouts == 0u32.into() {
            return Self::Contradiction;
        }
        if ev.found.len() >= ev.mirrors {
            return Self::Done;
        }
        if let Some(p) = unfound_certain(ev, solution) {
            return Self::GuessProven { placed: p };
        }
        let likeliest = likeliest(ev, solution);
        match (&solution.best_next_shot, solution.method) {
            (Some(best), Method::Exact) => Self::ExactBestShot {
                hole: best.hole,
                layouts: layouts.to_string(),
                expected_layouts: best.expected_layouts.unwrap_or(0.0),
            },
            (Some(best), method) => Self::SampledBestShot {
                hole: best.hole,
                expected_share: best.expected_share,
                method,
            },
            (None, method) => match likeliest {
                None => Self::Contradiction,
                Some((placed, chance)) => {
                    if solution.candidates.is_empty() || method == Method::Exact {
                        Self::NothingToLearn {
                            placed,
                            chance,
                            all_shot: every_hole_seen(ev),
                            estimated: false,
                        }
                    } else {
                        Self::SampleUndivided {
                            placed,
                            chance,
                            method,
                        }
                    }
                }
            },
        }
    }

    fn estimated(ev: &Evidence, solution: &Solution) -> Self {
        if ev.found.len() >= ev.mirrors {
            return Self::Done;
        }
        if let Some(p) = unfound_certain(ev, solution) {
            return Self::GuessProven { placed: p };
        }
        // The advice names the likeliest mirror: a stated chance goes
        // through the in-play map too (see `calibrate`).
        let likeliest = likeliest(ev, solution).map(|(placed, chance)| match solution.method {
            Method::Estimated {
                calibrated: true, ..
            } => (
                placed,
                super::calibrate::likeliest(ev, chance, super::calibrate::Guessed::Likeliest),
            ),
            _ => (placed, chance),
        });
        match (&solution.best_next_shot, likeliest) {
            (Some(best), _) => Self::SampledBestShot {
                hole: best.hole,
                expected_share: best.expected_share,
                method: solution.method,
            },
            (None, Some((placed, chance))) => {
                if solution.candidates.is_empty() {
                    Self::NothingToLearn {
                        placed,
                        chance,
                        all_shot: every_hole_seen(ev),
                        estimated: true,
                    }
                } else {
                    Self::SampleUndivided {
                        placed,
                        chance,
                        method: solution.method,
                    }
                }
            }
            (None, None) => Self::Contradiction,
        }
    }

    /// The hole to shoot, when the advice is a shot.
    pub const fn hole(&self) -> Option<usize> {
        match self {
            Self::ExactBestShot { hole, .. } | Self::SampledBestShot { hole, .. } => Some(*hole),
            _ => None,
        }
    }

    /// The mirror to guess, when the advice is a guess.
    pub const fn guess(&self) -> Option<Placed> {
        match self {
            Self::GuessProven { placed }
            | Self::NothingToLearn { placed, .. }
            | Self::SampleUndivided { placed, .. } => Some(*placed),
            _ => None,
        }
    }
}

/// Whether every hole beams may be shot into has been shot or seen as an
/// exit.
fn every_hole_seen(ev: &Evidence) -> bool {
    let Ok(size) = crate::geometry::Size::new(ev.size) else {
        return false;
    };
    size.shootable(ev.sides).all(|h| {
        ev.shots
            .iter()
            .any(|&(entry, exit)| entry == h || exit == h)
    })
}

/// A proven mirror not yet found, the first in row order.
fn unfound_certain(ev: &Evidence, solution: &Solution) -> Option<Placed> {
    solution
        .certain_mirrors
        .iter()
        .find(|p| !ev.found.contains(p))
        .copied()
}

/// The mirror not yet found that the most layouts hold (the first in row
/// order on a tie), and its chance.
pub fn likeliest(ev: &Evidence, solution: &Solution) -> Option<(Placed, f64)> {
    let mut best: Option<(Placed, f64)> = None;
    for odds in &solution.cells {
        if ev.found.iter().any(|f| f.cell == odds.cell) {
            continue;
        }
        for (mirror, chance) in [
            (Mirror::Slash, odds.slash),
            (Mirror::Backslash, odds.backslash),
        ] {
            if chance > 0.0 && best.is_none_or(|(_, c)| chance > c) {
                best = Some((Placed::new(odds.cell, mirror), chance));
            }
        }
    }
    best
}

/// An estimated chance of the likeliest mirror in words, as the range it
/// is good to ([`super::calibrate::in_play_range`]): "58–78%".
pub fn estimated_chance_words(chance: f64) -> String {
    let (low, high) = super::calibrate::in_play_range(chance);
    format!("{:.0}–{:.0}%", 100.0 * low, 100.0 * high)
}

fn percent(x: f64) -> String {
    let p = 100.0 * x;
    if p > 0.0 && p < 1.0 {
        "under 1%".to_string()
    } else if p < 100.0 && p > 99.0 {
        "over 99%".to_string()
    } else {
        format!("{p:.0}%")
    }
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Contradiction => write!(
                f,
                "No layout fits these shots and guesses: they contradict each other."
            ),
            Self::Done => write!(f, "Every mirror is found."),
            Self::NotAsked => write!(f, "No advice was asked for."),
            Self::GuessProven { placed } => write!(
                f,
                "Guess {placed}: the shots prove it is there (a sure guess costs nothing)."
            ),
            Self::ExactBestShot {
                hole,
                layouts,
                expected_layouts,
            } => write!(
                f,
                "Shoot hole {hole}: of the {layouts} {} that {} what you know, it leaves {expected_layouts:.1} on average (exact).",
                if layouts == "1" { "layout" } else { "layouts" },
                if layouts == "1" { "fits" } else { "fit" },
            ),
            Self::SampledBestShot {
                hole,
                expected_share,
                method,
            } => write!(
                f,
                "Shoot hole {hole}: it leaves about {} of the layouts that fit on average ({method}).",
                percent(*expected_share)
            ),
            Self::NothingToLearn {
                placed,
                chance,
                all_shot,
                estimated,
            } => write!(
                f,
                "{}: guess. The likeliest mirror is {placed} ({}).",
                if *all_shot {
                    "Every hole has been shot"
                } else {
                    "No shot can tell the layouts left apart (proven)"
                },
                if *estimated {
                    estimated_chance_words(*chance)
                } else {
                    percent(*chance)
                }
            ),
            Self::SampleUndivided {
                placed,
                chance,
                method,
            } => write!(
                f,
                "No shot told the sampled layouts apart ({method}), which does not prove that none can; the likeliest mirror is {placed} ({}).",
                estimated_chance_words(*chance)
            ),
        }
    }
}
