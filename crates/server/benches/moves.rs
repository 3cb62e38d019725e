//! Move latency and throughput through a real server on loopback, with
//! SQLite and with PostgreSQL, at 1 and 200 concurrent clients.
//!
//! Terms:
//! - **client**: one player on a keep-alive HTTP/1.1 connection, playing
//!   Chutes & Ladders matches of its own (two seats at its screen), one
//!   `roll` after another, each sent with the move number it saw; a finished
//!   match is replaced by a new one (not counted as a move).
//! - **closed loop**: every client sends its next move as soon as the last
//!   is answered — the most the server can take, and the latency when it is
//!   saturated.
//! - **human pace**: every client waits between its moves, as a person
//!   does (here 250–750 ms, 0.5 s on average): 200 such clients make about
//!   400 moves a second, and the latency is the server's own time.
//! - **move latency**: from sending a move to reading its whole answer,
//!   which the server sends only once the move is committed to the store.
//!
//! Run: `cargo bench -p server --bench moves` (SQLite only), or beside a
//! PostgreSQL: `bash scripts/with-postgres.sh cargo bench -p server --bench
//! moves` (its URL in `PARLOR_TEST_POSTGRES_URL`; a fresh database is made).
//! `MOVES_BENCH_SECONDS` sets each run's length (default 10).

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A keep-alive connection to the server.
struct Conn {
    stream: BufReader<TcpStream>,
    addr: SocketAddr,
}

impl Conn {
    async fn open(addr: SocketAddr) -> Self {
        let stream = TcpStream::connect(addr).await.expect("the server accepts");
        stream.set_nodelay(true).expect("nodelay");
        Self {
            stream: BufReader::new(stream),
            addr,
        }
    }

    /// One request; the status and the JSON body.
    async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> (u16, Value) {
        let payload = body.to_string();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n",
            self.addr,
            payload.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes()).await.expect("sent");
        stream.write_all(payload.as_bytes()).await.expect("sent");
        let mut line = String::new();
        self.stream
            .read_line(&mut line)
            .await
            .expect("a status line");
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let mut length = 0usize;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await.expect("a header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await.expect("the body");
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }
}

/// What one client measured.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: usize,
}

async fn new_match(conn: &mut Conn) -> (String, String, u64) {
    let (status, made) = conn
        .send(
            "POST",
            "/api/matches",
            None,
            &json!({"game": "chutes", "seats": ["here", "here"]}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    (
        made["id"].as_str().expect("an id").to_string(),
        made["token"].as_str().expect("a token").to_string(),
        0,
    )
}

/// One client playing until `end`, pausing between moves at human pace.
async fn client(addr: SocketAddr, end: Instant, human: bool, seed: u64) -> Tally {
    let mut rng = tabletop::Rng::new(seed);
    let mut conn = Conn::open(addr).await;
    let mut tally = Tally::default();
    let (mut id, mut token, mut after) = new_match(&mut conn).await;
    while Instant::now() < end {
        if human {
            tokio::time::sleep(Duration::from_millis(250 + rng.below(500))).await;
        }
        let sent = Instant::now();
        let (status, answer) = conn
            .send(
                "POST",
                &format!("/api/matches/{id}/moves"),
                Some(&token),
                &json!({"move": "roll", "after": after}),
            )
            .await;
        let took = sent.elapsed();
        if status != 200 {
            tally.errors += 1;
            continue;
        }
        tally.latencies.push(took);
        after = answer["view"]["moves"].as_u64().expect("moves");
        if answer["view"]["status"] != "playing" {
            (id, token, after) = new_match(&mut conn).await;
        }
    }
    tally
}

/// One run: `clients` clients for `seconds` on a fresh server with this
/// store; prints a line of figures.
fn run(
    label: &str,
    database: Option<server::store::Location>,
    durability: server::store::Durability,
    clients: usize,
    human: bool,
    seconds: u64,
) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = tempfile::tempdir().expect("a data dir");
    runtime.block_on(async {
        let mut config = server::Config::new(dir.path());
        config.database = database;
        config.durability = durability;
        // Every client comes from 127.0.0.1: the limits a client address
        // is held to (things made a minute, unfinished matches,
        // connections) would refuse 200 players sharing one. Off, as for
        // the load client's server (`--rate-limit 0 …`).
        config.rate_limit = 0;
        config.matches_per_client = 0;
        config.connections_per_client = 0;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let addr = listener.local_addr().expect("its address");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(server::serve_until(listener, config, async {
            let _ = stopped.await;
        }));
        // Let it open its store.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let end = Instant::now() + Duration::from_secs(seconds);
        let started = Instant::now();
        let tasks: Vec<_> = (0..clients)
            .map(|c| tokio::spawn(client(addr, end, human, c as u64 + 1)))
            .collect();
        let mut all = Tally::default();
        for task in tasks {
            let tally = task.await.expect("a client");
            all.latencies.extend(tally.latencies);
            all.errors += tally.errors;
        }
        let elapsed = started.elapsed().as_secs_f64();
        let _ = stop.send(());
        let _ = server.await;
        all.latencies.sort();
        let at = |q: f64| {
            let i = ((all.latencies.len() as f64 - 1.0) * q).round() as usize;
            all.latencies.get(i).copied().unwrap_or_default()
        };
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{label:<34} {clients:>4} {:<12} {:>8} {:>9.0} {:>8.2} {:>8.2} {:>8.2} {:>6}",
            if human { "human pace" } else { "closed loop" },
            all.latencies.len(),
            all.latencies.len() as f64 / elapsed,
            ms(at(0.5)),
            ms(at(0.99)),
            ms(at(1.0)),
            all.errors
        );
    });
}

fn main() {
    let seconds: u64 = std::env::var("MOVES_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    println!(
        "{:<34} {:>4} {:<12} {:>8} {:>9} {:>8} {:>8} {:>8} {:>6}",
        "store", "clients", "pace", "moves", "moves/s", "p50 ms", "p99 ms", "max ms", "errors"
    );
    use server::store::Durability::{Disk, Process};
    let postgres = std::env::var("PARLOR_TEST_POSTGRES_URL").ok().map(|base| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let _ = base;
        runtime.block_on(testkit::fresh_postgres())
    });
    for (clients, human) in [(1, false), (200, true), (200, false)] {
        run(
            "SQLite (log: survives any crash)",
            None,
            Process,
            clients,
            human,
            seconds,
        );
        run(
            "SQLite (disk: survives a power cut)",
            None,
            Disk,
            clients,
            human,
            seconds,
        );
        if let Some(url) = &postgres {
            run(
                "PostgreSQL (commit)",
                Some(server::store::Location::Postgres(url.clone())),
                Process,
                clients,
                human,
                seconds,
            );
        }
    }
    if postgres.is_none() {
        println!("(PostgreSQL not measured: run beside one with scripts/with-postgres.sh)");
    }
}
