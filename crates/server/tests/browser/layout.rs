//! Every page at every size: nothing scrolls sideways, nothing covers a
//! control, phones get targets big enough to tap, and the accessibility
//! audit finds no serious or critical violation. Each game's own page is
//! checked in its play states by its own tests; here, the pages every
//! visitor meets first.

use crate::Browser;
use crate::checks::{VIEWPORTS, assert_page_fits, set_viewport};

#[test]
fn the_home_page_and_the_lobby_fit_every_screen() {
    let browser = Browser::open();
    for size in VIEWPORTS {
        set_viewport(&browser, size);
        for (path, name) in [("/", "home"), ("/lobby", "lobby")] {
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
}
