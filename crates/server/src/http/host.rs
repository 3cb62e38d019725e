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
//!   hosts get in, and its public hosts when it has any: a reverse proxy on
//!   the same machine (Caddy by default, nginx with `proxy_set_header Host
//!   $host`) passes on the name the browser used.
//! - **public hosts**: the names people reach an exposed server by (a
//!   server listening on a network address, `--addr 0.0.0.0:8080`), given
//!   with `--public-host`. When any is given, only those names (with any
//!   port) and loopback hosts get in, so a rebinding page is refused there
//!   too. An exposed server with none is not checked, and says at start
//!   that it should be ([`exposure_warning`]).
//!
//! - **probe** ([`is_probe`]): `GET` or `HEAD` of `/healthz` or `/readyz`.
//!   A load balancer or orchestrator probes by the server's own address
//!   (Kubernetes, cloud balancers), with that address as its `Host`; a
//!   probe changes nothing and tells nothing a page could use, so it passes
//!   whatever its `Host`.
//!
//! A request with no host at all (an HTTP/1.0 request without `Host`) is
//! let in: every browser sends a host, so such a request never comes from a
//! web page, and any program that can send it can reach the port anyway.

use crate::http::error::ApiError;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

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

/// Whether `request` is a health probe (see the module's terms), let in
/// whatever its `Host`.
pub fn is_probe(request: &Request) -> bool {
    let method = request.method();
    (method == axum::http::Method::GET || method == axum::http::Method::HEAD)
        && matches!(request.uri().path(), "/healthz" | "/readyz")
}

/// The hosts `request` is addressed to: its `Host` headers and, for an
/// absolute request target or HTTP/2, the URI's authority.
fn hosts_of(request: &Request) -> Vec<String> {
    let mut hosts: Vec<String> = request
        .headers()
        .get_all(header::HOST)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_string())
        .collect();
    if let Some(authority) = request.uri().authority() {
        hosts.push(authority.as_str().to_string());
    }
    hosts
}

/// What a guarded server checks hosts against: where it listens, and its
/// public hosts (those a reverse proxy on this machine passes on).
#[derive(Debug, Clone)]
pub struct Guarded {
    /// The loopback address it listens on.
    pub listen: SocketAddr,
    /// Its `--public-host` names (none: loopback hosts only).
    pub names: Arc<[String]>,
}

/// The middleware of a guarded server: a request whose hosts are not all
/// loopback hosts or its public hosts gets a 403 that says why and how to
/// get in; a probe and every other request go on.
pub async fn guard(State(guarded): State<Guarded>, request: Request, next: Next) -> Response {
    if is_probe(&request) {
        return next.run(request).await;
    }
    match hosts_of(&request)
        .into_iter()
        .find(|h| !is_public_host(h, &guarded.names))
    {
        None => next.run(request).await,
        Some(host) => refusal(guarded.listen, &host, request.uri().path()),
    }
}

/// The name part of a `Host` value, without its port (`[::1]` keeps its
/// brackets), in lower case.
fn host_name(host: &str) -> String {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest
            .split_once(']')
            .map_or(host, |(inside, _)| &host[..inside.len() + 2]),
        None => host.split_once(':').map_or(host, |(name, _)| name),
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// Whether `host` (a `Host` value) is one of `names` (the `--public-host`
/// names, each with or without a port: ports are not compared) or a
/// loopback host.
pub fn is_public_host(host: &str, names: &[String]) -> bool {
    let name = host_name(host);
    is_loopback_host(host) || names.iter().any(|n| host_name(n.trim()) == name)
}

/// Checks a `--public-host` name: a host name or an IP address, with an
/// optional port, and nothing else (no scheme, path or space).
///
/// # Errors
/// What is wrong with it, in words.
pub fn check_public_host(name: &str) -> Result<(), String> {
    let bare = host_name(name.trim());
    let ok = !bare.is_empty()
        && bare.len() <= 253
        && bare
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    if ok && !name.contains('/') {
        Ok(())
    } else {
        Err(format!(
            "{name:?} is not a host name: give the name people type, such as \
             parlor.example.org or 192.168.1.20 (no http://, no path)"
        ))
    }
}

/// The middleware of an exposed server with public hosts: a request for
/// another host gets a 403 that names the hosts it answers to; a probe
/// goes on whatever its host.
pub async fn guard_public(
    State(names): State<Arc<[String]>>,
    request: Request,
    next: Next,
) -> Response {
    if is_probe(&request) {
        return next.run(request).await;
    }
    match hosts_of(&request)
        .into_iter()
        .find(|h| !is_public_host(h, &names))
    {
        None => next.run(request).await,
        Some(host) => {
            let message = format!(
                "this Parlor server answers only requests addressed to {} (its \
                 --public-host names) or to this machine, not to {host:?} (a web page \
                 could point its own name at this server to reach it)",
                names.join(", ")
            );
            forbidden(message, request.uri().path())
        }
    }
}

/// What an exposed server without public hosts says at start, if it is
/// one: listening on `listen`, a network address, with no `names`.
pub fn exposure_warning(listen: SocketAddr, names: &[String]) -> Option<String> {
    (!is_guarded(listen) && names.is_empty()).then(|| {
        format!(
            "listening on {listen}, a network address, without --public-host: any name \
             that points here is answered, so a web page on another site could point \
             its own name at this server and use it (DNS rebinding); name the hosts \
             people use, e.g. --public-host parlor.example.org or --public-host {}",
            if listen.ip().is_unspecified() {
                "192.168.1.20".to_string()
            } else {
                listen.ip().to_string()
            }
        )
    })
}

/// The 403: JSON under `/api`, plain text elsewhere.
fn forbidden(message: String, path: &str) -> Response {
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

/// The 403 of a guarded server.
fn refusal(listen: SocketAddr, host: &str, path: &str) -> Response {
    let message = format!(
        "this Parlor server listens on {listen}, for this machine only, and answers \
         only requests addressed to localhost, 127.0.0.1 or [::1], not to {host:?} \
         (a web page could point its own name at this machine to reach it). \
         Open http://{listen}/ instead; or, to reach it by another name, start it on \
         a network address with --addr (parlor serve --addr 0.0.0.0:{port} \
         --public-host NAME: anyone on the network can then reach it).",
        port = listen.port()
    );
    forbidden(message, path)
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
