//! The pages and their static files, embedded in the binary.
//!
//! Terms:
//! - **page**: an HTML document at a path a person visits (`/`, `/chutes`).
//!   A match's page is its game's page at `/GAME/m/ID`: the page reads the
//!   id from its address and asks the API, which says when there is no such
//!   match.
//! - **asset**: a file a page loads from `/static/` (style sheet, JavaScript
//!   module, icon). Plain files, no build step: what is in `web/` is served.

use crate::AppState;
use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

/// One embedded file.
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
    asset!("lobby.js", JS),
    asset!("chutes.js", JS),
    asset!("baffle.js", JS),
    asset!("tycoon.js", JS),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The pages, by path.
static PAGES: &[(&str, &str)] = &[
    ("/", include_str!("../web/index.html")),
    ("/chutes", include_str!("../web/chutes.html")),
    ("/baffle", include_str!("../web/baffle.html")),
    ("/tycoon", include_str!("../web/tycoon.html")),
    ("/lobby", include_str!("../web/lobby.html")),
];

/// The games whose pages also answer at `/GAME/m/{id}`.
const MATCH_PAGES: [&str; 3] = ["/chutes", "/baffle", "/tycoon"];

/// The routes for the pages and `/static/{file}`.
pub fn routes() -> Router<AppState> {
    let mut router = Router::new().route("/static/{file}", get(asset));
    for &(path, html) in PAGES {
        router = router.route(path, get(move || async move { page(html) }));
        if MATCH_PAGES.contains(&path) {
            router = router.route(
                &format!("{path}/m/{{id}}"),
                get(move || async move { page(html) }),
            );
        }
    }
    router
        .route(
            "/favicon.ico",
            get(|| async { asset(Path("favicon.svg".into())).await }),
        )
        .fallback(not_found)
}

fn page(html: &'static str) -> Response {
    ([(header::CACHE_CONTROL, "no-cache")], Html(html)).into_response()
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(a) => (
            [
                (header::CONTENT_TYPE, a.mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            a.body,
        )
            .into_response(),
        None => not_found().await,
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
        for &(path, html) in PAGES {
            for part in html.split("/static/").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
                    .collect();
                assert!(
                    ASSETS.iter().any(|a| a.name == name),
                    "page {path} loads /static/{name}, which is not embedded"
                );
            }
        }
    }
}
