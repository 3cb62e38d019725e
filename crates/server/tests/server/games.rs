//! Each game played through the match API (`/api/matches…`) with its known
//! answers: Chutes & Ladders roll by roll and to the end, on uploaded
//! boards and on a board whose finish no token reaches; Snakes & Ladders
//! Tycoon with a person and bots, and four bots, and its estimated chances
//! live and over the game; Baffle's fixed game played
//! by hand and by the bot, random boxes and their hint; the pictures of
//! games; seeds. The match router itself (tokens, turns, move numbers,
//! invites, watching, records) is in `matches.rs`.

use crate::support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{Answer, App, Seat};

/// The moves route of `seat`'s match, answering the full view (these tests read it).
fn moves_of(seat: &Seat) -> String {
    format!("/api/matches/{}/moves?view=full", seat.id)
}

/// The first event of the one move an answer played (a shot, a guess, a
/// roll; a winning guess is followed by the win).
#[track_caller]
fn event_of(answer: &Answer) -> &Value {
    let played = answer.ok()["played"].as_array().expect("played");
    assert_eq!(played.len(), 1, "{}", answer.body);
    let events = played[0]["events"].as_array().expect("events");
    assert!(!events.is_empty(), "{}", answer.body);
    &events[0]
}

/// The events of the one move an answer played.
#[track_caller]
fn events_of(answer: &Answer) -> &Vec<Value> {
    answer.ok()["played"][0]["events"]
        .as_array()
        .expect("events")
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

async fn svg_of(app: &App, uri: &str) -> String {
    let answer = app.get(uri).await;
    assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.body);
    let svg = answer.body.as_str().expect("an SVG document").to_string();
    assert!(svg.contains("<svg"), "{uri}: {svg}");
    svg
}

/// Plays `roll` again and again for `seat` to the end of the match.
async fn roll_to_the_end(app: &App, seat: &mut Seat) -> Value {
    let done = app
        .post_as(
            &seat.token,
            &moves_of(seat),
            json!({"move": "roll", "after": seat.after, "repeat": true}),
        )
        .await;
    let body = done.ok().clone();
    seat.after = body["view"]["moves"].as_u64().expect("moves") as usize;
    body
}

// Chutes & Ladders.

#[tokio::test]
async fn a_chutes_match_is_played_roll_by_roll_and_to_the_end() {
    let app = App::new().await;
    let request = json!({"game": "chutes", "seats": ["here", "here"], "seed": 7});
    let mut host = app.start(request.clone()).await;
    let start = app.look(&mut host).await;
    assert_eq!(start["to_move"], 1);
    assert_eq!(start["view"]["players"].as_array().unwrap().len(), 2);
    assert_eq!(start["view"]["squares"], 100);
    assert!(start.get("seed").is_none(), "the seed is secret: {start}");
    let setup = app.get(&format!("/api/matches/{}/setup", host.id)).await;
    assert_eq!(setup.ok()["board"]["size"], 100);

    // A roll for each seat, from the dice.
    let first = app.play(&mut host, json!("roll")).await;
    let turn = event_of(&first).clone();
    assert_eq!(turn["from"], 0);
    assert_eq!(turn["player"], 1);
    let view = &first.ok()["view"];
    assert_eq!(view["to_move"], 2);
    assert_eq!(view["view"]["players"][0]["square"], turn["to"]);
    assert_eq!(first.ok()["played"][0]["seat"], 1);
    let second = app.play(&mut host, json!("roll")).await;
    assert_eq!(event_of(&second)["player"], 2);
    assert_eq!(second.ok()["view"]["to_move"], 1);

    let done = roll_to_the_end(&app, &mut host).await;
    let game = &done["view"];
    assert_eq!(game["status"], "won");
    let winner = game["winner"].as_u64().unwrap();
    assert!(winner == 1 || winner == 2);
    assert_eq!(game["to_move"], Value::Null);
    assert_eq!(game["seed"], 7, "shown once the match is over");
    let moves = game["moves"].as_u64().unwrap() as usize;
    assert_eq!(game["view"]["rolls"].as_u64().unwrap() as usize, moves);
    assert_eq!(game["log"].as_array().unwrap().len(), moves);
    let played = done["played"].as_array().unwrap();
    assert_eq!(played.len() + 2, moves);
    assert_eq!(played.last().unwrap()["events"][0]["outcome"], "won");
    assert_eq!(game["view"]["players"][winner as usize - 1]["square"], 100);
    // Each seat rolled in turn.
    for (i, p) in played.iter().enumerate() {
        assert_eq!(p["number"].as_u64().unwrap() as usize, i + 3);
        assert_eq!(p["seat"].as_u64().unwrap() as usize, i % 2 + 1);
    }

    // The match is over: more rolls are refused, and it is unchanged.
    let again = app.play(&mut host, json!("roll")).await;
    assert_refused(&again, StatusCode::CONFLICT, "game_over", "over");
    let again = app
        .post_as(
            &host.token,
            &moves_of(&host),
            json!({"move": "roll", "after": moves, "repeat": true}),
        )
        .await;
    again.refused(StatusCode::CONFLICT, "game_over");
    let same = app.look(&mut host).await;
    assert_eq!(same["moves"], moves);
    assert_eq!(same["view"], game["view"]);

    // The same seed replays the same game.
    let mut other = app.start(request).await;
    assert_ne!(other.id, host.id);
    app.play(&mut other, json!("roll")).await.ok();
    app.play(&mut other, json!("roll")).await.ok();
    let replayed = roll_to_the_end(&app, &mut other).await;
    assert_eq!(replayed["view"]["view"], game["view"]);
    assert_eq!(replayed["view"]["log"], game["log"]);
}

#[tokio::test]
async fn a_chutes_match_with_chosen_dice_takes_each_roll_from_its_move() {
    let app = App::new().await;
    let mut host = app
        .start(json!({"game": "chutes", "seats": ["here", "here"], "dice": "chosen"}))
        .await;
    assert_eq!(app.look(&mut host).await["dice"], "chosen");
    let moves = moves_of(&host);
    // A roll the die cannot show is refused and changes nothing.
    for roll in [7, 0] {
        let body = json!({"move": "roll", "after": 0, "roll": roll});
        let answer = app.post_as(&host.token, &moves, body).await;
        let why = answer.refused(StatusCode::BAD_REQUEST, "bad_roll");
        assert!(
            why.contains(&format!("is {roll}")) && why.contains("1 to 6"),
            "{why}"
        );
    }
    assert_eq!(app.look(&mut host).await["moves"], 0);
    // Square 1 has the ladder to 38.
    let answer = app
        .post_as(
            &host.token,
            &moves,
            json!({"move": "roll", "after": 0, "roll": 1}),
        )
        .await;
    let turn = event_of(&answer);
    assert_eq!(turn["from"], 0);
    assert_eq!(turn["to"], 38, "square 1 has the ladder to 38");
    assert_eq!(turn["jump"]["kind"], "ladder");
    assert_eq!(answer.ok()["played"][0]["roll"], 1);
    assert_eq!(answer.ok()["view"]["to_move"], 2);
    // The fewest throws on the classic board, chosen one by one, win in
    // 7 moves; the record keeps each roll with its move.
    let fewest = app.get("/api/chutes/boards/classic/min-throws").await;
    let throws: Vec<u64> = fewest.ok()["example"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    assert_eq!(throws.len(), 7);
    let mut alone = app.start(json!({"game": "chutes", "dice": "chosen"})).await;
    let mut last = Value::Null;
    for (after, &roll) in throws.iter().enumerate() {
        let answer = app
            .post_as(
                &alone.token,
                &moves_of(&alone),
                json!({"move": "roll", "after": after, "roll": roll}),
            )
            .await;
        assert_eq!(event_of(&answer)["roll"], roll);
        last = answer.ok()["view"].clone();
    }
    assert_eq!(last["status"], "won", "{last}");
    assert_eq!(last["view"]["players"][0]["square"], 100);
    assert!(last.get("seed").is_none(), "chosen dice have no seed");
    let record = app.get(&format!("/api/matches/{}/record", alone.id)).await;
    let entries: Vec<String> = throws.iter().map(|r| format!("roll @{r}")).collect();
    assert_eq!(record.ok()["moves"], json!(entries));
    assert_eq!(record.ok()["dice"], "chosen");
    app.look(&mut alone).await;
    app.post_as(
        &alone.token,
        &moves_of(&alone),
        json!({"move": "roll", "after": 7, "roll": 1}),
    )
    .await
    .refused(StatusCode::CONFLICT, "game_over");
}

#[tokio::test]
async fn an_uploaded_board_is_played() {
    let app = App::new().await;
    let board = app
        .post(
            "/api/chutes/boards",
            json!({"text": "[[-1,-1,-1],[-1,9,-1],[-1,-1,-1]]", "file_name": "tiny.json"}),
        )
        .await;
    let board_id = board.ok()["id"].as_str().unwrap().to_string();
    let mut host = app
        .start(json!({"game": "chutes", "setup": {"board": board_id, "overshoot": "bounce"}}))
        .await;
    let setup = app.get(&format!("/api/matches/{}/setup", host.id)).await;
    assert_eq!(setup.ok()["rules"]["overshoot"], "bounce");
    assert_eq!(setup.ok()["board"]["size"], 9);
    assert_eq!(setup.ok()["board"], board.ok()["board"]);
    let done = roll_to_the_end(&app, &mut host).await;
    assert_eq!(done["view"]["status"], "won");
    assert_eq!(done["view"]["winner"], 1);
    assert_eq!(done["view"]["view"]["players"][0]["square"], 9);
}

#[tokio::test]
async fn a_board_whose_finish_cannot_be_reached_stops_the_match() {
    let app = App::new().await;
    // Squares 2..=7 all lead back to 1; from 0 or 1 no roll reaches 8.
    let text = "size = 8\nchutes = [[2,1],[3,1],[4,1],[5,1],[6,1],[7,1]]\n";
    let board = app.post("/api/chutes/boards", json!({"text": text})).await;
    let board_id = board.ok()["id"].as_str().expect("a board").to_string();
    let mut host = app
        .start(json!({"game": "chutes", "setup": {"board": board_id}, "seed": 11}))
        .await;
    // The library sees that no token can ever finish: the match is stalled
    // from the start, with no winner and the reason, instead of rolling to
    // a cap.
    let view = app.look(&mut host).await;
    assert_eq!(view["status"], "stalled");
    assert_eq!(view["winner"], Value::Null);
    assert_eq!(view["to_move"], Value::Null);
    assert!(
        view["reason"].to_string().contains("reach square 8"),
        "{view}"
    );
    assert_eq!(view["seed"], 11, "over: the seed is shown");
    let more = app.play(&mut host, json!("roll")).await;
    assert_refused(
        &more,
        StatusCode::CONFLICT,
        "game_over",
        "no token can ever reach",
    );
    let more = app
        .post_as(
            &host.token,
            &moves_of(&host),
            json!({"move": "roll", "after": 0, "repeat": true}),
        )
        .await;
    more.refused(StatusCode::CONFLICT, "game_over");
    assert_eq!(app.look(&mut host).await["moves"], 0);
}

#[tokio::test]
async fn chutes_matches_are_drawn_as_svg() {
    let app = App::new().await;
    let mut host = app
        .start(json!({"game": "chutes", "seats": ["here", "here"], "seed": 3}))
        .await;
    let picture = format!("/api/matches/{}/svg", host.id);
    let start = svg_of(&app, &picture).await;
    assert_eq!(start.matches("class=\"square\"").count(), 100);
    assert!(!start.contains("data-turn"), "no roll yet");
    let done = roll_to_the_end(&app, &mut host).await;
    let svg = svg_of(&app, &picture).await;
    assert!(svg.contains("data-turn"));
    let last = done["view"]["moves"].as_u64().unwrap();
    assert!(
        svg.contains(&format!("data-turn=\"{last}\"")),
        "every roll is drawn, the last too"
    );
    let missing = app.get("/api/matches/nope/svg").await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no_match", "no game");
}

// Snakes & Ladders Tycoon.

const SAMPLE: &str = include_str!("../../../tycoon/tests/data/sample.grid");

/// A Tycoon match on the sample grid with these seats and seed.
async fn start_on_sample(app: &App, seats: Value, seed: u64) -> Seat {
    app.start(json!({"game": "tycoon", "setup": {"text": SAMPLE}, "seats": seats, "seed": seed}))
        .await
}

/// Waits until the person in seat 1 is to move, or the match is over.
async fn wait_for_seat_one(app: &App, id: &str) -> Value {
    app.wait_for(id, |v| v["status"] != "playing" || v["to_move"] == 1)
        .await
}

#[tokio::test]
async fn a_tycoon_match_is_played_by_a_person_and_bots() {
    let app = App::new().await;
    let mut host = start_on_sample(&app, json!(["here", "normal", "easy", "normal"]), 5).await;
    let game = app.look(&mut host).await;
    // The seed would tell every roll to come: it stays secret until the end.
    assert!(game.get("seed").is_none(), "{game}");
    assert_eq!(game["to_move"], 1);
    assert_eq!(game["you"], 1);
    assert_eq!(game["view"]["current"], 1);
    assert_eq!(game["view"]["players"].as_array().unwrap().len(), 4);
    assert_eq!(game["view"]["players"][0]["coins"], 100);
    let offered = game["page"]["moves"].as_array().unwrap();
    assert_eq!(offered.len(), 1, "{offered:?}");
    assert_eq!(
        offered[0],
        json!({"text": "roll", "label": "Roll", "detail": "roll the die and move"})
    );
    assert_eq!(game["page"]["question"], "Player 1 to roll.");
    assert_eq!(
        game["players"][1],
        json!({"seat": 2, "kind": "bot", "level": "normal", "yours": false, "name": "Normal bot 2", "colour": 2})
    );
    let setup = app.get(&format!("/api/matches/{}/setup", host.id)).await;
    assert_eq!(setup.ok()["objects"].as_array().unwrap().len(), 17);
    let kinds: Vec<&str> = setup.ok()["attacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["label"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["Ice", "Fire", "Poison", "Lightning"]);

    // Only the pending decision's answers are accepted.
    let wrong = app.play(&mut host, json!("buy")).await;
    assert_refused(
        &wrong,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        "does not answer",
    );
    let wrong = app.play(&mut host, json!({"move": "buy"})).await;
    wrong.refused(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move");
    let wrong = app.play(&mut host, json!("teleport")).await;
    wrong.refused(StatusCode::BAD_REQUEST, "bad_move");
    let wrong = app.play(&mut host, json!({"move": "teleport"})).await;
    wrong.refused(StatusCode::BAD_REQUEST, "bad_move");
    assert_eq!(app.look(&mut host).await["moves"], 0);
    let rolled = app.play(&mut host, json!({"move": "roll"})).await;
    let played = &rolled.ok()["played"][0];
    assert_eq!(played["seat"], 1);
    assert_eq!(played["bot"], false);
    let events = played["events"].as_array().unwrap();
    assert!(!events.is_empty());
    assert!(events.iter().all(|e| e["text"].is_string()), "{played}");

    // A person cannot move for a bot: while seat 1 decides again, or after
    // its turn, the bots move on the server until the person must answer.
    let view = &rolled.ok()["view"];
    if view["to_move"] != 1 {
        // Refused as out of turn, or as made on a position the bots have
        // moved on from meanwhile: never played.
        let refused = app.play(&mut host, json!("roll")).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
        assert!(
            ["not_your_turn", "stale_move"].contains(&refused.code()),
            "{}",
            refused.body
        );
    }
    let after = wait_for_seat_one(&app, &host.id).await;
    assert!(
        after["status"] != "playing" || (after["to_move"] == 1 && after["view"]["current"] == 1),
        "{after}"
    );
    let moves = after["moves"].as_u64().unwrap() as usize;
    assert!(moves > 1, "the bots moved: {after}");
    // Every move since the person's is a bot's, told like any other.
    let log = after["log"].as_array().unwrap();
    assert!(log.iter().any(|l| l["seat"] != 1), "{after}");
}

#[tokio::test]
async fn four_tycoon_bots_play_a_match_to_the_end() {
    let app = App::new().await;
    let host = start_on_sample(&app, json!(["normal", "normal", "normal", "normal"]), 9).await;
    let done = app.wait_for(&host.id, |v| v["status"] != "playing").await;
    assert_eq!(done["status"], "won", "{done}");
    assert_eq!(done["seed"], 9, "shown once the match is over");
    let winner = done["winner"].as_u64().expect("a winner");
    assert_eq!(done["view"]["winner"], winner);
    assert_eq!(done["view"]["players"][winner as usize - 1]["cell"], 99);
    assert_eq!(done["page"]["moves"], json!([]));
    let log = done["log"].as_array().unwrap();
    assert!(log.len() <= games::LOG_TAIL);
    let last = log.last().unwrap();
    assert_eq!(last["seat"], winner);
    let text = last["text"].as_str().unwrap();
    // Said with the winner's name: "Normal bot 1 reaches 99 and wins".
    assert!(
        text.starts_with(&format!("Normal bot {winner} ")) && text.contains(" wins"),
        "{last}"
    );
    // Every move was a bot's, stored one by one: the first replays alone.
    let first = app
        .get(&format!("/api/matches/{}/replay?at=1", host.id))
        .await;
    let played = &first.ok()["played"];
    assert_eq!(played["number"], 1);
    assert_eq!(played["seat"], 1);
    assert_eq!(played["bot"], true);
    assert!(!played["events"].as_array().unwrap().is_empty());
    let record = app.get(&format!("/api/matches/{}/record", host.id)).await;
    assert_eq!(
        record.ok()["moves"].as_array().unwrap().len(),
        done["moves"].as_u64().unwrap() as usize
    );
    // The maker of a match of bots holds no seat: they watch.
    let mut seat = host.clone();
    seat.after = done["moves"].as_u64().unwrap() as usize;
    let watcher = app.play(&mut seat, json!("roll")).await;
    watcher.refused(StatusCode::FORBIDDEN, "not_your_seat");
    assert_eq!(app.look(&mut seat).await["you"], Value::Null);
}

#[tokio::test]
async fn a_positions_estimate_is_worked_out_only_once_someone_looks() {
    // Behind a balancer a match's moves may reach one server and its
    // stream another: the server where nobody watches or asks does not
    // work the position out (the one with the watchers does).
    let app = App::new().await;
    let mut host = start_on_sample(&app, json!(["here", "here"]), 3).await;
    let rolled = app.play(&mut host, json!({"move": "roll"})).await;
    let moves = rolled.ok()["view"]["moves"].clone();
    // Nobody looks for a while: a person is to move, nothing is worked out.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let first = app.look(&mut host).await;
    assert_eq!(first["moves"], moves);
    assert!(
        first["view"].get("chances").is_none(),
        "worked out with nobody looking: {first}"
    );
    // Asked for, it is worked out for the next look.
    let later = app
        .wait_for(&host.id, |v| v["view"]["chances"].is_array())
        .await;
    assert_eq!(later["moves"], moves);
}

#[tokio::test]
async fn tycoon_chances_are_estimated_live_and_charted_once_over() {
    let app = App::new().await;
    // Live: a person against a bot. The estimate is worked out away from
    // the move's path once a person is to move, and views carry it from
    // then on; the host's view and a spectator's carry the same estimate,
    // the library's own for the start.
    let mut host = start_on_sample(&app, json!(["here", "normal"]), 3).await;
    let has_chances = |v: &Value| v["view"]["chances"].is_array();
    let anyone = app.wait_for(&host.id, has_chances).await;
    let mine = app.look(&mut host).await;
    assert_eq!(mine["moves"], 0);
    for key in ["chances", "chances_interval", "chances_playouts"] {
        assert_eq!(mine["view"][key], anyone["view"][key], "{key}");
    }
    let grid = std::sync::Arc::new(tycoon::parse_grid(SAMPLE).expect("the sample"));
    let start = tycoon::Game::for_seats(grid, &[tycoon::Seat::Human, tycoon::Seat::Bot])
        .expect("two seats");
    let expected = tycoon::chances::estimate(&start).rounded(4);
    assert_eq!(
        mine["view"]["chances"],
        json!(expected.each),
        "the library's estimate"
    );
    assert_eq!(mine["view"]["chances_playouts"], 1000);
    // A move's answer does not wait for the new position's estimate: it
    // comes without it, and the view has it once a person is to move.
    let rolled = app.play(&mut host, json!({"move": "roll"})).await;
    let answer = &rolled.ok()["view"];
    assert!(answer["view"].get("chances").is_none(), "{answer}");
    assert!(answer["view"].get("chances_playouts").is_none(), "{answer}");
    let later = app
        .wait_for(&host.id, |v| {
            v["status"] != "playing" || (v["to_move"] == 1 && has_chances(v))
        })
        .await;
    if later["status"] == "playing" {
        assert!(
            later["moves"].as_u64() >= answer["moves"].as_u64(),
            "{later}"
        );
        assert_eq!(later["view"]["chances_playouts"], 1000, "{later}");
        let each = later["view"]["chances"].as_array().expect("chances");
        let bands = later["view"]["chances_interval"].as_array().expect("bands");
        assert_eq!(each.len(), 2);
        for (p, b) in each.iter().zip(bands) {
            let p = p.as_f64().unwrap();
            assert!(b["low"].as_f64().unwrap() <= p && p <= b["high"].as_f64().unwrap());
        }
    }
    // Over: two bots to the end; the look back's figures and chart.
    let bots = start_on_sample(&app, json!(["normal", "normal"]), 3).await;
    let done = app.wait_for(&bots.id, |v| v["status"] != "playing").await;
    let winner = done["winner"].as_u64().expect("a winner") as usize;
    let moves = done["moves"].as_u64().expect("moves") as usize;
    let over = app.get(&format!("/api/matches/{}/chances", bots.id)).await;
    let over = over.ok();
    let series = over["series"].as_array().expect("series");
    let intervals = over["intervals"]
        .as_array()
        .expect("an estimate's intervals");
    assert_eq!(series.len(), moves + 1);
    assert_eq!(intervals.len(), moves + 1);
    assert_eq!(over["moves"].as_array().expect("moves").len(), moves);
    assert_eq!(over["playouts"][0], 1000);
    assert_eq!(series[0], json!(expected.each), "the start, as it was live");
    for (step, band) in series.iter().zip(intervals) {
        for (p, b) in step
            .as_array()
            .unwrap()
            .iter()
            .zip(band.as_array().unwrap())
        {
            let p = p.as_f64().unwrap();
            assert!(b["low"].as_f64().unwrap() <= p && p <= b["high"].as_f64().unwrap());
        }
    }
    let last = series[moves].as_array().expect("the end");
    for (i, p) in last.iter().enumerate() {
        assert_eq!(p.as_f64(), Some(if i + 1 == winner { 1.0 } else { 0.0 }));
    }
    assert_eq!(over["moves"][0]["seat"], 1);
    assert!(
        over["moves"][0]["texts"][0]
            .as_str()
            .unwrap()
            .starts_with("Normal bot 1")
    );
    let svg = svg_of(&app, &format!("/api/matches/{}/chances.svg", bots.id)).await;
    assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
    assert_eq!(svg.matches("<polygon").count(), 2, "{svg}");
    assert!(svg.contains("estimated by the bots"), "{svg}");
}

#[tokio::test]
async fn tycoon_matches_are_played_on_designs_and_saved_grids() {
    let app = App::new().await;
    let design = app
        .post("/api/tycoon/designs", json!({"text": SAMPLE}))
        .await;
    let design_id = design.ok()["id"].as_str().unwrap().to_string();
    let on_design = app
        .start(json!({"game": "tycoon", "setup": {"design": design_id}}))
        .await;
    let setup = app
        .get(&format!("/api/matches/{}/setup", on_design.id))
        .await;
    assert_eq!(setup.ok()["objects"].as_array().unwrap().len(), 17);
    // The default seats: a person here and three normal bots.
    let view = app.get(&format!("/api/matches/{}", on_design.id)).await;
    let kinds: Vec<&Value> = view.ok()["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["kind"])
        .collect();
    assert_eq!(
        kinds,
        [
            &json!("person"),
            &json!("bot"),
            &json!("bot"),
            &json!("bot")
        ]
    );
    app.post(
        &format!("/api/tycoon/designs/{design_id}/save"),
        json!({"name": "mine"}),
    )
    .await
    .ok();
    let on_saved = app
        .start(json!({"game": "tycoon", "setup": {"saved": "mine", "turn_cap": 50}}))
        .await;
    let setup = app
        .get(&format!("/api/matches/{}/setup", on_saved.id))
        .await;
    assert_eq!(setup.ok()["objects"].as_array().unwrap().len(), 17);
    assert_eq!(setup.ok()["turn_cap"], 50);
    let empty = app.start(json!({"game": "tycoon"})).await;
    let setup = app.get(&format!("/api/matches/{}/setup", empty.id)).await;
    assert_eq!(setup.ok()["objects"], json!([]));

    let unknown = app
        .post(
            "/api/matches",
            json!({"game": "tycoon", "setup": {"design": "nope"}}),
        )
        .await;
    assert_refused(&unknown, StatusCode::NOT_FOUND, "not_found", "no design");
    let unknown = app
        .post(
            "/api/matches",
            json!({"game": "tycoon", "setup": {"saved": "nothing"}}),
        )
        .await;
    unknown.refused(StatusCode::NOT_FOUND, "no_grid");
    let bad = app
        .post(
            "/api/matches",
            json!({"game": "tycoon", "setup": {"text": "1\n10 5\n0\n0\n"}}),
        )
        .await;
    assert_refused(&bad, StatusCode::UNPROCESSABLE_ENTITY, "invalid", "line 2");
}

#[tokio::test]
async fn tycoon_matches_are_drawn_as_svg() {
    let app = App::new().await;
    let design = app.post("/api/tycoon/designs", json!({})).await;
    let id = design.ok()["id"].as_str().unwrap().to_string();
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

    // A match on the design, the person to move: tokens on cell 1.
    let waiting = app
        .start(json!({"game": "tycoon", "setup": {"design": id}, "seats": ["here", "easy", "easy", "easy"], "seed": 4}))
        .await;
    let start = svg_of(
        &app,
        &format!("/api/matches/{}/svg?name=my%20grid", waiting.id),
    )
    .await;
    assert!(start.contains("a game on my grid"));
    assert_eq!(start.matches("class=\"token\"").count(), 4);
    assert_eq!(
        start
            .matches("data-cell=\"1\" data-current=\"true\"")
            .count(),
        1
    );
    assert!(start.contains("class=\"ladder\" data-start=\"10\" data-end=\"32\""));

    // A whole match of bots on it.
    let bots = app
        .start(json!({"game": "tycoon", "setup": {"design": id}, "seats": ["easy", "normal", "easy", "normal"], "seed": 4}))
        .await;
    let done = app.wait_for(&bots.id, |v| v["status"] != "playing").await;
    let winner = done["winner"].as_u64().expect("a winner");
    let end = svg_of(
        &app,
        &format!("/api/matches/{}/svg?name=my%20grid", bots.id),
    )
    .await;
    assert!(
        end.contains(&format!("data-player=\"{winner}\" data-cell=\"99\"")),
        "{end}"
    );
    let name = done["players"][winner as usize - 1]["name"]
        .as_str()
        .unwrap_or_default();
    assert!(end.contains(&format!("{name} won after")), "{name}: {end}");

    let long = "x".repeat(server::tools::tycoon::MAX_PICTURE_NAME + 1);
    let refused = app
        .get(&format!("/api/matches/{}/svg?name={long}", bots.id))
        .await;
    assert_refused(&refused, StatusCode::BAD_REQUEST, "bad_request", "at most");
    let missing = app
        .get(&format!("/api/matches/{}/svg", "e".repeat(32)))
        .await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no_match", "no game");
}

// Baffle.

/// The original assignment's first game: <0,9>=\ <4,2>=/ <6,0>=\ <8,2>=/
/// <8,7>=\.
const FIXED: [(u64, u64, &str); 5] = [
    (0, 9, "\\"),
    (4, 2, "/"),
    (6, 0, "\\"),
    (8, 2, "/"),
    (8, 7, "\\"),
];

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

/// Every game view (`"game": "baffle"` object's `view`) anywhere in
/// `value`.
fn baffle_views(value: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    fn walk<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
        match value {
            Value::Object(map) => {
                if map.get("game").and_then(Value::as_str) == Some("baffle")
                    && let Some(view) = map.get("view")
                {
                    out.push(view);
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    walk(value, &mut out);
    out
}

async fn fixed_baffle(app: &App) -> Seat {
    app.start(json!({"game": "baffle", "setup": {"fixed": true}}))
        .await
}

#[tokio::test]
async fn the_fixed_baffle_game_is_played_and_hides_its_mirrors() {
    let app = App::new().await;
    let made = app
        .post(
            "/api/matches",
            json!({"game": "baffle", "setup": {"fixed": true}}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let mut host = Seat::from_made(&made.body);
    let game = &made.body["view"]["view"];
    assert_eq!(game["size"], 10);
    assert_eq!(game["mirrors"], 5);
    let setup = app.get(&format!("/api/matches/{}/setup", host.id)).await;
    let setup = setup.ok().clone();
    assert_eq!(setup["origin"], "fixed");
    assert_eq!(setup["holes"].as_array().unwrap().len(), 40);
    assert_eq!(
        setup["holes"][7],
        json!({"hole": 7, "side": "left", "at": 2, "shootable": true})
    );
    assert_eq!(
        setup["holes"][22],
        json!({"hole": 22, "side": "right", "at": 2, "shootable": true})
    );

    let mut answers = vec![made.body.clone(), setup];
    // The original assignment's checks: 7 → 22, 5 → 12, 1 → 24.
    for (hole, exit) in [(7, 22), (5, 12), (1, 24)] {
        let answer = app.play(&mut host, json!(format!("shoot {hole}"))).await;
        assert_eq!(events_of(&answer).len(), 1, "{}", answer.body);
        let shot = event_of(&answer);
        assert_eq!(shot["hole"], hole);
        assert_eq!(shot["exit"], exit, "hole {hole}");
        answers.push(answer.body.clone());
    }
    // A wrong guess (two points), then the five mirrors; the last one wins.
    let wrong = app.play(&mut host, json!("guess 3 2 /")).await;
    assert_eq!(event_of(&wrong)["right"], false);
    assert_eq!(wrong.ok()["view"]["view"]["score"]["total"], 5);
    answers.push(wrong.body.clone());
    let right = app
        .play(
            &mut host,
            json!({"move": "guess", "row": 0, "col": 9, "mirror": "\\"}),
        )
        .await;
    assert_eq!(event_of(&right)["right"], true);
    answers.push(right.body.clone());
    let refused = app.play(&mut host, json!("guess 0 9 \\")).await;
    assert_refused(
        &refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "already_found",
        "already found",
    );
    answers.push(refused.body.clone());
    answers.push(app.look(&mut host).await);
    answers.push(app.get(&format!("/api/matches/{}", host.id)).await.body);

    // Nothing sent so far names a cell the player has not found or guessed,
    // nor a beam's path.
    let mut shown = Vec::new();
    let mut views = 0;
    for answer in &answers {
        for view in baffle_views(answer) {
            views += 1;
            assert_eq!(view["missed"], Value::Null);
            assert!(
                view["shots"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|s| s["path"].is_null() && s["deflections"].is_null())
            );
        }
        assert!(answer.get("seed").is_none() && answer["view"].get("seed").is_none());
        cells_in(answer, &mut shown);
    }
    assert!(views >= 7, "{views} views checked");
    assert!(!shown.is_empty());
    for cell in shown {
        assert!(
            cell == (3, 2) || cell == (0, 9),
            "an answer named cell {cell:?}"
        );
    }

    for (i, &(row, col, mirror)) in FIXED.iter().enumerate().skip(1) {
        let answer = app
            .play(&mut host, json!(format!("guess {row} {col} {mirror}")))
            .await;
        assert_eq!(event_of(&answer)["right"], true);
        let events = events_of(&answer);
        if i + 1 < FIXED.len() {
            assert_eq!(events.len(), 1, "{}", answer.body);
        } else {
            // The last mirror found wins the game.
            assert_eq!(events.len(), 2, "{}", answer.body);
            assert_eq!(events[1]["event"], "won");
            assert_eq!(
                events[1]["score"],
                json!({"shots": 3, "wrong_guesses": 1, "guess_points": 2, "total": 5})
            );
        }
    }
    let done = app.look(&mut host).await;
    assert_eq!(done["status"], "won");
    assert_eq!(done["winner"], 1);
    assert_eq!(done["view"]["status"], "won");
    assert_eq!(
        done["view"]["score"],
        json!({"shots": 3, "wrong_guesses": 1, "guess_points": 2, "total": 5})
    );
    // Every mirror found, none missed.
    assert_eq!(done["view"]["missed"], json!([]));
    let found = done["view"]["found"].as_array().unwrap();
    assert_eq!(found.len(), 5);
    for &(row, col, mirror) in &FIXED {
        assert!(
            found.contains(&json!({"row": row, "col": col, "mirror": mirror})),
            "{found:?}"
        );
    }
    let more = app.play(&mut host, json!("shoot 3")).await;
    assert_refused(&more, StatusCode::CONFLICT, "game_over", "over");
}

#[tokio::test]
async fn the_bot_plays_the_fixed_baffle_game_move_by_move() {
    let app = App::new().await;
    let host = fixed_baffle(&app).await;
    let bot = format!("/api/baffle/matches/{}/bot", host.id);
    let mut moves = Vec::new();
    let mut last = app.get(&format!("/api/matches/{}", host.id)).await.body;
    while last["status"] == "playing" {
        assert!(moves.len() < 60, "the bot should win the fixed game");
        let answer = app
            .post_as(&host.token, &bot, json!({"after": moves.len()}))
            .await;
        let body = answer.ok();
        let decision = &body["bot"];
        let kind = decision["move"]["move"].as_str().unwrap().to_string();
        let reason = decision["reason"]["advice"]["kind"]
            .as_str()
            .or(decision["reason"]["kind"].as_str())
            .unwrap();
        let text = decision["move_text"].as_str().unwrap();
        assert!(!decision["reason_text"].as_str().unwrap().is_empty());
        // The move played is the one the bot chose, for the player's seat.
        let played = &body["played"];
        assert_eq!(played.as_array().unwrap().len(), 1, "{body}");
        assert_eq!(played[0]["move"], text);
        assert_eq!(played[0]["seat"], 1);
        // Played for the person's seat, and told as the bot's choice.
        assert_eq!(played[0]["bot"], true, "{body}");
        assert_eq!(
            played[0]["number"].as_u64().unwrap() as usize,
            moves.len() + 1
        );
        let event = &played[0]["events"][0];
        let view = &body["view"]["view"];
        match kind.as_str() {
            "shoot" => {
                let hole = &decision["move"]["hole"];
                assert_eq!(text, format!("shoot {hole}"));
                assert_eq!(event["hole"], *hole);
                assert!(event["exit"].is_u64(), "{body}");
                assert_eq!(
                    view["shots"].as_array().unwrap().last().unwrap()["hole"],
                    *hole
                );
                assert!(
                    ["exact_best_shot", "sampled_best_shot", "explore"].contains(&reason),
                    "a shot because {reason}"
                );
            }
            "guess" => {
                assert!(text.starts_with("guess "), "{text}");
                assert!(event["right"].is_boolean(), "{body}");
            }
            other => panic!("the bot made the move {other}"),
        }
        // Nothing names a mirror the player has not found.
        assert_eq!(
            view["missed"].is_null(),
            body["view"]["status"] == "playing"
        );
        moves.push(text.to_string());
        last = body["view"].clone();
    }
    // The bot's known result on the fixed game: 12 shots, no wrong guess.
    assert_eq!(last["status"], "won");
    assert_eq!(
        last["view"]["score"],
        json!({"shots": 12, "wrong_guesses": 0, "guess_points": 0, "total": 12}),
        "{moves:?}"
    );
    assert_eq!(last["view"]["found"].as_array().unwrap().len(), 5);
    assert_eq!(moves.len(), 17, "{moves:?}");
    // The record says a bot chose each move, and replays so.
    let record = app.get(&format!("/api/matches/{}/record", host.id)).await;
    let entries = record.ok()["moves"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 17);
    assert!(
        entries
            .iter()
            .all(|e| e.as_str().unwrap().ends_with(" (bot)")),
        "{entries:?}"
    );
    let step = app
        .get(&format!("/api/matches/{}/replay?at=1", host.id))
        .await;
    assert_eq!(step.ok()["played"]["bot"], true);
    let more = app
        .post_as(&host.token, &bot, json!({"after": moves.len()}))
        .await;
    assert_refused(&more, StatusCode::CONFLICT, "game_over", "over");
    let missing = app
        .post_as(
            &host.token,
            "/api/baffle/matches/nope/bot",
            json!({"after": 0}),
        )
        .await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no_match", "no game");
    let get = app.get(&bot).await;
    get.refused(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}

#[tokio::test]
async fn the_baffle_bot_moves_only_for_the_player_at_the_position_seen() {
    let app = App::new().await;
    let mut host = fixed_baffle(&app).await;
    let bot = format!("/api/baffle/matches/{}/bot", host.id);
    app.post(&bot, json!({"after": 0}))
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
    let other = fixed_baffle(&app).await;
    app.post_as(&other.token, &bot, json!({"after": 0}))
        .await
        .refused(StatusCode::FORBIDDEN, "bad_token");
    app.post_as(&host.token, &bot, json!({}))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_move");
    app.play(&mut host, json!("shoot 7")).await.ok();
    app.post_as(&host.token, &bot, json!({"after": 0}))
        .await
        .refused(StatusCode::CONFLICT, "stale_move");
    assert_eq!(app.look(&mut host).await["moves"], 1);
    // The bot is Baffle's: another game's match is refused.
    let chutes = app.start(json!({"game": "chutes"})).await;
    let answer = app
        .post_as(
            &chutes.token,
            &format!("/api/baffle/matches/{}/bot", chutes.id),
            json!({"after": 0}),
        )
        .await;
    assert_refused(&answer, StatusCode::BAD_REQUEST, "wrong_game", "not Baffle");
}

#[tokio::test]
async fn random_baffle_games_hide_their_seed_until_the_end() {
    let app = App::new().await;
    // A seed long enough that its digits (decimal or hex) cannot turn up
    // by chance in a random id, token or time.
    const SEED: u64 = 8_675_309_123_457;
    let made = app
        .post(
            "/api/matches",
            json!({"game": "baffle", "setup": {"sides": "left-top"}, "seed": SEED}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    for form in [SEED.to_string(), format!("{SEED:x}")] {
        assert!(
            !made.body.to_string().contains(&form),
            "the seed would give the layout away: {}",
            made.body
        );
    }
    let mut host = Seat::from_made(&made.body);
    assert_eq!(made.body["view"]["seed"], Value::Null);
    assert_eq!(
        made.body["view"]["view"]["shootable"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
    let setup = app.get(&format!("/api/matches/{}/setup", host.id)).await;
    assert_eq!(setup.ok()["origin"], "random");
    assert_eq!(setup.ok()["sides"], "left-top");
    let side = app.play(&mut host, json!("shoot 25")).await;
    assert_refused(
        &side,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        "left and top",
    );
    let hole = app
        .play(&mut host, json!({"move": "shoot", "hole": 40}))
        .await;
    assert_refused(
        &hole,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        "no hole 40",
    );
    let cell = app.play(&mut host, json!("guess 10 0 /")).await;
    assert_refused(
        &cell,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        "no cell",
    );
    let bad = app.play(&mut host, json!("guess 1 0 |")).await;
    assert_refused(&bad, StatusCode::BAD_REQUEST, "bad_move", "not a move");
    let bad = app
        .play(
            &mut host,
            json!({"move": "guess", "row": 1, "col": 0, "mirror": "|"}),
        )
        .await;
    bad.refused(StatusCode::BAD_REQUEST, "bad_move");
    assert_eq!(
        app.look(&mut host).await["moves"],
        0,
        "refusals play nothing"
    );

    let hint = app
        .post(&format!("/api/baffle/matches/{}/hint", host.id), json!({}))
        .await;
    let hint = hint.ok();
    assert!(
        hint["advice_text"].as_str().unwrap().contains("layouts"),
        "{hint}"
    );
    assert!(!hint.to_string().contains("seed"), "{hint}");

    let quit = app.play(&mut host, json!("quit")).await;
    let view = &quit.ok()["view"];
    assert_eq!(view["status"], "given_up");
    assert_eq!(view["view"]["status"], "quit");
    assert_eq!(view["seed"], SEED, "shown once it is over");
    // Every mirror shown once over: none was found.
    assert_eq!(view["view"]["found"], json!([]));
    let missed = view["view"]["missed"].as_array().unwrap();
    assert_eq!(missed.len(), 5);
    let hint = app
        .post(&format!("/api/baffle/matches/{}/hint", host.id), json!({}))
        .await;
    assert_refused(&hint, StatusCode::CONFLICT, "game_over", "over");
    // The same seed, setup and seat draw the same box.
    let mut again = app
        .start(json!({"game": "baffle", "setup": {"sides": "left-top"}, "seed": SEED}))
        .await;
    let quit_again = app.play(&mut again, json!("quit")).await;
    assert_eq!(quit_again.ok()["view"]["view"]["missed"], json!(missed));

    let missing = app
        .post_as(
            &host.token,
            &format!("/api/matches/{}/moves", "f".repeat(32)),
            json!({"move": "shoot 1", "after": 0}),
        )
        .await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no_match", "no game");
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

#[tokio::test]
async fn baffle_pictures_show_only_what_the_player_has_seen() {
    let app = App::new().await;
    let mut host = fixed_baffle(&app).await;
    let picture = format!("/api/matches/{}/svg", host.id);

    let first = svg_of(&app, &picture).await;
    assert_eq!(first.matches("class=\"cell\"").count(), 100);
    assert_eq!(first.matches("class=\"hole\"").count(), 40);
    assert!(first.contains(">Baffle: the original assignment's first game<"));
    let mut pictures = vec![first];
    for hole in [7, 5, 1] {
        app.play(&mut host, json!(format!("shoot {hole}")))
            .await
            .ok();
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
    app.play(&mut host, json!("guess 3 2 /")).await.ok();
    pictures.push(svg_of(&app, &picture).await);
    app.play(&mut host, json!("guess 0 9 \\")).await.ok();
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
    let hint = app
        .post(&format!("/api/baffle/matches/{}/hint", host.id), json!({}))
        .await;
    let hint = hint.ok();
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
        app.play(&mut host, json!(format!("guess {row} {col} {mirror}")))
            .await
            .ok();
    }
    let won = svg_of(&app, &picture).await;
    assert_eq!(won.matches("class=\"mirror found\"").count(), 5);
    assert_eq!(won.matches("class=\"beam\"").count(), 3);

    // A random game given up: its unfound mirrors in their own class; its
    // seed is in no picture while on.
    let mut random = app.start(json!({"game": "baffle", "seed": 42})).await;
    let picture = format!("/api/matches/{}/svg", random.id);
    let on = svg_of(&app, &picture).await;
    assert!(!on.contains("seed"), "{on}");
    assert!(
        on.contains(">Baffle: a 10 × 10 box with 5 mirrors<"),
        "{on}"
    );
    assert!(drawn_mirrors(&on).is_empty());
    app.play(&mut random, json!("quit")).await.ok();
    let quit = svg_of(&app, &picture).await;
    assert_eq!(quit.matches("class=\"mirror unfound\"").count(), 5);

    let missing = app
        .get(&format!("/api/matches/{}/svg", "d".repeat(32)))
        .await;
    assert_refused(&missing, StatusCode::NOT_FOUND, "no_match", "no game");
}

// Seeds.

#[tokio::test]
async fn seeds_a_page_cannot_read_exactly_are_refused() {
    let app = App::new().await;
    let biggest = (1u64 << 53) - 1;
    for request in [
        json!({"game": "chutes"}),
        json!({"game": "baffle"}),
        json!({"game": "tycoon", "seats": ["here", "here", "here", "here"]}),
    ] {
        let mut with_seed = request.clone();
        with_seed["seed"] = json!(biggest);
        let made = app.post("/api/matches", with_seed).await;
        assert_eq!(made.status, StatusCode::CREATED, "{request}: {}", made.body);
        for seed in [1u64 << 53, u64::MAX] {
            let mut with_seed = request.clone();
            with_seed["seed"] = json!(seed);
            let answer = app.post("/api/matches", with_seed).await;
            assert_refused(
                &answer,
                StatusCode::BAD_REQUEST,
                "bad_request",
                "below 2^53",
            );
        }
    }
}
