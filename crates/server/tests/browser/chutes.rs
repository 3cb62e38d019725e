//! The Chutes & Ladders page, used as a person would use it.

#![allow(unused_imports)]

use crate::Browser;
use crate::pages::{
    ARROW_LEFT, ARROW_RIGHT, ARROW_UP, CONTROL, DELETE, ENTER, NULL, svg_text, wait_for_count,
};

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
