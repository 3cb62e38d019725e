//! The CLI's words, the same across commands: counts of one in the
//! singular, the same refusal for every `--games 0`, a picture's messages,
//! and "the original assignment" (never the word users do not know) in
//! every help, doc and page.
//!
//! Terms: **one-roll board** is a 2-square board, where a game, a shortest
//! game and a throw count can all be exactly 1.

use crate::common;

use common::*;
use std::path::PathBuf;

/// A file in a fresh temporary directory holding `text`.
fn temp_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write temp file");
    (dir, path)
}

/// Fails on any "1 <plural>" (e.g. "1 rolls") in `text`.
fn no_one_plural(text: &str, what: &str) {
    for noun in [
        "rolls",
        "throws",
        "games",
        "turns",
        "ladders",
        "chutes",
        "snakes",
        "cards",
        "mirrors",
        "cells",
        "coins",
        "routes",
        "sequences",
        "boxes",
    ] {
        for (at, _) in text.match_indices(&format!("1 {noun}")) {
            let before = text[..at].chars().next_back();
            assert!(
                // "21 rolls", "1,001 games", "P1 rolls 3" are fine.
                before.is_some_and(|c| c.is_ascii_alphanumeric() || c == ',' || c == '.'),
                "{what}: \"1 {noun}\" in:\n{text}"
            );
        }
        assert!(!text.contains(&format!("{noun}(s)")), "{what}: in\n{text}");
    }
}

#[test]
fn chutes_counts_of_one_are_singular() {
    let (_dir, two) = temp_file("two.toml", "size = 2\n");
    let two = two.to_str().expect("utf-8 path");
    let (_dir3, one_each) = temp_file(
        "one.toml",
        "size = 9\nladders = [[2, 8]]\nchutes = [[7, 3]]\n",
    );
    let one_each = one_each.to_str().expect("utf-8 path");

    let text = ok(&["chutes", "play", "--board", two, "--seed", "1"]);
    assert!(text.contains("Player 1 reached 2 in 1 roll."), "{text}");
    no_one_plural(&text, "play");
    let text = ok(&[
        "chutes",
        "play",
        "--board",
        two,
        "--players",
        "2",
        "--seed",
        "1",
    ]);
    assert!(text.contains("(1 roll in all)"), "{text}");
    let text = ok(&["chutes", "play", "--board", two, "--dice", "1"]);
    assert!(text.contains("ran out after 1 roll and"), "{text}");

    let text = ok(&[
        "chutes",
        "search",
        "--board",
        two,
        "--seed",
        "1",
        "--games",
        "10",
        "--all-shortest",
    ]);
    assert!(text.contains("Shortest found: 1 roll ("), "{text}");
    assert!(
        text.contains("Exact answer (breadth-first search): 1 roll;"),
        "{text}"
    );
    no_one_plural(&text, "search");

    let text = ok(&["chutes", "min-throws", "--board", two]);
    assert!(
        text.contains("(1 of the 6^1 sequences of 1 throw finishes.)"),
        "{text}"
    );
    let text = ok(&[
        "chutes", "simulate", "--board", two, "--games", "1", "--seed", "1",
    ]);
    assert!(text.contains(": 1 game, 1 player,"), "{text}");
    no_one_plural(&text, "simulate");

    for args in [
        &["chutes", "board", "check", one_each][..],
        &["chutes", "board", "show", one_each],
    ] {
        let text = ok(args);
        assert!(text.contains("1 ladder, 1 chute"), "{text}");
    }
}

#[test]
fn chutes_picture_messages_say_one_roll() {
    let (dir, two) = temp_file("two.toml", "size = 2\n");
    let two = two.to_str().expect("utf-8 path");
    let svg = dir.path().join("game.svg");
    let svg = svg.to_str().expect("utf-8 path");
    let text = ok(&["chutes", "render", "--board", two, "--seed", "1", "-o", svg]);
    assert!(text.contains("player 1 finished in 1 roll"), "{text}");
    let picture = std::fs::read_to_string(svg).expect("the picture");
    assert!(
        picture.contains("A game of 1 roll: two.toml board<"),
        "{picture}"
    );
    no_one_plural(&picture, "the game picture");
    let text = ok(&[
        "chutes",
        "plot",
        "--kind",
        "histogram",
        "--board",
        two,
        "--games",
        "1",
        "--seed",
        "1",
        "-o",
        svg,
    ]);
    assert!(text.contains("1 simulated game on"), "{text}");
    let picture = std::fs::read_to_string(svg).expect("the picture");
    no_one_plural(&picture, "the histogram");
}

#[test]
fn tycoon_counts_of_one_are_singular() {
    let text = ok(&["tycoon", "play", "sample", "--seats", "bot", "--dice", "3"]);
    assert!(
        text.contains("The given dice ran out after 1 roll (1 turn); nobody has won."),
        "{text}"
    );
    assert!(text.contains(", 1 turn, stations"), "{text}");
    no_one_plural(&text, "tycoon play");
    let text = ok(&[
        "tycoon", "simulate", "sample", "--games", "1", "--seed", "1",
    ]);
    assert!(text.starts_with("1 game on sample"), "{text}");
    assert!(text.contains("(1 game)"), "{text}");
    no_one_plural(&text, "tycoon simulate");
    let (dir, grid) = temp_file("one.grid", "1\n10 32\n1\n34 23\n1\n9 13 50 10\n");
    let grid = grid.to_str().expect("utf-8 path");
    let svg = dir.path().join("grid.svg");
    let svg = svg.to_str().expect("utf-8 path");
    ok(&["tycoon", "render", grid, "-o", svg]);
    let picture = std::fs::read_to_string(svg).expect("the picture");
    assert!(picture.contains("1 ladder · 1 snake · 1 card"), "{picture}");
}

#[test]
fn baffle_counts_of_one_are_singular() {
    let text = ok(&[
        "baffle",
        "solve",
        "--size",
        "4",
        "--mirrors",
        "1",
        "--shots",
        "0:15",
    ]);
    assert!(text.contains("Baffle 4×4, 1 mirror, beams"), "{text}");
    no_one_plural(&text, "baffle solve");
    let text = ok(&[
        "baffle",
        "bot",
        "--size",
        "4",
        "--mirrors",
        "1",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    assert!(text.contains("with 1 mirror,"), "{text}");
    no_one_plural(&text, "baffle bot");
    let text = ok(&[
        "baffle",
        "bot",
        "--size",
        "4",
        "--mirrors",
        "1",
        "--seed",
        "1",
    ]);
    assert!(text.contains("4×4, 1 mirror ("), "{text}");
}

#[test]
fn render_players_alone_draws_a_fresh_game_and_says_its_seed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("fresh.svg");
    let text = ok(&[
        "chutes",
        "render",
        "--players",
        "2",
        "-o",
        first.to_str().expect("utf-8 path"),
    ]);
    // "wrote …: a game on the classic board (100 squares), seed N: player …"
    let seed = text
        .split(", seed ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("no seed in: {text}"));
    assert!(seed.parse::<u64>().is_ok(), "{text}");
    // The seed said draws the same game again, as `play --seed` replays it.
    let again = dir.path().join("again.svg");
    ok(&[
        "chutes",
        "render",
        "--players",
        "2",
        "--seed",
        seed,
        "-o",
        again.to_str().expect("utf-8 path"),
    ]);
    let read = |p: &PathBuf| std::fs::read_to_string(p).expect("the picture");
    assert_eq!(read(&first), read(&again));
    assert!(read(&first).contains(&format!("seed {seed}")));
    // Without --players, --seed or --dice: the bare board, as before.
    let bare = dir.path().join("board.svg");
    let text = ok(&["chutes", "render", "-o", bare.to_str().expect("utf-8 path")]);
    assert!(!text.contains("seed"), "{text}");
    assert!(!read(&bare).contains("class=\"visits\""));
    assert!(read(&first).contains("class=\"visits\""));
}

#[test]
fn every_games_option_refuses_zero_alike() {
    for args in [
        &["chutes", "search", "--games", "0"][..],
        &["chutes", "search", "--games", "0", "--json"],
        &["chutes", "simulate", "--games", "0"],
        &[
            "chutes",
            "plot",
            "--kind",
            "histogram",
            "--games",
            "0",
            "-o",
            "x.svg",
        ],
        &["tycoon", "simulate", "sample", "--games", "0"],
        &["baffle", "bot", "--games", "0"],
    ] {
        let err = fails(args);
        assert_eq!(err.trim(), "error: --games must be at least 1", "{args:?}");
    }
}

#[test]
fn no_plural_in_brackets_and_one_of_many_is_singular() {
    let (dir, two) = temp_file("two.toml", "size = 2\n");
    let two = two.to_str().expect("utf-8 path");
    let text = ok(&["chutes", "play", "--board", two, "--dice", "2,3"]);
    assert!(text.contains("Note: 1 given roll was not used;"), "{text}");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "size = 1\n").expect("write");
    let bad = bad.to_str().expect("utf-8 path");
    let out = parlor(&["chutes", "board", "check", two, bad]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("1 of 2 board files is not valid"),
        "{}",
        stderr(&out)
    );
    let err = fails(&["chutes", "board", "check", bad]);
    assert!(err.contains("1 of 1 board file is not valid"), "{err}");
    let grid = dir.path().join("bad.grid");
    std::fs::write(&grid, "0\n0\n1\n9 13 0 0\n").expect("write");
    let grid = grid.to_str().expect("utf-8 path");
    let out = parlor(&["tycoon", "check", "sample", grid]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("1 of 2 grid files is not valid"),
        "{}",
        stderr(&out)
    );
    let lc = dir.path().join("one.json");
    std::fs::write(&lc, "[[-1]]").expect("write");
    let err = fails(&["chutes", "board", "check", lc.to_str().expect("utf-8 path")]);
    assert!(err.contains("the grid has 1 row;"), "{err}");
    // A board with one dead square says "square", not "square(s)".
    let (_d, trap) = temp_file("trap.toml", "size = 3\nstart = 1\nchutes = [[2, 1]]\n");
    let text = ok(&[
        "chutes",
        "analyze",
        "--board",
        trap.to_str().expect("utf-8 path"),
        "--faces",
        "1",
    ]);
    assert!(
        text.contains("From square 1 the finish cannot be reached."),
        "{text}"
    );
}

#[test]
fn a_tycoon_game_picture_says_one_coin() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("game.json");
    let save = save.to_str().expect("utf-8 path");
    // Card 1 on cell 4 takes 99 of P1's 100 coins on the first roll.
    let grid = dir.path().join("one-coin.grid");
    std::fs::write(&grid, "0\n0\n1\n1 4 99\n").expect("write the grid");
    let grid = grid.to_str().expect("utf-8 path");
    ok(&[
        "tycoon", "play", grid, "--seats", "bot", "--dice", "3", "--save", save,
    ]);
    let svg = dir.path().join("game.svg");
    let svg = svg.to_str().expect("utf-8 path");
    ok(&["tycoon", "render", "--game", save, "-o", svg]);
    let picture = std::fs::read_to_string(svg).expect("the picture");
    assert!(picture.contains("Player 1 on cell 4, 1 coin<"), "{picture}");
    assert!(picture.contains("1 coin · 1 turn"), "{picture}");
    no_one_plural(&picture, "the game picture");
}

/// Why `line` names an original assignment as a "seed" or points outside
/// the repository, if it does: "seed 002", "seeds 000/001", "the seed's
/// sample grid", "the seeds' board array", "../shared/…", "RULES.md". A
/// user knows "the original assignment" (docs/rules.md carries its rules
/// whole); `--seed` is the only seed they meet.
fn seed_for_an_assignment(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    let numbered = lower.match_indices("seed").any(|(at, _)| {
        let rest = &lower[at + "seed".len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.len() == 3 && digits.starts_with('0')
    });
    if numbered {
        Some("an original assignment called \"seed 00N\"")
    } else if lower.contains("seed's") {
        Some("\"the seed's …\" for an original assignment")
    } else if lower.contains("seeds'") {
        Some("\"the seeds' …\" for the original assignments")
    } else if lower.contains("../shared") {
        Some("a path outside the repository (../shared)")
    } else if line.contains("RULES.md") {
        Some("RULES.md, which is not in the repository (say docs/rules.md)")
    } else {
        None
    }
}

/// Every `file:line: why: text` in `text` that [`seed_for_an_assignment`]
/// refuses.
fn seed_wording(file: &str, text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let why = seed_for_an_assignment(line)?;
            Some(format!("{file}:{}: {why}: {}", i + 1, line.trim()))
        })
        .collect()
}

#[test]
fn the_check_for_seed_wording_catches_each_form() {
    for bad in [
        "parlor chutes shortest --chutes 2   # seed 000: exactly two chutes",
        "Seeds 000 and 001 ask to find the shortest game",
        "as in seed 002's GUI",
        "four bots on the seed's sample grid",
        "the seeds' board array",
        "The rules of record are `../shared/RULES.md` §2",
        "(RULES.md §1)",
    ] {
        assert!(seed_for_an_assignment(bad).is_some(), "{bad}");
    }
    for good in [
        "parlor chutes play --players 2 --seed 7   # the same seed replays the same game",
        "a fresh seed, printed; seeds 1 to 200; seed 0 for chosen dice",
        "the original assignment's sample grid, the Java and C assignments' board array",
        "the rules of record, [rules.md](rules.md) §1; a seed corpus",
    ] {
        assert_eq!(seed_for_an_assignment(good), None, "{good}");
    }
}

#[test]
fn readme_and_docs_say_the_original_assignment_not_seed() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| PathBuf::from("docs").join(p.file_name().expect("a file name")))
        .collect();
    docs.sort();
    assert!(docs.len() >= 5, "{docs:?}");
    files.extend(docs);
    // The pages say it too (their words reach users directly).
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("crates/server/web"))
        .expect("crates/server/web/")
        .map(|entry| entry.expect("a web/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html" || e == "js"))
        .map(|p| PathBuf::from("crates/server/web").join(p.file_name().expect("a file name")))
        .collect();
    pages.sort();
    assert!(pages.len() >= 5, "{pages:?}");
    files.extend(pages);
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).expect("read a doc");
        let name = file.to_str().expect("utf-8 path").replace('\\', "/");
        found.extend(seed_wording(&name, &text));
    }
    assert!(
        found.is_empty(),
        "say what users know:\n{}",
        found.join("\n")
    );
}

/// `parlor PATH --help`'s subcommands, from its "Commands:" list.
fn subcommands(path: &[&str]) -> Vec<String> {
    let help = ok(&[path, &["--help"]].concat());
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_help_says_the_original_assignment_not_seed() {
    let mut queue: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    let mut found = Vec::new();
    while let Some(path) = queue.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let help = ok(&[&args[..], &["--help"]].concat());
        let name = format!("`parlor {} --help`", args.join(" ")).replace("  ", " ");
        found.extend(seed_wording(&name, &help));
        seen += 1;
        for sub in subcommands(&args) {
            let mut next = path.clone();
            next.push(sub);
            queue.push(next);
        }
    }
    // parlor, its games and their commands: many more than a handful.
    assert!(seen > 20, "only {seen} help texts found");
    assert!(
        found.is_empty(),
        "say what users know:\n{}",
        found.join("\n")
    );
}
