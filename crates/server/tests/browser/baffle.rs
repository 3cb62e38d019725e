//! The Baffle page, used as a person would use it.

#![allow(unused_imports)]

use crate::Browser;
use crate::pages::{
    ARROW_LEFT, ARROW_RIGHT, ARROW_UP, CONTROL, DELETE, ENTER, NULL, svg_text, wait_for_count,
};

/// A cell of the Baffle box: the picture's `<rect class="cell">`.
fn baffle_cell(row: u32, col: u32) -> String {
    format!("#box svg rect.cell[data-row='{row}'][data-col='{col}']")
}

/// Marks `<row,col>` with `mirror` by clicking the cell (once for `/`,
/// twice for `\`), then makes the guess.
fn guess(b: &Browser, row: u32, col: u32, mirror: char) {
    let css = baffle_cell(row, col);
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

#[test]
fn the_fixed_baffle_game_is_solved() {
    let b = Browser::open();
    b.visit("/baffle");
    b.wait_for_text("#status", "first game");
    // The box is render's picture: holes and cells found by their data.
    wait_for_count(&b, "#box svg g.hole[data-hole][data-side]", 40);
    assert_eq!(
        b.find_all("#box svg rect.cell[data-row][data-col]").len(),
        100
    );
    assert_eq!(
        b.find_all("#box svg g.hole[data-shootable='true'][role='button']")
            .len(),
        40,
        "every hole is a button"
    );
    assert_eq!(b.find_all("#box svg rect.cell[tabindex='0']").len(), 1);
    let title = svg_text(&b, "#box svg > title");
    assert!(title.contains("first game"), "{title}");

    // The seed's check: hole 7 comes out at 22, undeflected; the picture
    // shows 7 as the entry (blue) and 22 as the exit (cyan).
    b.click_css("#box svg g.hole[data-hole='7']");
    b.wait_for_text("#status", "The beam into 7 comes out at 22");
    wait_for_count(&b, "#box svg g.hole.exit[data-hole='22']", 1);
    let entry = b
        .attr_css("#box svg g.hole[data-hole='7']", "class")
        .unwrap_or_default();
    assert!(entry.contains("entry"), "hole 7 is the entry: {entry}");
    let fill = b
        .attr_css("#box svg g.hole[data-hole='22'] > rect", "fill")
        .unwrap_or_default();
    assert_eq!(fill, "#00b5c8", "the exit is cyan");
    b.click_css("#box svg g.hole[data-hole='5']");
    b.wait_for_text("#status", "comes out at 12");
    wait_for_count(&b, "#box svg g.hole.exit[data-hole='12']", 1);
    assert_eq!(b.text_css("#shots"), "2");
    // The last shot is outlined.
    wait_for_count(&b, "#box svg g.hole.last", 2);

    // A hint from the solver: the advised hole is outlined, and the odds
    // can be drawn on the box.
    b.click_css("#hint");
    let advice = b.wait_for_text("#hint-text", "layouts");
    wait_for_count(&b, "#box svg g.hole.advised", 1);
    let advised = b
        .attr_css("#box svg g.hole.advised", "data-hole")
        .unwrap_or_default();
    assert!(advice.contains(&format!("hole {advised}")), "{advice}");
    b.click_css("#odds");
    wait_for_count(&b, "#box svg rect.cell[data-mirror-odds]", 100);
    b.screenshot("baffle-hint");
    b.click_css("#odds");
    wait_for_count(&b, "#box svg rect.cell[data-mirror-odds]", 0);

    // A cell cycles / → \ → empty, drawn as a mark over the picture.
    let cell = baffle_cell(3, 3);
    for wanted in ["/", "\\"] {
        b.click_css(&cell);
        b.wait_for(&format!("the mark {wanted}"), || {
            (b.attr_css(&cell, "data-mark").as_deref() == Some(wanted)).then_some(())
        });
        assert_eq!(
            b.attr_css("#box svg .marks line.mark", "data-mark")
                .as_deref(),
            Some(wanted)
        );
        // The selected cell is red, as in the original GUI, its mark white.
        let style = b.script(
            "const s = (css) => getComputedStyle(document.querySelector(css));
             const cell = s('#box svg .marks rect.mark-cell');
             return [cell.fill, cell.fillOpacity, s('#box svg .marks line.mark').stroke];",
            vec![],
        );
        assert_eq!(
            style,
            serde_json::json!(["rgb(227, 20, 27)", "0.85", "rgb(255, 255, 255)"]),
            "the selected cell"
        );
    }
    b.click_css(&cell);
    b.wait_for("the mark to clear", || {
        b.attr_css(&cell, "data-mark").is_none().then_some(())
    });
    assert!(b.find_all("#box svg .marks").is_empty());

    // One wrong guess (+2), then the five mirrors of the fixed game.
    guess(&b, 3, 3, '/');
    b.wait_for_text("#status", "Wrong");
    assert_eq!(b.text_css("#guesses"), "2");
    wait_for_count(&b, "#box svg g.guess-wrong[data-row='3'][data-col='3']", 1);
    for (i, (row, col, mirror)) in [(0, 9, '\\'), (4, 2, '/'), (6, 0, '\\'), (8, 2, '/')]
        .into_iter()
        .enumerate()
    {
        guess(&b, row, col, mirror);
        b.wait_for_text("#status", "Right");
        wait_for_count(&b, "#box svg g.mirror.found", i + 1);
        // A found mirror is a red diagonal on a white cell: no red square.
        let found = format!("#box svg g.mirror.found[data-row='{row}'][data-col='{col}']");
        let stroke = b.script(
            "return getComputedStyle(document.querySelector(arguments[0]).querySelector('line, path')).stroke;",
            vec![serde_json::json!(found)],
        );
        assert_eq!(stroke, serde_json::json!("rgb(214, 39, 40)"), "{found}");
        assert!(b.find_all("#box svg .marks rect.mark-cell").is_empty());
    }
    guess(&b, 8, 7, '\\');
    let status = b.wait_for_text("#status", "Every mirror found");
    assert!(
        status.contains("Final score 4"),
        "2 shots + 2 for one wrong guess: {status}"
    );
    assert_eq!(b.text_css("#score"), "4");
    wait_for_count(&b, "#box svg g.mirror.found", 5);
    wait_for_count(&b, "#box svg g.beam", 2);
    let facts = svg_text(&b, "#box svg .subtitle");
    assert!(
        facts.contains("score 4") && facts.contains("won"),
        "{facts}"
    );
    assert!(
        b.find_all("#box svg [role='button']").is_empty(),
        "nothing to click once the game is over"
    );
    assert!(
        b.attr_css("#new-game", "hidden").is_none(),
        "New Game is offered"
    );
    b.screenshot("baffle");

    // New Game: a random game, played from the keyboard; Quit shows the
    // mirrors in magenta.
    b.fill("#seed", "42");
    b.click_css("#new-game");
    b.wait_for_text("#status", "Shoot a beam");
    wait_for_count(&b, "#box svg g.hole.entry", 0);
    assert!(b.find_all("#box svg g.mirror").is_empty());
    // The holes are one stop for Tab (hole 0); up the left side is hole 1.
    let first = b.find("#box svg g.hole[tabindex='0']");
    assert_eq!(b.attr(&first, "data-hole").as_deref(), Some("0"));
    b.send_keys(&first, ARROW_UP);
    b.wait_for("hole 1 to take the focus", || {
        let focused = b.script(
            "return document.activeElement.getAttribute('data-hole');",
            vec![],
        );
        (focused.as_str() == Some("1")).then_some(())
    });
    let one = b.find("#box svg g.hole[data-hole='1']");
    b.send_keys(&one, ENTER);
    b.wait_for_text("#status", "The beam into 1 comes out at");
    wait_for_count(&b, "#box svg g.hole.entry[data-hole='1']", 1);
    // The cells are one stop too: → moves to <0,1>, "/" marks it, Delete
    // clears it.
    let corner = b.find("#box svg rect.cell[tabindex='0']");
    b.send_keys(&corner, ARROW_RIGHT);
    let next = baffle_cell(0, 1);
    b.wait_for("<0,1> to take the focus", || {
        (b.attr_css(&next, "tabindex").as_deref() == Some("0")).then_some(())
    });
    b.send_keys(&b.find(&next), "/");
    b.wait_for("the mark / from the keyboard", || {
        (b.attr_css(&next, "data-mark").as_deref() == Some("/")).then_some(())
    });
    b.send_keys(&b.find(&next), DELETE);
    b.wait_for("the mark to clear", || {
        b.attr_css(&next, "data-mark").is_none().then_some(())
    });
    b.click_css("#quit");
    b.wait_for_text("#status", "Given up");
    wait_for_count(&b, "#box svg g.mirror.unfound", 5);
    b.screenshot("baffle-quit");
}

/// The status line, read in one step.
fn status_now(b: &Browser) -> String {
    b.script(
        "return document.getElementById('status').innerText;",
        vec![],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The bot plays the fixed game one press of Bot move at a time, saying
/// each move and why; its known result there is 12 shots and no wrong
/// guess. Then Bot finishes plays a random game on, and stops when asked.
#[test]
fn the_bot_solves_the_fixed_baffle_game() {
    let b = Browser::open();
    b.visit("/baffle");
    b.wait_for_text("#status", "first game");
    wait_for_count(&b, "#box svg g.hole[data-hole]", 40);
    let mut presses = 0;
    while !status_now(&b).contains("Every mirror found") {
        presses += 1;
        assert!(presses <= 40, "the bot should win the fixed game");
        let before = status_now(&b);
        b.wait_for("Bot move to be enabled", || {
            b.attr_css("#bot-move", "disabled").is_none().then_some(())
        });
        b.click_css("#bot-move");
        let said = b.wait_for("the bot's move to be said", || {
            let now = status_now(&b);
            (now != before && now.starts_with("Bot: ")).then_some(now)
        });
        assert!(said.contains("Why: "), "{said}");
        assert!(
            said.contains("shoots hole") || said.contains("guesses <"),
            "{said}"
        );
        assert!(
            !said.contains(": wrong"),
            "the bot guesses no mirror wrong: {said}"
        );
        // The page redraws as after a shot or a guess: the counters follow.
        let shots: usize = b.text_css("#shots").parse().unwrap_or(0);
        assert_eq!(b.find_all("#shot-list li").len(), shots);
    }
    let status = status_now(&b);
    assert!(status.contains("Final score 12"), "{status}");
    assert_eq!(presses, 17, "12 shots and 5 right guesses");
    assert_eq!(b.text_css("#score"), "12");
    assert_eq!(b.text_css("#shots"), "12");
    assert_eq!(b.text_css("#guesses"), "0");
    b.wait_for_text("#found", "Mirrors found: 5 of 5");
    wait_for_count(&b, "#box svg g.mirror.found", 5);
    assert!(
        b.attr_css("#bot-move", "disabled").is_some(),
        "no bot move once the game is over"
    );
    assert!(b.attr_css("#bot-finish", "disabled").is_some());
    b.screenshot("baffle-bot");

    // Bot finishes on a random game: stopped after a move, the game waits
    // for the person; pressed again, the bot plays it to the end.
    b.fill("#seed", "42");
    b.click_css("#new-game");
    b.wait_for_text("#status", "Shoot a beam");
    b.click_css("#bot-finish");
    b.wait_for_text("#bot-finish", "Stop the bot");
    b.wait_for_text("#status", "Bot: ");
    b.click_css("#bot-finish");
    b.wait_for_text("#bot-finish", "Bot finishes");
    // A move asked for before the stop may still land; then nothing more.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let stopped = b.text_css("#log");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(b.text_css("#log"), stopped, "the bot stopped");
    assert!(status_now(&b).starts_with("Bot: "));
    assert!(b.attr_css("#bot-move", "disabled").is_none());
    b.click_css("#bot-finish");
    b.wait_for_text("#status", "Every mirror found");
    b.wait_for_text("#bot-finish", "Bot finishes");
    wait_for_count(&b, "#box svg g.mirror.found", 5);
}
