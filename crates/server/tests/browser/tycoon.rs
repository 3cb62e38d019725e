//! The Tycoon page, used as a person would use it.

#![allow(unused_imports)]

use crate::Browser;
use crate::pages::{
    ARROW_LEFT, ARROW_RIGHT, ARROW_UP, CONTROL, DELETE, ENTER, NULL, svg_text, wait_for_count,
};

/// A cell of the Tycoon grid being designed: the picture's `<g class="cell">`.
fn grid_cell(cell: u32) -> String {
    format!("#grid svg g.cell[data-cell='{cell}']")
}

/// A ladder from `start` to `end` on the grid being designed.
fn grid_ladder(start: u32, end: u32) -> String {
    format!("#grid svg g.ladder[data-start='{start}'][data-end='{end}']")
}

#[test]
fn a_tycoon_grid_is_designed_saved_and_reloaded() {
    let b = Browser::open();
    b.visit("/tycoon");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    // The grid is render's picture: 99 cell groups, found by data-cell.
    wait_for_count(&b, "#grid svg g.cell[data-cell][data-row][data-col]", 99);
    assert_eq!(
        b.find_all("#grid svg g.cell[role='button']").len(),
        99,
        "every cell is a button"
    );
    assert_eq!(
        b.attr_css(&grid_cell(1), "data-row").as_deref(),
        Some("8"),
        "cell 1 is at the bottom left"
    );

    // Add a ladder by clicking its start and end cells, then Add.
    b.click_css("#palette [data-kind=ladder]");
    b.click_css(&grid_cell(10));
    wait_for_count(&b, "#grid svg g.cell.selected[data-cell='10']", 1);
    b.click_css(&grid_cell(32));
    wait_for_count(&b, "#grid svg g.cell.selected", 1);
    let start = b.script("return document.querySelector('#start').value;", vec![]);
    let end = b.script("return document.querySelector('#end').value;", vec![]);
    assert_eq!((start.as_str(), end.as_str()), (Some("10"), Some("32")));
    b.click_css("#add");
    b.wait_for_text("#done", "Added ladder 10→32");
    wait_for_count(&b, &grid_ladder(10, 32), 1);
    let tip = svg_text(&b, &format!("{} > title", grid_cell(10)));
    assert!(tip.contains("ladder to 32"), "{tip}");

    // A refused edit shows its reason and changes nothing.
    b.click_css("#palette [data-kind=snake]");
    b.fill("#start", "5");
    b.fill("#end", "1");
    b.click_css("#add");
    let refusal = b.wait_for_text("#refusal", "Refused");
    assert!(refusal.contains("bottom row"), "{refusal}");
    assert!(b.find_all("#grid svg g.snake").is_empty());

    // A card with its parameters: its badge is on its cell.
    b.click_css("#palette [data-kind=card]");
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
    // Another station number asks for both, and shows no terms.
    b.select("#card-number", "10");
    wait_for_count(&b, "#param-price", 1);
    wait_for_count(&b, "#param-fee", 1);
    assert!(b.find_all("#card-terms").is_empty());
    b.select("#card-number", "9");
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
    // The selection stays on the cell pasted on, across the redraw.
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

    // Save it, start a new grid, and load it back.
    b.fill("#save-name", "browser test");
    b.click_css("#save");
    b.wait_for_text("#file-done", "Saved as “browser test”");
    assert!(crate::data_dir().join("grids/browser test.grid").is_file());
    // The picture is titled with the name the grid was saved under.
    b.wait_for("the title to name the grid", || {
        svg_text(&b, "#grid svg > title")
            .contains("browser test")
            .then_some(())
    });
    b.click_css(&grid_cell(20));
    b.screenshot("tycoon-design");
    b.click_css("#clear");
    b.wait_for(" an empty grid", || {
        (b.text_css("#objects") == "nothing yet").then_some(())
    });
    wait_for_count(&b, "#grid svg g.ladder", 0);
    b.select("#saved", "browser test");
    b.click_css("#load");
    b.wait_for_text("#file-done", "Loaded “browser test”");
    let objects = b.text_css("#objects");
    for wanted in [
        "ladder 10→32",
        "ladder 20→42",
        "card 9 on cell 13 (price 50, fee 10)",
    ] {
        assert!(objects.contains(wanted), "{wanted} in {objects}");
    }
    wait_for_count(&b, "#grid svg g.ladder", 2);
    wait_for_count(&b, "#grid svg g.cell[data-card='9']", 1);

    // A bad name is refused with its reason.
    b.fill("#save-name", "../escape");
    b.click_css("#save");
    b.wait_for_text("#file-error", "must start with a letter");
}

#[test]
fn a_tycoon_game_with_bots_is_played_to_the_end() {
    let b = Browser::open();
    b.visit("/tycoon");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    // The seed's sample grid, uploaded in design mode, is the grid played.
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tycoon/tests/data/sample.grid")
        .canonicalize()
        .expect("the seed's sample grid");
    let upload = b.find("#upload");
    b.send_keys(&upload, &sample.display().to_string());
    b.wait_for_text("#file-done", "Loaded “sample.grid”");
    wait_for_count(&b, "#grid svg g.snake", 4);

    b.click_css("#tab-play");
    b.wait_for_text("#play-grid", "The grid being designed");
    // A person in seat 1: the page offers the decision as buttons, and the
    // picture shows the four tokens on cell 1, P1's marked as to move.
    b.fill("#play-seed", "11");
    b.click_css("#start-game");
    b.wait_for_text("#play-status", "P1: roll");
    wait_for_count(&b, "#play-picture svg g.token[data-cell='1']", 4);
    wait_for_count(
        &b,
        "#play-picture svg g.token[data-player='1'][data-current='true']",
        1,
    );
    let title = svg_text(&b, "#play-picture svg > title");
    assert!(title.contains("a game on sample"), "{title}");
    b.click_css("#decision button[data-move='roll']");
    // Until the roll's answer comes, the page still shows P1 to roll: wait
    // for the log of the four turns too (the check raced the answer).
    b.wait_for(
        "the bots to hand back to player 1, the turns logged",
        || {
            let text = b.text_css("#play-status");
            let back = (text.contains("P1") && !b.find_all("#decision button").is_empty())
                || text.contains("wins");
            (back && b.find_all("#play-log li").len() >= 4).then_some(())
        },
    );
    // The picture follows the game: P1's token is where the table says.
    let cell = b.text_css("#wallets tr[data-player='1'] td.cell");
    wait_for_count(
        &b,
        &format!("#play-picture svg g.token[data-player='1'][data-cell='{cell}']"),
        1,
    );

    // Four bots, at once: a whole game.
    for seat in 1..=4 {
        b.select(&format!("#seat-{seat}"), "bot");
    }
    b.select("#bot-speed", "0");
    b.click_css("#start-game");
    let status = b.wait_for_text("#play-status", "wins after");
    let winner = b.attr_css("#play-status", "data-winner").expect("a winner");
    let cell = b.text_css(&format!("#wallets tr[data-player='{winner}'] td.cell"));
    assert_eq!(cell, "99", "{status}");
    let last = b.text_css("#play-log li:last-child");
    assert!(last.contains("wins") || last.contains("won"), "{last}");
    assert!(
        b.find_all("#decision button").is_empty(),
        "no decision after the end"
    );
    // The picture is render's game: 99 cells, the winner's token on 99, the
    // stations bordered in their owners' colours as the table lists them.
    wait_for_count(
        &b,
        &format!("#play-picture svg g.token[data-player='{winner}'][data-cell='99']"),
        1,
    );
    assert_eq!(b.find_all("#play-picture svg g.cell[data-cell]").len(), 99);
    assert_eq!(b.find_all("#play-picture svg g.token").len(), 4);
    let panel = svg_text(&b, "#play-picture svg .status");
    assert!(panel.contains(&format!("P{winner} won")), "{panel}");
    let stations = b.text_css("#stations");
    if let Some(owner) = stations
        .split("owned by P")
        .nth(1)
        .and_then(|s| s.chars().next())
    {
        assert!(
            !b.find_all(&format!("#play-picture svg g.cell[data-owner='{owner}']"))
                .is_empty(),
            "the owner's stations are marked: {stations}"
        );
    }
    b.screenshot("tycoon-play");
}
