//! The store: everything that must outlive the server — matches (their
//! records, one move at a time, and who holds each seat) and saved Tycoon
//! grids — in SQLite (built in) or PostgreSQL (shared by several servers).
//!
//! Terms:
//! - **backend**: SQLite, a file in the data directory (`parlor.db`, the
//!   default: nothing to set up), or PostgreSQL (`--database
//!   postgres://…`), which several `parlor serve` processes can share.
//! - **header**: a match's record without its moves (game, record version,
//!   setup, seats, dice) as JSON. It holds the seed, so it never leaves the
//!   server while the match is on.
//! - **append**: one move added to a match, in one transaction, only if the
//!   match holds exactly the moves the server saw ([`DbError::Stale`]
//!   otherwise): a move is never stored twice, and a move the store
//!   acknowledged is committed (SQLite's write-ahead log, PostgreSQL's
//!   commit) before anyone is told.
//! - **token**: a secret that lets a device move for some seats; the store
//!   keeps only its SHA-256 digest ([`TokenRow`]).
//! - **invite**: the secret of an open seat's link; claimed once, then gone.
//!   A seat open to anyone has none, and its match is listed in the lobby.
//! - **notice** ([`Notice`]): what one server tells the others when a match
//!   changes (PostgreSQL `LISTEN`/`NOTIFY`), so that players connected to
//!   any server see every move.
//! - **migration** ([`schema`]): a numbered change to the tables, run once,
//!   in order, when the server starts.
//! - **expiry**: an unfinished match untouched for [`UNFINISHED_KEPT`] is
//!   deleted; so is one nobody has played in ([`Bounds::unplayed_kept`],
//!   hours: no person's move, no seat taken with an invite or from the
//!   lobby); finished matches are kept.
//! - **touched**: a match's last-update time, which expiry counts from. A
//!   move refreshes it only once it is [`TOUCH_EVERY`] old, and when the
//!   move ends the match: kept to the minute, so that most moves' commits
//!   change no indexed column of the matches table (SQLite then writes 2
//!   pages a move, not 6; PostgreSQL can update the row in place).
//! - **creator** ([`Creator`]): who made a match — digests of the client's
//!   address and of the token the request showed, never either itself —
//!   so that one creator can hold at most [`Bounds::per_creator`]
//!   unfinished matches and the lobby lists at most
//!   [`LOBBY_PER_CREATOR`] of theirs.
//! - **time limit** ([`Db::set_timeout`]): every call a request makes
//!   (all but the housekeeping of [`Db::expire`]) waits at most this
//!   long for the store (a frozen PostgreSQL, a stuck disk); then it is
//!   given up with [`DbError::TimedOut`], which the API answers `503
//!   store_unavailable` with `Retry-After`. SQLite's thread skips a job
//!   whose caller gave up before it started; one already running, and a
//!   PostgreSQL statement already sent, may still be done (a move sent
//!   again is then refused as stale, never played twice).

pub mod backup;
pub mod classrooms;
pub mod grid_names;
mod pg_appends;
mod pg_pool;
mod postgres;
pub mod schema;
mod sqlite;
pub mod unsaved;

use serde::Serialize;
use std::path::Path;
use std::time::Duration;
use tokio::sync::broadcast;

/// How long one call waits for the store by default before it is given up
/// ([`Db::set_timeout`]).
pub const DEFAULT_STORE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long an unfinished match is kept after its last move: 30 days.
pub const UNFINISHED_KEPT: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How old a match's last-update time must be before a move refreshes it
/// (see the module's terms).
pub const TOUCH_EVERY: Duration = Duration::from_secs(60);

/// [`TOUCH_EVERY`] in milliseconds.
const TOUCH_EVERY_MS: i64 = TOUCH_EVERY.as_millis() as i64;

/// A match's last-update time after a move made at `at_ms`, as the store
/// keeps it (see the module's terms): the move's time when `previous` is
/// [`TOUCH_EVERY`] old or the move ended the match, else `previous`.
#[must_use]
pub fn touched(previous: i64, at_ms: i64, over: bool) -> i64 {
    if over || previous <= at_ms - TOUCH_EVERY_MS {
        at_ms
    } else {
        previous
    }
}

/// The most unfinished matches the store holds; a new match beyond it is
/// refused (`503`) until some finish or expire.
pub const MAX_UNFINISHED: u64 = 100_000;

/// The most saved grids the store holds.
pub const MAX_GRIDS: u64 = 10_000;

/// The addresses of one neighbourhood (an IPv4 /24, an IPv6 /48) hold
/// together at most this many addresses' worth of saved grids (1,000 with
/// the default 100 an address: a tenth of the store), so that filling the
/// store takes ten networks, not a hundred addresses of one.
pub const NEIGHBOURHOOD_GRIDS: u32 = 10;

/// The most matches of one creator the lobby lists.
pub const LOBBY_PER_CREATOR: u32 = 3;

/// Who made a match: digests (see the module's terms); `None` when not
/// known (a match made in process).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Creator {
    /// The digest of the client's address ([`crate::http::client`]).
    pub client: Option<String>,
    /// The digest of the token the request showed, if it showed one.
    pub token: Option<String>,
}

impl Creator {
    /// What a creator's quota counts by, in the order it is checked: the
    /// word a refusal says (`by`), the column of `matches`, and this
    /// creator's value, when known.
    pub(super) fn quota_keys(&self) -> [(&'static str, &'static str, Option<&str>); 2] {
        [
            ("address", "creator", self.client.as_deref()),
            ("token", "creator_token", self.token.as_deref()),
        ]
    }
}

/// Who saves, replaces or deletes a grid, as the store checks it (see
/// `docs/api.md`: a grid belongs to whoever saved it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GridActor {
    /// The owner a new grid is saved under (`""` for none).
    pub owner: String,
    /// The digest of the client address that saves (`""` for none): its
    /// grids are counted against [`GridActor::per_owner`] too, whatever
    /// tokens it showed.
    pub saver: String,
    /// The digest of the saver's neighbourhood (`""` for none): its grids
    /// are counted against [`NEIGHBOURHOOD_GRIDS`] times
    /// [`GridActor::per_owner`], whatever addresses in it saved them.
    pub neighbourhood: String,
    /// The owners whose grids this actor may replace or delete.
    pub owns: Vec<String>,
    /// May replace or delete any grid: the operator (the command line,
    /// the grid files imported, a request made in process).
    pub any: bool,
    /// May replace or delete the grids that have no owner (saved before
    /// grids had owners, or imported from files).
    pub ownerless: bool,
    /// The most grids one owner, and one saving address, may have saved;
    /// 0 for no limit.
    pub per_owner: u32,
}

impl GridActor {
    /// The operator: may change any grid, with no limit but the store's.
    pub fn operator() -> Self {
        Self {
            any: true,
            ownerless: true,
            ..Self::default()
        }
    }

    /// What this actor's new grids are counted by, as `(column, value,
    /// limit, the quota's error)`: its owner, its address when that is
    /// another, and its address's neighbourhood.
    pub(super) fn counted_by(&self) -> Vec<(&'static str, &str, u32, DbError)> {
        let mut by = Vec::new();
        if self.per_owner == 0 {
            return by;
        }
        let mine = DbError::GridQuota {
            limit: u64::from(self.per_owner),
            whole: false,
            network: false,
        };
        if !self.owner.is_empty() {
            by.push(("owner", self.owner.as_str(), self.per_owner, mine.clone()));
        }
        if !self.saver.is_empty() {
            by.push(("saver", self.saver.as_str(), self.per_owner, mine));
        }
        if !self.neighbourhood.is_empty() {
            let limit = self.per_owner.saturating_mul(NEIGHBOURHOOD_GRIDS);
            by.push((
                "saver_hood",
                self.neighbourhood.as_str(),
                limit,
                DbError::GridQuota {
                    limit: u64::from(limit),
                    whole: false,
                    network: true,
                },
            ));
        }
        by
    }

    /// Whether this actor may replace or delete a grid owned by `owner`.
    pub fn may_change(&self, owner: &str) -> bool {
        self.any
            || (owner.is_empty() && self.ownerless)
            || (!owner.is_empty() && self.owns.iter().any(|o| o == owner))
    }
}

/// The fair-share bounds the store keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The most unfinished matches one creator (address, or token) may
    /// have made; 0 for no limit.
    pub per_creator: u32,
    /// How long an unfinished match nobody has played in is kept.
    pub unplayed_kept: Duration,
}

impl Default for Bounds {
    /// 100 unfinished matches per creator; unplayed ones kept 6 hours.
    fn default() -> Self {
        Self {
            per_creator: 100,
            unplayed_kept: Duration::from_secs(6 * 60 * 60),
        }
    }
}

/// The lobby's question, in words both backends read (`?1`/`$1` aside):
/// open matches, newest first, at most [`LOBBY_PER_CREATOR`] a creator
/// (a match of no known creator counts as its own), with its host's name.
const LOBBY_QUERY: &str = "SELECT id, game, title, seat_count, lobby_seats, moves, created_ms,
    (SELECT s.name FROM seats AS s
        WHERE s.match_id = open.id AND s.taken AND s.name IS NOT NULL
        ORDER BY s.seat LIMIT 1) AS host
FROM (
    SELECT id, game, title, seat_count, lobby_seats, moves, created_ms,
        ROW_NUMBER() OVER (
            PARTITION BY CASE WHEN creator = '' THEN id ELSE creator END
            ORDER BY created_ms DESC
        ) AS nth
    FROM matches WHERE NOT over AND lobby_seats > 0
) AS open WHERE nth <= ?2 ORDER BY created_ms DESC LIMIT ?1";

/// The seconds from `now_ms` to `at_ms`, rounded up, at least 1.
fn seconds_until(at_ms: i64, now_ms: i64) -> u64 {
    let ms = u64::try_from(at_ms.saturating_sub(now_ms)).unwrap_or(0);
    ms.div_ceil(1000).max(1)
}

/// Why the store could not do something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DbError {
    /// The match has moved on: it does not hold the moves the server saw.
    #[error("the match has moved on: it now has {now} moves")]
    Stale {
        /// The moves it holds now.
        now: u32,
    },
    /// No such match (never was, or expired).
    #[error("no such match")]
    NoMatch,
    /// The disk is full.
    #[error("the disk is full")]
    Full,
    /// The store may not be written.
    #[error("the store is read-only")]
    ReadOnly,
    /// The store cannot be reached or failed; the reason names no path.
    #[error("the store is unavailable: {0}")]
    Unavailable(String),
    /// The store did not answer within the limit ([`Db::set_timeout`]);
    /// what was asked may still be done there (a move sent again is
    /// refused as stale, never played twice).
    #[error("the store did not answer within {millis} ms")]
    TimedOut {
        /// The limit, in milliseconds.
        millis: u64,
    },
    /// The store holds something this Parlor cannot read (a newer schema).
    #[error("the store cannot be used: {0}")]
    Incompatible(String),
    /// The store's file is damaged: what it held there is lost, and asking
    /// again will not bring it back.
    #[error("the store is damaged: {0}")]
    Damaged(String),
    /// The store holds [`MAX_UNFINISHED`] unfinished matches; the first of
    /// them expires in `retry_after` seconds.
    #[error("the server holds {MAX_UNFINISHED} unfinished games, its most")]
    AtCapacity {
        /// Seconds until the first unfinished match expires.
        retry_after: u64,
    },
    /// The grid belongs to someone else: it may be read and copied, not
    /// replaced or deleted.
    #[error("this grid was saved by someone else")]
    NotOwner,
    /// No more grids may be saved: the owner has saved `limit`
    /// ([`GridActor::per_owner`], `whole` false), or the store holds
    /// [`MAX_GRIDS`] (`whole` true).
    #[error("{limit} saved grids, the most")]
    GridQuota {
        /// The bound reached.
        limit: u64,
        /// True for the store's bound, false for the owner's.
        whole: bool,
        /// True for the saver's neighbourhood's bound.
        network: bool,
    },
    /// The creator has made [`Bounds::per_creator`] unfinished matches.
    #[error("{limit} unfinished games were made from this {by}, the most one {by} may have")]
    Quota {
        /// The bound.
        limit: u32,
        /// `address` or `token`.
        by: &'static str,
        /// Seconds until the first of theirs expires.
        retry_after: u64,
        /// How long an unplayed match is kept, in seconds.
        unplayed_kept: u64,
    },
}

/// A match as it is created.
#[derive(Debug, Clone)]
pub struct NewMatch {
    /// 32 hex digits.
    pub id: String,
    /// `chutes`, `baffle`, `tycoon`.
    pub game: String,
    /// The record without its moves, as JSON.
    pub header: String,
    /// A line for the lobby ("Chutes & Ladders, classic board").
    pub title: String,
    /// The person seats: who holds them, or their invite.
    pub seats: Vec<SeatRow>,
    /// The tokens made with the match.
    pub tokens: Vec<TokenRow>,
    /// How many seats the match has in all.
    pub seat_count: u8,
    /// Where it stands (`playing`, …).
    pub status: String,
    /// True once over (a match can be over from the start: a stuck board).
    pub over: bool,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
}

/// A person's seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat, from 1.
    pub seat: u8,
    /// The digest of the seat's invite, while it waits for someone with
    /// it; none for a seat anyone may take (or one taken).
    pub invite: Option<String>,
    /// True once someone holds it.
    pub taken: bool,
    /// The name its player chose, if any (checked by the match layer).
    pub name: Option<String>,
}

/// A token: the digest of its secret, the seats it moves for, and whether
/// it made the match (the host may invite again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    /// SHA-256 of the token, in hex.
    pub hash: String,
    /// The seats it holds, as bits (seat 1 is bit 0).
    pub seats: u32,
    /// True for the token the match was made with.
    pub host: bool,
}

/// One stored move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    /// The move's number, from 1.
    pub number: u32,
    /// The record entry (`shoot 7`, `roll @4`).
    pub entry: String,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
}

/// A move to append.
#[derive(Debug, Clone)]
pub struct NewMove {
    /// The match.
    pub match_id: String,
    /// The move's number, from 1: the match must hold `number - 1` moves.
    pub number: u32,
    /// The record entry.
    pub entry: String,
    /// The seat that moved.
    pub seat: u8,
    /// Whether a bot's seat made it (a move a bot chose for a person is the
    /// person's: it plays the match).
    pub bot: bool,
    /// Where the match stands after it.
    pub status: String,
    /// True when it ended the match.
    pub over: bool,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
}

/// A match as stored.
#[derive(Debug, Clone)]
pub struct StoredMatch {
    /// Its id.
    pub id: String,
    /// Its game.
    pub game: String,
    /// The record without its moves.
    pub header: String,
    /// The lobby's line.
    pub title: String,
    /// Every move, in order.
    pub moves: Vec<MoveRow>,
    /// The person seats.
    pub seats: Vec<SeatRow>,
    /// The tokens.
    pub tokens: Vec<TokenRow>,
    /// The id of its rematch, once one is made.
    pub rematch: Option<String>,
    /// True once a person has moved in it or taken a seat (an unplayed
    /// match is kept [`Bounds::unplayed_kept`] only).
    pub played: bool,
    /// When it was made and last changed, in milliseconds since 1970.
    pub created_ms: i64,
    /// See `created_ms`.
    pub updated_ms: i64,
}

/// A match with seats anyone may take, as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LobbyRow {
    /// Its id.
    pub id: String,
    /// Its game.
    pub game: String,
    /// Its line.
    pub title: String,
    /// Seats in all.
    pub seats: u8,
    /// Seats anyone may still take.
    pub open_seats: u8,
    /// Moves made.
    pub moves: u32,
    /// When it was made, in milliseconds since 1970.
    pub created_ms: i64,
    /// The name of the first seat's player who gave one (the host, as a
    /// rule), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// A saved grid, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GridRow {
    /// Its name.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// When it was last saved, in milliseconds since 1970.
    pub updated_ms: i64,
}

/// How a grid save went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridSave {
    /// Saved (new, or replacing one when replacing was asked for).
    Saved,
    /// A grid of that name exists and replacing it was not asked for.
    Exists,
}

/// What one server tells the others about a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The match now holds this many moves.
    Moved {
        /// The match.
        id: String,
        /// Its moves now.
        moves: u32,
    },
    /// Someone took a seat of the match.
    Seated {
        /// The match.
        id: String,
    },
    /// Notices may have been missed (the connection to the store was
    /// lost): every live match should be read again.
    Resync,
}

impl Notice {
    fn payload(&self, origin: &str) -> String {
        match self {
            Self::Moved { id, moves } => format!("{origin} m {id} {moves}"),
            Self::Seated { id } => format!("{origin} s {id}"),
            Self::Resync => format!("{origin} r"),
        }
    }

    /// Reads a payload; `None` for one this server sent, or one it cannot
    /// read.
    fn parse(payload: &str, me: &str) -> Option<Self> {
        let mut words = payload.split(' ');
        let origin = words.next()?;
        if origin == me {
            return None;
        }
        match (words.next()?, words.next(), words.next()) {
            ("m", Some(id), Some(moves)) => Some(Self::Moved {
                id: id.to_string(),
                moves: moves.parse().ok()?,
            }),
            ("s", Some(id), None) => Some(Self::Seated { id: id.to_string() }),
            ("r", None, None) => Some(Self::Resync),
            _ => None,
        }
    }
}

/// How hard SQLite holds on to each commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// Committed to the write-ahead log before it is acknowledged: no crash
    /// of the server (`kill -9`, a panic) loses it; a power cut may lose the
    /// last moments (SQLite's `synchronous=NORMAL`).
    #[default]
    Process,
    /// Also flushed to the disk before it is acknowledged (`synchronous=FULL`):
    /// not even a power cut loses it, at a few milliseconds a commit.
    Disk,
}

/// The forms [`Location::parse`] accepts, in words.
pub const ACCEPTED_FORMS: &str = "give postgres://USER[:PASSWORD]@HOST[:PORT]/DB (or \
     postgresql://…), sqlite:PATH, or a SQLite file's path (one with a / or ending in .db, \
     .sqlite or .sqlite3)";

/// Where the store lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL database, by its URL.
    Postgres(String),
}

impl Location {
    /// Reads `--database`: a `postgres://` or `postgresql://` URL, or
    /// `sqlite:PATH` (or a plain path that looks like one: with a `/`, or
    /// ending in `.db`, `.sqlite` or `.sqlite3`) for a SQLite file.
    ///
    /// # Errors
    /// When the text is empty, names another kind of database, or is a
    /// bare word; the message lists [`ACCEPTED_FORMS`].
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Self::Postgres(text.to_string()));
        }
        if let Some(path) = text.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err("'sqlite:' needs a file: sqlite:/path/to/parlor.db".into());
            }
            return Ok(Self::Sqlite(path.into()));
        }
        if text.is_empty() {
            return Err("the database is empty: give postgres://… or sqlite:PATH".into());
        }
        if let Some((scheme, _)) = text.split_once("://") {
            return Err(format!(
                "'{scheme}://' is not a database Parlor uses: {ACCEPTED_FORMS}"
            ));
        }
        // A plain path must look like one: a word such as `notaurl` (a
        // variable set to the wrong thing) is not taken for a file name.
        let lower = text.to_ascii_lowercase();
        let looks_like_a_file = text.contains('/')
            || text.contains(std::path::MAIN_SEPARATOR)
            || [".db", ".sqlite", ".sqlite3"]
                .iter()
                .any(|end| lower.ends_with(end));
        if !looks_like_a_file {
            return Err(format!(
                "'{text}' is neither a database URL nor a SQLite file: {ACCEPTED_FORMS}"
            ));
        }
        Ok(Self::Sqlite(text.into()))
    }

    /// The default: `parlor.db` in the data directory.
    pub fn default_for(data_dir: &Path) -> Self {
        Self::Sqlite(data_dir.join("parlor.db"))
    }

    /// The location in words, with a PostgreSQL password hidden.
    pub fn describe(&self) -> String {
        match self {
            Self::Sqlite(path) => format!("SQLite file {}", path.display()),
            Self::Postgres(url) => format!("PostgreSQL {}", hide_password(url)),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{scheme}://{name}:***@{host}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// The store, whichever backend holds it.
pub struct Db {
    backend: Backend,
    notices: broadcast::Sender<Notice>,
    origin: String,
    bounds: Bounds,
    limit: Duration,
}

enum Backend {
    Sqlite(sqlite::Sqlite),
    Postgres(Box<postgres::Postgres>),
}

/// Milliseconds since 1970, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Db {
    /// Opens the store at `location`, runs its migrations, and (the first
    /// time) imports the grid files of `grid_folder`.
    ///
    /// # Errors
    /// When the store cannot be opened or migrated; the message says why
    /// in words.
    pub async fn open(
        location: &Location,
        durability: Durability,
        grid_folder: Option<&Path>,
    ) -> Result<Self, DbError> {
        let (notices, _) = broadcast::channel(1024);
        let origin = crate::random::hex(6)
            .map_err(|e| DbError::Unavailable(format!("no randomness for an id: {e}")))?;
        let backend = match location {
            Location::Sqlite(path) => Backend::Sqlite(sqlite::Sqlite::open(path, durability)?),
            Location::Postgres(url) => Backend::Postgres(Box::new(
                postgres::Postgres::open(url, notices.clone(), origin.clone()).await?,
            )),
        };
        let db = Self {
            backend,
            notices,
            origin,
            bounds: Bounds::default(),
            limit: DEFAULT_STORE_TIMEOUT,
        };
        if let Some(folder) = grid_folder {
            db.import_grid_files(folder).await?;
        }
        Ok(db)
    }

    /// Sets how long one call may wait for the store before it is answered
    /// [`DbError::TimedOut`] (see the module's terms).
    pub fn set_timeout(&mut self, limit: Duration) {
        self.limit = limit;
    }

    /// `call`, given up when the store has not answered within the limit.
    async fn within<T>(
        &self,
        call: impl std::future::Future<Output = Result<T, DbError>>,
    ) -> Result<T, DbError> {
        match tokio::time::timeout(self.limit, call).await {
            Ok(answer) => answer,
            Err(_) => {
                let millis = u64::try_from(self.limit.as_millis()).unwrap_or(u64::MAX);
                tracing::warn!(within_ms = millis, "store: no answer in time");
                Err(DbError::TimedOut { millis })
            }
        }
    }

    /// Sets the fair-share bounds (before the store is shared).
    pub fn set_bounds(&mut self, bounds: Bounds) {
        self.bounds = bounds;
    }

    /// The fair-share bounds.
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// Whether other servers may share this store (PostgreSQL), so that
    /// matches held live here can move elsewhere.
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Asks the store a trivial question (`SELECT 1`), through the same
    /// line (SQLite's thread) or pool (PostgreSQL's connections) as the
    /// moves: the readiness check ([`crate::http::health`]).
    ///
    /// # Errors
    /// When the store does not answer.
    pub async fn ping(&self) -> Result<(), DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.ping().await,
                Backend::Postgres(db) => db.ping().await,
            }
        })
        .await
    }

    /// The size of SQLite's write-ahead log file in bytes; `None` for
    /// PostgreSQL.
    pub fn log_bytes(&self) -> Option<u64> {
        match &self.backend {
            Backend::Sqlite(db) => Some(db.log_bytes()),
            Backend::Postgres(_) => None,
        }
    }

    /// Copies SQLite's whole log into its database file and cuts the log to
    /// nothing, as the server stops; nothing for PostgreSQL.
    ///
    /// # Errors
    /// When the checkpoint cannot run or finish.
    pub async fn truncate_log(&self) -> Result<(), DbError> {
        match &self.backend {
            Backend::Sqlite(db) => db.truncate_log().await,
            Backend::Postgres(_) => Ok(()),
        }
    }

    /// How many unfinished matches the store holds (a kept count, cheap).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn unfinished(&self) -> Result<u64, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.unfinished().await,
                Backend::Postgres(db) => db.unfinished().await,
            }
        })
        .await
    }

    /// Notices from the other servers sharing this store.
    pub fn notices(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    /// Stores a new match of no known creator.
    ///
    /// # Errors
    /// As [`Db::create_for`].
    pub async fn create(&self, new: NewMatch) -> Result<(), DbError> {
        self.within(async move { self.create_for(new, Creator::default()).await })
            .await
    }

    /// Stores a new match made by `creator`.
    ///
    /// # Errors
    /// [`DbError::AtCapacity`] when [`MAX_UNFINISHED`] matches are
    /// unfinished, [`DbError::Quota`] when the creator has made
    /// [`Bounds::per_creator`] of them, or the store fails.
    pub async fn create_for(&self, new: NewMatch, creator: Creator) -> Result<(), DbError> {
        self.within(async move {
            let bounds = self.bounds;
            match &self.backend {
                Backend::Sqlite(db) => db.create(new, creator, bounds).await,
                Backend::Postgres(db) => db.create(new, creator, bounds).await,
            }
        })
        .await
    }

    /// Makes `new`, made by `creator` (the player who asked), the rematch
    /// of finished match `old`, unless `old` has one already: then nothing
    /// is made, and its id is returned. Both in one transaction, so that
    /// two players asking at once on two servers make one rematch. The
    /// rematch counts against its creator's quota and lobby share as any
    /// new match does.
    ///
    /// # Errors
    /// [`DbError::NoMatch`] when `old` is gone; as [`Db::create_for`].
    pub async fn create_rematch(
        &self,
        old: &str,
        new: NewMatch,
        creator: Creator,
    ) -> Result<Option<String>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.create_rematch(old.to_string(), new, creator, self.bounds)
                        .await
                }
                Backend::Postgres(db) => {
                    db.create_rematch(old, new, creator, &self.origin, self.bounds)
                        .await
                }
            }
        })
        .await
    }

    /// The match `id`, with every move; `None` when there is none.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn load(&self, id: &str) -> Result<Option<StoredMatch>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.load(id.to_string()).await,
                Backend::Postgres(db) => db.load(id).await,
            }
        })
        .await
    }

    /// The person seats and the tokens of `id` (not its moves); `None`
    /// when there is no such match.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn seating(
        &self,
        id: &str,
    ) -> Result<Option<(Vec<SeatRow>, Vec<TokenRow>)>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.seating(id.to_string()).await,
                Backend::Postgres(db) => db.seating(id).await,
            }
        })
        .await
    }

    /// The moves of `id` after the first `after`.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn moves_after(&self, id: &str, after: u32) -> Result<Vec<MoveRow>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.moves_after(id.to_string(), after).await,
                Backend::Postgres(db) => db.moves_after(id, after).await,
            }
        })
        .await
    }

    /// Appends a move (see the module's terms), and tells the other servers.
    /// Returns the match's last-update time as stored (the move's, or an
    /// earlier one less than [`TOUCH_EVERY`] old).
    ///
    /// # Errors
    /// [`DbError::Stale`] when the match does not hold `number - 1` moves,
    /// [`DbError::NoMatch`], or a failure of the store.
    pub async fn append(&self, mv: NewMove) -> Result<i64, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.append(mv).await,
                Backend::Postgres(db) => db.append(mv).await,
            }
        })
        .await
    }

    /// Claims seat `seat` of `id` with the invite whose digest is
    /// `invite` (none for a seat anyone may take): gives the seat to
    /// `token` (adding it to that token's seats when the token exists).
    /// Returns false when the seat is taken, or its invite is another.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn claim(
        &self,
        id: &str,
        seat: u8,
        invite: Option<&str>,
        token: &str,
        name: Option<&str>,
    ) -> Result<bool, DbError> {
        self.within(async move {
            let claim = Claim {
                id: id.to_string(),
                seat,
                invite: invite.map(str::to_string),
                token: token.to_string(),
                name: name.map(str::to_string),
            };
            match &self.backend {
                Backend::Sqlite(db) => db.claim(claim).await,
                Backend::Postgres(db) => db.claim(claim, &self.origin).await,
            }
        })
        .await
    }

    /// Names person seat `seat` of unfinished match `id` (the name checked
    /// by the match layer). Returns false when there is no such seat or the
    /// match is over.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn name_seat(&self, id: &str, seat: u8, name: &str) -> Result<bool, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.name_seat(id.to_string(), seat, name.to_string()).await,
                Backend::Postgres(db) => db.name_seat(id, seat, name, &self.origin).await,
            }
        })
        .await
    }

    /// Gives an open seat a new invite (its old link stops working).
    /// Returns false when the seat is not waiting for an invite (taken, or
    /// for anyone).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn reinvite(&self, id: &str, seat: u8, invite: &str) -> Result<bool, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.reinvite(id.to_string(), seat, invite.to_string()).await,
                Backend::Postgres(db) => db.reinvite(id, seat, invite).await,
            }
        })
        .await
    }

    /// Matches still on with seats anyone may take, newest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn lobby(&self, limit: u32) -> Result<Vec<LobbyRow>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.lobby(limit).await,
                Backend::Postgres(db) => db.lobby(limit).await,
            }
        })
        .await
    }

    /// Deletes unfinished matches untouched since `before_ms`, and those
    /// nobody has played in untouched since `unplayed_before_ms`; returns
    /// how many. Housekeeping, not a request: no time limit (thousands of
    /// matches may go at once).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn expire(&self, before_ms: i64, unplayed_before_ms: i64) -> Result<u64, DbError> {
        match &self.backend {
            Backend::Sqlite(db) => db.expire(before_ms, unplayed_before_ms).await,
            Backend::Postgres(db) => db.expire(before_ms, unplayed_before_ms).await,
        }
    }

    /// Saves a grid file's text under `name` (already checked); a grid of
    /// that name is replaced only when `replace` is true.
    ///
    /// # Errors
    /// When [`MAX_GRIDS`] are saved, or the store fails.
    pub async fn save_grid(
        &self,
        name: &str,
        text: &str,
        replace: bool,
    ) -> Result<GridSave, DbError> {
        self.within(async move {
            self.save_grid_as(name, text, replace, &GridActor::operator())
                .await
        })
        .await
    }

    /// [`Db::save_grid`] by `actor`: a new grid is saved under the actor's
    /// owner; one already saved is replaced only when the actor may
    /// change it.
    ///
    /// # Errors
    /// [`DbError::NotOwner`] for another's grid, [`DbError::GridQuota`]
    /// when the owner or the store holds its most, or the store fails.
    pub async fn save_grid_as(
        &self,
        name: &str,
        text: &str,
        replace: bool,
        actor: &GridActor,
    ) -> Result<GridSave, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => {
                    db.save_grid(name.to_string(), text.to_string(), replace, actor.clone())
                        .await
                }
                Backend::Postgres(db) => db.save_grid(name, text, replace, actor).await,
            }
        })
        .await
    }

    /// The text of the grid `name`, if saved.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn grid(&self, name: &str) -> Result<Option<String>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.grid(name.to_string()).await,
                Backend::Postgres(db) => db.grid(name).await,
            }
        })
        .await
    }

    /// The `limit` grids saved most recently, newest first (ties by name).
    /// Bounded, so that a listing costs the same however many grids the
    /// store holds.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn grids(&self, limit: u32) -> Result<Vec<GridRow>, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.grids(limit).await,
                Backend::Postgres(db) => db.grids(limit).await,
            }
        })
        .await
    }

    /// Deletes the grid `name`; false when there was none.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn delete_grid(&self, name: &str) -> Result<bool, DbError> {
        self.within(async move { self.delete_grid_as(name, &GridActor::operator()).await })
            .await
    }

    /// [`Db::delete_grid`] by `actor`.
    ///
    /// # Errors
    /// [`DbError::NotOwner`] for another's grid, or the store fails.
    pub async fn delete_grid_as(&self, name: &str, actor: &GridActor) -> Result<bool, DbError> {
        self.within(async move {
            match &self.backend {
                Backend::Sqlite(db) => db.delete_grid(name.to_string(), actor.clone()).await,
                Backend::Postgres(db) => db.delete_grid(name, actor).await,
            }
        })
        .await
    }

    /// Imports the `.grid` files of `folder` the first time a store sees
    /// them: a grid already saved under that name is kept. Files are left
    /// as they are (the command line edits them).
    async fn import_grid_files(&self, folder: &Path) -> Result<(), DbError> {
        let marker = "grids imported";
        if self.setting(marker).await?.is_some() {
            return Ok(());
        }
        for (name, text) in grid_files(folder) {
            self.save_grid(&name, &text, false).await?;
        }
        self.set_setting(marker, &now_ms().to_string()).await
    }

    async fn setting(&self, key: &str) -> Result<Option<String>, DbError> {
        match &self.backend {
            Backend::Sqlite(db) => db.setting(key.to_string()).await,
            Backend::Postgres(db) => db.setting(key).await,
        }
    }

    async fn set_setting(&self, key: &str, value: &str) -> Result<(), DbError> {
        match &self.backend {
            Backend::Sqlite(db) => db.set_setting(key.to_string(), value.to_string()).await,
            Backend::Postgres(db) => db.set_setting(key, value).await,
        }
    }
}

/// A seat claim, as the backends take it.
#[derive(Debug, Clone)]
struct Claim {
    id: String,
    seat: u8,
    invite: Option<String>,
    token: String,
    name: Option<String>,
}

/// The `.grid` files of `folder` whose names are good grid names, with
/// their text; files that cannot be read are skipped.
fn grid_files(folder: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let path = entry.path();
            if path.extension()? != crate::store::grid_names::EXTENSION {
                return None;
            }
            let stem = path.file_stem()?.to_str()?;
            let name = crate::store::grid_names::check(stem)
                .ok()
                .filter(|n| n == stem)?;
            let text = std::fs::read_to_string(&path).ok()?;
            Some((name, text))
        })
        .collect();
    files.sort();
    files
}

/// The words for an I/O failure of the store, naming no path (the full
/// error goes to the server's log).
fn io_reason(e: &std::io::Error) -> DbError {
    tracing::warn!(error = %crate::logged::cut(&e.to_string()), "store: file error");
    match e.kind() {
        std::io::ErrorKind::StorageFull => DbError::Full,
        std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
            DbError::ReadOnly
        }
        // Making a folder where a file stands.
        std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotADirectory => {
            DbError::Unavailable("its folder is a file, not a folder".into())
        }
        kind => DbError::Unavailable(kind.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_read_urls_and_paths() {
        assert_eq!(
            Location::parse("postgres://u:p@127.0.0.1:5432/parlor").unwrap(),
            Location::Postgres("postgres://u:p@127.0.0.1:5432/parlor".into())
        );
        assert_eq!(
            Location::parse("sqlite:/tmp/x.db").unwrap(),
            Location::Sqlite("/tmp/x.db".into())
        );
        assert_eq!(
            Location::parse("sqlite:///tmp/x.db").unwrap(),
            Location::Sqlite("/tmp/x.db".into())
        );
        assert_eq!(
            Location::parse("games.db").unwrap(),
            Location::Sqlite("games.db".into())
        );
        assert_eq!(
            Location::parse("./data/parlor").unwrap(),
            Location::Sqlite("./data/parlor".into())
        );
        assert!(Location::parse("mysql://x").unwrap_err().contains("mysql"));
        for bare in ["notaurl", "postgres", "mysql:x", "localhost:5432"] {
            let error = Location::parse(bare).unwrap_err();
            assert!(
                error.contains(bare) && error.contains("postgres://USER"),
                "{error}"
            );
        }
        assert!(Location::parse("  ").is_err());
        assert!(Location::parse("sqlite:").is_err());
    }

    #[test]
    fn a_password_is_never_shown() {
        let shown = Location::parse("postgres://parlor:hunter2@db:5432/x")
            .unwrap()
            .describe();
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("parlor:***@db:5432/x"), "{shown}");
    }

    #[test]
    fn notices_read_back_and_skip_their_own() {
        for notice in [
            Notice::Moved {
                id: "ab12".into(),
                moves: 7,
            },
            Notice::Seated { id: "ab12".into() },
            Notice::Resync,
        ] {
            let payload = notice.payload("me");
            assert_eq!(Notice::parse(&payload, "other"), Some(notice));
            assert_eq!(Notice::parse(&payload, "me"), None);
        }
        assert_eq!(Notice::parse("x m id notanumber", "me"), None);
        assert_eq!(Notice::parse("", "me"), None);
    }
}
