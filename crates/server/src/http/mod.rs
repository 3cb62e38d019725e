//! What an operator runs the server with: health and readiness checks,
//! draining on stop, the request log, and Prometheus metrics.
//!
//! Terms:
//! - **health** ([`health`]): `GET /healthz`, the process answers;
//!   `GET /readyz`, it should be sent traffic (its store answers and it is
//!   not draining).
//! - **draining** ([`health::Draining`]): the server was told to stop; it
//!   says it is not ready, refuses new moves and streams with `503` and
//!   `Retry-After`, ends the live streams with a hint to reconnect, and
//!   finishes what it is answering.
//! - **request log** ([`log`]): one line per request — method, route
//!   template, status, duration, request id — through `tracing`; never a
//!   path, a query or a header, so never a token or an invite.
//! - **metrics** ([`metrics`]): counters, gauges and histograms in
//!   Prometheus' text format, served on their own address
//!   (`--metrics-addr`).

pub mod health;
pub mod log;
pub mod metrics;
