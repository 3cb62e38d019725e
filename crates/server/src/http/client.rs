//! Who a request comes from: the client's address, as the fair-share
//! limits count it ([`crate::http::fair`]).
//!
//! Terms:
//! - **peer**: the address at the other end of the TCP connection; the
//!   accept loop ([`crate::http::listen`]) puts it in each request's
//!   extensions as axum's [`ConnectInfo`].
//! - **trusted proxy** ([`crate::config::Config::trusted_proxies`],
//!   `--trusted-proxy`): a load balancer the operator named. Only when the
//!   peer is one is `X-Forwarded-For` read: its addresses are taken from
//!   the right, skipping trusted proxies, and the first other one is the
//!   client. From any other peer the header is ignored, so that nobody can
//!   choose the address they are counted as.
//! - **client** ([`Client`]): the address counted. An IPv6 address is
//!   counted by its /64 network, which one subscriber usually holds whole.
//!   A request that reached the router without a connection (a test, the
//!   fuzzer calling the router in process) has no client and is not
//!   counted.

use axum::extract::{ConnectInfo, Request};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The client's address as the limits count it (an IPv6 address by its
/// /64 network).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(pub IpAddr);

impl Client {
    /// The key for `address`: itself, or its /64 network for IPv6 (an
    /// IPv4 address mapped into IPv6 is read as IPv4).
    pub fn of(address: IpAddr) -> Self {
        match address {
            IpAddr::V4(v4) => Self(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    Self(IpAddr::V6(Ipv6Addr::from(bits)))
                }
            },
        }
    }

    /// A short digest of the address for the store (which keeps who made a
    /// match without keeping the address itself).
    pub fn digest(&self) -> String {
        crate::random::digest(&format!("client {}", self.0))
    }

    /// The address's **neighbourhood**, where one party may hold many
    /// addresses cheaply: an IPv4 address's /24, an IPv6 address's /48.
    /// What one client may keep is also bounded per neighbourhood, so that
    /// a flood needs many networks, not many addresses.
    pub fn neighbourhood(&self) -> IpAddr {
        match self.0 {
            IpAddr::V4(v4) => IpAddr::V4(std::net::Ipv4Addr::from(u32::from(v4) & !0xff)),
            IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 80) - 1))),
        }
    }

    /// A short digest of the neighbourhood for the store.
    pub fn neighbourhood_digest(&self) -> String {
        crate::random::digest(&format!("neighbourhood {}", self.neighbourhood()))
    }
}

/// Who makes something the server keeps for them (a design, an uploaded
/// board, a saved grid): the client's address, when known, and the digest
/// of the token the request showed (`Authorization: Bearer`), if any. Never
/// refuses a request: a header that is not a token counts as none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Maker {
    /// The client's address ([`Client`]).
    pub client: Option<IpAddr>,
    /// The digest of the token shown.
    pub token: Option<String>,
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Maker {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        let token = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(crate::random::digest);
        Ok(Self {
            client: parts.extensions.get::<Client>().map(|c| c.0),
            token,
        })
    }
}

/// The client of a request from `peer` with `headers`, given the trusted
/// proxies (see the module's terms).
pub fn client_of(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> Client {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|t| same(t, ip));
    if !is_trusted(&peer) {
        return Client::of(peer);
    }
    // Every X-Forwarded-For header, in order, as one list.
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in forwarded.iter().rev() {
        match parse_hop(hop) {
            Some(ip) if is_trusted(&ip) => client = ip,
            Some(ip) => return Client::of(ip),
            // A hop that is not an address: what lies to its left cannot
            // be trusted; count the last proxy that spoke.
            None => break,
        }
    }
    Client::of(client)
}

/// Two addresses are the same, an IPv4 address mapped into IPv6 included.
fn same(a: &IpAddr, b: &IpAddr) -> bool {
    a.to_canonical() == b.to_canonical()
}

/// One address of `X-Forwarded-For`: `1.2.3.4`, `1.2.3.4:5678`, `::1`,
/// `[::1]:5678`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    hop.parse::<SocketAddr>().ok().map(|s| s.ip())
}

/// Puts the request's [`Client`] in its extensions, when its peer is known.
pub async fn identify(
    axum::extract::State(trusted): axum::extract::State<Arc<[IpAddr]>>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(peer) = peer {
        let client = client_of(peer, request.headers(), &trusted);
        request.extensions_mut().insert(client);
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        headers
    }

    #[test]
    fn the_header_is_read_only_from_a_trusted_proxy() {
        let headers = forwarded(&["203.0.113.9"]);
        let proxy = ip("10.0.0.5");
        assert_eq!(
            client_of(proxy, &headers, &[]),
            Client(proxy),
            "no proxy trusted: the peer"
        );
        assert_eq!(
            client_of(proxy, &headers, &[ip("10.0.0.6")]),
            Client(proxy),
            "another proxy trusted: the peer"
        );
        assert_eq!(
            client_of(proxy, &headers, &[proxy]),
            Client(ip("203.0.113.9"))
        );
    }

    #[test]
    fn the_client_is_the_rightmost_address_not_a_trusted_proxy() {
        let proxies = [ip("10.0.0.5"), ip("10.0.0.6")];
        // The client wrote a false first hop; the proxies appended the rest.
        let headers = forwarded(&["1.1.1.1, 198.51.100.7", "10.0.0.6"]);
        assert_eq!(
            client_of(ip("10.0.0.5"), &headers, &proxies),
            Client(ip("198.51.100.7"))
        );
        let only_proxies = forwarded(&["10.0.0.6"]);
        assert_eq!(
            client_of(ip("10.0.0.5"), &only_proxies, &proxies),
            Client(ip("10.0.0.6"))
        );
        let garbage = forwarded(&["1.1.1.1, nonsense"]);
        assert_eq!(
            client_of(ip("10.0.0.5"), &garbage, &proxies),
            Client(ip("10.0.0.5")),
            "a hop that is not an address stops the reading"
        );
        let ported = forwarded(&["[2001:db8::1]:443"]);
        assert_eq!(
            client_of(ip("10.0.0.5"), &ported, &proxies),
            Client(ip("2001:db8::"))
        );
    }

    #[test]
    fn ipv6_is_counted_by_its_64_network() {
        assert_eq!(
            Client::of(ip("2001:db8:1:2:aaaa::1")),
            Client::of(ip("2001:db8:1:2:bbbb::2"))
        );
        assert_ne!(
            Client::of(ip("2001:db8:1:2::1")),
            Client::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(Client::of(ip("::ffff:127.0.0.2")), Client(ip("127.0.0.2")));
        assert_ne!(Client::of(ip("127.0.0.2")), Client::of(ip("127.0.0.3")));
    }
}
