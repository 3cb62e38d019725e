//! Every rule of the grid, on hand-built grids, and the grid file format.

#![allow(clippy::unwrap_used)]

use tycoon::file::LineProblem;
use tycoon::{
    Card, CardKind, Grid, GridSpec, Ladder, Rule, RuleError, Snake, parse_grid, write_grid,
};

const SAMPLE: &str = include_str!("../data/sample.grid");

fn spec(ladders: &[(u32, u32)], snakes: &[(u32, u32)], cards: &[(u32, u32, &[u32])]) -> GridSpec {
    GridSpec {
        ladders: ladders.iter().map(|&(a, b)| Ladder::new(a, b)).collect(),
        snakes: snakes.iter().map(|&(a, b)| Snake::new(a, b)).collect(),
        cards: cards
            .iter()
            .map(|&(n, cell, p)| Card::new(cell, CardKind::from_params(n, p).unwrap()))
            .collect(),
    }
}

/// The rules broken by a spec, in order.
fn broken(s: &GridSpec) -> Vec<Rule> {
    match Grid::new(s) {
        Ok(_) => vec![],
        Err(e) => e.violations.iter().map(|v| v.error.rule()).collect(),
    }
}

#[test]
fn the_sample_grid_is_legal() {
    let grid = parse_grid(SAMPLE).unwrap();
    assert_eq!(grid.counts(), (4, 4, 9));
    assert_eq!(grid.jump_at(10), Some(32));
    assert_eq!(grid.jump_at(85), Some(30));
    assert_eq!(grid.card_at(28), Some(CardKind::GoTo { destination: 97 }));
    assert_eq!(grid.card_at(51), Some(CardKind::LoseTurn));
    assert_eq!(
        grid.station_terms(9).map(|t| (t.price, t.fee)),
        Some((50, 10))
    );
    assert_eq!(grid.station_terms(10), None);
    assert_eq!(grid.next_ladder_after(10), Some(Ladder::new(16, 71)));
    assert_eq!(grid.next_ladder_after(75), None);
}

#[test]
fn the_grid_gives_its_ladders_and_snakes_as_jumps() {
    let grid = parse_grid(SAMPLE).unwrap();
    let jumps: Vec<(u32, u32)> = grid.jumps().collect();
    assert_eq!(
        jumps,
        vec![
            (10, 32),
            (16, 71),
            (34, 23),
            (46, 68),
            (59, 37),
            (75, 86),
            (78, 56),
            (85, 30)
        ]
    );
    assert_eq!(Grid::empty().jumps().count(), 0);
}

#[test]
fn the_sample_saves_back_the_same_lines() {
    let grid = parse_grid(SAMPLE).unwrap();
    let saved = write_grid(&grid);
    // The same lines: each line's trailing space ("4 51 ") is not kept.
    let original: Vec<&str> = SAMPLE.lines().map(str::trim_end).collect();
    let written: Vec<&str> = saved.lines().collect();
    assert_eq!(written, original);
    assert!(
        SAMPLE.contains("4 51 \n"),
        "the sample keeps its trailing space"
    );
    // Canonical text round-trips byte for byte.
    assert_eq!(write_grid(&parse_grid(&saved).unwrap()), saved);
    // CRLF and blank lines read the same.
    let crlf = SAMPLE.replace('\n', "\r\n\r\n");
    assert_eq!(parse_grid(&crlf).unwrap(), grid);
}

#[test]
fn the_json_form_round_trips_and_is_validated() {
    let grid = parse_grid(SAMPLE).unwrap();
    let json = serde_json::to_string(&grid).unwrap();
    assert!(
        json.starts_with(r#"{"ladders":[{"start":10,"end":32}"#),
        "{json}"
    );
    assert!(json.contains(r#"{"cell":13,"card":9,"price":50,"fee":10}"#));
    let back: Grid = serde_json::from_str(&json).unwrap();
    assert_eq!(back, grid);
    let err = serde_json::from_str::<Grid>(r#"{"ladders":[{"start":10,"end":20}]}"#).unwrap_err();
    assert!(err.to_string().contains("column"), "{err}");
    assert!(serde_json::from_str::<Grid>(r#"{"ladder":[]}"#).is_err());
}

#[test]
fn cells_are_on_the_grid() {
    assert_eq!(broken(&spec(&[(0, 22)], &[], &[])), vec![Rule::OnGrid]);
    assert_eq!(broken(&spec(&[(90, 101)], &[], &[])), vec![Rule::OnGrid]);
    assert_eq!(
        broken(&spec(&[], &[], &[(4, 100, &[])])),
        vec![Rule::OnGrid]
    );
    let e = Grid::new(&spec(&[(10, 120)], &[], &[])).unwrap_err();
    assert!(
        e.to_string().contains("cell 120, which is off the grid"),
        "{e}"
    );
}

#[test]
fn nothing_lives_on_cell_1_or_99() {
    assert_eq!(
        broken(&spec(&[(1, 12)], &[], &[])),
        vec![Rule::NotFirstOrLast]
    );
    assert_eq!(
        broken(&spec(&[], &[(99, 88)], &[])),
        vec![Rule::NotFirstOrLast]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(3, 1, &[])])),
        vec![Rule::NotFirstOrLast]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(3, 99, &[])])),
        vec![Rule::NotFirstOrLast]
    );
    // Ends may be on 1 and 99: objects live in their start cells.
    assert_eq!(broken(&spec(&[(88, 99)], &[(12, 1)], &[])), vec![]);
}

#[test]
fn ladders_and_snakes_stay_in_one_column() {
    assert_eq!(broken(&spec(&[(10, 33)], &[], &[])), vec![Rule::OneColumn]);
    assert_eq!(broken(&spec(&[], &[(34, 24)], &[])), vec![Rule::OneColumn]);
    let e = Grid::new(&spec(&[(11, 12)], &[], &[])).unwrap_err();
    assert!(e.to_string().contains("from column 11 to column 1"), "{e}");
}

#[test]
fn ladders_go_up_and_not_from_the_top_row() {
    assert_eq!(
        broken(&spec(&[(32, 10)], &[], &[])),
        vec![Rule::LadderGoesUp]
    );
    assert_eq!(
        broken(&spec(&[(90, 2)], &[], &[])),
        vec![Rule::LadderNotInTopRow]
    );
    assert_eq!(
        broken(&spec(&[(90, 90)], &[], &[])),
        vec![Rule::LadderNotInTopRow]
    );
    assert_eq!(
        broken(&spec(&[(20, 20)], &[], &[])),
        vec![Rule::LadderGoesUp]
    );
    // The highest start allowed: row 8 from the top of the grid.
    assert_eq!(broken(&spec(&[(88, 99)], &[], &[])), vec![]);
}

#[test]
fn snakes_go_down_and_not_from_the_bottom_row() {
    assert_eq!(
        broken(&spec(&[], &[(23, 34)], &[])),
        vec![Rule::SnakeGoesDown]
    );
    assert_eq!(
        broken(&spec(&[], &[(5, 5)], &[])),
        vec![Rule::SnakeNotInBottomRow]
    );
    assert_eq!(
        broken(&spec(&[], &[(11, 99)], &[])),
        vec![Rule::SnakeNotInBottomRow]
    );
    assert_eq!(broken(&spec(&[], &[(12, 1)], &[])), vec![]);
}

#[test]
fn one_object_per_cell_and_cards_only_on_ends() {
    // A ladder's start cannot be a card cell (either order of entry).
    assert_eq!(
        broken(&spec(&[(10, 32)], &[], &[(4, 10, &[])])),
        vec![Rule::OneObjectPerCell]
    );
    assert_eq!(
        broken(&spec(&[], &[(34, 23)], &[(4, 34, &[])])),
        vec![Rule::OneObjectPerCell]
    );
    // Two cards on one cell.
    assert_eq!(
        broken(&spec(&[], &[], &[(4, 40, &[]), (3, 40, &[])])),
        vec![Rule::OneObjectPerCell]
    );
    // A ladder and a snake starting together.
    assert_eq!(
        broken(&spec(&[(34, 45)], &[(34, 23)], &[])),
        vec![Rule::OneObjectPerCell]
    );
    // Cards on the ends of a ladder and a snake are fine.
    assert_eq!(
        broken(&spec(
            &[(10, 32)],
            &[(34, 23)],
            &[(4, 32, &[]), (3, 23, &[])]
        )),
        vec![]
    );
    let e = Grid::new(&spec(&[(10, 32)], &[], &[(4, 10, &[])])).unwrap_err();
    assert_eq!(e.violations[0].error.cells(), vec![10]);
    assert!(
        e.to_string()
            .contains("cell 10 would hold both ladder 10→32 and card 4"),
        "{e}"
    );
}

#[test]
fn ladders_never_overlap_each_other() {
    // Same column, spans share cells 21..32.
    assert_eq!(
        broken(&spec(&[(10, 32), (21, 43)], &[], &[])),
        vec![Rule::LaddersDoNotOverlap]
    );
    // One inside another.
    assert_eq!(
        broken(&spec(&[(10, 54), (21, 32)], &[], &[])),
        vec![Rule::LaddersDoNotOverlap]
    );
    // Sharing only the end cell is an overlap too.
    assert_eq!(
        broken(&spec(&[(10, 32), (21, 32)], &[], &[])),
        vec![Rule::LaddersDoNotOverlap]
    );
    // Same column, disjoint: fine. Different columns: fine.
    assert_eq!(broken(&spec(&[(10, 21), (32, 43)], &[], &[])), vec![]);
    assert_eq!(broken(&spec(&[(10, 32), (11, 33)], &[], &[])), vec![]);
    // A ladder and a snake may overlap.
    assert_eq!(broken(&spec(&[(10, 43)], &[(32, 21)], &[])), vec![]);
    let e = Grid::new(&spec(&[(10, 32), (21, 43)], &[], &[])).unwrap_err();
    assert!(
        e.to_string()
            .contains("overlap on cells 21 to 32 of column 10"),
        "{e}"
    );
    match &e.violations[0].error {
        RuleError::LaddersOverlap { first, second, .. } => {
            assert_eq!((first.start, second.start), (10, 21));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn snakes_never_overlap_each_other() {
    assert_eq!(
        broken(&spec(&[], &[(43, 21), (54, 32)], &[])),
        vec![Rule::SnakesDoNotOverlap]
    );
    assert_eq!(broken(&spec(&[], &[(34, 23), (78, 56)], &[])), vec![]);
}

#[test]
fn an_end_is_not_another_start() {
    // A ladder ending where a snake starts.
    assert_eq!(
        broken(&spec(&[(10, 32)], &[(32, 21)], &[])),
        vec![Rule::EndIsNotAStart]
    );
    // A snake ending where a ladder starts.
    assert_eq!(
        broken(&spec(&[(21, 43)], &[(32, 21)], &[])),
        vec![Rule::EndIsNotAStart]
    );
    // A ladder ending where another starts (also an overlap).
    let rules = broken(&spec(&[(10, 21), (21, 32)], &[], &[]));
    assert!(rules.contains(&Rule::EndIsNotAStart) && rules.contains(&Rule::LaddersDoNotOverlap));
    // Ladder and snake sharing an end cell is fine.
    assert_eq!(broken(&spec(&[(10, 32)], &[(43, 32)], &[])), vec![]);
}

#[test]
fn card_parameters_are_checked() {
    assert_eq!(broken(&spec(&[], &[], &[(1, 4, &[0])])), vec![Rule::Amount]);
    assert_eq!(
        broken(&spec(&[], &[], &[(8, 4, &[2_000_000])])),
        vec![Rule::Amount]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(9, 4, &[50, 0])])),
        vec![Rule::Amount]
    );
    // Card 6: 1..=99, not its own cell. 99 and 1 are allowed.
    assert_eq!(
        broken(&spec(&[], &[], &[(6, 4, &[0])])),
        vec![Rule::Destination]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(6, 4, &[100])])),
        vec![Rule::Destination]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(6, 4, &[4])])),
        vec![Rule::Destination]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(6, 4, &[99]), (6, 5, &[1])])),
        vec![]
    );
    let e = Grid::new(&spec(&[], &[], &[(6, 4, &[4])])).unwrap_err();
    assert!(e.to_string().contains("its own cell"), "{e}");
    // A station card with a number other than 9..=11 (only buildable in code).
    let bad = GridSpec {
        cards: vec![Card::new(
            5,
            CardKind::Station {
                number: 4,
                price: 1,
                fee: 1,
            },
        )],
        ..GridSpec::default()
    };
    assert_eq!(broken(&bad), vec![Rule::StationNumber]);
}

#[test]
fn a_station_with_both_amounts_out_of_range_has_two_distinct_problems() {
    let e = Grid::new(&spec(&[], &[], &[(9, 13, &[0, 0])])).unwrap_err();
    let lines: Vec<String> = e.problems().iter().map(|p| p.message.clone()).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_ne!(lines[0], lines[1]);
    assert!(
        lines[0].contains("the price of 0 coins is not allowed"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("the fee of 0 coins is not allowed"),
        "{lines:?}"
    );
    // And in a grid file, each with its line.
    let errors = file_errors("0\n0\n1\n9 13 0 0\n");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_ne!(errors[0], errors[1]);
}

#[test]
fn stations_have_one_price_per_number() {
    assert_eq!(
        broken(&spec(
            &[],
            &[],
            &[(9, 4, &[50, 10]), (9, 5, &[50, 10]), (10, 6, &[70, 5])]
        )),
        vec![]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(9, 4, &[50, 10]), (9, 5, &[60, 10])])),
        vec![Rule::OneStationPrice]
    );
    assert_eq!(
        broken(&spec(&[], &[], &[(11, 4, &[50, 10]), (11, 5, &[50, 11])])),
        vec![Rule::OneStationPrice]
    );
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let s = spec(
        &[(10, 33), (1, 12)],
        &[(5, 2)],
        &[(6, 40, &[40]), (1, 7, &[0])],
    );
    assert_eq!(
        broken(&s),
        vec![
            Rule::OneColumn,
            Rule::NotFirstOrLast,
            Rule::SnakeNotInBottomRow,
            Rule::Destination,
            Rule::Amount
        ]
    );
    let problems = Grid::new(&s).unwrap_err().problems();
    assert_eq!(problems[0].rule, Rule::OneColumn);
    assert_eq!(problems[0].cells, vec![10, 33]);
}

fn file_errors(text: &str) -> Vec<String> {
    parse_grid(text)
        .unwrap_err()
        .errors
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn malformed_files_name_the_line_and_what_was_expected() {
    // Missing counts / empty file.
    let e = file_errors("");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].contains("line 1") && e[0].contains("the number of ladders"),
        "{e:?}"
    );
    // Too few lines.
    let e = file_errors("2\n10 32\n");
    assert!(
        e[0].contains("line 3") && e[0].contains("ladder 2 of 2"),
        "{e:?}"
    );
    assert!(e[0].contains("too few lines"), "{e:?}");
    let e = file_errors("0\n0\n");
    assert!(e[0].contains("the number of cards"), "{e:?}");
    // Extra and missing tokens.
    let e = file_errors("1\n10 32 54\n0\n0\n");
    assert!(
        e[0].starts_with("line 2, column 7") && e[0].contains("found 3 numbers"),
        "{e:?}"
    );
    let e = file_errors("1\n10\n0\n0\n");
    assert!(
        e[0].starts_with("line 2") && e[0].contains("found 1 number"),
        "{e:?}"
    );
    let e = file_errors("0\n0\n1\n9 13 50\n");
    assert!(
        e[0].starts_with("line 4") && e[0].contains("9 <cell> <price> <fee>"),
        "{e:?}"
    );
    let e = file_errors("0\n0\n1\n4 13 5\n");
    assert!(e[0].contains("card 4 takes no parameters"), "{e:?}");
    // Not numbers.
    let e = file_errors("x\n");
    assert!(
        e[0].starts_with("line 1, column 1") && e[0].contains("'x'"),
        "{e:?}"
    );
    let e = file_errors("1\n10 3x\n0\n0\n");
    assert!(
        e[0].starts_with("line 2, column 4") && e[0].contains("not a number"),
        "{e:?}"
    );
    let e = file_errors("1\n10 -32\n0\n0\n");
    assert!(e[0].contains("'-32'"), "{e:?}");
    let e = file_errors("1\n10 99999999999\n0\n0\n");
    assert!(e[0].contains("far too large"), "{e:?}");
    // Count line with two numbers, or absurd count.
    let e = file_errors("1 2\n");
    assert!(e[0].contains("only the number of ladders"), "{e:?}");
    let e = file_errors("500\n");
    assert!(e[0].contains("more than a grid"), "{e:?}");
    // Unknown card number.
    let e = file_errors("0\n0\n1\n13 40\n");
    assert!(
        e[0].starts_with("line 4, column 1") && e[0].contains("no card 13"),
        "{e:?}"
    );
    // Text after the last card.
    let e = file_errors("0\n0\n1\n4 40\n4 41\n");
    assert!(
        e[0].starts_with("line 5") && e[0].contains("after the 1 card"),
        "{e:?}"
    );
}

#[test]
fn rule_errors_in_files_point_at_their_lines() {
    // Cells out of range, a broken rule, station prices that disagree.
    let text = "2\n10 32\n21 120\n1\n5 2\n3\n9 13 50 10\n4 32\n9 54 60 10\n";
    let err = parse_grid(text).unwrap_err();
    let lines: Vec<usize> = err.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![3, 5, 9], "{err}");
    assert!(matches!(
        err.errors[0].problem,
        LineProblem::Rule(RuleError::OffGrid { cell: 120, .. })
    ));
    let text = err.to_string();
    assert!(text.starts_with("3 problems"), "{text}");
    assert!(text.contains("line 9: card 9 on cell 54 (price 60, fee 10) disagrees with card 9 on cell 13 (price 50, fee 10)"), "{text}");
    // Syntax errors and rule errors together, every one reported.
    let err = parse_grid("2\n10 x\n1 12\n0\n0\n").unwrap_err();
    assert_eq!(err.errors.len(), 2, "{err}");
    assert_eq!((err.errors[0].line, err.errors[1].line), (2, 3));
    // A card on a ladder's start names both.
    let err = parse_grid("1\n10 32\n0\n1\n4 10\n").unwrap_err();
    assert_eq!(err.errors[0].line, 5);
    assert!(
        err.to_string()
            .contains("ladder 10→32 and card 4 on cell 10"),
        "{err}"
    );
}

#[test]
fn saving_is_atomic_and_reloads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.grid");
    let grid = parse_grid(SAMPLE).unwrap();
    tycoon::save_grid(&grid, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(parse_grid(&text).unwrap(), grid);
    let missing = dir.path().join("no/such/g.grid");
    assert!(tycoon::save_grid(&grid, &missing).is_err());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
