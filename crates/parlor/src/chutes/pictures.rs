//! `parlor chutes render` and `parlor chutes plot`: pictures of boards,
//! games and analyses, as SVG or PNG.
//!
//! Terms:
//! - **output**: `-o FILE.svg` or `-o FILE.png`; the extension picks the
//!   format, the file is written whole or not at all.
//! - **size**: the picture's longer side in pixels (`--size`).

use super::play::{Ending, Played, play_game};
use crate::common::BoardArgs;
use anyhow::{Context, Result, bail};
use chutes::analysis::{self, MarkovOptions, simulate};
use chutes::{Board, Rules};
use clap::{Args, ValueEnum};
use render::Picture;
use render::chutes as pictures;
use std::path::PathBuf;
use std::sync::Arc;
use tabletop::{count, plural};

/// The default `--size`.
const DEFAULT_SIZE: u32 = 1000;

/// `-o` and `--size`.
#[derive(Args, Debug)]
struct OutputArgs {
    /// The picture file to write: `.svg` or `.png`.
    #[arg(long, short = 'o', value_name = "FILE.svg|FILE.png")]
    output: PathBuf,
    /// The picture's longer side in pixels (16 to 8192).
    #[arg(long, default_value_t = DEFAULT_SIZE, value_name = "PX")]
    size: u32,
}

/// Arguments of `parlor chutes render`.
#[derive(Args, Debug)]
#[command(
    after_help = "With --players, --seed or --dice, draws a game (as `chutes play` plays it):
with neither --seed nor --dice it takes a fresh seed and prints it, so that
--seed replays the same game. With none of the three, draws the board alone.

Examples:
  parlor chutes render -o board.png                      the classic board
  parlor chutes render --board my.toml -o my-board.svg   any board file
  parlor chutes render --seed 7 -o game.png              one player's game, circles numbered by roll
  parlor chutes render --players 2 -o game2.png          two players, a fresh seed (printed)
  parlor chutes render --players 2 --seed 7 -o game2.svg two players, the winner starred
  parlor chutes render --dice 1661436 -o short.png       the rolls you choose
  parlor chutes render --heatmap -o heat.png             squares coloured by expected landings"
)]
#[command(group(clap::ArgGroup::new("game").args(["seed", "dice"])))]
pub struct RenderArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    out: OutputArgs,
    /// Draw a game played with this seed (the same seed, the same game as
    /// `chutes play --seed`).
    #[arg(long, short = 's', conflicts_with = "dice")]
    seed: Option<u64>,
    /// Draw a game played with these rolls: `1,3,6`, `1 3 6` or `136`.
    #[arg(long, short = 'd', value_name = "ROLLS")]
    dice: Option<String>,
    /// Draw a game of this many players (1 to 8); without --seed or --dice
    /// the seed is fresh and printed.
    #[arg(long, short = 'p', conflicts_with = "heatmap")]
    players: Option<usize>,
    /// Colour the squares by how often one player lands on each in a game
    /// (expected landings, exact).
    #[arg(long, conflicts_with = "game")]
    heatmap: bool,
}

/// What `parlor chutes plot` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlotKind {
    /// The exact game-length distribution, its cumulative curve, mean and
    /// median (one player).
    Distribution,
    /// A Monte Carlo histogram of game lengths over the exact distribution
    /// (the exact one drawn for one player).
    Histogram,
    /// Each seat's exact chance to win (2 to 8 players).
    Seats,
    /// The board coloured by expected landings per square (one player).
    Heatmap,
    /// The board coloured by how many rolls a new chute of 10 squares
    /// starting on each empty square adds to the mean (one player; signed:
    /// blue where it would shorten the game, grey where none fits).
    Sensitivity,
    /// The same for a new ladder of 10 squares.
    SensitivityLadder,
    /// Each jump's head coloured by what removing the jump changes.
    SensitivityRemoved,
    /// Each square near a jump's foot (1 to 6 squares away) coloured by
    /// what moving that foot there changes (the nearest foot's jump).
    SensitivityFoot,
    /// The same for a jump's head.
    SensitivityHead,
}

/// Arguments of `parlor chutes plot`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes plot -o lengths.png                       how long a classic game lasts
  parlor chutes plot --rules bounce -o bounce.svg         under another overshoot rule
  parlor chutes plot --kind histogram --games 100000 --seed 1 -o sim.png
  parlor chutes plot --kind seats --players 4 -o seats.png
  parlor chutes plot --kind heatmap --board my.toml -o heat.png
  parlor chutes plot --kind sensitivity -o sensitivity.png  where a new chute would hurt most (or shorten the game)
  parlor chutes plot --kind sensitivity-ladder -o ladder.png
  parlor chutes plot --kind sensitivity-removed -o removed.png
  parlor chutes plot --kind sensitivity-foot -o foot.png     where each jump's foot would better be")]
pub struct PlotArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    out: OutputArgs,
    /// What to plot.
    #[arg(long, short = 'k', value_enum, default_value_t = PlotKind::Distribution)]
    kind: PlotKind,
    /// Players (seats: 2 to 8, default 2; histogram: 1 to 8, default 1;
    /// distribution and heatmap are for one player's game).
    #[arg(long, short = 'p')]
    players: Option<usize>,
    /// Games to simulate for the histogram.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Seed of the simulated games (a fresh one, printed, when absent).
    #[arg(long, short = 's')]
    seed: Option<u64>,
}

/// Draws a board, a game on it, or a heat map.
pub fn render(args: &RenderArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    if args.heatmap {
        let picture = heatmap(&board, &rules)?;
        return save(
            &picture,
            &args.out,
            &format!("expected landings on the {}", describe(&board)),
        );
    }
    if args.players.is_none() && args.seed.is_none() && args.dice.is_none() {
        let picture = pictures::board(&board)?;
        return save(&picture, &args.out, &describe(&board));
    }
    let players = args.players.unwrap_or(1);
    let board = Arc::new(board);
    let Played {
        game,
        turns,
        seed,
        ending,
        ..
    } = play_game(
        board.clone(),
        rules,
        players,
        args.seed,
        args.dice.as_deref(),
    )?;
    if ending == Ending::Capped {
        bail!("nothing drawn: {}", super::play::capped());
    }
    let source = seed.map_or_else(|| "given dice".to_string(), |s| format!("seed {s}"));
    let style = pictures::GameStyle {
        trails: players <= 2,
        subtitle: Some(format!(
            "{} · {rules} · {source}{}",
            describe(&board),
            if ending == Ending::Stuck {
                " · this game can never end"
            } else {
                ""
            }
        )),
        ..pictures::GameStyle::default()
    };
    let picture = pictures::game_with(&board, players, &turns, &style)?;
    let rolls = count(turns.len() as u64, "roll", "rolls");
    let outcome = match (ending, game.winner()) {
        (Ending::Won, Some(w)) if players == 1 => format!("player {w} finished in {rolls}"),
        (Ending::Won, Some(w)) => format!("player {w} won after {rolls}"),
        (Ending::Stuck, _) => {
            format!("stopped after {rolls}, no winner: the game can never end")
        }
        _ => format!("the dice ran out after {rolls}, no winner"),
    };
    save(
        &picture,
        &args.out,
        &format!("a game on the {}, {source}: {outcome}", describe(&board)),
    )
}

/// Draws a plot.
pub fn plot(args: &PlotArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    let facts = format!("{} · {rules}", describe(&board));
    let (picture, what) = match args.kind {
        PlotKind::Distribution => {
            one_player(args.players, "distribution")?;
            let markov = markov(&board, &rules)?;
            let d = &markov.distribution;
            let mut subtitle = facts.clone();
            if d.never > 0.0 {
                subtitle.push_str(&format!(" · {:.2}% of games never finish", d.never * 100.0));
            }
            let picture = pictures::length_distribution(&pictures::LengthDistribution {
                probabilities: d.probabilities.clone(),
                mean: d.mean,
                median: d.median,
                title: Some(format!("How long a game lasts: {}", short_name(&board))),
                subtitle,
            })?;
            let mean = d.mean.map_or("no mean (some games never end)".into(), |m| {
                format!("mean {m:.4} rolls")
            });
            (
                picture,
                format!(
                    "the game-length distribution on the {}: {mean}",
                    describe(&board)
                ),
            )
        }
        PlotKind::Histogram => histogram(args, &board, &rules, &facts)?,
        PlotKind::Seats => {
            let players = args.players.unwrap_or(2);
            if !(2..=chutes::game::MAX_PLAYERS).contains(&players) {
                bail!(
                    "a seats plot needs 2 to {} players, not {players}",
                    chutes::game::MAX_PLAYERS
                );
            }
            let markov = markov(&board, &rules)?;
            let odds = analysis::markov::seat_win(&markov.distribution, players)?;
            let mut subtitle = format!("{facts} · {players} players");
            if odds.nobody > 1e-9 {
                subtitle.push_str(&format!(
                    " · {:.2}% of games never finish",
                    odds.nobody * 100.0
                ));
            }
            let picture = pictures::seat_wins(&pictures::SeatWins {
                chances: odds.seat_win.clone(),
                title: Some(format!(
                    "Who wins: {players} players, {}",
                    short_name(&board)
                )),
                subtitle,
            })?;
            let shares: Vec<String> = odds
                .seat_win
                .iter()
                .enumerate()
                .map(|(i, p)| format!("seat {} {:.2}%", i + 1, p * 100.0))
                .collect();
            (
                picture,
                format!(
                    "seat chances on the {}: {}",
                    describe(&board),
                    shares.join(", ")
                ),
            )
        }
        PlotKind::Heatmap => {
            one_player(args.players, "heatmap")?;
            (
                heatmap(&board, &rules)?,
                format!("expected landings on the {}", describe(&board)),
            )
        }
        PlotKind::Sensitivity => {
            one_player(args.players, "sensitivity")?;
            (
                sensitivity_map(&board, &rules, View::Chute)?,
                format!("the cost of a new chute on the {}", describe(&board)),
            )
        }
        PlotKind::SensitivityLadder => {
            one_player(args.players, "sensitivity")?;
            (
                sensitivity_map(&board, &rules, View::Ladder)?,
                format!("the effect of a new ladder on the {}", describe(&board)),
            )
        }
        PlotKind::SensitivityRemoved => {
            one_player(args.players, "sensitivity")?;
            (
                sensitivity_map(&board, &rules, View::Removed)?,
                format!(
                    "the effect of removing each jump of the {}",
                    describe(&board)
                ),
            )
        }
        PlotKind::SensitivityFoot => {
            one_player(args.players, "sensitivity")?;
            (
                sensitivity_map(&board, &rules, View::Foot)?,
                format!(
                    "the effect of moving each jump's foot on the {}",
                    describe(&board)
                ),
            )
        }
        PlotKind::SensitivityHead => {
            one_player(args.players, "sensitivity")?;
            (
                sensitivity_map(&board, &rules, View::Head)?,
                format!(
                    "the effect of moving each jump's head on the {}",
                    describe(&board)
                ),
            )
        }
    };
    save(&picture, &args.out, &what)
}

/// The Monte Carlo histogram, with the exact distribution for one player.
fn histogram(
    args: &PlotArgs,
    board: &Board,
    rules: &Rules,
    facts: &str,
) -> Result<(Picture, String)> {
    let players = args.players.unwrap_or(1);
    if !(1..=chutes::game::MAX_PLAYERS).contains(&players) {
        bail!(
            "a histogram needs 1 to {} players, not {players}",
            chutes::game::MAX_PLAYERS
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let seed = crate::common::seed_or_fresh(args.seed);
    let options = simulate::SimOptions {
        games: args.games,
        players,
        seed,
        threads: 0,
    };
    let result = simulate::simulate(board, rules, &options, &|_| {})
        .with_context(|| format!("cannot simulate games on the {}", describe(board)))?;
    if result.finished() == 0 {
        bail!(
            "on the {} {} reached square {}: there is nothing to plot",
            describe(board),
            if result.games == 1 {
                "the one simulated game never".to_string()
            } else {
                format!("none of the {} simulated games", result.games)
            },
            board.finish()
        );
    }
    let exact = if players == 1 {
        Some(markov(board, rules)?.distribution.probabilities)
    } else {
        None
    };
    let mut subtitle = format!("{facts} · seed {seed}");
    if players > 1 {
        subtitle.push_str(&format!(" · {players} players, rolls by all"));
    }
    if result.unfinished > 0 {
        subtitle.push_str(&format!(
            " · {} never {}",
            count(result.unfinished, "game", "games"),
            plural(result.unfinished, "finishes", "finish")
        ));
    }
    let picture = pictures::length_histogram(&pictures::LengthHistogram {
        counts: result.histogram.clone(),
        exact,
        title: Some(format!("Simulated game lengths: {}", short_name(board))),
        subtitle,
    })?;
    let mean = result
        .mean()
        .map_or(String::new(), |m| format!(", mean {m:.4} rolls"));
    Ok((
        picture,
        format!(
            "{} on the {} (seed {seed}){mean}",
            count(result.games, "simulated game", "simulated games"),
            describe(board)
        ),
    ))
}

/// Refuses `--players` other than 1 for one-player plots.
fn one_player(players: Option<usize>, kind: &str) -> Result<()> {
    match players {
        Some(p) if p != 1 => {
            bail!("the {kind} plot is for one player's game; --players applies to --kind seats")
        }
        _ => Ok(()),
    }
}

/// The exact Markov analysis, with a clear error when no game ends.
fn markov(board: &Board, rules: &Rules) -> Result<analysis::Markov> {
    let markov = analysis::markov::analyze(board, rules, &MarkovOptions::default())
        .with_context(|| format!("cannot analyse the {}", describe(board)))?;
    if markov.distribution.finish_probability() <= 0.0 {
        bail!(
            "on the {} no game ever reaches square {}: there is nothing to plot",
            describe(board),
            board.finish()
        );
    }
    Ok(markov)
}

/// The heat map of expected landings.
fn heatmap(board: &Board, rules: &Rules) -> Result<Picture> {
    pictures::check_drawable(board)?;
    let markov = markov(board, rules)?;
    let mean = markov.distribution.mean.map_or(String::new(), |m| {
        format!(" · a game lasts {m:.2} rolls on average")
    });
    let picture = pictures::heatmap(
        board,
        &pictures::HeatMap {
            values: markov.landings,
            caption: "expected landings per game (one player)".into(),
            title: Some(format!("Where tokens land: {}", short_name(board))),
            subtitle: Some(format!("{} · {rules}{mean}", describe(board))),
            signed: false,
            nothing_fits: Vec::new(),
        },
    )?;
    Ok(picture)
}

/// What a sensitivity picture shows on each square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    /// A new chute of [`NEW_CHUTE`] squares starting there.
    Chute,
    /// A new ladder of [`NEW_CHUTE`] squares starting there.
    Ladder,
    /// Removing the jump that starts there.
    Removed,
    /// Moving the nearest jump's foot (where it ends) there.
    Foot,
    /// Moving the nearest jump's head (where it starts) there.
    Head,
}

/// The signed heat map of what a change on each square does to the mean:
/// blue where the game gets shorter, red where longer, grey where nothing
/// fits (the square is taken, or no such jump fits, or there is no jump to
/// remove).
fn sensitivity_map(board: &Board, rules: &Rules, view: View) -> Result<Picture> {
    pictures::check_drawable(board)?;
    let budget = tabletop::Budget::unlimited();
    let table = chutes::analysis::sensitivity::sensitivity(board, rules, 1, NEW_CHUTE, &budget)?;
    let mut values = vec![0.0; board.size() as usize + 1];
    let mut found = vec![false; board.size() as usize + 1];
    match view {
        View::Chute | View::Ladder => {
            for s in &table.squares {
                let effect = if view == View::Chute {
                    &s.chute
                } else {
                    &s.ladder
                };
                if let Some(e) = effect {
                    values[s.square as usize] = e.mean_change;
                    found[s.square as usize] = true;
                }
            }
        }
        View::Removed => {
            for j in &table.jumps {
                if let Some(e) = &j.removed {
                    values[j.jump.from as usize] = e.mean_change;
                    found[j.jump.from as usize] = true;
                }
            }
        }
        View::Foot | View::Head => {
            // Each square takes the move of the jump whose end is nearest
            // (ties: the first jump by start square); the end itself is 0.
            let mut nearest = vec![u32::MAX; board.size() as usize + 1];
            for j in &table.jumps {
                let (end, shifts) = if view == View::Foot {
                    (j.jump.to, &j.foot)
                } else {
                    (j.jump.from, &j.head)
                };
                let mut place = |square: i64, value: f64, distance: u32| {
                    if let Ok(s) = usize::try_from(square)
                        && (1..values.len()).contains(&s)
                        && distance < nearest[s]
                    {
                        nearest[s] = distance;
                        values[s] = value;
                        found[s] = true;
                    }
                };
                place(i64::from(end), 0.0, 0);
                for shift in shifts {
                    if let Some(e) = &shift.effect {
                        place(
                            i64::from(end) + i64::from(shift.by),
                            e.mean_change,
                            shift.by.unsigned_abs(),
                        );
                    }
                }
            }
        }
    }
    let nothing_fits: Vec<u32> = (1..=board.size()).filter(|&s| !found[s as usize]).collect();
    let (caption, title) = match view {
        View::Chute => (
            format!("rolls a new chute of {NEW_CHUTE} squares starting here adds to the mean"),
            "Where a chute would hurt most",
        ),
        View::Ladder => (
            format!("rolls a new ladder of {NEW_CHUTE} squares starting here adds to the mean"),
            "Where a ladder would help most",
        ),
        View::Removed => (
            "rolls removing the jump that starts here adds to the mean".to_string(),
            "What each jump is worth",
        ),
        View::Foot => (
            format!(
                "rolls moving the nearest jump's foot here (1 to {} squares) adds to the mean",
                chutes::analysis::sensitivity::MAX_SHIFT
            ),
            "Where each jump's foot would better be",
        ),
        View::Head => (
            format!(
                "rolls moving the nearest jump's head here (1 to {} squares) adds to the mean",
                chutes::analysis::sensitivity::MAX_SHIFT
            ),
            "Where each jump's head would better be",
        ),
    };
    let picture = pictures::heatmap(
        board,
        &pictures::HeatMap {
            values,
            caption,
            title: Some(format!("{title}: {}", short_name(board))),
            subtitle: Some(format!(
                "{} · {rules} · a game lasts {:.2} rolls on average",
                describe(board),
                table.mean
            )),
            signed: true,
            nothing_fits,
        },
    )?;
    Ok(picture)
}

/// The length of the new chute on the sensitivity plot.
const NEW_CHUTE: u32 = 10;

/// "classic board (100 squares)".
fn describe(board: &Board) -> String {
    format!("{} ({} squares)", short_name(board), board.size())
}

/// "classic board" or "unnamed board".
fn short_name(board: &Board) -> String {
    match board.name() {
        Some(n) if !n.trim().is_empty() => format!("{} board", n.trim()),
        _ => "unnamed board".into(),
    }
}

/// Saves the picture and says what was written.
fn save(picture: &Picture, out: &OutputArgs, what: &str) -> Result<()> {
    crate::common::save_picture(picture, &out.output, out.size, what)
}
