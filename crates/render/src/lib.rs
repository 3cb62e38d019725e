//! Parlor's pictures: SVG documents built in memory, written as SVG text or
//! rendered to PNG through resvg with an embedded font.
//!
//! Glossary:
//! - **picture** ([`Picture`]): a finished drawing with a size in user units
//!   (pixels at scale 1) and a title.
//! - **element** ([`Element`]): one SVG tag, built with chained calls; text
//!   and attribute values are escaped when written.
//! - **data attribute** (`.data("square", 42)` → `data-square="42"`): what a
//!   web page reads to make a picture interactive without drawing it again.
//! - **primitives** ([`draw`]): points, rectangles, labels, arrows, grids of
//!   cells and legends, shared by every game's pictures.
//! - **palette** ([`palette`]): the shared colours — ladder green, chute blue,
//!   8 player colours, Baffle's entry/exit/found/unfound colours, plot colours
//!   and a heat ramp.
//! - **save** ([`save`]): SVG or PNG chosen by the file's extension, written
//!   atomically, the longer side `size` pixels.
//!
//! # Drawing a picture
//!
//! ```
//! use render::draw::{self, Anchor, Grid, Legend, Point, Swatch};
//! use render::{Element, Picture, palette};
//! use tabletop::Cell;
//!
//! let grid = Grid::new(20.0, 40.0, 30.0, 3, 3);
//! let mut picture = Picture::new(grid.width() + 40.0, grid.height() + 90.0, "A 3 × 3 box");
//! picture.push(draw::title(picture.width() / 2.0, 20.0, "A 3 × 3 box", 18.0, picture.width()));
//! for row in 0..3 {
//!     for col in 0..3 {
//!         let cell = Cell { row, col };
//!         picture.push(grid.cell_rect(cell, palette::PAPER).title(format!("<{row},{col}>")));
//!     }
//! }
//! picture.push(grid.lines(palette::RULE, 1.0));
//! let (a, b) = (grid.centre(Cell { row: 2, col: 0 }), grid.centre(Cell { row: 0, col: 2 }));
//! picture.push(draw::arrow(a, b, palette::BEAM, 3.0).data("hole", 7));
//! picture.push(Legend::new(12.0).entry(Swatch::Line(palette::BEAM), "beam").draw(20.0, 150.0, 100.0));
//! let svg = picture.to_svg();
//! assert!(svg.contains("data-hole=\"7\""));
//! let png = render::to_png(&picture, Some(200)).unwrap();
//! assert!(png.starts_with(b"\x89PNG"));
//! ```
//!
//! Save with [`save`]`(&picture, path, Some(800))`: `.svg` or `.png` by the
//! extension; a bad extension, size or directory is a [`RenderError`] and no
//! file is written.
//!
//! # Conventions
//!
//! - Coordinates are user units, y down. Pick a natural size where text is
//!   readable (a board square about 60 units, captions 12–16 units); `size`
//!   scales the whole picture.
//! - Text is DejaVu Sans (embedded; [`font::text_width`] measures it), so
//!   layouts can be computed before drawing and labels never overlap.
//! - Put a `class` on groups (`squares`, `jumps`, `moves`, `legend`…) and
//!   `data-*` on the elements a page may want to pick.
//! - A game's module draws through these primitives and lives beside them in
//!   this crate.

pub mod baffle;
pub mod baffle_layouts;
pub mod chances;
pub mod chutes;
pub mod draw;
pub mod font;
pub mod output;
pub mod palette;
pub mod plot;
pub mod scheme;
pub mod seats;
pub mod svg;
pub mod tycoon;

pub use output::{Format, RenderError, encode, save, to_png};
pub use palette::Colour;
pub use svg::{Element, Picture, group};
