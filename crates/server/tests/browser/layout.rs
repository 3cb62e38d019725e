//! Every page at every size: nothing scrolls sideways, nothing covers a
//! control, phones get targets big enough to tap, and the accessibility
//! audit finds no serious or critical violation. Each game's own page is
//! checked in its play states by its own tests; here, the pages every
//! visitor meets first, and the shared layout the game pages build on.

use crate::Browser;
use crate::checks::{VIEWPORTS, assert_page_fits, drawn_size, set_viewport};
use serde_json::json;

/// Waits until the page has loaded and its script says it is ready.
fn wait_ready(browser: &Browser, what: &str) {
    browser.wait_for(&format!("{what} to be ready"), || {
        browser.attr_css("body", "data-ready")
    });
}

/// Makes a match through the API from the page (this browser keeps its
/// token, as a page would); returns its id.
fn make_match(browser: &Browser, request: serde_json::Value) -> String {
    let id = browser.script_async(
        r#"
        const done = arguments[arguments.length - 1];
        import("/static/match.js")
          .then((mm) => mm.Match.create(arguments[0].game, arguments[0]))
          .then((m) => { history.back(); done(m.id); }, (e) => done("failed: " + e));
        "#,
        vec![request],
    );
    let id = id.as_str().unwrap_or_default().to_string();
    assert!(!id.starts_with("failed"), "{id}");
    id
}

#[test]
fn the_home_page_and_the_lobby_fit_every_screen() {
    let browser = Browser::open();
    for size in VIEWPORTS {
        set_viewport(&browser, size);
        for (path, name) in [("/", "home"), ("/lobby", "lobby"), ("/nowhere", "404")] {
            browser.visit(path);
            browser.wait_for(&format!("{name} to load"), || {
                let ready = browser.script("return document.readyState === 'complete';", vec![]);
                (ready == serde_json::Value::Bool(true)).then_some(())
            });
            if path == "/lobby" {
                browser.wait_for_text("#lobby-status", ".");
            }
            assert_page_fits(&browser, name, size);
            if size.is_phone() {
                browser.screenshot_as_is(&format!("{name}-phone"));
            }
        }
    }

    // With games of this device's and a game waiting in the lobby.
    browser.visit("/lobby");
    wait_ready(&browser, "the lobby");
    make_match(
        &browser,
        json!({"game": "chutes", "setup": {"board": "classic"}, "seats": ["here", "anyone"]}),
    );
    make_match(
        &browser,
        json!({"game": "tycoon", "seats": ["here", "open", "normal", "hard"]}),
    );
    for size in VIEWPORTS {
        set_viewport(&browser, size);
        for (path, name) in [("/", "home with games"), ("/lobby", "lobby with games")] {
            browser.visit(path);
            wait_ready(&browser, name);
            browser.wait_for(&format!("{name}'s games' states"), || {
                browser
                    .find_all("#your-games-list li.match, #my-matches li.match")
                    .iter()
                    .all(|li| browser.attr(li, "data-state").is_some())
                    .then_some(())
            });
            if path == "/lobby" {
                browser.find("#open-matches li.match");
            }
            assert_page_fits(&browser, name, size);
            let file = name.replace(' ', "-");
            if size.is_phone() {
                browser.screenshot_as_is(&format!("{file}-phone"));
            } else if size.width == 1280 {
                browser.screenshot_as_is(&format!("{file}-laptop"));
            } else if size.width == 1920 {
                // The whole page, for docs/browser.md.
                browser.screenshot(&file);
                set_viewport(&browser, size);
            }
        }
    }
}

/// The game pages' grids (`.layout.three`, `.layout.two`), with the board
/// in a `section.board-area` anywhere in their order: on a phone it comes
/// first and takes the width (at least 90% of it), the panels below; on a
/// tablet it spans the width above the panels; on a desktop it is the
/// middle (three) or first (two) column and the widest.
#[test]
fn the_shared_layout_puts_the_board_first_and_large() {
    let browser = Browser::open();
    browser.visit("/lobby");
    wait_ready(&browser, "the lobby");
    browser.script(
        r##"
        const main = document.querySelector("main");
        const board = () => {
          const s = document.createElement("section");
          s.className = "panel board-area";
          s.innerHTML = '<div class="picture"><svg viewBox="0 0 100 100" role="img" aria-label="A board"><rect width="100" height="100" fill="#ddd"/></svg></div>';
          return s;
        };
        const panel = (text) => {
          const s = document.createElement("section");
          s.className = "panel";
          s.innerHTML = `<h2>${text}</h2><button type="button">${text} button</button>`;
          return s;
        };
        const three = document.createElement("div");
        three.className = "layout three";
        three.id = "three";
        three.append(panel("Setup"), board(), panel("Players"));
        const two = document.createElement("div");
        two.className = "layout two";
        two.id = "two";
        // The board last in the page's order: the grid still puts it first.
        two.append(panel("Side"), board());
        main.replaceChildren(three, two);
        "##,
        vec![],
    );
    for size in VIEWPORTS {
        set_viewport(&browser, size);
        for grid in ["#three", "#two"] {
            let (board_w, _) = drawn_size(&browser, &format!("{grid} > .board-area svg"));
            let places = browser.script(
                "const g = document.querySelector(arguments[0]); \
                 return [...g.children].map((c) => { const r = c.getBoundingClientRect(); \
                   return [c.classList.contains('board-area'), r.left, r.top, r.width]; });",
                vec![json!(grid)],
            );
            let places: Vec<(bool, f64, f64, f64)> = places
                .as_array()
                .expect("the grid's children")
                .iter()
                .map(|p| {
                    (
                        p[0].as_bool().unwrap_or(false),
                        p[1].as_f64().unwrap_or(0.0),
                        p[2].as_f64().unwrap_or(0.0),
                        p[3].as_f64().unwrap_or(0.0),
                    )
                })
                .collect();
            let board = places.iter().find(|p| p.0).expect("a board area");
            let others: Vec<_> = places.iter().filter(|p| !p.0).collect();
            let what = format!("{grid} at {}", size.name);
            assert!(
                others.iter().all(|o| o.3 <= board.3 + 0.5),
                "{what}: the board is the widest: {places:?}"
            );
            let wide = match grid {
                "#three" => size.width >= 1200,
                _ => size.width >= 900,
            };
            if wide {
                assert!(
                    others.iter().all(|o| (o.2 - board.2).abs() < 1.0),
                    "{what}: side by side: {places:?}"
                );
            } else {
                assert!(
                    others.iter().all(|o| o.2 > board.2 + 10.0),
                    "{what}: the board first, the panels below: {places:?}"
                );
            }
            if size.is_phone() {
                assert!(
                    board_w >= 0.9 * f64::from(size.width),
                    "{what}: the board is {board_w} px wide on a {} px phone",
                    size.width
                );
            }
        }
        assert_page_fits(&browser, "the shared layout", size);
    }
}

/// Each game's match page, with a few moves played, at a phone's size and
/// a desktop's, in the light scheme and the dark one (the header's switch,
/// kept in the browser): it fits, and the accessibility audit finds no
/// serious or critical violation in either, and its picture takes the
/// renderer's dark palette in the dark; so do the home page, the lobby,
/// any game's page, the tools' pages (Tycoon's designer, Chutes' analysis)
/// and the 404 page in the dark (the light ones are checked at every size
/// above). The screenshots are
/// docs/screenshots/{game}-{scheme}-{phone|desktop}.png.
#[test]
fn every_game_page_fits_in_light_and_dark() {
    let browser = Browser::open();
    browser.visit("/lobby");
    wait_ready(&browser, "the lobby");
    let games = [
        (
            "chutes",
            json!({"game": "chutes", "seats": ["here", "normal"]}),
            "roll",
        ),
        (
            "baffle",
            json!({"game": "baffle", "setup": {"fixed": true}}),
            "shoot 7",
        ),
        (
            "tycoon",
            json!({"game": "tycoon", "setup": {"sample": true}, "seats": ["here", "easy", "easy", "easy"]}),
            "roll",
        ),
    ];
    for (game, request, mv) in games {
        let id = make_match(&browser, request);
        // A move, so that each page has something to show.
        let played = browser.script_async(
            "const done = arguments[arguments.length - 1]; \
             const token = JSON.parse(localStorage.getItem('parlor.match.' + arguments[0])).token; \
             fetch('/api/matches/' + arguments[0] + '/moves', {method: 'POST', \
               headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token}, \
               body: JSON.stringify({move: arguments[1], after: 0})}).then((r) => done(r.status));",
            vec![json!(id), json!(mv)],
        );
        assert_eq!(played, json!(200), "{game}: the first move");
        for scheme in ["light", "dark"] {
            browser.script(
                "localStorage.setItem('parlor.theme', arguments[0]);",
                vec![json!(scheme)],
            );
            for size in [VIEWPORTS[0], VIEWPORTS[3]] {
                set_viewport(&browser, size);
                browser.visit(&format!("/{game}/m/{id}"));
                browser.wait_for(&format!("{game}'s page"), || {
                    browser.attr_css("body", "data-ready")
                });
                browser.wait_for(&format!("{game}'s moves"), || {
                    (!browser
                        .find_all("#moves-panel li[data-move='1']")
                        .is_empty())
                    .then_some(())
                });
                let theme = browser.attr_css("html", "data-theme");
                assert_eq!(theme.as_deref(), Some(scheme), "{game}: the scheme chosen");
                // The picture follows: its paper is the renderer's, light
                // or dark (render's palette: #fbf7ec, and #252d37 dark).
                // (The picture comes after the moves: wait for it.)
                let paper = browser.wait_for(&format!("{game}'s picture"), || {
                    let fill = browser.script(
                        "const paper = document.querySelector('svg.parlor-picture [fill=\"#fbf7ec\"]'); \
                         return paper && getComputedStyle(paper).fill;",
                        vec![],
                    );
                    (!fill.is_null()).then_some(fill)
                });
                let expected = if scheme == "dark" {
                    "rgb(37, 45, 55)"
                } else {
                    "rgb(251, 247, 236)"
                };
                assert_eq!(
                    paper,
                    json!(expected),
                    "{game}: the picture's paper, {scheme}"
                );
                assert_page_fits(&browser, &format!("{game}'s page, {scheme}"), size);
                browser.screenshot_as_is(&format!("{game}-{scheme}-{}", size.name));
            }
        }
        browser.script("localStorage.removeItem('parlor.theme');", vec![]);
    }
    // The pages every visitor meets first, and any game's page, dark too.
    browser.script("localStorage.setItem('parlor.theme', 'dark');", vec![]);
    for size in [VIEWPORTS[0], VIEWPORTS[3]] {
        set_viewport(&browser, size);
        for (path, name) in [
            ("/", "home"),
            ("/lobby", "lobby"),
            ("/race", "any game's page"),
            ("/nim", "a game's own page module"),
            ("/tycoon", "Tycoon's designer"),
            ("/chutes#analysis", "Chutes' analysis"),
            ("/nowhere", "404"),
        ] {
            browser.visit(path);
            browser.wait_for(&format!("{name} to load"), || {
                let ready = browser.script("return document.readyState === 'complete';", vec![]);
                (ready == json!(true)).then_some(())
            });
            if path != "/nowhere" {
                wait_ready(&browser, name);
            }
            if path == "/chutes#analysis" {
                browser.click_css("#tab-analysis");
                browser.wait_for_text("#analysis-status", "exact figures");
            }
            assert_eq!(
                browser.attr_css("html", "data-theme").as_deref(),
                Some("dark"),
                "{name}"
            );
            assert_page_fits(&browser, &format!("{name}, dark"), size);
            let slug: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            browser.screenshot_as_is(&format!("dark-{slug}-{}", size.name));
        }
    }
    browser.script("localStorage.removeItem('parlor.theme');", vec![]);
    // The switch in the header flips the scheme and keeps it.
    browser.visit("/");
    let toggle = browser.find("header.top button.theme-toggle");
    let before = browser.attr_css("html", "data-theme").unwrap_or_default();
    browser.click(&toggle);
    let after = browser.attr_css("html", "data-theme").unwrap_or_default();
    assert_ne!(before, after, "the switch changes the scheme");
    browser.visit("/lobby");
    assert_eq!(
        browser.attr_css("html", "data-theme").unwrap_or_default(),
        after,
        "and it is kept"
    );
    let toggle = browser.find("header.top button.theme-toggle");
    assert_eq!(
        browser.text_css("header.top button.theme-toggle"),
        format!("Colours: {after}"),
        "the switch says which is in force"
    );
    // The next press shows the other scheme, the one after it the system's
    // again (and says so).
    browser.click(&toggle);
    assert_eq!(
        browser.attr_css("html", "data-theme").unwrap_or_default(),
        before,
        "the other scheme"
    );
    browser.click(&toggle);
    assert_eq!(
        browser.attr_css("html", "data-theme").unwrap_or_default(),
        before,
        "the system's scheme"
    );
    assert_eq!(
        browser.text_css("header.top button.theme-toggle"),
        "Colours: system"
    );
    browser.visit("/");
    assert_eq!(
        browser
            .attr_css("header.top button.theme-toggle", "data-choice")
            .as_deref(),
        Some("system"),
        "the system's choice is kept"
    );
}
