//! The dark scheme of Parlor's pictures in a web page: one style sheet that
//! repaints their neutral colours when the page is dark.
//!
//! Terms:
//! - **scheme**: light (how every picture is drawn, and every file written)
//!   or dark (how a page in dark mode shows it: `data-theme="dark"` on an
//!   ancestor, as the pages' `theme.js` sets on `<html>`).
//! - **repaint** ([`crate::palette::Repaint`]): a colour and the one it
//!   takes in the dark scheme. [`crate::palette::DARK`] gives the neutral
//!   ones; Tycoon adds its cells' tints ([`crate::tycoon::dark_repaints`]).
//! - **player's line**: a player's colour as a line or a band (a chart's
//!   curve, its interval, a beam), lightened where it would not stand out
//!   on the dark background ([`crate::palette::dark_line`]); tokens keep
//!   the player's colour.
//! - **style sheet** ([`style_sheet`]): a rule a repaint, each an attribute
//!   selector on the colour as the pictures write it, scoped to
//!   `svg.parlor-picture` under a dark page, so that nothing else on the
//!   page is touched and a picture alone (a file, an `<img>`) stays light.
//!   A separate sheet, not a `<style>` in each picture: the pages' content
//!   security policy allows only the server's own style sheets.

use crate::palette::{self, Repaint};
use std::fmt::Write as _;

/// The class every picture's `<svg>` carries, which the sheet is scoped to.
pub const PICTURE_CLASS: &str = "parlor-picture";

/// Every repaint of the dark scheme: the palette's neutrals (the
/// background's white only on the background), then the games' own.
pub fn repaints() -> Vec<Repaint> {
    let neutrals = palette::DARK.iter().skip(1).map(|&(light, dark)| Repaint {
        light,
        dark,
        text_only: false,
    });
    neutrals.chain(crate::tycoon::dark_repaints()).collect()
}

/// The style sheet of the dark scheme for every picture in a page.
pub fn style_sheet() -> String {
    let scope = format!("[data-theme=\"dark\"] svg.{PICTURE_CLASS}");
    let mut out = String::from(
        "/* Parlor's pictures in the dark scheme: written by the renderer from its palette (render::scheme). */\n",
    );
    let _ = writeln!(
        out,
        "{scope} rect.background {{ fill: {}; }}",
        palette::DARK_BACKGROUND
    );
    // White round text is a halo that parts it from what lies behind, on
    // the background: it darkens with the background (white shapes, the
    // tokens' rims and Baffle's open holes, stay white).
    let _ = writeln!(
        out,
        "{scope} text[stroke=\"{}\"] {{ stroke: {}; }}",
        palette::WHITE,
        palette::DARK_BACKGROUND
    );
    // A player's colour too dark to see as a line or a band (a chart's
    // curve and its interval, a beam): lighter; a token keeps its colour.
    for light in palette::PLAYERS {
        if let Some(dark) = palette::dark_line(light) {
            let _ = writeln!(
                out,
                "{scope} :is(line, polyline, path)[stroke=\"{light}\"] {{ stroke: {dark}; }}"
            );
            let _ = writeln!(out, "{scope} polygon[fill=\"{light}\"] {{ fill: {dark}; }}");
        }
    }
    for r in repaints() {
        let (light, dark) = (r.light, r.dark);
        if r.text_only {
            let _ = writeln!(out, "{scope} text[fill=\"{light}\"] {{ fill: {dark}; }}");
        } else {
            let _ = writeln!(out, "{scope} [fill=\"{light}\"] {{ fill: {dark}; }}");
            let _ = writeln!(out, "{scope} [stroke=\"{light}\"] {{ stroke: {dark}; }}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheet_repaints_the_neutrals_and_keeps_the_games_colours() {
        let css = style_sheet();
        let scope = "[data-theme=\"dark\"] svg.parlor-picture";
        assert!(
            css.contains(&format!(
                "{scope} rect.background {{ fill: {}; }}",
                palette::DARK_BACKGROUND
            )),
            "{css}"
        );
        let paper = palette::dark(palette::PAPER).expect("paper darkens");
        assert!(css.contains(&format!(
            "{scope} [fill=\"{}\"] {{ fill: {paper}; }}",
            palette::PAPER
        )));
        let ink = palette::dark(palette::INK).expect("ink lightens");
        assert!(css.contains(&format!(
            "{scope} [stroke=\"{}\"] {{ stroke: {ink}; }}",
            palette::INK
        )));
        for kept in [palette::LADDER, palette::CHUTE, palette::INK_ON_COLOUR] {
            assert!(
                !css.contains(&format!("=\"{kept}\"]")),
                "{kept} is kept: {css}"
            );
        }
        // Charcoal lines lighten; charcoal tokens (circles) do not.
        let charcoal = palette::PLAYERS[3];
        let line = palette::dark_line(charcoal).expect("charcoal lightens");
        assert!(
            css.contains(&format!(
                "{scope} :is(line, polyline, path)[stroke=\"{charcoal}\"] {{ stroke: {line}; }}"
            )),
            "{css}"
        );
        assert!(!css.contains(&format!("circle[fill=\"{charcoal}\"]")));
        // White stays white but as a halo round text.
        let white = palette::WHITE;
        assert!(!css.contains(&format!("[fill=\"{white}\"]")), "{css}");
        assert!(
            css.contains(&format!("{scope} text[stroke=\"{white}\"]")),
            "{css}"
        );
        assert!(
            !css.contains(&format!("parlor-picture [stroke=\"{white}\"]")),
            "{css}"
        );
        // Every rule is one line; none repeats.
        let lines: Vec<&str> = css.lines().skip(1).collect();
        let unique: std::collections::BTreeSet<&str> = lines.iter().copied().collect();
        assert_eq!(lines.len(), unique.len());
    }

    #[test]
    fn captions_repaint_as_text_only() {
        let css = style_sheet();
        let caption = crate::tycoon::dark_repaints()
            .into_iter()
            .find(|r| r.text_only)
            .expect("Tycoon's captions");
        assert!(
            css.contains(&format!("text[fill=\"{}\"]", caption.light)),
            "{css}"
        );
        assert!(
            !css.contains(&format!("parlor-picture [fill=\"{}\"]", caption.light)),
            "{css}"
        );
    }

    #[test]
    fn every_picture_carries_the_class() {
        let svg = crate::Picture::new(10.0, 10.0, "t").to_svg();
        assert!(svg.contains("class=\"parlor-picture\""), "{svg}");
    }
}
