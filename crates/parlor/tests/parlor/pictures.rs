//! The real `parlor` binary: `chutes render` and `chutes plot`.

// Helpers outside #[test] functions panic on purpose: a failed look-up is a
// failed test.
#![allow(clippy::unwrap_used)]

use crate::common;

use chutes::Board;
use common::*;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The files in `dir`, sorted.
fn files(dir: &tempfile::TempDir) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    (info.width, info.height)
}

fn f(node: roxmltree::Node<'_, '_>, key: &str) -> f64 {
    node.attribute(key).unwrap().parse().unwrap()
}

fn has_class(node: roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split(' ').any(|w| w == class))
}

/// Every square numbered once, at its cell in `board`'s geometry; every
/// jump drawn once, in its colour.
fn check_board_svg(svg: &str, board: &Board) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let squares: Vec<_> = doc
        .descendants()
        .filter(|n| has_class(*n, "square"))
        .collect();
    assert_eq!(squares.len(), board.size() as usize);
    fn rect<'a, 'i>(n: roxmltree::Node<'a, 'i>) -> roxmltree::Node<'a, 'i> {
        n.children().find(|c| c.has_tag_name("rect")).unwrap()
    }
    let x0 = squares
        .iter()
        .map(|n| f(rect(*n), "x"))
        .fold(f64::INFINITY, f64::min);
    let y0 = squares
        .iter()
        .map(|n| f(rect(*n), "y"))
        .fold(f64::INFINITY, f64::min);
    let mut numbers: HashMap<u32, Vec<roxmltree::Node<'_, '_>>> = HashMap::new();
    for t in doc.descendants().filter(|n| has_class(*n, "square-number")) {
        let n: u32 = t.attribute("data-square").unwrap().parse().unwrap();
        assert_eq!(t.text(), Some(n.to_string().as_str()));
        numbers.entry(n).or_default().push(t);
    }
    let geometry = board.geometry();
    for sq in &squares {
        let n: u32 = sq.attribute("data-square").unwrap().parse().unwrap();
        let cell = geometry.cell_of(n).unwrap();
        let r = rect(*sq);
        let w = f(r, "width");
        assert_eq!(
            ((f(r, "x") - x0) / w).round() as u32,
            cell.col,
            "square {n}"
        );
        assert_eq!(
            ((f(r, "y") - y0) / w).round() as u32,
            cell.row,
            "square {n}"
        );
        let texts = numbers.get(&n).map_or(0, Vec::len);
        assert_eq!(texts, 1, "square {n} is numbered {texts} times");
        let t = numbers[&n][0];
        assert!(
            f(t, "x") > f(r, "x") && f(t, "x") < f(r, "x") + w,
            "square {n}"
        );
        assert!(
            f(t, "y") > f(r, "y") && f(t, "y") < f(r, "y") + w,
            "square {n}"
        );
    }
    let jumps: Vec<_> = doc
        .descendants()
        .filter(|n| has_class(*n, "jump"))
        .collect();
    assert_eq!(jumps.len(), board.jumps().len());
    for jump in board.jumps() {
        let drawn: Vec<_> = jumps
            .iter()
            .filter(|n| {
                n.attribute("data-jump-from") == Some(jump.from.to_string().as_str())
                    && n.attribute("data-jump-to") == Some(jump.to.to_string().as_str())
            })
            .collect();
        assert_eq!(drawn.len(), 1, "{jump}");
        let kind = jump.kind().to_string();
        assert_eq!(drawn[0].attribute("data-kind"), Some(kind.as_str()));
        let colour = match jump.kind() {
            chutes::JumpKind::Ladder => render::palette::LADDER,
            chutes::JumpKind::Chute => render::palette::CHUTE,
        }
        .to_string();
        assert!(
            drawn[0]
                .descendants()
                .any(|d| d.attribute("stroke") == Some(colour.as_str())),
            "{jump} is not drawn in {colour}"
        );
    }
}

#[test]
fn the_classic_board_as_svg_and_png() {
    let dir = tmp();
    let svg = path(&dir, "board.svg");
    let said = ok(&["chutes", "render", "-o", s(&svg)]);
    assert!(
        said.starts_with(&format!("wrote {}", svg.display())),
        "{said}"
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    check_board_svg(&text, &Board::classic());
    assert!(text.contains("Chutes &amp; Ladders: classic board"));

    let png = path(&dir, "board.png");
    let said = ok(&["chutes", "render", "-o", s(&png), "--size", "640"]);
    let (w, h) = png_size(&png);
    assert_eq!(w.max(h), 640, "{said}");
    assert!(said.contains(&format!("{w} × {h}")), "{said}");
    assert_eq!(files(&dir), ["board.png", "board.svg"]);
}

#[test]
fn board_files_of_every_shape() {
    let dir = tmp();
    let boards = [
        (
            "wide.toml",
            "size = 30\nstart = 1\nrows = 5\ncolumns = 6\nladders = [[2, 29]]\nchutes = [[28, 3]]\n",
        ),
        (
            "rows.toml",
            "size = 99\nrows = 9\ncolumns = 11\nnumbering = \"row-major\"\nladders = [[10, 32]]\nchutes = [[90, 68]]\n",
        ),
        (
            "big.toml",
            "size = 400\nladders = [[5, 395]]\nchutes = [[399, 1]]\n",
        ),
    ];
    for (name, text) in boards {
        let file = path(&dir, name);
        std::fs::write(&file, text).unwrap();
        let board = chutes::parse_board(text, None, Some(name)).unwrap();
        let svg = path(&dir, &format!("{name}.svg"));
        ok(&["chutes", "render", "--board", s(&file), "-o", s(&svg)]);
        check_board_svg(&std::fs::read_to_string(&svg).unwrap(), &board);
    }
}

#[test]
fn a_game_has_a_circle_for_every_roll_that_moved() {
    let dir = tmp();
    let svg = path(&dir, "game.svg");
    let said = ok(&[
        "chutes",
        "render",
        "--players",
        "2",
        "--seed",
        "7",
        "-o",
        s(&svg),
    ]);
    assert!(said.contains("seed 7"), "{said}");
    // The same game as `play` logs.
    let log: Value = serde_json::from_str(&ok(&[
        "chutes",
        "play",
        "--players",
        "2",
        "--seed",
        "7",
        "--json",
    ]))
    .unwrap();
    let turns = log["turns"].as_array().unwrap();
    let winner = log["winner"].as_u64().unwrap();
    assert!(
        said.contains(&format!("player {winner} won after {} rolls", turns.len())),
        "{said}"
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    check_board_svg(&text, &Board::classic());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let visits: Vec<_> = doc
        .descendants()
        .filter(|n| has_class(*n, "visit"))
        .collect();
    let moved: Vec<&Value> = turns
        .iter()
        .filter(|t| t["outcome"] != "lost_turn")
        .collect();
    assert_eq!(visits.len(), moved.len());
    for (v, t) in visits.iter().zip(&moved) {
        assert_eq!(
            v.attribute("data-turn"),
            Some(t["number"].to_string().as_str())
        );
        assert_eq!(
            v.attribute("data-player"),
            Some(t["player"].to_string().as_str())
        );
        assert_eq!(
            v.attribute("data-square"),
            Some(t["landed"].to_string().as_str())
        );
        let colour = render::palette::player(t["player"].as_u64().unwrap() as usize).to_string();
        assert!(
            v.children()
                .any(|c| c.attribute("fill") == Some(colour.as_str()))
        );
    }
    let won: Vec<_> = visits
        .iter()
        .filter(|v| v.attribute("data-winner") == Some("true"))
        .collect();
    assert_eq!(won.len(), 1);
    assert_eq!(
        won[0].attribute("data-player"),
        Some(winner.to_string().as_str())
    );
}

#[test]
fn given_dice_draw_that_game() {
    let dir = tmp();
    let png = path(&dir, "short.png");
    let said = ok(&[
        "chutes",
        "render",
        "--dice",
        "1661436",
        "-o",
        s(&png),
        "--size",
        "300",
    ]);
    assert!(
        said.contains("given dice") && said.contains("finished in 7 rolls"),
        "{said}"
    );
    let (w, h) = png_size(&png);
    assert_eq!(w.max(h), 300);
    let svg = path(&dir, "short.svg");
    ok(&["chutes", "render", "--dice", "1,6,6", "-o", s(&svg)]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("3 rolls, no winner yet"),
        "dice that run out still draw"
    );
}

#[test]
fn the_heat_map_shows_the_exact_landings() {
    let dir = tmp();
    let svg = path(&dir, "heat.svg");
    ok(&["chutes", "render", "--heatmap", "-o", s(&svg)]);
    let text = std::fs::read_to_string(&svg).unwrap();
    check_board_svg(&text, &Board::classic());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let landings =
        chutes::analysis::markov::expected_landings(&Board::classic(), &chutes::Rules::default())
            .unwrap();
    let values: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("data-value").is_some())
        .collect();
    assert_eq!(values.len(), 100);
    for v in values {
        let square: usize = v.attribute("data-square").unwrap().parse().unwrap();
        let value: f64 = v.attribute("data-value").unwrap().parse().unwrap();
        assert!((value - landings[square]).abs() < 1e-12, "square {square}");
    }
    // The same picture from `plot --kind heatmap`.
    let again = path(&dir, "heat2.svg");
    ok(&["chutes", "plot", "--kind", "heatmap", "-o", s(&again)]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
}

#[test]
fn the_distribution_plot_marks_the_known_mean_and_median() {
    let dir = tmp();
    let svg = path(&dir, "dist.svg");
    let said = ok(&["chutes", "plot", "-o", s(&svg)]);
    // The classic board's mean game length is 39.2251 rolls, its median 32.
    assert!(said.contains("mean 39.2251"), "{said}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("mean 39.23") && text.contains("median 32"),
        "markers"
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let bars: Vec<u32> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-length"))
        .map(|l| l.parse().unwrap())
        .collect();
    // The shortest classic game takes 7 rolls.
    assert_eq!(bars.first(), Some(&7));
    assert!(bars.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(
        doc.descendants()
            .filter(|n| has_class(*n, "cumulative"))
            .count(),
        1
    );
    let png = path(&dir, "dist.png");
    ok(&[
        "chutes",
        "plot",
        "--rules",
        "bounce",
        "-o",
        s(&png),
        "--size",
        "500",
    ]);
    assert_eq!(png_size(&png).0, 500);
}

#[test]
fn the_histogram_is_reproducible_and_overlays_the_exact_chances() {
    let dir = tmp();
    let a = path(&dir, "a.svg");
    let b = path(&dir, "b.svg");
    let said = ok(&[
        "chutes",
        "plot",
        "--kind",
        "histogram",
        "--games",
        "20000",
        "--seed",
        "5",
        "-o",
        s(&a),
    ]);
    assert!(
        said.contains("20000 simulated games") && said.contains("seed 5"),
        "{said}"
    );
    ok(&[
        "chutes",
        "plot",
        "--kind",
        "histogram",
        "--games",
        "20000",
        "--seed",
        "5",
        "-o",
        s(&b),
    ]);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(
        text,
        std::fs::read_to_string(&b).unwrap(),
        "a seed gives the same picture"
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let counted: u64 = doc
        .descendants()
        .filter_map(|n| n.attribute("data-count"))
        .map(|c| c.parse::<u64>().unwrap())
        .sum();
    // Nearly all games are within the lengths shown (99.5% of the exact mass).
    assert!(counted > 19_800 && counted <= 20_000, "{counted}");
    let exact = doc.descendants().find(|n| has_class(*n, "exact")).unwrap();
    let first = exact.children().find(|c| c.has_tag_name("circle")).unwrap();
    assert_eq!(first.attribute("data-length"), Some("7"));
    // Several players: rolls by all, no exact overlay.
    let c = path(&dir, "c.png");
    ok(&[
        "chutes",
        "plot",
        "--kind",
        "histogram",
        "--players",
        "3",
        "--games",
        "5000",
        "--seed",
        "1",
        "-o",
        s(&c),
    ]);
    assert_eq!(png_size(&c).0, 1000);
    let err = fails(&[
        "chutes",
        "plot",
        "--kind",
        "histogram",
        "--games",
        "0",
        "-o",
        s(&c),
    ]);
    assert!(err.contains("at least 1"), "{err}");
}

#[test]
fn the_seats_plot_has_a_bar_per_seat() {
    let dir = tmp();
    let svg = path(&dir, "seats.svg");
    let said = ok(&[
        "chutes",
        "plot",
        "--kind",
        "seats",
        "--players",
        "3",
        "-o",
        s(&svg),
    ]);
    assert!(said.contains("seat 1") && said.contains("seat 3"), "{said}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let chances: Vec<f64> = doc
        .descendants()
        .filter(|n| n.attribute("data-seat").is_some())
        .map(|n| n.attribute("data-p").unwrap().parse().unwrap())
        .collect();
    assert_eq!(chances.len(), 3);
    assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(
        chances[0] > chances[1] && chances[1] > chances[2],
        "rolling first helps"
    );
    // Two players by default.
    ok(&["chutes", "plot", "--kind", "seats", "-o", s(&svg)]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("data-seat=").count(), 2);
}

#[test]
fn bad_outputs_are_refused_and_leave_nothing() {
    let dir = tmp();
    let cases: [(&[&str], &str); 6] = [
        (
            &["chutes", "render", "-o", "OUT/board.jpg"],
            "cannot write .jpg pictures (use .svg or .png)",
        ),
        (&["chutes", "render", "-o", "OUT/board"], "add .svg or .png"),
        (
            &["chutes", "render", "-o", "OUT/no/such/dir/board.png"],
            "does not exist",
        ),
        (
            &["chutes", "render", "-o", "OUT/board.png", "--size", "5"],
            "out of range (16 to 8192)",
        ),
        (
            &["chutes", "plot", "-o", "OUT/plot.gif"],
            "cannot write .gif",
        ),
        (
            &[
                "chutes",
                "plot",
                "--kind",
                "seats",
                "--players",
                "9",
                "-o",
                "OUT/seats.png",
            ],
            "2 to 8 players",
        ),
    ];
    let out = dir.path().to_str().unwrap();
    for (args, expected) in cases {
        let args: Vec<String> = args.iter().map(|a| a.replace("OUT", out)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = fails(&args);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(files(&dir).is_empty(), "{args:?} left {:?}", files(&dir));
    }
    // A directory is not a picture.
    std::fs::create_dir(path(&dir, "d.svg")).unwrap();
    let err = fails(&["chutes", "render", "-o", s(&path(&dir, "d.svg"))]);
    assert!(err.contains("is a directory"), "{err}");
}

#[test]
fn a_failed_render_keeps_the_old_file() {
    let dir = tmp();
    let target = path(&dir, "board.png");
    std::fs::write(&target, b"old").unwrap();
    let huge = path(&dir, "huge.toml");
    std::fs::write(&huge, "size = 20000\n").unwrap();
    let err = fails(&["chutes", "render", "--board", s(&huge), "-o", s(&target)]);
    assert!(err.contains("up to 10000 squares"), "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    assert_eq!(files(&dir), ["board.png", "huge.toml"]);
}

#[test]
fn arguments_that_do_not_fit_are_refused() {
    let dir = tmp();
    let out = path(&dir, "x.svg");
    let err = fails(&[
        "chutes",
        "render",
        "--heatmap",
        "--players",
        "2",
        "-o",
        s(&out),
    ]);
    assert!(
        err.contains("--heatmap") && err.contains("--players"),
        "{err}"
    );
    let err = fails(&[
        "chutes",
        "render",
        "--heatmap",
        "--seed",
        "1",
        "-o",
        s(&out),
    ]);
    assert!(err.contains("cannot be used with"), "{err}");
    let err = fails(&["chutes", "plot", "--players", "2", "-o", s(&out)]);
    assert!(err.contains("one player"), "{err}");
    let err = fails(&[
        "chutes",
        "render",
        "--players",
        "9",
        "--seed",
        "1",
        "-o",
        s(&out),
    ]);
    assert!(err.contains("1 to 8"), "{err}");
    let err = fails(&["chutes", "render", "--dice", "1,9", "-o", s(&out)]);
    assert!(err.contains("roll #2 is 9"), "{err}");
    // A board where no game can finish: every square leads back to 1.
    let dead = path(&dir, "dead.toml");
    std::fs::write(
        &dead,
        "size = 10\nchutes = [[2,1],[3,1],[4,1],[5,1],[6,1],[7,1],[8,1],[9,1]]\n",
    )
    .unwrap();
    let err = fails(&["chutes", "plot", "--board", s(&dead), "-o", s(&out)]);
    assert!(err.contains("no game ever reaches square 10"), "{err}");
    assert!(!out.exists());
    // The board itself still draws.
    ok(&["chutes", "render", "--board", s(&dead), "-o", s(&out)]);
}
