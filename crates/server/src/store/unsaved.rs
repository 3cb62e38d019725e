//! A player's unsaved work in the store (uploaded boards, design
//! documents), in SQLite's and PostgreSQL's words, so that any server of a
//! cluster answers for it and a server's restart loses none of it.
//!
//! Terms:
//! - **piece** ([`NewPiece`]): one value of one **kind** (`board`,
//!   `design`) under a 32-hex-digit id, as JSON, with a **version** bumped
//!   by every change (a change made on a version another server has
//!   already changed is refused, [`Db::replace_piece`], and made again on
//!   the newer one by its caller).
//! - **maker** ([`PieceMaker`]): the digests of the client address, of its
//!   **neighbourhood** (an IPv4 address's /24, an IPv6 address's /48) and
//!   of the token that made a piece (`""` for none).
//! - **touched**: when a piece was last read or changed; one untouched for
//!   longer than the **idle** limit is gone. **used**: read since made.
//! - **room** ([`PieceLimits`]): a maker holds at most its **budget** of a
//!   kind (per address, and per token): a new piece beyond it pushes out
//!   the maker's own piece idle longest. A kind holds at most its
//!   **capacity**: when full, the piece pushed out is the **largest
//!   spender**'s: of the neighbourhood holding the most, of its addresses
//!   the one holding the most, a piece never used first, then the one idle
//!   longest. So a flood from many addresses pushes out its own work. On
//!   PostgreSQL, pieces kept at the same moment by several connections may
//!   each find room: the bounds hold to within as many as keep at once.

use super::pg_pool::pg;
use super::sqlite::sql;
use super::{Backend, Db, DbError};
use rusqlite::{OptionalExtension, params};

/// Who made a piece, as digests (`""` for none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PieceMaker {
    /// The client address's digest.
    pub client: String,
    /// Its neighbourhood's digest.
    pub hood: String,
    /// The token's digest.
    pub token: String,
}

/// How much room a kind has (see the module's terms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceLimits {
    /// The most pieces of the kind (at least 1).
    pub capacity: u64,
    /// The most one maker holds; 0 for no budget.
    pub budget: u64,
    /// How long a piece lasts untouched, in milliseconds.
    pub idle_ms: i64,
}

/// A piece to keep.
#[derive(Debug, Clone)]
pub struct NewPiece {
    /// `board`, `design`.
    pub kind: &'static str,
    /// 32 hex digits.
    pub id: String,
    /// The value, as JSON.
    pub body: String,
    /// Who made it.
    pub maker: PieceMaker,
}

/// A piece as read: its value and version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The value, as JSON.
    pub body: String,
    /// Bumped by every change.
    pub version: i64,
}

/// The statements of a kind's room, in one backend's words: the ids to
/// push out, each run until it finds none.
struct RoomQueries {
    /// Past a maker's budget: the maker's pieces after its newest
    /// `budget - 1`, by address (`?1` kind, `?2` client, `?3` budget − 1).
    by_client: &'static str,
    /// The same by token.
    by_token: &'static str,
    /// The largest spender's piece to push out (`?1` kind).
    largest: &'static str,
}

const SQLITE_ROOM: RoomQueries = RoomQueries {
    by_client: "SELECT id FROM unsaved_work WHERE kind = ?1 AND client = ?2
                ORDER BY touched_ms DESC LIMIT -1 OFFSET ?3",
    by_token: "SELECT id FROM unsaved_work WHERE kind = ?1 AND token = ?2
               ORDER BY touched_ms DESC LIMIT -1 OFFSET ?3",
    largest: LARGEST_SPENDER,
};

const POSTGRES_ROOM: RoomQueries = RoomQueries {
    by_client: "SELECT id FROM unsaved_work WHERE kind = $1 AND client = $2
                ORDER BY touched_ms DESC OFFSET $3",
    by_token: "SELECT id FROM unsaved_work WHERE kind = $1 AND token = $2
               ORDER BY touched_ms DESC OFFSET $3",
    largest: LARGEST_SPENDER_PG,
};

/// The largest spender's piece (see the module's terms), in SQLite's words.
const LARGEST_SPENDER: &str = "
WITH hood AS (
    SELECT hood FROM unsaved_work WHERE kind = ?1
    GROUP BY hood ORDER BY COUNT(*) DESC, hood LIMIT 1
), spender AS (
    SELECT client FROM unsaved_work WHERE kind = ?1 AND hood = (SELECT hood FROM hood)
    GROUP BY client ORDER BY COUNT(*) DESC, client LIMIT 1
)
SELECT id FROM unsaved_work
WHERE kind = ?1 AND hood = (SELECT hood FROM hood) AND client = (SELECT client FROM spender)
ORDER BY used, touched_ms LIMIT 1";

/// The same in PostgreSQL's words.
const LARGEST_SPENDER_PG: &str = "
WITH hood AS (
    SELECT hood FROM unsaved_work WHERE kind = $1
    GROUP BY hood ORDER BY COUNT(*) DESC, hood LIMIT 1
), spender AS (
    SELECT client FROM unsaved_work WHERE kind = $1 AND hood = (SELECT hood FROM hood)
    GROUP BY client ORDER BY COUNT(*) DESC, client LIMIT 1
)
SELECT id FROM unsaved_work
WHERE kind = $1 AND hood = (SELECT hood FROM hood) AND client = (SELECT client FROM spender)
ORDER BY used, touched_ms LIMIT 1";

impl Db {
    /// Keeps `piece`, first dropping its kind's idle pieces and making room
    /// as the module's terms say; answers how many pieces were pushed out.
    ///
    /// # Errors
    /// When the store fails (an id already kept is a failure: ids are
    /// drawn fresh).
    pub async fn put_piece(
        &self,
        piece: NewPiece,
        limits: PieceLimits,
        now_ms: i64,
    ) -> Result<u64, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| put_sqlite(c, &piece, limits, now_ms))
                        .await
                }
                Backend::Postgres(db) => {
                    let mut conn = db.conn().await?;
                    // No lock: pieces kept at the same moment may each see
                    // room for one more (a kind or a maker may hold a few
                    // past its bound, as many as keep at once), where one
                    // lock would make every server's makers wait in line.
                    let tx = conn.transaction().await.map_err(pg)?;
                    let kind = piece.kind;
                    let mut gone = tx
                        .execute(
                            "DELETE FROM unsaved_work WHERE kind = $1 AND touched_ms < $2",
                            &[&kind, &(now_ms - limits.idle_ms)],
                        )
                        .await
                        .map_err(pg)?;
                    if limits.budget > 0 {
                        let keep = i64::try_from(limits.budget - 1).unwrap_or(i64::MAX);
                        for (query, who) in [
                            (POSTGRES_ROOM.by_client, &piece.maker.client),
                            (POSTGRES_ROOM.by_token, &piece.maker.token),
                        ] {
                            if who.is_empty() {
                                continue;
                            }
                            for row in tx.query(query, &[&kind, who, &keep]).await.map_err(pg)? {
                                let id: String = row.get(0);
                                gone += tx
                                    .execute("DELETE FROM unsaved_work WHERE id = $1", &[&id])
                                    .await
                                    .map_err(pg)?;
                            }
                        }
                    }
                    loop {
                        let held: i64 = tx
                            .query_one("SELECT COUNT(*) FROM unsaved_work WHERE kind = $1", &[&kind])
                            .await
                            .map_err(pg)?
                            .get(0);
                        if u64::try_from(held).unwrap_or(0) < limits.capacity.max(1) {
                            break;
                        }
                        let Some(row) = tx
                            .query_opt(POSTGRES_ROOM.largest, &[&kind])
                            .await
                            .map_err(pg)?
                        else {
                            break;
                        };
                        let id: String = row.get(0);
                        gone += tx
                            .execute("DELETE FROM unsaved_work WHERE id = $1", &[&id])
                            .await
                            .map_err(pg)?;
                    }
                    tx.execute(
                        "INSERT INTO unsaved_work (id, kind, body, version, client, hood, token, used, touched_ms)
                         VALUES ($1, $2, $3, 1, $4, $5, $6, FALSE, $7)",
                        &[
                            &piece.id,
                            &kind,
                            &piece.body,
                            &piece.maker.client,
                            &piece.maker.hood,
                            &piece.maker.token,
                            &now_ms,
                        ],
                    )
                    .await
                    .map_err(pg)?;
                    tx.commit().await.map_err(pg)?;
                    Ok(gone)
                }
            }
        })
        .await
    }

    /// The piece `id` of `kind`, touched and marked used; none when there
    /// is none, or it was idle past `idle_ms`.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn take_piece(
        &self,
        kind: &'static str,
        id: &str,
        idle_ms: i64,
        now_ms: i64,
    ) -> Result<Option<Piece>, DbError> {
        let id = id.to_string();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        c.query_row(
                            "UPDATE unsaved_work SET touched_ms = ?1, used = 1
                             WHERE id = ?2 AND kind = ?3 AND touched_ms >= ?4
                             RETURNING body, version",
                            params![now_ms, id, kind, now_ms - idle_ms],
                            |r| {
                                Ok(Piece {
                                    body: r.get(0)?,
                                    version: r.get(1)?,
                                })
                            },
                        )
                        .optional()
                        .map_err(sql)
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let conn = db.conn().await?;
                    Ok(conn
                        .query_opt(
                            "UPDATE unsaved_work SET touched_ms = $1, used = TRUE
                             WHERE id = $2 AND kind = $3 AND touched_ms >= $4
                             RETURNING body, version",
                            &[&now_ms, &id, &kind, &(now_ms - idle_ms)],
                        )
                        .await
                        .map_err(pg)?
                        .map(|r| Piece {
                            body: r.get(0),
                            version: r.get(1),
                        }))
                }
            }
        })
        .await
    }

    /// Replaces the piece `id` of `kind` by `body` if it is still at
    /// `version`; false when it changed meanwhile or is gone.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn replace_piece(
        &self,
        kind: &'static str,
        id: &str,
        body: String,
        version: i64,
        now_ms: i64,
    ) -> Result<bool, DbError> {
        let id = id.to_string();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        c.execute(
                            "UPDATE unsaved_work SET body = ?1, version = version + 1, touched_ms = ?2
                             WHERE id = ?3 AND kind = ?4 AND version = ?5",
                            params![body, now_ms, id, kind, version],
                        )
                        .map(|n| n == 1)
                        .map_err(sql)
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let conn = db.conn().await?;
                    Ok(conn
                        .execute(
                            "UPDATE unsaved_work SET body = $1, version = version + 1, touched_ms = $2
                             WHERE id = $3 AND kind = $4 AND version = $5",
                            &[&body, &now_ms, &id, &kind, &version],
                        )
                        .await
                        .map_err(pg)?
                        == 1)
                }
            }
        })
        .await
    }

    /// Drops the piece `id` of `kind`; false when there was none.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn remove_piece(&self, kind: &'static str, id: &str) -> Result<bool, DbError> {
        let id = id.to_string();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        c.execute(
                            "DELETE FROM unsaved_work WHERE id = ?1 AND kind = ?2",
                            params![id, kind],
                        )
                        .map(|n| n == 1)
                        .map_err(sql)
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let conn = db.conn().await?;
                    Ok(conn
                        .execute(
                            "DELETE FROM unsaved_work WHERE id = $1 AND kind = $2",
                            &[&id, &kind],
                        )
                        .await
                        .map_err(pg)?
                        == 1)
                }
            }
        })
        .await
    }

    /// How many pieces of `kind` are kept (idle ones included until the
    /// next piece of the kind is kept).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn count_pieces(&self, kind: &'static str) -> Result<u64, DbError> {
        self.within(async move {
            let held: i64 = match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        c.query_row(
                            "SELECT COUNT(*) FROM unsaved_work WHERE kind = ?1",
                            [kind],
                            |r| r.get(0),
                        )
                        .map_err(sql)
                    })
                    .await?
                }
                Backend::Postgres(db) => db
                    .conn()
                    .await?
                    .query_one(
                        "SELECT COUNT(*) FROM unsaved_work WHERE kind = $1",
                        &[&kind],
                    )
                    .await
                    .map_err(pg)?
                    .get(0),
            };
            Ok(u64::try_from(held).unwrap_or(0))
        })
        .await
    }
}

/// [`Db::put_piece`] on SQLite's connection, inside its transaction.
fn put_sqlite(
    c: &rusqlite::Connection,
    piece: &NewPiece,
    limits: PieceLimits,
    now_ms: i64,
) -> Result<u64, DbError> {
    let kind = piece.kind;
    let mut gone = c
        .execute(
            "DELETE FROM unsaved_work WHERE kind = ?1 AND touched_ms < ?2",
            params![kind, now_ms - limits.idle_ms],
        )
        .map_err(sql)? as u64;
    let delete = |id: &str| -> Result<u64, DbError> {
        c.execute("DELETE FROM unsaved_work WHERE id = ?1", [id])
            .map(|n| n as u64)
            .map_err(sql)
    };
    if limits.budget > 0 {
        let keep = i64::try_from(limits.budget - 1).unwrap_or(i64::MAX);
        for (query, who) in [
            (SQLITE_ROOM.by_client, &piece.maker.client),
            (SQLITE_ROOM.by_token, &piece.maker.token),
        ] {
            if who.is_empty() {
                continue;
            }
            let mut s = c.prepare_cached(query).map_err(sql)?;
            let ids = s
                .query_map(params![kind, who, keep], |r| r.get::<_, String>(0))
                .map_err(sql)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(sql)?;
            for id in ids {
                gone += delete(&id)?;
            }
        }
    }
    loop {
        let held: i64 = c
            .query_row(
                "SELECT COUNT(*) FROM unsaved_work WHERE kind = ?1",
                [kind],
                |r| r.get(0),
            )
            .map_err(sql)?;
        if u64::try_from(held).unwrap_or(0) < limits.capacity.max(1) {
            break;
        }
        let id: Option<String> = c
            .query_row(SQLITE_ROOM.largest, [kind], |r| r.get(0))
            .optional()
            .map_err(sql)?;
        let Some(id) = id else { break };
        gone += delete(&id)?;
    }
    c.execute(
        "INSERT INTO unsaved_work (id, kind, body, version, client, hood, token, used, touched_ms)
         VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, 0, ?7)",
        params![
            piece.id,
            kind,
            piece.body,
            piece.maker.client,
            piece.maker.hood,
            piece.maker.token,
            now_ms
        ],
    )
    .map_err(sql)?;
    Ok(gone)
}
