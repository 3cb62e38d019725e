//! Metrics in Prometheus' text format (OpenMetrics), for `GET /metrics` on
//! the metrics address (`--metrics-addr`; off by default). That address
//! checks `Host` as the app's does ([`crate::metrics_router_for`],
//! [`super::host`]): on a loopback address only loopback names (and the
//! `--public-host` names) get in, so a web page that points its own name
//! at it reads nothing; probes pass.
//!
//! Terms:
//! - **counted** ([`Metrics`]): what is counted as it happens — requests by
//!   method, route template and status, and their latency; moves stored by
//!   game; the store's answer times and failures by operation; panics
//!   caught. Labels are route templates and fixed words (methods from a
//!   closed set, `other` for any made-up one), never a match id, a token or
//!   anything a client typed.
//! - **read at scrape** ([`render`]): what is read when `/metrics` is asked
//!   for — live followers (event streams open), matches in memory, bots
//!   thinking, long work waiting, running and refused, log lines dropped,
//!   readiness, and the
//!   process's memory and open descriptors (Linux's `/proc/self`).
//! - **route template**: the route as the router declares it
//!   (`/api/matches/:id/moves`), or `unmatched` for a path no route
//!   takes.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use std::time::Duration;

/// The content type of the answer: OpenMetrics text, which Prometheus
/// reads.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The latency buckets, in seconds: ½ ms to 10 s.
const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The store's buckets, in seconds: 100 µs to 5 s.
const STORE_BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

pub(crate) type Labels<const N: usize> = [(&'static str, String); N];
pub(crate) type StoreLabels = [(&'static str, &'static str); 1];
pub(crate) type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

fn store_histogram() -> Histogram {
    Histogram::new(STORE_BUCKETS)
}

/// What is counted as it happens (see the module's terms). Cheap to update
/// from any thread.
#[derive(Debug)]
pub struct Metrics {
    pub(crate) requests: Family<Labels<3>, Counter>,
    pub(crate) latency: Histograms<Labels<2>>,
    pub(crate) moves: Family<Labels<1>, Counter>,
    pub(crate) store: Histograms<StoreLabels>,
    pub(crate) store_errors: Family<StoreLabels, Counter>,
    pub(crate) refusals: Family<StoreLabels, Counter>,
    pub(crate) panics: Counter,
}

impl Default for Metrics {
    fn default() -> Self {
        Self {
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            moves: Family::default(),
            store: Family::new_with_constructor(store_histogram),
            store_errors: Family::default(),
            refusals: Family::default(),
            panics: Counter::default(),
        }
    }
}

impl Metrics {
    /// Counts a request answered with `status` after `took`; `method` is
    /// its label ([`crate::http::log::method_label`]: a closed set).
    pub fn request(&self, method: &'static str, route: &str, status: u16, took: Duration) {
        self.requests
            .get_or_create(&[
                ("method", method.to_string()),
                ("route", route.to_string()),
                ("status", status.to_string()),
            ])
            .inc();
        self.latency
            .get_or_create(&[("method", method.to_string()), ("route", route.to_string())])
            .observe(took.as_secs_f64());
    }

    /// Counts a move of `game` stored.
    pub fn move_stored(&self, game: &str) {
        self.moves
            .get_or_create(&[("game", game.to_string())])
            .inc();
    }

    /// Counts one answer of the store to `op` (`append`, `load`, `create`,
    /// `claim`, `ping`), after `took`; a failure is counted apart too.
    pub fn store_answered(&self, op: &'static str, took: Duration, ok: bool) {
        let labels = [("op", op)];
        self.store
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
        if !ok {
            self.store_errors.get_or_create(&labels).inc();
        }
    }

    /// Counts a request refused for `reason`, the API's code of the
    /// refusal (`rate_limited`, `busy`, `draining`, …: a fixed set).
    pub fn refused(&self, reason: &'static str) {
        self.refusals.get_or_create(&[("reason", reason)]).inc();
    }

    /// Counts a panic caught while answering a request.
    pub fn panicked(&self) {
        self.panics.inc();
    }
}
