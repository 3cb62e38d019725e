//! The second round of fair share's attacks (docs/reliability.md, "The
//! second round"), each against a real `parlor serve` while a victim on
//! another address plays on.
//!
//! Terms:
//! - **attacker**: threads on addresses of 127.0.1.0–127.0.99.255 (one
//!   address, or many, as each attack says), doing what the attack does as
//!   fast as they are answered, until the attack's count or its seconds
//!   run out.
//! - **victim**: one player on 127.0.200.1 meanwhile, at a person's pace
//!   (a request every 200 ms): it rolls in its own Chutes matches (a new one
//!   when one ends), asks a hint in a Baffle match, saves a new grid, and
//!   reads the lobby, where a match it opened with a seat for anyone must
//!   stay listed (its **lobby place**). Any answer but a success, or none,
//!   is a **refusal**; its answer times give its p50 and p95.
//! - **lost**: after the attack the victim reads each of its matches back;
//!   one that holds fewer moves than it was answered lost them.
//! - **peak**: the server's peak resident memory (`VmHWM` of
//!   `/proc/PID/status`), read after the attack: each attack runs on a
//!   server of its own, so the peak is the attack's.
//!
//! An attack **holds** when the victim had no refusal, lost nothing, and
//! the peak is under [`MEMORY_GOAL_MIB`]; the victim's p95 is reported
//! against [`P95_GOAL_MS`] but does not decide it (the load client shares
//! the server's cores, so the figure moves with the machine's load).

use super::{Answer, Client, connect_from, running};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The victim's answer time goal, reported beside its p95.
pub const P95_GOAL_MS: f64 = 50.0;

/// The server's peak memory goal, in MiB: over it, the attack fails.
pub const MEMORY_GOAL_MIB: f64 = 300.0;

/// The victim's address.
const VICTIM: [u8; 4] = [127, 0, 200, 1];

/// What the attacks are told besides the server's address.
#[derive(Default)]
pub struct Options {
    /// The server's process id, for its peak memory.
    pub server_pid: Option<u32>,
    /// The metrics address (`--metrics-addr`), for attacks 3 and 11.
    pub metrics: Option<String>,
    /// The server's data directory, for the SQLite log's size (11).
    pub data_dir: Option<String>,
    /// A file of matches (`ID TOKEN MOVES` lines), for attack 10.
    pub ledger: Option<String>,
}

/// The `n`-th attacker address: 127.0.(1 + n / 250).(1 + n % 250).
fn attacker(n: usize) -> [u8; 4] {
    [127, 0, (1 + n / 250) as u8, (1 + n % 250) as u8]
}

/// A count of answers by what they were (`201`, `429 rate_limited`, …).
#[derive(Default)]
struct Counts(HashMap<String, u64>);

impl Counts {
    fn add(&mut self, answer: &Answer) {
        let what = match answer {
            Answer::Status(status, body) => match body["error"]["code"].as_str() {
                Some(code) => format!("{status} {code}"),
                None => status.to_string(),
            },
            Answer::Failed(_) => "no answer".to_string(),
        };
        *self.0.entry(what).or_default() += 1;
    }

    fn merge(&mut self, other: Counts) {
        for (what, n) in other.0 {
            *self.0.entry(what).or_default() += n;
        }
    }

    fn total(&self) -> u64 {
        self.0.values().sum()
    }

    fn get(&self, what: &str) -> u64 {
        self.0.get(what).copied().unwrap_or(0)
    }

    /// `"201": 60, "429 rate_limited": 4,000`, most first.
    fn show(&self) -> String {
        let mut all: Vec<_> = self.0.iter().collect();
        all.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        all.iter()
            .map(|(what, n)| format!("{n} × {what}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What the victim met.
#[derive(Default)]
struct Met {
    /// Answer times in µs by kind (`move`, `hint`, `save`, `lobby`).
    micros: HashMap<&'static str, Vec<u64>>,
    refused: Vec<String>,
    /// Its matches: id → (token, moves answered).
    ledger: HashMap<String, (String, u64)>,
}

impl Met {
    /// Times `call` as a request of `kind`; a non-2xx answer or none is a
    /// refusal. Returns the body of a success.
    fn timed(&mut self, kind: &'static str, call: impl FnOnce() -> Answer) -> Option<Value> {
        let started = Instant::now();
        let answer = call();
        self.micros
            .entry(kind)
            .or_default()
            .push(started.elapsed().as_micros() as u64);
        match answer {
            Answer::Status(200..=299, body) => Some(body),
            Answer::Status(status, body) => {
                self.refused.push(format!("{kind}: {status} {body}"));
                None
            }
            Answer::Failed(why) => {
                self.refused.push(format!("{kind}: {why}"));
                None
            }
        }
    }
}

/// The victim's match in play: id, token, moves seen.
struct Playing {
    id: String,
    token: String,
    after: u64,
}

/// Starts the victim (see the module's terms) until `deadline`.
fn victim(addr: &str, deadline: Instant) -> JoinHandle<Met> {
    let addr = addr.to_string();
    std::thread::spawn(move || {
        let mut me = Client::at(&addr, VICTIM);
        let mut met = Met::default();
        let open = json!({"game": "chutes", "seats": ["here", "anyone"]});
        let place = met
            .timed("move", || {
                me.call("POST", "/api/matches", None, Some(&open))
            })
            .and_then(|made| made["id"].as_str().map(str::to_string));
        let baffle = json!({"game": "baffle", "setup": {"size": 8, "mirrors": 4}});
        let boxed = met
            .timed("move", || {
                me.call("POST", "/api/matches", None, Some(&baffle))
            })
            .and_then(|made| made["id"].as_str().map(str::to_string));
        let design = met
            .timed("save", || {
                me.call("POST", "/api/tycoon/designs", None, Some(&json!({})))
            })
            .and_then(|made| made["id"].as_str().map(str::to_string));
        let mut playing: Option<Playing> = None;
        let mut round = 0u64;
        while running(deadline) {
            round += 1;
            // A roll in its own match, a new one when none.
            match playing.take() {
                None => {
                    let body = json!({"game": "chutes", "seats": ["here", "here"]});
                    if let Some(made) = met.timed("move", || {
                        me.call("POST", "/api/matches", None, Some(&body))
                    }) {
                        let id = made["id"].as_str().unwrap_or("").to_string();
                        let token = made["token"].as_str().unwrap_or("").to_string();
                        met.ledger.insert(id.clone(), (token.clone(), 0));
                        playing = Some(Playing {
                            id,
                            token,
                            after: made["view"]["moves"].as_u64().unwrap_or(0),
                        });
                    }
                }
                Some(mut game) => {
                    let path = format!("/api/matches/{}/moves", game.id);
                    let body = json!({"move": "roll", "after": game.after});
                    if let Some(answer) = met.timed("move", || {
                        me.call("POST", &path, Some(&game.token), Some(&body))
                    }) {
                        game.after = answer["view"]["moves"].as_u64().unwrap_or(game.after);
                        met.ledger
                            .insert(game.id.clone(), (game.token.clone(), game.after));
                        if answer["view"]["status"] == "playing" {
                            playing = Some(game);
                        }
                    }
                }
            }
            match round % 4 {
                1 => {
                    if let Some(id) = &boxed {
                        let path = format!("/api/baffle/matches/{id}/hint");
                        met.timed("hint", || me.call("POST", &path, None, Some(&json!({}))));
                    }
                }
                3 => {
                    if let Some(lobby) =
                        met.timed("lobby", || me.call("GET", "/api/lobby", None, None))
                    {
                        let listed = lobby["matches"].as_array().is_some_and(|all| {
                            all.iter().any(|m| m["id"].as_str() == place.as_deref())
                        });
                        if !listed {
                            met.refused
                                .push("lobby: its open match is not listed".to_string());
                        }
                    }
                }
                _ => {}
            }
            if round % 8 == 5
                && let Some(id) = &design
            {
                let path = format!("/api/tycoon/designs/{id}/save");
                let body = json!({"name": format!("victim {round}")});
                met.timed("save", || me.call("POST", &path, None, Some(&body)));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        met
    })
}

/// Reads the victim's matches back: (matches, moves answered, lost).
fn read_back(addr: &str, met: &Met) -> (usize, u64, Vec<String>) {
    let mut me = Client::at(addr, VICTIM);
    let mut lost = Vec::new();
    let mut moves = 0;
    for (id, (token, answered)) in &met.ledger {
        moves += answered;
        let kept = match me.call("GET", &format!("/api/matches/{id}"), Some(token), None) {
            Answer::Status(200, view) => view["moves"].as_u64(),
            _ => None,
        };
        if kept.is_none_or(|kept| kept < *answered) {
            lost.push(format!("{id}: {answered} answered, {kept:?} kept"));
        }
    }
    (met.ledger.len(), moves, lost)
}

/// Prints the attack's line and the victim's, and says whether it held.
fn judge(
    name: &str,
    addr: &str,
    options: &Options,
    figures: &str,
    met: &Met,
    attack_ok: bool,
) -> bool {
    let (matches, moves, lost) = read_back(addr, met);
    let mut all: Vec<u64> = met.micros.values().flatten().copied().collect();
    all.sort_unstable();
    let kinds: Vec<String> = ["move", "hint", "save", "lobby"]
        .iter()
        .map(|k| format!("{} {k}s", met.micros.get(k).map_or(0, Vec::len)))
        .collect();
    let p95 = super::percentile(&all, 95.0);
    let peak = options
        .server_pid
        .and_then(|pid| super::proc_mib(pid, "VmHWM"));
    println!("attack {name}: {figures}");
    println!(
        "   victim on 127.0.200.1: {} requests ({}), p50 {:.2} ms, p95 {p95:.2} ms{}, max {:.2} ms; \
         {} refused; {matches} matches read back, {moves} moves answered, {} lost; server peak {}",
        all.len(),
        kinds.join(", "),
        super::percentile(&all, 50.0),
        if p95 > P95_GOAL_MS {
            " (over the 50 ms goal)"
        } else {
            ""
        },
        all.last().map_or(0.0, |&m| m as f64 / 1000.0),
        met.refused.len(),
        lost.len(),
        peak.map_or("not read".to_string(), |p| format!("{p:.1} MiB")),
    );
    for why in met.refused.iter().take(5) {
        println!("   refused: {why}");
    }
    for why in lost.iter().take(5) {
        println!("   lost: {why}");
    }
    let memory_ok = peak.is_none_or(|p| p < MEMORY_GOAL_MIB);
    if !memory_ok {
        println!("   the server's peak is over the {MEMORY_GOAL_MIB} MiB goal");
    }
    let held = attack_ok && met.refused.is_empty() && lost.is_empty() && memory_ok;
    println!("   {}", if held { "held" } else { "FAILED" });
    held
}

/// Runs `threads` attacker threads, the `i`-th given `i`, until they
/// return, and adds up their counts.
fn attackers(threads: usize, work: impl Fn(usize) -> Counts + Send + Sync + 'static) -> Counts {
    let work = Arc::new(work);
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let work = Arc::clone(&work);
            std::thread::spawn(move || work(i))
        })
        .collect();
    let mut all = Counts::default();
    for handle in handles {
        if let Ok(counts) = handle.join() {
            all.merge(counts);
        }
    }
    all
}

/// Runs attack `name` against `addr` for `seconds`; true when it held.
pub fn run(name: &str, addr: &str, seconds: u64, options: &Options) -> Option<bool> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let victim = victim(addr, deadline);
    // Let the victim take its lobby place and start before the attack.
    std::thread::sleep(Duration::from_millis(500));
    let (figures, ok) = match name {
        "hints" => hints(addr, deadline),
        "rematches" => rematches(addr, deadline),
        "methods" => methods(addr, deadline, options),
        "pictures" => pictures(addr, deadline),
        "grids" => grids(addr, deadline),
        "slow-bodies" => slow_bodies(addr, deadline),
        "eviction" => eviction(addr, deadline),
        "names" => names(addr),
        "board-names" => board_names(addr, deadline),
        "damaged" => damaged(addr, deadline, options),
        "rest" => rest(addr, deadline, options),
        _ => return None,
    };
    let met = victim.join().unwrap_or_default();
    Some(judge(name, addr, options, &figures, &met, ok))
}

/// 1: 24 threads on one address make Baffle matches on 26 × 26 boxes and
/// ask hints and bot moves as fast as they are answered.
fn hints(addr: &str, deadline: Instant) -> (String, bool) {
    let addr = addr.to_string();
    let counts = attackers(24, move |_| {
        let mut client = Client::at(&addr, attacker(0));
        let mut counts = Counts::default();
        let body = json!({"game": "baffle", "setup": {"size": 26, "mirrors": 60}});
        let mut held: Option<(String, String, u64)> = None;
        let mut turn = 0u64;
        while running(deadline) {
            turn += 1;
            let Some((id, token, after)) = held.clone() else {
                let made = client.call("POST", "/api/matches", None, Some(&body));
                counts.add(&made);
                if let Answer::Status(201, made) = made {
                    held = Some((
                        made["id"].as_str().unwrap_or("").to_string(),
                        made["token"].as_str().unwrap_or("").to_string(),
                        made["view"]["moves"].as_u64().unwrap_or(0),
                    ));
                }
                continue;
            };
            let answer = if turn % 2 == 0 {
                let path = format!("/api/baffle/matches/{id}/hint");
                client.call("POST", &path, None, Some(&json!({})))
            } else {
                let path = format!("/api/baffle/matches/{id}/bot");
                client.call("POST", &path, Some(&token), Some(&json!({"after": after})))
            };
            counts.add(&answer);
            match answer {
                Answer::Status(200, body) if body["view"].is_object() => {
                    let after = body["view"]["moves"].as_u64().unwrap_or(after);
                    held = (body["view"]["status"] == "playing").then_some((id, token, after));
                }
                Answer::Status(409, _) => held = None,
                _ => {}
            }
        }
        counts
    });
    (
        format!(
            "24 threads on 127.0.1.1, Baffle on 26 × 26 boxes with 60 mirrors, hints and bot moves: {} requests: {}",
            counts.total(),
            counts.show()
        ),
        counts.get("429 rate_limited") > 0,
    )
}

/// Plays `id` (Chutes) with single rolls until it ends; false if a roll
/// was refused.
fn play_out(client: &mut Client, id: &str, token: &str, counts: &mut Counts) -> bool {
    let mut after = 0;
    for _ in 0..50 {
        let path = format!("/api/matches/{id}/moves");
        let answer = client.call(
            "POST",
            &path,
            Some(token),
            Some(&json!({"move": "roll", "after": after})),
        );
        let Answer::Status(200, body) = answer else {
            counts.add(&answer);
            return false;
        };
        after = body["view"]["moves"].as_u64().unwrap_or(after);
        if body["view"]["status"] != "playing" {
            return true;
        }
    }
    false
}

/// Uploads a board from `from`: its id, or the refusal as text.
fn upload(addr: &str, from: [u8; 4], text: &str) -> Result<String, String> {
    let mut client = Client::at(addr, from);
    match client.call(
        "POST",
        "/api/chutes/boards",
        None,
        Some(&json!({"text": text})),
    ) {
        Answer::Status(200 | 201, body) => Ok(body["id"].as_str().unwrap_or("").to_string()),
        Answer::Status(status, body) => Err(format!("{status} {}", body["error"]["code"])),
        Answer::Failed(why) => Err(why),
    }
}

/// The lobby: (its bytes, entries, entries among `ids`, longest title).
fn lobby(addr: &str, ids: &HashSet<String>) -> (usize, usize, usize, usize) {
    let mut client = Client::at(addr, [127, 0, 201, 1]);
    match client.call("GET", "/api/lobby", None, None) {
        Answer::Status(200, body) => {
            let all = body["matches"].as_array().cloned().unwrap_or_default();
            let theirs = all
                .iter()
                .filter(|m| m["id"].as_str().is_some_and(|id| ids.contains(id)))
                .count();
            let longest = all
                .iter()
                .filter_map(|m| m["title"].as_str().map(|t| t.chars().count()))
                .max()
                .unwrap_or(0);
            (client.last_len, all.len(), theirs, longest)
        }
        _ => (0, 0, 0, 0),
    }
}

/// 2: one address plays one-roll games on a 2-square board with a seat
/// for anyone and asks a rematch of each as fast as it is answered.
fn rematches(addr: &str, deadline: Instant) -> (String, bool) {
    let board = match upload(addr, attacker(0), "size = 2\n") {
        Ok(id) => id,
        Err(why) => return (format!("the 2-square board was refused: {why}"), false),
    };
    let made_ids = Arc::new(std::sync::Mutex::new(HashSet::new()));
    let ids = Arc::clone(&made_ids);
    let addr_owned = addr.to_string();
    let counts = attackers(4, move |_| {
        let mut client = Client::at(&addr_owned, attacker(0));
        let mut counts = Counts::default();
        let body =
            json!({"game": "chutes", "setup": {"board": board}, "seats": ["here", "anyone"]});
        let mut last: Option<(String, String)> = None;
        while running(deadline) {
            let answer = match &last {
                None => client.call("POST", "/api/matches", None, Some(&body)),
                Some((id, token)) => {
                    let path = format!("/api/matches/{id}/rematch");
                    client.call("POST", &path, Some(token), Some(&json!({})))
                }
            };
            counts.add(&answer);
            match answer {
                Answer::Status(200 | 201, made) => {
                    let id = made["id"].as_str().unwrap_or("").to_string();
                    let token = made["token"].as_str().map(str::to_string);
                    let token = token.or_else(|| last.as_ref().map(|l| l.1.clone()));
                    let token = token.unwrap_or_default();
                    ids.lock().unwrap().insert(id.clone());
                    last = play_out(&mut client, &id, &token, &mut counts).then_some((id, token));
                }
                Answer::Status(429, body) => {
                    let wait = body["error"]["retry_after"].as_u64().unwrap_or(1).min(2);
                    std::thread::sleep(Duration::from_secs(wait));
                    last = None;
                }
                _ => last = None,
            }
        }
        counts
    });
    let ids = made_ids.lock().unwrap().clone();
    let (bytes, listed, theirs, _) = lobby(addr, &ids);
    (
        format!(
            "4 threads on 127.0.1.1, one-roll games on a 2-square board and their rematches: {} requests: {}; \
             {} matches and rematches made; the lobby lists {listed} ({theirs} of them the attacker's), {bytes} bytes",
            counts.total(),
            counts.show(),
            ids.len()
        ),
        theirs <= 3,
    )
}

/// A made-up method of `len` capital letters, different for each `seed`.
fn made_up_method(len: usize, seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (b'A' + (x % 26) as u8) as char
        })
        .collect()
}

/// `GET /metrics` from the metrics address: (status, bytes, ms).
fn scrape(metrics: &str, host: &str) -> (u16, usize, f64) {
    let started = Instant::now();
    let Ok(mut stream) = TcpStream::connect(metrics) else {
        return (0, 0, 0.0);
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let _ = write!(
        stream,
        "GET /metrics HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    );
    let mut all = Vec::new();
    let _ = stream.read_to_end(&mut all);
    let text = String::from_utf8_lossy(&all);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or(0, |(_, b)| b.len());
    (status, body, started.elapsed().as_secs_f64() * 1000.0)
}

/// 3: 20,000 requests with 2,000-letter made-up methods from 20
/// addresses, and one of 70,000 letters; then `/metrics`.
fn methods(addr: &str, deadline: Instant, options: &Options) -> (String, bool) {
    let sent = Arc::new(AtomicU64::new(0));
    let addr_owned = addr.to_string();
    let started = Instant::now();
    let counts = attackers(20, move |i| {
        let mut client = Client::at(&addr_owned, attacker(i));
        let mut counts = Counts::default();
        while running(deadline) && sent.fetch_add(1, Ordering::Relaxed) < 20_000 {
            let method = made_up_method(2_000, sent.load(Ordering::Relaxed));
            counts.add(&client.call(&method, "/api/lobby", None, None));
        }
        counts
    });
    let took = started.elapsed().as_secs_f64();
    let mut client = Client::at(addr, attacker(21));
    let long = client.call(&made_up_method(70_000, 7), "/api/lobby", None, None);
    let long = match long {
        Answer::Status(status, _) => status.to_string(),
        Answer::Failed(why) => why,
    };
    let (metrics, ok) = match &options.metrics {
        Some(metrics) => {
            let (status, bytes, ms) = scrape(metrics, metrics);
            (
                format!("; /metrics {status}, {bytes} bytes, scraped in {ms:.1} ms"),
                status == 200 && bytes < 1_000_000,
            )
        }
        None => (String::new(), true),
    };
    (
        format!(
            "20 addresses sent {} requests with 2,000-letter methods in {took:.1} s: {}; one of 70,000 letters: {long}{metrics}",
            counts.total(),
            counts.show()
        ),
        ok && counts.get("200") == 0,
    )
}

/// 4: a 10,000-square board uploaded, then 48 threads on 48 addresses
/// asking its picture as fast as they are answered.
fn pictures(addr: &str, deadline: Instant) -> (String, bool) {
    let board = match upload(
        addr,
        attacker(0),
        "size = 10000\nladders = [[3, 9000]]\nchutes = [[9990, 5]]\n",
    ) {
        Ok(id) => id,
        Err(why) => return (format!("the 10,000-square board was refused: {why}"), false),
    };
    let addr_owned = addr.to_string();
    let bytes = Arc::new(AtomicU64::new(0));
    let most = Arc::clone(&bytes);
    let counts = attackers(48, move |i| {
        let mut client = Client::at(&addr_owned, attacker(i));
        let mut counts = Counts::default();
        let path = format!("/api/chutes/boards/{board}/svg");
        while running(deadline) {
            let answer = client.call("GET", &path, None, None);
            if matches!(answer, Answer::Status(200, _)) {
                most.fetch_max(client.last_len as u64, Ordering::Relaxed);
            }
            counts.add(&answer);
        }
        counts
    });
    (
        format!(
            "48 threads on 48 addresses asked the picture of a 10,000-square board ({:.1} MB each): {} requests: {}",
            bytes.load(Ordering::Relaxed) as f64 / 1e6,
            counts.total(),
            counts.show()
        ),
        true,
    )
}

/// 5: 200 addresses each make a design and save it under made-up bearer
/// tokens, a new name each time, as fast as they are answered.
fn grids(addr: &str, deadline: Instant) -> (String, bool) {
    let addr_owned = addr.to_string();
    let largest = Arc::new(AtomicU64::new(0));
    let biggest = Arc::clone(&largest);
    let counts = attackers(200, move |i| {
        let mut client = Client::at(&addr_owned, attacker(i));
        let mut counts = Counts::default();
        let made = client.call("POST", "/api/tycoon/designs", None, Some(&json!({})));
        let Answer::Status(200, design) = made else {
            counts.add(&made);
            return counts;
        };
        let path = format!(
            "/api/tycoon/designs/{}/save",
            design["id"].as_str().unwrap_or("")
        );
        let mut n = 0;
        while running(deadline) && n < 400 {
            n += 1;
            let token = format!("made-up-{i}-{n}");
            let body = json!({"name": format!("g {i} {n}")});
            let answer = client.call("POST", &path, Some(&token), Some(&body));
            biggest.fetch_max(client.last_len as u64, Ordering::Relaxed);
            if let Answer::Status(429, _) = answer {
                std::thread::sleep(Duration::from_millis(500));
            }
            counts.add(&answer);
        }
        counts
    });
    let saved = counts.get("200") + counts.get("201");
    (
        format!(
            "200 addresses × made-up tokens saved grids: {} requests: {}; {saved} grids kept; \
             the largest save's answer {} bytes",
            counts.total(),
            counts.show(),
            largest.load(Ordering::Relaxed)
        ),
        true,
    )
}

/// 6: 1,000 connections from 20 addresses, each sending a body of
/// `Content-Length: 100000` at a byte a second, reopened as the server
/// closes them.
fn slow_bodies(addr: &str, deadline: Instant) -> (String, bool) {
    let head = format!(
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    );
    let mut held: Vec<Option<TcpStream>> = (0..1000).map(|_| None).collect();
    let (mut opened, mut closed, mut failed) = (0u64, 0u64, 0u64);
    let mut answers = Counts::default();
    while running(deadline) {
        let second = Instant::now();
        for (i, slot) in held.iter_mut().enumerate() {
            if slot.is_none() {
                match connect_from(addr, attacker(i % 20)) {
                    Ok(mut stream) => {
                        let _ = stream.set_nonblocking(true);
                        if stream.write_all(head.as_bytes()).is_ok() {
                            opened += 1;
                            *slot = Some(stream);
                        }
                    }
                    Err(_) => failed += 1,
                }
                continue;
            }
            let Some(stream) = slot.as_mut() else {
                continue;
            };
            // An answer (408, 503) or a close ends this one; it is reopened.
            let mut buffer = [0u8; 512];
            let ended = match stream.read(&mut buffer) {
                Ok(0) => true,
                Ok(n) => {
                    let text = String::from_utf8_lossy(&buffer[..n]).to_string();
                    let status = text.split_whitespace().nth(1).unwrap_or("?").to_string();
                    *answers.0.entry(status).or_default() += 1;
                    true
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    stream.write_all(b" ").is_err()
                }
                Err(_) => true,
            };
            if ended {
                closed += 1;
                *slot = None;
            }
        }
        std::thread::sleep(Duration::from_secs(1).saturating_sub(second.elapsed()));
    }
    (
        format!(
            "1,000 slow bodies from 20 addresses (Content-Length: 100000 at a byte a second): {opened} opened, \
             {closed} closed by the server ({}), {failed} could not connect",
            answers.show()
        ),
        true,
    )
}

/// 7: ten other players each hold a design and an uploaded board, and use
/// them; then 2,000 addresses each make a design and upload a board; the
/// ten read theirs back.
fn eviction(addr: &str, deadline: Instant) -> (String, bool) {
    let board_text = "size = 30\nladders = [[3, 22]]\nchutes = [[27, 7]]\n";
    let mut held = Vec::new();
    for n in 0..10u8 {
        let mut client = Client::at(addr, [127, 0, 202, 1 + n]);
        let design = client.call("POST", "/api/tycoon/designs", None, Some(&json!({})));
        let board = upload(addr, [127, 0, 202, 1 + n], board_text);
        if let (Answer::Status(200, design), Ok(board)) = (design, board) {
            let design = design["id"].as_str().unwrap_or("").to_string();
            client.call("GET", &format!("/api/tycoon/designs/{design}"), None, None);
            client.call("GET", &format!("/api/chutes/boards/{board}"), None, None);
            held.push((client, design, board));
        }
    }
    let addr_owned = addr.to_string();
    let started = Instant::now();
    let counts = attackers(20, move |t| {
        let mut counts = Counts::default();
        for i in (t..2000).step_by(20) {
            if !running(deadline) {
                break;
            }
            let mut client = Client::at(&addr_owned, attacker(i));
            counts.add(&client.call("POST", "/api/tycoon/designs", None, Some(&json!({}))));
            counts.add(&client.call(
                "POST",
                "/api/chutes/boards",
                None,
                Some(&json!({"text": board_text})),
            ));
        }
        counts
    });
    let took = started.elapsed().as_secs_f64();
    let (mut designs, mut boards) = (0, 0);
    for (client, design, board) in &mut held {
        if let Answer::Status(200, _) =
            client.call("GET", &format!("/api/tycoon/designs/{design}"), None, None)
        {
            designs += 1;
        }
        if let Answer::Status(200, _) =
            client.call("GET", &format!("/api/chutes/boards/{board}"), None, None)
        {
            boards += 1;
        }
    }
    (
        format!(
            "2,000 addresses × (a design and a board) in {took:.1} s: {}; the ten others kept {designs} of {} designs and {boards} of {} boards",
            counts.show(),
            held.len(),
            held.len()
        ),
        held.len() == 10 && designs == 10 && boards == 10,
    )
}

/// The names of attack 8: each must be refused.
const NAMES: &[(&str, &str)] = &[
    ("a lone U+3164", "\u{3164}"),
    ("a lone U+FFA0", "\u{FFA0}"),
    ("U+2800 braille blanks", "\u{2800}\u{2800}"),
    ("a tag character U+E0041", "Bo\u{E0041}"),
    ("the combining grapheme joiner U+034F", "B\u{034F}o"),
    ("a variation selector U+FE0F", "Bo\u{FE0F}"),
    ("U+180B", "Bo\u{180B}"),
    ("U+17B4", "Bo\u{17B4}"),
    ("U+1D173", "Bo\u{1D173}"),
    ("a zero-width space", "B\u{200B}o"),
    ("a right-to-left override", "Bo\u{202E}"),
    ("\"Bot\"", "Bot"),
    ("\"Hard bot\"", "Hard bot"),
    ("\"Player 2\"", "Player 2"),
    ("Cyrillic \"Аda\" beside \"Ada\"", "\u{0410}da"),
];

/// 8: each name of [`NAMES`] given to a seat beside "Ada".
fn names(addr: &str) -> (String, bool) {
    let mut client = Client::at(addr, attacker(0));
    let body = json!({"game": "chutes", "seats": [{"plan": "here", "name": "Ada"}, "here"]});
    let Answer::Status(201, made) = client.call("POST", "/api/matches", None, Some(&body)) else {
        return ("no match to name seats in".to_string(), false);
    };
    let path = format!("/api/matches/{}/name", made["id"].as_str().unwrap_or(""));
    let token = made["token"].as_str().unwrap_or("").to_string();
    let mut accepted = Vec::new();
    for (what, name) in NAMES {
        let answer = client.call(
            "POST",
            &path,
            Some(&token),
            Some(&json!({"seat": 2, "name": name})),
        );
        if !matches!(&answer, Answer::Status(400, body) if body["error"]["code"] == "bad_name") {
            accepted.push(*what);
        }
    }
    (
        format!(
            "{} of {} names refused 400 bad_name{}",
            NAMES.len() - accepted.len(),
            NAMES.len(),
            if accepted.is_empty() {
                String::new()
            } else {
                format!("; not refused: {}", accepted.join(", "))
            }
        ),
        accepted.is_empty(),
    )
}

/// 9: a board named with 900 KB ending in U+202E, then the longest name
/// allowed and matches with a seat for anyone on it from one address.
fn board_names(addr: &str, deadline: Instant) -> (String, bool) {
    let huge = format!("size = 30\nname = \"{}\u{202E}\"\n", "x".repeat(900_000));
    let huge = match upload(addr, attacker(0), &huge) {
        Ok(_) => "accepted".to_string(),
        Err(why) => why,
    };
    let longest = format!("size = 30\nname = \"{}\"\n", "W".repeat(64));
    let board = match upload(addr, attacker(0), &longest) {
        Ok(id) => id,
        Err(why) => return (format!("a 64-letter name was refused: {why}"), false),
    };
    let mut client = Client::at(addr, attacker(0));
    let mut counts = Counts::default();
    let mut ids = HashSet::new();
    let body = json!({"game": "chutes", "setup": {"board": board}, "seats": ["here", "anyone"]});
    while running(deadline) && counts.total() < 200 {
        let answer = client.call("POST", "/api/matches", None, Some(&body));
        if let Answer::Status(201, made) = &answer {
            ids.insert(made["id"].as_str().unwrap_or("").to_string());
        }
        counts.add(&answer);
    }
    let (bytes, listed, theirs, title) = lobby(addr, &ids);
    (
        format!(
            "a 900,000-letter board name ending in U+202E: {huge}; 200 matches on a board of a 64-letter name from one address: {}; \
             the lobby lists {listed} ({theirs} of them the attacker's), {bytes} bytes, its longest title {title} characters",
            counts.show()
        ),
        huge.starts_with("400") && title <= 80 && bytes < 100_000,
    )
}

/// 10, before the damage: four Chutes matches of three rolls each from
/// one address, written to the ledger.
pub fn damage_prepare(addr: &str, ledger: &str) -> bool {
    let mut client = Client::at(addr, attacker(0));
    let mut lines = String::new();
    let body = json!({"game": "chutes", "seats": ["here", "here"]});
    for _ in 0..4 {
        let Answer::Status(201, made) = client.call("POST", "/api/matches", None, Some(&body))
        else {
            return false;
        };
        let id = made["id"].as_str().unwrap_or("").to_string();
        let token = made["token"].as_str().unwrap_or("").to_string();
        let mut after = 0;
        for _ in 0..3 {
            let path = format!("/api/matches/{id}/moves");
            let roll = json!({"move": "roll", "after": after});
            if let Answer::Status(200, answer) =
                client.call("POST", &path, Some(&token), Some(&roll))
            {
                after = answer["view"]["moves"].as_u64().unwrap_or(after);
            }
        }
        lines.push_str(&format!("{id} {token} {after}\n"));
    }
    std::fs::write(ledger, lines).is_ok()
}

/// 10, the damage: the first move of each match of the ledger becomes the
/// bytes `ff fe 6c 6c` (not UTF-8) in the SQLite file at `db`, the server
/// stopped.
pub fn damage(db: &str, ledger: &str) -> Result<usize, String> {
    let text = std::fs::read_to_string(ledger).map_err(|e| e.to_string())?;
    let conn = rusqlite::Connection::open(db).map_err(|e| e.to_string())?;
    let mut changed = 0;
    for line in text.lines() {
        let id = line.split(' ').next().unwrap_or("");
        changed += conn
            .execute(
                "UPDATE moves SET entry = CAST(X'fffe6c6c' AS TEXT) WHERE match_id = ?1 AND number = 1",
                [id],
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(changed)
}

/// 10: the damaged matches of the ledger read and moved in, again and
/// again, while the victim plays; `/readyz` meanwhile.
fn damaged(addr: &str, deadline: Instant, options: &Options) -> (String, bool) {
    let Some(text) = options
        .ledger
        .as_ref()
        .and_then(|l| std::fs::read_to_string(l).ok())
    else {
        return ("no ledger of damaged matches (--ledger)".to_string(), false);
    };
    let mut client = Client::at(addr, attacker(0));
    let mut reads = Counts::default();
    let mut moves = Counts::default();
    let mut ready = Counts::default();
    let mut example = String::new();
    while running(deadline) && reads.total() < 400 {
        for line in text.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            let [id, token, after] = fields[..] else {
                continue;
            };
            let read = client.call("GET", &format!("/api/matches/{id}"), Some(token), None);
            if example.is_empty()
                && let Answer::Status(_, body) = &read
            {
                example = body["error"]["message"].as_str().unwrap_or("").to_string();
            }
            reads.add(&read);
            let roll = json!({"move": "roll", "after": after.parse::<u64>().unwrap_or(0)});
            moves.add(&client.call(
                "POST",
                &format!("/api/matches/{id}/moves"),
                Some(token),
                Some(&roll),
            ));
        }
        ready.add(&client.call("GET", "/readyz", None, None));
        std::thread::sleep(Duration::from_millis(50));
    }
    let all_damaged = reads.get("500 damaged_record") == reads.total()
        && moves.get("500 damaged_record") == moves.total();
    (
        format!(
            "4 matches with a move of bytes ff fe 6c 6c: reads {}; moves {}; /readyz {}; e.g. {example:?}",
            reads.show(),
            moves.show(),
            ready.show()
        ),
        all_damaged && ready.get("200") == ready.total() && reads.total() > 0,
    )
}

/// A raw request's status line and headers, and its body.
fn raw(addr: &str, from: [u8; 4], request: &str) -> (u16, String) {
    let Ok(mut stream) = connect_from(addr, from) else {
        return (0, String::new());
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.write_all(request.as_bytes());
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    let _ = reader.read_line(&mut status);
    let mut rest = Vec::new();
    let _ = reader.read_to_end(&mut rest);
    let code = status
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (code, String::from_utf8_lossy(&rest).to_string())
}

/// The size of the SQLite log in `data_dir`, in bytes (0 when none).
fn log_bytes(data_dir: &str) -> u64 {
    std::fs::metadata(format!("{data_dir}/parlor.db-wal")).map_or(0, |m| m.len())
}

/// 11: the metrics address with another `Host`; `APPLICATION/JSON`;
/// `"repeat": true` until refused; then 40,000 moves from 20 addresses
/// (whole games with `"repeat": true`), the SQLite log's size sampled.
fn rest(addr: &str, deadline: Instant, options: &Options) -> (String, bool) {
    let mut ok = true;
    let mut figures = Vec::new();
    if let Some(metrics) = &options.metrics {
        let (evil, _, _) = scrape(metrics, "evil.example");
        let (own, _, _) = scrape(metrics, metrics);
        figures.push(format!(
            "/metrics with Host: evil.example {evil}, with its own address {own}"
        ));
        ok &= evil == 403 && own == 200;
    }
    let body = json!({"game": "chutes", "seats": ["here", "here"]}).to_string();
    let (status, _) = raw(
        addr,
        attacker(0),
        &format!(
            "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: APPLICATION/JSON\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    figures.push(format!("Content-Type: APPLICATION/JSON {status}"));
    ok &= status == 201;
    // One address plays whole games on a 10,000-square board (thousands
    // of rolls each) with repeat until refused.
    let long = upload(addr, attacker(1), "size = 10000\n").unwrap_or_default();
    let mut client = Client::at(addr, attacker(1));
    let (mut played, mut requests, mut refusal) = (0u64, 0u64, String::from("none"));
    while running(deadline) && requests < 100 {
        let body = json!({"game": "chutes", "setup": {"board": long}, "seats": ["here", "here"]});
        let made = client.call("POST", "/api/matches", None, Some(&body));
        let Answer::Status(201, made) = made else {
            let mut counts = Counts::default();
            counts.add(&made);
            refusal = format!("a new match refused: {}", counts.show());
            break;
        };
        let path = format!("/api/matches/{}/moves", made["id"].as_str().unwrap_or(""));
        let token = made["token"].as_str().unwrap_or("").to_string();
        requests += 1;
        match client.call(
            "POST",
            &path,
            Some(&token),
            Some(&json!({"move": "roll", "after": 0, "repeat": true})),
        ) {
            Answer::Status(200, answer) => {
                played += answer["played"].as_array().map_or(0, Vec::len) as u64;
            }
            Answer::Status(status, answer) => {
                refusal = format!("{status} {}", answer["error"]["code"]);
                break;
            }
            Answer::Failed(why) => {
                refusal = why;
                break;
            }
        }
    }
    figures.push(format!(
        "one address with \"repeat\" on a 10,000-square board: {played} moves in {requests} requests, then {refusal}"
    ));
    ok &= refusal.starts_with("429");
    // 40,000 moves from 20 addresses, the log's size sampled.
    if let Some(dir) = options.data_dir.clone() {
        let moves = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&moves);
        let addr_owned = addr.to_string();
        let sampler_dir = dir.clone();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = Arc::clone(&done);
        let sampler = std::thread::spawn(move || {
            let mut most = 0;
            while !stop.load(Ordering::Relaxed) {
                most = most.max(log_bytes(&sampler_dir));
                std::thread::sleep(Duration::from_millis(50));
            }
            most
        });
        let started = Instant::now();
        let counts = attackers(20, move |i| {
            let mut client = Client::at(&addr_owned, attacker(10 + i));
            let mut counts = Counts::default();
            while running(deadline) && counted.load(Ordering::Relaxed) < 40_000 {
                let made = client.call(
                    "POST",
                    "/api/matches",
                    None,
                    Some(&json!({"game": "chutes", "seats": ["here", "here"]})),
                );
                let Answer::Status(201, made) = made else {
                    counts.add(&made);
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                };
                let path = format!("/api/matches/{}/moves", made["id"].as_str().unwrap_or(""));
                let token = made["token"].as_str().unwrap_or("").to_string();
                let answer = client.call(
                    "POST",
                    &path,
                    Some(&token),
                    Some(&json!({"move": "roll", "after": 0, "repeat": true})),
                );
                if let Answer::Status(200, body) = &answer {
                    counted.fetch_add(
                        body["played"].as_array().map_or(0, Vec::len) as u64,
                        Ordering::Relaxed,
                    );
                }
                counts.add(&answer);
            }
            counts
        });
        // The log is cut back once checkpointed and written again (the
        // victim plays on): up to 10 s.
        let settling = Instant::now();
        while log_bytes(&dir) > 17 << 20 && settling.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(100));
        }
        let settled = settling.elapsed().as_secs_f64();
        done.store(true, Ordering::Relaxed);
        let most = sampler.join().unwrap_or(0);
        let moved = moves.load(Ordering::Relaxed);
        figures.push(format!(
            "{moved} moves from 20 addresses in {:.1} s ({}): the SQLite log at most {:.1} MB, {:.1} MB {settled:.1} s after",
            started.elapsed().as_secs_f64(),
            counts.show(),
            most as f64 / 1e6,
            log_bytes(&dir) as f64 / 1e6
        ));
        // Cut back to SQLite's journal_size_limit (16 MiB) once the burst
        // is checkpointed.
        ok &= log_bytes(&dir) <= 17 << 20;
    }
    (figures.join("; "), ok)
}
