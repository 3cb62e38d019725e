//! What Parlor's tests share.
//!
//! Terms:
//! - **test cluster**: the throwaway PostgreSQL server that
//!   `scripts/with-postgres.sh` starts for a test run (`bash scripts/test.sh`
//!   uses it) and names in `PARLOR_TEST_POSTGRES_URL`.
//! - **fresh database**: a new, empty database on the test cluster, one per
//!   test, so that tests running at once never see each other's matches.
//! - **race** ([`race`]): a game that exists only for the tests, added to a
//!   server's registry to show that a new game needs nothing else.

pub mod race;

use std::time::Duration;

/// The variable that names the test cluster.
pub const POSTGRES_URL_VAR: &str = "PARLOR_TEST_POSTGRES_URL";

/// The URL of a new, empty database on the test cluster.
///
/// # Panics
/// When no test cluster is named (run the tests with `bash
/// scripts/test.sh`, or `bash scripts/with-postgres.sh cargo test`), or it
/// cannot be reached: a store test must not pass without its PostgreSQL.
pub async fn fresh_postgres() -> String {
    let base = std::env::var(POSTGRES_URL_VAR).unwrap_or_else(|_| {
        panic!(
            "{POSTGRES_URL_VAR} is not set: the store tests need a PostgreSQL server; \
             run them with `bash scripts/test.sh` or `bash scripts/with-postgres.sh cargo test`"
        )
    });
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("randomness for a database name");
    let name = format!(
        "parlor_test_{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let (client, connection) = tokio_postgres::connect(&base, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("cannot reach the test cluster at {base}: {e}"));
    let driver = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap_or_else(|e| panic!("cannot make a test database: {e}"));
    drop(client);
    let _ = tokio::time::timeout(Duration::from_secs(5), driver).await;
    match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("{POSTGRES_URL_VAR} has no database part: {base}"),
    }
}
