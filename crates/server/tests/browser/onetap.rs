//! One-tap starts and a game that fits the screen: from the home page one
//! click starts a game against the computer in each game and the first
//! move follows in one more; a Chutes game against a bot keeps its board,
//! status and Roll on screen with the page short; "Play a friend" shows
//! the invite link and its QR code at once, and the friend meets "Join
//! Ada's game" with their name asked first.
//!
//! Terms:
//! - sizes: a laptop's window (1280 × 800) and a phone's (390 × 844).
//! - in view: an element's box meets the window (its top above the window's
//!   bottom and its bottom below the window's top); wholly in view: inside
//!   it.

use crate::Browser;
use crate::pages::wait_for_count;
use serde_json::{Value, json};

/// The window sizes every test here is run at.
const SIZES: [(u32, u32); 2] = [(1280, 800), (390, 844)];

/// Clicks `way` ("computer", "friend", "pass") on `game`'s home card.
fn tap_on_home(b: &Browser, game: &str, way: &str) {
    b.visit("/");
    b.wait_for("the home page", || b.attr_css("body", "data-ready"));
    b.click_css(&format!("#card-{game} button[data-way='{way}']"));
}

/// The box of the first element `css` selects, relative to the window:
/// [top, bottom, window height], or null.
fn placed(b: &Browser, css: &str) -> Value {
    b.script(
        "const e = document.querySelector(arguments[0]); if (!e) return null; \
         const r = e.getBoundingClientRect(); return [r.top, r.bottom, innerHeight, r.height];",
        vec![json!(css)],
    )
}

/// Whether `css` is wholly inside the window (`wholly`) or meets it.
fn in_view(b: &Browser, css: &str, wholly: bool) -> bool {
    let at = placed(b, css);
    let (Some(top), Some(bottom), Some(height), Some(tall)) = (
        at[0].as_f64(),
        at[1].as_f64(),
        at[2].as_f64(),
        at[3].as_f64(),
    ) else {
        return false;
    };
    if tall <= 0.0 {
        return false;
    }
    if wholly {
        top >= -0.5 && bottom <= height + 0.5
    } else {
        top < height && bottom > 0.0
    }
}

fn moves(b: &Browser) -> u64 {
    b.attr_css("body", "data-moves")
        .and_then(|m| m.parse().ok())
        .unwrap_or(0)
}

/// Waits until Roll can be pressed (this device's turn, nothing shown).
fn wait_roll(b: &Browser) {
    b.wait_for("Roll to be pressable", || {
        (b.attr_css("#roll", "aria-disabled").as_deref() == Some("false")).then_some(())
    });
}

/// Waits until the page shows its match; returns its id.
fn wait_idle_game(b: &Browser, game: &str) -> String {
    let id = b.wait_for_match_address(game, None);
    b.wait_for("the game shown", || {
        (b.attr_css("body", "data-match").as_deref() == Some(id.as_str())).then_some(())
    });
    id
}

/// From `/`, one click plays the computer in each game; one more makes the
/// first move (a roll, a Tycoon answer, a beam).
#[test]
fn one_click_plays_the_computer_in_each_game() {
    for (width, height) in SIZES {
        let b = Browser::open_at(width, height);
        // Chutes: the classic board, you and a bot; Roll is the main action.
        tap_on_home(&b, "chutes", "computer");
        wait_idle_game(&b, "chutes");
        wait_roll(&b);
        let players = b.script(
            "return [...document.querySelectorAll('#seats li.seat')].map((li) => li.dataset.state);",
            vec![],
        );
        assert_eq!(players, json!(["here", "bot"]), "you and a bot");
        assert!(b.text_css("#board-caption").contains("classic"));
        b.click_css("#roll");
        b.wait_for("the first roll", || (moves(&b) >= 1).then_some(()));

        // Tycoon: the original assignment's sample grid, with its
        // ladders, snakes and cards; the first answer is a button.
        tap_on_home(&b, "tycoon", "computer");
        wait_idle_game(&b, "tycoon");
        wait_for_count(&b, "#play-board svg g.ladder", 4);
        wait_for_count(&b, "#play-board svg g.snake", 4);
        assert!(
            !b.find_all("#play-board svg g.cell[data-card]").is_empty(),
            "the sample's cards are on the board"
        );
        let first = b.wait_for("an answer to click", || {
            b.find_all("#decision button:not([disabled])")
                .into_iter()
                .next()
        });
        // The answer holds the focus, not the page: a key plays it.
        let focused = b.script(
            "return document.activeElement.closest('#decision') !== null;",
            vec![],
        );
        assert_eq!(focused, json!(true), "Tycoon's first answer has the focus");
        b.click(&first);
        b.wait_for("the first Tycoon move", || (moves(&b) >= 1).then_some(()));

        // Baffle: a random box (not the fixed first game); a click on a
        // hole shoots the first beam.
        tap_on_home(&b, "baffle", "computer");
        let id = wait_idle_game(&b, "baffle");
        let setup = b.script_async(
            "const done = arguments[arguments.length - 1]; \
             fetch('/api/matches/' + arguments[0] + '/setup').then((r) => r.json()).then(done, (e) => done(String(e)));",
            vec![json!(id)],
        );
        assert_ne!(setup["fixed"], json!(true), "a random box: {setup}");
        b.find("#box[data-moves] svg g.hole");
        // On a phone the holes are smaller than a finger: a first tap
        // zooms the box in (baffle.rs), then the hole is tapped.
        if width < 600 {
            b.click_css("#box svg");
            b.wait_for("the box to zoom in", || {
                (b.attr_css("#zoom", "aria-pressed").as_deref() == Some("true")).then_some(())
            });
            b.script(
                "document.querySelector(\"#box svg g.hole[data-hole='10']\").scrollIntoView({block: 'nearest', inline: 'nearest'});",
                vec![],
            );
        }
        b.click_css("#box svg g.hole[data-hole='10']");
        b.wait_for("the first beam", || (moves(&b) >= 1).then_some(()));
    }
}

/// While a Chutes game against a bot is on, the page is a table: at
/// 1280 × 800 at most 1200 px tall with the board, the status and Roll in
/// view; on a phone the status and Roll in view with the board at least
/// partly.
#[test]
fn a_chutes_game_against_a_bot_fits_the_screen() {
    for (width, height) in SIZES {
        let b = Browser::open_at(width, height);
        tap_on_home(&b, "chutes", "computer");
        wait_idle_game(&b, "chutes");
        wait_roll(&b);
        b.click_css("#roll");
        b.wait_for("the bot's answer", || {
            (moves(&b) >= 2 && b.attr_css("body", "data-idle").as_deref() == Some("true"))
                .then_some(())
        });
        let tall = b
            .script("return document.documentElement.scrollHeight;", vec![])
            .as_f64()
            .unwrap_or(f64::MAX);
        let scrolled = b.script("return scrollY;", vec![]).as_f64().unwrap_or(0.0);
        assert_eq!(scrolled, 0.0, "the page did not scroll at {width}");
        if width >= 1000 {
            assert!(
                tall <= 1200.0,
                "the page is {tall} px tall at {width}×{height}"
            );
            assert!(
                in_view(&b, "#board svg", true),
                "the board in view: {}",
                placed(&b, "#board svg")
            );
        } else {
            assert!(
                in_view(&b, "#board svg", false),
                "the board at least partly in view: {}",
                placed(&b, "#board svg")
            );
        }
        assert!(
            in_view(&b, "#status", true),
            "the status in view at {width}: {}",
            placed(&b, "#status")
        );
        assert!(
            in_view(&b, "#roll", true),
            "Roll in view at {width}: {}",
            placed(&b, "#roll")
        );
        // The last move is on screen too: its line under the status (and,
        // on a laptop, the history's newest line).
        let last = b.text_css("#last-move");
        assert!(last.starts_with("Last move: "), "{last}");
        assert!(
            in_view(&b, "#last-move", true),
            "the last move in view at {width}: {}",
            placed(&b, "#last-move")
        );
        if width >= 1000 {
            assert!(
                in_view(&b, "#log li:last-child", true),
                "the history's last line in view: {}",
                placed(&b, "#log li:last-child")
            );
        }
        b.screenshot_as_is(&format!("onetap-chutes-bot-{width}"));
    }
}

/// "Play a friend" shows the invite link and its QR code at once; the
/// friend's browser meets "Join Ada's game", gives a name and takes the seat.
#[test]
fn play_a_friend_shows_the_invite_at_once_and_the_friend_joins_by_name() {
    let browsers = Browser::group(2);
    let (ada, bo) = (&browsers[0], &browsers[1]);
    ada.visit("/");
    ada.wait_for("the home page", || ada.attr_css("body", "data-ready"));
    // With no name kept, the name is asked first.
    ada.click_css("#card-chutes button[data-way='friend']");
    ada.wait_for_text("#card-chutes .quick-error", "Your name first");
    assert_eq!(
        ada.script("return document.activeElement.id;", vec![]),
        json!("home-your-name")
    );
    ada.fill("#home-your-name", "Ada");
    ada.script(
        "document.getElementById('home-your-name').dispatchEvent(new Event('change'));",
        vec![],
    );
    ada.click_css("#card-chutes button[data-way='friend']");
    let id = wait_idle_game(ada, "chutes");
    // The link and its QR code, at once, with no click to show them.
    let link = ada.wait_for("the invite link", || {
        ada.attr_css("#invite-card input.invite-card-link", "value")
    });
    assert!(
        link.contains(&format!("/chutes/m/{id}#invite=2.")),
        "{link}"
    );
    ada.find("#invite-card svg.qr-code");
    assert!(
        in_view(ada, "#invite-card svg.qr-code", false),
        "the QR code on screen"
    );
    assert!(ada.text_css("#invite-card").contains("Join Ada's game"));

    // The friend: "Join Ada's game", the name first.
    bo.goto(&link);
    bo.wait_for_text("#join-heading", "Join Ada's game");
    assert_eq!(
        bo.script("return document.activeElement.id;", vec![]),
        json!("join-name")
    );
    // No name: asked again, the seat still open.
    bo.click_css("#join-game");
    bo.wait_for_text("#join-gate .error", "Type your name first");
    bo.fill("#join-name", "Bo");
    bo.click_css("#join-game");
    bo.wait_for("Bo's seat", || {
        (bo.attr_css("body", "data-ready").as_deref() == Some("game")).then_some(())
    });
    assert!(bo.find_all("#join-gate").is_empty(), "the gate is gone");
    // Both see Bo in the second seat; Ada's invite card is gone.
    bo.wait_for_text("#seats li.seat[data-seat='2']", "Bo");
    ada.wait_for_text("#seats li.seat[data-seat='2']", "Bo");
    ada.wait_for("the invite card gone", || {
        ada.attr_css("#invite-card", "hidden").map(|_| ())
    });
    // Ada rolls; Bo's page has it his turn.
    ada.click_css("#roll");
    bo.wait_for_text("#status", "Your turn, Bo");
}
