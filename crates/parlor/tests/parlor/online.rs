//! Online play with real `parlor serve` processes: two servers sharing one
//! PostgreSQL, and matches that lose no acknowledged move when their
//! server is killed (`kill -9`) or told to stop (`kill -TERM`) again and
//! again.

#![allow(clippy::unwrap_used)] // A missing field fails the test where it is read.

use crate::common;

use common::server::{Events, Server, request};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The moves of a match as its player was told: number → the move's
/// events in words.
type Told = BTreeMap<u64, Vec<String>>;

fn words(played: &Value) -> Vec<String> {
    played["events"]
        .as_array()
        .map(|events| {
            events
                .iter()
                .map(|e| e["text"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Makes a two-seat Chutes match on `addr`, both seats here; its id and
/// token.
fn chutes_here(addr: &str) -> (String, String) {
    new_chutes_match(addr).expect("the server answers")
}

/// Like [`chutes_here`], but `None` when the server is gone (stopped
/// while it was asked) or is draining (told to stop, it makes nothing new).
fn new_chutes_match(addr: &str) -> Option<(String, String)> {
    let (status, made) = request(
        addr,
        "POST",
        "/api/matches",
        None,
        Some(&json!({"game": "chutes", "seats": ["here", "here"]})),
    )?;
    if status == 503 && made["error"]["code"] == "draining" {
        return None;
    }
    assert_eq!(status, 201, "{made}");
    Some((
        made["id"].as_str().unwrap().to_string(),
        made["token"].as_str().unwrap().to_string(),
    ))
}

#[test]
fn two_servers_on_one_postgres_play_one_match_live() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = runtime.block_on(testkit::fresh_postgres());
    let data_a = tempfile::tempdir().unwrap();
    let data_b = tempfile::tempdir().unwrap();
    let a = Server::start(data_a.path(), "127.0.0.1:0", &["--database", &url]);
    let b = Server::start(data_b.path(), "127.0.0.1:0", &["--database", &url]);
    // Made on A, with a friend's seat.
    let (status, made) = request(
        &a.addr,
        "POST",
        "/api/matches",
        None,
        Some(&json!({"game": "chutes", "seats": ["here", "open"]})),
    )
    .unwrap();
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let host = made["token"].as_str().unwrap().to_string();
    let invite = made["invites"][0]["invite"].as_str().unwrap().to_string();
    // The friend takes the seat through B; the host's page is on A.
    let mut on_a = Events::open(&a.addr, &id);
    let first = on_a.next(Duration::from_secs(10)).expect("the first event");
    assert_eq!(first["view"]["moves"], 0);
    let (status, joined) = request(
        &b.addr,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        Some(&json!({"seat": 2, "invite": invite})),
    )
    .unwrap();
    assert_eq!(status, 200, "{joined}");
    let guest = joined["token"].as_str().unwrap().to_string();
    let seated = on_a
        .next(Duration::from_secs(5))
        .expect("A hears the seat taken");
    assert_eq!(seated["view"]["players"][1]["state"], "taken");
    let mut on_b = Events::open(&b.addr, &id);
    on_b.next(Duration::from_secs(10)).expect("B's first event");
    // They take turns, each through a different server; each move reaches
    // the page on the other server.
    let mut delays = Vec::new();
    let mut moves = 0u64;
    for turn in 0..12 {
        let (addr, token, other) = if turn % 2 == 0 {
            (&a.addr, &host, &mut on_b)
        } else {
            (&b.addr, &guest, &mut on_a)
        };
        let sent = Instant::now();
        let (status, answer) = request(
            addr,
            "POST",
            &format!("/api/matches/{id}/moves"),
            Some(token),
            Some(&json!({"move": "roll", "after": moves})),
        )
        .unwrap();
        if status == 409 && answer["error"]["code"] == "game_over" {
            break;
        }
        assert_eq!(status, 200, "{answer}");
        moves += 1;
        let heard = loop {
            let change = other.next(Duration::from_secs(5)).unwrap_or_else(|| {
                panic!(
                    "move {moves} never reached the other server's page; A said:\n{}\nB said:\n{}",
                    a.errors(),
                    b.errors()
                )
            });
            if change["view"]["moves"] == moves {
                break change;
            }
        };
        delays.push(sent.elapsed());
        assert_eq!(heard["played"][0]["number"], moves);
        assert_eq!(words(&heard["played"][0]), words(&answer["played"][0]));
        if answer["view"]["status"] != "playing" {
            break;
        }
    }
    delays.sort();
    let median = delays[delays.len() / 2];
    eprintln!(
        "a move reached the other server's page in {median:?} (median of {})",
        delays.len()
    );
    assert!(median < Duration::from_secs(1), "median {median:?}");
    // Both servers see the same match.
    let (_, seen_a) = request(&a.addr, "GET", &format!("/api/matches/{id}"), None, None).unwrap();
    let (_, seen_b) = request(&b.addr, "GET", &format!("/api/matches/{id}"), None, None).unwrap();
    assert_eq!(seen_a["view"], seen_b["view"]);
    assert_eq!(seen_a["moves"], moves);
    // The same stale move sent to both at once is stored once.
    let racers: Vec<_> = [a.addr.clone(), b.addr.clone()]
        .into_iter()
        .map(|addr| {
            let (id, host, guest) = (id.clone(), host.clone(), guest.clone());
            std::thread::spawn(move || {
                let token = if moves % 2 == 0 { host } else { guest };
                request(
                    &addr,
                    "POST",
                    &format!("/api/matches/{id}/moves"),
                    Some(&token),
                    Some(&json!({"move": "roll", "after": moves})),
                )
                .unwrap()
                .0
            })
        })
        .collect();
    let statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
    if seen_a["status"] == "playing" {
        assert_eq!(
            statuses.iter().filter(|&&s| s == 200).count(),
            1,
            "one of the racing moves is played: {statuses:?}"
        );
    }
}

/// How the server is stopped, again and again, in [`play_through_stops`].
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// `kill -9`: a crash; the move in flight may or may not be kept.
    Crash,
    /// `kill -TERM`: the server finishes what it is answering, then exits
    /// with status 0.
    Terminate,
}

/// Plays moves in a loop on three matches at a time, starting with
/// `matches` and making a new one whenever one is over, while another
/// thread stops the server (`how`) at a random moment, `stops` times,
/// starting it again after each; checks after each restart that every
/// acknowledged move was kept, and at the end that each is in its match's
/// record as it was told; returns what the player was told, match by
/// match.
fn play_through_stops(
    start: &dyn Fn() -> Server,
    mut matches: Vec<(String, String)>,
    how: Stop,
    stops: usize,
) -> Vec<Told> {
    let mut rng = tabletop::Rng::new(2026);
    let mut told: Vec<Told> = vec![Told::new(); matches.len()];
    let mut after: Vec<u64> = vec![0; matches.len()];
    // The matches being played: indexes into `matches`.
    let mut playing: Vec<usize> = (0..matches.len()).collect();
    let mut server = start();
    for _ in 0..stops {
        // The signal comes after a random while, whatever this thread is
        // doing then: often in the middle of a move.
        let lifetime = Duration::from_millis(50 + rng.below(400));
        let signal = server.signal();
        let name = if how == Stop::Crash { "KILL" } else { "TERM" };
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(lifetime);
            signal.send(name);
        });
        let born = Instant::now();
        let addr = server.addr.clone();
        let mut i = 0usize;
        loop {
            assert!(
                born.elapsed() < lifetime + Duration::from_secs(20),
                "the server still answers 20 s after kill -{name}"
            );
            let slot = i % playing.len();
            i += 1;
            let m = playing[slot];
            let (id, token) = &matches[m];
            let answer = request(
                &addr,
                "POST",
                &format!("/api/matches/{id}/moves"),
                Some(token),
                Some(&json!({"move": "roll", "after": after[m]})),
            );
            match answer {
                Some((200, body)) => {
                    for played in body["played"].as_array().unwrap() {
                        let n = played["number"].as_u64().unwrap();
                        assert!(
                            told[m].insert(n, words(played)).is_none(),
                            "move {n} told twice"
                        );
                    }
                    after[m] = body["view"]["moves"].as_u64().unwrap();
                }
                Some((409, body)) if body["error"]["code"] == "game_over" => {
                    // Over: a new match takes its place.
                    let Some(fresh) = new_chutes_match(&addr) else {
                        break;
                    };
                    playing[slot] = matches.len();
                    matches.push(fresh);
                    told.push(Told::new());
                    after.push(0);
                }
                // One address's fair share met: waited out, as a client would.
                Some((429, _)) => std::thread::sleep(Duration::from_millis(100)),
                // Told to stop, the server refuses new moves.
                Some((503, body))
                    if how == Stop::Terminate && body["error"]["code"] == "draining" =>
                {
                    break;
                }
                Some((status, body)) => panic!("move refused: {status} {body}"),
                // Stopped: a move cut short may or may not have been kept.
                None => break,
            }
        }
        stopper.join().unwrap();
        let status = server.exit_within(Duration::from_secs(15));
        if how == Stop::Terminate {
            assert!(
                status.success(),
                "kill -TERM ends the server with 0: {status}"
            );
        }
        server = start();
        // Where each match stands now: what was kept.
        for (m, (id, token)) in matches.iter().enumerate() {
            let (status, view) = request(
                &server.addr,
                "GET",
                &format!("/api/matches/{id}"),
                Some(token),
                None,
            )
            .expect("the restarted server answers");
            assert_eq!(status, 200, "match {id} replays after a stop: {view}");
            let kept = view["moves"].as_u64().unwrap();
            assert!(
                kept >= after[m],
                "acknowledged moves were lost: {kept} < {}",
                after[m]
            );
            after[m] = kept;
        }
    }
    // Finish every match, then read each move from its record.
    for (m, (id, token)) in matches.iter().enumerate() {
        let (status, body) = call_as_a_client_would(
            &server.addr,
            "POST",
            &format!("/api/matches/{id}/moves"),
            Some(token),
            Some(&json!({"move": "roll", "after": after[m], "repeat": true})),
        );
        assert!(
            status == 200 || body["error"]["code"] == "game_over",
            "{body}"
        );
        let (status, record) = call_as_a_client_would(
            &server.addr,
            "GET",
            &format!("/api/matches/{id}/record"),
            None,
            None,
        );
        assert_eq!(status, 200, "{record}");
        let stored = record["moves"].as_array().unwrap().len() as u64;
        for (&n, events) in &told[m] {
            assert!(n <= stored, "acknowledged move {n} is not in the record");
            let path = format!("/api/matches/{id}/replay?at={n}");
            let (status, step) = call_as_a_client_would(&server.addr, "GET", &path, None, None);
            assert_eq!(status, 200, "{path}: {step}");
            assert_eq!(&words(&step["played"]), events, "move {n} as stored");
        }
    }
    told
}

/// `method path`'s answer, asked again, as a client would, while the
/// server says to wait (`429`: one address finishing matches and reading
/// hundreds of replays at once meets its fair share; `503 busy`).
fn call_as_a_client_would(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    for _ in 0..100 {
        let answer = request(addr, method, path, token, body).expect("the server answers");
        if answer.0 != 429 && answer.0 != 503 {
            return answer;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{method} {path}: still told to wait after 10 s");
}

/// Makes three matches on a server with `extra` arguments (its store),
/// then plays through `stops` stops of the kind `how`
/// ([`play_through_stops`]), and checks that at least `at_least` moves
/// were acknowledged on the way.
fn stop_again_and_again(extra: &[&str], how: Stop, stops: usize, at_least: usize) {
    let data = tempfile::tempdir().unwrap();
    let first = Server::start(data.path(), "127.0.0.1:0", extra);
    let addr = first.addr.clone();
    let matches: Vec<(String, String)> = (0..3).map(|_| chutes_here(&addr)).collect();
    first.kill();
    let start = || Server::start(data.path(), &addr, extra);
    let told = play_through_stops(&start, matches, how, stops);
    let acknowledged: usize = told.iter().map(BTreeMap::len).sum();
    eprintln!(
        "{acknowledged} acknowledged moves in {} matches through {stops} stops",
        told.len()
    );
    assert!(
        acknowledged >= at_least,
        "the loop played too little to prove much: {acknowledged} moves"
    );
}

#[test]
fn no_acknowledged_move_is_lost_when_the_server_is_killed_again_and_again() {
    stop_again_and_again(&[], Stop::Crash, 25, 250);
}

#[test]
fn no_acknowledged_move_is_lost_on_postgres_either() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = runtime.block_on(testkit::fresh_postgres());
    stop_again_and_again(&["--database", &url], Stop::Crash, 10, 100);
}

#[test]
fn no_acknowledged_move_is_lost_when_the_server_is_told_to_stop() {
    stop_again_and_again(&[], Stop::Terminate, 10, 100);
}
