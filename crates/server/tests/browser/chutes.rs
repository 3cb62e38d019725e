//! The Chutes & Ladders page, used as people would use it: at one screen,
//! from their own browsers, by keyboard, on a phone.
//!
//! Terms:
//! - **new-game form**: `/chutes`'s form (board, rules, seats, dice); its
//!   Start opens the game at `/chutes/m/ID`.
//! - **the server's view**: `GET /api/matches/ID` as a spectator sees it,
//!   read from the page with `fetch` (the truth the page must agree with).

use crate::Browser;
use crate::checks::{VIEWPORTS, Viewport, assert_page_fits, drawn_size, set_viewport};
use crate::pages::wait_for_count;
use crate::webdriver::keys::{ARROW_RIGHT, END, ENTER, ESCAPE, HOME, TAB};
use serde_json::{Value, json};

/// Opens `/chutes` and waits for the page to be ready.
pub(crate) fn open_new_game(b: &Browser) {
    b.visit("/chutes");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    // The form is folded in the Custom game drawer, the keys in theirs.
    crate::open_drawers(b);
    b.wait_for_text("#board-info", "squares");
}

/// Fills the new-game form: `seats` one plan each (`here`, `open`,
/// `anyone`, `easy`, `normal`, `hard`) and an optional seed, then starts
/// the game; returns its id once the page shows it.
pub(crate) fn start_game(b: &Browser, seats: &[&str], seed: Option<u64>) -> String {
    b.select("#chutes-players", &seats.len().to_string());
    for (i, plan) in seats.iter().enumerate() {
        b.select(&format!("#chutes-seat-{}", i + 1), plan);
    }
    if let Some(seed) = seed {
        b.fill("#seed", &seed.to_string());
    }
    crate::open_custom(b);
    b.click_css("#new-game");
    wait_for_game(b)
}

/// Waits until the page shows a match; returns its id.
pub(crate) fn wait_for_game(b: &Browser) -> String {
    let id = b.wait_for_match_address("chutes", None);
    b.wait_for("the game to be shown", || {
        (b.attr_css("#game-panel", "hidden").is_none()
            && !b.text_css("#status").starts_with("Opening"))
        .then_some(())
    });
    // The rules, keys and tallies are folded in drawers: opened, to be read.
    crate::open_drawers(b);
    id
}

/// The match as a spectator sees it now, read through the page.
pub(crate) fn server_view(b: &Browser, id: &str) -> Value {
    b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0]).then((r) => r.json()).then(done, (e) => done(String(e)));",
        vec![json!(id)],
    )
}

/// Sends `body` to `path` with `token` from the page; returns `[status, answer]`.
fn post(b: &Browser, path: &str, body: Value, token: Option<&str>) -> Value {
    b.script_async(
        "const done = arguments[arguments.length - 1]; \
         const headers = {'Content-Type': 'application/json'}; \
         if (arguments[2]) headers.Authorization = 'Bearer ' + arguments[2]; \
         fetch(arguments[0], {method: 'POST', headers, body: JSON.stringify(arguments[1])}) \
           .then(async (r) => done([r.status, await r.json().catch(() => null)]), (e) => done([0, String(e)]));",
        vec![json!(path), body, json!(token)],
    )
}

/// This browser's token for match `id` (kept by match.js in localStorage).
fn token(b: &Browser, id: &str) -> Option<String> {
    b.script(
        "const e = JSON.parse(localStorage.getItem('parlor.match.' + arguments[0]) || 'null'); \
         return e && e.token;",
        vec![json!(id)],
    )
    .as_str()
    .map(str::to_string)
}

/// The move numbers in the page's log, in order.
fn logged_moves(b: &Browser) -> Vec<u64> {
    b.script(
        "return [...document.querySelectorAll('#log li[data-move]')].map((li) => Number(li.dataset.move));",
        vec![],
    )
    .as_array()
    .map(|a| a.iter().filter_map(Value::as_u64).collect())
    .unwrap_or_default()
}

/// Waits until the page has shown every move the server has, and the show is over.
pub(crate) fn wait_until_shown(b: &Browser, id: &str) -> Value {
    b.wait_for("the page to catch up with the server", || {
        let view = server_view(b, id);
        let moves = view["moves"].as_u64()?;
        let logged = logged_moves(b);
        let idle = b.attr_css("#skip", "hidden").is_some();
        (idle && logged.last().copied().unwrap_or(0) == moves).then_some(view)
    })
}

/// Each token's square on the drawn board, by player.
fn token_squares(b: &Browser) -> Vec<u64> {
    b.script(
        "return [...document.querySelectorAll('#board svg .token')].map((t) => Number(t.dataset.square));",
        vec![],
    )
    .as_array()
    .map(|a| a.iter().filter_map(Value::as_u64).collect())
    .unwrap_or_default()
}

/// Checks the page at every viewport, and that the board is drawn at a
/// usable size (on a phone, at least 90% of the width).
fn check_every_size(b: &Browser, what: &str) {
    check_sizes(b, what, true);
}

/// Sets the viewport to `size` and waits until the page has been laid out
/// at that size (the window's new size reaches the page a moment later).
fn set_size(b: &Browser, size: Viewport) {
    set_viewport(b, size);
    let mut last = Value::Null;
    b.wait_for(&format!("the page at {}×{}", size.width, size.height), || {
        let inner = b.script_async(
            "const done = arguments[arguments.length - 1]; \
             requestAnimationFrame(() => requestAnimationFrame(() => done([innerWidth, innerHeight])));",
            vec![],
        );
        let settled = inner == last && inner[0] == json!(size.width);
        last = inner;
        settled.then_some(())
    });
}

/// Checks the page at every viewport; `board` when a board is shown.
fn check_sizes(b: &Browser, what: &str, board: bool) {
    for size in VIEWPORTS {
        set_size(b, size);
        if board {
            check_board_size(b, what, size);
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
}

fn check_board_size(b: &Browser, what: &str, size: Viewport) {
    let (w, h) = drawn_size(b, "#board svg");
    let wanted = if size.is_phone() {
        0.9 * f64::from(size.width)
    } else {
        // Beside the panels: at least the smaller of half the width and
        // two thirds of the height.
        (0.5 * f64::from(size.width)).min(0.66 * f64::from(size.height))
    };
    if w < wanted || h <= 0.0 {
        let layout = b.script(
            "return ['main', '#play', '#board-area', '#side'].map((css) => { \
               const r = document.querySelector(css).getBoundingClientRect(); \
               return `${css} ${Math.round(r.width)}×${Math.round(r.height)}`; }).join(', ');",
            vec![],
        );
        panic!(
            "{what} at {}: the board is drawn {w:.0}×{h:.0}, less than {wanted:.0} wide ({layout})",
            size.name
        );
    }
}

/// Writes `text` to a file `name` in `dir` and chooses it in the upload box.
fn upload(b: &Browser, dir: &std::path::Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a board file");
    let input = b.find("#board-file");
    b.send_keys(&input, &path.display().to_string());
}

#[test]
fn a_chutes_game_is_played_at_one_screen() {
    let b = Browser::open();
    open_new_game(&b);
    let info = b.text_css("#board-info");
    assert!(info.contains("100 squares, 9 ladders, 10 chutes"), "{info}");
    // The classic board, drawn by the server, cropped to its squares.
    wait_for_count(&b, "#board svg g.square", 100);

    // Seed 9: a game of 18 rolls.
    let id = start_game(&b, &["here", "here"], Some(9));
    b.wait_for_text("#status", "Player 1 to roll");
    let info = b.text_css("#game-info");
    assert!(info.contains("The classic board: 100 squares"), "{info}");
    // Both tokens at the start, inside the picture (they used to be cut off
    // at its left edge).
    assert_eq!(token_squares(&b), vec![0, 0]);
    assert_tokens_inside_picture(&b);
    let label = b.attr_css("#board", "aria-label").unwrap_or_default();
    assert!(
        label.contains("Player 1 (red) at the start") && label.contains("Player 2 (purple)"),
        "{label}"
    );

    b.click_css("#roll");
    b.wait_for_text("#status", "Player 2 to roll");
    b.click_css("#roll");
    b.wait_for_text("#status", "Player 1 to roll");
    assert_eq!(logged_moves(&b), vec![1, 2]);
    let label = b.attr_css("#board", "aria-label").unwrap_or_default();
    assert!(
        label.contains("on square"),
        "the label says the squares: {label}"
    );

    // Then play to the end: the show plays the rest move by move.
    b.select("#speed", "60");
    wait_until_enabled(&b, "#watch");
    b.click_css("#watch");
    wait_for_end(&b);
    let view = wait_until_shown(&b, &id);
    assert_eq!(view["status"], "won");
    let winner = view["view"]["winner"].as_u64().expect("a winner");
    let own = view["view"]["players"][(winner - 1) as usize]["rolls"]
        .as_u64()
        .expect("the winner's rolls");
    let total = view["view"]["rolls"].as_u64().expect("rolls");
    // The winner's own rolls, and the game's (it said "after 107 rolls",
    // every player's, as if they were the winner's).
    assert_eq!(
        b.text_css("#status"),
        format!("Player {winner} wins after {own} rolls of their own ({total} in the game).")
    );
    assert_eq!(logged_moves(&b), (1..=total).collect::<Vec<_>>());
    let last = b.text_css("#log li:last-child");
    assert!(
        last.contains("and wins"),
        "the log ends with the win: {last}"
    );
    assert_eq!(b.text_css("#players-table tr.winner td.square"), "100");
    assert_eq!(token_squares(&b)[(winner - 1) as usize], 100);
    assert!(b.attr_css("#roll", "hidden").is_some(), "no Roll once over");

    // The seed's game: the same seed and seats play the same game.
    let again = post(
        &b,
        "/api/matches",
        json!({"game": "chutes", "setup": {"board": "classic"}, "seats": ["here", "here"], "seed": 9}),
        None,
    );
    let (other, other_token) = (
        again[1]["id"].as_str().expect("an id").to_string(),
        again[1]["token"].as_str().expect("a token").to_string(),
    );
    let played = post(
        &b,
        &format!("/api/matches/{other}/moves"),
        json!({"move": "roll", "after": 0, "repeat": true}),
        Some(&other_token),
    );
    assert_eq!(played[1]["view"]["view"]["rolls"], json!(total));
    assert_eq!(played[1]["view"]["view"]["winner"], json!(winner));

    // A finished game: the replay bar steps through it on the board.
    b.find("#replay .first");
    assert_eq!(
        b.attr_css("#replay a.record", "href").as_deref(),
        Some(format!("/api/matches/{id}/record").as_str())
    );
    b.click_css("#replay .first");
    b.wait_for_text("#replay .replay-position", &format!("Move 0 of {total}"));
    b.wait_for("the tokens back at the start", || {
        (token_squares(&b) == vec![0, 0]).then_some(())
    });
    b.click_css("#replay .next");
    b.wait_for_text("#replay .replay-position", &format!("Move 1 of {total}"));
    b.wait_for_text("#status", "Replay, move 1");
    b.press(END);
    b.wait_for_text(
        "#replay .replay-position",
        &format!("Move {total} of {total}"),
    );
    wait_for_end(&b);
    // A step still moving its token (a jump pauses on the way) does not
    // come back over the last one.
    std::thread::sleep(std::time::Duration::from_millis(800));
    assert!(
        b.text_css("#status").contains(" after "),
        "{}",
        b.text_css("#status")
    );
    set_size(&b, VIEWPORTS[2]);
    b.script("window.scrollTo(0, 0);", vec![]);
    b.screenshot_as_is("chutes");

    // A reload brings the same game back, as does Back then Forward.
    b.visit(&format!("/chutes/m/{id}"));
    wait_for_game(&b);
    b.wait_for_text(
        "#status",
        &format!("Player {winner} wins after {own} rolls"),
    );
    assert_eq!(token_squares(&b)[(winner - 1) as usize], 100);
    b.script("history.back();", vec![]);
    b.wait_for("the new-game page", || {
        (b.script("return location.pathname;", vec![]) == json!("/chutes")).then_some(())
    });
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    b.script("history.forward();", vec![]);
    wait_for_game(&b);
    wait_for_end(&b);
}

/// Every token is drawn inside the picture's view box.
fn assert_tokens_inside_picture(b: &Browser) {
    let outside = b.script(
        "const svg = document.querySelector('#board svg'); const box = svg.getBoundingClientRect(); \
         return [...svg.querySelectorAll('.token circle')].filter((c) => { \
           const r = c.getBoundingClientRect(); \
           return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5; \
         }).map((c) => c.parentNode.dataset.player);",
        vec![],
    );
    assert_eq!(outside, json!([]), "tokens drawn outside the picture");
}

/// The server's move count for match `id`.
fn server_moves(b: &Browser, id: &str) -> u64 {
    server_view(b, id)["moves"].as_u64().expect("a move count")
}

/// Waits until the status line says how the game ended ("You win after 9
/// rolls.", "Player 2 wins after …", "You lost: Ada wins after …").
pub(crate) fn wait_for_end(b: &Browser) -> String {
    b.wait_for("the end of the game in the status line", || {
        let text = b.text_now("#status")?;
        (text.contains("win") && text.contains(" after ")).then_some(text)
    })
}

/// Waits until the page's log ends with move `n`.
pub(crate) fn wait_for_logged(b: &Browser, n: u64) {
    b.wait_for(&format!("move {n} in the log"), || {
        (logged_moves(b).last().copied() == Some(n)).then_some(())
    });
}

/// No text on the page says a board's name twice ("Tiny test board board").
fn assert_no_board_board(b: &Browser) {
    let text = b
        .script("return document.body.innerText;", vec![])
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    assert!(!text.contains("board board"), "the page says 'board board'");
}

#[test]
fn an_uploaded_board_is_played_and_the_form_is_the_next_games() {
    // It restarts the server: one of its own.
    let server = crate::OwnServer::start();
    let b = Browser::open_on(&server);
    open_new_game(&b);
    let dir = tempfile::tempdir().expect("a temporary directory");

    // A broken file: the reason is shown beside the upload, with its place.
    upload(
        &b,
        dir.path(),
        "broken.toml",
        b"size = 10\nladders = [[3, 99]]\n",
    );
    let error = b.wait_for_text("#board-error", "broken.toml");
    assert!(error.contains("line"), "the error says where: {error}");

    // A binary file is refused in words: no junk bytes, nothing overflows.
    let mut junk: Vec<u8> = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    junk.extend((0..3000u32).map(|i| (i * 7919 % 251) as u8));
    upload(&b, dir.path(), "picture.png", &junk);
    let error = b.wait_for_text("#board-error", "not a text file");
    assert!(
        error.starts_with("picture.png is not a text file"),
        "{error}"
    );
    assert!(
        !error.contains('\u{FFFD}') && !error.contains("PNG"),
        "no bytes of the file are shown: {error}"
    );
    let fits = b.script(
        "const e = document.querySelector('#board-error'); const p = e.closest('.panel').getBoundingClientRect(); \
         const r = e.getBoundingClientRect(); return e.scrollWidth <= e.clientWidth && r.right <= p.right;",
        vec![],
    );
    assert_eq!(fits, json!(true), "the refusal stays inside its panel");
    // The same bytes sent past the page's check: the server's refusal is
    // shown cleaned and short.
    let long = "x".repeat(5000);
    upload(&b, dir.path(), "long.txt", long.as_bytes());
    b.wait_for_text("#board-error", "long.txt:");
    let shown_error = b.text_css("#board-error");
    assert!(shown_error.chars().count() < 400, "{shown_error}");
    assert_eq!(crate::checks::sideways_overflow(&b), 0);

    // The seeds' board array: 1 ladder, 1 chute (not "1 ladders, 1 chutes").
    upload(&b, dir.path(), "tiny.txt", b"0 0 0 7 0 0 0 0 0 2 0 0\n");
    b.wait_for_text(
        "#board-info",
        "tiny.txt: 11 squares, 1 ladder, 1 chute; tokens start off the board.",
    );
    assert_eq!(b.text_css("#board-notes"), "", "no notes for a plain board");
    // A board named "… board" is not called "… board board".
    upload(
        &b,
        dir.path(),
        "named.toml",
        b"name = \"Tiny test board\"\nsize = 12\nladders = [[3, 8]]\nchutes = [[10, 2], [11, 4]]\n",
    );
    b.wait_for_text(
        "#board-info",
        "Next game: Tiny test board: 12 squares, 1 ladder, 2 chutes",
    );
    wait_for_count(&b, "#board svg g.square", 12);
    b.wait_for_text("#board-caption", "The next game's board: Tiny test board");

    // A LeetCode grid whose square 2 holds its own label: no jump, and a
    // note (not an error) says so.
    upload(&b, dir.path(), "own.json", b"[[-1,-1],[-1,2]]");
    b.wait_for_text(
        "#board-notes",
        "square 2 holds 2, its own label: read as no jump",
    );
    assert!(
        b.text_css("#board-notes")
            .starts_with("Note: line 1, column 14: ")
    );
    b.wait_for_text(
        "#board-info",
        "own.json: 4 squares, 0 ladders, 0 chutes; tokens start on square 1.",
    );
    assert_eq!(b.text_css("#board-error"), "");

    // Play on the named board: a person and an easy bot.
    let named = b
        .script(
            "return [...document.querySelectorAll('#board-select option')].find((o) => o.textContent.startsWith('Tiny test board')).value;",
            vec![],
        )
        .as_str()
        .expect("the uploaded board offered")
        .to_string();
    b.select("#board-select", &named);
    let id = start_game(&b, &["here", "bot"], None);
    b.wait_for_text(
        "#game-info",
        "Tiny test board: 12 squares, 1 ladder, 2 chutes",
    );
    b.wait_for_text("#board-caption", "This game's board: Tiny test board");
    let jumps = b.text_css("#jumps");
    assert!(
        jumps.contains("3→8") && jumps.contains("10→2") && jumps.contains("11→4"),
        "{jumps}"
    );
    assert_tokens_inside_picture(&b);
    assert_no_board_board(&b);

    // The form is the NEXT game's: choosing another board, uploading one or
    // changing the players leaves the game in play as it is, and says so.
    b.wait_for_text("#new-heading", "Custom game (the next one)");
    b.wait_for_text("#new-note", "NEXT game");
    b.select("#board-select", "classic");
    upload(&b, dir.path(), "other.txt", b"0 0 5 0 0 1 0\n");
    b.wait_for_text("#board-info", "Next game: other.txt: 6 squares");
    b.select("#chutes-players", "4");
    assert!(
        b.text_css("#game-info")
            .starts_with("Tiny test board: 12 squares")
    );
    assert!(
        b.text_css("#board-caption")
            .contains("This game's board: Tiny test board")
    );
    assert_eq!(b.find_all("#board svg g.square").len(), 12);
    assert_eq!(b.find_all("#players-table tbody tr").len(), 2);
    assert_eq!(b.find_all("#board svg .token").len(), 2);

    // Play it to the end: the bot's moves arrive live and are shown too.
    wait_until_enabled(&b, "#watch");
    b.click_css("#watch");
    wait_for_end(&b);
    let view = wait_until_shown(&b, &id);
    assert_eq!(view["status"], "won");
    let bot_moves = b.find_all("#log li[data-move]").len();
    assert_eq!(bot_moves as u64, view["moves"].as_u64().unwrap_or(0));
    assert_no_board_board(&b);

    // The match keeps its own copy of its board: after the server lost the
    // upload (a restart), the page still draws it.
    server.restart();
    b.visit(&format!("/chutes/m/{id}"));
    wait_for_game(&b);
    wait_for_count(&b, "#board svg g.square", 12);
    wait_for_end(&b);
}

/// A board whose finish a token past square 5 never reaches: the ladder
/// 5→20 is the only way, and chutes 14…19 all lead back to 13.
const TRAP: &str = "size = 20\nladders = [[5, 20]]\nchutes = [[14, 13], [15, 13], [16, 13], [17, 13], [18, 13], [19, 13]]\n";

#[test]
fn a_stalled_board_says_no_one_can_win() {
    let b = Browser::open();
    open_new_game(&b);
    let dir = tempfile::tempdir().expect("a temporary directory");
    upload(&b, dir.path(), "trap.toml", TRAP.as_bytes());
    b.wait_for_text("#board-info", "trap.toml: 20 squares");
    // A seed whose game stalls (every token past square 5), found through
    // the API.
    let board = b
        .script(
            "return document.querySelector('#board-select').value;",
            vec![],
        )
        .as_str()
        .expect("a board")
        .to_string();
    let seed = (0..200u64)
        .find(|&seed| {
            let made = post(
                &b,
                "/api/matches",
                json!({"game": "chutes", "setup": {"board": board}, "seats": ["here", "here"], "seed": seed}),
                None,
            );
            let id = made[1]["id"].as_str().unwrap_or_default().to_string();
            let token = made[1]["token"].as_str().unwrap_or_default().to_string();
            let done = post(
                &b,
                &format!("/api/matches/{id}/moves"),
                json!({"move": "roll", "after": 0, "repeat": true}),
                Some(&token),
            );
            done[1]["view"]["status"] == "stalled"
        })
        .expect("a seed whose game stalls");
    let id = start_game(&b, &["here", "here"], Some(seed));
    wait_until_enabled(&b, "#watch");
    b.click_css("#watch");
    b.wait_for_text(
        "#status",
        "No winner: no token can ever reach square 20 again",
    );
    let view = wait_until_shown(&b, &id);
    let rolls = view["view"]["rolls"].as_u64().expect("rolls");
    assert_eq!(
        b.text_css("#status"),
        format!("No winner: no token can ever reach square 20 again (after {rolls} rolls).")
    );
    assert!(b.attr_css("#roll", "hidden").is_some());
    // A stalled game is over: it can be replayed and its record downloaded.
    b.find("#replay a.record");
    check_every_size(&b, "a stalled game");
}

/// A long game shown move by move can be skipped: thousands of moves are
/// logged at once without freezing the page (it laid the log out after
/// every line), every one accounted for (a page that fell behind the live
/// moves catches up from the view, whose log is the newest 100).
#[test]
fn a_long_game_is_skipped_to_its_end() {
    let b = Browser::open();
    open_new_game(&b);
    let dir = tempfile::tempdir().expect("a temporary directory");
    upload(&b, dir.path(), "long.toml", b"size = 3000\n");
    b.wait_for_text("#board-info", "long.toml: 3000 squares");
    // Started once its picture is shown, as a person would.
    wait_for_count(&b, "#board svg g.square", 3000);
    b.fill("#faces", "1");
    let id = start_game(&b, &["here"], None);
    b.select("#speed", "600");
    b.press("e");
    b.wait_for("the Skip button", || {
        b.attr_css("#skip", "hidden").is_none().then_some(())
    });
    b.press("s");
    b.wait_for_text("#status", "You win after 3000 rolls.");
    wait_until_shown(&b, &id);
    // Every move is accounted for, the last one last: each in the log, or
    // (when the page had to catch up from the match's view, which carries
    // the newest 100 events) the earliest said to be in the record.
    b.wait_for("the log to reach move 3000", || {
        let lines = b.find_all("#log li[data-move]").len();
        let last = b.script(
            "const all = document.querySelectorAll('#log li[data-move]'); \
             return all.length ? all[all.length - 1].dataset.move : null;",
            vec![],
        );
        let note = b.script(
            "const e = document.querySelector('p.note.earlier'); return e && !e.hidden ? e.textContent : '';",
            vec![],
        );
        let earlier = note
            .as_str()
            .and_then(|t| t.strip_prefix("Moves 1 to "))
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0);
        (last.as_str() == Some("3000") && earlier + lines == 3000).then_some(())
    });
}

#[test]
fn the_chutes_analysis_shows_the_exact_figures() {
    let b = Browser::open();
    open_new_game(&b);
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
    // The exactly-k-chutes variant (the original assignment: exactly two chutes).
    b.fill("#k-chutes", "2");
    b.click_css("#find-shortest");
    let two = b.wait_for_text("#shortest-summary", "exactly 2 chutes takes");
    assert!(!b.find_all("#routes li").is_empty(), "{two}");
    check_sizes(&b, "the analysis", false);
    b.screenshot("chutes-analysis");

    // "-1" is refused in words (it showed "Failed to deserialize query
    // string"), and nothing is asked of the server.
    b.fill("#k-chutes", "-1");
    b.click_css("#find-shortest");
    let error = b.wait_for_text("#shortest-error", "whole number from 0 to 50");
    assert!(!error.to_lowercase().contains("deserialize"), "{error}");
    assert_eq!(b.text_css("#shortest-summary"), "");
    b.fill("#k-chutes", "");
    b.click_css("#find-shortest");
    b.wait_for_text("#shortest-summary", "The shortest game takes 7 rolls");
    assert_eq!(b.text_css("#shortest-error"), "");

    // The players chosen for "who wins".
    b.select("#an-players", "4");
    b.wait_for_text("#seat-table", "Seat 4");
}

#[test]
fn an_unknown_game_says_so_and_offers_a_new_one() {
    let b = Browser::open();
    b.visit(&format!("/chutes/m/{}", "0".repeat(32)));
    let said = b.wait_for_text(".gone-panel", "not on this server");
    assert!(said.contains("expired"), "{said}");
    check_sizes(&b, "an unknown game", false);
    b.visit("/chutes/m/not-a-game");
    b.wait_for_text(".gone-panel", "names no game");
    b.click_css(".gone-panel a[href='/chutes']");
    b.wait_for("the new-game page", || b.attr_css("body", "data-ready"));
    b.wait_for_text("#new-heading", "Custom game");
}

#[test]
fn a_double_click_on_roll_plays_one_roll() {
    let b = Browser::open();
    open_new_game(&b);
    // Seed 9: a game of 18 rolls.
    let id = start_game(&b, &["here", "here"], Some(9));
    b.wait_for_text("#status", "Player 1 to roll");
    let roll = b.find("#roll");
    b.double_click(&roll);
    wait_for_logged(&b, 1);
    b.wait_for_text("#status", "Player 2 to roll");
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert_eq!(server_moves(&b, &id), 1, "one roll for a double click");
    assert_eq!(logged_moves(&b), vec![1]);
    assert_eq!(b.text_css("#game-error"), "");

    // A double click on "Play to the end" plays the game once, to its end.
    let watch = b.find("#watch");
    b.double_click(&watch);
    wait_for_end(&b);
    let view = wait_until_shown(&b, &id);
    let total = view["moves"].as_u64().expect("moves");
    assert_eq!(logged_moves(&b), (1..=total).collect::<Vec<_>>());
    assert_eq!(b.text_css("#game-error"), "");
}

#[test]
fn new_games_and_new_links_ask_first() {
    let b = Browser::open();
    open_new_game(&b);
    let first = start_game(&b, &["here", "open"], None);
    b.press("r");
    wait_for_logged(&b, 1);

    // A new game over one in play asks first; Cancel keeps the game.
    crate::open_custom(&b);
    b.click_css("#new-game");
    b.find("dialog.confirm-dialog[open]");
    let asked = b.text_css("dialog.confirm-dialog");
    assert!(asked.contains("not over"), "{asked}");
    check_question(&b, "the new-game question");
    b.press(ESCAPE);
    b.wait_for("the question to close", || {
        b.find_all("dialog.confirm-dialog").is_empty().then_some(())
    });
    assert_eq!(
        b.script("return location.pathname;", vec![]),
        json!(format!("/chutes/m/{first}"))
    );
    b.click_css("#new-game");
    b.click_css("dialog.confirm-dialog button.cancel");
    b.wait_for("the question to close", || {
        b.find_all("dialog.confirm-dialog").is_empty().then_some(())
    });
    assert_eq!(server_moves(&b, &first), 1);

    // A new invite link asks first; Cancel keeps the old one.
    let link_css = "#seats li.seat[data-seat='2'] input.link-field";
    let old_link = b.attr_css(link_css, "value").expect("an invite link");
    b.click_css("#seats li.seat[data-seat='2'] button.renew");
    b.find("dialog.confirm-dialog[open]");
    b.click_css("dialog.confirm-dialog button.cancel");
    b.wait_for("the question to close", || {
        b.find_all("dialog.confirm-dialog").is_empty().then_some(())
    });
    assert_eq!(b.attr_css(link_css, "value"), Some(old_link.clone()));
    // Confirmed: a new link, and the old one no longer takes the seat.
    b.click_css("#seats li.seat[data-seat='2'] button.renew");
    b.click_css("dialog.confirm-dialog button.confirm");
    let new_link = b.wait_for("a new link", || {
        b.attr_css(link_css, "value").filter(|l| *l != old_link)
    });
    assert!(new_link.contains("#invite=2."), "{new_link}");
    let secret = old_link.rsplit('.').next().expect("a secret");
    let refused = post(
        &b,
        &format!("/api/matches/{first}/join"),
        json!({"seat": 2, "invite": secret}),
        None,
    );
    assert_eq!(refused[0], json!(403), "{refused}");

    // Confirmed: the new game opens at its own address; Back returns.
    crate::open_custom(&b);
    b.click_css("#new-game");
    b.click_css("dialog.confirm-dialog button.confirm");
    let second = b.wait_for_match_address("chutes", Some(first.as_str()));
    wait_for_game(&b);
    assert_eq!(server_moves(&b, &second), 0);
    b.script("history.back();", vec![]);
    b.wait_for("the first game again", || {
        (b.script("return location.pathname;", vec![]) == json!(format!("/chutes/m/{first}")))
            .then_some(())
    });
    wait_for_game(&b);
    wait_for_logged(&b, 1);
}

#[test]
fn a_whole_game_is_played_by_keyboard() {
    let b = Browser::open();
    open_new_game(&b);
    // N goes to the form; Tab reaches Start; Enter starts.
    b.press("n");
    b.wait_for("the focus on the form", || {
        (b.script("return document.activeElement.id;", vec![]) == json!("board-select"))
            .then_some(())
    });
    // On the way, the seed is typed: 9, a game of 18 rolls.
    let mut seeded = false;
    for _ in 0..40 {
        let focused = b.script("return document.activeElement.id;", vec![]);
        if focused == json!("new-game") {
            break;
        }
        if focused == json!("seed") {
            b.press("9");
            seeded = true;
        }
        b.press(TAB);
    }
    assert_eq!(
        b.script("return document.activeElement.id;", vec![]),
        json!("new-game"),
        "Tab reaches Start"
    );
    assert!(seeded, "Tab reaches the seed");
    b.press(ENTER);
    let id = wait_for_game(&b);
    b.wait_for_text("#status", "Player 1 to roll");
    // The focus is on Roll: Enter rolls; R rolls.
    assert_eq!(
        b.script("return document.activeElement.id;", vec![]),
        json!("roll")
    );
    b.press(ENTER);
    wait_for_logged(&b, 1);
    b.wait_for_text("#status", "Player 2 to roll");
    // Enter on Roll keeps the focus on Roll: Enter again rolls for Player 2.
    b.wait_for("the focus back on Roll", || {
        (b.script("return document.activeElement.id;", vec![]) == json!("roll")).then_some(())
    });
    b.press(ENTER);
    wait_for_logged(&b, 2);
    b.wait_for_text("#status", "Player 1 to roll");
    b.press("r");
    wait_for_logged(&b, 3);
    b.wait_for_text("#status", "Player 2 to roll");
    // E plays to the end.
    b.select("#speed", "60");
    b.press("e");
    wait_for_end(&b);
    let view = wait_until_shown(&b, &id);
    let total = view["moves"].as_u64().expect("moves");
    assert_eq!(total, 18, "the typed seed's game");
    // The arrow keys step through the finished game (Roll has gone, and
    // the focus with it).
    b.press(HOME);
    b.wait_for_text("#replay .replay-position", &format!("Move 0 of {total}"));
    b.press(ARROW_RIGHT);
    b.wait_for_text("#replay .replay-position", &format!("Move 1 of {total}"));
    b.wait_for_text("#status", "Replay, move 1");
    b.press(END);
    b.wait_for_text(
        "#replay .replay-position",
        &format!("Move {total} of {total}"),
    );
    wait_for_end(&b);
    // The keys are written on the page.
    let keys = b.text_css(".keys-panel");
    for key in ["R", "E", "S", "N"] {
        assert!(keys.contains(key), "{keys}");
    }
    // The status line is announced; the board has a role and a label.
    assert_eq!(b.attr_css("#status", "role").as_deref(), Some("status"));
    assert_eq!(b.attr_css("#board", "role").as_deref(), Some("img"));
}

/// A teacher's scripted game: each roll chosen at the screen.
#[test]
fn chosen_rolls_play_a_scripted_game() {
    let b = Browser::open();
    open_new_game(&b);
    b.select("#dice", "chosen");
    b.wait_for("the seed to be hidden", || {
        b.attr_css("#seed-field", "hidden").map(|_| ())
    });
    let id = start_game(&b, &["here"], None);
    b.wait_for("the roll chooser", || {
        b.attr_css("#chosen", "hidden").is_none().then_some(())
    });
    assert!(
        b.attr_css("#watch", "hidden").is_some(),
        "no play to the end"
    );
    // 1 climbs 1→38; then 6, 6, 1, 4, 3, 6 wins (the library's own example).
    b.select("#chosen-roll", "1");
    b.click_css("#roll");
    wait_for_logged(&b, 1);
    b.wait_for("the token on 38", || {
        (token_squares(&b) == vec![38]).then_some(())
    });
    for (n, key) in ["6", "6", "1", "4", "3", "6"].iter().enumerate() {
        wait_until_enabled(&b, "#roll");
        b.press(key);
        wait_for_logged(&b, n as u64 + 2);
    }
    b.wait_for_text("#status", "You win after 7 rolls.");
    assert_eq!(server_moves(&b, &id), 7);
}

#[test]
fn every_state_of_the_page_fits_every_screen() {
    let b = Browser::open();
    open_new_game(&b);
    check_every_size(&b, "the new-game page");
    shoot(&b, "chutes-new");
    let id = start_game(&b, &["here", "open", "bot"], None);
    b.press("r");
    wait_for_logged(&b, 1);
    wait_until_shown(&b, &id);
    check_every_size(&b, "a game with a friend invited and a bot");
    shoot(&b, "chutes-invite");
    // A spectator's view of it.
    b.script("localStorage.clear();", vec![]);
    b.visit(&format!("/chutes/m/{id}"));
    wait_for_game(&b);
    b.wait_for_text("#you", "You are watching");
    check_every_size(&b, "a spectator's view");
    // A game at one screen, in play and finished.
    open_new_game(&b);
    // Seed 32: a four-player game of 30 rolls.
    let id = start_game(&b, &["here", "here", "here", "here"], Some(32));
    b.press("r");
    wait_for_logged(&b, 1);
    check_every_size(&b, "four players at one screen");
    shoot(&b, "chutes-play");
    b.select("#speed", "60");
    b.press("e");
    wait_for_end(&b);
    wait_until_shown(&b, &id);
    check_every_size(&b, "a finished game");
    shoot(&b, "chutes-won");
}

/// Screenshots of the page as it stands, on a phone and a laptop.
fn shoot(b: &Browser, name: &str) {
    for size in [VIEWPORTS[0], VIEWPORTS[2]] {
        set_size(b, size);
        b.script("window.scrollTo(0, 0);", vec![]);
        b.screenshot_as_is(&format!("{name}-{}", size.name));
    }
    set_viewport(
        b,
        Viewport {
            name: "window",
            width: 1400,
            height: 1000,
        },
    );
}

/// Waits until the control `css` is enabled (neither disabled nor
/// aria-disabled: Roll keeps the focus while it cannot be pressed).
pub(crate) fn wait_until_enabled(b: &Browser, css: &str) {
    b.wait_for(&format!("{css} to be enabled"), || {
        (b.attr_css(css, "disabled").is_none()
            && b.attr_css(css, "aria-disabled").as_deref() != Some("true"))
        .then_some(())
    });
}

/// A question (a modal dialog) at every viewport: it fits, its buttons can
/// be tapped, and the audit passes. (What is behind a modal dialog is
/// covered by it, and out of reach on purpose.)
fn check_question(b: &Browser, what: &str) {
    for size in VIEWPORTS {
        set_viewport(b, size);
        assert_eq!(
            crate::checks::sideways_overflow(b),
            0,
            "{what} at {}",
            size.name
        );
        let fits = b.script(
            "const r = document.querySelector('dialog[open]').getBoundingClientRect(); \
             return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight;",
            vec![],
        );
        assert_eq!(
            fits,
            json!(true),
            "{what} at {}: the dialog is inside the window",
            size.name
        );
        if size.is_phone() {
            let small = crate::checks::small_targets(b, 44.0)
                .into_iter()
                .filter(|s| s.contains("dialog") || s.contains("confirm") || s.contains("cancel"))
                .collect::<Vec<_>>();
            assert!(small.is_empty(), "{what} at {}: {small:?}", size.name);
        }
        let problems = crate::checks::audit(b);
        assert!(problems.is_empty(), "{what} at {}: {problems:?}", size.name);
    }
    set_viewport(
        b,
        Viewport {
            name: "window",
            width: 1400,
            height: 1000,
        },
    );
}

/// Issue 12's game among friends: two people on their own browsers play a
/// two-seat game to the end (the maker invites, the friend opens the link);
/// one reloads mid-game; the server restarts mid-game; a third person
/// watches live; nobody can move out of turn or after the end.
#[test]
fn two_people_play_from_their_own_browsers() {
    // It restarts the server: one of its own.
    let server = crate::OwnServer::start();
    let people = Browser::group_on(&server, 3);
    let (maker, friend, watcher) = (&people[0], &people[1], &people[2]);

    open_new_game(maker);
    maker.select("#chutes-players", "2");
    maker.select("#chutes-seat-2", "open");
    // A game others join draws its own seed: none is offered.
    maker.wait_for("the seed to be hidden", || {
        maker.attr_css("#seed-field", "hidden").map(|_| ())
    });
    let id = start_game(maker, &["here", "open"], None);
    maker.wait_for_text("#status", "Your turn, Player 1: roll.");
    let link_css = "#seats li.seat[data-seat='2'] input.link-field";
    let link = maker.wait_for("the invite link", || maker.attr_css(link_css, "value"));
    assert!(
        link.starts_with(&format!("{}/chutes/m/{id}#invite=2.", maker.base())),
        "{link}"
    );

    // The friend opens the link and gives a name: the seat is theirs, the
    // secret leaves the address bar, and the maker sees the seat taken.
    crate::open_invite(friend, &link, "Bo");
    wait_for_game(friend);
    friend.wait_for_text("#you", "You play Bo (purple).");
    assert_eq!(
        friend.script("return location.hash;", vec![]),
        json!(""),
        "the invite leaves the address"
    );
    maker.wait_for_text("#seats li.seat[data-seat='2']", "taken");
    assert!(maker.find_all(link_css).is_empty(), "no link once taken");
    check_every_size(friend, "the friend's view");

    // A third person watches.
    watcher.visit(&format!("/chutes/m/{id}"));
    wait_for_game(watcher);
    watcher.wait_for_text("#you", "You are watching this game.");
    assert!(watcher.attr_css("#roll", "hidden").is_some());
    assert!(watcher.attr_css("#watch", "hidden").is_some());

    // Out of turn: the friend's Roll is disabled and R does nothing.
    friend.wait_for_text("#status", "Player 1 to roll, on their own device.");
    assert_eq!(
        friend.attr_css("#roll", "aria-disabled").as_deref(),
        Some("true")
    );
    friend.press("r");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(server_moves(friend, &id), 0, "no move out of turn");

    // Turn by turn; each move reaches the others live.
    maker.press("r");
    for b in [maker, friend, watcher] {
        wait_for_logged(b, 1);
    }
    friend.wait_for_text("#status", "Your turn, Bo: roll.");
    wait_until_enabled(friend, "#roll");
    friend.click_css("#roll");
    for b in [maker, friend, watcher] {
        wait_for_logged(b, 2);
    }

    // The friend reloads: the page brings the game and the seat back.
    friend.visit(&format!("/chutes/m/{id}"));
    wait_for_game(friend);
    friend.wait_for_text("#you", "You play Bo (purple).");
    assert_eq!(logged_moves(friend), vec![1, 2]);
    maker.wait_for_text("#status", "Your turn, Player 1: roll.");
    wait_until_enabled(maker, "#roll");
    maker.press("r");
    for b in [maker, friend, watcher] {
        wait_for_logged(b, 3);
    }
    wait_until_enabled(friend, "#roll");
    friend.press("r");
    for b in [maker, friend, watcher] {
        wait_for_logged(b, 4);
    }

    // The server restarts mid-game: every page reconnects and goes on.
    server.restart();
    for b in [maker, friend, watcher] {
        b.wait_for_text("#connection", "Live");
    }
    wait_until_enabled(maker, "#roll");
    maker.press("r");
    for b in [maker, friend, watcher] {
        wait_for_logged(b, 5);
    }

    // Both play their seats to the end. The button is disabled while the
    // last move's tokens still walk (a click then does nothing): wait.
    wait_until_enabled(maker, "#watch");
    maker.click_css("#watch");
    friend.wait_for_text("#status", "Your turn");
    wait_until_enabled(friend, "#watch");
    friend.click_css("#watch");
    let mut end = None;
    for b in [maker, friend, watcher] {
        b.wait_for_text("#status", " after ");
        end = Some(wait_until_shown(b, &id));
    }
    let end = end.expect("the end");
    let total = end["moves"].as_u64().expect("moves");
    for b in [maker, friend, watcher] {
        assert_eq!(
            logged_moves(b),
            (1..=total).collect::<Vec<_>>(),
            "every move once, in order"
        );
    }
    // The result, said to each: the winner, the loser, the watcher.
    let winner = end["winner"].as_u64().expect("a winner");
    let (won, lost) = if winner == 1 {
        (maker, friend)
    } else {
        (friend, maker)
    };
    // The friend joined as Bo.
    let winner_name = if winner == 2 {
        "Bo".to_string()
    } else {
        format!("Player {winner}")
    };
    won.wait_for_text("#status", "You win after");
    lost.wait_for_text("#status", &format!("You lost: {winner_name} wins after"));
    watcher.wait_for_text("#status", &format!("{winner_name} wins after"));
    // The seats alternated: every move by the seat whose turn it was.
    let seats = watcher.script(
        "return [...document.querySelectorAll('#log li[data-move] .swatch')].map((s) => s.className);",
        vec![],
    );
    let alternating: Vec<Value> = (0..total)
        .map(|n| json!(format!("swatch p{}", n % 2 + 1)))
        .collect();
    assert_eq!(seats, json!(alternating), "never out of turn");
    let turns = maker.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0] + '/record').then((r) => r.json()).then((r) => done(r.moves.length));",
        vec![json!(id)],
    );
    assert_eq!(turns, json!(total), "the record has each move once");

    // After the end: no Roll, and a move sent anyway is refused.
    for b in [maker, friend] {
        assert!(b.attr_css("#roll", "hidden").is_some());
        b.press("r");
    }
    let token = token(friend, &id).expect("the friend's token");
    let refused = post(
        friend,
        &format!("/api/matches/{id}/moves"),
        json!({"move": "roll", "after": total}),
        Some(&token),
    );
    assert_eq!(refused[0], json!(409), "{refused}");
    assert_eq!(server_moves(friend, &id), total);
    maker.screenshot_as_is("chutes-friends-maker");
    friend.screenshot_as_is("chutes-friends-friend");
}

/// Two tabs of one device on one seat click Roll at the same moment: one
/// roll is played, the other tab is told and shows the game as it is.
#[test]
fn two_tabs_on_one_seat_never_play_a_move_twice() {
    let b = Browser::open();
    open_new_game(&b);
    let id = start_game(&b, &["here", "here"], Some(21));
    b.wait_for_text("#status", "Player 1 to roll");
    // A second tab on the same game (opened by this one, so that one
    // script can reach both).
    b.script(
        "window.second = window.open(location.href, 'second'); return true;",
        vec![],
    );
    b.wait_for("the second tab to be ready", || {
        let ready = b.script(
            "const w = window.second; if (!w || !w.document || !w.document.body) return false; \
             const roll = w.document.querySelector('#roll'); \
             return w.document.body.dataset.ready === 'game' && !!roll && roll.getAttribute('aria-disabled') === 'false' && \
               (w.document.querySelector('#connection') || {}).textContent.includes('Live');",
            vec![],
        );
        (ready == json!(true)).then_some(())
    });
    wait_until_enabled(&b, "#roll");
    b.script(
        "window.second.document.querySelector('#roll').click(); \
         document.querySelector('#roll').click(); return true;",
        vec![],
    );
    wait_for_logged(&b, 1);
    b.wait_for("the second tab to show move 1", || {
        let moves = b.script(
            "return [...window.second.document.querySelectorAll('#log li[data-move]')].map((li) => Number(li.dataset.move));",
            vec![],
        );
        (moves == json!([1])).then_some(())
    });
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert_eq!(server_moves(&b, &id), 1, "one roll for two tabs");
    assert_eq!(logged_moves(&b), vec![1]);
    let told = b.script(
        "return [document, window.second.document].map((d) => d.querySelector('#game-error').textContent);",
        vec![],
    );
    assert!(
        told.as_array().is_some_and(|t| t
            .iter()
            .any(|m| m.as_str().unwrap_or("").contains("not played"))),
        "the tab that lost the race is told: {told}"
    );
    // Both go on from the same game: the next roll is Player 2's, once.
    b.wait_for_text("#status", "Player 2 to roll");
    wait_until_enabled(&b, "#roll");
    b.click_css("#roll");
    wait_for_logged(&b, 2);
    b.script("window.second.close(); return true;", vec![]);
    assert_eq!(server_moves(&b, &id), 2);
}

#[test]
fn a_board_is_designed_to_targets_in_the_analysis_and_played() {
    let b = Browser::open();
    open_new_game(&b);
    b.click_css("#tab-analysis");
    b.wait_for_text("#analysis-status", "exact figures");
    b.fill("#d-mean", "40");
    b.select("#d-players", "4");
    b.fill("#d-fair", "0.012");
    b.fill("#d-seed", "1");
    b.click_css("#design-go");
    let status = b.wait_for_text("#design-status", "Every target met");
    assert!(status.contains("judging"), "{status}");
    let targets = b.text_css("#design-targets");
    assert!(
        targets.contains("Met: a game lasts 39.96 rolls on average (asked 40 ± 0.1)"),
        "{targets}"
    );
    assert!(
        targets.contains("Met: every seat's chance is within"),
        "{targets}"
    );
    b.find("#design-board svg");
    check_sizes(&b, "the designed board", false);
    b.screenshot("chutes-design");
    // Analysed: the designed board's own figures.
    b.click_css("#design-analyse");
    let figures = b.wait_for_text("#figures", "39.960 rolls");
    assert!(figures.contains("Mean length"), "{figures}");
    // Played: the play tab's next game is on the designed board.
    b.click_css("#design-play");
    let next = b.wait_for_text("#board-info", "Next game");
    // Named by its seed and targets, and played by the four players it was
    // designed for.
    assert!(
        next.contains("design-1, mean 40 ± 0.1, 4 players"),
        "{next}"
    );
    let players = b.script(
        "return document.querySelector('#chutes-players').value;",
        Vec::new(),
    );
    assert_eq!(players, serde_json::json!("4"));
    // A target that cannot be is refused in words, nothing searched.
    b.click_css("#tab-analysis");
    b.select("#d-players", "1");
    b.click_css("#design-go");
    b.wait_for_text("#design-error", "give 2 or more players");
}

#[test]
fn the_designer_takes_the_command_lines_options_and_starts_from_a_board() {
    let b = Browser::open();
    open_new_game(&b);
    b.click_css("#tab-analysis");
    b.wait_for_text("#analysis-status", "exact figures");
    b.select("#an-board", "classic");
    // The family's question, nearer: the classic board a little shorter,
    // changed as little as possible.
    b.click_css("#d-from");
    b.fill("#d-mean", "37±0.5");
    b.select("#d-players", "1");
    b.fill("#d-fair", "");
    b.fill("#d-max-jump", "60");
    b.fill("#d-seed", "1");
    b.click_css("#design-go");
    b.wait_for_text("#design-status", "Every target met");
    let targets = b.text_css("#design-targets");
    assert!(
        targets.contains("Changed from the starting board:"),
        "{targets}"
    );
    assert!(targets.contains("Kept: "), "the board rules: {targets}");
    // The name says where it came from.
    b.click_css("#design-play");
    let next = b.wait_for_text("#board-info", "Next game");
    assert!(next.contains("design-1, from classic"), "{next}");
    // Die faces, jump lengths and a rule allowed reach the server: a
    // 4-sided die's board, its jumps within 3 to 12 squares.
    b.click_css("#tab-analysis");
    b.click_css("#d-from");
    b.fill("#d-size", "60");
    b.fill("#d-chutes", "4");
    b.fill("#d-ladders", "4");
    b.fill("#d-min-jump", "3");
    b.fill("#d-max-jump", "12");
    b.fill("#d-faces", "4");
    b.fill("#d-mean", "");
    b.fill("#d-percentile", "90:<=60");
    b.click_css("#d-allow input[value=crossings]");
    b.click_css("#design-go");
    b.wait_for_text("#design-status", "Every target met");
    let targets = b.text_css("#design-targets");
    assert!(targets.contains("90% of games end within"), "{targets}");
    assert!(targets.contains("Allowed: "), "{targets}");
    // A shortest game no board can have is refused at once, in words.
    b.fill("#d-percentile", "");
    b.fill("#d-shortest", "50");
    b.click_css("#design-go");
    b.wait_for_text("#design-error", "no board can meet the shortest target");
}

/// A roll made while the server cannot be reached is kept, the page says
/// so in plain words, and it is sent again with the same move number once
/// the server answers: played once, not dropped.
#[test]
fn a_roll_made_while_the_server_is_down_is_played_when_it_is_back() {
    let server = crate::OwnServer::start();
    let b = Browser::open_on(&server);
    open_new_game(&b);
    let id = start_game(&b, &["here", "here"], Some(5));
    b.wait_for_text("#status", "Player 1 to roll");
    // Two people at one screen: no "Live" line to read (nobody else moves),
    // but the connection is live.
    b.wait_for("the live connection", || {
        b.attr_css("#connection .connection", "data-state")
            .filter(|s| s == "live")
    });
    server.while_down(|| {
        b.press("r");
        b.wait_for_text("#connection", "your move is kept and sent again");
    });
    wait_for_logged(&b, 1);
    b.wait_for_text("#status", "Player 2 to roll");
    let view = wait_until_shown(&b, &id);
    assert_eq!(view["moves"], 1, "played once: {view}");
    assert!(b.text_css("#game-error").is_empty(), "no error shown");
}

/// The squares a token was seen on, by watching its `data-square` while a
/// roll is shown, and the die's face; with reduced motion the token is put
/// where it ends at once.
fn squares_seen_while_rolling(b: &Browser) -> (Vec<u64>, Option<String>) {
    let seen = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         const token = document.querySelector('#board svg .token[data-player=\"1\"]'); \
         const seen = [Number(token.dataset.square)]; \
         const watch = new MutationObserver(() => { \
           const now = Number(token.dataset.square); \
           if (seen[seen.length - 1] !== now) seen.push(now); }); \
         watch.observe(token, {attributes: true, attributeFilter: ['data-square']}); \
         document.getElementById('roll').click(); \
         setTimeout(() => { watch.disconnect(); \
           const die = document.getElementById('die'); \
           done([seen, die.hidden ? null : die.dataset.roll, die.classList.contains('tumble')]); }, 2500);",
        vec![],
    );
    let squares = seen[0]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let die = seen[1].as_str().map(str::to_string);
    (squares, die)
}

/// A roll is shown as a person can follow it: the die shows the roll and
/// the token walks the count square by square; with reduced motion asked
/// for, nothing moves: the token is put on its square and no die tumbles.
#[test]
fn a_roll_walks_the_token_unless_less_motion_is_asked_for() {
    let b = Browser::open();
    for reduce in [false, true] {
        b.reduce_motion(reduce);
        open_new_game(&b);
        // Seed 3: the first roll is more than 2, so the walk is seen.
        let id = start_game(&b, &["here", "bot"], Some(3));
        wait_until_enabled(&b, "#roll");
        let (squares, die) = squares_seen_while_rolling(&b);
        let view = wait_until_shown(&b, &id);
        let rolled = view["view"]["players"][0]["square"]
            .as_u64()
            .expect("a square");
        assert!(rolled > 0, "the token moved");
        if reduce {
            assert!(
                squares.len() <= 2,
                "with less motion the token is put where it ends: {squares:?}"
            );
            assert_eq!(die, None, "no die is shown with less motion");
        } else {
            assert!(
                squares.len() >= 3,
                "the token walks square by square: {squares:?}"
            );
            assert_eq!(
                squares[..3],
                [0, 1, 2],
                "from the start, one square at a time: {squares:?}"
            );
            assert!(die.is_some(), "the die shows the roll");
        }
    }
    b.reduce_motion(false);
}

/// At 1280 × 800, moves leave the page where it is (the header stays in
/// view: the page does not scroll itself), and a spectator's tallies of four
/// players fit their panel, there and on a big monitor (2560 × 1440, where
/// the board, sized by the height, leaves the side column its narrowest).
#[test]
fn moves_leave_the_page_still_and_a_spectators_tallies_fit() {
    let b = Browser::open_at(1280, 800);
    open_new_game(&b);
    let id = start_game(&b, &["here", "here", "here", "here"], Some(5));
    for n in 1..=4 {
        wait_until_enabled(&b, "#roll");
        b.press("r");
        wait_for_logged(&b, n);
    }
    let scrolled = b.script("return window.scrollY;", vec![]);
    assert_eq!(scrolled, json!(0), "the page did not scroll itself");
    // A spectator's view of the same game.
    b.script("localStorage.clear();", vec![]);
    b.visit(&format!("/chutes/m/{id}"));
    wait_for_game(&b);
    b.wait_for_text("#you", "You are watching this game.");
    assert_eq!(b.script("return window.scrollY;", vec![]), json!(0));
    for (name, width, height) in [("laptop", 1280, 800), ("big monitor", 2560, 1440)] {
        set_size(
            &b,
            Viewport {
                name,
                width,
                height,
            },
        );
        let fits = b.script(
            "const t = document.getElementById('players-table'); \
             const p = t.closest('.panel'); \
             const box = p.getBoundingClientRect(), r = t.getBoundingClientRect(); \
             return [r.right <= box.right + 0.5 && r.left >= box.left - 0.5, p.scrollWidth <= p.clientWidth];",
            vec![],
        );
        assert_eq!(
            fits,
            json!([true, true]),
            "the tallies fit their panel at {width} × {height}"
        );
    }
    // The tallies' headers and names keep their words whole, on a laptop
    // and on a phone ("Ladders" was drawn as "Ladd" over "ers"), and fit.
    for size in [VIEWPORTS[0], VIEWPORTS[2]] {
        set_size(&b, size);
        assert_page_fits(&b, "a spectator's tallies", size);
    }
}

/// A board chosen for the next game takes the last one's place at once,
/// once its picture has come: the place never empties meanwhile (it did,
/// and the form below it moved from under a click).
#[test]
fn the_next_games_board_takes_the_last_ones_place_at_once() {
    let b = Browser::open();
    open_new_game(&b);
    wait_for_count(&b, "#board svg g.square", 100);
    // What the board's place holds after each change to it.
    b.script(
        "window.boardHeld = []; \
         const board = document.getElementById('board'); \
         new MutationObserver(() => window.boardHeld.push(board.querySelectorAll('svg').length)) \
           .observe(board, {childList: true});",
        vec![],
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    upload(&b, dir.path(), "next.toml", b"size = 400\n");
    wait_for_count(&b, "#board svg g.square", 400);
    let held = b.script("return window.boardHeld;", vec![]);
    assert_eq!(
        held,
        json!([1]),
        "one picture in its place after each change"
    );
}

/// On a phone (390 × 844) the board reads: its square numbers and the
/// tokens' numbers are drawn at 12 CSS px or more, and Roll is on the
/// first screen.
#[test]
fn on_a_phone_the_board_reads_at_twelve_pixels() {
    let b = Browser::open_at(390, 844);
    open_new_game(&b);
    start_game(&b, &["here", "bot"], Some(3));
    // The board is redrawn as the bot moves: measure once both are drawn.
    let sizes = b.wait_for("the board's numbers and tokens", || {
        let sizes = b.script(
            "const number = document.querySelector('#board svg text.square-number'); \
             const token = document.querySelector('#board svg .token text'); \
             if (!number || !token) return null; \
             const px = (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a; \
             return [px(number), px(token)];",
            vec![],
        );
        (!sizes.is_null()).then_some(sizes)
    });
    let (numbers, tokens) = (
        sizes[0].as_f64().unwrap_or(0.0),
        sizes[1].as_f64().unwrap_or(0.0),
    );
    assert!(numbers >= 12.0, "square numbers at {numbers:.1} px");
    assert!(tokens >= 12.0, "token numbers at {tokens:.1} px");
    let roll_bottom = b.script(
        "return document.getElementById('roll').getBoundingClientRect().bottom;",
        vec![],
    );
    assert!(
        roll_bottom.as_f64().unwrap_or(f64::MAX) <= 844.0,
        "Roll on the first screen: {roll_bottom}"
    );
}

/// Chances as the page words them: whole percents adding up to 100 (the
/// largest remainders round up), "<1%" and ">99%" near the ends, "0%" and
/// "100%" only when certain.
fn percents(chances: &[f64]) -> Vec<String> {
    let mut whole: Vec<f64> = chances.iter().map(|p| (p * 100.0).floor()).collect();
    let short = 100.0 - whole.iter().sum::<f64>();
    let mut order: Vec<usize> = (0..chances.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (chances[a] * 100.0 - whole[a], chances[b] * 100.0 - whole[b]);
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for &i in order.iter().take(short.max(0.0) as usize) {
        whole[i] += 1.0;
    }
    chances
        .iter()
        .zip(&whole)
        .map(|(&p, &w)| {
            if p >= 1.0 - 1e-12 {
                "100%".into()
            } else if p <= 1e-12 {
                "0%".into()
            } else if w < 1.0 {
                "<1%".into()
            } else if w > 99.0 {
                ">99%".into()
            } else {
                format!("{w}%")
            }
        })
        .collect()
}

/// The chances sentence the page should show for the server's view.
fn chances_words(view: &Value) -> String {
    let names = view["names"].as_array().expect("names");
    let chances: Vec<f64> = view["view"]["chances"]
        .as_array()
        .expect("chances")
        .iter()
        .map(|p| p.as_f64().expect("a chance"))
        .collect();
    let parts: Vec<String> = names
        .iter()
        .zip(percents(&chances))
        .map(|(name, words)| format!("{} {words}", name.as_str().expect("a name")))
        .collect();
    format!("Chances to win: {}", parts.join(" · "))
}

#[test]
fn the_chances_bar_follows_every_roll_against_a_bot() {
    let b = Browser::open();
    open_new_game(&b);
    let id = start_game(&b, &["here", "bot"], Some(5));
    let view = wait_until_shown(&b, &id);
    assert_eq!(b.text_css("#chances-words"), chances_words(&view));
    // In sight while the game is played: beside the status, not in a fold.
    assert_eq!(
        b.script(
            "const c = document.getElementById('chances'); \
             return [c.checkVisibility(), !!c.closest('#game-panel')];",
            vec![]
        ),
        json!([true, true]),
        "the chances are shown beside the status"
    );
    assert_eq!(
        b.find_all("#chances-bar .chance").len(),
        2,
        "one part of the bar a player"
    );
    // Each roll (the player's, then the bot's) moves the chances, and the
    // page shows the server's figures once the move is shown.
    let mut seen = vec![view["view"]["chances"].clone()];
    for _ in 0..3 {
        let moves = server_view(&b, &id)["moves"].as_u64().expect("moves");
        b.click_css("#roll");
        wait_for_logged(&b, moves + 2);
        let view = wait_until_shown(&b, &id);
        b.wait_for_text("#chances-words", &chances_words(&view));
        seen.push(view["view"]["chances"].clone());
    }
    seen.dedup();
    assert!(seen.len() > 1, "the chances never changed: {seen:?}");
    // At the end: 100% for the winner, 0% for the other.
    b.click_css("#watch");
    wait_for_end(&b);
    let view = wait_until_shown(&b, &id);
    let words = b.text_css("#chances-words");
    assert_eq!(words, chances_words(&view));
    assert!(
        words.contains("100%") && words.contains("0%"),
        "the end's chances: {words}"
    );
    // The look back: a line a player over every move, drawn by the server.
    let label = b.wait_for_chart("#chances-chart");
    assert!(label.contains("chance to win after every move"), "{label}");
    let svg = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0] + '/chances.svg').then((r) => r.text()).then(done, (e) => done(String(e)));",
        vec![json!(id)],
    );
    let svg = svg.as_str().expect("the chart's SVG");
    assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
    // Under it, the move that changed its mover's chance most, in words.
    let swing = b.wait_for_text("#chances-swing", "The biggest swing: move ");
    assert!(
        swing.contains(" rolls ") && swing.contains("%). "),
        "{swing}"
    );
    // And each player's luck: their own swings added up, signed.
    let (_, luck) = swing.split_once("(0 on average): ").expect("the luck");
    let names = view["names"].as_array().expect("names");
    let parts: Vec<&str> = luck.trim_end_matches('.').split(", ").collect();
    assert_eq!(parts.len(), names.len(), "{luck}");
    for (part, name) in parts.iter().zip(names) {
        let name = name.as_str().expect("a name");
        let figure = part
            .strip_prefix(name)
            .expect("the player's name first")
            .trim();
        assert!(
            (figure.starts_with('+') || figure.starts_with('−')) && figure.ends_with('%'),
            "{part}"
        );
    }
}
