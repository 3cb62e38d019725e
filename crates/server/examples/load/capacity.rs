//! `load capacity`: how many players one server carries at a person's
//! pace, every player a task on one small runtime (so that thousands fit
//! in the load client), each on a loopback address of its own.
//!
//! Terms:
//! - **player**: plays one match after another, all three games (6 in 10
//!   Chutes against a bot, 2 in 10 Tycoon against three bots, 2 in 10
//!   Baffle alone), a move every 2–4 s (think time drawn at random), with
//!   the match's live stream open the whole game, as its page has (and,
//!   as the page does, playing on from the views it tells); on
//!   Baffle it asks a hint one move in six; when a game ends it asks a
//!   rematch half the time, else makes a new match.
//! - **spectator**: one player in ten also watches another player's match
//!   (a second stream); **lobby reader**: one in ten follows the lobby's
//!   stream.
//! - **step**: a number of players run together for the step's seconds
//!   (they start spread over the first quarter); a step **holds** when the
//!   moves' p99 is under 50 ms, no stream the server ended or cut early
//!   (a **dropped** stream), and no move refused or failed.
//! - **as a browser**: every request says `Accept-Encoding: gzip`, so
//!   the server compresses what it would compress for a page
//!   (`CAPACITY_GZIP=0`: none does).
//! - the figure: the largest step that holds, with the server's CPU (from
//!   `/proc`) and resident memory per 1,000 players.

use super::{Dice, Held, cpu_seconds, percentile, proc_mib};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::Mutex;

/// The p99 a move must stay under for a step to hold.
const P99_GOAL_MS: f64 = 50.0;

/// What every player of a step adds up.
#[derive(Default)]
struct Tally {
    move_micros: Mutex<Vec<u64>>,
    hint_micros: Mutex<Vec<u64>>,
    moves: AtomicU64,
    refused: AtomicU64,
    failed: AtomicU64,
    busy: AtomicU64,
    streams: AtomicU64,
    dropped: AtomicU64,
    events: AtomicU64,
    matches: AtomicU64,
    rematches: AtomicU64,
    examples: Mutex<Vec<String>>,
}

impl Tally {
    async fn example(&self, what: String) {
        let mut examples = self.examples.lock().await;
        if examples.len() < 5 {
            examples.push(what);
        }
    }
}

/// A keep-alive HTTP/1.1 connection from one loopback address.
struct Connection {
    addr: String,
    from: [u8; 4],
    stream: Option<BufReader<TcpStream>>,
}

async fn connect(addr: &str, from: [u8; 4]) -> std::io::Result<TcpStream> {
    let stream = super::connect_from(addr, from)?;
    stream.set_nonblocking(true)?;
    stream.set_nodelay(true)?;
    TcpStream::from_std(stream)
}

/// True unless `CAPACITY_GZIP=0`: the players ask for gzip answers, as a
/// browser does.
fn as_a_browser() -> bool {
    static GZIP: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *GZIP.get_or_init(|| std::env::var("CAPACITY_GZIP").map_or(true, |v| v != "0"))
}

/// Writes a request's head and body.
async fn send(
    stream: &mut TcpStream,
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<()> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    if as_a_browser() {
        head.push_str("Accept-Encoding: gzip\r\n");
    }
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    if !body.is_empty() {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    stream.write_all(head.as_bytes()).await
}

/// A response's status line and headers, as far as the client reads them.
#[derive(Default)]
struct Head {
    status: u16,
    /// `Content-Length`, when given.
    length: usize,
    /// `Transfer-Encoding: chunked` (a compressed answer's).
    chunked: bool,
    /// `Content-Encoding: gzip`.
    gzip: bool,
}

/// Reads a response's status line and headers.
async fn read_head(reader: &mut BufReader<TcpStream>) -> std::io::Result<Head> {
    let mut line = String::new();
    let mut head = Head::default();
    loop {
        line.clear();
        if reader.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let text = line.trim_end();
        if text.is_empty() {
            return Ok(head);
        }
        if head.status == 0 {
            head.status = text
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
        } else if let Some((name, value)) = text.split_once(':') {
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                head.length = value.parse().unwrap_or(0);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                head.chunked = value.eq_ignore_ascii_case("chunked");
            } else if name.eq_ignore_ascii_case("content-encoding") {
                head.gzip = value.eq_ignore_ascii_case("gzip");
            }
        }
    }
}

/// Reads the body `head` announces (its length, or its chunks), unpacked
/// when gzip-compressed.
async fn read_body(reader: &mut BufReader<TcpStream>, head: &Head) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if head.chunked {
        let mut line = String::new();
        loop {
            line.clear();
            reader.read_line(&mut line).await?;
            let size = usize::from_str_radix(line.trim(), 16)
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidData))?;
            let start = bytes.len();
            bytes.resize(start + size + 2, 0);
            reader.read_exact(&mut bytes[start..]).await?;
            bytes.truncate(start + size);
            if size == 0 {
                break;
            }
        }
    } else {
        bytes.resize(head.length, 0);
        reader.read_exact(&mut bytes).await?;
    }
    if head.gzip {
        let mut unpacked = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut unpacked)?;
        bytes = unpacked;
    }
    Ok(bytes)
}

impl Connection {
    fn new(addr: &str, from: [u8; 4]) -> Self {
        Self {
            addr: addr.to_string(),
            from,
            stream: None,
        }
    }

    /// A request and its answer (status, JSON); a connection the server
    /// closed while idle is opened again once.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        for attempt in 0..2 {
            match self.try_call(method, path, token, body).await {
                Ok(answer) => return Ok(answer),
                Err(e) if attempt == 0 => {
                    self.stream = None;
                    let _ = e;
                }
                Err(e) => {
                    self.stream = None;
                    return Err(format!("{method} {path}: {e}"));
                }
            }
        }
        Err("unreachable".into())
    }

    async fn try_call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Value)> {
        if self.stream.is_none() {
            self.stream = Some(BufReader::new(connect(&self.addr, self.from).await?));
        }
        let reader = self.stream.as_mut().expect("connected");
        send(reader.get_mut(), &self.addr, method, path, token, body).await?;
        let head = read_head(reader).await?;
        let bytes = read_body(reader, &head).await?;
        Ok((
            head.status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }
}

/// The newest view a match's stream told: its move count, whose turn, and
/// the view itself (none when the player's own answer was newer).
#[derive(Clone, Default)]
struct Seen {
    moves: u64,
    to_move: Option<u64>,
    over: bool,
    view: Option<Arc<Value>>,
}

/// Follows `path`'s server-sent events until `until`; each `change`
/// event's view goes to `seen` (when given). A stream the server ends or
/// cuts before then is dropped.
async fn follow(
    addr: String,
    from: [u8; 4],
    path: String,
    seen: Option<Arc<std::sync::Mutex<Seen>>>,
    until: Arc<tokio::sync::Notify>,
    tally: Arc<Tally>,
) {
    tally.streams.fetch_add(1, Ordering::Relaxed);
    let reading = async {
        let mut stream = connect(&addr, from).await.map_err(|e| e.to_string())?;
        send(&mut stream, &addr, "GET", &path, None, None)
            .await
            .map_err(|e| e.to_string())?;
        let mut reader = BufReader::new(stream);
        let status = read_head(&mut reader)
            .await
            .map_err(|e| e.to_string())?
            .status;
        if status != 200 {
            return Err(format!("GET {path}: {status}"));
        }
        // The body is chunked: its lines are the events' lines between
        // chunk sizes, which read as neither `event:` nor `data:`.
        let mut line = String::new();
        loop {
            line.clear();
            if reader
                .read_line(&mut line)
                .await
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err(format!("GET {path}: the stream ended"));
            }
            if let Some(data) = line.strip_prefix("data: ") {
                tally.events.fetch_add(1, Ordering::Relaxed);
                if let (Some(seen), Ok(mut change)) = (&seen, serde_json::from_str::<Value>(data)) {
                    let view = change["view"].take();
                    let mut s = seen.lock().expect("seen");
                    if let Some(moves) = view["moves"].as_u64()
                        && moves >= s.moves
                    {
                        *s = Seen {
                            moves,
                            to_move: view["to_move"].as_u64(),
                            over: view["status"] != "playing",
                            view: Some(Arc::new(view)),
                        };
                    }
                }
            }
        }
    };
    tokio::select! {
        () = until.notified() => {}
        failed = reading => {
            let why: Result<(), String> = failed;
            if let Err(why) = why {
                tally.dropped.fetch_add(1, Ordering::Relaxed);
                tally.example(why).await;
            }
        }
    }
}

/// `read` of every process in `pids`, summed; `None` when there are none
/// or one cannot be read.
fn summed(pids: &[u32], read: impl Fn(u32) -> Option<f64>) -> Option<f64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|&pid| read(pid)).sum()
}

/// The loopback address of player `n`: 127.1.0.0/16 and on, one each.
fn address_of(n: usize) -> [u8; 4] {
    [
        127,
        1 + (n / 60_000) as u8,
        (n / 240 % 250) as u8,
        (n % 240 + 2) as u8,
    ]
}

/// One player until `deadline`; `watch` is a match id another player made,
/// for a spectator.
async fn player(
    addr: String,
    n: usize,
    deadline: Instant,
    tally: Arc<Tally>,
    matches: Arc<std::sync::Mutex<Vec<String>>>,
) {
    let from = address_of(n);
    let mut dice = Dice(0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut http = Connection::new(&addr, from);
    let stop_all = Arc::new(tokio::sync::Notify::new());
    // A spectator watches someone else's match; a lobby reader the lobby.
    if n % 10 == 3
        && let Some(id) = matches.lock().expect("matches").last().cloned()
    {
        let path = format!("/api/matches/{id}/events");
        tokio::spawn(follow(
            addr.clone(),
            from,
            path,
            None,
            stop_all.clone(),
            tally.clone(),
        ));
    }
    if n % 10 == 7 {
        let path = "/api/lobby/events".to_string();
        tokio::spawn(follow(
            addr.clone(),
            from,
            path,
            None,
            stop_all.clone(),
            tally.clone(),
        ));
    }
    let mut rematch_of: Option<Held> = None;
    while Instant::now() < deadline {
        let game = match dice.next(10) {
            0..=5 => "chutes",
            6 | 7 => "tycoon",
            _ => "baffle",
        };
        let previous = rematch_of.take();
        let made = match &previous {
            Some(old) => {
                tally.rematches.fetch_add(1, Ordering::Relaxed);
                let path = format!("/api/matches/{}/rematch", old.id);
                http.call("POST", &path, Some(&old.token), Some(&json!({})))
                    .await
            }
            None => {
                let body = match game {
                    "chutes" => json!({"game": "chutes", "seats": ["here", "bot"]}),
                    "tycoon" => {
                        json!({"game": "tycoon", "seats": ["here", "easy", "easy", "easy"]})
                    }
                    _ => json!({"game": "baffle", "setup": {"size": 8, "mirrors": 4}}),
                };
                http.call("POST", "/api/matches", None, Some(&body)).await
            }
        };
        let mut held = match made {
            Ok((200 | 201, answer)) => {
                // A rematch answers the new match's id, its view and no token:
                // the seat token carries over.
                let mut answer = answer;
                if answer.get("token").is_none()
                    && let Some(old) = &previous
                {
                    answer["token"] = json!(old.token);
                }
                match Held::made(&answer) {
                    Some(held) => held,
                    None => {
                        tally.failed.fetch_add(1, Ordering::Relaxed);
                        tally
                            .example(format!("a new match that does not read: {answer}"))
                            .await;
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                }
            }
            Ok((503, _)) => {
                tally.busy.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
            Ok((status, answer)) => {
                tally.refused.fetch_add(1, Ordering::Relaxed);
                tally
                    .example(format!("a new {game} match: {status} {answer}"))
                    .await;
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
            Err(why) => {
                tally.failed.fetch_add(1, Ordering::Relaxed);
                tally.example(why).await;
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        tally.matches.fetch_add(1, Ordering::Relaxed);
        // The seat this player holds (a rematch moves every seat on one).
        let me = made_view_seat(&held, &mut http).await.unwrap_or(1);
        {
            let mut all = matches.lock().expect("matches");
            all.push(held.id.clone());
            if all.len() > 1_000 {
                all.remove(0);
            }
        }
        let seen = Arc::new(std::sync::Mutex::new(Seen {
            moves: held.after,
            ..Seen::default()
        }));
        let stop_stream = Arc::new(tokio::sync::Notify::new());
        tokio::spawn(follow(
            addr.clone(),
            from,
            format!("/api/matches/{}/events", held.id),
            Some(seen.clone()),
            stop_stream.clone(),
            tally.clone(),
        ));
        let mut moves_made = 0u64;
        let over = loop {
            let pause = Duration::from_millis(2_000 + dice.next(2_001));
            if Instant::now() + pause >= deadline {
                tokio::time::sleep(deadline.saturating_duration_since(Instant::now())).await;
                break false;
            }
            tokio::time::sleep(pause).await;
            // The bots' moves come on the stream; play on once it is our turn.
            let now = seen.lock().expect("seen").clone();
            if now.over {
                break true;
            }
            if now.to_move.is_some_and(|seat| seat != me) {
                continue;
            }
            // Others moved since this player's last answer: play on from
            // the view the stream told, as the page does (its moves offered
            // are every viewer's); read the match only when it has none.
            let told = now
                .view
                .as_deref()
                .filter(|view| view["moves"].as_u64() == Some(now.moves));
            if now.moves > held.after
                && let Some(view) = told
            {
                if !held.saw(view) {
                    break true;
                }
                if view["to_move"].as_u64() != Some(me) {
                    continue;
                }
            } else if now.moves > held.after || now.to_move.is_none() {
                let path = format!("/api/matches/{}", held.id);
                match http.call("GET", &path, Some(&held.token), None).await {
                    Ok((200, view)) => {
                        if !held.saw(&view) {
                            break true;
                        }
                        if view["to_move"].as_u64() != Some(me) {
                            continue;
                        }
                    }
                    Ok((status, answer)) => {
                        tally.refused.fetch_add(1, Ordering::Relaxed);
                        tally
                            .example(format!("GET {path}: {status} {answer}"))
                            .await;
                        break true;
                    }
                    Err(why) => {
                        tally.failed.fetch_add(1, Ordering::Relaxed);
                        tally.example(why).await;
                        continue;
                    }
                }
            }
            if held.game == "baffle" && moves_made % 6 == 5 {
                let path = format!("/api/baffle/matches/{}/hint", held.id);
                let start = Instant::now();
                let asked = http
                    .call("POST", &path, Some(&held.token), Some(&json!({})))
                    .await;
                tally
                    .hint_micros
                    .lock()
                    .await
                    .push(start.elapsed().as_micros() as u64);
                if let Ok((503, _)) = asked {
                    tally.busy.fetch_add(1, Ordering::Relaxed);
                }
            }
            let Some(text) = held
                .offered
                .get(dice.next(held.offered.len().max(1) as u64) as usize)
                .cloned()
            else {
                break true;
            };
            let path = format!("/api/matches/{}/moves", held.id);
            let body = json!({"move": text, "after": held.after});
            let start = Instant::now();
            let answer = http
                .call("POST", &path, Some(&held.token), Some(&body))
                .await;
            let micros = start.elapsed().as_micros() as u64;
            match answer {
                Ok((200, answer)) => {
                    tally.move_micros.lock().await.push(micros);
                    tally.moves.fetch_add(1, Ordering::Relaxed);
                    moves_made += 1;
                    if !held.saw(&answer["view"]) {
                        break true;
                    }
                    let mut s = seen.lock().expect("seen");
                    if held.after >= s.moves {
                        *s = Seen {
                            moves: held.after,
                            to_move: answer["view"]["to_move"].as_u64(),
                            over: false,
                            view: None,
                        };
                    }
                }
                // A bot moved between the stream's last word and this move.
                Ok((409, _)) => {}
                Ok((503, _)) => {
                    tally.busy.fetch_add(1, Ordering::Relaxed);
                }
                Ok((status, answer)) => {
                    tally.refused.fetch_add(1, Ordering::Relaxed);
                    tally
                        .example(format!("{text} in {}: {status} {answer}", held.game))
                        .await;
                    break true;
                }
                Err(why) => {
                    tally.failed.fetch_add(1, Ordering::Relaxed);
                    tally.example(why).await;
                }
            }
            // A Baffle player gives up after a few shots, as in the mix.
            if held.game == "baffle" && moves_made >= super::BAFFLE_SHOTS as u64 {
                break true;
            }
        };
        stop_stream.notify_waiters();
        if over && dice.next(2) == 0 && held.game != "baffle" {
            rematch_of = Some(held);
        }
    }
    stop_all.notify_waiters();
}

/// The seat `held`'s token holds, from the match's view.
async fn made_view_seat(held: &Held, http: &mut Connection) -> Option<u64> {
    let path = format!("/api/matches/{}", held.id);
    match http.call("GET", &path, Some(&held.token), None).await {
        Ok((200, view)) => view["you"].as_u64(),
        _ => None,
    }
}

/// Runs each step of `steps` players for `seconds`; prints a line a step
/// and the figure. True when the first step held.
pub fn run(addr: &str, steps: &[usize], seconds: u64, server_pids: &[u32]) -> bool {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut carried = None;
    let mut first_held = false;
    for (i, &players) in steps.iter().enumerate() {
        let tally = Arc::new(Tally::default());
        let matches = Arc::new(std::sync::Mutex::new(Vec::new()));
        let cpu_before = summed(server_pids, cpu_seconds);
        let started = Instant::now();
        let deadline = started + Duration::from_secs(seconds);
        runtime.block_on(async {
            let mut tasks = Vec::with_capacity(players);
            let spread = Duration::from_secs(seconds) / 4;
            for n in 0..players {
                let (addr, tally, matches) = (addr.to_string(), tally.clone(), matches.clone());
                let delay = spread * n as u32 / players.max(1) as u32;
                tasks.push(tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    player(addr, n, deadline, tally, matches).await;
                }));
            }
            for task in tasks {
                let _ = task.await;
            }
        });
        let elapsed = started.elapsed().as_secs_f64();
        let cpu = match (cpu_before, summed(server_pids, cpu_seconds)) {
            (Some(a), Some(b)) => Some(b - a),
            _ => None,
        };
        let rss = summed(server_pids, |pid| proc_mib(pid, "VmRSS"));
        let mut moves = runtime.block_on(tally.move_micros.lock()).clone();
        moves.sort_unstable();
        let mut hints = runtime.block_on(tally.hint_micros.lock()).clone();
        hints.sort_unstable();
        let p99 = percentile(&moves, 99.0);
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let held = !moves.is_empty()
            && p99 < P99_GOAL_MS
            && load(&tally.dropped) == 0
            && load(&tally.refused) == 0
            && load(&tally.failed) == 0;
        println!(
            "capacity: {players} players, {seconds} s: {} moves ({:.0}/s), p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
             {} hints (p99 {:.1} ms); {} matches, {} rematches; {} streams, {} events, {} dropped; \
             {} refused, {} failed, {} busy; server CPU {}, {}; {}",
            moves.len(),
            moves.len() as f64 / elapsed,
            percentile(&moves, 50.0),
            p99,
            percentile(&moves, 100.0),
            hints.len(),
            percentile(&hints, 99.0),
            load(&tally.matches),
            load(&tally.rematches),
            load(&tally.streams),
            load(&tally.events),
            load(&tally.dropped),
            load(&tally.refused),
            load(&tally.failed),
            load(&tally.busy),
            cpu.map_or("-".into(), |c| format!(
                "{:.0}% of a core ({:.0}% a core per 1,000 players)",
                100.0 * c / elapsed,
                100.0 * c / elapsed * 1000.0 / players as f64
            )),
            rss.map_or("-".into(), |r| format!("{r:.0} MiB resident at the end")),
            if held { "holds" } else { "does not hold" },
        );
        for example in runtime.block_on(tally.examples.lock()).iter() {
            println!("   e.g. {example}");
        }
        if held {
            carried = Some(players);
            first_held |= i == 0;
        }
    }
    match carried {
        Some(players) => println!(
            "capacity: carried {players} players (p99 move under {P99_GOAL_MS:.0} ms, no stream dropped, nothing refused)"
        ),
        None => println!("capacity: no step held"),
    }
    first_held
}
