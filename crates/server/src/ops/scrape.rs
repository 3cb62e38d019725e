//! `GET /metrics`: every metric of the server as OpenMetrics text, the
//! counters ([`crate::http::metrics::Metrics`]) and what is read at scrape
//! (see [`crate::http::metrics`]'s terms).

use crate::http::metrics::{CONTENT_TYPE, StoreLabels};
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::registry::Registry;

/// The metrics address's routes: `GET /metrics`, and the health checks
/// ([`super::health`]) so that a prober may use this address too.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/metrics", get(metrics))
        .merge(super::probes::routes())
}

async fn metrics(State(state): State<AppState>) -> Response {
    // Within the readiness check's time: a scrape never hangs on the store.
    let unfinished = tokio::time::timeout(
        crate::http::health::READY_WITHIN,
        state.hub.db().unfinished(),
    )
    .await
    .ok()
    .and_then(Result::ok);
    let mut answer = render_with(&state, unfinished).into_response();
    let headers = answer.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    answer
}

/// Every metric of `state`'s server, as OpenMetrics text, but the store's
/// count of unfinished matches ([`render_with`]).
pub fn render(state: &AppState) -> String {
    render_with(state, None)
}

/// Every metric of `state`'s server, with the store's count of
/// `unfinished` matches when it answered.
pub fn render_with(state: &AppState, unfinished: Option<u64>) -> String {
    let m = state.hub.metrics();
    let mut r = Registry::default();
    let build = Family::<StoreLabels, Gauge>::default();
    build
        .get_or_create(&[("version", env!("CARGO_PKG_VERSION"))])
        .set(1);
    r.register("parlor_build_info", "The running build: its version", build);
    r.register(
        "parlor_http_requests",
        "Requests answered, by method, route template and status",
        m.requests.clone(),
    );
    r.register(
        "parlor_http_request_duration_seconds",
        "Time to answer a request (to its headers, for a live stream), by method and route template",
        m.latency.clone(),
    );
    r.register(
        "parlor_moves_stored",
        "Moves stored, by game (persons' and bots')",
        m.moves.clone(),
    );
    r.register(
        "parlor_store_duration_seconds",
        "Time the store took to answer, by operation",
        m.store.clone(),
    );
    r.register(
        "parlor_store_errors",
        "Store operations that failed or timed out, by operation",
        m.store_errors.clone(),
    );
    r.register(
        "parlor_panics",
        "Panics caught while answering a request",
        m.panics.clone(),
    );
    r.register(
        "parlor_http_refusals",
        "Requests refused for now (429, 503, 507), by the refusal's code",
        m.refusals.clone(),
    );
    let tally = &crate::http::listen::TALLY;
    let load = |n: &std::sync::atomic::AtomicUsize| n.load(std::sync::atomic::Ordering::Relaxed);
    r.register(
        "parlor_connections_open",
        "Connections open to the app",
        ConstGauge::new(i64::try_from(load(&tally.open)).unwrap_or(i64::MAX)),
    );
    r.register(
        "parlor_http_requests_in_flight",
        "Requests being answered (until the answer is sent whole; live streams included)",
        ConstGauge::new(i64::try_from(load(&tally.in_flight)).unwrap_or(i64::MAX)),
    );
    r.register(
        "parlor_connections_refused",
        "Connections refused over the limit of all, or of their address (503 busy)",
        ConstCounter::new(u64::try_from(load(&tally.refused)).unwrap_or(u64::MAX)),
    );
    if let Some(bytes) = state.hub.db().log_bytes() {
        r.register(
            "parlor_store_log_bytes",
            "The size of SQLite's write-ahead log file",
            ConstGauge::new(i64::try_from(bytes).unwrap_or(i64::MAX)),
        );
    }
    if let Some(n) = unfinished {
        r.register(
            "parlor_matches_unfinished",
            "Unfinished matches in the store (every server's)",
            ConstGauge::new(i64::try_from(n).unwrap_or(i64::MAX)),
        );
    }
    let gauge = |n: usize| ConstGauge::new(i64::try_from(n).unwrap_or(i64::MAX));
    let hub = &state.hub;
    r.register(
        "parlor_followers",
        "Live event streams open (pages following a match)",
        gauge(hub.followers()),
    );
    r.register(
        "parlor_matches_in_memory",
        "Matches held in memory (the store holds them all)",
        gauge(hub.live_count()),
    );
    r.register(
        "parlor_bots_thinking",
        "Bots working out a move now",
        gauge(hub.bots_thinking()),
    );
    let tally = state.long_work.tally();
    let count = |n: u64| ConstGauge::new(i64::try_from(n).unwrap_or(i64::MAX));
    r.register(
        "parlor_long_work_waiting",
        "Long answers (hints, bot moves for a page, analyses) waiting for a slot",
        count(tally.waiting),
    );
    r.register(
        "parlor_long_work_running",
        "Long answers being worked out",
        count(tally.running),
    );
    for (name, help, value) in [
        (
            "parlor_long_work_started",
            "Long answers started",
            tally.started,
        ),
        (
            "parlor_long_work_finished",
            "Long answers finished",
            tally.finished,
        ),
        (
            "parlor_long_work_timed_out",
            "Long answers stopped by their time limit",
            tally.timed_out,
        ),
        (
            "parlor_long_work_withdrawn",
            "Long answers stopped because their client went away",
            tally.withdrawn,
        ),
        (
            "parlor_long_work_refused",
            "Long answers refused because their line was full",
            tally.refused,
        ),
    ] {
        r.register(name, help, ConstCounter::new(value));
    }
    r.register(
        "parlor_log_lines_dropped",
        "Log lines dropped because the log's reader was not keeping up",
        ConstCounter::new(crate::http::log::dropped_lines()),
    );
    r.register(
        "parlor_draining",
        "1 once the server was told to stop",
        gauge(usize::from(state.health.is_draining())),
    );
    register_process(&mut r);
    let mut text = String::new();
    // Writing to a String does not fail.
    let _ = prometheus_client::encoding::text::encode(&mut text, &r);
    text
}

/// The process's memory and descriptors, where the platform says (Linux).
fn register_process(r: &mut Registry) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = |field: &str| -> Option<i64> {
        let line = status.lines().find(|l| l.starts_with(field))?;
        let n: i64 = line[field.len()..]
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(n * 1024)
    };
    if let Some(rss) = kib("VmRSS:") {
        r.register(
            "process_resident_memory_bytes",
            "Resident memory size in bytes",
            ConstGauge::new(rss),
        );
    }
    if let Some(size) = kib("VmSize:") {
        r.register(
            "process_virtual_memory_bytes",
            "Virtual memory size in bytes",
            ConstGauge::new(size),
        );
    }
    if let Some((cpu, start)) = cpu_and_start() {
        r.register(
            "process_cpu_seconds",
            "User and system CPU time spent in seconds",
            ConstCounter::new(cpu),
        );
        r.register(
            "process_start_time_seconds",
            "Start time of the process since the Unix epoch in seconds",
            ConstGauge::new(start),
        );
    }
    if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
        let open = i64::try_from(fds.count()).unwrap_or(i64::MAX);
        r.register(
            "process_open_fds",
            "Open file descriptors",
            ConstGauge::new(open),
        );
    }
    if let Some(max) = crate::http::listen::open_file_limit() {
        r.register(
            "process_max_fds",
            "The most file descriptors the process may open",
            ConstGauge::new(i64::try_from(max).unwrap_or(i64::MAX)),
        );
    }
}

/// Linux's clock ticks a second for `/proc` times (`USER_HZ`: 100 on
/// every Linux architecture).
const TICKS: u64 = 100;

/// The process's CPU time (user and system, seconds) and its start time
/// (seconds since 1970), from `/proc/self/stat` and `/proc/stat`.
fn cpu_and_start() -> Option<(f64, i64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command's name in parentheses: state is field 3, utime 14,
    // stime 15, starttime 22.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    let cpu = (field(14)? + field(15)?) as f64 / TICKS as f64;
    let boot: i64 = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    let start = boot + i64::try_from(field(22)? / TICKS).ok()?;
    Some((cpu, start))
}
