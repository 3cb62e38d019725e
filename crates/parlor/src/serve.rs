//! `parlor serve`: the browser app.
//!
//! Terms:
//! - **address**: where the app listens; `127.0.0.1:8080` by default, so only
//!   this machine can reach it.
//! - **data directory**: where the store (`parlor.db`, SQLite) is kept; the
//!   platform's user data directory (e.g. `~/.local/share/parlor`) unless
//!   `--data-dir` is given.
//! - **database**: the store of matches and saved grids: that SQLite file,
//!   or a PostgreSQL database (`--database postgres://…` or
//!   `PARLOR_DATABASE_URL`) that several servers share.
//! - **environment**: every option can be given as a variable instead, named
//!   `PARLOR_` and the option in capitals (`--metrics-addr` is
//!   `PARLOR_METRICS_ADDR`), except `--database`, whose variable is
//!   `PARLOR_DATABASE_URL`; an option given on the command line wins.
//! - **log**: one line per request and what else the server has to say, on
//!   standard error: words (`--log-format human`, the default) or one JSON
//!   object a line (`json`), at the level `RUST_LOG` says (`info` when
//!   unset). See docs/deploy.md.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `parlor serve`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor serve                              then open the URL it prints
  parlor serve --addr 127.0.0.1:0           any free port
  parlor serve --data-dir ./parlor-data     keep the store (parlor.db) here
  parlor serve --database postgres://parlor@127.0.0.1/parlor
                                            share one PostgreSQL with other servers
  parlor serve --sync disk                  flush every move to the disk
  parlor serve --addr 0.0.0.0:8080 --public-host parlor.example.org
                                            on the network, by that name only
  parlor serve --metrics-addr 127.0.0.1:9090 --log-format json
                                            Prometheus metrics, JSON logs

Every option can also be set by an environment variable: PARLOR_ and the
option's name in capitals (PARLOR_ADDR, PARLOR_DATA_DIR, PARLOR_METRICS_ADDR,
...), but PARLOR_DATABASE_URL for --database. RUST_LOG sets the log's level.
Health checks: GET /healthz and GET /readyz (see docs/deploy.md).

Games and saved grids live in the store: a reload, a restart or a crash
loses no move the server answered. Unfinished games are kept 30 days after
their last move (6 hours when nobody has played in them:
--unplayed-expiry); finished ones are kept.")]
pub struct ServeArgs {
    /// Address to listen on (use port 0 for any free port).
    #[arg(
        long,
        default_value = "127.0.0.1:8080",
        value_name = "IP:PORT",
        env = "PARLOR_ADDR"
    )]
    addr: SocketAddr,
    /// Where the store is kept (default: the platform's user data
    /// directory, under `parlor`); grid files found in its `grids` folder
    /// are imported the first time.
    #[arg(long, value_name = "DIR", env = "PARLOR_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// The store: `postgres://USER@HOST:PORT/DB` (shared by several
    /// servers), or `sqlite:PATH` (default: `parlor.db` in the data
    /// directory).
    #[arg(
        long,
        value_name = "URL",
        env = "PARLOR_DATABASE_URL",
        hide_env_values = true
    )]
    database: Option<String>,
    /// Seconds one request waits for the store (a frozen PostgreSQL, a
    /// stuck disk) before it is answered 503 with Retry-After.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "5",
        value_parser = positive_seconds,
        env = "PARLOR_STORE_TIMEOUT"
    )]
    store_timeout: Duration,
    /// How hard SQLite holds each move before answering: `process` (in its
    /// log: no crash of the server loses it) or `disk` (flushed to the
    /// disk: not even a power cut does, a few milliseconds a move).
    #[arg(
        long,
        value_name = "HOW",
        default_value = "process",
        value_parser = ["process", "disk"],
        env = "PARLOR_SYNC"
    )]
    sync: String,
    /// A name people reach this server by when it listens on a network
    /// address (repeatable; names separated by `,` in the variable):
    /// requests for any other host are refused, so that a web page cannot
    /// point its own name here (DNS rebinding). Without it such a server
    /// answers any name, and warns at start.
    #[arg(
        long = "public-host",
        value_name = "NAME",
        env = "PARLOR_PUBLIC_HOST",
        value_delimiter = ',',
        value_parser = parse_public_host
    )]
    public_hosts: Vec<String>,
    /// Serve Prometheus metrics (`/metrics`) and the health checks on this
    /// address too (default: no metrics). Keep it private: the metrics
    /// show the server's traffic.
    #[arg(long, value_name = "IP:PORT", env = "PARLOR_METRICS_ADDR")]
    metrics_addr: Option<SocketAddr>,
    /// The log's form on standard error: `human` (words) or `json` (one
    /// object a line). Its level: `RUST_LOG` (default `info`).
    #[arg(
        long,
        value_name = "FORM",
        default_value = "human",
        env = "PARLOR_LOG_FORMAT"
    )]
    log_format: LogFormat,
    /// Told to stop (SIGTERM, Ctrl-C), answer not ready and refuse new
    /// moves for this many seconds before closing the listener, so that a
    /// load balancer's checks see the server go (default: 0).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "0",
        value_parser = seconds,
        env = "PARLOR_DRAIN_DELAY"
    )]
    drain_delay: Duration,
    /// Told to stop, give the requests being answered this many seconds to
    /// finish (default: 10).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "10",
        value_parser = seconds,
        env = "PARLOR_SHUTDOWN_GRACE"
    )]
    shutdown_grace: Duration,
    /// The most connections open at once (default: 1,024, or three
    /// quarters of the open-file limit when lower).
    #[arg(long, value_name = "N", env = "PARLOR_MAX_CONNECTIONS", value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: Option<u32>,
    /// The most idle matches kept in memory (the store keeps them all).
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        env = "PARLOR_LIVE_MATCHES",
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    live_matches: u32,
    /// A load balancer or proxy in front of this server (repeatable; `,`
    /// between addresses in the variable): only requests from it have
    /// their client's address read from `X-Forwarded-For`, for the limits
    /// per client. Without it the header is ignored.
    #[arg(
        long = "trusted-proxy",
        value_name = "IP",
        env = "PARLOR_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// How many games, designs, boards and saves each client address may
    /// make a minute, and how many analyses, hints and solves it may ask
    /// for (in bursts of as many); more are refused with 429 and
    /// Retry-After. 0: no limit.
    #[arg(
        long,
        value_name = "N",
        default_value = "60",
        env = "PARLOR_RATE_LIMIT"
    )]
    rate_limit: u32,
    /// The most unfinished games one client address (or one token) may
    /// have made; more are refused with 429. 0: no limit.
    #[arg(
        long,
        value_name = "N",
        default_value = "100",
        env = "PARLOR_MATCHES_PER_CLIENT"
    )]
    matches_per_client: u32,
    /// The most unsaved designs, and the most uploaded boards, one client
    /// address (or one token) holds in memory; a new one beyond it pushes
    /// out that client's own oldest. 0: no limit.
    #[arg(
        long,
        value_name = "N",
        default_value = "100",
        env = "PARLOR_SESSIONS_PER_CLIENT"
    )]
    sessions_per_client: u32,
    /// The most grids one person (a token, else a client address) may
    /// have saved; more are refused with 429. 0: no limit (the server
    /// holds 10,000 in all).
    #[arg(
        long,
        value_name = "N",
        default_value = "100",
        env = "PARLOR_GRIDS_PER_CLIENT"
    )]
    grids_per_client: u32,
    /// The most connections one client address may hold open at once
    /// (a trusted proxy is not held to it); a newcomer beyond it closes
    /// one of that address's idle connections, or is refused with 503.
    /// 0: no limit.
    #[arg(
        long,
        value_name = "N",
        default_value = "64",
        env = "PARLOR_CONNECTIONS_PER_CLIENT"
    )]
    connections_per_client: u32,
    /// The most games one client address may watch live at once (event
    /// streams); one more is refused with 503 and Retry-After. 0: no
    /// limit.
    #[arg(
        long,
        value_name = "N",
        default_value = "32",
        env = "PARLOR_STREAMS_PER_CLIENT"
    )]
    streams_per_client: u32,
    /// Hours an unfinished game nobody has moved in or joined is kept
    /// (games played in are kept 30 days after their last move).
    #[arg(
        long,
        value_name = "HOURS",
        default_value = "6",
        value_parser = hours,
        env = "PARLOR_UNPLAYED_EXPIRY"
    )]
    unplayed_expiry: Duration,
    /// For whoever works on the pages: serve them from this folder
    /// (`crates/server/web`), read at each request, so that an edit shows
    /// on reload without a rebuild.
    #[arg(long, value_name = "DIR", env = "PARLOR_WEB_DIR")]
    web_dir: Option<PathBuf>,
}

/// The log's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Words, one line an event.
    Human,
    /// One JSON object a line.
    Json,
}

/// The longest drain delay or grace: an hour.
const MOST_SECONDS: f64 = 3600.0;

/// Reads a number of seconds (`2`, `0.5`), from 0 to an hour.
fn seconds(text: &str) -> Result<Duration, String> {
    let n: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.0..=MOST_SECONDS).contains(&n) {
        return Err(format!("{n} s is not between 0 and {MOST_SECONDS} s"));
    }
    Ok(Duration::from_secs_f64(n))
}

/// Reads a number of seconds above 0, up to an hour.
fn positive_seconds(text: &str) -> Result<Duration, String> {
    let d = seconds(text)?;
    if d < Duration::from_millis(10) {
        return Err(format!("{text} s is too short: give at least 0.01"));
    }
    Ok(d)
}

/// Reads a number of hours (`6`, `0.5`), from a minute to 30 days.
fn hours(text: &str) -> Result<Duration, String> {
    let n: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of hours"))?;
    if !(1.0 / 60.0..=720.0).contains(&n) {
        return Err(format!("{n} h is not between a minute (0.017) and 720 h"));
    }
    Ok(Duration::from_secs_f64(n * 3600.0))
}

/// Sends the server's log to standard error, in `format`, at the level
/// `RUST_LOG` says (`info` when unset), through a writer of its own that
/// drops lines rather than block a request when standard error is not read
/// ([`server::http::log::non_blocking`]). Keep the guard it gives until the
/// server has stopped: dropping it writes out the lines still waiting.
fn start_log(format: LogFormat) -> Result<server::http::log::LogGuard> {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => EnvFilter::try_new(&spec)
            .with_context(|| format!("RUST_LOG={spec} is not a log level"))?,
        _ => EnvFilter::new("info"),
    };
    let (writer, guard) = server::http::log::non_blocking(std::io::stderr())
        .context("cannot start the log's writer")?;
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || writer.line());
    let started = match format {
        LogFormat::Human => log.try_init(),
        LogFormat::Json => log.json().flatten_event(true).try_init(),
    };
    started.map_err(|e| anyhow::anyhow!("cannot start the log: {e}"))?;
    // A panic is said in the log too, in its form (one JSON line with
    // `--log-format json`), not as Rust prints it.
    std::panic::set_hook(Box::new(|panic| {
        tracing::error!(target: "parlor::panic", panic = %panic, "a thread panicked");
    }));
    Ok(guard)
}

/// Serves the app until interrupted.
pub fn run(args: &ServeArgs) -> Result<()> {
    let data_dir = match &args.data_dir {
        Some(dir) => dir.clone(),
        None => dirs::data_dir()
            .map(|d| d.join("parlor"))
            .context("this platform has no user data directory; pass --data-dir DIR")?,
    };
    let mut config = server::Config::new(data_dir.clone());
    if let Some(url) = &args.database {
        config.database = Some(
            server::store::Location::parse(url)
                .map_err(anyhow::Error::msg)
                .context(crate::common::source_of(
                    "--database",
                    "PARLOR_DATABASE_URL",
                ))?,
        );
    }
    if let Some(dir) = &args.web_dir {
        anyhow::ensure!(
            dir.is_dir(),
            "{} {}: there is no such folder (give the source's crates/server/web, or leave \
             it out to serve the pages built into the binary)",
            crate::common::source_of("--web-dir", "PARLOR_WEB_DIR"),
            dir.display()
        );
    }
    config.web_dir = args.web_dir.clone();
    config.store_timeout = args.store_timeout;
    if args.sync == "disk" {
        config.durability = server::store::Durability::Disk;
    }
    config.metrics_addr = args.metrics_addr;
    config.public_hosts = args.public_hosts.clone();
    config.drain_delay = args.drain_delay;
    config.shutdown_grace = args.shutdown_grace;
    if let Some(n) = args.max_connections {
        config.max_connections = n as usize;
    }
    config.live_matches = args.live_matches as usize;
    config.trusted_proxies = args.trusted_proxies.clone();
    config.rate_limit = args.rate_limit;
    config.matches_per_client = args.matches_per_client;
    config.unplayed_kept = args.unplayed_expiry;
    config.sessions_per_client = args.sessions_per_client as usize;
    config.grids_per_client = args.grids_per_client;
    config.connections_per_client = args.connections_per_client as usize;
    config.streams_per_client = args.streams_per_client as usize;
    let log = start_log(args.log_format)?;
    let store = config.location().describe();
    let served = server::run_with(args.addr, config, |bound| {
        let mut out = std::io::stdout().lock();
        // The URL is the first line, so scripts can read it.
        let _ = writeln!(out, "http://{}/", bound.addr);
        if let Some(metrics) = bound.metrics {
            let _ = writeln!(out, "Metrics: http://{metrics}/metrics");
        }
        let _ = writeln!(
            out,
            "Parlor is running: open the URL above in a browser. Games and grids are kept in the {store}. Ctrl-C stops it."
        );
        let _ = out.flush();
    })
    .with_context(|| format!("cannot serve on {}", args.addr));
    match served {
        Ok(()) => Ok(()),
        // A fatal error in the log's own form, so that a JSON log holds
        // only JSON; then the exit status says it failed.
        Err(e) if args.log_format == LogFormat::Json => {
            tracing::error!(error = %format!("{e:#}"), "stopped");
            drop(log);
            std::process::exit(1);
        }
        Err(e) => Err(e),
    }
}

/// `--public-host`'s value, checked ([`server::http::host::check_public_host`]).
fn parse_public_host(name: &str) -> Result<String, String> {
    server::http::host::check_public_host(name).map(|()| name.trim().to_string())
}
