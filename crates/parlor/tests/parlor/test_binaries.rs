//! The workspace's integration tests stay few test binaries, as each one is
//! linked again on every change: one binary a crate
//! (`crates/CRATE/tests/CRATE/main.rs`, a module per subject), and one of
//! its own only for tests that need a process of their own.
//!
//! Terms:
//! - **test binary**: what Cargo makes of `crates/CRATE/tests/NAME.rs` or
//!   `crates/CRATE/tests/NAME/main.rs`, named here `CRATE/NAME`.

use std::path::Path;

/// Every test binary there is, and why each that is not its crate's one
/// binary is one of its own.
const BINARIES: &[&str] = &[
    "baffle/baffle",
    // A global allocator that counts every thread's calls (the work runs on
    // a rayon pool), which the other tests' threads would disturb.
    "chutes/analysis_alloc",
    "chutes/chutes",
    // A global allocator that counts its own thread's calls only.
    "chutes/no_alloc",
    "fuzzing/corpus",
    "parlor/parlor",
    // The server and Chromium's driver, started once for its tests and
    // restarted by some of them (`crates/server/tests/browser/main.rs`).
    "server/browser",
    "server/server",
    "tycoon/tycoon",
];

/// The test binaries in the workspace's crates, as `CRATE/NAME`, in order.
fn test_binaries() -> Vec<String> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for krate in std::fs::read_dir(&crates).expect("crates/") {
        let krate = krate.expect("an entry of crates/").path();
        let Ok(entries) = std::fs::read_dir(krate.join("tests")) else {
            continue;
        };
        let krate = krate
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        for entry in entries {
            let path = entry.expect("an entry of tests/").path();
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if path.is_file() && name.ends_with(".rs") {
                found.push(format!("{krate}/{}", name.trim_end_matches(".rs")));
            } else if path.join("main.rs").is_file() {
                found.push(format!("{krate}/{name}"));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn each_crate_has_one_test_binary_but_for_tests_that_need_a_process() {
    let found = test_binaries();
    assert!(
        found.iter().any(|b| b == "parlor/parlor"),
        "this binary was found: {found:?}"
    );
    assert_eq!(
        found, BINARIES,
        "a new subject is a module of its crate's test binary \
         (crates/CRATE/tests/CRATE/main.rs), not a binary of its own; a test \
         that needs a process of its own is listed here with the reason"
    );
}
