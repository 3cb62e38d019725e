//! Long answers, a few at a time, each within a time limit, and stopped when
//! their client goes away.
//!
//! Terms:
//! - **long work**: an answer that may take a second or more of CPU: a
//!   Baffle hint or bot move (the solver), a board's analysis or shortest
//!   games, a big picture. It runs off the async workers so the server
//!   keeps answering everything else: the quick line's on tokio's blocking
//!   pool, the long line's on the long pool.
//! - **long pool** ([`Pool`]): [`Config::max_long_work`] threads of the
//!   long line's own, each of which lowers its own priority once, when it
//!   starts, by [`LONG_NICENESS`] (Linux: `setpriority` on the thread). The
//!   kernel then gives the cores to moves, pages and the quick line first,
//!   and to the solver only what they leave, so a burst of hints no longer
//!   slows every move down. Dedicated threads, because a thread of tokio's
//!   blocking pool lowered once would stay low for whatever it runs next.
//! - **line** ([`Line`]): where a request waits. The **quick line** is for
//!   questions the handler's cost estimate says are small (a Chutes
//!   analysis of a board of at most [`crate::tools::chutes_analysis::QUICK_SQUARES`]
//!   squares: milliseconds); the **long line** for the rest (the solver,
//!   big boards, constrained shortest games). Each line has
//!   [`Config::max_long_work`] slots of its own, so a cheap analysis never
//!   waits behind hints and bot moves.
//! - **slot**: work takes a free slot of its line, or waits for one; at most
//!   [`WAITING_PER_SLOT`] requests per slot wait in the long line
//!   ([`QUICK_WAITING_PER_SLOT`] in the quick one), and one more is refused
//!   at once with a 503 that says to try again, so a burst of hints cannot
//!   queue minutes of CPU.
//! - **budget** ([`tabletop::Budget`]): what one piece of work may spend. The
//!   library computation checks it as it goes and stops when it runs out.
//!   Work in the long line has [`Config::long_work_limit`] (10 s by
//!   default), after which its answer is a 503 saying so. Work in the quick
//!   line has [`Config::quick_work_limit`] (½ s): an estimate that was
//!   wrong costs the quick line no more than that, and the question moves
//!   to the long line, where it starts again with the full limit.
//! - **withdrawn**: a client that hangs up drops its request's future; a
//!   guard in it then raises the budget's flag, and the computation stops at
//!   its next check (within milliseconds), freeing its slot.
//! - **memory budget** ([`Memory`]): what long work may hold at once,
//!   counted in the algorithm's own states (a shortest-games search holds
//!   about [`BYTES_PER_STATE`] bytes a state in its tables). One piece may
//!   hold [`Memory::per_work`] states: a bigger question is refused before
//!   any work, with its size in words (`422`). All pieces together may hold
//!   [`Memory::total`]: a question that does not fit beside those running
//!   is refused with `503 busy` and `Retry-After`, like a full line.
//! - **asker's share**: with fair share on, a request's client address is
//!   its **asker** ([`ASKER`], set by [`crate::http::fair::limit`]); one
//!   asker holds at most half the long line's slots (at least one) in
//!   running and waiting work together, and its next is refused with
//!   `503 busy` at once, so that one address asking hints on the biggest
//!   boxes cannot keep another's hint out of the line.
//! - **tally** ([`Tally`]): how many pieces of work started, finished, were
//!   stopped by the time limit or withdrawn, and moved lines; what the tests
//!   (and an operator) read.

use crate::config::Config;
use crate::http::error::ApiError;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;
use tabletop::Code;
use tabletop::{Budget, Canceller, Stopped};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How much lower the long pool's threads run than the server: their nice
/// value is the server's plus this (at most 19, the lowest), so 10 for a
/// server started normally.
pub const LONG_NICENESS: i32 = 10;

/// Requests that may wait in the long line, per slot.
pub const WAITING_PER_SLOT: usize = 8;
/// Requests that may wait in the quick line, per slot (each takes
/// milliseconds).
pub const QUICK_WAITING_PER_SLOT: usize = 32;

/// Which line a request waits in: what its handler's cost estimate says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Small work: milliseconds, at most [`Config::quick_work_limit`]
    /// before it moves to the long line.
    Quick,
    /// Work that may take seconds: at most [`Config::long_work_limit`].
    Long,
}

/// Counts of long work since the server started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Pieces of work started, in either line (a move to the long line
    /// starts again and counts again).
    pub started: u64,
    /// Finished with an answer (or the library's own error).
    pub finished: u64,
    /// Stopped by the long line's time limit.
    pub timed_out: u64,
    /// Stopped because the client went away.
    pub withdrawn: u64,
    /// Moved from the quick line to the long one, past the quick limit.
    pub moved: u64,
    /// Refused at once because its line was full.
    pub refused: u64,
    /// Running now.
    pub running: u64,
    /// Waiting for a slot now, in either line.
    pub waiting: u64,
}

#[derive(Default)]
struct Counters {
    started: AtomicU64,
    finished: AtomicU64,
    timed_out: AtomicU64,
    withdrawn: AtomicU64,
    moved: AtomicU64,
    refused: AtomicU64,
    running: AtomicU64,
}

/// One line: its slots and the requests waiting for them.
struct Queue {
    slots: Arc<Semaphore>,
    size: usize,
    waiting: AtomicUsize,
    most_waiting: usize,
}

/// One place in a line, given up however the wait ends (a client that
/// hangs up drops it).
struct InLine<'a>(&'a AtomicUsize);

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Withdraws the work's question when the request's future is dropped (and,
/// harmlessly, when it ends normally).
struct WithdrawOnDrop(Canceller);

impl Drop for WithdrawOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Counts one piece of work as running while it lives.
struct Running(Arc<Counters>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One piece of work for the long pool.
type Job = Box<dyn FnOnce() + Send>;

/// The long line's threads, at a lower priority than the rest of the
/// server; each runs one piece of work at a time, taken from a channel.
/// The long line's slots let no more work in than there are threads, so
/// work never waits here. The threads end when the pool is dropped.
pub struct Pool {
    jobs: mpsc::Sender<Job>,
    threads: usize,
}

impl Pool {
    /// Starts `threads` threads, named `NAME-N`, each of which lowers its
    /// own priority by [`LONG_NICENESS`] first: `parlor-long` for the long
    /// line, `parlor-bots` for the bots' thinking ([`crate::hub::Hub`]).
    pub fn new(name: &str, threads: usize) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let mut started = 0;
        for i in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || {
                    lower_this_threads_priority();
                    loop {
                        // The lock is held while waiting for work, never
                        // while doing it.
                        let job = match queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        // Err: the pool was dropped.
                        let Ok(job) = job else { return };
                        job();
                    }
                });
            match spawned {
                Ok(_) => started += 1,
                Err(e) => tracing::error!(error = %e, "cannot start a thread for long answers"),
            }
        }
        Self {
            jobs,
            threads: started,
        }
    }

    /// Runs `job` on one of the pool's threads and waits for its answer.
    ///
    /// # Errors
    /// Why there is no answer: `job` panicked, or the pool has no thread.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, String> {
        if self.threads == 0 {
            return Err("the server has no thread for long answers".to_string());
        }
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The thread outlives a panic; the answer says so.
            let _ = answer.send(std::panic::catch_unwind(AssertUnwindSafe(job)));
        });
        self.jobs
            .send(job)
            .map_err(|_| "the threads for long answers are gone".to_string())?;
        match answered.await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(_)) => Err("it panicked".to_string()),
            Err(_) => Err("its thread went away".to_string()),
        }
    }
}

/// Lowers the calling thread's priority by [`LONG_NICENESS`]; on failure
/// says so once in the server's log and goes on at the same priority.
fn lower_this_threads_priority() {
    static SAID: AtomicBool = AtomicBool::new(false);
    if let Err(e) = nice::lower_this_thread(LONG_NICENESS) {
        if !SAID.swap(true, Ordering::SeqCst) {
            tracing::warn!(
                error = %e,
                "cannot lower the priority of the threads for long answers; \
                 they run at the server's priority, and may slow moves down"
            );
        }
    }
}

/// A thread's own priority. Linux gives each thread its own nice value
/// (`setpriority(PRIO_PROCESS, tid, …)` on a thread id changes only that
/// thread); elsewhere this does nothing.
mod nice {
    /// Raises the calling thread's nice value by `step` (up to 19, the
    /// lowest priority); returns the new value.
    ///
    /// # Errors
    /// When the kernel refuses to read or set it.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)] // three system calls, through the `libc` crate
    pub fn lower_this_thread(step: i32) -> std::io::Result<i32> {
        // SAFETY: gettid, getpriority and setpriority take plain integers
        // and touch no memory; __errno_location points at this thread's
        // own errno, which lives as long as the thread. getpriority may
        // rightly return -1, so errno is cleared first to tell it from an
        // error.
        unsafe {
            let tid = libc::gettid() as libc::id_t;
            *libc::__errno_location() = 0;
            let now = libc::getpriority(libc::PRIO_PROCESS, tid);
            if now == -1 && *libc::__errno_location() != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let lower = now.saturating_add(step).min(19);
            if libc::setpriority(libc::PRIO_PROCESS, tid, lower) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(lower)
        }
    }

    /// Elsewhere the thread keeps its priority.
    ///
    /// # Errors
    /// Never.
    #[cfg(not(target_os = "linux"))]
    pub fn lower_this_thread(_step: i32) -> std::io::Result<i32> {
        Ok(0)
    }
}

impl Queue {
    fn new(size: usize, per_slot: usize) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(size)),
            size,
            waiting: AtomicUsize::new(0),
            most_waiting: size * per_slot,
        }
    }

    /// A slot, waiting for one if need be; `None` when the line is full.
    async fn slot(&self) -> Option<OwnedSemaphorePermit> {
        if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
            return Some(slot);
        }
        let _line = InLine(&self.waiting);
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.most_waiting {
            return None;
        }
        Arc::clone(&self.slots).acquire_owned().await.ok()
    }
}

/// The client address whose request is being answered, while fair share
/// is on (see the module's terms), set by the rate limiter.
pub use crate::http::fair::ASKER;

/// The long line's work each asker holds, running or waiting.
struct Askers {
    held: Mutex<HashMap<IpAddr, usize>>,
    most: usize,
}

/// One piece of an asker's work, counted until dropped.
struct Asked<'a> {
    askers: &'a Askers,
    who: IpAddr,
}

impl Drop for Asked<'_> {
    fn drop(&mut self) {
        let mut held = self
            .askers
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = held.get_mut(&self.who) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.who);
            }
        }
    }
}

impl Askers {
    /// Counts one more piece of the current asker's work; `Err` with how
    /// many it holds when that is its most; `Ok(None)` when no asker is
    /// known (fair share off, or a request from this process).
    fn take(&self) -> Result<Option<Asked<'_>>, usize> {
        let Ok(who) = ASKER.try_with(|asker| *asker) else {
            return Ok(None);
        };
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = held.get(&who).copied().unwrap_or(0);
        if n >= self.most {
            return Err(n);
        }
        held.insert(who, n + 1);
        Ok(Some(Asked { askers: self, who }))
    }
}

/// Bytes one state of a shortest-games search holds in its tables (its
/// distance map, order and queue; measured: a search of 19.9 million
/// states grew the server by 230–470 MB).
pub const BYTES_PER_STATE: u64 = 24;

/// The memory budget of long work, in states (see the module's terms).
pub struct Memory {
    per_work: u64,
    total: u64,
    held: Arc<AtomicU64>,
}

/// States held by one piece of long work until dropped.
pub struct Held {
    states: u64,
    held: Arc<AtomicU64>,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.held.fetch_sub(self.states, Ordering::SeqCst);
    }
}

impl Memory {
    /// At most `per_work` states a piece, `total` in all.
    pub fn new(per_work: u64, total: u64) -> Self {
        Self {
            per_work,
            total: total.max(per_work),
            held: Arc::default(),
        }
    }

    /// The most states one piece of work may hold.
    pub fn per_work(&self) -> u64 {
        self.per_work
    }

    /// The most states all pieces may hold at once.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The states held now.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::SeqCst)
    }

    /// Reserves `states` for one piece of work, `what` naming them for a
    /// person ("states (squares × chute counts × ladder counts)").
    ///
    /// # Errors
    /// `422` when one piece may not hold that many; `503 busy` with
    /// `Retry-After` when they do not fit beside the work running.
    pub fn reserve(&self, states: u64, what: &str) -> Result<Held, ApiError> {
        let mb = |n: u64| n.saturating_mul(BYTES_PER_STATE).div_ceil(1 << 20);
        if states > self.per_work {
            return Err(ApiError::unprocessable(format!(
                "this question holds {states} {what}, about {} MB; the server works on at most {} (about {} MB) for one question; ask a smaller one, or use the command line `parlor`, which has no such limit",
                mb(states),
                self.per_work,
                mb(self.per_work)
            )));
        }
        let mut now = self.held.load(Ordering::SeqCst);
        loop {
            if now.saturating_add(states) > self.total {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server is holding {now} {what} for other questions, and {} at most; try again in a moment",
                        self.total
                    ),
                )
                .with_retry_after(1));
            }
            match self
                .held
                .compare_exchange(now, now + states, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => {
                    return Ok(Held {
                        states,
                        held: Arc::clone(&self.held),
                    });
                }
                Err(actual) => now = actual,
            }
        }
    }
}

/// The two lines for long work, the long line's threads, their time
/// limits, the memory budget and the tally.
pub struct LongWork {
    quick: Queue,
    long: Queue,
    pool: Pool,
    quick_limit: Duration,
    long_limit: Duration,
    counters: Arc<Counters>,
    askers: Askers,
    /// The memory budget.
    pub memory: Memory,
}

/// How one attempt ended.
enum Attempt<T> {
    Done(T),
    Stopped(Stopped),
}

impl LongWork {
    /// Lines and limits for `config`, and the long line's threads (one per
    /// slot).
    pub fn new(config: &Config) -> Self {
        let slots = config.max_long_work;
        Self {
            quick: Queue::new(slots, QUICK_WAITING_PER_SLOT),
            long: Queue::new(slots, WAITING_PER_SLOT),
            pool: Pool::new("parlor-long", slots),
            quick_limit: config.quick_work_limit,
            long_limit: config.long_work_limit,
            counters: Arc::default(),
            askers: Askers {
                held: Mutex::default(),
                most: (slots / 2).max(1),
            },
            memory: Memory::new(
                config.long_work_states,
                config.long_work_states.saturating_mul(slots as u64),
            ),
        }
    }

    /// What the long work has done so far.
    pub fn tally(&self) -> Tally {
        let c = &self.counters;
        let get = |n: &AtomicU64| n.load(Ordering::SeqCst);
        Tally {
            started: get(&c.started),
            finished: get(&c.finished),
            timed_out: get(&c.timed_out),
            withdrawn: get(&c.withdrawn),
            moved: get(&c.moved),
            refused: get(&c.refused),
            running: get(&c.running),
            waiting: (self.quick.waiting.load(Ordering::SeqCst)
                + self.long.waiting.load(Ordering::SeqCst)) as u64,
        }
    }

    /// Runs `work` once a slot of `line` is free, within that line's time
    /// limit: quick work on tokio's blocking pool, long work on the long
    /// pool, at a lower priority. `work` is given the budget to pass to
    /// the library; it may be called twice (a quick question that runs out
    /// of the quick limit starts again in the long line).
    ///
    /// Dropping the returned future (the client hung up) withdraws the
    /// question: the computation stops at its next check of the budget.
    ///
    /// # Errors
    /// A 503 when the line is full, when the work ran out of the long
    /// line's time limit, or when it stopped without an answer (it
    /// panicked).
    pub async fn run<T: Send + 'static>(
        &self,
        line: Line,
        work: impl Fn(&Budget) -> T + Send + Sync + 'static,
    ) -> Result<T, ApiError> {
        let work = Arc::new(work);
        if line == Line::Quick {
            let slot = self.quick.slot().await.ok_or_else(|| self.busy())?;
            match self
                .attempt(Line::Quick, slot, self.quick_limit, &work)
                .await?
            {
                Attempt::Done(answer) => return Ok(answer),
                Attempt::Stopped(Stopped::TimedOut { .. }) => {
                    self.counters.moved.fetch_add(1, Ordering::SeqCst);
                }
                Attempt::Stopped(stopped) => return Err(stopped_error(stopped)),
            }
        }
        let _asked = self.askers.take().map_err(|n| self.asker_busy(n))?;
        let slot = self.long.slot().await.ok_or_else(|| self.busy())?;
        match self
            .attempt(Line::Long, slot, self.long_limit, &work)
            .await?
        {
            Attempt::Done(answer) => Ok(answer),
            Attempt::Stopped(stopped) => Err(stopped_error(stopped)),
        }
    }

    /// Runs `work` in the long line with its own time `limit` instead of
    /// the line's (a design's search, which ends on its own and may take
    /// longer than other long answers); it holds a slot of the line and is
    /// counted like any long work.
    ///
    /// # Errors
    /// As [`LongWork::run`].
    pub async fn run_long_for<T: Send + 'static>(
        &self,
        limit: Duration,
        work: impl Fn(&Budget) -> T + Send + Sync + 'static,
    ) -> Result<T, ApiError> {
        let work = Arc::new(work);
        let _asked = self.askers.take().map_err(|n| self.asker_busy(n))?;
        let slot = self.long.slot().await.ok_or_else(|| self.busy())?;
        match self.attempt(Line::Long, slot, limit, &work).await? {
            Attempt::Done(answer) => Ok(answer),
            Attempt::Stopped(stopped) => Err(stopped_error(stopped)),
        }
    }

    /// Runs `work` once in `slot` of `line` with `limit`.
    async fn attempt<T: Send + 'static, W: Fn(&Budget) -> T + Send + Sync + 'static>(
        &self,
        line: Line,
        slot: OwnedSemaphorePermit,
        limit: Duration,
        work: &Arc<W>,
    ) -> Result<Attempt<T>, ApiError> {
        let (budget, canceller) = Budget::with_limit(limit);
        let _withdraw = WithdrawOnDrop(canceller);
        let work = Arc::clone(work);
        let counters = Arc::clone(&self.counters);
        counters.started.fetch_add(1, Ordering::SeqCst);
        counters.running.fetch_add(1, Ordering::SeqCst);
        // Not running any more however the work ends (even a panic).
        let running = Running(Arc::clone(&counters));
        let job = move || {
            let _slot = slot;
            let _running = running;
            let answer = work(&budget);
            // Counted here, on the worker: nobody may be waiting any more.
            match budget.stopped() {
                None => {
                    counters.finished.fetch_add(1, Ordering::SeqCst);
                    Attempt::Done(answer)
                }
                Some(stopped) => {
                    let counter = match stopped {
                        Stopped::TimedOut { .. } => &counters.timed_out,
                        Stopped::Cancelled => &counters.withdrawn,
                    };
                    counter.fetch_add(1, Ordering::SeqCst);
                    Attempt::Stopped(stopped)
                }
            }
        };
        let answer = match line {
            Line::Quick => tokio::task::spawn_blocking(job)
                .await
                .map_err(|e| e.to_string()),
            Line::Long => self.pool.run(job).await,
        };
        answer.map_err(|e| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the work stopped: {e}"),
            )
        })
    }

    /// The 503 of an asker that holds its share of the long line (`n`
    /// pieces).
    fn asker_busy(&self, n: usize) -> ApiError {
        self.counters.refused.fetch_add(1, Ordering::SeqCst);
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "your address already has {} being worked out or waiting (hints, bot moves, \
                 analyses, pictures), its share of the server; try again when it is answered",
                tabletop::count(n as u64, "long answer", "long answers")
            ),
        )
    }

    fn busy(&self) -> ApiError {
        self.counters.refused.fetch_add(1, Ordering::SeqCst);
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy with {} and more waiting (hints, bot moves, analyses); try again in a moment",
                tabletop::count(self.long.size as u64, "long answer", "long answers")
            ),
        )
    }
}

/// The 503 for work stopped before its answer: code `too_long` past the
/// time limit (`busy` for a withdrawn question, which nobody is waiting
/// for).
fn stopped_error(stopped: Stopped) -> ApiError {
    match stopped {
        Stopped::TimedOut { .. } => ApiError::coded(
            Code::TooLong,
            format!(
                "{stopped}; this question is too big for the server (the command line `parlor` answers it without a limit)"
            ),
        ),
        Stopped::Cancelled => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, stopped.to_string()),
    }
}

#[cfg(test)]
mod memory_tests {
    use super::*;

    #[test]
    fn a_piece_too_big_is_refused_and_the_total_is_shared() {
        let memory = Memory::new(100, 250);
        let too_big = memory.reserve(101, "states").err().unwrap();
        assert_eq!(too_big.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            too_big.message.contains("101 states"),
            "{}",
            too_big.message
        );
        let a = memory.reserve(100, "states").unwrap();
        let b = memory.reserve(100, "states").unwrap();
        let full = memory.reserve(100, "states").err().unwrap();
        assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(full.retry_after, Some(1));
        assert_eq!(memory.held(), 200);
        drop(a);
        let _c = memory.reserve(100, "states").unwrap();
        drop(b);
        assert_eq!(memory.held(), 100);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn config(slots: usize) -> Config {
        let mut config = Config::new("unused");
        config.max_long_work = slots;
        config
    }

    /// One address asking hints on the biggest boxes kept both slots and
    /// the line behind them: another address's hint was refused.
    #[tokio::test]
    async fn one_asker_holds_at_most_half_the_long_line() {
        let work = Arc::new(LongWork::new(&config(2)));
        let attacker: IpAddr = [127, 0, 1, 1].into();
        let victim: IpAddr = [127, 0, 200, 1].into();
        let (release, wait) = mpsc::channel::<()>();
        let wait = std::sync::Mutex::new(wait);
        let first = {
            let work = Arc::clone(&work);
            tokio::spawn(ASKER.scope(attacker, async move {
                work.run(Line::Long, move |_| wait.lock().unwrap().recv().is_ok())
                    .await
            }))
        };
        while work.long.slots.available_permits() > 1 {
            tokio::task::yield_now().await;
        }
        // Its second, while the first runs, is refused at once, with a
        // slot free.
        let second = ASKER
            .scope(attacker, work.run(Line::Long, |_| true))
            .await
            .err()
            .unwrap();
        assert_eq!(second.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            second.message.contains("your address"),
            "{}",
            second.message
        );
        // Another address's is answered.
        let other = ASKER.scope(victim, work.run(Line::Long, |_| 7)).await;
        assert_eq!(other.unwrap(), 7);
        // Work with no asker known (fair share off) is not counted.
        assert!(work.run(Line::Long, |_| true).await.unwrap());
        release.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        // Once answered, the attacker may ask again.
        let again = ASKER.scope(attacker, work.run(Line::Long, |_| 8)).await;
        assert_eq!(again.unwrap(), 8);
    }

    #[tokio::test]
    async fn work_waits_for_a_slot_and_a_full_line_is_refused() {
        let work = Arc::new(LongWork::new(&config(1)));
        let (release, wait) = mpsc::channel::<()>();
        let wait = std::sync::Mutex::new(wait);
        let first = {
            let work = Arc::clone(&work);
            tokio::spawn(async move {
                work.run(Line::Long, move |_| wait.lock().unwrap().recv().is_ok())
                    .await
            })
        };
        while work.long.slots.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        // The line holds 8 more; the ninth is refused.
        let mut line = Vec::new();
        for i in 0..WAITING_PER_SLOT {
            let work = Arc::clone(&work);
            line.push(tokio::spawn(async move {
                work.run(Line::Long, move |_| i).await
            }));
        }
        while work.long.waiting.load(Ordering::SeqCst) < WAITING_PER_SLOT {
            tokio::task::yield_now().await;
        }
        let refused = work.run(Line::Long, |_| 99).await.unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(refused.message.contains("try again"), "{}", refused.message);
        assert_eq!(work.long.waiting.load(Ordering::SeqCst), WAITING_PER_SLOT);
        assert_eq!(work.tally().refused, 1);
        // Quick work does not wait behind the long line.
        assert_eq!(work.run(Line::Quick, |_| 7).await.unwrap(), 7);
        release.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        for (i, waiting) in line.into_iter().enumerate() {
            assert_eq!(waiting.await.unwrap().unwrap(), i);
        }
        assert_eq!(work.long.waiting.load(Ordering::SeqCst), 0);
        assert_eq!(work.run(Line::Long, |_| 2).await.unwrap(), 2);
        let tally = work.tally();
        assert_eq!((tally.started, tally.finished, tally.running), (11, 11, 0));
    }

    /// Work that checks its budget until it runs out, as a library does.
    fn spin(budget: &Budget) -> Result<(), Stopped> {
        loop {
            budget.check()?;
            std::thread::yield_now();
        }
    }

    #[tokio::test]
    async fn work_past_the_long_limit_is_a_503_that_says_so() {
        let mut config = config(1);
        config.long_work_limit = Duration::ZERO;
        let work = LongWork::new(&config);
        let refused = work.run(Line::Long, spin).await.unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.code, "too_long");
        assert!(
            refused
                .message
                .starts_with("stopped: the answer took longer than"),
            "{}",
            refused.message
        );
        let tally = work.tally();
        assert_eq!((tally.timed_out, tally.finished, tally.moved), (1, 0, 0));
    }

    #[tokio::test]
    async fn quick_work_past_its_limit_moves_to_the_long_line() {
        let mut config = config(1);
        config.quick_work_limit = Duration::ZERO;
        let work = LongWork::new(&config);
        // Stops in the quick line, then answers in the long one.
        let answer = work
            .run(Line::Quick, |budget: &Budget| match budget.limit() {
                Some(limit) if limit == Duration::ZERO => spin(budget).map(|()| "quick"),
                _ => Ok("long"),
            })
            .await
            .unwrap();
        assert_eq!(answer, Ok("long"));
        let tally = work.tally();
        assert_eq!(
            (tally.started, tally.timed_out, tally.moved, tally.finished),
            (2, 1, 1, 1)
        );
    }

    /// The calling thread's nice value: field 19 of its
    /// `/proc/thread-self/stat` (the fields after the name's `)` start at
    /// the third).
    #[cfg(target_os = "linux")]
    fn nice_here() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 1..];
        after_name
            .split_whitespace()
            .nth(19 - 3)
            .unwrap()
            .parse()
            .unwrap()
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn long_work_runs_on_its_own_threads_at_a_lower_priority() {
        let work = LongWork::new(&config(2));
        let here = |_: &Budget| {
            let name = std::thread::current().name().unwrap_or("").to_string();
            (name, nice_here())
        };
        let (quick_thread, quick) = work.run(Line::Quick, here).await.unwrap();
        // 10 for a server at the normal priority (0); 19 at most.
        let lower = (quick + LONG_NICENESS).min(19);
        assert!(!quick_thread.starts_with("parlor-long-"), "{quick_thread}");
        // Each thread is lowered once, not at each piece of work.
        for _ in 0..6 {
            let (thread, nice) = work.run(Line::Long, here).await.unwrap();
            assert!(thread.starts_with("parlor-long-"), "{thread}");
            assert_eq!(nice, lower, "the quick line's nice value is {quick}");
        }
        // The quick line stays at the server's priority.
        assert_eq!(work.run(Line::Quick, here).await.unwrap().1, quick);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_pool_runs_its_work_on_its_named_threads_at_a_lower_priority() {
        let here = nice_here();
        let pool = Pool::new("parlor-bots", 2);
        for _ in 0..4 {
            let (thread, nice) = pool
                .run(|| {
                    let name = std::thread::current().name().unwrap_or("").to_string();
                    (name, nice_here())
                })
                .await
                .unwrap();
            assert!(thread.starts_with("parlor-bots-"), "{thread}");
            assert_eq!(nice, (here + LONG_NICENESS).min(19));
        }
        assert_eq!(
            pool.run(|| -> u8 { panic!("a bug in a bot") }).await,
            Err("it panicked".to_string())
        );
        assert_eq!(pool.run(|| 7).await, Ok(7));
    }

    #[tokio::test]
    async fn long_work_that_panics_is_a_503_and_its_thread_goes_on() {
        let work = LongWork::new(&config(1));
        let failed = work
            .run(Line::Long, |_| -> u32 { panic!("a bug in the solver") })
            .await
            .unwrap_err();
        assert_eq!(failed.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            failed.message.starts_with("the work stopped"),
            "{}",
            failed.message
        );
        assert_eq!(work.run(Line::Long, |_| 5).await.unwrap(), 5);
        let tally = work.tally();
        assert_eq!((tally.started, tally.finished, tally.running), (2, 1, 0));
    }

    #[tokio::test]
    async fn a_dropped_request_withdraws_its_work_and_frees_its_slot() {
        let work = Arc::new(LongWork::new(&config(1)));
        let request = {
            let work = Arc::clone(&work);
            tokio::spawn(async move { work.run(Line::Long, spin).await })
        };
        while work.tally().running == 0 {
            tokio::task::yield_now().await;
        }
        request.abort();
        // The worker notices at its next check; the slot is free again.
        while work.tally().withdrawn == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(work.run(Line::Long, |_| 3).await.unwrap(), 3);
        let tally = work.tally();
        assert_eq!((tally.withdrawn, tally.timed_out, tally.running), (1, 0, 0));
    }
}
