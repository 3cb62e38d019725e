//! Writing files whole or not at all.
//!
//! Terms:
//! - **atomic write**: the bytes go to a temporary file beside the target,
//!   are flushed to disk, and the temporary file is renamed over the target.
//!   A reader sees the old file or the new one, never half of either.
//! - **permissions**: a replaced file keeps its permissions; a new file gets
//!   the usual `rw-r--r--` (0644 on Unix), not the temporary file's private
//!   `rw-------`.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically. On failure the old file (if any) is
/// untouched and no temporary file is left behind.
///
/// # Errors
/// Fails when the directory does not exist or is not writable, or when the
/// disk refuses the data; the error names the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if path.file_name().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file name", path.display()),
        ));
    }
    // The temporary file's name means nothing to the user: say which
    // directory could not take a new file, and why.
    let mut tmp = tempfile::Builder::new()
        .prefix(".parlor-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| {
            let why = if dir.is_dir() {
                format!("cannot create a file in {}: {}", dir.display(), e.kind())
            } else {
                format!("the directory {} does not exist", dir.display())
            };
            io::Error::new(e.kind(), format!("{}: {why}", path.display()))
        })?;
    if let Some(permissions) = permissions_for(path) {
        tmp.as_file().set_permissions(permissions).map_err(named)?;
    }
    tmp.write_all(bytes).map_err(named)?;
    tmp.as_file().sync_all().map_err(named)?;
    tmp.persist(path).map_err(|e| named(e.error))?;
    Ok(())
}

/// The permissions the written file should have: the old file's, or 0644 on
/// Unix (elsewhere the temporary file's own are fine).
fn permissions_for(path: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(path) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    }

    #[cfg(unix)]
    #[test]
    fn new_files_are_readable_and_old_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("picture.svg");
        write_atomic(&path, b"one").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o644);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(mode(&path), 0o600);
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.txt");
        let err = write_atomic(&path, b"x").unwrap_err().to_string();
        assert!(err.contains("out.txt"), "{err}");
        assert!(err.ends_with("no/such/dir does not exist"), "{err}");
        assert!(!err.contains(".parlor-"), "names the temporary file: {err}");
    }
}
