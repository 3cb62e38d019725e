//! What every page must be at every size: checks run in the browser.
//!
//! Terms:
//! - **viewport**: the sizes every page is tried at ([`VIEWPORTS`]): a
//!   phone, a tablet, a laptop and a desktop.
//! - **sideways scroll**: the page wider than the window.
//! - **covered control**: a visible button, link, field or select whose
//!   middle is under another element, so that a click would not reach it
//!   (one inside a closed `<details>` is not shown, though Chromium still
//!   gives it a box; while a modal `<dialog>` is open, only its own
//!   controls can be reached, and only they are looked at).
//! - **touch target**: on a phone, a control smaller than 44 × 44 CSS
//!   pixels (WCAG's enhanced target size) is too small to tap. A checkbox
//!   or radio button is measured with the label that wraps it (a tap on
//!   the label ticks it).
//! - **at rest**: the page once every animation that ends has ended; it
//!   is measured then, not halfway through a bounce.
//! - **broken word**: a word of a header or a button drawn across two
//!   lines ("Ladd" over "ers"), which reads as two.
//! - **audit**: axe-core run on the page (injected from
//!   `node_modules/axe-core`, installed by `scripts/install-browser.sh`);
//!   a serious or critical violation of WCAG 2.2 A or AA fails.

use crate::webdriver::Session;
use serde_json::{Value, json};

/// Where a word is never broken across lines: headers and buttons.
const WHOLE_WORDS: &str = "th, button, h1, h2, h3";

/// A window size to try a page at.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    /// Its name, for messages and screenshots.
    pub name: &'static str,
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
}

impl Viewport {
    /// True for a phone-sized window.
    pub fn is_phone(self) -> bool {
        self.width < 600
    }
}

/// Every size a page is tried at.
pub const VIEWPORTS: [Viewport; 4] = [
    Viewport {
        name: "phone",
        width: 390,
        height: 844,
    },
    Viewport {
        name: "tablet",
        width: 768,
        height: 1024,
    },
    Viewport {
        name: "laptop",
        width: 1280,
        height: 720,
    },
    Viewport {
        name: "desktop",
        width: 1920,
        height: 1080,
    },
];

/// Sets the window so that the page's viewport is `size` (the window's
/// frame, if any, is added).
pub fn set_viewport(session: &Session, size: Viewport) {
    session.set_size(size.width, size.height);
    let inner = session.script("return [window.innerWidth, window.innerHeight];", vec![]);
    let (w, h) = (
        inner[0].as_u64().unwrap_or(u64::from(size.width)) as u32,
        inner[1].as_u64().unwrap_or(u64::from(size.height)) as u32,
    );
    if (w, h) != (size.width, size.height) {
        session.set_size(
            size.width + size.width.saturating_sub(w),
            size.height + size.height.saturating_sub(h),
        );
    }
}

/// The page's width beyond the window's, in CSS pixels (0 when none).
pub fn sideways_overflow(session: &Session) -> u64 {
    session
        .script(
            "return Math.max(0, document.documentElement.scrollWidth - window.innerWidth);",
            vec![],
        )
        .as_u64()
        .unwrap_or(0)
}

/// The width and height the element `css` selects is drawn at.
pub fn drawn_size(session: &Session, css: &str) -> (f64, f64) {
    let size = session.script(
        "const e = document.querySelector(arguments[0]); if (!e) return null; \
         const r = e.getBoundingClientRect(); return [r.width, r.height];",
        vec![json!(css)],
    );
    (
        size[0].as_f64().unwrap_or(0.0),
        size[1].as_f64().unwrap_or(0.0),
    )
}

/// The visible controls whose middle is covered by another element, as
/// `"button#roll under div.toast"` lines. Each control is scrolled into view
/// before it is looked at.
pub fn covered_controls(session: &Session) -> Vec<String> {
    let found = session.script(
        r##"
        const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
            (e.classList.length ? "." + [...e.classList].join(".") : "");
        const out = [];
        // Behind a modal dialog nothing can be reached: only its controls count.
        const modal = document.querySelector("dialog:modal");
        for (const c of document.querySelectorAll("button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex='-1'])")) {
            const style = getComputedStyle(c);
            if (c.closest("[hidden], [inert]") || style.visibility === "hidden" || style.display === "none") continue;
            if (modal && !modal.contains(c)) continue;
            // Inside a closed <details> (but its summary), a control is not shown.
            if (c.closest("details:not([open])") && !c.closest("summary")) continue;
            const r0 = c.getBoundingClientRect();
            if (r0.width === 0 || r0.height === 0) continue;
            c.scrollIntoView({block: "center", inline: "center"});
            const r = c.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
            const top = document.elementFromPoint(x, y);
            if (top && top !== c && !c.contains(top) && !top.contains(c) && !(c.labels && [...c.labels].some((l) => l.contains(top)))) {
                out.push(name(c) + " under " + name(top));
            }
        }
        window.scrollTo(0, 0);
        return out;
        "##,
        vec![],
    );
    strings(&found)
}

/// The visible controls smaller than `min` CSS pixels in either direction,
/// as `"button#roll 30×20"` lines (inline links in running text are left
/// out: WCAG excepts them).
pub fn small_targets(session: &Session, min: f64) -> Vec<String> {
    let found = session.script(
        r##"
        const min = arguments[0];
        const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
            (e.classList.length ? "." + [...e.classList].join(".") : "");
        const out = [];
        for (const c of document.querySelectorAll("button, a[href], input, select, textarea, summary, [role='button']")) {
            const style = getComputedStyle(c);
            if (c.closest("[hidden], [inert]") || style.visibility === "hidden" || style.display === "none") continue;
            // Inside a closed <details> (but its summary), a control is not shown.
            if (c.closest("details:not([open])") && !c.closest("summary")) continue;
            if (c.tagName === "A" && c.closest("p, li.note, .note, td")) continue;
            if (c.type === "hidden") continue;
            let r = c.getBoundingClientRect();
            // A checkbox or radio button is tapped through the label that wraps it.
            if (c.type === "checkbox" || c.type === "radio") {
                const wrap = c.closest("label");
                if (wrap) r = wrap.getBoundingClientRect();
            }
            if (r.width === 0 && r.height === 0) continue;
            if (r.width < min || r.height < min) out.push(`${name(c)} ${Math.round(r.width)}×${Math.round(r.height)}`);
        }
        return out;
        "##,
        vec![json!(min)],
    );
    strings(&found)
}

/// axe-core's source, read once.
fn axe_source() -> &'static str {
    static AXE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    AXE.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/browser/node_modules/axe-core/axe.min.js");
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "the accessibility audit needs axe-core at {}: {e}; run `bash scripts/install-browser.sh`",
                path.display()
            )
        })
    })
}

/// Runs axe-core on the page as it stands; returns each serious or
/// critical violation of WCAG 2.2 A/AA as `"rule (impact): target — help"`.
pub fn audit(session: &Session) -> Vec<String> {
    let loaded = session.script("return typeof window.axe === 'object';", vec![]);
    if loaded != Value::Bool(true) {
        // Injected through a script: the page's own policy forbids inline
        // scripts, but WebDriver's run outside it.
        session.script(&format!("{}\nreturn true;", axe_source()), vec![]);
    }
    let result = session.script_async(
        r##"
        const done = arguments[arguments.length - 1];
        axe.run(document, {
            runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
            resultTypes: ["violations"],
        }).then((r) => done(r.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${v.help}`))))
          .catch((e) => done(["axe failed: " + e]));
        "##,
        vec![],
    );
    strings(&result)
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks the page as it stands at `size`: no sideways scroll, no covered
/// control, no fold without a sign that it opens, no serious or critical
/// accessibility violation, and on a phone no control too small to tap, no
/// broken word in a header or a button. Panics with every problem found,
/// naming `what`.
pub fn assert_page_fits(session: &Session, what: &str, size: Viewport) {
    bring_to_rest(session);
    let mut problems = Vec::new();
    let overflow = sideways_overflow(session);
    if overflow > 0 {
        problems.push(format!("the page scrolls sideways by {overflow} px"));
    }
    for covered in covered_controls(session) {
        problems.push(format!("covered: {covered}"));
    }
    for word in broken_words(session, WHOLE_WORDS) {
        problems.push(format!("a word drawn across two lines: {word}"));
    }
    for fold in unmarked_folds(session) {
        problems.push(format!("a fold with no sign that it opens: {fold}"));
    }
    if size.is_phone() {
        for small in small_targets(session, 44.0) {
            problems.push(format!("too small to tap: {small}"));
        }
    }
    for violation in audit(session) {
        problems.push(format!("accessibility: {violation}"));
    }
    assert!(
        problems.is_empty(),
        "{what} at {} ({}×{}):\n  {}",
        size.name,
        size.width,
        size.height,
        problems.join("\n  ")
    );
}

/// The visible summaries of `<details>` drawn with no disclosure sign:
/// neither the browser's own marker (a `list-item` summary) nor a drawn
/// chevron (a `::before` with a border), as `"summary.x Keys"` lines.
fn unmarked_folds(session: &Session) -> Vec<String> {
    let found = session.script(
        r##"
        const out = [];
        for (const s of document.querySelectorAll("details > summary")) {
            const style = getComputedStyle(s);
            if (s.closest("[hidden], [inert]") || style.visibility === "hidden" || style.display === "none") continue;
            const outer = s.parentElement.parentElement;
            if (outer && outer.closest("details:not([open])")) continue;
            const r = s.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            const native = style.display === "list-item" && style.listStyleType !== "none";
            const before = getComputedStyle(s, "::before");
            const drawn = before.content !== "none" && before.content !== "normal" && parseFloat(before.borderRightWidth) > 0;
            if (!native && !drawn) out.push(`summary${s.id ? "#" + s.id : ""} ${s.textContent.trim().slice(0, 40)}`);
        }
        return out;
        "##,
        vec![],
    );
    strings(&found)
}

/// Ends every animation that ends (a won result's bounce, a die's
/// tumble), so the page is measured **at rest**: a control scaled to 96%
/// for a moment is not too small to tap, nor one moved a moment covered.
/// Animations that run forever (the reconnecting dot) are left running.
fn bring_to_rest(session: &Session) {
    session.script(
        "for (const a of document.getAnimations()) { \
           if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish(); \
         }",
        vec![],
    );
}

/// The words of the elements `css` selects that are drawn across two
/// lines (a **broken word**).
fn broken_words(session: &Session, css: &str) -> Vec<String> {
    let broken = session.script(
        "const out = []; \
         for (const cell of document.querySelectorAll(arguments[0])) { \
           const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT); \
           for (let node = walk.nextNode(); node; node = walk.nextNode()) { \
             for (const m of node.data.matchAll(/\\S+/g)) { \
               const r = document.createRange(); \
               r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length); \
               const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top))); \
               if (tops.size > 1) out.push(m[0]); } } } \
         return out;",
        vec![json!(css)],
    );
    strings(&broken)
}
