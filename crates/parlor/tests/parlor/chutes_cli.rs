//! The real `parlor` binary: `chutes play`, `chutes board`, `completions`.

use crate::common;

use common::*;
use serde_json::Value;

#[test]
fn play_logs_a_seeded_game_and_replays_it() {
    let first = ok(&["chutes", "play", "--seed", "7"]);
    assert_eq!(first, ok(&["chutes", "play", "--seed", "7"]));
    assert!(first.starts_with("Chutes & Ladders: classic board (100 squares), 1 player"));
    assert!(first.contains("seed 7"));
    assert!(first.contains("Player 1 reached 100 in"), "{first}");
    let dice = first
        .lines()
        .find_map(|l| l.strip_prefix("Dice: "))
        .expect("a dice line");
    // The printed dice string replays the same game.
    let replay = ok(&["chutes", "play", "--dice", dice]);
    let moves = |s: &str| -> Vec<String> {
        s.lines()
            .skip(1)
            .take_while(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(moves(&first), moves(&replay));
}

#[test]
fn play_with_given_dice_logs_each_roll() {
    let out = ok(&["chutes", "play", "--dice", "1,6,6,1,4,3,6"]);
    assert!(out.contains("climbs the ladder 1->38"), "{out}");
    assert!(out.contains("climbs the ladder 51->67"), "{out}");
    assert!(out.contains("Player 1 reached 100 in 7 rolls."), "{out}");
    assert!(out.contains("Dice: 1661436"), "{out}");
    let lost = ok(&[
        "chutes",
        "play",
        "--dice",
        "4 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 5 6",
    ]);
    assert!(lost.contains("slides down the chute"), "{lost}");
}

#[test]
fn dice_that_run_out_are_reported_clearly() {
    let out = ok(&["chutes", "play", "--players", "2", "--dice", "16"]);
    assert!(
        out.contains("The given dice ran out after 2 rolls and nobody has won: player 1 on 38, player 2 on 6."),
        "{out}"
    );
    let json: Value =
        serde_json::from_str(&ok(&["chutes", "play", "--dice", "16", "--json"])).unwrap();
    assert_eq!(json["ending"], "dice_ran_out");
    assert_eq!(json["winner"], Value::Null);
    let spare = ok(&["chutes", "play", "--dice", "16614366666"]);
    assert!(
        spare.contains("Note: 4 given rolls were not used"),
        "{spare}"
    );
}

#[test]
fn play_json_has_the_whole_game() {
    let json: Value = serde_json::from_str(&ok(&[
        "chutes",
        "play",
        "--seed",
        "3",
        "--players",
        "3",
        "--json",
    ]))
    .unwrap();
    let turns = json["turns"].as_array().unwrap();
    assert_eq!(json["rolls"].as_u64().unwrap() as usize, turns.len());
    let winner = json["winner"].as_u64().unwrap();
    assert!((1..=3).contains(&winner));
    for (i, t) in turns.iter().enumerate() {
        assert_eq!(
            t["player"].as_u64().unwrap() as usize,
            i % 3 + 1,
            "seat order"
        );
        for key in ["roll", "from", "to"] {
            assert!(t[key].is_u64(), "{key} in {t}");
        }
        match &t["jump"] {
            Value::Null => {}
            jump => {
                assert!(jump["from"].is_u64() && jump["to"].is_u64());
                let kind = jump["kind"].as_str().unwrap();
                assert!(kind == "ladder" || kind == "chute");
            }
        }
    }
    assert_eq!(turns.last().unwrap()["player"].as_u64(), Some(winner));
    assert_eq!(turns.last().unwrap()["to"], 100);
    assert_eq!(json["summary"].as_array().unwrap().len(), 3);
}

#[test]
fn overshoot_rules_and_faces_are_selectable() {
    // From 94, a 6 finishes under every rule; 97 + 5 shows the difference.
    let stay = ok(&["chutes", "play", "--dice", "1661435", "--json"]);
    let stay: Value = serde_json::from_str(&stay).unwrap();
    assert_eq!(stay["turns"][6]["to"], 99);
    let run = |rule: &str| -> Value {
        serde_json::from_str(&ok(&[
            "chutes", "play", "--rules", rule, "--dice", "1661436", "--json",
        ]))
        .unwrap()
    };
    assert_eq!(run("bounce")["winner"], 1);
    let finish: Value = serde_json::from_str(&ok(&[
        "chutes", "play", "--rules", "finish", "--dice", "16614366", "--json",
    ]))
    .unwrap();
    assert_eq!(finish["rolls"], 7);
    let bounce: Value = serde_json::from_str(&ok(&[
        "chutes",
        "play",
        "--rules",
        "bounce",
        "--dice",
        "1,6,6,1,4,5,5",
        "--json",
    ]))
    .unwrap();
    // 91 + 5 = 96, 96 + 5 = 101: one past 100, back to 99.
    assert_eq!(bounce["turns"][6]["to"], 99);
    let d4 = ok(&["chutes", "play", "--faces", "4", "--seed", "1", "--json"]);
    let d4: Value = serde_json::from_str(&d4).unwrap();
    assert!(
        d4["turns"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["roll"].as_u64().unwrap() <= 4)
    );
}

#[test]
fn play_reads_board_files() {
    let toml = chutes_data("classic.toml");
    let from_file = ok(&["chutes", "play", "--board", &toml, "--seed", "5"]);
    let builtin = ok(&["chutes", "play", "--seed", "5"]);
    assert_eq!(
        from_file.lines().skip(1).collect::<Vec<_>>(),
        builtin.lines().skip(1).collect::<Vec<_>>()
    );
    let leet = chutes_data("leetcode-example-2.json");
    let out = ok(&["chutes", "play", "--board", &leet, "--dice", "1"]);
    assert!(out.contains("climbs the ladder 2->3"), "{out}");
    let array = chutes_data("seed001.c.txt");
    assert!(
        ok(&[
            "chutes", "play", "--board", &array, "--format", "array", "--seed", "2"
        ])
        .contains("reached 100")
    );
}

#[test]
fn bad_arguments_fail_with_clear_messages() {
    let err = fails(&["chutes", "play", "--dice", "1,9"]);
    assert!(
        err.contains("roll #2 is 9, but a 6-sided die shows 1 to 6"),
        "{err}"
    );
    let err = fails(&["chutes", "play", "--dice", "1,x"]);
    assert!(err.contains("roll #2 is 'x'"), "{err}");
    let err = fails(&["chutes", "play", "--players", "9"]);
    assert!(err.contains("1 to 8 players"), "{err}");
    let err = fails(&["chutes", "play", "--seed", "1", "--dice", "3"]);
    assert!(err.contains("cannot be used with"), "{err}");
    let err = fails(&["chutes", "play", "--rules", "wrap"]);
    assert!(err.contains("unknown overshoot rule 'wrap'"), "{err}");
    // Given rolls are checked against the die before the game starts, even
    // when it ends (here: can never move) before reaching them.
    let err = fails(&["chutes", "play", "--faces", "1", "--dice", "9"]);
    assert!(
        err.contains("--dice: roll #1 is 9, but a 1-sided die shows 1 to 1"),
        "{err}"
    );
    let err = fails(&["chutes", "play", "--faces", "0"]);
    assert!(err.contains("1 to 64 faces"), "{err}");
    let err = fails(&["chutes", "play", "--board", "/no/such/board.toml"]);
    assert!(err.contains("no board file /no/such/board.toml"), "{err}");
    let bad = chutes_data("bad-duplicate.toml");
    let err = fails(&["chutes", "play", "--board", &bad]);
    assert!(
        err.contains("line 3, column 20: square 5 starts two jumps"),
        "{err}"
    );
}

#[test]
fn board_show_prints_text_toml_and_json() {
    let text = ok(&["chutes", "board", "show", "classic"]);
    assert!(text.contains(
        "100 squares (10 × 10, boustrophedon), start off the board, 9 ladders, 10 chutes"
    ));
    assert!(text.contains("Ladders: 1->38 4->14"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("100   99   98v")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("1^   2    3    4^")),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.toml");
    std::fs::write(
        &path,
        ok(&[
            "chutes",
            "board",
            "show",
            &chutes_data("leetcode-example-1.json"),
            "--as",
            "toml",
        ]),
    )
    .unwrap();
    let again = ok(&[
        "chutes",
        "board",
        "show",
        path.to_str().unwrap(),
        "--as",
        "json",
    ]);
    let json: Value = serde_json::from_str(&again).unwrap();
    assert_eq!(json["size"], 36);
    assert_eq!(json["start"], 1);
    assert_eq!(json["jumps"].as_array().unwrap().len(), 3);
}

#[test]
fn tycoon_grid_files_are_boards_of_their_ladders_and_snakes() {
    let sample = format!(
        "{}/../tycoon/tests/data/sample.grid",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = ok(&["chutes", "board", "show", &sample]);
    assert!(
        text.starts_with(
            "sample.grid: 99 squares (9 × 11, row-major), start on square 1, 4 ladders, 4 chutes"
        ),
        "{text}"
    );
    assert!(
        text.contains("Chutes:  34->23 59->37 78->56 85->30"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1\n10 32\n1\n20 10\n0\n").unwrap();
    let bad = bad.to_str().unwrap();
    let err = fails(&["chutes", "board", "check", bad, "--format", "tycoon"]);
    assert!(
        err.contains("is not a valid board: line 4, column 1: ")
            && err.contains("(reading a Tycoon grid file)"),
        "{err}"
    );
    // Detected by content too: the same error without --format.
    assert_eq!(fails(&["chutes", "board", "check", bad]), err);
}

#[test]
fn board_check_reports_every_file() {
    let good = chutes_data("classic.toml");
    let out = ok(&["chutes", "board", "check", &good, "classic"]);
    assert_eq!(out.lines().count(), 2);
    assert!(out.starts_with("ok: "), "{out}");
    let bad_range = chutes_data("bad-range.txt");
    let bad_count = chutes_data("bad-count.json");
    let out = parlor(&["chutes", "board", "check", &good, &bad_range, &bad_count]);
    assert!(!out.status.success());
    assert_eq!(stdout(&out).lines().count(), 1);
    let err = stderr(&out);
    assert!(err.contains("line 2, column 4: square 4 holds 12"), "{err}");
    assert!(
        err.contains("line 2, column 2: row 2 has 2 numbers"),
        "{err}"
    );
    assert!(err.contains("2 of 3 board files are not valid"), "{err}");
}

#[test]
fn completions_and_help_exist() {
    let bash = ok(&["completions", "bash"]);
    assert!(bash.contains("parlor") && bash.contains("chutes"));
    for args in [
        &["--help"][..],
        &["chutes", "play", "--help"],
        &["chutes", "board", "show", "--help"],
        &["chutes", "board", "check", "--help"],
        &["completions", "--help"],
    ] {
        let help = ok(args);
        assert!(help.contains("Example"), "{args:?}: {help}");
    }
}

/// A board whose games practically never end (every third square a chute
/// back to 2) made `play` and `render` grow their log until an allocation
/// failed and the process aborted. Now the game stops at the roll cap with
/// a message and exit status 1, well inside 1 GiB of address space.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_game_stops_at_the_roll_cap_within_a_memory_limit() {
    let board = chutes_data("endless.toml");
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("endless.svg");
    let picture = picture.to_str().unwrap();
    for (args, says) in [
        (
            vec!["chutes", "play", "--board", &board, "--seed", "1"],
            "stopped after 20000 rolls without a winner",
        ),
        (
            vec!["chutes", "play", "--board", &board, "--seed", "1", "--json"],
            "stopped after 20000 rolls without a winner",
        ),
        (
            vec![
                "chutes", "render", "--board", &board, "--seed", "1", "-o", picture,
            ],
            "nothing drawn: the game was stopped after 20000 rolls",
        ),
    ] {
        let out = std::process::Command::new("prlimit")
            .arg("--as=1073741824")
            .arg(env!("CARGO_BIN_EXE_parlor"))
            .args(&args)
            .output()
            .expect("prlimit runs parlor");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("memory allocation"), "{err}");
        if args.contains(&"--json") {
            let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(doc["ending"], "capped");
            assert_eq!(doc["rolls"], 20_000);
        }
    }
    assert!(
        !std::path::Path::new(picture).exists(),
        "no picture is written"
    );
}

#[test]
fn a_replay_explains_the_chances_swings_and_luck() {
    let record = chutes_data("chutes-ada-bo-seed-17.json");
    let out = ok(&["replay", &record, "--explain"]);
    let chances: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Chances: "))
        .collect();
    assert_eq!(chances.len(), 18, "{out}");
    // After move 1 (Ada on 14, Bo to move): the same as `chutes chances`.
    let exact = ok(&["chutes", "chances", "--squares", "14,0", "--to-move", "2"]);
    let ada: f64 = exact
        .lines()
        .find_map(|l| l.strip_prefix("Player 1: "))
        .and_then(|l| l.split('%').next())
        .and_then(|p| p.parse().ok())
        .expect("player 1's chance");
    assert_eq!(
        chances[0],
        format!("Ada {ada:.1}% · Bo {:.1}%", 100.0 - ada),
        "{out}"
    );
    assert_eq!(chances[17], "Ada 0.0% · Bo 100.0%");
    // The biggest swing is Bo's winning ladder; luck is each player's own
    // swings added up: Ada's and Bo's together are the change in Bo's
    // chance from the start less the change Ada's moves made to it.
    let swings = out.split("Biggest swings").nth(1).expect("the swings");
    assert!(
        swings.contains(
            "move 18, Bo: +24.0% (Bo rolls 5 and climbs the ladder from 80 to 100 and wins)"
        ),
        "{out}"
    );
    assert!(
        out.contains("  Ada: -6.5%\n  Bo: +44.2%\nBo wins."),
        "{out}"
    );
}
