//! How the server is set up: its settings, read once at the start and
//! shared by every part of it.
//!
//! Terms:
//! - **config** ([`Config`]): every setting, with its default
//!   ([`Config::new`]); the CLI's flags and the tests change single fields.
//! - **connection limit** ([`default_max_connections`]): what the open-file
//!   limit of the process allows.
//!
//! This module is at the bottom of the server: it uses the store's
//! settings and the games' registry, and no module that uses it.

use crate::store;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How the app is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The games matches may be of: this Parlor's own by default.
    pub games: games::Registry,
    /// Where saved grids go (created when first needed).
    pub data_dir: PathBuf,
    /// The most sessions of each kind (uploaded boards, design documents)
    /// kept at once.
    pub max_sessions: usize,
    /// How long a session may sit unused before it is dropped.
    pub idle: Duration,
    /// The largest request body accepted, in bytes.
    pub body_limit: usize,
    /// The address the server listens on, when known ([`crate::run`] and [`crate::serve`]
    /// set it). On a loopback address the router checks every request's
    /// Host ([`crate::http::host`]); on another address only against
    /// [`Config::public_hosts`], when there are any.
    pub listen: Option<SocketAddr>,
    /// The names people reach the server by (`--public-host`): on a
    /// network address, when any is given, requests for other hosts
    /// (loopback ones aside) are refused ([`crate::http::host::guard_public`]);
    /// on a loopback address, behind a reverse proxy on the same machine,
    /// they are answered besides loopback ones ([`crate::http::host::guard`]).
    pub public_hosts: Vec<String>,
    /// The most long answers (solver hints, bot moves, analyses) worked
    /// out at once in each line ([`crate::work`]); more are refused with a 503.
    /// The long line works on this many threads of its own, which run at a
    /// lower priority than the rest of the server (a nice value
    /// [`crate::work::LONG_NICENESS`] above the server's) so that the solver does
    /// not take the cores from moves.
    pub max_long_work: usize,
    /// How long one long answer may work before it is stopped and
    /// answered with a 503 ([`crate::work`]).
    pub long_work_limit: Duration,
    /// The most states (the algorithm's own: squares × chute counts ×
    /// ladder counts for shortest games) one piece of long work may hold;
    /// all of it together may hold this times [`Config::max_long_work`]
    /// ([`crate::work::Memory`]).
    pub long_work_states: u64,
    /// How long work estimated to be quick may take in the quick line
    /// before it moves to the long line ([`crate::work`]).
    pub quick_work_limit: Duration,
    /// The most connections open at once ([`crate::http::listen`]).
    pub max_connections: usize,
    /// How long a connection may take to send a request's headers, and
    /// stay silent between requests ([`crate::http::listen`]).
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive ([`crate::http::limits`]).
    pub body_timeout: Duration,
    /// How long requests being answered have to finish when the server is
    /// told to stop ([`crate::serve_until`]).
    pub shutdown_grace: Duration,
    /// How long the server, told to stop, keeps its listener open while it
    /// answers not ready and refuses new moves ([`crate::http::health`]), so that
    /// a load balancer's checks see it go before it closes.
    pub drain_delay: Duration,
    /// Where the metrics and the health checks are served besides
    /// ([`crate::http::metrics`]); none for nowhere (`/healthz` and `/readyz` are
    /// on the main address too, `/metrics` only here).
    pub metrics_addr: Option<SocketAddr>,
    /// Where the store is: none for `parlor.db` in the data directory.
    pub database: Option<store::Location>,
    /// How long one call waits for the store before it is given up and the
    /// request answered `503` with `Retry-After` ([`store::Db::set_timeout`]).
    pub store_timeout: Duration,
    /// How hard SQLite holds on to each commit.
    pub durability: store::Durability,
    /// The most idle matches kept in memory (the store keeps them all).
    pub live_matches: usize,
    /// The load balancers in front of this server (`--trusted-proxy`):
    /// only from these is `X-Forwarded-For` read for the client's address
    /// ([`crate::http::client`]).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// How many things (matches, designs, boards, saves) each client
    /// address may make a minute, and how many long answers it may ask
    /// for, in bursts of as many ([`crate::http::fair`]); 0 for no limit.
    pub rate_limit: u32,
    /// The most unfinished matches one client address, or one token, may
    /// have made ([`store`]); 0 for no limit.
    pub matches_per_client: u32,
    /// How long an unfinished match nobody has moved in or joined is kept
    /// ([`store`]); a match played in is kept 30 days after its last move.
    pub unplayed_kept: Duration,
    /// The most sessions of each kind (uploaded boards, designs) one
    /// client address, or one token, holds ([`crate::sessions`]); 0 for no
    /// budget. A new one beyond it pushes out the maker's own oldest.
    pub sessions_per_client: usize,
    /// The most grids one owner (a token, else a client address) may have
    /// saved ([`crate::tools::grids`]); 0 for no limit. The store holds at most
    /// [`store::MAX_GRIDS`] in all.
    pub grids_per_client: u32,
    /// The most connections one client address holds at once
    /// ([`crate::http::listen`]); 0 for no limit. Trusted proxies are not held to
    /// it.
    pub connections_per_client: usize,
    /// The most live event streams one client address holds at once
    /// ([`crate::http::fair::Streams`]); 0 for no limit.
    pub streams_per_client: usize,
    /// For whoever works on the pages: serve them from this folder (the
    /// source's `crates/server/web`), read at each request, instead of the
    /// copies built into the binary ([`crate::assets`]).
    pub web_dir: Option<PathBuf>,
}

impl Config {
    /// The defaults, with files under `data_dir`: 1,000 sessions of each
    /// kind, dropped after 2 hours idle, request bodies up to 1 MiB, the
    /// listening address unknown (no Host check until [`crate::serve`] sets it),
    /// as many long answers at once as the machine has cores (at least 2)
    /// in each line, the long line's on as many threads at a lower
    /// priority, 10 s for one long answer and ½ s in the quick line,
    /// 2,000,000 states (about 46 MB) for one long answer,
    /// 1,024 connections (or three quarters of the open-file limit when
    /// that is lower), 10 s for headers and for bodies, 10 s to finish
    /// when stopping with no drain delay before it, no metrics address;
    /// the store in `parlor.db` in the data directory, committed to its
    /// log before a move is answered, 5 s for it to answer; 1,000 idle matches in memory; no
    /// trusted proxy, 60 things made and 60 long answers a minute per
    /// client address, 100 unfinished matches per address and per token,
    /// unplayed matches kept 6 hours; 100 sessions of each kind and 100
    /// saved grids per client, 64 connections and 32 live streams
    /// per client address.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            games: games::Registry::standard(),
            data_dir: data_dir.into(),
            max_sessions: 1000,
            idle: Duration::from_secs(2 * 60 * 60),
            body_limit: 1 << 20,
            listen: None,
            public_hosts: Vec::new(),
            max_long_work: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
            long_work_limit: Duration::from_secs(10),
            quick_work_limit: Duration::from_millis(500),
            long_work_states: 2_000_000,
            max_connections: default_max_connections(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(10),
            drain_delay: Duration::ZERO,
            metrics_addr: None,
            database: None,
            store_timeout: store::DEFAULT_STORE_TIMEOUT,
            durability: store::Durability::default(),
            live_matches: 1000,
            trusted_proxies: Vec::new(),
            rate_limit: 60,
            matches_per_client: 100,
            unplayed_kept: Duration::from_secs(6 * 60 * 60),
            sessions_per_client: 100,
            grids_per_client: 100,
            connections_per_client: 64,
            streams_per_client: 32,
            web_dir: None,
        }
    }

    /// The folder of grid files from before the store, under the data
    /// directory: its files are imported once when the store opens.
    pub fn grid_folder(&self) -> PathBuf {
        grid_folder(&self.data_dir)
    }

    /// Where the store is.
    pub fn location(&self) -> store::Location {
        self.database
            .clone()
            .unwrap_or_else(|| store::Location::default_for(&self.data_dir))
    }
}

/// The folder of grid files from before the store under `data_dir`.
pub fn grid_folder(data_dir: &std::path::Path) -> PathBuf {
    data_dir.join("grids")
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
