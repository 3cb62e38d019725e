//! Stopping long work early: a flag another thread can raise, and a
//! deadline, checked cheaply by the computation itself.
//!
//! Terms:
//! - **budget** ([`Budget`]): what a long computation may spend — until a
//!   deadline, and only while nobody has withdrawn the question. A library
//!   computation that takes one calls [`Budget::check`] every so often (each
//!   roll tabulated, every few thousand states searched) and stops with
//!   [`Stopped`] when the answer is no longer wanted.
//! - **withdrawn** (cancelled): whoever asked no longer wants the answer (a
//!   web client that hung up). A [`Canceller`] raises the flag; every copy of
//!   the budget sees it.
//! - **time limit**: how long the work may run, from when the budget was
//!   made ([`Budget::with_limit`]). Past it the work stops with
//!   [`Stopped::TimedOut`], whose message names the limit.
//! - **unlimited** ([`Budget::unlimited`]): never stops; what the CLI uses.
//! - **counted** ([`Budget::withdrawn_after`]): withdrawn at a given check,
//!   so a test can stop a computation part way without depending on time.
//!
//! A check is one relaxed atomic load and, when there is a deadline, one
//! read of the monotonic clock (tens of nanoseconds): call it per unit of
//! work that takes at least microseconds, not per innermost step. Once a
//! check has failed, the budget remembers why ([`Budget::stopped`]), so the
//! caller can tell a stop from the computation's own errors.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Why long work stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The time limit passed.
    #[error("stopped: the answer took longer than {}, the limit for one answer", seconds(*.limit))]
    TimedOut {
        /// The time limit the work had.
        limit: Duration,
    },
    /// Whoever asked withdrew the question.
    #[error("stopped: the question was withdrawn before its answer was ready")]
    Cancelled,
}

/// `10 s`, `1.5 s`, `250 ms`.
fn seconds(d: Duration) -> String {
    if d >= Duration::from_secs(1) {
        let s = d.as_secs_f64();
        if s.fract() == 0.0 {
            format!("{s:.0} s")
        } else {
            format!("{s:.1} s")
        }
    } else {
        format!("{} ms", d.as_millis())
    }
}

const RUNNING: u8 = 0;
const TIMED_OUT: u8 = 1;
const CANCELLED: u8 = 2;

#[derive(Debug)]
struct Shared {
    cancelled: AtomicBool,
    /// Why a check failed first (`RUNNING` while none has).
    outcome: AtomicU8,
    /// Checks left before the question is withdrawn, when counted
    /// ([`Budget::withdrawn_after`]).
    countdown: Option<AtomicU64>,
}

/// What a long computation may spend: a deadline and a flag to withdraw
/// the question. Cheap to clone (clones share the flag) and to check.
#[derive(Clone, Debug)]
pub struct Budget {
    shared: Option<Arc<Shared>>,
    deadline: Option<(Instant, Duration)>,
}

/// Withdraws the question of every clone of one [`Budget`].
#[derive(Clone, Debug)]
pub struct Canceller(Arc<Shared>);

impl Canceller {
    /// Raises the flag: the next check of the budget fails with
    /// [`Stopped::Cancelled`].
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self::unlimited()
    }
}

impl Budget {
    /// A budget that never stops the work.
    pub const fn unlimited() -> Self {
        Self {
            shared: None,
            deadline: None,
        }
    }

    /// A budget that runs out `limit` from now, or earlier when withdrawn
    /// through its [`Canceller`].
    pub fn with_limit(limit: Duration) -> (Self, Canceller) {
        let (budget, canceller) = Self::cancellable();
        let budget = Self {
            deadline: Instant::now().checked_add(limit).map(|at| (at, limit)),
            ..budget
        };
        (budget, canceller)
    }

    /// A budget with no time limit that can be withdrawn through its
    /// [`Canceller`].
    pub fn cancellable() -> (Self, Canceller) {
        Self::counting(None)
    }

    /// A budget withdrawn at its check number `checks + 1`: the same stop
    /// as a client hanging up in the middle of the work, but at a point
    /// that does not depend on timing. For tests that a computation checks
    /// its budget as it goes, and stops.
    pub fn withdrawn_after(checks: u64) -> Self {
        Self::counting(Some(AtomicU64::new(checks))).0
    }

    fn counting(countdown: Option<AtomicU64>) -> (Self, Canceller) {
        let shared = Arc::new(Shared {
            cancelled: AtomicBool::new(false),
            outcome: AtomicU8::new(RUNNING),
            countdown,
        });
        (
            Self {
                shared: Some(Arc::clone(&shared)),
                deadline: None,
            },
            Canceller(shared),
        )
    }

    /// The time limit, if there is one.
    pub fn limit(&self) -> Option<Duration> {
        self.deadline.map(|(_, limit)| limit)
    }

    /// Whether the work may go on.
    ///
    /// # Errors
    /// [`Stopped::Cancelled`] once the question was withdrawn,
    /// [`Stopped::TimedOut`] once the deadline has passed.
    #[inline]
    pub fn check(&self) -> Result<(), Stopped> {
        if let Some(shared) = &self.shared {
            if let Some(left) = &shared.countdown {
                if left.load(Ordering::Relaxed) == 0 {
                    shared.cancelled.store(true, Ordering::Relaxed);
                } else {
                    left.fetch_sub(1, Ordering::Relaxed);
                }
            }
            if shared.cancelled.load(Ordering::Relaxed) {
                return Err(self.record(Stopped::Cancelled));
            }
        }
        if let Some((at, limit)) = self.deadline {
            if Instant::now() >= at {
                return Err(self.record(Stopped::TimedOut { limit }));
            }
        }
        Ok(())
    }

    /// Remembers the first reason a check failed.
    #[cold]
    fn record(&self, why: Stopped) -> Stopped {
        if let Some(shared) = &self.shared {
            let code = match why {
                Stopped::TimedOut { .. } => TIMED_OUT,
                Stopped::Cancelled => CANCELLED,
            };
            let _ = shared.outcome.compare_exchange(
                RUNNING,
                code,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        why
    }

    /// Why the work was stopped, if a check has failed: what a caller asks
    /// after the computation returned, to tell a stop from its other
    /// errors. (An unlimited budget never stops; a deadline that passed
    /// unchecked does not count.)
    pub fn stopped(&self) -> Option<Stopped> {
        let shared = self.shared.as_ref()?;
        match shared.outcome.load(Ordering::Relaxed) {
            TIMED_OUT => Some(Stopped::TimedOut {
                limit: self.limit().unwrap_or_default(),
            }),
            CANCELLED => Some(Stopped::Cancelled),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unlimited_budget_never_stops() {
        let budget = Budget::unlimited();
        for _ in 0..1000 {
            assert_eq!(budget.check(), Ok(()));
        }
        assert_eq!(budget.stopped(), None);
        assert_eq!(budget.limit(), None);
    }

    #[test]
    fn a_withdrawn_question_stops_every_clone() {
        let (budget, canceller) = Budget::cancellable();
        let clone = budget.clone();
        assert_eq!(budget.check(), Ok(()));
        assert_eq!(budget.stopped(), None);
        canceller.cancel();
        assert_eq!(clone.check(), Err(Stopped::Cancelled));
        assert_eq!(budget.stopped(), Some(Stopped::Cancelled));
        let withdrawn = Stopped::Cancelled.to_string();
        assert!(withdrawn.contains("withdrawn"), "{withdrawn}");
    }

    #[test]
    fn a_counted_budget_is_withdrawn_at_a_known_check() {
        let budget = Budget::withdrawn_after(3);
        for _ in 0..3 {
            assert_eq!(budget.check(), Ok(()));
        }
        assert_eq!(budget.check(), Err(Stopped::Cancelled));
        assert_eq!(budget.check(), Err(Stopped::Cancelled));
        assert_eq!(budget.stopped(), Some(Stopped::Cancelled));
    }

    #[test]
    fn a_passed_deadline_stops_with_its_limit_in_words() {
        let (budget, _canceller) = Budget::with_limit(Duration::ZERO);
        let limit = Duration::ZERO;
        assert_eq!(budget.check(), Err(Stopped::TimedOut { limit }));
        assert_eq!(budget.stopped(), Some(Stopped::TimedOut { limit }));
        let words = Stopped::TimedOut {
            limit: Duration::from_secs(10),
        }
        .to_string();
        assert_eq!(
            words,
            "stopped: the answer took longer than 10 s, the limit for one answer"
        );
        let short = Stopped::TimedOut {
            limit: Duration::from_millis(250),
        };
        assert!(short.to_string().contains("250 ms"), "{short}");
    }

    #[test]
    fn the_first_reason_is_kept() {
        let (budget, canceller) = Budget::with_limit(Duration::ZERO);
        assert!(matches!(budget.check(), Err(Stopped::TimedOut { .. })));
        canceller.cancel();
        assert_eq!(budget.check(), Err(Stopped::Cancelled));
        assert!(matches!(budget.stopped(), Some(Stopped::TimedOut { .. })));
    }

    #[test]
    fn a_far_deadline_does_not_stop() {
        let (budget, _canceller) = Budget::with_limit(Duration::from_secs(3600));
        assert_eq!(budget.check(), Ok(()));
        assert_eq!(budget.limit(), Some(Duration::from_secs(3600)));
        let (huge, _c) = Budget::with_limit(Duration::MAX);
        assert_eq!(huge.check(), Ok(()), "a limit past the clock's end");
    }
}
