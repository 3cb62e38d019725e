//! Drawing primitives shared by every picture: shapes, labels, arrows, grids
//! of cells, legends.
//!
//! Terms:
//! - **point** ([`Point`]): x to the right, y down, in user units.
//! - **label** ([`label`]): text centred vertically on a point, anchored at
//!   its start, middle or end ([`Anchor`]); sizes are in user units.
//! - **grid** ([`Grid`]): rows × columns of square cells at a place in the
//!   picture; it turns a [`tabletop::Cell`] into a rectangle or a centre.
//! - **arrow** ([`arrow`], [`curved_arrow`]): a line with a solid head at its
//!   end.
//! - **legend** ([`Legend`]): swatches with captions, laid out in rows that
//!   wrap to a width.
//!
//! Every function returns an [`Element`] that can be restyled with its
//! builder methods (`.fill(..)`, `.attr(..)`, `.data(..)`, `.title(..)`).

use crate::font;
use crate::palette::{self, Colour};

/// The outer margin of every game picture, in user units.
pub const MARGIN: f64 = 20.0;
/// The title's text size in every game picture.
pub const TITLE_SIZE: f64 = 24.0;
/// The subtitle's text size in every game picture.
pub const SUBTITLE_SIZE: f64 = 14.0;
/// The legend captions' text size in every game picture.
pub const LEGEND_SIZE: f64 = 13.0;
use crate::svg::{Element, group, num};
use tabletop::Cell;

/// A place in the picture.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Point {
    /// Rightwards.
    pub x: f64,
    /// Downwards.
    pub y: f64,
}

impl Point {
    /// The point (x, y).
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// The distance to `other`.
    pub fn distance(self, other: Point) -> f64 {
        (other.x - self.x).hypot(other.y - self.y)
    }

    /// The point a fraction `t` of the way to `other`.
    pub fn lerp(self, other: Point, t: f64) -> Point {
        Point::new(
            self.x + (other.x - self.x) * t,
            self.y + (other.y - self.y) * t,
        )
    }

    /// This point moved by (dx, dy).
    pub fn offset(self, dx: f64, dy: f64) -> Point {
        Point::new(self.x + dx, self.y + dy)
    }
}

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// The rectangle with top-left (x, y) and size w × h.
    pub const fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Self { x, y, w, h }
    }

    /// The centre.
    pub fn centre(&self) -> Point {
        Point::new(self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// A rectangle inside this one, `by` smaller on every side.
    pub fn inset(&self, by: f64) -> Rect {
        let by = by.min(self.w / 2.0).min(self.h / 2.0);
        Rect::new(
            self.x + by,
            self.y + by,
            self.w - 2.0 * by,
            self.h - 2.0 * by,
        )
    }

    /// Whether `p` lies inside (edges included).
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.x <= self.x + self.w && p.y >= self.y && p.y <= self.y + self.h
    }

    /// A `<rect>` element for this rectangle.
    pub fn element(&self) -> Element {
        rect(self.x, self.y, self.w, self.h)
    }
}

/// A `<rect>`.
pub fn rect(x: f64, y: f64, w: f64, h: f64) -> Element {
    Element::new("rect")
        .attr("x", x)
        .attr("y", y)
        .attr("width", w.max(0.0))
        .attr("height", h.max(0.0))
}

/// A `<circle>`.
pub fn circle(centre: Point, r: f64) -> Element {
    Element::new("circle")
        .attr("cx", centre.x)
        .attr("cy", centre.y)
        .attr("r", r.max(0.0))
}

/// A `<line>` stroked in `colour`, `width` wide, with round ends.
pub fn line(a: Point, b: Point, colour: Colour, width: f64) -> Element {
    Element::new("line")
        .attr("x1", a.x)
        .attr("y1", a.y)
        .attr("x2", b.x)
        .attr("y2", b.y)
        .stroke(colour, width)
        .attr("stroke-linecap", "round")
}

/// A `<polyline>` (unfilled) through `points`.
pub fn polyline(points: &[Point], colour: Colour, width: f64) -> Element {
    Element::new("polyline")
        .attr("points", points_attr(points))
        .fill("none")
        .stroke(colour, width)
        .attr("stroke-linejoin", "round")
}

/// A filled `<polygon>` through `points`.
pub fn polygon(points: &[Point], colour: Colour) -> Element {
    Element::new("polygon")
        .attr("points", points_attr(points))
        .fill(colour)
}

fn points_attr(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| format!("{},{}", num(p.x), num(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Path data (`d`), built command by command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathData(String);

impl PathData {
    /// An empty path.
    pub fn new() -> Self {
        Self::default()
    }

    fn cmd(mut self, c: char, points: &[Point]) -> Self {
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        self.0.push(c);
        for (i, p) in points.iter().enumerate() {
            if i > 0 {
                self.0.push(' ');
            }
            self.0.push_str(&num(p.x));
            self.0.push(',');
            self.0.push_str(&num(p.y));
        }
        self
    }

    /// Starts a new sub-path at `p`.
    #[must_use]
    pub fn move_to(self, p: Point) -> Self {
        self.cmd('M', &[p])
    }

    /// A straight line to `p`.
    #[must_use]
    pub fn line_to(self, p: Point) -> Self {
        self.cmd('L', &[p])
    }

    /// A quadratic curve to `p` pulled towards `control`.
    #[must_use]
    pub fn quad_to(self, control: Point, p: Point) -> Self {
        self.cmd('Q', &[control, p])
    }

    /// A cubic curve to `p` with two control points.
    #[must_use]
    pub fn cubic_to(self, c1: Point, c2: Point, p: Point) -> Self {
        self.cmd('C', &[c1, c2, p])
    }

    /// Closes the sub-path.
    #[must_use]
    pub fn close(self) -> Self {
        self.cmd('Z', &[])
    }

    /// Whether nothing has been drawn.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `d` attribute text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A `<path>` element with this data, unfilled.
    pub fn element(&self) -> Element {
        Element::new("path").attr("d", self.0.as_str()).fill("none")
    }
}

/// Where a label's point sits along its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Anchor {
    /// The point is the text's left end.
    Start,
    /// The point is the text's middle.
    #[default]
    Middle,
    /// The point is the text's right end.
    End,
}

impl Anchor {
    fn svg(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Middle => "middle",
            Self::End => "end",
        }
    }
}

/// The share of a font size from the vertical middle of capitals/digits to
/// their baseline (DejaVu Sans caps are 0.73 em tall).
const HALF_CAP: f64 = 0.365;

/// A `<text>` label in ink, `size` user units high, vertically centred on
/// `y` (on its digits and capitals) and placed along `x` by `anchor`.
pub fn label(x: f64, y: f64, text: &str, size: f64, anchor: Anchor) -> Element {
    Element::new("text")
        .attr("x", x)
        .attr("y", y + HALF_CAP * size)
        .attr("font-size", size)
        .attr("text-anchor", anchor.svg())
        .fill(palette::INK)
        .text(text)
}

/// A bold label (see [`label`]).
pub fn bold_label(x: f64, y: f64, text: &str, size: f64, anchor: Anchor) -> Element {
    label(x, y, text, size, anchor).attr("font-weight", "bold")
}

/// A bold title centred at `x`, vertically centred on `y`, shrunk from
/// `size` if needed to fit `max_width`.
pub fn title(x: f64, y: f64, text: &str, size: f64, max_width: f64) -> Element {
    let size = font::fit_size(text, max_width, size, true);
    bold_label(x, y, text, size, Anchor::Middle).class("title")
}

/// A filled five-pointed star centred on `centre`, its points `r` from it.
pub fn star(centre: Point, r: f64, colour: Colour) -> Element {
    let points: Vec<Point> = (0..10)
        .map(|i| {
            let radius = if i % 2 == 0 { r } else { r * 0.45 };
            let angle = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
            centre.offset(radius * angle.cos(), radius * angle.sin())
        })
        .collect();
    polygon(&points, colour).attr("stroke-linejoin", "round")
}

/// The head of an arrow pointing at `tip` from direction `from`.
fn head(from: Point, tip: Point, size: f64, colour: Colour) -> Element {
    let len = from.distance(tip);
    let (ux, uy) = if len > 0.0 {
        ((tip.x - from.x) / len, (tip.y - from.y) / len)
    } else {
        (1.0, 0.0)
    };
    let base = tip.offset(-ux * size, -uy * size);
    let half = size * 0.55;
    polygon(
        &[
            tip,
            base.offset(-uy * half, ux * half),
            base.offset(uy * half, -ux * half),
        ],
        colour,
    )
}

/// A straight arrow from `from` to `to` in `colour`, the shaft `width` wide,
/// its head ending exactly at `to`.
pub fn arrow(from: Point, to: Point, colour: Colour, width: f64) -> Element {
    let size = (width * 4.0).max(4.0);
    let len = from.distance(to);
    let shaft_end = if len > size {
        to.lerp(from, size * 0.8 / len)
    } else {
        to
    };
    group()
        .class("arrow")
        .child(line(from, shaft_end, colour, width))
        .child(head(from, to, size, colour))
}

/// An arrow from `from` to `to` that bows to its left by `bend` × its length
/// (negative bows right), as a quadratic curve with its head at `to`.
pub fn curved_arrow(from: Point, to: Point, bend: f64, colour: Colour, width: f64) -> Element {
    let size = (width * 4.0).max(4.0);
    let mid = from.lerp(to, 0.5);
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let control = mid.offset(dy * bend, -dx * bend);
    let len = control.distance(to);
    let shaft_end = if len > size {
        to.lerp(control, size * 0.8 / len)
    } else {
        to
    };
    group()
        .class("arrow")
        .child(
            PathData::new()
                .move_to(from)
                .quad_to(control, shaft_end)
                .element()
                .stroke(colour, width)
                .attr("stroke-linecap", "round"),
        )
        .child(head(control, to, size, colour))
}

/// Rows × columns of square cells, `cell` user units on a side, with its
/// top-left corner at (x, y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// A cell's side.
    pub cell: f64,
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
}

impl Grid {
    /// A grid at (x, y).
    pub fn new(x: f64, y: f64, cell: f64, rows: u32, cols: u32) -> Self {
        Self {
            x,
            y,
            cell,
            rows,
            cols,
        }
    }

    /// Total width.
    pub fn width(&self) -> f64 {
        self.cell * f64::from(self.cols)
    }

    /// Total height.
    pub fn height(&self) -> f64 {
        self.cell * f64::from(self.rows)
    }

    /// The whole grid's rectangle.
    pub fn bounds(&self) -> Rect {
        Rect::new(self.x, self.y, self.width(), self.height())
    }

    /// The rectangle of `cell` (cells outside the grid are placed as if the
    /// grid went on).
    pub fn rect(&self, cell: Cell) -> Rect {
        Rect::new(
            self.x + f64::from(cell.col) * self.cell,
            self.y + f64::from(cell.row) * self.cell,
            self.cell,
            self.cell,
        )
    }

    /// The centre of `cell`.
    pub fn centre(&self, cell: Cell) -> Point {
        self.rect(cell).centre()
    }

    /// The cell under `p`, if any.
    pub fn cell_at(&self, p: Point) -> Option<Cell> {
        if self.cell <= 0.0 || p.x < self.x || p.y < self.y {
            return None;
        }
        let col = ((p.x - self.x) / self.cell).floor();
        let row = ((p.y - self.y) / self.cell).floor();
        if col >= f64::from(self.cols) || row >= f64::from(self.rows) {
            return None;
        }
        Some(Cell {
            row: row as u32,
            col: col as u32,
        })
    }

    /// A filled `<rect>` for `cell` with `data-row` and `data-col`.
    pub fn cell_rect(&self, cell: Cell, fill: Colour) -> Element {
        self.rect(cell)
            .element()
            .fill(fill)
            .data("row", cell.row)
            .data("col", cell.col)
    }

    /// Every line of the grid (the outer border too) as one `<path>`.
    pub fn lines(&self, colour: Colour, width: f64) -> Element {
        let mut d = PathData::new();
        for r in 0..=self.rows {
            let y = self.y + f64::from(r) * self.cell;
            d = d
                .move_to(Point::new(self.x, y))
                .line_to(Point::new(self.x + self.width(), y));
        }
        for c in 0..=self.cols {
            let x = self.x + f64::from(c) * self.cell;
            d = d
                .move_to(Point::new(x, self.y))
                .line_to(Point::new(x, self.y + self.height()));
        }
        d.element()
            .stroke(colour, width)
            .attr("stroke-linecap", "square")
            .class("grid-lines")
    }
}

/// What a legend entry shows beside its caption.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Swatch {
    /// A filled square.
    Fill(Colour),
    /// A thick line.
    Line(Colour),
    /// A dashed line.
    Dashed(Colour),
    /// A filled circle.
    Dot(Colour),
    /// A small ladder (two rails and rungs).
    Ladder(Colour),
    /// A small arrow.
    Arrow(Colour),
    /// A five-pointed star.
    Star(Colour),
}

/// Swatches with captions, laid out left to right in rows that wrap.
#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    entries: Vec<(Swatch, String)>,
    size: f64,
}

impl Legend {
    /// An empty legend with captions `size` user units high.
    pub fn new(size: f64) -> Self {
        Self {
            entries: Vec::new(),
            size,
        }
    }

    /// Adds an entry.
    #[must_use]
    pub fn entry(mut self, swatch: Swatch, caption: impl Into<String>) -> Self {
        self.entries.push((swatch, caption.into()));
        self
    }

    /// Adds every entry of `other`, after this legend's.
    #[must_use]
    pub fn extend_from(mut self, other: &Legend) -> Self {
        self.entries.extend(other.entries.iter().cloned());
        self
    }

    /// This legend without its [`Swatch::Fill`] entries (for a picture
    /// whose fills mean something else).
    #[must_use]
    pub fn without_fills(mut self) -> Self {
        self.entries.retain(|(s, _)| !matches!(s, Swatch::Fill(_)));
        self
    }

    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn swatch_width(&self) -> f64 {
        self.size * 1.6
    }

    fn entry_width(&self, caption: &str) -> f64 {
        self.swatch_width() + self.size * 0.4 + font::text_width(caption, self.size, false)
    }

    fn gap(&self) -> f64 {
        self.size * 1.2
    }

    fn row_height(&self) -> f64 {
        self.size * 1.6
    }

    /// Entries per row when wrapped to `max_width`.
    fn rows(&self, max_width: f64) -> Vec<Vec<usize>> {
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut used = 0.0;
        for (i, (_, caption)) in self.entries.iter().enumerate() {
            let w = self.entry_width(caption);
            match rows.last_mut() {
                Some(row) if used + self.gap() + w <= max_width => {
                    row.push(i);
                    used += self.gap() + w;
                }
                _ => {
                    rows.push(vec![i]);
                    used = w;
                }
            }
        }
        rows
    }

    /// The height the legend takes when wrapped to `max_width`.
    pub fn height(&self, max_width: f64) -> f64 {
        self.rows(max_width).len() as f64 * self.row_height()
    }

    fn swatch(&self, swatch: Swatch, x: f64, y: f64) -> Element {
        let (w, s) = (self.swatch_width(), self.size);
        let (left, right) = (Point::new(x, y), Point::new(x + w, y));
        match swatch {
            Swatch::Fill(c) => rect(x + w * 0.2, y - s * 0.4, w * 0.6, s * 0.8)
                .fill(c)
                .stroke(palette::INK, s * 0.06),
            Swatch::Line(c) => line(left, right, c, s * 0.25),
            Swatch::Dashed(c) => line(left, right, c, s * 0.15).attr(
                "stroke-dasharray",
                format!("{} {}", num(s * 0.3), num(s * 0.2)),
            ),
            Swatch::Dot(c) => circle(Point::new(x + w / 2.0, y), s * 0.4).fill(c),
            Swatch::Ladder(c) => {
                let mut g = group()
                    .child(line(
                        left.offset(0.0, -s * 0.3),
                        right.offset(0.0, -s * 0.3),
                        c,
                        s * 0.12,
                    ))
                    .child(line(
                        left.offset(0.0, s * 0.3),
                        right.offset(0.0, s * 0.3),
                        c,
                        s * 0.12,
                    ));
                for i in 1..=3 {
                    let rx = x + w * f64::from(i) / 4.0;
                    g.push(line(
                        Point::new(rx, y - s * 0.3),
                        Point::new(rx, y + s * 0.3),
                        c,
                        s * 0.1,
                    ));
                }
                g
            }
            Swatch::Arrow(c) => arrow(left, right, c, s * 0.15),
            Swatch::Star(c) => {
                star(Point::new(x + w / 2.0, y), s * 0.6, c).stroke(palette::INK, s * 0.05)
            }
        }
    }

    /// The legend with its first row's top-left at (x, y), wrapped to
    /// `max_width`.
    pub fn draw(&self, x: f64, y: f64, max_width: f64) -> Element {
        let mut g = group().class("legend");
        for (r, row) in self.rows(max_width).iter().enumerate() {
            let cy = y + (r as f64 + 0.5) * self.row_height();
            let mut cx = x;
            for &i in row {
                let Some((swatch, caption)) = self.entries.get(i) else {
                    continue;
                };
                g.push(
                    group()
                        .class("legend-entry")
                        .child(self.swatch(*swatch, cx, cy))
                        .child(label(
                            cx + self.swatch_width() + self.size * 0.4,
                            cy,
                            caption,
                            self.size,
                            Anchor::Start,
                        )),
                );
                cx += self.entry_width(caption) + self.gap();
            }
        }
        g
    }

    /// The widest row's width when wrapped to `max_width`.
    pub fn width(&self, max_width: f64) -> f64 {
        self.rows(max_width)
            .iter()
            .map(|row| {
                let inner: f64 = row
                    .iter()
                    .filter_map(|&i| self.entries.get(i))
                    .map(|(_, c)| self.entry_width(c))
                    .sum();
                inner + self.gap() * row.len().saturating_sub(1) as f64
            })
            .fold(0.0, f64::max)
    }
}

/// A ladder from `a` to `b` on cells `cell` wide: two rails and evenly
/// spaced rungs (Chutes & Ladders boards and Tycoon grids alike).
pub fn ladder(a: Point, b: Point, cell: f64) -> Element {
    let len = a.distance(b).max(1e-9);
    let (ux, uy) = ((b.x - a.x) / len, (b.y - a.y) / len);
    let (nx, ny) = (-uy, ux);
    let half = cell * 0.13;
    let rail_w = (cell * 0.045).max(0.5);
    let left = |p: Point| p.offset(nx * half, ny * half);
    let right = |p: Point| p.offset(-nx * half, -ny * half);
    let rails = PathData::new()
        .move_to(left(a))
        .line_to(left(b))
        .move_to(right(a))
        .line_to(right(b));
    let rung_gap = cell * 0.28;
    let rungs_n = ((len / rung_gap).floor() as usize).max(1);
    let mut rungs = PathData::new();
    for i in 1..=rungs_n {
        let t = i as f64 / (rungs_n + 1) as f64;
        let p = a.lerp(b, t);
        rungs = rungs.move_to(left(p)).line_to(right(p));
    }
    group()
        .class("ladder-body")
        .child(
            rungs
                .element()
                .stroke(palette::LADDER, rail_w * 0.8)
                .attr("stroke-linecap", "round"),
        )
        .child(
            rails
                .element()
                .stroke(palette::LADDER, rail_w)
                .attr("stroke-linecap", "round"),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_cells_and_points_agree() {
        let g = Grid::new(10.0, 20.0, 5.0, 3, 4);
        let c = Cell { row: 2, col: 3 };
        assert_eq!(g.rect(c), Rect::new(25.0, 30.0, 5.0, 5.0));
        assert_eq!(g.cell_at(g.centre(c)), Some(c));
        assert_eq!(g.cell_at(Point::new(9.0, 25.0)), None);
        assert_eq!(g.cell_at(Point::new(31.0, 25.0)), None);
        let lines = g.lines(palette::RULE, 1.0);
        // 4 horizontal and 5 vertical lines, each a move and a line.
        assert_eq!(lines.get("d").unwrap().matches('M').count(), 9);
    }

    #[test]
    fn labels_anchor_and_centre() {
        let l = label(10.0, 50.0, "42", 10.0, Anchor::End);
        assert_eq!(l.get("text-anchor"), Some("end"));
        assert_eq!(l.get("y"), Some("53.65"));
        assert_eq!(l.own_text(), "42");
        let t = title(100.0, 10.0, "A very long title indeed", 40.0, 100.0);
        let size: f64 = t.get("font-size").unwrap().parse().unwrap();
        assert!(size < 40.0 && font::text_width("A very long title indeed", size, true) <= 100.01);
    }

    #[test]
    fn arrows_end_at_their_tip() {
        let a = arrow(
            Point::new(0.0, 0.0),
            Point::new(100.0, 0.0),
            palette::LADDER,
            2.0,
        );
        let head = a.elements().find(|e| e.name() == "polygon").unwrap();
        assert!(head.get("points").unwrap().starts_with("100,0 "));
        let c = curved_arrow(
            Point::new(0.0, 0.0),
            Point::new(0.0, 100.0),
            0.2,
            palette::CHUTE,
            2.0,
        );
        let head = c.elements().find(|e| e.name() == "polygon").unwrap();
        assert!(head.get("points").unwrap().starts_with("0,100 "));
        // A zero-length arrow still draws without NaN.
        let z = arrow(
            Point::new(5.0, 5.0),
            Point::new(5.0, 5.0),
            palette::INK,
            1.0,
        );
        let mut out = String::new();
        z.write_to(&mut out);
        assert!(!out.contains("NaN"), "{out}");
    }

    #[test]
    fn legends_wrap_to_the_width() {
        let legend = Legend::new(10.0)
            .entry(Swatch::Ladder(palette::LADDER), "ladder")
            .entry(Swatch::Arrow(palette::CHUTE), "chute")
            .entry(Swatch::Dot(palette::player(1)), "player 1");
        assert_eq!(legend.height(1000.0), 16.0);
        assert_eq!(legend.height(60.0), 48.0);
        assert!(legend.width(1000.0) > legend.width(60.0));
        let g = legend.draw(0.0, 0.0, 1000.0);
        assert_eq!(g.elements().count(), 3);
        let texts: Vec<String> = g
            .descendants()
            .into_iter()
            .filter(|e| e.name() == "text")
            .map(Element::own_text)
            .collect();
        assert_eq!(texts, ["ladder", "chute", "player 1"]);
    }
}
