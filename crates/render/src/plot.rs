//! Charts: a titled frame, axes with "nice" ticks, bars, lines and markers.
//!
//! Terms:
//! - **chart** ([`Chart`]): a picture with a title, a subtitle, a plot area
//!   and a legend below it.
//! - **scale** ([`Scale`]): maps data values to user units along one axis.
//! - **axes** ([`Axes`]): an x and a y scale over the plot area; draws grid
//!   lines, ticks, tick labels and axis titles.
//! - **nice ticks** ([`nice_ticks`]): round values (1, 2 or 5 × 10ⁿ apart)
//!   that cover a range.
//!
//! Game-specific plots (Chutes & Ladders game lengths, seat wins) build on
//! these in their game's module and take plain numbers, so they do not depend
//! on how the numbers were computed.

use crate::draw::{self, Anchor, Legend, Point, Rect};
use crate::font;
use crate::palette::{self, Colour};
use crate::svg::{Element, Picture, group};

/// Round tick values covering `lo..=hi`, about `target` of them, spaced 1,
/// 2 or 5 × 10ⁿ apart. The first tick is at or below `lo`, the last at or
/// above `hi`.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() {
        return vec![0.0, 1.0];
    }
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo, lo + 1.0) };
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let decimals = (-step.log10().floor()).clamp(0.0, 15.0) as usize;
    let first = (lo / step).floor();
    let mut ticks = Vec::new();
    let mut i = 0.0;
    loop {
        // Written and read back at the step's precision, so 3 × 0.2 is 0.6.
        let t: f64 = format!("{:.decimals$}", (first + i) * step)
            .parse()
            .unwrap_or((first + i) * step);
        ticks.push(if t == 0.0 { 0.0 } else { t });
        if t >= hi - step * 1e-9 || ticks.len() > 1000 {
            break;
        }
        i += 1.0;
    }
    ticks
}

/// A tick value written with as many decimals as its `step` needs.
pub fn format_tick(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 || step <= 0.0 || !step.is_finite() {
        0
    } else {
        (-step.log10()).ceil().clamp(0.0, 10.0) as usize
    };
    let s = format!("{v:.decimals$}");
    if s.starts_with('-') && s.trim_start_matches(['-', '0', '.']).is_empty() {
        s[1..].to_string()
    } else {
        s
    }
}

/// A tick value as a percentage (`0.25` → `25%`), decimals by `step`.
pub fn format_percent(v: f64, step: f64) -> String {
    format!("{}%", format_tick(v * 100.0, step * 100.0))
}

/// Maps values `lo..hi` onto user units `from..to` (either way round).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// The value at `from`.
    pub lo: f64,
    /// The value at `to`.
    pub hi: f64,
    /// User units at `lo`.
    pub from: f64,
    /// User units at `hi`.
    pub to: f64,
}

impl Scale {
    /// A scale from `lo..hi` to `from..to` (a zero span is widened by 1).
    pub fn new(lo: f64, hi: f64, from: f64, to: f64) -> Self {
        let hi = if hi > lo { hi } else { lo + 1.0 };
        Self { lo, hi, from, to }
    }

    /// Where `v` goes.
    pub fn at(&self, v: f64) -> f64 {
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }

    /// User units per unit of value (signed).
    pub fn per_unit(&self) -> f64 {
        (self.to - self.from) / (self.hi - self.lo)
    }
}

/// An x and a y scale over a plot area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes {
    /// The plot area.
    pub area: Rect,
    /// Left to right.
    pub x: Scale,
    /// Bottom to top.
    pub y: Scale,
}

/// Tick label size.
pub const TICK: f64 = 12.0;
/// Axis title size.
pub const AXIS_TITLE: f64 = 13.0;

impl Axes {
    /// Axes over `area` for x in `x` and y in `y`.
    pub fn new(area: Rect, x: (f64, f64), y: (f64, f64)) -> Self {
        Self {
            area,
            x: Scale::new(x.0, x.1, area.x, area.x + area.w),
            y: Scale::new(y.0, y.1, area.y + area.h, area.y),
        }
    }

    /// The point for data (x, y).
    pub fn point(&self, x: f64, y: f64) -> Point {
        Point::new(self.x.at(x), self.y.at(y))
    }

    /// Horizontal grid lines at `y_ticks`, the left and bottom axis lines,
    /// tick marks and labels on both axes (`x_ticks` labelled by `x_fmt`,
    /// `y_ticks` by `y_fmt`).
    pub fn draw(
        &self,
        x_ticks: &[f64],
        x_fmt: impl Fn(f64) -> String,
        y_ticks: &[f64],
        y_fmt: impl Fn(f64) -> String,
    ) -> Element {
        let a = self.area;
        let mut g = group().class("axes");
        for &t in y_ticks {
            let y = self.y.at(t);
            if y < a.y - 0.5 || y > a.y + a.h + 0.5 {
                continue;
            }
            g.push(draw::line(
                Point::new(a.x, y),
                Point::new(a.x + a.w, y),
                palette::RULE_LIGHT,
                0.8,
            ));
            g.push(draw::line(
                Point::new(a.x - 5.0, y),
                Point::new(a.x, y),
                palette::INK,
                1.0,
            ));
            g.push(
                draw::label(a.x - 8.0, y, &y_fmt(t), TICK, Anchor::End)
                    .fill(palette::MUTED)
                    .class("tick-label"),
            );
        }
        let bottom = a.y + a.h;
        for &t in x_ticks {
            let x = self.x.at(t);
            if x < a.x - 0.5 || x > a.x + a.w + 0.5 {
                continue;
            }
            g.push(draw::line(
                Point::new(x, bottom),
                Point::new(x, bottom + 5.0),
                palette::INK,
                1.0,
            ));
            g.push(
                draw::label(
                    x,
                    bottom + 8.0 + TICK * 0.5,
                    &x_fmt(t),
                    TICK,
                    Anchor::Middle,
                )
                .fill(palette::MUTED)
                .class("tick-label"),
            );
        }
        g.push(draw::line(
            Point::new(a.x, a.y),
            Point::new(a.x, bottom),
            palette::INK,
            1.2,
        ));
        g.push(draw::line(
            Point::new(a.x, bottom),
            Point::new(a.x + a.w, bottom),
            palette::INK,
            1.2,
        ));
        g
    }

    /// A second y axis on the right for `scale` (which must map onto the
    /// same area), with ticks, labels and a title.
    pub fn right_axis(
        &self,
        scale: Scale,
        ticks: &[f64],
        fmt: impl Fn(f64) -> String,
        title: &str,
        colour: Colour,
    ) -> Element {
        let a = self.area;
        let right = a.x + a.w;
        let mut g = group().class("right-axis");
        g.push(draw::line(
            Point::new(right, a.y),
            Point::new(right, a.y + a.h),
            colour,
            1.2,
        ));
        let mut widest: f64 = 0.0;
        for &t in ticks {
            let y = scale.at(t);
            if y < a.y - 0.5 || y > a.y + a.h + 0.5 {
                continue;
            }
            let text = fmt(t);
            widest = widest.max(font::text_width(&text, TICK, false));
            g.push(draw::line(
                Point::new(right, y),
                Point::new(right + 5.0, y),
                colour,
                1.0,
            ));
            g.push(draw::label(right + 8.0, y, &text, TICK, Anchor::Start).fill(colour));
        }
        let x = right + 8.0 + widest + AXIS_TITLE;
        let cy = a.y + a.h / 2.0;
        g.push(
            draw::label(x, cy, title, AXIS_TITLE, Anchor::Middle)
                .fill(colour)
                .attr(
                    "transform",
                    format!("rotate(90 {} {})", crate::svg::num(x), crate::svg::num(cy)),
                ),
        );
        g
    }

    /// Axis titles: `x` under the x tick labels, `y` turned up the left side
    /// beyond the widest y tick label (`y_label_width`).
    pub fn titles(&self, x: &str, y: &str, y_label_width: f64) -> Element {
        let a = self.area;
        let cx = a.x + a.w / 2.0;
        let xy = a.y + a.h + 8.0 + TICK + 8.0 + AXIS_TITLE * 0.6;
        let yx = a.x - 8.0 - y_label_width - 8.0 - AXIS_TITLE * 0.6;
        let cy = a.y + a.h / 2.0;
        group()
            .class("axis-titles")
            .child(draw::label(cx, xy, x, AXIS_TITLE, Anchor::Middle))
            .child(draw::label(yx, cy, y, AXIS_TITLE, Anchor::Middle).attr(
                "transform",
                format!(
                    "rotate(-90 {} {})",
                    crate::svg::num(yx),
                    crate::svg::num(cy)
                ),
            ))
    }

    /// A vertical bar from 0 to `y`, centred on `x`, `width` data units wide.
    pub fn bar(&self, x: f64, y: f64, width: f64, colour: Colour) -> Element {
        let half = width / 2.0;
        let (x0, x1) = (self.x.at(x - half), self.x.at(x + half));
        let (y0, y1) = (self.y.at(0.0), self.y.at(y));
        draw::rect(x0.min(x1), y0.min(y1), (x1 - x0).abs(), (y1 - y0).abs()).fill(colour)
    }

    /// A vertical line across the area at `x`, dashed, with `caption` at its
    /// top (placed to the right, or to the left when `left`).
    pub fn marker(&self, x: f64, colour: Colour, caption: &str, left: bool, row: usize) -> Element {
        let px = self.x.at(x);
        let a = self.area;
        let y = a.y + TICK * (0.8 + 1.4 * row as f64);
        let (tx, anchor) = if left {
            (px - 5.0, Anchor::End)
        } else {
            (px + 5.0, Anchor::Start)
        };
        group()
            .class("marker")
            .child(
                draw::line(Point::new(px, a.y), Point::new(px, a.y + a.h), colour, 1.6)
                    .attr("stroke-dasharray", "6 4"),
            )
            .child(
                draw::label(tx, y, caption, TICK, anchor)
                    .fill(colour)
                    .attr("font-weight", "bold")
                    .attr("stroke", palette::WHITE)
                    .attr("stroke-width", 3)
                    .attr("paint-order", "stroke"),
            )
    }
}

/// Title size of a chart.
const TITLE: f64 = 22.0;
/// Subtitle size of a chart.
const SUBTITLE: f64 = 13.0;

/// A chart's picture and the plot area left for its axes.
pub struct Chart {
    /// The picture with the title, subtitle and legend drawn.
    pub picture: Picture,
    /// Where the data goes (axes' area).
    pub area: Rect,
}

impl Chart {
    /// A `width` × `height` chart titled `title`, with `subtitle` under it,
    /// `legend` at the bottom, room on the left for y tick labels
    /// `y_label_width` wide and, when `right_label_width` is positive, a
    /// right axis.
    pub fn new(
        width: f64,
        height: f64,
        title: &str,
        subtitle: &str,
        legend: &Legend,
        y_label_width: f64,
        right_label_width: f64,
    ) -> Self {
        let margin = 20.0;
        let inner = width - 2.0 * margin;
        let mut picture = Picture::new(width, height, title);
        let title_y = margin + TITLE / 2.0;
        picture.push(draw::title(width / 2.0, title_y, title, TITLE, inner));
        let sub_y = title_y + TITLE * 0.6 + SUBTITLE;
        let sub_size = font::fit_size(subtitle, inner, SUBTITLE, false);
        picture.push(
            draw::label(width / 2.0, sub_y, subtitle, sub_size, Anchor::Middle)
                .fill(palette::MUTED)
                .class("subtitle"),
        );
        let legend_h = if legend.is_empty() {
            0.0
        } else {
            legend.height(inner)
        };
        let legend_y = height - margin - legend_h;
        if !legend.is_empty() {
            let lx = (width - legend.width(inner)) / 2.0;
            picture.push(legend.draw(lx, legend_y, inner));
        }
        let left = margin + AXIS_TITLE * 1.4 + 8.0 + y_label_width + 8.0;
        let right = if right_label_width > 0.0 {
            margin + AXIS_TITLE * 1.4 + 8.0 + right_label_width + 8.0
        } else {
            margin + 10.0
        };
        let top = sub_y + SUBTITLE + 12.0;
        let bottom = legend_y - 12.0 - (8.0 + TICK + 8.0 + AXIS_TITLE * 1.2);
        let area = Rect::new(
            left,
            top,
            (width - left - right).max(10.0),
            (bottom - top).max(10.0),
        );
        Self { picture, area }
    }
}

/// The width of the widest of `labels` at tick size.
pub fn label_width<'a>(labels: impl IntoIterator<Item = &'a str>) -> f64 {
    labels
        .into_iter()
        .map(|l| font::text_width(l, TICK, false))
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(
            nice_ticks(0.0, 0.047, 5),
            vec![0.0, 0.01, 0.02, 0.03, 0.04, 0.05]
        );
        assert_eq!(
            nice_ticks(7.0, 183.0, 8),
            vec![0.0, 50.0, 100.0, 150.0, 200.0]
        );
        assert_eq!(
            nice_ticks(0.0, 130.0, 8),
            (0..=7).map(|i| f64::from(i) * 20.0).collect::<Vec<_>>()
        );
        let t = nice_ticks(3.0, 3.0, 5);
        assert!(t.first().unwrap() <= &3.0 && t.last().unwrap() >= &3.0);
        assert_eq!(nice_ticks(f64::NAN, 1.0, 5), vec![0.0, 1.0]);
        assert_eq!(format_tick(0.30000000000000004, 0.1), "0.3");
        assert_eq!(format_tick(25.0, 5.0), "25");
        assert_eq!(format_tick(-0.0001, 0.01), "0.00");
        assert_eq!(format_percent(0.25, 0.05), "25%");
        assert_eq!(format_percent(0.025, 0.005), "2.5%");
    }

    #[test]
    fn scales_map_both_ways() {
        let a = Axes::new(
            Rect::new(100.0, 50.0, 200.0, 100.0),
            (0.0, 10.0),
            (0.0, 1.0),
        );
        assert_eq!(a.point(0.0, 0.0), Point::new(100.0, 150.0));
        assert_eq!(a.point(10.0, 1.0), Point::new(300.0, 50.0));
        let bar = a.bar(5.0, 0.5, 2.0, palette::BAR);
        assert_eq!(bar.get("x"), Some("180"));
        assert_eq!(bar.get("y"), Some("100"));
        assert_eq!(bar.get("width"), Some("40"));
        assert_eq!(bar.get("height"), Some("50"));
    }
}
