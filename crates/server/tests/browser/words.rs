//! Words for people: in a game of each kind with named players and a bot,
//! every text the page shows — the status, the history, a look back's
//! picture and legend, the step-through — names the players and says
//! what happened in sentences, never "P1", "Player 1" for a named seat,
//! nor an arrow "->".
//!
//! Terms:
//! - **shown words**: the page's visible text (`innerText`) and the text
//!   of every picture on it that is not hidden; the next game's form is
//!   left out (its seats have no players yet: "Player 1 (red)" labels a
//!   seat to fill).

use crate::Browser;
use serde_json::{Value, json};

/// Makes a match through the API as its maker, keeps its token as the
/// page does, and opens its page; returns its id.
pub(crate) fn make_match(
    b: &Browser,
    game: &str,
    seats: Value,
    setup: Value,
    seed: Option<u64>,
) -> String {
    b.visit("/");
    let mut body = json!({"game": game, "seats": seats, "setup": setup});
    if let Some(seed) = seed {
        body["seed"] = json!(seed);
    }
    let made = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches', {method: 'POST', headers: {'Content-Type': 'application/json'}, \
           body: JSON.stringify(arguments[0])}).then((r) => r.json()).then(done, (e) => done(String(e)));",
        vec![body],
    );
    let id = made["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a match: {made}"))
        .to_string();
    let token = made["token"].as_str().expect("a token").to_string();
    b.script(
        "localStorage.setItem('parlor.match.' + arguments[0], JSON.stringify({game: arguments[2], token: arguments[1], invites: []}));",
        vec![json!(id), json!(token), json!(game)],
    );
    b.visit(&format!("/{game}/m/{id}"));
    b.wait_for("the game's page", || {
        (b.attr_css("body", "data-match").as_deref() == Some(id.as_str())).then_some(())
    });
    id
}

/// The page's shown words: its visible text, then each shown picture's.
fn shown_words(b: &Browser) -> String {
    b.script(
        "const pictures = [...document.querySelectorAll('svg text')] \
           .filter((t) => t.getAttribute('visibility') !== 'hidden' && t.getClientRects().length > 0 \
             && getComputedStyle(t).visibility !== 'hidden') \
           .map((t) => t.textContent); \
         let page = document.body.innerText; \
         for (const form of document.querySelectorAll('form')) page = page.replace(form.innerText, ''); \
         return page + '\\n' + pictures.join('\\n');",
        vec![],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// What in `words` names a seat by number or says a move with an arrow.
fn unnamed(words: &str) -> Vec<String> {
    let mut found = Vec::new();
    let tokens: Vec<&str> = words
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    for (i, t) in tokens.iter().enumerate() {
        if *t == "P1" || *t == "P2" {
            found.push((*t).to_string());
        }
        if *t == "Player" && matches!(tokens.get(i + 1), Some(&"1") | Some(&"2")) {
            found.push(format!("Player {}", tokens[i + 1]));
        }
    }
    if words.contains("->") {
        found.push("->".into());
    }
    found
}

/// Asserts the page's shown words name every player and have no arrow.
fn assert_named(b: &Browser, when: &str) {
    let words = shown_words(b);
    let bad = unnamed(&words);
    assert!(
        bad.is_empty(),
        "{when}: {bad:?} in the page's words:\n{words}"
    );
}

/// Waits until the match has `n` moves or more on the page.
fn wait_for_moves(b: &Browser, n: u64) {
    b.wait_for(&format!("{n} moves"), || {
        let moves: u64 = b.attr_css("body", "data-moves")?.parse().ok()?;
        (moves >= n && b.attr_css("body", "data-idle").as_deref() == Some("true")).then_some(())
    });
}

/// Looks back at move 1 of the history while the game is on (its picture
/// and legend), checks the words, and comes back to now.
fn look_back(b: &Browser, what: &str) {
    b.click_css(".move-list li[data-move='1']");
    b.wait_for("the look back's picture", || {
        (!b.find_all(".look-back:not([hidden]) .look-back-picture svg text")
            .is_empty())
        .then_some(())
    });
    assert_named(b, &format!("{what}, looking back at move 1"));
    b.click_css(".look-back button.back-to-now");
}

/// Steps through a finished game from its start, checking each step.
fn step_through(b: &Browser, what: &str, steps: usize) {
    b.wait_for("the step-through", || {
        (!b.find_all(".replay-bar button.first").is_empty()).then_some(())
    });
    b.click_css(".replay-bar button.first");
    for step in 1..=steps {
        b.click_css(".replay-bar button.next");
        b.wait_for(&format!("step {step}"), || {
            (b.attr_css(".replay-bar", "data-at").as_deref() == Some(step.to_string().as_str()))
                .then_some(())
        });
        assert_named(b, &format!("{what}, step {step}"));
    }
}

#[test]
fn a_chutes_game_names_its_players_in_every_word() {
    let b = Browser::open();
    make_match(
        &b,
        "chutes",
        json!([{"plan": "here", "name": "Ada"}, "bot"]),
        json!({}),
        Some(3),
    );
    for n in [1, 3] {
        b.wait_for("Roll", || {
            (b.attr_css("#roll", "aria-disabled").as_deref() == Some("false")).then_some(())
        });
        b.click_css("#roll");
        wait_for_moves(&b, n + 1);
    }
    b.wait_for_text(".move-list", "Ada rolls");
    // Chutes' bot has no levels: it is "Bot".
    b.wait_for_text(".move-list", "Bot rolls");
    assert_named(&b, "Chutes, playing");
    look_back(&b, "Chutes");
    b.click_css("#watch");
    b.wait_for("the end", || {
        (b.attr_css("body", "data-status")
            .as_deref()
            .is_some_and(|s| s != "playing"))
        .then_some(())
    });
    wait_for_moves(&b, 5);
    assert_named(&b, "Chutes, over");
    step_through(&b, "Chutes", 3);
}

#[test]
fn a_tycoon_game_names_its_players_in_every_word() {
    let b = Browser::open();
    make_match(
        &b,
        "tycoon",
        json!([{"plan": "here", "name": "Ada"}, "easy", "easy", "easy"]),
        json!({"sample": true}),
        Some(5),
    );
    for round in 1..=2 {
        let answer = b.wait_for("an answer to give", || {
            b.find_all("button.answer[data-move]:not([disabled])")
                .into_iter()
                .next()
        });
        b.click(&answer);
        wait_for_moves(&b, round * 4);
    }
    b.wait_for_text(".move-list", "Ada");
    assert_named(&b, "Tycoon, playing");
    look_back(&b, "Tycoon");
}

#[test]
fn a_baffle_game_names_its_player_and_cells_as_the_box_labels_them() {
    let b = Browser::open();
    make_match(
        &b,
        "baffle",
        json!([{"plan": "here", "name": "Ada"}]),
        json!({"fixed": true}),
        None,
    );
    b.click_css("#box svg g.hole[data-hole='7']");
    b.wait_for_text("#status", "Ada shoots into 7 and the beam comes out at 22");
    // The box labels its columns A… and rows 1…: the guess names C5.
    let labels = b.script(
        "return [...document.querySelectorAll('#box svg g.axes text')].map((t) => t.textContent).join(' ');",
        vec![],
    );
    let labels = labels.as_str().unwrap_or_default();
    assert!(
        labels.contains('A') && labels.contains('J') && labels.contains("10"),
        "{labels}"
    );
    b.click_css("#box svg rect.cell[data-row='4'][data-col='2']");
    b.click_css("#make-guess");
    b.wait_for_text("#status", "Ada finds a / mirror at C5");
    assert_named(&b, "Baffle, playing");
    look_back(&b, "Baffle");
}

#[test]
fn words_that_number_seats_are_found() {
    assert_eq!(
        unnamed("Ada rolls 6 and moves from 3 to 9"),
        Vec::<String>::new()
    );
    assert_eq!(unnamed("P2 rolls 6"), vec!["P2"]);
    assert_eq!(unnamed("Player 1 owns every station 9"), vec!["Player 1"]);
    assert_eq!(unnamed("moves 6 -> 7"), vec!["->"]);
    // Numbers of more digits and other words are not seats.
    assert!(unnamed("Player 12 and P10 on A1").is_empty());
}

#[test]
fn no_name_is_asked_in_a_game_against_bots_only() {
    let b = Browser::open();
    make_match(&b, "chutes", json!(["here", "bot"]), json!({}), Some(3));
    b.find("#seats li.seat[data-seat='2']");
    assert!(
        b.find_all(".name-ask").is_empty(),
        "no \"Your name, for the others\" with no others"
    );
    // With a friend's seat, it is asked.
    make_match(&b, "chutes", json!(["here", "open"]), json!({}), None);
    b.find(".name-ask");
}
