//! `parlor health`: asks a running server whether it is healthy (or
//! ready), for a container's `HEALTHCHECK` in an image with no other tool.
//!
//! Terms:
//! - **address**: the server's, as `parlor serve` takes it (`--addr`,
//!   `PARLOR_ADDR`); an unspecified one (`0.0.0.0`, `[::]`) is asked on
//!   the loopback address of its family.
//! - **check**: `GET /healthz` (the process answers), or `GET /readyz`
//!   with `--ready` (it should be sent traffic); healthy when the answer
//!   is `200`.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// How long the check waits to connect and for the answer.
const WAIT: Duration = Duration::from_secs(3);

/// Arguments of `parlor health`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor health                             asks 127.0.0.1:8080 (or PARLOR_ADDR)
  parlor health --ready --addr 127.0.0.1:9090

Exits with 0 when the server answers 200, with 1 otherwise: the image's
HEALTHCHECK runs it.")]
pub struct HealthArgs {
    /// The server's address (as `parlor serve --addr`).
    #[arg(
        long,
        default_value = "127.0.0.1:8080",
        value_name = "IP:PORT",
        env = "PARLOR_ADDR"
    )]
    addr: SocketAddr,
    /// Ask whether it is ready (`/readyz`) rather than alive (`/healthz`).
    #[arg(long)]
    ready: bool,
}

/// The address to ask for a server listening on `addr`.
fn reachable(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}

/// Asks the server and prints its answer's body.
///
/// # Errors
/// When it cannot be reached in time, or answers other than `200`.
pub fn run(args: &HealthArgs) -> Result<()> {
    let addr = reachable(args.addr);
    let path = if args.ready { "/readyz" } else { "/healthz" };
    let mut stream = TcpStream::connect_timeout(&addr, WAIT)
        .with_context(|| format!("cannot reach the server at {addr}"))?;
    stream.set_read_timeout(Some(WAIT))?;
    stream.set_write_timeout(Some(WAIT))?;
    stream.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes(),
    )?;
    let mut answer = Vec::new();
    stream
        .take(64 * 1024)
        .read_to_end(&mut answer)
        .with_context(|| format!("no answer from {addr} within {} s", WAIT.as_secs()))?;
    let answer = String::from_utf8_lossy(&answer);
    let status = answer
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("none");
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b).trim();
    if status != "200" {
        bail!("{addr}{path} answered {status}: {body}");
    }
    println!("{body}");
    Ok(())
}
