//! The live chances: the estimate's interval covers the truth as often as
//! it says, a finished game is certain, and the figures are a function of
//! what every viewer sees (never of the match's dice or seed).

use std::sync::Arc;
use tabletop::play::{DiceMode, Match, Playable, Request, SeatKind, Viewer};
use tabletop::{BotLevel, Rng, ScriptedDice, SeededDice};
use tycoon::bots::{Bot, DefaultBot};
use tycoon::chances::{Options, estimate};
use tycoon::contract::Setup;
use tycoon::generate::random_grid;
use tycoon::{Game, Grid, SAMPLE_GRID, Seat, parse_grid};

/// Each seat's share of `games` games played on from `game` by the default
/// bot in every seat, on seeded dice of `seed` (the independent check: the
/// match's own kind of dice, one stream a game, none of the estimate's
/// code), each stopped with no winner `horizon` turns on.
fn monte_carlo(game: &Game, games: u64, seed: u64, horizon: u32) -> Vec<f64> {
    let mut wins = vec![0u64; usize::from(game.count())];
    for i in 0..games {
        let mut g = game.clone();
        let mut dice = SeededDice::new(Rng::stream(seed, i).next_u64());
        let stop = g.turns() + horizon;
        while !g.is_over() && g.turns() < stop {
            let mv = DefaultBot.choose(&g);
            g.apply(mv, &mut dice)
                .expect("the default bot's move is legal");
        }
        if let Some(w) = g.winner() {
            wins[usize::from(w) - 1] += 1;
        }
    }
    wins.iter().map(|&w| w as f64 / games as f64).collect()
}

/// A position `moves` moves into a game of default bots on `grid`.
fn position(grid: Grid, seats: usize, seed: u64, moves: u64) -> Game {
    let mut g = Game::for_seats(Arc::new(grid), &vec![Seat::Bot; seats]).expect("2 to 4 seats");
    let mut dice = SeededDice::new(seed);
    while !g.is_over() && g.moves() < moves {
        let before = g.clone();
        g.apply(DefaultBot.choose(&g), &mut dice)
            .expect("the default bot's move is legal");
        if g.is_over() {
            // Keep a position still in play.
            return before;
        }
    }
    g
}

#[test]
fn the_interval_covers_a_long_monte_carlo_about_95_times_in_100() {
    // 24 positions on 24 random grids (so no two estimates share imagined
    // dice), 2 to 4 seats, from the start to late in a game; each seat's
    // 95% interval against 10,000 games from the same position on other
    // dice. The truth's own error (at most 0.5%) is small beside the
    // interval's half-width (about 3%).
    let mut rng = Rng::new(52);
    let (mut covered, mut checked) = (0, 0);
    let mut misses = Vec::new();
    for i in 0..24u64 {
        let grid = random_grid(&mut rng);
        let seats = 2 + (i % 3) as usize;
        let game = position(grid, seats, 1000 + i, (i * 7) % 60);
        let c = estimate(&game);
        let n = c.playouts.expect("an estimate");
        assert!(n >= 100, "position {i}: only {n} playouts");
        let truth = monte_carlo(&game, 10_000, 9_000 + i, Options::LIVE.horizon);
        let bands = c.interval.as_ref().expect("an estimate has intervals");
        for (seat, (t, band)) in truth.iter().zip(bands).enumerate() {
            checked += 1;
            if band.low <= *t && *t <= band.high {
                covered += 1;
            } else {
                misses.push(format!(
                    "position {i} seat {}: {t:.4} outside {:.4}..{:.4}",
                    seat + 1,
                    band.low,
                    band.high
                ));
            }
        }
    }
    // A 95% interval misses about 1 in 20; 15% misses would be three
    // times too many.
    assert!(
        covered * 100 >= checked * 85,
        "{covered} of {checked} covered: {misses:?}"
    );
}

#[test]
fn an_estimate_is_the_share_of_its_playouts_and_adds_up() {
    let grid = parse_grid(SAMPLE_GRID).unwrap();
    for seats in 2..=4 {
        let game = position(grid.clone(), seats, seats as u64, 30);
        let c = estimate(&game);
        let n = f64::from(c.playouts.unwrap());
        let sum: f64 = c.each.iter().sum();
        assert!(sum <= 1.0 + 1e-12, "{c:?}");
        for (p, band) in c.each.iter().zip(c.interval.as_ref().unwrap()) {
            // Each figure is a whole number of playouts.
            assert!(((p * n) - (p * n).round()).abs() < 1e-9, "{p} of {n}");
            assert!(band.low <= *p && *p <= band.high);
            // About 1.96 standard errors either side.
            let half = 1.96 * (p * (1.0 - p) / n).sqrt();
            assert!(band.high - band.low < 2.0 * half + 0.01, "{band:?} for {p}");
        }
    }
}

fn setup() -> Setup {
    Setup::new(parse_grid(SAMPLE_GRID).expect("the sample grid"))
}

#[test]
fn a_finished_match_reads_100_and_0() {
    let bot = SeatKind::Bot {
        level: BotLevel::Normal,
    };
    let mut m = Match::<Game>::start(setup(), vec![bot; 3], DiceMode::Seeded { seed: 9 }).unwrap();
    let mut rng = m.bot_rng();
    m.run_bots(&mut rng, 20_000);
    let winner = m.status().winner().expect("a winner");
    let c = m.game().chances().expect("chances");
    assert_eq!(c.interval, None, "a finished game's chances are exact");
    for (i, p) in c.each.iter().enumerate() {
        assert_eq!(
            *p,
            if i + 1 == usize::from(winner) {
                1.0
            } else {
                0.0
            }
        );
    }
    let json = serde_json::to_value(m.view(Viewer::Spectator)).unwrap();
    assert_eq!(json["view"]["chances"][usize::from(winner) - 1], 1.0);
    assert!(json["view"].get("chances_interval").is_none());
}

#[test]
fn the_chances_are_the_same_for_every_viewer_and_never_tell_the_dice() {
    // A match on seeded dice, and the same game played again with each
    // roll chosen: the second match has no seed at all, yet every
    // position's chances are the same, for a spectator and for each seat.
    let people = vec![SeatKind::Person; 4];
    let mut seeded =
        Match::<Game>::start(setup(), people.clone(), DiceMode::Seeded { seed: 77 }).unwrap();
    let mut chosen = Match::<Game>::start(setup(), people, DiceMode::Chosen).unwrap();
    for step in 0..40 {
        let seat = seeded.to_move().unwrap();
        let mv = DefaultBot.choose(seeded.game());
        let played = seeded.play(seat, Request::new(mv)).unwrap();
        let rolled = played.events.iter().find_map(|e| match e {
            tycoon::Event::Rolled { roll, .. } => Some(u32::from(*roll)),
            _ => None,
        });
        let mut dice = ScriptedDice::new(rolled.into_iter().collect::<Vec<_>>());
        chosen.play_rolling(seat, mv, &mut dice).unwrap();
        // Worked out away from the views, as the server does.
        for m in [&seeded, &chosen] {
            if let Some(work) = m.game().chances_work() {
                m.game().keep_chances(work());
            }
        }
        let spectator =
            serde_json::to_value(seeded.view(Viewer::Spectator)).unwrap()["view"].clone();
        assert!(spectator["chances_interval"].is_array());
        for viewer in (1..=4).map(|seat| Viewer::Seat { seat }) {
            for m in [&seeded, &chosen] {
                let seen = serde_json::to_value(m.view(viewer)).unwrap()["view"].clone();
                for key in ["chances", "chances_interval", "chances_playouts"] {
                    assert_eq!(seen[key], spectator[key], "move {step}, {viewer:?}: {key}");
                }
            }
        }
        assert_eq!(seeded.game().chances(), chosen.game().chances());
        if seeded.status().is_over() {
            break;
        }
    }
}

#[test]
fn a_view_carries_the_chances_only_once_worked_out_and_never_works_them_out() {
    let people = vec![SeatKind::Person; 2];
    let mut m = Match::<Game>::start(setup(), people, DiceMode::Seeded { seed: 5 }).unwrap();
    let seat = m.to_move().unwrap();
    let mv = DefaultBot.choose(m.game());
    m.play(seat, Request::new(mv)).unwrap();
    let fresh = serde_json::to_value(m.view(Viewer::Spectator)).unwrap()["view"].clone();
    for key in ["chances", "chances_interval", "chances_playouts"] {
        assert!(fresh.get(key).is_none(), "{key}: {fresh}");
    }
    // Looking did not work them out: the work is still to do, and its
    // answer is the library's estimate of the position.
    let work = m.game().chances_work().expect("the estimate to work out");
    let worked = work();
    assert_eq!(worked, estimate(m.game()));
    m.game().keep_chances(worked.clone());
    assert!(
        m.game().chances_work().is_none(),
        "kept: nothing left to do"
    );
    assert_eq!(m.game().known_chances().as_deref(), Some(&worked));
    let seen = serde_json::to_value(m.view(Viewer::Spectator)).unwrap()["view"].clone();
    assert_eq!(seen["chances"], serde_json::json!(worked.rounded(4).each));
    assert_eq!(seen["chances_playouts"], 1000);
}

#[test]
fn a_replayed_record_gives_the_same_figures_as_the_game_did() {
    let bot = SeatKind::Bot {
        level: BotLevel::Normal,
    };
    let mut m = Match::<Game>::start(setup(), vec![bot; 2], DiceMode::Seeded { seed: 4 }).unwrap();
    let mut rng = m.bot_rng();
    let mut live = vec![m.game().chances()];
    for _ in 0..15 {
        m.step_bot(&mut rng, None).unwrap();
        live.push(m.game().chances());
    }
    let mut record = m.record().clone();
    let moves = std::mem::take(&mut record.moves);
    let mut again = Match::<Game>::replay(record).unwrap();
    let mut replayed = vec![again.game().chances()];
    for entry in moves {
        again.apply_entry(entry).unwrap();
        replayed.push(again.game().chances());
    }
    assert_eq!(live, replayed);
    // Pinned: the figures of a position never change from build to build
    // (the imagined dice are seeded from the grid and the seats alone).
    let start = estimate(
        &Game::for_seats(Arc::new(parse_grid(SAMPLE_GRID).unwrap()), &[Seat::Bot; 2]).unwrap(),
    );
    assert_eq!(start.playouts, Some(1000));
    assert_eq!(start.each, vec![0.478, 0.522]);
}
