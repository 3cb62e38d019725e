//! A classroom: the teacher opens it on the page, 30 students (HTTP
//! clients of this test, each on a thread of its own, as phones) join and
//! play their games, and the projected page shows them live: the
//! histogram counts every game, the mean shown is the mean of the games'
//! lengths (counted apart, from each match's record), and the teacher's
//! CSV lists the same games. Screenshots at 1920 × 1080 and 390 × 844,
//! light and dark.
//!
//! Terms:
//! - **student**: a thread with its own HTTP client (a plain HTTP/1.1
//!   request a connection, over `std::net`).

use crate::Browser;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// One request to the app at `base` (`http://127.0.0.1:PORT`): its status
/// and its body (JSON, or its text as a string).
fn request(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).expect("the app answers");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout");
    let payload = body.map(Value::to_string).unwrap_or_default();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    );
    stream.write_all(head.as_bytes()).expect("the request sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("an answer");
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").expect("headers and a body");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let body = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string()));
    (status, body)
}

/// A request that must succeed; its body.
#[track_caller]
fn ok(base: &str, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> Value {
    let (status, answer) = request(base, method, path, token, body);
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {answer}"
    );
    answer
}

/// A student: joins `id` as `name` and plays `games` solo games to their
/// end; returns the matches' ids.
fn student(base: &str, id: &str, name: &str, games: usize) -> Vec<String> {
    let joined = ok(
        base,
        "POST",
        &format!("/api/classrooms/{id}/students"),
        None,
        Some(&json!({ "name": name })),
    );
    let token = joined["token"]
        .as_str()
        .expect("a student token")
        .to_string();
    let mut played = Vec::new();
    for _ in 0..games {
        let made = ok(
            base,
            "POST",
            &format!("/api/classrooms/{id}/games"),
            Some(&token),
            Some(&json!({})),
        );
        let game = made["id"].as_str().expect("a match id").to_string();
        let seat = made["token"].as_str().expect("a seat token");
        ok(
            base,
            "POST",
            &format!("/api/matches/{game}/moves"),
            Some(seat),
            Some(&json!({"move": "roll", "after": made["view"]["moves"], "repeat": true})),
        );
        played.push(game);
    }
    played
}

/// The rolls a finished match took, from its record (one entry a roll).
fn rolls_of(base: &str, game: &str) -> u64 {
    let record = ok(
        base,
        "GET",
        &format!("/api/matches/{game}/record"),
        None,
        None,
    );
    record["moves"]
        .as_array()
        .expect("the record's moves")
        .len() as u64
}

const NAMES: [&str; 30] = [
    "Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Max", "Nia",
    "Oz", "Pia", "Quin", "Ray", "Sol", "Tia", "Uma", "Vic", "Wen", "Xia", "Yuri", "Zoe", "Ana",
    "Ben", "Cal", "Dora",
];

#[test]
fn thirty_students_games_reach_the_projected_page_as_they_end() {
    let b = Browser::open_at(1920, 1080);
    b.visit("/classroom");
    b.wait_for_text("#open-heading", "Open a classroom");
    crate::checks::assert_page_fits(
        &b,
        "opening a classroom",
        crate::checks::Viewport {
            name: "projector",
            width: 1920,
            height: 1080,
        },
    );
    b.click_css("#open-button");
    let id = b.wait_for("the classroom's address", || {
        let path = b.script("return location.pathname;", vec![]);
        path.as_str()
            .and_then(|p| p.strip_prefix("/classroom/"))
            .filter(|id| id.len() == 32)
            .map(str::to_string)
    });
    let teacher = b
        .script(
            "return JSON.parse(localStorage.getItem('parlor.classroom.' + arguments[0] + '.teacher'));",
            vec![json!(id)],
        )
        .as_str()
        .expect("the teacher's key kept in this browser")
        .to_string();
    // The key is in no page: not in the address, not in the page's text.
    let html = b.script("return document.documentElement.outerHTML;", vec![]);
    assert!(!html.as_str().unwrap_or_default().contains(&teacher));
    b.wait_for_text("#class-sentence", "No game has finished yet");
    let address = b.text_css("#class-address");
    assert!(address.ends_with(&format!("/classroom/{id}")), "{address}");
    assert_eq!(b.find_all("#class-qr svg.qr-code").len(), 1);

    // 30 students, each on a thread of its own; the first ten play twice.
    let base = b.base().to_string();
    let threads: Vec<_> = NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (base, id, name) = (base.clone(), id.clone(), (*name).to_string());
            std::thread::spawn(move || student(&base, &id, &name, if i < 10 { 2 } else { 1 }))
        })
        .collect();
    let games: Vec<String> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("a student's thread"))
        .collect();
    assert_eq!(games.len(), 40);
    let lengths: Vec<u64> = games.iter().map(|g| rolls_of(&base, g)).collect();
    let mean = lengths.iter().sum::<u64>() as f64 / lengths.len() as f64;

    // The page shows every game, live.
    b.wait_for_text("#class-games", "40");
    let counts: u64 = b
        .script(
            "return [...document.querySelectorAll('#histogram rect.bar')].reduce((a, r) => a + Number(r.dataset.count), 0);",
            vec![],
        )
        .as_u64()
        .expect("the bars' counts");
    assert_eq!(counts, 40);
    // Shown to two decimals: within half a hundredth (JavaScript rounds
    // 47.625 up, Rust's format to even).
    let shown = b.text_css("#class-mean");
    let shown_mean: f64 = shown.parse().expect("a mean shown as a number");
    assert!(
        (shown_mean - mean).abs() <= 0.005 + 1e-9
            && shown.split('.').nth(1).map(str::len) == Some(2),
        "shown {shown}, the games' mean {mean}"
    );
    let sentence = b.text_css("#class-sentence");
    assert!(sentence.starts_with("40 games"), "{sentence}");
    assert!(b.text_css("#class-count").starts_with("30 students"));
    let longest = b.text_css("#class-longest");
    let most = lengths.iter().max().expect("games");
    assert!(longest.starts_with(&format!("{most} rolls")), "{longest}");

    // The teacher's CSV: the same games.
    let csv = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/classrooms/' + arguments[0] + '/games.csv', {headers: {Authorization: 'Bearer ' + arguments[1]}}) \
           .then((r) => r.text()).then(done, (e) => done(String(e)));",
        vec![json!(id), json!(teacher)],
    );
    let csv = csv.as_str().expect("the CSV's text");
    let mut from_csv: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|row| {
            row.split(',')
                .nth(3)
                .and_then(|n| n.parse().ok())
                .expect("a length")
        })
        .collect();
    let mut expected = lengths.clone();
    from_csv.sort_unstable();
    expected.sort_unstable();
    assert_eq!(from_csv, expected);

    // The projected page, light and dark, and as a phone sees it.
    b.screenshot_as_is("classroom-1920-light");
    b.script(
        "localStorage.setItem('parlor.theme', 'dark'); location.reload();",
        vec![],
    );
    b.wait_for_text("#class-games", "40");
    b.screenshot_as_is("classroom-1920-dark");
    crate::checks::set_viewport(
        &b,
        crate::checks::Viewport {
            name: "phone",
            width: 390,
            height: 844,
        },
    );
    b.script("location.reload();", vec![]);
    b.wait_for_text("#class-games", "40");
    b.screenshot_as_is("classroom-390-dark");
    b.script(
        "localStorage.setItem('parlor.theme', 'light'); location.reload();",
        vec![],
    );
    b.wait_for_text("#class-games", "40");
    b.screenshot_as_is("classroom-390-light");

    // The projected page fits every screen: nothing scrolls sideways,
    // nothing covers a control.
    for size in crate::checks::VIEWPORTS {
        crate::checks::set_viewport(&b, size);
        b.wait_for_text("#class-games", "40");
        crate::checks::assert_page_fits(&b, "the classroom", size);
    }

    // A phone without the teacher's key is asked for a name, and that page
    // fits the phone too.
    crate::checks::set_viewport(&b, crate::checks::VIEWPORTS[0]);
    b.script(
        "localStorage.removeItem('parlor.classroom.' + arguments[0] + '.teacher'); location.reload();",
        vec![json!(id)],
    );
    b.wait_for_text("#join-heading", "Join the classroom");
    crate::checks::assert_page_fits(&b, "joining a classroom", crate::checks::VIEWPORTS[0]);
    b.screenshot_as_is("classroom-join-phone");

    // The student's page: a name, then one tap plays a whole game, which
    // the classroom counts.
    b.fill("#join-name", "Pat");
    b.click_css("#join-form button");
    b.wait_for_text("#student-heading", "Hello, Pat");
    b.click_css("#student-play");
    let said = b.wait_for_text("#student-result", "You finished in");
    // The classroom notes a finished game as it hears of it, a moment
    // after the game's last move was answered.
    let view = b.wait_for("the classroom to count Pat's game", || {
        let view = ok(&base, "GET", &format!("/api/classrooms/{id}"), None, None);
        (view["figures"]["counted"] == 41).then_some(view)
    });
    let pat = view["students"]
        .as_array()
        .expect("students")
        .iter()
        .find(|s| s["name"] == "Pat")
        .expect("Pat joined")
        .clone();
    assert_eq!(pat["games"], 1);
    let rolls = view["games"][40]["rolls"].as_u64().expect("a length");
    assert_eq!(said, format!("You finished in {rolls} rolls."));
    b.screenshot_as_is("classroom-student-phone");
}

/// The class game: the teacher opens a classroom for one game in teams and
/// starts it on the page; two students (HTTP clients) roll for their teams
/// in turn until it ends; the projected page follows the game live and
/// counts it, with the winning team's share beside the exact chances.
#[test]
fn the_class_plays_one_game_together_on_the_projected_page() {
    let b = Browser::open_at(1920, 1080);
    b.visit("/classroom");
    b.wait_for_text("#open-heading", "Open a classroom");
    b.click_css("input[name='activity'][value='together']");
    b.click_css("#open-button");
    let id = b.wait_for("the classroom's address", || {
        let path = b.script("return location.pathname;", vec![]);
        path.as_str()
            .and_then(|p| p.strip_prefix("/classroom/"))
            .filter(|id| id.len() == 32)
            .map(str::to_string)
    });
    let base = b.base().to_string();
    let join = |name: &str| {
        let joined = ok(
            &base,
            "POST",
            &format!("/api/classrooms/{id}/students"),
            None,
            Some(&json!({ "name": name })),
        );
        joined["token"]
            .as_str()
            .expect("a student token")
            .to_string()
    };
    let teams = [join("Ada"), join("Bo")];
    b.wait_for_text("#class-count", "2 students");
    b.wait_for("the start button", || {
        b.attr_css("#start-together", "hidden")
            .is_none()
            .then_some(())
    });
    b.click_css("#start-together");
    b.wait_for_text("#together-turn", "Team 1 to roll");
    let teams_shown = b.text_css("#together-teams");
    assert!(
        teams_shown.contains("Team 1: Ada") && teams_shown.contains("Team 2: Bo"),
        "{teams_shown}"
    );
    let view = ok(&base, "GET", &format!("/api/classrooms/{id}"), None, None);
    let game = view["together"]["match"]
        .as_str()
        .expect("the class game")
        .to_string();
    loop {
        let m = ok(&base, "GET", &format!("/api/matches/{game}"), None, None);
        let Some(seat) = m["to_move"].as_u64() else {
            break;
        };
        let token = &teams[usize::try_from(seat).expect("a seat") - 1];
        ok(
            &base,
            "POST",
            &format!("/api/classrooms/{id}/roll"),
            Some(token),
            Some(&json!({})),
        );
    }
    let rolls = rolls_of(&base, &game);
    b.wait_for_text("#together-turn", "won, after");
    b.wait_for_text("#class-games", "1");
    let counts: u64 = b
        .script(
            "return [...document.querySelectorAll('#histogram rect.bar')].reduce((a, r) => a + Number(r.dataset.count), 0);",
            vec![],
        )
        .as_u64()
        .expect("the bars' counts");
    assert_eq!(counts, 1);
    assert_eq!(b.text_css("#class-mean"), format!("{rolls}.00"));
    let wins: u64 = b
        .script(
            "return [...document.querySelectorAll('#seats [data-wins]')].reduce((a, s) => a + Number(s.dataset.wins), 0);",
            vec![],
        )
        .as_u64()
        .expect("the seats' wins");
    assert_eq!(wins, 1);
    b.screenshot_as_is("classroom-together-1920");
}
