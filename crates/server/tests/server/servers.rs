//! Several servers on one PostgreSQL, through their routers: what one
//! server stored reaches the matches another holds live, and a server that
//! dies between a person's move and its bot's answer leaves the bot to the
//! others; a move whose sender hangs up while it waits for PostgreSQL is
//! still played to its end; a player's unsaved work is answered by any; a
//! rematch asked of a server behind on the match is made. Needs the test cluster (`bash scripts/with-postgres.sh cargo
//! test -p server --test server -- servers::`).

#![allow(clippy::unwrap_used)]

use crate::support;

use serde_json::json;
use server::store::{Db, Durability, Location, NewMove};
use std::time::Duration;
use support::App;

/// A server on the PostgreSQL database `url`.
async fn server_on(url: &str) -> App {
    let url = url.to_string();
    App::with(|c| c.database = Some(Location::Postgres(url))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_whose_server_died_is_moved_by_the_server_that_holds_its_match() {
    let url = testkit::fresh_postgres().await;
    let b = server_on(&url).await;
    let host = b
        .start(json!({"game": "chutes", "seats": ["here", "easy"]}))
        .await;
    // Another server takes the person's move, stores it and dies before
    // its bot could answer: the move is in the store, and the notice out.
    let a = Db::open(&Location::Postgres(url.clone()), Durability::Process, None)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.append(NewMove {
        match_id: host.id.clone(),
        number: 1,
        entry: "roll".into(),
        seat: 1,
        bot: false,
        status: "playing".into(),
        over: false,
        at_ms: server::store::now_ms(),
    })
    .await
    .unwrap();
    drop(a);
    // The server that holds the match live catches up, and its bot moves.
    let view = b
        .wait_for(&host.id, |v| v["moves"].as_u64() >= Some(2))
        .await;
    assert_eq!(view["log"][1]["seat"], 2, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_through_one_server_is_known_at_once_to_another() {
    let url = testkit::fresh_postgres().await;
    let a = server_on(&url).await;
    let b = server_on(&url).await;
    let host = a
        .start(json!({"game": "chutes", "seats": ["here", "open"]}))
        .await;
    let uri = format!("/api/matches/{}", host.id);
    b.get(&uri).await.ok();
    let joined = a
        .post(
            &format!("{uri}/join"),
            json!({"seat": 2, "invite": host.invites[0].1}),
        )
        .await;
    let guest = joined.ok()["token"].as_str().unwrap().to_string();
    // Whether or not the other server has heard of it yet, the new token
    // is the guest's there too; a wrong one is still refused.
    let seen = b.get_as(&guest, &uri).await;
    assert_eq!(seen.ok()["players"][1]["yours"], true, "{}", seen.body);
    b.get_as(&"0".repeat(32), &uri)
        .await
        .refused(axum::http::StatusCode::FORBIDDEN, "bad_token");
}

/// A move's notice goes out after its commit: a server that dies between
/// the two leaves the move untold. The others' watchers see it all the
/// same, by the sweep, within `SWEEP_EVERY` (and without a watcher, the
/// match reads it when next asked to move).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_notice_never_went_out_still_reaches_the_watchers() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    let url = testkit::fresh_postgres().await;
    let b = server_on(&url).await;
    let host = b
        .start(json!({"game": "chutes", "seats": ["here", "here"]}))
        .await;
    let watching = b
        .router
        .clone()
        .oneshot(
            Request::get(format!("/api/matches/{}/events", host.id))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(watching.status(), 200);
    // The move committed as a server commits it, and no notice sent.
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let now = server::store::now_ms();
    client
        .execute(
            "UPDATE matches SET moves = 1, updated_ms = $2, played = TRUE WHERE id = $1 AND moves = 0",
            &[&host.id, &now],
        )
        .await
        .unwrap();
    client
        .execute(
            "INSERT INTO moves (match_id, number, entry, seat, bot, at_ms) VALUES ($1, 1, 'roll', 1, FALSE, $2)",
            &[&host.id, &now],
        )
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let view = b
        .wait_for(&host.id, |v| v["moves"].as_u64() >= Some(1))
        .await;
    assert_eq!(view["log"][0]["seat"], 1, "{view}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "seen within the sweep's time"
    );
    drop(watching);
}

/// On PostgreSQL every move waits for the store: a sender who hangs up
/// then (its request dropped after its first step) leaves a move that is
/// still stored, told, and answered by the bot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_sender_hangs_up_while_it_is_stored_is_still_played_to_its_end() {
    let url = testkit::fresh_postgres().await;
    let a = server_on(&url).await;
    let host = a
        .start(json!({"game": "chutes", "seats": ["here", "easy"]}))
        .await;
    let sent = tokio::time::timeout(
        Duration::ZERO,
        a.post_as(
            &host.token,
            &format!("/api/matches/{}/moves", host.id),
            json!({"move": "roll", "after": 0}),
        ),
    )
    .await;
    assert!(sent.is_err(), "the move waited for PostgreSQL");
    let view = a
        .wait_for(&host.id, |v| v["moves"].as_u64() >= Some(2))
        .await;
    assert_eq!(view["log"][0]["seat"], 1, "{view}");
    assert_eq!(view["log"][1]["seat"], 2, "the bot answered: {view}");
    // Both are in the store: another server reads them.
    let b = server_on(&url).await;
    let stored = b.get(&format!("/api/matches/{}", host.id)).await;
    assert!(stored.ok()["moves"].as_u64() >= Some(2), "{}", stored.body);
}

/// A player's unsaved work (a Tycoon design, an uploaded board) made
/// through one server is answered and changed by another, and outlives the
/// server that made it: no request needs to go back to where it started.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsaved_work_made_through_one_server_is_answered_by_another() {
    let url = testkit::fresh_postgres().await;
    let a = server_on(&url).await;
    let b = server_on(&url).await;
    let made = a.post("/api/tycoon/designs", json!({})).await;
    let id = made.ok()["id"].as_str().unwrap().to_string();
    let edits = format!("/api/tycoon/designs/{id}/edits");
    a.post(&edits, json!({"edit": "ladder", "start": 10, "end": 32}))
        .await
        .ok();
    b.post(
        &edits,
        json!({"edit": "card", "number": 1, "cell": 50, "params": [5]}),
    )
    .await
    .ok();
    a.post(&edits, json!({"edit": "undo"})).await.ok();
    let board = b
        .post(
            "/api/chutes/boards",
            json!({"text": "size = 30\nladders = [[3, 22]]\nchutes = [[27, 5]]\n"}),
        )
        .await;
    let board = board.ok()["id"].as_str().unwrap().to_string();
    drop(b);
    // The server that made the board is gone; the other answers for both.
    let design = a.get(&format!("/api/tycoon/designs/{id}")).await;
    let homes: Vec<u64> = design.ok()["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["home"].as_u64().unwrap())
        .collect();
    assert_eq!(homes, [10], "the ladder stays, the card was undone");
    assert_eq!(design.ok()["can_redo"], true);
    let seat = a
        .start(json!({"game": "chutes", "setup": {"board": board}, "seats": ["here"]}))
        .await;
    let view = a.get(&format!("/api/matches/{}", seat.id)).await;
    assert_eq!(view.ok()["view"]["squares"], 30, "the uploaded board");
}

/// The seat that rolls each move of a Chutes game on a 3-square board
/// with dice from seed 7, played to its end through `a`, and the setup
/// that makes such a game.
async fn a_short_game(a: &App) -> (Vec<i32>, serde_json::Value) {
    let board = a
        .post("/api/chutes/boards", json!({"text": "size = 3\n"}))
        .await;
    let board = board.ok()["id"].as_str().unwrap().to_string();
    let setup =
        json!({"game": "chutes", "setup": {"board": board}, "seats": ["here", "here"], "seed": 7});
    let played = a.start(setup.clone()).await;
    let path = format!("/api/matches/{}/moves", played.id);
    let mut seats = Vec::new();
    loop {
        let after = seats.len();
        let answer = a
            .post_as(
                &played.token,
                &path,
                json!({"move": "roll", "after": after}),
            )
            .await;
        seats.push(answer.ok()["played"][0]["seat"].as_i64().unwrap() as i32);
        let view = a
            .get_as(&played.token, &format!("/api/matches/{}", played.id))
            .await;
        if view.ok()["status"] != "playing" {
            break;
        }
        assert!(seats.len() < 200, "the game on a 3-square board ended");
    }
    (seats, setup)
}

/// Commits the first `upto` moves of `seats` (a roll each, by that seat)
/// to match `id` as a server commits them, and sends no notice: the other
/// servers' copies are then behind the store.
async fn commit_unnoticed(url: &str, id: &str, seats: &[i32], upto: usize) {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let now = server::store::now_ms();
    for (n, seat) in seats.iter().enumerate().take(upto) {
        let number = n as i32 + 1;
        let over = number as usize == seats.len();
        client
            .execute(
                "UPDATE matches SET moves = $2, status = $3, over = $4, updated_ms = $5, played = TRUE WHERE id = $1",
                &[&id, &number, &if over { "won" } else { "playing" }, &over, &now],
            )
            .await
            .unwrap();
        client
            .execute(
                "INSERT INTO moves (match_id, number, entry, seat, bot, at_ms) VALUES ($1, $2, 'roll', $3, FALSE, $4)",
                &[&id, &number, seat, &now],
            )
            .await
            .unwrap();
    }
}

/// A rematch asked of a server that has not heard of the move that ended
/// the game (stored by another server whose notice never came, or has not
/// come yet: a player's next request may reach the other server first) is
/// made all the same: the server reads the match again before saying the
/// game is still on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_asked_of_a_server_that_missed_the_last_move_is_made() {
    let url = testkit::fresh_postgres().await;
    let a = server_on(&url).await;
    let b = server_on(&url).await;
    let (seats, setup) = a_short_game(&a).await;
    // The same dice: the second game's moves are the first's.
    let second = a.start(setup).await;
    let uri = format!("/api/matches/{}", second.id);
    assert_eq!(b.get(&uri).await.ok()["status"], "playing");
    commit_unnoticed(&url, &second.id, &seats, seats.len()).await;
    let rematch = b
        .post_as(&second.token, &format!("{uri}/rematch"), json!({}))
        .await;
    let made = rematch.ok()["id"].as_str().unwrap().to_string();
    assert_ne!(made, second.id);
    assert_eq!(b.get(&uri).await.ok()["status"], "won");
}

/// A move sent to a server that has not heard of the moves before it (the
/// player saw them through the other server) is played, not refused as
/// stale: the sender's move number says the server is behind, and it reads
/// the match again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_sent_to_a_server_behind_the_sender_is_played() {
    let url = testkit::fresh_postgres().await;
    let a = server_on(&url).await;
    let b = server_on(&url).await;
    let (seats, setup) = a_short_game(&a).await;
    assert!(seats.len() >= 2, "{seats:?}");
    let second = a.start(setup).await;
    let uri = format!("/api/matches/{}", second.id);
    assert_eq!(b.get(&uri).await.ok()["moves"], 0);
    commit_unnoticed(&url, &second.id, &seats, 1).await;
    let answer = b
        .post_as(
            &second.token,
            &format!("{uri}/moves"),
            json!({"move": "roll", "after": 1}),
        )
        .await;
    assert_eq!(answer.ok()["played"][0]["number"], 2, "{}", answer.body);
    // A sender who is behind is still told so.
    b.post_as(
        &second.token,
        &format!("{uri}/moves"),
        json!({"move": "roll", "after": 1}),
    )
    .await
    .refused(axum::http::StatusCode::CONFLICT, "stale_move");
}
