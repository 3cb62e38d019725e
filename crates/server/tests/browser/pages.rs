//! Each page, used as a person would use it.

use crate::Browser;

#[test]
fn the_home_page_leads_to_each_game() {
    let b = Browser::open();
    b.visit("/");
    let title = b.text_css("h1");
    assert!(title.contains("board games"), "{title}");
    b.screenshot("home");
    b.click_css("#card-chutes");
    b.wait_for_text("h1", "Chutes & Ladders");
}

#[test]
fn a_chutes_game_is_played_to_the_end() {
    let b = Browser::open();
    b.visit("/chutes");
    // The page starts a game on the classic board by itself.
    b.wait_for_text("#status", "Player 1 to roll");
    let info = b.text_css("#board-info");
    assert!(info.contains("100 squares, 9 ladders, 10 chutes"), "{info}");

    // Two players, a fixed seed, a few rolls by hand.
    b.select("#players", "2");
    b.fill("#seed", "7");
    b.click_css("#new-game");
    b.wait_for_text("#status", "Player 1 to roll");
    b.click_css("#roll");
    b.wait_for_text("#status", "Player 2 to roll");
    b.click_css("#roll");
    b.wait_for_text("#status", "Player 1 to roll");
    assert_eq!(b.find_all("#log li").len(), 2);

    // Then watch the rest of the game.
    b.select("#speed", "60");
    b.click_css("#watch");
    b.wait_for_text("#status", "wins after");
    // The show is over when Skip is hidden again.
    b.wait_for("the end of the show", || {
        b.attr_css("#skip", "hidden").map(|_| ())
    });
    let status = b.text_css("#status");
    let rows = b.find_all("#log li");
    let last = b.text_css("#log li:last-child");
    assert!(last.contains("wins!"), "the log ends with the win: {last}");
    // The log has one line per roll, and the status counts them.
    assert!(
        status.contains(&format!("after {} rolls", rows.len())),
        "{status} with {} log lines",
        rows.len()
    );
    // The winner's row says so and stands on square 100.
    let square = b.text_css("#players-table tr.winner td.square");
    assert_eq!(square, "100");
    assert!(
        b.attr_css("#roll", "disabled").is_some(),
        "no more rolls after the win"
    );
    // The board is drawn, and the winner's token stands on square 100.
    assert_eq!(b.find_all("#board svg g.square").len(), 100);
    let winner_seat = b
        .attr_css("#players-table tr.winner", "data-player")
        .expect("a seat");
    let token = format!("#board svg .token[data-player='{winner_seat}']");
    assert_eq!(b.attr_css(&token, "data-square").as_deref(), Some("100"));
    b.screenshot("chutes");

    // The same seed replays the same game: compare with the API.
    let replay = b.script(
        "return fetch('/api/chutes/games', {method: 'POST', \
         headers: {'Content-Type': 'application/json'}, \
         body: JSON.stringify({players: 2, seed: 7})}) \
         .then((r) => r.json()) \
         .then((g) => fetch(`/api/chutes/games/${g.id}/finish`, {method: 'POST', \
         headers: {'Content-Type': 'application/json'}})) \
         .then((f) => f.json()).then((p) => p.game);",
        vec![],
    );
    assert_eq!(
        replay["rolls"].as_u64().map(|n| n as usize),
        Some(rows.len()),
        "the page's game is the seed's game"
    );
    assert_eq!(
        status,
        format!(
            "Player {} wins after {} rolls.",
            replay["winner"], replay["rolls"]
        )
    );
}

#[test]
fn a_board_file_is_uploaded_and_played() {
    let b = Browser::open();
    b.visit("/chutes");
    b.wait_for_text("#status", "Player 1 to roll");

    // A broken file: the reason is shown beside the upload.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("broken.toml");
    std::fs::write(&bad, "size = 10\nladders = [[3, 99]]\n").expect("a file");
    let input = b.find("#board-file");
    b.send_keys(&input, &bad.display().to_string());
    let error = b.wait_for_text("#board-error", "broken.toml");
    assert!(error.contains("line"), "the error says where: {error}");

    // A good one (the seeds' board array): it is offered and chosen.
    let good = dir.path().join("tiny.txt");
    std::fs::write(&good, "0 0 0 7 0 0 0 0 0 2 0 0\n").expect("a file");
    let input = b.find("#board-file");
    b.send_keys(&input, &good.display().to_string());
    b.wait_for_text("#board-info", "tiny.txt: 11 squares, 1 ladders, 1 chutes");
    b.click_css("#new-game");
    b.wait_for_text("#status", "Player 1 to roll");
    b.select("#speed", "60");
    b.click_css("#watch");
    b.wait_for_text("#status", "wins after");
    let jumps = b.text_css("#jumps");
    assert!(jumps.contains("3→7") && jumps.contains("9→2"), "{jumps}");
    assert_eq!(b.text_css("#board-notes"), "", "no notes for a plain board");

    // A LeetCode grid whose square 2 holds its own label: no jump, and a
    // note (not an error) says so.
    let own = dir.path().join("own.json");
    std::fs::write(&own, "[[-1,-1],[-1,2]]").expect("a file");
    let input = b.find("#board-file");
    b.send_keys(&input, &own.display().to_string());
    b.wait_for_text(
        "#board-notes",
        "square 2 holds 2, its own label: read as no jump",
    );
    assert!(
        b.text_css("#board-notes")
            .starts_with("Note: line 1, column 14: ")
    );
    b.wait_for_text("#board-info", "own.json: 4 squares, 0 ladders, 0 chutes");
    assert_eq!(b.text_css("#board-error"), "");
}

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

/// Waits until `css` selects exactly `n` elements.
fn wait_for_count(b: &Browser, css: &str, n: usize) {
    b.wait_for(&format!("{n} of {css}"), || {
        (b.find_all(css).len() == n).then_some(())
    });
}

/// The text of the first SVG element `css` selects (SVG elements have no
/// `innerText`), waiting for it to appear.
fn svg_text(b: &Browser, css: &str) -> String {
    b.wait_for(&format!("the SVG element {css}"), || {
        b.script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
            vec![serde_json::json!(css)],
        )
        .as_str()
        .map(str::to_string)
    })
}

/// WebDriver's codes for keys that type no character.
const ENTER: &str = "\u{E007}";
const ARROW_UP: &str = "\u{E013}";
const ARROW_RIGHT: &str = "\u{E014}";
const ARROW_LEFT: &str = "\u{E012}";
const CONTROL: &str = "\u{E009}";
/// Releases the modifier keys held.
const NULL: &str = "\u{E000}";
const DELETE: &str = "\u{E017}";

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

#[test]
fn the_chutes_analysis_shows_the_exact_figures() {
    let b = Browser::open();
    b.visit("/chutes");
    b.wait_for_text("#status", "Player 1 to roll");
    b.click_css("#tab-analysis");
    b.wait_for_text("#analysis-status", "exact figures");
    // The classic board's mean game length: 39.225 rolls (the published
    // figure for Milton Bradley's board, a roll past 100 lost).
    let figures = b.wait_for_text("#figures", "Mean length");
    assert!(figures.contains("39.225 rolls"), "{figures}");
    assert_eq!(
        b.text_css("#figures tr:nth-child(5) th"),
        "Shortest possible"
    );
    assert_eq!(b.text_css("#figures tr:nth-child(5) td"), "7 rolls");
    let seats = b.text_css("#seat-table");
    assert!(
        seats.contains("Seat 1") && seats.contains("Seat 2"),
        "{seats}"
    );
    for plot in [
        "#plot-distribution svg",
        "#plot-seats svg",
        "#plot-heatmap svg",
    ] {
        b.find(plot);
    }
    // The shortest game on the classic board: 7 rolls.
    let summary = b.wait_for_text("#shortest-summary", "takes");
    assert!(
        summary.starts_with("The shortest game takes 7 rolls"),
        "{summary}"
    );
    // The exactly-k-chutes variant (seed 000: exactly two chutes).
    b.fill("#k-chutes", "2");
    b.click_css("#find-shortest");
    let two = b.wait_for_text("#shortest-summary", "exactly 2 chutes takes");
    assert!(!b.find_all("#routes li").is_empty(), "{two}");
    b.screenshot("chutes-analysis");
}

/// A seed JavaScript cannot hold exactly is refused beside its box, in
/// words, on every page that takes one (it used to reach the server rounded,
/// or as a float serde named in its own terms).
#[test]
fn a_seed_too_big_for_a_page_is_refused_beside_its_box() {
    let b = Browser::open();
    let too_big = "99999999999999999999";
    let wanted = "from 0 to 9007199254740991";

    b.visit("/chutes");
    b.wait_for_text("#status", "Player 1 to roll");
    b.fill("#seed", too_big);
    b.click_css("#new-game");
    b.wait_for_text("#game-error", wanted);

    b.visit("/baffle");
    b.wait_for_text("#status", "first game");
    b.click_css("#quit");
    b.wait_for_text("#status", "Given up");
    b.fill("#seed", too_big);
    b.click_css("#new-game");
    b.wait_for_text("#error", wanted);

    b.visit("/tycoon");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    b.click_css("#tab-play");
    b.fill("#play-seed", too_big);
    b.click_css("#start-game");
    b.wait_for_text("#play-error", wanted);
}

/// A board whose finish no roll reaches: the server stops the game at its
/// roll limit, and skipping the show logs all 20,000 rolls at once without
/// freezing the page (it laid the log out after every line).
#[test]
fn a_stalled_game_is_skipped_to_its_end() {
    let b = Browser::open();
    b.visit("/chutes");
    b.wait_for_text("#status", "Player 1 to roll");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let trap = dir.path().join("trap.toml");
    // From 13 a six-faced die cannot jump over 14 to 19, which all lead back.
    std::fs::write(
        &trap,
        "size = 20\nchutes = [[14, 1], [15, 1], [16, 1], [17, 1], [18, 1], [19, 1]]\n",
    )
    .expect("a file");
    let input = b.find("#board-file");
    b.send_keys(&input, &trap.display().to_string());
    b.wait_for_text("#board-info", "trap.toml: 20 squares");
    b.click_css("#new-game");
    b.wait_for_text("#status", "Player 1 to roll");
    b.click_css("#watch");
    b.wait_for("the Skip button", || {
        b.attr_css("#skip", "hidden").is_none().then_some(())
    });
    b.click_css("#skip");
    b.wait_for_text("#status", "No winner after 20000 rolls");
    assert_eq!(b.find_all("#log li").len(), 20_000);
    assert!(b.attr_css("#roll", "disabled").is_some());
}
