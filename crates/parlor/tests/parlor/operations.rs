//! `parlor serve` as an operator runs it: health and readiness checks,
//! draining on SIGTERM, configuration by environment variables, Prometheus
//! metrics that move with the traffic, and a log that never holds a secret.
//! Each test runs the real binary.

#![allow(clippy::unwrap_used)] // A missing field fails the test where it is read.

use crate::common;

use common::server::{Events, request};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A `parlor serve` with its standard error kept (its log).
struct Served {
    child: Child,
    addr: String,
    metrics: Option<String>,
    log: Arc<Mutex<String>>,
    /// Its standard error when nobody reads it ([`Served::start_unread`]),
    /// kept open so that the server's writes to it block.
    _unread: Option<std::process::ChildStderr>,
}

impl Served {
    /// Starts `parlor serve ARGS` with the environment variables `env`
    /// (and no `PARLOR_…` or `RUST_LOG` from the test's own environment).
    fn start(args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_reading(args, env, true)
    }

    /// [`Served::start`] with its standard error a pipe that nobody reads
    /// (a stuck log shipper): once the pipe is full, a write to it blocks.
    fn start_unread(args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_reading(args, env, false)
    }

    fn start_reading(args: &[&str], env: &[(&str, &str)], read_log: bool) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_parlor"));
        command.arg("serve").args(args);
        for (name, _) in std::env::vars() {
            if name.starts_with("PARLOR_") || name == "RUST_LOG" {
                command.env_remove(name);
            }
        }
        let mut child = command
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("parlor serve starts");
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().unwrap();
        let unread = if read_log {
            let mut stderr = BufReader::new(stderr);
            let kept = Arc::clone(&log);
            std::thread::spawn(move || {
                let mut line = String::new();
                while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
                    kept.lock().unwrap().push_str(&line);
                    line.clear();
                }
            });
            None
        } else {
            Some(stderr)
        };
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut lines = Vec::new();
        // The URL, the metrics' URL if any, then "Parlor is running".
        for _ in 0..3 {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            let done = line.starts_with("Parlor is running");
            lines.push(line);
            if done {
                break;
            }
        }
        std::thread::spawn(move || {
            let mut sink = String::new();
            let _ = out.read_to_string(&mut sink);
        });
        let url = |prefix: &str, suffix: &str| {
            lines.iter().find_map(|l| {
                l.trim()
                    .strip_prefix(prefix)
                    .and_then(|rest| rest.strip_suffix(suffix))
                    .map(str::to_string)
            })
        };
        let addr = url("http://", "/").unwrap_or_else(|| {
            panic!(
                "no URL in {lines:?}; its log: {}",
                log.lock().unwrap().clone()
            )
        });
        let metrics = url("Metrics: http://", "/metrics");
        Self {
            child,
            addr,
            metrics,
            log,
            _unread: unread,
        }
    }

    /// What it has logged so far.
    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Sends it `kill -NAME`.
    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits for it to exit; its status and how long that took.
    fn exit_within(&mut self, within: Duration) -> (std::process::ExitStatus, Duration) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, started.elapsed());
            }
            assert!(
                started.elapsed() < within,
                "still running {within:?} later; its log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request, raw: the status, the headers (names in lower case) and
/// the body.
fn raw(addr: &str, method: &str, path: &str, body: &str) -> (u16, HashMap<String, String>, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn data_arg(dir: &Path) -> String {
    dir.display().to_string()
}

/// A two-seat Chutes match, both seats here: its id and token.
fn chutes(addr: &str) -> (String, String) {
    let (status, made) = request(
        addr,
        "POST",
        "/api/matches",
        None,
        Some(&json!({"game": "chutes", "seats": ["here", "here"]})),
    )
    .unwrap();
    assert_eq!(status, 201, "{made}");
    (
        made["id"].as_str().unwrap().to_string(),
        made["token"].as_str().unwrap().to_string(),
    )
}

fn roll(addr: &str, id: &str, token: &str, after: u64) -> (u16, Value) {
    request(
        addr,
        "POST",
        &format!("/api/matches/{id}/moves"),
        Some(token),
        Some(&json!({"move": "roll", "after": after})),
    )
    .unwrap()
}

#[test]
fn health_and_readiness_answer_and_sigterm_drains_before_it_exits() {
    let data = tempdir();
    let dir = data_arg(data.path());
    let mut server = Served::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &dir,
            "--drain-delay",
            "1.5",
            "--metrics-addr",
            "127.0.0.1:0",
        ],
        &[],
    );
    let addr = server.addr.clone();
    let metrics = server.metrics.clone().unwrap();
    let (status, headers, body) = raw(&addr, "GET", "/healthz", "");
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ok"}"#));
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["x-request-id"].len(), 16);
    let (status, _, body) = raw(&addr, "GET", "/readyz", "");
    assert_eq!((status, body.as_str()), (200, r#"{"ready":true}"#));

    let (id, token) = chutes(&addr);
    assert_eq!(roll(&addr, &id, &token, 0).0, 200);
    let mut follower = Events::open(&addr, &id);
    assert_eq!(
        follower.next(Duration::from_secs(10)).unwrap()["view"]["moves"],
        1
    );
    // A raw stream too, to read the hint the server ends it with.
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /api/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));

    server.signal("TERM");
    let signalled = Instant::now();
    // Not ready at once, while the listener stays open for the drain delay.
    let mut refused = None;
    while signalled.elapsed() < Duration::from_secs(1) {
        let (status, headers, body) = raw(&addr, "GET", "/readyz", "");
        if status == 503 {
            refused = Some((headers, body));
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (headers, body) = refused.expect("/readyz says 503 within 1 s of SIGTERM");
    let said: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(said["ready"], false);
    assert!(
        said["reason"].as_str().unwrap().starts_with("draining"),
        "{said}"
    );
    assert_eq!(headers["retry-after"], "1");
    // The process still answers, but takes no new move and no new stream.
    let (status, _, _) = raw(&addr, "GET", "/healthz", "");
    assert_eq!(status, 200);
    let (status, headers, body) = raw(
        &addr,
        "POST",
        &format!("/api/matches/{id}/moves"),
        r#"{"move": "roll", "after": 1}"#,
    );
    assert_eq!(status, 503, "{body}");
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(headers["connection"], "close");
    let said: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(said["error"]["code"], "draining");
    let (status, _, _) = raw(&addr, "GET", &format!("/api/matches/{id}/events"), "");
    assert_eq!(status, 503);
    // Both refusals are counted under their routes, by their reason.
    let samples = scrape(&metrics);
    for (route, method) in [
        ("/api/matches/:id/moves", "POST"),
        ("/api/matches/:id/events", "GET"),
    ] {
        let key = format!("parlor_http_requests_total{{method={method},route={route},status=503}}");
        assert_eq!(samples.get(&key), Some(&1.0), "{key}: {samples:?}");
    }
    assert_eq!(
        samples.get("parlor_http_refusals_total{reason=draining}"),
        Some(&2.0),
        "{samples:?}"
    );
    // A view is still answered.
    let (status, view) = request(&addr, "GET", &format!("/api/matches/{id}"), None, None).unwrap();
    assert_eq!((status, view["moves"].as_u64()), (200, Some(1)));
    // The live streams ended, the last word a hint to reconnect soon.
    assert!(follower.next(Duration::from_secs(5)).is_none());
    let mut streamed = String::new();
    let _ = stream.read_to_string(&mut streamed);
    assert!(streamed.contains("\nretry: 500\n"), "{streamed}");
    assert!(streamed.contains("reconnect"), "{streamed}");
    // It exits, cleanly, once the delay is over and nothing is in flight.
    let (status, _) = server.exit_within(Duration::from_secs(15));
    assert!(status.success(), "{status}");
    let waited = signalled.elapsed();
    assert!(
        waited >= Duration::from_millis(1400),
        "exited {waited:?} after SIGTERM, before its 1.5 s drain delay"
    );
    let log = server.log();
    for said in ["draining", "closing the listener", "stopped"] {
        assert!(log.contains(said), "the log says {said:?}: {log}");
    }
    // SQLite's log was copied into the database file and cut at stop.
    let wal = data.path().join("parlor.db-wal");
    let left = std::fs::metadata(&wal).map_or(0, |m| m.len());
    assert_eq!(
        left,
        0,
        "{} holds {left} bytes after a clean stop",
        wal.display()
    );
    // The move refused was never played: the store holds one move.
    let again = Served::start(&["--addr", "127.0.0.1:0", "--data-dir", &dir], &[]);
    let (_, view) = request(
        &again.addr,
        "GET",
        &format!("/api/matches/{id}"),
        None,
        None,
    )
    .unwrap();
    assert_eq!(view["moves"], 1);
}

/// The long options `parlor serve --help` lists, each with the variable
/// it names (`[env: …]`).
fn serve_options() -> Vec<(String, Option<String>)> {
    let help = common::ok(&["serve", "--help"]);
    let mut options = Vec::new();
    let mut current: Option<(String, Option<String>)> = None;
    for line in help.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("--") || trimmed.starts_with("-h, --help") {
            if let Some(done) = current.take() {
                options.push(done);
            }
            let flag = trimmed
                .split(|c: char| c.is_whitespace() || c == ',' || c == '=')
                .find(|w| w.starts_with("--"))
                .unwrap()
                .to_string();
            current = Some((flag, None));
        }
        if let (Some((_, env)), Some(at)) = (current.as_mut(), line.find("[env: ")) {
            let name = line[at + 6..].split([']', '=']).next().unwrap();
            *env = Some(name.trim().to_string());
        }
        if trimmed.starts_with("Examples:") {
            break;
        }
    }
    options.extend(current);
    options
}

#[test]
fn every_serve_option_has_its_variable_and_one_table_lists_them_all() {
    let options = serve_options();
    assert!(options.len() >= 10, "{options:?}");
    let deploy =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md"))
            .unwrap();
    for (flag, env) in &options {
        if flag == "--help" {
            continue;
        }
        let env = env
            .as_deref()
            .unwrap_or_else(|| panic!("{flag} has no environment variable"));
        let expected = if flag == "--database" {
            "PARLOR_DATABASE_URL".to_string()
        } else {
            format!(
                "PARLOR_{}",
                flag.trim_start_matches("--")
                    .replace('-', "_")
                    .to_uppercase()
            )
        };
        assert_eq!(env, expected, "{flag}");
        let row = format!("| `{flag}` | `{env}` |");
        assert!(
            deploy.contains(&row),
            "docs/deploy.md's table has no row starting {row}"
        );
    }
}

#[test]
fn the_server_is_configured_by_environment_variables_alone() {
    let data = tempdir();
    let dir = data_arg(data.path());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let server = Served::start(
        &[],
        &[
            ("PARLOR_ADDR", &addr),
            ("PARLOR_DATA_DIR", &dir),
            ("PARLOR_METRICS_ADDR", "127.0.0.1:0"),
            ("PARLOR_LOG_FORMAT", "json"),
            ("PARLOR_LIVE_MATCHES", "5"),
            ("RUST_LOG", "info"),
        ],
    );
    assert_eq!(server.addr, addr, "it listens where PARLOR_ADDR says");
    assert!(
        data.path().join("parlor.db").exists(),
        "the store is in PARLOR_DATA_DIR"
    );
    let metrics = server.metrics.clone().expect("a metrics address");
    let (status, _, body) = raw(&metrics, "GET", "/metrics", "");
    assert_eq!(status, 200);
    assert!(body.contains("parlor_matches_in_memory"), "{body}");
    let (status, _, _) = raw(&server.addr, "GET", "/healthz", "");
    assert_eq!(status, 200);
    // The log is JSON, one object a line, with the request's fields.
    let deadline = Instant::now() + Duration::from_secs(5);
    let line = loop {
        let log = server.log();
        if let Some(line) = log.lines().find(|l| l.contains("/healthz")) {
            break line.to_string();
        }
        assert!(Instant::now() < deadline, "no request line in {log}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let line: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(line["route"], "/healthz");
    assert_eq!(line["method"], "GET");
    assert_eq!(line["status"], 200);
    assert_eq!(line["level"], "INFO");
    assert!(line["ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{line}");
    // A bad variable is refused with its name.
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["serve", "--data-dir", &dir])
        .env("PARLOR_DRAIN_DELAY", "soon")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--drain-delay") && said.contains("soon"),
        "{said}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir", &dir])
        .env("RUST_LOG", "loud=[")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("RUST_LOG"));
}

/// The samples of a scrape, by metric name and labels (`k=v` joined with
/// `,`, sorted); a histogram's count under its name with `_count`.
fn scrape(addr: &str) -> HashMap<String, f64> {
    let (status, headers, body) = raw(addr, "GET", "/metrics", "");
    assert_eq!(status, 200);
    assert!(
        headers["content-type"].starts_with("application/openmetrics-text"),
        "{headers:?}"
    );
    assert!(body.ends_with("# EOF\n"), "{body}");
    // Every line is a comment (HELP, TYPE, UNIT, EOF) or a sample.
    for line in body.lines() {
        let sample = line
            .rsplit_once(' ')
            .is_some_and(|(name, value)| !name.is_empty() && value.parse::<f64>().is_ok());
        assert!(
            line.starts_with("# ") || sample,
            "not a Prometheus text line: {line:?}"
        );
    }
    let scrape = prometheus_parse::Scrape::parse(body.lines().map(|l| Ok(l.to_string()))).unwrap();
    let mut samples = HashMap::new();
    for sample in scrape.samples {
        let mut labels: Vec<String> = sample
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        labels.sort();
        let key = |name: &str| format!("{name}{{{}}}", labels.join(","));
        match sample.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => {
                samples.insert(key(&sample.metric), v);
            }
            prometheus_parse::Value::Histogram(buckets) => {
                let count = buckets
                    .iter()
                    .find(|b| b.less_than.is_infinite())
                    .map_or(0.0, |b| b.count);
                // Buckets never decrease.
                for pair in buckets.windows(2) {
                    assert!(pair[0].count <= pair[1].count, "{buckets:?}");
                }
                samples.insert(key(&format!("{}_count", sample.metric)), count);
            }
            prometheus_parse::Value::Summary(_) => {}
        }
    }
    samples
}

#[test]
fn metrics_parse_as_prometheus_text_and_move_with_the_traffic() {
    let data = tempdir();
    let dir = data_arg(data.path());
    let server = Served::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &dir,
            "--metrics-addr",
            "127.0.0.1:0",
            "--streams-per-client",
            "1",
        ],
        &[],
    );
    let metrics = server
        .metrics
        .clone()
        .expect("the metrics address is printed");
    // Not on the public address.
    let (status, _, _) = raw(&server.addr, "GET", "/metrics", "");
    assert_eq!(status, 404);
    let before = scrape(&metrics);
    let get = |samples: &HashMap<String, f64>, key: &str| samples.get(key).copied().unwrap_or(0.0);
    let moves_route =
        "parlor_http_requests_total{method=POST,route=/api/matches/:id/moves,status=200}";
    let chutes_moves = "parlor_moves_stored_total{game=chutes}";
    assert_eq!(get(&before, moves_route), 0.0);
    for gauge in [
        "parlor_followers{}",
        "parlor_matches_in_memory{}",
        "parlor_bots_thinking{}",
        "parlor_long_work_waiting{}",
        "parlor_long_work_running{}",
        "parlor_draining{}",
        "process_resident_memory_bytes{}",
        "process_open_fds{}",
        "parlor_connections_open{}",
        "parlor_http_requests_in_flight{}",
        "parlor_matches_unfinished{}",
        "parlor_log_lines_dropped_total{}",
        "parlor_connections_refused_total{}",
        "parlor_store_log_bytes{}",
    ] {
        assert!(before.contains_key(gauge), "{gauge} missing: {before:?}");
    }
    assert_eq!(
        get(
            &before,
            &format!("parlor_build_info{{version={}}}", env!("CARGO_PKG_VERSION"))
        ),
        1.0
    );
    // A fresh process may not have used a clock tick (10 ms) yet: its CPU
    // is read, and after the traffic below it has grown.
    assert!(get(&before, "process_cpu_seconds_total{}") >= 0.0);
    let started = get(&before, "process_start_time_seconds{}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    assert!(started > now - 600.0 && started <= now + 1.0, "{started}");
    assert!(get(&before, "process_resident_memory_bytes{}") > 1e6);

    let (id, token) = chutes(&server.addr);
    let mut follower = Events::open(&server.addr, &id);
    follower.next(Duration::from_secs(10)).unwrap();
    // A second stream from this address is one too many: a refusal,
    // counted by its reason.
    let (status, _, body) = raw(
        &server.addr,
        "GET",
        &format!("/api/matches/{id}/events"),
        "",
    );
    assert_eq!(status, 503, "{body}");
    let mut moves = 0;
    for after in 0..6 {
        let (status, _) = roll(&server.addr, &id, &token, after);
        if status != 200 {
            break;
        }
        moves += 1;
    }
    assert!(moves >= 1);
    // A stale move and a path no route takes.
    assert_eq!(roll(&server.addr, &id, &token, 0).0, 409);
    assert_eq!(raw(&server.addr, "GET", "/api/nothing-here", "").0, 404);
    // Made-up methods, long ones too, are all labelled `other`.
    let long = "FROB".repeat(500);
    for method in ["FROB", long.as_str()] {
        let (status, _, body) = raw(&server.addr, method, "/api/games", "");
        assert_eq!(status, 405, "{body}");
        assert!(!body.contains("FROB"), "{body}");
    }

    let after = scrape(&metrics);
    assert!(get(&after, "process_cpu_seconds_total{}") > 0.0);
    assert_eq!(get(&after, moves_route), f64::from(moves));
    assert_eq!(get(&after, chutes_moves), f64::from(moves));
    assert_eq!(
        get(
            &after,
            "parlor_http_requests_total{method=POST,route=/api/matches/:id/moves,status=409}"
        ),
        1.0
    );
    assert_eq!(
        get(
            &after,
            "parlor_http_requests_total{method=GET,route=unmatched,status=404}"
        ),
        2.0,
        "/metrics on the app's address and /api/nothing-here"
    );
    assert_eq!(
        get(
            &after,
            "parlor_http_request_duration_seconds_count{method=POST,route=/api/matches/:id/moves}"
        ),
        f64::from(moves + 1)
    );
    assert_eq!(
        get(&after, "parlor_store_duration_seconds_count{op=append}"),
        f64::from(moves)
    );
    assert_eq!(get(&after, "parlor_followers{}"), 1.0);
    assert_eq!(
        get(
            &after,
            "parlor_http_refusals_total{reason=too_many_streams}"
        ),
        1.0
    );
    assert_eq!(get(&after, "parlor_matches_unfinished{}"), 1.0);
    // The follower's connection at least; the scrape's own is on the
    // metrics address, not counted.
    assert!(get(&after, "parlor_connections_open{}") >= 1.0);
    assert!(
        get(&after, "parlor_http_requests_in_flight{}") >= 1.0,
        "the live stream"
    );
    assert_eq!(get(&after, "parlor_matches_in_memory{}"), 1.0);
    let made_up: f64 = after
        .iter()
        .filter(|(k, _)| k.starts_with("parlor_http_requests_total{method=other,"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(made_up, 2.0, "{after:?}");
    // No label holds a match's id or a made-up method.
    let (_, _, body) = raw(&metrics, "GET", "/metrics", "");
    assert!(!body.contains(&id), "{body}");
    assert!(!body.contains("FROB"), "{body}");
}

/// `count` GETs of `path` on one kept-alive connection; the statuses.
fn keep_alive_gets(addr: &str, path: &str, count: usize) -> Vec<u16> {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let mut statuses = Vec::with_capacity(count);
    let ask = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    for _ in 0..count {
        writer.write_all(ask.as_bytes()).unwrap();
        let mut line = String::new();
        reader.read_line(&mut line).expect("an answer within 30 s");
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {line:?}"));
        let mut length = 0;
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap();
                }
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        statuses.push(status);
    }
    statuses
}

#[test]
fn a_server_whose_log_nobody_reads_answers_ten_thousand_requests_and_counts_the_lines_dropped() {
    let data = tempdir();
    let dir = data_arg(data.path());
    // One line a request: the pipe (64 KiB) fills after a few hundred,
    // the writer's pending lines (1 MiB) after a few thousand more; the
    // rest are dropped.
    let server = Served::start_unread(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &dir,
            "--metrics-addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
        ],
        &[],
    );
    let metrics = server.metrics.clone().unwrap();
    let started = Instant::now();
    let lanes: Vec<_> = (0..4)
        .map(|lane| {
            let addr = server.addr.clone();
            let path = if lane % 2 == 0 {
                "/healthz"
            } else {
                "/api/games"
            };
            std::thread::spawn(move || keep_alive_gets(&addr, path, 2500))
        })
        .collect();
    let mut answered = 0;
    for lane in lanes {
        let statuses = lane.join().unwrap();
        assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
        answered += statuses.len();
    }
    assert_eq!(answered, 10_000);
    let took = started.elapsed();
    // A new connection is still answered, and the lines that did not fit
    // were dropped and counted.
    let (status, _, _) = raw(&server.addr, "GET", "/readyz", "");
    assert_eq!(status, 200);
    let samples = scrape(&metrics);
    let dropped = samples["parlor_log_lines_dropped_total{}"];
    assert!(dropped > 0.0, "no line dropped: {samples:?}");
    eprintln!(
        "blocked log: {answered} requests answered in {took:?} with standard error unread; \
         {dropped} log lines dropped"
    );
    assert!(dropped < 10_000.0 * 3.0, "{dropped}");
}

/// The 32-hex-digit words of `text` (ids, tokens, invites).
fn hex_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_hexdigit())
        .filter(|w| w.len() == 32)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_log_of_two_played_matches_holds_no_secret() {
    let data = tempdir();
    let dir = data_arg(data.path());
    let server = Served::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &dir,
            "--log-format",
            "json",
        ],
        &[("RUST_LOG", "trace")],
    );
    let addr = server.addr.clone();
    let mut secrets: Vec<String> = Vec::new();
    let mut events_text: Vec<String> = Vec::new();
    let note_played = |answer: &Value, into: &mut Vec<String>| {
        for played in answer["played"].as_array().into_iter().flatten() {
            for event in played["events"].as_array().into_iter().flatten() {
                into.push(event["text"].as_str().unwrap().to_string());
            }
        }
    };

    // Chutes: the host at seat 1, a friend by invite at seat 2, played to
    // the end through the API.
    let (_, made) = request(
        &addr,
        "POST",
        "/api/matches",
        None,
        Some(&json!({"game": "chutes", "seats": ["here", "open"]})),
    )
    .unwrap();
    let id = made["id"].as_str().unwrap().to_string();
    let host = made["token"].as_str().unwrap().to_string();
    let invite = made["invites"][0]["invite"].as_str().unwrap().to_string();
    let mut follower = Events::open(&addr, &id);
    let (status, joined) = request(
        &addr,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        Some(&json!({"seat": 2, "invite": invite})),
    )
    .unwrap();
    assert_eq!(status, 200, "{joined}");
    let guest = joined["token"].as_str().unwrap().to_string();
    let mut moves = 0u64;
    let mut to_move = 1;
    let mut rolls = 0;
    let finished = loop {
        let token = if to_move == 1 { &host } else { &guest };
        let (status, answer) = roll(&addr, &id, token, moves);
        rolls += 1;
        assert_eq!(status, 200, "{answer}");
        note_played(&answer, &mut events_text);
        moves = answer["view"]["moves"].as_u64().unwrap();
        to_move = answer["view"]["to_move"].as_u64().unwrap_or(0);
        if answer["view"]["status"] != "playing" {
            break answer["view"].clone();
        }
        assert!(moves < 5000, "the Chutes match never ended");
    };
    follower.next(Duration::from_secs(5)).unwrap();
    let chutes_seed = finished["seed"]
        .as_u64()
        .expect("a finished match shows its seed");
    secrets.extend([host, guest, invite, chutes_seed.to_string()]);
    let (status, record) = request(
        &addr,
        "GET",
        &format!("/api/matches/{id}/record"),
        None,
        None,
    )
    .unwrap();
    assert_eq!(status, 200, "{record}");

    // Baffle: the maker invites the player, who shoots, guesses, and
    // gives up; the box's mirrors are shown once it is over.
    let (_, made) = request(
        &addr,
        "POST",
        "/api/matches",
        None,
        Some(&json!({"game": "baffle", "setup": {"size": 8, "mirrors": 4}, "seats": ["open"]})),
    )
    .unwrap();
    let id = made["id"].as_str().unwrap().to_string();
    let maker = made["token"].as_str().unwrap().to_string();
    let invite = made["invites"][0]["invite"].as_str().unwrap().to_string();
    let (_, joined) = request(
        &addr,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        Some(&json!({"seat": 1, "invite": invite})),
    )
    .unwrap();
    let player = joined["token"].as_str().unwrap().to_string();
    let mut moves = 0u64;
    for mv in [
        "shoot 1",
        "shoot 5",
        "shoot 9",
        "guess 3 3 /",
        "guess 4 4 \\",
        "quit",
    ] {
        let (status, answer) = request(
            &addr,
            "POST",
            &format!("/api/matches/{id}/moves"),
            Some(&player),
            Some(&json!({"move": mv, "after": moves})),
        )
        .unwrap();
        if status == 200 {
            note_played(&answer, &mut events_text);
            moves += 1;
        }
    }
    let (_, over) = request(&addr, "GET", &format!("/api/matches/{id}"), None, None).unwrap();
    assert_eq!(over["status"], "given_up", "{over}");
    let baffle_seed = over["seed"].as_u64().unwrap();
    secrets.extend([maker, player, invite, baffle_seed.to_string()]);
    // Every mirror, found or missed.
    let found = over["view"]["found"].as_array().unwrap();
    let missed = over["view"]["missed"].as_array().unwrap();
    let mirrors: Vec<&Value> = found.iter().chain(missed).collect();
    assert_eq!(mirrors.len(), 4);
    let mut positions = Vec::new();
    for m in mirrors {
        let (row, col) = (m["row"].as_u64().unwrap(), m["col"].as_u64().unwrap());
        positions.push(format!("<{row},{col}>"));
        positions.push(format!("\"row\":{row},\"col\":{col}"));
        positions.push(format!("\"col\":{col},\"row\":{row}"));
    }
    // A bot's match too (its thinking and its moves are logged as work).
    let (status, _) = request(
        &addr,
        "POST",
        "/api/matches",
        None,
        Some(&json!({"game": "chutes", "seats": ["here", "hard"]})),
    )
    .unwrap();
    assert_eq!(status, 201);
    std::thread::sleep(Duration::from_millis(300));

    let log = server.log();
    let mut request_lines = 0;
    for line in log.lines() {
        let parsed: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("a log line that is not JSON ({e}): {line}"));
        if parsed["target"] == "parlor::request" && parsed["message"] == "request" {
            let route = parsed["route"].as_str().unwrap();
            assert!(route.starts_with('/') || route == "unmatched", "{line}");
            request_lines += 1;
        }
    }
    // One line per request: Chutes' create, follow, join, rolls and record;
    // Baffle's create, join, six moves and view; the bot's match.
    let requests = 3 + rolls + 1 + 2 + 6 + 1 + 1;
    assert_eq!(request_lines, requests, "{log}");
    for secret in &secrets {
        assert!(
            !log.contains(secret.as_str()),
            "the log holds the secret {secret}:\n{log}"
        );
    }
    // No 32-hex-digit word at all: no token, invite, or id (routes are
    // logged as templates).
    assert_eq!(hex_words(&log), Vec::<String>::new(), "{log}");
    for position in &positions {
        assert!(
            !log.contains(position.as_str()),
            "the log holds a mirror, {position}"
        );
    }
    for text in &events_text {
        assert!(
            !log.contains(text.as_str()),
            "the log holds a move's events: {text}"
        );
    }
    assert!(log.contains("/api/matches/:id/moves"), "{log}");
    assert!(log.contains("/api/matches/:id/join"), "{log}");
}

/// A PostgreSQL server of a test's own, to stop and start again: a cluster
/// in a temporary directory on a free port, made with the binaries
/// `scripts/with-postgres.sh` names in `PARLOR_TEST_POSTGRES_BIN` (run as
/// the `postgres` user when the test runs as root, as PostgreSQL asks).
struct OwnPostgres {
    bin: std::path::PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    as_root: bool,
}

impl OwnPostgres {
    fn new() -> Self {
        let bin = std::env::var("PARLOR_TEST_POSTGRES_BIN").unwrap_or_else(|_| {
            panic!(
                "PARLOR_TEST_POSTGRES_BIN is not set: this test stops and starts a PostgreSQL \
                 of its own; run it with `bash scripts/with-postgres.sh cargo test`"
            )
        });
        let dir = tempfile::Builder::new()
            .prefix("parlor-readyz-")
            .tempdir_in("/tmp")
            .unwrap();
        let uid = Command::new("id").arg("-u").output().unwrap();
        let as_root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        if as_root {
            let owned = Command::new("chown")
                .arg("postgres:")
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(owned.success());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let pg = Self {
            bin: bin.into(),
            dir,
            port,
            as_root,
        };
        let data = pg.dir.path().join("data");
        pg.run(
            "initdb",
            &[
                "-D",
                &data.display().to_string(),
                "-U",
                "parlor",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-locale",
            ],
        );
        pg.start();
        pg
    }

    /// Runs one of PostgreSQL's programs; panics with its output if it
    /// fails.
    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = command.args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn pg_ctl(&self, args: &[&str]) {
        let data = self.dir.path().join("data").display().to_string();
        let mut all = vec!["-D", &data];
        all.extend_from_slice(args);
        self.run("pg_ctl", &all);
    }

    fn start(&self) {
        let log = self.dir.path().join("server.log").display().to_string();
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.path().display()
        );
        self.pg_ctl(&["-l", &log, "-w", "-o", &options, "start"]);
    }

    fn stop(&self) {
        self.pg_ctl(&["-m", "fast", "-w", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://parlor@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data").display().to_string();
        let path = self.bin.join("pg_ctl");
        let mut command = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let _ = command
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
    }
}

/// Polls `/readyz` on `addr` until it answers `status`, for at most
/// `within`; the last answer's body.
fn ready_becomes(addr: &str, status: u16, within: Duration) -> Value {
    let started = Instant::now();
    loop {
        let (now, _, body) = raw(addr, "GET", "/readyz", "");
        if now == status {
            return serde_json::from_str(&body).unwrap();
        }
        assert!(
            started.elapsed() < within,
            "/readyz still answers {now} ({body}) {within:?} later"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn readiness_follows_postgresql_going_and_coming_back() {
    let pg = OwnPostgres::new();
    let data = tempdir();
    let dir = data_arg(data.path());
    let server = Served::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &dir,
            "--database",
            &pg.url(),
        ],
        &[],
    );
    let addr = server.addr.clone();
    ready_becomes(&addr, 200, Duration::from_secs(5));
    let (id, token) = chutes(&addr);
    assert_eq!(roll(&addr, &id, &token, 0).0, 200);

    pg.stop();
    let said = ready_becomes(&addr, 503, Duration::from_secs(10));
    assert_eq!(said["ready"], false);
    let reason = said["reason"].as_str().unwrap();
    assert!(reason.contains("store"), "{reason}");
    // The process itself is fine, and says why it is not ready.
    assert_eq!(raw(&addr, "GET", "/healthz", "").0, 200);
    let (status, refused) = roll(&addr, &id, &token, 1);
    assert_eq!(status, 503, "{refused}");
    assert_eq!(refused["error"]["code"], "store_unavailable");

    pg.start();
    ready_becomes(&addr, 200, Duration::from_secs(20));
    assert_eq!(roll(&addr, &id, &token, 1).0, 200);
    let log = server.log();
    assert!(log.contains("not ready"), "{log}");
    assert!(log.contains(" ready"), "{log}");
}

/// Two players playing Chutes matches on a server, one after another,
/// keeping what was acknowledged.
struct Players {
    /// Match id → moves acknowledged.
    ledger: Arc<Mutex<HashMap<String, u64>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Players {
    fn start(addr: &str) -> Self {
        let ledger: Arc<Mutex<HashMap<String, u64>>> = Arc::default();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..2)
            .map(|_| {
                let (addr, ledger, stop) =
                    (addr.to_string(), Arc::clone(&ledger), Arc::clone(&stop));
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                        let (id, token) = chutes(&addr);
                        let mut after = 0;
                        loop {
                            let (status, body) = roll(&addr, &id, &token, after);
                            if status != 200 {
                                break;
                            }
                            after = body["view"]["moves"].as_u64().unwrap();
                            ledger.lock().unwrap().insert(id.clone(), after);
                            if body["view"]["status"] != "playing"
                                || stop.load(std::sync::atomic::Ordering::SeqCst)
                            {
                                break;
                            }
                        }
                    }
                })
            })
            .collect();
        Self {
            ledger,
            stop,
            threads,
        }
    }

    /// Waits until `n` moves in all were acknowledged.
    fn wait_for(&self, n: u64) {
        let started = Instant::now();
        while self.ledger.lock().unwrap().values().sum::<u64>() < n {
            assert!(started.elapsed() < Duration::from_secs(60), "too slow");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn acknowledged(&self) -> HashMap<String, u64> {
        self.ledger.lock().unwrap().clone()
    }

    fn stop(self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        for player in self.threads {
            player.join().unwrap();
        }
    }
}

/// Every match of `acknowledged` holds at least its moves on the server at
/// `addr` (which replays each from its record).
fn holds_every_move(addr: &str, acknowledged: &HashMap<String, u64>) {
    assert!(acknowledged.len() >= 2, "{acknowledged:?}");
    for (id, moves) in acknowledged {
        let (status, view) =
            request(addr, "GET", &format!("/api/matches/{id}"), None, None).unwrap();
        assert_eq!(status, 200, "{id}: {view}");
        assert!(
            view["moves"].as_u64().unwrap() >= *moves,
            "match {id}: {moves} moves acknowledged before the backup, {} restored",
            view["moves"]
        );
    }
}

/// `parlor backup` while players play: the backup holds every move
/// acknowledged before it started, and a server started on it (the
/// documented restore: the backup as `parlor.db` of a data directory)
/// replays each of those matches.
#[test]
fn a_backup_made_during_play_restores_every_acknowledged_move() {
    let data = tempdir();
    let dir = data_arg(data.path());
    let server = Served::start(&["--addr", "127.0.0.1:0", "--data-dir", &dir], &[]);
    let players = Players::start(&server.addr);
    let wait_for_moves = |n| players.wait_for(n);
    wait_for_moves(100);
    let acknowledged = players.acknowledged();
    let restored = tempdir();
    let file = restored.path().join("parlor.db");
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["backup", "--data-dir", &dir, "--to"])
        .arg(&file)
        .env_remove("PARLOR_DATABASE_URL")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("Backed up the SQLite file"), "{said}");
    // Play goes on after the backup; then stop.
    let after_backup = players.acknowledged().values().sum::<u64>();
    wait_for_moves(after_backup + 20);
    players.stop();
    // One self-contained file, nothing half-written beside it.
    let left: Vec<String> = std::fs::read_dir(restored.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["parlor.db"]);
    let restored_dir = data_arg(restored.path());
    let second = Served::start(&["--addr", "127.0.0.1:0", "--data-dir", &restored_dir], &[]);
    eprintln!(
        "backup: {} moves in {} matches acknowledged before the backup; {said}",
        acknowledged.values().sum::<u64>(),
        acknowledged.len()
    );
    holds_every_move(&second.addr, &acknowledged);
    // PostgreSQL's stores are pointed to pg_dump.
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args([
            "backup",
            "--database",
            "postgres://parlor@127.0.0.1:1/parlor",
            "--to",
        ])
        .arg(restored.path().join("pg.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_dump"));
}

/// `parlor serve` run with `env` (and nothing of the test's own
/// `PARLOR_…`), in `cwd`: its exit status and standard error.
fn serve_fails(args: &[&str], env: &[(&str, &str)], cwd: &Path) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parlor"));
    command.arg("serve").args(args).current_dir(cwd);
    for (name, _) in std::env::vars() {
        if name.starts_with("PARLOR_") || name == "RUST_LOG" {
            command.env_remove(name);
        }
    }
    let out = command
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success(), "it started");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("Parlor is running"),
        "it said it runs"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn configuration_mistakes_are_refused_at_start_and_said_plainly() {
    let cwd = tempdir();
    let dir = data_arg(cwd.path());
    let base = ["--addr", "127.0.0.1:0", "--data-dir", dir.as_str()];
    // A word that is no URL is not taken for a SQLite file.
    let said = serve_fails(&base, &[("PARLOR_DATABASE_URL", "notaurl")], cwd.path());
    assert!(
        said.contains("'notaurl'") && said.contains("postgres://USER"),
        "{said}"
    );
    assert!(!cwd.path().join("notaurl").exists());
    let said = serve_fails(
        &base,
        &[("PARLOR_DATABASE_URL", "mysql://db/x")],
        cwd.path(),
    );
    assert!(
        said.contains("'mysql://'") && said.contains("sqlite:PATH"),
        "{said}"
    );
    // A pages folder that is not there.
    let said = serve_fails(&base, &[("PARLOR_WEB_DIR", "/no/such/web")], cwd.path());
    assert!(
        said.contains("/no/such/web: there is no such folder"),
        "{said}"
    );
    // A bad value is named by where it came from: the variable, or the
    // option.
    assert!(
        said.contains("PARLOR_WEB_DIR (the variable for --web-dir)"),
        "{said}"
    );
    let said = serve_fails(&["--database", "notaurl"], &[], cwd.path());
    assert!(
        said.contains("--database") && !said.contains("PARLOR_DATABASE_URL"),
        "{said}"
    );
    let said = serve_fails(&[], &[("PARLOR_ADDR", "bad")], cwd.path());
    assert!(
        said.contains("invalid value 'bad' for PARLOR_ADDR (the variable for --addr)"),
        "{said}"
    );
    let said = serve_fails(
        &["--addr", "bad"],
        &[("PARLOR_ADDR", "also-bad")],
        cwd.path(),
    );
    assert!(said.contains("'--addr <IP:PORT>'"), "{said}");
    // PostgreSQL refusing the connection: the log says so, not only
    // "error connecting to server".
    let said = serve_fails(
        &base,
        &[(
            "PARLOR_DATABASE_URL",
            "postgres://parlor@127.0.0.1:1/parlor",
        )],
        cwd.path(),
    );
    assert!(said.to_lowercase().contains("refused"), "{said}");
    // With a JSON log, a fatal error is a JSON line too.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let said = serve_fails(
        &["--addr", &addr, "--data-dir", &dir, "--log-format", "json"],
        &[],
        cwd.path(),
    );
    let lines: Vec<Value> = said
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l:?}")))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["level"] == "ERROR" && l["error"].as_str().unwrap().contains(&addr)),
        "{said}"
    );
}

#[test]
fn parlor_health_asks_a_server_as_a_containers_healthcheck_does() {
    let data = tempdir();
    let dir = data_arg(data.path());
    let server = Served::start(&["--addr", "127.0.0.1:0", "--data-dir", &dir], &[]);
    let health = |args: &[&str], env: &[(&str, &str)]| {
        let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .arg("health")
            .args(args)
            .env_remove("PARLOR_ADDR")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), said)
    };
    let (ok, said) = health(&["--addr", &server.addr], &[]);
    assert!(ok && said.contains(r#""status":"ok""#), "{said}");
    let (ok, said) = health(&["--ready", "--addr", &server.addr], &[]);
    assert!(ok && said.contains(r#""ready":true"#), "{said}");
    // The image's way: the address the server was given, 0.0.0.0 too.
    let port = server.addr.rsplit_once(':').unwrap().1.to_string();
    let (ok, said) = health(&[], &[("PARLOR_ADDR", &format!("0.0.0.0:{port}"))]);
    assert!(ok, "{said}");
    // Nothing there: a failure that says where it looked.
    drop(server);
    let (ok, said) = health(&[], &[("PARLOR_ADDR", &format!("0.0.0.0:{port}"))]);
    assert!(!ok);
    assert!(said.contains(&format!("127.0.0.1:{port}")), "{said}");
}

/// The documented PostgreSQL backup: `pg_dump -Fc` while players play,
/// `pg_restore` into an empty database, a server on it holds every move
/// acknowledged before the dump started.
#[test]
fn a_postgresql_dump_made_during_play_restores_every_acknowledged_move() {
    let pg = OwnPostgres::new();
    let data = tempdir();
    let dir = data_arg(data.path());
    let server = Served::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &dir,
            "--database",
            &pg.url(),
        ],
        &[],
    );
    let players = Players::start(&server.addr);
    players.wait_for(100);
    let acknowledged = players.acknowledged();
    // In the folder PostgreSQL's own user may write to.
    let dump = pg.dir.path().join("parlor.dump").display().to_string();
    pg.run("pg_dump", &["-Fc", "-d", &pg.url(), "-f", &dump]);
    players.wait_for(acknowledged.values().sum::<u64>() + 20);
    players.stop();
    drop(server);
    let port = pg.port.to_string();
    pg.run(
        "createdb",
        &["-h", "127.0.0.1", "-p", &port, "-U", "parlor", "restored"],
    );
    let restored = pg.url().replace("/postgres", "/restored");
    pg.run("pg_restore", &["--no-owner", "-d", &restored, &dump]);
    let second_data = tempdir();
    let second_dir = data_arg(second_data.path());
    let second = Served::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--data-dir",
            &second_dir,
            "--database",
            &restored,
        ],
        &[],
    );
    holds_every_move(&second.addr, &acknowledged);
    eprintln!(
        "pg_dump: {} moves in {} matches acknowledged before the dump, all restored",
        acknowledged.values().sum::<u64>(),
        acknowledged.len()
    );
}
