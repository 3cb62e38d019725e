//! The real `parlor` binary: `baffle bot`, the solver playing.

use crate::common;

use common::*;
use serde_json::Value;

#[test]
fn the_bot_wins_the_fixed_game_and_says_why() {
    let text = ok(&["baffle", "bot"]);
    assert!(
        text.contains("the original assignment's fixed first game"),
        "{text}"
    );
    assert!(text.contains("Found 5 of 5 mirrors."), "{text}");
    assert!(text.contains("Won: every mirror found."), "{text}");
    // Every guess names its reason; a proven mirror is never a wrong guess.
    for line in text.lines().filter(|l| l.contains("(the shots prove it)")) {
        assert!(line.contains("Right:"), "{line}");
    }

    let v = json(&["baffle", "bot", "--json"]);
    assert_eq!(v["status"], "won");
    let moves = v["moves"].as_array().unwrap();
    let shots = moves
        .iter()
        .filter(|m| m["move"]["move"] == "shoot")
        .count() as u64;
    let wrong = moves
        .iter()
        .flat_map(|m| m["events"].as_array().unwrap())
        .filter(|e| e["event"] == "guess" && e["right"] == false)
        .count() as u64;
    assert_eq!(v["score"]["shots"].as_u64(), Some(shots));
    assert_eq!(v["score"]["wrong_guesses"].as_u64(), Some(wrong));
    assert_eq!(v["score"]["total"].as_u64(), Some(shots + 2 * wrong));
    // Each shot's event is the fixed game's real beam.
    for m in moves.iter().filter(|m| m["move"]["move"] == "shoot") {
        let hole = m["move"]["hole"].as_u64().unwrap().to_string();
        let trace = json(&["baffle", "trace", "--fixed", &hole, "--json"]);
        assert_eq!(m["events"][0]["exit"], trace[0]["exit"], "{m}");
    }
    let reasons: Vec<&str> = moves
        .iter()
        .map(|m| {
            let r = &m["reason"];
            r["advice"]["kind"].as_str().or(r["kind"].as_str()).unwrap()
        })
        .collect();
    assert!(reasons.contains(&"exact_best_shot"), "{reasons:?}");
}

#[test]
fn many_games_report_scores_the_same_on_any_number_of_threads() {
    let args = [
        "baffle",
        "bot",
        "--size",
        "5",
        "--mirrors",
        "2",
        "--games",
        "30",
        "--seed",
        "3",
        "--json",
    ];
    let one: Value = json(&[&args[..], &["--threads", "1"]].concat());
    let two: Value = json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert_eq!(one["games"], 30);
    assert_eq!(one["first_seed"], 3);
    let by_score = one["scores"].as_object().unwrap();
    let games: u64 = by_score.values().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(games, 30);
    let total: u64 = by_score
        .iter()
        .map(|(s, c)| s.parse::<u64>().unwrap() * c.as_u64().unwrap())
        .sum();
    let mean = one["mean_score"].as_f64().unwrap();
    assert!((mean - total as f64 / 30.0).abs() < 1e-9, "{one}");
    let best = one["best"].as_u64().unwrap();
    assert!(best >= 1 && best <= one["worst"].as_u64().unwrap(), "{one}");

    let text = ok(&[
        "baffle",
        "bot",
        "--size",
        "5",
        "--mirrors",
        "2",
        "--games",
        "30",
        "--seed",
        "3",
    ]);
    assert!(text.contains("seeds 3 to 32"), "{text}");
    assert!(text.contains("Every mirror found in every game."), "{text}");
}

#[test]
fn a_saved_bot_game_resumes_and_draws() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let s = save.to_str().unwrap();
    let out = parlor(&[
        "baffle", "bot", "--seed", "7", "--sides", "left-top", "--save", s,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(saved["setup"]["sides"], "left-top");
    let picture = dir.path().join("game.svg");
    ok(&[
        "baffle",
        "render",
        "--game",
        s,
        "-o",
        picture.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(
        svg.contains("class=\"beam\""),
        "a finished game shows its beams"
    );
}

#[test]
fn bad_bot_requests_say_what_is_wrong() {
    let err = fails(&["baffle", "bot", "--games", "0"]);
    assert!(err.contains("--games must be at least 1"), "{err}");
    let err = fails(&["baffle", "bot", "--guess-above", "1.5"]);
    assert!(
        err.contains("--guess-above must be between 0 and 1"),
        "{err}"
    );
    let err = fails(&["baffle", "bot", "--fixed", "--games", "3"]);
    assert!(err.contains("--games plays random boxes"), "{err}");
    let err = fails(&["baffle", "bot", "--size", "3"]);
    assert!(err.contains('4'), "{err}");
    let help = ok(&["baffle", "bot", "--help"]);
    assert!(help.contains("Examples:"), "{help}");
}

#[test]
fn the_bot_moves_at_the_play_prompt() {
    let script = "bot\n".repeat(17) + "bot\n";
    let out = parlor_with_input(&["baffle", "play"], &script);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("The bot: ").count(), 17, "{text}");
    assert!(text.contains("The bot: shoot 12 ("), "{text}");
    assert!(text.contains("Found 5 of 5 mirrors."), "{text}");
    assert!(
        text.contains("The game is over; type new for another."),
        "{text}"
    );
}

/// Many games under a pipe print only the report, and Ctrl-C stops them
/// with the scores of the games played so far.
#[test]
fn many_games_stop_on_ctrl_c_with_the_games_so_far() {
    let out = interrupted(
        &[
            "baffle",
            "bot",
            "--size",
            "4",
            "--mirrors",
            "2",
            "--games",
            "100000000",
            "--seed",
            "1",
        ],
        std::time::Duration::from_millis(1500),
    );
    let (text, said) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{text}{said}");
    assert!(said.is_empty(), "no progress bar under a pipe: {said:?}");
    // The games played are the first seeds (each thread finishes its game
    // and takes no other), summed as they end: a hundred million asked for
    // fit in the 1 GiB `interrupted` allows.
    let played = text
        .strip_prefix("Stopped (Ctrl-C) after ")
        .and_then(|rest| {
            rest.split_once(" of 100000000 games: the figures below are of the games played.")
        })
        .map(|(games, _)| games.to_string())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(text.contains(&format!("(seeds 1 to {played}).")), "{text}");
    assert!(text.contains("Every mirror found in every game."), "{text}");
}
