//! The designer: every edit, refusals that change nothing, undo and redo,
//! and the clipboard beside the document.

#![allow(clippy::unwrap_used)]

use tycoon::design::{Designer, Edit, EditError};
use tycoon::{CardKind, Grid, Ladder, Object, Rule, Snake, parse_grid, write_grid};

const SAMPLE: &str = include_str!("../data/sample.grid");

fn apply(d: &mut Designer, text: &str) -> Result<String, EditError> {
    d.apply(&text.parse::<Edit>().unwrap()).map(|a| a.summary)
}

/// Applies an edit that must be refused, and checks nothing changed.
fn refused(d: &mut Designer, text: &str) -> EditError {
    let before = d.clone();
    let err = apply(d, text).unwrap_err();
    assert_eq!(*d, before, "a refused edit changed something: {text}");
    err
}

#[test]
fn building_the_sample_by_edits_gives_the_sample() {
    let mut d = Designer::default();
    for e in [
        "ladder 10 32",
        "ladder 16 71",
        "ladder 46 68",
        "ladder 75 86",
        "snake 34 23",
        "snake 59 37",
        "snake 78 56",
        "snake 85 30",
        "card 1 4 50",
        "card 9 13 50 10",
        "card 8 19 50",
        "card 6 28 97",
        "card 8 36 50",
        "card 4 51",
        "card 9 54",
        "card 9 81 50 10",
        "card 1 84 50",
    ] {
        apply(&mut d, e).unwrap();
    }
    let sample = parse_grid(SAMPLE).unwrap();
    assert_eq!(*d.grid(), sample);
    assert_eq!(write_grid(d.grid()), write_grid(&sample));
}

#[test]
fn an_opened_grid_file_saves_back_byte_for_byte_until_edited() {
    let mut d = Designer::new(parse_grid(SAMPLE).unwrap()).with_source(SAMPLE);
    assert_eq!(
        d.file(),
        SAMPLE,
        "the sample's `4 51 ` keeps its trailing space"
    );
    apply(&mut d, "ladder 20 42").unwrap();
    let edited = d.file();
    assert!(edited.starts_with("5\n10 32\n16 71\n20 42\n"), "{edited}");
    assert!(
        edited.contains("\n4 51 \n"),
        "unchanged lines keep their text"
    );
    apply(&mut d, "undo").unwrap();
    assert_eq!(d.file(), SAMPLE);
    // A design not opened from a file writes the canonical form.
    assert_eq!(
        Designer::new(parse_grid(SAMPLE).unwrap()).file(),
        write_grid(d.grid())
    );
}

#[test]
fn refused_edits_change_nothing_and_say_why() {
    let mut d = Designer::new(parse_grid(SAMPLE).unwrap());
    let cases = [
        ("ladder 10 43", "cell 10 would hold both"),
        ("ladder 21 54", "overlap"),
        ("ladder 13 35", "card 9 on cell 13"),
        ("ladder 90 99", "top row"),
        ("ladder 20 30", "column"),
        ("snake 5 2", "bottom row"),
        ("snake 70 48", "snake 59→37 and snake 70→48 overlap"),
        ("snake 43 32", ""),
        ("card 4 10", "ladder 10→32"),
        ("card 4 1", "cell 1"),
        ("card 13 40", "no card 13"),
        ("card 1 40", "coins to take"),
        ("card 9 40 60 10", "disagrees"),
        ("card 10 40", "no card 10 is on the grid yet"),
        ("card 6 40 40", "its own cell"),
        ("card 6 40 100", "off the grid"),
        ("station 10 5 5", "no card 10"),
        ("station 4 5 5", "not a station"),
        ("delete 32", "end of ladder 10→32, which lives on cell 10"),
        ("delete 50", "no object lives on cell 50"),
        ("copy 50", "no object lives on cell 50"),
        ("cut 50", "no object"),
        ("paste 50", "clipboard is empty"),
        ("redo", "nothing to redo"),
        ("undo", "nothing to undo"),
    ];
    for (edit, says) in cases {
        if edit == "snake 43 32" {
            // A snake ending on a ladder's end is legal.
            continue;
        }
        let err = refused(&mut d, edit).to_string();
        assert!(err.contains(says), "{edit}: {err}");
    }
    // Rule errors keep their rule for the API.
    match refused(&mut d, "ladder 21 54") {
        EditError::Rules(e) => assert_eq!(e.problems()[0].rule, Rule::LaddersDoNotOverlap),
        other => panic!("{other:?}"),
    }
}

#[test]
fn copy_cut_paste_keep_length_and_parameters() {
    let mut d = Designer::new(parse_grid(SAMPLE).unwrap());
    // A ladder keeps its length from its new start cell.
    apply(&mut d, "copy 10").unwrap();
    assert_eq!(
        d.clipboard.object,
        Some(Object::Ladder(Ladder::new(10, 32)))
    );
    assert_eq!(apply(&mut d, "paste 14").unwrap(), "pasted ladder 14→36");
    assert_eq!(d.grid().jump_at(14), Some(36));
    // Pasting where it would leave the grid is refused.
    let err = refused(&mut d, "paste 80").to_string();
    assert!(err.contains("102") && err.contains("off the grid"), "{err}");
    // A snake keeps its length downwards; below cell 1 is refused.
    apply(&mut d, "cut 34").unwrap();
    assert_eq!(d.grid().jump_at(34), None);
    assert_eq!(apply(&mut d, "paste 40").unwrap(), "pasted snake 40→29");
    apply(&mut d, "copy 85").unwrap();
    let err = refused(&mut d, "paste 45").to_string();
    assert!(
        err.contains("snake 85→30") && err.contains("below cell 1"),
        "{err}"
    );
    // A card keeps its parameters.
    apply(&mut d, "copy 28").unwrap();
    apply(&mut d, "paste 40").unwrap_err();
    apply(&mut d, "paste 41").unwrap();
    assert_eq!(
        d.grid().card_at(41),
        Some(CardKind::GoTo { destination: 97 })
    );
    apply(&mut d, "copy 13").unwrap();
    apply(&mut d, "paste 42").unwrap();
    assert_eq!(d.grid().station_terms(9).unwrap().price, 50);
    // The clipboard keeps its object after pasting (paste again).
    apply(&mut d, "paste 43").unwrap();
    assert!(d.grid().card_at(43).is_some());
}

#[test]
fn undo_and_redo_restore_the_document_but_not_the_clipboard() {
    let mut d = Designer::default();
    apply(&mut d, "ladder 10 32").unwrap();
    apply(&mut d, "snake 34 23").unwrap();
    let two = d.grid().clone();
    apply(&mut d, "cut 10").unwrap();
    assert_eq!(d.grid().counts(), (0, 1, 0));
    apply(&mut d, "undo").unwrap();
    assert_eq!(*d.grid(), two);
    // The clipboard still holds the cut ladder.
    assert_eq!(
        d.clipboard.object,
        Some(Object::Ladder(Ladder::new(10, 32)))
    );
    apply(&mut d, "undo").unwrap();
    assert_eq!(d.grid().counts(), (1, 0, 0));
    apply(&mut d, "redo").unwrap();
    assert_eq!(*d.grid(), two);
    // A new edit clears what could be redone.
    apply(&mut d, "delete 34").unwrap();
    assert!(!d.document.can_redo());
    refused(&mut d, "redo");
    // Copy does not touch history.
    apply(&mut d, "copy 10").unwrap();
    apply(&mut d, "undo").unwrap();
    assert_eq!(*d.grid(), two);
    // Clear is undoable; clearing an empty grid changes nothing.
    apply(&mut d, "clear").unwrap();
    assert!(d.grid().is_empty());
    let again = d.apply(&Edit::Clear).unwrap();
    assert!(!again.grid_changed);
    apply(&mut d, "undo").unwrap();
    assert_eq!(*d.grid(), two);
}

#[test]
fn a_station_s_price_and_fee_are_asked_only_for_the_first_card_of_its_number() {
    use tycoon::design::card_forms;
    let mut d = Designer::default();
    let forms = card_forms(d.grid());
    assert_eq!(forms.len(), 12);
    assert_eq!(forms[8].number, 9);
    assert_eq!(forms[8].asks, ["price", "fee"]);
    assert_eq!(forms[8].terms, None);
    assert_eq!(forms[0].asks, ["coins"]);
    assert!(forms[1].asks.is_empty());
    apply(&mut d, "card 9 13 50 10").unwrap();
    let forms = card_forms(d.grid());
    assert!(forms[8].asks.is_empty(), "station 9 exists: nothing to ask");
    assert_eq!(forms[8].terms.map(|t| (t.price, t.fee)), Some((50, 10)));
    assert_eq!(forms[9].asks, ["price", "fee"], "station 10 does not");
    // What the form asks is what the edit takes.
    let added = apply(&mut d, "card 9 54").unwrap();
    assert!(added.contains("price 50, fee 10"), "{added}");
    let sample = parse_grid(SAMPLE).unwrap();
    for form in card_forms(&sample) {
        if form.terms.is_some() {
            assert_eq!(form.number, 9);
        }
    }
}

#[test]
fn station_terms_change_for_the_whole_group() {
    let mut d = Designer::new(parse_grid(SAMPLE).unwrap());
    apply(&mut d, "station 9 80 15").unwrap();
    for cell in [13, 54, 81] {
        assert_eq!(
            d.grid().card_at(cell),
            Some(CardKind::Station {
                number: 9,
                price: 80,
                fee: 15
            })
        );
    }
    // A station card added without terms takes the group's.
    apply(&mut d, "card 9 40").unwrap();
    assert_eq!(d.grid().station_terms(9).unwrap().fee, 15);
    let err = refused(&mut d, "station 9 0 15").to_string();
    assert!(err.contains("0 coins"), "{err}");
    apply(&mut d, "undo").unwrap();
    apply(&mut d, "undo").unwrap();
    assert_eq!(*d.grid(), parse_grid(SAMPLE).unwrap());
}

#[test]
fn cards_may_sit_on_ends_and_edits_serialize() {
    let mut d = Designer::default();
    apply(&mut d, "ladder 10 32").unwrap();
    apply(&mut d, "card 3 32").unwrap();
    apply(&mut d, "snake 43 32").unwrap();
    let grid: Grid = serde_json::from_str(&serde_json::to_string(d.grid()).unwrap()).unwrap();
    assert_eq!(grid, *d.grid());
    assert_eq!(grid.snakes().collect::<Vec<_>>(), vec![Snake::new(43, 32)]);
    let json = serde_json::to_string(&Edit::Card {
        number: 9,
        cell: 13,
        params: vec![50, 10],
    })
    .unwrap();
    assert_eq!(
        json,
        r#"{"edit":"card","number":9,"cell":13,"params":[50,10]}"#
    );
}
