//! Board files on disk, good and malformed, in every format.

use chutes::formats::{Format, Pos, detect, parse_board};
use chutes::{Board, Jump};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load(name: &str) -> Result<Board, chutes::ParseError> {
    parse_board(&data(name), None, Some(name))
}

#[test]
fn every_classic_file_is_the_classic_board() {
    let classic = Board::classic();
    for name in ["classic.toml", "seed000.java.txt", "seed001.c.txt"] {
        let board = load(name).unwrap();
        assert_eq!(board.jumps(), classic.jumps(), "{name}");
        assert_eq!(board.size(), 100, "{name}");
        assert_eq!(board.start(), 0, "{name}");
        assert_eq!(board.geometry(), classic.geometry(), "{name}");
    }
}

#[test]
fn leetcode_examples_load_with_start_on_square_1() {
    let one = load("leetcode-example-1.json").unwrap();
    assert_eq!(one.size(), 36);
    assert_eq!(one.start(), 1);
    assert_eq!(
        one.jumps(),
        &[Jump::new(2, 15), Jump::new(14, 35), Jump::new(17, 13)]
    );
    let two = load("leetcode-example-2.json").unwrap();
    assert_eq!(two.jumps(), &[Jump::new(2, 3)]);
}

#[test]
fn formats_are_detected_by_content_without_extensions() {
    assert_eq!(detect(&data("classic.toml"), None), Format::Toml);
    assert_eq!(detect(&data("seed000.java.txt"), None), Format::Array);
    assert_eq!(
        detect(&data("leetcode-example-1.json"), None),
        Format::Leetcode
    );
}

#[test]
fn forcing_the_wrong_format_gives_a_clear_error() {
    let err = parse_board(&data("classic.toml"), Some(Format::Array), None).unwrap_err();
    // The text after the first `=` is read as the array: `"classic"`.
    assert_eq!(err.pos, Some(Pos { line: 2, col: 8 }));
    assert!(
        err.to_string().contains("expected a number, found '\"'"),
        "{err}"
    );
    assert!(err.to_string().contains("board array"), "{err}");
}

#[test]
fn malformed_files_name_the_line_column_and_rule() {
    let cases = [
        ("bad-duplicate.toml", 3, 20, "square 5 starts two jumps"),
        ("bad-count.json", 2, 2, "row 2 has 2 numbers"),
        ("bad-range.txt", 2, 4, "square 4 holds 12"),
        ("bad-number.txt", 1, 13, "expected a number, found 'zero'"),
    ];
    for (name, line, col, message) in cases {
        let err = load(name).unwrap_err();
        assert_eq!(err.pos, Some(Pos { line, col }), "{name}: {err}");
        assert!(err.message.contains(message), "{name}: {err}");
    }
}

#[test]
fn the_min_throws_assignment_board_reads_in_its_own_form() {
    let text = data("min-throws-assignment.txt");
    assert_eq!(
        detect(&text, Some("min-throws-assignment.txt")),
        Format::Moves
    );
    let board = load("min-throws-assignment.txt").unwrap();
    assert_eq!((board.size(), board.start()), (29, 0));
    assert_eq!(
        board.jumps(),
        &[
            Jump::new(1, 7),
            Jump::new(5, 21),
            Jump::new(10, 12),
            Jump::new(14, 9),
            Jump::new(19, 2),
            Jump::new(20, 15),
            Jump::new(21, 4),
            Jump::new(26, 0),
        ]
    );
    let err = parse_board("30\n-1 7\n", Some(Format::Moves), None).unwrap_err();
    assert_eq!(err.pos, Some(Pos { line: 1, col: 1 }));
    assert!(
        err.to_string().contains("needs 30 entries, but 2 follow"),
        "{err}"
    );
}
