//! The Tycoon page, used as people would use it: the designer, games at
//! one screen and between devices, on every screen size, by mouse and by
//! keyboard.
//!
//! Terms:
//! - **idle**: the page has shown every move it was told of (its tokens
//!   have walked, its tables follow the match): `body[data-idle=true]`,
//!   with the match's move number in `body[data-moves]`.
//! - **answer**: a button of the decision awaited (`#decision button`),
//!   with its move's text in `data-move` (`roll`, `buy`, `attack ice 2`) or,
//!   for an attack's kind, `data-attack`.

use crate::Browser;
use crate::checks::{VIEWPORTS, Viewport, assert_page_fits, drawn_size, set_viewport};
use crate::pages::{svg_text, wait_for_count};
use crate::webdriver::keys::{ARROW_LEFT, ARROW_RIGHT, CONTROL, ENTER, ESCAPE, NULL, TAB};
use serde_json::{Value, json};
use std::time::Duration;

/// A cell of the Tycoon grid being designed: the picture's `<g class="cell">`.
fn grid_cell(cell: u32) -> String {
    format!("#grid svg g.cell[data-cell='{cell}']")
}

/// A ladder from `start` to `end` on the grid being designed.
fn grid_ladder(start: u32, end: u32) -> String {
    format!("#grid svg g.ladder[data-start='{start}'][data-end='{end}']")
}

/// Clicks one of the palette's kinds, brought to the middle of the window
/// first (the panels beside the grid change height as the grid is edited).
fn choose_kind(b: &Browser, css: &str) {
    b.script(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'center'});",
        vec![json!(css)],
    );
    b.click_css(css);
}

fn ready(b: &Browser) {
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
}

/// The value of the input or select `css` selects.
fn value(b: &Browser, css: &str) -> String {
    b.script(
        "const e = document.querySelector(arguments[0]); return e ? e.value : null;",
        vec![json!(css)],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Writes `text` to a file called `name` in a fresh folder and gives its
/// path (the folder lives as long as the returned guard).
fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("a temporary file");
    (dir, path.display().to_string())
}

/// Opens a grid file in the designer through its upload field.
fn upload(b: &Browser, name: &str, text: &str) {
    let (_dir, path) = temp_file(name, text.as_bytes());
    b.send_keys(&b.find("#upload"), &path);
    b.wait_for_text("#file-done", &format!("Loaded “{name}”"));
}

/// The match's move number as the page last showed it, once idle.
fn idle_moves(b: &Browser) -> u64 {
    b.wait_for("the page to show every move", || {
        (b.attr_css("body", "data-idle").as_deref() == Some("true")).then_some(())
    });
    b.attr_css("body", "data-moves")
        .and_then(|m| m.parse().ok())
        .unwrap_or(0)
}

/// The match's move number as the server has it.
fn server_moves(b: &Browser) -> u64 {
    let id = b
        .attr_css("body", "data-match")
        .expect("a match on the page");
    let answer = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0]).then((r) => r.json()).then((v) => done(v.moves), (e) => done(String(e)));",
        vec![json!(id)],
    );
    answer
        .as_u64()
        .unwrap_or_else(|| panic!("the match's moves: {answer}"))
}

/// The buttons of the decision awaited, as `data-move` (or `kind:ATTACK`).
fn answers(b: &Browser) -> Vec<String> {
    let found = b.script(
        "return [...document.querySelectorAll('#decision button')].map((e) => \
           e.dataset.move || (e.dataset.attack ? 'kind:' + e.dataset.attack : 'back'));",
        vec![],
    );
    found
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until the page offers answers, and gives them.
fn wait_answers(b: &Browser) -> Vec<String> {
    b.wait_for("answers to choose from", || {
        idle_moves(b);
        let a = answers(b);
        (!a.is_empty()).then_some(a)
    })
}

/// Double-clicks the answer `data-move == mv` and checks that exactly one
/// move was played, on the page and on the server (a second click on the
/// next person's button would have played two).
fn double_click_answer(b: &Browser, css: &str) {
    let before = idle_moves(b);
    b.double_click(&b.find(css));
    b.wait_for("the move to be shown", || {
        (idle_moves(b) > before).then_some(())
    });
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(
        idle_moves(b),
        before + 1,
        "one move for a double click on {css}"
    );
    assert_eq!(
        server_moves(b),
        before + 1,
        "one move on the server for {css}"
    );
}

/// Starts a game on the new-game form with `seats` (one plan per seat).
fn start_game(b: &Browser, grid: &str, seats: [&str; 4], seed: Option<u64>, cap: Option<u32>) {
    if b.find_all("#setup:not([hidden])").is_empty() {
        b.click_css("#new-game");
    }
    crate::open_custom(b);
    b.wait_for("the grid choices", || {
        (!b.find_all(&format!("#play-grid option[value='{grid}']"))
            .is_empty())
        .then_some(())
    });
    b.select("#play-grid", grid);
    for (i, plan) in seats.iter().enumerate() {
        b.select(&format!("#tycoon-seat-{}", i + 1), plan);
    }
    if (seed.is_some() || cap.is_some())
        && b.attr_css("#more-toggle", "aria-expanded").as_deref() != Some("true")
    {
        b.click_css("#more-toggle");
    }
    b.fill(
        "#play-seed",
        &seed.map(|s| s.to_string()).unwrap_or_default(),
    );
    b.fill("#turn-cap", &cap.map(|c| c.to_string()).unwrap_or_default());
    let before = b.attr_css("body", "data-match").unwrap_or_default();
    b.click_css("#start-game");
    b.wait_for("the game's page", || {
        let id = b.attr_css("body", "data-match")?;
        (id != before && id != "gone").then_some(())
    });
    let path = b.script("return location.pathname;", vec![]);
    assert!(
        path.as_str().unwrap_or_default().starts_with("/tycoon/m/"),
        "the address names the game: {path}"
    );
}

/// Answers the confirmation dialog: `yes` confirms, otherwise cancels.
fn answer_dialog(b: &Browser, yes: bool) -> String {
    b.find("dialog.confirm-dialog[open]");
    let question = b.text_css("dialog.confirm-dialog");
    b.click_css(if yes {
        "dialog.confirm-dialog button.confirm"
    } else {
        "dialog.confirm-dialog button.cancel"
    });
    b.wait_for("the question to go", || {
        b.find_all("dialog.confirm-dialog").is_empty().then_some(())
    });
    question
}

/// The grid picture's box in the window: (top, bottom, width).
fn grid_box(b: &Browser, css: &str) -> (f64, f64, f64) {
    let r = b.script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.top, r.bottom, r.width];",
        vec![json!(css)],
    );
    (
        r[0].as_f64().unwrap_or(0.0),
        r[1].as_f64().unwrap_or(0.0),
        r[2].as_f64().unwrap_or(0.0),
    )
}

/// Checks the page at every size, and the grid drawn at a usable size: at
/// least 90% of a phone's width; wholly in the window at 1280 × 720.
fn fits_everywhere(b: &Browser, what: &str, grid: &str) {
    for size in VIEWPORTS {
        set_viewport(b, size);
        b.script("window.scrollTo(0, 0);", vec![]);
        std::thread::sleep(Duration::from_millis(150));
        assert_page_fits(b, what, size);
        let (width, height) = drawn_size(b, grid);
        assert!(height > 100.0, "{what}: the grid is drawn at {size:?}");
        if size.is_phone() {
            assert!(
                width >= 0.9 * f64::from(size.width),
                "{what}: the grid is {width} px wide on a {} px phone",
                size.width
            );
        }
        if size.name == "laptop" {
            b.script("window.scrollTo(0, 0);", vec![]);
            let (top, bottom, _) = grid_box(b, grid);
            assert!(
                top >= 0.0 && bottom <= f64::from(size.height),
                "{what}: the whole grid is in the 1280×720 window ({top}–{bottom})"
            );
        }
    }
    set_viewport(
        b,
        Viewport {
            name: "window",
            width: 1280,
            height: 900,
        },
    );
}

/// A phone's view of the page from `css` down, as `NAME.png`.
fn phone_shot(b: &Browser, name: &str, css: &str) {
    set_viewport(b, VIEWPORTS[0]);
    b.script(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'start'});",
        vec![json!(css)],
    );
    std::thread::sleep(Duration::from_millis(300));
    b.screenshot_as_is(name);
    set_viewport(
        b,
        Viewport {
            name: "window",
            width: 1280,
            height: 900,
        },
    );
}

#[test]
fn a_tycoon_grid_is_designed_saved_and_reloaded() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon");
    ready(&b);
    // The grid is render's picture: 99 cells, found by data-cell, in rows
    // of a labelled grid.
    wait_for_count(&b, "#grid svg g.cell[data-cell][data-row][data-col]", 99);
    assert_eq!(
        b.find_all("#grid svg g[role='grid'] > g[role='row'] > g.cell[role='gridcell']")
            .len(),
        99,
        "every cell is a grid cell, in rows"
    );
    assert!(
        b.attr_css("#grid svg g[role='grid']", "aria-label")
            .is_some_and(|l| l.contains("Cells 1 to 99")),
        "the grid is labelled"
    );
    assert_eq!(
        b.attr_css(&grid_cell(1), "data-row").as_deref(),
        Some("8"),
        "cell 1 is at the bottom left"
    );
    fits_everywhere(&b, "the designer", "#grid svg");

    // Add a ladder by clicking its start and end cells, then Add.
    choose_kind(&b, "#palette [data-kind=ladder]");
    b.click_css(&grid_cell(10));
    wait_for_count(&b, "#grid svg g.cell.selected[data-cell='10']", 1);
    b.click_css(&grid_cell(32));
    wait_for_count(&b, "#grid svg g.cell.selected", 1);
    assert_eq!(
        (value(&b, "#start"), value(&b, "#end")),
        ("10".into(), "32".into())
    );
    b.click_css("#add");
    b.wait_for_text("#done", "Added ladder 10→32");
    wait_for_count(&b, &grid_ladder(10, 32), 1);
    let tip = svg_text(&b, &format!("{} > title", grid_cell(10)));
    assert!(tip.contains("ladder to 32"), "{tip}");

    // A refused edit shows its reason and changes nothing; the next action
    // takes the refusal away (it used to stay up).
    choose_kind(&b, "#palette [data-kind=snake]");
    b.fill("#start", "5");
    b.fill("#end", "1");
    b.click_css("#add");
    let refusal = b.wait_for_text("#refusal", "Refused");
    assert!(refusal.contains("bottom row"), "{refusal}");
    assert!(b.find_all("#grid svg g.snake").is_empty());
    b.click_css(&grid_cell(40));
    b.wait_for("the refusal to go", || {
        b.text_css("#refusal").is_empty().then_some(())
    });

    // A card with its parameters: its badge is on its cell.
    choose_kind(&b, "#palette [data-kind=card]");
    b.select("#card-number", "9");
    b.fill("#card-cell", "13");
    b.fill("#param-price", "50");
    b.fill("#param-fee", "10");
    b.click_css("#add");
    b.wait_for_text("#done", "Added card 9 on cell 13");
    wait_for_count(&b, "#grid svg g.cell[data-cell='13'][data-card='9']", 1);
    wait_for_count(&b, "#grid svg g.card[data-cell='13'][data-card='9']", 1);
    // A second card 9: as the assignment says, its price and fee are not
    // asked again; the page shows the group's terms and the card takes them.
    b.wait_for_text("#card-terms", "price 50 and fee 10");
    assert!(b.find_all("#param-price, #param-fee").is_empty());
    b.fill("#card-cell", "54");
    b.click_css("#add");
    b.wait_for_text("#done", "Added card 9 on cell 54");
    wait_for_count(&b, "#grid svg g.card[data-cell='54'][data-card='9']", 1);
    b.click_css("#undo");
    wait_for_count(&b, "#grid svg g.card[data-card='9']", 1);

    // Copy the ladder, paste it on cell 20 (it keeps its length: 20→42).
    b.click_css(&grid_cell(10));
    b.click_css("#copy");
    b.wait_for_text("#clipboard", "ladder 10→32");
    b.click_css(&grid_cell(20));
    b.click_css("#paste");
    b.wait_for_text("#done", "20→42");
    wait_for_count(&b, &grid_ladder(20, 42), 1);
    wait_for_count(&b, "#grid svg g.cell.selected[data-cell='20']", 1);
    wait_for_count(&b, "#grid svg .selection-ring", 1);

    // Delete the first ladder, then undo that.
    b.click_css(&grid_cell(10));
    b.click_css("#delete");
    wait_for_count(&b, &grid_ladder(10, 32), 0);
    b.click_css("#undo");
    wait_for_count(&b, &grid_ladder(10, 32), 1);
    assert_eq!(b.find_all("#objects li").len(), 3);

    // The keyboard: from cell 10, → reaches 11; ← goes back to 10, where
    // Ctrl+X cuts the ladder; Ctrl+Z undoes that.
    let ten = b.find(&grid_cell(10));
    b.send_keys(&ten, ARROW_RIGHT);
    b.wait_for("cell 11 to take the focus", || {
        let focused = b.script(
            "return document.activeElement.getAttribute('data-cell');",
            vec![],
        );
        (focused.as_str() == Some("11")).then_some(())
    });
    wait_for_count(&b, "#grid svg .focus-ring", 1);
    b.send_keys(
        &b.find(&grid_cell(11)),
        &format!("{ARROW_LEFT}{CONTROL}x{NULL}"),
    );
    b.wait_for_text("#done", "Cut ladder 10→32");
    wait_for_count(&b, &grid_ladder(10, 32), 0);
    b.send_keys(&b.find(&grid_cell(10)), &format!("{CONTROL}z{NULL}"));
    b.wait_for_text("#done", "Undid");
    wait_for_count(&b, &grid_ladder(10, 32), 1);

    // Save it under a name in another script: names may use any letters.
    b.fill("#save-name", "Сетка Πλέγμα");
    b.click_css("#save");
    b.wait_for_text("#file-done", "Saved as “Сетка Πλέγμα”");
    b.wait_for("the saved list to hold it", || {
        (value(&b, "#saved") == "Сетка Πλέγμα").then_some(())
    });
    fits_everywhere(&b, "the designer with a saved grid", "#grid svg");
    b.click_css(&grid_cell(20));
    b.screenshot("tycoon-design");
    phone_shot(&b, "tycoon-design-phone", "#grid");

    // Saving again under that name asks first: Keep changes nothing,
    // Replace replaces.
    b.click_css(&grid_cell(30));
    choose_kind(&b, "#palette [data-kind=snake]");
    b.fill("#start", "60");
    b.fill("#end", "38");
    b.click_css("#add");
    b.wait_for_text("#done", "Added snake 60→38");
    b.click_css("#save");
    let question = answer_dialog(&b, false);
    assert!(question.contains("saved already"), "{question}");
    b.wait_for_text("#file-done", "Not saved");
    let saved = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/tycoon/grids/' + encodeURIComponent('Сетка Πλέγμα')).then((r) => r.text()).then(done);",
        vec![],
    );
    assert!(
        !saved.as_str().unwrap_or_default().contains("60 38"),
        "{saved}"
    );
    b.click_css("#save");
    answer_dialog(&b, true);
    b.wait_for_text("#file-done", "Saved as “Сетка Πλέγμα”");
    let saved = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/tycoon/grids/' + encodeURIComponent('Сетка Πλέγμα')).then((r) => r.text()).then(done);",
        vec![],
    );
    assert!(
        saved.as_str().unwrap_or_default().contains("60 38"),
        "{saved}"
    );

    // New grid is undoable, and says so.
    b.click_css("#clear");
    b.wait_for_text("#done", "Undo brings the old grid back");
    wait_for_count(&b, "#grid svg g.ladder", 0);
    b.click_css("#undo");
    wait_for_count(&b, "#grid svg g.ladder", 2);
    b.click_css("#clear");
    b.wait_for(" an empty grid", || {
        (b.text_css("#objects") == "nothing yet").then_some(())
    });

    // Loading over unsaved changes asks first: Keep designing keeps them.
    choose_kind(&b, "#palette [data-kind=ladder]");
    b.fill("#start", "3");
    b.fill("#end", "25");
    b.click_css("#add");
    b.wait_for_text("#done", "Added ladder 3→25");
    b.select("#saved", "Сетка Πλέγμα");
    b.click_css("#load");
    let question = answer_dialog(&b, false);
    assert!(question.contains("not saved"), "{question}");
    b.wait_for_text("#file-done", "Nothing loaded");
    wait_for_count(&b, &grid_ladder(3, 25), 1);
    b.click_css("#load");
    answer_dialog(&b, true);
    b.wait_for_text("#file-done", "Loaded “Сетка Πλέγμα”");
    let objects = b.text_css("#objects");
    for wanted in [
        "ladder 10→32",
        "ladder 20→42",
        "snake 60→38",
        "card 9 on cell 13 (price 50, fee 10)",
    ] {
        assert!(objects.contains(wanted), "{wanted} in {objects}");
    }
    wait_for_count(&b, "#grid svg g.ladder", 2);

    // Uploading over unsaved changes asks first too.
    choose_kind(&b, "#palette [data-kind=ladder]");
    b.fill("#start", "3");
    b.fill("#end", "25");
    b.click_css("#add");
    b.wait_for_text("#done", "Added ladder 3→25");
    let (_dir, path) = temp_file("tiny.grid", b"1\n2 24\n0\n0\n");
    b.send_keys(&b.find("#upload"), &path);
    answer_dialog(&b, false);
    b.wait_for_text("#file-done", "Nothing opened");
    wait_for_count(&b, &grid_ladder(3, 25), 1);
    b.send_keys(&b.find("#upload"), &path);
    answer_dialog(&b, true);
    b.wait_for_text("#file-done", "Loaded “tiny.grid”");
    wait_for_count(&b, &grid_ladder(2, 24), 1);

    // A binary file is said not to be a grid file, in a line that fits
    // (it used to print its junk, overflowing the panel).
    let junk: Vec<u8> = (0..3000u32).map(|i| (i * 37 % 256) as u8).collect();
    let (_bin, bin) = temp_file("picture.png", &junk);
    b.send_keys(&b.find("#upload"), &bin);
    let said = b.wait_for_text("#file-error", "not a grid file");
    assert!(said.len() < 300, "{said}");
    fits_everywhere(&b, "the designer after a binary upload", "#grid svg");
    wait_for_count(&b, &grid_ladder(2, 24), 1);

    // A reload brings the grid being designed back.
    b.visit("/tycoon");
    ready(&b);
    wait_for_count(&b, &grid_ladder(2, 24), 1);

    // The saved list follows saves made elsewhere (another tab, another
    // device) when it is looked at again.
    b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/tycoon/designs', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'})\
           .then((r) => r.json())\
           .then((d) => fetch('/api/tycoon/designs/' + d.id + '/save', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'from another tab'})}))\
           .then(() => done(true));",
        vec![],
    );
    assert!(
        b.find_all("#saved option[value='from another tab']")
            .is_empty()
    );
    b.click_css("#saved");
    wait_for_count(&b, "#saved option[value='from another tab']", 1);
    b.press(ESCAPE);

    // Deleting a saved grid asks first.
    b.select("#saved", "from another tab");
    b.click_css("#delete-saved");
    answer_dialog(&b, true);
    b.wait_for_text("#file-done", "Deleted “from another tab”");
    wait_for_count(&b, "#saved option[value='from another tab']", 0);

    // A bad name is refused with its reason.
    b.fill("#save-name", "../escape");
    b.click_css("#save");
    b.wait_for_text("#file-error", "Not saved");
}

/// A card's parameter boxes and what to type in them.
type Params = &'static [(&'static str, &'static str)];

/// Issue 13: once a parameter box had had the focus, a click on a cell
/// wrote the cell's number into it ("Added card 8 on cell 19 (fee 36)"
/// after clicking cell 36); after switching card type, clicks never reached
/// Cell. Every card type, its boxes focused and filled first, then a click.
/// A Tycoon page opened on the player's turn (a reload, a rematch, an
/// invite) says "Your turn" in its title, as one that saw the turn come.
#[test]
fn a_tycoon_page_opened_on_your_turn_says_so_in_its_title() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon#play");
    ready(&b);
    start_game(
        &b,
        "sample",
        ["here", "easy", "easy", "easy"],
        Some(3),
        None,
    );
    assert_eq!(wait_answers(&b), ["roll"]);
    let path = b.script("return location.pathname;", vec![]);
    b.visit(path.as_str().unwrap());
    assert_eq!(wait_answers(&b), ["roll"], "still the player's turn");
    b.wait_for("the title to say so", || {
        let title = b.script("return document.title;", vec![]);
        title.as_str()?.starts_with("Your turn").then_some(())
    });
}

/// A newcomer's first game is on a grid with ladders, snakes and cards (the
/// sample), not on the empty grid a fresh designer holds; once they design
/// something, a new game is on their grid.
#[test]
fn a_first_tycoon_game_is_on_the_sample_grid() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon#play");
    b.wait_for("the sample chosen", || {
        (value(&b, "#play-grid") == "sample").then_some(())
    });
    wait_for_count(&b, "#play-board svg g.ladder", 4);
    wait_for_count(&b, "#play-board svg g.snake", 4);
    assert!(
        !b.find_all("#play-board svg g.cell[data-card]").is_empty(),
        "the sample's cards are drawn"
    );
    b.visit("/tycoon");
    ready(&b);
    wait_for_count(&b, "#grid svg g.cell", 99);
    choose_kind(&b, "#palette [data-kind=ladder]");
    b.click_css(&grid_cell(10));
    b.click_css(&grid_cell(32));
    b.click_css("#add");
    wait_for_count(&b, &grid_ladder(10, 32), 1);
    b.click_css("#tab-play");
    b.wait_for("the design chosen", || {
        (value(&b, "#play-grid") == "design").then_some(())
    });
}

#[test]
fn the_designer_puts_each_card_type_on_the_cell_clicked() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon");
    ready(&b);
    wait_for_count(&b, "#grid svg g.cell", 99);
    choose_kind(&b, "#palette [data-kind=card]");
    // (card, its parameters' boxes and values, the cell clicked)
    let cases: [(u32, Params, u32); 12] = [
        (8, &[("fee", "36")], 19),
        (1, &[("coins", "50")], 4),
        (6, &[("destination", "97")], 28),
        (9, &[("price", "50"), ("fee", "10")], 13),
        (2, &[], 22),
        (3, &[], 23),
        (4, &[], 24),
        (5, &[], 25),
        (7, &[], 26),
        (10, &[("price", "60"), ("fee", "12")], 35),
        (11, &[("price", "70"), ("fee", "14")], 36),
        (12, &[], 37),
    ];
    for (card, params, cell) in cases {
        b.select("#card-number", &card.to_string());
        for (param, v) in params {
            let css = format!("#param-{param}");
            b.click_css(&css);
            b.fill(&css, v);
        }
        // The last box touched still has the focus when the cell is clicked.
        b.click_css(&grid_cell(cell));
        assert_eq!(value(&b, "#card-cell"), cell.to_string(), "card {card}");
        for (param, v) in params {
            assert_eq!(
                value(&b, &format!("#param-{param}")),
                *v,
                "card {card}: the click left {param} alone"
            );
        }
        b.click_css("#add");
        b.wait_for_text("#done", &format!("Added card {card} on cell {cell}"));
        wait_for_count(
            &b,
            &format!("#grid svg g.cell[data-cell='{cell}'][data-card='{card}']"),
            1,
        );
    }
    let objects = b.text_css("#objects");
    assert!(objects.contains("card 8 on cell 19 (fee 36)"), "{objects}");
    assert!(
        objects.contains("card 6 on cell 28 (to 97)") || objects.contains("card 6 on cell 28"),
        "{objects}"
    );

    // Ladders and snakes: a click fills the start, the next the end; a
    // click after focusing End fills the end.
    choose_kind(&b, "#palette [data-kind=ladder]");
    b.click_css(&grid_cell(41));
    b.click_css(&grid_cell(74));
    assert_eq!(
        (value(&b, "#start"), value(&b, "#end")),
        ("41".into(), "74".into())
    );
    b.click_css("#end");
    b.click_css(&grid_cell(85));
    assert_eq!(
        (value(&b, "#start"), value(&b, "#end")),
        ("41".into(), "85".into())
    );
    b.click_css("#add");
    b.wait_for_text("#done", "Added ladder 41→85");
    choose_kind(&b, "#palette [data-kind=snake]");
    b.click_css(&grid_cell(90));
    b.click_css(&grid_cell(46));
    b.click_css("#add");
    b.wait_for_text("#done", "Added snake 90→46");
    b.screenshot("tycoon-design-cards");
}

/// A game played to the end by four bots on the server: the page shows the
/// end (the winner's own turns and all turns apart), the replay and the
/// record; an unknown game says so and offers a new one; every state fits
/// every screen; Back and Forward move between the new game and the game.
/// The cards' captions and the picture's legend as the screen shows them:
/// how many read under 12 CSS px (shown, their font size times the
/// picture's scale), and how many give way (not shown).
fn small_card_words(b: &Browser) -> (u64, u64) {
    let counts = b.script(
        "const texts = [...document.querySelectorAll('#play-board svg g.card > text:last-of-type, #play-board svg g.legend text')]; \
         let small = 0, hidden = 0; \
         for (const t of texts) { \
           if (t.getClientRects().length === 0) { hidden += 1; continue; } \
           const px = Number(t.getAttribute('font-size')) * t.getScreenCTM().a; \
           if (px < 12) small += 1; \
         } \
         return [small, hidden];",
        vec![],
    );
    (
        counts[0].as_u64().unwrap_or(u64::MAX),
        counts[1].as_u64().unwrap_or(0),
    )
}

/// On a phone the cards' captions and the picture's legend would read
/// under 12 px: they give way, the card's coloured number stays as its
/// icon, the legend is a list in the page's own type, and a tap on a
/// square says what is on it. On a desktop nothing shown reads under 12 px
/// either, and a click says the same words.
#[test]
fn on_a_phone_a_card_reads_on_tap() {
    let b = Browser::open_at(390, 844);
    set_viewport(&b, VIEWPORTS[0]);
    b.visit("/tycoon#play");
    ready(&b);
    start_game(
        &b,
        "sample",
        ["here", "easy", "easy", "easy"],
        Some(5),
        None,
    );
    wait_for_count(&b, "#play-board svg g.cell", 99);
    b.wait_for("the captions to give way", || {
        b.attr_css("#play-board", "class")
            .filter(|c| c.contains("small-labels"))
    });
    let (small, hidden) = small_card_words(&b);
    assert_eq!(
        small, 0,
        "no caption or legend shows under 12 px on a phone"
    );
    assert!(hidden > 10, "the captions and legend give way ({hidden})");
    let legend = b.script(
        "return [...document.querySelectorAll('#play-legend li')].map((li) => \
           li.getClientRects().length > 0 ? parseFloat(getComputedStyle(li).fontSize) : 0);",
        vec![],
    );
    let sizes: Vec<f64> = legend
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    assert!(sizes.len() >= 4, "the legend as a list: {legend}");
    assert!(sizes.iter().all(|px| *px >= 12.0), "legend at {sizes:?} px");
    let cell = b.script(
        "return document.querySelector('#play-board svg g.cell[data-card]').dataset.cell;",
        vec![],
    );
    let cell = cell
        .as_str()
        .expect("a card on the sample grid")
        .to_string();
    b.click_css(&format!("#play-board svg g.cell[data-cell='{cell}']"));
    let said = b.wait_for_text("#play-card-words", &format!("Cell {cell}: card "));
    assert!(said.ends_with('.'), "{said}");
    b.screenshot_as_is("tycoon-phone-card-words");
    assert_page_fits(&b, "a Tycoon game on a phone, a card read", VIEWPORTS[0]);
    let desktop = VIEWPORTS[3];
    set_viewport(&b, desktop);
    b.wait_for("the picture measured again", || {
        (small_card_words(&b).0 == 0).then_some(())
    });
    b.click_css("#play-board svg g.cell[data-cell='1']");
    b.wait_for_text("#play-card-words", "Cell 1 (start)");
}

#[test]
fn a_tycoon_game_with_bots_is_played_to_the_end() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon#play");
    ready(&b);
    b.wait_for("the new game's form", || {
        (!b.find_all("#setup:not([hidden]) #start-game").is_empty()).then_some(())
    });
    wait_for_count(&b, "#play-board svg g.cell", 99);
    fits_everywhere(&b, "the new game's form", "#play-board svg");

    start_game(
        &b,
        "sample",
        ["hard", "normal", "easy", "normal"],
        Some(7),
        None,
    );
    b.wait_for("the game's end", || {
        (b.attr_css("body", "data-status").as_deref() == Some("won")).then_some(())
    });
    idle_moves(&b);
    let status = b.text_css("#play-status");
    let winner = b.attr_css("#play-status", "data-winner").expect("a winner");
    // "Normal bot 2 wins. Normal bot 2 reaches 99 and wins on their 25th
    // turn (99 turns in all)." — the result, then how it came about.
    let own = b.text_css(&format!("#wallets tr[data-player='{winner}'] td.turns"));
    assert!(
        (status.starts_with("You win. ") || status.contains(" wins. "))
            && status.contains(&format!(" reaches 99 and wins on their {own}")),
        "{status} (the winner's own turns: {own})"
    );
    assert!(status.contains("turns in all"), "{status}");
    assert_eq!(
        b.text_css(&format!("#wallets tr[data-player='{winner}'] td.cell")),
        "99"
    );
    wait_for_count(
        &b,
        &format!("#play-board svg g.ty-token[data-player='{winner}'][data-cell='99']"),
        1,
    );
    assert!(answers(&b).is_empty(), "no decision after the end");
    // The stations owned are ringed in their owners' colours.
    crate::open_drawers(&b);
    let stations = b.text_css("#stations");
    if let Some(owner) = stations
        .split("owned by Player ")
        .nth(1)
        .and_then(|s| s.chars().next())
    {
        assert!(
            !b.find_all(&format!("#play-board svg g.cell[data-owner='{owner}']"))
                .is_empty(),
            "the owner's stations are marked: {stations}"
        );
    }
    // The replay: step back to the start and forward again; the record.
    b.find(".replay-bar");
    let record = b
        .attr_css(".replay-bar a.record", "href")
        .expect("the record's link");
    let kept = b.script_async(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then((r) => r.json()).then((r) => done(r.moves.length));",
        vec![json!(record)],
    );
    assert!(
        kept.as_u64().unwrap_or(0) > 10,
        "the record has the moves: {kept}"
    );
    fits_everywhere(&b, "a finished game", "#play-board svg");
    b.screenshot("tycoon-play-end");
    b.click_css(".replay-bar button.first");
    b.wait_for("every token on cell 1", || {
        (b.find_all("#play-board svg g.ty-token[data-cell='1']")
            .len()
            == 4)
            .then_some(())
    });
    b.wait_for_text("#wallets tr[data-player='1'] td.coins", "100");
    // Next, and Last while move 1's token still walks: the last step is
    // what stays, board and tables, once the walk would have ended.
    b.script_async(
        "const done = arguments[arguments.length - 1];
         const bar = document.querySelector('.replay-bar');
         document.querySelector('.replay-bar button.next').click();
         const poll = setInterval(() => {
           if (bar.dataset.at !== '1') return;
           clearInterval(poll);
           document.querySelector('.replay-bar button.last').click();
           done(true);
         }, 2);",
        vec![],
    );
    let at_the_end = format!("#play-board svg g.ty-token[data-player='{winner}'][data-cell='99']");
    wait_for_count(&b, &at_the_end, 1);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(b.find_all(&at_the_end).len(), 1, "the end stays drawn");
    assert_eq!(
        b.text_css(&format!("#wallets tr[data-player='{winner}'] td.cell")),
        "99",
        "the table stays at the end"
    );
    // A replay's step names the seats as the match does.
    assert!(
        b.text_css("#wallets tr[data-player='1']")
            .contains("hard bot"),
        "{}",
        b.text_css("#wallets")
    );
    let total: u64 = b
        .attr_css(".replay-bar", "data-at")
        .and_then(|at| at.parse().ok())
        .expect("the replay bar's step");
    b.click_css(".replay-bar button.prev");
    b.wait_for_text(".replay-bar", &format!("Move {} of", total - 1));
    assert!(
        b.text_css("#wallets tr[data-player='1']")
            .contains("hard bot"),
        "{}",
        b.text_css("#wallets")
    );
    b.click_css(".replay-bar button.last");
    wait_for_count(&b, &at_the_end, 1);

    // Back goes to the new game's form, Forward to the game again, a
    // reload keeps it.
    b.script("history.back();", vec![]);
    b.wait_for("the new game's form", || {
        (!b.find_all("#setup:not([hidden])").is_empty()
            && b.attr_css("body", "data-match").is_none())
        .then_some(())
    });
    b.script("history.forward();", vec![]);
    b.wait_for("the game again", || {
        (b.attr_css("body", "data-status").as_deref() == Some("won")
            && b.text_css("#play-status").contains("wins on their"))
        .then_some(())
    });
    let url = b.script("return location.pathname;", vec![]);
    b.visit(url.as_str().unwrap_or_default());
    ready(&b);
    b.wait_for_text("#play-status", "wins on their");

    // An unknown game says so and offers a new one.
    b.visit("/tycoon/m/0123456789abcdef0123456789abcdef");
    ready(&b);
    b.wait_for_text("#gone", "not on this server");
    assert!(!b.find_all("#setup:not([hidden]) #start-game").is_empty());
    fits_everywhere(&b, "an unknown game", "#play-board svg");
}

/// Tycoon at one screen: a double click on any answer plays one move —
/// never the next person's too (issue 13) — on stations, prison, lost
/// turns, recharges and attacks; the tokens are large and walk their path.
#[test]
fn double_clicks_never_play_twice() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon");
    ready(&b);
    b.select("#speed", "quick");
    // Stations on every cell a first roll reaches: each first roll asks.
    upload(
        &b,
        "stations.grid",
        "0\n0\n6\n9 2 10 5\n9 3 10 5\n9 4 10 5\n10 5 10 5\n10 6 10 5\n10 7 10 5\n",
    );
    b.click_css("#tab-play");
    start_game(&b, "design", ["here"; 4], Some(1), None);
    // Four tokens share cell 1, each still large enough to see.
    wait_for_count(&b, "#play-board svg g.ty-token[data-cell='1']", 4);
    let (w, _) = drawn_size(&b, "#play-board svg g.ty-token[data-player='1'] circle");
    assert!(w >= 20.0, "a token is {w} px wide");
    fits_everywhere(&b, "a game at one screen", "#play-board svg");
    b.screenshot("tycoon-play-start");

    // The token walks the cells the die counted, one after another.
    b.select("#speed", "step");
    b.script(
        "window.walked = []; const t = document.querySelector(\"#play-board svg g.ty-token[data-player='1']\"); \
         new MutationObserver(() => window.walked.push(Number(t.dataset.cell))).observe(t, {attributes: true, attributeFilter: ['data-cell']});",
        vec![],
    );
    assert_eq!(wait_answers(&b), ["roll"]);
    double_click_answer(&b, "#decision button[data-move='roll']");
    let walked = b.script("return window.walked;", vec![]);
    let cells: Vec<u64> = walked
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let end = *cells.last().expect("the token moved");
    let mut path: Vec<u64> = cells.clone();
    path.dedup();
    assert_eq!(
        path,
        (2..=end).collect::<Vec<_>>(),
        "the token walked {cells:?}"
    );
    b.select("#speed", "quick");

    // P1 on a station: Don't buy (double click); P2: Buy.
    assert_eq!(wait_answers(&b), ["buy", "pass"]);
    b.wait_for_text("#play-status", "which nobody owns: buy it for 10 coins?");
    fits_everywhere(&b, "a station for sale", "#play-board svg");
    double_click_answer(&b, "#decision button[data-move='pass']");
    b.wait_for_text("#play-status", "Player 2 to roll.");
    double_click_answer(&b, "#decision button[data-move='roll']");
    assert_eq!(wait_answers(&b), ["buy", "pass"]);
    double_click_answer(&b, "#decision button[data-move='buy']");
    b.wait_for_text("#play-status", "Player 3 to roll.");

    // Prison on every cell a first roll reaches: pay, stay, a lost turn.
    b.click_css("#tab-design");
    upload(
        &b,
        "prison.grid",
        "0\n0\n6\n8 2 10\n8 3 10\n8 4 10\n8 5 10\n8 6 10\n8 7 10\n",
    );
    b.click_css("#tab-play");
    b.wait_for("the game shown again", || {
        (!b.find_all("#new-game").is_empty()).then_some(())
    });
    b.click_css("#new-game");
    crate::open_custom(&b);
    b.select("#play-grid", "design");
    b.click_css("#start-game");
    // Leaving a game in progress for a new one asks first.
    let question = answer_dialog(&b, false);
    assert!(question.contains("kept on the server"), "{question}");
    b.click_css("#start-game");
    answer_dialog(&b, true);
    b.wait_for("a new game", || {
        (b.attr_css("body", "data-moves").as_deref() == Some("0")).then_some(())
    });
    for seat in 1..=4 {
        b.wait_for_text("#play-status", &format!("Player {seat} to roll."));
        double_click_answer(&b, "#decision button[data-move='roll']");
        assert_eq!(wait_answers(&b), ["pay", "stay"]);
        b.wait_for_text(
            "#play-status",
            &format!("Player {seat} is in prison: pay 10 coins"),
        );
        let choice = if seat == 2 { "stay" } else { "pay" };
        double_click_answer(&b, &format!("#decision button[data-move='{choice}']"));
    }
    // Round two: P1 rolls (and pays again if in prison), P2 has lost turns.
    let mut attacked = false;
    let mut recharged = false;
    let mut went_on = false;
    for _ in 0..40 {
        let offered = wait_answers(&b);
        let status = b.text_css("#play-status");
        if offered.iter().any(|a| a == "kind:ice") && !attacked {
            // A double click on a kind shows its targets, and attacks nobody.
            let before = idle_moves(&b);
            b.double_click(&b.find("#decision button[data-attack='ice']"));
            b.wait_for_text("#play-status", "ice on whom?");
            std::thread::sleep(Duration::from_millis(400));
            assert_eq!(server_moves(&b), before, "choosing a kind plays nothing");
            let targets = answers(&b);
            assert!(targets.contains(&"back".to_string()), "{targets:?}");
            fits_everywhere(&b, "an attack's targets", "#play-board svg");
            b.screenshot("tycoon-play");
            phone_shot(&b, "tycoon-play-phone", "#play-board");
            let target = targets
                .iter()
                .find(|t| t.starts_with("attack ice"))
                .expect("a target")
                .clone();
            double_click_answer(&b, &format!("#decision button[data-move='{target}']"));
            attacked = true;
        } else if offered.iter().any(|a| a == "recharge") && !recharged {
            double_click_answer(&b, "#decision button[data-move='recharge']");
            recharged = true;
        } else if offered.iter().any(|a| a == "attack lightning") && attacked && recharged {
            double_click_answer(&b, "#decision button[data-move='attack lightning']");
            break;
        } else if status.contains("loses this turn") {
            double_click_answer(&b, "#decision button[data-move='roll']");
            went_on = true;
        } else {
            let first = offered[0].clone();
            let first = if first.starts_with("kind:") {
                "recharge".to_string()
            } else {
                first
            };
            double_click_answer(&b, &format!("#decision button[data-move='{first}']"));
        }
    }
    assert!(
        attacked && recharged && went_on,
        "attacked {attacked}, recharged {recharged}, went on {went_on}"
    );
    let log = b.text_css("#moves-panel");
    assert!(log.contains("attacks P"), "{log}");
    assert!(log.contains("strikes everyone with lightning"), "{log}");
}

/// Keyboard only: the number keys choose the answers, an attack's kind then
/// its target (Escape goes back), Enter on a focused answer.
#[test]
fn a_tycoon_turn_is_played_by_keyboard() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon#play");
    ready(&b);
    b.select("#speed", "none");
    start_game(&b, "empty", ["here", "easy", "easy", "easy"], Some(3), None);
    b.script("document.activeElement.blur();", vec![]);
    // Turns 1 and 2: the key 1 rolls.
    for turn in 1..=2 {
        assert_eq!(wait_answers(&b), ["roll"]);
        assert_eq!(
            b.attr_css("#decision button[data-move='roll']", "aria-keyshortcuts")
                .as_deref(),
            Some("1")
        );
        let before = idle_moves(&b);
        b.press("1");
        b.wait_for("the roll and the bots' turns", || {
            (idle_moves(&b) >= before + 4).then_some(())
        });
        b.wait_for_text("#wallets tr[data-player='1'] td.turns", &turn.to_string());
    }
    // Turn 3: recharge or attack, said in words.
    let offered = wait_answers(&b);
    assert_eq!(
        offered,
        [
            "recharge",
            "kind:ice",
            "kind:fire",
            "kind:poison",
            "attack lightning"
        ]
    );
    b.wait_for_text(
        "#play-status",
        "Player 1's recharge turn: Do you wish to launch a special attack instead of recharging?",
    );
    // 2: ice; its targets by name and colour; Escape goes back.
    b.press("2");
    // What it does, once, in the line above the targets.
    b.wait_for_text(
        "#play-status",
        "ice on whom? The player you choose loses their next turn.",
    );
    let target = b.text_css("#decision button[data-move='attack ice 2']");
    // Each target by its player's name and colour.
    assert!(target.contains("Easy bot 2 (purple)"), "{target}");
    b.press(ESCAPE);
    b.wait_for("the kinds again", || (answers(&b).len() == 5).then_some(()));
    // 3: fire; Tab to the second target and Enter: fire on Player 3.
    b.press("3");
    b.wait_for_text("#play-status", "fire on whom?");
    let focused = b.script("return document.activeElement.dataset.move;", vec![]);
    assert_eq!(
        focused,
        json!("attack fire 2"),
        "the first target has the focus"
    );
    let before = idle_moves(&b);
    b.press(&format!("{TAB}{ENTER}"));
    b.wait_for("the attack", || (idle_moves(&b) > before).then_some(()));
    b.wait_for_text("#moves-panel", "Player 1 attacks Easy bot 3 with fire");
    b.wait_for_text("#effects", "Easy bot 3: burning");
    // The focus stayed with the answers: Enter rolls the next turn.
    assert_eq!(wait_answers(&b), ["roll"]);
    let focused = b.script("return document.activeElement.dataset.move;", vec![]);
    assert_eq!(focused, json!("roll"), "the focus is on the answer");
    let before = idle_moves(&b);
    b.press(ENTER);
    b.wait_for("the roll", || (idle_moves(&b) > before).then_some(()));
}

/// Issue 12: two people on their own devices play a Tycoon game with two
/// bots to the end; one reloads mid-game, the server restarts mid-game, a
/// third person watches live. The game has a turn cap of 40 turns in all
/// (ten each), so it ends within a test's time, won or stopped.
#[test]
fn two_people_play_tycoon_online_to_the_end() {
    // It restarts the server: one of its own.
    let server = crate::OwnServer::start();
    let browsers = Browser::group_on(&server, 3);
    let (maker, friend, watcher) = (&browsers[0], &browsers[1], &browsers[2]);
    maker.visit("/tycoon#play");
    ready(maker);
    maker.select("#speed", "none");
    start_game(
        maker,
        "sample",
        ["here", "open", "normal", "normal"],
        None,
        Some(40),
    );
    let id = maker.attr_css("body", "data-match").expect("the match");
    // The maker's invite link for seat 2.
    let link = maker.wait_for("the invite link", || {
        let v = maker
            .script(
                "const i = document.querySelector(\"#seats-state li[data-seat='2'] input.link-field\"); return i ? i.value : null;",
                vec![],
            )
            .as_str()
            .map(str::to_string)?;
        v.contains("#invite=2.").then_some(v)
    });
    let path = &link[link.find("/tycoon/m/").expect("a page link")..];
    crate::open_invite(friend, &format!("{}{path}", friend.base()), "Bo");
    ready(friend);
    friend.select("#speed", "quick");
    friend.wait_for_text("#seats-state li[data-seat='2']", "you");
    maker.wait_for_text("#seats-state li[data-seat='2']", "taken");
    watcher.visit(&format!("/tycoon/m/{id}"));
    ready(watcher);
    watcher.select("#speed", "quick");
    watcher.wait_for_text("#seats-state", "You are watching");
    assert!(answers(watcher).is_empty(), "a spectator has no answers");

    let people = [(maker, 1u8), (friend, 2u8)];
    let mut reloaded = false;
    let mut restarted = false;
    let mut turns_played = [0u32; 2];
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the game to end in time"
        );
        if maker
            .attr_css("body", "data-status")
            .is_some_and(|s| s != "playing")
        {
            break;
        }
        let mut moved = false;
        for (i, (b, seat)) in people.iter().enumerate() {
            if b.attr_css("body", "data-idle").as_deref() != Some("true") {
                continue;
            }
            let offered = answers(b);
            if offered.is_empty() {
                continue;
            }
            let status = b.text_css("#play-status");
            // The friend joined as Bo (the invite asks a name first).
            let name = if *seat == 2 {
                "Bo".to_string()
            } else {
                format!("Player {seat}")
            };
            assert!(
                status.contains(&name),
                "player {seat}'s page answers for them: {status}"
            );
            let first = offered
                .iter()
                .find(|a| !a.starts_with("kind:"))
                .expect("an answer")
                .clone();
            let before = idle_moves(b);
            b.click_css(&format!("#decision button[data-move='{first}']"));
            b.wait_for(&format!("player {seat}'s {first} to be shown"), || {
                let error = b.text_css("#move-error");
                assert!(
                    error.is_empty(),
                    "player {seat}'s {first} was refused: {error}"
                );
                (b.attr_css("body", "data-moves")
                    .and_then(|m| m.parse::<u64>().ok())?
                    > before)
                    .then_some(())
            });
            turns_played[i] += 1;
            moved = true;
        }
        // Mid-game: the friend reloads and carries on; then the server
        // restarts and both carry on.
        if !reloaded && turns_played[1] >= 3 {
            friend.visit(&format!("/tycoon/m/{id}"));
            ready(friend);
            friend.wait_for_text("#seats-state li[data-seat='2']", "you");
            reloaded = true;
        } else if reloaded && !restarted && turns_played[0] >= 6 {
            server.restart();
            restarted = true;
            // Each page noticed, and is live again.
            for b in [maker, friend, watcher] {
                b.wait_for_text("#connection", "Live again");
            }
        }
        if !moved {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    assert!(
        reloaded && restarted,
        "reloaded {reloaded}, restarted {restarted}"
    );
    assert!(
        turns_played.iter().all(|&t| t >= 5),
        "both played: {turns_played:?}"
    );
    // Everyone sees the same end, the watcher live, each told the result
    // in their own words ("You win", "You lost: Normal bot 3 wins", and
    // the watcher "Normal bot 3 wins": games/src/players.rs), then how it
    // came about in the same words.
    let end = maker.wait_for("the end on the maker's page", || {
        let s = maker.text_css("#play-status");
        (s.contains("wins on their") || s.contains("Nobody has won")).then_some(s)
    });
    let how = end.split_once(". ").map_or(end.as_str(), |(_, how)| how);
    for b in [friend, watcher] {
        b.wait_for(&format!("the end: … {how}"), || {
            b.text_css("#play-status").ends_with(how).then_some(())
        });
        b.find(".replay-bar a.record");
    }
    let watched = watcher.text_css("#play-status");
    assert!(
        !watched.starts_with("You"),
        "the watcher is not told it as a player: {watched}"
    );
    let moves = idle_moves(maker);
    assert_eq!(idle_moves(watcher), moves, "the watcher saw every move");
    assert_eq!(idle_moves(friend), moves);
    watcher.screenshot("tycoon-watch-end");
}

#[test]
fn a_tycoon_grids_balance_is_checked_in_the_designer() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon");
    ready(&b);
    wait_for_count(&b, "#grid svg g.cell[data-cell]", 99);
    b.fill("#balance-games", "40");
    b.fill("#balance-seats", "easy,normal,normal,normal");
    b.click_css("#balance-go");
    // With 40 games the intervals are too wide to call the grid balanced.
    let status = b.wait_for("the verdict", || {
        let text = b.text_now("#balance-status")?;
        (text.starts_with("Unbalanced") || text.starts_with("Not enough games to tell"))
            .then_some(text)
    });
    assert!(
        status.starts_with("Unbalanced") || status.contains("more are needed"),
        "{status}"
    );
    let result = b.text_css("#balance-result");
    assert!(
        result.contains("40 games, seats easy, normal, normal, normal"),
        "the levels are named: {result}"
    );
    assert!(result.contains("Seat 4: wins"), "{result}");
    // Hard seats: the time it will take is said before the games.
    b.fill("#balance-seats", "hard");
    b.fill("#balance-games", "2");
    b.click_css("#balance-go");
    b.wait_for_text("#balance-status", "Playing with hard seats: about 5 s");
}

/// Two friends need no bots: a game for two draws two tokens, and the
/// players' table has two rows.
#[test]
fn a_tycoon_game_for_two_draws_two_tokens() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon#play");
    b.wait_for("the sample chosen", || {
        (value(&b, "#play-grid") == "sample").then_some(())
    });
    crate::open_custom(&b);
    b.select("#tycoon-players", "2");
    b.select("#tycoon-seat-1", "here");
    b.select("#tycoon-seat-2", "here");
    b.click_css("#start-game");
    b.wait_for("the game's page", || {
        let id = b.attr_css("body", "data-match")?;
        (id != "gone").then_some(())
    });
    wait_for_count(&b, "#play-board svg g.ty-token", 2);
    let players = b.script(
        "const id = document.body.dataset.match; \
         return fetch('/api/matches/' + id).then((r) => r.json()).then((v) => v.view.players.length);",
        vec![],
    );
    assert_eq!(players, json!(2));
}
