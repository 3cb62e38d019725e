//! Baffle pictures: the laser box as a player sees it.
//!
//! Terms:
//! - **box**: the `n × n` cells, each a `<rect class="cell" data-row
//!   data-col>`, with the holes round it, each a `<g class="hole"
//!   data-hole data-side data-shootable>` holding its number; a hole some
//!   shot entered by also has the class `entry`, one a shot left by `exit`.
//! - **shot**: a numbered shot; its entry hole is filled blue and its exit
//!   hole cyan (as in the original assignment's GUI), and its number is
//!   written beside both, so every shot can be told apart (`<text
//!   class="shot-number" data-hole data-shots>`). Once the game is over its
//!   beam is drawn too, each shot in its own colour, slightly offset so
//!   crossing beams stay visible
//!   (`<g class="beam" data-shot data-hole data-exit>`).
//! - **mirror**: a thick diagonal; found mirrors red, and after the game the
//!   mirrors not found magenta (as in the original assignment's GUI). A wrong
//!   guess is a dashed grey diagonal. `<g class="mirror
//!   found|unfound|guess-wrong" data-row data-col data-mirror>`.
//! - **odds**: optionally, each cell tinted by its chance of holding a
//!   mirror (from the solver), with the certain mirrors drawn in ink.
//!
//! The picture draws a [`baffle::View`] only, so it never shows what the
//! player may not see: no unfound mirror and no beam path while the game is
//! on.

use crate::RenderError;
use crate::draw::{self, Anchor, Grid, Legend, PathData, Point, Swatch};
use crate::draw::{LEGEND_SIZE as LEGEND, MARGIN, SUBTITLE_SIZE as SUBTITLE, TITLE_SIZE as TITLE};
use crate::font;
use crate::palette::{self, Colour};
use crate::svg::{Element, Picture, group};
use baffle::solve::CellOdds;
use baffle::words::cell_name;
use baffle::{Cell, Mirror, Placed, Side, Size, View};
use tabletop::Cell as GridCell;

/// Side of the box for big boxes, in user units.
const BOX_SPAN: f64 = 620.0;
/// The largest cell (boxes up to 11 × 11 get it).
const MAX_CELL: f64 = 56.0;
/// The narrowest picture.
const MIN_WIDTH: f64 = 560.0;

/// Beam colours, shot by shot (cycling): the beam orange first, then colours
/// distinct from it, from the entry blue, the exit cyan and the mirror reds.
const BEAMS: [Colour; 6] = [
    palette::BEAM,
    palette::PLAYERS[1],
    palette::PLAYERS[6],
    palette::PLAYERS[5],
    palette::PLAYERS[7],
    palette::PLAYERS[3],
];

/// Options for [`view_with`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BaffleStyle {
    /// The title (default "Baffle").
    pub title: Option<String>,
    /// A subtitle to use instead of the game's facts.
    pub subtitle: Option<String>,
    /// Tint each cell by its chance of holding a mirror (the solver's
    /// [`baffle::Solution::cells`]), and draw the certain mirrors.
    pub odds: Option<Vec<CellOdds>>,
    /// Keep the box in place from shot to shot: leave room round it for
    /// [`STEADY_BADGE`] beside a hole even before any shot, so that a page
    /// redrawing the picture after each shot does not see the box shrink
    /// or move as shot numbers appear (a longer list still widens it).
    pub steady: bool,
}

/// The shot numbers a [`BaffleStyle::steady`] picture leaves room for
/// beside each hole.
pub const STEADY_BADGE: &str = "88,88";

/// The picture of a player's view with the game's facts as subtitle.
///
/// # Errors
/// As [`view_with`].
pub fn view(view: &View) -> Result<Picture, RenderError> {
    view_with(view, &BaffleStyle::default())
}

/// Where everything goes.
struct Frame {
    grid: Grid,
    size: Size,
    /// A hole marker's side.
    marker: f64,
}

impl Frame {
    /// The centre of a hole's marker.
    fn hole_centre(&self, hole: usize) -> Point {
        let n = self.size.n();
        let (g, c) = (self.grid, self.grid.cell);
        let i = (hole % n) as f64;
        let away = c * 0.55;
        match self.size.side(hole) {
            Some(Side::Left) => Point::new(g.x - away, g.y + (n as f64 - 1.0 - i + 0.5) * c),
            Some(Side::Top) => Point::new(g.x + (i + 0.5) * c, g.y - away),
            Some(Side::Right) => Point::new(g.x + g.width() + away, g.y + (i + 0.5) * c),
            _ => Point::new(
                g.x + (n as f64 - 1.0 - i + 0.5) * c,
                g.y + g.height() + away,
            ),
        }
    }

    /// Where a hole's shot numbers go: beyond its marker, away from the box,
    /// with the anchor to use.
    fn badge(&self, hole: usize) -> (Point, Anchor) {
        let p = self.hole_centre(hole);
        let off = self.marker * 0.5 + self.grid.cell * 0.12;
        match self.size.side(hole) {
            Some(Side::Left) => (p.offset(-off, 0.0), Anchor::End),
            Some(Side::Top) => (p.offset(0.0, -off - self.grid.cell * 0.12), Anchor::Middle),
            Some(Side::Right) => (p.offset(off, 0.0), Anchor::Start),
            _ => (p.offset(0.0, off + self.grid.cell * 0.12), Anchor::Middle),
        }
    }

    fn cell(&self, cell: Cell) -> GridCell {
        cell.into()
    }
}

/// The picture of a player's view, with options.
///
/// # Errors
/// [`RenderError::TooBig`] for a view whose size is not a Baffle box (4 to
/// 26).
pub fn view_with(view: &View, style: &BaffleStyle) -> Result<Picture, RenderError> {
    let size =
        Size::new(view.size).map_err(|e| RenderError::TooBig(format!("not a Baffle box: {e}")))?;
    let n = size.n();
    let cell = (BOX_SPAN / n as f64).min(MAX_CELL);
    let marker = cell * 0.78;
    // Round the box: a ring for the holes, and one for the shot numbers.
    let ring = cell * 1.1 + badge_room(view, cell, style.steady);
    // The columns' letters above the box and the rows' numbers left of it,
    // outside the holes and their shot numbers: the words name cells so.
    let axis = axis_size(cell);
    let room = axis * 1.8;
    let box_w = cell * n as f64;
    let width = (box_w + 2.0 * ring + room + 2.0 * MARGIN).max(MIN_WIDTH);
    let inner = width - 2.0 * MARGIN;
    let title = style.title.clone().unwrap_or_else(|| "Baffle".to_string());
    let subtitle = style.subtitle.clone().unwrap_or_else(|| facts(view));
    let legend = legend(view, style);
    let title_y = MARGIN + TITLE / 2.0;
    let subtitle_y = title_y + TITLE * 0.6 + SUBTITLE;
    let grid_top = subtitle_y + SUBTITLE * 1.2 + room + ring;
    let grid = Grid::new(
        (width - box_w + room) / 2.0,
        grid_top,
        cell,
        n as u32,
        n as u32,
    );
    let legend_top = grid_top + box_w + ring + LEGEND * 0.5;
    let height = legend_top + legend.height(inner) + MARGIN;
    let frame = Frame { grid, size, marker };

    let mut picture = Picture::new(width, height, &title);
    picture.push(draw::title(width / 2.0, title_y, &title, TITLE, inner));
    let sub_size = font::fit_size(&subtitle, inner, SUBTITLE, false);
    picture.push(
        draw::label(width / 2.0, subtitle_y, &subtitle, sub_size, Anchor::Middle)
            .fill(palette::MUTED)
            .class("subtitle"),
    );
    picture.push(cells(&frame, style.odds.as_deref()));
    picture.push(grid.lines(palette::RULE, (cell * 0.025).clamp(0.5, 1.2)));
    picture.push(
        grid.bounds()
            .element()
            .fill("none")
            .stroke(palette::INK, (cell * 0.05).clamp(1.0, 2.5))
            .class("box"),
    );
    if let Some(odds) = &style.odds {
        picture.push(certain_mirrors(&frame, odds));
    }
    picture.push(guesses(&frame, view));
    picture.push(mirrors(&frame, view));
    picture.push(beams(&frame, view));
    picture.push(holes(&frame, view));
    picture.push(shot_numbers(&frame, view));
    // The letters just above the top holes' shot numbers (one line high);
    // the numbers left of the left holes' (as wide as the longest).
    let top = cell * 1.1 + badge_size(cell) * 1.2 + axis * 0.8;
    picture.push(axes(&frame, (top, ring + room / 2.0), axis));
    let legend_x = (width - legend.width(inner)) / 2.0;
    picture.push(legend.draw(legend_x, legend_top, inner));
    Ok(picture)
}

/// Room for the longest list of shot numbers beside one hole (at least
/// [`STEADY_BADGE`] when `steady`).
fn badge_room(view: &View, cell: f64, steady: bool) -> f64 {
    let size = badge_size(cell);
    let least = if steady {
        font::text_width(STEADY_BADGE, size, true)
    } else {
        0.0
    };
    let longest = (0..4 * view.size)
        .map(|h| badge_text(view, h))
        .map(|t| font::text_width(&t, size, true))
        .fold(least, f64::max);
    longest.max(size) + cell * 0.3
}

/// The rows' and columns' labels' size.
fn axis_size(cell: f64) -> f64 {
    (cell * 0.45).clamp(10.0, 16.0)
}

/// Each column's letter (A from the left) above the box and each row's
/// number (1 from the top) left of it, `above` and `left` of the box's
/// edges: a cell
/// is named "C5" in words ([`baffle::words::cell_name`]).
fn axes(frame: &Frame, (above, left): (f64, f64), size: f64) -> Element {
    let g0 = &frame.grid;
    let n = frame.size.n();
    let cell = g0.cell;
    let mut g = group().class("axes").attr("aria-hidden", "true");
    for i in 0..n {
        let centre = cell * (i as f64 + 0.5);
        let letter = char::from(b'A' + (i % 26) as u8).to_string();
        g.push(
            draw::label(g0.x + centre, g0.y - above, &letter, size, Anchor::Middle)
                .fill(palette::MUTED)
                .class("axis column")
                .data("col", i),
        );
        g.push(
            draw::label(
                g0.x - left,
                g0.y + centre,
                &(i + 1).to_string(),
                size,
                Anchor::Middle,
            )
            .fill(palette::MUTED)
            .class("axis row")
            .data("row", i),
        );
    }
    g
}

fn badge_size(cell: f64) -> f64 {
    (cell * 0.34).clamp(9.0, 16.0)
}

/// The numbers of the shots (from 1) that entered or left by `hole`.
fn shots_through(view: &View, hole: usize) -> Vec<String> {
    view.shots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.hole == hole || s.exit == hole)
        .map(|(i, _)| (i + 1).to_string())
        .collect()
}

/// [`shots_through`] as the badge beside `hole` shows them.
fn badge_text(view: &View, hole: usize) -> String {
    let numbers = shots_through(view, hole);
    // Long lists are cut: the picture stays readable, the JSON has them all.
    if numbers.len() > 4 {
        format!("{},…", numbers[..3].join(","))
    } else {
        numbers.join(",")
    }
}

fn facts(view: &View) -> String {
    let status = match view.status {
        baffle::Status::Playing => "playing".to_string(),
        baffle::Status::Won => "won".to_string(),
        baffle::Status::Quit => "given up, mirrors revealed".to_string(),
    };
    format!(
        "{0}×{0}, {1}, beams from {2} · {3} shot{4} · found {5} of {6} · score {7} · {status}",
        view.size,
        tabletop::count(view.mirrors as u64, "mirror", "mirrors"),
        match view.sides {
            baffle::Sides::All => "all sides",
            baffle::Sides::LeftTop => "left and top",
        },
        view.shots.len(),
        if view.shots.len() == 1 { "" } else { "s" },
        view.found.len(),
        view.mirrors,
        view.score.total,
    )
}

fn legend(view: &View, style: &BaffleStyle) -> Legend {
    let mut legend = Legend::new(LEGEND)
        .entry(Swatch::Fill(palette::BAFFLE_ENTRY), "entry hole")
        .entry(Swatch::Fill(palette::BAFFLE_EXIT), "exit hole");
    if !view.found.is_empty() {
        legend = legend.entry(Swatch::Line(palette::MIRROR_FOUND), "mirror found");
    }
    if view.missed.as_ref().is_some_and(|m| !m.is_empty()) {
        legend = legend.entry(Swatch::Line(palette::MIRROR_UNFOUND), "mirror not found");
    }
    if view.guesses.iter().any(|g| !g.right) {
        legend = legend.entry(Swatch::Dashed(palette::MUTED), "wrong guess");
    }
    if view.shots.iter().any(|s| s.path.is_some()) {
        legend = legend.entry(Swatch::Line(palette::BEAM), "beam");
    }
    if view.sides == baffle::Sides::LeftTop {
        legend = legend.entry(
            Swatch::Fill(palette::PAPER_DARK),
            "hole not shot into in this game",
        );
    }
    if style.odds.is_some() {
        legend = legend
            .entry(Swatch::Fill(palette::heat(0.0)), "no mirror")
            .entry(Swatch::Fill(palette::heat(0.5)), "mirror: even odds")
            .entry(
                Swatch::Fill(palette::heat(1.0)),
                "certain mirror (numbers: % chance of a mirror)",
            );
    }
    legend
}

fn cells(frame: &Frame, odds: Option<&[CellOdds]>) -> Element {
    let cell = frame.grid.cell;
    let text_size = (cell * 0.27).min(13.0);
    let mut g = group().class("cells");
    for i in 0..frame.size.cells() {
        let c = frame.size.cell(i);
        let o = odds.and_then(|o| o.iter().find(|x| x.cell == c));
        let Some(o) = o else {
            g.push(
                frame
                    .grid
                    .cell_rect(frame.cell(c), palette::PAPER)
                    .class("cell")
                    .title(cell_name(c)),
            );
            continue;
        };
        let p = o.slash + o.backslash;
        let fill = palette::heat(p);
        g.push(
            frame
                .grid
                .cell_rect(frame.cell(c), fill)
                .class("cell")
                .data("mirror-odds", format!("{p:.4}"))
                .title(format!(
                    "{}: empty {:.1}%, / {:.1}%, \\ {:.1}%",
                    cell_name(c),
                    100.0 * o.empty,
                    100.0 * o.slash,
                    100.0 * o.backslash
                )),
        );
        // The chance of a mirror, in per cent, where it is readable.
        if text_size >= 7.0 && p < 1.0 {
            let percent = 100.0 * p;
            let text = match percent {
                x if x <= 0.0 => "0".to_string(),
                x if x < 1.0 => "<1".to_string(),
                x if x > 99.0 => ">99".to_string(),
                x => format!("{x:.0}"),
            };
            let centre = frame.grid.centre(frame.cell(c));
            g.push(
                draw::label(centre.x, centre.y, &text, text_size, Anchor::Middle)
                    .fill(fill.text_on().mix(fill, 0.35))
                    .class("odds"),
            );
        }
    }
    g
}

/// A mirror's diagonal in `cell`.
fn diagonal(frame: &Frame, cell: Cell, mirror: Mirror, colour: Colour, width: f64) -> Element {
    let r = frame.grid.rect(frame.cell(cell));
    let inset = r.w * 0.16;
    let (x0, y0, x1, y1) = (
        r.x + inset,
        r.y + inset,
        r.x + r.w - inset,
        r.y + r.h - inset,
    );
    let (a, b) = match mirror {
        Mirror::Slash => (Point::new(x0, y1), Point::new(x1, y0)),
        Mirror::Backslash => (Point::new(x0, y0), Point::new(x1, y1)),
    };
    draw::line(a, b, colour, width).attr("stroke-linecap", "round")
}

fn placed_group(class: &str, cell: Cell, mirror: Mirror) -> Element {
    group()
        .class(class)
        .data("row", cell.row)
        .data("col", cell.col)
        .data("mirror", mirror.symbol().to_string())
}

fn mirrors(frame: &Frame, view: &View) -> Element {
    let width = frame.grid.cell * 0.13;
    let mut g = group().class("mirrors");
    let found = view.found.iter().map(|p| (p, true));
    let missed = view.missed.iter().flatten().map(|p| (p, false));
    for (&Placed { cell, mirror }, found) in found.chain(missed) {
        let (class, colour, what) = if found {
            ("mirror found", palette::MIRROR_FOUND, "found")
        } else {
            ("mirror unfound", palette::MIRROR_UNFOUND, "not found")
        };
        g.push(
            placed_group(class, cell, mirror)
                .child(diagonal(frame, cell, mirror, colour, width))
                .title(format!("{mirror} at {} {what}", cell_name(cell))),
        );
    }
    g
}

fn certain_mirrors(frame: &Frame, odds: &[CellOdds]) -> Element {
    let width = frame.grid.cell * 0.1;
    let mut g = group().class("certain-mirrors");
    for o in odds {
        for (share, mirror) in [(o.slash, Mirror::Slash), (o.backslash, Mirror::Backslash)] {
            if o.proven && share >= 1.0 {
                g.push(
                    placed_group("certain", o.cell, mirror)
                        .child(diagonal(
                            frame,
                            o.cell,
                            mirror,
                            palette::heat(1.0).text_on(),
                            width,
                        ))
                        .title(format!("{mirror} at {} certain", cell_name(o.cell))),
                );
            }
        }
    }
    g
}

fn guesses(frame: &Frame, view: &View) -> Element {
    let width = frame.grid.cell * 0.06;
    let dash = frame.grid.cell * 0.1;
    let mut g = group().class("guesses");
    for guess in view.guesses.iter().filter(|g| !g.right) {
        g.push(
            placed_group("guess-wrong", guess.cell, guess.mirror)
                .child(
                    diagonal(frame, guess.cell, guess.mirror, palette::MUTED, width)
                        .attr("stroke-dasharray", format!("{dash:.2} {dash:.2}")),
                )
                .title(format!(
                    "wrong guess: {} at {}",
                    guess.mirror,
                    cell_name(guess.cell)
                )),
        );
    }
    g
}

fn beams(frame: &Frame, view: &View) -> Element {
    let cell = frame.grid.cell;
    let width = (cell * 0.07).max(1.2);
    let mut g = group().class("beams");
    for (i, shot) in view.shots.iter().enumerate() {
        let Some(path) = &shot.path else {
            continue;
        };
        let colour = BEAMS[i % BEAMS.len()];
        // Offset each shot a little so beams that share a line stay visible.
        let shift = ((i % 5) as f64 - 2.0) * cell * 0.05;
        let mut points = vec![frame.hole_centre(shot.hole)];
        for step in path.iter().filter(|s| s.turned()) {
            points.push(frame.grid.centre(frame.cell(step.cell)));
        }
        points.push(frame.hole_centre(shot.exit));
        let points: Vec<Point> = points.into_iter().map(|p| p.offset(shift, shift)).collect();
        let mut line = group()
            .class("beam")
            .data("shot", i + 1)
            .data("hole", shot.hole)
            .data("exit", shot.exit)
            .title(format!(
                "shot {}: into hole {}, out at hole {}, {} deflection{}",
                i + 1,
                shot.hole,
                shot.exit,
                shot.deflections.unwrap_or(0),
                if shot.deflections == Some(1) { "" } else { "s" }
            ));
        if let [rest @ .., from, to] = points.as_slice() {
            let mut d = PathData::new();
            for (j, p) in rest.iter().chain([from]).enumerate() {
                d = if j == 0 { d.move_to(*p) } else { d.line_to(*p) };
            }
            if !rest.is_empty() {
                line.push(
                    d.element()
                        .stroke(colour, width)
                        .attr("stroke-linejoin", "round")
                        .attr("stroke-linecap", "round"),
                );
            }
            // The last leg ends in an arrowhead at the exit marker's edge.
            let len = from.distance(*to);
            let end = if len > 0.0 {
                to.lerp(*from, (frame.marker * 0.5) / len)
            } else {
                *to
            };
            line.push(draw::arrow(*from, end, colour, width));
        }
        g.push(line);
    }
    g
}

fn holes(frame: &Frame, view: &View) -> Element {
    let m = frame.marker;
    let text_size = font::fit_size(&(4 * view.size - 1).to_string(), m * 0.86, m * 0.46, true);
    let mut g = group().class("holes");
    for hole in 0..frame.size.holes() {
        let side = frame.size.side(hole).unwrap_or(Side::Left);
        let shootable = view.shootable.contains(&hole);
        let entry = view.shots.iter().any(|s| s.hole == hole);
        let exit = view.shots.iter().any(|s| s.exit == hole);
        let fill = if entry {
            palette::BAFFLE_ENTRY
        } else if exit {
            palette::BAFFLE_EXIT
        } else if shootable {
            palette::WHITE
        } else {
            palette::PAPER_DARK
        };
        let c = frame.hole_centre(hole);
        let mut marker = draw::rect(c.x - m / 2.0, c.y - m / 2.0, m, m)
            .attr("rx", m * 0.18)
            .fill(fill)
            .stroke(palette::INK, (m * 0.04).max(0.6));
        if entry && exit {
            // Entry of one shot and exit of another: blue with a cyan ring.
            marker = marker.stroke(palette::BAFFLE_EXIT, (m * 0.14).max(1.5));
        }
        let role = match (entry, exit) {
            (true, true) => "entry and exit",
            (true, false) => "entry",
            (false, true) => "exit",
            (false, false) => "",
        };
        let mut title = format!("hole {hole} ({side})");
        if !role.is_empty() {
            title.push_str(&format!(", {role}"));
        }
        if !shootable {
            title.push_str(", not shot into in this game");
        }
        // The page finds a hole's part in the shots by its classes.
        let class = match (entry, exit) {
            (true, true) => "hole entry exit",
            (true, false) => "hole entry",
            (false, true) => "hole exit",
            (false, false) => "hole",
        };
        g.push(
            group()
                .class(class)
                .data("hole", hole)
                .data("side", side.to_string())
                .data("shootable", shootable.to_string())
                .title(title)
                .child(marker)
                .child(
                    draw::bold_label(c.x, c.y, &hole.to_string(), text_size, Anchor::Middle)
                        .fill(fill.text_on()),
                ),
        );
    }
    g
}

/// Beside each hole used, the numbers of the shots that entered or left by
/// it: `<text class="shot-number" data-hole data-shots="1,3">`.
fn shot_numbers(frame: &Frame, view: &View) -> Element {
    let size = badge_size(frame.grid.cell);
    let mut g = group().class("shot-numbers");
    for hole in 0..frame.size.holes() {
        let text = badge_text(view, hole);
        if text.is_empty() {
            continue;
        }
        let all = shots_through(view, hole);
        let (p, anchor) = frame.badge(hole);
        g.push(
            draw::bold_label(p.x, p.y, &text, size, anchor)
                .fill(palette::INK)
                .class("shot-number")
                .data("hole", hole)
                .data("shots", all.join(",")),
        );
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle::{Game, Setup, Sides};

    fn play(setup: Setup, moves: &[&str]) -> Game {
        let mut g = Game::new(setup).unwrap();
        for m in moves {
            g.apply(m.parse().unwrap()).unwrap();
        }
        g
    }

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn the_box_has_every_hole_and_cell() {
        let g = play(Setup::default(), &["shoot 7", "shoot 5"]);
        let svg = view(&g.view()).unwrap().to_svg();
        for h in 0..40 {
            assert!(svg.contains(&format!("data-hole=\"{h}\"")), "hole {h}");
        }
        assert_eq!(count(&svg, "class=\"cell\""), 100);
        assert!(svg.contains("data-row=\"9\" data-col=\"9\""));
        assert!(svg.contains(&palette::BAFFLE_ENTRY.to_string()));
        assert!(svg.contains(&palette::BAFFLE_EXIT.to_string()));
        assert_eq!(count(&svg, "class=\"shot-number\""), 4);
        assert!(svg.contains("data-hole=\"22\" data-shots=\"1\""), "{svg}");
        // Shots 7 → 22 and 5 → 12: their holes say which end they are.
        assert!(svg.contains("class=\"hole entry\" data-hole=\"7\""));
        assert!(svg.contains("class=\"hole exit\" data-hole=\"22\""));
        assert!(svg.contains("class=\"hole exit\" data-hole=\"12\""));
        assert_eq!(count(&svg, "class=\"hole entry\""), 2);
        assert_eq!(count(&svg, "class=\"hole exit\""), 2);
        assert_eq!(count(&svg, "class=\"hole\""), 36);
    }

    #[test]
    fn a_hole_both_entered_and_left_by_has_both_classes() {
        // 1 → 24, and back: 24 → 1.
        let g = play(Setup::default(), &["shoot 1", "shoot 24"]);
        let svg = view(&g.view()).unwrap().to_svg();
        assert!(svg.contains("class=\"hole entry exit\" data-hole=\"1\""));
        assert!(svg.contains("class=\"hole entry exit\" data-hole=\"24\""));
        assert_eq!(count(&svg, "class=\"hole\""), 38);
    }

    #[test]
    fn nothing_hidden_is_drawn_while_playing() {
        let g = play(Setup::default(), &["shoot 1", "guess 4 2 /", "guess 3 3 /"]);
        let svg = view(&g.view()).unwrap().to_svg();
        assert_eq!(count(&svg, "class=\"mirror found\""), 1);
        assert_eq!(count(&svg, "class=\"mirror unfound\""), 0);
        assert_eq!(count(&svg, "class=\"guess-wrong\""), 1);
        assert_eq!(
            count(&svg, "class=\"beam\""),
            0,
            "no beam path before the end"
        );
        assert!(!svg.contains(&palette::MIRROR_UNFOUND.to_string()));
    }

    #[test]
    fn the_reveal_shows_found_unfound_and_beams() {
        let g = play(
            Setup::default(),
            &["shoot 1", "shoot 9", "guess 4 2 /", "quit"],
        );
        let svg = view(&g.view()).unwrap().to_svg();
        assert_eq!(count(&svg, "class=\"mirror found\""), 1);
        assert_eq!(count(&svg, "class=\"mirror unfound\""), 4);
        assert_eq!(count(&svg, "class=\"beam\""), 2);
        assert!(svg.contains("data-mirror=\"\\\""));
        assert!(
            svg.contains("shot 1: into hole 1, out at hole 24, 2 deflections"),
            "the shot's tooltip in words"
        );
        // The columns' letters and the rows' numbers name the cells.
        assert_eq!(count(&svg, "class=\"axis column\""), 10);
        assert_eq!(count(&svg, "class=\"axis row\""), 10);
        assert!(svg.contains("<title>C5</title>"));
        let png = crate::to_png(&view(&g.view()).unwrap(), Some(400)).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
    }

    #[test]
    fn left_top_games_mark_the_other_holes() {
        let g = play(Setup::fixed(Sides::LeftTop), &["shoot 3"]);
        let svg = view(&g.view()).unwrap().to_svg();
        assert_eq!(count(&svg, "data-shootable=\"false\""), 20);
        assert!(svg.contains("not shot into in this game"));
    }

    #[test]
    fn every_size_draws() {
        for n in [4, 11, 26] {
            let g = play(
                Setup::seeded(n, 3, Sides::All, 1),
                &["shoot 0", "shoot 0", "quit"],
            );
            let p = view(&g.view()).unwrap();
            assert!(p.width() >= MIN_WIDTH);
            let svg = p.to_svg();
            assert_eq!(count(&svg, "class=\"cell\""), n * n);
            assert!(
                svg.contains(">1,2<"),
                "the hole shot twice lists both shots"
            );
        }
    }

    /// The box's place in the picture: the `x` and `y` of cell <0,0>.
    fn box_corner(svg: &str) -> String {
        let at = svg.find("data-row=\"0\" data-col=\"0\"").unwrap();
        let tag = &svg[svg[..at].rfind('<').unwrap()..at];
        let x = tag
            .split(" x=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let y = tag
            .split(" y=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        format!("{x},{y}")
    }

    #[test]
    fn a_steady_box_stays_in_place_as_shots_are_numbered() {
        let steady = BaffleStyle {
            steady: true,
            ..BaffleStyle::default()
        };
        // 1 → 24 and 24 → 1 put "1,2" beside two holes; then holes 5 to
        // 14: shot 3 is 5 → 12 and shot 10 is 12 → 5, so holes 5 and 12
        // list "3,10".
        let mut moves = vec!["shoot 1".to_string(), "shoot 24".to_string()];
        moves.extend((5..15).map(|h| format!("shoot {h}")));
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let before = play(Setup::default(), &[]);
        let after = play(Setup::default(), &moves);
        let (p0, p1) = (
            view_with(&before.view(), &steady).unwrap(),
            view_with(&after.view(), &steady).unwrap(),
        );
        let longest = (0..40).map(|h| badge_text(&after.view(), h).len()).max();
        assert_eq!(longest, Some(4), "holes 5 and 12 list \"3,10\"");
        assert!((p0.width() - p1.width()).abs() < 1e-9);
        assert_eq!(box_corner(&p0.to_svg()), box_corner(&p1.to_svg()));
        // Without it, the picture is as tight as its numbers allow.
        let plain = view(&before.view()).unwrap();
        assert!(plain.width() < p0.width());
        assert_ne!(box_corner(&plain.to_svg()), box_corner(&p0.to_svg()));
    }

    #[test]
    fn odds_tint_the_cells() {
        let g = play(Setup::default(), &["shoot 7", "shoot 5"]);
        let v = g.view();
        let solution = baffle::solve(&v.evidence(), &baffle::SolveOptions::default()).unwrap();
        let style = BaffleStyle {
            odds: Some(solution.cells.clone()),
            ..BaffleStyle::default()
        };
        let svg = view_with(&v, &style).unwrap().to_svg();
        assert!(svg.contains("empty 100.0%"), "certainly empty cells say so");
        assert!(svg.contains("certain mirror"));
    }
}
