//! How long pictures take: building the document, writing SVG text, and
//! rasterising PNG through resvg (plain `main`, no harness).
//!
//! Run with `cargo bench -p render --bench pictures`.

use chutes::{Board, Game, Rules};
use render::chutes as pictures;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabletop::SeededDice;

/// Runs `f` for about `budget` (at least 3 times) and prints the median time
/// per call.
fn time<T>(label: &str, budget: Duration, mut f: impl FnMut() -> T) {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || start.elapsed() < budget {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    println!("{label:<52} {median:>10.2?}  ({} runs)", times.len());
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let budget = Duration::from_secs(2);
    let classic = Board::classic();
    let board = pictures::board(&classic)?;
    time("classic board: build the picture", budget, || {
        pictures::board(&classic)
    });
    time("classic board: SVG text", budget, || board.to_svg());
    time("classic board: build + SVG", budget, || {
        pictures::board(&classic).map(|p| p.to_svg())
    });
    time("classic board: PNG 1000 px", budget, || {
        render::to_png(&board, Some(1000))
    });
    time("classic board: build + PNG 1000 px", budget, || {
        pictures::board(&classic).and_then(|p| render::to_png(&p, Some(1000)))
    });

    let mut game = Game::new(Arc::new(classic.clone()), Rules::default(), 2)?;
    let mut dice = SeededDice::new(7);
    let mut turns = Vec::new();
    while game.winner().is_none() {
        turns.push(game.play(&mut dice)?);
    }
    let played = pictures::game(&classic, 2, &turns)?;
    time("2-player game (68 rolls): build + SVG", budget, || {
        pictures::game(&classic, 2, &turns).map(|p| p.to_svg())
    });
    time("2-player game (68 rolls): PNG 1000 px", budget, || {
        render::to_png(&played, Some(1000))
    });

    let big = Board::empty(10_000);
    let big_picture = pictures::board(&big)?;
    time("100 x 100 board (the limit): build + SVG", budget, || {
        pictures::board(&big).map(|p| p.to_svg())
    });
    println!("100 x 100 board SVG: {} bytes", big_picture.to_svg().len());
    time("100 x 100 board (the limit): PNG 2000 px", budget, || {
        render::to_png(&big_picture, Some(2000))
    });
    Ok(())
}
