//! Text in board pictures on a phone (390 × 844): every text shown in a
//! picture is drawn at least 11 CSS pixels high (its font size times the
//! picture's scale on the screen); one too small to fit gives way (hidden
//! on purpose, `data-gives-way`) until a zoom or a wider screen shows it.

use crate::Browser;
use crate::words::make_match;
use serde_json::{Value, json};

/// The least size of a shown text in a picture, in CSS pixels.
const LEAST_PX: f64 = 11.0;

/// Every shown text of the page's pictures drawn under `LEAST_PX`: its
/// words, its class and its size.
fn small_texts(b: &Browser) -> Vec<Value> {
    let found = b.script(
        "const out = []; \
         for (const t of document.querySelectorAll('svg text')) { \
           if (t.dataset.givesWay === 'true' || t.getClientRects().length === 0) continue; \
           if (getComputedStyle(t).visibility === 'hidden' || getComputedStyle(t).display === 'none') continue; \
           if (t.closest('[hidden], [aria-hidden=\"true\"] title')) continue; \
           if (!t.textContent.trim()) continue; \
           const m = t.getScreenCTM(); if (!m) continue; \
           const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); \
           if (px < arguments[0]) out.push([t.textContent.slice(0, 24), t.getAttribute('class') || t.parentNode.getAttribute('class'), Math.round(px * 10) / 10]); \
         } \
         return out;",
        vec![json!(LEAST_PX)],
    );
    found.as_array().cloned().unwrap_or_default()
}

/// Waits until the page has drawn `n` moves and nothing is left to show.
fn settle(b: &Browser, n: u64) {
    b.wait_for(&format!("{n} moves shown"), || {
        let moves: u64 = b.attr_css("body", "data-moves")?.parse().ok()?;
        (moves >= n && b.attr_css("body", "data-idle").as_deref() == Some("true")).then_some(())
    });
}

fn assert_readable(b: &Browser, what: &str) {
    let small = small_texts(b);
    assert!(
        small.is_empty(),
        "{what}: texts under {LEAST_PX} px: {small:?}"
    );
}

#[test]
fn on_a_phone_every_shown_text_of_a_chutes_board_reads() {
    let b = Browser::open_at(390, 844);
    make_match(
        &b,
        "chutes",
        json!([{"plan": "here", "name": "Ada"}, "bot"]),
        json!({}),
        Some(3),
    );
    b.find("#board svg text.start-label");
    assert_readable(&b, "Chutes at the start");
    b.click_css("#roll");
    settle(&b, 2);
    assert_readable(&b, "Chutes after a roll");
    b.click_css(".move-list li[data-move='1']");
    b.find(".look-back .look-back-picture svg");
    assert_readable(&b, "Chutes, looking back");
}

#[test]
fn on_a_phone_every_shown_text_of_a_tycoon_grid_reads() {
    let b = Browser::open_at(390, 844);
    make_match(
        &b,
        "tycoon",
        json!([{"plan": "here", "name": "Ada"}, "easy", "easy", "easy"]),
        json!({"sample": true}),
        Some(5),
    );
    b.find(".picture.grid svg g.ty-tokens");
    assert_readable(&b, "Tycoon at the start");
    // The cells' numbers grew to be read rather than gave way.
    let shown = b.script(
        "return [...document.querySelectorAll('svg text.cell-number')].filter((t) => t.dataset.givesWay !== 'true').length;",
        vec![],
    );
    assert!(
        shown.as_u64().unwrap_or(0) >= 50,
        "cell numbers shown: {shown}"
    );
}

#[test]
fn on_a_phone_a_big_baffle_box_shows_its_numbers_when_zoomed() {
    let b = Browser::open_at(390, 844);
    make_match(
        &b,
        "baffle",
        json!([{"plan": "here", "name": "Ada"}]),
        json!({"size": 26, "mirrors": 20}),
        Some(7),
    );
    b.find("#box svg g.hole");
    assert_readable(&b, "a 26 × 26 box fitted");
    let hidden = b.script(
        "return document.querySelectorAll('#box svg text[data-gives-way]').length;",
        vec![],
    );
    assert!(
        hidden.as_u64().unwrap_or(0) > 0,
        "the holes' numbers give way fitted"
    );
    b.click_css("#zoom");
    b.wait_for("the zoom", || {
        b.attr_css("#zoom", "aria-pressed").filter(|p| p == "true")
    });
    b.wait_for("the holes' numbers shown", || {
        let shown = b.script(
            "return [...document.querySelectorAll('#box svg g.hole text')].filter((t) => t.dataset.givesWay !== 'true').length;",
            vec![],
        );
        (shown.as_u64().unwrap_or(0) > 50).then_some(())
    });
    assert_readable(&b, "a 26 × 26 box zoomed");
}
