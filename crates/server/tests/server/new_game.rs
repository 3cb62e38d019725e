//! A game that exists only in the tests (`testkit::race`), added the way
//! docs/architecture.md says a game is added: its rules (`Playable`), its
//! adapter, and one line in the registry. Nothing else in the server
//! changes, and it is made, played by a person and a bot, finished,
//! recorded, replayed and drawn through the same routes as every game.

use crate::support;

use serde_json::json;
use support::App;
use testkit::race::RACE;

async fn app() -> App {
    App::with(|config| config.games = games::Registry::standard().with(&RACE)).await
}

#[tokio::test]
async fn a_game_added_to_the_registry_is_listed_made_played_recorded_and_replayed() {
    let app = app().await;
    let listed = app.get("/api/games").await;
    let race = listed
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "race")
        .cloned()
        .expect("the race is listed");
    assert_eq!(race["title"], "A race");
    assert_eq!(race["default_setup"], json!({"goal": 10}));
    assert_eq!(
        (race["min_seats"].as_u64(), race["max_seats"].as_u64()),
        (Some(2), Some(2))
    );

    // A person against a bot, to a goal of 5.
    let mut person = app
        .start(json!({"game": "race", "setup": {"goal": 5}, "seats": ["here", "easy"], "seed": 3}))
        .await;
    let setup = app.get(&format!("/api/matches/{}/setup", person.id)).await;
    assert_eq!(setup.ok()["goal"], 5);
    // Its record is the gate's while the race is on.
    app.get(&format!("/api/matches/{}/record", person.id))
        .await
        .refused(axum::http::StatusCode::CONFLICT, "game_on");
    let mut rounds = 0;
    let view = loop {
        let view = app.look(&mut person).await;
        if view["status"] != "playing" {
            break view;
        }
        if view["to_move"] == 1 {
            app.play(&mut person, json!("roll")).await.ok();
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        rounds += 1;
        assert!(rounds < 500, "the race never ended: {view}");
    };
    assert_eq!(view["status"], "won", "{view}");
    assert!(
        view["view"]["at"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == 5),
        "{view}"
    );
    let moves = view["moves"].as_u64().unwrap();
    let record = app.get(&format!("/api/matches/{}/record", person.id)).await;
    assert_eq!(record.ok()["game"], "race");
    let last = app
        .get(&format!("/api/matches/{}/replay?at={moves}", person.id))
        .await;
    assert_eq!(last.ok()["view"]["view"], view["view"]);
    let svg = app.get(&format!("/api/matches/{}/svg", person.id)).await;
    assert!(svg.body.to_string().contains("A race to 5"), "{}", svg.body);

    // An unknown game names the race among those here.
    let refused = app.post("/api/matches", json!({"game": "chess"})).await;
    assert!(
        refused
            .message()
            .ends_with("say chutes, baffle, tycoon or race"),
        "{}",
        refused.message()
    );
}

#[tokio::test]
async fn the_standard_registry_knows_nothing_of_the_race() {
    let app = App::new().await;
    app.post("/api/matches", json!({"game": "race"}))
        .await
        .refused(axum::http::StatusCode::BAD_REQUEST, "bad_request");
}

/// A game's own page module comes from its crate through the registry
/// (the tests' Nim): the API says it has one and the server serves it at
/// `/static/games/nim.js`; a game without one (the race) has none there.
#[tokio::test]
async fn a_games_page_module_is_served_from_its_registry_entry() {
    let app =
        App::with(|config| config.games = games::Registry::standard().with(&RACE).with(&nim::NIM))
            .await;
    let listed = app.get("/api/games").await;
    let modules: Vec<(String, bool)> = listed
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_string(),
                g["page_module"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        modules,
        [
            ("chutes".to_string(), false),
            ("baffle".to_string(), false),
            ("tycoon".to_string(), false),
            ("race".to_string(), false),
            ("nim".to_string(), true),
        ]
    );
    let module = app.get("/static/games/nim.js").await;
    assert_eq!(module.status, axum::http::StatusCode::OK);
    assert_eq!(
        module.headers["content-type"],
        "text/javascript; charset=utf-8"
    );
    let text = module.body.as_str().unwrap_or_default();
    assert!(text.contains("export function draw("), "{text}");
    assert_eq!(
        app.get("/static/games/race.js").await.status,
        axum::http::StatusCode::NOT_FOUND
    );
    // Nim's own page is any game's page, which runs the module.
    let page = app.get("/nim").await;
    assert_eq!(page.status, axum::http::StatusCode::OK);
    assert!(
        page.body
            .as_str()
            .unwrap_or_default()
            .contains("/static/play.js"),
        "{}",
        page.body
    );
}
