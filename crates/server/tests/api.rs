//! The JSON API through the router: answers, and bad requests answered with
//! a 4xx and a JSON error, never a 500.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

fn app() -> (Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary data dir");
    let mut config = server::Config::new(dir.path());
    config.body_limit = 64 * 1024;
    (server::router(config), dir)
}

/// Sends a request; returns the status and the body (JSON, or a string).
async fn call(app: &Router, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let value = if json {
        serde_json::from_slice(&bytes).expect("JSON")
    } else {
        Value::String(String::from_utf8_lossy(&bytes).into_owned())
    };
    (status, value)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(&body.to_string())).await
}

/// A 4xx with a JSON error that says `contains`.
fn assert_refused(answer: &(StatusCode, Value), status: StatusCode, contains: &str) {
    assert_eq!(answer.0, status, "{}", answer.1);
    let message = answer.1["error"].as_str().unwrap_or_else(|| {
        panic!("a JSON error, not {}", answer.1);
    });
    assert!(
        message.contains(contains),
        "error {message:?} should contain {contains:?}"
    );
}

#[tokio::test]
async fn pages_and_assets_are_served() {
    let (app, _dir) = app();
    for path in ["/", "/chutes", "/tycoon"] {
        let (status, body) = call(&app, "GET", path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(body.as_str().unwrap().contains("<!doctype html>"), "{path}");
    }
    let (status, body) = call(&app, "GET", "/static/chutes.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().contains("/api/chutes/games"));
    let (status, _) = call(&app, "GET", "/static/../Cargo.toml", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Anything under /api answers in JSON, even /api/ itself.
    for path in [
        "/api",
        "/api/",
        "/api/nope",
        "/api/chutes/boards/classic/plots/",
    ] {
        let answer = call(&app, "GET", path, None).await;
        assert_refused(&answer, StatusCode::NOT_FOUND, "no API route");
    }
    let (status, body) = call(&app, "GET", "/no/such/page", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.as_str().unwrap().contains("No such page"));
}

#[tokio::test]
async fn a_chutes_game_is_played_roll_by_roll_and_to_the_end() {
    let (app, _dir) = app();
    let (status, game) = post(&app, "/api/chutes/games", json!({"players": 2, "seed": 7})).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32);
    assert_eq!(game["seed"], 7);
    assert_eq!(game["to_move"], 1);
    assert_eq!(game["players"].as_array().unwrap().len(), 2);
    assert_eq!(game["board"]["size"], 100);

    // A roll the player chooses, then one from the dice.
    let (status, played) = post(
        &app,
        &format!("/api/chutes/games/{id}/turns"),
        json!({"roll": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{played}");
    let turn = &played["played"][0];
    assert_eq!(turn["from"], 0);
    assert_eq!(turn["to"], 38, "square 1 has the ladder to 38");
    assert_eq!(turn["jump"]["kind"], "ladder");
    assert_eq!(played["game"]["to_move"], 2);
    let (status, _) = call(&app, "POST", &format!("/api/chutes/games/{id}/turns"), None).await;
    assert_eq!(status, StatusCode::OK);

    let (status, done) = post(&app, &format!("/api/chutes/games/{id}/finish"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let game = &done["game"];
    let winner = game["winner"].as_u64().unwrap();
    assert!(winner == 1 || winner == 2);
    assert_eq!(game["to_move"], Value::Null);
    let turns = game["turns"].as_array().unwrap();
    assert_eq!(turns.len() as u64, game["rolls"].as_u64().unwrap());
    assert_eq!(turns.last().unwrap()["outcome"], "won");
    assert_eq!(done["played"].as_array().unwrap().len() + 2, turns.len());
    assert_eq!(game["players"][winner as usize - 1]["square"], 100);

    // The game is over: more rolls are refused, and the game is unchanged.
    let again = post(&app, &format!("/api/chutes/games/{id}/turns"), json!({})).await;
    assert_refused(&again, StatusCode::CONFLICT, "over");
    let again = post(&app, &format!("/api/chutes/games/{id}/finish"), json!({})).await;
    assert_refused(&again, StatusCode::CONFLICT, "over");
    let (_, same) = call(&app, "GET", &format!("/api/chutes/games/{id}"), None).await;
    assert_eq!(same["rolls"], game["rolls"]);

    // The same seed replays the same game.
    let (_, other) = post(&app, "/api/chutes/games", json!({"players": 2, "seed": 7})).await;
    let other_id = other["id"].as_str().unwrap();
    assert_ne!(other_id, id);
    post(
        &app,
        &format!("/api/chutes/games/{other_id}/turns"),
        json!({"roll": 1}),
    )
    .await;
    post(
        &app,
        &format!("/api/chutes/games/{other_id}/turns"),
        json!({}),
    )
    .await;
    let (_, replayed) = post(
        &app,
        &format!("/api/chutes/games/{other_id}/finish"),
        json!({}),
    )
    .await;
    assert_eq!(replayed["game"]["turns"], game["turns"]);
}

#[tokio::test]
async fn boards_are_uploaded_and_played() {
    let (app, _dir) = app();
    let (status, list) = call(&app, "GET", "/api/chutes/boards", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["builtin"][0]["id"], "classic");
    assert_eq!(list["formats"].as_array().unwrap().len(), 5);

    let (status, board) = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "[[-1,-1,-1],[-1,9,-1],[-1,-1,-1]]", "file_name": "C:\\boards\\tiny.json"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["board"]["name"], "tiny.json");
    assert_eq!(board["board"]["size"], 9);
    assert!(board.get("notes").is_none(), "{board}");
    // A LeetCode self-jump is no jump, and the answer says so; the
    // minimum-throws assignment's form and Tycoon grids upload too.
    let (status, noted) = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "[[-1,-1],[-1,2]]"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{noted}");
    assert_eq!(noted["board"]["jumps"], json!([]));
    assert_eq!(noted["notes"][0]["pos"], json!({"line": 1, "col": 14}));
    assert!(
        noted["notes"][0]["message"]
            .as_str()
            .unwrap()
            .contains("its own label")
    );
    let (status, moves) = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "4 -1 -1 0 -1", "format": "moves"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{moves}");
    assert_eq!(
        moves["board"]["jumps"],
        json!([{"from": 2, "to": 0, "kind": "chute"}])
    );
    let (status, err) = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "1\n10 33\n0\n0\n", "format": "tycoon"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(err.to_string().contains("line 2, column 1: "), "{err}");
    let board_id = board["id"].as_str().unwrap();
    let (status, again) = call(&app, "GET", &format!("/api/chutes/boards/{board_id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["board"], board["board"]);

    let (status, game) = post(
        &app,
        "/api/chutes/games",
        json!({"board": board_id, "overshoot": "bounce"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["rules"]["overshoot"], "bounce");
    let id = game["id"].as_str().unwrap();
    let (_, done) = post(&app, &format!("/api/chutes/games/{id}/finish"), json!({})).await;
    assert_eq!(done["game"]["winner"], 1);

    // A file that does not parse: 422 with the line and column.
    let bad = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "size = 10\nladders = [[3, 99]]\n", "file_name": "bad.toml"}),
    )
    .await;
    assert_refused(&bad, StatusCode::UNPROCESSABLE_ENTITY, "line 2");
    let bad = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "1 2", "format": "xml"}),
    )
    .await;
    assert_refused(&bad, StatusCode::BAD_REQUEST, "unknown board format");
}

#[tokio::test]
async fn a_board_whose_finish_cannot_be_reached_stops_at_the_roll_limit() {
    let (app, _dir) = app();
    // Squares 2..=7 all lead back to 1; from 0 or 1 no roll reaches 8.
    let text = "size = 8\nchutes = [[2,1],[3,1],[4,1],[5,1],[6,1],[7,1]]\n";
    let (_, board) = post(&app, "/api/chutes/boards", json!({"text": text})).await;
    let board_id = board["id"].as_str().expect("a board");
    let (_, game) = post(&app, "/api/chutes/games", json!({"board": board_id})).await;
    let id = game["id"].as_str().unwrap();
    let (status, done) = post(&app, &format!("/api/chutes/games/{id}/finish"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(done["game"]["stalled"], true);
    assert_eq!(done["game"]["winner"], Value::Null);
    assert_eq!(done["game"]["rolls"], server::chutes_api::MAX_ROLLS);
    let more = post(&app, &format!("/api/chutes/games/{id}/turns"), json!({})).await;
    assert_refused(&more, StatusCode::CONFLICT, "without a winner");
}

#[tokio::test]
async fn bad_requests_get_a_json_error_and_a_4xx() {
    let (app, _dir) = app();
    let games = "/api/chutes/games";
    assert_refused(
        &call(&app, "POST", games, Some("{\"players\": ")).await,
        StatusCode::BAD_REQUEST,
        "bad JSON",
    );
    assert_refused(
        &call(&app, "POST", games, Some("[1,2]")).await,
        StatusCode::BAD_REQUEST,
        "bad JSON",
    );
    assert_refused(
        &post(&app, games, json!({"players": "two"})).await,
        StatusCode::BAD_REQUEST,
        "bad JSON",
    );
    assert_refused(
        &post(&app, games, json!({"players": 0})).await,
        StatusCode::BAD_REQUEST,
        "1 to 4 players",
    );
    assert_refused(
        &post(&app, games, json!({"players": 5})).await,
        StatusCode::BAD_REQUEST,
        "1 to 4 players",
    );
    assert_refused(
        &post(&app, games, json!({"colour": "red"})).await,
        StatusCode::BAD_REQUEST,
        "unknown field",
    );
    assert_refused(
        &post(&app, games, json!({"overshoot": "wrap"})).await,
        StatusCode::BAD_REQUEST,
        "overshoot",
    );
    assert_refused(
        &post(&app, games, json!({"faces": 0})).await,
        StatusCode::BAD_REQUEST,
        "faces",
    );
    assert_refused(
        &post(&app, games, json!({"board": "nope"})).await,
        StatusCode::NOT_FOUND,
        "no board 'nope'",
    );
    assert_refused(
        &post(&app, games, json!({"seed": -1})).await,
        StatusCode::BAD_REQUEST,
        "bad JSON",
    );

    // Unknown ids, unknown routes, wrong methods.
    let unknown = "/api/chutes/games/00000000000000000000000000000000";
    assert_refused(
        &call(&app, "GET", unknown, None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
    assert_refused(
        &post(&app, &format!("{unknown}/turns"), json!({})).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
    assert_refused(
        &call(&app, "DELETE", unknown, None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
    assert_refused(
        &call(&app, "GET", "/api/chutes/nothing", None).await,
        StatusCode::NOT_FOUND,
        "no API route /api/chutes/nothing",
    );
    assert_refused(
        &call(&app, "DELETE", games, None).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "does not take DELETE",
    );
    assert_refused(
        &call(&app, "GET", "/api/chutes/games/%FF", None).await,
        StatusCode::BAD_REQUEST,
        "",
    );

    // Illegal moves: a roll the die cannot show.
    let (_, game) = post(&app, games, json!({})).await;
    let id = game["id"].as_str().unwrap();
    let turns = format!("/api/chutes/games/{id}/turns");
    assert_refused(
        &post(&app, &turns, json!({"roll": 7})).await,
        StatusCode::BAD_REQUEST,
        "cannot roll 7",
    );
    assert_refused(
        &post(&app, &turns, json!({"roll": 0})).await,
        StatusCode::BAD_REQUEST,
        "cannot roll 0",
    );
    let (_, same) = call(&app, "GET", &format!("/api/chutes/games/{id}"), None).await;
    assert_eq!(same["rolls"], 0, "a refused roll changes nothing");

    // A game ended by its player is gone.
    let (status, _) = call(&app, "DELETE", &format!("/api/chutes/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_refused(
        &call(&app, "GET", &format!("/api/chutes/games/{id}"), None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let (app, _dir) = app();
    let text = "0 ".repeat(100 * 1024);
    let answer = post(&app, "/api/chutes/boards", json!({ "text": text })).await;
    assert_refused(&answer, StatusCode::PAYLOAD_TOO_LARGE, "too large");
}

#[tokio::test]
async fn a_tycoon_grid_is_designed_saved_and_loaded() {
    let (app, dir) = app();
    let (status, design) = post(&app, "/api/tycoon/designs", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{design}");
    let id = design["id"].as_str().unwrap().to_string();
    assert_eq!(design["layout"][0][0], 89, "the top row starts with 89");
    assert_eq!(design["layout"][8][0], 1, "the bottom row starts with 1");
    assert_eq!(design["objects"], json!([]));
    let edits = format!("/api/tycoon/designs/{id}/edits");

    let (status, done) = post(
        &app,
        &edits,
        json!({"edit": "ladder", "start": 10, "end": 32}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["applied"]["summary"], "added ladder 10→32");
    assert_eq!(done["design"]["can_undo"], true);

    // Refused edits: 422 with the library's reason; nothing changes.
    let refused = post(&app, &edits, json!({"edit": "snake", "start": 5, "end": 1})).await;
    assert_refused(&refused, StatusCode::UNPROCESSABLE_ENTITY, "bottom row");
    let refused = post(&app, &edits, json!({"edit": "paste", "cell": 20})).await;
    assert_refused(
        &refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "clipboard is empty",
    );
    let refused = post(
        &app,
        &edits,
        json!({"edit": "card", "number": 13, "cell": 20}),
    )
    .await;
    assert_refused(&refused, StatusCode::UNPROCESSABLE_ENTITY, "no card 13");
    let refused = post(&app, &edits, json!({"edit": "fly", "cell": 20})).await;
    assert_refused(&refused, StatusCode::BAD_REQUEST, "bad JSON");

    // Copy, paste (keeps its length), delete, undo, redo.
    post(&app, &edits, json!({"edit": "copy", "cell": 10})).await;
    let (_, pasted) = post(&app, &edits, json!({"edit": "paste", "cell": 20})).await;
    assert_eq!(pasted["design"]["clipboard"]["text"], "ladder 10→32");
    assert_eq!(
        pasted["design"]["grid"]["ladders"][1],
        json!({"start": 20, "end": 42})
    );
    post(&app, &edits, json!({"edit": "delete", "cell": 10})).await;
    let (_, undone) = post(&app, &edits, json!({"edit": "undo"})).await;
    assert_eq!(undone["design"]["objects"].as_array().unwrap().len(), 2);
    assert_eq!(undone["design"]["can_redo"], true);
    let (_, card) = post(
        &app,
        &edits,
        json!({"edit": "card", "number": 9, "cell": 13, "params": [50, 10]}),
    )
    .await;
    assert_eq!(
        card["design"]["objects"][1]["describe"],
        "station: price 50, fee 10"
    );

    // The file, then save and load it back.
    let (status, file) = call(&app, "GET", &format!("/api/tycoon/designs/{id}/file"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        file.as_str().unwrap(),
        card["design"]["file"].as_str().unwrap()
    );
    let save = format!("/api/tycoon/designs/{id}/save");
    let (status, saved) = post(&app, &save, json!({"name": "race one"})).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["grids"][0]["name"], "race one");
    assert!(dir.path().join("grids/race one.grid").is_file());
    let (_, loaded) = post(&app, "/api/tycoon/designs", json!({"saved": "race one"})).await;
    assert_eq!(loaded["grid"], card["design"]["grid"]);
    assert_eq!(loaded["can_undo"], false);
    let (_, list) = call(&app, "GET", "/api/tycoon/grids", None).await;
    assert_eq!(list["grids"].as_array().unwrap().len(), 1);

    // Names that could reach outside the grid folder are refused.
    for name in ["../x", "/etc/passwd", "a/b", "..", "", ".hidden", "a\\b"] {
        let refused = post(&app, &save, json!({ "name": name })).await;
        assert_eq!(
            refused.0,
            StatusCode::BAD_REQUEST,
            "{name:?}: {}",
            refused.1
        );
        let refused = post(&app, "/api/tycoon/designs", json!({ "saved": name })).await;
        assert_eq!(
            refused.0,
            StatusCode::BAD_REQUEST,
            "{name:?}: {}",
            refused.1
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "only grids/"
    );
    let missing = post(&app, "/api/tycoon/designs", json!({"saved": "nothing"})).await;
    assert_refused(
        &missing,
        StatusCode::NOT_FOUND,
        "no saved grid named 'nothing'",
    );
}

#[tokio::test]
async fn grid_files_are_uploaded_with_their_problems_reported() {
    let (app, _dir) = app();
    let sample = "4\n10 32\n16 71\n46 68\n75 86\n4\n34 23\n59 37\n78 56\n85 30\n9\n1 4 50\n9 13 50 10\n8 19 50\n6 28 97\n8 36 50\n4 51 \n9 54 50 10\n9 81 50 10\n1 84 50\n";
    let (status, design) = post(&app, "/api/tycoon/designs", json!({ "text": sample })).await;
    assert_eq!(status, StatusCode::OK, "{design}");
    assert_eq!(design["objects"].as_array().unwrap().len(), 17);
    // Unedited, the grid file is the upload byte for byte (`4 51 ` keeps
    // its trailing space): in the view, the download and a saved grid.
    assert_eq!(design["file"], sample);
    let id = design["id"].as_str().unwrap();
    let (_, file) = call(&app, "GET", &format!("/api/tycoon/designs/{id}/file"), None).await;
    assert_eq!(file, sample);
    let (status, saved) = post(
        &app,
        &format!("/api/tycoon/designs/{id}/save"),
        json!({"name": "the sample"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let on_disk = std::fs::read_to_string(_dir.path().join("grids/the sample.grid")).unwrap();
    assert_eq!(on_disk, sample);
    let (_, reopened) = post(&app, "/api/tycoon/designs", json!({"saved": "the sample"})).await;
    assert_eq!(reopened["file"], sample);
    let bad = post(
        &app,
        "/api/tycoon/designs",
        json!({"text": "1\n10 5\n0\n0\n"}),
    )
    .await;
    assert_refused(&bad, StatusCode::UNPROCESSABLE_ENTITY, "line 2");
    let both = post(
        &app,
        "/api/tycoon/designs",
        json!({"text": "0\n0\n0\n", "saved": "x"}),
    )
    .await;
    assert_refused(&both, StatusCode::BAD_REQUEST, "not both");
    let unknown = call(&app, "GET", "/api/tycoon/designs/abc", None).await;
    assert_refused(&unknown, StatusCode::NOT_FOUND, "no design 'abc'");
    let (status, cards) = call(&app, "GET", "/api/tycoon/cards", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cards[8]["params"], json!(["price", "fee"]));
    assert_eq!(cards[0]["params"], json!(["coins"]));
    assert_eq!(cards[1]["params"], json!([]));
}

#[tokio::test]
async fn boards_and_games_are_drawn_as_svg() {
    let (app, _dir) = app();
    let (status, svg) = call(&app, "GET", "/api/chutes/boards/classic/svg", None).await;
    assert_eq!(status, StatusCode::OK);
    let svg = svg.as_str().unwrap();
    assert!(svg.contains("<svg"));
    assert_eq!(svg.matches("class=\"square\"").count(), 100);
    let (_, game) = post(&app, "/api/chutes/games", json!({"players": 2, "seed": 3})).await;
    let id = game["id"].as_str().unwrap();
    post(&app, &format!("/api/chutes/games/{id}/finish"), json!({})).await;
    let (status, svg) = call(&app, "GET", &format!("/api/chutes/games/{id}/svg"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(svg.as_str().unwrap().contains("data-turn"));
    // A board too big to draw cannot be uploaded here at all: the server
    // takes boards of up to 10,000 squares.
    let big = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "size = 250000\n"}),
    )
    .await;
    assert_refused(&big, StatusCode::UNPROCESSABLE_ENTITY, "at most 10000");
}

#[tokio::test]
async fn a_tycoon_game_is_played_by_a_person_and_bots() {
    let (app, _dir) = app();
    let sample = include_str!("../../tycoon/tests/data/sample.grid");
    let (status, game) = post(
        &app,
        "/api/tycoon/games",
        json!({"text": sample, "seats": ["human", "bot", "random", "bot"], "seed": 5}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    // The seed would tell every roll to come: it stays secret until the end.
    assert!(game.get("seed").is_none(), "{game}");
    assert_eq!(game["current"], 1);
    assert_eq!(game["bot_to_move"], false);
    assert_eq!(game["players"].as_array().unwrap().len(), 4);
    assert_eq!(game["players"][0]["coins"], 100);
    assert_eq!(
        game["moves"],
        json!([{"move": {"move": "roll"}, "text": "roll"}])
    );
    assert_eq!(game["objects"].as_array().unwrap().len(), 17);

    // Only the pending decision's answers are accepted.
    let moves = format!("/api/tycoon/games/{id}/moves");
    let wrong = post(&app, &moves, json!({"move": "buy"})).await;
    assert_refused(&wrong, StatusCode::UNPROCESSABLE_ENTITY, "does not answer");
    let wrong = post(&app, &moves, json!({"move": "teleport"})).await;
    assert_refused(&wrong, StatusCode::BAD_REQUEST, "bad JSON");
    let (status, rolled) = post(&app, &moves, json!({"move": "roll"})).await;
    assert_eq!(status, StatusCode::OK, "{rolled}");
    assert!(!rolled["events"].as_array().unwrap().is_empty());
    assert!(rolled["events"][0]["text"].is_string());

    // A person cannot move for a bot.
    if rolled["game"]["bot_to_move"] == true {
        let refused = post(&app, &moves, json!({"move": "roll"})).await;
        assert_refused(&refused, StatusCode::CONFLICT, "is a bot");
    }

    // Bots play until the person must answer again (or the game ends).
    let bots = format!("/api/tycoon/games/{id}/bots");
    let (status, after) = post(&app, &bots, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let g = &after["game"];
    assert!(
        g["over"] == true || (g["current"] == 1 && g["bot_to_move"] == false),
        "{g}"
    );

    // Four bots play a whole game.
    let (_, all_bots) = post(
        &app,
        "/api/tycoon/games",
        json!({"text": sample, "seats": ["bot", "bot", "bot", "bot"], "seed": 9}),
    )
    .await;
    let bots = format!(
        "/api/tycoon/games/{}/bots",
        all_bots["id"].as_str().unwrap()
    );
    let (_, one) = post(&app, &bots, json!({"limit": 1})).await;
    assert_eq!(
        one["game"]["event_count"].as_u64().unwrap() as usize,
        one["events"].as_array().unwrap().len()
    );
    let (_, done) = post(&app, &bots, json!({})).await;
    let g = &done["game"];
    assert_eq!(g["over"], true, "{g}");
    assert_eq!(g["seed"], 9, "shown once the game is over");
    let winner = g["winner"].as_u64().expect("a winner");
    assert_eq!(g["players"][winner as usize - 1]["cell"], 99);
    assert_eq!(g["log"].as_array().unwrap().last().unwrap()["event"], "won");
    assert!(g["log"].as_array().unwrap().len() <= server::tycoon_api::LOG_TAIL);
    let over = post(&app, &bots, json!({})).await;
    assert_refused(&over, StatusCode::CONFLICT, "over");

    // Games on a design's grid, and refusals.
    let (_, design) = post(&app, "/api/tycoon/designs", json!({})).await;
    let (status, on_design) =
        post(&app, "/api/tycoon/games", json!({"design": design["id"]})).await;
    assert_eq!(status, StatusCode::OK, "{on_design}");
    let unknown = post(&app, "/api/tycoon/games", json!({"design": "nope"})).await;
    assert_refused(&unknown, StatusCode::NOT_FOUND, "no design");
    let bad = post(
        &app,
        "/api/tycoon/games",
        json!({"seats": ["human", "bot"]}),
    )
    .await;
    assert_refused(&bad, StatusCode::BAD_REQUEST, "bad JSON");
    let missing = call(&app, "GET", "/api/tycoon/games/abc", None).await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no game");
}

/// Every `{"row", "col"}` object anywhere in `value`.
fn cells_in(value: &Value, out: &mut Vec<(u64, u64)>) {
    match value {
        Value::Object(map) => {
            if let (Some(r), Some(c)) = (
                map.get("row").and_then(Value::as_u64),
                map.get("col").and_then(Value::as_u64),
            ) {
                out.push((r, c));
            }
            map.values().for_each(|v| cells_in(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| cells_in(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_fixed_baffle_game_is_played_and_hides_its_mirrors() {
    let (app, _dir) = app();
    // The seed's fixed game: <0,9>=\ <4,2>=/ <6,0>=\ <8,2>=/ <8,7>=\.
    let fixed: [(u64, u64, &str); 5] = [
        (0, 9, "\\"),
        (4, 2, "/"),
        (6, 0, "\\"),
        (8, 2, "/"),
        (8, 7, "\\"),
    ];
    let (status, game) = post(&app, "/api/baffle/games", json!({"fixed": true})).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(game["size"], 10);
    assert_eq!(game["mirrors"], 5);
    assert_eq!(game["holes"].as_array().unwrap().len(), 40);
    assert_eq!(
        game["holes"][7],
        json!({"hole": 7, "side": "left", "at": 2, "shootable": true})
    );
    assert_eq!(
        game["holes"][22],
        json!({"hole": 22, "side": "right", "at": 2, "shootable": true})
    );

    let mut answers = vec![game.clone()];
    let shots = format!("/api/baffle/games/{id}/shots");
    let guesses = format!("/api/baffle/games/{id}/guesses");
    // The seed's checks: 7 → 22, 5 → 12, 1 → 24.
    for (hole, exit) in [(7, 22), (5, 12), (1, 24)] {
        let (status, answer) = post(&app, &shots, json!({ "hole": hole })).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["exit"], exit, "hole {hole}");
        answers.push(answer);
    }
    // A wrong guess, then the five mirrors; the last one wins.
    let (_, wrong) = post(&app, &guesses, json!({"row": 3, "col": 2, "mirror": "/"})).await;
    assert_eq!(wrong["right"], false);
    assert_eq!(wrong["score"]["total"], 5);
    answers.push(wrong);
    let again = post(&app, &guesses, json!({"row": 0, "col": 9, "mirror": "\\"})).await;
    assert_eq!(again.1["right"], true);
    let refused = post(&app, &guesses, json!({"row": 0, "col": 9, "mirror": "\\"})).await;
    assert_refused(&refused, StatusCode::UNPROCESSABLE_ENTITY, "already found");
    answers.push(again.1);
    let (_, view) = call(&app, "GET", &format!("/api/baffle/games/{id}"), None).await;
    answers.push(view);

    // Nothing sent so far names a cell the player has not found or guessed.
    let mut shown = Vec::new();
    for answer in &answers {
        assert_eq!(answer["revealed"], Value::Null);
        assert!(
            answer["shots"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["path"].is_null() && s["deflections"].is_null())
        );
        cells_in(answer, &mut shown);
    }
    for cell in shown {
        assert!(
            cell == (3, 2) || cell == (0, 9),
            "a response named cell {cell:?}"
        );
    }

    for &(row, col, mirror) in &fixed[1..] {
        let (status, answer) = post(
            &app,
            &guesses,
            json!({"row": row, "col": col, "mirror": mirror}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["right"], true);
    }
    let (_, done) = call(&app, "GET", &format!("/api/baffle/games/{id}"), None).await;
    assert_eq!(done["status"], "won");
    assert_eq!(
        done["score"],
        json!({"shots": 3, "wrong_guesses": 1, "total": 5})
    );
    assert_eq!(done["revealed"].as_array().unwrap().len(), 5);
    let more = post(&app, &shots, json!({"hole": 3})).await;
    assert_refused(&more, StatusCode::CONFLICT, "over");
}

#[tokio::test]
async fn the_bot_plays_the_fixed_baffle_game_move_by_move() {
    let (app, _dir) = app();
    let (_, game) = post(&app, "/api/baffle/games", json!({"fixed": true})).await;
    let id = game["id"].as_str().unwrap().to_string();
    let bot = format!("/api/baffle/games/{id}/bot");
    let mut moves = Vec::new();
    let mut last = game;
    while last["status"] == "playing" {
        assert!(moves.len() < 60, "the bot should win the fixed game");
        let (status, answer) = post(&app, &bot, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let decision = &answer["bot"];
        let kind = decision["move"]["move"].as_str().unwrap().to_string();
        let reason = decision["reason"]["advice"]["kind"]
            .as_str()
            .or(decision["reason"]["kind"].as_str())
            .unwrap();
        let text = decision["move_text"].as_str().unwrap();
        assert!(!decision["reason_text"].as_str().unwrap().is_empty());
        // The answer is a shot's or a guess's, for the move the bot made.
        match kind.as_str() {
            "shoot" => {
                let hole = &decision["move"]["hole"];
                assert_eq!(text, format!("shoot {hole}"));
                assert_eq!(
                    answer["shots"].as_array().unwrap().last().unwrap()["hole"],
                    *hole
                );
                assert!(answer["exit"].is_u64(), "{answer}");
                assert!(
                    ["exact_best_shot", "sampled_best_shot", "explore"].contains(&reason),
                    "a shot because {reason}"
                );
            }
            "guess" => {
                assert!(text.starts_with("guess "), "{text}");
                assert!(answer["right"].is_boolean(), "{answer}");
            }
            other => panic!("the bot made the move {other}"),
        }
        // Nothing names a mirror the player has not found.
        assert_eq!(answer["revealed"].is_null(), answer["status"] == "playing");
        moves.push(text.to_string());
        last = answer;
    }
    // The bot's known result on the fixed game: 12 shots, no wrong guess.
    assert_eq!(last["status"], "won");
    assert_eq!(
        last["score"],
        json!({"shots": 12, "wrong_guesses": 0, "total": 12}),
        "{moves:?}"
    );
    assert_eq!(last["found"].as_array().unwrap().len(), 5);
    assert_eq!(moves.len(), 17, "{moves:?}");
    let more = post(&app, &bot, json!({})).await;
    assert_refused(&more, StatusCode::CONFLICT, "over");
    let missing = post(&app, "/api/baffle/games/nope/bot", json!({})).await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no game");
    let get = call(&app, "GET", &bot, None).await;
    assert_eq!(get.0, StatusCode::METHOD_NOT_ALLOWED, "{}", get.1);
}

#[tokio::test]
async fn random_baffle_games_hide_their_seed_until_the_end() {
    let (app, _dir) = app();
    let (status, game) = post(
        &app,
        "/api/baffle/games",
        json!({"seed": 42, "sides": "left-top"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(
        game["seed"],
        Value::Null,
        "the seed would give the layout away"
    );
    assert_eq!(game["origin"], "seeded");
    assert_eq!(game["shootable"].as_array().unwrap().len(), 20);
    let id = game["id"].as_str().unwrap();
    let side = post(
        &app,
        &format!("/api/baffle/games/{id}/shots"),
        json!({"hole": 25}),
    )
    .await;
    assert_refused(&side, StatusCode::UNPROCESSABLE_ENTITY, "left and top");
    let hole = post(
        &app,
        &format!("/api/baffle/games/{id}/shots"),
        json!({"hole": 40}),
    )
    .await;
    assert_refused(&hole, StatusCode::UNPROCESSABLE_ENTITY, "no hole 40");
    let cell = post(
        &app,
        &format!("/api/baffle/games/{id}/guesses"),
        json!({"row": 10, "col": 0, "mirror": "/"}),
    )
    .await;
    assert_refused(&cell, StatusCode::UNPROCESSABLE_ENTITY, "no cell");
    let bad = post(
        &app,
        &format!("/api/baffle/games/{id}/guesses"),
        json!({"row": 1, "col": 0, "mirror": "|"}),
    )
    .await;
    assert_refused(&bad, StatusCode::BAD_REQUEST, "bad JSON");

    let (_, hint) = post(&app, &format!("/api/baffle/games/{id}/hint"), json!({})).await;
    assert!(
        hint["advice_text"].as_str().unwrap().contains("layouts"),
        "{hint}"
    );

    let (_, quit) = post(&app, &format!("/api/baffle/games/{id}/quit"), json!({})).await;
    assert_eq!(quit["status"], "quit");
    assert_eq!(quit["seed"], 42);
    let revealed = quit["revealed"].as_array().unwrap();
    assert_eq!(revealed.len(), 5);
    assert!(revealed.iter().all(|m| m["found"] == false));
    let hint = post(&app, &format!("/api/baffle/games/{id}/hint"), json!({})).await;
    assert_refused(&hint, StatusCode::CONFLICT, "over");

    let bad = post(&app, "/api/baffle/games", json!({"fixed": true, "seed": 3})).await;
    assert_refused(&bad, StatusCode::BAD_REQUEST, "fixed game");
    let bad = post(&app, "/api/baffle/games", json!({"size": 40})).await;
    assert_eq!(bad.0, StatusCode::BAD_REQUEST, "{}", bad.1);
    let missing = post(&app, "/api/baffle/games/nope/shots", json!({"hole": 1})).await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no game");
}

#[tokio::test]
async fn a_board_is_analysed_exactly() {
    let (app, _dir) = app();
    let (status, a) = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/analysis?players=2",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{a}");
    // The published mean for the classic board (a roll past 100 is lost).
    assert!(
        (a["mean"].as_f64().unwrap() - 39.225).abs() < 0.001,
        "{}",
        a["mean"]
    );
    assert_eq!(a["shortest"], 7);
    let seats: Vec<f64> = a["seats"]["seat_win"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(seats.len(), 2);
    assert!(
        seats[0] > seats[1] && (seats[0] + seats[1] - 1.0).abs() < 1e-9,
        "{seats:?}"
    );

    let (status, s) = call(&app, "GET", "/api/chutes/boards/classic/shortest", None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["rolls"], 7);
    let (_, two) = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/shortest?chutes=2",
        None,
    )
    .await;
    assert_eq!(two["rolls"], 7);
    assert_eq!(two["constraint"]["chutes"], 2);
    assert!(!two["route_list"].as_array().unwrap().is_empty());
    let (status, m) = call(&app, "GET", "/api/chutes/boards/classic/min-throws", None).await;
    assert_eq!(status, StatusCode::OK, "{m}");
    assert_eq!(m["throws"], 7);
    assert_eq!(m["example_steps"][6]["to"], 100);

    for kind in ["distribution", "seats", "heatmap"] {
        let (status, svg) = call(
            &app,
            "GET",
            &format!("/api/chutes/boards/classic/plots/{kind}?overshoot=bounce"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{kind}: {svg}");
        assert!(svg.as_str().unwrap().contains("<svg"), "{kind}");
    }
    let bad = call(&app, "GET", "/api/chutes/boards/classic/plots/pie", None).await;
    assert_refused(&bad, StatusCode::NOT_FOUND, "no plot 'pie'");
    let bad = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/analysis?players=9",
        None,
    )
    .await;
    assert_refused(&bad, StatusCode::BAD_REQUEST, "2 to 4 players");
    let bad = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/analysis?faces=x",
        None,
    )
    .await;
    assert_eq!(bad.0, StatusCode::BAD_REQUEST);
    assert!(bad.1["error"].is_string(), "{}", bad.1);
    let bad = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/shortest?colour=red",
        None,
    )
    .await;
    assert_eq!(bad.0, StatusCode::BAD_REQUEST);
    // A board whose finish cannot be reached has nothing to analyse.
    let text = "size = 8\nchutes = [[2,1],[3,1],[4,1],[5,1],[6,1],[7,1]]\n";
    let (_, board) = post(&app, "/api/chutes/boards", json!({"text": text})).await;
    let id = board["id"].as_str().unwrap();
    let dead = call(
        &app,
        "GET",
        &format!("/api/chutes/boards/{id}/analysis"),
        None,
    )
    .await;
    assert_refused(
        &dead,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no game ever reaches",
    );
    let (_, none) = call(
        &app,
        "GET",
        &format!("/api/chutes/boards/{id}/shortest"),
        None,
    )
    .await;
    assert_eq!(none["rolls"], Value::Null);
}

/// The value of attribute `name` in the tag `tag` (`<g class="x" ...>`).
fn attr_of<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// Every element of `svg` that draws a mirror: its class, row, column and
/// mirror (`data-mirror`).
fn drawn_mirrors(svg: &str) -> Vec<(String, u64, u64, String)> {
    svg.split('<')
        .filter_map(|tag| {
            let tag = tag.split('>').next()?;
            let mirror = attr_of(tag, "data-mirror")?;
            Some((
                attr_of(tag, "class")?.to_string(),
                attr_of(tag, "data-row")?.parse().ok()?,
                attr_of(tag, "data-col")?.parse().ok()?,
                mirror.to_string(),
            ))
        })
        .collect()
}

async fn svg_of(app: &Router, uri: &str) -> String {
    let (status, svg) = call(app, "GET", uri, None).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {svg}");
    let svg = svg.as_str().expect("an SVG document").to_string();
    assert!(svg.contains("<svg"), "{uri}: {svg}");
    svg
}

#[tokio::test]
async fn baffle_pictures_show_only_what_the_player_has_seen() {
    let (app, _dir) = app();
    let (_, game) = post(&app, "/api/baffle/games", json!({"fixed": true})).await;
    let id = game["id"].as_str().unwrap().to_string();
    let picture = format!("/api/baffle/games/{id}/svg");
    let shots = format!("/api/baffle/games/{id}/shots");
    let guesses = format!("/api/baffle/games/{id}/guesses");

    let first = svg_of(&app, &picture).await;
    assert_eq!(first.matches("class=\"cell\"").count(), 100);
    assert_eq!(first.matches("class=\"hole\"").count(), 40);
    assert!(first.contains(">Baffle: the original's first game<"));
    let mut pictures = vec![first];
    for hole in [7, 5, 1] {
        post(&app, &shots, json!({ "hole": hole })).await;
        pictures.push(svg_of(&app, &picture).await);
    }
    let last = pictures.last().unwrap();
    assert!(
        last.contains("class=\"hole entry\" data-hole=\"7\""),
        "{last}"
    );
    assert!(
        last.contains("class=\"hole exit\" data-hole=\"22\""),
        "{last}"
    );
    post(&app, &guesses, json!({"row": 3, "col": 2, "mirror": "/"})).await;
    pictures.push(svg_of(&app, &picture).await);
    post(&app, &guesses, json!({"row": 0, "col": 9, "mirror": "\\"})).await;
    pictures.push(svg_of(&app, &picture).await);

    // Before the end, a picture draws the mirror found and the wrong guess,
    // and no other mirror, and no beam.
    for svg in &pictures {
        assert!(!svg.contains("mirror unfound"));
        assert!(!svg.contains("class=\"beam\""));
        for (class, row, col, mirror) in drawn_mirrors(svg) {
            assert!(
                (class == "mirror found" && (row, col) == (0, 9) && mirror == "\\")
                    || (class == "guess-wrong" && (row, col) == (3, 2) && mirror == "/"),
                "a picture drew {class} at <{row},{col}>"
            );
        }
    }
    assert_eq!(drawn_mirrors(pictures.last().unwrap()).len(), 2);

    // The hint's picture adds the odds, and draws as certain exactly the
    // mirrors the solver proved from the evidence.
    let (status, hint) = post(&app, &format!("/api/baffle/games/{id}/hint"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let svg = hint["svg"].as_str().expect("the hint's picture");
    assert_eq!(svg.matches("data-mirror-odds=").count(), 100);
    assert!(!svg.contains("mirror unfound") && !svg.contains("class=\"beam\""));
    let mut certain: Vec<(u64, u64, String)> = hint["certain_mirrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["row"].as_u64().unwrap(),
                m["col"].as_u64().unwrap(),
                m["mirror"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut drawn: Vec<(u64, u64, String)> = drawn_mirrors(svg)
        .into_iter()
        .filter(|(class, ..)| class == "certain")
        .map(|(_, r, c, m)| (r, c, m))
        .collect();
    certain.sort();
    drawn.sort();
    assert_eq!(drawn, certain);
    for (class, row, col, _) in drawn_mirrors(svg) {
        assert!(
            class == "certain" || (row, col) == (0, 9) || (row, col) == (3, 2),
            "the hint's picture drew {class} at <{row},{col}>"
        );
    }

    // Once won, every mirror is drawn found, with every beam.
    for (row, col, mirror) in [(4, 2, "/"), (6, 0, "\\"), (8, 2, "/"), (8, 7, "\\")] {
        post(
            &app,
            &guesses,
            json!({"row": row, "col": col, "mirror": mirror}),
        )
        .await;
    }
    let won = svg_of(&app, &picture).await;
    assert_eq!(won.matches("class=\"mirror found\"").count(), 5);
    assert_eq!(won.matches("class=\"beam\"").count(), 3);

    // A random game given up: its unfound mirrors in their own class, and
    // its seed in the title once it is over (not before).
    let (_, random) = post(&app, "/api/baffle/games", json!({"seed": 42})).await;
    let rid = random["id"].as_str().unwrap();
    let picture = format!("/api/baffle/games/{rid}/svg");
    assert!(!svg_of(&app, &picture).await.contains("seed 42"));
    post(&app, &format!("/api/baffle/games/{rid}/quit"), json!({})).await;
    let quit = svg_of(&app, &picture).await;
    assert_eq!(quit.matches("class=\"mirror unfound\"").count(), 5);
    assert!(quit.contains("seed 42"));

    let missing = call(&app, "GET", "/api/baffle/games/nope/svg", None).await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no game");
}

#[tokio::test]
async fn tycoon_designs_and_games_are_drawn_as_svg() {
    let (app, _dir) = app();
    let (_, design) = post(&app, "/api/tycoon/designs", json!({})).await;
    let id = design["id"].as_str().unwrap().to_string();
    let picture = format!("/api/tycoon/designs/{id}/svg");
    let empty = svg_of(&app, &picture).await;
    assert_eq!(empty.matches("class=\"cell\"").count(), 99);
    assert!(empty.contains("data-cell=\"1\" data-row=\"8\" data-col=\"0\""));
    assert!(empty.contains("Tycoon: a new grid"));
    let edits = format!("/api/tycoon/designs/{id}/edits");
    post(
        &app,
        &edits,
        json!({"edit": "ladder", "start": 10, "end": 32}),
    )
    .await;
    post(
        &app,
        &edits,
        json!({"edit": "card", "number": 9, "cell": 13, "params": [50, 10]}),
    )
    .await;
    let svg = svg_of(&app, &format!("{picture}?name=my%20grid")).await;
    assert!(svg.contains("Tycoon: my grid"));
    assert!(svg.contains("class=\"ladder\" data-start=\"10\" data-end=\"32\""));
    assert!(svg.contains("data-cell=\"13\" data-row=\"7\" data-col=\"1\" data-card=\"9\""));
    let long = "x".repeat(server::tycoon_api::MAX_PICTURE_NAME + 1);
    let refused = call(&app, "GET", &format!("{picture}?name={long}"), None).await;
    assert_refused(&refused, StatusCode::BAD_REQUEST, "at most");
    let refused = call(&app, "GET", &format!("{picture}?size=3"), None).await;
    assert_eq!(refused.0, StatusCode::BAD_REQUEST, "{}", refused.1);
    assert!(refused.1["error"].is_string(), "{}", refused.1);

    // A game on the design: tokens on cell 1, then a whole game of bots.
    let (_, game) = post(
        &app,
        "/api/tycoon/games",
        json!({"design": id, "seats": ["bot", "bot", "bot", "bot"], "seed": 4}),
    )
    .await;
    let gid = game["id"].as_str().unwrap();
    let picture = format!("/api/tycoon/games/{gid}/svg?name=my%20grid");
    let start = svg_of(&app, &picture).await;
    assert!(start.contains("a game on my grid"));
    assert_eq!(start.matches("class=\"token\"").count(), 4);
    assert_eq!(
        start
            .matches("data-cell=\"1\" data-current=\"true\"")
            .count(),
        1
    );
    let (_, done) = post(&app, &format!("/api/tycoon/games/{gid}/bots"), json!({})).await;
    let winner = done["game"]["winner"].as_u64().expect("a winner");
    let end = svg_of(&app, &picture).await;
    assert!(
        end.contains(&format!("data-player=\"{winner}\" data-cell=\"99\"")),
        "{end}"
    );
    assert!(end.contains(&format!("P{winner} won after")));

    let missing = call(&app, "GET", "/api/tycoon/games/nope/svg", None).await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no game");
    let missing = call(&app, "GET", "/api/tycoon/designs/nope/svg", None).await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no design");
}

#[tokio::test]
async fn the_home_page_pictures_are_served() {
    let (app, _dir) = app();
    let baffle = svg_of(&app, "/api/baffle/preview.svg").await;
    assert_eq!(
        baffle.matches("data-hole=").count(),
        40,
        "every hole is drawn"
    );
    assert!(
        drawn_mirrors(&baffle).is_empty(),
        "the preview shows no mirror"
    );
    let tycoon = svg_of(&app, "/api/tycoon/sample.svg").await;
    assert_eq!(tycoon.matches("class=\"cell\"").count(), 99);
    let (status, home) = call(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    let home = home.as_str().unwrap();
    for src in [
        "/api/chutes/boards/classic/svg",
        "/api/baffle/preview.svg",
        "/api/tycoon/sample.svg",
    ] {
        assert!(home.contains(src), "the home page shows {src}");
    }
}

#[tokio::test]
async fn seeds_a_page_cannot_read_exactly_are_refused() {
    let (app, _dir) = app();
    let biggest = (1u64 << 53) - 1;
    for uri in [
        "/api/chutes/games",
        "/api/baffle/games",
        "/api/tycoon/games",
    ] {
        let (status, view) = post(&app, uri, json!({ "seed": biggest })).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {view}");
        for seed in [1u64 << 53, u64::MAX] {
            let answer = post(&app, uri, json!({ "seed": seed })).await;
            assert_refused(&answer, StatusCode::BAD_REQUEST, "below 2^53");
        }
    }
}

/// A shortest game thousands of rolls or jumps long is answered on a pool
/// thread's stack (the library walks games on explicit stacks), not by
/// overflowing it and taking the server down.
#[tokio::test]
async fn long_shortest_games_do_not_overflow_the_stack() {
    let (app, _dir) = app();
    let (status, body) = call(
        &app,
        "GET",
        "/api/chutes/boards/classic/shortest?chutes=5000",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["rolls"], 5007);
    let (status, board) = post(
        &app,
        "/api/chutes/boards",
        json!({"text": "size = 10000\n", "file_name": "long.toml"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let id = board["id"].as_str().unwrap();
    let uri = format!("/api/chutes/boards/{id}/shortest?faces=1");
    let (status, body) = call(&app, "GET", &uri, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["rolls"], 10_000);
    assert_eq!(body["sequences"], "1");
}

/// A body must come as JSON: a form or text/plain post (which any web page
/// may send to this server without the browser asking first) is refused.
#[tokio::test]
async fn bodies_not_sent_as_json_are_refused() {
    let (app, _dir) = app();
    let send = |content_type: Option<&'static str>, body: &'static str| {
        let app = app.clone();
        async move {
            let mut request = Request::builder().method("POST").uri("/api/baffle/games");
            if let Some(t) = content_type {
                request = request.header(header::CONTENT_TYPE, t);
            }
            let request = request.body(Body::from(body)).expect("a request");
            let response = app.oneshot(request).await.expect("an answer");
            let status = response.status();
            let bytes = response
                .into_body()
                .collect()
                .await
                .expect("a body")
                .to_bytes();
            let value: Value = serde_json::from_slice(&bytes).expect("JSON");
            (status, value)
        }
    };
    for (content_type, what) in [
        (Some("text/plain"), "not text/plain"),
        (Some("application/x-www-form-urlencoded"), "urlencoded"),
        (None, "no Content-Type"),
    ] {
        let answer = send(content_type, r#"{"fixed": true}"#).await;
        assert_refused(&answer, StatusCode::UNSUPPORTED_MEDIA_TYPE, what);
    }
    let (status, view) = send(
        Some("application/json; charset=utf-8"),
        r#"{"fixed": true}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    // An empty body needs the type too (a page may send an empty
    // text/plain post anywhere); with it, it reads as {}.
    let answer = send(None, "").await;
    assert_refused(
        &answer,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "even with an empty body",
    );
    let answer = send(Some("text/plain"), "").await;
    assert_refused(
        &answer,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "not text/plain",
    );
    let (status, view) = send(Some("application/json"), "").await;
    assert_eq!(status, StatusCode::OK, "{view}");
}

/// Long answers (hints, bot moves, analyses) take a slot or wait in line;
/// with no room (here: no slots at all) they are refused at once with a
/// 503 that says to try again, and quick requests go on being answered.
#[tokio::test]
async fn long_answers_beyond_the_slots_are_refused_politely() {
    let dir = tempfile::tempdir().expect("a temporary data dir");
    let mut config = server::Config::new(dir.path());
    config.max_long_work = 0;
    let app = server::router(config);
    let (status, game) = post(&app, "/api/baffle/games", json!({"fixed": true})).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let id = game["id"].as_str().unwrap();
    for uri in [
        format!("/api/baffle/games/{id}/hint"),
        format!("/api/baffle/games/{id}/bot"),
    ] {
        let (status, body) = post(&app, &uri, json!({})).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{uri}: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("try again in a moment"),
            "{body}"
        );
    }
    let (status, body) = call(&app, "GET", "/api/chutes/boards/classic/analysis", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let (status, shot) = post(
        &app,
        &format!("/api/baffle/games/{id}/shots"),
        json!({"hole": 7}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{shot}");
    assert_eq!(shot["exit"], 22);
}
