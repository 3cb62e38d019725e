//! A game against a bot at a person's pace, on the page shell (every game
//! gets it; Chutes & Ladders shows it): your own roll's words stay readable
//! before the bot's move replaces them, the bot's move is shown, then it is
//! your turn again with the focus still on Roll; at the end the focus is on
//! Play again; stepping through a finished game never scrolls the page.
//!
//! Terms:
//! - **status record**: each text the status line showed, with the time (ms
//!   after Roll was pressed) it appeared, kept by a MutationObserver in the
//!   page.

use crate::Browser;
use crate::checks::{VIEWPORTS, set_viewport};
use crate::chutes::{
    open_new_game, start_game, wait_for_end, wait_for_logged, wait_until_enabled, wait_until_shown,
};
use crate::webdriver::keys::ARROW_RIGHT;
use serde_json::{Value, json};

/// Starts recording the status line's texts (the status record).
fn record_status(b: &Browser) {
    b.script(
        "window.said = []; window.t0 = performance.now(); \
         const status = document.getElementById('status'); \
         const note = () => { const text = status.textContent; \
           if (!window.said.length || window.said[window.said.length - 1][1] !== text) \
             window.said.push([Math.round(performance.now() - window.t0), text]); }; \
         note(); \
         window.sayObserver = new MutationObserver(note); \
         window.sayObserver.observe(status, {childList: true, characterData: true, subtree: true}); \
         return true;",
        vec![],
    );
}

/// The status record: (ms after it started, text).
fn status_record(b: &Browser) -> Vec<(u64, String)> {
    let said = b.script("return window.said;", vec![]);
    said.as_array()
        .map(|all| {
            all.iter()
                .filter_map(|pair| Some((pair[0].as_u64()?, pair[1].as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

fn active_id(b: &Browser) -> Value {
    b.script("return document.activeElement.id;", vec![])
}

/// Against a bot, your roll's words are still shown 0.8 s after they came
/// (the bot's roll waits a second), with motion and without; the bot's
/// roll is shown next; then it is your turn, and the focus never left Roll.
#[test]
fn your_roll_stays_readable_before_the_bots() {
    let b = Browser::open();
    for reduce in [false, true] {
        b.reduce_motion(reduce);
        open_new_game(&b);
        let id = start_game(&b, &["here", "bot"], Some(3));
        wait_until_enabled(&b, "#roll");
        record_status(&b);
        b.click_css("#roll");
        assert_eq!(active_id(&b), json!("roll"));
        // The bot's roll is shown, then it is Player 1's turn again.
        wait_for_logged(&b, 2);
        let view = wait_until_shown(&b, &id);
        b.wait_for_text("#status", "Player 1 to roll");
        wait_until_enabled(&b, "#roll");
        assert_eq!(view["moves"], 2, "one roll each: {view}");
        let said = status_record(&b);
        let own = said
            .iter()
            .position(|(_, text)| text.starts_with("Player 1 rolls"))
            .unwrap_or_else(|| panic!("your roll's words were shown: {said:?}"));
        let next = said
            .get(own + 1)
            .unwrap_or_else(|| panic!("something followed your roll: {said:?}"));
        assert!(
            next.1.starts_with("Bot rolls"),
            "the bot's roll is shown after yours: {said:?}"
        );
        assert!(
            next.0 - said[own].0 >= 800,
            "your roll's words stay at least 0.8 s before the bot's (reduced motion {reduce}): {said:?}"
        );
        assert_eq!(
            said.last().map(|(_, text)| text.as_str()),
            Some("Player 1 to roll."),
            "{said:?}"
        );
        assert_eq!(
            active_id(&b),
            json!("roll"),
            "the focus stays on Roll through the bot's turn"
        );
    }
    b.reduce_motion(false);
}

/// A game against a bot played to its end puts the focus on Play again;
/// stepping through it (the buttons, the arrow keys) keeps the page where
/// it is, on a laptop and on a phone.
#[test]
fn a_step_through_keeps_the_page_still() {
    let b = Browser::open();
    for size in [VIEWPORTS[2], VIEWPORTS[0]] {
        set_viewport(&b, size);
        open_new_game(&b);
        // Seed 9: a game of 18 rolls.
        let id = start_game(&b, &["here", "bot"], Some(9));
        b.select("#speed", "60");
        wait_until_enabled(&b, "#watch");
        b.click_css("#watch");
        wait_for_end(&b);
        let view = wait_until_shown(&b, &id);
        let total = view["moves"].as_u64().expect("moves");
        assert!(total > 6, "a game long enough to step through: {view}");
        b.wait_for("the focus on Play again", || {
            (b.script(
                "return document.activeElement.classList.contains('play-again');",
                vec![],
            ) == json!(true))
            .then_some(())
        });
        for place in [0, 200] {
            b.script("window.scrollTo(0, arguments[0]);", vec![json!(place)]);
            let still = b.script("return window.scrollY;", vec![]);
            b.script("document.querySelector('#replay .first').click();", vec![]);
            b.wait_for_text("#replay .replay-position", &format!("Move 0 of {total}"));
            for n in 1..=3 {
                b.script("document.querySelector('#replay .next').click();", vec![]);
                b.wait_for_text("#replay .replay-position", &format!("Move {n} of {total}"));
                b.wait_for_text("#status", &format!("Replay, move {n}"));
                assert_eq!(
                    b.script("return window.scrollY;", vec![]),
                    still,
                    "Next keeps the page still ({}, move {n})",
                    size.name
                );
            }
            // The arrow key, from the focus on Play again.
            b.press(ARROW_RIGHT);
            b.wait_for_text("#replay .replay-position", &format!("Move 4 of {total}"));
            assert_eq!(
                b.script("return window.scrollY;", vec![]),
                still,
                "→ keeps the page still ({})",
                size.name
            );
            assert!(
                !b.text_css("#status").contains(" after "),
                "a step does not show the result: {}",
                b.text_css("#status")
            );
        }
    }
}
