//! The pages and their static files, embedded in the binary.
//!
//! Terms:
//! - **page**: an HTML document at a path a person visits (`/`, `/chutes`).
//!   A match's page is its game's page at `/GAME/m/ID`: the page reads the
//!   id from its address and asks the API, which says when there is no such
//!   match.
//! - **any game's page** (`play.html`): for a game of the server's registry
//!   with no page of its own, at `/GAME` (a new game, from the registry's
//!   seats and defaults) and `/GAME/m/ID`: the players, the game's picture
//!   as Parlor draws it, the moves, the result, typed moves or the ones the
//!   game offers. A game added to the registry is playable in the browser
//!   before anyone writes its page.
//! - **asset**: a file a page loads from `/static/` (style sheet, JavaScript
//!   module, icon). Plain files, no build step: what is in `web/` is served.
//! - **game's page module** (`/static/games/GAME.js`): a game's own
//!   drawing and input, from its crate ([`games::GameInfo::page_module`]);
//!   any game's page runs it in place of the game's picture and typed moves.
//! - **pictures' sheet** (`/static/pictures.css`): the one asset not in
//!   `web/`: the dark scheme of Parlor's pictures, written by the renderer
//!   from its palette ([`render::scheme::style_sheet`]), so that the colours
//!   have one source.
//! - **web folder** ([`crate::config::Config::web_dir`]): for whoever works on the
//!   pages, the same files read from a folder at each request instead of
//!   from the binary, so that an edit shows on reload without a rebuild.
//!   Only the files listed here are served from it.

use crate::state::AppState;
use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use std::path::PathBuf;
use std::sync::Arc;

/// One embedded file.
#[derive(Clone, Copy)]
struct Asset {
    name: &'static str,
    mime: &'static str,
    body: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $mime:expr) => {
        Asset {
            name: $name,
            mime: $mime,
            body: include_bytes!(concat!("../web/", $name)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// Every file under `/static/`.
static ASSETS: &[Asset] = &[
    asset!("style.css", CSS),
    asset!("chutes.css", CSS),
    asset!("baffle.css", CSS),
    asset!("tycoon.css", CSS),
    asset!("common.js", JS),
    asset!("match.js", JS),
    asset!("matchui.js", JS),
    asset!("readable.js", JS),
    asset!("lobby.js", JS),
    asset!("home.js", JS),
    asset!("chutes.js", JS),
    asset!("chutes-analysis.js", JS),
    asset!("chutes-design.js", JS),
    asset!("chutes-board.js", JS),
    asset!("chances.js", JS),
    asset!("chutes-players.js", JS),
    asset!("chutes-start.js", JS),
    asset!("chutes-words.js", JS),
    asset!("baffle.js", JS),
    asset!("baffle-box.js", JS),
    asset!("baffle-start.js", JS),
    asset!("baffle-words.js", JS),
    asset!("baffle-race.js", JS),
    asset!("baffle-count.js", JS),
    asset!("tycoon.js", JS),
    asset!("tycoon-tables.js", JS),
    asset!("tycoon-design.js", JS),
    asset!("tycoon-pictures.js", JS),
    asset!("tycoon-board.js", JS),
    asset!("moveshow.js", JS),
    asset!("play.js", JS),
    asset!("shell.js", JS),
    asset!("onetap.js", JS),
    asset!("invitecard.js", JS),
    asset!("joingate.js", JS),
    asset!("theme.js", JS),
    asset!("dice.js", JS),
    asset!("classroom.js", JS),
    asset!("classroom.css", CSS),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The pages, by path, with their file's name.
static PAGES: &[(&str, &str, &str)] = &[
    ("/", "index.html", include_str!("../web/index.html")),
    ("/chutes", "chutes.html", include_str!("../web/chutes.html")),
    ("/baffle", "baffle.html", include_str!("../web/baffle.html")),
    ("/tycoon", "tycoon.html", include_str!("../web/tycoon.html")),
    ("/lobby", "lobby.html", include_str!("../web/lobby.html")),
    (
        "/classroom",
        "classroom.html",
        include_str!("../web/classroom.html"),
    ),
];

/// Any game's page, for a game with no page of its own.
const ANY_GAME_PAGE: (&str, &str) = ("play.html", include_str!("../web/play.html"));

/// The routes for the pages and `/static/{file}`, and each game of `games`
/// at `/GAME` and `/GAME/m/{id}` (its own page, or any game's page); with a
/// web folder, the files are read from it at each request.
pub fn routes(web_dir: Option<PathBuf>, games: &games::Registry) -> Router<AppState> {
    let dir = web_dir.map(Arc::new);
    let static_dir = dir.clone();
    let pictures_css = render::scheme::style_sheet();
    let mut router = Router::new().route(
        "/static/pictures.css",
        get(move || {
            let css = pictures_css.clone();
            async move {
                (
                    [
                        (header::CONTENT_TYPE, CSS),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    css,
                )
            }
        }),
    );
    router = router.route(
        "/static/{file}",
        get(move |Path(name): Path<String>| {
            let dir = static_dir.clone();
            async move { asset(dir.as_deref().map(|d| d.as_path()), &name) }
        }),
    );
    let page_at = |file: &'static str, html: &'static str| {
        let dir = dir.clone();
        get(move || {
            let dir = dir.clone();
            async move { page(dir.as_deref().map(|d| d.as_path()), file, html) }
        })
    };
    for &(path, file, html) in PAGES {
        router = router.route(path, page_at(file, html));
    }
    // A classroom's page: the same page, which reads the id from its path.
    if let Some(&(_, file, html)) = PAGES.iter().find(|(p, _, _)| *p == "/classroom") {
        router = router.route("/classroom/{id}", page_at(file, html));
    }
    // Each game of the registry: its own page, or any game's page, at
    // `/GAME` and at `/GAME/m/{id}` (a match of that game).
    for game in games.games() {
        let path = format!("/{}", game.name);
        let (file, html) = PAGES
            .iter()
            .find(|(p, _, _)| *p == path)
            .map_or(ANY_GAME_PAGE, |&(_, file, html)| (file, html));
        if !PAGES.iter().any(|(p, _, _)| *p == path) {
            router = router.route(&path, page_at(file, html));
        }
        router = router.route(&format!("{path}/m/{{id}}"), page_at(file, html));
        if let Some(module) = game.page_module {
            router = router.route(
                &format!("/static/games/{}.js", game.name),
                get(move || async move {
                    (
                        [
                            (header::CONTENT_TYPE, JS),
                            (header::CACHE_CONTROL, "no-cache"),
                        ],
                        module,
                    )
                }),
            );
        }
    }
    let icon_dir = dir;
    router
        .route(
            "/favicon.ico",
            get(move || {
                let dir = icon_dir.clone();
                async move { asset(dir.as_deref().map(|d| d.as_path()), "favicon.svg") }
            }),
        )
        .fallback(not_found)
        // No page or script holds a secret: each is compressed when the
        // browser accepts it (`http::compress`).
        .layer(axum::middleware::map_response(
            crate::http::compress::mark::<axum::body::Body>,
        ))
}

/// A file of the web folder, when one is set and holds it.
fn from_folder(dir: Option<&std::path::Path>, name: &str) -> Option<Vec<u8>> {
    std::fs::read(dir?.join(name)).ok()
}

fn page(dir: Option<&std::path::Path>, file: &str, html: &'static str) -> Response {
    let body = from_folder(dir, file)
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_else(|| html.to_string());
    ([(header::CACHE_CONTROL, "no-cache")], Html(body)).into_response()
}

fn asset(dir: Option<&std::path::Path>, name: &str) -> Response {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(a) => {
            let body = from_folder(dir, a.name).unwrap_or_else(|| a.body.to_vec());
            (
                [
                    (header::CONTENT_TYPE, a.mime),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                body,
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, Html(include_str!("../web/404.html"))).into_response(),
    }
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Html(include_str!("../web/404.html"))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_loads_only_assets_that_exist() {
        let any_game = ("/GAME", ANY_GAME_PAGE.0, ANY_GAME_PAGE.1);
        for &(path, _, html) in PAGES.iter().chain([&any_game]) {
            for part in html.split("/static/").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
                    .collect();
                assert!(
                    ASSETS.iter().any(|a| a.name == name) || name == "pictures.css",
                    "page {path} loads /static/{name}, which is not embedded"
                );
            }
        }
    }
}
