//! A Baffle game's look back as a chart: the layouts that still fit after
//! each shot, beside what the best possible shot would have left.
//!
//! Terms:
//! - **layouts left**: after shot `s`, the layouts that fit the evidence
//!   (a line, on a scale of powers of ten); counted exactly, a point; only
//!   bounded, a bar from the lower bound to the upper.
//! - **best possible**: the layouts the best shot from the same position
//!   would have left on average (a dot at each shot, when counted).

use crate::draw::{self, Legend, Swatch};
use crate::output::RenderError;
use crate::palette;
use crate::plot::{Axes, Chart, label_width, nice_ticks};
use crate::svg::{Picture, group};
use baffle::live::{LayoutsLeft, ShotLook};

/// log₁₀ of a count (0 for 0 or 1), from its decimal digits.
fn log10(n: &baffle::solve::BigUint) -> f64 {
    let digits = n.to_string();
    let lead: f64 = digits[..digits.len().min(15)].parse().unwrap_or(1.0);
    let scale = digits.len().saturating_sub(15) as f64;
    lead.max(1.0).log10() + scale
}

/// (low, high) of a count's log₁₀: the same for an exact count.
fn span(layouts: &LayoutsLeft) -> (f64, f64) {
    match layouts {
        LayoutsLeft::Exact { layouts } => (log10(layouts), log10(layouts)),
        LayoutsLeft::Between { at_least, at_most } => (log10(at_least), log10(at_most)),
    }
}

/// A power of ten as a tick: "1", "10", "100", "1,000", then "10⁴".
fn power_label(t: f64) -> String {
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let e = t.round().max(0.0) as u32;
    match e {
        0 => "1".into(),
        1 => "10".into(),
        2 => "100".into(),
        3 => "1,000".into(),
        _ => format!(
            "10{}",
            e.to_string()
                .bytes()
                .map(|b| SUP[usize::from(b - b'0')])
                .collect::<String>()
        ),
    }
}

/// The chart of `looks` (a game's shots in order), titled `title`.
///
/// # Errors
/// [`RenderError::Data`] when there is no shot to chart.
pub fn layouts_chart(looks: &[ShotLook], title: &str) -> Result<Picture, RenderError> {
    let Some(first) = looks.first() else {
        return Err(RenderError::Data(
            "no shot to chart: the look back shows the layouts left after each shot".into(),
        ));
    };
    let left_colour = palette::BAR;
    let best_colour = palette::BAR_SECOND;
    let legend = Legend::new(13.0)
        .entry(Swatch::Line(left_colour), "layouts left after the shot")
        .entry(
            Swatch::Dot(best_colour),
            "what the best shot would have left, on average",
        );
    let top = looks
        .iter()
        .map(|l| span(&l.after).1)
        .chain([span(&first.before).1])
        .fold(1.0, f64::max)
        .ceil();
    let step = (top / 6.0).ceil().max(1.0);
    let y_ticks: Vec<f64> = nice_ticks(0.0, top, 6)
        .into_iter()
        .filter(|t| t.fract() == 0.0 && (*t / step).fract() == 0.0)
        .collect();
    let y_labels: Vec<String> = y_ticks.iter().map(|&t| power_label(t)).collect();
    let y_width = label_width(y_labels.iter().map(String::as_str));
    let shots = looks.len();
    let mut chart = Chart::new(
        860.0,
        440.0,
        title,
        &if shots == 1 {
            "the layouts that fit after the one shot, beside the best possible shot".to_string()
        } else {
            format!(
                "the layouts that fit after each of the {shots} shots, beside the best possible shot"
            )
        },
        &legend,
        y_width,
        0.0,
    );
    let last = shots as f64;
    let axes = Axes::new(chart.area, (0.0, last.max(1.0)), (0.0, top));
    let x_ticks: Vec<f64> = nice_ticks(0.0, last, 8)
        .into_iter()
        .filter(|&t| t <= last && t.fract() == 0.0)
        .collect();
    chart
        .picture
        .push(axes.draw(&x_ticks, |t| format!("{t:.0}"), &y_ticks, power_label));
    chart
        .picture
        .push(axes.titles("shots fired", "layouts that fit", y_width));
    let mut left = group().class("layouts-left");
    let mut points = Vec::new();
    let positions =
        std::iter::once((0, &first.before)).chain(looks.iter().map(|l| (l.number, &l.after)));
    for (x, layouts) in positions {
        let (lo, hi) = span(layouts);
        let mid = axes.point(x as f64, (lo + hi) / 2.0);
        points.push(mid);
        if hi > lo {
            left.push(
                draw::line(
                    axes.point(x as f64, lo),
                    axes.point(x as f64, hi),
                    left_colour,
                    5.0,
                )
                .class("bounds")
                .data("shot", x),
            );
        }
        left.push(
            draw::circle(mid, 3.0)
                .fill(left_colour)
                .data("shot", x)
                .title(format!("after {x} shots: {layouts}")),
        );
    }
    left.push(draw::polyline(&points, left_colour, 2.5));
    chart.picture.push(left);
    let mut best = group().class("best-shot");
    for look in looks {
        if let Some(b) = look.best {
            best.push(
                draw::circle(axes.point(look.number as f64, b.max(1.0).log10()), 4.5)
                    .fill(best_colour)
                    .data("shot", look.number)
                    .title(format!(
                        "shot {}: the best shot would have left {b:.1} layouts on average",
                        look.number
                    )),
            );
        }
    }
    chart.picture.push(best);
    Ok(chart.picture)
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle::solve::BigUint;

    fn exact(n: u32) -> LayoutsLeft {
        LayoutsLeft::Exact {
            layouts: BigUint::from(n),
        }
    }

    #[test]
    fn each_shot_has_its_point_and_the_best_shot_its_dot() {
        let looks = vec![
            ShotLook {
                number: 1,
                hole: 3,
                exit: 9,
                before: exact(1200),
                after: exact(300),
                best: Some(120.5),
                best_hole: Some(4),
            },
            ShotLook {
                number: 2,
                hole: 5,
                exit: 5 + 10,
                before: exact(300),
                after: LayoutsLeft::Between {
                    at_least: BigUint::from(20u32),
                    at_most: BigUint::from(90u32),
                },
                best: None,
                best_hole: None,
            },
        ];
        let svg = layouts_chart(&looks, "Baffle").expect("a chart").to_svg();
        assert_eq!(svg.matches("data-shot=").count(), 3 + 1 + 1, "{svg}");
        assert!(
            svg.contains("after 2 shots: between 20 and 90 layouts fit"),
            "{svg}"
        );
        assert!(svg.contains("would have left 120.5 layouts"), "{svg}");
        assert!(svg.contains("after each of the 2 shots,"), "{svg}");
        // One shot is said as one, not "each of the 1 shot".
        let one = layouts_chart(&looks[..1], "Baffle")
            .expect("a chart")
            .to_svg();
        assert!(one.contains("after the one shot,"), "{one}");
        assert!(layouts_chart(&[], "Baffle").is_err());
    }
}
