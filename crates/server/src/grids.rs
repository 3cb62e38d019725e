//! Saved Tycoon grids: files in the data directory, under safe names.
//!
//! Terms:
//! - **grid name**: what a person calls a saved grid (`my grid`, `race-1`):
//!   1 to 64 letters, digits, spaces, `-`, `_` or `.`, starting with a letter
//!   or digit. Nothing else is accepted, so a name can never reach outside the
//!   grid folder (`..`, `/`, `\`, drive letters are all refused).
//! - **grid folder**: `DATA_DIR/grids/`; a grid named `x` is the file
//!   `x.grid` there, in the grid file format, written atomically.

use crate::error::ApiError;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The longest grid name.
pub const MAX_NAME: usize = 64;

/// The file extension of saved grids.
pub const EXTENSION: &str = "grid";

/// A saved grid, as listed.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SavedGrid {
    /// Its name.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// Checks a grid name (trailing `.grid`s are dropped, so that `x.grid.grid`
/// is the grid `x`, never a file the list cannot name) and returns it.
///
/// # Errors
/// 400 saying what is wrong with the name.
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let mut name = name.trim();
    while let Some(stem) = name.strip_suffix(".grid").filter(|n| !n.trim().is_empty()) {
        name = stem.trim();
    }
    let bad = |why: &str| {
        let shown: String = name.chars().take(MAX_NAME + 10).collect();
        ApiError::bad_request(format!("the grid name '{shown}' {why}"))
    };
    if name.is_empty() {
        return Err(ApiError::bad_request("a grid needs a name"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(bad(&format!("is longer than {MAX_NAME} characters")));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(bad("must start with a letter or a digit"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.')))
    {
        return Err(bad(&format!(
            "holds '{c}': use letters, digits, spaces, '-', '_' and '.'"
        )));
    }
    if name.contains("..") {
        return Err(bad("holds '..'"));
    }
    Ok(name.to_string())
}

/// The grid folder under `data_dir`.
pub fn folder(data_dir: &Path) -> PathBuf {
    data_dir.join("grids")
}

fn path_of(data_dir: &Path, name: &str) -> PathBuf {
    folder(data_dir).join(format!("{name}.{EXTENSION}"))
}

/// Saves a grid file's `text` (a design's [`tycoon::design::Designer::file`],
/// which keeps the text it was opened from) as `name`, replacing a grid of
/// that name, atomically. Returns the checked name.
///
/// # Errors
/// 400 for a bad name; 507 when the folder cannot be made or the file
/// cannot be written.
pub fn save(data_dir: &Path, name: &str, text: &str) -> Result<String, ApiError> {
    let name = check_name(name)?;
    let dir = folder(data_dir);
    let storage = |e: std::io::Error| {
        ApiError::new(
            axum::http::StatusCode::INSUFFICIENT_STORAGE,
            format!("cannot save the grid '{name}': {}", storage_reason(&e)),
        )
    };
    std::fs::create_dir_all(&dir).map_err(storage)?;
    tabletop::write_atomic(&path_of(data_dir, &name), text.as_bytes()).map_err(storage)?;
    Ok(name)
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

/// Why a file could not be written, in words that name no server path
/// (the full error, path included, goes to the server's standard error).
fn storage_reason(e: &std::io::Error) -> String {
    eprintln!("parlor serve: {e}");
    match e.kind() {
        std::io::ErrorKind::StorageFull => "the disk is full".to_string(),
        std::io::ErrorKind::ReadOnlyFilesystem => "the data directory is read-only".to_string(),
        std::io::ErrorKind::PermissionDenied => {
            "the server may not write to its data directory".to_string()
        }
        kind => kind.to_string(),
    }
}

/// The text of the saved grid `name`.
///
/// # Errors
/// 400 for a bad name, 404 when no grid has that name.
pub fn load_text(data_dir: &Path, name: &str) -> Result<String, ApiError> {
    let name = check_name(name)?;
    std::fs::read_to_string(path_of(data_dir, &name))
        .map_err(|_| ApiError::not_found(format!("no saved grid named '{name}'")))
}

/// Every saved grid, by name.
pub fn list(data_dir: &Path) -> Vec<SavedGrid> {
    let Ok(entries) = std::fs::read_dir(folder(data_dir)) else {
        return Vec::new();
    };
    let mut grids: Vec<SavedGrid> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let path = entry.path();
            if path.extension()? != EXTENSION {
                return None;
            }
            let name = path.file_stem()?.to_str()?.to_string();
            check_name(&name).ok().filter(|n| *n == name)?;
            let bytes = entry.metadata().ok()?.len();
            Some(SavedGrid { name, bytes })
        })
        .collect();
    grids.sort_by(|a, b| a.name.cmp(&b.name));
    grids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_pass() {
        assert_eq!(check_name(" my grid ").unwrap(), "my grid");
        assert_eq!(check_name("race-1.grid").unwrap(), "race-1");
        assert_eq!(check_name("v1.2_final").unwrap(), "v1.2_final");
        assert_eq!(check_name("x.grid.grid").unwrap(), "x");
        assert_eq!(check_name("x .grid").unwrap(), "x");
    }

    #[test]
    fn names_that_could_escape_are_refused() {
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
            "ünïcode",
            "a\nb",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?} should be refused");
        }
        let long = "a".repeat(MAX_NAME + 1);
        assert!(check_name(&long).unwrap_err().message.contains("longer"));
    }

    #[test]
    fn grids_are_saved_listed_and_loaded() {
        let dir = tempfile::tempdir().unwrap();
        assert!(list(dir.path()).is_empty());
        let grid = tycoon::parse_grid("1\n10 32\n0\n0\n").unwrap();
        let file = tycoon::write_grid(&grid);
        assert_eq!(save(dir.path(), "first", &file).unwrap(), "first");
        let text = load_text(dir.path(), "first.grid").unwrap();
        assert_eq!(tycoon::parse_grid(&text).unwrap(), grid);
        assert!(dir.path().join("grids/first.grid").is_file());
        // A name saved is a name listed, and loads what was saved under it.
        assert_eq!(
            save(dir.path(), "second.grid.grid", &file).unwrap(),
            "second"
        );
        let names: Vec<String> = list(dir.path()).into_iter().map(|g| g.name).collect();
        assert_eq!(names, ["first", "second"]);
        assert_eq!(
            tycoon::parse_grid(&load_text(dir.path(), "second").unwrap()).unwrap(),
            grid
        );
        std::fs::remove_file(dir.path().join("grids/second.grid")).unwrap();
        // Leftovers of a crash go at start; other files stay.
        std::fs::write(dir.path().join("grids/.parlor-abc.tmp"), "half").unwrap();
        std::fs::write(dir.path().join(".parlor-x.tmp"), "half").unwrap();
        std::fs::write(dir.path().join("grids/.parlor-notes"), "mine").unwrap();
        assert_eq!(clean_leftovers(dir.path()), 2);
        assert!(dir.path().join("grids/.parlor-notes").is_file());
        assert!(dir.path().join("grids/first.grid").is_file());
        assert_eq!(clean_leftovers(dir.path()), 0);
        assert_eq!(
            load_text(dir.path(), "second").unwrap_err().status,
            axum::http::StatusCode::NOT_FOUND
        );
    }
}
