//! What a designer asks of one figure of a board: a value within a
//! tolerance, a bound, or the least or the most the search can find.
//!
//! Terms:
//! - **goal** ([`Goal`]): `30` (30 within the figure's default tolerance),
//!   `30±0.5` (also `30+-0.5`), `20..30` (anywhere in the range), `>=20` or
//!   `20..` (at least), `<=30` or `..30` (at most), `min` or `max` (the
//!   least or the most found: always met, the report says what was reached).
//! - **window**: the values that meet a goal, `[low, high]` (unbounded on a
//!   side for a bound; the whole line for `min` and `max`).
//! - **miss**: how far a value lies outside the window (0 inside).

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// One figure's goal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Goal {
    /// Within `tolerance` of `value`.
    Near {
        /// The value asked.
        value: f64,
        /// How far from it still meets the goal.
        tolerance: f64,
    },
    /// At least this.
    AtLeast {
        /// The least value that meets the goal.
        value: f64,
    },
    /// At most this.
    AtMost {
        /// The most value that meets the goal.
        value: f64,
    },
    /// As small as the search can find.
    Least,
    /// As large as the search can find.
    Most,
}

/// A goal that cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "'{0}' is not a goal: give a number (30), a number and a tolerance (30±0.5 or 30+-0.5), a range (20..30), a bound (>=20, <=30) or min or max"
)]
pub struct GoalError(pub String);

impl Goal {
    /// `value` within `tolerance`.
    pub fn near(value: f64, tolerance: f64) -> Self {
        Self::Near { value, tolerance }
    }

    /// The values that meet the goal, `(low, high)`.
    pub fn window(&self) -> (f64, f64) {
        match *self {
            Self::Near { value, tolerance } => (value - tolerance, value + tolerance),
            Self::AtLeast { value } => (value, f64::INFINITY),
            Self::AtMost { value } => (f64::NEG_INFINITY, value),
            Self::Least | Self::Most => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// How far `got` lies outside the window (0 inside).
    pub fn miss(&self, got: f64) -> f64 {
        if got.is_nan() {
            return f64::INFINITY;
        }
        let (low, high) = self.window();
        if got < low {
            low - got
        } else if got > high {
            got - high
        } else {
            0.0
        }
    }

    /// Is this a `min` or `max` goal?
    pub fn optimises(&self) -> bool {
        matches!(self, Self::Least | Self::Most)
    }

    /// The numbers in the goal (for checking they are finite).
    pub fn numbers(&self) -> Vec<f64> {
        match *self {
            Self::Near { value, tolerance } => vec![value, tolerance],
            Self::AtLeast { value } | Self::AtMost { value } => vec![value],
            Self::Least | Self::Most => Vec::new(),
        }
    }

    /// Reads a goal; a plain number is `value` within `tolerance`.
    ///
    /// # Errors
    /// [`GoalError`] when the text is none of the forms, or a number in it
    /// is not finite, or a tolerance or range is negative.
    pub fn parse_with(text: &str, tolerance: f64) -> Result<Self, GoalError> {
        let bad = || GoalError(text.to_string());
        let number = |t: &str| -> Result<f64, GoalError> {
            let v = t.trim().parse::<f64>().map_err(|_| bad())?;
            if v.is_finite() { Ok(v) } else { Err(bad()) }
        };
        let t = text.trim();
        let goal = match t.to_ascii_lowercase().as_str() {
            "min" | "least" => Self::Least,
            "max" | "most" => Self::Most,
            _ => {
                if let Some(rest) = t.strip_prefix(">=") {
                    Self::AtLeast {
                        value: number(rest)?,
                    }
                } else if let Some(rest) = t.strip_prefix("<=") {
                    Self::AtMost {
                        value: number(rest)?,
                    }
                } else if let Some((a, b)) = t
                    .split_once('±')
                    .or_else(|| t.split_once("+/-"))
                    .or_else(|| t.split_once("+-"))
                {
                    let (value, tolerance) = (number(a)?, number(b)?);
                    if tolerance < 0.0 {
                        return Err(bad());
                    }
                    Self::near(value, tolerance)
                } else if let Some((a, b)) = t.split_once("..") {
                    let b = b.trim_start_matches('=');
                    match (a.trim().is_empty(), b.trim().is_empty()) {
                        (true, true) => return Err(bad()),
                        (true, false) => Self::AtMost { value: number(b)? },
                        (false, true) => Self::AtLeast { value: number(a)? },
                        (false, false) => {
                            let (low, high) = (number(a)?, number(b)?);
                            if low > high {
                                return Err(bad());
                            }
                            Self::near((low + high) / 2.0, (high - low) / 2.0)
                        }
                    }
                } else {
                    Self::near(number(t)?, tolerance)
                }
            }
        };
        Ok(goal)
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Near { value, tolerance } => write!(f, "{value} ± {tolerance}"),
            Self::AtLeast { value } => write!(f, "at least {value}"),
            Self::AtMost { value } => write!(f, "at most {value}"),
            Self::Least => write!(f, "as small as possible"),
            Self::Most => write!(f, "as large as possible"),
        }
    }
}

/// A goal read with a tolerance of 0 for a plain number (use
/// [`Goal::parse_with`] for a figure's own tolerance).
impl FromStr for Goal {
    type Err = GoalError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_with(s, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_read_in_every_form_and_say_their_window() {
        let read = |t: &str| Goal::parse_with(t, 0.1).expect(t);
        assert_eq!(read("30"), Goal::near(30.0, 0.1));
        assert_eq!(read("30±0.5"), Goal::near(30.0, 0.5));
        assert_eq!(read("30+-0.5"), Goal::near(30.0, 0.5));
        assert_eq!(read("66.978705+/-5e-7"), Goal::near(66.978705, 5e-7));
        assert_eq!(read("20..30"), Goal::near(25.0, 5.0));
        assert_eq!(read(">=20"), Goal::AtLeast { value: 20.0 });
        assert_eq!(read("20.."), Goal::AtLeast { value: 20.0 });
        assert_eq!(read("<=30"), Goal::AtMost { value: 30.0 });
        assert_eq!(read("..30"), Goal::AtMost { value: 30.0 });
        assert_eq!(read("MIN"), Goal::Least);
        assert_eq!(read("max"), Goal::Most);
        for bad in ["", "thirty", "30±-1", "30..20", "..", "inf", "1e400", "NaN"] {
            assert!(Goal::parse_with(bad, 0.1).is_err(), "{bad}");
        }
        assert_eq!(read("30±0.5").miss(31.0), 0.5);
        assert_eq!(read("30±0.5").miss(30.2), 0.0);
        assert_eq!(read(">=20").miss(17.0), 3.0);
        assert_eq!(read("<=30").miss(f64::NAN), f64::INFINITY);
        assert_eq!(Goal::Least.miss(1e9), 0.0);
    }
}
