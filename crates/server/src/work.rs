//! Long answers, a few at a time.
//!
//! Terms:
//! - **long work**: an answer that may take a second or more of CPU: a
//!   Baffle hint or bot move (the solver), a board's analysis or shortest
//!   games, a big picture. It runs on tokio's blocking pool so the server
//!   keeps answering everything else.
//! - **slot**: one of [`Config::max_long_work`]. Long work takes a free
//!   slot, or waits in line for one; at most [`WAITING_PER_SLOT`] requests
//!   per slot wait, and one more is refused at once with a 503 that says to
//!   try again, so a burst of hints cannot queue minutes of CPU.

use crate::Config;
use crate::error::ApiError;
use axum::http::StatusCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Semaphore;

/// Requests that may wait in line, per slot.
pub const WAITING_PER_SLOT: usize = 8;

/// The slots for long work, and the line waiting for them.
pub struct LongWork {
    slots: Arc<Semaphore>,
    limit: usize,
    waiting: AtomicUsize,
}

/// One place in the line, given up however the wait ends (a client that
/// hangs up drops it).
struct InLine<'a>(&'a AtomicUsize);

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl LongWork {
    /// Slots for `config`.
    pub fn new(config: &Config) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(config.max_long_work)),
            limit: config.max_long_work,
            waiting: AtomicUsize::new(0),
        }
    }

    /// Runs `work` on the blocking pool once a slot is free.
    ///
    /// # Errors
    /// A 503 when the line is full, or when the work stopped without an
    /// answer (it panicked).
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = match Arc::clone(&self.slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                let line = InLine(&self.waiting);
                if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.limit * WAITING_PER_SLOT {
                    return Err(self.busy());
                }
                let slot = Arc::clone(&self.slots)
                    .acquire_owned()
                    .await
                    .map_err(|_| self.busy())?;
                drop(line);
                slot
            }
        };
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            work()
        })
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the work stopped: {e}"),
            )
        })
    }

    fn busy(&self) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy with {} and more waiting (hints, bot moves, analyses); try again in a moment",
                tabletop::count(self.limit as u64, "long answer", "long answers")
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[tokio::test]
    async fn work_waits_for_a_slot_and_a_full_line_is_refused() {
        let mut config = Config::new("unused");
        config.max_long_work = 1;
        let work = Arc::new(LongWork::new(&config));
        let (release, wait) = mpsc::channel::<()>();
        let first = {
            let work = Arc::clone(&work);
            tokio::spawn(async move { work.run(move || wait.recv().is_ok()).await })
        };
        while work.slots.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        // The line holds 8 more; the ninth is refused.
        let mut line = Vec::new();
        for i in 0..WAITING_PER_SLOT {
            let work = Arc::clone(&work);
            line.push(tokio::spawn(async move { work.run(move || i).await }));
        }
        while work.waiting.load(Ordering::SeqCst) < WAITING_PER_SLOT {
            tokio::task::yield_now().await;
        }
        let refused = work.run(|| 99).await.unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(refused.message.contains("try again"), "{}", refused.message);
        assert_eq!(work.waiting.load(Ordering::SeqCst), WAITING_PER_SLOT);
        release.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        for (i, waiting) in line.into_iter().enumerate() {
            assert_eq!(waiting.await.unwrap().unwrap(), i);
        }
        assert_eq!(work.waiting.load(Ordering::SeqCst), 0);
        assert_eq!(work.run(|| 2).await.unwrap(), 2);
    }
}
