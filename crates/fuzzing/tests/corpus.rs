//! Every seed input of every fuzz target (`fuzz/corpus/TARGET/`) through the
//! target's check, on stable Rust, as part of `cargo test`: an input that
//! once found a fault, or reached new code, is tried again on every change.
//! libFuzzer's search for new inputs is `scripts/fuzz-smoke.sh`.

use std::path::{Path, PathBuf};

/// The corpus of `target`, each input with its file's path, in name order.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect()
}

/// Replays `target`'s corpus; a failure names each input that panicked.
fn replay(target: &str) {
    let (_, check) = fuzzing::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no target {target}"));
    let inputs = corpus(target);
    assert!(!inputs.is_empty(), "{target}'s corpus is empty");
    let failed: Vec<String> = inputs
        .iter()
        .filter(|(_, bytes)| std::panic::catch_unwind(|| check(bytes)).is_err())
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{target} fails on {failed:#?}");
}

#[test]
fn every_target_has_a_corpus_and_a_test_here() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/fuzz_targets");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("fuzz/fuzz_targets")
        .map(|e| {
            e.expect("an entry")
                .path()
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    on_disk.sort();
    let listed: Vec<&str> = fuzzing::TARGETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(on_disk, listed);
    let this = include_str!("corpus.rs");
    for name in listed {
        assert!(
            this.contains(&format!("fn {name}()")),
            "no test replays {name}"
        );
        // The cargo-fuzz target runs the same check this test replays.
        let target = std::fs::read_to_string(dir.join(format!("{name}.rs"))).expect("the target");
        assert!(
            target.contains(&format!("fuzzing::{name}::check(data)")),
            "fuzz/fuzz_targets/{name}.rs does not call fuzzing::{name}::check"
        );
    }
}

#[test]
fn api_bodies() {
    replay("api_bodies");
}

#[test]
fn baffle_layout() {
    replay("baffle_layout");
}

#[test]
fn baffle_moves() {
    replay("baffle_moves");
}

#[test]
fn board_formats() {
    replay("board_formats");
}

#[test]
fn chutes_moves() {
    replay("chutes_moves");
}

#[test]
fn move_text() {
    replay("move_text");
}

#[test]
fn saved_games() {
    replay("saved_games");
}

#[test]
fn tycoon_grid() {
    replay("tycoon_grid");
}

#[test]
fn tycoon_moves() {
    replay("tycoon_moves");
}
