//! Friends on one game, through the router: two people race on the same
//! Baffle box (each sees their own shots, the other's only as counts, and
//! every box at the end, on its own), and Tycoon for two and three seats.

use crate::support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{App, Seat};

/// The original assignment's first game's mirrors, as guesses.
const FIXED: [&str; 5] = [
    "guess 0 9 \\",
    "guess 4 2 /",
    "guess 6 0 \\",
    "guess 8 2 /",
    "guess 8 7 \\",
];

/// Ada makes a two-seat race on the fixed box and Bo takes the open seat:
/// (Ada's seat, Bo's seat).
async fn ada_and_bo(app: &App) -> (Seat, Seat) {
    let ada = app
        .start(json!({
            "game": "baffle",
            "setup": {"fixed": true},
            "seats": [{"plan": "here", "name": "Ada"}, "open"],
        }))
        .await;
    let (seat, invite) = ada.invites[0].clone();
    let joined = app
        .post(
            &format!("/api/matches/{}/join", ada.id),
            json!({"seat": seat, "invite": invite, "name": "Bo"}),
        )
        .await;
    let bo = Seat {
        id: ada.id.clone(),
        token: joined.ok()["token"].as_str().expect("a token").to_string(),
        after: 0,
        invites: Vec::new(),
    };
    (ada, bo)
}

/// Everything in a view that could tell a box's answers.
fn answers(game_view: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for s in game_view["shots"].as_array().expect("shots") {
        found.push(format!("{}->{}", s["hole"], s["exit"]));
    }
    for g in game_view["found"].as_array().expect("found") {
        found.push(format!("found {} {}", g["row"], g["col"]));
    }
    for g in game_view["guesses"].as_array().expect("guesses") {
        found.push(format!("guess {} {}", g["row"], g["col"]));
    }
    found
}

#[tokio::test]
async fn two_friends_race_on_one_box_and_each_keeps_their_own_shots() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    let shot = app.play(&mut ada, json!("shoot 7")).await;
    let view = &shot.ok()["view"];
    assert_eq!(view["view"]["shots"][0]["exit"], 22, "Ada sees her exit");
    assert_eq!(view["to_move"], 2);
    // Bo's own box has no shot; Ada is a count.
    let seen = app.look(&mut bo).await;
    assert_eq!(seen["view"]["shots"], json!([]));
    assert_eq!(seen["view"]["racers"][0]["shots"], 1);
    assert!(seen["view"]["racers"][0].get("board").is_none());
    assert!(!seen.to_string().contains("comes out"), "{seen}");
    // It is Bo's turn: Ada waits.
    let early = app.play(&mut ada, json!("shoot 1")).await;
    early.refused(StatusCode::CONFLICT, "not_your_turn");
    app.play(&mut bo, json!("shoot 1")).await.ok();
    // Ada finds a mirror: Bo learns a mirror was found, never where.
    app.look(&mut ada).await;
    let guess = app.play(&mut ada, json!(FIXED[1])).await;
    assert_eq!(guess.ok()["played"][0]["move"], FIXED[1], "the mover's own");
    let seen = app.look(&mut bo).await;
    assert_eq!(seen["view"]["racers"][0]["found"], 1);
    assert_eq!(answers(&seen["view"]), ["1->24"]);
    let back = app
        .get_as(&bo.token, &format!("/api/matches/{}/replay?at=3", bo.id))
        .await;
    let back = back.ok();
    assert_eq!(back["played"]["move"], "guess", "{back}");
    assert_eq!(answers(&back["view"]["view"]), ["1->24"]);
    assert!(!back.to_string().contains("\"row\":4"), "{back}");
    // Each draws their own box; a watcher's has no shot.
    let svg = format!("/api/matches/{}/svg", ada.id);
    let drawn = |a: &support::Answer| a.body.as_str().expect("an SVG").to_string();
    let ada_box = drawn(&app.get_as(&ada.token, &svg).await);
    assert!(
        ada_box.contains("class=\"hole entry\" data-hole=\"7\""),
        "{ada_box}"
    );
    let bo_box = drawn(&app.get_as(&bo.token, &svg).await);
    assert!(!bo_box.contains("hole entry\" data-hole=\"7\""), "{bo_box}");
    assert!(
        bo_box.contains("class=\"hole entry\" data-hole=\"1\""),
        "{bo_box}"
    );
    let their_box = drawn(&app.get(&svg).await);
    assert!(!their_box.contains("hole entry"), "{their_box}");
    // A watcher sees the box with no shot, and the counts.
    let watcher = app.get(&format!("/api/matches/{}", ada.id)).await;
    let watcher = watcher.ok();
    assert!(answers(&watcher["view"]).is_empty(), "{watcher}");
    assert_eq!(watcher["view"]["racers"][1]["shots"], 1);
    // The hint and the bot's move are on the asker's own box; a watcher
    // of a race has no box to be helped with.
    let hint = app
        .post(&format!("/api/baffle/matches/{}/hint", bo.id), json!({}))
        .await;
    hint.refused(StatusCode::UNAUTHORIZED, "no_token");
    let hint = app
        .post_as(
            &bo.token,
            &format!("/api/baffle/matches/{}/hint", bo.id),
            json!({}),
        )
        .await;
    assert!(hint.ok()["advice_text"].is_string());
    let after = app.look(&mut bo).await["moves"].clone();
    let bot = app
        .post_as(
            &bo.token,
            &format!("/api/baffle/matches/{}/bot", bo.id),
            json!({"after": after}),
        )
        .await;
    let bot = bot.ok();
    assert_eq!(bot["played"][0]["seat"], 2);
    assert_eq!(bot["view"]["view"]["racers"][0]["shots"], 1, "{bot}");
}

#[tokio::test]
async fn the_fewest_points_win_a_race_and_everything_is_shown_at_the_end() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    // Bo shoots once; then both find every mirror: Ada wins by a point.
    app.play(&mut ada, json!(FIXED[0])).await.ok();
    app.look(&mut bo).await;
    app.play(&mut bo, json!("shoot 7")).await.ok();
    for guess in &FIXED[1..] {
        app.look(&mut ada).await;
        app.play(&mut ada, json!(guess)).await.ok();
        app.look(&mut bo).await;
        app.play(&mut bo, json!(guess)).await.ok();
    }
    app.look(&mut bo).await;
    let last = app.play(&mut bo, json!(FIXED[0])).await;
    let end = last.ok()["view"].clone();
    assert_eq!(end["status"], "won");
    assert_eq!(end["result"]["winner"], 1);
    assert_eq!(end["result"]["words"], "You lost: Ada wins");
    let racers = end["view"]["racers"].as_array().unwrap();
    assert_eq!(racers[0]["points"], 0);
    assert_eq!(racers[1]["points"], 1);
    // The viewer's own box whole (found, and none missed); the racers'
    // counts only: each box on its own, to anyone once the race is over
    // (each found all five, by right guesses; Bo's shot with its
    // deflections).
    assert_eq!(end["view"]["found"].as_array().unwrap().len(), 5);
    assert_eq!(end["view"]["missed"], json!([]));
    for r in racers {
        assert!(r.get("board").is_none(), "{r}");
        let seat = &r["seat"];
        let own = app
            .get(&format!("/api/baffle/matches/{}/box?seat={seat}", ada.id))
            .await
            .ok()
            .clone();
        let guesses = own["guesses"].as_array().unwrap();
        assert_eq!(guesses.len(), 5);
        assert!(guesses.iter().all(|g| g["right"] == true), "{own}");
        assert_eq!(own["missed"], json!([]));
        assert_eq!(own["score"]["total"], r["points"]);
    }
    let bos = app
        .get(&format!("/api/baffle/matches/{}/box?seat=2", ada.id))
        .await
        .ok()
        .clone();
    assert_eq!(
        bos["shots"],
        json!([{"hole": 7, "exit": 22, "deflections": 0}])
    );
    let ada_sees = app.look(&mut ada).await;
    assert_eq!(ada_sees["result"]["words"], "You win");
}

#[tokio::test]
async fn a_race_tied_on_points_shares_the_win() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    for guess in FIXED {
        app.look(&mut ada).await;
        app.play(&mut ada, json!(guess)).await.ok();
        app.look(&mut bo).await;
        app.play(&mut bo, json!(guess)).await.ok();
    }
    let ada_sees = app.look(&mut ada).await;
    assert_eq!(ada_sees["status"], "shared");
    assert_eq!(ada_sees["result"]["words"], "You share the win with Bo");
    assert_eq!(ada_sees["result"]["you_won"], true);
    let watcher = app.get(&format!("/api/matches/{}", ada.id)).await;
    assert_eq!(watcher.ok()["result"]["words"], "Ada and Bo share the win");
    // Play again deals a fresh box for the same two.
    let again = app
        .post_as(
            &ada.token,
            &format!("/api/matches/{}/rematch", ada.id),
            json!({}),
        )
        .await;
    let again = again.ok();
    let id = again["id"].as_str().unwrap();
    let setup = app.get(&format!("/api/matches/{id}/setup")).await;
    assert_eq!(setup.ok()["origin"], "random");
}

#[tokio::test]
async fn a_race_takes_one_to_four_seats_and_bots_race_too() {
    let app = App::new().await;
    let five = app
        .post(
            "/api/matches",
            json!({"game": "baffle", "seats": ["here", "bot", "bot", "bot", "bot"]}),
        )
        .await;
    five.refused(StatusCode::BAD_REQUEST, "bad_seats");
    let host = app
        .start(json!({
            "game": "baffle",
            "setup": {"size": 6, "mirrors": 2},
            "seats": ["bot", "easy", "hard"],
        }))
        .await;
    let end = app.wait_for(&host.id, |v| v["status"] != "playing").await;
    assert_eq!(end["view"]["racers"].as_array().unwrap().len(), 3);
    assert!(end["result"]["words"].is_string(), "{end}");
}
#[tokio::test]
async fn tycoon_plays_with_two_and_three_seats() {
    let app = App::new().await;
    for seats in [json!(["bot", "bot"]), json!(["bot", "easy", "bot"])] {
        let n = seats.as_array().unwrap().len();
        let host = app
            .start(json!({"game": "tycoon", "setup": {"sample": true}, "seats": seats}))
            .await;
        let end = app.wait_for(&host.id, |v| v["status"] != "playing").await;
        assert_eq!(end["view"]["players"].as_array().unwrap().len(), n, "{end}");
        assert_eq!(end["seats"].as_array().unwrap().len(), n);
    }
    let one = app
        .post("/api/matches", json!({"game": "tycoon", "seats": ["here"]}))
        .await;
    one.refused(StatusCode::BAD_REQUEST, "bad_seats");
}

/// How many layouts still fit is each racer's own: after Ada's 7 → 22 her
/// view counts 1,406,446,416 (as `parlor baffle solve --shots 7:22` does),
/// Bo's and a watcher's the untouched box's C(100, 5) · 2⁵; the look back's
/// chart is the asker's own box while the race is on. The counts come
/// after the shot's answer, which never waits for them.
#[tokio::test]
async fn each_racer_sees_the_layouts_left_on_their_own_box() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    app.play(&mut ada, json!("shoot 7")).await.ok();
    // Counted after the shot's answer, away from the move's path.
    let seen = app
        .look_until(&mut ada, |v| {
            v["view"]["shots"][0]["count"]["best"].as_f64().is_some()
        })
        .await;
    let view = &seen["view"];
    assert_eq!(
        view["live"]["layouts"],
        json!({"kind": "exact", "layouts": "1406446416"})
    );
    assert_eq!(
        view["shots"][0]["count"]["layouts"]["layouts"],
        "1406446416"
    );
    assert!(
        view["shots"][0]["count"]["best"].as_f64().is_some(),
        "{view}"
    );
    let seen = app
        .look_until(&mut bo, |v| !v["view"]["live"].is_null())
        .await;
    assert_eq!(seen["view"]["live"]["layouts"]["layouts"], "2409200640");
    assert!(!seen.to_string().contains("1406446416"), "{seen}");
    let watcher = app.get(&format!("/api/matches/{}", ada.id)).await;
    let watcher = watcher.ok();
    assert_eq!(watcher["view"]["live"]["layouts"]["layouts"], "2409200640");
    assert!(!watcher.to_string().contains("1406446416"), "{watcher}");
    assert_eq!(
        watcher["view"]["live"]["cells"].as_array().map(Vec::len),
        Some(100)
    );
    // The chart: Ada's own; Bo may not see Ada's while the race is on, a
    // watcher of a race has no box.
    let chart = format!("/api/baffle/matches/{}/layouts.svg", ada.id);
    let svg = app.get_as(&ada.token, &chart).await;
    let svg = svg.body.as_str().expect("an SVG").to_string();
    assert!(
        svg.contains("after 1 shots: about 1.4 billion layouts still fit"),
        "{svg}"
    );
    app.get_as(&bo.token, &format!("{chart}?seat=1"))
        .await
        .refused(StatusCode::FORBIDDEN, "not_your_seat");
    app.get(&chart)
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
    app.get_as(&ada.token, &format!("{chart}?seat=5"))
        .await
        .refused(StatusCode::BAD_REQUEST, "no_such_seat");
    // The box itself, as JSON: the same rules.
    let boxed = format!("/api/baffle/matches/{}/box", ada.id);
    let own = app.get_as(&ada.token, &boxed).await.ok().clone();
    assert_eq!(own["shots"], json!([{"hole": 7, "exit": 22}]), "{own}");
    assert!(
        own.get("racers").is_none() && own["missed"].is_null(),
        "{own}"
    );
    app.get_as(&bo.token, &format!("{boxed}?seat=1"))
        .await
        .refused(StatusCode::FORBIDDEN, "not_your_seat");
    app.get(&boxed)
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
}
