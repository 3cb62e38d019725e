//! Fair share: rates per client address on every API route, so that no
//! one client uses up what everyone shares.
//!
//! Terms:
//! - **route table** ([`ROUTES`]): every API route by its real path
//!   (`/api/baffle/matches/{id}/hint`, as the router matches it) with its
//!   kind, decided here and nowhere else; a route the table misses is
//!   counted as asking, and the router's test fails on it.
//! - **everyday** ([`Kind::Everyday`]): a cheap read or a move, allowed
//!   [`EVERYDAY_TIMES`] the rate.
//! - **making** ([`Kind::Making`]): a request that leaves something behind
//!   — a match, a design, an uploaded or designed board, a saved grid.
//! - **asking** ([`Kind::Asking`]): a request for long work — an analysis,
//!   a shortest game, a plot, a solve, a hint, a bot's move for a player.
//! - **rate** ([`crate::config::Config::rate_limit`]): each client address may
//!   make that many things a minute, ask that many questions a minute, and
//!   send [`EVERYDAY_TIMES`] as many everyday requests, in bursts of as many; beyond it the request is answered `429
//!   rate_limited` with `Retry-After`, the seconds until one more is
//!   allowed. The limiter is `governor`'s (GCRA, one cell of state per
//!   address); addresses not seen for a while are forgotten.
//! - **owed** ([`Rates::charge`]): the moves of a repeat (one request
//!   that plays a game on) count as that many everyday requests; what is
//!   beyond the address's burst is owed, and its next everyday requests
//!   are refused (`429` with `Retry-After`) until it is paid off, so a
//!   repeat now and then cannot play more than the everyday rate.
//! - **streams** ([`Streams`], [`crate::config::Config::streams_per_client`]): the
//!   live event streams (watching a match) one client address holds at
//!   once, and all addresses together (three quarters of
//!   [`crate::config::Config::max_connections`], so that streams, which are never
//!   closed to make room, cannot take every connection from the moves);
//!   one more is `503 too_many_streams` with `Retry-After`.
//! - **client**: see [`crate::http::client`]. A request with no client (in
//!   process) is not counted.

use crate::http::client::Client;
use crate::http::error::ApiError;
use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tabletop::Code;

tokio::task_local! {
    /// The client address whose request is being answered, while fair
    /// share is on: the long-work line counts its work against it (one
    /// asker holds at most half its slots).
    pub static ASKER: std::net::IpAddr;
}

/// What a request costs, for the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A cheap read or a move: a view, the lobby, a list, a move, a seat
    /// taken or named. Allowed [`EVERYDAY_TIMES`] the rate, so that a
    /// person never meets it but one address cannot flood the store.
    Everyday,
    /// It makes something that is kept (see the module's terms).
    Making,
    /// It asks for long work.
    Asking,
}

/// How many times [`crate::config::Config::rate_limit`] an address may send
/// everyday requests a minute.
pub const EVERYDAY_TIMES: u32 = 100;

/// Every API route by its real path, as `(method, template, kind)`: the
/// one place a route's cost is decided. A route missing here is counted
/// as [`Kind::Asking`], the strictest (and the router's test fails on
/// it). `HEAD` counts as `GET`.
pub const ROUTES: &[(&str, &str, Kind)] = &[
    // Matches of every game.
    ("POST", "/api/matches", Kind::Making),
    ("GET", "/api/matches/{id}", Kind::Everyday),
    ("GET", "/api/matches/{id}/setup", Kind::Everyday),
    ("POST", "/api/matches/{id}/moves", Kind::Everyday),
    ("POST", "/api/matches/{id}/join", Kind::Everyday),
    (
        "POST",
        "/api/matches/{id}/seats/{seat}/invite",
        Kind::Everyday,
    ),
    ("POST", "/api/matches/{id}/rematch", Kind::Making),
    ("POST", "/api/matches/{id}/name", Kind::Everyday),
    ("GET", "/api/matches/{id}/events", Kind::Everyday),
    ("GET", "/api/matches/{id}/record", Kind::Everyday),
    ("GET", "/api/matches/{id}/replay", Kind::Everyday),
    ("GET", "/api/matches/{id}/svg", Kind::Everyday),
    ("GET", "/api/matches/{id}/chances.svg", Kind::Asking),
    ("GET", "/api/matches/{id}/chances", Kind::Asking),
    ("GET", "/api/lobby", Kind::Everyday),
    ("GET", "/api/lobby/events", Kind::Everyday),
    ("GET", "/api/games", Kind::Everyday),
    ("POST", "/api/qr", Kind::Everyday),
    // Baffle.
    ("GET", "/api/baffle/preview.svg", Kind::Everyday),
    ("POST", "/api/baffle/solve", Kind::Asking),
    ("POST", "/api/baffle/matches/{id}/hint", Kind::Asking),
    ("POST", "/api/baffle/matches/{id}/bot", Kind::Asking),
    ("GET", "/api/baffle/matches/{id}/layouts.svg", Kind::Asking),
    ("GET", "/api/baffle/matches/{id}/box", Kind::Everyday),
    // Chutes & Ladders boards.
    ("GET", "/api/chutes/boards", Kind::Everyday),
    ("POST", "/api/chutes/boards", Kind::Making),
    ("GET", "/api/chutes/boards/{board}", Kind::Everyday),
    ("GET", "/api/chutes/boards/{board}/svg", Kind::Asking),
    ("GET", "/api/chutes/boards/{board}/analysis", Kind::Asking),
    ("GET", "/api/chutes/boards/{board}/shortest", Kind::Asking),
    ("GET", "/api/chutes/boards/{board}/min-throws", Kind::Asking),
    (
        "GET",
        "/api/chutes/boards/{board}/plots/{kind}",
        Kind::Asking,
    ),
    ("POST", "/api/chutes/design", Kind::Asking),
    // Tycoon designs and grids.
    ("POST", "/api/tycoon/designs", Kind::Making),
    ("GET", "/api/tycoon/designs/{id}", Kind::Everyday),
    ("DELETE", "/api/tycoon/designs/{id}", Kind::Everyday),
    ("POST", "/api/tycoon/designs/{id}/edits", Kind::Everyday),
    ("GET", "/api/tycoon/designs/{id}/file", Kind::Everyday),
    ("GET", "/api/tycoon/designs/{id}/svg", Kind::Everyday),
    ("POST", "/api/tycoon/designs/{id}/save", Kind::Making),
    ("POST", "/api/tycoon/designs/{id}/balance", Kind::Asking),
    ("GET", "/api/tycoon/grids", Kind::Everyday),
    ("GET", "/api/tycoon/grids/{name}", Kind::Everyday),
    ("DELETE", "/api/tycoon/grids/{name}", Kind::Everyday),
    ("GET", "/api/tycoon/cards", Kind::Everyday),
    ("GET", "/api/tycoon/sample.svg", Kind::Everyday),
    // Classrooms: opening one, and a student's game, make something kept;
    // the figure is drawn.
    ("POST", "/api/classrooms", Kind::Making),
    ("GET", "/api/classrooms/{id}", Kind::Everyday),
    ("GET", "/api/classrooms/{id}/events", Kind::Everyday),
    ("POST", "/api/classrooms/{id}/students", Kind::Everyday),
    ("POST", "/api/classrooms/{id}/games", Kind::Making),
    ("POST", "/api/classrooms/{id}/roll", Kind::Everyday),
    ("POST", "/api/classrooms/{id}/setup", Kind::Asking),
    ("POST", "/api/classrooms/{id}/reset", Kind::Everyday),
    ("POST", "/api/classrooms/{id}/together", Kind::Making),
    ("GET", "/api/classrooms/{id}/games.csv", Kind::Everyday),
    ("GET", "/api/classrooms/{id}/figure.png", Kind::Asking),
    ("GET", "/api/classrooms/{id}/board.svg", Kind::Asking),
];

/// The kind of the API route `template` (its real path, `/api/…`) taken
/// with `method`, if [`ROUTES`] lists it.
pub fn listed_kind(method: &Method, template: &str) -> Option<Kind> {
    let method = if method == Method::HEAD {
        "GET"
    } else {
        method.as_str()
    };
    ROUTES
        .iter()
        .find(|&&(m, t, _)| m == method && t == template)
        .map(|&(_, _, kind)| kind)
}

/// The kind a request on API route `template` with `method` is counted
/// as: its [`ROUTES`] entry, or [`Kind::Asking`] for a route not listed.
pub fn kind_of(method: &Method, template: &str) -> Kind {
    listed_kind(method, template).unwrap_or(Kind::Asking)
}

/// The rate limiters, one per [`Kind`], keyed by client address.
pub struct Rates {
    per_minute: u32,
    everyday: Option<DefaultKeyedRateLimiter<IpAddr>>,
    making: Option<DefaultKeyedRateLimiter<IpAddr>>,
    asking: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// Everyday requests served beyond an address's burst (the moves of a
    /// long repeat), still owed: its next everyday requests pay them off
    /// first, and are refused while any is owed.
    owed: Mutex<HashMap<IpAddr, u64>>,
    clock: DefaultClock,
}

/// Takes up to `want` cells of `key` from `limiter`, as many as there is
/// room for now (at most `burst` at once); returns how many it took.
fn take_up_to(
    limiter: &DefaultKeyedRateLimiter<IpAddr>,
    key: &IpAddr,
    want: u64,
    burst: u32,
) -> u64 {
    let mut taken = 0u64;
    let mut n = u32::try_from(want).unwrap_or(u32::MAX).min(burst);
    while taken < want {
        let now = u32::try_from(want - taken).unwrap_or(u32::MAX).min(n);
        let Some(cells) = NonZeroU32::new(now) else {
            break;
        };
        if matches!(limiter.check_key_n(key, cells), Ok(Ok(()))) {
            taken += u64::from(now);
        } else {
            n /= 2;
        }
    }
    taken
}

impl Rates {
    /// Limiters allowing `per_minute` making and asking a minute per
    /// address, and [`EVERYDAY_TIMES`] as many everyday requests, in bursts
    /// of as many; none when `per_minute` is 0.
    pub fn new(per_minute: u32) -> Self {
        let limiter = |n: u32| NonZeroU32::new(n).map(|n| RateLimiter::keyed(Quota::per_minute(n)));
        Self {
            per_minute,
            everyday: limiter(per_minute.saturating_mul(EVERYDAY_TIMES)),
            making: limiter(per_minute),
            asking: limiter(per_minute),
            owed: Mutex::default(),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one request of `kind` from `client`.
    ///
    /// # Errors
    /// `429 rate_limited` with the seconds until the next is allowed.
    pub fn check(&self, kind: Kind, client: Client) -> Result<(), ApiError> {
        let limiter = match kind {
            Kind::Everyday => &self.everyday,
            Kind::Making => &self.making,
            Kind::Asking => &self.asking,
        };
        let Some(limiter) = limiter else {
            return Ok(());
        };
        if kind == Kind::Everyday {
            self.pay_off(limiter, client)?;
        }
        match limiter.check_key(&client.0) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let (what, most) = match kind {
                    Kind::Everyday => (
                        "sent too many requests",
                        self.per_minute.saturating_mul(EVERYDAY_TIMES),
                    ),
                    Kind::Making => (
                        "made too many games, designs, boards or saves",
                        self.per_minute,
                    ),
                    Kind::Asking => (
                        "asked for too many analyses, pictures, hints or solves",
                        self.per_minute,
                    ),
                };
                Err(ApiError::coded(Code::RateLimited,
                    format!(
                        "your address has {what} in a short time (at most {most} a minute); try again in {} s",
                        seconds.max(1)
                    ),
                )
                .with_retry_after(seconds))
            }
        }
    }

    /// The everyday burst: [`EVERYDAY_TIMES`] the rate.
    fn everyday_burst(&self) -> u32 {
        self.per_minute.saturating_mul(EVERYDAY_TIMES)
    }

    /// Pays what `client` owes ([`Rates::charge`]) from its everyday
    /// limiter, as far as there is room.
    ///
    /// # Errors
    /// `429 rate_limited` while any is still owed, with the seconds until
    /// it is paid off.
    fn pay_off(
        &self,
        limiter: &DefaultKeyedRateLimiter<IpAddr>,
        client: Client,
    ) -> Result<(), ApiError> {
        let mut owed = self.owed.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(debt) = owed.get_mut(&client.0) else {
            return Ok(());
        };
        *debt -= take_up_to(limiter, &client.0, *debt, self.everyday_burst());
        if *debt == 0 {
            owed.remove(&client.0);
            return Ok(());
        }
        let per_minute = u64::from(self.everyday_burst().max(1));
        let seconds = (*debt * 60).div_ceil(per_minute).max(1);
        Err(ApiError::coded(
            Code::RateLimited,
            format!(
                "your address has played {debt} more moves than its share in a short time \
                 (at most {per_minute} requests and moves a minute); try again in {seconds} s"
            ),
        )
        .with_retry_after(seconds))
    }

    /// Counts `n` more requests of `kind` from `client`, already served
    /// (the moves of a repeat): its next requests wait for them. What does
    /// not fit in its everyday limiter now is owed, and paid off by its
    /// next everyday requests, which are refused until it is; other kinds
    /// count at most a whole burst.
    pub fn charge(&self, kind: Kind, client: Client, n: usize) {
        if kind == Kind::Everyday {
            let Some(limiter) = &self.everyday else {
                return;
            };
            let want = u64::try_from(n).unwrap_or(u64::MAX);
            let left = want - take_up_to(limiter, &client.0, want, self.everyday_burst());
            if left > 0 {
                *self
                    .owed
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .entry(client.0)
                    .or_default() += left;
            }
            return;
        }
        let limiter = match kind {
            Kind::Everyday => &self.everyday,
            Kind::Making => &self.making,
            Kind::Asking => &self.asking,
        };
        let Some(limiter) = limiter else {
            return;
        };
        let burst = match kind {
            Kind::Everyday => self.per_minute.saturating_mul(EVERYDAY_TIMES),
            Kind::Making | Kind::Asking => self.per_minute,
        };
        let n = u32::try_from(n).unwrap_or(u32::MAX).min(burst);
        if let Some(n) = NonZeroU32::new(n) {
            // Taken as far as there is room; beyond it the cell is spent.
            if !matches!(limiter.check_key_n(&client.0, n), Ok(Ok(()))) {
                while limiter.check_key(&client.0).is_ok() {}
            }
        }
    }

    /// Forgets addresses whose limits are back to full (called now and
    /// then, so that the table does not grow with every address seen).
    pub fn forget_idle(&self) {
        for limiter in [&self.everyday, &self.making, &self.asking]
            .into_iter()
            .flatten()
        {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        // What an address owes is paid off by its own requests; one that
        // has not come back for this long has had the time to pay it.
        let rate = u64::from(self.everyday_burst().max(1)) / 60 + 1;
        let forgotten = rate.saturating_mul(FORGET_EVERY.as_secs().max(1));
        let mut owed = self.owed.lock().unwrap_or_else(PoisonError::into_inner);
        owed.retain(|_, debt| {
            *debt = debt.saturating_sub(forgotten);
            *debt > 0
        });
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
            return Err(ApiError::coded(Code::TooManyStreams,
                format!(
                    "the server is streaming {all} games live, its most (it keeps the other connections for moves); try again in a moment"
                ),
            )
            .with_retry_after(STREAM_RETRY_AFTER));
        }
        let n = held.entry(client.0).or_insert(0);
        if self.most > 0 && *n >= self.most {
            return Err(ApiError::coded(Code::TooManyStreams,
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

/// Checks the request's rate by its route's kind (a route layer on the
/// API: the matched route, its real path, is known).
pub async fn limit(State(rates): State<Arc<Rates>>, request: Request, next: Next) -> Response {
    let client = request.extensions().get::<Client>().copied();
    let kind = request.extensions().get::<MatchedPath>().map(|path| {
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
    match client {
        // Long work counts against its asker (the work module's terms).
        Some(client) if rates.per_minute > 0 => ASKER.scope(client.0, next.run(request)).await,
        _ => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limited_routes_are_sorted_by_kind() {
        assert_eq!(kind_of(&Method::POST, "/api/matches"), Kind::Making);
        assert_eq!(
            kind_of(&Method::GET, "/api/chutes/boards/{board}/analysis"),
            Kind::Asking
        );
        assert_eq!(
            kind_of(&Method::POST, "/api/baffle/matches/{id}/hint"),
            Kind::Asking
        );
        assert_eq!(kind_of(&Method::HEAD, "/api/matches/{id}"), Kind::Everyday);
        assert_eq!(
            kind_of(&Method::POST, "/api/matches/{id}/moves"),
            Kind::Everyday
        );
        // A route nobody listed is counted as the strictest.
        assert_eq!(listed_kind(&Method::PUT, "/api/matches"), None);
        assert_eq!(kind_of(&Method::PUT, "/api/matches"), Kind::Asking);
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
        assert_eq!(refused.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
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
    fn a_charge_spends_the_rate_as_that_many_requests() {
        let rates = Rates::new(1);
        let a = Client("127.0.0.2".parse().unwrap());
        rates.check(Kind::Everyday, a).unwrap();
        rates.charge(Kind::Everyday, a, 20_000);
        let refused = rates.check(Kind::Everyday, a).unwrap_err();
        assert_eq!(refused.code, "rate_limited");
        // Others are not charged.
        rates
            .check(Kind::Everyday, Client("127.0.0.3".parse().unwrap()))
            .unwrap();
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
