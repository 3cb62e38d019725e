//! The box printed in the original assignment's style.
//!
//! Terms:
//! - **box text**: the top holes on the first line, then one line per row
//!   (left hole, the cells, right hole), then the bottom holes, exactly as
//!   the original assignment prints the fixed game. Cells are `.` (empty or
//!   unknown to the player), `/` or `\`; other marks may be passed in (the
//!   solver prints `?` for cells it cannot decide).
//! - Left labels are right-aligned when some have two digits (n ≥ 11) so the
//!   cells stay in columns; for n ≤ 10 the text is the original assignment's,
//!   byte for byte.

use crate::game::{Status, View};
use crate::geometry::{Cell, Size};
use crate::layout::{Layout, Mirror};
use std::fmt::Write as _;

/// The box with `mark(cell)` in each cell.
pub fn box_text(size: Size, mark: impl Fn(Cell) -> char) -> String {
    let n = size.n();
    let label_width = (n - 1).to_string().len();
    let mut s = String::new();
    let top: Vec<String> = (n..2 * n).map(|h| h.to_string()).collect();
    s.push_str(&top.join(" "));
    s.push('\n');
    for row in 0..n {
        let _ = write!(s, "{:>label_width$}", n - 1 - row);
        for col in 0..n {
            s.push(' ');
            s.push(mark(Cell::new(row as u32, col as u32)));
        }
        let _ = writeln!(s, " {}", 2 * n + row);
    }
    let bottom: Vec<String> = (3 * n..4 * n).rev().map(|h| h.to_string()).collect();
    s.push_str(&bottom.join(" "));
    s.push('\n');
    s
}

/// A layout's box with its mirrors shown (the original assignment's display).
pub fn layout_text(layout: &Layout) -> String {
    box_text(layout.size(), |c| layout.get(c).map_or('.', Mirror::symbol))
}

/// A player's view: the box with the mirrors found (every mirror once the
/// game is over), then the shots, guesses and score.
pub fn view_text(view: &View) -> String {
    let Ok(size) = Size::new(view.size) else {
        return String::new();
    };
    let shown: Vec<(Cell, Mirror)> = view
        .found
        .iter()
        .chain(view.missed.iter().flatten())
        .map(|p| (p.cell, p.mirror))
        .collect();
    let mut s = box_text(size, |c| {
        shown
            .iter()
            .find(|(cell, _)| *cell == c)
            .map_or('.', |(_, m)| m.symbol())
    });
    let shots: Vec<String> = view
        .shots
        .iter()
        .map(|shot| match shot.deflections {
            Some(d) => format!("{}->{} ({d})", shot.hole, shot.exit),
            None => format!("{}->{}", shot.hole, shot.exit),
        })
        .collect();
    if shots.is_empty() {
        s.push_str("Shots: none\n");
    } else {
        let _ = writeln!(s, "Shots: {}", shots.join(" "));
    }
    let guesses: Vec<String> = view
        .guesses
        .iter()
        .map(|g| {
            format!(
                "{}={} {}",
                g.cell,
                g.mirror,
                if g.right { "right" } else { "wrong" }
            )
        })
        .collect();
    if !guesses.is_empty() {
        let _ = writeln!(s, "Guesses: {}", guesses.join(", "));
    }
    let _ = writeln!(
        s,
        "Found {} of {}. Score {}.",
        view.found.len(),
        tabletop::count(view.mirrors as u64, "mirror", "mirrors"),
        view.score
    );
    if let Some(missed) = &view.missed {
        let missed: Vec<String> = missed
            .iter()
            .map(|m| format!("{}={}", m.cell, m.mirror))
            .collect();
        match view.status {
            Status::Won => s.push_str("Won: every mirror found.\n"),
            _ if missed.is_empty() => s.push_str("Game over.\n"),
            _ => {
                let _ = writeln!(s, "Given up. Not found: {}.", missed.join(" "));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Setup};

    /// The original assignment's printed box for the fixed game, byte for
    /// byte.
    const ORIGINAL_BOX: &str = r"10 11 12 13 14 15 16 17 18 19
9 . . . . . . . . . \ 20
8 . . . . . . . . . . 21
7 . . . . . . . . . . 22
6 . . . . . . . . . . 23
5 . . / . . . . . . . 24
4 . . . . . . . . . . 25
3 \ . . . . . . . . . 26
2 . . . . . . . . . . 27
1 . . / . . . . \ . . 28
0 . . . . . . . . . . 29
39 38 37 36 35 34 33 32 31 30
";

    #[test]
    fn the_fixed_game_prints_as_in_the_original() {
        assert_eq!(layout_text(&Layout::fixed()), ORIGINAL_BOX);
    }

    #[test]
    fn labels_scale_with_the_box() {
        let t = box_text(Size::new(4).unwrap(), |_| '.');
        assert_eq!(
            t,
            "4 5 6 7\n3 . . . . 8\n2 . . . . 9\n1 . . . . 10\n0 . . . . 11\n15 14 13 12\n"
        );
        let t = box_text(Size::new(12).unwrap(), |_| '.');
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[1], "11 . . . . . . . . . . . . 24");
        assert_eq!(lines[12], " 0 . . . . . . . . . . . . 35");
        assert_eq!(lines[13].split(' ').next(), Some("47"));
    }

    #[test]
    fn views_show_found_mirrors_then_everything() {
        let mut g = Game::new(Setup::default()).unwrap();
        for m in ["shoot 5", "guess 4 2 /", "guess 1 1 /"] {
            g.apply(m.parse().unwrap()).unwrap();
        }
        let t = view_text(&g.view());
        assert!(t.contains("5 . . / . ."), "{t}");
        assert!(!t.contains('\\'), "an unfound mirror leaked:\n{t}");
        assert!(t.contains("Shots: 5->12\n"), "{t}");
        assert!(t.contains("<4,2>=/ right, <1,1>=/ wrong"), "{t}");
        assert!(
            t.contains("Found 1 of 5 mirrors. Score 3 (1 shot, 1 wrong guess)."),
            "{t}"
        );
        g.apply("quit".parse().unwrap()).unwrap();
        let t = view_text(&g.view());
        assert!(
            t.starts_with(&ORIGINAL_BOX[..ORIGINAL_BOX.len() - 31]),
            "{t}"
        );
        assert!(t.contains("Shots: 5->12 (1)"), "{t}");
        assert!(
            t.contains("Not found: <0,9>=\\ <6,0>=\\ <8,2>=/ <8,7>=\\."),
            "{t}"
        );
    }

    #[test]
    fn one_mirror_is_one_mirror() {
        let g = Game::new(Setup::seeded(4, 1, crate::Sides::All, 1)).unwrap();
        let t = view_text(&g.view());
        assert!(t.contains("Found 0 of 1 mirror. Score 0"), "{t}");
    }
}
