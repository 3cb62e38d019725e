//! The pages every visitor meets, and what the browser tests share.

use crate::Browser;
use crate::checks::{VIEWPORTS, assert_page_fits, covered_controls, set_viewport};
use crate::webdriver::keys::{ARROW_RIGHT, END, ENTER, ESCAPE, HOME, TAB};
use serde_json::json;

#[test]
fn the_home_page_leads_to_each_game() {
    let b = Browser::open();
    b.visit("/");
    let title = b.text_css("h1");
    assert!(title.contains("board games"), "{title}");
    // A first visit has no games of its own to show.
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    assert!(b.find_all("#your-games:not([hidden])").is_empty());
    for (card, path) in [
        ("#card-chutes a.card-link", "/chutes"),
        ("#card-baffle a.card-link", "/baffle"),
        ("#card-tycoon a.card-link", "/tycoon#play"),
        ("#to-lobby", "/lobby"),
        ("#to-classroom", "/classroom"),
    ] {
        assert_eq!(b.attr_css(card, "href").as_deref(), Some(path), "{card}");
    }
    b.screenshot("home");
    b.click_css("#to-lobby");
    b.wait_for_text("h1", "Lobby");
}

/// The home page's pictures take the page's colours: in dark mode their
/// paper is dark, not a white card on a dark page.
#[test]
fn the_home_pages_pictures_follow_the_dark_scheme() {
    let b = Browser::open();
    b.visit("/");
    b.script("localStorage.setItem('parlor.theme', 'dark');", vec![]);
    b.visit("/");
    wait_for_count(&b, ".card div.thumb svg.parlor-picture", 3);
    assert!(b.find_all("img.thumb").is_empty(), "drawn in the page");
    let paper = b.script(
        "const svg = document.querySelector('#card-chutes div.thumb svg');\
         const lightest = [...svg.querySelectorAll('rect')].map((r) => getComputedStyle(r).fill);\
         return lightest.filter((f) => f === 'rgb(255, 255, 255)').length;",
        vec![],
    );
    assert_eq!(paper.as_u64(), Some(0), "no white paper left in dark mode");
    b.script("localStorage.removeItem('parlor.theme');", vec![]);
}

/// The page a person meets when an address leads nowhere offers a way on.
#[test]
fn an_unknown_address_offers_a_way_on() {
    let b = Browser::open();
    b.visit("/no/such/page");
    b.wait_for_text("h1", "No such page");
    for path in ["/", "/lobby", "/chutes", "/baffle", "/tycoon"] {
        assert!(
            !b.find_all(&format!("main a[href=\"{path}\"], nav a[href=\"{path}\"]"))
                .is_empty(),
            "the 404 page links to {path}"
        );
    }
}

/// Loads match.js and matchui.js into the page as `window.mm` and
/// `window.ui`, and empties `<main>` into sections for the components:
/// a bench for them on a real page of the app.
fn component_bench(b: &Browser, sections: &[&str]) {
    let loaded = b.script_async(
        r#"
        const done = arguments[arguments.length - 1];
        const ids = arguments[0];
        Promise.all([import("/static/matchui.js"), import("/static/match.js"), import("/static/common.js")])
          .then(([ui, mm, common]) => {
            window.ui = ui; window.mm = mm; window.common = common;
            window.errors = [];
            addEventListener("error", (e) => window.errors.push(String(e.message)));
            addEventListener("unhandledrejection", (e) => window.errors.push(String(e.reason && e.reason.stack || e.reason)));
            const main = document.querySelector("main");
            main.replaceChildren();
            for (const id of ids) {
              const s = document.createElement("section");
              s.id = id;
              s.className = "panel";
              main.append(s);
            }
            done("ok");
          })
          .catch((e) => done("failed: " + e));
        "#,
        vec![json!(sections)],
    );
    assert_eq!(loaded, json!("ok"));
}

/// Runs `body` (an async function's body, given `ui`, `mm` and `common`)
/// in the page and returns what it returns.
fn run(b: &Browser, body: &str) -> serde_json::Value {
    let answer = b.script_async(
        &format!(
            "const done = arguments[arguments.length - 1];\n\
             (async (ui, mm, common) => {{ {body} }})(window.ui, window.mm, window.common)\n\
               .then((v) => done({{ok: v === undefined ? null : v}}), (e) => done({{error: String(e && e.stack || e)}}));"
        ),
        vec![],
    );
    if let Some(error) = answer.get("error") {
        panic!("the page's script failed: {error}");
    }
    answer["ok"].clone()
}

/// The name of the element that has the focus (`button.cancel`, …).
fn focused(b: &Browser) -> String {
    b.script(
        "const e = document.activeElement; return e ? e.tagName.toLowerCase() + \
         (e.className ? '.' + e.className.split(' ').join('.') : '') : '';",
        vec![],
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Every component of matchui.js, as the game pages use them, by keyboard:
/// seats chosen, a match made, its invites copied and renewed (asking
/// first: Escape keeps the old link, a double click opens one question),
/// a seat for anyone taken, the connection live, a finished match stepped
/// through and its record downloadable, and a game that is not here.
#[test]
fn the_shared_components_work_by_keyboard() {
    let b = Browser::open();
    b.visit("/lobby");
    b.wait_for("the lobby to be ready", || b.attr_css("body", "data-ready"));
    component_bench(&b, &["seats", "conn", "invites", "replay", "gone"]);

    // Seats: one select per seat, a Players select, plans in seat order.
    let plans = run(
        &b,
        r#"window.chooser = ui.seatChooser(document.getElementById("seats"),
               {game: "chutes", min: 1, max: 4, defaults: ["here", "open", "anyone"]});
           return window.chooser.plans();"#,
    );
    assert_eq!(plans, json!(["here", "open", "anyone"]));
    assert_eq!(b.find_all("#seats select.seat-plan").len(), 4);
    assert_eq!(b.text_css("label[for='chutes-seat-2']"), "Player 2");
    b.select("#chutes-players", "2");
    assert_eq!(
        run(&b, "return window.chooser.plans();"),
        json!(["here", "open"])
    );
    b.select("#chutes-players", "3");
    b.wait_for_text("#seats .seat-help", "invite link");

    // A match made with those seats: its players, invites and connection.
    run(
        &b,
        r#"window.match = await mm.Match.create("chutes", {setup: {board: "classic"}, seats: window.chooser.plans()});
           window.panel = ui.invitePanel(document.getElementById("invites"), window.match);
           window.conn = ui.connectionStatus(document.getElementById("conn"), window.match);
           window.match.watch(() => window.panel.update());"#,
    );
    b.wait_for_text("#conn .connection", "Live");
    assert_eq!(
        b.attr_css("#conn .connection", "role").as_deref(),
        Some("status")
    );
    b.wait_for_text("#invites li[data-seat='1']", "you, at this screen");
    b.wait_for_text("#invites li[data-seat='3']", "waiting for anyone");
    let link = |b: &Browser| {
        b.script(
            "return document.querySelector(\"#invites li[data-seat='2'] input.link-field\").value;",
            vec![],
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
    };
    let first_link = link(&b);
    assert!(first_link.contains("#invite=2."), "{first_link}");

    // Copy puts the link on the clipboard, or selects it where the browser
    // refuses (a headless one may), and says which.
    b.click_css("#invites li[data-seat='2'] button.copy");
    let said = b.wait_for_text(
        "#invites .invite-panel > p[role='status']",
        "Invite link for Player 2",
    );
    assert!(
        said.contains("copied") || said.contains("select the link"),
        "{said}"
    );

    // New link asks first: Escape keeps the old link and the focus.
    b.script(
        "document.querySelector(\"#invites li[data-seat='2'] button.renew\").focus();",
        vec![],
    );
    b.press(ENTER);
    b.find("dialog.confirm-dialog[open]");
    assert_eq!(
        focused(&b),
        "button.secondary.cancel",
        "the safe answer has the focus"
    );
    // Behind the question nothing can be reached; its own buttons can.
    assert_eq!(covered_controls(&b), Vec::<String>::new());
    let question = b.text_css("dialog.confirm-dialog");
    assert!(question.contains("stops working"), "{question}");
    b.press(ESCAPE);
    b.wait_for("the question to go", || {
        b.find_all("dialog").is_empty().then_some(())
    });
    assert_eq!(link(&b), first_link, "Escape changed nothing");
    assert_eq!(focused(&b), "button.secondary.renew", "the focus went back");

    // A double click asks once.
    let renew = b.find("#invites li[data-seat='2'] button.renew");
    b.double_click(&renew);
    b.find("dialog.confirm-dialog[open]");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        b.find_all("dialog").len(),
        1,
        "one question for a double click"
    );
    // Tab to the confirm button, Enter: a new link.
    b.press(&format!("{TAB}{ENTER}"));
    b.wait_for("a new invite link", || {
        let now = link(&b);
        (now != first_link && now.contains("#invite=2.")).then_some(())
    });
    b.wait_for_text(
        "#invites .invite-panel > p[role='status']",
        "old one no longer works",
    );

    // The seat for anyone can be taken from the panel.
    b.script(
        "document.querySelector(\"#invites li[data-seat='3'] button.take\").focus();",
        vec![],
    );
    b.press(ENTER);
    // (The maker's device takes it here: the seat joins its own, at this screen.)
    b.wait_for_text("#invites li[data-seat='3']", "Player 3: you");
    b.wait_for_text(
        "#invites .invite-panel > p[role='status']",
        "You have Player 3's seat",
    );

    // A finished match: the replay bar steps through it by keyboard.
    let total = run(
        &b,
        r#"window.done = await mm.Match.create("chutes", {setup: {board: "classic"}, seats: ["here"]});
           await window.done.move("roll", {repeat: true});
           window.steps = [];
           window.bar = ui.replayBar(document.getElementById("replay"), window.done, (step) => window.steps.push(step.at));
           return window.done.view.moves;"#,
    )
    .as_u64()
    .expect("a move count");
    assert!(total > 1, "a whole game has moves: {total}");
    b.wait_for_text(".replay-said", &format!("Move {total} of {total}"));
    assert_eq!(
        b.attr_css(".replay-buttons", "role").as_deref(),
        Some("toolbar")
    );
    b.script(
        "document.querySelector('.replay-bar button.prev').focus();",
        vec![],
    );
    b.press(HOME);
    b.wait_for("the start", || {
        b.attr_css(".replay-bar[data-at='0']", "data-at")
    });
    b.wait_for_text(".replay-said", &format!("Move 0 of {total}"));
    b.press(ARROW_RIGHT);
    b.wait_for("the first move", || {
        b.attr_css(".replay-bar[data-at='1']", "data-at")
    });
    let said = b.wait_for_text(".replay-said", &format!("Move 1 of {total}: "));
    assert!(said.contains("rolls"), "the move in words: {said}");
    b.press(END);
    b.wait_for("the end", || {
        b.attr_css(&format!(".replay-bar[data-at='{total}']"), "data-at")
    });
    let record = b
        .attr_css(".replay-bar a.record", "href")
        .expect("a record link");
    assert!(record.ends_with("/record"), "{record}");
    let status = run(&b, &format!("return (await fetch({record:?})).status;"));
    assert_eq!(status, json!(200));

    // A game that is not here: words, and ways on, read out first.
    run(
        &b,
        r#"ui.gonePanel(document.getElementById("gone"), "chutes",
               new common.ApiFailure(404, "no such match", "no_match"));"#,
    );
    b.wait_for_text("#gone .gone-panel", "not on this server");
    assert_eq!(focused(&b), "h2");
    assert!(!b.find_all("#gone a[href='/chutes']").is_empty());
    assert!(!b.find_all("#gone a[href='/lobby']").is_empty());

    for size in [VIEWPORTS[0], VIEWPORTS[3]] {
        set_viewport(&b, size);
        b.script(
            "document.querySelector('details.watch-link').open = true;",
            vec![],
        );
        assert_page_fits(&b, "the shared components", size);
        if size.is_phone() {
            b.screenshot_as_is("components-phone");
        }
    }
    b.screenshot("components");
}

/// A server restart, as a page sees it: the connection line says
/// "Reconnecting…", then "Live again", and the game goes on from the store
/// with no reload: a move made elsewhere after the restart shows here.
#[test]
fn the_connection_line_follows_a_server_restart() {
    let server = crate::OwnServer::start();
    let b = Browser::open_on(&server);
    b.visit("/lobby");
    b.wait_for("the lobby to be ready", || b.attr_css("body", "data-ready"));
    component_bench(&b, &["conn", "invites"]);
    run(
        &b,
        r#"window.match = await mm.Match.create("chutes", {setup: {board: "classic"}, seats: ["here", "here"]});
           window.states = [];
           window.changes = 0;
           ui.connectionStatus(document.getElementById("conn"), window.match);
           window.match.listenConnection((s) => window.states.push(s));
           window.match.watch(() => { window.changes += 1; });"#,
    );
    b.wait_for_text("#conn .connection", "Live: moves show");
    server.restart();
    b.wait_for_text("#conn .connection", "Live again");
    let states = b.script("return window.states;", vec![]);
    assert!(
        states
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x == "reconnecting")),
        "the line said it was reconnecting: {states}"
    );
    // A move made through the API (another tab of this seat) shows here live.
    let moves = run(
        &b,
        r#"const token = mm.storedMatch(window.match.id).token;
           await common.api("POST", `/api/matches/${window.match.id}/moves`, {move: "roll", after: 0}, token);
           return 1;"#,
    );
    assert_eq!(moves, json!(1));
    b.wait_for("the move to arrive live", || {
        (b.script("return window.match.view.moves;", vec![]) == json!(1)).then_some(())
    });
}

/// "Your games on this device" on the home page finds a person's games
/// again; removing one asks first.
#[test]
fn the_home_page_lists_this_devices_games() {
    let b = Browser::open();
    b.visit("/");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    component_bench(&b, &[]);
    let ids = run(
        &b,
        r#"const one = await mm.Match.create("chutes", {setup: {board: "classic"}, seats: ["here", "normal"]});
           const two = await mm.Match.create("baffle", {setup: {fixed: true}, seats: ["here"]});
           return [one.id, two.id];"#,
    );
    b.visit("/");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    b.find("#your-games:not([hidden])");
    wait_for_count(&b, "#your-games li.match", 2);
    b.wait_for_text(
        &format!("#your-games li[data-match='{}']", ids[0].as_str().unwrap()),
        "Your turn",
    );
    let first = b.text_css("#your-games li.match");
    assert!(first.contains("Baffle"), "newest first: {first}");
    // Each game by its title, which names its game once.
    assert_eq!(
        b.text_css("#your-games li.match a"),
        "Baffle: the original assignment's first game"
    );
    let chutes = b.text_css(&format!(
        "#your-games li[data-match='{}'] a",
        ids[0].as_str().unwrap()
    ));
    assert_eq!(chutes, "Chutes & Ladders on the classic board, 2 players");

    // Remove asks first; Escape keeps the game.
    b.script(
        "document.querySelector('#your-games button.remove').focus();",
        vec![],
    );
    b.press(ENTER);
    b.find("dialog.confirm-dialog[open]");
    b.press(ESCAPE);
    b.wait_for("the question to go", || {
        b.find_all("dialog").is_empty().then_some(())
    });
    assert_eq!(b.find_all("#your-games li.match").len(), 2);
    b.press(ENTER);
    b.find("dialog.confirm-dialog[open]");
    b.press(&format!("{TAB}{ENTER}"));
    wait_for_count(&b, "#your-games li.match", 1);
    b.wait_for_text("#your-games p[role='status']", "Removed");

    // Its link opens the game's page at its address.
    let href = b
        .attr_css("#your-games li.match a", "href")
        .expect("a link");
    assert_eq!(href, format!("/chutes/m/{}", ids[0].as_str().unwrap()));
    b.screenshot("home-your-games");
}

/// A seed JavaScript cannot hold exactly is refused beside its box, in
/// words, on every page that takes one (it used to reach the server rounded,
/// or as a float serde named in its own terms): each game's new-game form.
#[test]
fn a_seed_too_big_for_a_page_is_refused_beside_its_box() {
    let b = Browser::open();
    let too_big = "99999999999999999999";
    let wanted = "from 0 to 9007199254740991";

    b.visit("/chutes");
    b.wait_for("the Chutes page to be ready", || {
        b.attr_css("body", "data-ready")
    });
    b.fill("#seed", too_big);
    crate::open_custom(&b);
    b.click_css("#new-game");
    b.wait_for_text("#new-error", wanted);

    b.visit("/baffle");
    b.wait_for("the Baffle form", || {
        (b.attr_css("body", "data-ready").as_deref() == Some("start")).then_some(())
    });
    b.select("#box-kind", "random");
    b.fill("#seed", too_big);
    crate::open_custom(&b);
    b.click_css("#start-game");
    b.wait_for_text("#start-error", wanted);

    b.visit("/tycoon#play");
    b.wait_for("the Tycoon page to be ready", || {
        b.attr_css("body", "data-ready")
    });
    crate::open_custom(&b);
    if b.attr_css("#more-toggle", "aria-expanded").as_deref() != Some("true") {
        b.click_css("#more-toggle");
    }
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

/// The new-game forms take their seats, defaults and bounds from the
/// registry (`GET /api/games`), not from lists of their own.
#[test]
fn the_new_game_forms_read_the_registry() {
    let b = Browser::open();
    b.visit("/baffle");
    crate::open_drawers(&b);
    b.select("#box-kind", "random");
    b.wait_for("the box's bounds", || {
        (b.attr_css("#size", "max").as_deref() == Some("26")).then_some(())
    });
    assert_eq!(b.attr_css("#size", "min").as_deref(), Some("4"));
    assert_eq!(b.text_css("label[for=\"size\"]"), "Size (4 to 26)");
    let values = b.script(
        "return [document.getElementById('size').value, document.getElementById('mirrors').value];",
        vec![],
    );
    assert_eq!(values, json!(["10", "5"]));

    b.visit("/chutes");
    b.wait_for("the die's bounds", || {
        (b.attr_css("#faces", "max").as_deref() == Some("64")).then_some(())
    });
    let faces = b.script("return document.getElementById('faces').value;", vec![]);
    assert_eq!(faces, json!("6"));
    // The seat chooser is the shell's, made once the registry is read.
    b.find(".seat-count");
    // Up to the registry's four players, one to begin with two.
    let counts = b.script(
        "return [...document.querySelectorAll('.seat-count option')].map((o) => o.value);",
        vec![],
    );
    assert_eq!(counts, json!(["1", "2", "3", "4"]));
    // A Chutes bot has no choice to make: one "Bot", no levels.
    let plans = b.script(
        "return [...document.querySelectorAll('#chutes-seat-1 option')].map((o) => o.value);",
        vec![],
    );
    assert_eq!(plans, json!(["here", "open", "anyone", "bot"]));
}

/// A game added to the server's registry, with no page of its own
/// (testkit's race), is made and played on any game's page: its seats from
/// the registry, typed moves, its result and its replay.
#[test]
fn a_game_with_no_page_of_its_own_is_played_on_any_games_page() {
    let b = Browser::open();
    b.visit("/race");
    b.wait_for("the page to be ready", || b.attr_css("body", "data-ready"));
    assert_eq!(b.text_css("#heading"), "A race");
    assert!(
        b.text_css("#games-nav").contains("A race"),
        "the registry's games"
    );
    b.select("#race-seat-2", "easy");
    b.click_css("#start-game");
    let id = b.wait_for_match_address("race", None);
    b.wait_for_text("#status", "Your turn, Player 1.");
    // A move the game does not take: the game's own words.
    b.fill("#move", "fly");
    b.click_css("#send");
    b.wait_for_text("#move-error", "'fly' is not a move of the race: say roll");
    let mut rolls = 0;
    while b.attr_css("body", "data-status").as_deref() != Some("won") {
        b.wait_for("my turn or the end", || {
            let status = b.attr_css("body", "data-status")?;
            (status == "won" || b.attr_css("#move-form", "hidden").is_none()).then_some(())
        });
        if b.attr_css("body", "data-status").as_deref() == Some("won") {
            break;
        }
        let before = b.attr_css("body", "data-moves").unwrap_or_default();
        b.fill("#move", "roll");
        b.click_css("#send");
        b.wait_for("the roll to be played", || {
            (b.attr_css("body", "data-moves").unwrap_or_default() != before).then_some(())
        });
        rolls += 1;
        assert!(rolls < 40, "a race to 10 ends");
    }
    let said = b.wait_for_text("#status", "win");
    assert!(
        said == "You win." || said == "You lost: Easy bot wins.",
        "{said}"
    );
    b.wait_for("the replay bar", || b.text_now(".replay-position"));
    b.wait_for("the picture", || b.attr_css("#picture", "data-picture"));
    let src = b.attr_css("#picture", "data-picture").unwrap_or_default();
    assert!(src.contains(&format!("/api/matches/{id}/svg")), "{src}");
    assert!(
        !b.find_all("#picture svg.parlor-picture").is_empty(),
        "the picture is drawn in the page"
    );
    b.click_css("#moves-panel li[data-move='1']");
    b.wait_for_text(".replay-position", "Move 1 of");
    b.wait_for("the first move's picture", || {
        b.attr_css("#picture", "data-picture")
            .filter(|p| p.ends_with("/svg?at=1"))
    });
    for size in [VIEWPORTS[0], VIEWPORTS[3]] {
        set_viewport(&b, size);
        assert_page_fits(&b, "any game's page, at its end", size);
    }
    b.screenshot("any-game-race");
}

#[test]
fn a_window_that_dies_on_its_first_page_is_opened_again_as_it_was_set_up() {
    let b = Browser::open_at(900, 700);
    let first = b.session_id();
    // `chrome://crash` crashes the tab that loads it; the fresh window
    // loads the home page.
    b.goto_after("chrome://crash", &format!("{}/", b.base()));
    assert_ne!(b.session_id(), first, "a fresh window was opened");
    b.wait_for_text("h1", "board games");
    let inner = b.script("return [window.innerWidth, window.innerHeight];", vec![]);
    assert_eq!(
        inner,
        json!([900, 700]),
        "the fresh window was set up as the first"
    );
}

/// The lobby follows the server live: a game opened elsewhere shows with
/// its host's name without a Refresh, and goes once its seat is taken.
#[test]
fn the_lobby_shows_a_game_as_it_opens_and_drops_it_once_taken() {
    let b = Browser::open();
    b.visit("/lobby");
    b.wait_for("the lobby to follow live", || {
        (b.attr_css("body", "data-live").as_deref() == Some("true")).then_some(())
    });
    b.wait_for_text("#lobby-status", "Live");
    assert!(
        b.find_all("#refresh:not([hidden])").is_empty(),
        "no Refresh while live"
    );
    let id = run(
        &b,
        r#"const made = await fetch("/api/matches", {method: "POST",
               headers: {"Content-Type": "application/json"},
               body: JSON.stringify({game: "chutes", seats: [{plan: "here", name: "Ada"}, "anyone"]})});
           return (await made.json()).id;"#,
    );
    let id = id.as_str().expect("a match id").to_string();
    b.wait_for_text("#open-matches", "Ada's Chutes & Ladders");
    assert_eq!(b.find_all(&format!("li[data-match='{id}']")).len(), 1);
    run(
        &b,
        &format!(
            r#"await fetch("/api/matches/{id}/join", {{method: "POST",
                   headers: {{"Content-Type": "application/json"}},
                   body: JSON.stringify({{seat: 2, name: "Bo"}})}});"#
        ),
    );
    // Other tests' games may wait in the same server's lobby: this one goes.
    b.wait_for("the taken game to leave the list", || {
        b.find_all(&format!("li[data-match='{id}']"))
            .is_empty()
            .then_some(())
    });
}
