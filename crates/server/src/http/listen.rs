//! Connections: accepting them, limiting them, timing them out, and
//! stopping gracefully.
//!
//! Terms:
//! - **connection limit** ([`Config::max_connections`]): the most TCP
//!   connections open at once. A connection over the limit makes room by
//!   closing an **idle** connection (one with no request being answered):
//!   the oldest that has never had an answer (silent, or still sending its
//!   first headers: what a slow client holds), else the oldest idle one.
//!   When every open connection is busy, the newcomer gets a `503` and is
//!   closed.
//! - **header timeout** ([`Config::header_timeout`]): the time a connection
//!   has to send a request's headers, counted from when it opened or from
//!   the previous answer. It is also the idle timeout: a connection that
//!   sends nothing for that long is closed.
//! - **accept error**: `accept()` failing, most often "too many open files"
//!   (EMFILE) when the process's descriptors run out. The server closes its
//!   oldest idle connection, waits a moment and accepts again; it never
//!   stops for it.
//! - **graceful shutdown** ([`serve_until`]): when told to stop, the server
//!   accepts no more connections, lets every request being answered finish
//!   (up to [`Config::shutdown_grace`]), closes idle connections, and
//!   returns.

use crate::Config;
use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// How long the server waits after an accept error before accepting again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// One open connection, as the accept loop sees it.
struct Open {
    /// Requests being answered on it.
    busy: Arc<AtomicUsize>,
    /// Requests answered on it.
    served: Arc<AtomicUsize>,
    /// Told to close it at once.
    close: Arc<Notify>,
}

/// Every open connection, oldest first.
#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Open>,
}

/// The connections and the signal that one closed.
#[derive(Default)]
struct Connections {
    registry: Mutex<Registry>,
    closed: Notify,
}

impl Connections {
    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn len(&self) -> usize {
        self.lock().open.len()
    }

    /// Registers a new connection; returns its id.
    fn add(&self, busy: Arc<AtomicUsize>, served: Arc<AtomicUsize>, close: Arc<Notify>) -> u64 {
        let mut registry = self.lock();
        let id = registry.next;
        registry.next += 1;
        registry.open.insert(
            id,
            Open {
                busy,
                served,
                close,
            },
        );
        id
    }

    fn remove(&self, id: u64) {
        self.lock().open.remove(&id);
        self.closed.notify_waiters();
    }

    /// Closes the oldest idle connection that has never had an answer, or
    /// else the oldest idle one; false when every one is busy.
    fn close_oldest_idle(&self) -> bool {
        let mut registry = self.lock();
        let idle = |open: &Open| open.busy.load(Ordering::SeqCst) == 0;
        let unserved = registry
            .open
            .iter()
            .find(|(_, open)| idle(open) && open.served.load(Ordering::SeqCst) == 0);
        let victim = unserved.or_else(|| registry.open.iter().find(|(_, open)| idle(open)));
        let idle = victim.map(|(&id, _)| id);
        match idle.and_then(|id| registry.open.remove(&id)) {
            Some(open) => {
                open.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Counts a request as being answered until dropped, then as served.
struct Busy {
    busy: Arc<AtomicUsize>,
    served: Arc<AtomicUsize>,
}

impl Busy {
    fn new(busy: &Arc<AtomicUsize>, served: &Arc<AtomicUsize>) -> Self {
        busy.fetch_add(1, Ordering::SeqCst);
        Self {
            busy: Arc::clone(busy),
            served: Arc::clone(served),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.served.fetch_add(1, Ordering::SeqCst);
        self.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then stops
/// gracefully (see the module's terms).
///
/// # Errors
/// Never for an accept error (those are survived); the result is kept for
/// callers that add fallible steps.
pub async fn serve_until(
    listener: TcpListener,
    app: Router,
    config: &Config,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let connections = Arc::new(Connections::default());
    let (stopping, stop) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout)
        .max_buf_size(64 * 1024);
    let max = config.max_connections.max(1);
    let mut accept_errors: u64 = 0;
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok((stream, peer)) => {
                // Small answers go out at once, not held back by Nagle's
                // algorithm until the last piece is acknowledged.
                let _ = stream.set_nodelay(true);
                (stream, peer)
            }
            Err(e) if is_per_connection(&e) => continue,
            Err(e) => {
                // Out of descriptors (or memory): make room and try again.
                accept_errors += 1;
                if accept_errors.is_power_of_two() {
                    tracing::warn!(
                        error = %e,
                        accept_errors,
                        "cannot accept a connection; closing idle ones"
                    );
                }
                connections.close_oldest_idle();
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        if connections.len() >= max && !connections.close_oldest_idle() {
            tokio::spawn(refuse(stream, max));
            continue;
        }
        let busy = Arc::new(AtomicUsize::new(0));
        let served = Arc::new(AtomicUsize::new(0));
        let close = Arc::new(Notify::new());
        let id = connections.add(Arc::clone(&busy), Arc::clone(&served), Arc::clone(&close));
        let service = {
            let app = app.clone();
            hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                let busy = Busy::new(&busy, &served);
                let app = app.clone();
                // Who is asking ([`crate::http::client`]).
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                async move {
                    let _busy = busy;
                    app.oneshot(request.map(Body::new)).await
                }
            })
        };
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let connections = Arc::clone(&connections);
        let mut stop = stop.clone();
        let grace = config.shutdown_grace;
        tokio::spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = close.notified() => {}
                true = async { stop.wait_for(|&s| s).await.is_ok() } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(grace, connection.as_mut()).await;
                }
            }
            connections.remove(id);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let drained = async {
        loop {
            let closed = connections.closed.notified();
            if connections.len() == 0 {
                break;
            }
            closed.await;
        }
    };
    // Each connection has the grace period to finish; a little more here
    // covers the time they take to notice.
    let _ = tokio::time::timeout(config.shutdown_grace + Duration::from_secs(1), drained).await;
    Ok(())
}

/// Errors that concern one connection only (it was reset before it was
/// accepted): accept the next at once.
fn is_per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
    )
}

/// Tells a connection over the limit why it is closed, briefly.
async fn refuse(mut stream: TcpStream, max: usize) {
    let body = format!(
        "{{\"error\":\"the server is answering {max} connections at once, its limit; try again in a moment\"}}"
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(answer.as_bytes())).await;
}

/// The soft limit on open files of this process, where the platform says
/// (Linux's `/proc/self/limits`).
pub fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line["Max open files".len()..].split_whitespace().next()?;
    soft.parse().ok()
}

/// The default connection limit: 1,024, or three quarters of the open-file
/// limit when that is lower, leaving descriptors for files.
pub fn default_max_connections() -> usize {
    let fallback = 1024;
    open_file_limit().map_or(fallback, |files| (files / 4 * 3).clamp(16, fallback))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_connections_never_answered_are_closed_first_then_the_oldest() {
        let connections = Connections::default();
        let busy: Vec<Arc<AtomicUsize>> = (0..4).map(|_| Arc::new(AtomicUsize::new(0))).collect();
        let served: Vec<Arc<AtomicUsize>> = (0..4).map(|_| Arc::new(AtomicUsize::new(1))).collect();
        let ids: Vec<u64> = (0..4)
            .map(|i| {
                let (b, s) = (Arc::clone(&busy[i]), Arc::clone(&served[i]));
                connections.add(b, s, Arc::new(Notify::new()))
            })
            .collect();
        let left = || -> Vec<u64> { connections.lock().open.keys().copied().collect() };
        busy[0].store(1, Ordering::SeqCst);
        served[2].store(0, Ordering::SeqCst);
        assert!(connections.close_oldest_idle());
        assert_eq!(
            left(),
            [ids[0], ids[1], ids[3]],
            "the one never answered goes first"
        );
        assert!(connections.close_oldest_idle());
        assert_eq!(left(), [ids[0], ids[3]], "then the oldest idle one");
        busy[3].store(1, Ordering::SeqCst);
        assert!(!connections.close_oldest_idle(), "every one left is busy");
        connections.remove(ids[0]);
        assert_eq!(connections.len(), 1);
    }

    #[test]
    fn the_limit_leaves_room_for_files() {
        let max = default_max_connections();
        assert!((16..=1024).contains(&max), "{max}");
        if let Some(files) = open_file_limit() {
            assert!(max < files, "{max} connections, {files} files");
        }
    }
}
