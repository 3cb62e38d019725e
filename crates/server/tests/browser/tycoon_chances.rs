//! Tycoon's live chances on its page: the bar and its sentence follow the
//! server's estimate (worked out after each move, the last bar staying
//! meanwhile) through a game against a bot, say they are estimates
//! ("about 48% (45–51%)"), read 100% and 0% at the end, and the look back
//! charts them with their band and names the biggest swing.
//!
//! Terms:
//! - **estimate words**: the sentence the page should show for a view, as
//!   worked out here from the server's figures (whole percents, the
//!   interval in brackets), so the test checks the page against the server.

use crate::Browser;
use serde_json::{Value, json};

/// The match's view as the server gives it to anyone.
fn server_view(b: &Browser, id: &str) -> Value {
    b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0]).then((r) => r.json()).then(done, (e) => done(String(e)));",
        vec![json!(id)],
    )
}

/// A chance as a whole percent, as the page says it.
fn whole(p: f64) -> String {
    let n = (p * 100.0).round();
    if p > 0.0 && n < 1.0 {
        "<1".into()
    } else if p < 1.0 && n > 99.0 {
        ">99".into()
    } else {
        format!("{n}")
    }
}

/// The chances sentence the page should show for the server's `view`.
fn chances_words(view: &Value) -> String {
    let names = view["names"].as_array().expect("names");
    let each: Vec<f64> = view["view"]["chances"]
        .as_array()
        .expect("chances")
        .iter()
        .map(|p| p.as_f64().expect("a chance"))
        .collect();
    match view["view"]["chances_interval"].as_array() {
        Some(bands) => {
            let parts: Vec<String> = names
                .iter()
                .zip(&each)
                .zip(bands)
                .map(|((name, p), band)| {
                    let low = band["low"].as_f64().expect("low");
                    let high = band["high"].as_f64().expect("high");
                    format!(
                        "{} about {}% ({}–{}%)",
                        name.as_str().expect("a name"),
                        whole(*p),
                        whole(low),
                        whole(high)
                    )
                })
                .collect();
            format!("Chances to win, estimated: {}", parts.join(" · "))
        }
        None => {
            let parts: Vec<String> = names
                .iter()
                .zip(&each)
                .map(|(name, p)| format!("{} {}%", name.as_str().expect("a name"), p * 100.0))
                .collect();
            format!("Chances to win: {}", parts.join(" · "))
        }
    }
}

/// The page idle on the server's latest move, the bot done (our turn, or
/// the end) and the position's estimate worked out (the server does so
/// after the move, away from its answer), and that view.
fn shown(b: &Browser, id: &str) -> Value {
    b.wait_for("the page to show the server's last move", || {
        let view = server_view(b, id);
        let moves = view["moves"].as_u64()?;
        if view["status"] == "playing"
            && (view["to_move"] != 1 || !view["view"]["chances"].is_array())
        {
            return None;
        }
        let idle = b.attr_css("body", "data-idle").as_deref() == Some("true");
        let drawn: Option<u64> = b
            .attr_css("body", "data-moves")
            .and_then(|m| m.parse().ok());
        (idle && drawn == Some(moves)).then_some(view)
    })
}

#[test]
fn the_tycoon_chances_bar_follows_a_game_against_a_bot_and_the_look_back_charts_it() {
    let b = Browser::open_at(1280, 900);
    b.visit("/tycoon#play");
    b.wait_for("the sample chosen", || {
        (b.script("return document.querySelector('#play-grid').value;", vec![]) == json!("sample"))
            .then_some(())
    });
    crate::open_custom(&b);
    b.select("#tycoon-players", "2");
    b.select("#tycoon-seat-1", "here");
    b.select("#tycoon-seat-2", "normal");
    b.click_css("#start-game");
    let id = b.wait_for("the game's page", || {
        let id = b.attr_css("body", "data-match")?;
        (id != "gone").then_some(id)
    });
    b.select("#speed", "none");
    let view = shown(&b, &id);
    assert!(view["view"]["chances_interval"].is_array(), "{view}");
    assert_eq!(
        b.wait_for_text("#chances-words", "Chances to win, estimated: "),
        chances_words(&view)
    );
    assert_eq!(b.find_all("#chances-bar .chance").len(), 2);
    assert!(
        b.text_css("#chances-note")
            .starts_with("From 1,000 games the bots play on from here"),
        "{}",
        b.text_css("#chances-note")
    );
    // Every answer of ours (and the bot's moves after it) refreshes the
    // estimate; the page shows the server's figures each time. Ours is the
    // first button: roll, recharge, buy, pay.
    let mut seen = vec![view["view"]["chances"].clone()];
    let mut answered = 0;
    loop {
        let view = shown(&b, &id);
        if view["status"] != "playing" {
            break;
        }
        b.wait_for_text("#chances-words", &chances_words(&view));
        seen.push(view["view"]["chances"].clone());
        answered += 1;
        assert!(answered < 400, "the game does not end");
        b.wait_for("our answer", || {
            (!b.find_all("#decision button.answer:not([disabled])")
                .is_empty())
            .then_some(())
        });
        b.click_css("#decision button.answer");
        b.wait_for("the answer to be taken", || {
            (server_view(&b, &id)["moves"] != view["moves"]).then_some(())
        });
        // The answer comes before the new estimate: the bar stays meanwhile.
        assert!(
            b.find_all("#chances[hidden]").is_empty(),
            "the bar went blank"
        );
    }
    seen.dedup();
    assert!(seen.len() > 2, "the chances hardly changed: {seen:?}");
    // At the end: certain, 100% for the winner and 0% for the other.
    let view = shown(&b, &id);
    let words = b.wait_for_text("#chances-words", "Chances to win: ");
    assert_eq!(words, chances_words(&view));
    assert!(
        words.contains(" 100%") && words.contains(" 0%"),
        "the end's chances: {words}"
    );
    assert!(b.find_all("#chances-note:not([hidden])").is_empty());
    // The look back: a line and a band a player, drawn by the server.
    let label = b.wait_for_chart("#chances-chart");
    assert!(label.contains("estimated chance to win"), "{label}");
    let svg = b.script_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/matches/' + arguments[0] + '/chances.svg').then((r) => r.text()).then(done, (e) => done(String(e)));",
        vec![json!(id)],
    );
    let svg = svg.as_str().expect("the chart's SVG");
    assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
    assert_eq!(svg.matches("<polygon").count(), 2, "{svg}");
    let swing = b.wait_for_text("#chances-swing", "The biggest swing: move ");
    assert!(
        swing.contains("Luck, each player's own swings added up")
            && swing.contains("The chances are estimates"),
        "{swing}"
    );
    b.screenshot("tycoon-chances-end");
    b.switch_scheme("dark");
    b.screenshot("tycoon-chances-end-dark");
}
