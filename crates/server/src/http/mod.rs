//! HTTP itself: errors as answers, the limits and checks every request
//! passes (connections, timeouts, origin, host, security headers), and what
//! an operator runs the server with (health and readiness, draining on
//! stop, the request log, Prometheus metrics).
//!
//! Terms:
//! - **error** ([`error`]): every refusal as `{"error": {"code", "message"}}`
//!   with the status its code calls for.
//! - **checks** ([`limits`], [`listen`], [`origin`], [`host`],
//!   [`headers`]): body size and time, connections, where a request that
//!   changes something comes from, which host it names, and the security
//!   headers on every answer.
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
//! - **fair share** ([`client`], [`fair`]): who a request comes from (the
//!   peer, or `X-Forwarded-For` from a trusted proxy) and the rates per
//!   client address on the routes that make something or ask for long
//!   work (`429` with `Retry-After`).
//! - **compression** ([`compress`]): gzip for the answers marked as never
//!   holding a secret, when the asker accepts it.
//! - **metrics** ([`metrics`]): counters, gauges and histograms in
//!   Prometheus' text format, served on their own address
//!   (`--metrics-addr`).

pub mod client;
pub mod compress;
pub mod error;
pub mod fair;
pub mod headers;
pub mod health;
pub mod host;
pub mod limits;
pub mod listen;
pub mod log;
pub mod log_writer;
pub mod metrics;
pub mod origin;
pub mod svg;
