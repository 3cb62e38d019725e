//! The operator's side of the server: what a load balancer and a
//! Prometheus scraper ask (`/healthz`, `/readyz`, `/metrics`), and the
//! layer that logs and counts every request. These read the whole server's
//! state ([`crate::state::AppState`]); the parts they read (draining, the
//! counters, the request log's words) are [`crate::http`]'s.
//!
//! Terms:
//! - **probes** ([`probes`]): health, readiness and the refusal of new
//!   work while draining ([`crate::http::health`] says what each means).
//! - **scrape** ([`scrape`]): the metrics as OpenMetrics text
//!   ([`crate::http::metrics`] says what is counted).
//! - **observe** ([`observe`]): the outermost layer: times the request,
//!   catches a panic, writes the request line ([`crate::http::log`]).

pub mod observe;
pub mod probes;
pub mod scrape;
