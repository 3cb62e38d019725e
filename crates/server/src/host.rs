//! The Host check: a server on a loopback address answers only requests
//! addressed to a loopback name, against DNS rebinding.
//!
//! Terms:
//! - **DNS rebinding**: a web page on `evil.example` points its own name at
//!   `127.0.0.1` and then calls `http://evil.example:8080/api/...` — the
//!   browser sees the same origin and lets the page read the answers and
//!   post anything, though the server it reaches is this machine's
//!   `parlor serve`. The browser still sends `Host: evil.example:8080`, which
//!   is how the request is told apart.
//! - **loopback host**: a `Host` naming this machine: `localhost`, an IPv4
//!   address in `127.0.0.0/8`, or `[::1]`, with any port or none, in any
//!   case. No other name counts (not `*.localhost`, not `127.1`).
//! - **guarded**: a server listening on a loopback address; only loopback
//!   hosts get in. A server listening on any other address was exposed on
//!   purpose (`--addr`) and is reached by whatever name the network gives it:
//!   it is not checked.
//!
//! A request with no host at all (an HTTP/1.0 request without `Host`) is
//! let in: every browser sends a host, so such a request never comes from a
//! web page, and any program that can send it can reach the port anyway.

use crate::error::ApiError;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Whether `host` (a `Host` header's value: a name or address and an
/// optional port) names this machine's loopback interface.
pub fn is_loopback_host(host: &str) -> bool {
    let (loopback, port) = match host.strip_prefix('[') {
        // An IPv6 literal: `[::1]` or `[::1]:8080`.
        Some(rest) => {
            let Some((inside, after)) = rest.split_once(']') else {
                return false;
            };
            let loopback = inside
                .parse::<Ipv6Addr>()
                .is_ok_and(|ip| ip.is_loopback() || is_mapped_loopback(ip));
            match after.strip_prefix(':') {
                Some(port) => (loopback, port),
                None => (loopback && after.is_empty(), ""),
            }
        }
        None => {
            let (name, port) = host.split_once(':').unwrap_or((host, ""));
            let loopback = name.eq_ignore_ascii_case("localhost")
                || name.parse::<Ipv4Addr>().is_ok_and(|ip| ip.is_loopback());
            (loopback, port)
        }
    };
    // An empty port is allowed (`localhost:`), as in a URL.
    let port_ok =
        port.is_empty() || port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok();
    loopback && port_ok
}

/// `::ffff:127.x.y.z`, the IPv4 loopback written as IPv6.
fn is_mapped_loopback(ip: Ipv6Addr) -> bool {
    ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
}

/// Whether a server listening on `listen` checks hosts: when it listens on
/// a loopback address only.
pub fn is_guarded(listen: SocketAddr) -> bool {
    let ip = listen.ip();
    ip.is_loopback()
        || match ip {
            IpAddr::V6(v6) => is_mapped_loopback(v6),
            IpAddr::V4(_) => false,
        }
}

/// The middleware of a guarded server listening on `listen`: a request whose
/// `Host` (or, for an absolute request target or HTTP/2, the URI's
/// authority) is not a loopback host gets a 403 that says why and how to get
/// in; every other request goes on.
pub async fn guard(State(listen): State<SocketAddr>, request: Request, next: Next) -> Response {
    let headers = request.headers().get_all(header::HOST);
    let mut hosts: Vec<String> = headers
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_string())
        .collect();
    if let Some(authority) = request.uri().authority() {
        hosts.push(authority.as_str().to_string());
    }
    match hosts.into_iter().find(|h| !is_loopback_host(h)) {
        None => next.run(request).await,
        Some(host) => refusal(listen, &host, request.uri().path()),
    }
}

/// The 403: JSON under `/api`, plain text elsewhere.
fn refusal(listen: SocketAddr, host: &str, path: &str) -> Response {
    let message = format!(
        "this Parlor server listens on {listen}, for this machine only, and answers \
         only requests addressed to localhost, 127.0.0.1 or [::1], not to {host:?} \
         (a web page could point its own name at this machine to reach it). \
         Open http://{listen}/ instead; or, to reach it by another name, start it on \
         a network address with --addr (parlor serve --addr 0.0.0.0:{port}: anyone on \
         the network can then reach it).",
        port = listen.port()
    );
    if path == "/api" || path.starts_with("/api/") {
        ApiError::new(StatusCode::FORBIDDEN, message).into_response()
    } else {
        (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{message}\n"),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_any_port_and_case_are_loopback_hosts() {
        for host in [
            "localhost",
            "LocalHost:8080",
            "localhost:",
            "127.0.0.1",
            "127.0.0.1:65535",
            "127.255.3.4:80",
            "[::1]",
            "[::1]:8080",
            "[0:0:0:0:0:0:0:1]:1",
            "[::ffff:127.0.0.1]:8080",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn other_names_are_not() {
        for host in [
            "",
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.evil.example:8080",
            "app.localhost",
            "localhost.",
            "127.1",
            "128.0.0.1",
            "0.0.0.0:8080",
            "192.168.1.20:8080",
            "[::2]:8080",
            "[::]",
            "[::1",
            "[::1]8080",
            "::1",
            "localhost:8080:1",
            "localhost:http",
            "localhost:70000",
            "localhost:+80",
            "127.0.0.1 :80",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn only_loopback_listeners_are_guarded() {
        let guarded = |a: &str| is_guarded(a.parse().unwrap());
        assert!(guarded("127.0.0.1:8080"));
        assert!(guarded("127.0.0.2:0"));
        assert!(guarded("[::1]:8080"));
        assert!(!guarded("0.0.0.0:8080"));
        assert!(!guarded("[::]:8080"));
        assert!(!guarded("192.168.1.20:8080"));
    }
}
