//! Connections: accepting them, limiting them, timing them out, and
//! stopping gracefully.
//!
//! Terms:
//! - **connection limit** ([`Config::max_connections`]): the most TCP
//!   connections open at once. A connection over the limit makes room by
//!   closing an **idle** connection (one with no request being answered,
//!   and no answer still being sent: a live event stream is never idle):
//!   the oldest that has never had an answer and has been open at least
//!   [`FRESH`] (silent, or still sending its first headers: what a slow
//!   client holds), else one still sending a request's body (past
//!   [`FRESH`]) of an address holding several such, else the oldest idle
//!   one, else one still sending a request's body of the address with the
//!   most such
//!   ([`crate::http::limits`]: a slow body counts against its address's
//!   share). When there is none, the newcomer gets a `503` with
//!   `Retry-After` and is closed.
//! - **connections per client** ([`Config::connections_per_client`]): the
//!   most connections one client address ([`crate::http::client::Client`],
//!   by its peer address) holds at once. A newcomer beyond it makes room
//!   by closing an idle connection of the same address, else gets a `503`.
//!   A trusted proxy ([`Config::trusted_proxies`]) is not held to it: it
//!   carries many clients.
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

use crate::config::Config;
use crate::http::client::Client;
use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// The app's connections open now, requests being answered now, and
/// connections refused over a limit (the metrics address's own are not
/// counted): read by [`crate::http::metrics`].
#[derive(Debug, Default)]
pub struct Tally {
    /// Connections open.
    pub open: AtomicUsize,
    /// Requests being answered (until their answer is sent whole).
    pub in_flight: AtomicUsize,
    /// Connections refused over the limit of all, or of their address.
    pub refused: AtomicUsize,
}

/// The process's [`Tally`].
pub static TALLY: Tally = Tally {
    open: AtomicUsize::new(0),
    in_flight: AtomicUsize::new(0),
    refused: AtomicUsize::new(0),
};

/// How long the server waits after an accept error before accepting again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// How long a connection that has not sent a request yet is left alone
/// before it may be closed to make room: a newcomer is given the time to
/// send its request, so that a burst of newcomers is answered (or refused
/// with a `503`), not cut one by the next.
pub const FRESH: Duration = Duration::from_secs(1);

/// How many slow bodies one address holds when one of them is closed to
/// make room before anyone's idle keep-alive connection.
const SLOW_BODIES_HOARDED: usize = 2;

/// One open connection, as the accept loop sees it.
struct Open {
    /// Requests being answered on it (until their answer is sent whole).
    busy: Arc<AtomicUsize>,
    /// Requests answered on it.
    served: Arc<AtomicUsize>,
    /// Requests whose bodies are being read on it
    /// ([`crate::http::limits::ReadingBody`]).
    reading: Arc<AtomicUsize>,
    /// Told to close it at once.
    close: Arc<Notify>,
    /// When it was accepted.
    opened: Instant,
    /// Its client's address, as counted ([`Client::of`] the peer).
    client: IpAddr,
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

    /// Connections open from `client`.
    fn of(&self, client: IpAddr) -> usize {
        self.lock()
            .open
            .values()
            .filter(|open| open.client == client)
            .count()
    }

    /// Registers a new connection; returns its id.
    fn add(
        &self,
        busy: Arc<AtomicUsize>,
        served: Arc<AtomicUsize>,
        reading: Arc<AtomicUsize>,
        close: Arc<Notify>,
        client: IpAddr,
    ) -> u64 {
        let mut registry = self.lock();
        let id = registry.next;
        registry.next += 1;
        registry.open.insert(
            id,
            Open {
                busy,
                served,
                reading,
                close,
                opened: Instant::now(),
                client,
            },
        );
        id
    }

    fn remove(&self, id: u64) {
        self.lock().open.remove(&id);
        self.closed.notify_waiters();
    }

    /// Closes the oldest idle connection (of `client` only, when given)
    /// that has never had an answer and is older than [`FRESH`], or else
    /// the oldest one still sending a request's body of the address with
    /// the most such when it holds at least [`SLOW_BODIES_HOARDED`], or
    /// else the oldest idle one that has had an answer, or else the oldest
    /// one still sending a body, of the address with the most such; false
    /// when there is none (every one is answering, or streaming).
    fn close_oldest_idle(&self, client: Option<IpAddr>) -> bool {
        let mut registry = self.lock();
        let now = Instant::now();
        let idle = |open: &Open| {
            open.busy.load(Ordering::SeqCst) == 0 && client.is_none_or(|c| c == open.client)
        };
        let served = |open: &Open| open.served.load(Ordering::SeqCst) > 0;
        let unserved = registry.open.iter().find(|(_, open)| {
            idle(open) && !served(open) && now.duration_since(open.opened) >= FRESH
        });
        // A body still arriving after [`FRESH`] counts against its
        // address's share, the address holding the most first.
        let slow = |open: &Open| {
            open.reading.load(Ordering::SeqCst) > 0
                && client.is_none_or(|c| c == open.client)
                && now.duration_since(open.opened) >= FRESH
        };
        let mut held: std::collections::HashMap<IpAddr, usize> = std::collections::HashMap::new();
        for open in registry.open.values().filter(|o| slow(o)) {
            *held.entry(open.client).or_insert(0) += 1;
        }
        let most = held.iter().max_by_key(|&(_, n)| *n).map(|(&c, n)| (c, *n));
        let slowest = |at_least: usize| {
            let (most, _) = most.filter(|&(_, n)| n >= at_least)?;
            registry
                .open
                .iter()
                .find(|(_, open)| slow(open) && open.client == most)
        };
        // An address holding several slow bodies loses one before anyone's
        // idle keep-alive connection (which a player's next move may be
        // on its way to); then the oldest idle one; then any slow body.
        let victim = unserved
            .or_else(|| slowest(SLOW_BODIES_HOARDED))
            .or_else(|| {
                registry
                    .open
                    .iter()
                    .find(|(_, open)| idle(open) && served(open))
            })
            .or_else(|| slowest(1));
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

/// A response body that keeps its request counted as being answered
/// ([`Busy`]) until the body is sent whole or dropped: a live event
/// stream keeps its connection busy, never idle.
struct Guarded {
    inner: Body,
    _busy: Busy,
}

impl hyper::body::Body for Guarded {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// Counts a request as being answered until dropped, then as served.
struct Busy {
    busy: Arc<AtomicUsize>,
    served: Arc<AtomicUsize>,
    counted: bool,
}

impl Busy {
    fn new(busy: &Arc<AtomicUsize>, served: &Arc<AtomicUsize>, counted: bool) -> Self {
        busy.fetch_add(1, Ordering::SeqCst);
        if counted {
            TALLY.in_flight.fetch_add(1, Ordering::Relaxed);
        }
        Self {
            busy: Arc::clone(busy),
            served: Arc::clone(served),
            counted,
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.served.fetch_add(1, Ordering::SeqCst);
        self.busy.fetch_sub(1, Ordering::SeqCst);
        if self.counted {
            TALLY.in_flight.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Counts an open connection of the app in [`TALLY`] while it lives.
struct OpenCount(bool);

impl OpenCount {
    fn new(counted: bool) -> Self {
        if counted {
            TALLY.open.fetch_add(1, Ordering::Relaxed);
        }
        Self(counted)
    }
}

impl Drop for OpenCount {
    fn drop(&mut self) {
        if self.0 {
            TALLY.open.fetch_sub(1, Ordering::Relaxed);
        }
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
    // The app's listener is counted in [`TALLY`]; the metrics address's
    // (which knows no listen address) is not.
    let counted = config.listen.is_some();
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
                connections.close_oldest_idle(None);
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let client = Client::of(peer.ip()).0;
        let per_client = config.connections_per_client;
        let proxy = config
            .trusted_proxies
            .iter()
            .any(|p| p.to_canonical() == peer.ip().to_canonical());
        if per_client > 0
            && !proxy
            && connections.of(client) >= per_client
            && !connections.close_oldest_idle(Some(client))
        {
            if counted {
                TALLY.refused.fetch_add(1, Ordering::Relaxed);
            }
            tokio::spawn(refuse(
                stream,
                format!(
                    "your address has {per_client} connections open, the most one address may have; close some or try again in a moment"
                ),
            ));
            continue;
        }
        if connections.len() >= max && !connections.close_oldest_idle(None) {
            if counted {
                TALLY.refused.fetch_add(1, Ordering::Relaxed);
            }
            tokio::spawn(refuse(
                stream,
                format!(
                    "the server is answering {max} connections at once, its limit; try again in a moment"
                ),
            ));
            continue;
        }
        let busy = Arc::new(AtomicUsize::new(0));
        let served = Arc::new(AtomicUsize::new(0));
        let reading = Arc::new(AtomicUsize::new(0));
        let close = Arc::new(Notify::new());
        let id = connections.add(
            Arc::clone(&busy),
            Arc::clone(&served),
            Arc::clone(&reading),
            Arc::clone(&close),
            client,
        );
        let service = {
            let app = app.clone();
            hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                let busy = Busy::new(&busy, &served, counted);
                let app = app.clone();
                // Who is asking ([`crate::http::client`]).
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                request
                    .extensions_mut()
                    .insert(crate::http::limits::ReadingBody(Arc::clone(&reading)));
                async move {
                    let answer = app.oneshot(request.map(Body::new)).await;
                    // Busy until the answer's body is sent whole.
                    answer.map(|response| {
                        response.map(|inner| Body::new(Guarded { inner, _busy: busy }))
                    })
                }
            })
        };
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let connections = Arc::clone(&connections);
        let mut stop = stop.clone();
        let grace = config.shutdown_grace;
        let open = OpenCount::new(counted);
        tokio::spawn(async move {
            let _open = open;
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

/// Tells a connection over a limit why it is closed, briefly: `503`, the
/// API's error shape (code `busy`), `Retry-After: 1`.
async fn refuse(mut stream: TcpStream, why: String) {
    let code = tabletop::Code::Busy.as_str();
    let body = serde_json::json!({"error": {"code": code, "message": why}}).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let written = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    // Closed with the client's request unread, the connection would be
    // reset, and a reset can drop the answer before the client reads it:
    // read what the client sent until it closes too (a quarter of a second
    // and 64 KiB at most, so that a flood of refusals holds few
    // descriptors).
    let _ = tokio::time::timeout(Duration::from_millis(250), async {
        let mut sink = [0u8; 4096];
        let mut left: usize = 64 * 1024;
        while left > 0 {
            match tokio::io::AsyncReadExt::read(&mut stream, &mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

pub use crate::config::{default_max_connections, open_file_limit};

#[cfg(test)]
mod tests {
    use super::*;

    fn localhost() -> IpAddr {
        IpAddr::from([127, 0, 0, 1])
    }

    #[test]
    fn idle_connections_never_answered_are_closed_first_then_the_oldest() {
        let connections = Connections::default();
        let busy: Vec<Arc<AtomicUsize>> = (0..4).map(|_| Arc::new(AtomicUsize::new(0))).collect();
        let served: Vec<Arc<AtomicUsize>> = (0..4).map(|_| Arc::new(AtomicUsize::new(1))).collect();
        let ids: Vec<u64> = (0..4)
            .map(|i| {
                let (b, s) = (Arc::clone(&busy[i]), Arc::clone(&served[i]));
                connections.add(b, s, Arc::default(), Arc::new(Notify::new()), localhost())
            })
            .collect();
        let left = || -> Vec<u64> { connections.lock().open.keys().copied().collect() };
        busy[0].store(1, Ordering::SeqCst);
        served[2].store(0, Ordering::SeqCst);
        // Not answered yet, but only just opened: left alone for now.
        assert!(connections.close_oldest_idle(None));
        assert_eq!(left(), [ids[0], ids[2], ids[3]], "the oldest answered one");
        connections
            .lock()
            .open
            .get_mut(&ids[2])
            .expect("open")
            .opened -= FRESH;
        assert!(connections.close_oldest_idle(None));
        assert_eq!(
            left(),
            [ids[0], ids[3]],
            "the one never answered goes first, once no longer fresh"
        );
        busy[3].store(1, Ordering::SeqCst);
        assert!(
            !connections.close_oldest_idle(None),
            "every one left is busy"
        );
        connections.remove(ids[0]);
        assert_eq!(connections.len(), 1);
    }

    #[test]
    fn a_client_makes_room_among_its_own_connections_only() {
        let connections = Connections::default();
        let other = IpAddr::from([127, 0, 0, 2]);
        let idle = || (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(1)));
        let (b, s) = idle();
        let theirs = connections.add(b, s, Arc::default(), Arc::new(Notify::new()), other);
        let (b, s) = idle();
        let mine = connections.add(
            b,
            Arc::clone(&s),
            Arc::default(),
            Arc::new(Notify::new()),
            localhost(),
        );
        assert_eq!(connections.of(localhost()), 1);
        assert!(connections.close_oldest_idle(Some(localhost())));
        let left: Vec<u64> = connections.lock().open.keys().copied().collect();
        assert_eq!(
            left,
            [theirs],
            "{mine} went, not the older one of another address"
        );
        assert!(!connections.close_oldest_idle(Some(localhost())));
    }

    #[test]
    fn a_slow_body_is_closed_to_make_room_from_the_address_with_the_most() {
        let connections = Connections::default();
        let (a, b) = (IpAddr::from([127, 0, 0, 2]), IpAddr::from([127, 0, 0, 3]));
        let add = |client: IpAddr, reading: usize| {
            let busy = Arc::new(AtomicUsize::new(1));
            let id = connections.add(
                busy,
                Arc::new(AtomicUsize::new(0)),
                Arc::new(AtomicUsize::new(reading)),
                Arc::new(Notify::new()),
                client,
            );
            connections.lock().open.get_mut(&id).expect("open").opened -= FRESH;
            id
        };
        let answering = add(b, 0);
        let b_slow = add(b, 1);
        let a_slow: Vec<u64> = (0..3).map(|_| add(a, 1)).collect();
        assert!(connections.close_oldest_idle(None));
        let left: Vec<u64> = connections.lock().open.keys().copied().collect();
        assert_eq!(left, [answering, b_slow, a_slow[1], a_slow[2]]);
        // Its own slow body, for an address at its share.
        assert!(connections.close_oldest_idle(Some(b)));
        let left: Vec<u64> = connections.lock().open.keys().copied().collect();
        assert_eq!(left, [answering, a_slow[1], a_slow[2]]);
        assert!(
            !connections.close_oldest_idle(Some(b)),
            "one answering stays"
        );
    }

    /// 1,000 slow bodies from 20 addresses: making room closed a player's
    /// idle keep-alive connection as its next move was on its way (`cut`).
    #[test]
    fn many_slow_bodies_of_one_address_go_before_a_players_idle_connection() {
        let connections = Connections::default();
        let (a, player) = (IpAddr::from([127, 0, 0, 2]), IpAddr::from([127, 0, 0, 3]));
        let add = |client: IpAddr, busy: usize, served: usize, reading: usize| {
            let id = connections.add(
                Arc::new(AtomicUsize::new(busy)),
                Arc::new(AtomicUsize::new(served)),
                Arc::new(AtomicUsize::new(reading)),
                Arc::new(Notify::new()),
                client,
            );
            connections.lock().open.get_mut(&id).expect("open").opened -= FRESH;
            id
        };
        let keep_alive = add(player, 0, 1, 0);
        let slow: Vec<u64> = (0..2).map(|_| add(a, 1, 0, 1)).collect();
        assert!(connections.close_oldest_idle(None));
        let left: Vec<u64> = connections.lock().open.keys().copied().collect();
        assert_eq!(left, [keep_alive, slow[1]]);
        // One slow body (an upload on a slow line) goes after the idle one.
        assert!(connections.close_oldest_idle(None));
        let left: Vec<u64> = connections.lock().open.keys().copied().collect();
        assert_eq!(left, [slow[1]]);
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
