//! The match router through the router: making matches, moving for a seat
//! and no other, the move number, seats taken with invites, watching live,
//! records and replays, the lobby, and matches that outlive the server.
//! Each game's own play is in `games.rs`.

use crate::support;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::Duration;
use support::{App, Seat};
use tower::ServiceExt;

fn chutes(seats: &[&str]) -> Value {
    json!({"game": "chutes", "seats": seats})
}

#[tokio::test]
async fn a_match_is_made_with_its_url_token_and_view() {
    let app = App::new().await;
    let made = app.post("/api/matches", chutes(&["here", "open"])).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let body = &made.body;
    let id = body["id"].as_str().unwrap();
    assert_eq!(id.len(), 32);
    assert_eq!(body["url"], format!("/chutes/m/{id}"));
    assert_eq!(body["token"].as_str().unwrap().len(), 32);
    let invite = &body["invites"][0];
    assert_eq!(invite["seat"], 2);
    assert_eq!(
        invite["link"],
        format!(
            "/chutes/m/{id}#invite=2.{}",
            invite["invite"].as_str().unwrap()
        )
    );
    let view = &body["view"];
    assert_eq!(view["game"], "chutes");
    assert_eq!(
        view["title"],
        "Chutes & Ladders on the classic board, 2 players"
    );
    assert_eq!(view["status"], "playing");
    assert_eq!(view["moves"], 0);
    assert_eq!(view["to_move"], 1);
    assert_eq!(view["you"], 1);
    assert_eq!(view["dice"], "seeded");
    assert!(view.get("seed").is_none(), "{view}");
    assert_eq!(
        view["players"],
        json!([
            {"seat": 1, "kind": "person", "state": "here", "yours": true, "name": "Player 1", "colour": 1},
            {"seat": 2, "kind": "person", "state": "open", "yours": false, "name": "Player 2", "colour": 2},
        ])
    );
    assert!(view["expires_ms"].as_i64().unwrap() > view["updated_ms"].as_i64().unwrap());
    // A spectator sees the same match, as nobody's.
    let seen = app.get(&format!("/api/matches/{id}")).await;
    assert_eq!(seen.ok()["you"], Value::Null);
    assert_eq!(seen.ok()["players"][0]["yours"], false);
    // The public setup is the board.
    let setup = app.get(&format!("/api/matches/{id}/setup")).await;
    assert_eq!(setup.ok()["board"]["size"], 100);
}

#[tokio::test]
async fn bad_matches_are_refused_with_their_code() {
    let app = App::new().await;
    let cases = [
        (
            json!({"game": "chess"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            chutes(&["here", "nobody"]),
            StatusCode::BAD_REQUEST,
            "bad_seats",
        ),
        (chutes(&["here"; 5]), StatusCode::BAD_REQUEST, "bad_seats"),
        (
            json!({"game": "baffle", "seats": ["here", "here", "here", "here", "here"]}),
            StatusCode::BAD_REQUEST,
            "bad_seats",
        ),
        (
            json!({"game": "tycoon", "seats": ["here"]}),
            StatusCode::BAD_REQUEST,
            "bad_seats",
        ),
        // Nobody may know the dice of a game others join.
        (
            json!({"game": "chutes", "seats": ["here", "open"], "seed": 4}),
            StatusCode::BAD_REQUEST,
            "bad_seed",
        ),
        // Chosen dice are for one screen.
        (
            json!({"game": "chutes", "seats": ["here", "open"], "dice": "chosen"}),
            StatusCode::BAD_REQUEST,
            "bad_seats",
        ),
        (
            json!({"game": "chutes", "seats": ["here", "easy"], "dice": "chosen"}),
            StatusCode::BAD_REQUEST,
            "bad_seats",
        ),
        (
            json!({"game": "chutes", "dice": "loaded"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"game": "chutes", "seed": 9_007_199_254_740_992u64}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"game": "chutes", "setup": {"board": "nope"}}),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            json!({"game": "chutes", "setup": {"boards": "classic"}}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            json!({"game": "chutes", "setup": [1]}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            json!({"game": "baffle", "setup": {"size": 40}}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"game": "baffle", "setup": {"fixed": true, "mirrors": 3}}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"game": "chutes", "player": 2}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
    ];
    for (request, status, code) in cases {
        let answer = app.post("/api/matches", request.clone()).await;
        answer.refused(status, code);
        assert!(!answer.message().is_empty(), "{request}");
    }
}

#[tokio::test]
async fn only_the_token_holder_moves_and_only_in_turn() {
    let app = App::new().await;
    let mut host = app.start(chutes(&["here", "open"])).await;
    let moves = format!("/api/matches/{}/moves", host.id);
    let roll = json!({"move": "roll", "after": 0});
    // No token, a token of nobody, a malformed token.
    app.post(&moves, roll.clone())
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
    app.post_as(&"0".repeat(32), &moves, roll.clone())
        .await
        .refused(StatusCode::FORBIDDEN, "bad_token");
    let request = Request::builder()
        .method("POST")
        .uri(&moves)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, "Basic abc")
        .body(Body::from(roll.to_string()))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(
        response.status(),
        StatusCode::FORBIDDEN,
        "a malformed token"
    );
    // Another match's token.
    let other = app.start(chutes(&["here"])).await;
    app.post_as(&other.token, &moves, roll.clone())
        .await
        .refused(StatusCode::FORBIDDEN, "bad_token");
    // The host rolls for seat 1; seat 2 is the guest's.
    app.play(&mut host, json!("roll")).await.ok();
    app.play(&mut host, json!("roll"))
        .await
        .refused(StatusCode::CONFLICT, "not_your_turn");
    // A move without the number it was made for is refused.
    app.post_as(&host.token, &moves, json!({"move": "roll"}))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_move");
    app.post_as(&host.token, &moves, json!({"move": "dance", "after": 1}))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_move");
}

/// The full view from a move's compact answer and the view before it, as
/// docs/api.md says (and web/match.js's `wholeView` does).
fn whole_view(last: &Value, answer: &Value) -> Value {
    let mut view = answer["view"].clone();
    let fields = view.as_object_mut().expect("a view");
    let log_after = fields.remove("compact").expect("a compact view")["log_after"]
        .as_u64()
        .expect("log_after");
    for kept in [
        "id",
        "title",
        "names",
        "seats",
        "players",
        "game",
        "dice",
        "host",
        "view_fixed",
    ] {
        assert!(!fields.contains_key(kept), "{kept} is left out");
        if let Some(value) = last.get(kept) {
            fields.insert(kept.into(), value.clone());
        }
    }
    // The game view's fields no move changes, from the last view.
    let game = fields["view"].as_object_mut().expect("a game view");
    for field in last["view_fixed"].as_array().into_iter().flatten() {
        let field = field.as_str().expect("a field's name");
        assert!(!game.contains_key(field), "{field} is left out");
        game.insert(field.into(), last["view"][field].clone());
    }
    assert!(!fields.contains_key("log"), "the log is left out");
    let mut log: Vec<Value> = last["log"]
        .as_array()
        .expect("a log")
        .iter()
        .filter(|line| line["number"].as_u64().expect("a number") <= log_after)
        .cloned()
        .collect();
    for played in answer["played"].as_array().expect("played") {
        for event in played["events"].as_array().expect("events") {
            log.push(
                json!({"number": played["number"], "seat": played["seat"], "text": event["text"]}),
            );
        }
    }
    let newest = log.len().saturating_sub(games::LOG_TAIL);
    fields.insert("log".into(), Value::Array(log.split_off(newest)));
    view
}

#[tokio::test]
async fn a_moves_compact_answer_is_small_and_makes_the_full_view_again() {
    let app = App::new().await;
    let mut played_games = 0;
    let mut most = 0;
    let mut moves_seen = 0;
    let mut four_seat_wins = 0;
    // Whole games, one roll at a time, until more than 200 moves have been
    // answered in all, 120 in one game (the log's tail is full), and ten
    // four-seat games won (the longest answer: a win names four results).
    while moves_seen < 200 || most < 120 || four_seat_wins < 10 {
        played_games += 1;
        let seats = if played_games % 2 == 0 {
            vec!["here"; 4]
        } else {
            vec!["here"; 2]
        };
        let setup = json!({"game": "chutes", "seats": seats, "seed": played_games});
        let host = app.start(setup).await;
        let path = format!("/api/matches/{}/moves", host.id);
        let mut last = app
            .get_as(&host.token, &format!("/api/matches/{}", host.id))
            .await
            .ok()
            .clone();
        loop {
            let after = last["moves"].as_u64().expect("moves");
            let answer = app
                .post_as(&host.token, &path, json!({"move": "roll", "after": after}))
                .await;
            let size = answer.body.to_string().len();
            assert!(
                size < 1024,
                "a roll's answer at move {} is {size} bytes: {}",
                after + 1,
                answer.body
            );
            let whole = whole_view(&last, answer.ok());
            let full = app
                .get_as(&host.token, &format!("/api/matches/{}", host.id))
                .await
                .ok()
                .clone();
            assert_eq!(
                whole, full,
                "the compact answer and the last view make the full view"
            );
            moves_seen += 1;
            most = most.max(after as usize + 1);
            last = full;
            if last["status"] != "playing" {
                four_seat_wins += usize::from(seats.len() == 4);
                break;
            }
        }
        assert!(played_games < 200, "no long game came up");
    }
    // On request, the full view, log and all.
    let host = app.start(chutes(&["here", "here"])).await;
    let full = app
        .post_as(
            &host.token,
            &format!("/api/matches/{}/moves?view=full", host.id),
            json!({"move": "roll", "after": 0}),
        )
        .await;
    let view = &full.ok()["view"];
    assert!(view.get("compact").is_none(), "{view}");
    assert_eq!(view["id"], host.id.as_str());
    assert_eq!(view["log"].as_array().expect("a log").len(), 1);
    app.post_as(
        &host.token,
        &format!("/api/matches/{}/moves?view=all", host.id),
        json!({"move": "roll", "after": 1}),
    )
    .await
    .refused(StatusCode::BAD_REQUEST, "bad_request");
}

#[tokio::test]
async fn a_baffle_races_compact_answers_leave_the_box_out_and_make_the_full_view_again() {
    // Four at one screen: each answer is the next seat's box, which the
    // page's last view (the previous seat's) does not hold; the box's
    // size and holes are the same for every seat.
    let app = App::new().await;
    let made = json!({"game": "baffle", "setup": {"fixed": true}, "seats": ["here", "here", "here", "here"], "seed": 3});
    let host = app.start(made).await;
    let path = format!("/api/matches/{}/moves", host.id);
    let look = format!("/api/matches/{}", host.id);
    let mut last = app.get_as(&host.token, &look).await.ok().clone();
    assert_eq!(
        last["view_fixed"],
        json!(["size", "mirrors", "sides", "shootable"])
    );
    let guesses = baffle::layout::FIXED.map(|(row, col, m)| format!("guess {row} {col} {m}"));
    let moves = (0..12)
        .map(|hole| format!("shoot {hole}"))
        .chain(guesses)
        .flat_map(|mv| std::iter::repeat_n(mv, 4));
    // The layouts left and each shot's count are worked out after the
    // answer (the live stream tells them): compared without them.
    let settled = |view: &Value| {
        let mut view = view.clone();
        let game = view["view"].as_object_mut().expect("a game view");
        game.remove("live");
        for shot in game["shots"].as_array_mut().expect("shots") {
            shot.as_object_mut().expect("a shot").remove("count");
        }
        view
    };
    for mv in moves {
        let after = last["moves"].as_u64().expect("moves");
        let answer = app
            .post_as(&host.token, &path, json!({"move": mv, "after": after}))
            .await;
        assert!(answer.ok()["view"]["view"].get("shootable").is_none());
        let whole = whole_view(&last, answer.ok());
        let full = app.get_as(&host.token, &look).await.ok().clone();
        assert_eq!(settled(&whole), settled(&full), "after {mv}");
        last = full;
    }
    assert_eq!(last["status"], "shared", "every racer found every mirror");
    assert_eq!(last["view"]["shootable"].as_array().map(Vec::len), Some(40));
}

#[tokio::test]
async fn a_repeated_moves_compact_answer_makes_the_full_view_again() {
    // "Play to the end": many moves in one answer, more log lines than the
    // tail keeps.
    let app = App::new().await;
    let host = app.start(chutes(&["here", "here"])).await;
    let path = format!("/api/matches/{}/moves", host.id);
    let first = app
        .post_as(&host.token, &path, json!({"move": "roll", "after": 0}))
        .await;
    let last = app
        .get_as(&host.token, &format!("/api/matches/{}", host.id))
        .await
        .ok()
        .clone();
    assert_eq!(first.ok()["view"]["moves"], 1);
    let answer = app
        .post_as(
            &host.token,
            &path,
            json!({"move": "roll", "after": 1, "repeat": true}),
        )
        .await;
    assert!(answer.ok()["played"].as_array().expect("played").len() > 1);
    let full = app
        .get_as(&host.token, &format!("/api/matches/{}", host.id))
        .await
        .ok()
        .clone();
    assert_eq!(whole_view(&last, answer.ok()), full);
}

#[tokio::test]
async fn a_stale_or_doubled_move_is_never_played_twice() {
    let app = App::new().await;
    let host = app.start(chutes(&["here", "here"])).await;
    let moves = format!("/api/matches/{}/moves", host.id);
    // Ten clicks at once, all made on the position after 0 moves.
    let clicks: Vec<_> = (0..10)
        .map(|_| app.post_as(&host.token, &moves, json!({"move": "roll", "after": 0})))
        .collect();
    let answers = futures_util::future::join_all(clicks).await;
    let played = answers.iter().filter(|a| a.status.is_success()).count();
    assert_eq!(played, 1, "one click is a move");
    for refused in answers.iter().filter(|a| !a.status.is_success()) {
        let why = refused.refused(StatusCode::CONFLICT, "stale_move");
        assert!(why.contains("moved on"), "{why}");
    }
    let view = app.get(&format!("/api/matches/{}", host.id)).await;
    assert_eq!(view.ok()["moves"], 1);
    // The same click again, late.
    app.post_as(&host.token, &moves, json!({"move": "roll", "after": 0}))
        .await
        .refused(StatusCode::CONFLICT, "stale_move");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_sender_hangs_up_is_stored_told_and_answered_by_the_bots() {
    let app = App::new().await;
    let host = app.start(chutes(&["here", "easy"])).await;
    let request = Request::builder()
        .uri(format!("/api/matches/{}/events", host.id))
        .body(Body::empty())
        .unwrap();
    let mut changes = app
        .router
        .clone()
        .oneshot(request)
        .await
        .unwrap()
        .into_body();
    read_events(&mut changes, 1).await;
    // The store is busy with another writer when the move comes, and its
    // sender gives up waiting (a closed tab, a server told to stop).
    let store = rusqlite::Connection::open(app.dir.path().join("parlor.db")).unwrap();
    store.execute_batch("BEGIN IMMEDIATE").unwrap();
    let request = Request::builder()
        .method("POST")
        .uri(format!("/api/matches/{}/moves", host.id))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {}", host.token))
        .body(Body::from(json!({"move": "roll", "after": 0}).to_string()))
        .unwrap();
    let hung_up = tokio::time::timeout(
        Duration::from_millis(300),
        app.router.clone().oneshot(request),
    )
    .await;
    assert!(hung_up.is_err(), "the move waited for the store");
    store.execute_batch("COMMIT").unwrap();
    // The move the server took is stored, told to its watchers, and the
    // bot answers it.
    let told = read_events(&mut changes, 2).await;
    assert_eq!(told[0]["played"][0]["seat"], 1, "{}", told[0]);
    assert_eq!(told[1]["played"][0]["seat"], 2, "{}", told[1]);
    let view = app
        .wait_for(&host.id, |v| v["moves"].as_u64() >= Some(2))
        .await;
    assert_eq!(view["log"][0]["seat"], 1, "{view}");
}

#[tokio::test]
async fn a_game_played_to_the_end_refuses_more_moves() {
    let app = App::new().await;
    let mut host = app.start(chutes(&["here", "here"])).await;
    let done = app
        .post_as(
            &host.token,
            &format!("/api/matches/{}/moves", host.id),
            json!({"move": "roll", "after": 0, "repeat": true}),
        )
        .await;
    let body = done.ok();
    let view = &body["view"];
    assert_eq!(view["status"], "won");
    let winner = view["winner"].as_u64().unwrap();
    assert_eq!(view["view"]["players"][winner as usize - 1]["square"], 100);
    let played = body["played"].as_array().unwrap();
    assert_eq!(played.len() as u64, view["moves"].as_u64().unwrap());
    assert!(
        played.last().unwrap()["events"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("and wins")
    );
    // Over: the seed is shown, and nothing more is played.
    assert!(view["seed"].is_u64(), "{view}");
    host.after = view["moves"].as_u64().unwrap() as usize;
    app.play(&mut host, json!("roll"))
        .await
        .refused(StatusCode::CONFLICT, "game_over");
}

#[tokio::test]
async fn an_invite_gives_its_seat_once() {
    let app = App::new().await;
    let mut host = app.start(chutes(&["here", "open", "open"])).await;
    let (seat, invite) = host.invites[0].clone();
    assert_eq!(seat, 2);
    let join = format!("/api/matches/{}/join", host.id);
    // A wrong invite, a seat that is not a person's, no such seat.
    app.post(&join, json!({"seat": 2, "invite": "f".repeat(32)}))
        .await
        .refused(StatusCode::FORBIDDEN, "bad_invite");
    app.post(&join, json!({"seat": 3, "invite": invite}))
        .await
        .refused(StatusCode::FORBIDDEN, "bad_invite");
    app.post(&join, json!({"seat": 9, "invite": invite}))
        .await
        .refused(StatusCode::BAD_REQUEST, "no_such_seat");
    app.post(&join, json!({"seat": 1, "invite": invite}))
        .await
        .refused(StatusCode::CONFLICT, "seat_taken");
    let joined = app.post(&join, json!({"seat": 2, "invite": invite})).await;
    let body = joined.ok();
    let guest = body["token"].as_str().unwrap().to_string();
    assert_ne!(guest, host.token);
    assert_eq!(body["view"]["you"], 2);
    assert_eq!(body["view"]["players"][1]["state"], "taken");
    assert_eq!(body["view"]["players"][1]["yours"], true);
    // Twice: the seat is taken.
    app.post(&join, json!({"seat": 2, "invite": invite}))
        .await
        .refused(StatusCode::CONFLICT, "seat_taken");
    // The guest moves in seat 2's turn, not in the host's.
    let mut guest_seat = Seat {
        id: host.id.clone(),
        token: guest.clone(),
        after: 0,
        invites: Vec::new(),
    };
    app.play(&mut guest_seat, json!("roll"))
        .await
        .refused(StatusCode::CONFLICT, "not_your_turn");
    app.play(&mut host, json!("roll")).await.ok();
    guest_seat.after = host.after;
    app.play(&mut guest_seat, json!("roll")).await.ok();
    // A guest who joins a second seat keeps one token for both.
    let (_, third) = host.invites[1].clone();
    let again = app
        .post_as(&guest, &join, json!({"seat": 3, "invite": third}))
        .await;
    assert_eq!(again.ok()["token"], guest.as_str());
    let seen = app.look(&mut guest_seat).await;
    assert_eq!(seen["players"][1]["yours"], true);
    assert_eq!(seen["players"][2]["yours"], true);
}

#[tokio::test]
async fn only_the_host_invites_again_and_the_old_link_dies() {
    let app = App::new().await;
    let host = app.start(chutes(&["here", "open"])).await;
    let old = host.invites[0].1.clone();
    let reinvite = format!("/api/matches/{}/seats/2/invite", host.id);
    app.post(&reinvite, json!({}))
        .await
        .refused(StatusCode::FORBIDDEN, "not_host");
    let fresh = app.post_as(&host.token, &reinvite, json!({})).await;
    let fresh = fresh.ok()["invite"].as_str().unwrap().to_string();
    let join = format!("/api/matches/{}/join", host.id);
    app.post(&join, json!({"seat": 2, "invite": old}))
        .await
        .refused(StatusCode::FORBIDDEN, "bad_invite");
    app.post(&join, json!({"seat": 2, "invite": fresh}))
        .await
        .ok();
    app.post_as(&host.token, &reinvite, json!({}))
        .await
        .refused(StatusCode::CONFLICT, "seat_taken");
}

#[tokio::test]
async fn a_new_invite_is_only_for_a_seat_waiting_for_its_invite() {
    let app = App::new().await;
    let host = app.start(chutes(&["here", "anyone", "open", "easy"])).await;
    let reinvite = |seat: u32| {
        let uri = format!("/api/matches/{}/seats/{seat}/invite", host.id);
        let token = host.token.clone();
        let app = &app;
        async move { app.post_as(&token, &uri, json!({})).await }
    };
    reinvite(3).await.ok();
    reinvite(1)
        .await
        .refused(StatusCode::CONFLICT, "seat_taken");
    // A seat for anyone has no invite to replace: it stays in the lobby,
    // for anyone.
    let why = reinvite(2)
        .await
        .refused(StatusCode::BAD_REQUEST, "no_such_seat")
        .to_string();
    assert!(why.contains("anyone"), "{why}");
    for seat in [0, 4, 9, 255] {
        reinvite(seat)
            .await
            .refused(StatusCode::BAD_REQUEST, "no_such_seat");
    }
    let lobby = app.get("/api/lobby").await;
    assert_eq!(lobby.ok()["matches"][0]["open_seats"], 1);
    app.post(
        &format!("/api/matches/{}/join", host.id),
        json!({"seat": 2}),
    )
    .await
    .ok();
}

/// Makes every read of match `id`'s tokens fail from now on, as a store
/// that cannot be read would, while writes still work.
fn spoil_token_reads(app: &App, id: &str, when: &str) {
    let store =
        rusqlite::Connection::open(app.dir.path().join("parlor.db")).expect("the store's file");
    store
        .busy_timeout(Duration::from_secs(5))
        .expect("a busy timeout");
    let junk = format!(
        "INSERT INTO tokens (match_id, hash, seats, host) VALUES ('{id}', 'junk', 'not seats', 0)"
    );
    match when {
        "now" => store
            .execute_batch(&format!("{junk};"))
            .expect("the store is spoilt"),
        _ => store
            .execute_batch(&format!(
                "CREATE TRIGGER spoil AFTER UPDATE ON seats BEGIN {junk}; END;"
            ))
            .expect("the store is spoilt"),
    }
}

#[tokio::test]
async fn a_seat_claimed_in_the_store_is_given_even_if_the_store_cannot_be_read_after() {
    let app = App::new().await;
    let mut host = app.start(chutes(&["here", "open"])).await;
    spoil_token_reads(&app, &host.id, "after the claim");
    let joined = app
        .post(
            &format!("/api/matches/{}/join", host.id),
            json!({"seat": 2, "invite": host.invites[0].1}),
        )
        .await;
    let guest = joined.ok()["token"].as_str().unwrap().to_string();
    assert_eq!(joined.ok()["view"]["players"][1]["state"], "taken");
    // The guest's token moves for seat 2.
    app.play(&mut host, json!("roll")).await.ok();
    let mut guest = Seat {
        id: host.id.clone(),
        token: guest,
        after: host.after,
        invites: Vec::new(),
    };
    app.play(&mut guest, json!("roll")).await.ok();
}

#[tokio::test]
async fn a_wrong_token_costs_no_read_of_the_store() {
    let app = App::new().await;
    let host = app.start(chutes(&["here", "open"])).await;
    spoil_token_reads(&app, &host.id, "now");
    // Only this server seats players on its SQLite store: the tokens it
    // holds are all there are.
    app.get_as(&"0".repeat(32), &format!("/api/matches/{}", host.id))
        .await
        .refused(StatusCode::FORBIDDEN, "bad_token");
    app.get_as(&host.token, &format!("/api/matches/{}", host.id))
        .await
        .ok();
}

#[tokio::test]
async fn the_lobby_lists_matches_anyone_may_join() {
    let app = App::new().await;
    let public = app.start(chutes(&["here", "anyone"])).await;
    let _friends = app.start(chutes(&["here", "open"])).await;
    let _full = app.start(chutes(&["here", "here"])).await;
    let tycoon = app
        .start(json!({"game": "tycoon", "seats": ["here", "anyone", "anyone", "hard"]}))
        .await;
    let lobby = app.get("/api/lobby").await;
    let listed = lobby.ok()["matches"].as_array().unwrap().clone();
    let ids: Vec<&str> = listed.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [tycoon.id.as_str(), public.id.as_str()],
        "invite-only games stay private"
    );
    assert_eq!(listed[0]["url"], format!("/tycoon/m/{}", tycoon.id));
    assert_eq!(listed[0]["open_seats"], 2);
    assert_eq!(listed[0]["seats"], 4);
    assert!(
        listed[0]["title"]
            .as_str()
            .unwrap()
            .contains("3 people and 1 bot"),
        "{}",
        listed[0]
    );
    let view = app.get(&format!("/api/matches/{}", public.id)).await;
    assert_eq!(view.ok()["players"][1]["state"], "anyone");
    // Anyone takes the seat without an invite; then the match leaves the
    // lobby, and the seat is nobody else's.
    let join = format!("/api/matches/{}/join", public.id);
    let joined = app.post(&join, json!({"seat": 2})).await;
    assert_eq!(joined.ok()["view"]["players"][1]["state"], "taken");
    app.post(&join, json!({"seat": 2}))
        .await
        .refused(StatusCode::CONFLICT, "seat_taken");
    let lobby = app.get("/api/lobby").await;
    assert_eq!(lobby.ok()["matches"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_lobby_is_followed_live_with_its_hosts_names() {
    let app = App::new().await;
    let request = Request::builder()
        .uri("/api/lobby/events")
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut lobby = response.into_body();
    let first = read_named(&mut lobby, "lobby", 1).await;
    assert_eq!(first[0]["matches"], json!([]), "{first:?}");
    // A game opens: the list follows within the feed's second.
    let open = app
        .start(json!({"game": "chutes", "seats": [{"plan": "here", "name": "Ada"}, "anyone"]}))
        .await;
    let opened = read_named(&mut lobby, "lobby", 1).await;
    let listed = &opened[0]["matches"];
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["id"], open.id.as_str());
    assert_eq!(listed[0]["host"], "Ada");
    assert_eq!(listed[0]["url"], format!("/chutes/m/{}", open.id));
    // The same as the list read on request.
    assert_eq!(app.get("/api/lobby").await.ok(), &opened[0]);
    // Its seat taken, it leaves the list, and the stream says so.
    app.post(
        &format!("/api/matches/{}/join", open.id),
        json!({"seat": 2, "name": "Bo"}),
    )
    .await
    .ok();
    let taken = read_named(&mut lobby, "lobby", 1).await;
    assert_eq!(taken[0]["matches"], json!([]), "{taken:?}");
}

#[tokio::test]
async fn unknown_matches_say_what_happened() {
    let app = App::new().await;
    for uri in [
        format!("/api/matches/{}", "a".repeat(32)),
        "/api/matches/nope".to_string(),
        format!("/api/matches/{}/events", "b".repeat(32)),
        format!("/api/matches/{}/record", "c".repeat(32)),
    ] {
        let why = app
            .get(&uri)
            .await
            .refused(StatusCode::NOT_FOUND, "no_match")
            .to_string();
        assert!(why.contains("expired"), "{why}");
        assert!(why.contains("start a new one"), "{why}");
    }
}

/// Reads a match's server-sent events from `body` until `count` have
/// come (or 10 s).
async fn read_events(body: &mut Body, count: usize) -> Vec<Value> {
    read_named(body, "change", count).await
}

/// Reads server-sent events named `name` from `body` until `count` have
/// come (or 10 s).
async fn read_named(body: &mut Body, name: &str, count: usize) -> Vec<Value> {
    let mut text = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while events.len() < count {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .expect("an event within 10 s")
            .expect("the stream goes on")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                assert!(block.contains(&format!("event: {name}")), "{block}");
                events.push(serde_json::from_str(data).expect("JSON data"));
            }
        }
    }
    events
}

#[tokio::test]
async fn watchers_see_every_move_as_it_happens() {
    let app = App::new().await;
    let mut host = app.start(chutes(&["here", "open"])).await;
    let request = Request::builder()
        .uri(format!("/api/matches/{}/events", host.id))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut body = response.into_body();
    let first = read_events(&mut body, 1).await;
    assert_eq!(first[0]["view"]["moves"], 0);
    assert_eq!(first[0]["played"], json!([]));
    app.play(&mut host, json!("roll")).await.ok();
    let moved = read_events(&mut body, 1).await;
    assert_eq!(moved[0]["view"]["moves"], 1);
    assert_eq!(moved[0]["played"][0]["seat"], 1);
    assert!(
        moved[0]["played"][0]["events"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Player 1 rolls")
    );
    // A seat taken is a change too; a watcher is nobody's.
    app.post(
        &format!("/api/matches/{}/join", host.id),
        json!({"seat": 2, "invite": host.invites[0].1}),
    )
    .await
    .ok();
    let seated = read_events(&mut body, 1).await;
    assert_eq!(seated[0]["view"]["players"][1]["state"], "taken");
    assert_eq!(seated[0]["view"]["you"], Value::Null);
}

#[tokio::test]
async fn bots_move_on_the_server_until_a_person_must_answer() {
    let app = App::new().await;
    let host = app
        .start(json!({"game": "chutes", "seats": ["easy", "here", "hard"]}))
        .await;
    // Seat 1 is a bot: it has moved by the time anyone looks.
    let view = app
        .wait_for(&host.id, |v| v["to_move"] == 2 || v["status"] != "playing")
        .await;
    assert!(view["moves"].as_u64().unwrap() >= 1);
    let mut me = host.clone();
    app.look(&mut me).await;
    let moves = format!("/api/matches/{}/moves", host.id);
    // A person cannot move for a bot.
    let answer = app
        .post_as(
            &me.token,
            &moves,
            json!({"move": "roll", "after": me.after}),
        )
        .await;
    let after_me = answer.ok()["view"]["moves"].as_u64().unwrap();
    // Seats 3 and 1 roll, one after the other, and it is seat 2's turn
    // again (each bot's move is told as it is stored, so the wait is for
    // the turn, not for the first move after mine).
    let later = app
        .wait_for(&host.id, |v| {
            (v["moves"].as_u64().unwrap() > after_me && v["to_move"] == 2)
                || v["status"] != "playing"
        })
        .await;
    if later["status"] == "playing" {
        assert_eq!(
            later["moves"].as_u64().unwrap(),
            after_me + 2,
            "seats 3 and 1 have rolled once each: {later}"
        );
    }
}

#[tokio::test]
async fn a_finished_match_gives_its_record_and_replays_step_by_step() {
    let app = App::new().await;
    let host = app
        .start(json!({"game": "chutes", "seats": ["here", "here"], "seed": 7}))
        .await;
    let record = format!("/api/matches/{}/record", host.id);
    app.get(&record)
        .await
        .refused(StatusCode::CONFLICT, "game_on");
    // A look back while the game is on is what a watcher saw then: no seed.
    let back = app
        .get(&format!("/api/matches/{}/replay?at=0", host.id))
        .await;
    assert_eq!(back.ok()["view"]["dice"], "seeded");
    assert!(back.ok()["view"].get("seed").is_none(), "{}", back.body);
    let start = app.get(&format!("/api/matches/{}/svg?at=0", host.id)).await;
    assert_eq!(
        start.status,
        StatusCode::OK,
        "a past picture is a watcher's then"
    );
    let done = app
        .post_as(
            &host.token,
            &format!("/api/matches/{}/moves", host.id),
            json!({"move": "roll", "after": 0, "repeat": true}),
        )
        .await;
    let final_view = done.ok()["view"].clone();
    let moves = final_view["moves"].as_u64().unwrap() as usize;
    let answer = app.get(&record).await;
    let record = answer.ok();
    assert!(
        answer.headers[header::CONTENT_DISPOSITION]
            .to_str()
            .unwrap()
            .contains("chutes-")
    );
    assert_eq!(record["game"], "chutes");
    assert_eq!(record["dice"], json!({"seeded": {"seed": 7}}));
    assert_eq!(record["moves"].as_array().unwrap().len(), moves);
    assert!(
        record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m == "roll")
    );
    // Step by step, from the start to the end.
    let start = app
        .get(&format!("/api/matches/{}/replay?at=0", host.id))
        .await;
    assert_eq!(start.ok()["view"]["moves"], 0);
    assert_eq!(start.ok()["played"], Value::Null);
    let one = app
        .get(&format!("/api/matches/{}/replay?at=1", host.id))
        .await;
    assert_eq!(one.ok()["played"]["number"], 1);
    assert_eq!(one.ok()["view"]["moves"], 1);
    let end = app
        .get(&format!("/api/matches/{}/replay?at={moves}", host.id))
        .await;
    assert_eq!(end.ok()["view"]["view"], final_view["view"]);
    assert_eq!(end.ok()["moves"], moves);
    app.get(&format!("/api/matches/{}/replay?at={}", host.id, moves + 1))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_step");
    // Each step's picture draws the rolls so far and no later one (the
    // first and the last are never a lost turn, so they are drawn).
    for at in [0, 1, moves] {
        let svg = app
            .get(&format!("/api/matches/{}/svg?at={at}", host.id))
            .await;
        let svg = svg.ok().as_str().unwrap().to_string();
        let latest = svg
            .split("data-turn=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next()?.parse::<usize>().ok())
            .max()
            .unwrap_or(0);
        assert_eq!(latest, at, "step {at}");
    }
    app.get(&format!("/api/matches/{}/svg?at={}", host.id, moves + 1))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_step");
}

#[tokio::test]
async fn matches_outlive_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let first = App::with(|c| c.data_dir = data.clone()).await;
    let mut host = first.start(chutes(&["here", "open"])).await;
    first.play(&mut host, json!("roll")).await.ok();
    let before = first.look(&mut host).await;
    drop(first);
    // A new server on the same data directory: the same match, the same
    // token, the same invite.
    let second = App::with(|c| c.data_dir = data.clone()).await;
    let after = second.look(&mut host).await;
    assert_eq!(after["moves"], 1);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["you"], 1);
    second
        .post(
            &format!("/api/matches/{}/join", host.id),
            json!({"seat": 2, "invite": host.invites[0].1}),
        )
        .await
        .ok();
}

/// Every answer a player or a watcher gets while the match is on, for a
/// few dozen moves: the mover's answers, views, the setup, the picture.
async fn answers_while_on(app: &App, host: &mut Seat) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..30 {
        // A person is to move once the bots are done.
        let view = app
            .wait_for(&host.id, |v| {
                let to_move = v["to_move"].as_u64().unwrap_or(0) as usize;
                v["status"] != "playing" || v["players"][to_move.wrapping_sub(1)]["state"] == "here"
            })
            .await;
        if view["status"] != "playing" {
            break;
        }
        seen.push(view.to_string());
        app.look(host).await;
        let mv = view["page"]["moves"][0]["text"].clone();
        let mv = if mv.is_null() { json!("roll") } else { mv };
        let answer = app.play(host, mv).await;
        if answer.ok()["view"]["status"] == "playing" {
            seen.push(answer.body.to_string());
            for part in ["setup", "svg"] {
                let more = app.get(&format!("/api/matches/{}/{part}", host.id)).await;
                seen.push(more.body.to_string());
            }
        }
    }
    seen
}

#[tokio::test]
async fn the_seed_stays_secret_while_matches_are_on() {
    let app = App::new().await;
    for seed in [8_675_309_123_457u64, 9_007_199_254_740_991] {
        for (game, seats) in [
            ("chutes", json!(["here", "here"])),
            ("tycoon", json!(["here", "easy", "normal", "easy"])),
        ] {
            let mut host = app
                .start(json!({"game": game, "seats": seats, "seed": seed}))
                .await;
            let seen = answers_while_on(&app, &mut host).await;
            assert!(seen.len() > 10, "{game}: only {} answers", seen.len());
            for text in &seen {
                for form in [seed.to_string(), format!("{seed:x}"), format!("{seed:X}")] {
                    assert!(
                        !text.contains(&form),
                        "{game}: the seed {seed} was shown as {form} while on: {text}"
                    );
                }
            }
        }
    }
}

/// The registry, as every client reads it: each game once, with its seats
/// and its default setup, and a match of each made from its defaults.
#[tokio::test]
async fn the_games_are_listed_once_and_each_starts_from_its_defaults() {
    let app = App::new().await;
    let listed = app.get("/api/games").await;
    let listed = listed.ok().as_array().unwrap().clone();
    let names: Vec<&str> = listed.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["chutes", "baffle", "tycoon"]);
    let chutes = &listed[0];
    assert_eq!(chutes["title"], "Chutes & Ladders");
    assert_eq!(chutes["min_seats"], 1);
    assert_eq!(chutes["max_seats"], 4);
    assert_eq!(chutes["bot_levels"], false, "a Chutes bot only rolls");
    assert_eq!(listed[1]["bot_levels"], true);
    assert_eq!(
        chutes["default_setup"],
        json!({"board": "classic", "overshoot": "stay", "faces": 6})
    );
    assert_eq!(
        listed[1]["default_setup"],
        json!({"fixed": false, "size": 10, "mirrors": 5, "sides": "all"})
    );
    assert_eq!(listed[1]["setup_limits"]["size"]["max"], 26);
    assert_eq!(listed[1]["setup_limits"]["mirrors"]["default"], 5);
    assert_eq!(
        listed[2]["default_seats"],
        json!(["person", "normal", "normal", "normal"])
    );
    for game in &listed {
        let name = game["name"].as_str().unwrap();
        let made = app
            .post(
                "/api/matches",
                json!({"game": name, "setup": game["default_setup"]}),
            )
            .await;
        let view = &made.ok()["view"];
        assert_eq!(view["game"], name);
        assert_eq!(
            view["seats"].as_array().unwrap().len(),
            game["default_seats"].as_array().unwrap().len(),
            "{name}"
        );
    }
    // One seat too many, as the registry counts them.
    app.post(
        "/api/matches",
        json!({"game": "chutes", "seats": ["here", "here", "here", "here", "here"]}),
    )
    .await
    .refused(StatusCode::BAD_REQUEST, "bad_seats");
}
