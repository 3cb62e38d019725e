//! The log's writer: a request hands its line over and goes on; a thread
//! of the writer's own writes the lines out a few at a time.
//!
//! Terms:
//! - **line**: one log event as the log's format wrote it, handed over
//!   whole when its [`LineWriter`] is dropped, so that lines never
//!   interleave or break.
//! - **pending**: the lines handed over and not yet written out, at most
//!   [`PENDING_MOST`] bytes. A line that finds no room is dropped and
//!   counted ([`LogWriter::dropped`]): when the log's reader is stuck (a
//!   pipe nobody reads, a paused log shipper), requests go on and lose
//!   only their lines.
//! - **round**: the writer's thread wakes every [`ROUND`], or at once when
//!   [`HURRY_BYTES`] are pending, and writes out everything pending in
//!   one write. A line thus costs a request a lock and a copy, never a
//!   wake-up of another thread (a writer woken for every line, as
//!   `tracing-appender`'s is, cost a roll a third of its CPU time).

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// The most bytes pending: at a few hundred bytes a line, a few
/// thousand lines.
pub const PENDING_MOST: usize = 1 << 20;
/// Pending bytes that wake the writer at once.
pub const HURRY_BYTES: usize = 64 << 10;
/// How long the writer sleeps between rounds when few lines come.
pub const ROUND: Duration = Duration::from_millis(25);
/// How long the guard's drop waits for the last lines to be written.
pub const LAST_WRITE: Duration = Duration::from_secs(1);

#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    stop: bool,
}

#[derive(Default)]
struct Shared {
    pending: Mutex<Pending>,
    wake: Condvar,
    dropped: AtomicU64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Where the log's lines go (see the module's terms); cheap to clone.
#[derive(Clone)]
pub struct LogWriter {
    shared: Arc<Shared>,
}

/// Keeps a [`LogWriter`]'s thread: dropped, it writes out the lines still
/// pending (waiting up to [`LAST_WRITE`]) and stops it.
pub struct LogGuard {
    shared: Arc<Shared>,
    done: mpsc::Receiver<()>,
}

/// One line being written; handed over whole when dropped.
pub struct LineWriter {
    shared: Arc<Shared>,
    line: Vec<u8>,
}

impl LogWriter {
    /// A writer over `out`, with its thread, and the guard that ends it.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn new<W: Write + Send + 'static>(mut out: W) -> std::io::Result<(Self, LogGuard)> {
        let shared = Arc::new(Shared::default());
        let (finished, done) = mpsc::channel();
        let theirs = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("parlor-log".into())
            .spawn(move || {
                loop {
                    let (batch, stop) = {
                        let mut pending = theirs.lock();
                        if !pending.stop && pending.bytes.len() < HURRY_BYTES {
                            pending = theirs
                                .wake
                                .wait_timeout(pending, ROUND)
                                .unwrap_or_else(PoisonError::into_inner)
                                .0;
                        }
                        (std::mem::take(&mut pending.bytes), pending.stop)
                    };
                    // A reader that went away loses the lines; the server
                    // goes on.
                    if !batch.is_empty() {
                        let _ = out.write_all(&batch).and_then(|()| out.flush());
                    }
                    if stop {
                        let _ = finished.send(());
                        return;
                    }
                }
            })?;
        Ok((
            Self {
                shared: Arc::clone(&shared),
            },
            LogGuard { shared, done },
        ))
    }

    /// A writer for one line.
    pub fn line(&self) -> LineWriter {
        LineWriter {
            shared: Arc::clone(&self.shared),
            line: Vec::new(),
        }
    }

    /// The lines dropped so far because the pending lines were full.
    pub fn dropped(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }
}

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.line.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        if self.line.is_empty() {
            return;
        }
        let mut pending = self.shared.lock();
        if pending.bytes.len() + self.line.len() > PENDING_MOST {
            drop(pending);
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        pending.bytes.extend_from_slice(&self.line);
        let hurry = pending.bytes.len() >= HURRY_BYTES;
        drop(pending);
        if hurry {
            self.shared.wake.notify_one();
        }
    }
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_one();
        let _ = self.done.recv_timeout(LAST_WRITE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that keeps what it is given, and can be held up.
    #[derive(Clone, Default)]
    struct Kept {
        bytes: Arc<Mutex<Vec<u8>>>,
        hold: Arc<Mutex<()>>,
    }

    impl Write for Kept {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let _held = self.hold.lock().unwrap();
            self.bytes.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn write_line(writer: &LogWriter, text: &str) {
        let mut line = writer.line();
        // Written in pieces, handed over whole.
        for piece in text.as_bytes().chunks(3) {
            line.write_all(piece).unwrap();
        }
    }

    #[test]
    fn lines_come_out_whole_in_order_and_all_by_the_guards_drop() {
        let kept = Kept::default();
        let (writer, guard) = LogWriter::new(kept.clone()).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for i in 0..500 {
                        write_line(&writer, &format!("thread {t} line {i}\n"));
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        drop(guard);
        let text = String::from_utf8(kept.bytes.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 2000);
        for t in 0..4 {
            let mine: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with(&format!("thread {t} ")))
                .collect();
            let expected: Vec<String> = (0..500).map(|i| format!("thread {t} line {i}")).collect();
            assert_eq!(mine, expected, "thread {t}'s lines, whole and in order");
        }
        assert_eq!(writer.dropped(), 0);
    }

    #[test]
    fn a_stuck_reader_costs_lines_not_requests() {
        let kept = Kept::default();
        let held = kept.hold.lock().unwrap();
        let (writer, guard) = LogWriter::new(kept.clone()).unwrap();
        let line = "x".repeat(1023) + "\n";
        let lines = 3 * PENDING_MOST / line.len();
        // Every line is handed over or dropped while the reader is stuck:
        // none waits for it (a writer that waited would never finish).
        let (wrote, all_written) = mpsc::channel();
        let theirs = writer.clone();
        let line_to_write = line.clone();
        std::thread::spawn(move || {
            for _ in 0..lines {
                write_line(&theirs, &line_to_write);
            }
            let _ = wrote.send(());
        });
        all_written
            .recv_timeout(Duration::from_secs(300))
            .expect("the lines were handed over while the reader was stuck");
        let dropped = writer.dropped() as usize;
        assert!(
            dropped >= lines - 2 * PENDING_MOST / line.len(),
            "{dropped} of {lines} dropped"
        );
        drop(held);
        drop(guard);
        let written = kept.bytes.lock().unwrap().len() / line.len();
        assert_eq!(written + dropped, lines, "each line written or counted");
    }
}
