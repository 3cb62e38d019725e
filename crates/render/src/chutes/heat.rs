//! A heat map on the board: each square coloured by a value, such as the
//! expected number of times a token lands there in one game.
//!
//! Terms:
//! - **value**: one number per square, 0 or more; the colour runs from pale
//!   (0) to dark red (the largest value).
//! - **signed**: values of either sign on a diverging scale, blue below 0,
//!   near white at 0, red above, symmetric about 0 (the largest magnitude
//!   at either end).
//! - **nothing fits**: squares where the value does not exist (no jump can
//!   be placed there), drawn grey with a cross instead of a number.
//! - **colour bar**: the scale under the board, with ticks.

use super::frame::{Frame, LEGEND, board_facts, board_legend, board_name};
use crate::draw::{self, Anchor, Legend};
use crate::font;
use crate::palette;
use crate::plot::{format_tick, nice_ticks};
use crate::svg::{Element, group};
use crate::{Picture, RenderError};
use chutes::Board;

/// What a heat map shows.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    /// One value per square, indexed by square: `values[s]` for square
    /// `s` in `1..=N`; `values[0]` (off the board) is not drawn. Its length
    /// must be N + 1.
    pub values: Vec<f64>,
    /// What the values are, for the colour bar ("expected landings per
    /// game").
    pub caption: String,
    /// The title; the board's name and caption when `None`.
    pub title: Option<String>,
    /// The subtitle; the board's facts when `None`.
    pub subtitle: Option<String>,
    /// Values may be negative: draw them on a diverging scale.
    pub signed: bool,
    /// Squares where nothing fits (their values are not drawn).
    pub nothing_fits: Vec<u32>,
}

/// The picture of `board` with its squares coloured by `map.values`, each
/// square's value written under its number when there is room, chutes and
/// ladders drawn lightly on top, and a colour bar.
///
/// # Errors
/// [`RenderError::Data`] when there is not exactly one value per square or a
/// value is not finite, or negative on an unsigned map; [`RenderError::TooBig`] for a board too
/// big to draw.
pub fn heatmap(board: &Board, map: &HeatMap) -> Result<Picture, RenderError> {
    let n = board.size() as usize;
    if map.values.len() != n + 1 {
        return Err(RenderError::Data(format!(
            "a heat map of a {n}-square board needs {} values (squares 0 to {n}), not {}",
            n + 1,
            map.values.len()
        )));
    }
    if let Some((square, v)) = map
        .values
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, v)| !v.is_finite() || (**v < 0.0 && !map.signed))
    {
        return Err(RenderError::Data(format!(
            "square {square} has the value {v}; heat map values must be finite{}",
            if map.signed { "" } else { " and not negative" }
        )));
    }
    let blank = |s: u32| map.nothing_fits.contains(&s);
    let max = map
        .values
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(s, _)| !blank(*s as u32))
        .map(|(_, v)| v.abs())
        .fold(0.0, f64::max);
    let low = if map.signed { -max } else { 0.0 };
    let colour = |v: f64| {
        if map.signed {
            palette::diverging(if max > 0.0 { v / max } else { 0.0 })
        } else {
            palette::heat(if max > 0.0 { v / max } else { 0.0 })
        }
    };
    let title = map
        .title
        .clone()
        .unwrap_or_else(|| format!("{}: {}", board_name(board), map.caption));
    let subtitle = map.subtitle.clone().unwrap_or_else(|| board_facts(board));
    let legend = Legend::new(LEGEND).extend_from(&board_legend(board).without_fills());
    let bar_h = LEGEND * 4.2;
    let mut frame = Frame::new(board, &title, &subtitle, &legend, bar_h)?;
    let value = |square: u32| map.values.get(square as usize).copied().unwrap_or(0.0);
    let fill = |s: u32| {
        if blank(s) {
            palette::NOTHING_FITS
        } else {
            colour(value(s))
        }
    };
    let squares = frame.squares(board, fill);
    frame.picture.push(squares.cells);
    let jumps = frame.jumps(board, 0.75);
    frame.picture.push(jumps);
    frame.picture.push(squares.numbers);

    // Values under the numbers, when they fit.
    let cell = frame.cell();
    let ticks = nice_ticks(low, max.max(1e-9), if map.signed { 7 } else { 5 });
    let step = ticks.get(1).map_or(1.0, |t| t - ticks[0]);
    let text = |s: u32| {
        if blank(s) {
            "×".to_string()
        } else if map.signed && value(s) > 0.0 {
            format!("+{}", value_text(value(s), max))
        } else if map.signed && value(s) < 0.0 {
            format!("−{}", value_text(-value(s), max))
        } else {
            value_text(value(s), max)
        }
    };
    let widest = (1..=board.size())
        .map(text)
        .max_by_key(|s| s.len())
        .unwrap_or_default();
    let size = font::fit_size(&widest, cell * 0.86, cell * 0.26, false);
    if size >= 3.0 {
        let mut values = group()
            .class("values")
            .attr("stroke-width", size * 0.22)
            .attr("stroke-linejoin", "round")
            .attr("paint-order", "stroke");
        for square in 1..=board.size() {
            let Some(body) = frame.body(square) else {
                continue;
            };
            let v = value(square);
            let c = body.centre();
            values.push(
                draw::label(c.x, c.y + cell * 0.05, &text(square), size, Anchor::Middle)
                    .fill(fill(square).text_on())
                    .attr("stroke", fill(square))
                    .data("square", square)
                    .data("value", format!("{v}")),
            );
        }
        frame.picture.push(values);
    }

    // The colour bar.
    let width = frame.inner_width.min(480.0);
    let x = (frame.picture.width() - width) / 2.0;
    let y = frame.extra_top;
    let bar = draw::Rect::new(x, y + LEGEND * 1.4, width, LEGEND * 1.1);
    let mut g = group().class("colour-bar");
    let caption = if map.nothing_fits.is_empty() {
        map.caption.clone()
    } else {
        format!("{} (× grey: nothing fits)", map.caption)
    };
    g.push(draw::label(
        frame.picture.width() / 2.0,
        y + LEGEND * 0.6,
        &caption,
        LEGEND,
        Anchor::Middle,
    ));
    let mut gradient = Element::new("linearGradient")
        .id("heat-scale")
        .attr("x1", 0)
        .attr("y1", 0)
        .attr("x2", 1)
        .attr("y2", 0);
    for i in 0..=8 {
        let t = f64::from(i) / 8.0;
        gradient.push(
            Element::new("stop")
                .attr("offset", t)
                .attr("stop-color", colour(low + (max - low) * t)),
        );
    }
    g.push(Element::new("defs").child(gradient));
    g.push(bar.element().fill("url(#heat-scale)"));
    g.push(bar.element().fill("none").stroke(palette::INK, 0.6));
    for &t in &ticks {
        if max <= 0.0 || t > max * 1.000_001 || t < low * 1.000_001 {
            continue;
        }
        let tx = bar.x + bar.w * (t - low) / (max - low);
        g.push(draw::line(
            draw::Point::new(tx, bar.y + bar.h),
            draw::Point::new(tx, bar.y + bar.h + 4.0),
            palette::INK,
            0.8,
        ));
        g.push(draw::label(
            tx,
            bar.y + bar.h + 4.0 + LEGEND * 0.6,
            &format_tick(t, step),
            LEGEND * 0.9,
            Anchor::Middle,
        ));
    }
    frame.picture.push(g);
    Ok(frame.picture)
}

/// A value as written in its square: two significant figures or so.
fn value_text(v: f64, max: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if max >= 100.0 {
        format!("{v:.0}")
    } else if max >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_gets_its_colour_and_value() {
        let board = Board::classic();
        let mut values = vec![0.0; 101];
        for (s, v) in values.iter_mut().enumerate().skip(1) {
            *v = s as f64 / 50.0;
        }
        let map = HeatMap {
            values,
            caption: "expected landings per game".into(),
            title: None,
            subtitle: None,
            signed: false,
            nothing_fits: Vec::new(),
        };
        let p = heatmap(&board, &map).unwrap();
        crate::chutes::checks::check_board_picture(&board, &p);
        let all = p.descendants();
        let fill_of = |square: u32| {
            all.iter()
                .find(|e| {
                    e.get("class") == Some("square")
                        && e.get("data-square") == Some(square.to_string().as_str())
                })
                .and_then(|g| g.elements().next())
                .and_then(|r| r.get("fill"))
                .unwrap()
                .to_string()
        };
        assert_eq!(fill_of(100), palette::heat(1.0).to_string());
        assert_eq!(fill_of(50), palette::heat(0.5).to_string());
        let values: Vec<_> = all
            .iter()
            .filter(|e| e.get("data-value").is_some())
            .collect();
        assert_eq!(values.len(), 100);
        assert!(p.to_svg().contains("expected landings per game"));
    }

    #[test]
    fn signed_values_diverge_about_zero_and_empty_squares_are_crossed() {
        let board = Board::classic();
        let mut values = vec![0.0; 101];
        values[20] = -3.0;
        values[30] = 1.5;
        values[40] = 3.0;
        let map = HeatMap {
            values,
            caption: "change".into(),
            title: None,
            subtitle: None,
            signed: true,
            nothing_fits: vec![50],
        };
        let p = heatmap(&board, &map).unwrap();
        let all = p.descendants();
        let fill_of = |square: u32| {
            all.iter()
                .find(|e| {
                    e.get("class") == Some("square")
                        && e.get("data-square") == Some(square.to_string().as_str())
                })
                .and_then(|g| g.elements().next())
                .and_then(|r| r.get("fill"))
                .unwrap()
                .to_string()
        };
        assert_eq!(fill_of(20), palette::diverging(-1.0).to_string());
        assert_eq!(fill_of(40), palette::diverging(1.0).to_string());
        assert_eq!(fill_of(30), palette::diverging(0.5).to_string());
        assert_eq!(fill_of(60), palette::diverging(0.0).to_string());
        assert_eq!(fill_of(50), palette::NOTHING_FITS.to_string());
        let svg = p.to_svg();
        assert!(
            svg.contains("−3.0") && svg.contains("+1.50") || svg.contains("+1.5"),
            "{svg}"
        );
        assert!(svg.contains("×") && svg.contains("nothing fits"));
        // Negative values on an unsigned map are still refused.
        let unsigned = HeatMap {
            signed: false,
            ..map
        };
        assert!(heatmap(&board, &unsigned).is_err());
    }

    #[test]
    fn bad_values_are_refused() {
        let board = Board::classic();
        let mut map = HeatMap {
            values: vec![0.0; 100],
            caption: "x".into(),
            title: None,
            subtitle: None,
            signed: false,
            nothing_fits: Vec::new(),
        };
        assert!(
            heatmap(&board, &map)
                .unwrap_err()
                .to_string()
                .contains("101 values")
        );
        map.values = vec![0.0; 101];
        map.values[7] = f64::NAN;
        assert!(
            heatmap(&board, &map)
                .unwrap_err()
                .to_string()
                .contains("square 7")
        );
        map.values[7] = 0.0;
        // All zero is fine (a blank map).
        heatmap(&board, &map).unwrap();
    }
}
