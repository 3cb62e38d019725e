//! The real `parlor` binary: `baffle play`, `trace`, `solve`, `render`.

use crate::common;

use common::*;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("JSON output")
}

const FIXED_LAYOUT: &str = "\
.........\\
..........
..........
..........
../.......
..........
\\.........
..........
../....\\..
..........
";

/// The original assignment's printed box, byte for byte.
const ORIGINAL_BOX: &str = r"10 11 12 13 14 15 16 17 18 19
9 . . . . . . . . . \ 20
8 . . . . . . . . . . 21
7 . . . . . . . . . . 22
6 . . . . . . . . . . 23
5 . . / . . . . . . . 24
4 . . . . . . . . . . 25
3 \ . . . . . . . . . 26
2 . . . . . . . . . . 27
1 . . / . . . . \ . . 28
0 . . . . . . . . . . 29
39 38 37 36 35 34 33 32 31 30
";

#[test]
fn trace_gives_the_original_assignments_checks() {
    let v = json(&["baffle", "trace", "7", "5", "1", "--json"]);
    let rows: Vec<(u64, u64, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["hole"].as_u64().unwrap(),
                r["exit"].as_u64().unwrap(),
                r["deflections"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, [(7, 22, 0), (5, 12, 1), (1, 24, 2)]);
    let text = ok(&["baffle", "trace", "--fixed", "1"]);
    assert!(text.contains(ORIGINAL_BOX), "{text}");
    assert!(
        text.contains("   1    24            2  <8,2>/ <4,2>/"),
        "{text}"
    );
}

#[test]
fn trace_every_hole_and_layout_files() {
    let all = json(&["baffle", "trace", "--json"]);
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 40);
    // Beams pair the holes.
    for r in all {
        let (h, e) = (r["hole"].as_u64().unwrap(), r["exit"].as_u64().unwrap());
        assert_ne!(h, e);
        assert_eq!(all[e as usize]["exit"].as_u64(), Some(h));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fixed.txt");
    std::fs::write(&file, FIXED_LAYOUT).unwrap();
    let from_file = json(&[
        "baffle",
        "trace",
        "--layout",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(&from_file, &Value::Array(all.clone()));
    // A box with no mirror traces too.
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "....\n....\n....\n....\n").unwrap();
    let v = json(&[
        "baffle",
        "trace",
        "--layout",
        empty.to_str().unwrap(),
        "0",
        "--json",
    ]);
    assert_eq!(v[0]["exit"], 11);
}

#[test]
fn malformed_layout_files_say_where() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "....\n..x.\n....\n....\n").unwrap();
    let e = fails(&["baffle", "trace", "--layout", bad.to_str().unwrap()]);
    assert!(
        e.contains("bad.txt is not a valid layout: line 2, column 3: 'x'"),
        "{e}"
    );
    std::fs::write(&bad, "....\n...\n....\n....\n").unwrap();
    let e = fails(&["baffle", "trace", "--layout", bad.to_str().unwrap()]);
    assert!(e.contains("line 2: 3 cells"), "{e}");
    std::fs::write(&bad, "....\n....\n....\n").unwrap();
    let e = fails(&["baffle", "trace", "--layout", bad.to_str().unwrap()]);
    assert!(e.contains("square"), "{e}");
    let e = fails(&["baffle", "trace", "--layout", "/no/such/file.txt"]);
    assert!(e.contains("no layout file /no/such/file.txt"), "{e}");
    let e = fails(&["baffle", "trace", "40"]);
    assert!(e.contains("no hole 40"), "{e}");
    let e = fails(&["baffle", "trace", "--fixed", "--size", "12"]);
    assert!(e.contains("fixed game is 10×10"), "{e}");
    let e = fails(&["baffle", "trace", "--seed", "1", "--size", "30"]);
    assert!(e.contains("4 to 26"), "{e}");
    let e = fails(&["baffle", "trace", "--seed", "1", "--mirrors", "51"]);
    assert!(e.contains("1 to 50 mirrors"), "{e}");
}

#[test]
fn play_reads_a_script_and_wins_the_fixed_game() {
    let script = "shoot 7\n5\nguess 4 2 /\nguess 4 2 /\nguess 3 3 \\\nguess 0 9 \\\nguess 6 0 \\\nguess 8 2 /\nguess <8,7>=\\\nshoot 1\n";
    let out = parlor_with_input(&["baffle", "play"], script);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.starts_with(
            "Baffle: 10×10 box, 5 mirrors hidden (the original assignment's fixed first game)."
        ),
        "{text}"
    );
    for want in [
        "> shoot 7\nThe beam into 7 comes out at 22. Score 1.",
        "> 5\nThe beam into 5 comes out at 12. Score 2.",
        "Right: <4,2> holds /. Score 2.",
        "Refused: the mirror at <4,2> (/) is already found.",
        "Wrong: <3,3> does not hold \\ (+2). Score 4.",
        "Every mirror found. Final score 4 (2 shots, 1 wrong guess).",
        "Won: every mirror found.",
        "> shoot 1\nRefused: the game is over (won); start a new one.",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    // After the win the box shows every mirror as the seed prints it.
    assert!(text.contains(ORIGINAL_BOX), "{text}");
}

#[test]
fn play_quits_with_a_reveal_and_starts_new_games() {
    let out = parlor_with_input(
        &[
            "baffle",
            "play",
            "--seed",
            "5",
            "--size",
            "6",
            "--mirrors",
            "3",
        ],
        "shoot 2\nquit\nnew\nshow\nexit\nshoot 1\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("6×6 box, 3 mirrors hidden (random, seed 5)"),
        "{text}"
    );
    assert!(text.contains("Game given up with score 1"), "{text}");
    assert!(text.contains("Given up. Not found:"), "{text}");
    // `new` follows the seed, so a session replays.
    assert!(text.contains("(random, seed 6)"), "{text}");
    // `exit` stops reading: the last line is never played.
    assert!(!text.contains("> shoot 1"), "{text}");
    let again = parlor_with_input(
        &[
            "baffle",
            "play",
            "--seed",
            "5",
            "--size",
            "6",
            "--mirrors",
            "3",
        ],
        "shoot 2\nquit\nnew\nshow\nexit\nshoot 1\n",
    );
    assert_eq!(stdout(&again), text);
}

#[test]
fn play_explains_bad_commands_and_refusals() {
    let out = parlor_with_input(
        &["baffle", "play", "--sides", "left-top"],
        "jump 3\nshoot 24\nguess 10 1 /\nshoot\nhint\nhelp\n",
    );
    let text = stdout(&out);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("2 lines of the script were not understood"),
        "{}",
        stderr(&out)
    );
    for want in [
        "I don't understand 'jump 3': unknown word. Type help for the commands.",
        "Refused: hole 24 is on the right side; in this game beams enter only from the left and top (holes 0 to 19).",
        "Refused: there is no cell <10,1>: rows and columns run from 0 to 9.",
        "layouts of 5 mirrors fit what you know.",
        "Shoot hole ",
        "Score: +1 a shot, +2 a wrong guess",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    assert!(
        text.contains("I don't understand 'shoot': say which hole"),
        "{text}"
    );
}

#[test]
fn play_saves_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let s = save.to_str().unwrap();
    let out = parlor_with_input(&["baffle", "play", "--save", s], "shoot 7\nguess 4 2 /\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(saved["moves"].as_array().unwrap().len(), 2);
    let out = parlor_with_input(&["baffle", "play", "--resume", s], "show\n");
    let text = stdout(&out);
    assert!(text.contains("Shots: 7->22"), "{text}");
    assert!(text.contains("Found 1 of 5 mirrors. Score 1"), "{text}");
    std::fs::write(&save, "{\"setup\": 3}").unwrap();
    let out = parlor_with_input(&["baffle", "play", "--resume", s], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is not a saved Baffle game"),
        "{}",
        stderr(&out)
    );
}

/// `render --game` draws the game `play --save` wrote (a match's record):
/// the same shots and found mirror as the game had.
#[test]
fn render_draws_a_game_saved_by_play() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let s = save.to_str().unwrap();
    let out = parlor_with_input(&["baffle", "play", "--save", s], "shoot 7\nguess 4 2 /\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = dir.path().join("game.svg");
    let out = parlor(&["baffle", "render", "--game", s, "-o", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .count()
    };
    assert_eq!(class("mirror found"), 1, "the mirror found at 4,2");
    let numbers = doc
        .descendants()
        .filter(|n| n.attribute("data-hole").is_some())
        .count();
    assert_eq!(numbers, 40 + 2, "40 holes and shot 7's two numbers");
}

#[test]
fn solve_counts_and_advises() {
    let v = json(&["baffle", "solve", "--shots", "7:22 5:12 1:24", "--json"]);
    assert_eq!(v["layouts"], "533685");
    assert!(v["certain_mirrors"].as_array().unwrap().is_empty());
    assert_eq!(v["certain_empty"].as_array().unwrap().len(), 10);
    assert_eq!(v["method"]["kind"], "exact");
    assert_eq!(v["advice"]["kind"], "exact_best_shot");
    let best = &v["best_next_shot"];
    assert!(best["hole"].as_u64().is_some(), "{v}");
    assert!(best["expected_layouts"].as_f64().unwrap() < 533_685.0);
    assert!(best["expected_share"].as_f64().unwrap() < 1.0);
    // Every shot of the fixed game: one layout, the original assignment's.
    let all: Vec<String> = json(&["baffle", "trace", "--json"])
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}:{}", r["hole"], r["exit"]))
        .collect();
    let v = json(&["baffle", "solve", "--shots", &all.join(" "), "--json"]);
    assert_eq!(v["layouts"], "1");
    let mirrors: Vec<String> = v["certain_mirrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "<{},{}>={}",
                m["row"],
                m["col"],
                m["mirror"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        mirrors,
        ["<0,9>=\\", "<4,2>=/", "<6,0>=\\", "<8,2>=/", "<8,7>=\\"]
    );
    assert_eq!(v["best_next_shot"], Value::Null);
    let text = ok(&["baffle", "solve", "--shots", "7:22 5:12 1:24"]);
    assert!(text.contains("Consistent layouts: 533685"), "{text}");
    assert!(text.contains("7 . . . . . . . . . . 22"), "{text}");
    assert!(text.contains("(exact)"), "{text}");
}

#[test]
fn solve_uses_guesses_and_says_when_it_samples() {
    let v = json(&[
        "baffle", "solve", "--shots", "5:12", "--found", "4,2,/", "--wrong", "<0,0>=\\", "--json",
    ]);
    let few = v["layouts"].as_str().unwrap().parse::<u64>().unwrap();
    let v2 = json(&["baffle", "solve", "--shots", "5:12", "--json"]);
    let many = v2["layouts"].as_str().unwrap().parse::<u64>().unwrap();
    assert!(few < many);
    assert_eq!(v2["method"]["kind"], "sampled");
    let text = ok(&["baffle", "solve", "--shots", "5:12"]);
    assert!(
        text.contains("estimated from 4000 sampled layouts"),
        "{text}"
    );
}

#[test]
fn solve_contradictions_and_errors() {
    let v = json(&["baffle", "solve", "--shots", "7:22 7:23", "--json"]);
    assert_eq!(v["layouts"], "0");
    assert_eq!(v["best_next_shot"], Value::Null);
    let text = ok(&["baffle", "solve", "--shots", "7:7"]);
    assert!(
        text.contains("No layout fits these shots and guesses"),
        "{text}"
    );
    let e = fails(&["baffle", "solve", "--shots", "7-22"]);
    assert!(e.contains("'7-22' is not a shot: write ENTRY:EXIT"), "{e}");
    let e = fails(&["baffle", "solve", "--shots", "7:44"]);
    assert!(e.contains("no hole 44"), "{e}");
    let e = fails(&["baffle", "solve", "--shots", "30:9", "--sides", "left-top"]);
    assert!(e.contains("hole 30 is on the bottom side"), "{e}");
    let e = fails(&["baffle", "solve", "--found", "4,2"]);
    assert!(e.contains("--found 4,2: write ROW,COL,MIRROR"), "{e}");
    let e = fails(&["baffle", "solve", "--size", "3"]);
    assert!(e.contains("4 to 26"), "{e}");
    let e = fails(&["baffle", "solve", "--sides", "bottom"]);
    assert!(e.contains("all or left-top"), "{e}");
}

#[test]
fn every_command_has_examples() {
    for cmd in ["play", "trace", "solve", "render"] {
        let help = ok(&["baffle", cmd, "--help"]);
        assert!(help.contains("Examples:"), "{cmd}: {help}");
    }
}

#[test]
fn render_draws_the_view_with_data_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("box.svg");
    let s = svg.to_str().unwrap();
    let out = parlor(&[
        "baffle", "render", "--shots", "7 5 1", "--guess", "4,2,/", "-o", s,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let with = |attr: &str| {
        doc.descendants()
            .filter(|n| n.attribute(attr).is_some())
            .count()
    };
    assert_eq!(with("data-hole"), 40 + 6, "40 holes and 6 shot numbers");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("cell"))
            .count(),
        100
    );
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .count()
    };
    assert_eq!(class("mirror found"), 1);
    assert_eq!(
        class("mirror unfound"),
        0,
        "no hidden mirror before the end"
    );
    assert_eq!(class("beam"), 0, "no beam path before the end");
    // Revealed: every mirror and every beam.
    let png = dir.path().join("box.png");
    let p = png.to_str().unwrap();
    let out = parlor(&[
        "baffle", "render", "--shots", "7 5 1", "--guess", "4,2,/", "--reveal", "-o", p, "--px",
        "300",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!(reader.info().width.max(reader.info().height), 300);
    let out = parlor(&["baffle", "render", "--shots", "7 5 1", "--reveal", "-o", s]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("class=\"mirror unfound\"").count(), 5);
    assert_eq!(text.matches("class=\"beam\"").count(), 3);
}

#[test]
fn render_refuses_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.svg");
    let o = out.to_str().unwrap();
    let e = fails(&[
        "baffle", "render", "--shots", "24", "--sides", "left-top", "-o", o,
    ]);
    assert!(e.contains("cannot shoot into 24"), "{e}");
    assert!(e.contains("only from the left and top"), "{e}");
    let e = fails(&["baffle", "render", "--shots", "x", "-o", o]);
    assert!(e.contains("'x' is not a hole number"), "{e}");
    let e = fails(&[
        "baffle",
        "render",
        "-o",
        dir.path().join("x.gif").to_str().unwrap(),
    ]);
    assert!(e.contains("gif") || e.contains("extension"), "{e}");
    assert!(!out.exists());
}

/// The exact strategy on a box of minutes' work stops on Ctrl-C with the
/// best first move weighed so far, as a bound; under a pipe it draws no
/// bar.
#[test]
fn optimal_play_stops_on_ctrl_c_with_a_bound() {
    let out = common::interrupted(
        &["baffle", "optimal", "--size", "5", "--mirrors", "3"],
        std::time::Duration::from_millis(1500),
    );
    let (text, said) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{text}{said}");
    assert!(said.is_empty(), "no progress bar under a pipe: {said:?}");
    assert!(
        text.starts_with("Baffle 5×5, 3 mirrors, beams from all four sides: 18400 layouts"),
        "{text}"
    );
    assert!(text.contains("Stopped (Ctrl-C) after "), "{text}");
    assert!(
        text.contains("the optimum is at most") || text.contains("no first move was weighed"),
        "{text}"
    );
    assert!(!text.contains("The bot's expected score"), "{text}");
}

/// A solve of a large box stops on Ctrl-C with no answer (a search cut
/// short proves nothing), saying so; under a pipe it draws no spinner.
#[test]
fn a_long_solve_stops_on_ctrl_c_and_says_it_has_no_answer() {
    // 30 of the 104 shots of a 26 × 26 box with 169 mirrors (seed 11):
    // about two seconds of work in a test build.
    let shots = "17:28 72:31 97:60 8:11 32:24 15:22 63:69 57:93 60:97 83:65 48:52 26:30 12:96 62:85 3:98 49:47 55:6 77:75 0:1 96:12 34:14 29:100 75:77 13:20 40:41 89:90 2:4 78:82 69:63 1:0";
    let out = common::interrupted(
        &[
            "baffle",
            "solve",
            "--size",
            "26",
            "--mirrors",
            "169",
            "--shots",
            shots,
        ],
        std::time::Duration::from_millis(500),
    );
    let (text, said) = (stdout(&out), stderr(&out));
    assert!(
        !said.contains("solving"),
        "no spinner under a pipe: {said:?}"
    );
    if out.status.success() {
        // A machine fast enough to answer first.
        assert!(text.contains("Advice:"), "{text}");
    } else {
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains("stopped (Ctrl-C) before the solver had an answer"),
            "{said}"
        );
        assert!(text.is_empty(), "{text}");
    }
}

#[test]
fn solve_says_what_contradicts_what() {
    let out = ok(&[
        "baffle",
        "solve",
        "--sides",
        "left-top",
        "--shots",
        "7:22 7:23",
    ]);
    assert!(
        out.contains("No layout fits these shots and guesses"),
        "{out}"
    );
    assert!(
        out.contains("Why: shots 7:22 and 7:23 cannot both hold"),
        "{out}"
    );
}

/// Too many cases to count: the chances are estimated and calibrated, each
/// cell with its `proven` flag beside them (JSON), and the text names the
/// likeliest mirrors not proven with their chances.
#[test]
fn solve_states_calibrated_estimates_beside_proven_flags() {
    let args = [
        "baffle",
        "solve",
        "--size",
        "10",
        "--mirrors",
        "20",
        "--shots",
        "0:29 1:28 10:39",
    ];
    let v = json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["method"]["kind"], "estimated", "{}", v["method"]);
    assert_eq!(v["method"]["calibrated"], true);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 100);
    for c in cells {
        let sum: f64 = ["empty", "slash", "backslash"]
            .iter()
            .map(|k| c[k].as_f64().unwrap())
            .sum();
        assert!((sum - 1.0).abs() < 1e-9, "{c}");
        assert!(c["proven"].is_boolean(), "{c}");
    }
    let text = ok(&args);
    assert!(
        text.contains("chances calibrated against measured outcomes"),
        "{text}"
    );
    assert!(
        text.contains(
            "Likeliest mirrors not proven (estimated chances, calibrated against measured outcomes): <"
        ),
        "{text}"
    );
}

/// `replay --explain` of a Baffle record: each shot's layouts left, the
/// same count as `baffle solve` of the shots so far, beside the best shot's
/// average (the solver's `best_next_shot` before it).
#[test]
fn a_replay_explains_the_layouts_left_after_each_shot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("game.json");
    let s = save.to_str().expect("utf-8 path");
    let out = parlor_with_input(
        &["baffle", "play", "--save", s],
        "shoot 7\nguess 4 2 /\nshoot 5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = ok(&["replay", s, "--explain"]);
    let before = json(&["baffle", "solve", "--json"]);
    let after_one = json(&["baffle", "solve", "--shots", "7:22", "--json"]);
    let after_two = json(&[
        "baffle",
        "solve",
        "--shots",
        "7:22 5:12",
        "--found",
        "4,2,/",
        "--json",
    ]);
    let best = |v: &Value| {
        (
            v["best_next_shot"]["hole"].as_u64().expect("a best shot"),
            v["best_next_shot"]["expected_layouts"]
                .as_f64()
                .expect("counted"),
        )
    };
    let group = |digits: &str| {
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let grouped = |v: &Value| group(v["layouts"].as_str().expect("a count"));
    // An average under a billion, to the nearest layout.
    let grouped_f = |x: f64| group(&format!("{x:.0}"));
    // 1,406,446,416 layouts, said "about 1.4 billion".
    assert_eq!(after_one["layouts"], "1406446416");
    let (hole, average) = best(&before);
    let first = format!(
        "Shot 1, 7 → 22: about 1.4 billion layouts still fit (the best shot then, into {hole}, would have left {} on average).",
        grouped_f(average)
    );
    assert!(text.contains(&first), "{first}\n{text}");
    // The second shot's position has the mirror found in between.
    let mid = json(&[
        "baffle", "solve", "--shots", "7:22", "--found", "4,2,/", "--json",
    ]);
    let (hole, average) = best(&mid);
    let second = format!(
        "Shot 2, 5 → 12: {} layouts still fit (the best shot then, into {hole}, would have left {} on average).",
        grouped(&after_two),
        grouped_f(average)
    );
    assert!(text.contains(&second), "{second}\n{text}");
}
