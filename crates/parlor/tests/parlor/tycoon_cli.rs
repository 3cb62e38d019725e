//! The real `parlor` binary: `tycoon check|edit|play|simulate|tournament|render`.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::*;
use serde_json::Value;

fn sample() -> String {
    format!(
        "{}/../tycoon/tests/data/sample.grid",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn check_summarises_a_good_grid() {
    let out = ok(&["tycoon", "check", &sample()]);
    assert!(out.starts_with("ok: "), "{out}");
    assert!(out.contains("4 ladders, 4 snakes, 9 cards"), "{out}");
    assert!(out.contains("card  6 on 28: go to cell 97"), "{out}");
    let out = ok(&["tycoon", "check", "sample", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["ok"], true);
    assert_eq!(v[0]["grid"]["ladders"][0]["end"], 32);
    assert_eq!(v[0]["reachable"], true);
    // A legal grid that can never be won gets a warning, not an error.
    let dir = tempfile::tempdir().unwrap();
    let walled = dir.path().join("walled.grid");
    let snakes: String = (93..=98).map(|c| format!("{c} {}\n", c - 88)).collect();
    std::fs::write(&walled, format!("0\n6\n{snakes}0\n")).unwrap();
    let out = ok(&["tycoon", "check", walled.to_str().unwrap()]);
    assert!(
        out.contains("warning: no rolls lead from cell 1 to cell 99"),
        "{out}"
    );
}

#[test]
fn check_lists_every_problem_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.grid");
    std::fs::write(&bad, "2\n10 3x\n1 12\n1\n5 2\n2\n9 4 50 10\n9 6 60 10\n").unwrap();
    let err = fails(&["tycoon", "check", bad.to_str().unwrap()]);
    for says in [
        "4 problems",
        "line 2, column 4: expected a number, found '3x'",
        "line 3: ladder 1→12 lives on cell 1",
        "line 5: snake 5→2 starts in the bottom row",
        "line 8: card 9 on cell 6 (price 60, fee 10) disagrees",
    ] {
        assert!(err.contains(says), "{says}: {err}");
    }
    let out = parlor(&["tycoon", "check", bad.to_str().unwrap(), "--json"]);
    assert!(!out.status.success());
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v[0]["ok"], false);
    assert_eq!(v[0]["problems"].as_array().unwrap().len(), 4);
    assert_eq!(v[0]["problems"][1]["rule"], "not-first-or-last");
    let err = fails(&["tycoon", "check", "no-such.grid"]);
    assert!(err.contains("no grid file no-such.grid"), "{err}");
}

#[test]
fn edit_writes_only_when_every_edit_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine.grid");
    let o = out.to_str().unwrap();
    let printed = ok(&[
        "tycoon",
        "edit",
        "new",
        "-o",
        o,
        "--do",
        "ladder 10 32",
        "--do",
        "snake 34 23",
        "--do",
        "card 9 13 50 10",
        "--do",
        "copy 10",
        "--do",
        "paste 14",
        "--do",
        "card 9 40",
    ]);
    assert!(
        printed.contains("5. paste 14: pasted ladder 14→36"),
        "{printed}"
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "2\n10 32\n14 36\n1\n34 23\n2\n9 13 50 10\n9 40 50 10\n"
    );
    // A refused edit leaves OUT as it was, and says why.
    let before = std::fs::read_to_string(&out).unwrap();
    let err = fails(&[
        "tycoon",
        "edit",
        o,
        "-o",
        o,
        "--do",
        "delete 14",
        "--do",
        "ladder 21 43",
    ]);
    assert!(
        err.contains("edit 2 `ladder 21 43` refused") && err.contains("overlap"),
        "{err}"
    );
    assert!(err.contains("was not written"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    let err = fails(&["tycoon", "edit", o, "-o", o, "--do", "wiggle 3"]);
    assert!(err.contains("unknown edit 'wiggle'"), "{err}");
    // Undo and redo work inside one run.
    ok(&[
        "tycoon",
        "edit",
        o,
        "-o",
        o,
        "--do",
        "delete 14",
        "--do",
        "undo",
        "--do",
        "redo",
    ]);
    assert!(!std::fs::read_to_string(&out).unwrap().contains("14 36"));
}

#[test]
fn edit_with_no_edits_saves_the_sample_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("copy.grid");
    ok(&["tycoon", "edit", &sample(), "-o", out.to_str().unwrap()]);
    let original = std::fs::read_to_string(sample()).unwrap();
    // Byte for byte: the sample's `4 51 ` keeps its trailing space.
    assert_eq!(std::fs::read_to_string(&out).unwrap(), original);
    assert!(original.contains("\n4 51 \n"));
    let o = out.to_str().unwrap();
    ok(&[
        "tycoon",
        "edit",
        "sample",
        "-o",
        o,
        "--do",
        "ladder 20 42",
        "--do",
        "undo",
    ]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), original);
    // After an edit, the unchanged lines keep their text.
    ok(&["tycoon", "edit", "sample", "-o", o, "--do", "delete 10"]);
    let edited = std::fs::read_to_string(&out).unwrap();
    assert!(edited.starts_with("3\n16 71\n"), "{edited}");
    assert!(edited.contains("\n4 51 \n"), "{edited}");
    // The JSON form, and reading it back.
    let json = dir.path().join("copy.json");
    ok(&["tycoon", "edit", "sample", "-o", json.to_str().unwrap()]);
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.trim_start().starts_with('{'));
    let back = ok(&["tycoon", "check", json.to_str().unwrap()]);
    assert!(back.contains("4 ladders, 4 snakes, 9 cards"), "{back}");
}

#[test]
fn play_runs_a_bot_game_to_the_end_and_replays_from_its_seed() {
    let a = ok(&["tycoon", "play", "sample", "--seed", "3", "--json"]);
    let b = ok(&["tycoon", "play", "sample", "--seed", "3", "--json"]);
    assert_eq!(a, b);
    let v: Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["ending"], "won");
    let winner = v["winner"].as_u64().unwrap();
    assert!((1..=4).contains(&winner));
    assert!(v["turns"].as_u64().unwrap() > 10);
    assert_eq!(v["players"][winner as usize - 1]["cell"], 99);
    let text = ok(&[
        "tycoon", "play", "sample", "--seed", "3", "--seats", "random",
    ]);
    assert!(text.contains("wins after"), "{text}");
    assert!(text.contains("P1 (random): cell"), "{text}");
}

#[test]
fn people_answer_on_stdin_and_games_save_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let s = save.to_str().unwrap();
    let out = parlor_with_input(
        &[
            "tycoon",
            "play",
            "sample",
            "--seats",
            "human,bot,bot,bot",
            "--seed",
            "5",
            "--save",
            s,
        ],
        "roll\nnonsense\nroll\nhelp\nbuy\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&out);
    assert!(log.contains("P1 rolls 1; P1 moves 1 -> 2"), "{log}");
    assert!(log.contains("Stopped after 8 turns"), "{log}");
    let err = stderr(&out);
    assert!(
        err.contains("'nonsense' does not answer \"P1: roll\""),
        "{err}"
    );
    assert!(err.contains("legal now: recharge, attack ice 2"), "{err}");
    assert!(err.contains("does not answer"), "{err}");
    // Resume: P1 recharges, then the script ends.
    let out = parlor_with_input(&["tycoon", "play", "--resume", s, "--json"], "recharge\n");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the input ended while waiting for P1"),
        "{}",
        stderr(&out)
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["moves"][0]["move"], "recharge");
    assert_eq!(v["ending"], "input_ended");
}

#[test]
fn a_person_is_asked_the_assignment_s_attack_question_and_answers_y_or_n() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("empty.grid");
    std::fs::write(&grid, "0\n0\n0\n").unwrap();
    let grid = grid.to_str().unwrap();
    let dice = vec!["2"; 60].join(",");
    let play = |answers: &str| {
        parlor_with_input(
            &[
                "tycoon",
                "play",
                grid,
                "--seats",
                "human,bot,bot,bot",
                "--dice",
                &dice,
            ],
            answers,
        )
    };
    // Two moves, then the recharge turn: y, a kind the player cannot pick,
    // ice, a player that is not a target, player 2.
    let out = play("roll\nroll\ny\nfrost\nice\n1\n2\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("P1: Do you wish to launch a special attack instead of recharging? y/n > "),
        "{err}"
    );
    assert!(
        err.contains("P1: which special attack? ice | fire | poison | lightning > "),
        "{err}"
    );
    assert!(err.contains("'frost' does not answer"), "{err}");
    assert!(err.contains("P1: ice which player? 2 | 3 | 4 > "), "{err}");
    assert!(err.contains("'1' does not answer"), "{err}");
    assert!(!err.contains("is not a move"), "{err}");
    let log = stdout(&out);
    assert!(log.contains("P1 attacks P2 with ice"), "{log}");
    // n recharges.
    let out = play("roll\nroll\nn\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&out);
    assert!(log.contains("P1 rolls 2; P1 recharges"), "{log}");
    assert!(!log.contains("P1 attacks"), "{log}");
}

#[test]
fn given_dice_can_run_out() {
    let out = ok(&["tycoon", "play", "sample", "--dice", "6,6,6,6", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ending"], "dice_ran_out");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["turns"], 4);
    let err = fails(&["tycoon", "play", "sample", "--seats", "bot,bot,bot,bot,bot"]);
    assert!(err.contains("give 2 to 4"), "{err}");
}

#[test]
fn simulate_reports_win_rates_lengths_and_cards_independent_of_threads() {
    let one = ok(&[
        "tycoon",
        "simulate",
        "sample",
        "--games",
        "400",
        "--threads",
        "1",
        "--json",
    ]);
    let two = ok(&[
        "tycoon",
        "simulate",
        "sample",
        "--games",
        "400",
        "--threads",
        "2",
        "--json",
    ]);
    let a: Value = serde_json::from_str(&one).unwrap();
    let b: Value = serde_json::from_str(&two).unwrap();
    assert_eq!(a["tally"], b["tally"]);
    let rates: f64 = a["win_rate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .sum();
    assert!((rates - 1.0).abs() < 1e-9);
    assert!(a["mean_turns"].as_f64().unwrap() > 20.0);
    let text = ok(&["tycoon", "simulate", "sample", "--games", "300"]);
    for says in [
        "wins by seat:",
        "game length: mean",
        "card  6:",
        "attacks per game",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
}

#[test]
fn help_has_examples() {
    for cmd in ["check", "edit", "play", "simulate", "tournament"] {
        let out = ok(&["tycoon", cmd, "--help"]);
        assert!(
            out.contains("Examples:") || out.contains("Example:"),
            "{cmd}: {out}"
        );
    }
}

#[test]
fn render_draws_grids_and_games_as_svg_or_png() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("grid.svg");
    let out = ok(&["tycoon", "render", "sample", "-o", svg.to_str().unwrap()]);
    assert!(out.contains("(SVG,"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("class=\"cell\"").count(), 99);
    assert!(text.contains("data-cell=\"99\""));
    let png = dir.path().join("end.png");
    ok(&[
        "tycoon",
        "render",
        "sample",
        "--seed",
        "7",
        "-o",
        png.to_str().unwrap(),
        "--size",
        "300",
    ]);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    // A saved game is drawn with its tokens.
    let save = dir.path().join("game.json");
    ok(&[
        "tycoon",
        "play",
        "sample",
        "--dice",
        "3,4",
        "--save",
        save.to_str().unwrap(),
    ]);
    let game_svg = dir.path().join("game.svg");
    ok(&[
        "tycoon",
        "render",
        "--game",
        save.to_str().unwrap(),
        "-o",
        game_svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&game_svg).unwrap();
    assert_eq!(text.matches("class=\"token\"").count(), 4);
    assert!(
        text.contains("data-player=\"1\" data-cell=\"4\""),
        "P1 moved 1 -> 4"
    );
    let err = fails(&[
        "tycoon",
        "render",
        "sample",
        "-o",
        dir.path().join("x.gif").to_str().unwrap(),
    ]);
    assert!(err.contains("gif") || err.contains("extension"), "{err}");
}

#[test]
fn seats_take_bot_levels_and_the_old_names() {
    // A short game, before anyone's recharge turn (the search's time cap
    // is a safety net that a slow debug build would reach, and the search
    // is tested in the library): the levels and their old names in the
    // seats, replayed alike.
    let args = [
        "tycoon",
        "play",
        "sample",
        "--seed",
        "4",
        "--seats",
        "hard,normal,easy,bot",
        "--turn-cap",
        "8",
        "--json",
    ];
    let a = ok(&args);
    assert_eq!(a, ok(&args));
    let v: Value = serde_json::from_str(&a).unwrap();
    assert_eq!(
        v["seats"],
        serde_json::json!(["hard", "bot", "random", "bot"])
    );
    assert_eq!(v["players"][0]["kind"], "hard");
    let text = ok(&[
        "tycoon",
        "simulate",
        "sample",
        "--games",
        "2",
        "--turn-cap",
        "30",
        "--seats",
        "hard,random,easy,normal",
    ]);
    assert!(text.contains("seats hard, random, random, bot"), "{text}");
    for cmd in ["play", "simulate"] {
        let err = fails(&["tycoon", cmd, "sample", "--seats", "expert"]);
        assert!(
            err.contains("unknown seat 'expert' (expected human, easy, normal or hard"),
            "{cmd}: {err}"
        );
        let help = ok(&["tycoon", cmd, "--help"]);
        assert!(help.contains("hard (the search bot)"), "{cmd}: {help}");
    }
}

#[test]
fn tournament_reports_win_rates_with_intervals_and_json() {
    let args = [
        "tycoon",
        "tournament",
        "--matchups",
        "normal:easy",
        "--games",
        "30",
        "--seed",
        "2",
    ];
    let text = ok(&args);
    assert!(text.contains("30 games per seat"), "{text}");
    assert!(
        text.contains("normal vs 3 easy   on sample grids:"),
        "{text}"
    );
    assert!(
        text.contains("normal vs 3 easy   on random grids:"),
        "{text}"
    );
    assert!(text.contains("of 120 games"), "{text}");
    let mut with_json = args.to_vec();
    with_json.extend(["--json", "--threads", "1"]);
    let one = json(&with_json);
    with_json.pop();
    with_json.pop();
    with_json.extend(["--threads", "2"]);
    // The report does not depend on the threads, and reads back as the
    // library's report type.
    assert_eq!(one, json(&with_json));
    let report: tycoon::tournament::Report = serde_json::from_value(one.clone()).unwrap();
    let again: tycoon::tournament::Report =
        serde_json::from_value(serde_json::to_value(&report).unwrap()).unwrap();
    assert_eq!(again, report);
    assert_eq!(report.outcomes.len(), 2);
    let o = &one["outcomes"][0];
    assert_eq!(o["one"], "normal");
    assert_eq!(o["rest"], "easy");
    assert_eq!(o["grids"], "sample");
    let (wins, games) = (
        o["overall"]["wins"].as_u64().unwrap(),
        o["overall"]["games"].as_u64().unwrap(),
    );
    assert_eq!(games, 120);
    let seat_wins: u64 = (0..4)
        .map(|i| o["seats"][i]["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(seat_wins, wins);
    let (low, high) = (
        o["overall"]["low"].as_f64().unwrap(),
        o["overall"]["high"].as_f64().unwrap(),
    );
    let rate = wins as f64 / games as f64;
    assert!(low < rate && rate < high, "{o}");
    for (bad, says) in [
        (vec!["--matchups", "hard:hard"], "both levels are hard"),
        (vec!["--matchups", "hard"], "no ':'"),
        (vec!["--grids", "moon"], "unknown grid set 'moon'"),
        (vec!["--games", "0"], "at least 1"),
    ] {
        let mut a = vec!["tycoon", "tournament"];
        a.extend(bad);
        let err = fails(&a);
        assert!(err.contains(says), "{says}: {err}");
    }
}

#[test]
fn check_balance_reports_each_seat_and_what_decides_games() {
    let out = parlor(&[
        "tycoon",
        "check",
        "sample",
        "--balance",
        "--games",
        "400",
        "--seed",
        "3",
        "--margin",
        "0.2",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    for seat in 1..=4 {
        assert!(text.contains(&format!("  P{seat}: wins ")), "{text}");
    }
    assert!(
        text.contains("Balanced: the seats' win rates differ by"),
        "{text}"
    );
    assert!(text.contains("What decides games"), "{text}");
    // The sample grid's card 6 sends a player to cell 97: it decides most.
    assert!(text.contains("  card 6 on cell 28 "), "{text}");
    // 100 games cannot tell a 5-point margin: each seat's interval is
    // about ±8 points. The verdict says so, with the games needed, on
    // every seed (the spread alone would have said UNBALANCED), and exits
    // 0: only a grid shown unbalanced fails the command.
    for seed in ["1", "2", "3", "4", "5"] {
        let out = parlor(&[
            "tycoon",
            "check",
            "sample",
            "--balance",
            "--games",
            "100",
            "--seed",
            seed,
        ]);
        let text = stdout(&out);
        assert!(out.status.success(), "not shown unbalanced: {text}");
        assert!(text.contains("Not enough games to tell:"), "{text}");
        assert!(text.contains("more would tell"), "{text}");
        assert!(!text.contains("UNBALANCED"), "{text}");
        assert!(
            text.contains("seats normal, normal, normal, normal"),
            "{text}"
        );
    }
    // A margin of 0 with enough games flags the grid and fails the command.
    let out = parlor(&[
        "tycoon",
        "check",
        "sample",
        "--balance",
        "--games",
        "20000",
        "--margin",
        "0",
        "--json",
    ]);
    assert!(!out.status.success());
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let r = &reports[0];
    assert_eq!(r["unbalanced"], true, "{r}");
    assert_eq!(r["verdict"]["verdict"], "unbalanced");
    // The verdict is the intervals': the spread less both extreme seats'
    // half-widths (Agresti–Coull, computed here) is past the margin.
    let p: Vec<f64> = (0..4)
        .map(|i| r["win_rate"][i].as_f64().expect("rate"))
        .collect();
    let hi = p.iter().copied().fold(0.0, f64::max);
    let lo = p.iter().copied().fold(1.0, f64::min);
    let half = |x: f64| {
        let q = (x * 20000.0 + 2.0) / 20004.0;
        1.96 * (q * (1.0 - q) / 20004.0).sqrt()
    };
    assert!(hi - lo - half(hi) - half(lo) > 0.0, "{p:?}");
    assert_eq!(r["games"], 20000);
    let rates: f64 = (0..4)
        .map(|i| r["win_rate"][i].as_f64().expect("rate"))
        .sum();
    let stalled = r["stalled"].as_f64().expect("stalled") / 20000.0;
    assert!((rates + stalled - 1.0).abs() < 1e-9);
    assert!(
        stderr(&out).contains("1 of 1 grid is unbalanced"),
        "{}",
        stderr(&out)
    );
    assert!(r["deciders"][0]["lift"].is_number());
}

#[test]
fn a_tournament_under_a_pipe_prints_only_its_result_and_stops_on_ctrl_c_with_the_games_so_far() {
    let out = parlor(&[
        "tycoon",
        "tournament",
        "--games",
        "2",
        "--grids",
        "sample",
        "--matchups",
        "normal:easy",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "silent on stderr under a pipe: {}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("The lone bot's win rate"),
        "{}",
        stdout(&out)
    );

    // Far more games than can be played before the signal.
    let out = interrupted(
        &[
            "tycoon",
            "tournament",
            "--games",
            "1000000",
            "--grids",
            "sample",
            "--matchups",
            "normal:easy",
        ],
        std::time::Duration::from_millis(1500),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains("Stopped (Ctrl-C) after"), "{text}");
    assert!(
        text.contains("of 4000000 games: the rates below are of the games played."),
        "{text}"
    );
    assert!(text.contains("normal vs 3 easy"), "{text}");
}

/// `tycoon simulate` under a pipe prints only the report (the timing line
/// on stderr aside), and Ctrl-C stops it with the games played so far.
#[test]
fn a_simulation_stops_on_ctrl_c_with_the_games_so_far() {
    let out = interrupted(
        &["tycoon", "simulate", "sample", "--games", "100000000"],
        std::time::Duration::from_millis(1500),
    );
    let (text, said) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{text}{said}");
    assert!(
        said.starts_with("Stopped (Ctrl-C) after ") && said.contains(" of 100000000 games"),
        "{said}"
    );
    assert!(
        !said.contains('\u{1b}'),
        "no progress bar under a pipe: {said:?}"
    );
    assert!(
        text.starts_with("Stopped (Ctrl-C): the rates below are of the games played."),
        "{text}"
    );
    assert!(text.contains("wins by seat:"), "{text}");
}

#[test]
fn play_takes_two_or_three_players_and_keeps_four_by_default() {
    let play = |extra: &[&str]| -> Value {
        let mut args = vec!["tycoon", "play", "sample", "--seed", "9", "--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&ok(&args)).unwrap()
    };
    assert_eq!(play(&[])["players"].as_array().unwrap().len(), 4);
    let two = play(&["--players", "2"]);
    assert_eq!(two["seats"], serde_json::json!(["bot", "bot"]));
    assert_eq!(two["players"].as_array().unwrap().len(), 2);
    assert!(
        two["winner"].as_u64().is_some_and(|w| (1..=2).contains(&w)),
        "{two}"
    );
    let three = play(&["--seats", "random,bot,random"]);
    assert_eq!(three["players"].as_array().unwrap().len(), 3);
    let err = fails(&["tycoon", "play", "sample", "--players", "5"]);
    assert!(err.contains("2 to 4 players"), "{err}");
    let err = fails(&[
        "tycoon",
        "play",
        "sample",
        "--players",
        "3",
        "--seats",
        "bot,bot",
    ]);
    assert!(err.contains("--players is 3"), "{err}");
}

#[test]
fn a_replay_explains_the_estimated_chances_swings_and_luck() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let s = save.to_str().unwrap();
    ok(&[
        "tycoon", "play", "sample", "--seed", "7", "--seats", "bot,bot", "--save", s,
    ]);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let moves = saved["moves"].as_array().unwrap().len();
    let out = ok(&["replay", s, "--explain"]);
    assert!(
        out.contains("(Estimates: from each position the default bot plays every seat to the end, 1000 times; in brackets, the 95% interval.)"),
        "{out}"
    );
    let chances: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Chances: "))
        .collect();
    assert_eq!(chances.len(), moves, "{out}");
    // While the game is on, each figure is an estimate with its interval:
    // "Normal bot 1 about 48.1% (45.0–51.2%) · Normal bot 2 about …".
    for line in &chances[..moves - 1] {
        let parts: Vec<&str> = line.split(" · ").collect();
        assert_eq!(parts.len(), 2, "{line}");
        for part in parts {
            let (_, figures) = part.split_once(" about ").expect("an estimate");
            let (p, band) = figures.split_once("% (").expect("an interval");
            let (low, high) = band
                .trim_end_matches("%)")
                .split_once('–')
                .expect("low–high");
            let [p, low, high] = [p, low, high].map(|x| x.parse::<f64>().expect("a number"));
            assert!(low <= p && p <= high, "{line}");
        }
    }
    // The end is certain.
    let last = chances[moves - 1];
    assert!(
        last == "Normal bot 1 100.0% · Normal bot 2 0.0%"
            || last == "Normal bot 1 0.0% · Normal bot 2 100.0%",
        "{last}"
    );
    let swings = out.split("Biggest swings").nth(1).expect("the swings");
    assert_eq!(
        swings.lines().filter(|l| l.starts_with("  move ")).count(),
        3,
        "{out}"
    );
    assert!(out.contains("Luck (the sum of each player's own swings; 0 on average):"));
    // The same record explains the same way every time.
    assert_eq!(ok(&["replay", s, "--explain"]), out);
}
