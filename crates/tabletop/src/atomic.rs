//! Writing files whole or not at all.
//!
//! Terms:
//! - **atomic write**: the bytes go to a temporary file beside the target,
//!   are flushed to disk, and the temporary file is renamed over the target.
//!   A reader sees the old file or the new one, never half of either.

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
    let mut tmp = tempfile::Builder::new()
        .prefix(".parlor-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(named)?;
    tmp.write_all(bytes).map_err(named)?;
    tmp.as_file().sync_all().map_err(named)?;
    tmp.persist(path).map_err(|e| named(e.error))?;
    Ok(())
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

    #[test]
    fn missing_directory_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.txt");
        let err = write_atomic(&path, b"x").unwrap_err().to_string();
        assert!(err.contains("out.txt"), "{err}");
    }
}
