//! The pages every visitor meets, and what the browser tests share.

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

/// Waits until `css` selects exactly `n` elements.
pub(crate) fn wait_for_count(b: &Browser, css: &str, n: usize) {
    b.wait_for(&format!("{n} of {css}"), || {
        (b.find_all(css).len() == n).then_some(())
    });
}

/// The text of the first SVG element `css` selects (SVG elements have no
/// `innerText`), waiting for it to appear.
pub(crate) fn svg_text(b: &Browser, css: &str) -> String {
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
pub(crate) const ENTER: &str = "\u{E007}";
pub(crate) const ARROW_UP: &str = "\u{E013}";
pub(crate) const ARROW_RIGHT: &str = "\u{E014}";
pub(crate) const ARROW_LEFT: &str = "\u{E012}";
pub(crate) const CONTROL: &str = "\u{E009}";
/// Releases the modifier keys held.
pub(crate) const NULL: &str = "\u{E000}";
pub(crate) const DELETE: &str = "\u{E017}";
