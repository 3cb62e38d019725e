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
