//! Fair share under abuse (issue 33): no client can lock the others out.
//! Several clients are simulated by their addresses (127.0.0.0/8 is all
//! loopback): through the router, each request carries the peer address
//! the accept loop would give it; over real TCP, each client binds its own
//! loopback address.
//!
//! Subjects: rates per address; unfinished matches per address and per
//! token, their expiry, and the lobby; who the client is behind a proxy;
//! what a full store says.

use crate::support;

use axum::http::{StatusCode, header};
use serde_json::{Value, json};
use std::net::IpAddr;
use support::{Answer, App, client};

/// A Chutes match for two at one screen, or with a seat for anyone.
fn chutes(seats: &[&str]) -> Value {
    json!({"game": "chutes", "seats": seats})
}

async fn make(app: &App, from: IpAddr, token: Option<&str>, seats: &[&str]) -> Answer {
    app.send_from(
        from,
        "POST",
        "/api/matches",
        token,
        &[],
        Some(&chutes(seats)),
    )
    .await
}

/// The `Retry-After` of an answer, in seconds.
#[track_caller]
fn retry_after(answer: &Answer) -> u64 {
    answer
        .headers
        .get(header::RETRY_AFTER)
        .unwrap_or_else(|| panic!("no Retry-After: {}", answer.body))
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds")
}

mod rates {
    use super::*;

    #[tokio::test]
    async fn a_flood_of_new_matches_is_refused_429_and_others_still_play() {
        let app = App::with(|c| {
            c.rate_limit = 5;
            c.matches_per_client = 0;
        })
        .await;
        let attacker = client(2);
        let mut refused = 0;
        for _ in 0..50 {
            let made = make(&app, attacker, None, &["here", "here"]).await;
            if made.status == StatusCode::TOO_MANY_REQUESTS {
                let why = made.refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
                assert!(why.contains("5 a minute"), "{why}");
                let wait = retry_after(&made);
                assert!((1..=12).contains(&wait), "one more every 12 s: {wait}");
                refused += 1;
            } else {
                assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
            }
        }
        assert_eq!(refused, 45, "a burst of 5, then none");
        // Someone else still makes a match, and plays in it.
        let made = make(&app, client(3), None, &["here", "here"]).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        let mut seat = support::Seat::from_made(&made.body);
        app.play(&mut seat, json!("roll")).await.ok();
        // Everyday requests have their own, higher rate: the attacker
        // still reads the lobby.
        let theirs = app
            .send_from(attacker, "GET", "/api/lobby", None, &[], None)
            .await;
        theirs.ok();
    }

    #[tokio::test]
    async fn long_work_and_uploads_are_limited_per_address_too() {
        let app = App::with(|c| c.rate_limit = 2).await;
        let analysis = "/api/chutes/boards/classic/min-throws";
        for _ in 0..2 {
            app.send_from(client(2), "GET", analysis, None, &[], None)
                .await
                .ok();
        }
        let refused = app
            .send_from(client(2), "GET", analysis, None, &[], None)
            .await;
        refused.refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        retry_after(&refused);
        // Asking does not use up making, nor one address another's.
        app.send_from(client(3), "GET", analysis, None, &[], None)
            .await
            .ok();
        let design = json!({});
        for _ in 0..2 {
            app.send_from(
                client(2),
                "POST",
                "/api/tycoon/designs",
                None,
                &[],
                Some(&design),
            )
            .await
            .ok();
        }
        app.send_from(
            client(2),
            "POST",
            "/api/tycoon/designs",
            None,
            &[],
            Some(&design),
        )
        .await
        .refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        // Reading is limited far above the rate.
        for _ in 0..10 {
            app.send_from(client(2), "GET", "/api/lobby", None, &[], None)
                .await
                .ok();
        }
    }
}

/// The router's routes, read from its debug form (axum has no other way
/// to list them): `(methods, path)` for each, the methods as its `Allow`
/// header says them. Panics when it finds none, so that a change in
/// axum's debug form fails here rather than pass with nothing checked.
fn routes_of(router: &axum::Router) -> Vec<(Vec<String>, String)> {
    let text = format!("{router:?}");
    // Only the routes proper; the fallbacks come after.
    let text = text.split("fallback_router").next().expect("some text");
    let (routes, paths) = text
        .split_once("node: Node { paths: {")
        .expect("axum's debug form lists the paths");
    let mut path_of = std::collections::HashMap::new();
    for entry in paths.split("RouteId(").skip(1) {
        let (id, rest) = entry.split_once("): \"").expect("RouteId(n): \"path\"");
        let path = rest.split('"').next().expect("a quoted path");
        path_of.insert(id.to_string(), path.to_string());
    }
    let mut out = Vec::new();
    for entry in routes.split("RouteId(").skip(1) {
        let (id, rest) = entry.split_once(')').expect("RouteId(n)");
        let Some(path) = path_of.get(id) else {
            continue;
        };
        let methods: Vec<String> = rest
            .split_once("allow_header: Bytes(b\"")
            .map(|(_, allow)| allow.split('"').next().unwrap_or_default())
            .unwrap_or_default()
            .split(',')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect();
        out.push((methods, path.clone()));
    }
    assert!(
        out.iter().filter(|(m, _)| !m.is_empty()).count() > 20,
        "the router's routes could not be read from axum's debug form: {out:?}"
    );
    out
}

mod every_route {
    use super::*;
    use axum::http::Method;
    use server::http::fair;

    #[tokio::test]
    async fn every_api_route_that_does_work_is_rate_limited_by_its_real_path() {
        let app = App::new().await;
        let routes = routes_of(&app.router);
        let mut unlimited = Vec::new();
        let mut seen = Vec::new();
        for (methods, path) in &routes {
            if path.contains("__private__") {
                continue;
            }
            let api = path.starts_with("/api/") && path != "/api/";
            if methods.is_empty() && path != "/api/" {
                // Any method (only `/api/`, a plain 404, may be so).
                unlimited.push(format!("any method {path}"));
            }
            for method in methods {
                let method: Method = method.parse().expect("a method");
                if api {
                    match fair::listed_kind(&method, path) {
                        Some(_) => seen.push((method.to_string(), path.clone())),
                        None => unlimited.push(format!("{method} {path}")),
                    }
                } else if !(method == Method::GET || method == Method::HEAD) && path != "/api/" {
                    // Outside the API: the pages, their embedded assets and
                    // the health checks, read only.
                    unlimited.push(format!("{method} {path} (outside the API)"));
                }
            }
        }
        assert!(
            unlimited.is_empty(),
            "routes with no rate in http/fair.rs's table: {unlimited:#?}"
        );
        // And the table names no route the router does not have (as it
        // once named `/api/matches/{id}/hint` for Baffle's hints).
        for (method, path, _) in fair::ROUTES {
            let method = if *method == "GET" { "GET" } else { method };
            assert!(
                seen.iter().any(|(m, p)| m == method && p == path),
                "http/fair.rs lists {method} {path}, which the router does not have"
            );
        }
    }

    #[tokio::test]
    async fn baffle_hints_and_bot_moves_are_limited_per_address() {
        let app = App::with(|c| c.rate_limit = 2).await;
        let made = app
            .send_from(
                client(2),
                "POST",
                "/api/matches",
                None,
                &[],
                Some(&json!({"game": "baffle", "setup": {"fixed": true}})),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        let id = made.body["id"].as_str().expect("an id").to_string();
        let hint = format!("/api/baffle/matches/{id}/hint");
        for _ in 0..2 {
            let asked = app
                .send_from(client(2), "POST", &hint, None, &[], Some(&json!({})))
                .await;
            assert_ne!(
                asked.status,
                StatusCode::TOO_MANY_REQUESTS,
                "{}",
                asked.body
            );
        }
        let refused = app
            .send_from(client(2), "POST", &hint, None, &[], Some(&json!({})))
            .await;
        refused.refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        retry_after(&refused);
        let bot = format!("/api/baffle/matches/{id}/bot");
        app.send_from(client(2), "POST", &bot, None, &[], Some(&json!({})))
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        // Another address still asks.
        let other = app
            .send_from(client(3), "POST", &hint, None, &[], Some(&json!({})))
            .await;
        assert_ne!(
            other.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            other.body
        );
    }

    #[tokio::test]
    async fn moves_and_reads_are_limited_at_many_times_the_rate() {
        let app = App::with(|c| c.rate_limit = 1).await;
        let most = fair::EVERYDAY_TIMES;
        for _ in 0..most {
            app.send_from(client(2), "GET", "/api/games", None, &[], None)
                .await
                .ok();
        }
        // The bucket refills one request in 60 / most seconds: on a slow
        // machine one or two more may pass, never a burst.
        let mut refused = None;
        for _ in 0..10 {
            let answer = app
                .send_from(client(2), "GET", "/api/lobby", None, &[], None)
                .await;
            if answer.status == StatusCode::TOO_MANY_REQUESTS {
                refused = Some(answer);
                break;
            }
        }
        let refused = refused.expect("another route from the same address is refused");
        let why = refused.refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        assert!(why.contains(&format!("at most {most} a minute")), "{why}");
        app.send_from(client(3), "GET", "/api/lobby", None, &[], None)
            .await
            .ok();
    }
}

mod proxies {
    use super::*;

    const PROXY: u8 = 9;

    async fn through(app: &App, peer: IpAddr, forwarded: &str) -> Answer {
        app.send_from(
            peer,
            "POST",
            "/api/matches",
            None,
            &[("x-forwarded-for", forwarded)],
            Some(&chutes(&["here", "here"])),
        )
        .await
    }

    #[tokio::test]
    async fn a_forwarded_header_from_anyone_else_changes_nothing() {
        let app = App::with(|c| c.rate_limit = 2).await;
        for n in 0..2 {
            through(&app, client(2), &format!("198.51.100.{n}"))
                .await
                .ok();
        }
        through(&app, client(2), "198.51.100.7")
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    }

    #[tokio::test]
    async fn behind_a_trusted_proxy_each_forwarded_client_counts_apart() {
        let app = App::with(|c| {
            c.rate_limit = 2;
            c.trusted_proxies = vec![client(PROXY)];
        })
        .await;
        for _ in 0..2 {
            through(&app, client(PROXY), "198.51.100.1").await.ok();
        }
        through(&app, client(PROXY), "198.51.100.1")
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        // Another client behind the same proxy is not held back; nor is one
        // that wrote a false address to the left of its own.
        through(&app, client(PROXY), "198.51.100.2").await.ok();
        through(&app, client(PROXY), "198.51.100.1, 198.51.100.3")
            .await
            .ok();
        through(&app, client(PROXY), "198.51.100.2, 198.51.100.1")
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    }
}

mod quotas {
    use super::*;

    #[tokio::test]
    async fn a_rematch_is_made_by_its_asker_and_counts_against_their_quota() {
        rematches_count(
            App::with(|c| {
                c.rate_limit = 0;
                c.matches_per_client = 1;
            })
            .await,
        )
        .await;
    }

    #[tokio::test]
    async fn a_rematch_counts_against_its_asker_on_postgres_too() {
        let url = testkit::fresh_postgres().await;
        rematches_count(
            App::with(|c| {
                c.database = Some(server::store::Location::Postgres(url));
                c.rate_limit = 0;
                c.matches_per_client = 1;
            })
            .await,
        )
        .await;
    }

    /// With one unfinished match per creator: a rematch is refused the
    /// address and the token that hold one.
    async fn rematches_count(app: App) {
        let baffle = json!({"game": "baffle", "setup": {"fixed": true}});
        let made = app
            .send_from(client(2), "POST", "/api/matches", None, &[], Some(&baffle))
            .await;
        let mut first = support::Seat::from_made(&made.body);
        app.play(&mut first, json!("quit")).await.ok();
        // The address's one unfinished match.
        app.send_from(client(2), "POST", "/api/matches", None, &[], Some(&baffle))
            .await
            .ok();
        let rematch = format!("/api/matches/{}/rematch", first.id);
        let refused = app
            .send_from(client(2), "POST", &rematch, Some(&first.token), &[], None)
            .await;
        let why = refused.refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        assert!(why.contains("address"), "{why}");
        // From another address the same token still counts: it made the
        // first match, which is over, so it holds none unfinished.
        let made = app
            .send_from(client(3), "POST", &rematch, Some(&first.token), &[], None)
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        // And now that token holds its one: a rematch of another finished
        // match of its is refused by token.
        let again = app
            .send_from(
                client(4),
                "POST",
                "/api/matches",
                Some(&first.token),
                &[],
                Some(&baffle),
            )
            .await;
        let why = again.refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        assert!(why.contains("token"), "{why}");
    }

    #[tokio::test]
    async fn one_address_holds_at_most_its_quota_of_unfinished_matches() {
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.matches_per_client = 3;
        })
        .await;
        for _ in 0..3 {
            make(&app, client(2), None, &["here", "open"]).await.ok();
        }
        let refused = make(&app, client(2), None, &["here", "open"]).await;
        let why = refused.refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        assert!(
            why.contains("3 unfinished games") && why.contains("address"),
            "{why}"
        );
        assert!(why.contains("6 h"), "says when unplayed games end: {why}");
        let wait = retry_after(&refused);
        assert!(
            (5 * 3600..=6 * 3600).contains(&wait),
            "the first unplayed one expires in 6 h: {wait}"
        );
        // Another address is not held back.
        make(&app, client(3), None, &["here", "open"]).await.ok();
        // A finished match no longer counts.
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.matches_per_client = 1;
        })
        .await;
        let made = make(&app, client(2), None, &["here", "here"]).await;
        let mut seat = support::Seat::from_made(made.ok());
        make(&app, client(2), None, &["here"])
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        for _ in 0..2000 {
            let moved = app
                .post_as(
                    &seat.token,
                    &format!("/api/matches/{}/moves", seat.id),
                    json!({"move": "roll", "after": seat.after, "repeat": true}),
                )
                .await;
            let view = moved.ok()["view"].clone();
            seat.after = view["moves"].as_u64().unwrap() as usize;
            if view["status"] != "playing" {
                break;
            }
        }
        make(&app, client(2), None, &["here", "here"]).await.ok();
    }

    #[tokio::test]
    async fn the_quotas_hold_on_postgres_too() {
        let url = testkit::fresh_postgres().await;
        let app = App::with(|c| {
            c.database = Some(server::store::Location::Postgres(url));
            c.rate_limit = 0;
            c.matches_per_client = 2;
        })
        .await;
        let first = make(&app, client(2), None, &["here", "anyone"]).await;
        let token = first.ok()["token"].as_str().unwrap().to_string();
        make(&app, client(2), Some(&token), &["here", "anyone"])
            .await
            .ok();
        let refused = make(&app, client(2), None, &["here", "anyone"]).await;
        let why = refused.refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        assert!(why.contains("address"), "{why}");
        let wait = retry_after(&refused);
        assert!((5 * 3600..=6 * 3600).contains(&wait), "{wait}");
        make(&app, client(3), Some(&token), &["here", "anyone"])
            .await
            .ok();
        make(&app, client(4), Some(&token), &["here", "anyone"])
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        for _ in 0..3 {
            make(&app, client(5), None, &["here", "anyone"]).await;
        }
        let lobby = app.get("/api/lobby").await;
        let listed = lobby.ok()["matches"].as_array().unwrap().len();
        assert_eq!(listed, 5, "2 of 127.0.0.2, 1 of .3, 2 of .5 (its quota)");
    }

    #[tokio::test]
    async fn one_token_holds_at_most_its_quota_from_any_address() {
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.matches_per_client = 2;
        })
        .await;
        let first = make(&app, client(2), None, &["here", "here"]).await;
        let token = first.ok()["token"].as_str().unwrap().to_string();
        for n in 3..5 {
            make(&app, client(n), Some(&token), &["here", "here"])
                .await
                .ok();
        }
        let refused = make(&app, client(5), Some(&token), &["here", "here"]).await;
        let why = refused.refused(StatusCode::TOO_MANY_REQUESTS, "match_quota");
        assert!(why.contains("token"), "{why}");
    }

    #[tokio::test]
    async fn the_lobby_lists_at_most_three_matches_of_one_creator() {
        let app = App::with(|c| c.rate_limit = 0).await;
        for _ in 0..6 {
            make(&app, client(2), None, &["here", "anyone"]).await.ok();
        }
        let other = make(&app, client(3), None, &["here", "anyone"]).await;
        let other = other.ok()["id"].as_str().unwrap().to_string();
        let lobby = app.get("/api/lobby").await;
        let listed = lobby.ok()["matches"].as_array().unwrap().clone();
        assert_eq!(listed.len(), 4, "{listed:?}");
        assert!(listed.iter().any(|m| m["id"] == other.as_str()));
    }
}

mod expiry {
    use server::store::{Creator, Db, Durability, Location, NewMatch, NewMove, SeatRow, TokenRow};

    fn new_match(id: &str, at_ms: i64) -> NewMatch {
        NewMatch {
            id: id.to_string(),
            game: "chutes".into(),
            header: "{}".into(),
            title: "a match".into(),
            seats: vec![SeatRow {
                seat: 2,
                invite: Some("digest".into()),
                taken: false,
                name: None,
            }],
            tokens: vec![TokenRow {
                hash: format!("{id}-host"),
                seats: 1,
                host: true,
            }],
            seat_count: 2,
            status: "playing".into(),
            over: false,
            at_ms,
        }
    }

    fn a_move(id: &str, bot: bool, at_ms: i64) -> NewMove {
        NewMove {
            match_id: id.to_string(),
            number: 1,
            entry: "roll @3".into(),
            seat: 1,
            bot,
            status: "playing".into(),
            over: false,
            at_ms,
        }
    }

    #[tokio::test]
    async fn matches_nobody_played_in_expire_first_and_played_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(
            &Location::Sqlite(dir.path().join("parlor.db")),
            Durability::default(),
            None,
        )
        .await
        .unwrap();
        let id = |n: u8| format!("{n:032x}");
        for n in 1..=4 {
            db.create_for(new_match(&id(n), 1_000), Creator::default())
                .await
                .unwrap();
        }
        // 2: a person moved; 3: only a bot moved; 4: someone joined.
        db.append(a_move(&id(2), false, 1_000)).await.unwrap();
        db.append(a_move(&id(3), true, 1_000)).await.unwrap();
        assert!(
            db.claim(&id(4), 2, Some("digest"), "joiner", None)
                .await
                .unwrap()
        );
        // Unplayed for longer than kept (but not 30 days): 1 and 3 go.
        let gone = db.expire(0, 5_000).await.unwrap();
        assert_eq!(gone, 2);
        assert!(db.load(&id(1)).await.unwrap().is_none());
        assert!(db.load(&id(3)).await.unwrap().is_none());
        assert!(db.load(&id(2)).await.unwrap().is_some());
        // Claimed at the real time now: not before that.
        assert!(db.load(&id(4)).await.unwrap().is_some());
        // Past the 30 days, the played ones go too.
        assert_eq!(db.expire(i64::MAX, 0).await.unwrap(), 2);
    }
}

mod capacity {
    use axum::http::StatusCode;
    use server::http::error::ApiError;
    use server::store::DbError;

    #[test]
    fn a_full_store_says_how_long_it_may_last() {
        let refused = ApiError::from(DbError::AtCapacity { retry_after: 7_000 });
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.code, "store_at_capacity");
        assert_eq!(refused.retry_after, Some(7_000));
        assert!(
            refused.message.contains("expires in 2 h") && !refused.message.contains("moment"),
            "{}",
            refused.message
        );
    }
}

mod over_tcp {
    use std::io::{Read, Write};
    use std::net::SocketAddr;

    /// Sends one request from the loopback address `from` and reads the
    /// whole answer.
    fn post_from(addr: SocketAddr, from: [u8; 4], path: &str, body: &str) -> String {
        let mut stream = Bound(SocketAddr::from((from, 0))).connect(addr);
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("the request sent");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("the answer");
        answer
    }

    /// A client socket bound to a loopback address of its own.
    struct Bound(std::net::SocketAddr);

    impl Bound {
        fn connect(&self, to: SocketAddr) -> std::net::TcpStream {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            let stream = runtime.block_on(async {
                let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
                socket.bind(self.0).expect("a loopback address of its own");
                socket.connect(to).await.expect("a connection")
            });
            let stream = stream.into_std().expect("a std stream");
            stream.set_nonblocking(false).expect("blocking");
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(20)))
                .expect("a read timeout");
            stream
        }
    }

    #[test]
    fn each_loopback_address_is_a_client_of_its_own() {
        let (addr, stop_tx, thread, _dir) = crate::support::serve_over_tcp(|c| c.rate_limit = 2);
        let body = r#"{"game": "chutes", "seats": ["here", "here"]}"#;
        for _ in 0..2 {
            let answer = post_from(addr, [127, 0, 0, 2], "/api/matches", body);
            assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
        }
        let refused = post_from(addr, [127, 0, 0, 2], "/api/matches", body);
        assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
        assert!(
            refused.to_ascii_lowercase().contains("retry-after:"),
            "{refused}"
        );
        let other = post_from(addr, [127, 0, 0, 3], "/api/matches", body);
        assert!(other.starts_with("HTTP/1.1 201"), "{other}");
        let _ = stop_tx.send(());
        thread.join().unwrap();
    }
}

mod streams {
    use super::*;
    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::Duration;
    use tower::ServiceExt;

    /// A live stream through the router from `from`: its answer, its body
    /// kept open while the answer lives.
    async fn watch_from(app: &App, from: IpAddr, id: &str) -> axum::response::Response {
        let request = Request::builder()
            .uri(format!("/api/matches/{id}/events"))
            .extension(ConnectInfo(SocketAddr::new(from, 40_000)))
            .body(Body::empty())
            .expect("a request");
        app.router
            .clone()
            .oneshot(request)
            .await
            .expect("an answer")
    }

    #[tokio::test]
    async fn one_address_watches_at_most_its_streams_and_others_still_can() {
        let app = App::with(|c| c.streams_per_client = 2).await;
        let seat = app.start(chutes(&["here", "here"])).await;
        let first = watch_from(&app, client(2), &seat.id).await;
        let second = watch_from(&app, client(2), &seat.id).await;
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(second.status(), StatusCode::OK);
        let refused = watch_from(&app, client(2), &seat.id).await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            refused
                .headers()
                .get(header::RETRY_AFTER)
                .map(|v| v.as_bytes()),
            Some(&b"5"[..])
        );
        let body = refused
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        let body: Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(body["error"]["code"], "too_many_streams", "{body}");
        let other = watch_from(&app, client(3), &seat.id).await;
        assert_eq!(other.status(), StatusCode::OK);
        // A stream that ends gives its place back.
        drop(first);
        let again = watch_from(&app, client(2), &seat.id).await;
        assert_eq!(again.status(), StatusCode::OK);
    }

    /// A connection from the loopback address 127.0.0.`n`.
    fn connect_from(n: u8, to: SocketAddr) -> TcpStream {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let stream = runtime.block_on(async {
            let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
            socket
                .bind(SocketAddr::from(([127, 0, 0, n], 0)))
                .expect("a loopback address of its own");
            socket.connect(to).await.expect("a connection")
        });
        let stream = stream.into_std().expect("a std stream");
        stream.set_nonblocking(false).expect("blocking");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("a read timeout");
        stream
    }

    /// Opens a live stream of match `id` from 127.0.0.`n` and reads up to
    /// its first event's id; the reader to read more.
    fn watcher(n: u8, addr: SocketAddr, id: &str) -> BufReader<TcpStream> {
        let mut stream = connect_from(n, addr);
        write!(
            stream,
            "GET /api/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\r\n"
        )
        .expect("the request sent");
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).expect("a status");
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        next_event_id(&mut reader).expect("the first event");
        reader
    }

    /// Reads a stream up to its next event's `id:` line; `None` when the
    /// stream ends (or says nothing for 20 s).
    fn next_event_id(reader: &mut BufReader<TcpStream>) -> Option<String> {
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            if let Some(id) = line.trim().strip_prefix("id:") {
                return Some(id.trim().to_string());
            }
        }
    }

    /// One keep-alive request from 127.0.0.`n`: the answer's head, and the
    /// connection left open (idle) when the server keeps it.
    fn keep_alive_get(n: u8, addr: SocketAddr, path: &str) -> (String, TcpStream) {
        let mut stream = connect_from(n, addr);
        // A refused newcomer may be answered before it has sent anything.
        let _ = write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match stream.read(&mut byte) {
                Ok(1) => head.push(byte[0]),
                _ => break,
            }
        }
        (String::from_utf8_lossy(&head).into_owned(), stream)
    }

    /// Issue 33's eviction flood, small: 8 watchers from 8 addresses, then
    /// 40 keep-alive connections from 20 other addresses on a server of 16
    /// connections. Before, the newcomers closed the watchers' streams
    /// (each counted as idle); now every watcher sees the next move, and
    /// every newcomer is answered: served, or refused with a 503.
    #[test]
    fn keep_alive_newcomers_never_close_live_streams() {
        let (addr, stop, thread, _dir) = support::serve_over_tcp(|c| c.max_connections = 16);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let made = keep_alive_get(2, addr, "/api/lobby");
        assert!(made.0.starts_with("HTTP/1.1 200"), "{}", made.0);
        drop(made);
        let (id, token) = make_over_tcp(2, addr);
        let mut watchers: Vec<_> = (10..18).map(|n| watcher(n, addr, &id)).collect();
        let mut served = 0;
        let mut refused = 0;
        let mut held = Vec::new();
        for i in 0..40u8 {
            let (head, stream) = keep_alive_get(30 + i % 20, addr, "/api/lobby");
            if head.starts_with("HTTP/1.1 200") {
                served += 1;
                held.push(stream);
            } else {
                assert!(head.starts_with("HTTP/1.1 503"), "answered: {head:?}");
                assert!(
                    head.to_ascii_lowercase().contains("retry-after: 1"),
                    "{head}"
                );
                refused += 1;
            }
        }
        assert_eq!(served + refused, 40);
        assert!(
            served > 0,
            "the idle keep-alive ones make room for newcomers"
        );
        // A move, from yet another address: every watcher sees it.
        let moved = first_roll_over_tcp(3, addr, &id, &token);
        assert!(moved.starts_with("HTTP/1.1 200"), "{moved}");
        for (n, reader) in watchers.iter_mut().enumerate() {
            assert_eq!(
                next_event_id(reader).as_deref(),
                Some("1"),
                "watcher {n} saw the move"
            );
        }
        drop(runtime);
        let _ = stop.send(());
        drop(watchers);
        thread.join().expect("the server stops");
    }

    /// Makes a Chutes match for two at one screen over TCP from
    /// 127.0.0.`n`: its id and token.
    fn make_over_tcp(n: u8, addr: SocketAddr) -> (String, String) {
        let body = r#"{"game": "chutes", "seats": ["here", "here"]}"#;
        let mut maker = connect_from(n, addr);
        write!(
            maker,
            "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("sent");
        let mut answer = String::new();
        maker.read_to_string(&mut answer).expect("an answer");
        let json = &answer[answer.find("\r\n\r\n").expect("a body") + 4..];
        let made: Value = serde_json::from_str(json).expect("JSON");
        (
            made["id"].as_str().expect("an id").to_string(),
            made["token"].as_str().expect("a token").to_string(),
        )
    }

    /// The first roll of match `id`, sent over TCP from 127.0.0.`n` with
    /// `token`: the whole answer, as sent.
    fn first_roll_over_tcp(n: u8, addr: SocketAddr, id: &str, token: &str) -> String {
        let body = json!({"move": "roll", "after": 0}).to_string();
        let mut mover = connect_from(n, addr);
        write!(
            mover,
            "POST /api/matches/{id}/moves HTTP/1.1\r\nHost: {addr}\r\n\
             Content-Type: application/json\r\nAuthorization: Bearer {token}\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("sent");
        let mut answer = String::new();
        mover.read_to_string(&mut answer).expect("an answer");
        answer
    }

    /// Issue 33's stream flood, small: 1,000 streams on another match took
    /// the connections of 44 of 50 watchers. Now streams never take the
    /// last quarter of the connections: a move is still played and every
    /// watcher sees it.
    #[test]
    fn a_flood_of_streams_leaves_room_for_moves() {
        let (addr, stop, thread, _dir) = support::serve_over_tcp(|c| c.max_connections = 16);
        let (id, token) = make_over_tcp(2, addr);
        let (other, _) = make_over_tcp(2, addr);
        let mut watchers: Vec<_> = (10..18).map(|n| watcher(n, addr, &id)).collect();
        let mut held = Vec::new();
        let (mut served, mut refused) = (0, 0);
        for i in 0..30u8 {
            let path = format!("/api/matches/{other}/events");
            let (head, stream) = keep_alive_get(30 + i % 20, addr, &path);
            if head.starts_with("HTTP/1.1 200") {
                served += 1;
                held.push(stream);
            } else {
                assert!(head.starts_with("HTTP/1.1 503"), "answered: {head:?}");
                assert!(head.to_ascii_lowercase().contains("retry-after:"), "{head}");
                refused += 1;
            }
        }
        assert_eq!(
            (served, refused),
            (4, 26),
            "12 streams at most, 8 of them watchers"
        );
        let moved = first_roll_over_tcp(3, addr, &id, &token);
        assert!(moved.starts_with("HTTP/1.1 200"), "{moved}");
        for (n, reader) in watchers.iter_mut().enumerate() {
            assert_eq!(next_event_id(reader).as_deref(), Some("1"), "watcher {n}");
        }
        let _ = stop.send(());
        drop(watchers);
        drop(held);
        thread.join().expect("the server stops");
    }

    #[test]
    fn one_address_holds_at_most_its_connections() {
        let (addr, stop, thread, _dir) = support::serve_over_tcp(|c| c.connections_per_client = 3);
        let (ready, _kept) = keep_alive_get(2, addr, "/api/lobby");
        assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
        drop(_kept);
        // Three busy connections (streams need a match: the lobby's
        // keep-alive ones are idle, so make busy ones with streams).
        let (id, _) = make_over_tcp(4, addr);
        let streams: Vec<_> = (0..3).map(|_| watcher(2, addr, &id)).collect();
        let (head, _) = keep_alive_get(2, addr, "/api/lobby");
        assert!(head.starts_with("HTTP/1.1 503"), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("retry-after: 1"),
            "{head}"
        );
        let (head, _) = keep_alive_get(3, addr, "/api/lobby");
        assert!(head.starts_with("HTTP/1.1 200"), "another address: {head}");
        let _ = stop.send(());
        drop(streams);
        thread.join().expect("the server stops");
    }
}

mod unsaved_work {
    use super::*;

    async fn design(app: &App, from: IpAddr) -> String {
        let made = app
            .send_from(
                from,
                "POST",
                "/api/tycoon/designs",
                None,
                &[],
                Some(&json!({})),
            )
            .await;
        made.ok()["id"].as_str().expect("an id").to_string()
    }

    async fn upload(app: &App, from: IpAddr) -> String {
        let board = json!({"text": "size = 30\nladders = [[3, 22]]\nchutes = [[27, 7]]\n"});
        let made = app
            .send_from(from, "POST", "/api/chutes/boards", None, &[], Some(&board))
            .await;
        made.ok()["id"].as_str().expect("an id").to_string()
    }

    /// Issue 33: 1,000 anonymous requests pushed out every other user's
    /// unsaved design and uploaded board.
    #[tokio::test]
    async fn a_flood_of_designs_and_uploads_leaves_others_work_alone() {
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.max_sessions = 50;
            c.sessions_per_client = 20;
        })
        .await;
        let mine = design(&app, client(3)).await;
        let my_board = upload(&app, client(3)).await;
        // From one address, then from ten.
        for i in 0..1000u32 {
            let from = if i < 500 {
                client(2)
            } else {
                client(10 + (i % 10) as u8)
            };
            design(&app, from).await;
            upload(&app, from).await;
        }
        app.get(&format!("/api/tycoon/designs/{mine}")).await.ok();
        app.get(&format!("/api/chutes/boards/{my_board}"))
            .await
            .ok();
        // The flood's newest are kept, its oldest pushed out.
        let last = design(&app, client(19)).await;
        app.get(&format!("/api/tycoon/designs/{last}")).await.ok();
    }
}

mod grids {
    use super::*;

    /// Saves a new empty design as `name` from `from` (with a token or
    /// none), replacing or not.
    async fn save(
        app: &App,
        from: IpAddr,
        token: Option<&str>,
        name: &str,
        replace: bool,
    ) -> Answer {
        let made = app
            .send_from(
                from,
                "POST",
                "/api/tycoon/designs",
                token,
                &[],
                Some(&json!({})),
            )
            .await;
        let id = made.ok()["id"].as_str().expect("an id").to_string();
        app.send_from(
            from,
            "POST",
            &format!("/api/tycoon/designs/{id}/save"),
            token,
            &[],
            Some(&json!({"name": name, "replace": replace})),
        )
        .await
    }

    async fn delete(app: &App, from: IpAddr, token: Option<&str>, name: &str) -> Answer {
        let uri = format!("/api/tycoon/grids/{name}");
        app.send_from(from, "DELETE", &uri, token, &[], None).await
    }

    #[tokio::test]
    async fn others_may_read_and_copy_a_grid_but_not_replace_or_delete_it() {
        let app = App::with(|c| c.rate_limit = 0).await;
        others_may_read_and_copy(app).await;
    }

    #[tokio::test]
    async fn grids_belong_to_their_savers_on_postgres_too() {
        let url = testkit::fresh_postgres().await;
        let app = App::with(|c| {
            c.database = Some(server::store::Location::Postgres(url));
            c.rate_limit = 0;
            c.grids_per_client = 3;
        })
        .await;
        others_may_read_and_copy(app).await;
    }

    async fn others_may_read_and_copy(app: App) {
        save(&app, client(2), None, "mine", false).await.ok();
        // Another reads it, opens it, and saves a copy of its own.
        app.send_from(client(3), "GET", "/api/tycoon/grids/mine", None, &[], None)
            .await
            .ok();
        let opened = app
            .send_from(
                client(3),
                "POST",
                "/api/tycoon/designs",
                None,
                &[],
                Some(&json!({"saved": "mine"})),
            )
            .await;
        let id = opened.ok()["id"].as_str().expect("an id").to_string();
        app.send_from(
            client(3),
            "POST",
            &format!("/api/tycoon/designs/{id}/save"),
            None,
            &[],
            Some(&json!({"name": "copy"})),
        )
        .await
        .ok();
        let why = save(&app, client(3), None, "mine", true)
            .await
            .refused(StatusCode::FORBIDDEN, "not_owner")
            .to_string();
        assert!(why.contains("copy"), "{why}");
        delete(&app, client(3), None, "mine")
            .await
            .refused(StatusCode::FORBIDDEN, "not_owner");
        // Its owner may.
        save(&app, client(2), None, "mine", true).await.ok();
        assert_eq!(
            delete(&app, client(2), None, "mine").await.status,
            StatusCode::NO_CONTENT
        );
        assert_eq!(
            delete(&app, client(3), None, "copy").await.status,
            StatusCode::NO_CONTENT
        );
    }

    #[tokio::test]
    async fn a_grid_saved_with_a_token_belongs_to_the_token() {
        let app = App::with(|c| c.rate_limit = 0).await;
        let token = "0123456789abcdef0123456789abcdef";
        save(&app, client(2), Some(token), "tokened", false)
            .await
            .ok();
        delete(&app, client(2), None, "tokened")
            .await
            .refused(StatusCode::FORBIDDEN, "not_owner");
        assert_eq!(
            delete(&app, client(5), Some(token), "tokened").await.status,
            StatusCode::NO_CONTENT
        );
    }

    #[tokio::test]
    async fn one_owner_saves_at_most_its_quota() {
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.grids_per_client = 2;
        })
        .await;
        save(&app, client(2), None, "one", false).await.ok();
        save(&app, client(2), None, "two", false).await.ok();
        let why = save(&app, client(2), None, "three", false)
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "grid_quota")
            .to_string();
        assert!(why.contains("2 grids"), "{why}");
        // Replacing one's own is not a new one; others still save.
        save(&app, client(2), None, "two", true).await.ok();
        save(&app, client(3), None, "three", false).await.ok();
    }

    #[tokio::test]
    async fn made_up_tokens_do_not_multiply_an_address_quota() {
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.grids_per_client = 2;
        })
        .await;
        let token = |n: u32| format!("{n:032x}");
        save(&app, client(2), Some(&token(1)), "one", false)
            .await
            .ok();
        save(&app, client(2), Some(&token(2)), "two", false)
            .await
            .ok();
        let why = save(&app, client(2), Some(&token(3)), "three", false)
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "grid_quota")
            .to_string();
        assert!(why.contains("2 grids"), "{why}");
        // A token holds its own quota from any address too.
        save(&app, client(3), Some(&token(1)), "four", false)
            .await
            .ok();
        save(&app, client(4), Some(&token(1)), "five", false)
            .await
            .refused(StatusCode::TOO_MANY_REQUESTS, "grid_quota");
        save(&app, client(4), Some(&token(4)), "six", false)
            .await
            .ok();
    }

    /// Addresses are cheap within one network: its addresses save ten
    /// addresses' worth together, and another network is not held back.
    #[tokio::test]
    async fn one_network_saves_at_most_ten_addresses_worth() {
        let app = App::with(|c| {
            c.rate_limit = 0;
            c.grids_per_client = 2;
        })
        .await;
        for host in 1..=10u8 {
            for n in 0..2 {
                let from = IpAddr::from([203, 0, 113, host]);
                save(&app, from, None, &format!("g{host}-{n}"), false)
                    .await
                    .ok();
            }
        }
        let why = save(
            &app,
            IpAddr::from([203, 0, 113, 11]),
            None,
            "one more",
            false,
        )
        .await
        .refused(StatusCode::TOO_MANY_REQUESTS, "grid_quota")
        .to_string();
        assert!(why.contains("your network have saved 20 grids"), "{why}");
        save(
            &app,
            IpAddr::from([203, 0, 114, 1]),
            None,
            "elsewhere",
            false,
        )
        .await
        .ok();
    }

    #[tokio::test]
    async fn grids_with_no_owner_are_changed_from_this_machine_only() {
        let app = App::with(|c| c.rate_limit = 0).await;
        // Saved in process (as grid files are imported): no owner.
        let made = app.post("/api/tycoon/designs", json!({})).await;
        let id = made.ok()["id"].as_str().unwrap().to_string();
        app.post(
            &format!("/api/tycoon/designs/{id}/save"),
            json!({"name": "old"}),
        )
        .await
        .ok();
        let far = IpAddr::from([198, 51, 100, 7]);
        delete(&app, far, None, "old")
            .await
            .refused(StatusCode::FORBIDDEN, "not_owner");
        assert_eq!(
            delete(&app, client(2), None, "old").await.status,
            StatusCode::NO_CONTENT
        );
    }
}

mod long_work_memory {
    use super::*;

    /// Issue 33: parallel `shortest?chutes=65536&ladders=2` grew the server
    /// by 230–470 MB each. Its 19.9 million states are now refused before
    /// any work; a search within the budget is answered.
    #[tokio::test]
    async fn a_search_past_the_memory_budget_is_refused_before_any_work() {
        let dir = tempfile::tempdir().expect("a data dir");
        let state = server::AppState::open(server::Config::new(dir.path()))
            .await
            .expect("the store opens");
        let app = App {
            router: server::router_for(state.clone()),
            dir,
        };
        let refused = app
            .get("/api/chutes/boards/classic/shortest?chutes=65536&ladders=2")
            .await;
        let why = refused
            .refused(StatusCode::UNPROCESSABLE_ENTITY, "invalid")
            .to_string();
        assert!(
            why.contains("19857711 states") && why.contains("MB") && why.contains("parlor"),
            "{why}"
        );
        assert_eq!(state.long_work.tally().started, 0, "no work started");
        assert_eq!(state.long_work.memory.held(), 0);
        app.get("/api/chutes/boards/classic/shortest?chutes=2&ladders=2")
            .await
            .ok();
        assert_eq!(state.long_work.memory.held(), 0, "given back once answered");
    }
}

mod the_rest {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;

    #[tokio::test]
    async fn a_repeat_counts_each_move_it_plays_against_the_address() {
        let app = App::with(|c| {
            c.rate_limit = 1;
            c.matches_per_client = 0;
        })
        .await;
        let made = make(&app, client(2), None, &["here", "here"]).await;
        let seat = support::Seat::from_made(&made.body);
        let uri = format!("/api/matches/{}/moves", seat.id);
        let repeat = json!({"move": "roll", "after": 0, "repeat": true});
        let played = app
            .send_from(
                client(2),
                "POST",
                &uri,
                Some(&seat.token),
                &[],
                Some(&repeat),
            )
            .await;
        let moves = played.ok()["played"].as_array().expect("moves").len();
        assert!(moves > 1, "a game to its end plays many moves");
        // Those moves spent the address's everyday rate (100 a minute
        // here) as that many requests would: what is left is the rest.
        let view = format!("/api/matches/{}", seat.id);
        let mut left = 0;
        for _ in 0..100 {
            let next = app
                .send_from(client(2), "GET", &view, None, &[], None)
                .await;
            if next.status == StatusCode::TOO_MANY_REQUESTS {
                break;
            }
            next.ok();
            left += 1;
        }
        let spent = 100usize.saturating_sub(moves.min(100));
        assert!(
            (spent..=spent + 1).contains(&left),
            "{moves} moves played, {left} requests left"
        );
        app.send_from(client(3), "GET", "/api/games", None, &[], None)
            .await
            .ok();
    }

    /// A repeat played a whole game of thousands of moves in one request,
    /// and the next request did it again as soon as one more was allowed:
    /// 369,653 moves in 45 s from one address.
    #[tokio::test]
    async fn moves_of_a_repeat_beyond_the_burst_are_owed() {
        let app = App::with(|c| {
            c.rate_limit = 1;
            c.matches_per_client = 0;
        })
        .await;
        let board = json!({"text": "size = 1000\n"});
        let uploaded = app
            .send_from(
                client(5),
                "POST",
                "/api/chutes/boards",
                None,
                &[],
                Some(&board),
            )
            .await;
        let board = uploaded.ok()["id"].as_str().expect("an id").to_string();
        let setup = json!({"game": "chutes", "setup": {"board": board}, "seats": ["here", "here"]});
        let made = app
            .send_from(client(2), "POST", "/api/matches", None, &[], Some(&setup))
            .await;
        let seat = support::Seat::from_made(&made.body);
        let uri = format!("/api/matches/{}/moves", seat.id);
        let repeat = json!({"move": "roll", "after": 0, "repeat": true});
        let played = app
            .send_from(
                client(2),
                "POST",
                &uri,
                Some(&seat.token),
                &[],
                Some(&repeat),
            )
            .await;
        let moves = played.ok()["played"].as_array().expect("moves").len();
        // Each of two players needs at least 167 rolls of at most 6.
        assert!(moves >= 333, "{moves} moves");
        // The burst is 100 a minute: at least 233 moves are owed, more
        // than two minutes' worth.
        let view = format!("/api/matches/{}", seat.id);
        let next = app
            .send_from(client(2), "GET", &view, None, &[], None)
            .await;
        let why = next.refused(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        assert!(why.contains("more moves than its share"), "{why}");
        assert!(
            retry_after(&next) > 120,
            "{moves} moves: {}",
            retry_after(&next)
        );
        // Another address is not held to it.
        app.send_from(client(3), "GET", &view, None, &[], None)
            .await
            .ok();
    }

    #[tokio::test]
    async fn media_types_are_read_in_any_case_and_errors_speak_no_rust() {
        let app = App::new().await;
        let request = Request::builder()
            .method("POST")
            .uri("/api/matches")
            .header("content-type", "APPLICATION/JSON; Charset=UTF-8")
            .body(Body::from(chutes(&["here", "here"]).to_string()))
            .expect("a request");
        let made = app.request(request).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        let mut seat = support::Seat::from_made(&made.body);
        let odd = app.play(&mut seat, json!(3)).await;
        let why = odd.refused(StatusCode::BAD_REQUEST, "bad_move").to_string();
        assert!(!why.contains("enum") && !why.contains("tagged"), "{why}");
        let query = app
            .get("/api/chutes/boards/classic/analysis?players=many")
            .await;
        assert_eq!(query.status, StatusCode::BAD_REQUEST, "{}", query.body);
        let why = query.message().to_string();
        assert!(
            !why.contains("Failed to deserialize") && why.contains("query string"),
            "{why}"
        );
    }

    /// The metrics address on `listen` with these public hosts.
    async fn metrics_app(listen: &str, public_hosts: &[&str]) -> App {
        let dir = tempfile::tempdir().expect("a temporary data dir");
        let mut config = server::Config::new(dir.path());
        config.public_hosts = public_hosts.iter().map(|h| h.to_string()).collect();
        let listen = listen.parse().expect("an address");
        let router = server::metrics_router(config, listen)
            .await
            .expect("the metrics start");
        App { router, dir }
    }

    /// `GET path` addressed to `host`: its status.
    async fn status_for(app: &App, path: &str, host: &str) -> StatusCode {
        let request = Request::builder()
            .uri(path)
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("a request");
        app.request(request).await.status
    }

    /// The metrics address answered any `Host`: a web page that pointed
    /// its own name at it read the server's figures.
    #[tokio::test]
    async fn the_metrics_address_answers_only_its_own_hosts() {
        let app = metrics_app("127.0.0.1:9464", &[]).await;
        for (host, status) in [
            ("evil.example:9464", StatusCode::FORBIDDEN),
            ("127.0.0.1.evil.example", StatusCode::FORBIDDEN),
            ("127.0.0.1:9464", StatusCode::OK),
            ("localhost:9464", StatusCode::OK),
            ("[::1]:9464", StatusCode::OK),
        ] {
            assert_eq!(status_for(&app, "/metrics", host).await, status, "{host}");
        }
        // A probe passes whatever its Host, as on the app's address.
        let probe = status_for(&app, "/healthz", "evil.example").await;
        assert_eq!(probe, StatusCode::OK);
        // Exposed on the network with a public host: that name and
        // loopback ones only.
        let exposed = metrics_app("0.0.0.0:9464", &["parlor.example.org"]).await;
        for (host, status) in [
            ("evil.example", StatusCode::FORBIDDEN),
            ("parlor.example.org:9464", StatusCode::OK),
            ("127.0.0.1:9464", StatusCode::OK),
        ] {
            let got = status_for(&exposed, "/metrics", host).await;
            assert_eq!(got, status, "{host}");
        }
    }
}
