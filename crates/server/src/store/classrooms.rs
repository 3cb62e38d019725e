//! Classrooms in the store, in SQLite's and PostgreSQL's words.
//!
//! Terms:
//! - **classroom** ([`ClassroomRow`]): a teacher's room under a
//!   32-hex-digit id — the digest of the teacher's token, its creator's
//!   digests (counted as a match's are), its setup (board, rules, activity)
//!   as JSON, its class game (`together`, the server's own token for it
//!   included: never shown), its **round** (bumped by a reset or a new
//!   board: the figures count the current round's games only) and its
//!   **version** (bumped by every change, which live pages poll).
//! - **student** ([`StudentRow`]): a name in the class, numbered in the
//!   order they joined, with the digest of their token.
//! - **class game** ([`ClassGameRow`]): a match the classroom made, noted
//!   when made and given its length (rolls by all players) and winner when
//!   it ends ([`Db::finish_class_game`]), at most once.
//! - **expiry**: a classroom untouched for [`super::UNFINISHED_KEPT`] is
//!   deleted with its students and games; one nobody joined, after
//!   [`super::Bounds::unplayed_kept`] — as a match.

use super::pg_pool::pg;
use super::sqlite::sql;
use super::{Backend, Bounds, Creator, Db, DbError};
use rusqlite::{OptionalExtension, params};

/// The most classrooms the store holds.
pub const MAX_CLASSROOMS: u64 = 10_000;

/// A classroom as it is opened.
#[derive(Debug, Clone)]
pub struct NewClassroom {
    /// 32 hex digits.
    pub id: String,
    /// The digest of the teacher's token.
    pub token: String,
    /// The setup, as JSON.
    pub setup: String,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
}

/// A classroom's own row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassroomRow {
    /// Its id.
    pub id: String,
    /// The digest of the teacher's token.
    pub token: String,
    /// The setup, as JSON.
    pub setup: String,
    /// The class game, as JSON (with its token: never shown).
    pub together: Option<String>,
    /// The round the figures count.
    pub round: u32,
    /// Bumped by every change.
    pub version: i64,
    /// When it was opened and last changed.
    pub created_ms: i64,
    /// See above.
    pub updated_ms: i64,
}

/// A student.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentRow {
    /// From 1, in the order they joined.
    pub number: u32,
    /// Their name (checked by the match layer's rules).
    pub name: String,
    /// The digest of their token.
    pub token: String,
}

/// A match a classroom made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassGameRow {
    /// The match's id.
    pub match_id: String,
    /// The round it was made in.
    pub round: u32,
    /// The student who asked for it (none for the class game).
    pub student: Option<u32>,
    /// Who plays, in words ("Ada", "Ada and a bot", "Team 1 and Team 2").
    pub players: String,
    /// Its seats.
    pub seats: u8,
    /// Rolls by all players, once over with a winner.
    pub rolls: Option<u32>,
    /// The winning seat, once over with a winner.
    pub winner: Option<u8>,
    /// The winner's name.
    pub winner_name: Option<String>,
    /// When it was made.
    pub started_ms: i64,
    /// When it ended.
    pub finished_ms: Option<i64>,
}

/// A classroom with its students and the games of its round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classroom {
    /// Its row.
    pub row: ClassroomRow,
    /// Its students, in the order they joined.
    pub students: Vec<StudentRow>,
    /// The games of its current round: the finished ones in the order they
    /// ended, then those still on.
    pub games: Vec<ClassGameRow>,
}

/// A change a teacher makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassroomChange {
    /// A new setup: a new round, and no class game.
    Setup(String),
    /// A new round on the same setup, and no class game.
    Reset,
    /// The class game (none to end it).
    Together(Option<String>),
}

/// A student's join, as the store answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Joined {
    /// Their number.
    Number(u32),
    /// Refused: the words say why (a name taken, the class full).
    Refused(String),
}

impl Db {
    /// Opens a classroom made by `creator`, who may hold at most
    /// [`Bounds::per_creator`] classrooms (as unfinished matches).
    ///
    /// # Errors
    /// [`DbError::Quota`] when the creator holds their most,
    /// [`DbError::AtCapacity`] when the store holds [`MAX_CLASSROOMS`], or
    /// the store fails.
    pub async fn create_classroom(
        &self,
        new: NewClassroom,
        creator: Creator,
    ) -> Result<(), DbError> {
        let bounds = self.bounds;
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        for (by, column, value) in creator.quota_keys() {
                            let Some(value) = value else { continue };
                            let (count, first): (i64, Option<i64>) = c
                                .query_row(
                                    &format!(
                                        "SELECT COUNT(*), MIN(updated_ms) FROM classrooms WHERE {column} = ?1"
                                    ),
                                    [value],
                                    |r| Ok((r.get(0)?, r.get(1)?)),
                                )
                                .map_err(sql)?;
                            check_quota(bounds, by, count, first, new.at_ms)?;
                        }
                        let (all, first): (i64, Option<i64>) = c
                            .query_row("SELECT COUNT(*), MIN(updated_ms) FROM classrooms", [], |r| {
                                Ok((r.get(0)?, r.get(1)?))
                            })
                            .map_err(sql)?;
                        check_capacity(bounds, all, first, new.at_ms)?;
                        c.execute(
                            "INSERT INTO classrooms (id, token, creator, creator_token, setup, together,
                             round, version, joined, created_ms, updated_ms)
                             VALUES (?1, ?2, ?3, ?4, ?5, NULL, 1, 1, 0, ?6, ?6)",
                            params![new.id, new.token, creator.client, creator.token, new.setup, new.at_ms],
                        )
                        .map_err(sql)?;
                        Ok(())
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let mut conn = db.conn().await?;
                    let tx = conn.transaction().await.map_err(pg)?;
                    // One opener at a time, so that the counts stay true.
                    tx.execute("LOCK TABLE classrooms IN SHARE ROW EXCLUSIVE MODE", &[])
                        .await
                        .map_err(pg)?;
                    for (by, column, value) in creator.quota_keys() {
                        let Some(value) = value else { continue };
                        let row = tx
                            .query_one(
                                &format!(
                                    "SELECT COUNT(*), MIN(updated_ms) FROM classrooms WHERE {column} = $1"
                                ),
                                &[&value],
                            )
                            .await
                            .map_err(pg)?;
                        check_quota(bounds, by, row.get(0), row.get(1), new.at_ms)?;
                    }
                    let row = tx
                        .query_one("SELECT COUNT(*), MIN(updated_ms) FROM classrooms", &[])
                        .await
                        .map_err(pg)?;
                    check_capacity(bounds, row.get(0), row.get(1), new.at_ms)?;
                    tx.execute(
                        "INSERT INTO classrooms (id, token, creator, creator_token, setup, together,
                         round, version, joined, created_ms, updated_ms)
                         VALUES ($1, $2, $3, $4, $5, NULL, 1, 1, FALSE, $6, $6)",
                        &[
                            &new.id,
                            &new.token,
                            &creator.client,
                            &creator.token,
                            &new.setup,
                            &new.at_ms,
                        ],
                    )
                    .await
                    .map_err(pg)?;
                    tx.commit().await.map_err(pg)
                }
            }
        })
        .await
    }

    /// The classroom `id` with its students and its round's games, if it
    /// is kept.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn classroom(&self, id: &str) -> Result<Option<Classroom>, DbError> {
        let id = id.to_string();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        let row = c
                            .query_row(
                                "SELECT token, setup, together, round, version, created_ms, updated_ms
                                 FROM classrooms WHERE id = ?1",
                                [&id],
                                |r| {
                                    Ok(ClassroomRow {
                                        id: id.clone(),
                                        token: r.get(0)?,
                                        setup: r.get(1)?,
                                        together: r.get(2)?,
                                        round: r.get(3)?,
                                        version: r.get(4)?,
                                        created_ms: r.get(5)?,
                                        updated_ms: r.get(6)?,
                                    })
                                },
                            )
                            .optional()
                            .map_err(sql)?;
                        let Some(row) = row else { return Ok(None) };
                        let mut s = c
                            .prepare_cached(
                                "SELECT number, name, token FROM classroom_students
                                 WHERE classroom_id = ?1 ORDER BY number",
                            )
                            .map_err(sql)?;
                        let students = s
                            .query_map([&id], |r| {
                                Ok(StudentRow {
                                    number: r.get(0)?,
                                    name: r.get(1)?,
                                    token: r.get(2)?,
                                })
                            })
                            .map_err(sql)?
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(sql)?;
                        let mut s = c
                            .prepare_cached(
                                "SELECT match_id, round, student, players, seats, rolls, winner,
                                 winner_name, started_ms, finished_ms FROM classroom_games
                                 WHERE classroom_id = ?1 AND round = ?2
                                 ORDER BY finished_ms IS NULL, finished_ms, started_ms, match_id",
                            )
                            .map_err(sql)?;
                        let games = s
                            .query_map(params![id, row.round], |r| {
                                Ok(ClassGameRow {
                                    match_id: r.get(0)?,
                                    round: r.get(1)?,
                                    student: r.get(2)?,
                                    players: r.get(3)?,
                                    seats: r.get(4)?,
                                    rolls: r.get(5)?,
                                    winner: r.get(6)?,
                                    winner_name: r.get(7)?,
                                    started_ms: r.get(8)?,
                                    finished_ms: r.get(9)?,
                                })
                            })
                            .map_err(sql)?
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(sql)?;
                        Ok(Some(Classroom {
                            row,
                            students,
                            games,
                        }))
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let conn = db.conn().await?;
                    let Some(r) = conn
                        .query_opt(
                            "SELECT token, setup, together, round, version, created_ms, updated_ms
                             FROM classrooms WHERE id = $1",
                            &[&id],
                        )
                        .await
                        .map_err(pg)?
                    else {
                        return Ok(None);
                    };
                    let row = ClassroomRow {
                        id: id.clone(),
                        token: r.get(0),
                        setup: r.get(1),
                        together: r.get(2),
                        round: u32::try_from(r.get::<_, i32>(3)).unwrap_or(0),
                        version: r.get(4),
                        created_ms: r.get(5),
                        updated_ms: r.get(6),
                    };
                    let students = conn
                        .query(
                            "SELECT number, name, token FROM classroom_students
                             WHERE classroom_id = $1 ORDER BY number",
                            &[&id],
                        )
                        .await
                        .map_err(pg)?
                        .iter()
                        .map(|r| StudentRow {
                            number: u32::try_from(r.get::<_, i32>(0)).unwrap_or(0),
                            name: r.get(1),
                            token: r.get(2),
                        })
                        .collect();
                    let round = i32::try_from(row.round).unwrap_or(i32::MAX);
                    let games = conn
                        .query(
                            "SELECT match_id, round, student, players, seats, rolls, winner,
                             winner_name, started_ms, finished_ms FROM classroom_games
                             WHERE classroom_id = $1 AND round = $2
                             ORDER BY finished_ms IS NULL, finished_ms, started_ms, match_id",
                            &[&id, &round],
                        )
                        .await
                        .map_err(pg)?
                        .iter()
                        .map(|r| ClassGameRow {
                            match_id: r.get(0),
                            round: u32::try_from(r.get::<_, i32>(1)).unwrap_or(0),
                            student: r
                                .get::<_, Option<i32>>(2)
                                .and_then(|n| u32::try_from(n).ok()),
                            players: r.get(3),
                            seats: u8::try_from(r.get::<_, i32>(4)).unwrap_or(0),
                            rolls: r
                                .get::<_, Option<i32>>(5)
                                .and_then(|n| u32::try_from(n).ok()),
                            winner: r
                                .get::<_, Option<i32>>(6)
                                .and_then(|n| u8::try_from(n).ok()),
                            winner_name: r.get(7),
                            started_ms: r.get(8),
                            finished_ms: r.get(9),
                        })
                        .collect();
                    Ok(Some(Classroom {
                        row,
                        students,
                        games,
                    }))
                }
            }
        })
        .await
    }

    /// The classroom's version (bumped by every change), if it is kept.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn classroom_version(&self, id: &str) -> Result<Option<i64>, DbError> {
        let id = id.to_string();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        c.query_row("SELECT version FROM classrooms WHERE id = ?1", [&id], |r| {
                            r.get(0)
                        })
                        .optional()
                        .map_err(sql)
                    })
                    .await
                }
                Backend::Postgres(db) => Ok(db
                    .conn()
                    .await?
                    .query_opt("SELECT version FROM classrooms WHERE id = $1", &[&id])
                    .await
                    .map_err(pg)?
                    .map(|r| r.get(0))),
            }
        })
        .await
    }

    /// Adds a student named `name` (checked already) to classroom `id`,
    /// unless it holds `most` students or `refuse` refuses the name beside
    /// the names taken (it returns the reason).
    ///
    /// # Errors
    /// [`DbError::NoMatch`] for no such classroom, or the store fails.
    pub async fn add_student(
        &self,
        id: &str,
        name: &str,
        token: &str,
        most: u32,
        refuse: impl Fn(&[String]) -> Option<String> + Send + 'static,
    ) -> Result<Joined, DbError> {
        let (id, name, token) = (id.to_string(), name.to_string(), token.to_string());
        let now = super::now_ms();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        let found: Option<i64> = c
                            .query_row("SELECT version FROM classrooms WHERE id = ?1", [&id], |r| {
                                r.get(0)
                            })
                            .optional()
                            .map_err(sql)?;
                        if found.is_none() {
                            return Err(DbError::NoMatch);
                        }
                        let mut s = c
                            .prepare_cached(
                                "SELECT name FROM classroom_students WHERE classroom_id = ?1",
                            )
                            .map_err(sql)?;
                        let names = s
                            .query_map([&id], |r| r.get::<_, String>(0))
                            .map_err(sql)?
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(sql)?;
                        if let Some(why) = join_refusal(&names, most, &refuse) {
                            return Ok(Joined::Refused(why));
                        }
                        let number = names.len() as u32 + 1;
                        c.execute(
                            "INSERT INTO classroom_students (classroom_id, number, name, token)
                             VALUES (?1, ?2, ?3, ?4)",
                            params![id, number, name, token],
                        )
                        .map_err(sql)?;
                        c.execute(
                            "UPDATE classrooms SET version = version + 1, joined = 1, updated_ms = ?2
                             WHERE id = ?1",
                            params![id, now],
                        )
                        .map_err(sql)?;
                        Ok(Joined::Number(number))
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let mut conn = db.conn().await?;
                    let tx = conn.transaction().await.map_err(pg)?;
                    // The classroom's row, locked: one join at a time.
                    if tx
                        .query_opt("SELECT version FROM classrooms WHERE id = $1 FOR UPDATE", &[&id])
                        .await
                        .map_err(pg)?
                        .is_none()
                    {
                        return Err(DbError::NoMatch);
                    }
                    let names: Vec<String> = tx
                        .query(
                            "SELECT name FROM classroom_students WHERE classroom_id = $1",
                            &[&id],
                        )
                        .await
                        .map_err(pg)?
                        .iter()
                        .map(|r| r.get(0))
                        .collect();
                    if let Some(why) = join_refusal(&names, most, &refuse) {
                        return Ok(Joined::Refused(why));
                    }
                    let number = names.len() as u32 + 1;
                    tx.execute(
                        "INSERT INTO classroom_students (classroom_id, number, name, token)
                         VALUES ($1, $2, $3, $4)",
                        &[&id, &(number as i32), &name, &token],
                    )
                    .await
                    .map_err(pg)?;
                    tx.execute(
                        "UPDATE classrooms SET version = version + 1, joined = TRUE, updated_ms = $2
                         WHERE id = $1",
                        &[&id, &now],
                    )
                    .await
                    .map_err(pg)?;
                    tx.commit().await.map_err(pg)?;
                    Ok(Joined::Number(number))
                }
            }
        })
        .await
    }

    /// Notes a match classroom `classroom` made, in its round `game.round`.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn add_class_game(&self, classroom: &str, game: ClassGameRow) -> Result<(), DbError> {
        let classroom = classroom.to_string();
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        c.execute(
                            "INSERT INTO classroom_games (match_id, classroom_id, round, student,
                             players, seats, started_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                            params![
                                game.match_id,
                                classroom,
                                game.round,
                                game.student,
                                game.players,
                                game.seats,
                                game.started_ms
                            ],
                        )
                        .map_err(sql)?;
                        c.execute(
                            "UPDATE classrooms SET updated_ms = ?2 WHERE id = ?1",
                            params![classroom, game.started_ms],
                        )
                        .map_err(sql)?;
                        Ok(())
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let conn = db.conn().await?;
                    conn.execute(
                        "INSERT INTO classroom_games (match_id, classroom_id, round, student,
                         players, seats, started_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        &[
                            &game.match_id,
                            &classroom,
                            &(game.round as i32),
                            &game.student.map(|n| n as i32),
                            &game.players,
                            &i32::from(game.seats),
                            &game.started_ms,
                        ],
                    )
                    .await
                    .map_err(pg)?;
                    conn.execute(
                        "UPDATE classrooms SET updated_ms = $2 WHERE id = $1",
                        &[&classroom, &game.started_ms],
                    )
                    .await
                    .map_err(pg)?;
                    Ok(())
                }
            }
        })
        .await
    }

    /// Notes how match `match_id` ended, if a classroom made it and it was
    /// not noted yet; returns the classroom's id then (its version bumped).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn finish_class_game(
        &self,
        match_id: &str,
        rolls: Option<u32>,
        winner: Option<(u8, String)>,
        at_ms: i64,
    ) -> Result<Option<String>, DbError> {
        let match_id = match_id.to_string();
        self.within(async move {
            let (seat, name) = winner.unzip();
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        let classroom: Option<String> = c
                            .query_row(
                                "UPDATE classroom_games SET rolls = ?2, winner = ?3, winner_name = ?4,
                                 finished_ms = ?5 WHERE match_id = ?1 AND finished_ms IS NULL
                                 RETURNING classroom_id",
                                params![match_id, rolls, seat, name, at_ms],
                                |r| r.get(0),
                            )
                            .optional()
                            .map_err(sql)?;
                        if let Some(id) = &classroom {
                            c.execute(
                                "UPDATE classrooms SET version = version + 1, updated_ms = ?2
                                 WHERE id = ?1",
                                params![id, at_ms],
                            )
                            .map_err(sql)?;
                        }
                        Ok(classroom)
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let mut conn = db.conn().await?;
                    let tx = conn.transaction().await.map_err(pg)?;
                    let classroom: Option<String> = tx
                        .query_opt(
                            "UPDATE classroom_games SET rolls = $2, winner = $3, winner_name = $4,
                             finished_ms = $5 WHERE match_id = $1 AND finished_ms IS NULL
                             RETURNING classroom_id",
                            &[
                                &match_id,
                                &rolls.map(|n| i32::try_from(n).unwrap_or(i32::MAX)),
                                &seat.map(i32::from),
                                &name,
                                &at_ms,
                            ],
                        )
                        .await
                        .map_err(pg)?
                        .map(|r| r.get(0));
                    if let Some(id) = &classroom {
                        tx.execute(
                            "UPDATE classrooms SET version = version + 1, updated_ms = $2
                             WHERE id = $1",
                            &[id, &at_ms],
                        )
                        .await
                        .map_err(pg)?;
                    }
                    tx.commit().await.map_err(pg)?;
                    Ok(classroom)
                }
            }
        })
        .await
    }

    /// Makes a teacher's change to classroom `id`; false for no such
    /// classroom.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn change_classroom(
        &self,
        id: &str,
        change: ClassroomChange,
    ) -> Result<bool, DbError> {
        let id = id.to_string();
        let now = super::now_ms();
        let (setup, new_round, together) = match change {
            ClassroomChange::Setup(setup) => (Some(setup), true, None),
            ClassroomChange::Reset => (None, true, None),
            ClassroomChange::Together(game) => (None, false, game),
        };
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.call(move |c| {
                        let n = c
                            .execute(
                                "UPDATE classrooms SET setup = COALESCE(?2, setup),
                                 round = round + ?3, together = ?4, version = version + 1,
                                 updated_ms = ?5 WHERE id = ?1",
                                params![id, setup, i64::from(new_round), together, now],
                            )
                            .map_err(sql)?;
                        Ok(n == 1)
                    })
                    .await
                }
                Backend::Postgres(db) => {
                    let n = db
                        .conn()
                        .await?
                        .execute(
                            "UPDATE classrooms SET setup = COALESCE($2, setup),
                             round = round + $3, together = $4, version = version + 1,
                             updated_ms = $5 WHERE id = $1",
                            &[&id, &setup, &i32::from(new_round), &together, &now],
                        )
                        .await
                        .map_err(pg)?;
                    Ok(n == 1)
                }
            }
        })
        .await
    }

    /// Deletes classrooms untouched since `before_ms`, and those nobody
    /// joined untouched since `unjoined_before_ms`, with their students
    /// and games; returns how many. Housekeeping: no time limit.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn expire_classrooms(
        &self,
        before_ms: i64,
        unjoined_before_ms: i64,
    ) -> Result<u64, DbError> {
        match &self.backend {
            Backend::Sqlite(db) => {
                db.call(move |c| {
                    let gone = c
                        .execute(
                            "DELETE FROM classrooms WHERE updated_ms < ?1
                             OR (joined = 0 AND updated_ms < ?2)",
                            [before_ms, unjoined_before_ms],
                        )
                        .map_err(sql)?;
                    Ok(gone as u64)
                })
                .await
            }
            Backend::Postgres(db) => {
                let gone = db
                    .conn()
                    .await?
                    .execute(
                        "DELETE FROM classrooms WHERE updated_ms < $1
                         OR (NOT joined AND updated_ms < $2)",
                        &[&before_ms, &unjoined_before_ms],
                    )
                    .await
                    .map_err(pg)?;
                Ok(gone)
            }
        }
    }
}

/// Why a student may not join beside `names`, if they may not.
fn join_refusal(
    names: &[String],
    most: u32,
    refuse: &impl Fn(&[String]) -> Option<String>,
) -> Option<String> {
    if names.len() >= most as usize {
        return Some(format!(
            "this classroom is full: it holds {most} students, its most"
        ));
    }
    refuse(names)
}

/// [`DbError::Quota`] when a creator holding `count` classrooms (the
/// oldest touched at `first`) may open no more.
fn check_quota(
    bounds: Bounds,
    by: &'static str,
    count: i64,
    first: Option<i64>,
    now: i64,
) -> Result<(), DbError> {
    if bounds.per_creator == 0 || count < i64::from(bounds.per_creator) {
        return Ok(());
    }
    Err(DbError::Quota {
        limit: bounds.per_creator,
        by,
        retry_after: expires_in(bounds, first, now),
        unplayed_kept: bounds.unplayed_kept.as_secs(),
    })
}

/// [`DbError::AtCapacity`] when the store holds [`MAX_CLASSROOMS`].
fn check_capacity(bounds: Bounds, all: i64, first: Option<i64>, now: i64) -> Result<(), DbError> {
    if u64::try_from(all).unwrap_or(0) < MAX_CLASSROOMS {
        return Ok(());
    }
    Err(DbError::AtCapacity {
        retry_after: expires_in(bounds, first, now),
    })
}

/// Seconds until a classroom last touched at `first` expires, at the
/// soonest (nobody joined it).
fn expires_in(bounds: Bounds, first: Option<i64>, now: i64) -> u64 {
    let kept = i64::try_from(bounds.unplayed_kept.as_millis()).unwrap_or(i64::MAX);
    super::seconds_until(first.unwrap_or(now).saturating_add(kept), now)
}
