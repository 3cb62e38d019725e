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

use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Arguments of `parlor serve`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor serve                              then open the URL it prints
  parlor serve --addr 127.0.0.1:0           any free port
  parlor serve --data-dir ./parlor-data     keep the store (parlor.db) here
  parlor serve --database postgres://parlor@127.0.0.1/parlor
                                            share one PostgreSQL with other servers
  parlor serve --sync disk                  flush every move to the disk

Games and saved grids live in the store: a reload, a restart or a crash
loses no move the server answered. Unfinished games are kept 30 days after
their last move; finished ones are kept.")]
pub struct ServeArgs {
    /// Address to listen on (use port 0 for any free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    addr: SocketAddr,
    /// Where the store is kept (default: the platform's user data
    /// directory, under `parlor`); grid files found in its `grids` folder
    /// are imported the first time.
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The store: `postgres://USER@HOST:PORT/DB` (shared by several
    /// servers), or `sqlite:PATH` (default: `parlor.db` in the data
    /// directory).
    #[arg(long, value_name = "URL", env = "PARLOR_DATABASE_URL")]
    database: Option<String>,
    /// How hard SQLite holds each move before answering: `process` (in its
    /// log: no crash of the server loses it) or `disk` (flushed to the
    /// disk: not even a power cut does, a few milliseconds a move).
    #[arg(long, value_name = "HOW", default_value = "process", value_parser = ["process", "disk"])]
    sync: String,
    /// For whoever works on the pages: serve them from this folder
    /// (`crates/server/web`), read at each request, so that an edit shows
    /// on reload without a rebuild.
    #[arg(long, value_name = "DIR")]
    web_dir: Option<PathBuf>,
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
            server::db::Location::parse(url)
                .map_err(anyhow::Error::msg)
                .context("--database")?,
        );
    }
    config.web_dir = args.web_dir.clone();
    if args.sync == "disk" {
        config.durability = server::db::Durability::Disk;
    }
    let store = config.location().describe();
    server::run(args.addr, config, |addr| {
        let mut out = std::io::stdout().lock();
        // The URL is the first line, so scripts can read it.
        let _ = writeln!(out, "http://{addr}/");
        let _ = writeln!(
            out,
            "Parlor is running: open the URL above in a browser. Games and grids are kept in the {store}. Ctrl-C stops it."
        );
        let _ = out.flush();
    })
    .with_context(|| format!("cannot serve on {}", args.addr))
}
