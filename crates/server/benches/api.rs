//! Request times through the whole router (no network): how long the pages
//! wait for the commonest answers. Run: `cargo bench -p server --bench api`.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tower::ServiceExt;

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> Value {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    assert!(
        response.status().is_success(),
        "{uri}: {}",
        response.status()
    );
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let median = times[times.len() / 2];
    let p90 = times[times.len() * 9 / 10];
    println!(
        "{what:<58} median {:>9.3} ms   p90 {:>9.3} ms   ({} runs)",
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
    let app = server::router(server::Config::new(dir.path()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let app = &app;
        time(
            "chutes: new 2-player classic game + play to the end",
            200,
            |i| async move {
                let g = call(
                    app,
                    "POST",
                    "/api/chutes/games",
                    Some(json!({"players": 2, "seed": i})),
                )
                .await;
                let id = g["id"].as_str().expect("an id").to_string();
                call(app, "POST", &format!("/api/chutes/games/{id}/finish"), None).await;
            },
        )
        .await;
        time("chutes: classic board SVG", 50, |_| async move {
            call(app, "GET", "/api/chutes/boards/classic/svg", None).await;
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
                )
                .await;
            },
        )
        .await;
        let fixed = call(
            app,
            "POST",
            "/api/baffle/games",
            Some(json!({"fixed": true})),
        )
        .await;
        let fixed_id = fixed["id"].as_str().expect("an id").to_string();
        let fixed_id = &fixed_id;
        time("baffle: a shot", 500, |i| async move {
            call(
                app,
                "POST",
                &format!("/api/baffle/games/{fixed_id}/shots"),
                Some(json!({"hole": i % 40})),
            )
            .await;
        })
        .await;
        time(
            "baffle: hint after 3 shots (new seeded game)",
            10,
            |i| async move {
                let g = call(app, "POST", "/api/baffle/games", Some(json!({"seed": i}))).await;
                let id = g["id"].as_str().expect("an id").to_string();
                for hole in [3, 14, 25] {
                    call(
                        app,
                        "POST",
                        &format!("/api/baffle/games/{id}/shots"),
                        Some(json!({"hole": hole})),
                    )
                    .await;
                }
                call(app, "POST", &format!("/api/baffle/games/{id}/hint"), None).await;
            },
        )
        .await;
        let sample = include_str!("../../tycoon/tests/data/sample.grid");
        time(
            "tycoon: new 4-bot game on the sample grid, played to the end",
            100,
            |i| async move {
                let g = call(
                    app,
                    "POST",
                    "/api/tycoon/games",
                    Some(json!({"text": sample, "seats": ["bot", "bot", "bot", "bot"], "seed": i})),
                )
                .await;
                let id = g["id"].as_str().expect("an id").to_string();
                call(app, "POST", &format!("/api/tycoon/games/{id}/bots"), None).await;
            },
        )
        .await;
        let d = call(
            app,
            "POST",
            "/api/tycoon/designs",
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
                    Some(json!({"edit": "ladder", "start": 20, "end": 42})),
                )
                .await;
                call(app, "POST", &edits, Some(json!({"edit": "undo"}))).await;
            },
        )
        .await;
    });
}
