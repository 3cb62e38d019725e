//! Chutes & Ladders plots from plain numbers: the game-length distribution,
//! a Monte Carlo histogram over it, and each seat's chance to win.
//!
//! Terms:
//! - **length**: the number of rolls in a game (lost turns included).
//! - **distribution**: `p[n]`, the probability that a game takes exactly
//!   `n` rolls (index = length), as an exact analysis gives it.
//! - **cumulative**: the probability that a game is over within `n` rolls.
//! - **shown range**: lengths from the shortest possible game to where
//!   99.5% of games are over; the longer tail is noted in the subtitle.

use crate::draw::{Legend, Point, Swatch};
use crate::palette;
use crate::plot::{Axes, Chart, Scale, format_percent, format_tick, label_width, nice_ticks};
use crate::svg::group;
use crate::{Picture, RenderError, draw};

/// Natural chart width.
const WIDTH: f64 = 860.0;
/// Natural chart height.
const HEIGHT: f64 = 520.0;
/// Share of games the x axis covers.
const SHOWN: f64 = 0.995;

/// The exact game-length distribution to plot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LengthDistribution {
    /// `probabilities[n]`: the chance a game takes exactly `n` rolls.
    pub probabilities: Vec<f64>,
    /// The mean length; computed from `probabilities` when `None`.
    pub mean: Option<f64>,
    /// The median length; computed from `probabilities` when `None`.
    pub median: Option<u32>,
    /// The title; "How long a game lasts" when `None`.
    pub title: Option<String>,
    /// A subtitle (board, rules, players).
    pub subtitle: String,
}

/// A Monte Carlo histogram of game lengths, with the exact distribution to
/// compare it with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LengthHistogram {
    /// `counts[n]`: simulated games that took exactly `n` rolls.
    pub counts: Vec<u64>,
    /// The exact distribution (`exact[n]` as in [`LengthDistribution`]), if
    /// known.
    pub exact: Option<Vec<f64>>,
    /// The title; "Simulated game lengths" when `None`.
    pub title: Option<String>,
    /// A subtitle (board, rules, number of games, seed).
    pub subtitle: String,
}

/// Each seat's chance of winning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatWins {
    /// `chances[i]`: the probability that seat `i + 1` wins.
    pub chances: Vec<f64>,
    /// The title; "Who wins" when `None`.
    pub title: Option<String>,
    /// A subtitle (board, rules).
    pub subtitle: String,
}

fn check_probabilities(what: &str, p: &[f64]) -> Result<f64, RenderError> {
    if let Some((i, v)) = p
        .iter()
        .enumerate()
        .find(|(_, v)| !v.is_finite() || **v < 0.0)
    {
        return Err(RenderError::Data(format!(
            "{what}[{i}] is {v}; probabilities must be finite and not negative"
        )));
    }
    let total: f64 = p.iter().sum();
    if total <= 0.0 {
        return Err(RenderError::Data(format!(
            "{what} is empty or all zero: nothing to plot"
        )));
    }
    if total > 1.0 + 1e-6 {
        return Err(RenderError::Data(format!(
            "{what} adds up to {total}, more than 1"
        )));
    }
    Ok(total)
}

/// The lengths to show: first non-zero to where `SHOWN` of the mass is
/// reached; and the mass beyond.
fn shown_range(p: &[f64], total: f64) -> (usize, usize, f64) {
    let first = p.iter().position(|v| *v > 0.0).unwrap_or(0);
    let mut acc = 0.0;
    let mut last = first;
    for (n, v) in p.iter().enumerate().skip(first) {
        acc += v;
        last = n;
        if acc >= SHOWN * total {
            break;
        }
    }
    (first, last, (total - acc).max(0.0))
}

/// `12345` as `12,345`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn mean_of(p: &[f64], total: f64) -> f64 {
    p.iter().enumerate().map(|(n, v)| n as f64 * v).sum::<f64>() / total
}

fn median_of(p: &[f64], total: f64) -> u32 {
    let mut acc = 0.0;
    for (n, v) in p.iter().enumerate() {
        acc += v;
        if acc >= total / 2.0 {
            return n as u32;
        }
    }
    p.len().saturating_sub(1) as u32
}

fn tail_note(subtitle: &str, last: usize, beyond: f64) -> String {
    if beyond > 1e-12 {
        let note = format!(
            "games longer than {} ({}) not shown",
            tabletop::count(last as u64, "roll", "rolls"),
            format_percent(beyond, if beyond < 0.001 { 0.0001 } else { 0.001 })
        );
        if subtitle.is_empty() {
            note
        } else {
            format!("{subtitle} · {note}")
        }
    } else {
        subtitle.to_string()
    }
}

/// A vertical axis of chances from 0 to a round value above `peak`, its
/// ticks labelled in per cent.
struct PercentAxis {
    ticks: Vec<f64>,
    step: f64,
    top: f64,
    /// Width of the widest tick label.
    label_width: f64,
}

impl PercentAxis {
    fn new(peak: f64, default_step: f64, default_top: f64) -> Self {
        let ticks = nice_ticks(0.0, peak, 5);
        let step = ticks.get(1).map_or(default_step, |t| t - ticks[0]);
        let top = ticks.last().copied().unwrap_or(default_top);
        let labels: Vec<String> = ticks.iter().map(|&t| format_percent(t, step)).collect();
        let label_width = label_width(labels.iter().map(String::as_str));
        Self {
            ticks,
            step,
            top,
            label_width,
        }
    }

    fn label(&self, t: f64) -> String {
        format_percent(t, self.step)
    }
}

/// Axes for game lengths `first..=last` (one bar per length) against
/// `y`, drawn on `chart` with their titles.
fn length_axes(
    chart: &mut Chart,
    first: usize,
    last: usize,
    y: &PercentAxis,
    y_title: &str,
) -> Axes {
    let (x_lo, x_hi) = (first as f64 - 0.5, last as f64 + 0.5);
    let axes = Axes::new(chart.area, (x_lo, x_hi), (0.0, y.top));
    let x_ticks: Vec<f64> = nice_ticks(first as f64, last as f64, 10)
        .into_iter()
        .filter(|t| *t >= x_lo && *t <= x_hi)
        .collect();
    let x_step = x_ticks.windows(2).next().map_or(1.0, |w| w[1] - w[0]);
    chart.picture.push(axes.draw(
        &x_ticks,
        |t| format_tick(t, x_step),
        &y.ticks,
        |t| y.label(t),
    ));
    chart
        .picture
        .push(axes.titles("game length (rolls)", y_title, y.label_width));
    axes
}

/// Bars of `P(length = n)`, the cumulative chance as a curve against a
/// right-hand axis, and the mean and median marked.
///
/// # Errors
/// [`RenderError::Data`] for negative or non-finite probabilities, or ones
/// that are all zero or add up to more than 1.
pub fn length_distribution(d: &LengthDistribution) -> Result<Picture, RenderError> {
    let p = &d.probabilities;
    let total = check_probabilities("the distribution", p)?;
    let (first, last, beyond) = shown_range(p, total);
    let mean = d.mean.unwrap_or_else(|| mean_of(p, total));
    let median = d.median.unwrap_or_else(|| median_of(p, total));
    let peak = p.iter().copied().fold(0.0, f64::max);
    let y = PercentAxis::new(peak, 0.01, peak);
    let legend = Legend::new(13.0)
        .entry(
            Swatch::Fill(palette::BAR),
            "chance a game takes exactly n rolls",
        )
        .entry(
            Swatch::Line(palette::CURVE),
            "chance it is over within n rolls",
        )
        .entry(Swatch::Dashed(palette::MEAN), format!("mean {mean:.2}"))
        .entry(Swatch::Dashed(palette::MEDIAN), format!("median {median}"));
    let title = d
        .title
        .clone()
        .unwrap_or_else(|| "How long a game lasts".into());
    let subtitle = tail_note(&d.subtitle, last, beyond);
    let mut chart = Chart::new(
        WIDTH,
        HEIGHT,
        &title,
        &subtitle,
        &legend,
        y.label_width,
        label_width(["100%"]),
    );
    let axes = length_axes(&mut chart, first, last, &y, "chance");
    let mut bars = group().class("bars");
    for (n, &v) in p.iter().enumerate().take(last + 1).skip(first) {
        bars.push(
            axes.bar(n as f64, v, 0.8, palette::BAR)
                .data("length", n)
                .data("p", format!("{v}"))
                .title(format!(
                    "{}: {}",
                    tabletop::count(n as u64, "roll", "rolls"),
                    format_percent(v, 0.0001)
                )),
        );
    }
    chart.picture.push(bars);
    // Cumulative curve against the right axis.
    let cum_scale = Scale::new(0.0, 1.0, axes.area.y + axes.area.h, axes.area.y);
    let mut acc: f64 = p.iter().take(first).sum();
    let mut points = vec![Point::new(axes.x.at(first as f64 - 0.5), cum_scale.at(acc))];
    for &v in p.iter().take(last + 1).skip(first) {
        acc += v;
        points.push(Point::new(0.0, cum_scale.at(acc)));
    }
    for (i, pt) in points.iter_mut().enumerate().skip(1) {
        pt.x = axes.x.at((first + i - 1) as f64);
    }
    chart
        .picture
        .push(draw::polyline(&points, palette::CURVE, 2.0).class("cumulative"));
    let cum_ticks = nice_ticks(0.0, 1.0, 4);
    chart.picture.push(axes.right_axis(
        cum_scale,
        &cum_ticks,
        |t| format_percent(t, 0.25),
        "over within n rolls",
        palette::CURVE,
    ));
    chart.picture.push(axes.marker(
        median as f64,
        palette::MEDIAN,
        &format!("median {median}"),
        true,
        1,
    ));
    chart
        .picture
        .push(axes.marker(mean, palette::MEAN, &format!("mean {mean:.2}"), false, 0));
    Ok(chart.picture)
}

/// Bars of the share of simulated games of each length, with the exact
/// chances drawn over them as a line of dots.
///
/// # Errors
/// [`RenderError::Data`] when no games were counted or the exact
/// distribution is unusable.
pub fn length_histogram(h: &LengthHistogram) -> Result<Picture, RenderError> {
    let games: u64 = h.counts.iter().sum();
    if games == 0 {
        return Err(RenderError::Data(
            "the histogram has no games: nothing to plot".into(),
        ));
    }
    let shares: Vec<f64> = h.counts.iter().map(|&c| c as f64 / games as f64).collect();
    let (mut first, mut last, mut beyond) = shown_range(&shares, 1.0);
    if let Some(exact) = &h.exact {
        let total = check_probabilities("the exact distribution", exact)?;
        let (f, l, b) = shown_range(exact, total);
        first = first.min(f);
        if l > last {
            last = l;
            beyond = b.max(shares.iter().skip(last + 1).sum());
        }
    }
    let shown_exact: f64 = h.exact.as_ref().map_or(0.0, |e| {
        e.iter()
            .skip(first)
            .take(last + 1 - first)
            .copied()
            .fold(0.0, f64::max)
    });
    let peak = shares.iter().copied().fold(0.0, f64::max).max(shown_exact);
    let y = PercentAxis::new(peak, 0.01, peak);
    let sim_mean = mean_of(&shares, 1.0);
    let mut legend = Legend::new(13.0).entry(
        Swatch::Fill(palette::BAR_SECOND),
        format!("{} simulated games (mean {sim_mean:.2})", thousands(games)),
    );
    if let Some(exact) = &h.exact {
        let total: f64 = exact.iter().sum();
        legend = legend.entry(
            Swatch::Dot(palette::CURVE),
            format!("exact chance (mean {:.2})", mean_of(exact, total)),
        );
    }
    let title = h
        .title
        .clone()
        .unwrap_or_else(|| "Simulated game lengths".into());
    let subtitle = tail_note(&h.subtitle, last, beyond);
    let mut chart = Chart::new(
        WIDTH,
        HEIGHT,
        &title,
        &subtitle,
        &legend,
        y.label_width,
        0.0,
    );
    let axes = length_axes(&mut chart, first, last, &y, "share of games");
    let mut bars = group().class("bars");
    for n in first..=last {
        let v = shares.get(n).copied().unwrap_or(0.0);
        let count = h.counts.get(n).copied().unwrap_or(0);
        if count == 0 {
            continue;
        }
        bars.push(
            axes.bar(n as f64, v, 0.9, palette::BAR_SECOND)
                .data("length", n)
                .data("count", count)
                .title(format!(
                    "{}: {} ({})",
                    tabletop::count(n as u64, "roll", "rolls"),
                    tabletop::count(count, "game", "games"),
                    format_percent(v, 0.0001)
                )),
        );
    }
    chart.picture.push(bars);
    if let Some(exact) = &h.exact {
        let points: Vec<Point> = (first..=last)
            .map(|n| axes.point(n as f64, exact.get(n).copied().unwrap_or(0.0)))
            .collect();
        let r = (axes.x.per_unit().abs() * 0.22).clamp(1.2, 3.5);
        let mut g = group().class("exact");
        g.push(draw::polyline(&points, palette::CURVE, 1.2));
        for (n, pt) in (first..=last).zip(&points) {
            g.push(
                draw::circle(*pt, r)
                    .fill(palette::CURVE)
                    .data("length", n)
                    .data("p", format!("{}", exact.get(n).copied().unwrap_or(0.0))),
            );
        }
        chart.picture.push(g);
    }
    Ok(chart.picture)
}

/// A bar per seat with its chance to win written above it, and a dashed
/// line at an equal share (1 / seats).
///
/// # Errors
/// [`RenderError::Data`] for no seats, more than 8, or unusable chances.
pub fn seat_wins(s: &SeatWins) -> Result<Picture, RenderError> {
    let n = s.chances.len();
    if n == 0 || n > chutes::game::MAX_PLAYERS {
        return Err(RenderError::Data(format!(
            "a seat-wins plot needs 1 to {} seats, not {n}",
            chutes::game::MAX_PLAYERS
        )));
    }
    check_probabilities("the seat chances", &s.chances)?;
    let peak = s
        .chances
        .iter()
        .copied()
        .fold(0.0, f64::max)
        .max(1.0 / n as f64);
    let y = PercentAxis::new(peak * 1.12, 0.1, 1.0);
    let fair = 1.0 / n as f64;
    let legend = Legend::new(13.0).entry(
        Swatch::Dashed(palette::MUTED),
        format!("equal share ({})", format_percent(fair, 0.001)),
    );
    let title = s.title.clone().unwrap_or_else(|| "Who wins".into());
    let mut chart = Chart::new(
        WIDTH.min(300.0 + 90.0 * n as f64).max(560.0),
        HEIGHT * 0.85,
        &title,
        &s.subtitle,
        &legend,
        y.label_width,
        0.0,
    );
    let axes = Axes::new(chart.area, (0.5, n as f64 + 0.5), (0.0, y.top));
    let seats: Vec<f64> = (1..=n).map(|i| i as f64).collect();
    chart
        .picture
        .push(axes.draw(&seats, |t| format!("seat {t:.0}"), &y.ticks, |t| y.label(t)));
    chart
        .picture
        .push(axes.titles("seat (1 rolls first)", "chance to win", y.label_width));
    let mut bars = group().class("bars");
    for (i, &c) in s.chances.iter().enumerate() {
        let x = (i + 1) as f64;
        let top = axes.point(x, c);
        bars.push(
            group()
                .data("seat", i + 1)
                .data("p", format!("{c}"))
                .child(axes.bar(x, c, 0.6, palette::player(i + 1)))
                .child(
                    draw::bold_label(
                        top.x,
                        top.y - 12.0,
                        &format_percent(c, 0.001),
                        13.0,
                        draw::Anchor::Middle,
                    )
                    .attr("stroke", palette::WHITE)
                    .attr("stroke-width", 3)
                    .attr("paint-order", "stroke"),
                ),
        );
    }
    chart.picture.push(bars);
    let (a, b) = (axes.point(0.5, fair), axes.point(n as f64 + 0.5, fair));
    chart.picture.push(
        draw::line(a, b, palette::MUTED, 1.4)
            .attr("stroke-dasharray", "6 4")
            .class("equal-share"),
    );
    Ok(chart.picture)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometric(p: f64, max: usize) -> Vec<f64> {
        // Lengths from 3: P(n) = p (1-p)^(n-3).
        let mut v = vec![0.0; max + 1];
        for (n, slot) in v.iter_mut().enumerate().skip(3) {
            *slot = p * (1.0 - p).powi(n as i32 - 3);
        }
        v
    }

    #[test]
    fn the_distribution_has_a_bar_per_shown_length_and_its_markers() {
        let p = geometric(0.1, 400);
        let pic = length_distribution(&LengthDistribution {
            probabilities: p.clone(),
            subtitle: "test".into(),
            ..Default::default()
        })
        .unwrap();
        let all = pic.descendants();
        let bars: Vec<_> = all
            .iter()
            .filter(|e| e.get("data-length").is_some())
            .collect();
        assert_eq!(bars[0].get("data-length"), Some("3"));
        // 99.5% of a geometric(0.1) is within 3 + 50 rolls.
        let last: usize = bars
            .last()
            .unwrap()
            .get("data-length")
            .unwrap()
            .parse()
            .unwrap();
        assert!((50..=55).contains(&last), "{last}");
        let svg = pic.to_svg();
        // Mean 3 + 9 = 12; median: first n with P(≤ n) ≥ 0.5: 3 + 6 = 9.
        assert!(svg.contains("mean 12.00"), "{svg}");
        assert!(svg.contains("median 9"));
        assert!(svg.contains("not shown"));
        assert_eq!(
            all.iter()
                .filter(|e| e.get("class") == Some("cumulative"))
                .count(),
            1
        );
    }

    #[test]
    fn the_histogram_overlays_the_exact_chances() {
        let exact = geometric(0.2, 200);
        let counts: Vec<u64> = exact
            .iter()
            .map(|p| (p * 10_000.0).round() as u64)
            .collect();
        let pic = length_histogram(&LengthHistogram {
            counts,
            exact: Some(exact),
            ..Default::default()
        })
        .unwrap();
        let all = pic.descendants();
        assert!(all.iter().any(|e| e.get("data-count").is_some()));
        assert!(all.iter().any(|e| e.get("class") == Some("exact")));
        assert!(length_histogram(&LengthHistogram::default()).is_err());
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn seats_get_a_bar_each() {
        let pic = seat_wins(&SeatWins {
            chances: vec![0.52, 0.48],
            ..Default::default()
        })
        .unwrap();
        let svg = pic.to_svg();
        assert!(
            svg.contains("52.0%") && svg.contains("48.0%") && svg.contains("equal share (50.0%)")
        );
        assert!(seat_wins(&SeatWins::default()).is_err());
        let bad = SeatWins {
            chances: vec![0.9, 0.9],
            ..Default::default()
        };
        assert!(
            seat_wins(&bad)
                .unwrap_err()
                .to_string()
                .contains("more than 1")
        );
    }

    #[test]
    fn bad_distributions_are_refused() {
        for p in [vec![], vec![0.0, 0.0], vec![0.5, f64::NAN], vec![0.5, -0.1]] {
            let d = LengthDistribution {
                probabilities: p,
                ..Default::default()
            };
            assert!(matches!(length_distribution(&d), Err(RenderError::Data(_))));
        }
    }
}
