//! A game's look back: each player's chance to win after every move.
//!
//! Terms:
//! - **series**: `series[m]` is every player's chance after the first `m`
//!   moves (`series[0]` at the start), in seat order.
//! - **estimate**: chances estimated by playouts (Tycoon's): each comes
//!   with a 95% interval, drawn as a pale **band** around the player's
//!   line.
//! - **swing**: how much one move changed its mover's chance; the page
//!   names the biggest from the same figures.

use crate::draw::{self, Legend, Swatch};
use crate::output::RenderError;
use crate::palette;
use crate::plot::{Axes, Chart, format_percent, label_width, nice_ticks};
use crate::svg::{Picture, group};

/// The most players a chart draws.
const MAX_PLAYERS: usize = 8;

/// Each player's chance to win over the moves of a game, one line each in
/// the player's colour, named by `names` (seat order). `bands`, for
/// estimated chances, holds each step's interval a player (`(low, high)`,
/// the same shape as `series`), drawn as a pale band; empty for exact
/// chances.
///
/// # Errors
/// [`RenderError::Data`] when there is no move to chart, more than 8
/// players, a step with another number of players, a chance that is not
/// a probability, or bands of another shape than the series or that do
/// not hold their chance.
pub fn chances_chart(
    names: &[String],
    series: &[Vec<f64>],
    bands: &[Vec<(f64, f64)>],
) -> Result<Picture, RenderError> {
    let players = names.len();
    if !(1..=MAX_PLAYERS).contains(&players) {
        return Err(RenderError::Data(format!(
            "a chances chart has 1 to {MAX_PLAYERS} players, not {players}"
        )));
    }
    if series.is_empty() {
        return Err(RenderError::Data(
            "a chances chart needs the start at least".into(),
        ));
    }
    for (m, step) in series.iter().enumerate() {
        if step.len() != players {
            return Err(RenderError::Data(format!(
                "after move {m}: {} chances for {players} players",
                step.len()
            )));
        }
        if let Some(p) = step.iter().find(|p| !(0.0..=1.0).contains(*p)) {
            return Err(RenderError::Data(format!(
                "after move {m}: {p} is not a chance"
            )));
        }
    }
    check_bands(series, bands)?;
    let estimated = !bands.is_empty();
    let legend = names
        .iter()
        .enumerate()
        .fold(Legend::new(13.0), |legend, (i, name)| {
            legend.entry(Swatch::Line(palette::player(i + 1)), name.clone())
        });
    let y_ticks = nice_ticks(0.0, 1.0, 5);
    let y_labels: Vec<String> = y_ticks.iter().map(|&t| format_percent(t, 0.2)).collect();
    let moves = series.len() - 1;
    let after = if moves == 1 {
        "after the one move".to_string()
    } else {
        format!("after each of the {moves} moves")
    };
    let mut chart = Chart::new(
        860.0,
        440.0,
        "Chances to win, move by move",
        &if estimated {
            format!(
                "each player's chance {after}, estimated by the bots' playouts (band: 95% interval)"
            )
        } else {
            format!("each player's exact chance {after}")
        },
        &legend,
        label_width(y_labels.iter().map(String::as_str)),
        0.0,
    );
    let last = moves.max(1) as f64;
    let axes = Axes::new(chart.area, (0.0, last), (0.0, 1.0));
    let x_ticks: Vec<f64> = nice_ticks(0.0, last, 8)
        .into_iter()
        .filter(|&t| t <= last)
        .collect();
    chart.picture.push(axes.draw(
        &x_ticks,
        |t| format!("{t:.0}"),
        &y_ticks,
        |t| format_percent(t, 0.2),
    ));
    let y_width = label_width(y_labels.iter().map(String::as_str));
    chart
        .picture
        .push(axes.titles("moves played", "chance to win", y_width));
    if estimated {
        let mut shaded = group().class("bands").attr("opacity", 0.18);
        for seat in 0..players {
            let upper = bands
                .iter()
                .enumerate()
                .map(|(m, step)| axes.point(m as f64, step[seat].1));
            let lower = bands
                .iter()
                .enumerate()
                .rev()
                .map(|(m, step)| axes.point(m as f64, step[seat].0));
            let outline: Vec<_> = upper.chain(lower).collect();
            shaded.push(draw::polygon(&outline, palette::player(seat + 1)).data("seat", seat + 1));
        }
        chart.picture.push(shaded);
    }
    let mut lines = group().class("chances");
    for seat in 0..players {
        let points: Vec<_> = series
            .iter()
            .enumerate()
            .map(|(m, step)| axes.point(m as f64, step[seat]))
            .collect();
        lines.push(draw::polyline(&points, palette::player(seat + 1), 2.5).data("seat", seat + 1));
    }
    chart.picture.push(lines);
    Ok(chart.picture)
}

/// Checks that `bands` (when any) has a `(low, high)` a chance of
/// `series`, holding it.
fn check_bands(series: &[Vec<f64>], bands: &[Vec<(f64, f64)>]) -> Result<(), RenderError> {
    if bands.is_empty() {
        return Ok(());
    }
    if bands.len() != series.len() {
        return Err(RenderError::Data(format!(
            "{} steps of intervals for {} steps of chances",
            bands.len(),
            series.len()
        )));
    }
    for (m, (step, band)) in series.iter().zip(bands).enumerate() {
        if band.len() != step.len() {
            return Err(RenderError::Data(format!(
                "after move {m}: {} intervals for {} chances",
                band.len(),
                step.len()
            )));
        }
        if let Some((p, (low, high))) = step
            .iter()
            .zip(band)
            .find(|(p, (low, high))| !(0.0 <= *low && low <= *p && *p <= high && *high <= 1.0))
        {
            return Err(RenderError::Data(format!(
                "after move {m}: the interval {low} to {high} does not hold the chance {p}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_a_player_and_bad_series_refused() {
        let names = vec!["Ada".to_string(), "Bo".to_string()];
        let series = vec![vec![0.52, 0.48], vec![0.6, 0.4], vec![1.0, 0.0]];
        let svg = chances_chart(&names, &series, &[]).unwrap().to_svg();
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
        assert_eq!(svg.matches("<polygon").count(), 0, "{svg}");
        assert!(svg.contains("Ada") && svg.contains("Bo"));
        assert!(svg.contains("exact chance"));
        assert!(chances_chart(&names, &[], &[]).is_err());
        assert!(chances_chart(&names, &[vec![0.5]], &[]).is_err());
        assert!(chances_chart(&names, &[vec![1.5, 0.0]], &[]).is_err());
        assert!(chances_chart(&[], &series, &[]).is_err());
    }

    #[test]
    fn an_estimate_has_a_band_a_player_and_bad_bands_are_refused() {
        let names = vec!["Ada".to_string(), "Bo".to_string()];
        let series = vec![vec![0.52, 0.48], vec![0.6, 0.4]];
        let bands = vec![
            vec![(0.49, 0.55), (0.45, 0.51)],
            vec![(0.57, 0.63), (0.37, 0.43)],
        ];
        let svg = chances_chart(&names, &series, &bands).unwrap().to_svg();
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
        assert_eq!(svg.matches("<polygon").count(), 2, "{svg}");
        assert!(svg.contains("estimated by the bots"));
        assert!(chances_chart(&names, &series, &bands[..1]).is_err());
        let outside = vec![bands[0].clone(), vec![(0.61, 0.63), (0.37, 0.43)]];
        assert!(chances_chart(&names, &series, &outside).is_err());
        let short = vec![bands[0].clone(), vec![(0.57, 0.63)]];
        assert!(chances_chart(&names, &series, &short).is_err());
    }
}
