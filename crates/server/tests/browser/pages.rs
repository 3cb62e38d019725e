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
    let status = b.wait_for_text("#status", "wins after");
    let rows = b.find_all("#log li");
    let last = b.text(rows.last().expect("a log"));
    assert!(last.contains("wins!"), "the log ends with the win: {last}");
    // The log has one line per roll, and the status counts them.
    assert!(
        status.contains(&format!("after {} rolls", rows.len())),
        "{status} with {} log lines",
        rows.len()
    );
    // The winner's row says so and stands on square 100.
    let winner = b.find("#players-table tr.winner");
    let square = b.text(&b.find_all("#players-table tr.winner td.square")[0]);
    assert_eq!(square, "100", "{}", b.text(&winner));
    assert!(
        b.attr(&b.find("#roll"), "disabled").is_some(),
        "no more rolls after the win"
    );
    b.screenshot("chutes");

    // The same seed replays the same game: compare with the API.
    let replay = b.script(
        "return fetch('/api/chutes/games', {method: 'POST', \
         headers: {'Content-Type': 'application/json'}, \
         body: JSON.stringify({players: 2, seed: 7})}) \
         .then((r) => r.json()) \
         .then((g) => fetch(`/api/chutes/games/${g.id}/finish`, {method: 'POST'})) \
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
}
