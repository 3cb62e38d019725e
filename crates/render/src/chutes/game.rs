//! A game drawn on its board: a circle on every square a token landed on,
//! numbered by that player's roll, jumps highlighted, the winner starred.
//!
//! Terms:
//! - **visit**: one roll that moved a token: a circle on the square the
//!   count reached (before any jump), in the player's colour, numbered by the
//!   player's own roll count (lost turns count, as in the game's log).
//! - **slot**: where a visit's circle sits inside its square; visits to one
//!   square (by any player) get separate slots, so none hides another.
//! - **trail**: a thin line joining one player's visits in order ("fancy"
//!   style in the Java assignment).

use super::frame::{Frame, LEGEND, board_facts, board_legend, board_name, jump_colour, plain_fill};
use crate::draw::{self, Anchor, Legend, PathData, Point, Rect, Swatch};
use crate::font;
use crate::palette;
use crate::seats::Seats;
use crate::svg::{Element, group};
use crate::{Picture, RenderError};
use chutes::{Board, Outcome, Turn};
use std::collections::BTreeMap;

/// Options for [`game_with`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameStyle {
    /// Join each player's visits with a thin line.
    pub trails: bool,
    /// A subtitle to use instead of the board's facts (say, the seed and
    /// rules).
    pub subtitle: Option<String>,
    /// The players' names and colours, for the title, the legend, the
    /// circles and their tooltips ("Player N" and seat order by default).
    pub seats: Seats,
}

impl Default for GameStyle {
    fn default() -> Self {
        Self {
            trails: true,
            subtitle: None,
            seats: Seats::default(),
        }
    }
}

/// One visit: a turn that moved a token onto the board.
struct Visit<'a> {
    turn: &'a Turn,
    /// The player's own roll count at this turn.
    own_roll: u32,
    centre: Point,
    r: f64,
}

/// The picture of a game on `board` for `players` players, from its turns
/// (as [`chutes::Game::replay`] or [`chutes::Game::play`] returned them), with
/// the board's facts as subtitle, and trails for 1 or 2 players (more make
/// a tangle).
///
/// # Errors
/// As [`game_with`].
pub fn game(board: &Board, players: usize, turns: &[Turn]) -> Result<Picture, RenderError> {
    let style = GameStyle {
        trails: players <= 2,
        ..GameStyle::default()
    };
    game_with(board, players, turns, &style)
}

/// The picture of a game, with options.
///
/// # Errors
/// [`RenderError::TooBig`] for a board too big to draw (see
/// [`super::MAX_SQUARES`]).
pub fn game_with(
    board: &Board,
    players: usize,
    turns: &[Turn],
    style: &GameStyle,
) -> Result<Picture, RenderError> {
    let seats = turns
        .iter()
        .map(|t| usize::from(t.player))
        .max()
        .unwrap_or(0)
        .max(players)
        .max(1);
    let winner = turns
        .iter()
        .rev()
        .find(|t| t.outcome == Outcome::Won)
        .map(|t| t.player);
    let mut own_rolls = vec![0u32; seats + 1];
    let mut tallies = vec![Tally::default(); seats + 1];
    for t in turns {
        let p = usize::from(t.player).min(seats);
        own_rolls[p] += 1;
        tallies[p].rolls += 1;
        match t.jump.map(|j| j.kind()) {
            Some(chutes::JumpKind::Ladder) => tallies[p].ladders += 1,
            Some(chutes::JumpKind::Chute) => tallies[p].chutes += 1,
            None => {}
        }
        if t.outcome == Outcome::LostTurn {
            tallies[p].lost += 1;
        }
    }

    let names: Vec<String> = (1..=seats).map(|s| style.seats.name(s)).collect();
    let who = &style.seats;
    let title = game_title(board, &names, turns.len(), winner);
    let subtitle = style.subtitle.clone().unwrap_or_else(|| board_facts(board));
    let legend = game_legend(board, who, &names, &tallies, winner);
    let mut frame = Frame::new(board, &title, &subtitle, &legend, 0.0)?;
    let squares = frame.squares(board, plain_fill(board, frame.geometry));
    let jumps = frame.jumps(board, 0.85);
    frame.picture.push(squares.cells);
    frame.picture.push(jumps);
    frame.picture.push(squares.numbers);

    let visits = place_visits(&frame, turns);
    let cell = frame.cell();
    if style.trails {
        frame.picture.push(trails(&frame, &visits, seats, who));
    }
    frame.picture.push(jump_arrows(&frame, &visits, who));
    let mut circles = group().class("visits");
    for v in &visits {
        circles.push(visit(v, winner, who));
    }
    if let Some(last) = visits.last()
        && last.turn.outcome == Outcome::Won
        && last.turn.landed != last.turn.to
        && let Some(body) = frame.body(last.turn.to)
    {
        // Won by a jump onto the finish: star the finish too.
        circles.push(winner_mark(last, body.centre(), cell * 0.16, who));
    }
    frame.picture.push(circles);
    Ok(frame.picture)
}

#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    rolls: u32,
    ladders: u32,
    chutes: u32,
    lost: u32,
}

/// "Ada wins after 30 rolls: classic board". The outcome comes first
/// (as in the plots' "How long a game lasts: classic board"), so the
/// board's name, often a file name, is written as it is.
fn game_title(board: &Board, names: &[String], rolls: usize, winner: Option<u8>) -> String {
    let seats = names.len();
    let name = board_name(board);
    let n = rolls;
    let rolls = tabletop::count(n as u64, "roll", "rolls");
    match winner {
        Some(_) if seats == 1 => format!("A game of {rolls}: {name}"),
        Some(w) => format!(
            "{} wins after {rolls}: {name}",
            tabletop::play::seat_name(names, w)
        ),
        None if n == 0 => format!("No rolls yet: {name}"),
        None => format!("{rolls}, no winner yet: {name}"),
    }
}

fn game_legend(
    board: &Board,
    who: &Seats,
    names: &[String],
    tallies: &[Tally],
    winner: Option<u8>,
) -> Legend {
    let seats = names.len();
    let mut legend = Legend::new(LEGEND);
    for seat in 1..=seats {
        let t = tallies.get(seat).copied().unwrap_or_default();
        let mut caption = format!(
            "{}: {} roll{}",
            names[seat - 1],
            t.rolls,
            if t.rolls == 1 { "" } else { "s" }
        );
        let plural = |n: u32, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
        if t.ladders + t.chutes > 0 {
            caption.push_str(&format!(
                ", {}, {}",
                plural(t.ladders, "ladder"),
                plural(t.chutes, "chute")
            ));
        }
        if t.lost > 0 {
            caption.push_str(&format!(", {} lost", t.lost));
        }
        if winner == Some(seat as u8) {
            caption.push_str(if seats == 1 {
                " — finished"
            } else {
                " — winner"
            });
        }
        let caption = if seats == 1 {
            caption.replacen(&format!("{}: ", names[0]), "", 1)
        } else {
            caption
        };
        legend = legend.entry(Swatch::Dot(who.colour(seat)), caption);
    }
    let board_entries = board_legend(board);
    let mut legend = legend.extend_from(&board_entries);
    if winner.is_some() {
        legend = legend.entry(Swatch::Star(palette::START), "reached the finish");
    }
    legend
}

/// Places every visit's circle in a slot of its square.
fn place_visits<'a>(frame: &Frame, turns: &'a [Turn]) -> Vec<Visit<'a>> {
    let mut own = BTreeMap::<u8, u32>::new();
    let mut per_square = BTreeMap::<u32, Vec<usize>>::new();
    let mut pending: Vec<(&Turn, u32)> = Vec::new();
    for t in turns {
        let n = own.entry(t.player).or_default();
        *n += 1;
        if t.outcome == Outcome::LostTurn || frame.rect(t.landed).is_none() {
            continue;
        }
        per_square.entry(t.landed).or_default().push(pending.len());
        pending.push((t, *n));
    }
    let mut slots = vec![(Point::default(), 0.0); pending.len()];
    let cell = frame.cell();
    for (&square, indices) in &per_square {
        let Some(body) = frame.body(square) else {
            continue;
        };
        for (k, (centre, r)) in slot_layout(body, indices.len(), cell * 0.2)
            .into_iter()
            .enumerate()
        {
            if let Some(&i) = indices.get(k) {
                slots[i] = (centre, r);
            }
        }
    }
    pending
        .into_iter()
        .zip(slots)
        .map(|((turn, own_roll), (centre, r))| Visit {
            turn,
            own_roll,
            centre,
            r,
        })
        .collect()
}

/// Centres and a radius for `n` circles in `area`: the grid of columns ×
/// rows that gives the biggest circles, radius at most `max_r`.
fn slot_layout(area: Rect, n: usize, max_r: f64) -> Vec<(Point, f64)> {
    if n == 0 {
        return Vec::new();
    }
    let mut best = (1usize, n, 0.0f64);
    for cols in 1..=n {
        let rows = n.div_ceil(cols);
        let r = (area.w / cols as f64).min(area.h / rows as f64) / 2.0;
        if r > best.2 {
            best = (cols, rows, r);
        }
    }
    let (cols, rows, r) = best;
    let r_drawn = (r * 0.92).min(max_r);
    let (cw, ch) = (2.0 * r, 2.0 * r);
    let x0 = area.x + (area.w - cw * cols as f64) / 2.0;
    let y0 = area.y + (area.h - ch * rows as f64) / 2.0;
    (0..n)
        .map(|i| {
            let (row, col) = (i / cols, i % cols);
            (
                Point::new(x0 + cw * (col as f64 + 0.5), y0 + ch * (row as f64 + 0.5)),
                r_drawn,
            )
        })
        .collect()
}

/// Thin lines joining each player's visits in order; a jump breaks the line
/// (its arrow is drawn separately) and the line picks up from the jump's end.
fn trails(frame: &Frame, visits: &[Visit<'_>], seats: usize, who: &Seats) -> Element {
    let mut g = group().class("trails").attr("opacity", 0.45);
    let width = (frame.cell() * 0.03).max(0.4);
    for seat in 1..=seats {
        let mut d = PathData::new();
        let mut resume: Option<Point> = None;
        for v in visits.iter().filter(|v| usize::from(v.turn.player) == seat) {
            if d.is_empty() {
                d = d.move_to(v.centre);
            } else {
                if let Some(p) = resume.take() {
                    d = d.move_to(p);
                }
                d = d.line_to(v.centre);
            }
            if v.turn.jump.is_some() {
                resume = frame.centre(v.turn.to);
            }
        }
        if !d.is_empty() {
            g.push(
                d.element()
                    .stroke(who.colour(seat), width)
                    .attr("stroke-linejoin", "round")
                    .attr("stroke-linecap", "round")
                    .data("player", seat),
            );
        }
    }
    g
}

/// A dashed arrow in the player's colour along every jump taken.
fn jump_arrows(frame: &Frame, visits: &[Visit<'_>], who: &Seats) -> Element {
    let mut g = group().class("jumps-taken");
    let width = (frame.cell() * 0.05).max(0.5);
    for v in visits {
        let (Some(jump), Some(to)) = (v.turn.jump, frame.centre(v.turn.to)) else {
            continue;
        };
        let colour = who.colour(usize::from(v.turn.player));
        let bend = if jump.kind() == chutes::JumpKind::Chute {
            0.12
        } else {
            -0.12
        };
        g.push(
            draw::curved_arrow(v.centre, to, bend, colour, width)
                .attr(
                    "stroke-dasharray",
                    format!(
                        "{} {}",
                        crate::svg::num(width * 3.0),
                        crate::svg::num(width * 2.0)
                    ),
                )
                .data("player", v.turn.player)
                .data("turn", v.turn.number)
                .data("jump-from", jump.from)
                .data("jump-to", jump.to)
                .data("kind", jump.kind().to_string()),
        );
    }
    g
}

/// A star on the finish with the winner's circle on it.
fn winner_mark(v: &Visit<'_>, centre: Point, r: f64, who: &Seats) -> Element {
    let p = usize::from(v.turn.player);
    let name = who.name(p);
    // The name's first letter (the colour tells two alike apart).
    let initial: String = name
        .chars()
        .next()
        .into_iter()
        .flat_map(char::to_uppercase)
        .collect();
    group()
        .class("winner")
        .data("player", v.turn.player)
        .data("square", v.turn.to)
        .child(draw::star(centre, r * 1.75, palette::START).stroke(palette::INK, r * 0.08))
        .child(
            draw::circle(centre, r)
                .fill(who.colour(p))
                .stroke(palette::WHITE, r * 0.08),
        )
        .child(
            draw::bold_label(
                centre.x,
                centre.y,
                &initial,
                font::fit_size(&initial, r * 1.55, r * 1.1, true),
                Anchor::Middle,
            )
            .fill(palette::WHITE),
        )
        .title(format!("{name} wins"))
}

/// One visit's circle, numbered, with a ring in the jump's colour when the
/// square started a jump and a star when it won.
fn visit(v: &Visit<'_>, winner: Option<u8>, who: &Seats) -> Element {
    let t = v.turn;
    let colour = who.colour(usize::from(t.player));
    let mut g = group()
        .class("visit")
        .data("player", t.player)
        .data("roll", v.own_roll)
        .data("turn", t.number)
        .data("die", t.roll)
        .data("square", t.landed)
        .data("to", t.to);
    let won = t.outcome == Outcome::Won && winner == Some(t.player);
    if won {
        g.set("data-winner", "true");
        g.push(draw::star(v.centre, v.r * 1.75, palette::START).stroke(palette::INK, v.r * 0.08));
    }
    if let Some(jump) = t.jump {
        g.set("data-kind", jump.kind().to_string());
        g.push(
            draw::circle(v.centre, v.r * 1.18)
                .fill("none")
                .stroke(jump_colour(jump.kind()), v.r * 0.32),
        );
    }
    g.push(
        draw::circle(v.centre, v.r)
            .fill(colour)
            .stroke(palette::WHITE, (v.r * 0.08).max(0.2)),
    );
    let text = v.own_roll.to_string();
    let size = font::fit_size(&text, v.r * 1.55, v.r * 1.15, true);
    g.push(
        draw::bold_label(v.centre.x, v.centre.y, &text, size, Anchor::Middle).fill(palette::WHITE),
    );
    let what = match (t.jump, t.outcome) {
        (Some(j), Outcome::Won) => {
            format!(
                ", then the {} from {} to {}, and wins",
                j.kind(),
                j.from,
                j.to
            )
        }
        (Some(j), _) => format!(", then the {} from {} to {}", j.kind(), j.from, j.to),
        (None, Outcome::Won) => " and wins".into(),
        _ => String::new(),
    };
    g.title(format!(
        "{}'s roll {} (roll {} of the game): {}, from {} to {}{what}",
        who.name(usize::from(t.player)),
        v.own_roll,
        t.number,
        t.roll,
        t.from,
        t.landed
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chutes::checks::check_board_picture;
    use chutes::{Game, Rules};
    use std::sync::Arc;
    use tabletop::SeededDice;

    fn play(board: &Board, players: usize, seed: u64) -> Vec<Turn> {
        let mut game = Game::new(Arc::new(board.clone()), Rules::default(), players).unwrap();
        let mut dice = SeededDice::new(seed);
        let mut turns = Vec::new();
        while game.winner().is_none() {
            turns.push(game.play(&mut dice).unwrap());
        }
        turns
    }

    fn num(e: &Element, key: &str) -> f64 {
        e.get(key).unwrap().parse().unwrap()
    }

    #[test]
    fn every_landing_is_a_numbered_circle_in_its_square() {
        let board = Board::classic();
        for players in 1..=8 {
            let turns = play(&board, players, 7 + players as u64);
            let pic = game(&board, players, &turns).unwrap();
            check_board_picture(&board, &pic);
            let all = pic.descendants();
            let squares: Vec<&Element> = all
                .iter()
                .copied()
                .filter(|e| e.get("class") == Some("square"))
                .collect();
            let visits: Vec<&Element> = all
                .iter()
                .copied()
                .filter(|e| e.get("class") == Some("visit"))
                .collect();
            let moved: Vec<&Turn> = turns
                .iter()
                .filter(|t| t.outcome != Outcome::LostTurn)
                .collect();
            assert_eq!(visits.len(), moved.len(), "{players} players");
            let mut own = [0u32; 9];
            let mut next_visit = visits.iter();
            for t in &turns {
                own[usize::from(t.player)] += 1;
                if t.outcome == Outcome::LostTurn {
                    continue;
                }
                let v = next_visit.next().unwrap();
                assert_eq!(v.get("data-player"), Some(t.player.to_string().as_str()));
                assert_eq!(v.get("data-turn"), Some(t.number.to_string().as_str()));
                assert_eq!(
                    v.get("data-roll"),
                    Some(own[usize::from(t.player)].to_string().as_str())
                );
                // The circle is in the player's colour, numbered by the roll,
                // and inside the square landed on.
                let circle = v
                    .elements()
                    .filter(|e| e.name() == "circle")
                    .find(|e| {
                        e.get("fill")
                            == Some(palette::player(usize::from(t.player)).to_string().as_str())
                    })
                    .unwrap();
                let text = v.elements().find(|e| e.name() == "text").unwrap();
                assert_eq!(text.own_text(), own[usize::from(t.player)].to_string());
                let sq = squares
                    .iter()
                    .find(|s| s.get("data-square") == Some(t.landed.to_string().as_str()))
                    .unwrap();
                let rect = sq.elements().find(|e| e.name() == "rect").unwrap();
                let (cx, cy, r) = (num(circle, "cx"), num(circle, "cy"), num(circle, "r"));
                let (x, y, w) = (num(rect, "x"), num(rect, "y"), num(rect, "width"));
                assert!(
                    cx - r >= x - 0.01 && cx + r <= x + w + 0.01,
                    "turn {}",
                    t.number
                );
                assert!(
                    cy - r >= y - 0.01 && cy + r <= y + w + 0.01,
                    "turn {}",
                    t.number
                );
                // A jump taken gets a ring in the jump's colour.
                if let Some(j) = t.jump {
                    let ring = jump_colour(j.kind()).to_string();
                    assert!(v.elements().any(|e| e.get("stroke") == Some(ring.as_str())));
                }
            }
            let taken = all
                .iter()
                .filter(|e| e.get("class") == Some("arrow") && e.get("data-turn").is_some())
                .count();
            assert_eq!(taken, turns.iter().filter(|t| t.jump.is_some()).count());
            let winners = all
                .iter()
                .filter(|e| e.get("data-winner") == Some("true"))
                .count();
            assert_eq!(winners, 1);
            let w = turns.last().unwrap().player;
            assert!(pic.to_svg().contains(&if players == 1 {
                format!("A game of {} rolls: ", turns.len())
            } else {
                format!("Player {w} wins after {} rolls: ", turns.len())
            }));
        }
    }

    #[test]
    fn visits_to_one_square_do_not_overlap() {
        let area = Rect::new(0.0, 0.0, 60.0, 40.0);
        for n in 1..=30 {
            let slots = slot_layout(area, n, 12.0);
            assert_eq!(slots.len(), n);
            for (i, (a, r)) in slots.iter().enumerate() {
                assert!(
                    a.x - r >= -1e-9
                        && a.x + r <= 60.0 + 1e-9
                        && a.y - r >= -1e-9
                        && a.y + r <= 40.0 + 1e-9
                );
                for (b, _) in &slots[i + 1..] {
                    assert!(a.distance(*b) >= 2.0 * r - 1e-9, "{n} visits");
                }
            }
        }
    }

    #[test]
    fn a_file_name_in_the_title_is_written_as_it_is() {
        let board = Board::new(chutes::BoardSpec {
            name: Some("trap.toml".into()),
            size: 10,
            ..Default::default()
        })
        .unwrap();
        let (_, turns) =
            Game::replay(Arc::new(board.clone()), Rules::default(), 1, &[4, 5, 1]).unwrap();
        let svg = game(&board, 1, &turns).unwrap().to_svg();
        assert!(
            svg.contains("<title>A game of 3 rolls: trap.toml board</title>"),
            "{svg}"
        );
        assert!(!svg.contains("Trap.toml"));
        let svg = game(&board, 1, &turns[..1]).unwrap().to_svg();
        assert!(
            svg.contains("1 roll, no winner yet: trap.toml board"),
            "{svg}"
        );
    }

    #[test]
    fn unfinished_and_empty_games_draw() {
        let board = Board::classic();
        let (_, turns) =
            Game::replay(Arc::new(board.clone()), Rules::default(), 2, &[1, 2, 3]).unwrap();
        let pic = game(&board, 2, &turns).unwrap();
        assert!(pic.to_svg().contains("3 rolls, no winner yet"));
        let pic = game(&board, 3, &[]).unwrap();
        assert!(pic.to_svg().contains("No rolls yet"));
        // A ladder onto the finish stars the finish too.
        let small = Board::new(chutes::BoardSpec {
            size: 10,
            jumps: vec![chutes::Jump::new(8, 10)],
            ..Default::default()
        })
        .unwrap();
        let (_, turns) =
            Game::replay(Arc::new(small.clone()), Rules::default(), 1, &[4, 4]).unwrap();
        let pic = game(&small, 1, &turns).unwrap();
        let all = pic.descendants();
        let mark = all
            .iter()
            .find(|e| e.get("class") == Some("winner"))
            .unwrap();
        assert_eq!(mark.get("data-square"), Some("10"));
    }
}
