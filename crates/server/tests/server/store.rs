//! The store, against both backends: SQLite in a temporary directory and a
//! fresh database on the real PostgreSQL server that `scripts/test.sh`
//! starts. Every case runs on each.

#![allow(clippy::unwrap_used)] // Test cases are run from the tests the macro makes.

use server::store::{
    Creator, Db, DbError, Durability, GridSave, Location, MAX_UNFINISHED, NewMatch, NewMove,
    Notice, SeatRow, TokenRow, UNFINISHED_KEPT,
};
use std::time::Duration;

/// What keeps a store alive: SQLite's temporary directory.
struct Held {
    _dir: Option<tempfile::TempDir>,
}

async fn open(location: &Location, grids: Option<&std::path::Path>) -> Db {
    Db::open(location, Durability::Process, grids)
        .await
        .expect("the store opens")
}

async fn sqlite() -> (Db, Location, Held) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let location = Location::default_for(dir.path());
    (
        open(&location, None).await,
        location,
        Held { _dir: Some(dir) },
    )
}

async fn postgres() -> (Db, Location, Held) {
    let location = Location::Postgres(testkit::fresh_postgres().await);
    (open(&location, None).await, location, Held { _dir: None })
}

/// Runs a case on both backends, as two tests.
macro_rules! on_both {
    ($name:ident, $case:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let (db, location, _held) = super::sqlite().await;
                super::$case(db, location).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let (db, location, _held) = super::postgres().await;
                super::$case(db, location).await;
            }
        }
    };
}

fn new_match(id: &str) -> NewMatch {
    NewMatch {
        id: id.to_string(),
        game: "chutes".into(),
        header: r#"{"game":"chutes"}"#.into(),
        title: "a test".into(),
        seats: vec![
            SeatRow {
                seat: 1,
                invite: None,
                taken: true,
                name: Some("Ada".into()),
            },
            SeatRow {
                seat: 2,
                invite: Some("invite-digest".into()),
                taken: false,
                name: None,
            },
        ],
        tokens: vec![TokenRow {
            hash: "host-digest".into(),
            seats: 1,
            host: true,
        }],
        seat_count: 2,
        status: "playing".into(),
        over: false,
        at_ms: 1_000,
    }
}

fn id(n: u32) -> String {
    format!("{n:032x}")
}

fn mv(match_id: &str, number: u32, over: bool) -> NewMove {
    mv_at(match_id, number, over, 2_000 + i64::from(number))
}

fn mv_at(match_id: &str, number: u32, over: bool, at_ms: i64) -> NewMove {
    NewMove {
        match_id: match_id.to_string(),
        number,
        entry: format!("roll @{}", number % 6 + 1),
        seat: 1,
        bot: false,
        status: if over { "won" } else { "playing" }.into(),
        over,
        at_ms,
    }
}

async fn a_match_is_stored_and_read_back(db: Db, _: Location) {
    db.create(new_match(&id(1))).await.unwrap();
    let stored = db.load(&id(1)).await.unwrap().expect("stored");
    assert_eq!(stored.game, "chutes");
    assert_eq!(stored.header, r#"{"game":"chutes"}"#);
    assert_eq!(stored.seats, new_match(&id(1)).seats);
    assert_eq!(stored.tokens, new_match(&id(1)).tokens);
    assert!(stored.moves.is_empty());
    assert_eq!(stored.created_ms, 1_000);
    assert!(db.load(&id(2)).await.unwrap().is_none());
}
on_both!(matches, a_match_is_stored_and_read_back);

async fn moves_append_in_order_and_never_twice(db: Db, _: Location) {
    let m = id(1);
    db.create(new_match(&m)).await.unwrap();
    for n in 1..=5 {
        db.append(mv(&m, n, false)).await.unwrap();
    }
    // The same move again, a move from the past, a move from the future.
    for n in [5, 2, 7] {
        assert_eq!(
            db.append(mv(&m, n, false)).await,
            Err(DbError::Stale { now: 5 }),
            "move {n}"
        );
    }
    assert_eq!(db.append(mv(&id(9), 1, false)).await, Err(DbError::NoMatch));
    let stored = db.load(&m).await.unwrap().unwrap();
    let numbers: Vec<u32> = stored.moves.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    assert_eq!(stored.moves[2].entry, "roll @4");
    // Made at 1,000, moved within the minute: the time stays.
    assert_eq!(stored.updated_ms, 1_000);
    let after: Vec<u32> = db
        .moves_after(&m, 3)
        .await
        .unwrap()
        .iter()
        .map(|r| r.number)
        .collect();
    assert_eq!(after, [4, 5]);
    // Once a move ends the match, nothing more is stored.
    db.append(mv(&m, 6, true)).await.unwrap();
    assert_eq!(
        db.append(mv(&m, 7, false)).await,
        Err(DbError::Stale { now: 6 })
    );
}
on_both!(appends, moves_append_in_order_and_never_twice);

async fn a_move_refreshes_the_update_time_once_a_minute_and_at_the_end(db: Db, _: Location) {
    let m = id(1);
    db.create(new_match(&m)).await.unwrap();
    let minute = server::store::TOUCH_EVERY.as_millis() as i64;
    assert_eq!(minute, 60_000);
    // (number, at, over, the time the store keeps)
    let steps = [
        (1, 2_000, false, 1_000),
        (2, 1_000 + minute - 1, false, 1_000),
        (3, 1_000 + minute, false, 1_000 + minute),
        (4, 2_000 + minute, false, 1_000 + minute),
        (5, 3_000 + minute, true, 3_000 + minute),
    ];
    let mut kept = 1_000;
    for (number, at, over, expected) in steps {
        let touched = db.append(mv_at(&m, number, over, at)).await.unwrap();
        assert_eq!(touched, expected, "move {number}");
        // The servers' own copy of the rule agrees with the store's.
        kept = server::store::touched(kept, at, over);
        assert_eq!(kept, expected, "move {number}");
        let stored = db.load(&m).await.unwrap().unwrap();
        assert_eq!(stored.updated_ms, expected, "move {number}");
    }
}
on_both!(
    touch,
    a_move_refreshes_the_update_time_once_a_minute_and_at_the_end
);

async fn racing_appends_store_exactly_one(db: Db, _: Location) {
    let m = id(1);
    db.create(new_match(&m)).await.unwrap();
    let db = std::sync::Arc::new(db);
    for number in 1..=10u32 {
        let racers: Vec<_> = (0..8)
            .map(|_| {
                let db = std::sync::Arc::clone(&db);
                let m = m.clone();
                tokio::spawn(async move { db.append(mv(&m, number, false)).await })
            })
            .collect();
        let mut won = 0;
        for racer in racers {
            match racer.await.unwrap() {
                Ok(_) => won += 1,
                Err(DbError::Stale { now }) => assert_eq!(now, number),
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(won, 1, "move {number} is stored once");
    }
    assert_eq!(db.load(&m).await.unwrap().unwrap().moves.len(), 10);
}
on_both!(races, racing_appends_store_exactly_one);

async fn many_matches_moving_at_once_are_each_stored_or_refused_alone(db: Db, _: Location) {
    let matches: Vec<String> = (1..=16).map(id).collect();
    for m in &matches {
        db.create(new_match(m)).await.unwrap();
    }
    let db = std::sync::Arc::new(db);
    // Every match's first move, a move from the future for four of them,
    // and a move of a match that does not exist, all at once (PostgreSQL
    // appends the moves waiting together in one statement).
    let mut appends: Vec<(NewMove, bool)> =
        matches.iter().map(|m| (mv(m, 1, false), true)).collect();
    appends.extend(matches[..4].iter().map(|m| (mv(m, 3, false), false)));
    appends.push((mv(&id(99), 1, false), false));
    let running: Vec<_> = appends
        .into_iter()
        .map(|(new, ok)| {
            let db = std::sync::Arc::clone(&db);
            tokio::spawn(async move { (new.match_id.clone(), ok, db.append(new).await) })
        })
        .collect();
    for run in running {
        let (m, ok, stored) = run.await.unwrap();
        match stored {
            Ok(_) => assert!(ok, "{m}: a wrong move was stored"),
            Err(DbError::Stale { now }) => assert!(!ok && now <= 1, "{m}: stale at {now}"),
            Err(DbError::NoMatch) => assert_eq!(m, id(99)),
            Err(e) => panic!("{m}: {e}"),
        }
    }
    for m in &matches {
        let stored = db.load(m).await.unwrap().unwrap();
        let numbers: Vec<u32> = stored.moves.iter().map(|r| r.number).collect();
        assert_eq!(numbers, [1], "{m}");
        assert_eq!(stored.moves[0].entry, "roll @2", "{m}");
    }
}
on_both!(
    together,
    many_matches_moving_at_once_are_each_stored_or_refused_alone
);

async fn a_seat_is_claimed_once(db: Db, _: Location) {
    let m = id(1);
    db.create(new_match(&m)).await.unwrap();
    assert!(
        !db.claim(&m, 2, None, "guest", None).await.unwrap(),
        "an invite seat needs its invite"
    );
    assert!(!db.claim(&m, 2, Some("wrong"), "guest", None).await.unwrap());
    assert!(
        db.claim(&m, 2, Some("invite-digest"), "guest", Some("Bo"))
            .await
            .unwrap()
    );
    assert!(
        !db.claim(&m, 2, Some("invite-digest"), "other", Some("Cy"))
            .await
            .unwrap()
    );
    let stored = db.load(&m).await.unwrap().unwrap();
    assert_eq!(
        stored.seats[1],
        SeatRow {
            seat: 2,
            invite: None,
            taken: true,
            name: Some("Bo".into()),
        }
    );
    assert!(stored.tokens.contains(&TokenRow {
        hash: "guest".into(),
        seats: 2,
        host: false
    }));
    // A seat claimed with a token the match knows joins that token's seats.
    let other = id(2);
    db.create(new_match(&other)).await.unwrap();
    assert!(
        db.claim(&other, 2, Some("invite-digest"), "host-digest", None)
            .await
            .unwrap()
    );
    let stored = db.load(&other).await.unwrap().unwrap();
    assert_eq!(
        stored.tokens,
        [TokenRow {
            hash: "host-digest".into(),
            seats: 3,
            host: true
        }]
    );
}
on_both!(seats, a_seat_is_claimed_once);

async fn a_match_has_one_rematch(db: Db, _: Location) {
    let old = id(1);
    db.create(new_match(&old)).await.unwrap();
    assert_eq!(db.load(&old).await.unwrap().unwrap().rematch, None);
    assert_eq!(
        db.create_rematch(&old, new_match(&id(2)), Creator::default())
            .await
            .unwrap(),
        None
    );
    let stored = db.load(&old).await.unwrap().unwrap();
    assert_eq!(stored.rematch, Some(id(2)));
    let made = db.load(&id(2)).await.unwrap().unwrap();
    assert_eq!(made.seats[0].name.as_deref(), Some("Ada"));
    // A second ask makes nothing, and names the first.
    assert_eq!(
        db.create_rematch(&old, new_match(&id(3)), Creator::default())
            .await
            .unwrap(),
        Some(id(2))
    );
    assert!(db.load(&id(3)).await.unwrap().is_none());
    assert!(matches!(
        db.create_rematch(&id(9), new_match(&id(4)), Creator::default())
            .await,
        Err(DbError::NoMatch)
    ));
}
on_both!(rematches, a_match_has_one_rematch);

async fn an_open_seat_can_be_invited_again(db: Db, _: Location) {
    let m = id(1);
    db.create(new_match(&m)).await.unwrap();
    assert!(db.reinvite(&m, 2, "fresh").await.unwrap());
    assert!(
        !db.claim(&m, 2, Some("invite-digest"), "guest", None)
            .await
            .unwrap()
    );
    assert!(db.claim(&m, 2, Some("fresh"), "guest", None).await.unwrap());
    assert!(!db.reinvite(&m, 2, "again").await.unwrap(), "taken now");
    assert!(
        !db.reinvite(&m, 1, "again").await.unwrap(),
        "seat 1 is held"
    );
}
on_both!(invites, an_open_seat_can_be_invited_again);

/// A match whose seat 2 anyone may take.
fn public_match(id: &str, at_ms: i64) -> NewMatch {
    let mut new = new_match(id);
    new.seats[1].invite = None;
    new.at_ms = at_ms;
    new
}

async fn the_lobby_lists_matches_anyone_may_join_newest_first(db: Db, _: Location) {
    for n in 1..=3 {
        db.create(public_match(&id(n), i64::from(n) * 1_000))
            .await
            .unwrap();
    }
    // A seat by invite only is not listed; nor is a finished match.
    db.create(new_match(&id(4))).await.unwrap();
    db.append(mv(&id(2), 1, true)).await.unwrap();
    let lobby = db.lobby(10).await.unwrap();
    let ids: Vec<&str> = lobby.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, [id(3), id(1)]);
    assert_eq!((lobby[0].seats, lobby[0].open_seats), (2, 1));
    // Its host: the first taken seat's name.
    assert_eq!(lobby[0].host.as_deref(), Some("Ada"));
    assert_eq!(db.lobby(1).await.unwrap().len(), 1);
    // A public seat is taken with no invite, once; then off the lobby.
    assert!(db.claim(&id(3), 2, None, "guest", None).await.unwrap());
    assert!(!db.claim(&id(3), 2, None, "other", None).await.unwrap());
    let ids: Vec<String> = db
        .lobby(10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(ids, [id(1)]);
}
on_both!(lobby, the_lobby_lists_matches_anyone_may_join_newest_first);

async fn unfinished_matches_expire_and_finished_ones_stay(db: Db, _: Location) {
    db.create(new_match(&id(1))).await.unwrap();
    db.create(new_match(&id(2))).await.unwrap();
    // Made at 1,000; moved a minute later, which refreshes the time.
    db.append(mv_at(&id(1), 1, false, 61_001)).await.unwrap();
    db.append(mv_at(&id(2), 1, true, 61_001)).await.unwrap();
    assert_eq!(
        db.expire(61_000, 0).await.unwrap(),
        0,
        "both moved at 61,001"
    );
    assert_eq!(db.expire(62_000, 0).await.unwrap(), 1);
    assert!(db.load(&id(1)).await.unwrap().is_none());
    assert!(db.moves_after(&id(1), 0).await.unwrap().is_empty());
    assert_eq!(db.load(&id(2)).await.unwrap().unwrap().moves.len(), 1);
}
on_both!(expiry, unfinished_matches_expire_and_finished_ones_stay);

async fn an_expiry_while_moves_are_stored_leaves_none_of_the_removed_matches_moves(
    db: Db,
    location: Location,
) {
    const MATCHES: u32 = 16;
    let db = std::sync::Arc::new(db);
    for n in 1..=MATCHES {
        db.create(new_match(&id(n))).await.unwrap();
    }
    // Each match moves until it is gone; its time is never refreshed, so
    // each is expired by the one expiry below, whatever it holds then.
    let movers: Vec<_> = (1..=MATCHES)
        .map(|n| {
            let db = std::sync::Arc::clone(&db);
            tokio::spawn(async move {
                let mut number = 1;
                loop {
                    match db.append(mv_at(&id(n), number, false, 1_500)).await {
                        Ok(_) => number += 1,
                        Err(DbError::NoMatch) => return number - 1,
                        Err(e) => panic!("move {number} of match {n}: {e}"),
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(db.expire(2_000, 0).await.unwrap(), u64::from(MATCHES));
    let mut stored = 0;
    for mover in movers {
        stored += mover.await.unwrap();
    }
    assert!(stored > 0, "the matches moved before they expired");
    assert_eq!(count(&location, "SELECT COUNT(*) FROM matches").await, 0);
    assert_eq!(
        count(&location, "SELECT COUNT(*) FROM moves").await,
        0,
        "no move of an expired match is left (of {stored} stored)"
    );
}
on_both!(
    expiry_racing_moves,
    an_expiry_while_moves_are_stored_leaves_none_of_the_removed_matches_moves
);

/// Runs `sql` on the store at `location`, on a connection of its own.
/// A stored move whose text is not UTF-8 (bytes `ff fe 6c 6c`): SQLite's
/// checks pass, but the record cannot be read. The store says it is
/// damaged, and where, on every read: never "try again".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_move_that_is_not_text_is_a_damaged_record_with_where() {
    let (db, location, _held) = sqlite().await;
    db.create(new_match(&id(1))).await.unwrap();
    db.append(mv(&id(1), 1, false)).await.unwrap();
    drop(db);
    raw(
        &location,
        &format!(
            "UPDATE moves SET entry = CAST(x'fffe6c6c' AS TEXT) WHERE match_id = '{}'",
            id(1)
        ),
    )
    .await;
    let db = open(&location, None).await;
    for _ in 0..2 {
        match db.load(&id(1)).await {
            Err(DbError::Damaged(what)) => {
                assert!(
                    what.starts_with("the match's moves:") && what.contains("UTF-8"),
                    "{what}"
                );
                let answer = server::http::error::ApiError::from(DbError::Damaged(what));
                assert_eq!(answer.code, "damaged_record");
                assert_eq!(answer.status.as_u16(), 500);
                assert!(answer.retry_after.is_none());
                assert!(!answer.message.contains("try again"), "{}", answer.message);
            }
            other => panic!("not a damaged record: {:?}", other.map(|m| m.is_some())),
        }
    }
}

async fn raw(location: &Location, sql: &str) {
    match location {
        Location::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.busy_timeout(Duration::from_secs(10)).unwrap();
            conn.execute_batch(sql).unwrap();
        }
        Location::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(connection);
            client.batch_execute(sql).await.unwrap();
        }
    }
}

/// The one number `sql` answers on the store at `location`, on a
/// connection of its own.
async fn count(location: &Location, sql: &str) -> i64 {
    match location {
        Location::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.busy_timeout(Duration::from_secs(10)).unwrap();
            conn.query_row(sql, [], |r| r.get(0)).unwrap()
        }
        Location::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(connection);
            client.query_one(sql, &[]).await.unwrap().get(0)
        }
    }
}

/// Adds `n` unfinished matches nobody made to the store at `location`,
/// each last played at 1,000 ms (their ids start `f`).
async fn fill(location: &Location, n: u64) {
    let columns = "id, game, header, title, seat_count, lobby_seats, moves, status, over, \
                   created_ms, updated_ms, played";
    let sql = match location {
        Location::Sqlite(_) => format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n})
             INSERT INTO matches ({columns})
             SELECT printf('f%031x', i), 'chutes', '{{}}', 'full', 2, 0, 1, 'playing', 0,
                    1000, 1000, 1 FROM n"
        ),
        Location::Postgres(_) => format!(
            "INSERT INTO matches ({columns})
             SELECT 'f' || lpad(to_hex(i), 31, '0'), 'chutes', '{{}}', 'full', 2, 0, 1,
                    'playing', FALSE, 1000, 1000, TRUE
             FROM generate_series(1, {n}) AS i"
        ),
    };
    raw(location, &sql).await;
}

async fn a_full_store_makes_no_match_until_one_ends(db: Db, location: Location) {
    db.create(new_match(&id(1))).await.unwrap();
    db.append(mv(&id(1), 1, true)).await.unwrap();
    fill(&location, MAX_UNFINISHED).await;
    // Full: the first unfinished match expires a kept time after 1,000 ms.
    let refused = db.create(new_match(&id(2))).await.unwrap_err();
    assert!(
        matches!(refused, DbError::AtCapacity { retry_after } if retry_after == UNFINISHED_KEPT.as_secs()),
        "{refused:?}"
    );
    let rematch = db
        .create_rematch(&id(1), new_match(&id(3)), Creator::default())
        .await;
    assert!(
        matches!(rematch, Err(DbError::AtCapacity { .. })),
        "{rematch:?}"
    );
    assert!(db.load(&id(2)).await.unwrap().is_none());
    assert!(db.load(&id(3)).await.unwrap().is_none());
    // One ends: there is room for one more, with its seats and tokens.
    db.append(mv(&format!("f{:031x}", 1), 2, true))
        .await
        .unwrap();
    db.create(new_match(&id(2))).await.unwrap();
    let made = db.load(&id(2)).await.unwrap().unwrap();
    assert_eq!(made.seats, new_match(&id(2)).seats);
    assert_eq!(made.tokens, new_match(&id(2)).tokens);
    assert!(matches!(
        db.create(new_match(&id(4))).await,
        Err(DbError::AtCapacity { .. })
    ));
}
on_both!(full, a_full_store_makes_no_match_until_one_ends);

/// Whether the store has room for exactly one more unfinished match.
async fn room_for_one(db: &Db, first: u32) {
    db.create(new_match(&id(first))).await.unwrap();
    let refused = db.create(new_match(&id(first + 1))).await;
    assert!(
        matches!(refused, Err(DbError::AtCapacity { .. })),
        "{refused:?}"
    );
}

async fn unfinished_matches_are_counted_as_they_are_made_end_and_go(db: Db, location: Location) {
    db.create(new_match(&id(1))).await.unwrap();
    db.create(new_match(&id(2))).await.unwrap();
    db.append(mv(&id(2), 1, true)).await.unwrap();
    fill(&location, MAX_UNFINISHED - 2).await;
    // id(1) and the filled ones: one short of the most.
    room_for_one(&db, 3).await;
    // Every unfinished match goes (untouched since 1,000 ms).
    assert_eq!(db.expire(1_001, 0).await.unwrap(), MAX_UNFINISHED);
    fill(&location, MAX_UNFINISHED - 1).await;
    room_for_one(&db, 5).await;
}
on_both!(
    unfinished_count,
    unfinished_matches_are_counted_as_they_are_made_end_and_go
);

/// A store migrated to a kept count of unfinished matches (SQLite's
/// migration 5, PostgreSQL's 7) counts the matches it already held.
async fn a_store_counts_the_unfinished_matches_it_held_before_it_kept_the_count(
    db: Db,
    location: Location,
) {
    db.create(new_match(&id(1))).await.unwrap();
    db.create(new_match(&id(2))).await.unwrap();
    db.append(mv(&id(2), 1, true)).await.unwrap();
    drop(db);
    // The store as it was before the count was kept.
    let before = match &location {
        Location::Sqlite(_) => {
            "DROP TRIGGER unfinished_made; DROP TRIGGER unfinished_ended;
             DROP TRIGGER unfinished_gone; DROP TABLE unfinished;
             DROP INDEX grids_saver; ALTER TABLE grids DROP COLUMN saver;
             DROP TABLE classroom_games; DROP TABLE classroom_students; DROP TABLE classrooms;
             DROP INDEX grids_newest; DROP TABLE unsaved_work;
             DROP INDEX grids_saver_hood; ALTER TABLE grids DROP COLUMN saver_hood;
             DELETE FROM schema_versions WHERE version >= 5;"
        }
        Location::Postgres(_) => {
            "DROP TRIGGER unfinished_made ON matches; DROP TRIGGER unfinished_ended ON matches;
             DROP TRIGGER unfinished_gone ON matches; DROP FUNCTION unfinished_counted();
             DROP TABLE unfinished_counts;
             DROP INDEX grids_saver; ALTER TABLE grids DROP COLUMN saver;
             DROP TABLE classroom_games; DROP TABLE classroom_students; DROP TABLE classrooms;
             DROP INDEX grids_newest; DROP TABLE unsaved_work;
             DROP INDEX grids_saver_hood; ALTER TABLE grids DROP COLUMN saver_hood;
             DELETE FROM schema_versions WHERE version >= 7;"
        }
    };
    raw(&location, before).await;
    let db = open(&location, None).await;
    fill(&location, MAX_UNFINISHED - 2).await;
    room_for_one(&db, 3).await;
}
on_both!(
    count_migrated,
    a_store_counts_the_unfinished_matches_it_held_before_it_kept_the_count
);

/// While moves keep coming one after another (each committed on its
/// caller's thread, the connection being free), SQLite's log is still
/// started afresh once it is long: its file stops growing though the moves
/// go on. Without it the log, and its file, grow by every move's pages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_stores_log_starts_afresh_while_moves_keep_coming() {
    let (db, location, _held) = sqlite().await;
    let Location::Sqlite(path) = &location else {
        unreachable!("a SQLite store")
    };
    let log = path.with_extension("db-wal");
    let log_bytes = || std::fs::metadata(&log).map_or(0, |m| m.len());
    // A page and its frame's header.
    let frame = 4096 + 24;
    let matches = 8;
    for m in 0..matches {
        db.create(new_match(&id(m))).await.unwrap();
    }
    // The log is long past 10,000 pages: more than 40 MB.
    let long = 10_000 * frame;
    let (mut number, mut grown_at, mut largest) = (0, 0, 0);
    loop {
        number += 1;
        for m in 0..matches {
            db.append(mv(&id(m), number, false)).await.unwrap();
        }
        let bytes = log_bytes();
        if bytes > largest {
            (largest, grown_at) = (bytes, number);
        }
        // Long, and not grown by 200 rounds of moves (1,600 commits and
        // their 3,200 pages and more): written again from its start.
        let restarted = largest > long && number - grown_at >= 200;
        // Five times as long as where it starts afresh (seconds of moves
        // after the checkpointer, every half second, found it long).
        let too_long = largest > 5 * long;
        // Ten long logs' worth of pages written (two pages a move at
        // least), the log never long: started afresh all along.
        let written = u64::from(number * matches) * 2 * frame > 10 * long;
        if restarted || too_long || written {
            break;
        }
        // At a pace the checkpointer's ticks see: some 3,000 moves a second.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert!(
        largest <= 5 * long,
        "the log grew to {largest} bytes in {number} rounds of {matches} moves"
    );
    for m in 0..matches {
        assert_eq!(
            db.load(&id(m)).await.unwrap().unwrap().moves.len(),
            number as usize
        );
    }
}

async fn grids_are_saved_and_replaced_only_when_asked(db: Db, _: Location) {
    assert_eq!(
        db.save_grid("mine", "1\n10 32\n0\n0\n", false)
            .await
            .unwrap(),
        GridSave::Saved
    );
    assert_eq!(
        db.save_grid("mine", "0\n0\n0\n", false).await.unwrap(),
        GridSave::Exists
    );
    assert_eq!(
        db.grid("mine").await.unwrap().as_deref(),
        Some("1\n10 32\n0\n0\n")
    );
    db.save_grid("mine", "0\n0\n0\n", true).await.unwrap();
    db.save_grid("Ärger", "0\n0\n0\n", false).await.unwrap();
    let mut listed: Vec<(String, u64)> = db
        .grids(10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| (g.name, g.bytes))
        .collect();
    listed.sort();
    assert_eq!(listed, [("mine".to_string(), 6), ("Ärger".to_string(), 6)]);
    // A listing is the newest few, newest first.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    db.save_grid("newest", "0\n0\n0\n", false).await.unwrap();
    let newest = db.grids(1).await.unwrap();
    assert_eq!(newest.len(), 1);
    assert_eq!(newest[0].name, "newest");
    assert!(db.delete_grid("newest").await.unwrap());
    assert!(db.delete_grid("mine").await.unwrap());
    assert!(!db.delete_grid("mine").await.unwrap());
    assert_eq!(db.grid("mine").await.unwrap(), None);
}
on_both!(grids, grids_are_saved_and_replaced_only_when_asked);

async fn grid_files_are_imported_once(db: Db, location: Location) {
    drop(db);
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("race.grid"), "1\n10 32\n0\n0\n").unwrap();
    std::fs::write(files.path().join("notes.txt"), "not a grid").unwrap();
    std::fs::write(files.path().join("bad name!.grid"), "0\n0\n0\n").unwrap();
    let db = open(&location, Some(files.path())).await;
    let names: Vec<String> = db
        .grids(10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(names, ["race"]);
    // Deleted in the store, it stays deleted: files are imported once.
    db.delete_grid("race").await.unwrap();
    drop(db);
    let db = open(&location, Some(files.path())).await;
    assert!(db.grids(10).await.unwrap().is_empty());
    assert!(files.path().join("race.grid").is_file(), "files are kept");
}
on_both!(import, grid_files_are_imported_once);

async fn reopening_keeps_everything(db: Db, location: Location) {
    db.create(new_match(&id(1))).await.unwrap();
    db.append(mv(&id(1), 1, false)).await.unwrap();
    drop(db);
    let db = open(&location, None).await;
    assert_eq!(db.load(&id(1)).await.unwrap().unwrap().moves.len(), 1);
}
on_both!(reopen, reopening_keeps_everything);

#[tokio::test]
async fn a_sqlite_store_from_a_newer_parlor_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let location = Location::default_for(dir.path());
    drop(open(&location, None).await);
    let conn = rusqlite::Connection::open(dir.path().join("parlor.db")).unwrap();
    conn.execute(
        "INSERT INTO schema_versions (version, name, applied_ms) VALUES (99, 'future', 0)",
        [],
    )
    .unwrap();
    drop(conn);
    let refused = Db::open(&location, Durability::Process, None).await;
    match refused {
        Err(DbError::Incompatible(why)) => assert!(why.contains("99"), "{why}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a newer store was opened"),
    }
}

#[tokio::test]
async fn a_sqlite_store_that_cannot_be_written_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "a file where the store's folder should be").unwrap();
    let location = Location::Sqlite(file.join("parlor.db"));
    match Db::open(&location, Durability::Process, None).await {
        Err(e) => {
            let text = e.to_string();
            assert!(!text.contains("not-a-dir"), "no server path: {text}");
        }
        Ok(_) => panic!("opened a store under a file"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_servers_hear_each_others_moves_and_not_their_own() {
    let url = testkit::fresh_postgres().await;
    let location = Location::Postgres(url);
    let a = open(&location, None).await;
    let b = open(&location, None).await;
    let mut heard_by_a = a.notices();
    let mut heard_by_b = b.notices();
    // The listeners start with the stores; give them a moment to listen.
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.create(new_match(&id(1))).await.unwrap();
    a.append(mv(&id(1), 1, false)).await.unwrap();
    let notice = tokio::time::timeout(Duration::from_secs(5), heard_by_b.recv())
        .await
        .expect("b hears within 5 s")
        .unwrap();
    assert_eq!(
        notice,
        Notice::Moved {
            id: id(1),
            moves: 1
        }
    );
    assert!(
        b.claim(&id(1), 2, Some("invite-digest"), "guest", None)
            .await
            .unwrap()
    );
    let notice = tokio::time::timeout(Duration::from_secs(5), heard_by_a.recv())
        .await
        .expect("a hears within 5 s")
        .unwrap();
    assert_eq!(notice, Notice::Seated { id: id(1) });
    assert!(
        heard_by_a.try_recv().is_err(),
        "a does not hear its own move"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_servers_hear_every_move_stored_together_and_none_refused() {
    let url = testkit::fresh_postgres().await;
    let location = Location::Postgres(url);
    let a = std::sync::Arc::new(open(&location, None).await);
    let b = open(&location, None).await;
    let mut heard_by_a = a.notices();
    let mut heard_by_b = b.notices();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let matches: Vec<String> = (1..=16).map(id).collect();
    for m in &matches {
        a.create(new_match(m)).await.unwrap();
    }
    // Every match's first move at once (PostgreSQL stores the moves waiting
    // together, in one statement that tells each), and four moves from the
    // future, which are refused and must not be told.
    let appends: Vec<NewMove> = matches
        .iter()
        .map(|m| mv(m, 1, false))
        .chain(matches[..4].iter().map(|m| mv(m, 3, false)))
        .collect();
    let running: Vec<_> = appends
        .into_iter()
        .map(|new| {
            let a = std::sync::Arc::clone(&a);
            tokio::spawn(async move { a.append(new).await.is_ok() })
        })
        .collect();
    let mut stored = 0;
    for run in running {
        stored += usize::from(run.await.unwrap());
    }
    assert_eq!(stored, 16);
    let mut heard = std::collections::BTreeSet::new();
    while heard.len() < 16 {
        match tokio::time::timeout(Duration::from_secs(5), heard_by_b.recv()).await {
            Ok(Ok(Notice::Moved { id, moves })) => {
                assert_eq!(moves, 1, "{id}: only first moves were stored");
                assert!(heard.insert(id.clone()), "{id} told twice");
            }
            Ok(other) => panic!("b heard {other:?}"),
            Err(_) => panic!("b heard {} of 16 moves within 5 s", heard.len()),
        }
    }
    assert_eq!(heard, matches.iter().cloned().collect());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        heard_by_b.try_recv().is_err(),
        "b heard more than was stored"
    );
    assert!(heard_by_a.try_recv().is_err(), "a heard its own moves");
}

/// Ends every other connection to `url`'s database, as a restart of
/// PostgreSQL (or a network that dropped them) would.
async fn cut_connections(url: &str) {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(connection);
    let cut = client
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .await
        .unwrap();
    assert!(!cut.is_empty(), "the store had connections to cut");
    drop(client);
    let _ = driver.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_store_whose_connections_were_cut_carries_on() {
    let url = testkit::fresh_postgres().await;
    let db = open(&Location::Postgres(url.clone()), None).await;
    db.create(new_match(&id(1))).await.unwrap();
    // Several connections in the pool, idle.
    let m = id(1);
    let loads: Vec<_> = (0..4).map(|_| db.load(&m)).collect();
    for load in futures_util::future::join_all(loads).await {
        load.unwrap();
    }
    cut_connections(&url).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The dead connections are not handed out: every request is answered.
    for n in 1..=4 {
        db.append(mv(&id(1), n, false)).await.unwrap();
    }
    assert_eq!(db.load(&id(1)).await.unwrap().unwrap().moves.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_postgres_refuses_fails_alone_and_the_moves_appended_with_it_are_stored() {
    let url = testkit::fresh_postgres().await;
    let db = std::sync::Arc::new(open(&Location::Postgres(url), None).await);
    let matches: Vec<String> = (1..=12).map(id).collect();
    for m in &matches {
        db.create(new_match(m)).await.unwrap();
    }
    // PostgreSQL's text cannot hold a NUL: a statement with this move in
    // it fails, and each of its moves is tried again alone.
    let running: Vec<_> = matches
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let db = std::sync::Arc::clone(&db);
            let mut new = mv(m, 1, false);
            if i == 5 {
                new.entry = "roll \0".to_string();
            }
            tokio::spawn(async move { (i, db.append(new).await) })
        })
        .collect();
    for run in running {
        let (i, stored) = run.await.unwrap();
        match i {
            5 => assert!(matches!(stored, Err(DbError::Unavailable(_))), "{stored:?}"),
            _ => assert!(stored.is_ok(), "match {i}: {stored:?}"),
        }
    }
    for (i, m) in matches.iter().enumerate() {
        let moves = db.load(m).await.unwrap().unwrap().moves.len();
        assert_eq!(moves, usize::from(i != 5), "match {i}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_store_from_a_newer_parlor_is_refused() {
    let url = testkit::fresh_postgres().await;
    let location = Location::Postgres(url.clone());
    drop(open(&location, None).await);
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(connection);
    client
        .execute(
            "INSERT INTO schema_versions (version, name, applied_ms) VALUES (99, 'future', 0)",
            &[],
        )
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    match Db::open(&location, Durability::Process, None).await {
        Err(DbError::Incompatible(why)) => assert!(why.contains("99"), "{why}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a newer store was opened"),
    }
}

/// A SQLite file damaged while the server was down (8 KiB overwritten in
/// the middle) is refused at start, naming the file and what to do — not
/// served with holes, nor called a passing trouble; a record found damaged
/// while running is a 500 `damaged_record` that says it will not heal.
#[tokio::test]
async fn a_damaged_sqlite_store_is_refused_at_start_and_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let location = Location::default_for(dir.path());
    let db = open(&location, None).await;
    for n in 0..400 {
        let id = format!("{n:032x}");
        db.create(new_match(&id)).await.unwrap();
        for m in 1..=3 {
            db.append(mv(&id, m, false)).await.unwrap();
        }
    }
    drop(db);
    let Location::Sqlite(path) = &location else {
        unreachable!("a SQLite store")
    };
    // Everything into the file itself, as after a clean stop.
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    drop(conn);
    let mut bytes = std::fs::read(path).unwrap();
    assert!(bytes.len() > 64 * 1024, "a file of {} bytes", bytes.len());
    let middle = bytes.len() / 2;
    bytes[middle..middle + 8192].fill(0xA5);
    std::fs::write(path, &bytes).unwrap();
    match Db::open(&location, Durability::Process, None).await {
        Err(DbError::Damaged(why)) => {
            assert!(why.contains(&path.display().to_string()), "{why}");
            assert!(why.contains("restore it from a backup"), "{why}");
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a damaged store was opened"),
    }
    let answer = server::http::error::ApiError::from(DbError::Damaged("x".into()));
    assert_eq!(answer.status, axum::http::StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(answer.code, "damaged_record");
    assert!(
        answer.message.contains("will not bring it back"),
        "{}",
        answer.message
    );
}

/// A store that does not answer (here: another process holds SQLite's
/// write lock, and the store's thread waits for it) is given up after the
/// time limit, and the request answered `503 store_unavailable` with
/// `Retry-After`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_does_not_answer_is_given_up_after_its_time_limit() {
    let (mut db, location, _held) = sqlite().await;
    db.set_timeout(Duration::from_millis(200));
    let Location::Sqlite(path) = &location else {
        unreachable!("a SQLite store")
    };
    let other = rusqlite::Connection::open(path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE;").unwrap();
    // Given up before SQLite's own wait for the lock (5 s) ends.
    let answer = db.create(new_match(&id(1))).await;
    assert_eq!(answer, Err(DbError::TimedOut { millis: 200 }));
    other.execute_batch("COMMIT;").unwrap();
    let error = server::http::error::ApiError::from(DbError::TimedOut { millis: 200 });
    assert_eq!(error.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(error.code, "store_unavailable");
    assert_eq!(error.retry_after, Some(1));
    let unavailable = server::http::error::ApiError::from(DbError::Unavailable("x".into()));
    assert_eq!(unavailable.retry_after, Some(1));
    // Once the lock is let go, the store answers again; the match whose
    // caller gave up was not made behind its back.
    db.create(new_match(&id(2))).await.unwrap();
    assert!(db.load(&id(1)).await.unwrap().is_none());
    assert!(db.load(&id(2)).await.unwrap().is_some());
}

/// A TCP relay to `to` on a loopback port that can be frozen: while
/// frozen, it passes nothing either way and keeps every connection open,
/// as a PostgreSQL stopped by `SIGSTOP` or stuck on its disk does.
struct Relay {
    addr: std::net::SocketAddr,
    frozen: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Relay {
    async fn to(to: String) -> Self {
        use std::sync::atomic::AtomicBool;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let frozen = std::sync::Arc::new(AtomicBool::new(false));
        let held = std::sync::Arc::clone(&frozen);
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(&to).await else {
                    continue;
                };
                let (client_in, client_out) = client.into_split();
                let (server_in, server_out) = server.into_split();
                tokio::spawn(pipe(client_in, server_out, std::sync::Arc::clone(&held)));
                tokio::spawn(pipe(server_in, client_out, std::sync::Arc::clone(&held)));
            }
        });
        Self { addr, frozen }
    }

    fn freeze(&self, frozen: bool) {
        self.frozen
            .store(frozen, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Passes what `from` reads to `into`, holding it while `frozen`.
async fn pipe(
    mut from: impl tokio::io::AsyncRead + Unpin,
    mut into: impl tokio::io::AsyncWrite + Unpin,
    frozen: std::sync::Arc<std::sync::atomic::AtomicBool>,
) {
    use std::sync::atomic::Ordering;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        while frozen.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let Ok(n) = from.read(&mut buffer).await else {
            return;
        };
        while frozen.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if n == 0 || into.write_all(&buffer[..n]).await.is_err() {
            return;
        }
    }
}

/// A PostgreSQL that stops answering (frozen behind a relay) is given up
/// after the store's time limit: a move is answered `503 store_unavailable`
/// with `Retry-After` within the limit, not after the freeze; once it
/// answers again, so does the store, with nothing half-done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_postgresql_is_given_up_after_the_time_limit() {
    let url = testkit::fresh_postgres().await;
    let (before, rest) = url.split_once('@').unwrap();
    let (host_port, database) = rest.split_once('/').unwrap();
    let relay = Relay::to(host_port.to_string()).await;
    let location = Location::Postgres(format!("{before}@{}/{database}", relay.addr));
    let mut db = open(&location, None).await;
    db.set_timeout(Duration::from_millis(300));
    db.create(new_match(&id(1))).await.unwrap();
    db.append(mv(&id(1), 1, false)).await.unwrap();
    relay.freeze(true);
    let asked = std::time::Instant::now();
    let answer = db.append(mv(&id(1), 2, false)).await;
    let waited = asked.elapsed();
    assert_eq!(answer, Err(DbError::TimedOut { millis: 300 }));
    assert!(
        waited < Duration::from_secs(3),
        "given up after {waited:?}, not at the limit"
    );
    let error = server::http::error::ApiError::from(answer.unwrap_err());
    assert_eq!(error.code, "store_unavailable");
    assert_eq!(error.retry_after, Some(1));
    // While it stays frozen, every call is given up at the limit.
    for _ in 0..3 {
        let asked = std::time::Instant::now();
        assert!(db.load(&id(1)).await.is_err());
        assert!(asked.elapsed() < Duration::from_secs(3));
    }
    relay.freeze(false);
    // The store answers again. The move given up was stored or not (its
    // transaction may still land), never twice: the next move is taken as
    // number 2, or refused as stale when 2 is there and taken as 3.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut next = 2;
    loop {
        match db.append(mv(&id(1), next, false)).await {
            Ok(_) => break,
            Err(DbError::Stale { now }) => next = now + 1,
            Err(_) if std::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the store did not come back: {e:?}"),
        }
    }
    assert!((2..=3).contains(&next), "move {next}");
    let held = db.load(&id(1)).await.unwrap().unwrap();
    assert_eq!(held.moves.len() as u32, next, "each move once");
    eprintln!("store: a frozen PostgreSQL given up after {waited:?} (limit 300 ms)");
}

/// SQLite's log: its size is told, and cut to nothing on demand (what a
/// stopping server does) with every move kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_log_is_measured_and_cut_with_nothing_lost() {
    let (db, location, _held) = sqlite().await;
    db.create(new_match(&id(1))).await.unwrap();
    for n in 1..=50 {
        db.append(mv(&id(1), n, false)).await.unwrap();
    }
    let before = db.log_bytes().unwrap();
    assert!(before > 0, "a log of {before} bytes");
    db.truncate_log().await.unwrap();
    assert_eq!(db.log_bytes(), Some(0));
    // Every move is in the database file, read afresh.
    drop(db);
    let again = open(&location, None).await;
    assert_eq!(again.load(&id(1)).await.unwrap().unwrap().moves.len(), 50);
}
