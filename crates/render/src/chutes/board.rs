//! A board on its own: numbered squares, ladders and chutes, a legend.

use super::frame::{Frame, board_facts, board_legend, board_name, plain_fill};
use crate::{Picture, RenderError};
use chutes::Board;

/// The picture of `board`: every square numbered at its place in the
/// board's geometry, ladders as green ladders, chutes as blue slides,
/// square 1 and the finish coloured, a title, the board's facts and a
/// legend.
///
/// # Errors
/// [`RenderError::TooBig`] for a board beyond [`super::MAX_SQUARES`] squares
/// or [`super::MAX_SIDE`] rows or columns.
pub fn board(board: &Board) -> Result<Picture, RenderError> {
    let legend = board_legend(board);
    let mut frame = Frame::new(
        board,
        &format!("Chutes & Ladders: {}", board_name(board)),
        &board_facts(board),
        &legend,
        0.0,
    )?;
    let squares = frame.squares(board, plain_fill(board, frame.geometry));
    let jumps = frame.jumps(board, 1.0);
    frame.picture.push(squares.cells);
    frame.picture.push(jumps);
    frame.picture.push(squares.numbers);
    Ok(frame.picture)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chutes::checks::check_board_picture;
    use chutes::{BoardSpec, Jump};
    use tabletop::{Geometry, Numbering};

    fn spec(size: u32, start: u32, jumps: &[(u32, u32)], geometry: Option<Geometry>) -> Board {
        Board::new(BoardSpec {
            name: Some("test <&>".into()),
            size,
            start,
            jumps: jumps.iter().map(|&(a, b)| Jump::new(a, b)).collect(),
            geometry,
        })
        .unwrap()
    }

    #[test]
    fn the_classic_board_is_drawn_in_full() {
        let b = Board::classic();
        let p = board(&b).unwrap();
        check_board_picture(&b, &p);
        // As in the Java assignment: square 100 top-left, square 1
        // bottom-left, square 42 at row 6, column 2 (1-based).
        let svg = p.to_svg();
        assert!(svg.contains("classic board"));
        assert!(svg.contains("9 ladders · 10 chutes"));
    }

    #[test]
    fn every_shape_of_board_is_drawn() {
        let boards = [
            spec(144, 0, &[(3, 130), (140, 2)], None),
            spec(400, 0, &[(5, 395), (399, 1)], None),
            spec(
                30,
                1,
                &[(2, 29), (28, 3)],
                Some(Geometry::new(5, 6, Numbering::Boustrophedon).unwrap()),
            ),
            spec(
                99,
                0,
                &[(10, 32), (90, 68)],
                Some(Geometry::new(9, 11, Numbering::RowMajor).unwrap()),
            ),
            spec(101, 0, &[], None),
            // The minimum-throws assignment's board: a chute back to 0.
            spec(29, 0, &[(1, 7), (26, 0), (21, 4)], None),
            spec(2, 0, &[], None),
            spec(
                7,
                0,
                &[(2, 3)],
                Some(Geometry::new(1, 7, Numbering::RowMajor).unwrap()),
            ),
        ];
        for b in &boards {
            let p = board(b).unwrap();
            check_board_picture(b, &p);
            let svg = p.to_svg();
            assert!(svg.contains("test &lt;&amp;&gt; board"), "{svg}");
            resvg::usvg::roxmltree::Document::parse(&svg).unwrap();
        }
    }

    #[test]
    fn huge_boards_are_refused_with_the_limit() {
        let b = Board::empty(1_000_000);
        let err = board(&b).unwrap_err().to_string();
        assert!(
            err.contains("1000000 squares") && err.contains("10000"),
            "{err}"
        );
        let long = spec(
            300,
            0,
            &[],
            Some(Geometry::new(1, 300, Numbering::RowMajor).unwrap()),
        );
        assert!(board(&long).is_err());
        assert!(super::super::check_drawable(&long).is_err());
        assert!(super::super::check_drawable(&Board::empty(1_000_000)).is_err());
        let b = Board::empty(10_000);
        assert!(super::super::check_drawable(&b).is_ok());
        let p = board(&b).unwrap();
        assert_eq!(
            p.descendants()
                .iter()
                .filter(|e| e.get("class") == Some("square"))
                .count(),
            10_000
        );
    }
}
