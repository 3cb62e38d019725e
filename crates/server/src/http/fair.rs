//! Fair share: rates per client address on the routes that make something
//! or ask for long work, so that no one client uses up what everyone
//! shares.
//!
//! Terms:
//! - **making** ([`Kind::Making`]): a request that leaves something behind
//!   — a match, a design, an uploaded or designed board, a saved grid.
//! - **asking** ([`Kind::Asking`]): a request for long work — an analysis,
//!   a shortest game, a plot, a solve, a hint, a bot's move for a player.
//! - **rate** ([`crate::Config::rate_limit`]): each client address may
//!   make that many things a minute, and ask that many questions a minute,
//!   in bursts of as many; beyond it the request is answered `429
//!   rate_limited` with `Retry-After`, the seconds until one more is
//!   allowed. The limiter is `governor`'s (GCRA, one cell of state per
//!   address); addresses not seen for a while are forgotten.
//! - **streams** ([`Streams`], [`crate::Config::streams_per_client`]): the
//!   live event streams (watching a match) one client address holds at
//!   once, and all addresses together (three quarters of
//!   [`crate::Config::max_connections`], so that streams, which are never
//!   closed to make room, cannot take every connection from the moves);
//!   one more is `503 too_many_streams` with `Retry-After`.
//! - **client**: see [`crate::http::client`]. A request with no client (in
//!   process) is not counted.

use crate::http::client::Client;
use crate::http::error::ApiError;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

/// What a request costs, for the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// It makes something that is kept (see the module's terms).
    Making,
    /// It asks for long work.
    Asking,
}

/// The routes that make something, as `(method, template)` under `/api`.
pub const MAKING: &[(&str, &str)] = &[
    ("POST", "/api/matches"),
    ("POST", "/api/matches/{id}/rematch"),
    ("POST", "/api/chutes/boards"),
    ("POST", "/api/tycoon/designs"),
    ("POST", "/api/tycoon/designs/{id}/save"),
];

/// The routes that ask for long work, as `(method, template)`.
pub const ASKING: &[(&str, &str)] = &[
    ("GET", "/api/chutes/boards/{board}/analysis"),
    ("GET", "/api/chutes/boards/{board}/shortest"),
    ("GET", "/api/chutes/boards/{board}/min-throws"),
    ("GET", "/api/chutes/boards/{board}/plots/{kind}"),
    ("POST", "/api/chutes/design"),
    ("POST", "/api/baffle/solve"),
    ("POST", "/api/matches/{id}/hint"),
    ("POST", "/api/matches/{id}/bot"),
];

/// The kind of the route `template` taken with `method`, if it is limited.
pub fn kind_of(method: &Method, template: &str) -> Option<Kind> {
    let hit = |list: &[(&str, &str)]| {
        list.iter()
            .any(|&(m, t)| m == method.as_str() && t == template)
    };
    if hit(MAKING) {
        Some(Kind::Making)
    } else if hit(ASKING) {
        Some(Kind::Asking)
    } else {
        None
    }
}

/// The rate limiters, one per [`Kind`], keyed by client address.
pub struct Rates {
    per_minute: u32,
    making: Option<DefaultKeyedRateLimiter<IpAddr>>,
    asking: Option<DefaultKeyedRateLimiter<IpAddr>>,
    clock: DefaultClock,
}

impl Rates {
    /// Limiters allowing `per_minute` of each kind a minute per address, in
    /// bursts of as many; none when `per_minute` is 0.
    pub fn new(per_minute: u32) -> Self {
        let limiter =
            || NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n)));
        Self {
            per_minute,
            making: limiter(),
            asking: limiter(),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one request of `kind` from `client`.
    ///
    /// # Errors
    /// `429 rate_limited` with the seconds until the next is allowed.
    pub fn check(&self, kind: Kind, client: Client) -> Result<(), ApiError> {
        let limiter = match kind {
            Kind::Making => &self.making,
            Kind::Asking => &self.asking,
        };
        let Some(limiter) = limiter else {
            return Ok(());
        };
        match limiter.check_key(&client.0) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let what = match kind {
                    Kind::Making => "made too many games, designs, boards or saves",
                    Kind::Asking => "asked for too many analyses, hints or solves",
                };
                Err(ApiError::coded(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    format!(
                        "your address has {what} in a short time (at most {} a minute); try again in {} s",
                        self.per_minute,
                        seconds.max(1)
                    ),
                )
                .with_retry_after(seconds))
            }
        }
    }

    /// Forgets addresses whose limits are back to full (called now and
    /// then, so that the table does not grow with every address seen).
    pub fn forget_idle(&self) {
        for limiter in [&self.making, &self.asking].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// The live streams each client address holds, and all of them.
pub struct Streams {
    most: usize,
    all_most: usize,
    held: std::sync::Mutex<std::collections::HashMap<IpAddr, usize>>,
}

/// One live stream, counted against its client until dropped.
pub struct StreamHeld {
    streams: Arc<Streams>,
    client: IpAddr,
}

impl Drop for StreamHeld {
    fn drop(&mut self) {
        let mut held = self.streams.lock();
        if let Some(n) = held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// How long a client refused a stream is asked to wait.
pub const STREAM_RETRY_AFTER: u64 = 5;

impl Streams {
    /// At most `most` streams per address (no limit when 0), and
    /// `all_most` in all (no limit when 0).
    pub fn new(most: usize, all_most: usize) -> Self {
        Self {
            most,
            all_most,
            held: std::sync::Mutex::new(std::collections::HashMap::new()),
        }
    }

    /// The streams held in all.
    pub fn held(&self) -> usize {
        self.lock().values().sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<IpAddr, usize>> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts one more stream for `client` (none counted without one).
    ///
    /// # Errors
    /// `503 too_many_streams` with `Retry-After` when the client holds its
    /// most.
    pub fn open(self: &Arc<Self>, client: Option<Client>) -> Result<Option<StreamHeld>, ApiError> {
        let Some(client) = client else {
            return Ok(None);
        };
        let mut held = self.lock();
        let all: usize = held.values().sum();
        if self.all_most > 0 && all >= self.all_most {
            return Err(ApiError::coded(
                StatusCode::SERVICE_UNAVAILABLE,
                "too_many_streams",
                format!(
                    "the server is streaming {all} games live, its most (it keeps the other connections for moves); try again in a moment"
                ),
            )
            .with_retry_after(STREAM_RETRY_AFTER));
        }
        let n = held.entry(client.0).or_insert(0);
        if self.most > 0 && *n >= self.most {
            return Err(ApiError::coded(
                StatusCode::SERVICE_UNAVAILABLE,
                "too_many_streams",
                format!(
                    "your address is watching {} games live, the most one address may; close some pages or try again in a moment",
                    self.most
                ),
            )
            .with_retry_after(STREAM_RETRY_AFTER));
        }
        *n += 1;
        Ok(Some(StreamHeld {
            streams: Arc::clone(self),
            client: client.0,
        }))
    }

    /// The streams `client` holds.
    pub fn held_by(&self, client: Client) -> usize {
        self.lock().get(&client.0).copied().unwrap_or(0)
    }
}

/// How often the limiters forget idle addresses.
pub const FORGET_EVERY: Duration = Duration::from_secs(60);

/// Checks the request's rate when its route is limited (a route layer:
/// the matched route is known).
pub async fn limit(State(rates): State<Arc<Rates>>, request: Request, next: Next) -> Response {
    let client = request.extensions().get::<Client>().copied();
    let kind = request.extensions().get::<MatchedPath>().and_then(|path| {
        let path = path.as_str();
        if path.starts_with("/api/") {
            kind_of(request.method(), path)
        } else {
            kind_of(request.method(), &format!("/api{path}"))
        }
    });
    if let (Some(client), Some(kind)) = (client, kind) {
        if let Err(refused) = rates.check(kind, client) {
            return refused.into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limited_routes_are_sorted_by_kind() {
        assert_eq!(kind_of(&Method::POST, "/api/matches"), Some(Kind::Making));
        assert_eq!(
            kind_of(&Method::GET, "/api/chutes/boards/{board}/analysis"),
            Some(Kind::Asking)
        );
        assert_eq!(kind_of(&Method::GET, "/api/matches/{id}"), None);
        assert_eq!(kind_of(&Method::POST, "/api/matches/{id}/moves"), None);
    }

    #[test]
    fn a_burst_passes_then_the_next_waits_and_others_are_not_held() {
        let rates = Rates::new(3);
        let a = Client("127.0.0.2".parse().unwrap());
        let b = Client("127.0.0.3".parse().unwrap());
        for _ in 0..3 {
            rates.check(Kind::Making, a).unwrap();
        }
        let refused = rates.check(Kind::Making, a).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.code, "rate_limited");
        // 3 a minute: one more every 20 s.
        let wait = refused.retry_after.unwrap();
        assert!((1..=20).contains(&wait), "{wait}");
        assert!(
            refused.message.contains("at most 3 a minute"),
            "{}",
            refused.message
        );
        rates.check(Kind::Asking, a).unwrap();
        rates.check(Kind::Making, b).unwrap();
    }

    #[test]
    fn no_limit_when_the_rate_is_zero() {
        let rates = Rates::new(0);
        let a = Client("127.0.0.2".parse().unwrap());
        for _ in 0..1000 {
            rates.check(Kind::Making, a).unwrap();
        }
    }
}
