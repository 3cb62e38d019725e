//! PostgreSQL connections for requests: a small pool, the statements
//! prepared on each, and PostgreSQL's failures in the store's words.
//!
//! Terms:
//! - **pool**: up to [`POOL`] connections, made when first needed and kept
//!   while they work; a broken one — even one that died while idle — is
//!   dropped and a new one made.
//! - **prepared statement**: the statements of a move and of a new match
//!   are prepared once per connection and kept with it
//!   ([`Pooled::prepared`]): a statement given as text is prepared again at
//!   each call, a round trip and a plan more.

use super::DbError;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::Semaphore;
use tokio_postgres::{Client, Config, NoTls, Statement};

/// The most connections a server opens for its requests.
const POOL: usize = 16;

/// The pool of one server's connections to one database.
pub(super) struct Pool {
    config: Config,
    idle: Mutex<Vec<Conn>>,
    permits: Semaphore,
}

/// A connection of the pool, with the statements prepared on it.
struct Conn {
    client: Client,
    statements: HashMap<&'static str, Statement>,
}

/// A connection borrowed from the pool; it goes back when dropped, unless
/// it broke.
pub(super) struct Pooled<'a> {
    conn: Option<Conn>,
    pool: &'a Pool,
    _permit: tokio::sync::SemaphorePermit<'a>,
}

impl Pooled<'_> {
    fn conn(&mut self) -> &mut Conn {
        self.conn
            .as_mut()
            .expect("a pooled connection is present until dropped")
    }

    /// `sql` prepared on this connection: the first time it is asked for,
    /// then kept with the connection.
    pub(super) async fn prepared(&mut self, sql: &'static str) -> Result<Statement, DbError> {
        let conn = self.conn();
        if let Some(statement) = conn.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = conn.client.prepare(sql).await.map_err(pg)?;
        conn.statements.insert(sql, statement.clone());
        Ok(statement)
    }
}

impl std::ops::Deref for Pooled<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self
            .conn
            .as_ref()
            .expect("a pooled connection is present until dropped")
            .client
    }
}

impl std::ops::DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.conn().client
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take().filter(|c| !c.client.is_closed()) {
            self.pool
                .idle
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(conn);
        }
    }
}

impl Pool {
    /// A pool of connections made with `config`, none made yet.
    pub(super) fn new(config: Config) -> Self {
        Self {
            config,
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(POOL),
        }
    }

    /// A connection: an idle one, or a new one while fewer than [`POOL`]
    /// are out; waits for one to come back otherwise.
    pub(super) async fn conn(&self) -> Result<Pooled<'_>, DbError> {
        let permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| DbError::Unavailable("the store has stopped".into()))?;
        // A connection that died while idle (PostgreSQL restarted, the
        // network dropped it) is dropped here, not handed out.
        let idle = loop {
            let next = self
                .idle
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .pop();
            match next {
                Some(conn) if conn.client.is_closed() => {}
                next => break next,
            }
        };
        let conn = match idle {
            Some(conn) => conn,
            None => Conn {
                client: connect(&self.config).await?,
                statements: HashMap::new(),
            },
        };
        Ok(Pooled {
            conn: Some(conn),
            pool: self,
            _permit: permit,
        })
    }
}

/// A new connection, its driver running on the runtime.
async fn connect(config: &Config) -> Result<Client, DbError> {
    let (client, connection) = config.connect(NoTls).await.map_err(pg)?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %said(&e), "store: a PostgreSQL connection ended");
        }
    });
    Ok(client)
}

/// What the log says of a PostgreSQL failure: for an error PostgreSQL
/// reported, its code and message only — never its detail, which may quote
/// a row (a match's header holds its seed).
pub(super) fn said(e: &tokio_postgres::Error) -> String {
    let words = match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        // "error connecting to server" says little alone: its causes (the
        // connection refused, the name not found) follow.
        None => {
            let mut words = e.to_string();
            let mut cause = std::error::Error::source(e);
            while let Some(inner) = cause {
                words.push_str(": ");
                words.push_str(&inner.to_string());
                cause = inner.source();
            }
            words
        }
    };
    crate::logged::cut(&words).into_owned()
}

/// A PostgreSQL failure in words (what went wrong goes to the server's
/// log, [`said`]).
pub(super) fn pg(e: tokio_postgres::Error) -> DbError {
    tracing::warn!(error = %said(&e), "store: PostgreSQL failed");
    if let Some(db) = e.as_db_error() {
        use tokio_postgres::error::SqlState;
        let code = db.code();
        if *code == SqlState::DISK_FULL {
            return DbError::Full;
        }
        if *code == SqlState::READ_ONLY_SQL_TRANSACTION {
            return DbError::ReadOnly;
        }
    }
    if e.is_closed() {
        return DbError::Unavailable("the connection to PostgreSQL was lost".into());
    }
    DbError::Unavailable("the database failed (the server's log has the details)".into())
}
