//! The PostgreSQL backend: a small pool of connections
//! ([`super::pg_pool`]), moves appended many in a statement
//! ([`super::pg_appends`]), and one more connection that listens for the
//! other servers' notices.
//!
//! Terms:
//! - **channel**: the `NOTIFY` channel `parlor`; every server listens to
//!   it. A claim notifies it in its own transaction; the moves appended
//!   together, in theirs ([`super::pg_appends`]).
//! - **resync**: when the listening connection is (re)made, notices may have
//!   been missed; once it is back, the server is told to read its live
//!   matches again ([`Notice::Resync`]).

use super::pg_appends::Appends;
use super::pg_pool::{Pool, Pooled, pg};
use super::{
    Bounds, Claim, Creator, DbError, GridActor, GridRow, GridSave, LOBBY_PER_CREATOR, LobbyRow,
    MAX_GRIDS, MAX_UNFINISHED, MoveRow, NewMatch, NewMove, Notice, SeatRow, StoredMatch, TokenRow,
    UNFINISHED_KEPT, schema,
};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::{AsyncMessage, Client, Config, GenericClient, NoTls, Statement};

/// The `NOTIFY` channel.
const CHANNEL: &str = "parlor";

/// A number every Parlor takes as its lock while migrating.
const MIGRATION_LOCK: i64 = 0x5041_524C_4F52;

pub(super) struct Postgres {
    pool: Arc<Pool>,
    /// Appends moves, many in a statement.
    appends: Appends,
}

impl Postgres {
    /// Connects to `url`, migrates, and starts listening for notices.
    pub(super) async fn open(
        url: &str,
        notices: broadcast::Sender<Notice>,
        origin: String,
    ) -> Result<Self, DbError> {
        let mut config = Config::from_str(url).map_err(|e| {
            DbError::Unavailable(format!("the PostgreSQL URL is not understood: {e}"))
        })?;
        config.connect_timeout(Duration::from_secs(10));
        if config.get_ssl_mode() == tokio_postgres::config::SslMode::Require {
            return Err(DbError::Unavailable(
                "this Parlor talks to PostgreSQL without TLS: use sslmode=disable or prefer, \
                 on a network you trust (or a TLS proxy on this machine)"
                    .into(),
            ));
        }
        let pool = Arc::new(Pool::new(config.clone()));
        let db = Self {
            appends: Appends::start(Arc::clone(&pool), CHANNEL, origin.clone()),
            pool,
        };
        db.migrate().await?;
        // The server listens before it serves, so that no notice is missed
        // between its start and its first LISTEN (if PostgreSQL is slow to
        // take the listening connection, the resync once it does covers
        // the matches loaded meanwhile).
        let (ready_tx, ready) = tokio::sync::oneshot::channel();
        tokio::spawn(listen(config, notices, origin, ready_tx));
        let _ = tokio::time::timeout(LISTEN_READY, ready).await;
        Ok(db)
    }

    pub(super) async fn conn(&self) -> Result<Pooled<'_>, DbError> {
        self.pool.conn().await
    }

    async fn migrate(&self) -> Result<(), DbError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(pg)?;
        tx.query_one("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(pg)?;
        tx.batch_execute(schema::VERSIONS_TABLE).await.map_err(pg)?;
        let done: i32 = tx
            .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_versions", &[])
            .await
            .map_err(pg)?
            .get(0);
        let done = u32::try_from(done).unwrap_or(0);
        schema::check_known(done)?;
        for migration in schema::MIGRATIONS.iter().filter(|m| m.version > done) {
            tx.batch_execute(migration.postgres).await.map_err(pg)?;
            tx.execute(
                "INSERT INTO schema_versions (version, name, applied_ms) VALUES ($1, $2, $3)",
                &[
                    &(migration.version as i32),
                    &migration.name,
                    &super::now_ms(),
                ],
            )
            .await
            .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)
    }

    pub(super) async fn create(
        &self,
        new: NewMatch,
        creator: Creator,
        bounds: Bounds,
    ) -> Result<(), DbError> {
        let mut conn = self.conn().await?;
        let create = conn.prepared(CREATE).await?;
        insert_match(&*conn, &create, &new, &creator, bounds).await
    }

    pub(super) async fn create_rematch(
        &self,
        old: &str,
        new: NewMatch,
        creator: Creator,
        origin: &str,
        bounds: Bounds,
    ) -> Result<Option<String>, DbError> {
        let mut conn = self.conn().await?;
        let create = conn.prepared(CREATE).await?;
        let tx = conn.transaction().await.map_err(pg)?;
        // The old match's row is locked until this commits: two servers
        // asking at once make one rematch.
        let Some(row) = tx
            .query_opt(
                "SELECT rematch FROM matches WHERE id = $1 FOR UPDATE",
                &[&old],
            )
            .await
            .map_err(pg)?
        else {
            return Err(DbError::NoMatch);
        };
        if let Some(made) = row.get::<_, Option<String>>(0) {
            return Ok(Some(made));
        }
        insert_match(&tx, &create, &new, &creator, bounds).await?;
        tx.execute(
            "UPDATE matches SET rematch = $2 WHERE id = $1",
            &[&old, &new.id],
        )
        .await
        .map_err(pg)?;
        // The other servers read the old match again, and tell its
        // watchers of the rematch.
        let notice = Notice::Seated {
            id: old.to_string(),
        };
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &notice.payload(origin)],
        )
        .await
        .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(None)
    }

    pub(super) async fn load(&self, id: &str) -> Result<Option<StoredMatch>, DbError> {
        let mut conn = self.conn().await?;
        let header = conn.prepared(MATCH_HEADER).await?;
        let reads = Reads::prepare(&mut conn).await?;
        // All four sent at once: one round trip, not four.
        let (row, moves, (seats, tokens)) = tokio::try_join!(
            async { conn.query_opt(&header, &[&id]).await.map_err(pg) },
            reads.moves_after(&conn, id, 0),
            reads.seating(&conn, id),
        )?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(StoredMatch {
            id: id.to_string(),
            game: row.get(0),
            header: row.get(1),
            title: row.get(2),
            created_ms: row.get(3),
            updated_ms: row.get(4),
            rematch: row.get(5),
            played: row.get(6),
            moves,
            seats,
            tokens,
        }))
    }

    pub(super) async fn seating(
        &self,
        id: &str,
    ) -> Result<Option<(Vec<SeatRow>, Vec<TokenRow>)>, DbError> {
        let mut conn = self.conn().await?;
        let found = conn.prepared(MATCH_FOUND).await?;
        let reads = Reads::prepare(&mut conn).await?;
        let (found, seating) = tokio::try_join!(
            async { conn.query_opt(&found, &[&id]).await.map_err(pg) },
            reads.seating(&conn, id),
        )?;
        Ok(found.map(|_| seating))
    }

    pub(super) async fn moves_after(&self, id: &str, after: u32) -> Result<Vec<MoveRow>, DbError> {
        let mut conn = self.conn().await?;
        let reads = Reads::prepare(&mut conn).await?;
        reads.moves_after(&conn, id, after).await
    }

    pub(super) async fn append(&self, mv: NewMove) -> Result<i64, DbError> {
        // One statement with the moves of other matches appended at the
        // same time, told to the other servers in the same commit.
        let id = mv.match_id.clone();
        if let Some(updated_ms) = self.appends.append(mv).await? {
            return Ok(updated_ms);
        }
        let conn = self.conn().await?;
        let now = conn
            .query_opt("SELECT moves FROM matches WHERE id = $1", &[&id])
            .await
            .map_err(pg)?;
        Err(now.map_or(DbError::NoMatch, |r| DbError::Stale {
            now: u32::try_from(r.get::<_, i32>(0)).unwrap_or(0),
        }))
    }

    pub(super) async fn claim(&self, claim: Claim, origin: &str) -> Result<bool, DbError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(pg)?;
        let seat = i32::from(claim.seat);
        // A seat anyone may take has no invite; one with an invite needs
        // it. The row is locked until the claim commits.
        let Some(row) = tx
            .query_opt(
                "SELECT invite IS NULL FROM seats
                 WHERE match_id = $1 AND seat = $2 AND NOT taken AND (invite IS NULL OR invite = $3)
                 FOR UPDATE",
                &[&claim.id, &seat, &claim.invite],
            )
            .await
            .map_err(pg)?
        else {
            return Ok(false);
        };
        let public: bool = row.get(0);
        let taken = tx
            .execute(
                "UPDATE seats SET invite = NULL, taken = TRUE, name = COALESCE($3, name)
                 WHERE match_id = $1 AND seat = $2 AND NOT taken",
                &[&claim.id, &seat, &claim.name],
            )
            .await
            .map_err(pg)?;
        if taken == 0 {
            return Ok(false);
        }
        let bit = (1u32 << (claim.seat - 1)) as i32;
        tx.execute(
            "INSERT INTO tokens (match_id, hash, seats, host) VALUES ($1, $2, $3, FALSE)
             ON CONFLICT (match_id, hash) DO UPDATE SET seats = tokens.seats | $3",
            &[&claim.id, &claim.token, &bit],
        )
        .await
        .map_err(pg)?;
        tx.execute(
            "UPDATE matches SET lobby_seats = lobby_seats - $3, updated_ms = $2, played = TRUE WHERE id = $1",
            &[&claim.id, &super::now_ms(), &i32::from(public)],
        )
        .await
        .map_err(pg)?;
        let notice = Notice::Seated {
            id: claim.id.clone(),
        };
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &notice.payload(origin)],
        )
        .await
        .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(true)
    }

    pub(super) async fn name_seat(
        &self,
        id: &str,
        seat: u8,
        name: &str,
        origin: &str,
    ) -> Result<bool, DbError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(pg)?;
        let changed = tx
            .execute(
                "UPDATE seats SET name = $3
                 WHERE match_id = $1 AND seat = $2
                   AND EXISTS (SELECT 1 FROM matches WHERE id = $1 AND NOT over)",
                &[&id, &i32::from(seat), &name],
            )
            .await
            .map_err(pg)?;
        if changed == 1 {
            let notice = Notice::Seated { id: id.to_string() };
            tx.execute(
                "SELECT pg_notify($1, $2)",
                &[&CHANNEL, &notice.payload(origin)],
            )
            .await
            .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)?;
        Ok(changed == 1)
    }

    pub(super) async fn reinvite(&self, id: &str, seat: u8, invite: &str) -> Result<bool, DbError> {
        let conn = self.conn().await?;
        let changed = conn
            .execute(
                "UPDATE seats SET invite = $3
                 WHERE match_id = $1 AND seat = $2 AND NOT taken AND invite IS NOT NULL",
                &[&id, &i32::from(seat), &invite],
            )
            .await
            .map_err(pg)?;
        Ok(changed == 1)
    }

    pub(super) async fn lobby(&self, limit: u32) -> Result<Vec<LobbyRow>, DbError> {
        let conn = self.conn().await?;
        let rows = conn
            .query(
                &super::LOBBY_QUERY.replace("?1", "$1").replace("?2", "$2"),
                &[&i64::from(limit), &i64::from(LOBBY_PER_CREATOR)],
            )
            .await
            .map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| LobbyRow {
                id: r.get(0),
                game: r.get(1),
                title: r.get(2),
                seats: u8::try_from(r.get::<_, i32>(3)).unwrap_or(0),
                open_seats: u8::try_from(r.get::<_, i32>(4)).unwrap_or(0),
                moves: u32::try_from(r.get::<_, i32>(5)).unwrap_or(0),
                created_ms: r.get(6),
                host: r.get(7),
            })
            .collect())
    }

    pub(super) async fn expire(
        &self,
        before_ms: i64,
        unplayed_before_ms: i64,
    ) -> Result<u64, DbError> {
        // Two statements in one transaction: the second's snapshot is taken
        // after the first has locked and deleted the matches, so it sees
        // every move stored in them, and no move can be stored in them
        // after (an append updates its match's row first, and finds none).
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(pg)?;
        let gone: Vec<String> = tx
            .query(
                "DELETE FROM matches WHERE NOT over
                 AND (updated_ms < $1 OR (NOT played AND updated_ms < $2))
                 RETURNING id",
                &[&before_ms, &unplayed_before_ms],
            )
            .await
            .map_err(pg)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        if !gone.is_empty() {
            tx.execute("DELETE FROM moves WHERE match_id = ANY($1)", &[&gone])
                .await
                .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)?;
        Ok(gone.len() as u64)
    }

    pub(super) async fn save_grid(
        &self,
        name: &str,
        text: &str,
        replace: bool,
        actor: &GridActor,
    ) -> Result<GridSave, DbError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(pg)?;
        // One saver at a time, so that the counts below stay true.
        tx.execute("LOCK TABLE grids IN SHARE ROW EXCLUSIVE MODE", &[])
            .await
            .map_err(pg)?;
        let owner: Option<String> = tx
            .query_opt("SELECT owner FROM grids WHERE name = $1", &[&name])
            .await
            .map_err(pg)?
            .map(|r| r.get(0));
        match owner {
            Some(_) if !replace => return Ok(GridSave::Exists),
            Some(owner) if !actor.may_change(&owner) => return Err(DbError::NotOwner),
            Some(_) => {
                tx.execute(
                    "UPDATE grids SET text = $2, updated_ms = $3 WHERE name = $1",
                    &[&name, &text, &super::now_ms()],
                )
                .await
                .map_err(pg)?;
                tx.commit().await.map_err(pg)?;
                return Ok(GridSave::Saved);
            }
            None => {}
        }
        for (column, value, limit, quota) in actor.counted_by() {
            let theirs: i64 = tx
                .query_one(
                    &format!("SELECT COUNT(*) FROM grids WHERE {column} = $1"),
                    &[&value],
                )
                .await
                .map_err(pg)?
                .get(0);
            if theirs >= i64::from(limit) {
                return Err(quota);
            }
        }
        let count: i64 = tx
            .query_one("SELECT COUNT(*) FROM grids", &[])
            .await
            .map_err(pg)?
            .get(0);
        if u64::try_from(count).unwrap_or(0) >= MAX_GRIDS {
            return Err(DbError::GridQuota {
                limit: MAX_GRIDS,
                whole: true,
                network: false,
            });
        }
        tx.execute(
            "INSERT INTO grids (name, text, updated_ms, owner, saver, saver_hood)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &name,
                &text,
                &super::now_ms(),
                &actor.owner,
                &actor.saver,
                &actor.neighbourhood,
            ],
        )
        .await
        .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(GridSave::Saved)
    }

    pub(super) async fn unfinished(&self) -> Result<u64, DbError> {
        let conn = self.conn().await?;
        let n: i64 = conn
            .query_one(
                "SELECT COALESCE(SUM(n), 0)::BIGINT FROM unfinished_counts",
                &[],
            )
            .await
            .map_err(pg)?
            .get(0);
        Ok(u64::try_from(n).unwrap_or(0))
    }

    pub(super) async fn grid(&self, name: &str) -> Result<Option<String>, DbError> {
        let conn = self.conn().await?;
        Ok(conn
            .query_opt("SELECT text FROM grids WHERE name = $1", &[&name])
            .await
            .map_err(pg)?
            .map(|r| r.get(0)))
    }

    pub(super) async fn grids(&self, limit: u32) -> Result<Vec<GridRow>, DbError> {
        let conn = self.conn().await?;
        let rows = conn
            .query(
                "SELECT name, octet_length(text), updated_ms FROM grids \
                 ORDER BY updated_ms DESC, name LIMIT $1",
                &[&i64::from(limit)],
            )
            .await
            .map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| GridRow {
                name: r.get(0),
                bytes: u64::try_from(r.get::<_, i32>(1)).unwrap_or(0),
                updated_ms: r.get(2),
            })
            .collect())
    }

    pub(super) async fn delete_grid(&self, name: &str, actor: &GridActor) -> Result<bool, DbError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await.map_err(pg)?;
        let owner: Option<String> = tx
            .query_opt(
                "SELECT owner FROM grids WHERE name = $1 FOR UPDATE",
                &[&name],
            )
            .await
            .map_err(pg)?
            .map(|r| r.get(0));
        match owner {
            None => return Ok(false),
            Some(owner) if !actor.may_change(&owner) => return Err(DbError::NotOwner),
            Some(_) => {}
        }
        let gone = tx
            .execute("DELETE FROM grids WHERE name = $1", &[&name])
            .await
            .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(gone == 1)
    }

    pub(super) async fn ping(&self) -> Result<(), DbError> {
        let conn = self.conn().await?;
        conn.simple_query("SELECT 1").await.map(|_| ()).map_err(pg)
    }

    pub(super) async fn setting(&self, key: &str) -> Result<Option<String>, DbError> {
        let conn = self.conn().await?;
        Ok(conn
            .query_opt("SELECT value FROM settings WHERE key = $1", &[&key])
            .await
            .map_err(pg)?
            .map(|r| r.get(0)))
    }

    pub(super) async fn set_setting(&self, key: &str, value: &str) -> Result<(), DbError> {
        let conn = self.conn().await?;
        conn.execute(
            "INSERT INTO settings (key, value) VALUES ($1, $2)
             ON CONFLICT (key) DO UPDATE SET value = $2",
            &[&key, &value],
        )
        .await
        .map(|_| ())
        .map_err(pg)
    }
}

/// Makes a match with its seats and tokens, in one statement, if the
/// server holds fewer than `$12` unfinished matches and, when `$13` is not
/// 0, its creator fewer than `$13` by address (`$10`) and by token (`$11`)
/// (an empty one is no one's); answers the rows of `matches` made (0 or 1).
const CREATE: &str = "WITH allowed AS (
         SELECT (SELECT COALESCE(SUM(n), 0)::BIGINT FROM unfinished_counts) < $12
            AND ($13::BIGINT = 0 OR (SELECT COUNT(*) FROM matches
                             WHERE NOT over AND creator = NULLIF($10, '')) < $13)
            AND ($13::BIGINT = 0 OR (SELECT COUNT(*) FROM matches
                             WHERE NOT over AND creator_token = NULLIF($11, '')) < $13)
            AS ok
     ), made AS (
         INSERT INTO matches (id, game, header, title, seat_count, lobby_seats, moves, status,
                              over, created_ms, updated_ms, creator, creator_token, played)
         SELECT $1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $9, $10, $11, FALSE FROM allowed WHERE ok
         RETURNING id
     ), seated AS (
         INSERT INTO seats (match_id, seat, invite, taken, name)
         SELECT made.id, s.seat, s.invite, s.taken, s.name
         FROM made, unnest($14::INTEGER[], $15::TEXT[], $16::BOOLEAN[], $17::TEXT[])
             AS s(seat, invite, taken, name)
     ), tokened AS (
         INSERT INTO tokens (match_id, hash, seats, host)
         SELECT made.id, t.hash, t.seats, t.host
         FROM made, unnest($18::TEXT[], $19::INTEGER[], $20::BOOLEAN[]) AS t(hash, seats, host)
     )
     SELECT COUNT(*) FROM made";

/// Makes `new` with `create` ([`CREATE`], prepared on `client`'s
/// connection), or says which limit refused it: its creator's (by address,
/// then by token) or the server's.
async fn insert_match(
    client: &impl GenericClient,
    create: &Statement,
    new: &NewMatch,
    creator: &Creator,
    bounds: Bounds,
) -> Result<(), DbError> {
    let lobby = new
        .seats
        .iter()
        .filter(|s| s.invite.is_none() && !s.taken)
        .count() as i32;
    let seat_count = i32::from(new.seat_count);
    let address = creator.client.as_deref().unwrap_or("");
    let token = creator.token.as_deref().unwrap_or("");
    let most = i64::try_from(MAX_UNFINISHED).unwrap_or(i64::MAX);
    let per_creator = i64::from(bounds.per_creator);
    let seats: Vec<i32> = new.seats.iter().map(|s| i32::from(s.seat)).collect();
    let invites: Vec<Option<&str>> = new.seats.iter().map(|s| s.invite.as_deref()).collect();
    let taken: Vec<bool> = new.seats.iter().map(|s| s.taken).collect();
    let names: Vec<Option<&str>> = new.seats.iter().map(|s| s.name.as_deref()).collect();
    let hashes: Vec<&str> = new.tokens.iter().map(|t| t.hash.as_str()).collect();
    let holds: Vec<i32> = new.tokens.iter().map(|t| t.seats as i32).collect();
    let hosts: Vec<bool> = new.tokens.iter().map(|t| t.host).collect();
    // Refused, but no limit found full when looked at just after (a match
    // ended meanwhile): tried once more.
    for _ in 0..2 {
        let made: i64 = client
            .query_one(
                create,
                &[
                    &new.id,
                    &new.game,
                    &new.header,
                    &new.title,
                    &seat_count,
                    &lobby,
                    &new.status,
                    &new.over,
                    &new.at_ms,
                    &address,
                    &token,
                    &most,
                    &per_creator,
                    &seats,
                    &invites,
                    &taken,
                    &names,
                    &hashes,
                    &holds,
                    &hosts,
                ],
            )
            .await
            .map_err(pg)?
            .get(0);
        if made > 0 {
            return Ok(());
        }
        if let Some(refusal) = refusal(client, new, creator, bounds).await? {
            return Err(refusal);
        }
    }
    Err(DbError::Unavailable(
        "the match could not be made: try again".into(),
    ))
}

/// Which limit refuses a new match now, if any: its creator's (by address,
/// then by token), then the server's.
async fn refusal(
    client: &impl GenericClient,
    new: &NewMatch,
    creator: &Creator,
    bounds: Bounds,
) -> Result<Option<DbError>, DbError> {
    let kept = UNFINISHED_KEPT.as_millis() as i64;
    let unplayed = bounds.unplayed_kept.as_millis() as i64;
    for (by, column, value) in creator.quota_keys() {
        let Some(value) = value else { continue };
        if bounds.per_creator == 0 {
            break;
        }
        let row = client
            .query_one(
                &format!(
                    "SELECT COUNT(*), MIN(updated_ms + CASE WHEN played THEN $2::BIGINT ELSE $3::BIGINT END)
                     FROM matches WHERE NOT over AND {column} = $1"
                ),
                &[&value, &kept, &unplayed],
            )
            .await
            .map_err(pg)?;
        let theirs: i64 = row.get(0);
        if theirs >= i64::from(bounds.per_creator) {
            let first: Option<i64> = row.get(1);
            return Ok(Some(DbError::Quota {
                limit: bounds.per_creator,
                by,
                retry_after: super::seconds_until(first.unwrap_or(new.at_ms), new.at_ms),
                unplayed_kept: bounds.unplayed_kept.as_secs(),
            }));
        }
    }
    let unfinished: i64 = client
        .query_one(
            "SELECT COALESCE(SUM(n), 0)::BIGINT FROM unfinished_counts",
            &[],
        )
        .await
        .map_err(pg)?
        .get(0);
    if u64::try_from(unfinished).unwrap_or(0) >= MAX_UNFINISHED {
        let first: Option<i64> = client
            .query_one(
                "SELECT MIN(updated_ms + CASE WHEN played THEN $1::BIGINT ELSE $2::BIGINT END)
                 FROM matches WHERE NOT over",
                &[&kept, &unplayed],
            )
            .await
            .map_err(pg)?
            .get(0);
        return Ok(Some(DbError::AtCapacity {
            retry_after: super::seconds_until(first.unwrap_or(new.at_ms), new.at_ms),
        }));
    }
    Ok(None)
}

/// A match's row, for [`Postgres::load`].
const MATCH_HEADER: &str = "SELECT game, header, title, created_ms, updated_ms, rematch, played FROM matches WHERE id = $1";

/// Whether a match is in the store.
const MATCH_FOUND: &str = "SELECT 1 FROM matches WHERE id = $1";

/// The statements that read a match's moves, seats and tokens, prepared on
/// one connection (tokio-postgres prepares a query given as text at every
/// call: a round trip more each).
struct Reads {
    moves: Statement,
    seats: Statement,
    tokens: Statement,
}

impl Reads {
    async fn prepare(conn: &mut Pooled<'_>) -> Result<Self, DbError> {
        Ok(Self {
            moves: conn
                .prepared(
                    "SELECT number, entry, at_ms FROM moves WHERE match_id = $1 AND number > $2 ORDER BY number",
                )
                .await?,
            seats: conn
                .prepared(
                    "SELECT seat, invite, taken, name FROM seats WHERE match_id = $1 ORDER BY seat",
                )
                .await?,
            tokens: conn
                .prepared("SELECT hash, seats, host FROM tokens WHERE match_id = $1")
                .await?,
        })
    }

    /// The moves of match `id` after the first `after`, in order.
    async fn moves_after(
        &self,
        conn: &Client,
        id: &str,
        after: u32,
    ) -> Result<Vec<MoveRow>, DbError> {
        let after = i32::try_from(after).unwrap_or(i32::MAX);
        let rows = conn.query(&self.moves, &[&id, &after]).await.map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| MoveRow {
                number: u32::try_from(r.get::<_, i32>(0)).unwrap_or(0),
                entry: r.get(1),
                at_ms: r.get(2),
            })
            .collect())
    }

    /// The person seats and the tokens of match `id`, both asked at once.
    async fn seating(
        &self,
        conn: &Client,
        id: &str,
    ) -> Result<(Vec<SeatRow>, Vec<TokenRow>), DbError> {
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 1] = [&id];
        let (seats, tokens) = tokio::try_join!(
            conn.query(&self.seats, &params),
            conn.query(&self.tokens, &params),
        )
        .map_err(pg)?;
        let seats = seats
            .iter()
            .map(|r| SeatRow {
                seat: u8::try_from(r.get::<_, i32>(0)).unwrap_or(0),
                invite: r.get(1),
                taken: r.get(2),
                name: r.get(3),
            })
            .collect();
        let tokens = tokens
            .iter()
            .map(|r| TokenRow {
                hash: r.get(0),
                seats: r.get::<_, i32>(1) as u32,
                host: r.get(2),
            })
            .collect();
        Ok((seats, tokens))
    }
}

/// How long opening the store waits for its first `LISTEN`.
const LISTEN_READY: Duration = Duration::from_secs(10);

/// Listens on the channel for ever: forwards the other servers' notices,
/// reconnects when the connection is lost, and after each `LISTEN` asks
/// for a resync (notices sent before it were not heard). `ready` is told
/// when the first `LISTEN` is in place.
async fn listen(
    config: Config,
    notices: broadcast::Sender<Notice>,
    origin: String,
    ready: tokio::sync::oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    loop {
        if let Ok((client, mut connection)) = config.connect(NoTls).await {
            let (ended_tx, ended) = tokio::sync::oneshot::channel::<()>();
            let forward = notices.clone();
            let me = origin.clone();
            let driver = tokio::spawn(async move {
                let mut messages =
                    futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                use futures_util::StreamExt;
                while let Some(Ok(message)) = messages.next().await {
                    if let AsyncMessage::Notification(n) = message
                        && let Some(notice) = Notice::parse(n.payload(), &me)
                    {
                        let _ = forward.send(notice);
                    }
                }
                let _ = ended_tx.send(());
            });
            if client
                .batch_execute(&format!("LISTEN {CHANNEL}"))
                .await
                .is_ok()
            {
                let _ = notices.send(Notice::Resync);
                if let Some(ready) = ready.take() {
                    let _ = ready.send(());
                }
                let _ = ended.await;
            }
            driver.abort();
            drop(client);
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
