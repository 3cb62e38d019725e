//! Saved Tycoon grids: grid files' text in the store, under safe names.
//!
//! Terms:
//! - **grid name**: what a person calls a saved grid (`my grid`, `race-1`,
//!   `Spielfeld Nr. 2`): 1 to 64 letters (any script), digits, spaces, `-`,
//!   `_` or `.`, starting with a letter or digit. A trailing `.grid` is
//!   dropped, so a file's name is its grid's name.
//! - **import**: the `.grid` files a data directory held before the store
//!   existed (`DATA_DIR/grids/`) are read into the store the first time a
//!   server starts on it ([`crate::store::Db::open`]); the files stay, for the
//!   command line.
//! - **replace**: a save under a name already saved is refused
//!   (`grid_exists`) unless it asks to replace.

use crate::http::client::{Client, Maker};
use crate::http::error::ApiError;
use crate::store::{Db, GridActor, GridSave};
use std::path::Path;
use tabletop::Code;

pub use crate::store::grid_names::{EXTENSION, MAX_NAME};

/// Checks a grid name ([`crate::store::grid_names::check`]) and returns it.
///
/// # Errors
/// 400 `bad_name` saying what is wrong with the name.
pub fn grid_name(name: &str) -> Result<String, ApiError> {
    crate::store::grid_names::check(name)
        .map_err(|why| ApiError::bad_request(why).with_code(Code::BadName))
}

pub use crate::config::grid_folder as folder;

/// Saves a grid file's `text` (a design's [`tycoon::design::Designer::file`],
/// which keeps the text it was opened from) as `name`; a grid of that name
/// is replaced only when `replace` is true. Returns the checked name.
///
/// # Errors
/// 400 for a bad name; 409 `grid_exists` when the name is taken and
/// `replace` is false; the store's failure (507 when full or read-only).
pub async fn save(
    db: &Db,
    name: &str,
    text: &str,
    replace: bool,
    actor: &GridActor,
) -> Result<String, ApiError> {
    let name = grid_name(name)?;
    match db.save_grid_as(&name, text, replace, actor).await? {
        GridSave::Saved => Ok(name),
        GridSave::Exists => Err(ApiError::coded(
            Code::GridExists,
            format!(
                "a grid named '{name}' is already saved: save it under another name, or replace it"
            ),
        )),
    }
}

/// Who `maker` is to the saved grids: the owner of what it saves (its
/// token's digest when it showed one, else its address's), who may change
/// grids without an owner (a client on a loopback address: this machine's
/// user), and at most `per_owner` grids. A request with no client (made in
/// process) is the operator.
pub fn actor(maker: &Maker, per_owner: u32) -> GridActor {
    let Some(client) = maker.client else {
        return GridActor::operator();
    };
    let by_token = maker.token.as_ref().map(|t| format!("token {t}"));
    let by_client = format!("client {}", Client(client).digest());
    GridActor {
        owner: by_token.clone().unwrap_or_else(|| by_client.clone()),
        saver: by_client.clone(),
        neighbourhood: Client(client).neighbourhood_digest(),
        owns: by_token.into_iter().chain([by_client]).collect(),
        any: false,
        ownerless: client.is_loopback(),
        per_owner,
    }
}

/// The text of the saved grid `name` (already checked).
///
/// # Errors
/// 404 `no_grid` when no grid has that name; the store's failure.
pub async fn load(db: &Db, name: &str) -> Result<String, ApiError> {
    db.grid(name).await?.ok_or_else(|| missing(name))
}

/// The 404 for a grid name nothing is saved under.
pub fn missing(name: &str) -> ApiError {
    ApiError::coded(Code::NoGrid, format!("no saved grid named '{name}'"))
}

/// Removes the temporary files a crash (or a kill) during a save left in
/// `data_dir` and its grid folder: `.parlor-*.tmp`, which
/// [`tabletop::write_atomic`] writes before renaming. Returns how many were
/// removed. Nothing else is touched; a folder that cannot be read is
/// skipped.
pub fn clean_leftovers(data_dir: &Path) -> usize {
    let mut removed = 0;
    for dir in [data_dir.to_path_buf(), folder(data_dir)] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let leftover = name.starts_with(".parlor-") && name.ends_with(".tmp");
            if leftover
                && entry.file_type().is_ok_and(|t| t.is_file())
                && std::fs::remove_file(entry.path()).is_ok()
            {
                removed += 1;
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_pass() {
        assert_eq!(grid_name(" my grid ").unwrap(), "my grid");
        assert_eq!(grid_name("race-1.grid").unwrap(), "race-1");
        assert_eq!(grid_name("v1.2_final").unwrap(), "v1.2_final");
        assert_eq!(grid_name("x.grid.grid").unwrap(), "x");
        assert_eq!(grid_name("x .grid").unwrap(), "x");
        // Names are keys in the store, not file names: any script's letters.
        assert_eq!(grid_name("Spielfeld Nr. 2").unwrap(), "Spielfeld Nr. 2");
        assert_eq!(grid_name("ünïcode").unwrap(), "ünïcode");
        assert_eq!(grid_name("盤面").unwrap(), "盤面");
    }

    #[test]
    fn names_that_could_escape_or_hide_are_refused() {
        for bad in [
            "",
            "..",
            "../x",
            "a/b",
            "a\\b",
            "/etc/passwd",
            "C:x",
            ".hidden",
            "a..b",
            "x\0",
            "a\nb",
            "-x",
            "a\u{202e}b",
            "\u{3164}",
            "a\u{200B}b",
            "a\u{00A0}b",
        ] {
            let e = grid_name(bad).expect_err(bad);
            assert_eq!(e.code, "bad_name", "{bad:?}");
        }
        let long = "a".repeat(MAX_NAME + 1);
        assert!(
            grid_name(&long).unwrap_err().message.contains("at most 64"),
            "{long}"
        );
    }

    #[tokio::test]
    async fn grids_are_saved_listed_loaded_and_never_replaced_by_accident() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(
            &crate::store::Location::default_for(dir.path()),
            crate::store::Durability::Process,
            None,
        )
        .await
        .unwrap();
        let op = GridActor::operator();
        let grid = tycoon::parse_grid("1\n10 32\n0\n0\n").unwrap();
        let file = tycoon::write_grid(&grid);
        assert_eq!(
            save(&db, "first", &file, false, &op).await.unwrap(),
            "first"
        );
        let text = load(&db, "first").await.unwrap();
        assert_eq!(tycoon::parse_grid(&text).unwrap(), grid);
        assert_eq!(
            save(&db, "second.grid.grid", &file, false, &op)
                .await
                .unwrap(),
            "second"
        );
        let mut names: Vec<String> = db
            .grids(10)
            .await
            .unwrap()
            .into_iter()
            .map(|g| g.name)
            .collect();
        names.sort();
        assert_eq!(names, ["first", "second"]);
        let taken = save(&db, "first", "0\n0\n0\n", false, &op)
            .await
            .unwrap_err();
        assert_eq!(taken.status, axum::http::StatusCode::CONFLICT);
        assert_eq!(taken.code, "grid_exists");
        assert_eq!(load(&db, "first").await.unwrap(), file, "not replaced");
        save(&db, "first", "0\n0\n0\n", true, &op).await.unwrap();
        assert_eq!(load(&db, "first").await.unwrap(), "0\n0\n0\n");
        assert!(db.delete_grid("second").await.unwrap());
        assert_eq!(load(&db, "second").await.unwrap_err().code, "no_grid");
    }

    #[test]
    fn crash_leftovers_are_cleaned_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(folder(dir.path())).unwrap();
        std::fs::write(dir.path().join("grids/.parlor-abc.tmp"), "half").unwrap();
        std::fs::write(dir.path().join(".parlor-x.tmp"), "half").unwrap();
        std::fs::write(dir.path().join("grids/.parlor-notes"), "mine").unwrap();
        std::fs::write(dir.path().join("grids/mine.grid"), "0\n0\n0\n").unwrap();
        assert_eq!(clean_leftovers(dir.path()), 2);
        assert!(dir.path().join("grids/.parlor-notes").is_file());
        assert!(dir.path().join("grids/mine.grid").is_file());
        assert_eq!(clean_leftovers(dir.path()), 0);
    }
}
