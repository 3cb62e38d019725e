//! The embedded font: DejaVu Sans, regular and bold (licence in
//! `crates/render/fonts/LICENSE.txt`).
//!
//! Terms:
//! - **embedded**: the font files are compiled into the binary, and PNGs are
//!   rendered with them only (no system fonts are loaded), so a picture comes
//!   out the same on every machine, fonts installed or not.
//! - **advance width**: how far a string moves the pen; [`text_width`] uses
//!   the font's own metrics so labels can be sized to fit before drawing.

use resvg::usvg::fontdb;
use skrifa::MetadataProvider;
use skrifa::instance::{LocationRef, Size};
use std::sync::{Arc, OnceLock};

/// DejaVu Sans, regular.
pub static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
/// DejaVu Sans, bold.
pub static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// The family name pictures ask for.
pub const FAMILY: &str = "DejaVu Sans";
/// The `font-family` written into SVG documents: the embedded font first,
/// then close relatives a browser is likely to have.
pub const FAMILY_LIST: &str = "DejaVu Sans, Verdana, Geneva, sans-serif";

/// The font database PNG rendering uses: the embedded faces only, with
/// every generic family (`sans-serif`, `serif`, `monospace`…) mapped to them.
pub fn database() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family(FAMILY);
        db.set_serif_family(FAMILY);
        db.set_monospace_family(FAMILY);
        db.set_cursive_family(FAMILY);
        db.set_fantasy_family(FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Advance widths of the printable ASCII range in font units, plus
/// units per em, for one face.
struct Metrics {
    units_per_em: f32,
    ascii: [f32; 95],
    face: &'static [u8],
}

impl Metrics {
    fn load(face: &'static [u8]) -> Self {
        let mut ascii = [0.0; 95];
        let mut units_per_em = 2048.0;
        if let Ok(font) = skrifa::FontRef::new(face) {
            units_per_em = f32::from(
                font.metrics(Size::unscaled(), LocationRef::default())
                    .units_per_em,
            );
            let glyphs = font.glyph_metrics(Size::unscaled(), LocationRef::default());
            let charmap = font.charmap();
            for (i, slot) in ascii.iter_mut().enumerate() {
                let c = 32 + i as u32;
                *slot = charmap
                    .map(c)
                    .and_then(|g| glyphs.advance_width(g))
                    .unwrap_or(units_per_em * 0.6);
            }
        }
        Self {
            units_per_em,
            ascii,
            face,
        }
    }

    fn advance(&self, c: char) -> f32 {
        let code = c as u32;
        if (32..127).contains(&code) {
            return self.ascii[(code - 32) as usize];
        }
        skrifa::FontRef::new(self.face)
            .ok()
            .and_then(|font| {
                let g = font.charmap().map(c)?;
                font.glyph_metrics(Size::unscaled(), LocationRef::default())
                    .advance_width(g)
            })
            .unwrap_or(self.units_per_em * 0.6)
    }
}

fn metrics(bold: bool) -> &'static Metrics {
    static REG: OnceLock<Metrics> = OnceLock::new();
    static BLD: OnceLock<Metrics> = OnceLock::new();
    if bold {
        BLD.get_or_init(|| Metrics::load(BOLD))
    } else {
        REG.get_or_init(|| Metrics::load(REGULAR))
    }
}

/// The width of `text` set in the embedded font at `size` (user units), as
/// the PNG renderer will draw it (browsers with DejaVu Sans agree; others
/// come close).
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let m = metrics(bold);
    let units: f32 = text.chars().map(|c| m.advance(c)).sum();
    f64::from(units / m.units_per_em) * size
}

/// The largest font size (at most `max`) at which `text` fits in `width`.
pub fn fit_size(text: &str, width: f64, max: f64, bold: bool) -> f64 {
    let at_one = text_width(text, 1.0, bold);
    if at_one <= 0.0 {
        return max;
    }
    (width / at_one).min(max).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_faces_load() {
        let db = database();
        assert_eq!(db.len(), 2);
        let families: Vec<String> = db
            .faces()
            .flat_map(|f| f.families.iter().map(|(n, _)| n.clone()))
            .collect();
        assert!(families.iter().all(|f| f == FAMILY), "{families:?}");
    }

    #[test]
    fn widths_come_from_the_font() {
        // DejaVu Sans digits are 0.636 em wide.
        let w = text_width("100", 10.0, false);
        assert!((w - 19.08).abs() < 0.05, "{w}");
        assert!(text_width("100", 10.0, true) > w);
        assert!(text_width("→", 10.0, false) > 0.0);
        assert_eq!(text_width("", 10.0, false), 0.0);
        let size = fit_size("100", 19.08, 50.0, false);
        assert!((size - 10.0).abs() < 0.05, "{size}");
    }
}
