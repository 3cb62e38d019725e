//! The JSON API through the router, apart from playing games (`games.rs`)
//! and the match router itself (`matches.rs`): pages and assets, boards,
//! analyses, Tycoon designs and saved grids, their pictures, and bad
//! requests answered with a 4xx and a JSON error (`{"error": {"code",
//! "message"}}`), never a 500.

use crate::support;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{Answer, App};
use tower::ServiceExt;

/// The app with request bodies up to 64 KiB (so that a too-large body is
/// cheap to make).
async fn app() -> App {
    App::with(|c| c.body_limit = 64 * 1024).await
}

/// Sends `body` as it is (not necessarily JSON) to `uri` with `POST`.
async fn post_raw(app: &App, uri: &str, body: &str) -> Answer {
    send_raw(app, "POST", uri, Some("application/json"), body).await
}

/// Sends `method uri` with `body` as it is, under `content_type` (or none).
async fn send_raw(
    app: &App,
    method: &str,
    uri: &str,
    content_type: Option<&str>,
    body: &str,
) -> Answer {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(t) = content_type {
        request = request.header(header::CONTENT_TYPE, t);
    }
    let request = request
        .body(Body::from(body.to_string()))
        .expect("a request");
    let response = app
        .router
        .clone()
        .oneshot(request)
        .await
        .expect("an answer");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    Answer {
        status,
        headers,
        body,
    }
}

/// A refusal with this status and code whose message says `contains`.
#[track_caller]
fn assert_refused(answer: &Answer, status: StatusCode, code: &str, contains: &str) {
    let message = answer.refused(status, code);
    assert!(
        message.contains(contains),
        "error {message:?} should contain {contains:?}"
    );
}

/// The text of a 200 answer that is not JSON (a page, a picture, a file).
#[track_caller]
fn text_of(answer: &Answer) -> &str {
    answer.ok().as_str().expect("a text answer")
}

async fn svg_of(app: &App, uri: &str) -> String {
    let answer = app.get(uri).await;
    assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.body);
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "image/svg+xml",
        "{uri}"
    );
    let svg = text_of(&answer).to_string();
    assert!(svg.contains("<svg"), "{uri}: {svg}");
    svg
}

#[tokio::test]
async fn pages_and_assets_are_served() {
    let app = app().await;
    for path in ["/", "/chutes", "/baffle", "/tycoon"] {
        let page = app.get(path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        assert!(text_of(&page).contains("<!doctype html>"), "{path}");
    }
    let script = app.get("/static/chutes.js").await;
    assert_eq!(script.status, StatusCode::OK);
    assert!(text_of(&script).contains("/api/chutes/boards"));
    let outside = app.get("/static/../Cargo.toml").await;
    assert_eq!(outside.status, StatusCode::NOT_FOUND);
    // Anything under /api answers in JSON, even /api/ itself.
    for path in [
        "/api",
        "/api/",
        "/api/nope",
        "/api/chutes/boards/classic/plots/",
    ] {
        let answer = app.get(path).await;
        assert_refused(&answer, StatusCode::NOT_FOUND, "not_found", "no API route");
    }
    let missing = app.get("/no/such/page").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.body.as_str().unwrap().contains("No such page"));
}

#[tokio::test]
async fn the_home_page_pictures_are_served() {
    let app = app().await;
    let baffle = svg_of(&app, "/api/baffle/preview.svg").await;
    assert_eq!(
        baffle.matches("data-hole=").count(),
        40,
        "every hole is drawn"
    );
    assert!(
        !baffle.contains("data-mirror="),
        "the preview shows no mirror"
    );
    let tycoon = svg_of(&app, "/api/tycoon/sample.svg").await;
    assert_eq!(tycoon.matches("class=\"cell\"").count(), 99);
    let home = app.get("/").await;
    let home = text_of(&home);
    for src in [
        "/api/chutes/boards/classic/svg",
        "/api/baffle/preview.svg",
        "/api/tycoon/sample.svg",
    ] {
        assert!(home.contains(src), "the home page shows {src}");
    }
}

#[tokio::test]
async fn boards_are_uploaded() {
    let app = app().await;
    let list = app.get("/api/chutes/boards").await;
    assert_eq!(list.ok()["builtin"][0]["id"], "classic");
    assert_eq!(list.ok()["formats"].as_array().unwrap().len(), 5);

    let board = app
        .post(
            "/api/chutes/boards",
            json!({"text": "[[-1,-1,-1],[-1,9,-1],[-1,-1,-1]]", "file_name": "C:\\boards\\tiny.json"}),
        )
        .await;
    let board = board.ok().clone();
    assert_eq!(board["board"]["name"], "tiny.json");
    // A board's name titles matches: it follows the one rule for shown
    // text (no invisible characters, at most 64 characters).
    for name in [format!("{}\u{202E}", "x".repeat(900)), "x".repeat(65)] {
        let named = app
            .post(
                "/api/chutes/boards",
                json!({"text": "[[-1,-1,-1],[-1,9,-1],[-1,-1,-1]]", "file_name": name}),
            )
            .await;
        let why = named.refused(StatusCode::BAD_REQUEST, "bad_name");
        assert!(
            why.starts_with("the board's name:") && why.len() < 200,
            "{why}"
        );
    }
    assert_eq!(board["board"]["size"], 9);
    assert!(board.get("notes").is_none(), "{board}");
    // A LeetCode self-jump is no jump, and the answer says so; the
    // minimum-throws assignment's form and Tycoon grids upload too.
    let noted = app
        .post("/api/chutes/boards", json!({"text": "[[-1,-1],[-1,2]]"}))
        .await;
    let noted = noted.ok();
    assert_eq!(noted["board"]["jumps"], json!([]));
    assert_eq!(noted["notes"][0]["pos"], json!({"line": 1, "col": 14}));
    assert!(
        noted["notes"][0]["message"]
            .as_str()
            .unwrap()
            .contains("its own label")
    );
    let moves = app
        .post(
            "/api/chutes/boards",
            json!({"text": "4 -1 -1 0 -1", "format": "moves"}),
        )
        .await;
    assert_eq!(
        moves.ok()["board"]["jumps"],
        json!([{"from": 2, "to": 0, "kind": "chute"}])
    );
    let grid = app
        .post(
            "/api/chutes/boards",
            json!({"text": "1\n10 33\n0\n0\n", "format": "tycoon"}),
        )
        .await;
    assert_refused(
        &grid,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "line 2, column 1: ",
    );
    let board_id = board["id"].as_str().unwrap();
    let again = app.get(&format!("/api/chutes/boards/{board_id}")).await;
    assert_eq!(again.ok()["board"], board["board"]);

    // A file that does not parse: 422 with the line and column.
    let bad = app
        .post(
            "/api/chutes/boards",
            json!({"text": "size = 10\nladders = [[3, 99]]\n", "file_name": "bad.toml"}),
        )
        .await;
    assert_refused(&bad, StatusCode::UNPROCESSABLE_ENTITY, "invalid", "line 2");
    let bad = app
        .post(
            "/api/chutes/boards",
            json!({"text": "1 2", "format": "xml"}),
        )
        .await;
    assert_refused(
        &bad,
        StatusCode::BAD_REQUEST,
        "bad_request",
        "unknown board format",
    );
    let unknown = app.get("/api/chutes/boards/nope").await;
    assert_refused(
        &unknown,
        StatusCode::NOT_FOUND,
        "not_found",
        "no board 'nope'",
    );
}

#[tokio::test]
async fn boards_are_drawn_as_svg() {
    let app = app().await;
    let svg = svg_of(&app, "/api/chutes/boards/classic/svg").await;
    assert_eq!(svg.matches("class=\"square\"").count(), 100);
    // A board too big to draw cannot be uploaded here at all: the server
    // takes boards of up to 10,000 squares.
    let big = app
        .post("/api/chutes/boards", json!({"text": "size = 250000\n"}))
        .await;
    assert_refused(
        &big,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "at most 10000",
    );
}

#[tokio::test]
async fn a_board_is_analysed_exactly() {
    let app = app().await;
    let a = app
        .get("/api/chutes/boards/classic/analysis?players=2")
        .await;
    let a = a.ok();
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

    let s = app.get("/api/chutes/boards/classic/shortest").await;
    assert_eq!(s.ok()["rolls"], 7);
    let two = app
        .get("/api/chutes/boards/classic/shortest?chutes=2")
        .await;
    let two = two.ok();
    assert_eq!(two["rolls"], 7);
    assert_eq!(two["constraint"]["chutes"], 2);
    assert!(!two["route_list"].as_array().unwrap().is_empty());
    let m = app.get("/api/chutes/boards/classic/min-throws").await;
    assert_eq!(m.ok()["throws"], 7);
    assert_eq!(m.ok()["example_steps"][6]["to"], 100);

    for kind in ["distribution", "seats", "heatmap"] {
        let svg = svg_of(
            &app,
            &format!("/api/chutes/boards/classic/plots/{kind}?overshoot=bounce"),
        )
        .await;
        assert!(svg.contains("<svg"), "{kind}");
    }
    let bad = app.get("/api/chutes/boards/classic/plots/pie").await;
    assert_refused(&bad, StatusCode::NOT_FOUND, "not_found", "no plot 'pie'");
    let bad = app
        .get("/api/chutes/boards/classic/analysis?players=9")
        .await;
    assert_refused(
        &bad,
        StatusCode::BAD_REQUEST,
        "bad_request",
        "2 to 4 players",
    );
    let bad = app.get("/api/chutes/boards/classic/analysis?faces=x").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(!bad.message().is_empty(), "{}", bad.body);
    let bad = app
        .get("/api/chutes/boards/classic/shortest?colour=red")
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(!bad.message().is_empty(), "{}", bad.body);
    // A board whose finish cannot be reached has nothing to analyse.
    let text = "size = 8\nchutes = [[2,1],[3,1],[4,1],[5,1],[6,1],[7,1]]\n";
    let board = app.post("/api/chutes/boards", json!({"text": text})).await;
    let id = board.ok()["id"].as_str().unwrap().to_string();
    let dead = app.get(&format!("/api/chutes/boards/{id}/analysis")).await;
    assert_refused(
        &dead,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "no game ever reaches",
    );
    let none = app.get(&format!("/api/chutes/boards/{id}/shortest")).await;
    assert_eq!(none.ok()["rolls"], Value::Null);
}

/// A shortest game thousands of rolls or jumps long is answered on a pool
/// thread's stack (the library walks games on explicit stacks), not by
/// overflowing it and taking the server down.
#[tokio::test]
async fn long_shortest_games_do_not_overflow_the_stack() {
    let app = app().await;
    let body = app
        .get("/api/chutes/boards/classic/shortest?chutes=5000")
        .await;
    assert_eq!(body.ok()["rolls"], 5007);
    let board = app
        .post(
            "/api/chutes/boards",
            json!({"text": "size = 10000\n", "file_name": "long.toml"}),
        )
        .await;
    let id = board.ok()["id"].as_str().unwrap().to_string();
    let body = app
        .get(&format!("/api/chutes/boards/{id}/shortest?faces=1"))
        .await;
    assert_eq!(body.ok()["rolls"], 10_000);
    assert_eq!(body.ok()["sequences"], "1");
}

#[tokio::test]
async fn a_tycoon_grid_is_designed_saved_and_loaded() {
    let app = app().await;
    let design = app.post("/api/tycoon/designs", json!({})).await;
    let design = design.ok();
    let id = design["id"].as_str().unwrap().to_string();
    assert_eq!(design["layout"][0][0], 89, "the top row starts with 89");
    assert_eq!(design["layout"][8][0], 1, "the bottom row starts with 1");
    assert_eq!(design["objects"], json!([]));
    let edits = format!("/api/tycoon/designs/{id}/edits");

    let done = app
        .post(&edits, json!({"edit": "ladder", "start": 10, "end": 32}))
        .await;
    assert_eq!(done.ok()["applied"]["summary"], "added ladder 10→32");
    assert_eq!(done.ok()["design"]["can_undo"], true);

    // Refused edits: 422 with the library's reason; nothing changes.
    let refused = app
        .post(&edits, json!({"edit": "snake", "start": 5, "end": 1}))
        .await;
    assert_refused(
        &refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "bottom row",
    );
    let refused = app.post(&edits, json!({"edit": "paste", "cell": 20})).await;
    assert_refused(
        &refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "clipboard is empty",
    );
    let refused = app
        .post(&edits, json!({"edit": "card", "number": 13, "cell": 20}))
        .await;
    assert_refused(
        &refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "no card 13",
    );
    let refused = app.post(&edits, json!({"edit": "fly", "cell": 20})).await;
    assert_refused(&refused, StatusCode::BAD_REQUEST, "bad_json", "bad JSON");
    let same = app.get(&format!("/api/tycoon/designs/{id}")).await;
    assert_eq!(same.ok()["objects"].as_array().unwrap().len(), 1);

    // Copy, paste (keeps its length), delete, undo, redo.
    app.post(&edits, json!({"edit": "copy", "cell": 10}))
        .await
        .ok();
    let pasted = app.post(&edits, json!({"edit": "paste", "cell": 20})).await;
    let pasted = pasted.ok();
    assert_eq!(pasted["design"]["clipboard"]["text"], "ladder 10→32");
    assert_eq!(
        pasted["design"]["grid"]["ladders"][1],
        json!({"start": 20, "end": 42})
    );
    app.post(&edits, json!({"edit": "delete", "cell": 10}))
        .await
        .ok();
    let undone = app.post(&edits, json!({"edit": "undo"})).await;
    assert_eq!(
        undone.ok()["design"]["objects"].as_array().unwrap().len(),
        2
    );
    assert_eq!(undone.ok()["design"]["can_redo"], true);
    let card = app
        .post(
            &edits,
            json!({"edit": "card", "number": 9, "cell": 13, "params": [50, 10]}),
        )
        .await;
    let card = card.ok().clone();
    assert_eq!(
        card["design"]["objects"][1]["describe"],
        "station: price 50, fee 10"
    );

    // The file, then save and load it back.
    let file = app.get(&format!("/api/tycoon/designs/{id}/file")).await;
    assert_eq!(text_of(&file), card["design"]["file"].as_str().unwrap());
    let save = format!("/api/tycoon/designs/{id}/save");
    let saved = app.post(&save, json!({"name": "race one"})).await;
    let saved = saved.ok();
    assert_eq!(saved["name"], "race one");
    assert!(
        saved.get("grids").is_none(),
        "a save answers one grid: {saved}"
    );
    assert_eq!(
        saved["bytes"].as_u64().unwrap() as usize,
        card["design"]["file"].as_str().unwrap().len()
    );
    let stored = app.get("/api/tycoon/grids/race%20one").await;
    assert_eq!(text_of(&stored), card["design"]["file"].as_str().unwrap());
    let loaded = app
        .post("/api/tycoon/designs", json!({"saved": "race one"}))
        .await;
    assert_eq!(loaded.ok()["grid"], card["design"]["grid"]);
    assert_eq!(loaded.ok()["can_undo"], false);
    let list = app.get("/api/tycoon/grids").await;
    assert_eq!(list.ok()["grids"].as_array().unwrap().len(), 1);

    // Saving under a name taken needs "replace": nothing is overwritten by
    // a slip.
    app.post(&edits, json!({"edit": "clear"})).await.ok();
    let taken = app.post(&save, json!({"name": "race one"})).await;
    assert_refused(&taken, StatusCode::CONFLICT, "grid_exists", "race one");
    let stored = app.get("/api/tycoon/grids/race%20one").await;
    assert_eq!(text_of(&stored), card["design"]["file"].as_str().unwrap());
    let replaced = app
        .post(&save, json!({"name": "race one.grid", "replace": true}))
        .await;
    assert_eq!(replaced.ok()["name"], "race one", "the .grid is dropped");
    let stored = app.get("/api/tycoon/grids/race%20one").await;
    assert_eq!(text_of(&stored), "0\n0\n0\n");

    // Names are letters of any script, digits, spaces, - _ and .
    for name in ["Spielfeld Nr. 2", "双六", "Ταβλι_1", "race-2.v3"] {
        let saved = app.post(&save, json!({ "name": name })).await;
        assert_eq!(saved.ok()["name"], name);
        let encoded: String = name
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        let stored = app.get(&format!("/api/tycoon/grids/{encoded}")).await;
        assert_eq!(text_of(&stored), "0\n0\n0\n", "{name}");
    }
    let list = app.get("/api/tycoon/grids").await;
    let names: Vec<&str> = list.ok()["grids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    for name in [
        "race one",
        "Spielfeld Nr. 2",
        "双六",
        "Ταβλι_1",
        "race-2.v3",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert_eq!(list.ok()["more"], false);
    // A listing is bounded: the newest first, and says when there are more.
    let two = app.get("/api/tycoon/grids?limit=2").await;
    let two = two.ok();
    assert_eq!(two["grids"].as_array().unwrap().len(), 2);
    assert_eq!(two["more"], true);
    for limit in ["0", "501", "many"] {
        let refused = app.get(&format!("/api/tycoon/grids?limit={limit}")).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "limit={limit}");
    }

    // Names that could reach outside a grid folder, or hide, are refused.
    for name in [
        "../x",
        "/etc/passwd",
        "a/b",
        "..",
        "",
        ".hidden",
        "a\\b",
        "a..b",
    ] {
        let refused = app.post(&save, json!({ "name": name })).await;
        refused.refused(StatusCode::BAD_REQUEST, "bad_name");
        let refused = app
            .post("/api/tycoon/designs", json!({ "saved": name }))
            .await;
        refused.refused(StatusCode::BAD_REQUEST, "bad_name");
    }
    // Saved grids live in the store: the data directory holds nothing else.
    for entry in std::fs::read_dir(app.dir.path()).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(
            name.to_string_lossy().starts_with("parlor.db"),
            "{name:?} in the data directory"
        );
    }
    let missing = app
        .post("/api/tycoon/designs", json!({"saved": "nothing"}))
        .await;
    assert_refused(
        &missing,
        StatusCode::NOT_FOUND,
        "no_grid",
        "no saved grid named 'nothing'",
    );

    // A saved grid is deleted once.
    let gone = app
        .send("DELETE", "/api/tycoon/grids/race%20one", None, None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    let gone = app
        .send("DELETE", "/api/tycoon/grids/race%20one", None, None)
        .await;
    gone.refused(StatusCode::NOT_FOUND, "no_grid");
    app.get("/api/tycoon/grids/race%20one")
        .await
        .refused(StatusCode::NOT_FOUND, "no_grid");
}

/// Grids saved before the store, as files in `DATA_DIR/grids/`, are
/// imported the first time a server starts on the data directory.
#[tokio::test]
async fn grid_files_of_an_older_data_directory_are_imported() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    std::fs::create_dir_all(data.join("grids")).unwrap();
    let sample = include_str!("../../../tycoon/tests/data/sample.grid");
    std::fs::write(data.join("grids/old one.grid"), sample).unwrap();
    let app = App::with(|c| c.data_dir = data.clone()).await;
    let list = app.get("/api/tycoon/grids").await;
    assert_eq!(list.ok()["grids"][0]["name"], "old one");
    let stored = app.get("/api/tycoon/grids/old%20one").await;
    assert_eq!(text_of(&stored), sample);
    // The files stay, for the command line.
    assert!(data.join("grids/old one.grid").is_file());
}

#[tokio::test]
async fn grid_files_are_uploaded_with_their_problems_reported() {
    let app = app().await;
    let sample = "4\n10 32\n16 71\n46 68\n75 86\n4\n34 23\n59 37\n78 56\n85 30\n9\n1 4 50\n9 13 50 10\n8 19 50\n6 28 97\n8 36 50\n4 51 \n9 54 50 10\n9 81 50 10\n1 84 50\n";
    let design = app
        .post("/api/tycoon/designs", json!({ "text": sample }))
        .await;
    let design = design.ok().clone();
    assert_eq!(design["objects"].as_array().unwrap().len(), 17);
    // Unedited, the grid file is the upload byte for byte (`4 51 ` keeps
    // its trailing space): in the view, the download and a saved grid.
    assert_eq!(design["file"], sample);
    let id = design["id"].as_str().unwrap();
    let file = app.get(&format!("/api/tycoon/designs/{id}/file")).await;
    assert_eq!(text_of(&file), sample);
    app.post(
        &format!("/api/tycoon/designs/{id}/save"),
        json!({"name": "the sample"}),
    )
    .await
    .ok();
    let stored = app.get("/api/tycoon/grids/the%20sample").await;
    assert_eq!(text_of(&stored), sample);
    let reopened = app
        .post("/api/tycoon/designs", json!({"saved": "the sample"}))
        .await;
    assert_eq!(reopened.ok()["file"], sample);
    let bad = app
        .post("/api/tycoon/designs", json!({"text": "1\n10 5\n0\n0\n"}))
        .await;
    assert_refused(&bad, StatusCode::UNPROCESSABLE_ENTITY, "invalid", "line 2");
    let both = app
        .post(
            "/api/tycoon/designs",
            json!({"text": "0\n0\n0\n", "saved": "x"}),
        )
        .await;
    assert_refused(&both, StatusCode::BAD_REQUEST, "bad_request", "not both");
    let unknown = app.get("/api/tycoon/designs/abc").await;
    assert_refused(
        &unknown,
        StatusCode::NOT_FOUND,
        "not_found",
        "no design 'abc'",
    );
    let cards = app.get("/api/tycoon/cards").await;
    let cards = cards.ok();
    assert_eq!(cards[8]["params"], json!(["price", "fee"]));
    assert_eq!(cards[0]["params"], json!(["coins"]));
    assert_eq!(cards[1]["params"], json!([]));
}

#[tokio::test]
async fn tycoon_designs_are_drawn_as_svg() {
    let app = app().await;
    let design = app.post("/api/tycoon/designs", json!({})).await;
    let id = design.ok()["id"].as_str().unwrap().to_string();
    let picture = format!("/api/tycoon/designs/{id}/svg");
    let empty = svg_of(&app, &picture).await;
    assert_eq!(empty.matches("class=\"cell\"").count(), 99);
    assert!(empty.contains("data-cell=\"1\" data-row=\"8\" data-col=\"0\""));
    assert!(empty.contains("Tycoon: a new grid"));
    let edits = format!("/api/tycoon/designs/{id}/edits");
    app.post(&edits, json!({"edit": "ladder", "start": 10, "end": 32}))
        .await
        .ok();
    app.post(
        &edits,
        json!({"edit": "card", "number": 9, "cell": 13, "params": [50, 10]}),
    )
    .await
    .ok();
    let svg = svg_of(&app, &format!("{picture}?name=my%20grid")).await;
    assert!(svg.contains("Tycoon: my grid"));
    assert!(svg.contains("class=\"ladder\" data-start=\"10\" data-end=\"32\""));
    assert!(svg.contains("data-cell=\"13\" data-row=\"7\" data-col=\"1\" data-card=\"9\""));
    let long = "x".repeat(server::tools::tycoon::MAX_PICTURE_NAME + 1);
    let refused = app.get(&format!("{picture}?name={long}")).await;
    assert_refused(&refused, StatusCode::BAD_REQUEST, "bad_request", "at most");
    let refused = app.get(&format!("{picture}?size=3")).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(!refused.message().is_empty(), "{}", refused.body);
    let missing = app.get("/api/tycoon/designs/nope/svg").await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "not_found", "no design");
}

#[tokio::test]
async fn bad_requests_get_a_json_error_and_a_4xx() {
    let app = app().await;
    let matches = "/api/matches";
    assert_refused(
        &post_raw(&app, matches, "{\"game\": ").await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "bad JSON",
    );
    assert_refused(
        &post_raw(&app, matches, "[1,2]").await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "bad JSON",
    );
    assert_refused(
        &app.post(matches, json!({"game": "chutes", "seats": "two"}))
            .await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "bad JSON",
    );
    assert_refused(
        &app.post(matches, json!({"game": "chutes", "colour": "red"}))
            .await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "unknown field",
    );
    assert_refused(
        &app.post(matches, json!({"seats": ["here"]})).await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "missing field `game`",
    );
    assert_refused(
        &app.post(matches, json!({"game": "chutes", "seed": -1}))
            .await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "bad JSON",
    );
    assert_refused(
        &app.post(
            matches,
            json!({"game": "chutes", "setup": {"overshoot": "wrap"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "bad_setup",
        "overshoot",
    );
    assert_refused(
        &app.post(matches, json!({"game": "chutes", "setup": {"faces": 0}}))
            .await,
        StatusCode::BAD_REQUEST,
        "bad_setup",
        "faces",
    );
    assert_refused(
        &app.post(
            matches,
            json!({"game": "chutes", "setup": {"board": "nope"}}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
        "no board 'nope'",
    );

    // Unknown routes, wrong methods, paths that do not decode.
    assert_refused(
        &app.get("/api/chutes/nothing").await,
        StatusCode::NOT_FOUND,
        "not_found",
        "no API route /api/chutes/nothing",
    );
    assert_refused(
        &app.send("DELETE", matches, None, None).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "does not take DELETE",
    );
    let host = app.start(json!({"game": "chutes"})).await;
    // A match is never deleted: it ends, or expires.
    assert_refused(
        &app.send("DELETE", &format!("{matches}/{}", host.id), None, None)
            .await,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "does not take DELETE",
    );
    let bad_path = app.get("/api/matches/%FF").await;
    assert_eq!(
        bad_path.status,
        StatusCode::BAD_REQUEST,
        "{}",
        bad_path.body
    );
    assert!(!bad_path.message().is_empty(), "{}", bad_path.body);
    // A move body that is not one.
    let moves = format!("{matches}/{}/moves", host.id);
    assert_refused(
        &app.post_as(&host.token, &moves, json!({"after": 0})).await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "missing field `move`",
    );
    assert_refused(
        &app.post_as(&host.token, &moves, json!({"move": "roll", "after": -1}))
            .await,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "bad JSON",
    );
    let same = app.get(&format!("{matches}/{}", host.id)).await;
    assert_eq!(same.ok()["moves"], 0, "a refused move changes nothing");
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let app = app().await;
    let text = "0 ".repeat(100 * 1024);
    let answer = app
        .post("/api/chutes/boards", json!({ "text": text }))
        .await;
    assert_refused(
        &answer,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        "too large",
    );
}

/// A body must come as JSON: a form or text/plain post (which any web page
/// may send to this server without the browser asking first) is refused.
#[tokio::test]
async fn bodies_not_sent_as_json_are_refused() {
    let app = app().await;
    let fixed = r#"{"game": "baffle", "setup": {"fixed": true}}"#;
    for (content_type, what) in [
        (Some("text/plain"), "not text/plain"),
        (Some("application/x-www-form-urlencoded"), "urlencoded"),
        (None, "no Content-Type"),
    ] {
        let answer = send_raw(&app, "POST", "/api/matches", content_type, fixed).await;
        assert_refused(
            &answer,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "not_json",
            what,
        );
    }
    let made = send_raw(
        &app,
        "POST",
        "/api/matches",
        Some("application/json; charset=utf-8"),
        fixed,
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    // An empty body needs the type too (a page may send an empty
    // text/plain post anywhere); with it, it reads as {}.
    let designs = "/api/tycoon/designs";
    let answer = send_raw(&app, "POST", designs, None, "").await;
    assert_refused(
        &answer,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "not_json",
        "even with an empty body",
    );
    let answer = send_raw(&app, "POST", designs, Some("text/plain"), "").await;
    assert_refused(
        &answer,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "not_json",
        "not text/plain",
    );
    let design = send_raw(&app, "POST", designs, Some("application/json"), "").await;
    assert_eq!(design.ok()["objects"], json!([]));
    // `{}` for a match is a match of no game.
    let answer = send_raw(&app, "POST", "/api/matches", Some("application/json"), "").await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "bad_json",
        "missing field `game`",
    );
}

/// Long answers (hints, bot moves, analyses) take a slot or wait in line;
/// with no room (here: no slots at all) they are refused at once with a
/// 503 that says to try again, and quick requests go on being answered.
#[tokio::test]
async fn long_answers_beyond_the_slots_are_refused_politely() {
    let app = App::with(|c| c.max_long_work = 0).await;
    let mut host = app
        .start(json!({"game": "baffle", "setup": {"fixed": true}}))
        .await;
    for (uri, body) in [
        (format!("/api/baffle/matches/{}/hint", host.id), json!({})),
        (
            format!("/api/baffle/matches/{}/bot", host.id),
            json!({"after": 0}),
        ),
    ] {
        let answer = app.post_as(&host.token, &uri, body).await;
        assert_refused(
            &answer,
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "try again in a moment",
        );
    }
    let analysis = app.get("/api/chutes/boards/classic/analysis").await;
    assert_refused(
        &analysis,
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "try again in a moment",
    );
    let shot = app.play(&mut host, json!("shoot 7")).await;
    assert_eq!(shot.ok()["played"][0]["events"][0]["exit"], 22);
    assert_eq!(host.after, 1, "the refused bot move played nothing");
}

#[tokio::test]
async fn a_board_is_designed_with_its_progress_and_kept_for_analysis_and_play() {
    let app = app().await;
    let answer = app
        .post(
            "/api/chutes/design",
            json!({"size": 100, "chutes": "8", "ladders": "8", "mean": 40, "players": 4, "fair": 0.012, "seed": 1}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer
            .headers
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("")),
        Some("application/x-ndjson")
    );
    let text = answer.body.as_str().expect("lines of JSON").to_string();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let last = lines.last().expect("a last line");
    let report = &last["design"]["report"];
    assert_eq!(report["met"], true, "{text}");
    let mean = report["analysis"]["mean"].as_f64().expect("mean");
    assert!((mean - 40.0).abs() <= 0.1);
    // The same board as the command line's for the same seed.
    let id = last["design"]["id"].as_str().expect("an id");
    let kept = app.get(&format!("/api/chutes/boards/{id}")).await;
    let kept = kept.ok();
    assert_eq!(kept["board"]["jumps"], report["jumps"]);
    let analysed = app
        .get(&format!("/api/chutes/boards/{id}/analysis?players=4"))
        .await;
    let analysed = analysed.ok();
    assert_eq!(analysed["seats"], report["analysis"]["seats"]);
    for l in &lines[..lines.len() - 1] {
        assert!(l["progress"]["evaluations"].is_u64(), "{l}");
    }
    // What cannot be designed is refused before any work, in words.
    let refused = app
        .post("/api/chutes/design", json!({"fair": 0.01, "players": 1}))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("give 2 or more players")),
        "{:?}",
        refused.body
    );
    let too_big = app.post("/api/chutes/design", json!({"size": 5000})).await;
    assert_eq!(too_big.status, StatusCode::BAD_REQUEST);
    let unknown = app
        .post("/api/chutes/design", json!({"colour": "red"}))
        .await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    // A target a bound rules out is refused at once, in the library's words.
    let bound = app.post("/api/chutes/design", json!({"mean": 3})).await;
    assert_eq!(bound.status, StatusCode::BAD_REQUEST);
    assert!(
        bound.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("no board's mean is below")),
        "{:?}",
        bound.body
    );
    // Goals as the command line reads them, and a name.
    let named = app
        .post(
            "/api/chutes/design",
            json!({"mean": "30±0.5", "players": 1, "name": "Class 4B", "seed": 2}),
        )
        .await;
    let text = named.body.as_str().expect("lines of JSON").to_string();
    let last: Value = serde_json::from_str(text.lines().last().expect("a line")).expect("JSON");
    let report = &last["design"]["report"];
    assert_eq!(report["met"], true, "{text}");
    let mean = report["analysis"]["mean"].as_f64().expect("mean");
    assert!((mean - 30.0).abs() <= 0.5, "{mean}");
    assert!(
        report["board_file"]
            .as_str()
            .is_some_and(|f| f.contains("Class 4B")),
        "{report}"
    );
}

/// The last line of a design's answer.
fn design_of(answer: &Answer) -> Value {
    let text = answer.body.as_str().expect("lines of JSON").to_string();
    serde_json::from_str(text.lines().last().expect("a line")).expect("JSON")
}

#[tokio::test]
async fn a_design_takes_the_command_lines_options() {
    let app = app().await;
    // From the classic board, a little shorter: few changes, the board's
    // own size, and the report's changes and rules.
    let answer = app
        .post(
            "/api/chutes/design",
            json!({"from": "classic", "mean": "37±0.5", "seed": 1}),
        )
        .await;
    let last = design_of(&answer);
    let report = &last["design"]["report"];
    assert_eq!(report["met"], true, "{last}");
    let changes = report["changes"].as_u64().expect("changes");
    assert!((1..=3).contains(&changes), "{changes}");
    assert_eq!(report["shape"]["size"], 100);
    assert!(report["rules"].as_array().is_some_and(|r| !r.is_empty()));
    // Jump lengths, die faces, rules allowed, a percentile.
    let answer = app
        .post(
            "/api/chutes/design",
            json!({"size": 60, "chutes": "4", "ladders": "4", "min_jump": 3, "max_jump": 12,
                   "faces": 4, "allow": ["crossings"], "percentiles": ["90:<=60"], "seed": 1}),
        )
        .await;
    let last = design_of(&answer);
    let report = &last["design"]["report"];
    assert_eq!(report["met"], true, "{last}");
    for j in report["jumps"].as_array().expect("jumps") {
        let (a, b) = (j["from"].as_i64().unwrap(), j["to"].as_i64().unwrap());
        assert!((3..=12).contains(&(a - b).abs()), "{j}");
    }
    assert_eq!(report["analysis"]["rules"]["faces"], 4, "{report}");
    // Two players without `fair` ask for fair seats, as on the command line.
    let answer = app
        .post(
            "/api/chutes/design",
            json!({"mean": 35, "players": 2, "seed": 1}),
        )
        .await;
    let last = design_of(&answer);
    let targets = last["design"]["report"]["targets"]
        .as_array()
        .expect("targets");
    assert!(targets.iter().any(|t| t["name"] == "fair"), "{last}");
    // A shortest game no board can have is refused at once.
    let refused = app
        .post("/api/chutes/design", json!({"shortest": 50}))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("within 18 rolls")),
        "{:?}",
        refused.body
    );
    let bad_rule = app
        .post("/api/chutes/design", json!({"allow": ["ugly"]}))
        .await;
    assert_eq!(bad_rule.status, StatusCode::BAD_REQUEST);
    let no_board = app
        .post("/api/chutes/design", json!({"from": "nothing-here"}))
        .await;
    assert_eq!(no_board.status, StatusCode::NOT_FOUND);
    // From an uploaded board: the design is named by the board's name, not
    // its id.
    let uploaded = app
        .post(
            "/api/chutes/boards",
            json!({"text": "size = 40\nstart = 0\nname = \"Our board\"\nladders = [[12, 20]]\nchutes = [[30, 22]]\n", "file_name": "ours.toml"}),
        )
        .await;
    let id = uploaded.ok()["id"].as_str().expect("an id").to_string();
    let answer = app
        .post(
            "/api/chutes/design",
            json!({"from": id, "mean": "12..14", "seed": 1}),
        )
        .await;
    let last = design_of(&answer);
    let designed = last["design"]["id"].as_str().expect("an id");
    let board = app.get(&format!("/api/chutes/boards/{designed}")).await;
    assert_eq!(
        board.ok()["board"]["name"],
        "design-1, from Our board, mean 13 ± 1",
        "{last}"
    );
}

#[tokio::test]
async fn a_tycoon_designs_balance_is_checked_with_a_verdict_from_the_intervals() {
    let app = app().await;
    let design = app.post("/api/tycoon/designs", json!({})).await;
    let id = design.ok()["id"].as_str().unwrap().to_string();
    let route = format!("/api/tycoon/designs/{id}/balance");
    let report = app
        .post(
            &route,
            json!({"games": 60, "seats": "easy,normal,normal,normal", "seed": 3}),
        )
        .await;
    let report = report.ok();
    assert_eq!(report["games"], 60);
    assert_eq!(report["seats"], json!(["random", "bot", "bot", "bot"]));
    // The verdict is the intervals': with 60 games each seat's interval is
    // about ±12 points, far wider than a 5-point margin.
    let rates: Vec<f64> = report["win_rate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect();
    let half: Vec<f64> = report["win_margin95"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect();
    assert!(half.iter().all(|h| *h > 0.08), "{half:?}");
    let spread = report["spread"].as_f64().unwrap();
    let hi = rates.iter().copied().fold(0.0, f64::max);
    let lo = rates.iter().copied().fold(1.0, f64::min);
    assert!((spread - (hi - lo)).abs() < 1e-12);
    let verdict = report["verdict"]["verdict"].as_str().unwrap();
    assert_ne!(verdict, "balanced", "{report}");
    if verdict == "undecided" {
        assert!(report["verdict"]["more_games"].as_u64().unwrap() > 0);
    }
    for (body, words) in [
        (json!({"games": 0}), "games: give 1 to 4000"),
        (json!({"games": 100_000}), "games: give 1 to 4000"),
        (json!({"seats": "human"}), "played by bots"),
        (json!({"seats": "easy,hard"}), "give 4"),
        (json!({"margin": 2.0}), "margin"),
    ] {
        let refused = app.post(&route, body.clone()).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            refused.body["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains(words)),
            "{body}: {:?}",
            refused.body
        );
    }
    let gone = app
        .post("/api/tycoon/designs/nothing/balance", json!({}))
        .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}
