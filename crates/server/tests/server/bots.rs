//! The bot runner when things go wrong: a store that refuses the bots'
//! moves for a while, a store that cannot even be read again, a bot whose
//! move its game refuses, a bot that panics. The runner must neither spin
//! nor give up on a match that can go on, and watchers must never be left
//! on a match that stopped being served.
//!
//! Faults are made in the real SQLite file beside the server: a trigger
//! that refuses the bots' moves (as a full disk would), a stored record
//! spoilt so that it no longer replays.

#![allow(clippy::unwrap_used)]

use crate::support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use games::protocol::{DiceKind, Fixed, Position, TableView, game_json};
use games::{AnyMatch, BotWork, GameJson, MoveInput, Played, Refusal, ReplayStep};
use http_body_util::BodyExt;
use serde_json::json;
use server::hub::SeatPlan;
use server::store::{Db, Durability, Location};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use support::App;
use tabletop::Code;
use tabletop::play::{SeatKind, Status, Viewer};
use tower::ServiceExt;

/// A second connection to the app's SQLite file, for making faults.
fn store_of(app: &App) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(app.dir.path().join("parlor.db")).unwrap();
    c.busy_timeout(Duration::from_secs(5)).unwrap();
    c
}

/// Refuses every move a bot makes, as a full disk would (reads still work).
const REFUSE_BOTS: &str = "CREATE TRIGGER refuse_bots BEFORE INSERT ON moves WHEN NEW.bot
    BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;";

/// The watchers' stream of match `id`, past its first event.
async fn watch(app: &App, id: &str) -> Body {
    let request = Request::builder()
        .uri(format!("/api/matches/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let (events, _) = read_for(&mut body, Duration::from_secs(5), 1).await;
    assert_eq!(events, 1, "the first event");
    body
}

/// Reads a stream for `time` (or until `enough` events): how many events
/// came, and whether the stream ended.
async fn read_for(body: &mut Body, time: Duration, enough: usize) -> (usize, bool) {
    let deadline = tokio::time::Instant::now() + time;
    let mut text = String::new();
    let mut events = 0;
    while events < enough {
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => break,
            Ok(None) => return (events, true),
            Ok(Some(frame)) => {
                if let Ok(data) = frame.unwrap().into_data() {
                    text.push_str(&String::from_utf8_lossy(&data));
                }
                while let Some(end) = text.find("\n\n") {
                    let block: String = text.drain(..end + 2).collect();
                    if block.contains("event: change") {
                        events += 1;
                    }
                }
            }
        }
    }
    (events, false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_refuses_the_bots_is_retried_slowly_until_it_takes_their_moves() {
    let app = App::new().await;
    let store = store_of(&app);
    store.execute_batch(REFUSE_BOTS).unwrap();
    let mut host = app
        .start(json!({"game": "chutes", "seats": ["here", "easy"]}))
        .await;
    let mut changes = watch(&app, &host.id).await;
    app.play(&mut host, json!("roll")).await.ok();
    // The person's move is told; the bot's is refused again and again,
    // but slowly: a failing store is not hammered.
    let (told, _) = read_for(&mut changes, Duration::from_secs(3), 1000).await;
    assert!(
        told <= 5,
        "the bot's move was tried {told} times in 3 s: the runner spins on a failing store"
    );
    let view = app.look(&mut host).await;
    assert_eq!(view["moves"], 1, "the bot's move is not stored: {view}");
    // Once the store takes moves again, the bot moves by itself.
    store.execute_batch("DROP TRIGGER refuse_bots").unwrap();
    let view = app
        .wait_for(&host.id, |v| v["moves"].as_u64() >= Some(2))
        .await;
    assert_eq!(view["log"][1]["seat"], 2, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_that_cannot_be_read_again_is_dropped_and_read_afresh_when_mended() {
    let app = App::new().await;
    let store = store_of(&app);
    let mut host = app
        .start(json!({"game": "chutes", "seats": ["here", "easy"]}))
        .await;
    let header: String = store
        .query_row(
            "SELECT header FROM matches WHERE id = ?1",
            [&host.id],
            |r| r.get(0),
        )
        .unwrap();
    // The bot's move is refused, and the record no longer replays: the
    // server cannot know where the match stands.
    store.execute_batch(REFUSE_BOTS).unwrap();
    store
        .execute("UPDATE matches SET header = '{}' WHERE id = ?1", [&host.id])
        .unwrap();
    let mut changes = watch(&app, &host.id).await;
    app.play(&mut host, json!("roll")).await.ok();
    // Its watchers are let go (their pages reconnect), rather than left
    // on a match nobody serves any more.
    let (_, ended) = read_for(&mut changes, Duration::from_secs(5), 1000).await;
    assert!(ended, "the watchers of a match that broke are kept waiting");
    // Mended, it is read afresh and the bot moves.
    store.execute_batch("DROP TRIGGER refuse_bots").unwrap();
    store
        .execute(
            "UPDATE matches SET header = ?2 WHERE id = ?1",
            [&host.id, &header],
        )
        .unwrap();
    app.look(&mut host).await;
    app.wait_for(&host.id, |v| v["moves"].as_u64() >= Some(2))
        .await;
}

/// A one-seat match whose bot always chooses a move the game refuses, or
/// panics while thinking: a bug in a game, which must cost a log line, not
/// a core.
struct Faulty {
    panics: bool,
    turns: Arc<AtomicUsize>,
}

impl AnyMatch for Faulty {
    fn game(&self) -> &'static str {
        "chutes"
    }
    fn game_title(&self) -> &'static str {
        "a faulty game"
    }
    fn moves(&self) -> usize {
        0
    }
    fn status(&self) -> Status {
        Status::Playing
    }
    fn to_move(&self) -> Option<u8> {
        Some(1)
    }
    fn seats(&self) -> Vec<SeatKind> {
        vec![SeatKind::Bot {
            level: tabletop::BotLevel::Easy,
        }]
    }
    fn dice_chosen(&self) -> bool {
        false
    }
    fn view(&self, _viewer: Viewer) -> Result<TableView, Refusal> {
        Ok(TableView {
            fixed: Fixed {
                game: "chutes",
                seats: self.seats(),
                dice: DiceKind::Seeded,
                names: self.names(),
                view_fixed: &[],
            },
            position: Position {
                status: Status::Playing,
                moves: 0,
                to_move: Some(1),
                you: None,
                seed: None,
                view: game_json(&json!({}))?,
                page: game_json(&())?,
            },
            log: Vec::new(),
        })
    }
    fn public_setup(&self) -> Result<GameJson, Refusal> {
        game_json(&())
    }
    fn title(&self) -> String {
        "a faulty game".into()
    }
    fn play(
        &mut self,
        _: u8,
        _: &MoveInput,
        _: Option<usize>,
        _: Option<u32>,
    ) -> Result<Played, Refusal> {
        Err(Refusal::new(Code::BadMove, "no"))
    }
    fn play_chosen_by_bot(
        &mut self,
        _: u8,
        _: &MoveInput,
        _: Option<usize>,
    ) -> Result<Played, Refusal> {
        Err(Refusal::new(Code::BadMove, "no"))
    }
    fn bot_turn(&self) -> Option<BotWork> {
        self.turns.fetch_add(1, Ordering::SeqCst);
        let panics = self.panics;
        Some(BotWork {
            moves: 0,
            choose: Box::new(move || {
                assert!(!panics, "a bot that panics (on purpose, for the test)");
                "dance".to_string()
            }),
        })
    }
    fn play_bot(&mut self, _: usize, _: &str) -> Result<Played, Refusal> {
        Err(Refusal::new(Code::IllegalMove, "the bot's move is refused"))
    }
    fn apply_entry(&mut self, _: &str) -> Result<Played, String> {
        Err("no".into())
    }
    fn header(&self) -> Result<String, Refusal> {
        Ok("{}".into())
    }
    fn record_once_over(&self) -> Result<GameJson, Refusal> {
        Err(Refusal::game_on())
    }
    fn replay_step(&self, _: usize, _: Viewer) -> Result<ReplayStep, Refusal> {
        Err(Refusal::new(Code::BadStep, "no moves"))
    }
    fn names(&self) -> Vec<String> {
        vec!["Easy bot".into()]
    }
    fn set_name(&mut self, _: u8, _: Option<&str>) -> Result<(), Refusal> {
        Err(Refusal::new(Code::NoSuchSeat, "a bot takes no name"))
    }
    fn outcome(&self, _: &[u8]) -> Option<games::Outcome> {
        None
    }
    fn rematch(&self, _: u64) -> Result<Box<dyn AnyMatch>, Refusal> {
        Err(Refusal::game_on())
    }
    fn picture(&self, _: Option<&str>, _: Option<usize>) -> Result<render::Picture, Refusal> {
        Err(Refusal::game_on())
    }
    fn copy(&self) -> Box<dyn AnyMatch> {
        Box::new(Self {
            panics: self.panics,
            turns: Arc::clone(&self.turns),
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_whose_move_is_refused_or_that_panics_is_not_run_again_and_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(
        &Location::default_for(dir.path()),
        Durability::Process,
        None,
    )
    .await
    .unwrap();
    let hub = server::hub::Hub::new(Arc::new(db), games::Registry::standard(), 10, 2);
    for panics in [false, true] {
        let turns = Arc::new(AtomicUsize::new(0));
        let table = Faulty {
            panics,
            turns: Arc::clone(&turns),
        };
        hub.create(
            Box::new(table),
            &[SeatPlan::Bot(tabletop::BotLevel::Easy)],
            &[None],
        )
        .await
        .unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
        let taken = turns.load(Ordering::SeqCst);
        assert!(
            taken <= 3,
            "a bot that {} was run {taken} times in a second",
            if panics {
                "panics"
            } else {
                "makes an illegal move"
            }
        );
    }
}
