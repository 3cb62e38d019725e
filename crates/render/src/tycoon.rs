//! Snakes & Ladders Tycoon pictures: a grid, and a game on it.
//!
//! Terms:
//! - **cell**: one of the 99 cells at its place in the grid's geometry
//!   (9 × 11, row-major from the bottom-left: `tycoon::cells::geometry`),
//!   numbered in its top-left corner; a `<g class="cell" data-cell="N"
//!   data-row data-col>` group, with `data-card` when a card lies there.
//! - **card badge**: the card's number in its top-right corner, in the
//!   colour of its kind, and its parameters on the bottom line (`pay 50`,
//!   `to 97`, `bail 50`, `50 · fee 10`); an owned station has a border and
//!   a tag in its owner's colour (`data-owner`).
//! - **ladder**: green rails and rungs; **snake**: a blue wavy body with its
//!   head on its start cell; `<g class="ladder|snake" data-start data-end>`.
//! - **token**: a player's disc with the seat number, one fixed slot per
//!   seat in the cell (`<g class="token" data-player data-cell>`).
//! - **players panel** (games only): one line per player under the legend:
//!   seat, kind, cell, coins, turns, stations, attacks and what holds them
//!   back (turns to lose, fire, poison), and what the game waits for.

use crate::draw::{self, Anchor, Grid, Legend, PathData, Point, Rect, Swatch};
use crate::draw::{LEGEND_SIZE as LEGEND, MARGIN, SUBTITLE_SIZE as SUBTITLE, TITLE_SIZE as TITLE};
use crate::font;
use crate::palette::{self, Colour};
use crate::seats::Seats;
use crate::svg::{Element, Picture, group};
use tycoon::game::{Decision, TurnKind};
use tycoon::{CardKind, Game, Ladder, Snake};

/// A cell's side in user units.
const CELL: f64 = 64.0;
/// Players panel line height.
const PANEL_LINE: f64 = 22.0;

/// The colour of a card's kind.
pub fn card_colour(card: u8) -> Colour {
    match card {
        1 | 8 => palette::FINISH,
        2 | 5 | 6 => palette::CHUTE,
        3 | 4 => palette::BEAM,
        7 | 12 => palette::MEDIAN,
        _ => palette::LADDER,
    }
}

/// How far a card's cell is tinted to white (its colour on the board).
const CARD_TINT: f64 = 0.78;

/// A cell's colour: the start and the goal, a card's tint, or paper.
fn cell_fill(cell: u32, card: Option<CardKind>) -> Colour {
    match (cell, card) {
        (1, _) => palette::START.tint(0.4),
        (99, _) => palette::FINISH.tint(0.6),
        (_, Some(k)) => card_colour(k.number()).tint(CARD_TINT),
        _ => palette::PAPER,
    }
}

/// The colour of a card's caption, on its cell.
fn caption_colour(card: Colour) -> Colour {
    card.mix(palette::INK, 0.45)
}

/// What the cells' tints and the cards' captions become in the dark
/// scheme (see [`crate::scheme`]): tints turn to dim tiles of their colour,
/// captions to a light tint of it.
pub fn dark_repaints() -> Vec<palette::Repaint> {
    let dim = |c: Colour| c.mix(palette::DARK_BACKGROUND, 0.62);
    let tile = |light, dark| palette::Repaint {
        light,
        dark,
        text_only: false,
    };
    let mut out = vec![
        tile(palette::START.tint(0.4), dim(palette::START)),
        tile(palette::FINISH.tint(0.6), dim(palette::FINISH)),
    ];
    for card in 1..=12 {
        let colour = card_colour(card);
        let repaints = [
            tile(colour.tint(CARD_TINT), dim(colour)),
            palette::Repaint {
                light: caption_colour(colour),
                dark: colour.tint(0.55),
                text_only: true,
            },
        ];
        for r in repaints {
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

/// What a card says on its bottom line.
fn card_caption(kind: CardKind) -> String {
    match kind {
        CardKind::TakeCoins { coins } => format!("pay {coins}"),
        CardKind::NextLadder => "next ladder".into(),
        CardKind::ExtraRoll => "roll again".into(),
        CardKind::LoseTurn => "lose turn".into(),
        CardKind::GoBack => "go back".into(),
        CardKind::GoTo { destination } => format!("to {destination}"),
        CardKind::Restart => "restart".into(),
        CardKind::Prison { fee } => format!("bail {fee}"),
        CardKind::Station { price, fee, .. } => format!("{price} · fee {fee}"),
        CardKind::GiveStation => "give station".into(),
    }
}

/// The picture of `grid`, titled with `name`.
pub fn grid(grid: &tycoon::Grid, name: &str) -> Picture {
    draw_grid(grid, name, None, &Seats::default())
}

/// The picture of `game` on its grid: the grid, every token, station
/// owners, and the players panel.
pub fn game(game: &Game, name: &str) -> Picture {
    draw_grid(game.grid(), name, Some(game), &Seats::default())
}

/// [`game`], each player called and coloured as `who` says, in the
/// legend, the tokens, the panel and the tooltips.
pub fn game_for(game: &Game, name: &str, who: &Seats) -> Picture {
    draw_grid(game.grid(), name, Some(game), who)
}

struct Layout {
    grid: Grid,
    geometry: tabletop::Geometry,
}

impl Layout {
    fn rect(&self, cell: u32) -> Option<Rect> {
        self.geometry.cell_of(cell).map(|c| self.grid.rect(c))
    }

    fn centre(&self, cell: u32) -> Option<Point> {
        self.rect(cell).map(|r| r.centre())
    }
}

fn legend(g: &tycoon::Grid, game: Option<&Game>, who: &Seats) -> Legend {
    let mut legend = Legend::new(LEGEND)
        .entry(Swatch::Ladder(palette::LADDER), "ladder")
        .entry(Swatch::Line(palette::CHUTE), "snake (head at its start)");
    let mut present: Vec<u8> = g.cards().map(|c| c.number()).collect();
    present.sort_unstable();
    present.dedup();
    let kinds: [(&[u8], &str); 5] = [
        (&[1, 8], "pay / prison"),
        (&[2, 5, 6], "move"),
        (&[3, 4], "extra or lost turn"),
        (&[7, 12], "restart / give station"),
        (&[9, 10, 11], "station"),
    ];
    for (cards, caption) in kinds {
        if let Some(&first) = cards.iter().find(|c| present.contains(c)) {
            legend = legend.entry(
                Swatch::Fill(card_colour(first).tint(CARD_TINT)),
                format!("card: {caption}"),
            );
        }
    }
    if let Some(game) = game {
        for seat in 1..=game.seats().len() as u8 {
            legend = legend.entry(
                Swatch::Dot(who.colour(usize::from(seat))),
                who.name(usize::from(seat)),
            );
        }
    }
    legend
}

fn subtitle(g: &tycoon::Grid, game: Option<&Game>) -> String {
    let (l, s, c) = g.counts();
    let mut text = format!(
        "{} · {} · {}",
        tabletop::count(l as u64, "ladder", "ladders"),
        tabletop::count(s as u64, "snake", "snakes"),
        tabletop::count(c as u64, "card", "cards")
    );
    let stations: Vec<String> = g
        .stations()
        .iter()
        .map(|t| format!("station {}: {} / fee {}", t.number, t.price, t.fee))
        .collect();
    if !stations.is_empty() {
        text.push_str(" · ");
        text.push_str(&stations.join(" · "));
    }
    if let Some(game) = game {
        text = format!("turn {} · {text}", game.turns());
    }
    text
}

fn draw_grid(g: &tycoon::Grid, name: &str, game: Option<&Game>, who: &Seats) -> Picture {
    let geometry = tycoon::cells::geometry();
    let (rows, cols) = (geometry.rows(), geometry.cols());
    let grid_w = CELL * f64::from(cols);
    let grid_h = CELL * f64::from(rows);
    let width = grid_w + 2.0 * MARGIN;
    let inner = width - 2.0 * MARGIN;
    let title_y = MARGIN + TITLE / 2.0;
    let subtitle_y = title_y + TITLE * 0.6 + SUBTITLE;
    let grid_top = subtitle_y + SUBTITLE * 1.4;
    let legend = legend(g, game, who);
    let legend_top = grid_top + grid_h + LEGEND;
    let legend_h = legend.height(inner);
    let panel_top = legend_top + legend_h + LEGEND;
    let panel_h = if game.is_some() {
        PANEL_LINE * (game.map_or(0, Game::count) as f64 + 1.0)
    } else {
        0.0
    };
    let height = panel_top + panel_h + MARGIN - if game.is_some() { 0.0 } else { LEGEND };
    let title = match game {
        Some(_) => format!("Snakes & Ladders Tycoon: a game on {name}"),
        None => format!("Snakes & Ladders Tycoon: {name}"),
    };
    let mut picture = Picture::new(width, height, title.as_str());
    picture.push(draw::title(width / 2.0, title_y, &title, TITLE, inner));
    let sub = subtitle(g, game);
    let sub_size = font::fit_size(&sub, inner, SUBTITLE, false);
    picture.push(
        draw::label(width / 2.0, subtitle_y, &sub, sub_size, Anchor::Middle)
            .fill(palette::MUTED)
            .class("subtitle"),
    );
    let layout = Layout {
        grid: Grid::new(MARGIN, grid_top, CELL, rows, cols),
        geometry,
    };
    picture.push(cells(g, game, &layout, who));
    picture.push(jumps(g, &layout));
    picture.push(labels(g, &layout));
    if let Some(game) = game {
        picture.push(tokens(game, &layout, who));
    }
    picture.push(legend.draw((width - legend.width(inner)) / 2.0, legend_top, inner));
    if let Some(game) = game {
        picture.push(panel(game, MARGIN, panel_top, inner, who));
    }
    picture
}

/// Every cell: its rectangle (coloured by its card), an owner's border.
fn cells(g: &tycoon::Grid, game: Option<&Game>, layout: &Layout, who: &Seats) -> Element {
    let mut out = group().class("cells");
    for cell in 1..=tycoon::cells::LAST {
        let (Some(c), Some(r)) = (layout.geometry.cell_of(cell), layout.rect(cell)) else {
            continue;
        };
        let card = g.card_at(cell);
        let fill = cell_fill(cell, card);
        let mut e = group()
            .class("cell")
            .data("cell", cell)
            .data("row", c.row)
            .data("col", c.col);
        let mut tip = format!("cell {cell}");
        if cell == 1 {
            tip.push_str(" (start)");
        }
        if cell == 99 {
            tip.push_str(" (goal)");
        }
        if let Some(end) = g.jump_at(cell) {
            let kind = if end > cell { "ladder" } else { "snake" };
            tip.push_str(&format!(": {kind} to {end}"));
        }
        e.push(r.element().fill(fill).stroke(palette::RULE, 1.0));
        if let Some(k) = card {
            e.set("data-card", k.number());
            tip.push_str(&format!(": card {}, {}", k.number(), k.describe()));
            if let CardKind::Station { number, .. } = k
                && let Some(owner) = game.and_then(|gm| gm.owner(number))
            {
                e.set("data-owner", owner);
                tip.push_str(&format!(", owned by {}", who.name(usize::from(owner))));
                e.push(
                    r.inset(2.5)
                        .element()
                        .attr("fill", "none")
                        .stroke(who.colour(usize::from(owner)), 4.0)
                        .class("owner"),
                );
            }
        }
        out.push(e.title(tip));
    }
    out
}

/// Snakes first, then ladders on top.
fn jumps(g: &tycoon::Grid, layout: &Layout) -> Element {
    let mut out = group().class("jumps").attr("opacity", 0.9);
    for s in g.snakes() {
        if let Some(e) = snake(s, layout) {
            out.push(e);
        }
    }
    for l in g.ladders() {
        if let Some(e) = ladder(l, layout) {
            out.push(e);
        }
    }
    out
}

fn ladder(l: Ladder, layout: &Layout) -> Option<Element> {
    let a = layout.centre(l.start)?;
    let b = layout.centre(l.end)?;
    Some(
        group()
            .class("ladder")
            .data("start", l.start)
            .data("end", l.end)
            .title(format!("ladder {}→{}", l.start, l.end))
            .child(draw::ladder(a, b, CELL))
            .child(
                draw::circle(a, CELL * 0.08)
                    .fill(palette::LADDER)
                    .stroke(palette::WHITE, 1.5),
            ),
    )
}

fn snake(s: Snake, layout: &Layout) -> Option<Element> {
    let head = layout.centre(s.start)?;
    let tail = layout.centre(s.end)?;
    let len = head.distance(tail).max(1e-9);
    let (ux, uy) = ((tail.x - head.x) / len, (tail.y - head.y) / len);
    let (nx, ny) = (-uy, ux);
    let waves = (len / (CELL * 1.1)).round().max(1.0);
    let amp = CELL * 0.16;
    let steps = 48;
    let mut body = PathData::new().move_to(head);
    for i in 1..=steps {
        let t = f64::from(i) / f64::from(steps);
        // The wave fades out at both ends so the body meets the centres.
        let envelope = (std::f64::consts::PI * t).sin();
        let w = amp * envelope * (2.0 * std::f64::consts::PI * waves * t).sin();
        body = body.line_to(head.lerp(tail, t).offset(nx * w, ny * w));
    }
    let colour = palette::CHUTE;
    let eye = CELL * 0.03;
    let eye_at = |side: f64| {
        head.offset(
            nx * side * CELL * 0.05 - ux * CELL * 0.02,
            ny * side * CELL * 0.05 - uy * CELL * 0.02,
        )
    };
    Some(
        group()
            .class("snake")
            .data("start", s.start)
            .data("end", s.end)
            .title(format!("snake {}→{}", s.start, s.end))
            .child(
                body.element()
                    .stroke(colour, CELL * 0.11)
                    .attr("stroke-linecap", "round")
                    .attr("stroke-linejoin", "round"),
            )
            .child(
                body.element()
                    .stroke(colour.tint(0.5), CELL * 0.035)
                    .attr("stroke-linecap", "round")
                    .attr(
                        "stroke-dasharray",
                        format!("{} {}", CELL * 0.06, CELL * 0.08),
                    ),
            )
            .child(draw::circle(tail, CELL * 0.04).fill(colour))
            .child(
                draw::circle(head, CELL * 0.12)
                    .fill(colour)
                    .class("snake-head"),
            )
            .child(draw::circle(eye_at(1.0), eye).fill(palette::WHITE))
            .child(draw::circle(eye_at(-1.0), eye).fill(palette::WHITE)),
    )
}

/// Cell numbers and card badges, over the jumps.
fn labels(g: &tycoon::Grid, layout: &Layout) -> Element {
    let mut out = group()
        .class("labels")
        .attr("stroke-linejoin", "round")
        .attr("paint-order", "stroke");
    let number_size = CELL * 0.2;
    let pad = CELL * 0.07;
    for cell in 1..=tycoon::cells::LAST {
        let Some(r) = layout.rect(cell) else {
            continue;
        };
        let card = g.card_at(cell);
        let under = cell_fill(cell, card);
        out.push(
            draw::label(
                r.x + pad,
                r.y + pad + number_size / 2.0,
                &cell.to_string(),
                number_size,
                Anchor::Start,
            )
            .attr("stroke", under)
            .attr("stroke-width", number_size * 0.25)
            .class("cell-number")
            .data("cell", cell),
        );
        let Some(kind) = card else {
            continue;
        };
        let colour = card_colour(kind.number());
        let badge_w = CELL * 0.34;
        let badge_h = CELL * 0.24;
        let bx = r.x + r.w - badge_w - pad * 0.6;
        let by = r.y + pad * 0.6;
        let caption = card_caption(kind);
        let cap_size = font::fit_size(&caption, r.w - 2.0 * pad, CELL * 0.17, true);
        out.push(
            group()
                .class("card")
                .data("cell", cell)
                .data("card", kind.number())
                .child(
                    draw::rect(bx, by, badge_w, badge_h)
                        .fill(colour)
                        .attr("rx", CELL * 0.05),
                )
                .child(
                    draw::bold_label(
                        bx + badge_w / 2.0,
                        by + badge_h / 2.0,
                        &kind.number().to_string(),
                        CELL * 0.17,
                        Anchor::Middle,
                    )
                    .fill(palette::WHITE),
                )
                .child(
                    draw::bold_label(
                        r.x + r.w / 2.0,
                        r.y + r.h - pad - cap_size / 2.0,
                        &caption,
                        cap_size,
                        Anchor::Middle,
                    )
                    .fill(caption_colour(colour))
                    .attr("stroke", under)
                    .attr("stroke-width", cap_size * 0.25),
                ),
        );
    }
    out
}

/// Each player's token, in a fixed slot per seat.
/// `1 turn`, `3 turns`.
fn turns(n: impl Into<u64>) -> String {
    tabletop::count(n.into(), "turn", "turns")
}

fn tokens(game: &Game, layout: &Layout, who: &Seats) -> Element {
    let mut out = group().class("tokens");
    for (i, p) in game.players().iter().enumerate() {
        let seat = i + 1;
        let Some(r) = layout.rect(p.cell) else {
            continue;
        };
        let centre = Point::new(r.x + CELL * (0.165 + 0.223 * i as f64), r.y + CELL * 0.57);
        let colour = who.colour(seat);
        let mut token = group()
            .class("token")
            .data("player", seat)
            .data("cell", p.cell)
            .title(format!(
                "{} on cell {}, {} {}",
                who.name(seat),
                p.cell,
                p.coins,
                tabletop::plural(p.coins.unsigned_abs(), "coin", "coins")
            ))
            .child(
                draw::circle(centre, CELL * 0.1)
                    .fill(colour)
                    .stroke(palette::WHITE, 1.5),
            )
            .child(
                draw::bold_label(
                    centre.x,
                    centre.y,
                    &seat.to_string(),
                    CELL * 0.13,
                    Anchor::Middle,
                )
                .fill(colour.text_on()),
            );
        if game.current() == Some(seat as u8) {
            token.set("data-current", "true");
            token.push(
                draw::circle(centre, CELL * 0.15)
                    .attr("fill", "none")
                    .stroke(colour, 1.5),
            );
        }
        out.push(token);
    }
    out
}

/// What the game waits for, in words.
fn status(game: &Game, who: &Seats) -> String {
    let name = |seat: u8| who.name(usize::from(seat));
    match (game.winner(), game.pending()) {
        (Some(w), _) => format!("{} won after {}", name(w), turns(game.turns())),
        (None, None) => format!("nobody won: stopped after {}", turns(game.turns())),
        (None, Some(d)) => match d {
            Decision::Roll { player, turn } => match turn {
                TurnKind::Move => format!("{} to roll", name(player)),
                TurnKind::Recharge => format!("{} to roll and recharge", name(player)),
                TurnKind::Lost => format!("{} loses this turn", name(player)),
                TurnKind::EmptyWallet => format!("{} has an empty wallet", name(player)),
            },
            Decision::RechargeOrAttack { player } => {
                format!("{}: recharge or attack?", name(player))
            }
            Decision::BuyOrPass {
                player,
                station,
                price,
            } => {
                format!("{}: buy station {station} for {price}?", name(player))
            }
            Decision::PayOrStay { player, fee } => {
                format!("{}: pay {fee} to leave prison, or stay?", name(player))
            }
        },
    }
}

/// The players panel.
fn panel(game: &Game, x: f64, top: f64, width: f64, who: &Seats) -> Element {
    let mut out = group().class("players");
    let size = 13.0;
    let head = status(game, who);
    out.push(
        draw::bold_label(
            x,
            top + PANEL_LINE / 2.0,
            &head,
            font::fit_size(&head, width, size, true),
            Anchor::Start,
        )
        .class("status"),
    );
    for (i, p) in game.players().iter().enumerate() {
        let seat = i + 1;
        let y = top + PANEL_LINE * (i as f64 + 1.5);
        let stations = game.stations_of(seat as u8);
        let mut parts = vec![
            who.name(seat),
            format!("cell {}", p.cell),
            format!(
                "{} {}",
                p.coins,
                tabletop::plural(p.coins.unsigned_abs(), "coin", "coins")
            ),
            turns(p.turns),
        ];
        if !stations.is_empty() {
            let s: Vec<String> = stations.iter().map(ToString::to_string).collect();
            parts.push(format!("stations {}", s.join(", ")));
        }
        if !p.attacks.is_empty() {
            let a: Vec<String> = p.attacks.iter().map(ToString::to_string).collect();
            parts.push(format!("used {}", a.join(", ")));
        }
        if p.lost_turns > 0 {
            parts.push(format!("{} to lose", turns(p.lost_turns)));
        }
        if p.fire_turns > 0 {
            parts.push(format!("burning {}", p.fire_turns));
        }
        if p.poison_turns > 0 {
            parts.push(format!("poisoned {}", p.poison_turns));
        }
        let text = parts.join(" · ");
        let text_x = x + size * 1.4;
        out.push(
            group()
                .class("player")
                .data("player", seat)
                .child(
                    draw::circle(Point::new(x + size * 0.5, y), size * 0.45).fill(who.colour(seat)),
                )
                .child(draw::label(
                    text_x,
                    y,
                    &text,
                    font::fit_size(&text, width - size * 1.4, size, false),
                    Anchor::Start,
                )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tycoon::{Seat, parse_grid};

    fn sample() -> tycoon::Grid {
        parse_grid(tycoon::SAMPLE_GRID).unwrap()
    }

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn turn_counts_agree_in_number() {
        assert_eq!(turns(0u32), "0 turns");
        assert_eq!(turns(1u32), "1 turn");
        assert_eq!(turns(2u32), "2 turns");
    }

    #[test]
    fn the_sample_grid_has_every_cell_object_and_card() {
        let p = grid(&sample(), "sample");
        let svg = p.to_svg();
        assert_eq!(count(&svg, "class=\"cell\""), 99);
        for cell in [1, 50, 99] {
            assert!(svg.contains(&format!("data-cell=\"{cell}\"")), "{cell}");
        }
        assert_eq!(count(&svg, "class=\"ladder\""), 4);
        assert_eq!(count(&svg, "class=\"snake\""), 4);
        assert_eq!(count(&svg, "class=\"card\""), 9);
        assert!(svg.contains("to 97"));
        assert!(svg.contains("50 · fee 10"));
        assert!(svg.contains("data-start=\"85\" data-end=\"30\""));
        assert!(!svg.contains("class=\"token\""));
        let png = crate::to_png(&p, Some(400)).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
    }

    #[test]
    fn cells_sit_where_the_geometry_puts_them() {
        let p = grid(&tycoon::Grid::empty(), "empty");
        let cells: Vec<&Element> = p
            .descendants()
            .into_iter()
            .filter(|e| e.get("class") == Some("cell"))
            .collect();
        let at = |n: u32| {
            let e = cells
                .iter()
                .find(|e| e.get("data-cell") == Some(&n.to_string()))
                .unwrap();
            (
                e.get("data-row").unwrap().to_string(),
                e.get("data-col").unwrap().to_string(),
            )
        };
        assert_eq!(at(1), ("8".into(), "0".into()));
        assert_eq!(at(11), ("8".into(), "10".into()));
        assert_eq!(at(12), ("7".into(), "0".into()));
        assert_eq!(at(99), ("0".into(), "10".into()));
    }

    #[test]
    fn a_game_shows_tokens_owners_and_the_players() {
        let g = Arc::new(sample());
        let mut game = Game::new(g, [Seat::Bot, Seat::Random, Seat::Human, Seat::Bot]);
        let mut dice = tabletop::SeededDice::new(3);
        while game.owner(9).is_none() && !game.is_over() {
            let mv = tycoon::bots::bot_move(&game, 3)
                .unwrap_or_else(|| tycoon::bots::Bot::choose(&tycoon::bots::DefaultBot, &game));
            let mv = if game.legal_moves().contains(&tycoon::Move::Buy) {
                tycoon::Move::Buy
            } else {
                mv
            };
            game.apply(mv, &mut dice).unwrap();
        }
        let owner = game.owner(9).unwrap();
        let svg = super::game(&game, "sample").to_svg();
        assert_eq!(count(&svg, "class=\"token\""), 4);
        assert_eq!(count(&svg, &format!("data-owner=\"{owner}\"")), 3);
        assert!(svg.contains("class=\"status\""));
        assert!(svg.contains(&format!("Player {owner} · ")));
        assert!(svg.contains("stations 9"));
        assert!(svg.contains("data-current=\"true\""));
        // Named and coloured as the seats say: the legend, the panel, the
        // tokens' tooltips.
        let who = Seats {
            names: vec!["Ada".into(), "Bo".into(), "Cy".into(), "Di".into()],
            colours: vec![2, 1, 3, 4],
        };
        let named = super::game_for(&game, "sample", &who).to_svg();
        assert!(named.contains("Ada · cell"), "the panel names Ada");
        assert!(named.contains("<title>Bo on cell"), "Bo's token's tooltip");
        assert!(!named.contains("P1") && !named.contains("Player 1"));
        let token_fill = |svg: &str| {
            let at = svg
                .find("class=\"token\" data-player=\"1\"")
                .expect("seat 1's token");
            svg[at..]
                .split("fill=\"")
                .nth(1)
                .map(|f| f[..7].to_string())
        };
        assert_eq!(token_fill(&named), Some(palette::player(2).to_string()));
    }
}
