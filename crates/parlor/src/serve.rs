//! `parlor serve`: the browser app.
//!
//! Terms:
//! - **address**: where the app listens; `127.0.0.1:8080` by default, so only
//!   this machine can reach it.
//! - **data directory**: where saved grids go; the platform's user data
//!   directory (e.g. `~/.local/share/parlor`) unless `--data-dir` is given.

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
  parlor serve --data-dir ./grids           keep saved grids here")]
pub struct ServeArgs {
    /// Address to listen on (use port 0 for any free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    addr: SocketAddr,
    /// Where saved grids are kept (default: the platform's user data
    /// directory, under `parlor`).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Serves the app until interrupted.
pub fn run(args: &ServeArgs) -> Result<()> {
    let data_dir = match &args.data_dir {
        Some(dir) => dir.clone(),
        None => dirs::data_dir()
            .map(|d| d.join("parlor"))
            .context("this platform has no user data directory; pass --data-dir DIR")?,
    };
    let config = server::Config::new(data_dir.clone());
    server::run(args.addr, config, |addr| {
        let mut out = std::io::stdout().lock();
        // The URL is the first line, so scripts can read it.
        let _ = writeln!(out, "http://{addr}/");
        let _ = writeln!(
            out,
            "Parlor is running: open the URL above in a browser. Saved grids go to {}. Ctrl-C stops it.",
            data_dir.display()
        );
        let _ = out.flush();
    })
    .with_context(|| format!("cannot serve on {}", args.addr))
}
