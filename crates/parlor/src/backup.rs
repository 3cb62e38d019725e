//! `parlor backup`: a copy of a server's SQLite store, made while it runs.
//!
//! Terms:
//! - **store**: as `parlor serve` finds it: `--database` (or
//!   `PARLOR_DATABASE_URL`), else `parlor.db` in `--data-dir` (or
//!   `PARLOR_DATA_DIR`, else the platform's user data directory).
//! - **backup**: SQLite's online backup ([`server::store::backup`]): the
//!   store as it stood at one instant, every acknowledged move included.

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `parlor backup`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor backup --to /backups/parlor-$(date +%F).db
  parlor backup --data-dir /var/lib/parlor --to parlor-backup.db

The server may keep running: the copy is the store as it stood at one
instant, every move it had answered by then included. To restore, stop the
server, put the backup in place of parlor.db in its data directory (remove
parlor.db-wal and parlor.db-shm there), and start it (docs/deploy.md,
Backups). A PostgreSQL store is backed up with pg_dump.")]
pub struct BackupArgs {
    /// The file to write (replaced if it exists).
    #[arg(long, value_name = "FILE")]
    to: PathBuf,
    /// The server's data directory (as `parlor serve --data-dir`).
    #[arg(long, value_name = "DIR", env = "PARLOR_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// The server's store (as `parlor serve --database`).
    #[arg(
        long,
        value_name = "URL",
        env = "PARLOR_DATABASE_URL",
        hide_env_values = true
    )]
    database: Option<String>,
}

/// Backs up the store and says what was written.
pub fn run(args: &BackupArgs) -> Result<()> {
    let location = match &args.database {
        Some(url) => server::store::Location::parse(url)
            .map_err(anyhow::Error::msg)
            .context(crate::common::source_of(
                "--database",
                "PARLOR_DATABASE_URL",
            ))?,
        None => {
            let dir = match &args.data_dir {
                Some(dir) => dir.clone(),
                None => dirs::data_dir()
                    .map(|d| d.join("parlor"))
                    .context("this platform has no user data directory; pass --data-dir DIR")?,
            };
            server::store::Location::default_for(&dir)
        }
    };
    let made = server::store::backup::backup(&location, &args.to)?;
    println!(
        "Backed up the {} to {}: {} matches, {} bytes.",
        location.describe(),
        made.file.display(),
        made.matches,
        made.bytes
    );
    Ok(())
}
