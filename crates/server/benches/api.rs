//! Request times through the whole router (no network), on the default
//! store (SQLite in a temporary data directory): how long the pages wait
//! for the commonest answers. Every move is stored before it is answered,
//! so the move figures include the store's commit. Run: `cargo bench -p
//! server --bench api`.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// Sends a request (with a seat token, when given); returns the answer's
/// body, which must be a success.
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Value {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    assert!(
        status.is_success(),
        "{uri}: {status} {}",
        String::from_utf8_lossy(&bytes)
    );
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

/// A match made: its id and the maker's token.
async fn start(app: &Router, request: Value) -> (String, String) {
    let made = call(app, "POST", "/api/matches", None, Some(request)).await;
    (
        made["id"].as_str().expect("an id").to_string(),
        made["token"].as_str().expect("a token").to_string(),
    )
}

/// Plays `mv` in match `id` at move number `after`; returns the answer.
async fn play(app: &Router, id: &str, token: &str, after: usize, mv: Value) -> Value {
    call(
        app,
        "POST",
        &format!("/api/matches/{id}/moves"),
        Some(token),
        Some(json!({"move": mv, "after": after})),
    )
    .await
}

/// Watches match `id` (`GET …/events`) until it is over: the bots play on
/// the server, after the answer that made the match.
async fn until_over(app: &Router, id: &str) {
    let request = Request::builder()
        .uri(format!("/api/matches/{id}/events"))
        .body(Body::empty())
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    assert!(response.status().is_success(), "{}", response.status());
    let mut body = response.into_body();
    let mut text = String::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(60), body.frame())
            .await
            .expect("a change within a minute")
            .expect("the stream goes on")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                let change: Value = serde_json::from_str(data).expect("JSON data");
                if change["view"]["status"] != "playing" {
                    return;
                }
            }
        }
    }
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let median = times[times.len() / 2];
    let p90 = times[times.len() * 9 / 10];
    println!(
        "{what:<66} median {:>9.3} ms   p90 {:>9.3} ms   ({} runs)",
        median.as_secs_f64() * 1e3,
        p90.as_secs_f64() * 1e3,
        times.len()
    );
}

async fn time<F, Fut>(what: &str, runs: usize, mut f: F)
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut times = Vec::with_capacity(runs);
    for i in 0..runs {
        let start = Instant::now();
        f(i).await;
        times.push(start.elapsed());
    }
    report(what, &mut times);
}

fn main() {
    let dir = tempfile::tempdir().expect("a data dir");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let app = server::router(server::Config::new(dir.path()))
            .await
            .expect("the app starts");
        let app = &app;
        time(
            "chutes: new 2-player classic match + play to the end (stored)",
            200,
            |i| async move {
                let (id, token) = start(
                    app,
                    json!({"game": "chutes", "seats": ["here", "here"], "seed": i}),
                )
                .await;
                let done = call(
                    app,
                    "POST",
                    &format!("/api/matches/{id}/moves"),
                    Some(&token),
                    Some(json!({"move": "roll", "after": 0, "repeat": true})),
                )
                .await;
                assert_eq!(done["view"]["status"], "won");
            },
        )
        .await;
        time("chutes: classic board SVG", 50, |_| async move {
            call(app, "GET", "/api/chutes/boards/classic/svg", None, None).await;
        })
        .await;
        time(
            "chutes: classic analysis (Markov, 4 seats)",
            50,
            |_| async move {
                call(
                    app,
                    "GET",
                    "/api/chutes/boards/classic/analysis?players=4",
                    None,
                    None,
                )
                .await;
            },
        )
        .await;
        time(
            "chutes: classic shortest games, exactly 2 chutes",
            50,
            |_| async move {
                call(
                    app,
                    "GET",
                    "/api/chutes/boards/classic/shortest?chutes=2",
                    None,
                    None,
                )
                .await;
            },
        )
        .await;
        let (fixed, fixed_token) =
            start(app, json!({"game": "baffle", "setup": {"fixed": true}})).await;
        let (fixed, fixed_token) = (&fixed, &fixed_token);
        time("baffle: a shot (stored)", 500, |i| async move {
            play(
                app,
                fixed,
                fixed_token,
                i,
                json!(format!("shoot {}", i % 40)),
            )
            .await;
        })
        .await;
        time(
            "baffle: hint after 3 shots (new seeded match)",
            10,
            |i| async move {
                let (id, token) = start(app, json!({"game": "baffle", "seed": i})).await;
                for (after, hole) in [3, 14, 25].into_iter().enumerate() {
                    play(app, &id, &token, after, json!(format!("shoot {hole}"))).await;
                }
                call(
                    app,
                    "POST",
                    &format!("/api/baffle/matches/{id}/hint"),
                    None,
                    None,
                )
                .await;
            },
        )
        .await;
        let sample = include_str!("../../tycoon/tests/data/sample.grid");
        time(
            "tycoon: new 4-bot match on the sample grid, to the end (stored)",
            100,
            |i| async move {
                let (id, _) = start(
                    app,
                    json!({
                        "game": "tycoon",
                        "setup": {"text": sample},
                        "seats": ["normal", "normal", "normal", "normal"],
                        "seed": i,
                    }),
                )
                .await;
                until_over(app, &id).await;
            },
        )
        .await;
        let d = call(
            app,
            "POST",
            "/api/tycoon/designs",
            None,
            Some(json!({"text": sample})),
        )
        .await;
        let design = d["id"].as_str().expect("an id").to_string();
        let design = &design;
        time(
            "tycoon: a design edit (add, then undo)",
            200,
            |_| async move {
                let edits = format!("/api/tycoon/designs/{design}/edits");
                call(
                    app,
                    "POST",
                    &edits,
                    None,
                    Some(json!({"edit": "ladder", "start": 20, "end": 42})),
                )
                .await;
                call(app, "POST", &edits, None, Some(json!({"edit": "undo"}))).await;
            },
        )
        .await;
    });

    // A server that keeps one idle match in memory: each view of another
    // match reads it from the store and replays its record.
    let dir = tempfile::tempdir().expect("a data dir");
    runtime.block_on(async {
        let mut config = server::Config::new(dir.path());
        config.live_matches = 1;
        let app = server::router(config).await.expect("the app starts");
        let app = &app;
        let mut ids = Vec::new();
        for seed in 0..2 {
            let (id, token) = start(
                app,
                json!({"game": "chutes", "seats": ["here", "here"], "seed": seed}),
            )
            .await;
            call(
                app,
                "POST",
                &format!("/api/matches/{id}/moves"),
                Some(&token),
                Some(json!({"move": "roll", "after": 0, "repeat": true})),
            )
            .await;
            ids.push(id);
        }
        let ids = &ids;
        time(
            "chutes: a finished match's view, loaded and replayed from the store",
            200,
            |i| async move {
                call(
                    app,
                    "GET",
                    &format!("/api/matches/{}", ids[i % 2]),
                    None,
                    None,
                )
                .await;
            },
        )
        .await;
    });
}
