//! Classrooms through the API, on SQLite and on PostgreSQL: opening one,
//! students joining by the name rules, their games noted as they end, the
//! figures against an independent count, the teacher's powers, the class
//! game, the bounds, and nothing secret in a view.

use crate::support::{Answer, App, client};
use axum::http::StatusCode;
use serde_json::{Value, json};

/// A classroom as its teacher holds it.
struct Room {
    id: String,
    token: String,
}

async fn open(app: &App, setup: Value) -> Room {
    let made = app.post("/api/classrooms", setup).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    Room {
        id: made.body["id"]
            .as_str()
            .expect("as the API documents")
            .to_string(),
        token: made.body["token"]
            .as_str()
            .expect("as the API documents")
            .to_string(),
    }
}

async fn join(app: &App, room: &Room, name: &str) -> String {
    let joined = app
        .post(
            &format!("/api/classrooms/{}/students", room.id),
            json!({ "name": name }),
        )
        .await;
    assert_eq!(joined.status, StatusCode::CREATED, "{}", joined.body);
    joined.body["token"]
        .as_str()
        .expect("as the API documents")
        .to_string()
}

async fn view(app: &App, room: &Room) -> Value {
    app.get(&format!("/api/classrooms/{}", room.id))
        .await
        .ok()
        .clone()
}

/// A student's solo game, played to its end in one request; returns the
/// match's id.
async fn play_solo(app: &App, room: &Room, student: &str) -> String {
    let made = app
        .post_as(
            student,
            &format!("/api/classrooms/{}/games", room.id),
            json!({}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let id = made.body["id"]
        .as_str()
        .expect("as the API documents")
        .to_string();
    let token = made.body["token"]
        .as_str()
        .expect("as the API documents")
        .to_string();
    let after = made.body["view"]["moves"]
        .as_u64()
        .expect("as the API documents");
    app.post_as(
        &token,
        &format!("/api/matches/{id}/moves"),
        json!({"move": "roll", "after": after, "repeat": true}),
    )
    .await
    .ok();
    id
}

/// The rolls match `id` took, from its record (one entry a roll): a count
/// apart from the classroom's own.
async fn rolls_of(app: &App, id: &str) -> u64 {
    let record = app.get(&format!("/api/matches/{id}/record")).await;
    record.ok()["moves"].as_array().expect("moves").len() as u64
}

/// Waits (up to 20 s) until the classroom's view satisfies `done`.
async fn wait_for(app: &App, room: &Room, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let v = view(app, room).await;
        if done(&v) {
            return v;
        }
        assert!(std::time::Instant::now() < deadline, "never got there: {v}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

fn no_secret(text: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(!text.contains(secret), "a secret is shown: {text}");
    }
    assert!(!text.contains("seed"), "a seed is shown: {text}");
}

async fn students_games_are_counted_against_the_exact_figures(app: App) {
    let room = open(&app, json!({})).await;
    let first = view(&app, &room).await;
    assert_eq!(first["activity"], "solo");
    assert_eq!(first["players"], 1);
    assert_eq!(first["figures"]["counted"], 0);
    // The exact mean of one player on the classic board is the analysis's.
    let analysis = app
        .get("/api/chutes/boards/classic/analysis")
        .await
        .ok()
        .clone();
    let exact_mean = first["exact"]["mean"]
        .as_f64()
        .expect("as the API documents");
    assert!((exact_mean - analysis["mean"].as_f64().expect("as the API documents")).abs() < 1e-6);

    let names = ["Ada", "Bo", "Cy"];
    let mut tokens = Vec::new();
    for name in names {
        tokens.push(join(&app, &room, name).await);
    }
    let mut matches = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        for _ in 0..=i {
            matches.push(play_solo(&app, &room, token).await);
        }
    }
    let v = wait_for(&app, &room, |v| v["figures"]["counted"] == 6).await;
    let mut lengths = Vec::new();
    for id in &matches {
        lengths.push(rolls_of(&app, id).await);
    }
    let mean = lengths.iter().sum::<u64>() as f64 / lengths.len() as f64;
    assert!((v["figures"]["mean"].as_f64().expect("as the API documents") - mean).abs() < 1e-9);
    let counted: u64 = v["figures"]["bars"]
        .as_array()
        .expect("as the API documents")
        .iter()
        .map(|b| b["count"].as_u64().expect("as the API documents"))
        .sum();
    assert_eq!(counted, 6);
    let longest = *lengths.iter().max().expect("as the API documents");
    assert_eq!(v["figures"]["longest"]["rolls"], longest);
    assert_eq!(v["students"][2]["games"], 3, "{}", v["students"]);
    assert_eq!(v["playing"], 0);
    let sentence = v["figures"]["sentence"]
        .as_str()
        .expect("as the API documents");
    assert!(sentence.starts_with("6 games"), "{sentence}");

    // The CSV, for the teacher only: a line a game, the same lengths.
    let csv_uri = format!("/api/classrooms/{}/games.csv", room.id);
    app.get(&csv_uri)
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
    app.get_as(&tokens[0], &csv_uri)
        .await
        .refused(StatusCode::FORBIDDEN, "bad_token");
    let csv = app.get_as(&room.token, &csv_uri).await;
    let text = csv.ok().as_str().expect("as the API documents").to_string();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 6, "{text}");
    let mut from_csv: Vec<u64> = rows
        .iter()
        .map(|r| {
            r.split(',')
                .nth(3)
                .expect("as the API documents")
                .parse()
                .expect("as the API documents")
        })
        .collect();
    from_csv.sort_unstable();
    lengths.sort_unstable();
    assert_eq!(from_csv, lengths);

    // The figure, a PNG.
    let png = app
        .get_as(
            &room.token,
            &format!("/api/classrooms/{}/figure.png", room.id),
        )
        .await;
    assert_eq!(png.status, StatusCode::OK);
    assert_eq!(png.headers["content-type"], "image/png");

    // Nothing secret in the view or its stream's first event.
    let text = serde_json::to_string(&v).expect("as the API documents");
    let mut secrets: Vec<&str> = tokens.iter().map(String::as_str).collect();
    secrets.push(&room.token);
    no_secret(&text, &secrets);

    // A reset starts a new round: no games counted, the students stay.
    let reset = format!("/api/classrooms/{}/reset", room.id);
    app.post_as(&tokens[0], &reset, json!({}))
        .await
        .refused(StatusCode::FORBIDDEN, "bad_token");
    let after = app.post_as(&room.token, &reset, json!({})).await;
    assert_eq!(after.ok()["round"], 2);
    assert_eq!(after.ok()["figures"]["counted"], 0);
    assert_eq!(
        after.ok()["students"]
            .as_array()
            .expect("as the API documents")
            .len(),
        3
    );
}

async fn names_follow_the_players_rules_and_a_class_holds_forty(app: App) {
    let room = open(&app, json!({})).await;
    let uri = format!("/api/classrooms/{}/students", room.id);
    join(&app, &room, "Ada").await;
    // A name like one taken, an empty one, a reserved one.
    for name in ["ada", "  ", "Bot 2"] {
        let refused = app.post(&uri, json!({ "name": name })).await;
        assert_eq!(
            refused.status,
            StatusCode::BAD_REQUEST,
            "{name}: {}",
            refused.body
        );
        assert_eq!(refused.code(), "bad_name", "{name}");
    }
    for n in 2..=40 {
        join(&app, &room, &format!("Student {n}")).await;
    }
    let full = app.post(&uri, json!({"name": "Late"})).await;
    let message = full.refused(StatusCode::CONFLICT, "conflict");
    assert!(message.contains("40"), "{message}");
    app.post(
        "/api/classrooms/0123456789abcdef0123456789abcdef/students",
        json!({"name": "X"}),
    )
    .await
    .refused(StatusCode::NOT_FOUND, "not_found");
    app.get("/api/classrooms/nonsense")
        .await
        .refused(StatusCode::NOT_FOUND, "not_found");
}

async fn the_teacher_switches_the_board_and_the_activity(app: App) {
    let room = open(&app, json!({})).await;
    let student = join(&app, &room, "Ada").await;
    let uploaded = app
        .post(
            "/api/chutes/boards",
            json!({"text": "size = 30\nladders = [[3, 22]]\nchutes = [[27, 5]]\n", "file_name": "small.toml"}),
        )
        .await;
    let board = uploaded.ok()["id"]
        .as_str()
        .expect("as the API documents")
        .to_string();
    let setup = format!("/api/classrooms/{}/setup", room.id);
    app.post_as(&room.token, &setup, json!({"activity": "chess"}))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_setup");
    let switched = app
        .post_as(
            &room.token,
            &setup,
            json!({"board": board, "activity": "bot"}),
        )
        .await;
    let v = switched.ok().clone();
    assert_eq!(v["board"]["squares"], 30);
    assert_eq!(v["players"], 2);
    assert_eq!(v["round"], 2);
    let seats = v["exact"]["seats"]
        .as_array()
        .expect("as the API documents");
    let sum: f64 = seats
        .iter()
        .map(|s| s.as_f64().expect("as the API documents"))
        .sum();
    assert!((sum - 1.0).abs() < 1e-3, "{seats:?}");
    // Games against the bot: the student rolls, the bot answers.
    for _ in 0..3 {
        let made = app
            .post_as(
                &student,
                &format!("/api/classrooms/{}/games", room.id),
                json!({}),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        let id = made.body["id"]
            .as_str()
            .expect("as the API documents")
            .to_string();
        let token = made.body["token"]
            .as_str()
            .expect("as the API documents")
            .to_string();
        loop {
            let m = app.wait_for(&id, |m| m["to_move"] != 2).await;
            if m["status"]["over"] == true || m["to_move"].is_null() {
                break;
            }
            app.post_as(
                &token,
                &format!("/api/matches/{id}/moves"),
                json!({"move": "roll", "after": m["moves"]}),
            )
            .await
            .ok();
        }
    }
    let v = wait_for(&app, &room, |v| v["figures"]["games"] == 3).await;
    let wins: u64 = v["figures"]["seats"]
        .as_array()
        .expect("as the API documents")
        .iter()
        .map(|s| s["wins"].as_u64().expect("as the API documents"))
        .sum();
    assert_eq!(wins, 3);
    assert!(
        v["games"][0]["players"]
            .as_str()
            .expect("as the API documents")
            .contains("Ada and a bot")
    );
    // The board was copied in: the classroom outlives the upload's session.
    let svg = app
        .get(&format!("/api/classrooms/{}/board.svg", room.id))
        .await;
    assert_eq!(svg.status, StatusCode::OK);
}

async fn the_class_plays_one_game_in_teams(app: App) {
    let room = open(&app, json!({"activity": "together", "teams": 2})).await;
    let ada = join(&app, &room, "Ada").await;
    let bo = join(&app, &room, "Bo").await;
    let roll = format!("/api/classrooms/{}/roll", room.id);
    app.post_as(&ada, &roll, json!({}))
        .await
        .refused(StatusCode::CONFLICT, "conflict");
    let started = app
        .post_as(
            &room.token,
            &format!("/api/classrooms/{}/together", room.id),
            json!({}),
        )
        .await;
    let v = started.ok().clone();
    assert_eq!(v["together"]["teams"], json!([["Ada"], ["Bo"]]));
    let text = serde_json::to_string(&v).expect("as the API documents");
    no_secret(&text, &[&room.token, &ada, &bo]);
    let game = v["together"]["match"]
        .as_str()
        .expect("as the API documents")
        .to_string();
    // Bo is in team 2: not their turn first.
    app.post_as(&bo, &roll, json!({}))
        .await
        .refused(StatusCode::CONFLICT, "not_your_turn");
    let mut turn = 0;
    loop {
        let m = app.get(&format!("/api/matches/{game}")).await.ok().clone();
        if m["to_move"].is_null() {
            break;
        }
        let who = if m["to_move"] == 1 { &ada } else { &bo };
        app.post_as(who, &roll, json!({})).await.ok();
        turn += 1;
        assert!(turn < 5_000, "the class game never ended");
    }
    let v = wait_for(&app, &room, |v| v["figures"]["games"] == 1).await;
    let rolls = rolls_of(&app, &game).await;
    assert_eq!(v["games"][0]["rolls"], rolls);
    assert_eq!(
        v["figures"]["seats"]
            .as_array()
            .expect("as the API documents")
            .len(),
        2
    );
    let winner = v["games"][0]["winner_name"]
        .as_str()
        .expect("as the API documents");
    assert!(winner.starts_with("Team "), "{winner}");
    app.post_as(&ada, &roll, json!({}))
        .await
        .refused(StatusCode::CONFLICT, "game_over");
}

/// Runs `test` on SQLite and on PostgreSQL.
macro_rules! on_both {
    ($name:ident) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                super::$name(App::new().await).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                super::$name(App::on_postgres().await).await;
            }
        }
    };
}

on_both!(students_games_are_counted_against_the_exact_figures);
on_both!(names_follow_the_players_rules_and_a_class_holds_forty);
on_both!(the_teacher_switches_the_board_and_the_activity);
on_both!(the_class_plays_one_game_in_teams);

/// A classroom is kept in the store: a second server on the same store
/// (a restart, another of a cluster) answers for it, games and all.
async fn a_classroom_outlives_its_server(location: server::store::Location) {
    let first = App::with(|c| c.database = Some(location.clone())).await;
    let room = open(&first, json!({})).await;
    let student = join(&first, &room, "Ada").await;
    play_solo(&first, &room, &student).await;
    wait_for(&first, &room, |v| v["figures"]["counted"] == 1).await;
    let second = App::with(|c| c.database = Some(location)).await;
    let v = view(&second, &room).await;
    assert_eq!(v["figures"]["counted"], 1);
    assert_eq!(v["students"][0]["name"], "Ada");
    // The student plays on with the second server, the teacher resets there.
    play_solo(&second, &room, &student).await;
    wait_for(&second, &room, |v| v["figures"]["counted"] == 2).await;
    second
        .post_as(
            &room.token,
            &format!("/api/classrooms/{}/reset", room.id),
            json!({}),
        )
        .await
        .ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classroom_outlives_its_server_on_sqlite() {
    let dir = tempfile::tempdir().expect("as the API documents");
    a_classroom_outlives_its_server(server::store::Location::Sqlite(
        dir.path().join("shared.db"),
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classroom_outlives_its_server_on_postgres() {
    let url = testkit::fresh_postgres().await;
    a_classroom_outlives_its_server(server::store::Location::Postgres(url)).await;
}

async fn open_from(app: &App, from: std::net::IpAddr) -> Answer {
    app.send_from(from, "POST", "/api/classrooms", None, &[], Some(&json!({})))
        .await
}

/// Classrooms count against their opener as matches do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_opens_at_most_its_share_of_classrooms() {
    let app = App::with(|c| c.matches_per_client = 2).await;
    let from = client(7);
    for _ in 0..2 {
        let made: Answer = open_from(&app, from).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    }
    let refused = open_from(&app, from).await;
    let message = refused.refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
    assert!(message.contains("2 classrooms"), "{message}");
    assert!(refused.headers.contains_key("retry-after"));
    // Another address still may.
    let other = app
        .send_from(
            client(8),
            "POST",
            "/api/classrooms",
            None,
            &[],
            Some(&json!({})),
        )
        .await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.body);
}

/// The live page's stream: its first event is the view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_opens_with_the_view() {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let app = App::new().await;
    let room = open(&app, json!({})).await;
    let request = axum::http::Request::builder()
        .uri(format!("/api/classrooms/{}/events", room.id))
        .body(axum::body::Body::empty())
        .expect("as the API documents");
    let response = app
        .router
        .clone()
        .oneshot(request)
        .await
        .expect("as the API documents");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let frame = body
        .frame()
        .await
        .expect("as the API documents")
        .expect("as the API documents");
    let text = String::from_utf8(frame.into_data().expect("as the API documents").to_vec())
        .expect("as the API documents");
    assert!(text.contains("event: change"), "{text}");
    assert!(text.contains(&room.id), "{text}");
    no_secret(&text, &[&room.token]);
}

/// A classroom expires as a match does: untouched for 30 days, or, while
/// nobody has joined, untouched for the unplayed matches' time; its
/// students and games go with it.
async fn classrooms_expire_as_matches_do(location: server::store::Location) {
    use server::store::classrooms::{ClassGameRow, Joined, NewClassroom};
    use server::store::{Creator, Db, Durability};
    let db = Db::open(&location, Durability::Process, None)
        .await
        .expect("the store opens");
    let new = |id: &str, at_ms: i64| NewClassroom {
        id: id.to_string(),
        token: "digest".to_string(),
        setup: "{}".to_string(),
        at_ms,
    };
    let (empty, joined) = ("a".repeat(32), "b".repeat(32));
    db.create_classroom(new(&empty, 1_000), Creator::default())
        .await
        .expect("opened");
    db.create_classroom(new(&joined, 1_000), Creator::default())
        .await
        .expect("opened");
    let added = db
        .add_student(&joined, "Ada", "digest", 40, |_| None)
        .await
        .expect("joined");
    assert_eq!(added, Joined::Number(1));
    db.add_class_game(
        &joined,
        ClassGameRow {
            match_id: "c".repeat(32),
            round: 1,
            student: Some(1),
            players: "Ada".to_string(),
            seats: 1,
            rolls: None,
            winner: None,
            winner_name: None,
            started_ms: 2_000,
            finished_ms: None,
        },
    )
    .await
    .expect("noted");
    // Nobody joined the first: it goes at the unplayed threshold; the
    // second was touched since (a student, a game) and stays.
    let now = server::store::now_ms();
    assert_eq!(db.expire_classrooms(1_500, now).await.expect("expired"), 1);
    assert!(db.classroom(&empty).await.expect("read").is_none());
    let kept = db.classroom(&joined).await.expect("read").expect("kept");
    assert_eq!(kept.students.len(), 1);
    assert_eq!(kept.games.len(), 1);
    // Untouched past the long threshold: it goes with its students and
    // games (a new classroom of the same id starts empty).
    assert_eq!(db.expire_classrooms(now + 1, 0).await.expect("expired"), 1);
    assert!(db.classroom(&joined).await.expect("read").is_none());
    db.create_classroom(new(&joined, now), Creator::default())
        .await
        .expect("opened again");
    let again = db.classroom(&joined).await.expect("read").expect("kept");
    assert!(again.students.is_empty() && again.games.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classrooms_expire_as_matches_do_on_sqlite() {
    let dir = tempfile::tempdir().expect("a directory");
    classrooms_expire_as_matches_do(server::store::Location::Sqlite(dir.path().join("e.db"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classrooms_expire_as_matches_do_on_postgres() {
    let url = testkit::fresh_postgres().await;
    classrooms_expire_as_matches_do(server::store::Location::Postgres(url)).await;
}
