//! What an answer weighs as a browser is sent it: every move's answer of
//! every game, with four seats at one screen (the longest answers: every
//! seat's turn is answered here, and a win names four results), is under
//! 1 KB as sent (gzip, which every browser accepts) — a Baffle box's up to
//! every hole shot once, up to the biggest box, and a race's end; and which answers are
//! compressed, and which never are (one with a token or an invite).

use crate::support::{App, Seat};
use axum::http::{StatusCode, header};
use serde_json::{Value, json};

/// The goal for a move's answer as sent, in bytes.
const KB: usize = 1024;

/// Four people's names of the longest length a name may have (24).
fn long_names() -> Value {
    json!([
        {"plan": "here", "name": "Alexandria Montgomery Xy"},
        {"plan": "here", "name": "Bartholomew Fitzgerald X"},
        {"plan": "here", "name": "Cassiopeia Wolfington Xy"},
        {"plan": "here", "name": "Dimitrios Papadopoulos X"},
    ])
}

/// Plays `seat`'s match, all of whose seats it holds, for at most `most`
/// moves, each the one `choose` picks from the view (`n` counts the moves
/// played), sending them as a browser; asserts every answer is under 1 KB
/// as sent. Returns the moves answered and the largest answer.
async fn play_measured(
    app: &App,
    seat: &Seat,
    most: usize,
    choose: impl Fn(&Value, usize) -> String,
) -> (usize, usize) {
    let path = format!("/api/matches/{}/moves", seat.id);
    let mut largest = 0;
    let mut n = 0;
    while n < most {
        let view = app
            .get_as(&seat.token, &format!("/api/matches/{}", seat.id))
            .await
            .ok()
            .clone();
        if view["status"] != "playing" {
            break;
        }
        let mv = choose(&view, n);
        let body = json!({"move": mv, "after": view["moves"]});
        let (answer, sent) = app
            .send_as_a_browser("POST", &path, Some(&seat.token), Some(&body))
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{mv}: {}", answer.body);
        assert!(
            sent < KB,
            "{} move {} ({mv}) is {sent} bytes as sent: {}",
            view["game"],
            n + 1,
            answer.body
        );
        largest = largest.max(sent);
        n += 1;
    }
    (n, largest)
}

#[tokio::test]
async fn every_games_move_answers_are_under_1_kb_as_sent_with_four_seats() {
    let app = App::new().await;
    // Tycoon: every answer offered, in turn, with the longest names (the
    // recharge turn's eleven worded answers are its longest answer).
    let mut tycoon_moves = 0;
    for seed in 1..=3 {
        let made = json!({"game": "tycoon", "setup": {"sample": true}, "seats": long_names(), "seed": seed});
        let seat = app.start(made).await;
        let (moves, largest) = play_measured(&app, &seat, 400, |view, n| {
            let offered = view["page"]["moves"].as_array().expect("the answers");
            offered[(n * 7 + seed) % offered.len()]["text"]
                .as_str()
                .expect("a move's text")
                .to_string()
        })
        .await;
        assert!(largest > 0);
        tycoon_moves += moves;
    }
    assert!(tycoon_moves > 150, "{tycoon_moves} Tycoon moves");

    // Chutes: four seats rolled to the win.
    let made = json!({"game": "chutes", "seats": long_names(), "seed": 4});
    let seat = app.start(made).await;
    let (moves, _) = play_measured(&app, &seat, 2_000, |_, _| "roll".into()).await;
    let over = app.get(&format!("/api/matches/{}", seat.id)).await;
    assert_eq!(over.ok()["status"], "won", "after {moves} rolls");

    // Baffle: a race of four on the default box, every hole of each box
    // shot once (a Baffle answer carries the asker's shots, so it grows
    // with them), then every mirror found: the last answer shows each
    // racer's box.
    let made =
        json!({"game": "baffle", "setup": {"fixed": true}, "seats": long_names(), "seed": 5});
    let seat = app.start(made).await;
    let guesses: Vec<String> = baffle::layout::FIXED
        .iter()
        .map(|(row, col, mirror)| format!("guess {row} {col} {mirror}"))
        .collect();
    let (moves, _) = play_measured(&app, &seat, 200, |view, n| {
        assert_eq!(view["to_move"], 1 + n % 4);
        match n / 4 {
            hole @ 0..40 => format!("shoot {hole}"),
            found => guesses[found - 40].clone(),
        }
    })
    .await;
    assert_eq!(moves, 180);
    let over = app.get(&format!("/api/matches/{}", seat.id)).await;
    assert_eq!(over.ok()["status"], "shared");

    // And on the biggest box, alone and four at once with the most
    // mirrors, every hole shot.
    for (seats, mirrors) in [(1, 40), (4, 300)] {
        let names = long_names().as_array().expect("names")[..seats].to_vec();
        let setup = json!({"size": 26, "mirrors": mirrors});
        let made = json!({"game": "baffle", "setup": setup, "seats": names, "seed": 6});
        let seat = app.start(made).await;
        let (moves, _) = play_measured(&app, &seat, 104 * seats, |_, n| {
            format!("shoot {}", n / seats)
        })
        .await;
        assert_eq!(moves, 104 * seats);
    }
}

#[tokio::test]
async fn answers_with_a_token_or_an_invite_are_never_compressed() {
    let app = App::new().await;
    let gzipped = |answer: &crate::support::Answer| {
        answer
            .headers
            .get(header::CONTENT_ENCODING)
            .is_some_and(|e| e == "gzip")
    };
    // A match made: its token and invites go as they are.
    let made = json!({"game": "tycoon", "setup": {"sample": true},
        "seats": [long_names()[0], "open", "open", "open"]});
    let (answer, sent) = app
        .send_as_a_browser("POST", "/api/matches", None, Some(&made))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    assert!(sent > 1024, "{sent} bytes: long enough to compress");
    assert!(!gzipped(&answer), "{:?}", answer.headers);
    let host = Seat::from_made(&answer.body);
    let (seat, invite) = host.invites[0].clone();

    // Its view and a move's answer: compressed, and the same JSON.
    let path = format!("/api/matches/{}", host.id);
    let (view, sent) = app
        .send_as_a_browser("GET", &path, Some(&host.token), None)
        .await;
    assert!(gzipped(&view), "{:?}", view.headers);
    assert_eq!(
        view.headers.get(header::VARY).map(|v| v.to_str().unwrap()),
        Some("accept-encoding")
    );
    assert_eq!(view.body, app.get_as(&host.token, &path).await.body);
    assert!(sent < view.body.to_string().len());
    // Without `Accept-Encoding`, as it is.
    let plain = app.get_as(&host.token, &path).await;
    assert!(!gzipped(&plain));

    // A seat joined with its invite: its token goes as it is.
    let join = json!({"seat": seat, "invite": invite, "name": "Bartholomew Fitzgerald X"});
    let (joined, _) = app
        .send_as_a_browser("POST", &format!("{path}/join"), None, Some(&join))
        .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.body);
    assert!(joined.body["token"].is_string(), "{}", joined.body);
    assert!(!gzipped(&joined), "{:?}", joined.headers);

    // A page's script and a picture: compressed.
    for asset in ["/static/tycoon.js", "/api/tycoon/sample.svg"] {
        let (answer, sent) = app.send_as_a_browser("GET", asset, None, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{asset}");
        assert!(gzipped(&answer), "{asset}: {:?}", answer.headers);
        assert!(
            sent * 2 < answer.body.as_str().map_or(0, str::len),
            "{asset}"
        );
    }
}
