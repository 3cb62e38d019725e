//! Reports: the answer to each analysis question as one serde type, put into
//! words once. The CLI prints a report's words (its `Display`) or, with
//! `--json`, the report itself; the web API answers with the same report, so
//! a script reads one schema whichever it asks (`docs/api.md` gives each).
//!
//! Terms:
//! - **report**: what one question answers — [`ShortestReport`],
//!   [`AnalysisReport`], [`SimulationReport`], [`SearchReport`],
//!   [`MinThrowsReport`]. Its fields are the schema: named to explain
//!   themselves, and kept stable.
//! - **board facts** ([`BoardFacts`]): the board's name, squares and start
//!   square, at the top of every report.
//! - **count** ([`Count`]): an exact whole number of any size (dice
//!   sequences, routes). In JSON always a string of decimal digits, so no
//!   JSON reader rounds it; in words grouped by thousands (`1,234`).
//! - **fraction** ([`Fraction`]): an exact rational. In JSON an object
//!   `{"fraction": "p/q", "float": x}`: `p/q` in lowest terms (just `p` when
//!   whole) and the nearest `f64`.
//! - **words**: a report's `Display`, the text the CLI prints.

mod analyze;
mod design;
mod min_throws;
mod search;
mod sensitivity;
mod shortest;
mod simulate;

pub use analyze::{AnalysisOptions, AnalysisReport, ExactMoments, SeatChances};
pub use design::DesignReport;
pub use min_throws::MinThrowsReport;
pub use search::{SearchExact, SearchReport, SearchRoute, SeenSequence};
pub use sensitivity::SensitivityReport;
pub use shortest::{RouteReport, ShortestListing, ShortestReport};
pub use simulate::{SeatShare, SimulationExact, SimulationReport};

use super::shortest::Constraint;
use crate::board::{Board, Jump};
use crate::rules::{Outcome, Rules, Step};
use num_bigint::BigUint;
use num_rational::BigRational;
use serde::{Serialize, Serializer};
use std::fmt;

/// Which board a report is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardFacts {
    /// The board's name (`null` for an unnamed board).
    pub name: Option<String>,
    /// The last square, the finish (squares are numbered up to it).
    pub size: u32,
    /// The start square: 0 (off the board) or 1.
    pub start: u32,
}

impl BoardFacts {
    /// The facts of `board`.
    pub fn of(board: &Board) -> Self {
        Self {
            name: board.name().map(str::to_string),
            size: board.size(),
            start: board.start(),
        }
    }

    /// `classic (100 squares, d6, overshoot stay)`.
    fn line(&self, rules: &Rules) -> String {
        format!(
            "{} ({} squares, {rules})",
            self.name.as_deref().unwrap_or("unnamed board"),
            self.size
        )
    }
}

/// An exact whole number of any size: a string of digits in JSON, grouped
/// by thousands in words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Count(pub BigUint);

impl Count {
    /// Is it exactly one (for "1 sequence" against "2 sequences")?
    pub fn is_one(&self) -> bool {
        self.0 == BigUint::from(1u8)
    }
}

impl From<BigUint> for Count {
    fn from(n: BigUint) -> Self {
        Self(n)
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Self {
        Self(BigUint::from(n))
    }
}

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl fmt::Display for Count {
    /// Digits grouped by thousands: 1234567 → `1,234,567`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&grouped(&self.0.to_string()))
    }
}

/// An exact fraction: `{"fraction": "p/q", "float": x}` in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fraction {
    /// `p/q` in lowest terms, or `p` when the value is whole.
    pub fraction: String,
    /// The nearest `f64`.
    pub float: f64,
}

impl From<&BigRational> for Fraction {
    fn from(x: &BigRational) -> Self {
        Self {
            fraction: super::exact::fraction_text(x),
            float: super::exact::to_f64(x),
        }
    }
}

/// Rolls as the CLI's `--dice` takes them: digits run together on a die of
/// up to 9 faces (`3452`), else separated by commas (`12,3,40`).
pub fn dice_text(rolls: impl IntoIterator<Item = u8>, faces: u8) -> String {
    let rolls = rolls.into_iter().map(|r| r.to_string());
    if faces <= 9 {
        rolls.collect()
    } else {
        rolls.collect::<Vec<_>>().join(",")
    }
}

/// Digits grouped by thousands: 1234567 → 1,234,567.
fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A whole number grouped by thousands.
fn int_text(x: u64) -> String {
    grouped(&x.to_string())
}

/// `1 roll`, `7 rolls`.
fn rolls_text(n: u32) -> String {
    tabletop::count(n.into(), "roll", "rolls")
}

/// `ladder 1->38`.
fn jump_text(j: &Jump) -> String {
    format!("{} {}->{}", j.kind(), j.from, j.to)
}

/// The jumps of a route, in order.
fn route_text(jumps: &[Jump]) -> String {
    if jumps.is_empty() {
        "no chutes or ladders".into()
    } else {
        jumps.iter().map(jump_text).collect::<Vec<_>>().join(", ")
    }
}

/// `exactly 2 chutes and exactly 1 ladder` (empty without a constraint).
fn constraint_text(k: Constraint) -> String {
    let mut parts = Vec::new();
    if let Some(c) = k.chutes {
        parts.push(format!(
            "exactly {}",
            tabletop::count(c.into(), "chute", "chutes")
        ));
    }
    if let Some(l) = k.ladders {
        parts.push(format!(
            "exactly {}",
            tabletop::count(l.into(), "ladder", "ladders")
        ));
    }
    parts.join(" and ")
}

/// One step of a game in words: `0 -> 1, ladder 1->38`.
fn step_text(s: &Step, finish: u32) -> String {
    let mut text = if s.outcome == Outcome::LostTurn {
        format!("{} stays (lost turn)", s.from)
    } else {
        format!("{} -> {}", s.from, s.landed)
    };
    if s.landed < s.from + u32::from(s.roll) && s.outcome != Outcome::LostTurn {
        text.push_str(" (bounced back)");
    }
    if let Some(j) = s.jump {
        text.push_str(&format!(", {}", jump_text(&j)));
    }
    if s.to == finish {
        text.push_str(", finish");
    }
    text
}

/// A probability as a percentage with 4 decimals (or in scientific form
/// when tiny).
fn percent(p: f64) -> String {
    if p == 0.0 {
        "0%".into()
    } else if p < 1e-4 {
        format!("{:.2e}%", p * 100.0)
    } else {
        format!("{:.4}%", p * 100.0)
    }
}

/// `inside` or `outside` the interval.
fn inside(x: f64, (lo, hi): (f64, f64)) -> &'static str {
    if lo <= x && x <= hi {
        "inside"
    } else {
        "outside"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_digit_strings_in_json_and_grouped_in_words() {
        let big = Count(BigUint::from(1_971_038_235_969_316_800u64));
        assert_eq!(
            serde_json::to_string(&big).unwrap(),
            "\"1971038235969316800\""
        );
        assert_eq!(big.to_string(), "1,971,038,235,969,316,800");
        assert_eq!(Count::from(423).to_string(), "423");
        assert_eq!(Count::from(1234).to_string(), "1,234");
        assert!(Count::from(1).is_one());
    }

    #[test]
    fn fractions_are_a_string_and_a_float() {
        let x = BigRational::new(12.into(), 8.into());
        let json = serde_json::to_value(Fraction::from(&x)).unwrap();
        assert_eq!(json, serde_json::json!({"fraction": "3/2", "float": 1.5}));
        let whole = BigRational::from_integer(6.into());
        assert_eq!(Fraction::from(&whole).fraction, "6");
    }

    #[test]
    fn dice_are_run_together_up_to_nine_faces() {
        assert_eq!(dice_text([3, 4, 5], 6), "345");
        assert_eq!(dice_text([12, 3], 20), "12,3");
    }
}
