//! Playing together from separate browsers: names, the invite's QR code,
//! turn alerts in the title, the result said to each, and a rematch with
//! one click each.
//!
//! Terms:
//! - **maker**, **friend**: two people, each in a browser of their own
//!   (separate profiles, as separate devices).
//! - **title**: the page's `document.title`, which begins with "Your turn"
//!   exactly while it is that browser's player's turn.

use crate::Browser;
use crate::chutes::{
    open_new_game, server_view, start_game, wait_for_game, wait_for_logged, wait_until_enabled,
    wait_until_shown,
};
use serde_json::json;

/// The page's title.
fn title(b: &Browser) -> String {
    b.script("return document.title;", vec![])
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until the title does (or does not) begin with "Your turn".
fn wait_for_turn_title(b: &Browser, mine: bool) {
    b.wait_for(
        &format!(
            "the title to say it is {}their turn",
            if mine { "" } else { "not " }
        ),
        || (title(b).starts_with("Your turn") == mine).then_some(()),
    );
}

/// The colour of seat `seat`'s swatch in the players' list, as drawn.
fn swatch_colour(b: &Browser, seat: u8) -> String {
    b.script(
        "const s = document.querySelector(`#players-table tr[data-player='${arguments[0]}'] .swatch`); \
         return s ? getComputedStyle(s).backgroundColor : '';",
        vec![json!(seat)],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Keeps `name` as this browser's player's name, as the page's name field
/// does (for a browser that opens an invite link first).
fn keep_name(b: &Browser, name: &str) {
    b.visit("/");
    b.script(
        "localStorage.setItem('parlor.name', arguments[0]);",
        vec![json!(name)],
    );
}

/// The QR codes in a screenshot of the page, decoded.
fn qr_codes_in(png: &[u8]) -> Vec<String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let channels = info.color_type.samples();
    let (width, height) = (info.width as usize, info.height as usize);
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
        let at = (y * width + x) * channels;
        let rgb = &pixels[at..at + channels.min(3)];
        (rgb.iter().map(|&c| u32::from(c)).sum::<u32>() / rgb.len() as u32) as u8
    });
    image
        .detect_grids()
        .into_iter()
        .filter_map(|grid| grid.decode().ok().map(|(_, text)| text))
        .collect()
}

#[test]
fn friends_play_by_name_hear_the_result_and_play_again_with_one_click() {
    let people = Browser::group(2);
    let (maker, friend) = (&people[0], &people[1]);

    // Ada names herself in the new-game form, and invites a friend.
    open_new_game(maker);
    maker.fill("#chutes-your-name", "  Ada ");
    maker.select("#chutes-players", "2");
    let id = start_game(maker, &["here", "open"], None);
    maker.wait_for_text("#you", "You play Ada (red).");
    maker.wait_for_text("#status", "Your turn, Ada: roll.");
    wait_for_turn_title(maker, true);
    let link_css = "#seats li.seat[data-seat='2'] input.link-field";
    let link = maker.wait_for("the invite link", || maker.attr_css(link_css, "value"));

    // Its QR code, drawn in the page, reads as the invite link.
    maker.click_css("#seats li.seat[data-seat='2'] details.qr summary");
    maker.wait_for("the QR code", || {
        (!maker.find_all("#seats svg.qr-code").is_empty()).then_some(())
    });
    maker.script(
        "document.querySelector('#seats svg.qr-code').scrollIntoView({block: 'center'});",
        vec![],
    );
    let codes = qr_codes_in(&maker.session.screenshot());
    assert_eq!(codes, vec![link.clone()], "the QR code is the invite link");
    // The test's server is on 127.0.0.1: the page says a phone cannot open
    // such a link, and how to share on the home network.
    let note = maker.text_css("#seats li.seat[data-seat='2'] details.qr p.loopback");
    assert!(
        note.contains("only this computer opens") && note.contains("--addr 0.0.0.0"),
        "{note}"
    );
    // Copy says it copied.
    maker.click_css("#seats li.seat[data-seat='2'] button.copy");
    maker.wait_for_text("#seats li.seat[data-seat='2'] button.copy", "Copied");

    // Bo opens the link with his name kept in his browser: both see it.
    keep_name(friend, "Bo");
    crate::open_invite(friend, &link, "Bo");
    wait_for_game(friend);
    friend.wait_for_text("#you", "You play Bo (purple).");
    maker.wait_for_text("#seats li.seat[data-seat='2']", "Bo");
    maker.wait_for_text("#seats li.seat[data-seat='1']", "Ada");
    // The maker is told who joined, in words, not only by a changed seat.
    maker.wait_for_text("#seats p.joined[role='status']", "Bo joined.");
    let ada_before = swatch_colour(maker, 1);
    let bo_before = swatch_colour(maker, 2);
    assert_ne!(ada_before, bo_before, "each player has a colour");

    // "Your turn" in the title exactly while it is.
    wait_for_turn_title(friend, false);
    maker.press("r");
    wait_for_logged(friend, 1);
    wait_for_turn_title(friend, true);
    wait_for_turn_title(maker, false);
    friend.wait_for_text("#log", "Ada rolls");

    // Both play to the end.
    wait_until_enabled(friend, "#watch");
    friend.click_css("#watch");
    maker.wait_for_text("#status", "Your turn");
    wait_until_enabled(maker, "#watch");
    maker.click_css("#watch");
    maker.wait_for("the end of the game", || {
        (server_view(maker, &id)["status"] == "won").then_some(())
    });
    let end = wait_until_shown(maker, &id);
    wait_until_shown(friend, &id);
    let winner = end["winner"].as_u64().expect("a winner");
    let (won, lost, winner_name, loser_name) = if winner == 1 {
        (maker, friend, "Ada", "Bo")
    } else {
        (friend, maker, "Bo", "Ada")
    };
    won.wait_for_text(".result-words", "You win");
    lost.wait_for_text(".result-words", &format!("You lost: {winner_name} wins"));
    won.wait_for_text("#status", "You win after");
    for b in [maker, friend] {
        wait_for_turn_title(b, false);
    }
    lost.screenshot_as_is("together-result-lost");

    // The loser asks to play again: a new game opens for them, and the
    // winner's page offers it with one click.
    lost.click_css("button.play-again");
    let rematch = lost.wait_for_match_address("chutes", Some(&id));
    wait_for_game(lost);
    won.wait_for_text("button.play-again", "Join the rematch");
    won.click_css("button.play-again");
    assert_eq!(won.wait_for_match_address("chutes", Some(&id)), rematch);
    wait_for_game(won);
    // The same players, by name; Bo (seat 2 before) starts this time, and
    // each keeps their colour: Bo purple, Ada red, on every page.
    friend.wait_for_text("#you", "You play Bo (purple).");
    maker.wait_for_text("#you", "You play Ada (red).");
    for b in [maker, friend] {
        b.wait_for_text("#seats li.seat[data-seat='1']", "Bo");
        assert_eq!(
            swatch_colour(b, 1),
            bo_before,
            "Bo's colour after the rematch"
        );
        assert_eq!(
            swatch_colour(b, 2),
            ada_before,
            "Ada's colour after the rematch"
        );
    }
    let tokens = maker.script(
        "return [...document.querySelectorAll('#board svg .token')].map((t) => [t.dataset.player, getComputedStyle(t.querySelector('circle')).fill]);",
        vec![],
    );
    assert_eq!(
        tokens[0][1].as_str(),
        Some(bo_before.as_str()),
        "Bo's token: {tokens}"
    );
    assert_eq!(
        tokens[1][1].as_str(),
        Some(ada_before.as_str()),
        "Ada's token: {tokens}"
    );
    friend.wait_for_text("#status", "Your turn, Bo: roll.");
    wait_for_turn_title(friend, true);
    wait_for_turn_title(maker, false);
    let _ = loser_name;
}

#[test]
fn names_are_shown_as_text_never_as_markup() {
    let b = Browser::open();
    b.visit("/");
    let made = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches', {method: 'POST', headers: {'Content-Type': 'application/json'}, \
           body: JSON.stringify({game: 'tycoon', seats: [ \
             {plan: 'here', name: '<img src=x onerror=1>'}, {plan: 'here', name: '\"Zoë\" & <b>'}, 'easy', 'easy']})}) \
           .then((r) => r.json()).then(done, (e) => done(String(e)));",
        vec![],
    );
    let id = made["id"].as_str().expect("a match").to_string();
    let token = made["token"].as_str().expect("a token").to_string();
    b.script(
        "localStorage.setItem('parlor.match.' + arguments[0], JSON.stringify({game: 'tycoon', token: arguments[1], invites: []}));",
        vec![json!(id), json!(token)],
    );
    b.visit(&format!("/tycoon/m/{id}"));
    b.wait_for_text("#seats-state", "<img src=x onerror=1>");
    b.wait_for_text("#seats-state", "\"Zoë\" & <b>");
    assert!(
        b.find_all("img[src='x']").is_empty(),
        "no markup from a name"
    );
    assert!(
        b.find_all("#seats-state b").is_empty(),
        "no markup from a name"
    );
}
