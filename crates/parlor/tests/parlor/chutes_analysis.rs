//! The real `parlor` binary: `chutes search|shortest|analyze|simulate|min-throws`.

use crate::common;

use common::*;
use serde_json::Value;

fn ok(args: &[&str]) -> String {
    let out = parlor(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    assert!(
        stderr(&out).is_empty(),
        "no progress bar without a terminal: {}",
        stderr(&out)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The classic board's exact mean (see docs/analysis.md).
const CLASSIC_MEAN: &str = "225837582538403273407117496273279920181931269186581786048583/5757472998140039232950575874628786131130999406013041613400";

#[test]
fn shortest_classic_is_7_rolls() {
    let text = ok(&["chutes", "shortest"]);
    assert!(text.contains("7 rolls"), "{text}");
    assert!(text.contains("423"), "{text}");
    let doc = json(&["chutes", "shortest", "--json"]);
    assert_eq!(doc["rolls"], 7);
    assert_eq!(doc["sequences"], "423");
    assert_eq!(doc["routes"], "7");
    assert_eq!(doc["example"].as_array().unwrap().len(), 7);
    assert_eq!(doc["example_steps"][6]["to"], 100);
    assert_eq!(
        doc["route_list"],
        Value::Array(Vec::new()),
        "no list unless asked"
    );
}

#[test]
fn shortest_with_two_chutes_and_lists() {
    let doc = json(&[
        "chutes", "shortest", "--chutes", "2", "--json", "--list", "--limit", "3",
    ]);
    assert_eq!(doc["rolls"], 7);
    assert_eq!(doc["sequences"], "8");
    assert_eq!(doc["routes"], "1");
    assert_eq!(doc["route_list"].as_array().unwrap().len(), 1);
    assert_eq!(doc["sequence_list"].as_array().unwrap().len(), 3);
    let chutes = doc["example_steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["jump"]["kind"] == "chute")
        .count();
    assert_eq!(chutes, 2);
    let text = ok(&["chutes", "shortest", "--list"]);
    assert!(
        text.contains("Routes:") && text.contains("ladder 80->100"),
        "{text}"
    );
}

#[test]
fn shortest_says_when_no_game_qualifies() {
    let board = chutes_data("analysis-ladders-only.toml");
    let text = ok(&["chutes", "shortest", "--board", &board, "--chutes", "1"]);
    assert!(text.contains("there is no shortest game"), "{text}");
    let doc = json(&[
        "chutes", "shortest", "--board", &board, "--chutes", "1", "--json",
    ]);
    assert_eq!(doc["rolls"], Value::Null);
    assert_eq!(doc["sequences"], "0");
}

#[test]
fn counts_of_any_size_are_exact_strings() {
    let board = chutes_data("analysis-wide.toml");
    let doc = json(&[
        "chutes", "shortest", "--board", &board, "--faces", "64", "--json",
    ]);
    assert_eq!(doc["rolls"], 20);
    // C(82, 19): the ways to spread the 63 missing pips over 20 rolls.
    assert_eq!(doc["sequences"], "1971038235969316800");
}

#[test]
fn analyze_matches_the_published_mean() {
    let doc = json(&["chutes", "analyze", "--exact", "--players", "3", "--json"]);
    let mean = doc["mean"].as_f64().unwrap();
    assert!((mean - 39.2251).abs() < 5e-5, "{mean}");
    assert_eq!(doc["exact"]["mean"]["fraction"], CLASSIC_MEAN);
    let float = doc["exact"]["mean"]["float"].as_f64().unwrap();
    assert!((float - mean).abs() < 1e-9, "{float} against {mean}");
    assert_eq!(doc["median"], 32);
    assert_eq!(doc["mode"], 22);
    assert_eq!(doc["shortest"], 7);
    let seats: Vec<f64> = doc["seats"]["seat_win"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(seats.len(), 3);
    assert!((seats.iter().sum::<f64>() - 1.0).abs() < 1e-10);
    assert!(seats[0] > seats[1] && seats[1] > seats[2]);
    assert!(doc["seats"]["mean_rounds"].as_f64().unwrap() > 7.0);
    assert_eq!(doc["landings"].as_array().unwrap().len(), 101);
    assert_eq!(doc["jumps"].as_array().unwrap().len(), 19);
    let text = ok(&["chutes", "analyze", "--exact"]);
    assert!(
        text.contains("mean 39.2251") && text.contains(CLASSIC_MEAN),
        "{text}"
    );
}

#[test]
fn analyze_says_when_games_never_end() {
    let text = ok(&[
        "chutes",
        "analyze",
        "--board",
        &chutes_data("analysis-walled.toml"),
    ]);
    assert!(text.contains("No game ever ends"), "{text}");
    let doc = json(&[
        "chutes",
        "analyze",
        "--board",
        &chutes_data("analysis-trap.toml"),
        "--exact",
        "--json",
    ]);
    let never = doc["never"].as_f64().unwrap();
    assert!(never > 0.0 && never < 1.0, "{never}");
    assert_eq!(doc["mean"], Value::Null);
    assert_eq!(doc["exact"], Value::Null);
    assert!(doc["exact_error"].as_str().unwrap().contains("infinite"));
}

#[test]
fn simulate_is_the_same_on_any_thread_count() {
    let run = |threads: &str| {
        let mut doc = json(&[
            "chutes",
            "simulate",
            "--games",
            "300000",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]);
        let obj = doc.as_object_mut().unwrap();
        for timing in ["seconds", "games_per_second", "threads"] {
            assert!(obj.remove(timing).is_some(), "{timing}");
        }
        doc
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["games"], 300000);
    let ci = one["ci95"].as_array().unwrap();
    let exact = one["exact"]["mean"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < exact && exact < ci[1].as_f64().unwrap());
    let text = ok(&[
        "chutes",
        "simulate",
        "--games",
        "100000",
        "--seed",
        "1",
        "--players",
        "2",
    ]);
    assert!(
        text.contains("games/s") && text.contains("seat 2 wins"),
        "{text}"
    );
}

#[test]
fn search_finds_records_and_states_the_exact_answer() {
    let text = ok(&["chutes", "search", "--seed", "1", "--games", "100000"]);
    assert!(
        text.contains(
            "Exact answer (breadth-first search): 7 rolls; 423 dice sequences, 7 distinct routes"
        ),
        "{text}"
    );
    let doc = json(&[
        "chutes",
        "search",
        "--seed",
        "3",
        "--chutes",
        "2",
        "--games",
        "400000",
        "--all-shortest",
        "--json",
    ]);
    let records = doc["records"].as_array().unwrap();
    assert!(!records.is_empty());
    let lengths: Vec<u64> = records
        .iter()
        .map(|r| r["rolls"].as_u64().unwrap())
        .collect();
    assert!(lengths.windows(2).all(|w| w[1] < w[0]));
    assert_eq!(doc["exact"]["rolls"], 7);
    assert_eq!(doc["exact"]["sequences"], "8");
    // Replaying the last record through `play` gives the same game.
    let last = records.last().unwrap();
    let dice: String = last["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.to_string())
        .collect();
    let dice = dice.as_str();
    let play = json(&["chutes", "play", "--dice", dice, "--json"]);
    assert_eq!(play["rolls"], last["rolls"]);
    assert_eq!(play["summary"][0]["chutes"], 2);
}

#[test]
fn min_throws_answers_the_published_examples() {
    let doc = json(&[
        "chutes",
        "min-throws",
        "--leetcode",
        &chutes_data("leetcode-example-1.json"),
        "--json",
    ]);
    assert_eq!(doc["throws"], 4);
    let doc = json(&[
        "chutes",
        "min-throws",
        "--leetcode",
        "[[-1,-1],[-1,3]]",
        "--json",
    ]);
    assert_eq!(doc["throws"], 1);
    let pairs = "3 22 5 8 11 26 20 29 27 1 21 9 17 4 19 7";
    let text = ok(&[
        "chutes",
        "min-throws",
        "--pairs",
        pairs,
        "--size",
        "30",
        "--start",
        "1",
    ]);
    assert!(text.contains("Fewest throws: 3"), "{text}");
    let doc = json(&[
        "chutes",
        "min-throws",
        "--pairs",
        pairs,
        "--size",
        "30",
        "--json",
    ]);
    assert_eq!(doc["throws"], 3);
    assert_eq!(doc["example_steps"][2]["to"], 30);
    assert_eq!(doc["board"]["start"], 1);
    let doc = json(&["chutes", "min-throws", "--json"]);
    assert_eq!(doc["throws"], 7);
}

#[test]
fn min_throws_reads_the_assignment_s_own_form_and_numbers_its_cells() {
    // N = 30, then move[0..29], 0-based, -1 = no jump, a snake 26→0.
    let board = chutes_data("min-throws-assignment.txt");
    let text = ok(&["chutes", "min-throws", "--board", &board]);
    assert!(text.contains("Fewest throws: 3"), "{text}");
    assert!(text.contains("0 -> 5, ladder 5->21"), "{text}");
    assert!(text.contains("-> 29, finish"), "{text}");
    let forced = json(&[
        "chutes",
        "min-throws",
        "--board",
        &board,
        "--format",
        "moves",
        "--json",
    ]);
    assert_eq!(forced["throws"], 3);
    assert_eq!(
        (
            forced["board"]["size"].clone(),
            forced["board"]["start"].clone()
        ),
        (29.into(), 0.into())
    );
    let steps = forced["example_steps"].as_array().unwrap();
    assert_eq!(steps.last().unwrap()["to"], 29);
    // The same board as pairs, with the start on 0 and a chute back to it.
    let doc = json(&[
        "chutes",
        "min-throws",
        "--pairs",
        "1 7 5 21 10 12 20 15 26 0 21 4 14 9 19 2",
        "--size",
        "29",
        "--start",
        "0",
        "--json",
    ]);
    assert_eq!(doc["throws"], 3);
    // Its recursive program's board: cells 1..30 from 1, a throw reaching
    // 30 or beyond finishes.
    let doc = json(&[
        "chutes",
        "min-throws",
        "--pairs",
        "4 12 8 15 6 26 2 21 14 19 12 7 26 3 29 9",
        "--size",
        "30",
        "--start",
        "1",
        "--rules",
        "finish",
        "--json",
    ]);
    assert_eq!(doc["throws"], 2);
    // A chute to 0 where tokens start on square 1 is refused, saying why.
    let err = fails(&["chutes", "min-throws", "--pairs", "26 0", "--size", "29"]);
    assert!(err.contains("chute 26→0 is not inside the board"), "{err}");
}

#[test]
fn leetcode_self_jumps_are_read_as_no_jump_with_a_note() {
    for (grid, answer, square) in [
        ("[[-1,4,-1],[6,2,6],[-1,3,-1]]", 2, 6),
        ("[[-1,-1],[-1,2]]", 1, 2),
    ] {
        let out = parlor(&["chutes", "min-throws", "--leetcode", grid, "--json"]);
        assert!(out.status.success(), "{grid}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["throws"], answer, "{grid}");
        let note = stderr(&out);
        assert!(
            note.starts_with("note: leetcode: line 1, column ")
                && note.contains(&format!(
                    "square {square} holds {square}, its own label: read as no jump"
                )),
            "{note}"
        );
    }
}

#[test]
fn min_throws_reports_an_unfinishable_board() {
    let board = chutes_data("analysis-walled.toml");
    let doc = json(&["chutes", "min-throws", "--board", &board, "--json"]);
    assert_eq!(doc["throws"], Value::Null);
    let text = ok(&["chutes", "min-throws", "--board", &board]);
    assert!(text.contains("cannot be reached"), "{text}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let err = fails(&["chutes", "min-throws", "--pairs", "3 22 5", "--size", "30"]);
    assert!(err.contains("even count"), "{err}");
    let err = fails(&["chutes", "min-throws", "--pairs", "3 40", "--size", "30"]);
    assert!(err.contains("pair #1"), "{err}");
    let err = fails(&["chutes", "min-throws", "--leetcode", "[[-1,-1],[-1]]"]);
    assert!(err.contains("row 2"), "{err}");
    let err = fails(&["chutes", "analyze", "--players", "9"]);
    assert!(err.contains("9 players"), "{err}");
    let err = fails(&["chutes", "analyze", "--tail", "2"]);
    assert!(err.contains("tail"), "{err}");
    let err = fails(&["chutes", "simulate", "--games", "0"]);
    assert!(err.contains("--games"), "{err}");
    let err = fails(&["chutes", "shortest", "--board", "no-such-board.toml"]);
    assert!(err.contains("no-such-board.toml"), "{err}");
}

// ------------------------------------------------------------------ design

/// The seats' chances in a design or analysis report.
fn seat_wins(analysis: &Value) -> Vec<f64> {
    analysis["seats"]["seat_win"]
        .as_array()
        .expect("seat_win")
        .iter()
        .map(|p| p.as_f64().expect("a chance"))
        .collect()
}

#[test]
fn design_meets_a_mean_and_four_fair_seats_and_repeats_for_its_seed() {
    let args = [
        "chutes",
        "design",
        "--size",
        "100",
        "--chutes",
        "8",
        "--ladders",
        "8",
        "--mean",
        "40",
        "--players",
        "4",
        "--fair",
        "0.012",
        "--seed",
        "1",
        "--json",
    ];
    let report = json(&args);
    assert_eq!(report["met"], true, "{report}");
    let mean = report["analysis"]["mean"].as_f64().expect("mean");
    assert!((mean - 40.0).abs() <= 0.1, "mean {mean}");
    let seats = seat_wins(&report["analysis"]);
    assert_eq!(seats.len(), 4);
    for p in &seats {
        assert!((p - 0.25).abs() <= 0.012, "seat chance {p}");
    }
    let jumps = report["jumps"].as_array().expect("jumps");
    let ladders = jumps
        .iter()
        .filter(|j| j["to"].as_u64() > j["from"].as_u64())
        .count();
    assert_eq!((ladders, jumps.len() - ladders), (8, 8));
    // The same seed gives the same board.
    assert_eq!(json(&args)["jumps"], report["jumps"]);
}

#[test]
fn a_designed_board_file_analyses_as_its_report_says() {
    // Random targets (from a fixed list of seeds), met or not: the analysis
    // in the report is the analysis of the written file.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut state = 0x9e37_79b9_u64;
    for seed in 1..=4u64 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mean = 25 + (state >> 33) % 25;
        let players = 2 + (state >> 40) % 3;
        let size = 60 + (state >> 20) % 60;
        let path = dir.path().join(format!("designed-{seed}.toml"));
        let file = path.to_str().expect("utf-8 path");
        let (mean, players, size, seed) = (
            mean.to_string(),
            players.to_string(),
            size.to_string(),
            seed.to_string(),
        );
        let report = report_of(&[
            "chutes",
            "design",
            "--size",
            &size,
            "--chutes",
            "4..6",
            "--ladders",
            "3..6",
            "--mean",
            &mean,
            "--players",
            &players,
            "--fair",
            "0.02",
            "--seed",
            &seed,
            "--evaluations",
            "200",
            "--out",
            file,
            "--json",
        ]);
        let analysed = json(&[
            "chutes",
            "analyze",
            "--board",
            file,
            "--players",
            &players,
            "--json",
        ]);
        assert_eq!(report["analysis"], analysed, "seed {seed}");
        let text = std::fs::read_to_string(&path).expect("board file");
        assert_eq!(report["board_file"].as_str(), Some(text.as_str()));
        // Each target's figure is the analysis' own.
        for t in report["targets"].as_array().expect("targets") {
            if t["name"] == "mean" {
                assert_eq!(t["achieved"], analysed["mean"]);
                let met = (t["achieved"].as_f64().expect("mean")
                    - t["target"].as_f64().expect("target"))
                .abs()
                    <= 0.1;
                assert_eq!(t["met"], met);
            }
        }
    }
}

#[test]
fn design_says_which_targets_were_missed_and_which_no_board_can_meet() {
    // Missed (no bound rules it out): the report, then a non-zero exit
    // saying by how much.
    let out = parlor(&[
        "chutes",
        "design",
        "--mean",
        "30",
        "--sd",
        "min",
        "--shortest",
        ">=18",
        "--seed",
        "1",
        "--evaluations",
        "300",
    ]);
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("NOT MET shortest game"), "{text}");
    assert!(
        text.contains("Not every target was met: this is the closest of 300 boards"),
        "{text}"
    );
    let err = stderr(&out);
    assert!(
        err.contains("not every target was met (300 boards judged): missed")
            && err.contains("shortest by"),
        "{err}"
    );
    let err = fails(&[
        "chutes",
        "design",
        "--size",
        "20",
        "--chutes",
        "9",
        "--ladders",
        "9",
        "--allow",
        "first-row",
    ]);
    assert!(
        err.contains(
            "9 chutes and 9 ladders: 18 jumps do not fit on 20 squares without sharing a square"
        ),
        "{err}"
    );
    let err = fails(&["chutes", "design", "--size", "20", "--chutes", "50"]);
    assert!(
        err.contains("58 jumps do not fit") && err.contains("8 ladders is the default"),
        "{err}"
    );
    let err = fails(&["chutes", "design", "--chutes", "9..3"]);
    assert!(err.contains("'9..3' is not a count of jumps"), "{err}");
    let err = fails(&["chutes", "design", "--fair", "0.01"]);
    assert!(err.contains("give 2 or more players"), "{err}");
    let err = fails(&["chutes", "design", "--mean", "thirty"]);
    assert!(
        err.contains("--mean") && err.contains("is not a goal"),
        "{err}"
    );
    let err = fails(&["chutes", "design", "--allow", "ugly"]);
    assert!(err.contains("'ugly' is not a board rule"), "{err}");
}

/// Targets no board can meet, each refused before any search with the
/// bound that rules it out (no board is judged: the answer is immediate).
#[test]
fn impossible_targets_are_refused_at_once_with_their_reason() {
    let cases: [(&[&str], &str); 10] = [
        (&["--mean", "3"], "no board's mean is below 10.6"),
        (
            &["--mean", "10", "--ladders", "0"],
            "no board's mean is below 33.333",
        ),
        (
            &["--mean", "10", "--shortest", "15"],
            "every game is asked to take at least 15 rolls",
        ),
        (
            &["--shortest", "200"],
            "finishes within 18 rolls on any such board",
        ),
        (
            &["--shortest", "50"],
            "finishes within 18 rolls on any such board: each of the at most 8 chutes",
        ),
        (
            &["--shortest", "200", "--allow", "touching"],
            "it takes at most 84 rolls on 100 squares with 16 jumps",
        ),
        (&["--mean", "1e308"], "at most 1000000, not 1e308"),
        (&["--mean", "-5"], "must be a positive number"),
        (
            &["--mean", "30", "--players", "4", "--fair", "0.001"],
            "seat 1 of 4 is at least 0.007",
        ),
        (
            &["--mean", "30", "--out", "/nonexistent/dir/x.toml"],
            "cannot write the board to /nonexistent/dir/x.toml: the folder /nonexistent/dir does not exist",
        ),
    ];
    for (args, reason) in cases {
        let mut all = vec!["chutes", "design", "--seed", "1"];
        all.extend_from_slice(args);
        let out = parlor(&all);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(reason), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}: no search, no report");
        // Said once.
        assert_eq!(err.matches("error:").count(), 1, "{err}");
    }
    // With every rule off and jumps of any length, a ladder from each of
    // squares 1 to 6 could reach the finish: the bound is exactly 1 roll.
    let err = fails(&[
        "chutes",
        "design",
        "--mean",
        "0.5",
        "--allow",
        "all",
        "--max-jump",
        "99",
    ]);
    assert!(
        err.contains("no board's mean is below 1.000 rolls"),
        "{err}"
    );
}

// ------------------------------------------------------------ design checks

/// A board's exact figures, computed here independently of Parlor: the
/// distribution of one player's game length by pushing the probability of
/// each square forward roll by roll (stay rule, a d6), then the mean and
/// each seat's chance to win among `players`.
fn independent_figures(size: u32, jumps: &[(u32, u32)], players: usize) -> (f64, Vec<f64>) {
    let n = size as usize;
    let mut to: Vec<usize> = (0..=n).collect();
    for &(a, b) in jumps {
        to[a as usize] = b as usize;
    }
    let mut here = vec![0.0f64; n + 1];
    here[0] = 1.0;
    let mut finished = vec![0.0f64]; // finished[t]: P(game ends at roll t)
    let mut mean = 0.0;
    for t in 1..20_000 {
        let mut next = vec![0.0f64; n + 1];
        for s in 0..n {
            let p = here[s];
            if p == 0.0 {
                continue;
            }
            for r in 1..=6 {
                let l = s + r;
                if l > n {
                    next[s] += p / 6.0;
                } else {
                    next[to[l]] += p / 6.0;
                }
            }
        }
        let done = next[n];
        next[n] = 0.0;
        finished.push(done);
        mean += t as f64 * done;
        here = next;
        if here.iter().sum::<f64>() < 1e-15 {
            break;
        }
    }
    // S(t) = P(T > t); seat i wins at round t when it ends then, the
    // seats before it have not ended by t and those after not by t − 1.
    let mut survive = vec![1.0f64];
    for t in 1..finished.len() {
        survive.push((survive[t - 1] - finished[t]).max(0.0));
    }
    let seats = (0..players)
        .map(|i| {
            (1..finished.len())
                .map(|t| {
                    finished[t]
                        * survive[t].powi(i as i32)
                        * survive[t - 1].powi((players - 1 - i) as i32)
                })
                .sum()
        })
        .collect();
    (mean, seats)
}

/// The designed board's jumps from a report.
fn jumps_of(report: &Value) -> Vec<(u32, u32)> {
    report["jumps"]
        .as_array()
        .expect("jumps")
        .iter()
        .map(|j| {
            (
                j["from"].as_u64().expect("from") as u32,
                j["to"].as_u64().expect("to") as u32,
            )
        })
        .collect()
}

/// The report of a design, met or not.
fn report_of(args: &[&str]) -> Value {
    let out = parlor(args);
    serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stderr(&out)))
}

/// Checks the default board rules on `jumps` of a 10 × 10 board, with
/// geometry written here: (column, row from the bottom) of a square.
fn assert_board_rules(jumps: &[(u32, u32)], exempt: &[(u32, u32)]) {
    let cell = |s: u32| {
        let (row, along) = ((s - 1) / 10, (s - 1) % 10);
        let col = if row % 2 == 1 { 9 - along } else { along };
        (i64::from(col), i64::from(row))
    };
    let cross = |a: (u32, u32), b: (u32, u32)| {
        if [a.0, a.1].iter().any(|x| [b.0, b.1].contains(x)) {
            return false;
        }
        let (p1, p2, q1, q2) = (cell(a.0), cell(a.1), cell(b.0), cell(b.1));
        let side = |p: (i64, i64), q: (i64, i64), r: (i64, i64)| {
            ((q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)).signum()
        };
        let on = |p: (i64, i64), q: (i64, i64), r: (i64, i64)| {
            side(p, q, r) == 0
                && r.0 >= p.0.min(q.0)
                && r.0 <= p.0.max(q.0)
                && r.1 >= p.1.min(q.1)
                && r.1 <= p.1.max(q.1)
        };
        (side(q1, q2, p1) * side(q1, q2, p2) < 0 && side(p1, p2, q1) * side(p1, p2, q2) < 0)
            || on(q1, q2, p1)
            || on(q1, q2, p2)
            || on(p1, p2, q1)
            || on(p1, p2, q2)
    };
    let mut crossings = 0;
    for (i, &a) in jumps.iter().enumerate() {
        let new = !exempt.contains(&a);
        if new {
            assert!(a.1 != 100, "{a:?} onto the finish");
            assert!(a.0 > 10, "{a:?} starts in the first row");
            assert!((2..=50).contains(&a.0.abs_diff(a.1)), "{a:?} length");
        }
        for &b in &jumps[i + 1..] {
            crossings += u32::from(cross(a, b));
            if new || !exempt.contains(&b) {
                for x in [a.0, a.1] {
                    for y in [b.0, b.1] {
                        let (p, q) = (cell(x), cell(y));
                        assert!(
                            (p.0 - q.0).abs() + (p.1 - q.1).abs() > 1,
                            "{a:?} and {b:?} have touching ends"
                        );
                    }
                }
            }
        }
    }
    if exempt.is_empty() {
        assert!(crossings <= 2, "{crossings} crossings");
    }
}

#[test]
fn the_teachers_four_player_board_is_fair_and_looks_like_a_board() {
    // --players 4 alone asks for fair seats (within 0.02).
    let report = json(&[
        "chutes",
        "design",
        "--mean",
        "30",
        "--players",
        "4",
        "--seed",
        "1",
        "--json",
    ]);
    let fair = report["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["name"] == "fair")
        .expect("a fairness target");
    assert_eq!(fair["target"], 0.02);
    let jumps = jumps_of(&report);
    assert_board_rules(&jumps, &[]);
    let (mean, seats) = independent_figures(100, &jumps, 4);
    assert!((mean - 30.0).abs() <= 0.1, "{mean}");
    let reported = report["analysis"]["mean"].as_f64().expect("mean");
    assert!((mean - reported).abs() < 1e-9, "{mean} vs {reported}");
    for (p, q) in seats.iter().zip(seat_wins(&report["analysis"])) {
        assert!((p - 0.25).abs() <= 0.02, "{seats:?}");
        assert!((p - q).abs() < 1e-9, "{p} vs {q}");
    }
    // The most common game is not a couple of rolls.
    assert!(report["analysis"]["shortest"].as_u64().expect("shortest") >= 4);
    let text = ok(&[
        "chutes",
        "design",
        "--mean",
        "30",
        "--players",
        "4",
        "--seed",
        "1",
    ]);
    assert!(
        text.contains("Board rules: no ladder onto the finish (kept)"),
        "{text}"
    );
    // And --fair off says there is none.
    let free = json(&[
        "chutes",
        "design",
        "--mean",
        "30",
        "--players",
        "4",
        "--fair",
        "off",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(
        free["targets"]
            .as_array()
            .expect("targets")
            .iter()
            .all(|t| t["name"] != "fair")
    );
}

#[test]
fn the_familys_classic_board_made_shorter_changes_at_most_three_jumps() {
    let report = json(&[
        "chutes", "design", "--from", "classic", "--mean", "25", "--seed", "1", "--json",
    ]);
    let changes = report["changes"].as_u64().expect("changes");
    assert!(changes <= 3, "{changes} changes");
    let jumps = jumps_of(&report);
    let classic: Vec<(u32, u32)> = chutes::Board::classic()
        .jumps()
        .iter()
        .map(|j| (j.from, j.to))
        .collect();
    // Counted here: jumps gone and jumps new, a moved jump once.
    let gone = classic.iter().filter(|j| !jumps.contains(j)).count();
    let new = jumps.iter().filter(|j| !classic.contains(j)).count();
    assert_eq!(gone.max(new) as u64, changes);
    assert_board_rules(&jumps, &classic);
    let (mean, _) = independent_figures(100, &jumps, 1);
    assert!((mean - 25.0).abs() <= 0.1, "{mean}");
}

/// IBM Ponder This, February 2020: 100 squares, start off the board, a
/// roll past 100 stays put, ten ladders and snakes altogether, and an
/// expected number of moves that rounds to 66.978705 (so within 5e-7).
#[test]
fn the_ponder_this_board_meets_its_exact_mean() {
    // The puzzle's own example: the standard board of 19 jumps has an
    // expected 39.225122 moves; the independent computation agrees.
    let classic: Vec<(u32, u32)> = chutes::Board::classic()
        .jumps()
        .iter()
        .map(|j| (j.from, j.to))
        .collect();
    let (mean, _) = independent_figures(100, &classic, 1);
    assert!((mean - 39.225_122).abs() < 5e-7, "{mean}");
    let report = json(&[
        "chutes",
        "design",
        "--jumps",
        "10",
        "--chutes",
        "0..10",
        "--ladders",
        "0..10",
        "--allow",
        "all",
        "--max-jump",
        "99",
        "--mean",
        "66.978705+-5e-7",
        "--seed",
        "3",
        "--evaluations",
        "4000",
        "--json",
    ]);
    assert_eq!(report["met"], true, "{}", report["targets"]);
    let jumps = jumps_of(&report);
    assert_eq!(jumps.len(), 10);
    let (mean, _) = independent_figures(100, &jumps, 1);
    assert!((mean - 66.978_705).abs() < 5e-7, "{mean}");
    assert_eq!(format!("{mean:.6}"), "66.978705");
}

#[test]
fn tolerances_bounds_and_least_or_most_goals_are_honoured() {
    // 30±0.5: anywhere in the window is met.
    let report = json(&[
        "chutes", "design", "--mean", "30±0.5", "--seed", "3", "--json",
    ]);
    let (mean, _) = independent_figures(100, &jumps_of(&report), 1);
    assert!((mean - 30.0).abs() <= 0.5, "{mean}");
    // A least sd with the mean in a window: met, and below a plain search
    // for the mean alone.
    let least = json(&[
        "chutes",
        "design",
        "--mean",
        "25..35",
        "--sd",
        "min",
        "--seed",
        "2",
        "--evaluations",
        "20000",
        "--json",
    ]);
    let plain = json(&[
        "chutes", "design", "--mean", "25..35", "--seed", "2", "--json",
    ]);
    let sd = |r: &Value| r["analysis"]["sd"].as_f64().expect("sd");
    assert!(sd(&least) < sd(&plain), "{} vs {}", sd(&least), sd(&plain));
    let (mean, _) = independent_figures(100, &jumps_of(&least), 1);
    assert!((25.0..=35.0).contains(&mean), "{mean}");
    // A percentile: nine games in ten end within 45 rolls.
    let p90 = json(&[
        "chutes",
        "design",
        "--mean",
        "30",
        "--percentile",
        "90:<=45",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(p90["met"], true);
    let got = p90["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["name"] == "p90")
        .expect("the p90 target")["achieved"]
        .as_f64()
        .expect("p90");
    assert!(got <= 45.0, "{p90}");
    let p95 = p90["analysis"]["percentiles"]["p95"].as_f64().expect("p95");
    assert!(got <= p95, "{got} > {p95}");
}

// ------------------------------------------------------------- sensitivity

#[test]
fn sensitivity_entries_are_the_analyses_of_the_edited_boards() {
    let table = json(&[
        "chutes",
        "analyze",
        "--sensitivity",
        "--players",
        "2",
        "--json",
    ]);
    let t = &table["sensitivity"];
    let mean = t["mean"].as_f64().expect("mean");
    assert!((mean - 39.225_122_1).abs() < 1e-6, "{mean}");
    let jumps = t["jumps"].as_array().expect("jumps");
    assert_eq!(jumps.len(), 19);
    let dir = tempfile::tempdir().expect("temp dir");
    // Removing the classic board's longest ladder, 80->100, and moving the
    // head of the chute 87->24 three squares down, checked against
    // `analyze` on the edited board files.
    let classic = chutes::Board::classic();
    let analysed_mean = |edit: &dyn Fn(&chutes::Jump) -> Option<chutes::Jump>, name: &str| {
        let jumps: Vec<(u32, u32)> = classic
            .jumps()
            .iter()
            .filter_map(|j| edit(j).map(|e| (e.from, e.to)))
            .collect();
        let board = chutes::Board::from_jumps(100, 0, &jumps).expect("board");
        let path = dir.path().join(name);
        std::fs::write(&path, chutes::formats::write_toml(&board)).expect("write");
        let a = json(&[
            "chutes",
            "analyze",
            "--board",
            path.to_str().expect("path"),
            "--players",
            "2",
            "--json",
        ]);
        (
            a["mean"].as_f64().expect("mean"),
            a["seats"]["seat_win"][0].as_f64().expect("seat 1"),
        )
    };
    let base_seat = t["seat_win"][0].as_f64().expect("seat 1");
    let entry = jumps
        .iter()
        .find(|j| j["jump"]["from"] == 80)
        .expect("80->100");
    let (m, s1) = analysed_mean(&|j| (j.from != 80).then_some(*j), "no-80.toml");
    assert!((entry["removed"]["mean_change"].as_f64().expect("change") - (m - mean)).abs() < 1e-9);
    assert!(
        (entry["removed"]["seat_change"][0].as_f64().expect("change") - (s1 - base_seat)).abs()
            < 1e-9
    );
    let entry = jumps
        .iter()
        .find(|j| j["jump"]["from"] == 87)
        .expect("87->24");
    let shift = entry["head"]
        .as_array()
        .expect("head")
        .iter()
        .find(|s| s["by"] == -3)
        .expect("-3");
    let (m, _) = analysed_mean(
        &|j| {
            Some(if j.from == 87 {
                chutes::Jump::new(84, 24)
            } else {
                *j
            })
        },
        "84-24.toml",
    );
    assert!((shift["effect"]["mean_change"].as_f64().expect("change") - (m - mean)).abs() < 1e-9);
    // In words: every jump has its line, and the squares where a chute
    // costs most.
    let text = ok(&["chutes", "analyze", "--sensitivity"]);
    let line = text
        .lines()
        .find(|l| l.contains("ladder 80->100"))
        .expect("80->100's line");
    assert!(line.contains("removed +19.77; head moved"), "{line}");
    assert!(
        text.contains("A new chute of 10 squares would add most on squares: 94 (+6.26)"),
        "{text}"
    );
    let out = dir.path().join("sensitivity.svg");
    let said = ok(&[
        "chutes",
        "plot",
        "--kind",
        "sensitivity",
        "-o",
        out.to_str().expect("path"),
    ]);
    assert!(
        said.contains("the cost of a new chute on the classic board"),
        "{said}"
    );
    let svg = std::fs::read_to_string(&out).expect("svg");
    assert!(svg.contains("Where a chute would hurt most"), "{svg}");
    // Signed: a chute from 81 shortens the game (it drops onto the foot of
    // the ladder 71->91), and the picture says so; no chute fits on a
    // ladder's foot such as 80.
    assert!(
        text.contains(
            "Surprise: a new chute of 10 squares would SHORTEN the game on 13 squares: 81 (-2.56), 82 (-1.84), 32 (-1.61)"
        ),
        "{text}"
    );
    let entry = |square: u32| {
        let at = svg
            .find(&format!("data-square=\"{square}\" data-value=\""))
            .unwrap_or_else(|| panic!("square {square}'s value"));
        let rest = &svg[at..];
        let start = rest.find("data-value=\"").expect("value") + "data-value=\"".len();
        rest[start..start + rest[start..].find('"').expect("end")].to_string()
    };
    let v81: f64 = entry(81).parse().expect("a number");
    let squares = t["squares"].as_array().expect("squares");
    let listed = squares.iter().find(|s| s["square"] == 81).expect("81")["chute"]["mean_change"]
        .as_f64()
        .expect("change");
    assert!(
        v81 < -2.5 && (v81 - listed).abs() < 1e-9,
        "{v81} vs {listed}"
    );
    assert!(svg.contains("nothing fits"), "the grey squares are named");
    // The board's own surprise: the short chute 56->53 shortens the game.
    assert!(
        text.contains(
            "Surprise: the chute 56->53 SHORTENS the game: removing it changes the mean by +0.01"
        ),
        "{text}"
    );
    for kind in [
        "sensitivity-ladder",
        "sensitivity-removed",
        "sensitivity-foot",
        "sensitivity-head",
    ] {
        let out = dir.path().join(format!("{kind}.svg"));
        ok(&[
            "chutes",
            "plot",
            "--kind",
            kind,
            "-o",
            out.to_str().expect("path"),
        ]);
        let svg = std::fs::read_to_string(&out).expect("svg");
        // On the classic board some foot is within 6 squares of every
        // square; the other views have squares where nothing can go.
        assert!(
            kind == "sensitivity-foot" || svg.contains("nothing fits"),
            "{kind}"
        );
        if kind == "sensitivity-foot" {
            // Square 81 shows the ladder 28->84 ending 3 squares lower, the
            // nearest foot's move; the foot 84 itself shows 0.
            let value = |square: u32| -> f64 {
                let at = svg
                    .find(&format!("data-square=\"{square}\" data-value=\""))
                    .unwrap_or_else(|| panic!("square {square}'s value"));
                let rest = &svg[at + format!("data-square=\"{square}\" data-value=\"").len()..];
                rest[..rest.find('"').expect("end")]
                    .parse()
                    .expect("a number")
            };
            let ladder = jumps
                .iter()
                .find(|j| j["jump"]["from"] == 28)
                .expect("28->84");
            let down3 = ladder["foot"]
                .as_array()
                .expect("foot")
                .iter()
                .find(|s| s["by"] == -3)
                .expect("-3")["effect"]["mean_change"]
                .as_f64()
                .expect("change");
            assert!((value(81) - down3).abs() < 1e-9, "{} vs {down3}", value(81));
            assert_eq!(value(84), 0.0);
        }
    }
}

#[test]
fn design_stops_on_ctrl_c_with_the_best_board_so_far() {
    // The longest spread the search can find, with every game at least 18
    // rolls (the bound itself): the search would run on.
    let out = interrupted(
        &[
            "chutes",
            "design",
            "--sd",
            "max",
            "--shortest",
            "18",
            "--seed",
            "1",
            "--evaluations",
            "100000000",
        ],
        std::time::Duration::from_millis(1500),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success(),
        "a missed target exits non-zero: {text}"
    );
    assert!(
        text.contains("The search was interrupted after")
            && text.contains("this is the best it had found"),
        "{text}"
    );
    assert!(text.contains("NOT MET shortest game"), "{text}");
    assert!(text.contains("Game length on design-1"), "{text}");
}

/// Ctrl-C stops a long simulation or search with the games played so far:
/// the report says so, and its figures are of those games.
#[test]
fn simulate_and_search_stop_on_ctrl_c_with_the_games_so_far() {
    // The most games one may ask for: the chunks not started are not walked
    // once stopped (they were, and the stop never came).
    let most = u64::MAX.to_string();
    for command in ["simulate", "search"] {
        let out = interrupted(
            &["chutes", command, "--games", &most, "--seed", "1"],
            std::time::Duration::from_millis(1500),
        );
        let text = stdout(&out);
        assert!(out.status.success(), "{command}: {text}{}", stderr(&out));
        assert!(text.starts_with("Stopped (Ctrl-C)"), "{command}: {text}");
        assert!(
            !text.contains("18,446,744,073,709,551,615 games"),
            "{command}: {text}"
        );
    }
}

/// A designed board is named for its file (`family.toml`: "family") or by
/// `--name`, on its pictures and in games; a name that breaks the rule of
/// an uploaded board's is refused before any search.
#[test]
fn a_designed_board_takes_its_files_name_or_the_one_asked() {
    let dir = tempfile::tempdir().expect("a folder");
    let out = dir.path().join("family.toml");
    let out = out.to_str().expect("a path");
    let args = [
        "chutes", "design", "--from", "classic", "--mean", "25", "--seed", "1",
    ];
    ok(&[&args[..], &["--out", out]].concat());
    let written = std::fs::read_to_string(out).expect("the board file");
    assert!(written.starts_with("name = \"family\"\n"), "{written}");
    let named = ok(&[&args[..], &["--out", out, "--name", "Our short board"]].concat());
    assert!(named.contains("Game length on Our short board"), "{named}");
    let written = std::fs::read_to_string(out).expect("the board file");
    assert!(
        written.starts_with("name = \"Our short board\"\n"),
        "{written}"
    );
    let refused = parlor(&[&args[..], &["--name", "a\u{200b}b"]].concat());
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused)
            .contains("--name: a name may not hold the invisible or blank character U+200B"),
        "{}",
        stderr(&refused)
    );
}
