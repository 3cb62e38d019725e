//! The Baffle page, used as people would use it: by mouse, by keyboard
//! only, on a phone, watching from another browser, and with careless
//! double clicks.
//!
//! Terms:
//! - **start screen**: `/baffle`'s form (the box, its sides, who plays);
//!   Start opens the game at `/baffle/m/ID`.
//! - **the fixed game**: the original assignment's first game, `<0,9>=\`,
//!   `<4,2>=/`, `<6,0>=\`, `<8,2>=/`, `<8,7>=\` on 10 × 10; its checks: 7 → 22,
//!   5 → 12, 1 → 24.
//! - **place**: where a hole or cell sits on the grid of the box and its
//!   holes, rows and columns -1 to 10: the arrow keys move over it.
//! - **the box shows move N**: `#box[data-moves=N]`, set once the picture
//!   of the match after N moves is drawn.

use crate::Browser;
use crate::checks::{VIEWPORTS, Viewport, assert_page_fits, drawn_size, set_viewport};
use crate::pages::{svg_text, wait_for_count};
use crate::webdriver::keys::{
    ARROW_DOWN, ARROW_LEFT, ARROW_RIGHT, ARROW_UP, DELETE, END, ENTER, ESCAPE, HOME, SPACE, TAB,
};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::time::Duration;

/// The fixed game's mirrors: row, column, mirror.
const FIXED_MIRRORS: [(i32, i32, char); 5] = [
    (0, 9, '\\'),
    (4, 2, '/'),
    (6, 0, '\\'),
    (8, 2, '/'),
    (8, 7, '\\'),
];

fn hole(h: u32) -> String {
    format!("#box svg g.hole[data-hole='{h}']")
}

fn cell(row: i32, col: i32) -> String {
    format!("#box svg rect.cell[data-row='{row}'][data-col='{col}']")
}

/// Opens `/baffle` and waits for its start screen.
fn open_start(b: &Browser) {
    b.visit("/baffle");
    wait_ready(b, "start");
}

/// Waits until the page shows `what`: "start", "game" or "gone".
fn wait_ready(b: &Browser, what: &str) {
    b.wait_for(&format!("the page to show its {what}"), || {
        (b.attr_css("body", "data-ready").as_deref() == Some(what)).then_some(())
    });
}

/// Chooses the next game on the start screen and starts it: `box_kind`
/// "fixed" or "random" (then `size`, `mirrors` and `seed`), `plan` who
/// plays ("here", "hard", …). Returns the match's id once its box is drawn.
fn start(b: &Browser, box_kind: &str, random: Option<(u32, u32, u64)>, plan: &str) -> String {
    b.select("#box-kind", box_kind);
    if let Some((size, mirrors, seed)) = random {
        b.fill("#size", &size.to_string());
        b.fill("#mirrors", &mirrors.to_string());
        b.fill("#seed", &seed.to_string());
    }
    b.select("#baffle-seat-1", plan);
    crate::open_custom(b);
    b.click_css("#start-game");
    wait_for_game(b)
}

/// Waits until the page shows a match with its box drawn; returns its id.
fn wait_for_game(b: &Browser) -> String {
    let id = b.wait_for_match_address("baffle", None);
    wait_ready(b, "game");
    b.find("#box[data-moves] svg g.hole");
    id
}

/// Waits until the box shows the match after `n` moves.
fn wait_moves(b: &Browser, n: u64) {
    b.find(&format!("#box[data-moves='{n}'] svg"));
}

/// The status line, read in one step.
fn status(b: &Browser) -> String {
    b.script(
        "return document.getElementById('status').innerText;",
        vec![],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// A counter of the score panel (`#shots`, `#guesses`, `#score`).
fn counter(b: &Browser, css: &str) -> u64 {
    b.text_css(css).trim().parse().unwrap_or(u64::MAX)
}

/// The match as a spectator sees it now, read through the page.
fn server_view(b: &Browser, id: &str) -> Value {
    b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0]).then((r) => r.json()).then(done, (e) => done(String(e)));",
        vec![json!(id)],
    )
}

/// The match's move number on the server.
fn server_moves(b: &Browser, id: &str) -> u64 {
    server_view(b, id)["moves"].as_u64().unwrap_or(u64::MAX)
}

/// Marks `<row,col>` with `mirror` by clicking the cell (once for `/`,
/// twice for `\`), then clicks Make Guess.
fn guess_by_clicks(b: &Browser, row: i32, col: i32, mirror: char) {
    let css = cell(row, col);
    let clicks = if mirror == '/' { 1 } else { 2 };
    for _ in 0..clicks {
        b.click_css(&css);
    }
    let marked = mirror.to_string();
    b.wait_for(&format!("{css} marked {mirror}"), || {
        (b.attr_css(&css, "data-mark").as_deref() == Some(marked.as_str())).then_some(())
    });
    b.click_css("#make-guess");
}

/// Checks the page at every viewport, and that the box is drawn at a usable
/// size (on a phone, at least 90% of the width).
fn check_every_size(b: &Browser, what: &str) {
    for size in VIEWPORTS {
        set_viewport(b, size);
        // The page lays the box out again after a resize.
        std::thread::sleep(Duration::from_millis(300));
        if b.attr_css("#game", "hidden").is_none() {
            check_box_size(b, what, size);
        }
        assert_page_fits(b, what, size);
    }
    set_viewport(
        b,
        Viewport {
            name: "window",
            width: 1400,
            height: 1000,
        },
    );
    std::thread::sleep(Duration::from_millis(300));
}

fn check_box_size(b: &Browser, what: &str, size: Viewport) {
    let (w, h) = drawn_size(b, "#box svg");
    let wanted = if size.is_phone() {
        0.9 * f64::from(size.width)
    } else {
        // Beside the panels: at least the smaller of half the width and
        // two thirds of the height.
        (0.5 * f64::from(size.width)).min(0.66 * f64::from(size.height))
    };
    assert!(
        w >= wanted && h > 0.0,
        "{what} at {}: the box is drawn {w:.0}×{h:.0}, less than {wanted:.0} wide",
        size.name
    );
    // The whole box fits the window's height beside the panels.
    if !size.is_phone() && size.width >= 900 {
        assert!(
            h <= f64::from(size.height),
            "{what} at {}: the box is {h:.0} high, taller than the window",
            size.name
        );
    }
}

/// A row and column of the grid of the box and its holes (-1 to 10).
type Place = (i32, i32);

/// The place of hole `h` of a 10 × 10 box (docs/baffle.md's numbering).
fn hole_place(h: i32) -> (i32, i32) {
    match h {
        0..=9 => (9 - h, -1),
        10..=19 => (-1, h - 10),
        20..=29 => (h - 20, 10),
        _ => (10, 39 - h),
    }
}

/// The place the keyboard's focus is on in the box, if it is there.
fn focused_place(b: &Browser) -> Option<(i32, i32)> {
    let found = b.script(
        "const a = document.activeElement; \
         if (!a || !a.closest('#box')) return null; \
         if (a.dataset.hole !== undefined) return ['hole', Number(a.dataset.hole)]; \
         if (a.dataset.row !== undefined) return ['cell', Number(a.dataset.row), Number(a.dataset.col)]; \
         return null;",
        vec![],
    );
    let n = |i: usize| found[i].as_i64().map(|v| v as i32);
    match found[0].as_str()? {
        "hole" => Some(hole_place(n(1)?)),
        _ => Some((n(1)?, n(2)?)),
    }
}

/// Where an arrow key takes the focus from `at` on a 10 × 10 box with every
/// side open: the next hole or cell that way (the corners hold none).
fn arrow_step(at: (i32, i32), d: (i32, i32)) -> Option<(i32, i32)> {
    let place = |(r, c): (i32, i32)| {
        let inside = |v: i32| (0..10).contains(&v);
        (inside(r) && inside(c))
            || ((r == -1 || r == 10) && inside(c))
            || ((c == -1 || c == 10) && inside(r))
    };
    let mut p = (at.0 + d.0, at.1 + d.1);
    while (-1..=10).contains(&p.0) && (-1..=10).contains(&p.1) {
        if place(p) {
            return Some(p);
        }
        p = (p.0 + d.0, p.1 + d.1);
    }
    None
}

/// Presses the arrow keys that take the keyboard's focus to `to`, the
/// shortest way, and checks that it got there.
fn arrows_to(b: &Browser, to: (i32, i32)) {
    let from = focused_place(b).expect("the focus in the box");
    let keys = [
        ((-1, 0), ARROW_UP),
        ((1, 0), ARROW_DOWN),
        ((0, -1), ARROW_LEFT),
        ((0, 1), ARROW_RIGHT),
    ];
    // Each place reached: the place it was reached from, and the key.
    let mut came: HashMap<Place, (Place, &str)> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            break;
        }
        for (d, key) in keys {
            if let Some(next) = arrow_step(at, d)
                && next != from
                && !came.contains_key(&next)
            {
                came.insert(next, (at, key));
                queue.push_back(next);
            }
        }
    }
    let mut path = String::new();
    let mut at = to;
    while at != from {
        let (before, key) = came[&at];
        path.insert_str(0, key);
        at = before;
    }
    b.press(&path);
    b.wait_for(&format!("the focus to reach {to:?}"), || {
        (focused_place(b) == Some(to)).then_some(())
    });
}

/// The element that has the keyboard's focus, as "tag#id" or "hole 7" or "cell 4,2".
fn focused(b: &Browser) -> String {
    b.script(
        "const a = document.activeElement; if (!a) return ''; \
         if (a.dataset && a.dataset.hole !== undefined) return 'hole ' + a.dataset.hole; \
         if (a.dataset && a.dataset.row !== undefined) return 'cell ' + a.dataset.row + ',' + a.dataset.col; \
         return a.tagName.toLowerCase() + (a.id ? '#' + a.id : '');",
        vec![],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The selected cell and the found mirror, as the page draws them:
/// [selected cell's fill, its opacity, its mark's stroke].
fn selected_style(b: &Browser) -> Value {
    b.script(
        "const s = (css) => getComputedStyle(document.querySelector(css)); \
         const cell = s('#box svg .marks rect.mark-cell'); \
         return [cell.fill, cell.fillOpacity, s('#box svg .marks line.mark').stroke];",
        vec![],
    )
}

/// Each line of the shot list, without its count of the layouts left.
fn shot_list(b: &Browser) -> Vec<String> {
    let lines = b.script(
        "return [...document.querySelectorAll('#shot-list li')].map((li) => \
           [...li.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(''));",
        vec![],
    );
    serde_json::from_value(lines).expect("the shot list's lines")
}

#[test]
fn the_fixed_baffle_game_is_solved() {
    let b = Browser::open();
    open_start(&b);
    check_every_size(&b, "the start screen");
    let id = start(&b, "fixed", None, "here");
    b.wait_for_text("#status", "first game");
    assert!(b.attr_css("#start", "hidden").is_some());
    // The box is render's picture: holes and cells found by their data.
    wait_for_count(&b, "#box svg g.hole[data-hole][data-side]", 40);
    // The rows' and columns' labels (the words name cells by them) are
    // shown on a 10 × 10 box at this size.
    b.wait_for("the box's 20 labels shown", || {
        (b.find_all("#box svg text.axis:not([data-gives-way])").len() == 20).then_some(())
    });
    assert_eq!(
        b.find_all("#box svg rect.cell[data-row][data-col]").len(),
        100
    );
    assert_eq!(
        b.find_all("#box svg g.hole[role='button']").len(),
        40,
        "every hole is a button"
    );
    assert_eq!(
        b.find_all("#box [tabindex='0']").len(),
        1,
        "the box is one stop for Tab"
    );
    let title = svg_text(&b, "#box svg > title");
    assert!(title.contains("first game"), "{title}");
    // The status line is announced; the box has a role and a name.
    assert_eq!(b.attr_css("#status", "role").as_deref(), Some("status"));
    assert_eq!(
        b.attr_css("#status", "aria-live").as_deref(),
        Some("polite")
    );
    assert_eq!(b.attr_css("#box", "role").as_deref(), Some("group"));
    let label = b.attr_css("#box", "aria-label").unwrap_or_default();
    assert!(
        label.contains("10 × 10") && label.contains("holes"),
        "{label}"
    );
    check_every_size(&b, "a new fixed game");

    // The original's check: hole 7 comes out at 22, undeflected; the
    // picture shows 7 as the entry (blue) and 22 as the exit (cyan).
    b.click_css(&hole(7));
    b.wait_for_text("#status", "The beam into 7 comes out at 22");
    wait_moves(&b, 1);
    wait_for_count(&b, "#box svg g.hole.exit[data-hole='22']", 1);
    let entry = b.attr_css(&hole(7), "class").unwrap_or_default();
    assert!(entry.contains("entry"), "hole 7 is the entry: {entry}");
    let fill = b
        .attr_css("#box svg g.hole[data-hole='22'] > rect:not(.hit)", "fill")
        .unwrap_or_default();
    assert_eq!(fill, "#00b5c8", "the exit is cyan");
    b.click_css(&hole(5));
    b.wait_for_text("#status", "comes out at 12");
    wait_moves(&b, 2);
    assert_eq!(counter(&b, "#shots"), 2);
    // The last shot is outlined.
    wait_for_count(&b, "#box svg g.hole.last", 2);
    assert_eq!(b.find_all("#shot-list li").len(), 2);
    assert_eq!(server_moves(&b, &id), 2);
    // While the game is on a shot says where it came out, not how it went.
    assert_eq!(shot_list(&b), ["7 → 22", "5 → 12"]);

    // A hint from the solver: the advised hole is outlined, and the odds
    // can be drawn on the box.
    b.click_css("#hint");
    // One short sentence; its figures on request.
    let advice = b.wait_for_text("#hint-text", "it tells you the most.");
    let advice = advice.trim_end_matches("Why?").trim().to_string();
    assert!(!advice.contains("layouts"), "{advice}");
    b.click_css("#hint-text button.why");
    b.wait_for_text("#hint-text", "layouts");
    // The status line says the hint too.
    let said = b.wait_for_text("#status", "Hint: ");
    assert!(said.contains(&advice), "{said} / {advice}");
    wait_for_count(&b, "#box svg g.hole.advised", 1);
    let advised = b
        .attr_css("#box svg g.hole.advised", "data-hole")
        .unwrap_or_default();
    assert!(advice.contains(&format!("hole {advised}")), "{advice}");
    b.click_css("#odds");
    wait_for_count(&b, "#box svg rect.cell[data-mirror-odds]", 100);

    // A cell cycles / → \ → empty, drawn red with its mark in white.
    let c33 = cell(3, 3);
    for wanted in ["/", "\\"] {
        b.click_css(&c33);
        b.wait_for(&format!("the mark {wanted}"), || {
            (b.attr_css(&c33, "data-mark").as_deref() == Some(wanted)).then_some(())
        });
        assert_eq!(
            b.attr_css("#box svg .marks line.mark", "data-mark")
                .as_deref(),
            Some(wanted)
        );
        // The selected cell is red, as in the original GUI, its mark white.
        assert_eq!(
            selected_style(&b),
            json!(["rgb(227, 20, 27)", "0.85", "rgb(255, 255, 255)"]),
            "the selected cell"
        );
        assert_eq!(b.attr_css(&c33, "aria-pressed").as_deref(), Some("true"));
    }
    assert!(b.attr_css("#make-guess", "disabled").is_none());
    b.screenshot("baffle-hint");
    check_every_size(&b, "a fixed game with a cell selected and the odds shown");
    b.click_css("#odds");
    wait_for_count(&b, "#box svg rect.cell[data-mirror-odds]", 0);
    b.click_css(&c33);
    b.wait_for("the mark to clear", || {
        b.attr_css(&c33, "data-mark").is_none().then_some(())
    });
    assert!(b.find_all("#box svg .marks").is_empty());
    assert!(b.attr_css("#make-guess", "disabled").is_some());

    // One wrong guess (+2), then the five mirrors.
    guess_by_clicks(&b, 3, 3, '/');
    b.wait_for_text("#status", "Wrong");
    wait_moves(&b, 3);
    assert_eq!(counter(&b, "#guesses"), 2);
    wait_for_count(&b, "#box svg g.guess-wrong[data-row='3'][data-col='3']", 1);
    for (i, (row, col, mirror)) in FIXED_MIRRORS[..4].iter().copied().enumerate() {
        guess_by_clicks(&b, row, col, mirror);
        b.wait_for_text("#status", "Right");
        wait_moves(&b, 4 + i as u64);
        wait_for_count(&b, "#box svg g.mirror.found", i + 1);
        // A found mirror is a red line on a white cell: no red square.
        let found = format!("#box svg g.mirror.found[data-row='{row}'][data-col='{col}']");
        let stroke = b.script(
            "return getComputedStyle(document.querySelector(arguments[0]).querySelector('line, path')).stroke;",
            vec![json!(found)],
        );
        assert_eq!(stroke, json!("rgb(214, 39, 40)"), "{found}");
        assert!(b.find_all("#box svg .marks rect.mark-cell").is_empty());
        assert_eq!(
            b.attr_css(&cell(row, col), "aria-disabled").as_deref(),
            Some("true")
        );
    }
    let (row, col, mirror) = FIXED_MIRRORS[4];
    guess_by_clicks(&b, row, col, mirror);
    let said = b.wait_for_text("#status", "Every mirror found");
    assert!(said.contains("Final score 4"), "2 shots + 2: {said}");
    wait_moves(&b, 8);
    assert_eq!(counter(&b, "#score"), 4);
    wait_for_count(&b, "#box svg g.mirror.found", 5);
    wait_for_count(&b, "#box svg g.beam", 2);
    // Once over, each shot's deflections, as the original assignment's
    // checks say them: 7 undeflected, 5 after one.
    assert_eq!(
        shot_list(&b),
        ["7 → 22, no deflection", "5 → 12, 1 deflection"]
    );
    let facts = svg_text(&b, "#box svg .subtitle");
    assert!(
        facts.contains("score 4") && facts.contains("won"),
        "{facts}"
    );
    assert!(
        b.find_all("#box [role='button'], #box [tabindex]")
            .is_empty(),
        "nothing to click in the box once the game is over"
    );
    assert!(b.attr_css("#quit", "hidden").is_some(), "Quit is gone");
    assert!(
        b.attr_css("#new-game", "hidden").is_none(),
        "New Game is offered"
    );
    b.screenshot("baffle");
    check_every_size(&b, "the fixed game won");

    // The replay: the box as it stood after each move.
    b.find("#replay-panel .replay-bar");
    b.click_css("#replay-panel button.first");
    wait_moves(&b, 0);
    b.wait_for_text("#status", "Replay");
    assert!(b.find_all("#box svg g.beam:not(.later)").is_empty());
    assert!(b.find_all("#box svg g.mirror.found").is_empty());
    assert_eq!(b.find_all("#box svg g.hole.entry").len(), 0);
    b.click_css("#replay-panel button.next");
    wait_moves(&b, 1);
    assert_eq!(b.find_all("#box svg g.beam:not(.later)").len(), 1);
    assert_eq!(b.find_all("#box svg g.hole.entry").len(), 1);
    b.click_css("#replay-panel button.next");
    b.click_css("#replay-panel button.next");
    wait_moves(&b, 3);
    assert_eq!(
        b.find_all("#box svg g.guess-wrong:not(.later)").len(),
        1,
        "the wrong guess of move 3"
    );
    assert_eq!(counter(&b, "#score"), 4, "2 shots and a wrong guess");
    b.click_css("#replay-panel button.next");
    wait_moves(&b, 4);
    assert_eq!(b.find_all("#box svg g.mirror.found").len(), 1);
    check_every_size(&b, "a replay step of the fixed game");
    b.click_css("#replay-panel button.last");
    wait_moves(&b, 8);
    wait_for_count(&b, "#box svg g.mirror.found", 5);
    // The record downloads: the moves as the CLI reads them.
    let href = b
        .attr_css("#replay-panel a.record", "href")
        .unwrap_or_default();
    assert_eq!(href, format!("/api/matches/{id}/record"));
    let record = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch(arguments[0]).then((r) => r.json()).then(done, (e) => done(String(e)));",
        vec![json!(href)],
    );
    assert_eq!(
        record["moves"],
        json!([
            "shoot 7",
            "shoot 5",
            "guess 3 3 /",
            "guess 0 9 \\",
            "guess 4 2 /",
            "guess 6 0 \\",
            "guess 8 2 /",
            "guess 8 7 \\"
        ])
    );
}

/// Nothing on the page names a mirror not yet found while the game is on:
/// not the box, not the page's words, not its attributes, not its source.
#[test]
fn nothing_names_an_unfound_mirror_while_the_game_is_on() {
    let b = Browser::open();
    open_start(&b);
    start(&b, "fixed", None, "here");
    b.click_css(&hole(7));
    wait_moves(&b, 1);
    b.click_css(&hole(1));
    wait_moves(&b, 2);
    guess_by_clicks(&b, 4, 2, '/');
    wait_moves(&b, 3);
    b.click_css("#hint");
    b.wait_for_text("#hint-text", "Why?");
    b.click_css("#odds");
    wait_for_count(&b, "#box svg rect.cell[data-mirror-odds]", 100);
    let page = b
        .script("return document.documentElement.outerHTML;", vec![])
        .as_str()
        .unwrap_or_default()
        .to_string();
    for (row, col, mirror) in FIXED_MIRRORS {
        if (row, col) == (4, 2) {
            continue;
        }
        for named in [
            format!("&lt;{row},{col}&gt;={mirror}"),
            format!("<{row},{col}>={mirror}"),
            format!("&lt;{row},{col}&gt; {mirror}"),
        ] {
            assert!(!page.contains(&named), "the page names {named}");
        }
        // (The odds picture marks a mirror the shots prove, `g.certain`:
        // that is what the evidence says, not the hidden layout.)
        let drawn = b.find_all(&format!(
            "[data-row='{row}'][data-col='{col}'][data-mirror]:not(.certain)"
        ));
        assert!(drawn.is_empty(), "a mirror drawn at <{row},{col}>");
    }
    assert!(
        b.find_all("#box .unfound, #box [class*='reveal']")
            .is_empty(),
        "no mirror is marked not found"
    );
    assert!(!page.contains("missed\":[") && !page.contains("data-revealed"));
    assert_eq!(
        b.find_all("#box svg [data-mirror]:not(.certain)").len(),
        1,
        "only the mirror found"
    );
    // The page's own files hold no layout.
    for file in ["/static/baffle.js", "/static/baffle.html", "/baffle"] {
        let text = b.script_async(
            "const done = arguments[arguments.length - 1]; \
             fetch(arguments[0]).then((r) => r.text()).then(done, (e) => done(String(e)));",
            vec![json!(file)],
        );
        let text = text.as_str().unwrap_or_default();
        assert!(text.len() > 100, "{file} read");
        for (row, col, _) in FIXED_MIRRORS {
            assert!(
                !text.contains(&format!("{row},{col}>"))
                    && !text.contains(&format!("{row}, {col}")),
                "{file} names the cell <{row},{col}>"
            );
        }
    }
    // And the game's view, as the page holds it, has no layout while on.
    let held = b.script(
        "return JSON.stringify(localStorage) + JSON.stringify(history.state);",
        vec![],
    );
    let held = held.as_str().unwrap_or_default();
    assert!(!held.contains("mirror"), "{held}");
}

/// The bot plays the fixed game one press of Bot move at a time, saying
/// each move and why; its known result there is 12 shots and no wrong
/// guess. Then Bot finishes plays a random game on, and stops when asked.
#[test]
fn the_bot_solves_the_fixed_baffle_game() {
    let b = Browser::open();
    open_start(&b);
    let id = start(&b, "fixed", None, "here");
    let mut presses = 0;
    while !status(&b).contains("Every mirror found") {
        presses += 1;
        assert!(presses <= 40, "the bot should win the fixed game");
        b.wait_for("Bot move to be enabled", || {
            b.attr_css("#bot-move", "disabled").is_none().then_some(())
        });
        b.click_css("#bot-move");
        wait_moves(&b, presses);
        let said = b.wait_for("the bot's move to be said", || {
            let now = status(&b);
            now.starts_with("Bot: ").then_some(now)
        });
        let why = b.text_css("#bot-why");
        assert!(why.starts_with("Why: ") && !why.ends_with(".."), "{why}");
        assert!(
            said.starts_with("Bot: The beam into ")
                || said.starts_with("Bot: Right: ")
                || said.starts_with("Bot: Wrong: "),
            "{said}"
        );
        assert!(
            !said.contains("Wrong"),
            "the bot guesses no mirror wrong: {said}"
        );
        // The page redraws as after a shot or a guess: the counters follow.
        let shots = counter(&b, "#shots") as usize;
        assert_eq!(b.find_all("#shot-list li").len(), shots);
    }
    let said = status(&b);
    assert!(said.contains("Final score 12"), "{said}");
    assert_eq!(presses, 17, "12 shots and 5 right guesses");
    assert_eq!(counter(&b, "#score"), 12);
    assert_eq!(counter(&b, "#shots"), 12);
    assert_eq!(counter(&b, "#guesses"), 0);
    assert_eq!(server_moves(&b, &id), 17);
    b.wait_for_text("#found", "Mirrors found: 5 of 5");
    wait_for_count(&b, "#box svg g.mirror.found", 5);
    assert!(
        b.attr_css("#bot-move", "hidden").is_some()
            && b.attr_css("#bot-finish", "hidden").is_some(),
        "no bot move once the game is over"
    );
    b.screenshot("baffle-bot");

    // Bot finishes on a random game: stopped after a move, the game waits
    // for the person; pressed again, the bot plays it to the end.
    b.click_css("#new-game");
    wait_ready(&b, "start");
    assert_eq!(
        b.script("return document.getElementById('box-kind').value;", vec![]),
        json!("random"),
        "New Game offers a random box, as the original"
    );
    check_every_size(&b, "the start screen with a random box chosen");
    let id = start(&b, "random", Some((8, 4, 42)), "here");
    b.click_css("#bot-finish");
    b.wait_for_text("#bot-finish", "Stop the bot");
    b.wait_for_text("#status", "Bot: ");
    b.click_css("#bot-finish");
    b.wait_for_text("#bot-finish", "Bot finishes");
    // A move asked for before the stop may still land; then nothing more.
    std::thread::sleep(Duration::from_millis(1500));
    let stopped = server_moves(&b, &id);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(server_moves(&b, &id), stopped, "the bot stopped");
    assert!(status(&b).starts_with("Bot: "));
    assert!(b.attr_css("#bot-move", "disabled").is_none());
    b.click_css("#bot-finish");
    b.wait_for_text("#status", "Every mirror found");
    b.wait_for_text("#bot-finish", "Bot finishes");
    wait_for_count(&b, "#box svg g.mirror.found", 4);
}

/// Issue 13: a double click on a hole fired two shots (+2), and a double
/// click on Make Guess said "already found" right after the success. Now a
/// double click is one move, on holes, Make Guess and Bot move; on a cell
/// it is two clicks (it turns the mirror twice) and sends nothing.
#[test]
fn double_clicks_play_one_move() {
    let b = Browser::open();
    open_start(&b);
    let id = start(&b, "fixed", None, "here");

    // A double click on a hole: one shot.
    b.double_click(&b.find(&hole(7)));
    b.wait_for_text("#status", "The beam into 7 comes out at 22");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(server_moves(&b, &id), 1, "one shot for a double click");
    wait_moves(&b, 1);
    assert_eq!(counter(&b, "#shots"), 1);
    // A slow double click: its second click comes after the first shot was
    // answered (the page is no longer busy, and the move number is new).
    slow_double_click(&b, &hole(5), 2);
    assert_eq!(server_moves(&b, &id), 2, "one shot for a slow double click");
    assert_eq!(counter(&b, "#shots"), 2);
    // Clicked again, once, the same hole shoots again (+1), as the rules say.
    b.click_css(&hole(5));
    wait_moves(&b, 3);
    assert_eq!(counter(&b, "#shots"), 3);

    // A double click on a cell turns its mirror twice, and plays nothing.
    b.double_click(&b.find(&cell(4, 2)));
    b.wait_for("<4,2> marked \\", || {
        (b.attr_css(&cell(4, 2), "data-mark").as_deref() == Some("\\")).then_some(())
    });
    assert_eq!(server_moves(&b, &id), 3);
    b.click_css(&cell(4, 2));
    b.click_css(&cell(4, 2));
    b.wait_for("<4,2> marked /", || {
        (b.attr_css(&cell(4, 2), "data-mark").as_deref() == Some("/")).then_some(())
    });

    // A double click on Make Guess: one guess, right, and no "already found".
    b.double_click(&b.find("#make-guess"));
    b.wait_for_text("#status", "Right: C5 holds /");
    wait_moves(&b, 4);
    std::thread::sleep(Duration::from_millis(1500));
    let said = status(&b);
    assert!(said.contains("Right"), "{said}");
    assert!(!said.contains("already"), "{said}");
    assert_eq!(b.text_css("#error"), "", "no refusal shown");
    assert_eq!(server_moves(&b, &id), 4);
    assert_eq!(counter(&b, "#guesses"), 0);
    assert!(b.attr_css("#make-guess", "disabled").is_some());

    // A slow double click on Make Guess: still one guess.
    b.click_css(&cell(8, 2));
    b.wait_for("<8,2> marked /", || {
        (b.attr_css(&cell(8, 2), "data-mark").as_deref() == Some("/")).then_some(())
    });
    slow_double_click(&b, "#make-guess", 5);
    assert_eq!(server_moves(&b, &id), 5);
    assert!(!status(&b).contains("already"));
    assert_eq!(b.text_css("#error"), "", "no refusal shown");

    // A double click on Bot move: one bot move; a slow one too.
    b.double_click(&b.find("#bot-move"));
    wait_moves(&b, 6);
    b.wait_for_text("#status", "Bot: ");
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(server_moves(&b, &id), 6, "one bot move for a double click");
    slow_double_click(&b, "#bot-move", 7);
    assert_eq!(
        server_moves(&b, &id),
        7,
        "one bot move for a slow double click"
    );
    assert_eq!(b.text_css("#error"), "");
}

/// The clicks of a person's slow double click on `css`: the first, then,
/// once the box shows move `moves` (the first click's move answered), the
/// second, which the browser counts as the double click's second (`detail`
/// 2). WebDriver's own double click sends both before any answer, and its
/// separate clicks each count as a first; so the page is sent the events a
/// person's hand makes. Waits to see that nothing more is played.
fn slow_double_click(b: &Browser, css: &str, moves: u64) {
    let click = |detail: u32| {
        b.script(
            "const e = document.querySelector(arguments[0]); \
             const r = e.getBoundingClientRect(); \
             e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: arguments[1], \
               clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));",
            vec![json!(css), json!(detail)],
        );
    };
    click(1);
    wait_moves(b, moves);
    click(2);
    std::thread::sleep(Duration::from_millis(1500));
    let id = b
        .script("return location.pathname.split('/').pop();", vec![])
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        server_moves(b, &id),
        moves,
        "the second click of a slow double click on {css} played nothing"
    );
    wait_moves(b, moves);
}

/// Quit and New Game over a game in play ask first, in a dialog the
/// keyboard can answer; New Game once the game is over does not.
#[test]
fn quit_and_new_game_ask_first() {
    let b = Browser::open();
    open_start(&b);
    let id = start(&b, "fixed", None, "here");
    b.click_css(&hole(7));
    wait_moves(&b, 1);

    // Quit, then "Keep playing": nothing happens.
    b.click_css("#quit");
    b.find("dialog[open]");
    let asked = b.text_css("dialog[open]");
    assert!(asked.contains("Give up this game?"), "{asked}");
    assert_eq!(focused(&b), "button", "the focus starts on the safe answer");
    assert!(
        b.text_css("dialog[open] button.cancel")
            .contains("Keep playing")
    );
    b.click_css("dialog[open] button.cancel");
    b.wait_for("the dialog to close", || {
        b.find_all("dialog[open]").is_empty().then_some(())
    });
    assert_eq!(server_view(&b, &id)["status"], json!("playing"));
    // Escape says no too.
    b.click_css("#quit");
    b.find("dialog[open]");
    b.press(ESCAPE);
    b.wait_for("the dialog to close", || {
        b.find_all("dialog[open]").is_empty().then_some(())
    });
    assert_eq!(server_view(&b, &id)["status"], json!("playing"));

    // New Game over the game in play asks too; "Keep playing" stays.
    b.click_css("#new-game");
    let asked = b.text_css("dialog[open]");
    assert!(asked.contains("Leave this game"), "{asked}");
    b.click_css("dialog[open] button.cancel");
    b.wait_for("the dialog to close", || {
        b.find_all("dialog[open]").is_empty().then_some(())
    });
    assert!(b.attr_css("#game", "hidden").is_none());
    assert!(
        b.script("return location.pathname;", vec![])
            .as_str()
            .unwrap_or_default()
            .ends_with(&id)
    );
    // Said yes: the start screen; Back brings the game back.
    b.click_css("#new-game");
    b.click_css("dialog[open] button.confirm");
    wait_ready(&b, "start");
    assert_eq!(
        b.script("return location.pathname;", vec![]),
        json!("/baffle")
    );
    b.script("history.back();", vec![]);
    wait_for_game(&b);
    wait_moves(&b, 1);
    assert_eq!(counter(&b, "#shots"), 1);

    // Quit, said yes: every mirror shown, found red and not found magenta.
    guess_by_clicks(&b, 4, 2, '/');
    wait_moves(&b, 2);
    b.click_css("#quit");
    b.click_css("dialog[open] button.confirm");
    let said = b.wait_for_text("#status", "given up");
    assert!(said.contains("not found"), "{said}");
    wait_moves(&b, 3);
    wait_for_count(&b, "#box svg g.mirror.unfound", 4);
    wait_for_count(&b, "#box svg g.mirror.found", 1);
    // The picture in words, for a screen reader: the mirror found, and
    // the four missed, each by name.
    let words = b.attr_css("#box svg", "aria-label").unwrap_or_default();
    assert!(words.contains("1 of 5 mirrors found (/ at C5)"), "{words}");
    let missed = words.split("Not found: ").nth(1).unwrap_or_default();
    assert_eq!(missed.matches(" at ").count(), 4, "{words}");
    assert_eq!(server_view(&b, &id)["status"], json!("given_up"));
    b.screenshot("baffle-quit");
    check_every_size(&b, "the fixed game given up");
    // New Game once it is over asks nothing.
    b.click_css("#new-game");
    wait_ready(&b, "start");
    assert!(b.find_all("dialog[open]").is_empty());
}

/// The whole fixed game by keyboard only: Tab to Start, then the arrow
/// keys over holes and cells, Enter and Space to shoot, `/`, `\`, Enter
/// and Delete to mark, G to guess; then the replay by keys.
#[test]
fn the_fixed_game_is_played_by_keyboard_only() {
    let b = Browser::open();
    open_start(&b);
    let mut tabs = 0;
    // The form is folded in the Custom game drawer: Enter on its summary
    // opens it.
    while focused(&b) != "button#start-game" {
        tabs += 1;
        assert!(tabs < 30, "Tab reaches Start (now at {})", focused(&b));
        let closed = b.script("return !document.getElementById('custom').open;", vec![]);
        if focused(&b) == "summary" && closed == serde_json::json!(true) {
            b.press(ENTER);
        }
        b.press(TAB);
    }
    b.press(ENTER);
    let id = wait_for_game(&b);
    b.wait_for("the box to take the focus", || {
        (focused(&b) == "hole 10").then_some(())
    });
    // The box is one Tab stop: the next Tab leaves it.
    b.press(TAB);
    let after = focused(&b);
    assert!(
        !after.starts_with("hole") && !after.starts_with("cell"),
        "the box is one Tab stop: {after}"
    );

    // From the top of the page (a bookmark), Tab reaches the box's holes,
    // before any cell.
    b.visit(&format!("/baffle/m/{id}"));
    wait_for_game(&b);
    b.script(
        "window.visited = new Set(); document.getElementById('box').addEventListener('focusin', (e) => \
           window.visited.add(e.target.dataset.hole !== undefined ? 'h' + e.target.dataset.hole : 'c' + e.target.dataset.row + ',' + e.target.dataset.col));",
        vec![],
    );
    let mut tabs = 0;
    while !focused(&b).starts_with("hole") && !focused(&b).starts_with("cell") {
        tabs += 1;
        assert!(tabs < 25, "Tab reaches the box (now at {})", focused(&b));
        b.press(TAB);
    }
    assert_eq!(focused(&b), "hole 10", "Tab reaches the holes first");
    // Every hole and every cell can take the focus by the arrow keys.
    let mut walk = String::new();
    walk.push_str(&ARROW_RIGHT.repeat(9)); // the top holes, 10 to 19
    walk.push_str(ARROW_DOWN); // cell <0,9>
    for row in 0..10 {
        // Along the row to the left hole, and back, then one row down.
        walk.push_str(&ARROW_LEFT.repeat(10));
        walk.push_str(&ARROW_RIGHT.repeat(11)); // to the right hole
        walk.push_str(ARROW_LEFT);
        if row < 9 {
            walk.push_str(ARROW_DOWN);
        }
    }
    walk.push_str(ARROW_DOWN); // the bottom hole under column 9
    walk.push_str(&ARROW_LEFT.repeat(9)); // the bottom holes, 30 to 39
    b.press(&walk);
    b.wait_for("every hole and cell visited", || {
        let n = b.script("return window.visited.size;", vec![]);
        (n.as_u64() == Some(140)).then_some(())
    });
    assert_eq!(server_moves(&b, &id), 0, "moving shoots nothing");

    // The original's three checks, by Enter and Space.
    for (h, key, exit) in [(7, ENTER, 22), (5, SPACE, 12), (1, ENTER, 24)] {
        arrows_to(&b, hole_place(h));
        let before = server_moves(&b, &id);
        b.press(key);
        b.wait_for_text("#status", &format!("The beam into {h} comes out at {exit}"));
        wait_moves(&b, before + 1);
        assert_eq!(focused(&b), format!("hole {h}"), "the focus stays");
    }
    assert_eq!(counter(&b, "#shots"), 3);

    // The mirrors, marked each way the keys allow, guessed with G.
    let marks: [(&str, i32, i32); 5] = [
        ("/", 4, 2),
        (ENTER, 8, 2), // Enter: /
        ("\\", 0, 9),
        ("", 6, 0), // Enter twice: \
        ("", 8, 7), // /, Delete, then \
    ];
    for (i, (key, row, col)) in marks.into_iter().enumerate() {
        arrows_to(&b, (row, col));
        match (row, col) {
            (6, 0) => b.press(&format!("{ENTER}{ENTER}")),
            (8, 7) => {
                b.press("/");
                b.wait_for("the mark /", || {
                    (b.attr_css(&cell(8, 7), "data-mark").as_deref() == Some("/")).then_some(())
                });
                b.press(DELETE);
                b.wait_for("the mark cleared", || {
                    b.attr_css(&cell(8, 7), "data-mark").is_none().then_some(())
                });
                b.press("\\");
            }
            _ => b.press(key),
        }
        let wanted = FIXED_MIRRORS
            .iter()
            .find(|m| (m.0, m.1) == (row, col))
            .map(|m| m.2.to_string())
            .unwrap_or_default();
        b.wait_for(&format!("<{row},{col}> marked {wanted}"), || {
            (b.attr_css(&cell(row, col), "data-mark").as_deref() == Some(wanted.as_str()))
                .then_some(())
        });
        b.press("g");
        wait_moves(&b, 4 + i as u64);
    }
    let said = b.wait_for_text("#status", "Every mirror found");
    assert!(said.contains("Final score 3"), "{said}");
    // The game ended under the keyboard: the focus is on New Game.
    b.wait_for("the focus on New Game", || {
        (focused(&b) == "button#new-game").then_some(())
    });

    // The replay, by keys: Tab to its bar, Home and the arrows.
    let mut tabs = 0;
    while !b
        .script(
            "return Boolean(document.activeElement.closest('#replay-panel .replay-buttons'));",
            vec![],
        )
        .as_bool()
        .unwrap_or(false)
    {
        tabs += 1;
        assert!(tabs < 15, "Tab reaches the replay (now at {})", focused(&b));
        b.press(TAB);
    }
    b.press(ARROW_LEFT);
    wait_moves(&b, 7);
    b.press(ARROW_LEFT);
    wait_moves(&b, 6);
    assert_eq!(b.find_all("#box svg g.mirror.found").len(), 3);
    assert_eq!(b.find_all("#box svg g.beam:not(.later)").len(), 3);
    b.press(END);
    wait_moves(&b, 8);
    wait_for_count(&b, "#box svg g.mirror.found", 5);
}

/// A reload, a bookmark or Back brings the same game back, and it goes on.
#[test]
fn a_reload_mid_game_continues() {
    let b = Browser::open();
    open_start(&b);
    let id = start(&b, "fixed", None, "here");
    b.click_css(&hole(7));
    wait_moves(&b, 1);
    guess_by_clicks(&b, 4, 2, '/');
    wait_moves(&b, 2);

    b.script("location.reload();", vec![]);
    assert_eq!(wait_for_game(&b), id);
    wait_moves(&b, 2);
    assert_eq!(counter(&b, "#shots"), 1);
    b.wait_for_text("#found", "Mirrors found: 1 of 5");
    wait_for_count(&b, "#box svg g.hole.entry[data-hole='7']", 1);
    wait_for_count(&b, "#box svg g.mirror.found", 1);
    assert!(b.find_all("#box svg g.hole[role='button']").len() == 40);
    b.click_css(&hole(5));
    b.wait_for_text("#status", "comes out at 12");
    wait_moves(&b, 3);
    assert_eq!(counter(&b, "#shots"), 2);

    // A bookmark: the address alone, opened again.
    b.visit("/");
    b.visit(&format!("/baffle/m/{id}"));
    wait_for_game(&b);
    wait_moves(&b, 3);
    assert_eq!(counter(&b, "#shots"), 2);
    assert!(
        b.attr_css("#quit", "hidden").is_none(),
        "still this device's game"
    );
}

/// An address that names no game says so, and offers a new one.
#[test]
fn an_unknown_game_says_so_and_offers_a_new_one() {
    let b = Browser::open();
    b.visit("/baffle/m/0123456789abcdef0123456789abcdef");
    wait_ready(&b, "gone");
    let said = b.text_css("#gone");
    assert!(
        said.contains("not on this server") && said.contains("30 days"),
        "{said}"
    );
    check_every_size(&b, "an unknown game");
    b.click_css("#gone a[href='/baffle']");
    wait_ready(&b, "start");
    assert!(b.attr_css("#gone", "hidden").is_some());
    b.visit("/baffle/m/nothing");
    wait_ready(&b, "gone");
}

/// A spectator (another browser, with the address and no seat) watches a
/// game live, and is told so; the maker of a game with a bot seat watches
/// the bot play it on the server.
#[test]
fn a_spectator_watches_a_game_live() {
    let group = Browser::group(2);
    let (player, watcher) = (&group[0], &group[1]);
    open_start(player);
    let id = start(player, "fixed", None, "here");
    watcher.visit(&format!("/baffle/m/{id}"));
    wait_for_game(watcher);
    watcher.wait_for_text("#role", "You are watching");
    watcher.wait_for_text("#seats", "You are watching");
    assert!(
        watcher.find_all("#box [role='button']").is_empty(),
        "nothing to click"
    );
    for control in ["#make-guess", "#quit", "#bot-move", "#bot-finish"] {
        assert!(
            watcher.attr_css(control, "hidden").is_some(),
            "{control} is not offered to a spectator"
        );
    }
    watcher.wait_for_text("#connection", "Live");

    player.click_css(&hole(7));
    wait_moves(watcher, 1);
    wait_for_count(watcher, "#box svg g.hole.exit[data-hole='22']", 1);
    watcher.wait_for_text("#status", "The beam into 7 comes out at 22");
    guess_by_clicks(player, 4, 2, '/');
    wait_moves(watcher, 2);
    wait_for_count(watcher, "#box svg g.mirror.found", 1);
    assert_eq!(counter(watcher, "#shots"), 1);
    // The spectator's mark-free box never shows the player's selection.
    assert!(watcher.find_all("#box svg .marks").is_empty());
    set_viewport(
        watcher,
        Viewport {
            name: "window",
            width: 1400,
            height: 1000,
        },
    );
    check_every_size(watcher, "a spectator's view");

    // A game with a bot seat: the maker watches the bot play, live, and so
    // does the other browser.
    open_start(player);
    let id = start(player, "fixed", None, "hard");
    player.wait_for_text("#role", "bot plays this game on the server");
    check_every_size(player, "the maker watching a bot play");
    watcher.visit(&format!("/baffle/m/{id}"));
    wait_for_game(watcher);
    for b in [player, watcher] {
        assert!(b.find_all("#box [role='button']").is_empty());
        assert!(b.attr_css("#make-guess", "hidden").is_some());
    }
    for b in [player, watcher] {
        b.wait_for_text("#status", "Final score 12");
        wait_for_count(b, "#box svg g.mirror.found", 5);
        b.find("#replay-panel .replay-bar");
    }
    assert_eq!(server_view(player, &id)["status"], json!("won"));
}

/// Whether hole `n` lies wholly inside the zoomed box's frame.
fn hole_in_frame(b: &Browser, n: u32) -> Value {
    b.script(
        "const f = document.getElementById('box-frame').getBoundingClientRect(); \
         const h = document.querySelector(arguments[0]).getBoundingClientRect(); \
         return h.left >= f.left - 1 && h.right <= f.right + 1 && h.top >= f.top - 1 && h.bottom <= f.bottom + 1;",
        vec![json!(hole(n))],
    )
}

/// On a phone the box fills the width; its holes are too small for a
/// finger there, so a tap zooms the box in its frame until each is at least
/// 44 px, and then a tap on a hole shoots; the hole the beam comes out
/// of is scrolled into view.
#[test]
fn on_a_phone_the_box_fills_the_width_and_a_tap_zooms_in_to_aim() {
    let b = Browser::open_at(390, 844);
    set_viewport(
        &b,
        Viewport {
            name: "phone",
            width: 390,
            height: 844,
        },
    );
    open_start(&b);
    b.screenshot_as_is("baffle-phone-start");
    start(&b, "fixed", None, "here");
    let (w, _) = drawn_size(&b, "#box svg");
    assert!(w >= 351.0, "the box is {w:.0} px wide on a 390 px phone");
    assert!(
        b.find_all("#box [role='button']").is_empty(),
        "holes too small to tap are not offered as buttons"
    );
    assert!(b.attr_css("#zoom", "hidden").is_none());
    assert!(b.attr_css("#zoom-note", "hidden").is_none());
    b.screenshot_as_is("baffle-phone");
    let phone = VIEWPORTS[0];
    assert_page_fits(&b, "a fixed game on a phone", phone);

    // A tap on the box zooms in round the tap.
    b.click_css("#box svg");
    b.wait_for("the box to zoom in", || {
        (b.attr_css("#zoom", "aria-pressed").as_deref() == Some("true")).then_some(())
    });
    wait_for_count(&b, "#box svg g.hole[role='button']", 40);
    let sizes = b.script(
        "return [...document.querySelectorAll('#box svg g.hole, #box svg rect.cell')] \
           .map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); });",
        vec![],
    );
    let smallest = sizes
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).fold(f64::MAX, f64::min))
        .unwrap_or(0.0);
    assert!(smallest >= 44.0, "a hole or cell is {smallest:.1} px");
    assert_eq!(
        b.script(
            "return document.documentElement.scrollWidth - innerWidth;",
            vec![]
        ),
        json!(0),
        "the zoomed box scrolls in its frame, not the page"
    );
    // Hole 7 is on the left side, 22 on the right, further apart than the
    // phone is wide: with the frame at its left edge the exit is out of
    // view until the shot brings it in.
    b.script(
        "const f = document.getElementById('box-frame'); f.scrollTo(0, f.scrollTop);",
        vec![],
    );
    assert_eq!(hole_in_frame(&b, 22), json!(false), "22 starts out of view");
    b.click_css(&hole(7));
    b.wait_for_text("#status", "The beam into 7 comes out at 22");
    wait_moves(&b, 1);
    b.wait_for("the exit hole in the zoomed box's view", || {
        (hole_in_frame(&b, 22) == json!(true)).then_some(())
    });
    b.click_css(&cell(4, 2));
    b.wait_for("<4,2> marked /", || {
        (b.attr_css(&cell(4, 2), "data-mark").as_deref() == Some("/")).then_some(())
    });
    b.script(
        "document.getElementById('box-frame').scrollTo(0, 0);",
        vec![],
    );
    b.screenshot_as_is("baffle-phone-zoomed");
    assert_page_fits(&b, "a fixed game on a phone, zoomed in", phone);
    b.click_css("#make-guess");
    b.wait_for_text("#status", "Right");
    // Fit the box: the whole box again.
    b.click_css("#zoom");
    b.wait_for("the box to fit again", || {
        (b.attr_css("#zoom", "aria-pressed").as_deref() == Some("false")).then_some(())
    });
    let (w, _) = drawn_size(&b, "#box svg");
    assert!((351.0..=390.0).contains(&w), "the box is {w:.0} px wide");
    assert!(b.find_all("#box [role='button']").is_empty());
}

/// The move list: while the game is on, a move chosen by keyboard shows
/// the box as it was then (the server's picture of that step, with no
/// mirror); Escape comes back to now; once the game is over, a move chosen
/// in the list is the replay's step.
#[test]
fn the_move_list_looks_back_while_on_and_steps_the_replay_after() {
    let b = Browser::open();
    open_start(&b);
    let id = start(&b, "fixed", None, "here");
    b.click_css(&hole(7));
    wait_moves(&b, 1);
    b.click_css(&hole(1));
    wait_moves(&b, 2);
    b.wait_for("both moves in the list", || {
        (b.find_all("#moves-panel li[data-move]").len() == 2).then_some(())
    });
    b.wait_for_text(
        "#moves-panel li[data-move='1']",
        "The beam into 7 comes out at 22.",
    );
    b.script(
        "document.querySelector('#moves-panel ol.moves').focus();",
        vec![],
    );
    b.press(HOME);
    b.press(ENTER);
    b.wait_for_text("#moves-panel figcaption", "The game after move 1 of 2");
    b.wait_for("the picture to be drawn", || {
        b.attr_css("#moves-panel .look-back-picture", "data-picture")
    });
    let src = b
        .attr_css("#moves-panel .look-back-picture", "data-picture")
        .expect("a picture");
    assert_eq!(src, format!("/api/matches/{id}/svg?at=1"));
    let drawn = b.script(
        "const svg = document.querySelector('#moves-panel .look-back-picture svg'); \
         return [svg.querySelector('[data-shots=\"1\"]') !== null, svg.querySelector('g.mirrors').childElementCount];",
        vec![],
    );
    assert_eq!(
        drawn,
        json!([true, 0]),
        "the page shows the first shot, no mirror while on"
    );
    b.script(
        "document.querySelector('#moves-panel').scrollIntoView({block: 'start'});",
        vec![],
    );
    b.screenshot_as_is("baffle-look-back");
    let svg = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch(arguments[0]).then((r) => r.text()).then(done, (e) => done(String(e)));",
        vec![json!(src)],
    );
    let svg = svg.as_str().unwrap_or_default();
    assert!(svg.contains("data-shots=\"1\""), "the first shot is drawn");
    assert!(svg.contains("<g class=\"mirrors\"/>"), "no mirror while on");
    // A move played meanwhile leaves the look back open, with the count.
    b.press(ESCAPE);
    b.wait_for("the look back to close", || {
        b.attr_css("#moves-panel figure.look-back", "hidden")
            .map(|_| ())
    });

    // Over (the player gives up, from another tab): a move chosen in the
    // list steps the replay.
    let token = b
        .script(
            "return JSON.parse(localStorage.getItem('parlor.match.' + arguments[0])).token;",
            vec![json!(id)],
        )
        .as_str()
        .expect("a token")
        .to_string();
    b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0] + '/moves', {method: 'POST', \
           headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + arguments[1]}, \
           body: JSON.stringify({move: 'quit', after: 2})}).then((r) => done(r.status));",
        vec![json!(id), json!(token)],
    );
    b.wait_for_text(".replay-position", "Move 3 of 3");
    b.click_css("#moves-panel li[data-move='1']");
    b.wait_for_text(".replay-position", "Move 1 of 3");
    b.wait_for_text("#status", "Replay: the box after move 1 of 3");
}

/// Two friends race on the fixed box, each from their own browser: each
/// sees their own shots and the other's only as a count, and both see the
/// result, every player's box with it.
#[test]
fn two_browsers_race_on_the_same_box_and_both_see_the_result() {
    let people = Browser::group(2);
    let (ada, bo) = (&people[0], &people[1]);
    open_start(ada);
    crate::open_custom(ada);
    ada.fill("#baffle-your-name", "Ada");
    ada.select("#box-kind", "fixed");
    ada.select("#baffle-players", "2");
    ada.select("#baffle-seat-1", "here");
    ada.select("#baffle-seat-2", "open");
    ada.click_css("#start-game");
    let id = wait_for_game(ada);
    let link = ada.wait_for("the invite link", || {
        ada.attr_css("#seats li.seat[data-seat='2'] input.link-field", "value")
    });
    crate::open_invite(bo, &link, "Bo");
    wait_for_game(bo);
    bo.wait_for_text("#racers li[data-seat='1']", "Ada: 0 shots, 0 mirrors found");

    // Ada shoots 7: her box shows where it came out, Bo's only her count.
    ada.click_css(&hole(7));
    wait_for_count(ada, "#box svg g.hole.exit[data-hole='22']", 1);
    wait_moves(bo, 1);
    bo.wait_for_text("#racers li[data-seat='1']", "Ada: 1 shot, 0 mirrors found");
    assert!(
        bo.find_all("#box svg g.hole.exit").is_empty(),
        "Bo sees no exit of Ada's"
    );
    bo.wait_for_text("#status", "Ada shoots a beam (1 shot so far). Your turn.");
    bo.click_css(&hole(1));
    wait_for_count(bo, "#box svg g.hole.exit[data-hole='24']", 1);
    wait_moves(ada, 2);
    ada.wait_for_text("#racers li[data-seat='2']", "Bo: 1 shot, 0 mirrors found");
    assert!(
        ada.find_all("#box svg g.hole.exit[data-hole='24']")
            .is_empty()
    );

    // Both find every mirror in turn: one point each, a shared win.
    let mut moves = 2;
    for (row, col, mirror) in FIXED_MIRRORS {
        for b in [ada, bo] {
            wait_moves(b, moves);
            guess_by_clicks(b, row, col, mirror);
            moves += 1;
        }
        wait_moves(ada, moves);
        let found = (moves - 2) / 2;
        if found == FIXED_MIRRORS.len() as u64 {
            break;
        }
        ada.wait_for_text(
            "#racers li[data-seat='2']",
            &format!("Bo: 1 shot, {found} mirror"),
        );
    }
    ada.wait_for_text("#status", "You share the win with Bo");
    bo.wait_for_text("#status", "You share the win with Ada");
    for b in [ada, bo] {
        wait_for_count(b, "#race-result table.race-result tbody tr", 2);
        wait_for_count(b, "#race-result details.race-story", 2);
        let table = b.text_css("#race-result table.race-result");
        assert!(table.contains("Ada") && table.contains("Bo"), "{table}");
        assert!(table.contains("won (tie)"), "{table}");
        // Each player's box in words, fetched when first opened (the
        // race's last answer says counts only): Bo's one shot, and no
        // mirror missed.
        assert_eq!(
            b.script("return document.querySelector(\"#race-result details.race-story[data-seat='2'] .race-story-body\").textContent;", vec![]),
            json!(""),
            "nothing fetched before it is opened"
        );
        b.script(
            "document.querySelector(\"#race-result details.race-story[data-seat='2']\").open = true;",
            vec![],
        );
        wait_for_count(
            b,
            "#race-result details.race-story[data-seat='2'][data-shown]",
            1,
        );
        let story = b.text_css("#race-result details.race-story[data-seat='2']");
        assert!(story.contains("Shots: 1 → 24, 2 deflections."), "{story}");
        // Cells named as the box's edges name them (column letter, row
        // number): the fixed game's <0,9>=\ is J1.
        assert!(story.contains("\\ at J1 (right)"), "{story}");
        assert!(story.contains("Every mirror found."), "{story}");
        assert_race_table_fits(b);
    }
    // A story opened stays open, its words kept, when the panel is drawn
    // again (as on a change told once the race is over).
    let reopened = ada.script_async(
        r##"
        const done = arguments[arguments.length - 1];
        fetch(`/api/matches/${arguments[0]}`).then((r) => r.json()).then((view) =>
          import("/static/baffle-race.js").then((race) => {
            race.drawRace({ id: arguments[0], view }, document.getElementById("play-panel"));
            done(document.querySelector("#race-result details.race-story[data-seat='2']").open);
          })).catch((e) => done("failed: " + e));
        "##,
        vec![json!(id)],
    );
    assert_eq!(reopened, json!(true));
    wait_for_count(
        ada,
        "#race-result details.race-story[data-seat='2'][data-shown]",
        1,
    );
    ada.script(
        "document.querySelectorAll('#race-result details.race-story').forEach((d) => { d.open = true; });",
        vec![],
    );
    wait_for_count(ada, "#race-result details.race-story[data-shown]", 2);
    let first = ada.text_css("#race-result details.race-story[data-seat='1']");
    assert!(first.contains("Shots: 7 → 22, no deflection."), "{first}");
    assert!(first.contains("Guesses: \\ at J1 (right)"), "{first}");
    ada.screenshot("baffle-race-end");
    // At the screenshot's 1400 pixels the side column is at its narrowest.
    assert_race_table_fits(ada);
    assert_eq!(server_view(ada, &id)["status"], json!("shared"));
}

/// The race's result table stays inside its panel's padding.
fn assert_race_table_fits(b: &Browser) {
    let spill = b.script(
        "const p = document.getElementById('race-panel'); \
         const t = p.querySelector('table.race-result'); \
         const right = p.getBoundingClientRect().right - parseFloat(getComputedStyle(p).paddingRight); \
         return t.getBoundingClientRect().right - right;",
        vec![],
    );
    assert!(
        spill.as_f64().unwrap_or(f64::MAX) <= 0.5,
        "the race's table runs {spill} px past its panel's content"
    );
}

/// The layouts that still fit, after each shot: shown under the box and
/// falling with each shot (533,685 after the fixed game's 7 → 22, 5 → 12
/// and 1 → 24, as `parlor baffle solve` counts them), a cell's chance
/// under the pointer, each shot's count in the history, and once the game
/// is over the look back's chart instead of the count under the box.
#[test]
fn the_layouts_left_show_and_fall_after_each_shot() {
    let b = Browser::open();
    open_start(&b);
    let id = start(&b, "fixed", None, "here");
    // C(100, 5) · 2⁵ boxes before any shot.
    b.wait_for_text("#layouts-left", "About 2.4 billion layouts still fit.");
    let mut counts = Vec::new();
    for (n, h) in [7u32, 5, 1].into_iter().enumerate() {
        b.click_css(&hole(h));
        wait_moves(&b, n as u64 + 1);
        // The box drawn for the shot is kept when its count comes (a click
        // landing then is not lost on a box replaced under it).
        b.script(
            "document.querySelector('#box svg').dataset.drawnFor = String(arguments[0]);",
            vec![json!(n)],
        );
        // Counted after the shot's answer, away from the move's path.
        let view = b.wait_for("the count after the shot", || {
            let view = server_view(&b, &id);
            (!view["view"]["live"].is_null() && view["view"]["shots"][n]["count"].is_object())
                .then_some(view)
        });
        let layouts: u64 = view["view"]["live"]["layouts"]["layouts"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("an exact count on the fixed game");
        counts.push(layouts);
        let words = view["view"]["live"]["words"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        b.wait_for_text("#layouts-left", &words[1..]);
        assert_eq!(
            b.attr_css("#box svg", "data-drawn-for").as_deref(),
            Some(n.to_string().as_str()),
            "the count came and the box was drawn again"
        );
    }
    assert!(counts.windows(2).all(|w| w[1] < w[0]), "{counts:?}");
    assert_eq!(counts[2], 533_685);
    b.wait_for_text("#layouts-left", "533,685 layouts still fit.");
    // Each shot's entry carries the count after it.
    let items: Vec<String> = b
        .find_all("#shot-list li")
        .iter()
        .map(|e| b.text(e))
        .collect();
    assert_eq!(items.len(), 3);
    assert!(items[2].contains("533,685 layouts still fit"), "{items:?}");
    assert!(items[0].contains("(the best shot: "), "{items:?}");
    // A cell's chance under the pointer: C5 (row 4, column 2).
    b.script(
        "document.querySelector(arguments[0]).dispatchEvent(new PointerEvent('pointerover', {bubbles: true}));",
        vec![json!(cell(4, 2))],
    );
    let said = b.wait_for_text("#cell-chance", "C5: ");
    assert!(
        said.contains("C5: a mirror in ") && said.contains(" of 533,685 layouts"),
        "{said}"
    );
    for viewport in [VIEWPORTS[0], VIEWPORTS[VIEWPORTS.len() - 1]] {
        set_viewport(&b, viewport);
        b.screenshot_as_is(&format!("baffle-count-{}", viewport.name));
    }
    // The bot finishes; the look back shows each shot's count and the chart.
    b.click_css("#bot-finish");
    b.wait_for_text("#status", "Every mirror found");
    let shots = counter(&b, "#shots") as usize;
    b.wait_for("every shot's count", || {
        (b.find_all("#shot-list li .shot-count").len() == shots).then_some(())
    });
    let label = b.wait_for_chart("#layouts-chart");
    assert!(
        label.starts_with("The layouts that fit after each shot"),
        "{label}"
    );
    let last = b.text(&b.find_all("#shot-list li").pop().expect("a shot"));
    assert!(
        last.contains("1 layout fits") || last.contains("layouts still fit"),
        "{last}"
    );
    // Beside the box shown whole, no "layouts still fit" under it.
    assert!(
        b.attr_css("#layouts-left", "hidden").is_some(),
        "the count under the box once over"
    );
    b.screenshot("baffle-look-back");
    // On a phone the chart comes under the box, the width of the page.
    set_viewport(&b, VIEWPORTS[0]);
    b.script(
        "document.getElementById('layouts-chart').scrollIntoView();",
        vec![],
    );
    b.screenshot_as_is("baffle-look-back-phone");
    // In the dark scheme the chart is repainted with the page (its
    // background the pictures' dark one, 0x1b222b), not a light panel.
    b.switch_scheme("dark");
    let background = b.script(
        "return getComputedStyle(document.querySelector('#layouts-chart svg rect.background')).fill;",
        vec![],
    );
    assert_eq!(
        background,
        json!("rgb(27, 34, 43)"),
        "the chart's background, dark"
    );
    b.screenshot_as_is("baffle-look-back-phone-dark");
}
