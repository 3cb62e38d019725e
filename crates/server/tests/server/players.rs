//! Playing together, through the router: players' names, the result said
//! to each player and to watchers, a rematch for the same players, and a
//! look back at earlier moves while a game is on.

use crate::support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{App, Seat};

/// Ada makes a two-seat Chutes match and Bo takes the open seat with its
/// invite: (Ada's seat, Bo's seat).
async fn ada_and_bo(app: &App) -> (Seat, Seat) {
    let ada = app
        .start(json!({"game": "chutes", "seats": [{"plan": "here", "name": " Ada "}, "open"]}))
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

/// Plays the match out, each player rolling in turn.
async fn play_out(app: &App, a: &mut Seat, b: &mut Seat) -> Value {
    for _ in 0..2000 {
        let view = app.look(a).await;
        if view["status"] != "playing" {
            return view;
        }
        let seat = if view["to_move"] == 1 {
            &mut *a
        } else {
            &mut *b
        };
        app.look(seat).await;
        app.play(seat, json!("roll")).await.ok();
    }
    panic!("the game did not end");
}

fn names(view: &Value) -> Vec<&str> {
    view["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["name"].as_str().expect("a name"))
        .collect()
}

#[tokio::test]
async fn players_go_by_the_names_they_chose() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    let view = app.look(&mut ada).await;
    assert_eq!(names(&view), ["Ada", "Bo"]);
    assert_eq!(view["names"], json!(["Ada", "Bo"]));
    // Markup is a name like any other: kept as text, for the pages to escape.
    let odd = app
        .start(json!({"game": "tycoon", "seats": [
            {"plan": "here", "name": "<script>x</script>"},
            {"plan": "here", "name": "\"Zoë\" & 'Bo'"},
            "hard", "easy"]}))
        .await;
    let view = app.get(&format!("/api/matches/{}", odd.id)).await;
    assert_eq!(
        names(view.ok()),
        [
            "<script>x</script>",
            "\"Zoë\" & 'Bo'",
            "Hard bot",
            "Easy bot"
        ]
    );
    // A Chutes bot has no level to name.
    let bots = app
        .start(json!({"game": "chutes", "seats": ["here", "bot", "bot"]}))
        .await;
    let view = app.get(&format!("/api/matches/{}", bots.id)).await;
    assert_eq!(names(view.ok()), ["Player 1", "Bot 2", "Bot 3"]);
    // The record keeps the names.
    play_out(&app, &mut ada, &mut bo).await;
    let record = app.get(&format!("/api/matches/{}/record", ada.id)).await;
    assert_eq!(record.ok()["names"], json!(["Ada", "Bo"]));
}

/// The names table: each class of name the one rule refuses or keeps, as
/// a player naming their seat beside "Ada" meets it.
const NAMES: &[(&str, &str, bool)] = &[
    ("a plain name", "Bo", true),
    ("another script", "盤面", true),
    ("markup, kept as text", "<b>Bo</b>", true),
    ("a name with 'bot' in it", "Robot", true),
    ("a lone Hangul filler", "\u{3164}", false),
    ("a half-width Hangul filler", "\u{FFA0}", false),
    ("Braille blanks", "\u{2800}\u{2800}", false),
    ("a tag character", "Bo\u{E0041}", false),
    ("the combining grapheme joiner", "B\u{034F}o", false),
    ("a variation selector", "Bo\u{FE0F}", false),
    ("a Mongolian variation selector", "Bo\u{180B}", false),
    ("a Khmer inherent vowel", "Bo\u{17B4}", false),
    ("a musical format character", "Bo\u{1D173}", false),
    ("a zero-width space", "B\u{200B}o", false),
    ("a right-to-left override", "Bo\u{202E}", false),
    ("a control character", "B\to", false),
    ("a no-break space", "B\u{00A0}o", false),
    ("too long", "abcdefghijklmnopqrstuvwxy", false),
    ("the bot's name", "Bot", false),
    ("a bot's numbered name", "Bot 2", false),
    ("a bot level's name", "Hard bot", false),
    ("an unnamed seat's name", "Player 2", false),
    (
        "an unnamed seat's name, spaced and cased",
        "player  1",
        false,
    ),
    ("a look-alike of the bot's name", "B0t", false),
    ("Cyrillic А beside Latin Ada", "\u{0410}da", false),
    ("Ada in capitals beside Ada", "ADA", false),
];

#[tokio::test]
async fn the_names_table_holds_for_a_seat_named_in_play() {
    let app = App::new().await;
    let ada = app
        .start(json!({"game": "chutes", "seats": [{"plan": "here", "name": "Ada"}, "here"]}))
        .await;
    let uri = format!("/api/matches/{}/name", ada.id);
    for &(what, name, kept) in NAMES {
        let named = app
            .post_as(&ada.token, &uri, json!({"seat": 2, "name": name}))
            .await;
        if kept {
            assert_eq!(named.status, StatusCode::OK, "{what}: {}", named.body);
        } else {
            named.refused(StatusCode::BAD_REQUEST, "bad_name");
        }
    }
    // The same rule when a match is made and a seat is joined.
    let twins = app
        .post(
            "/api/matches",
            json!({"game": "chutes", "seats": [
                {"plan": "here", "name": "Ada"}, {"plan": "here", "name": "\u{0410}da"}]}),
        )
        .await;
    let why = twins.refused(StatusCode::BAD_REQUEST, "bad_name");
    assert!(
        why.contains("seat 2") && why.contains("looks like"),
        "{why}"
    );
    let host = app
        .start(json!({"game": "chutes", "seats": [{"plan": "here", "name": "Ada"}, "open"]}))
        .await;
    let (seat, invite) = host.invites[0].clone();
    let join = format!("/api/matches/{}/join", host.id);
    for name in ["Bot", "\u{0410}da", "\u{3164}"] {
        app.post(&join, json!({"seat": seat, "invite": invite, "name": name}))
            .await
            .refused(StatusCode::BAD_REQUEST, "bad_name");
    }
    let view = app.get(&format!("/api/matches/{}", host.id)).await;
    assert_eq!(view.ok()["players"][1]["state"], "open");
}

#[tokio::test]
async fn refused_names_say_what_is_wrong_and_where() {
    let app = App::new().await;
    let make = |seats: Value| app.post("/api/matches", json!({"game": "chutes", "seats": seats}));
    let long = make(json!(["here", {"plan": "here", "name": "x".repeat(200)}])).await;
    assert_eq!(
        long.refused(StatusCode::BAD_REQUEST, "bad_name"),
        "seat 2: a name has at most 24 characters, not 200"
    );
    let turned = make(json!([{"plan": "here", "name": "Ada\u{202E}"}, "here"])).await;
    assert!(
        turned
            .refused(StatusCode::BAD_REQUEST, "bad_name")
            .contains("U+202E"),
        "{}",
        turned.body
    );
    let blank = make(json!([{"plan": "here", "name": "   "}, "here"])).await;
    blank.refused(StatusCode::BAD_REQUEST, "bad_name");
    let bot = make(json!(["here", {"plan": "hard", "name": "Robo"}])).await;
    assert_eq!(
        bot.refused(StatusCode::BAD_REQUEST, "bad_name"),
        "seat 2 is a bot's: a bot takes no name"
    );
    // A join with a bad name takes no seat.
    let ada = app
        .start(json!({"game": "chutes", "seats": ["here", "open"]}))
        .await;
    let (seat, invite) = ada.invites[0].clone();
    let join_uri = format!("/api/matches/{}/join", ada.id);
    let join = |name: Value| {
        app.post(
            &join_uri,
            json!({"seat": seat, "invite": invite, "name": name}),
        )
    };
    join(json!("\n"))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_name");
    let view = app.get(&format!("/api/matches/{}", ada.id)).await;
    assert_eq!(view.ok()["players"][1]["state"], "open");
    assert_eq!(join(json!("Cy")).await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_result_is_said_to_each_player_and_to_watchers() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    assert!(app.look(&mut ada).await.get("result").is_none());
    let end = play_out(&app, &mut ada, &mut bo).await;
    let winner = end["winner"].as_u64().unwrap();
    let (won, lost, winner_name) = if winner == 1 {
        (&mut ada, &mut bo, "Ada")
    } else {
        (&mut bo, &mut ada, "Bo")
    };
    let said = app.look(won).await["result"].clone();
    assert_eq!(said["words"], "You win");
    assert_eq!(said["you_won"], true);
    assert_eq!(said["winner"], winner);
    let said = app.look(lost).await["result"].clone();
    assert_eq!(said["words"], format!("You lost: {winner_name} wins"));
    assert_eq!(said["you_won"], false);
    let watched = app.get(&format!("/api/matches/{}", ada.id)).await;
    assert_eq!(
        watched.ok()["result"]["words"],
        format!("{winner_name} wins")
    );
    assert_eq!(watched.ok()["result"]["you_won"], Value::Null);
    // What each player is told, for a page that follows the watchers' stream.
    let loser = if winner == 1 { 2 } else { 1 };
    let by_seat = &watched.ok()["result"]["by_seat"];
    assert_eq!(
        by_seat[winner as usize - 1],
        json!({"words": "You win", "you_won": true})
    );
    assert_eq!(
        by_seat[loser - 1],
        json!({"words": format!("You lost: {winner_name} wins"), "you_won": false})
    );
}

#[tokio::test]
async fn a_rematch_seats_the_same_players_once_with_the_first_seat_moved_on() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    let rematch = format!("/api/matches/{}/rematch", ada.id);
    // Not while the game is on, and only for a player.
    app.post_as(&ada.token, &rematch, json!({}))
        .await
        .refused(StatusCode::CONFLICT, "game_on");
    play_out(&app, &mut ada, &mut bo).await;
    app.post(&rematch, json!({}))
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
    let made = app.post_as(&bo.token, &rematch, json!({})).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_string();
    assert_ne!(id, ada.id);
    assert_eq!(made.body["url"], format!("/chutes/m/{id}"));
    // Bo starts this time; each token holds its player's seat.
    let view = &made.body["view"];
    assert_eq!(names(view), ["Bo", "Ada"]);
    assert_eq!(view["moves"], 0);
    assert_eq!(view["you"], 1);
    assert_eq!(view["players"][0]["yours"], true);
    assert_eq!(made.body["invites"], json!([]));
    // Ada's second ask answers the same match, where her token holds seat 2.
    let again = app.post_as(&ada.token, &rematch, json!({})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body["id"], id.as_str());
    assert_eq!(again.body["view"]["players"][1]["yours"], true);
    assert_eq!(again.body["view"]["players"][0]["yours"], false);
    // The old match names its rematch, for everyone.
    let old = app.get(&format!("/api/matches/{}", ada.id)).await;
    assert_eq!(old.ok()["rematch"], id.as_str());
    // Nobody needs a new invite: both play on with the tokens they had.
    let mut bo2 = Seat {
        id: id.clone(),
        token: bo.token.clone(),
        after: 0,
        invites: Vec::new(),
    };
    let mut ada2 = Seat {
        id: id.clone(),
        token: ada.token.clone(),
        after: 0,
        invites: Vec::new(),
    };
    app.play(&mut ada2, json!("roll"))
        .await
        .refused(StatusCode::CONFLICT, "not_your_turn");
    let rolled = app.play(&mut bo2, json!("roll")).await;
    assert_eq!(rolled.status, StatusCode::OK, "{}", rolled.body);
    app.look(&mut ada2).await;
    let rolled = app.play(&mut ada2, json!("roll")).await;
    assert_eq!(rolled.status, StatusCode::OK, "{}", rolled.body);
}

/// A rematch asked for first by a player who is not the host: the seat
/// nobody took waits again, and its fresh invite goes to the host's own
/// first ask (it used to go to nobody).
#[tokio::test]
async fn the_host_gets_the_rematchs_fresh_invite_when_another_asked_first() {
    let app = App::new().await;
    // A board of two squares: the first roll finishes the game.
    let board = app
        .post(
            "/api/chutes/boards",
            json!({"text": "size = 2\nstart = 1\n"}),
        )
        .await;
    let board = board.ok()["id"].as_str().expect("an id").to_string();
    let ada = app
        .start(
            json!({"game": "chutes", "setup": {"board": board, "overshoot": "finish"},
            "seats": [{"plan": "here", "name": "Ada"}, "open", "open"]}),
        )
        .await;
    let (seat, invite) = ada.invites[0].clone();
    let joined = app
        .post(
            &format!("/api/matches/{}/join", ada.id),
            json!({"seat": seat, "invite": invite, "name": "Bo"}),
        )
        .await;
    let bo_token = joined.ok()["token"].as_str().expect("a token").to_string();
    let mut ada = ada;
    let mut bo = Seat {
        id: ada.id.clone(),
        token: bo_token,
        after: 0,
        invites: Vec::new(),
    };
    let end = play_out(&app, &mut ada, &mut bo).await;
    assert_ne!(end["status"], "playing", "{end}");
    let rematch = format!("/api/matches/{}/rematch", ada.id);
    let first = app.post_as(&bo.token, &rematch, json!({})).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    assert_eq!(first.body["invites"], json!([]), "not Bo's to give");
    let host = app.post_as(&ada.token, &rematch, json!({})).await;
    assert_eq!(host.status, StatusCode::OK, "{}", host.body);
    let invites = host.body["invites"].as_array().expect("invites");
    assert_eq!(invites.len(), 1, "{}", host.body);
    // Told once: a second ask does not replace the link already shared.
    let again = app.post_as(&ada.token, &rematch, json!({})).await;
    assert_eq!(again.body["invites"], json!([]));
}

#[tokio::test]
async fn a_rematch_keeps_its_link_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let (old, new) = {
        let app = App::with(|c| c.data_dir = data.clone()).await;
        let mut me = app
            .start(json!({"game": "baffle", "setup": {"size": 6, "mirrors": 3}, "seats": [{"plan": "here", "name": "Ada"}]}))
            .await;
        app.play(&mut me, json!("quit")).await.ok();
        let made = app
            .post_as(
                &me.token,
                &format!("/api/matches/{}/rematch", me.id),
                json!({}),
            )
            .await;
        (me, made.ok()["id"].as_str().unwrap().to_string())
    };
    let app = App::with(|c| c.data_dir = data.clone()).await;
    let again = app
        .post_as(
            &old.token,
            &format!("/api/matches/{}/rematch", old.id),
            json!({}),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body["id"], new.as_str());
    assert_eq!(names(&again.body["view"]), ["Ada"]);
    let old_view = app.get(&format!("/api/matches/{}", old.id)).await;
    assert_eq!(old_view.ok()["rematch"], new.as_str());
    assert_eq!(old_view.ok()["result"]["words"], "Ada gave up");
}

#[tokio::test]
async fn a_look_back_while_the_game_is_on_shows_what_the_player_saw_then() {
    let app = App::new().await;
    let mut me = app
        .start(json!({"game": "baffle", "setup": {"size": 8, "mirrors": 4}}))
        .await;
    app.play(&mut me, json!("shoot 3")).await.ok();
    let then = app.look(&mut me).await;
    app.play(&mut me, json!("shoot 9")).await.ok();
    let back = app
        .get_as(&me.token, &format!("/api/matches/{}/replay?at=1", me.id))
        .await;
    let back = back.ok();
    assert_eq!(back["at"], 1);
    assert_eq!(back["moves"], 2);
    assert_eq!(back["played"]["move"], "shoot 3");
    assert_eq!(back["view"]["view"], then["view"]);
    assert_eq!(back["view"]["view"]["shots"].as_array().unwrap().len(), 1);
    assert_eq!(
        back["view"]["view"]["missed"],
        Value::Null,
        "no mirror while on"
    );
    // A watcher may look back too, at what a watcher saw.
    let watched = app
        .get(&format!("/api/matches/{}/replay?at=2", me.id))
        .await;
    assert_eq!(watched.ok()["view"]["you"], Value::Null);
    app.get(&format!("/api/matches/{}/replay?at=3", me.id))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_step");
}

#[tokio::test]
async fn a_player_names_their_own_seat_while_the_game_is_on() {
    let app = App::new().await;
    let (mut ada, mut bo) = ada_and_bo(&app).await;
    let name = format!("/api/matches/{}/name", ada.id);
    let renamed = app
        .post_as(&bo.token, &name, json!({"seat": 2, "name": " Bea "}))
        .await;
    assert_eq!(names(renamed.ok()), ["Ada", "Bea"]);
    assert_eq!(names(&app.look(&mut ada).await), ["Ada", "Bea"]);
    app.post_as(&bo.token, &name, json!({"seat": 1, "name": "Eve"}))
        .await
        .refused(StatusCode::FORBIDDEN, "not_your_seat");
    app.post(&name, json!({"seat": 2, "name": "Eve"}))
        .await
        .refused(StatusCode::UNAUTHORIZED, "no_token");
    app.post_as(&bo.token, &name, json!({"seat": 2, "name": "\u{200B}"}))
        .await
        .refused(StatusCode::BAD_REQUEST, "bad_name");
    play_out(&app, &mut ada, &mut bo).await;
    app.post_as(&bo.token, &name, json!({"seat": 2, "name": "Late"}))
        .await
        .refused(StatusCode::CONFLICT, "game_over");
    let record = app.get(&format!("/api/matches/{}/record", ada.id)).await;
    assert_eq!(record.ok()["names"], json!(["Ada", "Bea"]));
}

#[tokio::test]
async fn a_tycoon_rematch_with_bots_puts_the_person_last_and_the_bots_play_on() {
    let app = App::new().await;
    let mut me = app
        .start(json!({"game": "tycoon", "setup": {"sample": true},
            "seats": [{"plan": "here", "name": "Ada"}, "easy", "normal", "hard"]}))
        .await;
    // Ada leaves her seat to a bot's pace: play until the game ends.
    for _ in 0..20_000 {
        let view = app.look(&mut me).await;
        if view["status"] != "playing" {
            break;
        }
        if view["to_move"] == 1 {
            let text = view["page"]["moves"][0]["text"]
                .as_str()
                .unwrap_or("roll")
                .to_string();
            app.play(&mut me, json!(text)).await;
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    }
    let made = app
        .post_as(
            &me.token,
            &format!("/api/matches/{}/rematch", me.id),
            json!({}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let view = &made.body["view"];
    assert_eq!(names(view), ["Easy bot", "Normal bot", "Hard bot", "Ada"]);
    assert_eq!(view["players"][3]["yours"], true);
    // The bots start, on the server, until Ada must answer.
    let id = made.body["id"].as_str().unwrap().to_string();
    app.wait_for(&id, |v| v["to_move"] == 4 || v["status"] != "playing")
        .await;
}

#[tokio::test]
async fn an_unplayed_match_says_it_expires_sooner_than_a_played_one() {
    let app = App::new().await;
    let mut me = app
        .start(json!({"game": "chutes", "seats": ["here", "bot"]}))
        .await;
    let before = app.look(&mut me).await;
    let hours = |v: &Value| {
        (v["expires_ms"].as_i64().unwrap() - v["updated_ms"].as_i64().unwrap()) / 3_600_000
    };
    assert_eq!(hours(&before), 6, "unplayed: kept 6 hours");
    app.play(&mut me, json!("roll")).await.ok();
    let after = app.look(&mut me).await;
    assert_eq!(hours(&after), 30 * 24, "played: kept 30 days");
}
