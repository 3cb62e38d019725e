//! The CLI under hostile or absurd input: boards no game can finish, game
//! counts and thread counts far past reason, corrupted saves, huge boards,
//! closed pipes and failing writes. Each command ends in bounded time and
//! memory and says what was wrong, once.
//!
//! Terms: **within** runs a command that must finish before a deadline (a
//! hang is a failure, not a stuck test run).

use crate::common;

use common::*;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `parlor ARGS`, failing the test if it has not finished in 60 s.
fn within(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parlor");
    let start = Instant::now();
    while child.try_wait().expect("poll parlor").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("wait for parlor")
}

/// A file in a fresh temporary directory holding `text`.
fn temp_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write temp file");
    (dir, path)
}

#[test]
fn play_stops_when_no_token_can_ever_finish() {
    // A one-faced die on the classic board walks into the chute 47 -> 26
    // and round again: no game ends, so play must stop, not run forever.
    let out = within(&["chutes", "play", "--faces", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("The game can never end"), "{text}");
    // Square 2 is a trap: 3 to 8 slide back to it.
    let (_dir, board) = temp_file(
        "trap.toml",
        "size = 10\nchutes = [[3,2],[4,2],[5,2],[6,2],[7,2],[8,2]]\nladders = [[1,9]]\n",
    );
    let board = board.to_str().expect("utf-8 path");
    let out = within(&[
        "chutes",
        "play",
        "--board",
        board,
        "--players",
        "2",
        "--dice",
        "2,2,1,1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["ending"], "stuck");
    assert_eq!(v["rolls"], 2);
    assert_eq!(v["unused_rolls"], 2);
    let out = within(&["chutes", "play", "--board", board, "--seed", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("game.svg");
    let svg = svg.to_str().expect("utf-8 path");
    let out = within(&["chutes", "render", "--faces", "1", "--seed", "1", "-o", svg]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("can never end"), "{}", stdout(&out));
    let picture = std::fs::read_to_string(svg).expect("svg written");
    assert!(
        picture.contains("this game can never end"),
        "the picture says so too"
    );
}

/// Starts `parlor ARGS` and checks it is still running (not crashed) after
/// two seconds; then stops it.
fn keeps_running(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parlor");
    std::thread::sleep(Duration::from_secs(2));
    let status = child.try_wait().expect("poll parlor");
    let _ = child.kill();
    let out = child.wait_with_output().expect("wait for parlor");
    assert!(
        status.is_none(),
        "{args:?} ended early ({status:?}): {}",
        stderr(&out)
    );
}

#[test]
fn huge_game_counts_run_in_bounded_memory() {
    // Both used to allocate a result per 65,536 games up front and abort.
    let most = u64::MAX.to_string();
    keeps_running(&[
        "chutes",
        "simulate",
        "--games",
        &most,
        "--seed",
        "1",
        "--threads",
        "1",
    ]);
    keeps_running(&[
        "chutes",
        "search",
        "--games",
        &most,
        "--seed",
        "1",
        "--threads",
        "1",
    ]);
}

#[test]
fn absurd_thread_counts_are_refused() {
    let err = fails(&["chutes", "simulate", "--games", "10", "--threads", "100000"]);
    assert!(err.contains("at most 256"), "{err}");
    let err = fails(&["chutes", "search", "--games", "10", "--threads", "100000"]);
    assert!(err.contains("at most 256"), "{err}");
}

#[test]
fn tycoon_simulate_clamps_absurd_thread_counts() {
    // 100,000 threads used to be started (and took minutes); the tally does
    // not depend on the threads, so the count is clamped.
    let out = within(&[
        "tycoon",
        "simulate",
        "sample",
        "--games",
        "20",
        "--seed",
        "3",
        "--threads",
        "100000",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let many: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let out = within(&[
        "tycoon",
        "simulate",
        "sample",
        "--games",
        "20",
        "--seed",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    let one: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(many, one);
}

#[test]
fn write_errors_say_what_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no/such/out.png");
    let missing = missing.to_str().expect("utf-8 path");
    let err = fails(&["baffle", "render", "--shots", "7", "-o", missing]);
    assert_eq!(err.matches("cannot write").count(), 1, "{err}");
    let grid = dir.path().join("no/such/my.grid");
    let grid = grid.to_str().expect("utf-8 path");
    let err = fails(&["tycoon", "edit", "new", "-o", grid, "--do", "ladder 10 32"]);
    assert!(err.contains("does not exist"), "{err}");
    assert!(!err.contains(".parlor-"), "names the temporary file: {err}");
    let err = fails(&["chutes", "min-throws", "--pairs", "3 22", "--size", "2"]);
    assert_eq!(err.matches("not inside the board").count(), 1, "{err}");
}

#[test]
fn a_corrupted_tycoon_save_is_refused_saying_why_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("game.json");
    let save = save.to_str().expect("utf-8 path");
    ok(&[
        "tycoon", "play", "sample", "--seed", "7", "--seats", "bot", "--save", save,
    ]);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).expect("saved")).expect("json");
    // The first move of a game is a roll: a purchase there is refused.
    v["moves"][0] = serde_json::json!("buy");
    std::fs::write(save, v.to_string()).expect("write");
    for args in [
        ["tycoon", "play", "--resume", save].as_slice(),
        ["tycoon", "render", "--game", save, "-o", "unused.svg"].as_slice(),
    ] {
        let err = fails(args);
        assert!(err.contains("move #1 of the record is refused"), "{err}");
        assert!(err.contains("buy"), "{err}");
        assert_eq!(err.matches("cannot be replayed").count(), 1, "{err}");
    }
    // A snapshot saved by an older Parlor is refused, saying why.
    let old = r#"{"version":1,"grid":{},"players":[],"moves":12}"#;
    std::fs::write(save, old).expect("write");
    let err = fails(&["tycoon", "play", "--resume", save]);
    assert!(
        err.contains("older Parlor") && err.contains("record"),
        "{err}"
    );
}

#[test]
fn a_heat_map_of_a_huge_board_is_refused_before_the_analysis() {
    // The picture refuses a million squares; the analysis (minutes in a
    // debug build) used to run first.
    let (_dir, board) = temp_file("big.toml", "size = 1000000\n");
    let board = board.to_str().expect("utf-8 path");
    let out = within(&[
        "chutes",
        "render",
        "--board",
        board,
        "--heatmap",
        "-o",
        "unused.svg",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("up to 10000 squares"), "{err}");
    let out = within(&[
        "chutes",
        "plot",
        "--kind",
        "heatmap",
        "--board",
        board,
        "-o",
        "unused.svg",
    ]);
    assert!(
        stderr(&out).contains("up to 10000 squares"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn baffle_solve_says_what_a_tiny_sample_shows() {
    // One sampled layout of a billion cannot prove that no shot helps.
    let out = ok(&["baffle", "solve", "--shots", "7:22", "--samples", "0"]);
    assert!(!out.contains("No shot can tell"), "{out}");
    assert!(out.contains("sampled layout"), "{out}");
    for command in ["solve", "render"] {
        let help = ok(&["baffle", command, "--help"]);
        assert!(!help.contains("\\\""), "escaped quotes in help: {help}");
    }
}

#[test]
fn tycoon_edit_lists_the_edit_forms_once() {
    let err = fails(&["tycoon", "edit", "new", "-o", "unused.grid", "--do", ""]);
    assert_eq!(err.matches("ladder START END").count(), 1, "{err}");
    let err = fails(&[
        "tycoon",
        "edit",
        "new",
        "-o",
        "unused.grid",
        "--do",
        "ladder x 3",
    ]);
    assert_eq!(err.matches("ladder START END").count(), 1, "{err}");
}

#[test]
fn simulate_prints_no_empty_histogram_when_no_game_ends() {
    let out = ok(&[
        "chutes", "simulate", "--faces", "1", "--games", "10", "--seed", "1",
    ]);
    assert!(out.contains("no game ended"), "{out}");
    assert!(!out.contains("Histogram"), "{out}");
    let out = ok(&["chutes", "simulate", "--games", "10", "--seed", "1"]);
    assert!(out.contains("Histogram"), "{out}");
}

#[test]
fn completions_into_a_closed_pipe_do_not_panic() {
    // As `parlor completions bash | head -1` does: the reader goes away.
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["completions", "bash"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parlor");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for parlor");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}

#[test]
fn a_replayed_record_with_a_bad_setup_says_so_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("game.json");
    let save = save.to_str().expect("utf-8 path");
    ok(&[
        "tycoon", "play", "sample", "--seed", "7", "--seats", "bot", "--save", save,
    ]);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).expect("saved")).expect("json");
    // Five seats: Tycoon takes two to four.
    let seats = v["seats"].as_array().expect("seats").clone();
    let mut more = seats.clone();
    more.push(seats[0].clone());
    v["seats"] = serde_json::Value::Array(more);
    std::fs::write(save, v.to_string()).expect("write");
    let err = fails(&["replay", save]);
    assert!(
        err.contains("this game takes 2 to 4 players, not 5"),
        "{err}"
    );
    assert_eq!(
        err.matches("the record's setup is refused").count(),
        1,
        "{err}"
    );
}

#[test]
fn a_records_names_are_replayed_as_text_and_a_bad_one_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("game.json");
    let save = save.to_str().expect("utf-8 path");
    ok(&[
        "tycoon", "play", "sample", "--seed", "7", "--seats", "bot", "--save", save,
    ]);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).expect("saved")).expect("json");
    v["names"] = serde_json::json!(["<b>Ada</b>", null, "Zoë", null]);
    std::fs::write(save, v.to_string()).expect("write");
    let out = ok(&["replay", save]);
    assert!(out.contains("\n    1. <b>Ada</b>: roll\n"), "{out}");
    assert!(out.contains("\n    2. Normal bot 2: roll\n"), "{out}");
    assert!(out.contains("\n    3. Zoë: roll\n"), "{out}");
    // A name a person could not have given is refused, and named.
    v["names"] = serde_json::json!(["Ada\u{202e}", null, null, null]);
    std::fs::write(save, v.to_string()).expect("write");
    let err = fails(&["replay", save]);
    assert!(err.contains("seat 1's name"), "{err}");
    assert!(err.contains("U+202E"), "{err}");
}
