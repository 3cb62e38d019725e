//! A game added to the server's registry with a page module of its own
//! (the tests' Nim, `crates/nim`: its crate, one registry line in this
//! binary's server, its `page.js`): listed, made, played against a bot and
//! between two browsers, looked back at step by step and drawn, with
//! nothing else of Parlor changed. (`parlor replay` of its record:
//! `crates/parlor/src/replay.rs`.)
//!
//! Terms:
//! - **page module**: the game's drawing and input (`/static/games/nim.js`),
//!   run on any game's page by the one page shell.
//! - **take button**: the module's `Take N` buttons, shown only to the
//!   player to move.

use crate::Browser;
use crate::checks::{VIEWPORTS, assert_page_fits, set_viewport};

const TAKES: &str = "#picture .nim-takes button";

/// The counters the page's pile shows as left, from its words.
fn pile_words(b: &Browser) -> String {
    b.attr_css("#picture svg.nim-pile", "aria-label")
        .unwrap_or_default()
}

/// Waits until this browser may take, or the game is over; true when it may take.
fn my_turn_or_the_end(b: &Browser) -> bool {
    b.wait_for("a take or the end", || {
        let status = b.attr_css("body", "data-status")?;
        if status != "playing" {
            return Some(false);
        }
        (!b.find_all(TAKES).is_empty()).then_some(true)
    })
}

/// Clicks `Take n` and waits for the server to have it.
fn take(b: &Browser, n: u8) {
    let before = b.attr_css("body", "data-moves").unwrap_or_default();
    b.click_css(&format!("{TAKES}[data-take='{n}']"));
    b.wait_for("the take to be played", || {
        (b.attr_css("body", "data-moves").unwrap_or_default() != before).then_some(())
    });
}

#[test]
fn a_game_with_its_own_page_module_is_played_against_a_bot_and_looked_back_at() {
    let b = Browser::open();
    b.visit("/nim");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    assert_eq!(b.text_css("#heading"), "Nim");
    assert!(
        b.text_css("#games-nav").contains("Nim"),
        "the registry's games"
    );
    assert!(
        b.attr_css("#about-page", "hidden").is_some(),
        "a game with its own page module is not said to be on any game's page"
    );
    // The registry's default seats: this browser against a bot.
    b.click_css("#start-game");
    let id = b.wait_for_match_address("nim", None);
    b.wait_for_text("#status", "Your turn");
    assert_eq!(pile_words(&b), "15 of 15 counters left");
    assert_eq!(b.find_all(TAKES).len(), 3, "take 1, 2 or 3");
    assert!(
        b.find_all("#move-form:not([hidden])").is_empty(),
        "no typed moves"
    );
    let mut takes = 0;
    while my_turn_or_the_end(&b) {
        take(&b, 1);
        takes += 1;
        assert!(takes <= 15, "a pile of 15 ends");
    }
    let said = b.wait_for_text("#status", "win");
    assert!(said == "You win." || said.starts_with("You lost"), "{said}");
    assert_eq!(pile_words(&b), "0 of 15 counters left");
    assert!(b.find_all(TAKES).is_empty(), "no take once it is over");

    // The look back: move 1's pile is the server's view at that step.
    b.wait_for("the replay bar", || b.text_now(".replay-position"));
    b.click_css("#moves-panel li[data-move='1']");
    b.wait_for_text(".replay-position", "Move 1 of");
    b.wait_for("move 1's pile", || {
        (pile_words(&b) == "14 of 15 counters left").then_some(())
    });
    let said = b.text_css("#status");
    assert!(said.ends_with("takes 1: 14 left."), "one stop: {said}");
    // Its words name the players: this browser's first take.
    let moves = b.text_css("#moves-panel");
    assert!(moves.contains("takes 1: 14 left"), "{moves}");
    // Drawn by the game's own picture too.
    let svg = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch(`/api/matches/${arguments[0]}/svg`).then((r) => r.text()).then(done, (e) => done(String(e)));",
        vec![serde_json::json!(id)],
    );
    let svg = svg.as_str().unwrap_or_default();
    assert!(
        svg.contains("Nim from 15 counters: 0 counters left"),
        "{svg}"
    );
    for size in [VIEWPORTS[0], VIEWPORTS[3]] {
        set_viewport(&b, size);
        assert_page_fits(&b, "Nim's page, at its end", size);
    }
    b.screenshot("added-game-nim");
}

#[test]
fn two_browsers_play_a_game_added_to_the_registry() {
    let people = Browser::group(2);
    let (ada, bo) = (&people[0], &people[1]);
    ada.visit("/nim");
    ada.wait_for("the page to be ready", || {
        ada.attr_css("body", "data-ready")
    });
    ada.fill("#nim-your-name", "Ada");
    ada.select("#nim-seat-2", "open");
    ada.click_css("#start-game");
    ada.wait_for_match_address("nim", None);
    let link = ada.wait_for("the invite link", || {
        ada.attr_css("#seats li.seat[data-seat='2'] input.link-field", "value")
    });
    crate::open_invite(bo, &link, "Bo");
    ada.wait_for_text("#status", "Your turn");
    assert!(bo.find_all(TAKES).is_empty(), "Bo waits for Ada");
    // Three each time: Ada takes the fifth and last three.
    let mut turn = [ada, bo].into_iter().cycle();
    for left in [12, 9, 6, 3, 0] {
        let b = turn.next().expect("a player");
        assert!(my_turn_or_the_end(b), "{left} left: a take");
        take(b, 3);
        for other in [ada, bo] {
            other.wait_for("the pile to be the same in both", || {
                (pile_words(other) == format!("{left} of 15 counters left")).then_some(())
            });
        }
    }
    ada.wait_for_text("#status", "You win.");
    bo.wait_for_text("#status", "You lost: Ada wins.");
    let moves = bo.text_css("#moves-panel");
    assert!(moves.contains("Ada takes 3: 12 left"), "{moves}");
    assert!(moves.contains("Bo takes 3: 9 left"), "{moves}");
}
