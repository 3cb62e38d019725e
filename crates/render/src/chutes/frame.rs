//! The layout every board picture shares, and the squares and jumps drawn
//! on it.
//!
//! Terms:
//! - **frame**: title and subtitle, then the grid, then a legend (and an
//!   optional extra band, such as a heat map's colour bar).
//! - **band**: the top part of a square that holds its number; circles and
//!   values go below it.

use super::{MAX_SIDE, MAX_SQUARES};
use crate::RenderError;
pub(super) use crate::draw::LEGEND_SIZE as LEGEND;
use crate::draw::{self, Anchor, Grid, Legend, PathData, Point, Rect, Swatch};
use crate::draw::{MARGIN, SUBTITLE_SIZE as SUBTITLE, TITLE_SIZE as TITLE};
use crate::font;
use crate::palette::{self, Colour};
use crate::svg::{Element, Picture, group};
use chutes::{Board, Jump, JumpKind};
use tabletop::Geometry;

/// Side of the board area for big boards, in user units.
const BOARD_SPAN: f64 = 720.0;
/// The largest cell, in user units (a 10 × 10 board).
const MAX_CELL: f64 = 72.0;
/// The narrowest picture (so titles and legends have room).
const MIN_WIDTH: f64 = 520.0;

/// A board's squares: the cells, and their numbers to draw on top.
pub(super) struct Squares {
    /// One `<g class="square">` per square.
    pub cells: Element,
    /// One `<text class="square-number">` per square.
    pub numbers: Element,
}

/// Where everything goes in a board picture.
pub(super) struct Frame {
    pub picture: Picture,
    pub grid: Grid,
    pub geometry: Geometry,
    /// Top of the area below the legend (for an extra band).
    pub extra_top: f64,
    /// The content width (picture width less margins).
    pub inner_width: f64,
}

impl Frame {
    /// Lays out a picture of `board` with `title`, `subtitle`, `legend` and
    /// an extra band `extra` units high under the legend; draws the title,
    /// subtitle and legend.
    ///
    /// # Errors
    /// The board is bigger than the pictures draw.
    pub fn new(
        board: &Board,
        title: &str,
        subtitle: &str,
        legend: &Legend,
        extra: f64,
    ) -> Result<Self, RenderError> {
        let geometry = board.geometry();
        check_size(board, geometry)?;
        let (rows, cols) = (geometry.rows(), geometry.cols());
        let cell = (BOARD_SPAN / f64::from(rows.max(cols))).min(MAX_CELL);
        let grid_w = cell * f64::from(cols);
        let grid_h = cell * f64::from(rows);
        let width = (grid_w + 2.0 * MARGIN).max(MIN_WIDTH);
        let inner_width = width - 2.0 * MARGIN;
        let title_y = MARGIN + TITLE / 2.0;
        let subtitle_y = title_y + TITLE * 0.6 + SUBTITLE;
        let grid_top = subtitle_y + SUBTITLE * 1.4;
        let grid = Grid::new((width - grid_w) / 2.0, grid_top, cell, rows, cols);
        let legend_top = grid_top + grid_h + LEGEND;
        let legend_h = legend.height(inner_width);
        let extra_top = legend_top + legend_h + if extra > 0.0 { LEGEND * 0.5 } else { 0.0 };
        let height = extra_top + extra + MARGIN;
        let mut picture = Picture::new(width, height, title);
        picture.push(draw::title(width / 2.0, title_y, title, TITLE, inner_width));
        let sub_size = font::fit_size(subtitle, inner_width, SUBTITLE, false);
        picture.push(
            draw::label(width / 2.0, subtitle_y, subtitle, sub_size, Anchor::Middle)
                .fill(palette::MUTED)
                .class("subtitle"),
        );
        let legend_x = (width - legend.width(inner_width)) / 2.0;
        picture.push(legend.draw(legend_x, legend_top, inner_width));
        Ok(Self {
            picture,
            grid,
            geometry,
            extra_top,
            inner_width,
        })
    }

    /// A cell's side.
    pub fn cell(&self) -> f64 {
        self.grid.cell
    }

    /// The rectangle of `square`, if the geometry places it.
    pub fn rect(&self, square: u32) -> Option<Rect> {
        self.geometry.cell_of(square).map(|c| self.grid.rect(c))
    }

    /// The centre of `square`, if the geometry places it. Square 0, the
    /// off-board start, is just outside square 1 (to its left), where a
    /// chute back to the start ends.
    pub fn centre(&self, square: u32) -> Option<Point> {
        if square == 0 {
            return self.rect(1).map(|r| Point {
                x: r.x - self.cell() * 0.25,
                y: r.y + r.h / 2.0,
            });
        }
        self.rect(square).map(|r| r.centre())
    }

    /// The height of a square's number band.
    pub fn band(&self) -> f64 {
        self.cell() * 0.3
    }

    /// The part of `square` below its number band (for circles or values).
    pub fn body(&self, square: u32) -> Option<Rect> {
        let band = self.band();
        let pad = self.cell() * 0.04;
        self.rect(square)
            .map(|r| Rect::new(r.x + pad, r.y + band, r.w - 2.0 * pad, r.h - band - pad))
    }

    /// Draws every square: a cell filled by `fill(square)` (a
    /// `<g class="square" data-square>` group in `cells`), and its number in
    /// the top-left corner (a `<text class="square-number" data-square>` in
    /// `numbers`, to be drawn over the jumps, with a halo in the cell's
    /// colour so a jump never hides it).
    pub fn squares(&self, board: &Board, fill: impl Fn(u32) -> Colour) -> Squares {
        let cell = self.cell();
        let digits = board.size().to_string();
        let number_size = font::fit_size(&digits, cell * 0.6, cell * 0.24, false);
        let pad = cell * 0.07;
        let stroke = (cell * 0.02).clamp(0.2, 1.2);
        let mut cells = group().class("squares");
        let mut numbers = group()
            .class("square-numbers")
            .attr("stroke-width", number_size * 0.22)
            .attr("stroke-linejoin", "round")
            .attr("paint-order", "stroke");
        for square in 1..=board.size() {
            let Some(c) = self.geometry.cell_of(square) else {
                continue;
            };
            let r = self.grid.rect(c);
            let colour = fill(square);
            let mut sq = group()
                .class("square")
                .data("square", square)
                .data("row", c.row)
                .data("col", c.col);
            if square == board.finish() {
                sq.set("data-finish", "true");
            }
            if square == 1 {
                sq.set("data-first", "true");
            }
            sq.push(r.element().fill(colour).stroke(palette::RULE, stroke));
            cells.push(sq.title(square_title(board, square)));
            numbers.push(
                draw::label(
                    r.x + pad,
                    r.y + pad + number_size / 2.0,
                    &square.to_string(),
                    number_size,
                    Anchor::Start,
                )
                .fill(colour.text_on())
                .attr("stroke", colour)
                .class("square-number")
                .data("square", square),
            );
        }
        Squares { cells, numbers }
    }

    /// Draws every chute and ladder, chutes first so ladders stay visible
    /// where they cross, in one `jumps` group; `opacity` below 1 lets what is
    /// under them show through.
    pub fn jumps(&self, board: &Board, opacity: f64) -> Element {
        let mut g = group().class("jumps");
        if opacity < 1.0 {
            g.set("opacity", opacity);
        }
        for jump in board.chutes().chain(board.ladders()) {
            if let Some(e) = self.jump(jump) {
                g.push(e);
            }
        }
        g
    }

    /// One jump, or `None` if either end is off the grid.
    fn jump(&self, jump: Jump) -> Option<Element> {
        let a = self.centre(jump.from)?;
        let b = self.centre(jump.to)?;
        let cell = self.cell();
        let kind = jump.kind();
        let colour = jump_colour(kind);
        let body = match kind {
            JumpKind::Ladder => draw::ladder(a, b, cell),
            JumpKind::Chute => chute(a, b, cell),
        };
        Some(
            group()
                .class(&format!("jump {kind}"))
                .data("jump-from", jump.from)
                .data("jump-to", jump.to)
                .data("kind", kind.to_string())
                .title(format!("{kind} {}→{}", jump.from, jump.to))
                .child(body)
                .child(
                    draw::circle(a, cell * 0.09)
                        .fill(colour)
                        .stroke(palette::WHITE, cell * 0.02)
                        .class("jump-start"),
                ),
        )
    }
}

/// The colour of a jump of this kind.
pub(super) fn jump_colour(kind: JumpKind) -> Colour {
    match kind {
        JumpKind::Ladder => palette::LADDER,
        JumpKind::Chute => palette::CHUTE,
    }
}

/// A square's tooltip.
fn square_title(board: &Board, square: u32) -> String {
    let mut t = format!("square {square}");
    if square == board.finish() {
        t.push_str(" (finish)");
    }
    if square == 1 {
        t.push_str(if board.start() == 1 {
            " (start: tokens begin here)"
        } else {
            " (first square: tokens begin just before it)"
        });
    }
    if let Some(j) = board.jump_at(square) {
        t.push_str(&format!(": {} to {}", j.kind(), j.to));
    }
    t
}

/// A chute from `a` down to `b`: an S-shaped slide with a lighter channel
/// and an arrowhead at its foot.
fn chute(a: Point, b: Point, cell: f64) -> Element {
    let len = a.distance(b).max(1e-9);
    let (ux, uy) = ((b.x - a.x) / len, (b.y - a.y) / len);
    let (nx, ny) = (-uy, ux);
    let bow = (len * 0.18).min(cell * 0.9);
    let c1 = a.lerp(b, 0.3).offset(nx * bow, ny * bow);
    let c2 = a.lerp(b, 0.7).offset(-nx * bow, -ny * bow);
    let head = (cell * 0.22).max(2.0);
    // Stop the slide short of the centre so the arrowhead ends on it.
    let end = b.offset(-ux * head * 0.7, -uy * head * 0.7);
    let d = PathData::new().move_to(a).cubic_to(c1, c2, end);
    let outer = (cell * 0.17).max(1.0);
    let head_base = b.offset(-ux * head, -uy * head);
    let (hx, hy) = (nx * head * 0.6, ny * head * 0.6);
    group()
        .class("chute-body")
        .child(
            d.element()
                .stroke(palette::CHUTE, outer)
                .attr("stroke-linecap", "round"),
        )
        .child(
            d.element()
                .stroke(palette::CHUTE.tint(0.55), outer * 0.45)
                .attr("stroke-linecap", "round"),
        )
        .child(draw::polygon(
            &[b, head_base.offset(hx, hy), head_base.offset(-hx, -hy)],
            palette::CHUTE,
        ))
}

/// Refuses boards too big to draw.
pub(super) fn check_size(board: &Board, geometry: Geometry) -> Result<(), RenderError> {
    let (rows, cols) = (geometry.rows(), geometry.cols());
    if board.size() > MAX_SQUARES || rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(RenderError::TooBig(format!(
            "the board has {} squares on {rows} × {cols}; pictures draw boards of up to \
             {MAX_SQUARES} squares and {MAX_SIDE} rows or columns",
            board.size()
        )));
    }
    Ok(())
}

/// The board's name for titles: "classic board", "Tiny test board" (a
/// name that already says "board" is not told it twice).
pub(super) fn board_name(board: &Board) -> String {
    match board.name().map(str::trim) {
        Some(name) if name.to_lowercase().ends_with("board") => name.to_string(),
        Some(name) if !name.is_empty() => format!("{name} board"),
        _ => "Chutes & Ladders".into(),
    }
}

/// "100 squares · 9 ladders · 10 chutes · tokens start off the board".
pub(super) fn board_facts(board: &Board) -> String {
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let g = board.geometry();
    format!(
        "{} squares ({} × {}) · {} · {} · tokens start {}",
        board.size(),
        g.rows(),
        g.cols(),
        plural(board.ladders().count(), "ladder", "ladders"),
        plural(board.chutes().count(), "chute", "chutes"),
        if board.start() == 1 {
            "on square 1"
        } else {
            "off the board"
        }
    )
}

/// The legend entries every board picture has.
pub(super) fn board_legend(board: &Board) -> Legend {
    let mut legend = Legend::new(LEGEND);
    if board.ladders().next().is_some() {
        legend = legend.entry(Swatch::Ladder(palette::LADDER), "ladder (up)");
    }
    if board.chutes().next().is_some() {
        legend = legend.entry(Swatch::Arrow(palette::CHUTE), "chute (down)");
    }
    if !board.jumps().is_empty() {
        legend = legend.entry(Swatch::Dot(palette::INK), "a jump starts here");
    }
    legend
        .entry(Swatch::Fill(palette::START), "square 1")
        .entry(
            Swatch::Fill(palette::FINISH),
            format!("finish ({})", board.finish()),
        )
}

/// The fill of a plain board's squares: start, finish, or a checkerboard.
pub(super) fn plain_fill(board: &Board, geometry: Geometry) -> impl Fn(u32) -> Colour + '_ {
    move |square| {
        if square == board.finish() {
            palette::FINISH
        } else if square == 1 {
            palette::START
        } else {
            let c = geometry.cell_of(square).map_or(0, |c| c.row + c.col);
            if c % 2 == 0 {
                palette::PAPER
            } else {
                palette::PAPER_DARK
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_named_board_is_not_told_so_twice() {
        let named = |name: &str| {
            Board::from_jumps(10, 0, &[(2, 8)])
                .expect("a board")
                .with_name(name)
        };
        assert_eq!(board_name(&named("classic")), "classic board");
        assert_eq!(board_name(&named("Tiny test board")), "Tiny test board");
        assert_eq!(board_name(&named("My Board")), "My Board");
        assert_eq!(board_name(&named("  ")), "Chutes & Ladders");
    }
}
