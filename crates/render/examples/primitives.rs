//! Draws every shared primitive on one sheet: `cargo run -p render --example
//! primitives -- sheet.png` (or `.svg`). A quick look at the house style.

use render::draw::{self, Anchor, Grid, Legend, Point, Swatch};
use render::{Picture, palette};
use tabletop::Cell;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "primitives.png".into());
    let mut p = Picture::new(640.0, 420.0, "Parlor primitives");
    p.push(draw::title(
        320.0,
        24.0,
        "Parlor primitives <&>",
        22.0,
        600.0,
    ));
    let grid = Grid::new(20.0, 50.0, 40.0, 5, 5);
    for row in 0..5 {
        for col in 0..5 {
            let fill = if (row + col) % 2 == 0 {
                palette::PAPER
            } else {
                palette::PAPER_DARK
            };
            p.push(grid.cell_rect(Cell { row, col }, fill));
            let c = grid.centre(Cell { row, col });
            p.push(draw::label(
                c.x,
                c.y,
                &format!("{}", row * 5 + col + 1),
                14.0,
                Anchor::Middle,
            ));
        }
    }
    p.push(grid.lines(palette::RULE, 1.0));
    p.push(draw::arrow(
        grid.centre(Cell { row: 4, col: 0 }),
        grid.centre(Cell { row: 0, col: 4 }),
        palette::LADDER,
        3.0,
    ));
    p.push(draw::curved_arrow(
        grid.centre(Cell { row: 0, col: 0 }),
        grid.centre(Cell { row: 4, col: 4 }),
        0.25,
        palette::CHUTE,
        3.0,
    ));
    for (i, c) in palette::PLAYERS.iter().enumerate() {
        let centre = Point::new(260.0 + 40.0 * i as f64, 80.0);
        p.push(draw::circle(centre, 15.0).fill(*c));
        p.push(
            draw::bold_label(
                centre.x,
                centre.y,
                &(i + 1).to_string(),
                14.0,
                Anchor::Middle,
            )
            .fill(palette::WHITE),
        );
    }
    for i in 0..=20 {
        let t = f64::from(i) / 20.0;
        p.push(draw::rect(260.0 + 16.0 * f64::from(i), 120.0, 16.0, 24.0).fill(palette::heat(t)));
    }
    for (i, c) in [
        palette::BAFFLE_ENTRY,
        palette::BAFFLE_EXIT,
        palette::MIRROR_FOUND,
        palette::MIRROR_UNFOUND,
        palette::BEAM,
    ]
    .iter()
    .enumerate()
    {
        p.push(draw::rect(260.0 + 44.0 * i as f64, 160.0, 36.0, 36.0).fill(*c));
    }
    let legend = Legend::new(14.0)
        .entry(Swatch::Ladder(palette::LADDER), "ladder")
        .entry(Swatch::Arrow(palette::CHUTE), "chute")
        .entry(Swatch::Dot(palette::player(1)), "player 1")
        .entry(Swatch::Fill(palette::START), "start")
        .entry(Swatch::Line(palette::CURVE), "cumulative")
        .entry(Swatch::Dashed(palette::MEAN), "mean");
    p.push(legend.draw(260.0, 220.0, 360.0));
    p.push(draw::label(
        20.0,
        300.0,
        "start-anchored label",
        14.0,
        Anchor::Start,
    ));
    p.push(draw::label(
        620.0,
        400.0,
        "end-anchored label",
        14.0,
        Anchor::End,
    ));
    p.push(draw::line(
        Point::new(20.0, 400.0),
        Point::new(620.0, 400.0),
        palette::RULE,
        1.0,
    ));
    let format = render::save(&p, std::path::Path::new(&out), Some(1280))?;
    println!("wrote {out} ({format})");
    Ok(())
}
