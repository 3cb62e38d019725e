//! The deployment of docs/deploy.md, tested: `scripts/cluster.sh` starts a
//! PostgreSQL, two `parlor serve` and HAProxy in front, on loopback; matches
//! are played through the balancer with a live follower each while server
//! `a` is killed (`kill -9`) and started again, then server `b` is told to
//! stop (`kill -TERM`, it drains) and started again. Every acknowledged move
//! is in the store, every follower sees every move (reconnecting through
//! the balancer), every acknowledged design edit is in its design, an
//! uploaded board outlives the crash, and the balancer sends the killed
//! server nothing while it is down. Before that, the servers are shown to
//! count each player's address, not the balancer's, for fair share.
//!
//! Terms:
//! - **lane**: one player thread: it makes a Chutes match (two seats, both
//!   its own), plays it at a steady pace through the balancer, and makes
//!   the next when one is over; a **follower** thread watches each match's
//!   live events through the balancer, reconnecting when a stream ends.
//! - **designer lane**: a thread that uploads a board and edits Tycoon
//!   designs through the balancer, a card a request, so that each design is
//!   changed through both servers (no sticky cookie) across the crash and
//!   the drain.
//! - **ledger**: the moves the balancer acknowledged (`200`) to a lane.
//! - **gap**: how long a follower was without a stream, from the end of one
//!   to the first event of the next. A follower reconnects as a browser's
//!   `EventSource` does: after the last `retry:` its stream said (3 s, a
//!   browser's default, before any).
//! - **delay**: from a move's answer reaching its player through the
//!   balancer to its live event reaching the follower through the balancer
//!   (0 when the event came first); **round trip**: from the move sent to
//!   its live event.

#![allow(clippy::unwrap_used)] // A missing field fails the test where it is read.

use crate::common;

use common::server::request;
use serde_json::{Value, json};
use socket2::{Domain, Socket, Type};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The cluster script, running until its standard input closes.
struct Cluster {
    child: Child,
    dir: PathBuf,
    env: HashMap<String, String>,
}

impl Cluster {
    fn start() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut child = Command::new("bash")
            .arg(root.join("scripts/cluster.sh"))
            .env("PARLOR_BIN", env!("CARGO_BIN_EXE_parlor"))
            .env("PARLOR_CLUSTER_PORT", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("bash runs scripts/cluster.sh");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut dir = None;
        let mut line = String::new();
        while out.read_line(&mut line).unwrap_or(0) > 0 {
            if let Some(path) = line.trim().strip_prefix("cluster: ready in ") {
                dir = Some(PathBuf::from(path));
                break;
            }
            line.clear();
        }
        let dir = dir.expect("scripts/cluster.sh says it is ready (its errors are above)");
        let env = std::fs::read_to_string(dir.join("cluster.env"))
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Self { child, dir, env }
    }

    fn balancer(&self) -> String {
        self.env["balancer"].clone()
    }

    /// Server `name`'s process id.
    fn pid(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(format!("{name}.pid")))
            .unwrap()
            .trim()
            .to_string()
    }

    fn signal(&self, name: &str, signal: &str) {
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.pid(name))
            .status()
            .unwrap();
        assert!(sent.success());
    }

    fn is_running(&self, name: &str) -> bool {
        // A process that exited and was reaped, or a zombie, is not.
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid(name)));
        stat.is_ok_and(|s| !s.contains(") Z "))
    }

    fn restart(&self, name: &str) {
        let started = Command::new("bash")
            .arg(self.dir.join(format!("start-{name}")))
            .status()
            .unwrap();
        assert!(started.success(), "start-{name} failed");
    }

    /// HAProxy's view of server `name`: its status (`UP`, `DOWN`, …) and
    /// the sessions it was ever sent.
    fn seen_by_balancer(&self, name: &str) -> (String, u64) {
        let (_, csv) = get_text(&self.env["stats"], "/stats;csv");
        let mut lines = csv.lines();
        let header: Vec<&str> = lines
            .next()
            .unwrap()
            .trim_start_matches("# ")
            .split(',')
            .collect();
        let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (status, total) = (column("status"), column("stot"));
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            if cells.first() == Some(&"parlor") && cells.get(1) == Some(&name) {
                return (cells[status].to_string(), cells[total].parse().unwrap());
            }
        }
        panic!("no server {name} in HAProxy's stats: {csv}");
    }

    /// Waits until HAProxy says `name` is `status` (`UP`, `DOWN`); how long
    /// that took.
    fn wait_for(&self, name: &str, status: &str, within: Duration) -> Duration {
        let started = Instant::now();
        loop {
            let (now, _) = self.seen_by_balancer(name);
            if now.split_whitespace().next() == Some(status) {
                return started.elapsed();
            }
            assert!(
                started.elapsed() < within,
                "server {name} is {now}, not {status}, {within:?} later"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Its standard input closed, the script stops everything.
        drop(self.child.stdin.take());
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET path` on `addr`: the status and the body as text (chunked or
/// not).
fn get_text(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut chunked = false;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
            break;
        }
        chunked |= header
            .to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked");
    }
    let mut body = Vec::new();
    if chunked {
        while let Some(chunk) = read_chunk(&mut reader) {
            if chunk.is_empty() {
                break;
            }
            body.extend(chunk);
        }
    } else {
        let _ = reader.read_to_end(&mut body);
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// What a lane's player was told, and what went wrong on the way.
#[derive(Default)]
struct Ledger {
    /// Match → the move numbers acknowledged in it.
    acknowledged: BTreeMap<String, BTreeSet<u64>>,
    /// Answers that were neither a move nor a refusal the game explains
    /// (a 502 or 503 from the balancer, a broken connection), with when.
    failures: Vec<(Instant, String)>,
}

/// What a follower saw of its match.
#[derive(Default)]
struct Seen {
    /// Move numbers seen, in a change's `played` or its view's log.
    moves: BTreeSet<u64>,
    /// The match's moves in the newest view.
    latest: u64,
    /// True once it saw the match over.
    over: bool,
    /// Streams it opened.
    streams: u32,
    /// The longest time without a stream, from one's end to the next one's
    /// first event.
    longest_gap: Duration,
    /// Move number → when its lane sent it.
    sent: BTreeMap<u64, Instant>,
    /// Move number → when its lane had the answer.
    acked: BTreeMap<u64, Instant>,
    /// Move number → when its live event came.
    arrived: BTreeMap<u64, Instant>,
}

/// Reads one chunk of a chunked body (empty at the end; `None` when the
/// connection broke).
fn read_chunk(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut size = String::new();
    if reader.read_line(&mut size).ok()? == 0 {
        return None;
    }
    let n = usize::from_str_radix(size.trim(), 16).ok()?;
    let mut chunk = vec![0; n + 2];
    reader.read_exact(&mut chunk).ok()?;
    chunk.truncate(n);
    Some(chunk)
}

/// Follows match `id` through `addr` until it is over or `stop` is set,
/// reconnecting whenever a stream ends, as a page does.
fn follow(addr: String, id: String, seen: Arc<Mutex<Seen>>, stop: Arc<AtomicBool>) {
    let mut ended: Option<Instant> = None;
    let mut last_id: Option<String> = None;
    // A browser's default reconnection time, until a stream says another.
    let mut retry = Duration::from_secs(3);
    while !stop.load(Ordering::SeqCst) {
        if ended.is_some() {
            std::thread::sleep(retry);
        }
        let Ok(mut stream) = TcpStream::connect(&addr) else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
        let resume = last_id
            .as_ref()
            .map(|n| format!("Last-Event-ID: {n}\r\n"))
            .unwrap_or_default();
        let sent = write!(
            stream,
            "GET /api/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{resume}\r\n"
        );
        if sent.is_err() {
            continue;
        }
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        if reader.read_line(&mut status_line).unwrap_or(0) == 0 {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let mut chunked = false;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
                break;
            }
            if header
                .to_ascii_lowercase()
                .starts_with("transfer-encoding: chunked")
            {
                chunked = true;
            }
        }
        if !status_line.contains(" 200 ") || !chunked {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        seen.lock().unwrap().streams += 1;
        let mut text = String::new();
        let mut first = true;
        while let Some(chunk) = read_chunk(&mut reader) {
            if chunk.is_empty() {
                break;
            }
            text.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = text.find("\n\n") {
                let block: String = text.drain(..end + 2).collect();
                if let Some(ms) = block.lines().find_map(|l| l.strip_prefix("retry: ")) {
                    retry = Duration::from_millis(ms.trim().parse().unwrap());
                }
                let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) else {
                    continue;
                };
                if let Some(n) = block.lines().find_map(|l| l.strip_prefix("id: ")) {
                    last_id = Some(n.to_string());
                }
                let change: Value = serde_json::from_str(data).unwrap();
                let mut seen = seen.lock().unwrap();
                let live = !first;
                if first {
                    first = false;
                    if let Some(at) = ended.take() {
                        seen.longest_gap = seen.longest_gap.max(at.elapsed());
                    }
                }
                for played in change["played"].as_array().into_iter().flatten() {
                    let number = played["number"].as_u64().unwrap();
                    if live && !seen.moves.contains(&number) {
                        seen.arrived.insert(number, Instant::now());
                    }
                    seen.moves.insert(number);
                }
                for line in change["view"]["log"].as_array().into_iter().flatten() {
                    seen.moves.insert(line["number"].as_u64().unwrap());
                }
                seen.latest = change["view"]["moves"].as_u64().unwrap();
                if change["view"]["status"] != "playing" {
                    seen.over = true;
                    return;
                }
            }
        }
        ended = Some(Instant::now());
    }
}

/// The view of match `id` through the balancer, asked until it answers.
fn view_of(addr: &str, id: &str) -> Value {
    loop {
        if let Some((200, view)) = request(addr, "GET", &format!("/api/matches/{id}"), None, None) {
            return view;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One match made through the balancer, asked until it is made.
fn new_match(addr: &str) -> (String, String) {
    loop {
        if let Some((201, made)) = request(
            addr,
            "POST",
            "/api/matches",
            None,
            Some(&json!({"game": "chutes", "seats": ["here", "here"]})),
        ) {
            return (
                made["id"].as_str().unwrap().to_string(),
                made["token"].as_str().unwrap().to_string(),
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What a designer lane was told: each design's cells whose card was
/// acknowledged, and the answers that were neither.
#[derive(Default)]
struct Designs {
    acknowledged: BTreeMap<String, BTreeSet<u64>>,
    failures: Vec<String>,
}

/// A designer lane (see the module's terms): through the balancer, which
/// sends each request to the next server, it uploads a board and edits
/// Tycoon designs (a card on the next cell, every 30 ms; a new design when
/// the grid is full) until `stop`. Answers the board's id and what it was
/// told.
fn designer(addr: String, stop: Arc<AtomicBool>) -> (String, Designs) {
    let board = loop {
        if let Some((200, made)) = request(
            &addr,
            "POST",
            "/api/chutes/boards",
            None,
            Some(&json!({"text": "size = 30\nladders = [[3, 22]]\nchutes = [[27, 5]]\n"})),
        ) {
            break made["id"].as_str().unwrap().to_string();
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut told = Designs::default();
    while !stop.load(Ordering::SeqCst) {
        let Some((200, design)) =
            request(&addr, "POST", "/api/tycoon/designs", None, Some(&json!({})))
        else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let id = design["id"].as_str().unwrap().to_string();
        let edits = format!("/api/tycoon/designs/{id}/edits");
        for cell in 2..=90u64 {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(30));
            let card = json!({"edit": "card", "number": 1, "cell": cell, "params": [5]});
            match request(&addr, "POST", &edits, None, Some(&card)) {
                Some((200, _)) => {
                    told.acknowledged
                        .entry(id.clone())
                        .or_default()
                        .insert(cell);
                }
                other => told.failures.push(format!("card on {cell}: {other:?}")),
            }
        }
    }
    (board, told)
}

/// A lane (see the module's terms): plays until `stop`, then finishes the
/// match it is playing; its followers' records by match.
fn lane(
    addr: String,
    ledger: Arc<Mutex<Ledger>>,
    stop: Arc<AtomicBool>,
) -> Vec<(String, Arc<Mutex<Seen>>, std::thread::JoinHandle<()>)> {
    let mut followed = Vec::new();
    let never = Arc::new(AtomicBool::new(false));
    while !stop.load(Ordering::SeqCst) {
        let (id, token) = new_match(&addr);
        let seen = Arc::new(Mutex::new(Seen::default()));
        let follower = {
            let (addr, id, seen, never) = (
                addr.clone(),
                id.clone(),
                Arc::clone(&seen),
                Arc::clone(&never),
            );
            std::thread::spawn(move || follow(addr, id, seen, never))
        };
        followed.push((id.clone(), Arc::clone(&seen), follower));
        let mut after = 0u64;
        loop {
            std::thread::sleep(Duration::from_millis(25));
            seen.lock().unwrap().sent.insert(after + 1, Instant::now());
            let answer = request(
                &addr,
                "POST",
                &format!("/api/matches/{id}/moves"),
                Some(&token),
                Some(&json!({"move": "roll", "after": after})),
            );
            match answer {
                Some((200, body)) => {
                    seen.lock().unwrap().acked.insert(after + 1, Instant::now());
                    let mut ledger = ledger.lock().unwrap();
                    let told = ledger.acknowledged.entry(id.clone()).or_default();
                    for played in body["played"].as_array().unwrap() {
                        assert!(
                            told.insert(played["number"].as_u64().unwrap()),
                            "a move acknowledged twice"
                        );
                    }
                    after = body["view"]["moves"].as_u64().unwrap();
                    if body["view"]["status"] != "playing" {
                        break;
                    }
                }
                Some((409, body)) if body["error"]["code"] == "game_over" => break,
                // The move was stored by a server that died before it
                // answered (the balancer sent it again): read where the
                // match stands.
                Some((409, body)) if body["error"]["code"] == "stale_move" => {
                    after = view_of(&addr, &id)["moves"].as_u64().unwrap();
                }
                other => {
                    let said = other.map_or("no answer".to_string(), |(s, b)| format!("{s} {b}"));
                    ledger.lock().unwrap().failures.push((Instant::now(), said));
                    after = view_of(&addr, &id)["moves"].as_u64().unwrap();
                }
            }
        }
    }
    followed
}

/// The status of `POST /api/matches` (a new Chutes game) sent to `addr`
/// from the loopback address `from`, as a player on that address would.
fn create_from(addr: &str, from: Ipv4Addr) -> u16 {
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    socket.bind(&SocketAddr::from((from, 0)).into()).unwrap();
    let to: SocketAddr = addr.parse().unwrap();
    socket.connect(&to.into()).unwrap();
    let mut stream: TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = json!({"game": "chutes", "seats": ["here", "here"]}).to_string();
    write!(
        stream,
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut status = String::new();
    BufReader::new(stream).read_line(&mut status).unwrap();
    status
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

/// Through the balancer, the servers count each player's own address
/// (HAProxy's `X-Forwarded-For`, the balancer trusted): one player who
/// makes games until refused (`429`, the rate of new games an address may
/// make, on each server) leaves another player's share whole. Were the
/// balancer's address counted, the second player would share the first's
/// spent rate and be refused too.
fn each_player_has_their_own_share(lb: &str) {
    let greedy = Ipv4Addr::new(127, 0, 0, 2);
    let refused = (0..400).find(|_| create_from(lb, greedy) == 429);
    assert!(
        refused.is_some(),
        "400 new games from one address were never refused"
    );
    assert_eq!(
        create_from(lb, Ipv4Addr::new(127, 0, 0, 3)),
        201,
        "another player's first game, after one player spent their rate"
    );
}

#[test]
fn a_balanced_cluster_loses_no_move_and_no_follower_misses_one_through_a_crash_and_a_drain() {
    let cluster = Cluster::start();
    let lb = cluster.balancer();
    cluster.wait_for("a", "UP", Duration::from_secs(10));
    cluster.wait_for("b", "UP", Duration::from_secs(10));
    each_player_has_their_own_share(&lb);
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let lanes: Vec<_> = (0..3)
        .map(|_| {
            let (lb, ledger, stop) = (lb.clone(), Arc::clone(&ledger), Arc::clone(&stop));
            std::thread::spawn(move || lane(lb, ledger, stop))
        })
        .collect();
    let designing = {
        let (lb, stop) = (lb.clone(), Arc::clone(&stop));
        std::thread::spawn(move || designer(lb, stop))
    };
    std::thread::sleep(Duration::from_secs(3));

    // A crash: a is killed; the balancer's checks take it out.
    cluster.signal("a", "KILL");
    let killed = Instant::now();
    let to_down = cluster.wait_for("a", "DOWN", Duration::from_secs(5));
    let (_, sent_when_down) = cluster.seen_by_balancer("a");
    std::thread::sleep(Duration::from_secs(3));
    let (status, sent_later) = cluster.seen_by_balancer("a");
    assert!(status.starts_with("DOWN"), "{status}");
    assert_eq!(
        sent_later, sent_when_down,
        "the balancer sent the dead server traffic while it was down"
    );
    let crash_window = killed.elapsed();
    cluster.restart("a");
    let to_up = cluster.wait_for("a", "UP", Duration::from_secs(10));
    std::thread::sleep(Duration::from_secs(2));
    let (_, sent_back) = cluster.seen_by_balancer("a");
    assert!(
        sent_back > sent_later,
        "a gets traffic again once it is ready"
    );

    // A drain: b is told to stop while moves come; nobody should notice.
    let failures_before_drain = ledger.lock().unwrap().failures.len();
    cluster.signal("b", "TERM");
    let to_out = cluster.wait_for("b", "DOWN", Duration::from_secs(5));
    let drained = Instant::now();
    while cluster.is_running("b") {
        assert!(
            drained.elapsed() < Duration::from_secs(15),
            "b still runs 15 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    cluster.restart("b");
    cluster.wait_for("b", "UP", Duration::from_secs(10));
    std::thread::sleep(Duration::from_secs(1));
    let drain_failures: Vec<String> = ledger.lock().unwrap().failures[failures_before_drain..]
        .iter()
        .map(|(_, said)| said.clone())
        .collect();

    stop.store(true, Ordering::SeqCst);
    // The designs and the board, made through both servers across the
    // crash and the drain, with no sticky cookie: every acknowledged edit
    // is there, through the balancer, and the board takes a match.
    let (board, designs) = designing.join().unwrap();
    let mut edits = 0;
    for (id, cells) in &designs.acknowledged {
        let (status, design) =
            request(&lb, "GET", &format!("/api/tycoon/designs/{id}"), None, None).unwrap();
        assert_eq!(status, 200, "design {id}: {design}");
        let cards: BTreeSet<u64> = design["objects"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|o| o["home"].as_u64())
            .collect();
        let lost: Vec<&u64> = cells.difference(&cards).collect();
        assert!(
            lost.is_empty(),
            "design {id} lost its acknowledged cards on {lost:?}"
        );
        edits += cells.len();
    }
    let on_board = json!({"game": "chutes", "setup": {"board": board}, "seats": ["here", "here"]});
    let (status, made) = request(&lb, "POST", "/api/matches", None, Some(&on_board)).unwrap();
    assert_eq!(status, 201, "a match on the uploaded board: {made}");
    eprintln!(
        "cluster: {edits} design edits acknowledged in {} designs through both servers, 0 lost; \
         answers the designer saw fail: {} ({:?})",
        designs.acknowledged.len(),
        designs.failures.len(),
        designs.failures
    );
    assert!(edits >= 50, "too few edits to prove much: {edits}");
    let mut followed = Vec::new();
    for lane in lanes {
        followed.extend(lane.join().unwrap());
    }
    // Each follower saw its match end; every move of it.
    let mut longest_gap = Duration::ZERO;
    let mut reconnections = 0;
    let (mut delays, mut round_trips) = (Vec::new(), Vec::new());
    for (id, seen, follower) in followed.iter().map(|(i, s, f)| (i, s, f)) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !follower.is_finished() {
            assert!(
                Instant::now() < deadline,
                "the follower of {id} never saw it end"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let seen = seen.lock().unwrap();
        assert!(seen.over);
        let all: BTreeSet<u64> = (1..=seen.latest).collect();
        let missed: Vec<&u64> = all.difference(&seen.moves).collect();
        assert!(
            missed.is_empty(),
            "the follower of {id} missed moves {missed:?}"
        );
        longest_gap = longest_gap.max(seen.longest_gap);
        for (number, arrived) in &seen.arrived {
            if let (Some(sent), Some(acked)) = (seen.sent.get(number), seen.acked.get(number)) {
                delays.push(arrived.saturating_duration_since(*acked));
                round_trips.push(arrived.saturating_duration_since(*sent));
            }
        }
        reconnections += seen.streams.saturating_sub(1);
    }
    // Every acknowledged move is in the store, as it was told.
    let ledger = ledger.lock().unwrap();
    let mut acknowledged = 0;
    for (id, told) in &ledger.acknowledged {
        let (status, record) =
            request(&lb, "GET", &format!("/api/matches/{id}/record"), None, None).unwrap();
        assert_eq!(status, 200, "{record}");
        let stored = record["moves"].as_array().unwrap().len() as u64;
        let last = told.iter().max().copied().unwrap_or(0);
        assert!(
            last <= stored,
            "match {id}: move {last} was acknowledged, the store holds {stored}"
        );
        acknowledged += told.len();
    }
    let failures: Vec<&String> = ledger.failures.iter().map(|(_, s)| s).collect();
    assert!(delays.len() >= 100, "too few live events: {}", delays.len());
    let median_p95 = |mut d: Vec<Duration>| {
        d.sort();
        (d[d.len() / 2], d[d.len() * 95 / 100])
    };
    let events = delays.len();
    let (median, p95) = median_p95(delays);
    let (trip_median, trip_p95) = median_p95(round_trips);
    eprintln!(
        "cluster: a live event after its move's answer, through the balancer: median \
         {median:?}, 95th percentile {p95:?}; from the move sent: median {trip_median:?}, \
         95th percentile {trip_p95:?} ({events} events)"
    );
    eprintln!(
        "cluster: {acknowledged} moves acknowledged in {} matches, 0 lost; \
         a killed: out of the balancer in {to_down:?}, no traffic for {crash_window:?}, \
         back in {to_up:?} after its restart; b drained: out in {to_out:?}; \
         {reconnections} follower reconnections, the longest gap {longest_gap:?}; \
         answers the players saw fail: {} ({failures:?}), during the drain: {}",
        ledger.acknowledged.len(),
        failures.len(),
        drain_failures.len()
    );
    assert!(
        acknowledged >= 200,
        "too few moves to prove much: {acknowledged}"
    );
    assert!(
        drain_failures.is_empty(),
        "a drain should go unnoticed: {drain_failures:?}"
    );
    assert!(
        longest_gap < Duration::from_secs(5),
        "a follower waited {longest_gap:?}"
    );
    assert!(reconnections >= 1, "no follower had to reconnect");
}
