//! The SQLite backend: one connection on a thread of its own, committing
//! what many requests asked for together.
//!
//! Terms:
//! - **job**: one request's work on the connection (append a move, load a
//!   match), run inside a savepoint so that a job that fails undoes only
//!   itself.
//! - **group commit**: the thread takes every job waiting, runs them in one
//!   transaction and commits once; only then does it answer them. Under
//!   load, one commit serves many moves.
//! - **write-ahead log**: SQLite's WAL mode; with `synchronous=NORMAL` a
//!   commit is in the log before it is answered, so a crash of the process
//!   loses nothing acknowledged ([`super::Durability`]).
//! - **inline append**: a move's append that finds the connection idle
//!   and the database free runs on the caller's own thread (a transaction
//!   of its own), without the two hand-offs to the store's thread and back;
//!   only with [`Durability::Process`], whose commit does not wait for the
//!   disk, so a server thread is never held for an `fsync`. It never waits
//!   for a lock either: a busy connection, or a database another process
//!   is writing (its `BEGIN` tried without [`BUSY_WAIT`]), sends the job to
//!   the store's thread, which waits, like every other job.
//! - **checkpointer**: a second connection on a thread of its own that
//!   copies the log into the database file every [`CHECKPOINT_EVERY`]
//!   (a passive checkpoint, which never waits for the writer nor holds it
//!   up). A writer checkpointing in the middle of a commit held every move
//!   waiting behind it for its `fsync` (p99 of a move 21 ms against 7 ms,
//!   `benches/moves.rs`).
//! - **long log**: while moves keep coming, a passive checkpoint never
//!   catches the log's end, and the log starts afresh only once a
//!   checkpoint has copied all of it. When the checkpointer finds the log
//!   longer than [`LONG_LOG_PAGES`] it says so; the jobs then go to the
//!   store's thread (none runs inline), which checkpoints the rest after
//!   its commit and runs the next transaction that writes, the one that
//!   starts the log afresh and syncs its header; then moves commit inline
//!   again. The writer never checkpoints on its own (SQLite's automatic
//!   checkpoint is off): an inline append would then `fsync` the database
//!   on a server thread.
//! - **bounded log**: a log that started afresh is cut back to
//!   [`LOG_KEPT_BYTES`] (SQLite's `journal_size_limit`), so its file does
//!   not keep the largest size it ever reached; when the server stops, the
//!   log is checkpointed whole and cut to nothing ([`Sqlite::truncate_log`]).

use super::{
    Bounds, Claim, Creator, DbError, Durability, GridActor, GridRow, GridSave, LOBBY_PER_CREATOR,
    LobbyRow, MAX_GRIDS, MAX_UNFINISHED, MoveRow, NewMatch, NewMove, SeatRow, StoredMatch,
    TOUCH_EVERY_MS, TokenRow, UNFINISHED_KEPT, schema,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError, mpsc};
use tokio::sync::oneshot;

/// The most jobs one transaction takes.
const BATCH: usize = 512;

/// The log's length in pages past which the store's thread checkpoints it
/// (SQLite's own automatic checkpoint is at 1,000 pages).
const LONG_LOG_PAGES: i64 = 10_000;

/// The most of the log's file kept once the log started afresh (see the
/// module's terms): 16 MiB.
const LOG_KEPT_BYTES: i64 = 16 << 20;

/// How long the store's thread waits for another process's write to end.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// How often the checkpointer copies the log into the database file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// What a job hands back once it ran: whether it succeeded (its savepoint
/// is kept) and what to tell its caller once the transaction is over
/// (the commit's error, if the commit failed).
type Done = (bool, Box<dyn FnOnce(Option<&DbError>) + Send>);

type Job = Box<dyn FnOnce(&Connection) -> Done + Send>;

/// The SQLite store: a line of jobs to its thread.
pub(super) struct Sqlite {
    jobs: mpsc::Sender<Job>,
    /// The connection: the store's thread locks it for each transaction,
    /// an inline append when it finds it free.
    conn: Arc<Mutex<Connection>>,
    /// Whether a move's append may run inline ([`Durability::Process`]).
    inline: bool,
    /// Set by the checkpointer when the log is long (see the module's
    /// terms); cleared by the store's thread once it checkpointed.
    long_log: Arc<AtomicBool>,
    /// Dropped with the store, which ends the checkpointer.
    _checkpoints: mpsc::Sender<()>,
    /// The database file.
    path: std::path::PathBuf,
}

impl Sqlite {
    /// Opens (or makes) the file at `path`, migrates it and starts its
    /// thread.
    pub(super) fn open(path: &Path, durability: Durability) -> Result<Self, DbError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| super::io_reason(&e))?;
        }
        let conn = Connection::open(path).map_err(sql)?;
        conn.busy_timeout(BUSY_WAIT).map_err(sql)?;
        let sync = match durability {
            Durability::Process => "NORMAL",
            Durability::Disk => "FULL",
        };
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; PRAGMA foreign_keys = ON;"
        ))
        .map_err(sql)?;
        check_whole(&conn, path)?;
        migrate(&conn)?;
        // The writer never checkpoints by itself: the store's thread does
        // when the log is long (see the module's terms).
        conn.execute_batch(&format!(
            "PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = {LOG_KEPT_BYTES};"
        ))
        .map_err(sql)?;
        let long_log = Arc::new(AtomicBool::new(false));
        let checkpoints = checkpointer(path, sync, Arc::clone(&long_log))?;
        let (jobs, line) = mpsc::channel::<Job>();
        let conn = Arc::new(Mutex::new(conn));
        let shared = Arc::clone(&conn);
        let long = Arc::clone(&long_log);
        std::thread::Builder::new()
            .name("parlor-sqlite".into())
            .spawn(move || run(&shared, &line, &long))
            .map_err(|e| DbError::Unavailable(format!("cannot start the store's thread: {e}")))?;
        Ok(Self {
            jobs,
            conn,
            inline: durability == Durability::Process,
            long_log,
            _checkpoints: checkpoints,
            path: path.to_path_buf(),
        })
    }

    /// The size of the log's file (`parlor.db-wal`) in bytes; 0 when there
    /// is none.
    pub(super) fn log_bytes(&self) -> u64 {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        std::fs::metadata(wal).map_or(0, |m| m.len())
    }

    /// Copies the whole log into the database file and cuts the log to
    /// nothing (`wal_checkpoint(TRUNCATE)`), on a connection of its own:
    /// what the server does when it stops. Waits up to [`BUSY_WAIT`] for
    /// readers and a writer to finish.
    ///
    /// # Errors
    /// When the checkpoint cannot run or is left unfinished.
    pub(super) async fn truncate_log(&self) -> Result<(), DbError> {
        let path = self.path.clone();
        let done = tokio::task::spawn_blocking(move || {
            let conn = Connection::open(&path).map_err(sql)?;
            conn.busy_timeout(BUSY_WAIT).map_err(sql)?;
            // Its first column: 1 when it could not finish.
            let busy: i64 = conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))
                .map_err(sql)?;
            if busy == 0 {
                Ok(())
            } else {
                Err(DbError::Unavailable(
                    "the log could not be checkpointed whole (the store was busy)".into(),
                ))
            }
        })
        .await;
        done.map_err(|e| DbError::Unavailable(format!("the checkpoint stopped: {e}")))?
    }

    /// Runs `work` on the connection, inside the next transaction, and
    /// answers once that transaction is committed.
    pub(super) async fn call<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, DbError> {
        let (job, answer) = Self::job(work);
        self.jobs.send(job).map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }

    /// Runs `work` in a transaction of its own on the caller's thread when
    /// the connection is free and inline work is allowed (see the module's
    /// terms); otherwise as [`Sqlite::call`].
    async fn call_inline<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, DbError> {
        let (job, answer) = Self::job(work);
        self.run_or_send(job)?;
        answer.await.map_err(|_| closed())?
    }

    /// Runs `job` now when inline work is allowed, the log is not long and
    /// the connection is free, or hands it to the store's thread.
    fn run_or_send(&self, job: Job) -> Result<(), DbError> {
        let inline = self.inline && !self.long_log.load(Ordering::Relaxed);
        let free = match inline.then(|| self.conn.try_lock()) {
            Some(Ok(conn)) => conn,
            Some(Err(TryLockError::Poisoned(conn))) => conn.into_inner(),
            Some(Err(TryLockError::WouldBlock)) | None => {
                return self.jobs.send(job).map_err(|_| closed());
            }
        };
        match begin_now(&free) {
            Ok(()) => {
                let (replies, error) = run_begun(&free, vec![job]);
                drop(free);
                answer_all(replies, error.as_ref());
                Ok(())
            }
            // Another process writes: the store's thread waits for it.
            Err(_) => {
                drop(free);
                self.jobs.send(job).map_err(|_| closed())
            }
        }
    }

    /// `work` as a job, and where its result will come.
    fn job<T: Send + 'static>(
        work: impl FnOnce(&Connection) -> Result<T, DbError> + Send + 'static,
    ) -> (Job, oneshot::Receiver<Result<T, DbError>>) {
        let (tell, answer) = oneshot::channel();
        let job: Job = Box::new(move |conn| {
            // Its caller gave up waiting (the store's time limit): it was
            // told the store did not answer, so nothing of it is done.
            if tell.is_closed() {
                let skipped: Done = (false, Box::new(|_: Option<&DbError>| {}));
                return skipped;
            }
            let result = work(conn);
            let ok = result.is_ok();
            let reply = move |commit: Option<&DbError>| {
                let result = match (result, commit) {
                    (Ok(_), Some(e)) => Err(e.clone()),
                    (result, _) => result,
                };
                let _ = tell.send(result);
            };
            (ok, Box::new(reply))
        });
        (job, answer)
    }

    pub(super) async fn create(
        &self,
        new: NewMatch,
        creator: Creator,
        bounds: Bounds,
    ) -> Result<(), DbError> {
        self.call(move |c| {
            check_quota(c, &new, &creator, bounds)?;
            insert_match(c, &new, &creator, bounds)
        })
        .await
    }

    pub(super) async fn create_rematch(
        &self,
        old: String,
        new: NewMatch,
        creator: Creator,
        bounds: Bounds,
    ) -> Result<Option<String>, DbError> {
        self.call(move |c| {
            let found: Option<Option<String>> = c
                .query_row("SELECT rematch FROM matches WHERE id = ?1", [&old], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(sql)?;
            match found {
                None => Err(DbError::NoMatch),
                Some(Some(made)) => Ok(Some(made)),
                Some(None) => {
                    check_quota(c, &new, &creator, bounds)?;
                    insert_match(c, &new, &creator, bounds)?;
                    c.execute(
                        "UPDATE matches SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
                        params![old, new.id],
                    )
                    .map_err(sql)?;
                    Ok(None)
                }
            }
        })
        .await
    }

    pub(super) async fn load(&self, id: String) -> Result<Option<StoredMatch>, DbError> {
        self.call(move |c| {
            let row = c
                .query_row(
                    "SELECT game, header, title, created_ms, updated_ms, rematch, played FROM matches WHERE id = ?1",
                    [&id],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, i64>(4)?,
                            r.get::<_, Option<String>>(5)?,
                            r.get::<_, bool>(6)?,
                        ))
                    },
                )
                .optional()
                .map_err(|e| within("the match's row", sql(e)))?;
            let Some((game, header, title, created_ms, updated_ms, rematch, played)) = row else {
                return Ok(None);
            };
            Ok(Some(StoredMatch {
                moves: moves_after(c, &id, 0).map_err(|e| within("the match's moves", e))?,
                seats: seats(c, &id).map_err(|e| within("the match's seats", e))?,
                tokens: tokens(c, &id).map_err(|e| within("the match's tokens", e))?,
                rematch,
                played,
                id,
                game,
                header,
                title,
                created_ms,
                updated_ms,
            }))
        })
        .await
    }

    pub(super) async fn seating(
        &self,
        id: String,
    ) -> Result<Option<(Vec<SeatRow>, Vec<TokenRow>)>, DbError> {
        self.call(move |c| {
            let found = c
                .query_row("SELECT 1 FROM matches WHERE id = ?1", [&id], |_| Ok(()))
                .optional()
                .map_err(sql)?;
            match found {
                Some(()) => Ok(Some((seats(c, &id)?, tokens(c, &id)?))),
                None => Ok(None),
            }
        })
        .await
    }

    pub(super) async fn moves_after(
        &self,
        id: String,
        after: u32,
    ) -> Result<Vec<MoveRow>, DbError> {
        self.call(move |c| moves_after(c, &id, after)).await
    }

    pub(super) async fn append(&self, mv: NewMove) -> Result<i64, DbError> {
        self.call_inline(move |c| {
            // Most moves: the count and status only (no indexed column, so
            // 2 pages a commit); the time too once it is old, or at the end.
            let light = if mv.over {
                None
            } else {
                c.prepare_cached(
                    "UPDATE matches SET moves = ?2, status = ?3,
                         played = CASE WHEN ?4 THEN played ELSE 1 END
                     WHERE id = ?1 AND moves = ?2 - 1 AND over = 0 AND updated_ms > ?5
                     RETURNING updated_ms",
                )
                .and_then(|mut s| {
                    s.query_row(
                        params![mv.match_id, mv.number, mv.status, mv.bot, mv.at_ms - TOUCH_EVERY_MS],
                        |r| r.get(0),
                    )
                    .optional()
                })
                .map_err(sql)?
            };
            let touched: Option<i64> = match light {
                Some(touched) => Some(touched),
                None => c
                    .prepare_cached(
                        "UPDATE matches SET moves = ?2, status = ?3, over = ?4, updated_ms = ?5,
                             played = CASE WHEN ?6 THEN played ELSE 1 END
                         WHERE id = ?1 AND moves = ?2 - 1 AND over = 0
                         RETURNING updated_ms",
                    )
                    .and_then(|mut s| {
                        s.query_row(
                            params![mv.match_id, mv.number, mv.status, mv.over, mv.at_ms, mv.bot],
                            |r| r.get(0),
                        )
                        .optional()
                    })
                    .map_err(sql)?,
            };
            let Some(touched) = touched else {
                let now: Option<u32> = c
                    .query_row(
                        "SELECT moves FROM matches WHERE id = ?1",
                        [&mv.match_id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(sql)?;
                return Err(now.map_or(DbError::NoMatch, |now| DbError::Stale { now }));
            };
            c.prepare_cached(
                "INSERT INTO moves (match_id, number, entry, seat, bot, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut s| s.execute(params![mv.match_id, mv.number, mv.entry, mv.seat, mv.bot, mv.at_ms]))
            .map_err(sql)?;
            Ok(touched)
        })
        .await
    }

    pub(super) async fn claim(&self, claim: Claim) -> Result<bool, DbError> {
        self.call(move |c| {
            // A seat anyone may take has no invite; one with an invite
            // needs it.
            let public: Option<bool> = c
                .query_row(
                    "SELECT invite IS NULL FROM seats
                     WHERE match_id = ?1 AND seat = ?2 AND taken = 0 AND (invite IS NULL OR invite = ?3)",
                    params![claim.id, claim.seat, claim.invite],
                    |r| r.get(0),
                )
                .optional()
                .map_err(sql)?;
            let Some(public) = public else {
                return Ok(false);
            };
            c.execute(
                "UPDATE seats SET invite = NULL, taken = 1, name = COALESCE(?3, name) WHERE match_id = ?1 AND seat = ?2",
                params![claim.id, claim.seat, claim.name],
            )
            .map_err(sql)?;
            let bit = 1u32 << (claim.seat - 1);
            c.execute(
                "INSERT INTO tokens (match_id, hash, seats, host) VALUES (?1, ?2, ?3, 0)
                 ON CONFLICT (match_id, hash) DO UPDATE SET seats = seats | ?3",
                params![claim.id, claim.token, bit],
            )
            .map_err(sql)?;
            c.execute(
                "UPDATE matches SET lobby_seats = lobby_seats - ?3, updated_ms = ?2, played = 1 WHERE id = ?1",
                params![claim.id, super::now_ms(), i64::from(public)],
            )
            .map_err(sql)?;
            Ok(true)
        })
        .await
    }

    pub(super) async fn name_seat(
        &self,
        id: String,
        seat: u8,
        name: String,
    ) -> Result<bool, DbError> {
        self.call(move |c| {
            let changed = c
                .execute(
                    "UPDATE seats SET name = ?3
                     WHERE match_id = ?1 AND seat = ?2
                       AND EXISTS (SELECT 1 FROM matches WHERE id = ?1 AND over = 0)",
                    params![id, seat, name],
                )
                .map_err(sql)?;
            Ok(changed == 1)
        })
        .await
    }

    pub(super) async fn reinvite(
        &self,
        id: String,
        seat: u8,
        invite: String,
    ) -> Result<bool, DbError> {
        self.call(move |c| {
            let changed = c
                .execute(
                    "UPDATE seats SET invite = ?3
                     WHERE match_id = ?1 AND seat = ?2 AND taken = 0 AND invite IS NOT NULL",
                    params![id, seat, invite],
                )
                .map_err(sql)?;
            Ok(changed == 1)
        })
        .await
    }

    pub(super) async fn lobby(&self, limit: u32) -> Result<Vec<LobbyRow>, DbError> {
        self.call(move |c| {
            let mut statement = c.prepare_cached(super::LOBBY_QUERY).map_err(sql)?;
            let rows = statement
                .query_map(params![limit, LOBBY_PER_CREATOR], |r| {
                    Ok(LobbyRow {
                        id: r.get(0)?,
                        game: r.get(1)?,
                        title: r.get(2)?,
                        seats: r.get(3)?,
                        open_seats: r.get(4)?,
                        moves: r.get(5)?,
                        created_ms: r.get(6)?,
                        host: r.get(7)?,
                    })
                })
                .map_err(sql)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(sql)
        })
        .await
    }

    pub(super) async fn expire(
        &self,
        before_ms: i64,
        unplayed_before_ms: i64,
    ) -> Result<u64, DbError> {
        self.call(move |c| {
            let gone = c
                .execute(
                    "DELETE FROM matches WHERE over = 0
                     AND (updated_ms < ?1 OR (played = 0 AND updated_ms < ?2))",
                    [before_ms, unplayed_before_ms],
                )
                .map_err(sql)?;
            Ok(gone as u64)
        })
        .await
    }

    pub(super) async fn save_grid(
        &self,
        name: String,
        text: String,
        replace: bool,
        actor: GridActor,
    ) -> Result<GridSave, DbError> {
        self.call(move |c| {
            let owner: Option<String> = c
                .query_row("SELECT owner FROM grids WHERE name = ?1", [&name], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(sql)?;
            match owner {
                Some(_) if !replace => return Ok(GridSave::Exists),
                Some(owner) if !actor.may_change(&owner) => return Err(DbError::NotOwner),
                Some(_) => {
                    c.execute(
                        "UPDATE grids SET text = ?2, updated_ms = ?3 WHERE name = ?1",
                        params![name, text, super::now_ms()],
                    )
                    .map_err(sql)?;
                    return Ok(GridSave::Saved);
                }
                None => {}
            }
            for (column, value, limit, quota) in actor.counted_by() {
                let theirs: i64 = c
                    .query_row(
                        &format!("SELECT COUNT(*) FROM grids WHERE {column} = ?1"),
                        [value],
                        |r| r.get(0),
                    )
                    .map_err(sql)?;
                if theirs >= i64::from(limit) {
                    return Err(quota);
                }
            }
            let count: i64 = c
                .query_row("SELECT COUNT(*) FROM grids", [], |r| r.get(0))
                .map_err(sql)?;
            if u64::try_from(count).unwrap_or(0) >= MAX_GRIDS {
                return Err(DbError::GridQuota {
                    limit: MAX_GRIDS,
                    whole: true,
                    network: false,
                });
            }
            c.execute(
                "INSERT INTO grids (name, text, updated_ms, owner, saver, saver_hood)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    name,
                    text,
                    super::now_ms(),
                    actor.owner,
                    actor.saver,
                    actor.neighbourhood
                ],
            )
            .map_err(sql)?;
            Ok(GridSave::Saved)
        })
        .await
    }

    pub(super) async fn unfinished(&self) -> Result<u64, DbError> {
        self.call(|c| {
            let n: i64 = c
                .query_row("SELECT n FROM unfinished", [], |r| r.get(0))
                .map_err(sql)?;
            Ok(u64::try_from(n).unwrap_or(0))
        })
        .await
    }

    pub(super) async fn grid(&self, name: String) -> Result<Option<String>, DbError> {
        self.call(move |c| {
            c.query_row("SELECT text FROM grids WHERE name = ?1", [&name], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql)
        })
        .await
    }

    pub(super) async fn grids(&self, limit: u32) -> Result<Vec<GridRow>, DbError> {
        self.call(move |c| {
            let mut statement = c
                .prepare_cached(
                    "SELECT name, length(CAST(text AS BLOB)), updated_ms FROM grids \
                     ORDER BY updated_ms DESC, name LIMIT ?1",
                )
                .map_err(sql)?;
            let rows = statement
                .query_map([limit], |r| {
                    Ok(GridRow {
                        name: r.get(0)?,
                        bytes: r.get(1)?,
                        updated_ms: r.get(2)?,
                    })
                })
                .map_err(sql)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(sql)
        })
        .await
    }

    pub(super) async fn delete_grid(
        &self,
        name: String,
        actor: GridActor,
    ) -> Result<bool, DbError> {
        self.call(move |c| {
            let owner: Option<String> = c
                .query_row("SELECT owner FROM grids WHERE name = ?1", [&name], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(sql)?;
            match owner {
                None => return Ok(false),
                Some(owner) if !actor.may_change(&owner) => return Err(DbError::NotOwner),
                Some(_) => {}
            }
            let gone = c
                .execute("DELETE FROM grids WHERE name = ?1", [&name])
                .map_err(sql)?;
            Ok(gone == 1)
        })
        .await
    }

    pub(super) async fn ping(&self) -> Result<(), DbError> {
        self.call(|c| {
            c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))
                .map(|_| ())
                .map_err(sql)
        })
        .await
    }

    pub(super) async fn setting(&self, key: String) -> Result<Option<String>, DbError> {
        self.call(move |c| {
            c.query_row("SELECT value FROM settings WHERE key = ?1", [&key], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql)
        })
        .await
    }

    pub(super) async fn set_setting(&self, key: String, value: String) -> Result<(), DbError> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO settings (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = ?2",
                params![key, value],
            )
            .map(|_| ())
            .map_err(sql)
        })
        .await
    }
}

/// Starts the checkpointer on a connection of its own to `path`; it runs
/// until the returned sender is dropped, and sets `long_log` when it finds
/// the log longer than [`LONG_LOG_PAGES`]. A checkpoint that fails (a full
/// or read-only disk) is tried again at the next tick: the log keeps every
/// commit meanwhile.
fn checkpointer(
    path: &Path,
    sync: &str,
    long_log: Arc<AtomicBool>,
) -> Result<mpsc::Sender<()>, DbError> {
    let conn = Connection::open(path).map_err(sql)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(sql)?;
    conn.execute_batch(&format!("PRAGMA synchronous = {sync};"))
        .map_err(sql)?;
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("parlor-sqlite-checkpoint".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY)
            {
                // Its second column: the log's length in pages.
                let pages = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                    row.get::<_, i64>(1)
                });
                if pages.is_ok_and(|pages| pages > LONG_LOG_PAGES) {
                    long_log.store(true, Ordering::Relaxed);
                }
            }
        })
        .map_err(|e| DbError::Unavailable(format!("cannot start the store's thread: {e}")))?;
    Ok(stop)
}

/// The thread: takes the jobs waiting, runs them in one transaction,
/// then answers them all; checkpoints a long log after. Ends when the store
/// is dropped.
fn run(conn: &Mutex<Connection>, line: &mpsc::Receiver<Job>, long_log: &AtomicBool) {
    // Whether a checkpoint ran here and no transaction has written since.
    let mut checkpointed = false;
    while let Ok(first) = line.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match line.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let held = lock(conn);
        let changes = held.total_changes();
        let (replies, error) = transaction(&held, batch);
        let wrote = error.is_none() && held.total_changes() != changes;
        drop(held);
        answer_all(replies, error.as_ref());
        if checkpointed {
            if wrote {
                // That transaction started the log afresh, and synced its
                // header, here: moves may commit inline again.
                checkpointed = false;
                long_log.store(false, Ordering::Relaxed);
            }
        } else if long_log.load(Ordering::Relaxed) {
            // The whole log copied while no move can commit (the connection
            // is held), so that the next transaction that writes, here too,
            // starts it afresh. One that fails is tried again once the
            // checkpointer finds the log long.
            let _ = lock(conn).query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
            checkpointed = true;
        }
    }
}

/// The connection, whether or not a job panicked while holding it (a
/// transaction a panic left open fails the next `BEGIN`, whose failure
/// rolls it back, in [`transaction`]).
fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    conn.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a transaction's jobs are told once it is over.
type Replies = Vec<Box<dyn FnOnce(Option<&DbError>) + Send>>;

/// Runs `batch` in one transaction and commits; returns the jobs' replies
/// and the commit's error, if any. Each job of several runs in a savepoint,
/// so that one that fails undoes only itself; a job alone needs none (it
/// failing rolls the transaction back). The transaction's statements are
/// prepared once and kept.
fn transaction(conn: &Connection, batch: Vec<Job>) -> (Replies, Option<DbError>) {
    let begun = execute(conn, "BEGIN IMMEDIATE");
    if let Err(e) = begun {
        // (A transaction a panic left open is rolled back here.)
        let _ = conn.execute_batch("ROLLBACK");
        let replies = batch.into_iter().map(|_| job_failed(e.clone()).1).collect();
        return (replies, Some(e));
    }
    run_begun(conn, batch)
}

/// Begins a transaction without waiting for another process's write (a
/// database locked by one answers busy at once).
fn begin_now(conn: &Connection) -> Result<(), DbError> {
    conn.busy_timeout(std::time::Duration::ZERO).map_err(sql)?;
    let begun = execute(conn, "BEGIN IMMEDIATE");
    let restored = conn.busy_timeout(BUSY_WAIT).map_err(sql);
    if begun.is_ok() && restored.is_err() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    begun.and(restored)
}

/// Runs `statement`, prepared once and kept.
fn execute(conn: &Connection, statement: &str) -> Result<(), DbError> {
    conn.prepare_cached(statement)
        .and_then(|mut s| s.execute([]))
        .map(|_| ())
        .map_err(sql)
}

/// Runs `batch` in the transaction just begun, then commits (see
/// [`transaction`]).
fn run_begun(conn: &Connection, batch: Vec<Job>) -> (Replies, Option<DbError>) {
    let run = |statement: &str| execute(conn, statement);
    let alone = batch.len() == 1;
    let mut replies = Vec::with_capacity(batch.len());
    let mut all_ok = true;
    for job in batch {
        if alone {
            let (ok, reply) = job(conn);
            all_ok = ok;
            replies.push(reply);
            continue;
        }
        let _ = run("SAVEPOINT job");
        let (ok, reply) = job(conn);
        if !ok {
            let _ = run("ROLLBACK TO job");
        }
        let _ = run("RELEASE job");
        replies.push(reply);
    }
    // A job alone that failed has nothing to keep.
    let committed = if all_ok {
        run("COMMIT")
    } else {
        run("ROLLBACK")
    };
    if committed.is_err() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    (replies, committed.err())
}

/// Tells each job of a transaction how it ended.
fn answer_all(replies: Replies, error: Option<&DbError>) {
    for reply in replies {
        reply(error);
    }
}

fn job_failed(e: DbError) -> Done {
    (false, Box::new(move |_| drop(e)))
}

fn moves_after(c: &Connection, id: &str, after: u32) -> Result<Vec<MoveRow>, DbError> {
    let mut statement = c
        .prepare_cached(
            "SELECT number, entry, at_ms FROM moves WHERE match_id = ?1 AND number > ?2 ORDER BY number",
        )
        .map_err(sql)?;
    let rows = statement
        .query_map(params![id, after], |r| {
            Ok(MoveRow {
                number: r.get(0)?,
                entry: r.get(1)?,
                at_ms: r.get(2)?,
            })
        })
        .map_err(sql)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(sql)
}

/// Inserts a new match, its seats and tokens (refused when the store holds
/// [`MAX_UNFINISHED`] unfinished matches).
/// When the first unfinished match (of those `filter` picks, with `?3`
/// bound to `value`) expires; none when there is none.
fn first_expiry(
    c: &Connection,
    bounds: Bounds,
    filter: &str,
    value: &str,
) -> Result<Option<i64>, DbError> {
    let kept = UNFINISHED_KEPT.as_millis() as i64;
    let unplayed = bounds.unplayed_kept.as_millis() as i64;
    c.query_row(
        &format!(
            "SELECT MIN(updated_ms + CASE WHEN played THEN ?1 ELSE ?2 END) FROM matches
             WHERE over = 0 AND {filter}"
        ),
        params![kept, unplayed, value],
        |r| r.get::<_, Option<i64>>(0),
    )
    .map_err(sql)
}

/// Refuses a new match when its creator (by address, then by token) has
/// made [`Bounds::per_creator`] unfinished ones.
fn check_quota(
    c: &Connection,
    new: &NewMatch,
    creator: &Creator,
    bounds: Bounds,
) -> Result<(), DbError> {
    for (by, column, value) in creator.quota_keys() {
        let Some(value) = value else { continue };
        if bounds.per_creator == 0 {
            break;
        }
        let theirs: i64 = c
            .query_row(
                &format!("SELECT COUNT(*) FROM matches WHERE over = 0 AND {column} = ?1"),
                params![value],
                |r| r.get(0),
            )
            .map_err(sql)?;
        if theirs >= i64::from(bounds.per_creator) {
            let first = first_expiry(c, bounds, &format!("{column} = ?3"), value)?;
            return Err(DbError::Quota {
                limit: bounds.per_creator,
                by,
                retry_after: super::seconds_until(first.unwrap_or(new.at_ms), new.at_ms),
                unplayed_kept: bounds.unplayed_kept.as_secs(),
            });
        }
    }
    Ok(())
}

/// Inserts a new match made by `creator`, unless the store holds its most
/// unfinished ones (their count is kept in the `unfinished` row by
/// triggers, migration 5).
fn insert_match(
    c: &Connection,
    new: &NewMatch,
    creator: &Creator,
    bounds: Bounds,
) -> Result<(), DbError> {
    let unfinished: i64 = c
        .query_row("SELECT n FROM unfinished", [], |r| r.get(0))
        .map_err(sql)?;
    if u64::try_from(unfinished).unwrap_or(0) >= MAX_UNFINISHED {
        let first = first_expiry(c, bounds, "?3 = ?3", "")?;
        return Err(DbError::AtCapacity {
            retry_after: super::seconds_until(first.unwrap_or(new.at_ms), new.at_ms),
        });
    }
    let lobby = new
        .seats
        .iter()
        .filter(|s| s.invite.is_none() && !s.taken)
        .count();
    c.execute(
        "INSERT INTO matches (id, game, header, title, seat_count, lobby_seats, moves, status, over, created_ms, updated_ms, creator, creator_token, played)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?9, ?9, ?10, ?11, 0)",
        params![
            new.id,
            new.game,
            new.header,
            new.title,
            new.seat_count,
            lobby as i64,
            new.status,
            new.over,
            new.at_ms,
            creator.client.as_deref().unwrap_or(""),
            creator.token.as_deref().unwrap_or("")
        ],
    )
    .map_err(sql)?;
    for seat in &new.seats {
        c.execute(
            "INSERT INTO seats (match_id, seat, invite, taken, name) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![new.id, seat.seat, seat.invite, seat.taken, seat.name],
        )
        .map_err(sql)?;
    }
    for token in &new.tokens {
        c.execute(
            "INSERT INTO tokens (match_id, hash, seats, host) VALUES (?1, ?2, ?3, ?4)",
            params![new.id, token.hash, token.seats, token.host],
        )
        .map_err(sql)?;
    }
    Ok(())
}

fn seats(c: &Connection, id: &str) -> Result<Vec<SeatRow>, DbError> {
    let mut statement = c
        .prepare_cached(
            "SELECT seat, invite, taken, name FROM seats WHERE match_id = ?1 ORDER BY seat",
        )
        .map_err(sql)?;
    let rows = statement
        .query_map([id], |r| {
            Ok(SeatRow {
                seat: r.get(0)?,
                invite: r.get(1)?,
                taken: r.get(2)?,
                name: r.get(3)?,
            })
        })
        .map_err(sql)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(sql)
}

fn tokens(c: &Connection, id: &str) -> Result<Vec<TokenRow>, DbError> {
    let mut statement = c
        .prepare_cached("SELECT hash, seats, host FROM tokens WHERE match_id = ?1")
        .map_err(sql)?;
    let rows = statement
        .query_map([id], |r| {
            Ok(TokenRow {
                hash: r.get(0)?,
                seats: r.get(1)?,
                host: r.get(2)?,
            })
        })
        .map_err(sql)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(sql)
}

/// Runs the migrations the file has not had, in one transaction.
fn migrate(conn: &Connection) -> Result<(), DbError> {
    conn.execute_batch("BEGIN IMMEDIATE").map_err(sql)?;
    let result = (|| {
        conn.execute_batch(schema::VERSIONS_TABLE).map_err(sql)?;
        let done: u32 = conn
            .query_row(
                "SELECT COALESCE(MAX(version), 0) FROM schema_versions",
                [],
                |r| r.get(0),
            )
            .map_err(sql)?;
        schema::check_known(done)?;
        for migration in schema::MIGRATIONS.iter().filter(|m| m.version > done) {
            conn.execute_batch(migration.sqlite).map_err(sql)?;
            conn.execute(
                "INSERT INTO schema_versions (version, name, applied_ms) VALUES (?1, ?2, ?3)",
                params![migration.version, migration.name, super::now_ms()],
            )
            .map_err(sql)?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("COMMIT").map_err(sql),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

fn closed() -> DbError {
    DbError::Unavailable("the store has stopped".into())
}

/// A SQLite failure in words that name no path.
/// SQLite's quick check of the whole file, at start: a damaged store is
/// refused with its path and what to do, rather than served with holes.
fn check_whole(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let damaged = |what: String| {
        DbError::Damaged(format!(
            "{} is damaged ({what}): restore it from a backup, or move it aside to start with an empty store",
            path.display()
        ))
    };
    let first: String = match conn.query_row("PRAGMA quick_check(1)", [], |row| row.get(0)) {
        Ok(first) => first,
        Err(rusqlite::Error::SqliteFailure(f, detail))
            if f.code == rusqlite::ErrorCode::DatabaseCorrupt =>
        {
            return Err(damaged(detail.unwrap_or_else(|| "SQLite says so".into())));
        }
        Err(e) => return Err(sql(e)),
    };
    if first == "ok" {
        Ok(())
    } else {
        Err(damaged(format!("SQLite's quick check: {first}")))
    }
}

/// A damaged value found in `place` says so (a record that cannot be read);
/// other errors are kept.
fn within(place: &str, e: DbError) -> DbError {
    match e {
        DbError::Damaged(what) => DbError::Damaged(format!("{place}: {what}")),
        other => other,
    }
}

pub(super) fn sql(e: rusqlite::Error) -> DbError {
    use rusqlite::ErrorCode;
    // A stored value that does not read as its column's type: the file
    // passed SQLite's checks, but this record is damaged, and asking again
    // will not mend it.
    let unreadable = match &e {
        rusqlite::Error::FromSqlConversionFailure(column, _, why)
            if why.to_string().to_lowercase().contains("utf-8") =>
        {
            Some(format!(
                "a stored text (column {column}) is not UTF-8: {why}"
            ))
        }
        rusqlite::Error::FromSqlConversionFailure(column, kind, why) => Some(format!(
            "a stored {kind} value (column {column}) cannot be read: {why}"
        )),
        rusqlite::Error::Utf8Error(why) => Some(format!("a stored text is not UTF-8: {why}")),
        rusqlite::Error::IntegralValueOutOfRange(column, value) => Some(format!(
            "a stored number (column {column}) is out of range: {value}"
        )),
        rusqlite::Error::InvalidColumnType(column, name, kind) => Some(format!(
            "the stored column {name} (column {column}) holds a {kind} value"
        )),
        _ => None,
    };
    if let Some(what) = unreadable {
        tracing::error!(error = %e, "store: a stored record cannot be read");
        return DbError::Damaged(what);
    }
    if let rusqlite::Error::SqliteFailure(failure, _) = &e {
        match failure.code {
            ErrorCode::DiskFull => return DbError::Full,
            ErrorCode::NotADatabase => {
                return DbError::Incompatible("the file is not a SQLite database".into());
            }
            ErrorCode::DatabaseCorrupt => {
                tracing::error!(error = %crate::logged::cut(&e.to_string()), "store: the SQLite file is damaged");
                return DbError::Damaged(
                    "part of the store's file is damaged (the server's log has the details)".into(),
                );
            }
            ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied => {
                tracing::warn!(error = %crate::logged::cut(&e.to_string()), "store: SQLite failed");
                return DbError::ReadOnly;
            }
            _ => {}
        }
    }
    tracing::warn!(error = %crate::logged::cut(&e.to_string()), "store: SQLite failed");
    DbError::Unavailable("the database failed (the server's log has the details)".into())
}
