//! Backups of a SQLite store while its server runs.
//!
//! Terms:
//! - **online backup**: SQLite's backup API copies the database, page by
//!   page, from a read transaction of its own: the copy is the store as it
//!   stood at one instant, every move committed by then included (those
//!   still in the write-ahead log too), while the server goes on storing
//!   moves. Copying the file itself (`cp parlor.db`) misses what is still
//!   in the log, and can catch a page half written.
//! - **backup file**: one self-contained SQLite file (no log beside it),
//!   written under a temporary name beside its destination and renamed
//!   into place once whole and checked, so a backup that fails leaves no
//!   half file under the name asked for.
//! - **restore**: with the server stopped, the backup file becomes the
//!   data directory's `parlor.db` (and any `parlor.db-wal` and
//!   `parlor.db-shm` there are removed); see docs/deploy.md, "Backups".

use super::Location;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The file written.
    pub file: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The matches in it.
    pub matches: u64,
}

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The store is PostgreSQL's: its own tools back it up.
    #[error(
        "this store is PostgreSQL's: back it up with pg_dump (pg_dump -Fc -d URL -f FILE; \
         pg_restore to bring it back; see docs/deploy.md, Backups)"
    )]
    Postgres,
    /// The store's file cannot be read.
    #[error("cannot read the store {}: {reason}", path.display())]
    Source {
        /// The store's file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// The backup cannot be written where asked.
    #[error("cannot write the backup {}: {reason}", path.display())]
    Target {
        /// The file asked for.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}

/// Backs up the store at `location` into `to` (see the module's terms),
/// replacing a file there.
///
/// # Errors
/// [`BackupError::Postgres`] for a PostgreSQL store; [`BackupError::Source`]
/// when the store's file is missing or cannot be read;
/// [`BackupError::Target`] when `to` cannot be written.
pub fn backup(location: &Location, to: &Path) -> Result<Backup, BackupError> {
    let Location::Sqlite(path) = location else {
        return Err(BackupError::Postgres);
    };
    let source = |reason: String| BackupError::Source {
        path: path.clone(),
        reason,
    };
    let target = |reason: String| BackupError::Target {
        path: to.to_path_buf(),
        reason,
    };
    if !path.is_file() {
        return Err(source("there is no such file".into()));
    }
    let from = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| source(e.to_string()))?;
    from.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(|e| source(e.to_string()))?;
    let name = to
        .file_name()
        .ok_or_else(|| target("give a file name".into()))?;
    let mut partial_name = name.to_os_string();
    partial_name.push(".partial");
    let partial = to.with_file_name(partial_name);
    let _ = std::fs::remove_file(&partial);
    let written = copy(&from, &partial);
    if let Err(reason) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(target(reason));
    }
    let matches = written.unwrap_or_default();
    std::fs::rename(&partial, to).map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        target(e.to_string())
    })?;
    let bytes = std::fs::metadata(to).map_or(0, |m| m.len());
    Ok(Backup {
        file: to.to_path_buf(),
        bytes,
        matches,
    })
}

/// Copies `from` into a new file `to` in one step (one snapshot), makes it
/// self-contained (no write-ahead log), checks it and flushes it to the
/// disk; the matches it holds.
fn copy(from: &Connection, to: &Path) -> Result<u64, String> {
    let mut into = Connection::open(to).map_err(|e| e.to_string())?;
    {
        use rusqlite::backup::StepResult;
        let backup = rusqlite::backup::Backup::new(from, &mut into).map_err(|e| e.to_string())?;
        // -1: every page in one step, so that the copy is one instant's. A
        // busy source (a checkpoint resetting the log) is asked again.
        let mut tries = 0;
        loop {
            match backup.step(-1).map_err(|e| e.to_string())? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked if tries < 500 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                _ => return Err("the store stayed busy for 5 s".into()),
            }
        }
    }
    into.execute_batch("PRAGMA journal_mode = DELETE;")
        .map_err(|e| e.to_string())?;
    let check: String = into
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    if check != "ok" {
        return Err(format!("the copy does not check: {check}"));
    }
    let matches: i64 = into
        .query_row("SELECT count(*) FROM matches", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    drop(into);
    std::fs::File::open(to)
        .and_then(|f| f.sync_all())
        .map_err(|e| e.to_string())?;
    Ok(u64::try_from(matches).unwrap_or(0))
}
