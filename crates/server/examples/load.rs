//! A load client for `parlor serve`: many players at once on a realistic
//! mix, slow clients, and requests in flight when the server is stopped.
//! Run by `scripts/load.sh` (see docs/reliability.md); loopback only.
//!
//! Terms:
//! - **mix**: each client plays its own matches through the match API
//!   (`/api/matches…`), as a page does: it makes a match, keeps the seat
//!   token it is given, and sends each move with the move number it last
//!   saw (`after`). Chutes rolls (two seats at one screen), Baffle shots
//!   (the player gives up after a few and starts again), Tycoon moves
//!   (every seat a person at one screen, the client answering for all from
//!   the moves the view offers), new matches when one ends — the
//!   **moves** —, and sometimes a Baffle **hint** (the solver) or a board's
//!   **analysis**. Each kind's answer times are reported apart.
//! - **think time**: with `--think MIN-MAX` (milliseconds) each client
//!   pauses between one answer and its next request, uniformly at random in
//!   that range (the same pauses on every run), as a person does, and
//!   starts after a pause of up to MAX so that the clients do not all begin
//!   at once: the **paced** mix. Without it each client sends its next
//!   request the moment the last is answered (a **closed loop**), which
//!   measures the server saturated: its throughput, and the queue that
//!   `clients / throughput` makes.
//! - **error**: a transport failure (no answer, a cut answer), a 5xx other
//!   than 503 and 507, or any 4xx: the client plays by the rules, so a
//!   refusal (a `409 stale_move` from a move number it got wrong, a move
//!   after the end) is its bug or the server's. A 503 (the server at a
//!   limit, "try again") is counted as **busy**; a 507 (the store is full
//!   or read-only: nothing was kept) as **unstored**.
//! - **ledger**: every match the clients made, with its seat token and the
//!   number of moves it had in the last answer they were given — the moves
//!   the server acknowledged. `inflight` writes it to a file, one match a
//!   line (`ID TOKEN MOVES`); `check`, against the server started again on
//!   the same store, reads each match back and reports any that holds
//!   fewer moves: an acknowledged move lost.
//!
//! - **progress**: when stderr is a terminal, a bar of the seconds run and
//!   the answers so far; the first Ctrl-C stops the clients and prints the
//!   report of what they did so far (a second ends the process).
//!
//! ```text
//! load mix ADDR CLIENTS SECONDS [--think MIN-MAX]
//!                                        the mix; prints a report
//! load slow ADDR CONNECTIONS SECONDS     holds slow connections open meanwhile
//! load inflight ADDR CLIENTS SECONDS LEDGER
//!                                        the mix, until the server goes away;
//!                                        reports answers cut short and
//!                                        writes the ledger to LEDGER
//! load check ADDR LEDGER                 reads the ledger's matches back;
//!                                        exits 1 if any lost a move
//! load save ADDR N SECONDS               saves N grids; prints each answer
//! load flood ADDR THREADS SECONDS        issue 33's creation flood from
//!                                        127.0.0.2 while a player on
//!                                        127.0.0.3 makes matches and plays;
//!                                        exits 1 if the player was refused
//! load compare ADDR CLIENTS SECONDS [--server-pid PID]
//!                                        the cheapest GET (`/healthz`), a
//!                                        player's GET of a match's view, then
//!                                        Chutes rolls, each by CLIENTS in a
//!                                        closed loop for SECONDS: the rates,
//!                                        the rolls' ratio to each GET and
//!                                        their answer sizes (issue 34, part
//!                                        2), and the CPU this client spent
//!                                        on each; with the server's PID on
//!                                        this machine, the server's too
//! load evict ADDR WATCHERS NEWCOMERS [--streams]
//!                                        issue 33's eviction flood: watchers
//!                                        (one address each), then keep-alive
//!                                        newcomers (or streams of another
//!                                        match) from 100 other addresses,
//!                                        then a move; exits 1 if a watcher
//!                                        missed it or a newcomer had no answer
//! load capacity ADDR PLAYERS,PLAYERS,... SECONDS [--server-pid PID[,PID...]]
//!                                        players at a person's pace with
//!                                        their streams, spectators, lobby
//!                                        readers, hints and rematches, each
//!                                        number of players in turn: the
//!                                        most the server carries (see
//!                                        capacity.rs)
//! load attack NAME ADDR SECONDS [--server-pid PID] [--metrics ADDR]
//!     [--data-dir DIR] [--ledger FILE]
//!                                        one of fair share's second-round
//!                                        attacks (hints, rematches, methods,
//!                                        pictures, grids, slow-bodies,
//!                                        eviction, names, board-names,
//!                                        damaged, rest) while a victim on
//!                                        127.0.200.1 plays (see attacks.rs);
//!                                        exits 1 if the victim lost
//! load damage-prepare ADDR LEDGER        four matches of three rolls, for
//!                                        the damaged attack, to LEDGER
//! load damage DB LEDGER                  writes a move of invalid UTF-8 into
//!                                        each of LEDGER's matches in the
//!                                        SQLite file DB (server stopped)
//! ```
#![allow(clippy::unwrap_used, missing_docs)]

#[path = "load/attacks.rs"]
mod attacks;
#[path = "load/capacity.rs"]
mod capacity;

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Set by the first Ctrl-C: the clients stop and the report is printed.
static STOP: AtomicBool = AtomicBool::new(false);

/// Answers received so far by every client, for the progress bar.
static ANSWERS: AtomicU64 = AtomicU64::new(0);

/// True until the deadline, unless Ctrl-C was pressed.
fn running(deadline: Instant) -> bool {
    Instant::now() < deadline && !STOP.load(Ordering::Relaxed)
}

/// On a terminal, a bar of `seconds` and the answers so far, moved ten
/// times a second until `done`; nothing otherwise. Ctrl-C sets [`STOP`]
/// (twice ends the process).
fn show_progress(what: &'static str, seconds: u64, done: Arc<AtomicBool>) {
    let pressed = AtomicBool::new(false);
    let _ = ctrlc::set_handler(move || {
        if pressed.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        STOP.store(true, Ordering::SeqCst);
    });
    if !std::io::stderr().is_terminal() {
        return;
    }
    std::thread::spawn(move || {
        let bar = indicatif::ProgressBar::new(seconds);
        let template = format!(
            "{what} {{bar:40}} {{pos}}/{{len}} s, {{msg}} answers (Ctrl-C stops with the answers so far)"
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        let start = Instant::now();
        while !done.load(Ordering::Relaxed) {
            bar.set_position(start.elapsed().as_secs().min(seconds));
            bar.set_message(ANSWERS.load(Ordering::Relaxed).to_string());
            std::thread::sleep(Duration::from_millis(100));
        }
        bar.finish_and_clear();
    });
}

/// One keep-alive connection.
struct Client {
    addr: String,
    stream: Option<BufReader<TcpStream>>,
    /// The loopback address it connects from (the system's choice when
    /// none).
    from: Option<[u8; 4]>,
    /// The length of the last answer's body, in bytes.
    last_len: usize,
}

/// A connection to `addr` from the loopback address `from`: another
/// client, as the server counts them (127.0.0.0/8 is all loopback).
fn connect_from(addr: &str, from: [u8; 4]) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let to: std::net::SocketAddr = addr
        .parse()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{e}")))?;
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.bind(&std::net::SocketAddr::from((from, 0)).into())?;
    socket.connect(&to.into())?;
    Ok(socket.into())
}

/// What came back.
enum Answer {
    Status(u16, Value),
    /// No answer, or a cut one.
    Failed(String),
}

impl Client {
    fn new(addr: &str) -> Self {
        Self {
            addr: addr.to_string(),
            stream: None,
            from: None,
            last_len: 0,
        }
    }

    /// A client connecting from the loopback address `from`.
    fn at(addr: &str, from: [u8; 4]) -> Self {
        Self {
            from: Some(from),
            ..Self::new(addr)
        }
    }

    fn connect(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.stream.is_none() {
            let stream = match self.from {
                Some(from) => connect_from(&self.addr, from)?,
                None => TcpStream::connect(&self.addr)?,
            };
            stream.set_read_timeout(Some(Duration::from_secs(30)))?;
            stream.set_nodelay(true)?;
            self.stream = Some(BufReader::new(stream));
        }
        Ok(self.stream.as_mut().unwrap())
    }

    fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        // A connection the server closed while idle is opened again once.
        for attempt in 0..2 {
            match self.try_call(method, path, token, body) {
                Ok(answer) => return answer,
                Err((sent, e)) => {
                    self.stream = None;
                    if sent {
                        return Answer::Failed(format!("cut: {e}"));
                    }
                    if attempt == 1 {
                        return Answer::Failed(e);
                    }
                }
            }
        }
        Answer::Failed("unreachable".into())
    }

    /// Err((whether the request was read by the server, why)).
    fn try_call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Answer, (bool, String)> {
        let addr = self.addr.clone();
        let reader = self.connect().map_err(|e| (false, e.to_string()))?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let authorization = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             {authorization}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        reader
            .get_mut()
            .write_all(head.as_bytes())
            .map_err(|e| (false, e.to_string()))?;
        let mut status_line = String::new();
        match reader.read_line(&mut status_line) {
            Ok(0) => return Err((false, "closed before answering".into())),
            Ok(_) => {}
            Err(e) => return Err((true, e.to_string())),
        }
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or((true, format!("bad status line {status_line:?}")))?;
        let mut length = 0usize;
        let mut close = false;
        loop {
            let mut line = String::new();
            if reader
                .read_line(&mut line)
                .map_err(|e| (true, e.to_string()))?
                == 0
            {
                return Err((true, "cut in the headers".into()));
            }
            if line == "\r\n" {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(n) = lower.strip_prefix("content-length:") {
                length = n.trim().parse().unwrap_or(0);
            }
            if lower.starts_with("connection:") && lower.contains("close") {
                close = true;
            }
        }
        let mut bytes = vec![0; length];
        reader
            .read_exact(&mut bytes)
            .map_err(|e| (true, format!("cut in the body: {e}")))?;
        if close {
            self.stream = None;
        }
        self.last_len = bytes.len();
        Ok(Answer::Status(
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }
}

/// Answer times and counts of one kind of request.
#[derive(Default, Clone)]
struct Tally {
    micros: Vec<u64>,
    errors: u64,
    busy: u64,
    /// 507: the store could not keep it.
    unstored: u64,
    /// Errors where the server had the request and the answer was cut.
    cut: u64,
}

#[derive(Default, Clone)]
struct Tallies {
    moves: Tally,
    hints: Tally,
    analyses: Tally,
    /// Examples of errors, for the report.
    examples: Vec<String>,
    /// The ledger: match id → (seat token, moves acknowledged).
    acknowledged: HashMap<String, (String, u64)>,
}

#[derive(Clone, Copy)]
enum Kind {
    Move,
    Hint,
    Analysis,
}

/// A tiny xorshift, so the mix needs no dependency.
struct Dice(u64);

impl Dice {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// A pause uniform in `from..=to` milliseconds.
    fn pause(&mut self, (from, to): (u64, u64)) -> Duration {
        Duration::from_millis(from + self.next(to - from + 1))
    }
}

/// Sleeps for `pause`, or until `deadline` when that comes first.
fn sleep_until_before(pause: Duration, deadline: Instant) {
    let left = deadline.saturating_duration_since(Instant::now());
    std::thread::sleep(pause.min(left));
}

/// The shots a Baffle player makes before giving up and starting again.
const BAFFLE_SHOTS: usize = 12;

/// A match as its player holds it: its id, the seat token, the move number
/// last seen, and the moves its view offers now (Tycoon's `page.moves`, a
/// Baffle box's shootable holes).
#[derive(Clone)]
struct Held {
    id: String,
    token: String,
    after: u64,
    offered: Vec<String>,
    /// The game (a move's compact answer leaves it out).
    game: String,
}

impl Held {
    /// The match made by `POST /api/matches`'s answer.
    fn made(answer: &Value) -> Option<Self> {
        let mut held = Self {
            id: answer["id"].as_str()?.to_string(),
            token: answer["token"].as_str()?.to_string(),
            after: 0,
            offered: Vec::new(),
            game: answer["view"]["game"].as_str()?.to_string(),
        };
        held.saw(&answer["view"]).then_some(held)
    }

    /// Takes in the match view a move's answer (or the maker) was given;
    /// false once the match is over.
    fn saw(&mut self, view: &Value) -> bool {
        self.after = view["moves"].as_u64().unwrap_or(self.after);
        if let Some(game) = view["game"].as_str() {
            self.game = game.to_string();
        }
        self.offered = match self.game.as_str() {
            "tycoon" => view["page"]["moves"]
                .as_array()
                .map(|moves| {
                    moves
                        .iter()
                        .filter_map(|m| m["text"].as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            // The box's holes are fixed: a move's compact answer leaves
            // them out (`view_fixed`), and the ones held stay.
            "baffle" => match view["view"]["shootable"].as_array() {
                Some(holes) => holes
                    .iter()
                    .filter_map(|h| h.as_u64().map(|h| format!("shoot {h}")))
                    .collect(),
                None => std::mem::take(&mut self.offered),
            },
            _ => vec!["roll".to_string()],
        };
        view["status"] == "playing"
    }
}

/// One player's matches.
struct Player {
    client: Client,
    dice: Dice,
    chutes: Option<Held>,
    baffle: Option<Held>,
    tycoon: Option<Held>,
    tallies: Tallies,
}

impl Player {
    /// Sends a request (with a seat token, when given) and counts its
    /// answer; returns it when one came.
    fn timed(
        &mut self,
        kind: Kind,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Option<(u16, Value)> {
        let start = Instant::now();
        let answer = self.client.call(method, path, token, body.as_ref());
        let micros = start.elapsed().as_micros() as u64;
        ANSWERS.fetch_add(1, Ordering::Relaxed);
        let tally = match kind {
            Kind::Move => &mut self.tallies.moves,
            Kind::Hint => &mut self.tallies.hints,
            Kind::Analysis => &mut self.tallies.analyses,
        };
        match answer {
            Answer::Status(status, value) => {
                tally.micros.push(micros);
                match status {
                    503 => tally.busy += 1,
                    507 => tally.unstored += 1,
                    400.. => {
                        tally.errors += 1;
                        if self.tallies.examples.len() < 5 {
                            self.tallies
                                .examples
                                .push(format!("{method} {path}: {status} {value}"));
                        }
                    }
                    _ => {}
                }
                Some((status, value))
            }
            Answer::Failed(why) => {
                tally.errors += 1;
                if why.starts_with("cut") {
                    tally.cut += 1;
                }
                if self.tallies.examples.len() < 5 {
                    self.tallies
                        .examples
                        .push(format!("{method} {path}: {why}"));
                }
                None
            }
        }
    }

    /// Writes in the ledger what the server has acknowledged of `held`.
    fn acknowledge(&mut self, held: &Held) {
        self.tallies
            .acknowledged
            .insert(held.id.clone(), (held.token.clone(), held.after));
    }

    /// Makes a new match of `game`; none when the server did not make it.
    fn new_match(&mut self, game: &str) -> Option<Held> {
        let body = match game {
            "chutes" => json!({"game": "chutes", "seats": ["here", "here"]}),
            "baffle" => json!({"game": "baffle", "setup": {"size": 8, "mirrors": 4}}),
            _ => json!({"game": "tycoon", "seats": ["here", "here", "here", "here"]}),
        };
        match self.timed(Kind::Move, "POST", "/api/matches", None, Some(body)) {
            Some((201, made)) => {
                let held = Held::made(&made)?;
                self.acknowledge(&held);
                Some(held)
            }
            _ => None,
        }
    }

    /// Plays `mv` in `held`'s match; returns the match to go on with (none
    /// once it is over, or when the answer leaves its state unknown).
    fn play(&mut self, mut held: Held, mv: &str) -> Option<Held> {
        let path = format!("/api/matches/{}/moves", held.id);
        let body = json!({"move": mv, "after": held.after});
        let token = held.token.clone();
        match self.timed(Kind::Move, "POST", &path, Some(&token), Some(body))? {
            (200, answer) => {
                let playing = held.saw(&answer["view"]);
                self.acknowledge(&held);
                playing.then_some(held)
            }
            // Nothing was played: the match is as it was.
            (503 | 507, _) => Some(held),
            _ => None,
        }
    }

    fn step(&mut self) {
        match self.dice.next(100) {
            0..30 => {
                self.chutes = match self.chutes.take() {
                    None => self.new_match("chutes"),
                    Some(held) => self.play(held, "roll"),
                };
            }
            30..55 => {
                self.baffle = match self.baffle.take() {
                    None => self.new_match("baffle"),
                    Some(held) if held.after as usize >= BAFFLE_SHOTS => {
                        // Gives up: the box is shown, and a new one begun.
                        let _ = self.play(held, "quit");
                        None
                    }
                    Some(held) => {
                        let pick = self.dice.next(held.offered.len().max(1) as u64) as usize;
                        match held.offered.get(pick).cloned() {
                            Some(shot) => self.play(held, &shot),
                            None => None,
                        }
                    }
                };
            }
            55..85 => {
                self.tycoon = match self.tycoon.take() {
                    None => self.new_match("tycoon"),
                    Some(held) => {
                        let pick = self.dice.next(held.offered.len().max(1) as u64) as usize;
                        match held.offered.get(pick).cloned() {
                            Some(mv) => self.play(held, &mv),
                            None => None,
                        }
                    }
                };
            }
            85..95 => match self.baffle.clone() {
                None => self.baffle = self.new_match("baffle"),
                Some(held) => {
                    let path = format!("/api/baffle/matches/{}/hint", held.id);
                    self.timed(Kind::Hint, "POST", &path, None, Some(json!({})));
                }
            },
            _ => {
                self.timed(
                    Kind::Analysis,
                    "GET",
                    "/api/chutes/boards/classic/analysis",
                    None,
                    None,
                );
            }
        }
    }
}

/// Runs `clients` players for `seconds` (or until the server is gone, when
/// `until_gone`), each pausing for a think time in `think` (milliseconds,
/// from–to) between requests when given; returns every tally.
fn mix(
    addr: &str,
    clients: usize,
    seconds: u64,
    until_gone: bool,
    think: Option<(u64, u64)>,
) -> (Tallies, Duration) {
    let all = Arc::new(Mutex::new(Tallies::default()));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let done = Arc::new(AtomicBool::new(false));
    show_progress(
        if until_gone { "in flight" } else { "mix" },
        seconds,
        Arc::clone(&done),
    );
    let threads: Vec<_> = (0..clients)
        .map(|i| {
            let addr = addr.to_string();
            let all = Arc::clone(&all);
            std::thread::spawn(move || {
                let mut player = Player {
                    client: Client::new(&addr),
                    dice: Dice(0x9E37_79B9_7F4A_7C15 ^ ((i as u64 + 1) * 0x1000_0001)),
                    chutes: None,
                    baffle: None,
                    tycoon: None,
                    tallies: Tallies::default(),
                };
                // The think times, apart from the mix's own dice so that the
                // mix is the same paced or not.
                let mut pauses = Dice(0x2545_F491_4F6C_DD1D ^ ((i as u64 + 1) * 0x0100_0193));
                if let Some((_, to)) = think {
                    sleep_until_before(pauses.pause((0, to)), deadline);
                }
                while running(deadline) {
                    player.step();
                    if until_gone && TcpStream::connect(&addr).is_err() {
                        break;
                    }
                    if let Some(range) = think {
                        sleep_until_before(pauses.pause(range), deadline);
                    }
                }
                let mut guard = all.lock().unwrap();
                let all = &mut *guard;
                for (into, from) in [
                    (&mut all.moves, &player.tallies.moves),
                    (&mut all.hints, &player.tallies.hints),
                    (&mut all.analyses, &player.tallies.analyses),
                ] {
                    into.micros.extend_from_slice(&from.micros);
                    into.errors += from.errors;
                    into.busy += from.busy;
                    into.unstored += from.unstored;
                    into.cut += from.cut;
                }
                all.acknowledged.extend(player.tallies.acknowledged.drain());
                let room = 5usize.saturating_sub(all.examples.len());
                let examples: Vec<String> =
                    player.tallies.examples.into_iter().take(room).collect();
                all.examples.extend(examples);
            })
        })
        .collect();
    for thread in threads {
        let _ = thread.join();
    }
    done.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed();
    let tallies = all.lock().unwrap().clone();
    (tallies, elapsed)
}

/// Per second, by `clients` threads for `seconds`, in a closed loop: how
/// many `GET /healthz` the server answers, then how many Chutes rolls
/// (each client two seats at one screen, a new match when one ends), and
/// the rolls' answer sizes; prints both and their ratio, and with
/// `server_pid` the server's CPU time for each GET and each roll.
fn compare(addr: &str, clients: usize, seconds: u64, server_pid: Option<u32>) {
    // The server's CPU and this client's own, read together.
    let cpu = || {
        (
            server_pid.and_then(cpu_seconds),
            cpu_seconds(std::process::id()),
        )
    };
    let before_gets = cpu();
    let gets = closed_loop(addr, clients, seconds, |client, _| {
        matches!(
            client.call("GET", "/healthz", None, None),
            Answer::Status(200, _)
        )
        .then_some(client.last_len)
    });
    let before_views = cpu();
    let views = closed_loop(addr, clients, seconds, |client, held| {
        if held.is_none() {
            *held = played_a_while(client);
        }
        let game = held.as_ref()?;
        let path = format!("/api/matches/{}", game.id);
        matches!(
            client.call("GET", &path, Some(&game.token), None),
            Answer::Status(200, _)
        )
        .then_some(client.last_len)
    });
    let before_rolls = cpu();
    let rolls = closed_loop(addr, clients, seconds, |client, held| {
        if held.is_none() {
            let body = json!({"game": "chutes", "seats": ["here", "here"]});
            let Answer::Status(201, made) = client.call("POST", "/api/matches", None, Some(&body))
            else {
                return None;
            };
            *held = Held::made(&made);
        }
        let game = held.as_mut()?;
        let path = format!("/api/matches/{}/moves", game.id);
        let body = json!({"move": "roll", "after": game.after});
        let Answer::Status(200, answer) =
            client.call("POST", &path, Some(&game.token), Some(&body))
        else {
            *held = None;
            return None;
        };
        if !game.saw(&answer["view"]) {
            *held = None;
        }
        Some(client.last_len)
    });
    let after_rolls = cpu();
    let spent = |from: Option<f64>, to: Option<f64>, counted: &Counted| {
        let (from, to) = (from?, to?);
        Some((to - from) * 1e6 / counted.answers.max(1) as f64)
    };
    let phases = [
        (before_gets, before_views, &gets),
        (before_views, before_rolls, &views),
        (before_rolls, after_rolls, &rolls),
    ];
    let server = phases.map(|(from, to, counted)| spent(from.0, to.0, counted));
    let client = phases.map(|(from, to, counted)| spent(from.1, to.1, counted));
    for (whose, [get, view, roll]) in [("the server's", server), ("the load client's", client)] {
        if let (Some(get), Some(view), Some(roll)) = (get, view, roll) {
            println!(
                "{whose} CPU: {get:.0} µs a GET /healthz, {view:.0} µs a view, {roll:.0} µs a roll"
            );
        }
    }
    println!(
        "compare, {clients} clients, closed loop: GET /healthz {:.0}/s, a match's view {:.0}/s, \
         Chutes rolls {:.0}/s, rolls ÷ GETs {:.2} (÷ views {:.2}); a roll's answer {} bytes on \
         average, {} at most; errors {}, {} and {}",
        gets.rate(),
        views.rate(),
        rolls.rate(),
        rolls.rate() / gets.rate().max(1.0),
        rolls.rate() / views.rate().max(1.0),
        rolls.bytes / rolls.answers.max(1),
        rolls.most_bytes,
        gets.errors,
        views.errors,
        rolls.errors,
    );
}

/// A new Chutes match of two seats at one screen, 20 rolls in (fewer if it
/// ends sooner): a view of a game under way, for [`compare`]'s GETs.
fn played_a_while(client: &mut Client) -> Option<Held> {
    let body = json!({"game": "chutes", "seats": ["here", "here"]});
    let Answer::Status(201, made) = client.call("POST", "/api/matches", None, Some(&body)) else {
        return None;
    };
    let mut held = Held::made(&made)?;
    for _ in 0..20 {
        let path = format!("/api/matches/{}/moves", held.id);
        let body = json!({"move": "roll", "after": held.after});
        let Answer::Status(200, answer) =
            client.call("POST", &path, Some(&held.token), Some(&body))
        else {
            break;
        };
        if !held.saw(&answer["view"]) {
            break;
        }
    }
    Some(held)
}

/// The CPU time process `pid` has spent (user and system), in seconds,
/// from `/proc/PID/stat` (in the kernel's clock ticks of 10 ms).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which may hold spaces: the
    // state is field 3, user time field 14, system time field 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// What [`closed_loop`] counted.
#[derive(Default)]
struct Counted {
    answers: u64,
    errors: u64,
    bytes: u64,
    most_bytes: u64,
    seconds: f64,
}

impl Counted {
    fn rate(&self) -> f64 {
        self.answers as f64 / self.seconds.max(1e-9)
    }
}

/// Runs `step` on `clients` threads, each with its own connection and
/// match, until `seconds` have passed; `step` gives an answer's length, or
/// none for an error.
fn closed_loop(
    addr: &str,
    clients: usize,
    seconds: u64,
    step: fn(&mut Client, &mut Option<Held>) -> Option<usize>,
) -> Counted {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let addr = addr.to_string();
            std::thread::spawn(move || {
                let mut client = Client::new(&addr);
                let mut held = None;
                let mut counted = Counted::default();
                while running(deadline) {
                    match step(&mut client, &mut held) {
                        Some(len) => {
                            counted.answers += 1;
                            counted.bytes += len as u64;
                            counted.most_bytes = counted.most_bytes.max(len as u64);
                        }
                        None => counted.errors += 1,
                    }
                }
                counted
            })
        })
        .collect();
    let mut all = Counted::default();
    for thread in threads {
        let one = thread.join().unwrap();
        all.answers += one.answers;
        all.errors += one.errors;
        all.bytes += one.bytes;
        all.most_bytes = all.most_bytes.max(one.most_bytes);
    }
    all.seconds = start.elapsed().as_secs_f64();
    all
}

/// A field of `/proc/PID/status` (`VmHWM`, `VmRSS`), in MiB.
fn proc_mib(pid: u32, field: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)] as f64 / 1000.0
}

fn report(what: &str, clients: usize, tallies: &Tallies, elapsed: Duration) {
    let secs = elapsed.as_secs_f64();
    if STOP.load(Ordering::Relaxed) {
        println!("Stopped (Ctrl-C): the figures below are of the {secs:.1} s run.");
    }
    let total: usize = [&tallies.moves, &tallies.hints, &tallies.analyses]
        .iter()
        .map(|t| t.micros.len())
        .sum();
    println!(
        "{what}: {clients} clients, {secs:.1} s, {total} answers, {:.0} answers/s",
        total as f64 / secs
    );
    for (name, tally) in [
        ("moves", &tallies.moves),
        ("hints", &tallies.hints),
        ("analyses", &tallies.analyses),
    ] {
        let mut sorted = tally.micros.clone();
        sorted.sort_unstable();
        println!(
            "  {name:<9} {:>7} answers  p50 {:>8.2} ms  p99 {:>8.2} ms  max {:>8.2} ms  errors {} (answers cut {})  busy (503) {}  unstored (507) {}",
            sorted.len(),
            percentile(&sorted, 50.0),
            percentile(&sorted, 99.0),
            sorted.last().map_or(0.0, |&m| m as f64 / 1000.0),
            tally.errors,
            tally.cut,
            tally.busy,
            tally.unstored
        );
    }
    for example in &tallies.examples {
        println!("  e.g. {example}");
    }
}

/// Opens `connections` connections that send half a request's headers and
/// hold them, opening new ones as the server closes old ones, for
/// `seconds`; returns how many were opened in all.
fn slow(addr: &str, connections: usize, seconds: u64) -> usize {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut held: Vec<TcpStream> = Vec::new();
    let mut opened = 0;
    let done = Arc::new(AtomicBool::new(false));
    show_progress("slow", seconds, Arc::clone(&done));
    while running(deadline) {
        held.retain(|s| {
            let mut probe = [0u8; 1];
            s.set_nonblocking(true).ok();
            let mut s = s;
            !matches!(s.read(&mut probe), Ok(0))
        });
        while held.len() < connections && running(deadline) {
            let Ok(mut stream) = TcpStream::connect(addr) else {
                break;
            };
            let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
            opened += 1;
            held.push(stream);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    done.store(true, Ordering::Relaxed);
    opened
}

/// Writes the ledger: `ID TOKEN MOVES`, a match a line.
fn write_ledger(path: &str, ledger: &HashMap<String, (String, u64)>) -> std::io::Result<()> {
    let mut text = String::new();
    for (id, (token, moves)) in ledger {
        text.push_str(&format!("{id} {token} {moves}\n"));
    }
    std::fs::write(path, text)
}

/// Reads each match of the ledger at `path` back from the server at `addr`
/// and prints what it found; false if a match holds fewer moves than were
/// acknowledged (or cannot be read).
fn check(addr: &str, path: &str) -> bool {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            println!("check: cannot read the ledger {path}: {e}");
            return false;
        }
    };
    let mut client = Client::new(addr);
    let (mut matches, mut moves, mut lost) = (0u64, 0u64, Vec::new());
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let [id, token, acknowledged] = fields[..] else {
            println!("check: not a ledger line: {line:?}");
            return false;
        };
        let acknowledged: u64 = acknowledged.parse().unwrap_or(u64::MAX);
        matches += 1;
        moves += acknowledged;
        let kept = match client.call("GET", &format!("/api/matches/{id}"), Some(token), None) {
            Answer::Status(200, view) => view["moves"].as_u64(),
            _ => None,
        };
        if kept.is_none_or(|kept| kept < acknowledged) {
            lost.push(format!("{id}: {acknowledged} acknowledged, {kept:?} kept"));
        }
    }
    println!(
        "after the restart: {matches} matches read back, {moves} acknowledged moves, {} lost",
        lost.len()
    );
    for line in lost.iter().take(5) {
        println!("  lost: {line}");
    }
    lost.is_empty()
}

/// Issue 33's creation flood: `threads` clients on 127.0.0.2 make matches
/// (with a seat for anyone, so they would fill the lobby) as fast as they
/// are answered, while a player on 127.0.0.3 makes a match and rolls
/// three times every half second. True when the player was never refused.
fn flood(addr: &str, threads: usize, seconds: u64) -> bool {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let attackers: Vec<_> = (0..threads)
        .map(|_| {
            let addr = addr.to_string();
            std::thread::spawn(move || {
                let mut client = Client::at(&addr, [127, 0, 0, 2]);
                let mut counts: HashMap<String, u64> = HashMap::new();
                let body = json!({"game": "chutes", "seats": ["here", "anyone"]});
                while running(deadline) {
                    let what = match client.call("POST", "/api/matches", None, Some(&body)) {
                        Answer::Status(status, answer) => match answer["error"]["code"].as_str() {
                            Some(code) => format!("{status} {code}"),
                            None => status.to_string(),
                        },
                        Answer::Failed(_) => "no answer".to_string(),
                    };
                    *counts.entry(what).or_default() += 1;
                }
                counts
            })
        })
        .collect();
    let mut player = Client::at(addr, [127, 0, 0, 3]);
    let (mut made, mut moves, mut refused) = (0u64, 0u64, Vec::new());
    let mut micros = Vec::new();
    while running(deadline) {
        let started = Instant::now();
        let body = json!({"game": "chutes", "seats": ["here", "here"]});
        match player.call("POST", "/api/matches", None, Some(&body)) {
            Answer::Status(201, game) => {
                made += 1;
                let id = game["id"].as_str().unwrap_or("").to_string();
                let token = game["token"].as_str().unwrap_or("").to_string();
                let mut after = game["view"]["moves"].as_u64().unwrap_or(0);
                for _ in 0..3 {
                    let roll = json!({"move": "roll", "after": after});
                    let path = format!("/api/matches/{id}/moves");
                    match player.call("POST", &path, Some(&token), Some(&roll)) {
                        Answer::Status(200, answer) => {
                            moves += 1;
                            after = answer["view"]["moves"].as_u64().unwrap_or(after);
                        }
                        Answer::Status(status, answer) => {
                            refused.push(format!("move: {status} {answer}"))
                        }
                        Answer::Failed(why) => refused.push(format!("move: {why}")),
                    }
                }
            }
            Answer::Status(status, answer) => refused.push(format!("new match: {status} {answer}")),
            Answer::Failed(why) => refused.push(format!("new match: {why}")),
        }
        micros.push(started.elapsed().as_micros() as u64);
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut counts: HashMap<String, u64> = HashMap::new();
    for attacker in attackers {
        for (what, n) in attacker.join().unwrap() {
            *counts.entry(what).or_default() += n;
        }
    }
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort();
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    println!("flood: {threads} clients on 127.0.0.2 sent {total} new matches in {seconds} s:");
    for (what, n) in &counts {
        println!("   {what}: {n}");
    }
    micros.sort_unstable();
    let p = |q: f64| {
        micros
            .get(((micros.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "   the player on 127.0.0.3: {made} matches made, {moves} moves played, {} refused; \
         a new match and 3 rolls took p50 {:.2} ms, max {:.2} ms",
        refused.len(),
        p(0.5) as f64 / 1000.0,
        p(1.0) as f64 / 1000.0
    );
    for why in refused.iter().take(5) {
        println!("   refused: {why}");
    }
    let mut reader = Client::at(addr, [127, 0, 0, 4]);
    if let Answer::Status(200, lobby) = reader.call("GET", "/api/lobby", None, None) {
        let listed = lobby["matches"].as_array().map_or(0, Vec::len);
        println!("   the lobby lists {listed} matches");
    }
    refused.is_empty() && made > 0
}

/// Reads a stream up to its next event's id; `None` when it ends or says
/// nothing for the stream's read timeout.
fn next_event(reader: &mut BufReader<TcpStream>) -> Option<String> {
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        if let Some(id) = line.trim().strip_prefix("id:") {
            return Some(id.trim().to_string());
        }
    }
}

/// Issue 33's eviction flood: `watchers` live streams on one match, each
/// from an address of its own (127.0.1.x), then `newcomers` keep-alive
/// connections from 100 other addresses (127.0.2.x) that each ask for the
/// lobby once and stay open, then one move. True when every watcher saw
/// the move and every newcomer was answered (served or refused with a 503).
///
/// With `streams`, the newcomers each open a live stream of another match
/// instead (the issue's 1,000 streams on another match).
fn evict(addr: &str, watchers: usize, newcomers: usize, as_streams: bool) -> bool {
    let mut host = Client::at(addr, [127, 0, 0, 3]);
    let body = json!({"game": "chutes", "seats": ["here", "here"]});
    let Answer::Status(201, game) = host.call("POST", "/api/matches", None, Some(&body)) else {
        println!("evict: no match");
        return false;
    };
    let newcomers_path = if as_streams {
        let Answer::Status(201, other) = host.call("POST", "/api/matches", None, Some(&body))
        else {
            println!("evict: no second match");
            return false;
        };
        format!("/api/matches/{}/events", other["id"].as_str().unwrap_or(""))
    } else {
        "/api/lobby".to_string()
    };
    let id = game["id"].as_str().unwrap_or("").to_string();
    let token = game["token"].as_str().unwrap_or("").to_string();
    let mut streams = Vec::new();
    for i in 0..watchers {
        let from = [127, 0, 1, (i % 250 + 1) as u8];
        let opened = connect_from(addr, from).and_then(|mut stream| {
            stream.set_read_timeout(Some(Duration::from_secs(10)))?;
            write!(
                stream,
                "GET /api/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\r\n"
            )?;
            let mut reader = BufReader::new(stream);
            next_event(&mut reader)
                .map(|_| reader)
                .ok_or_else(|| std::io::Error::other("no first event"))
        });
        match opened {
            Ok(reader) => streams.push(reader),
            Err(e) => println!("evict: watcher {i} could not watch: {e}"),
        }
    }
    let watching = streams.len();
    let (mut served, mut refused, mut unanswered) = (0, 0, 0);
    let mut held = Vec::new();
    let started = Instant::now();
    for i in 0..newcomers {
        let from = [127, 0, 2, (i % 100 + 1) as u8];
        let Ok(mut stream) = connect_from(addr, from) else {
            unanswered += 1;
            continue;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let _ = write!(
            stream,
            "GET {newcomers_path} HTTP/1.1\r\nHost: {addr}\r\n\r\n"
        );
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        let _ = reader.read_line(&mut status);
        if status.starts_with("HTTP/1.1 200") && as_streams {
            served += 1;
            held.push(reader);
        } else if status.starts_with("HTTP/1.1 200") {
            served += 1;
            // Read the rest of the answer; the connection stays open, idle.
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = n.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            held.push(reader);
        } else if status.starts_with("HTTP/1.1 503") {
            refused += 1;
        } else {
            unanswered += 1;
        }
    }
    let flood_ms = started.elapsed().as_millis();
    let moved = host.call(
        "POST",
        &format!("/api/matches/{id}/moves"),
        Some(&token),
        Some(&json!({"move": "roll", "after": 0})),
    );
    let moved = matches!(moved, Answer::Status(200, _));
    let saw = streams
        .iter_mut()
        .map(|reader| next_event(reader).as_deref() == Some("1"))
        .filter(|&saw| saw)
        .count();
    let kind = if as_streams {
        "streaming"
    } else {
        "keep-alive"
    };
    println!(
        "evict: {watching} of {watchers} watching; {newcomers} {kind} newcomers from 100 addresses in {flood_ms} ms: \
         {served} served (kept open), {refused} refused 503, {unanswered} with no answer; \
         the move {}; {saw} of {watching} watchers saw it, {} lost",
        if moved { "was played" } else { "was refused" },
        watching - saw
    );
    drop(held);
    moved && watching == watchers && saw == watching && unanswered == 0
}

/// `load attack NAME ADDR SECONDS [OPTION VALUE]…`, `load damage-prepare
/// ADDR LEDGER` and `load damage DB LEDGER`; none for other modes.
fn attack_modes(args: &[String]) -> Option<i32> {
    let usage = "usage: load attack NAME ADDR SECONDS [--server-pid PID] [--metrics ADDR] \
                 [--data-dir DIR] [--ledger FILE], load damage-prepare ADDR LEDGER, \
                 load damage DB LEDGER";
    match args.get(1).map(String::as_str)? {
        "damage-prepare" => Some(match (args.get(2), args.get(3)) {
            (Some(addr), Some(ledger)) if attacks::damage_prepare(addr, ledger) => 0,
            (Some(_), Some(_)) => {
                println!("damage-prepare: the matches were not made");
                1
            }
            _ => {
                eprintln!("{usage}");
                2
            }
        }),
        "damage" => Some(match (args.get(2), args.get(3)) {
            (Some(db), Some(ledger)) => match attacks::damage(db, ledger) {
                Ok(n) => {
                    println!("damage: {n} stored moves made the bytes ff fe 6c 6c");
                    i32::from(n == 0)
                }
                Err(e) => {
                    println!("damage: {e}");
                    1
                }
            },
            _ => {
                eprintln!("{usage}");
                2
            }
        }),
        "attack" => {
            let (Some(name), Some(addr), Some(seconds)) = (
                args.get(2),
                args.get(3),
                args.get(4).and_then(|s| s.parse::<u64>().ok()),
            ) else {
                eprintln!("{usage}");
                return Some(2);
            };
            let mut options = attacks::Options::default();
            for pair in args.get(5..).unwrap_or_default().chunks(2) {
                match pair {
                    [flag, pid] if flag == "--server-pid" => options.server_pid = pid.parse().ok(),
                    [flag, a] if flag == "--metrics" => options.metrics = Some(a.clone()),
                    [flag, d] if flag == "--data-dir" => options.data_dir = Some(d.clone()),
                    [flag, l] if flag == "--ledger" => options.ledger = Some(l.clone()),
                    _ => {
                        eprintln!("{usage}");
                        return Some(2);
                    }
                }
            }
            Some(match attacks::run(name, addr, seconds, &options) {
                Some(true) => 0,
                Some(false) => 1,
                None => {
                    eprintln!("no attack {name:?}; {usage}");
                    2
                }
            })
        }
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(code) = attack_modes(&args) {
        std::process::exit(code);
    }
    if let Some(mode @ ("flood" | "evict")) = args.get(1).map(String::as_str) {
        let streams = args.get(5).map(String::as_str) == Some("--streams");
        let (Some(addr), Some(a), Some(b), None) = (
            args.get(2),
            args.get(3).and_then(|n| n.parse::<usize>().ok()),
            args.get(4).and_then(|n| n.parse::<usize>().ok()),
            args.get(if streams { 6 } else { 5 }),
        ) else {
            eprintln!(
                "usage: load flood ADDR THREADS SECONDS, load evict ADDR WATCHERS NEWCOMERS [--streams]"
            );
            std::process::exit(2);
        };
        let ok = if mode == "flood" {
            flood(addr, a, b as u64)
        } else {
            evict(addr, a, b, streams)
        };
        std::process::exit(if ok { 0 } else { 1 });
    }
    if args.get(1).map(String::as_str) == Some("capacity") {
        let steps: Option<Vec<usize>> = args
            .get(3)
            .map(|s| s.split(',').map(|n| n.parse().ok()).collect())
            .and_then(|v: Vec<Option<usize>>| v.into_iter().collect());
        let (Some(addr), Some(steps), Some(seconds)) = (
            args.get(2),
            steps,
            args.get(4).and_then(|s| s.parse::<u64>().ok()),
        ) else {
            eprintln!(
                "usage: load capacity ADDR PLAYERS,PLAYERS,... SECONDS [--server-pid PID[,PID...]]"
            );
            std::process::exit(2);
        };
        // One server's process id, or several joined by commas (the
        // servers behind a balancer: their CPU and memory are summed).
        let pids: Vec<u32> = match args.get(5..) {
            Some([flag, pids]) if flag == "--server-pid" => {
                match pids.split(',').map(str::parse).collect() {
                    Ok(pids) => pids,
                    Err(_) => {
                        eprintln!(
                            "--server-pid takes process ids joined by commas, such as 4242,4243"
                        );
                        std::process::exit(2);
                    }
                }
            }
            _ => Vec::new(),
        };
        std::process::exit(if capacity::run(addr, &steps, seconds, &pids) {
            0
        } else {
            1
        });
    }
    if args.get(1).map(String::as_str) == Some("check") {
        let (Some(addr), Some(ledger), None) = (args.get(2), args.get(3), args.get(4)) else {
            eprintln!("usage: load check ADDR LEDGER");
            std::process::exit(2);
        };
        std::process::exit(if check(addr, ledger) { 0 } else { 1 });
    }
    let usage = "usage: load mix|slow|save ADDR N SECONDS [--think MIN-MAX], \
                 load inflight ADDR N SECONDS LEDGER, load check ADDR LEDGER";
    let (Some(mode), Some(addr), Some(n), Some(seconds)) = (
        args.get(1),
        args.get(2),
        args.get(3).and_then(|n| n.parse::<usize>().ok()),
        args.get(4).and_then(|s| s.parse::<u64>().ok()),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    // `--think MIN-MAX`: a pause of MIN to MAX ms between a client's
    // requests.
    let rest = match (mode.as_str(), args.get(5..).unwrap_or_default()) {
        ("inflight", [_ledger, rest @ ..]) => rest,
        ("inflight", []) => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
        (_, rest) => rest,
    };
    let (think, server_pid) = match rest {
        [] => (None, None),
        [flag, pid] if flag == "--server-pid" && mode == "compare" => match pid.parse::<u32>() {
            Ok(pid) => (None, Some(pid)),
            Err(_) => {
                eprintln!("--server-pid takes the server's process id, such as 4242");
                std::process::exit(2);
            }
        },
        [flag, range] if flag == "--think" => {
            let parsed = range
                .split_once('-')
                .and_then(|(from, to)| Some((from.parse::<u64>().ok()?, to.parse::<u64>().ok()?)))
                .filter(|(from, to)| from <= to);
            if parsed.is_none() {
                eprintln!("--think takes MIN-MAX in milliseconds, such as 500-1500");
                std::process::exit(2);
            }
            (parsed, None)
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    match mode.as_str() {
        "mix" => {
            let (tallies, elapsed) = mix(addr, n, seconds, false, think);
            let what = match think {
                Some((from, to)) => format!("mix, paced ({from}-{to} ms between requests)"),
                None => "mix, closed loop".to_string(),
            };
            report(&what, n, &tallies, elapsed);
        }
        "compare" => compare(addr, n, seconds, server_pid),
        "slow" => {
            let opened = slow(addr, n, seconds);
            println!(
                "slow: held up to {n} half-sent requests for {seconds} s, {opened} opened in all"
            );
        }
        "save" => {
            let mut client = Client::new(addr);
            for i in 0..n {
                let made = client.call("POST", "/api/tycoon/designs", None, Some(&json!({})));
                let Answer::Status(200, design) = made else {
                    println!("save: no design");
                    std::process::exit(1);
                };
                let path = format!(
                    "/api/tycoon/designs/{}/save",
                    design["id"].as_str().unwrap_or("")
                );
                let body = json!({"name": format!("grid-{i}"), "replace": true});
                match client.call("POST", &path, None, Some(&body)) {
                    Answer::Status(status, answer) => println!("save: {status} {answer}"),
                    Answer::Failed(why) => println!("save: failed: {why}"),
                }
            }
            let _ = seconds;
        }
        "inflight" => {
            let (tallies, elapsed) = mix(addr, n, seconds, true, think);
            report("in flight at SIGTERM", n, &tallies, elapsed);
            let ledger = &args[5];
            if let Err(e) = write_ledger(ledger, &tallies.acknowledged) {
                eprintln!("cannot write the ledger {ledger}: {e}");
                std::process::exit(1);
            }
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
