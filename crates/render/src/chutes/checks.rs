//! Test helpers: structural checks on board pictures.

use crate::Picture;
use crate::svg::Element;
use chutes::Board;

/// Checks every square is numbered once, at its geometry's cell, and
/// every jump is drawn once in its colour.
pub(crate) fn check_board_picture(board: &Board, picture: &Picture) {
    let all = picture.descendants();
    let squares: Vec<&Element> = all
        .iter()
        .copied()
        .filter(|e| e.get("class") == Some("square"))
        .collect();
    assert_eq!(squares.len(), board.size() as usize);
    let g = board.geometry();
    let mut seen = vec![false; board.size() as usize + 1];
    for sq in &squares {
        let n: u32 = sq.get("data-square").unwrap().parse().unwrap();
        assert!(!seen[n as usize], "square {n} twice");
        seen[n as usize] = true;
        let cell = g.cell_of(n).unwrap();
        assert_eq!(sq.get("data-row"), Some(cell.row.to_string().as_str()));
        assert_eq!(sq.get("data-col"), Some(cell.col.to_string().as_str()));
        let rect = sq.elements().find(|e| e.name() == "rect").unwrap();
        let texts: Vec<&&Element> = all
            .iter()
            .filter(|e| {
                e.get("class") == Some("square-number")
                    && e.get("data-square") == Some(n.to_string().as_str())
            })
            .collect();
        assert_eq!(texts.len(), 1, "square {n} numbered {} times", texts.len());
        let text = *texts[0];
        assert_eq!(text.own_text(), n.to_string());
        let f = |e: &Element, k: &str| -> f64 { e.get(k).unwrap().parse().unwrap() };
        let (x, y, w) = (f(rect, "x"), f(rect, "y"), f(rect, "width"));
        let (tx, ty) = (f(text, "x"), f(text, "y"));
        assert!(tx > x && tx < x + w && ty > y && ty < y + w, "square {n}");
        // Cells are laid out by the geometry: column and row from x, y.
        let col = ((x - squares_left(&squares)) / w).round() as u32;
        let row = ((y - squares_top(&squares)) / w).round() as u32;
        assert_eq!((row, col), (cell.row, cell.col), "square {n}");
        // The number fits in the cell.
        let size = f(text, "font-size");
        assert!(crate::font::text_width(&n.to_string(), size, false) < w * 0.9);
    }
    let jumps: Vec<&Element> = all
        .iter()
        .copied()
        .filter(|e| e.get("class").is_some_and(|c| c.starts_with("jump ")))
        .collect();
    assert_eq!(jumps.len(), board.jumps().len());
    for jump in board.jumps() {
        let drawn: Vec<_> = jumps
            .iter()
            .filter(|e| {
                e.get("data-jump-from") == Some(jump.from.to_string().as_str())
                    && e.get("data-jump-to") == Some(jump.to.to_string().as_str())
            })
            .collect();
        assert_eq!(drawn.len(), 1, "{jump}");
        let kind = jump.kind().to_string();
        assert_eq!(drawn[0].get("data-kind"), Some(kind.as_str()));
        let colour = super::frame::jump_colour(jump.kind()).to_string();
        let strokes: Vec<&str> = drawn[0]
            .descendants()
            .iter()
            .filter_map(|e| e.get("stroke").or(e.get("fill")))
            .collect();
        assert!(strokes.contains(&colour.as_str()), "{jump}: {strokes:?}");
    }
}

fn squares_left(squares: &[&Element]) -> f64 {
    squares
        .iter()
        .map(|s| {
            s.elements()
                .next()
                .unwrap()
                .get("x")
                .unwrap()
                .parse::<f64>()
                .unwrap()
        })
        .fold(f64::INFINITY, f64::min)
}

fn squares_top(squares: &[&Element]) -> f64 {
    squares
        .iter()
        .map(|s| {
            s.elements()
                .next()
                .unwrap()
                .get("y")
                .unwrap()
                .parse::<f64>()
                .unwrap()
        })
        .fold(f64::INFINITY, f64::min)
}
