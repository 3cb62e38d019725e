//! `parlor baffle bot`: the solver plays a box, or many, and shows how.

use super::{BoxArgs, describe};
use crate::common::{print_json, seed_or_fresh};
use crate::progress;
use anyhow::{Context, Result, bail};
use baffle::bot::{BotOptions, Decision, play};
use baffle::text::view_text;
use baffle::{Event, Game, Score, Setup, Sides};
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Arguments of `parlor baffle bot`.
#[derive(Args, Debug)]
#[command(
    after_help = "The bot sees only what a player sees. It guesses every mirror the shots
prove, guesses a mirror more likely than not (a wrong guess costs 2, a shot
1; past the count, only one that every sampled layout holds), and otherwise
follows the solver's advice: its best next shot, exact or estimated by
sampling when there are too many cases to count.

Examples:
  parlor baffle bot                          the original assignment's fixed game, move by move
  parlor baffle bot --seed 7 --sides left-top --save game.json
  parlor baffle bot --games 200 --seed 1     200 random boxes: the bot's scores
  parlor baffle bot --size 6 --mirrors 3 --games 1000 --json"
)]
pub struct BotArgs {
    #[command(flatten)]
    source: BoxArgs,
    /// Which sides beams may be shot from.
    #[arg(long, default_value = "all", value_name = "all|left-top")]
    sides: Sides,
    /// Play this many random boxes (seeds S, S+1, …) and report the scores.
    #[arg(long, default_value_t = 1, value_name = "N")]
    games: u32,
    /// Threads for --games (default: every core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Write the finished game (JSON) here, for `play --resume` or `render --game`.
    #[arg(long, value_name = "FILE", conflicts_with = "games")]
    save: Option<PathBuf>,
    /// Guess a mirror at least this likely rather than shoot: by its exact
    /// chance when the layouts were counted, else one every sampled layout
    /// holds by its calibrated chance (0 to 1; 1 guesses only what the
    /// shots prove, or when no shot can help).
    #[arg(long, default_value_t = 0.5, value_name = "P")]
    guess_above: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

impl BotArgs {
    fn options(&self) -> Result<BotOptions> {
        if !(0.0..=1.0).contains(&self.guess_above) {
            bail!(
                "--guess-above must be between 0 and 1, not {}",
                self.guess_above
            );
        }
        Ok(BotOptions {
            guess_above: self.guess_above,
            ..BotOptions::default()
        })
    }
}

/// One move the bot made, for JSON.
#[derive(Serialize)]
struct Turn<'a> {
    #[serde(flatten)]
    decision: &'a Decision,
    events: &'a [Event],
}

/// Plays.
pub fn run(args: &BotArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let options = args.options()?;
    if args.games > 1 {
        return many(args, &options);
    }
    let setup = args.source.setup(args.sides, || seed_or_fresh(None))?;
    let mut game = Game::new(setup)?;
    let mut turns: Vec<(Decision, Vec<Event>)> = Vec::new();
    let played = play(&mut game, &options, |d, events| {
        turns.push((d.clone(), events.to_vec()));
    });
    if let Some(path) = &args.save {
        let json = serde_json::to_string_pretty(&game)?;
        tabletop::write_atomic(path, json.as_bytes())
            .with_context(|| format!("cannot save the game to {}", path.display()))?;
        eprintln!("Game saved to {}.", path.display());
    }
    played.context("the bot could not go on")?;
    if args.json {
        let turns: Vec<Turn<'_>> = turns
            .iter()
            .map(|(decision, events)| Turn { decision, events })
            .collect();
        return print_json(&serde_json::json!({
            "setup": game.setup(),
            "moves": turns,
            "status": game.status(),
            "score": game.score(),
        }));
    }
    let mut out = std::io::stdout().lock();
    let setup = game.setup();
    writeln!(
        out,
        "The bot plays Baffle {n}×{n}, {k} ({}), beams from {}.",
        describe(setup, true),
        sides_text(setup.sides),
        n = setup.size,
        k = tabletop::count(setup.mirrors as u64, "mirror", "mirrors"),
    )?;
    for (i, (decision, events)) in turns.iter().enumerate() {
        let said: Vec<String> = events
            .iter()
            .filter(|e| matches!(e, Event::Shot { .. } | Event::Guess { .. }))
            .map(ToString::to_string)
            .collect();
        writeln!(
            out,
            "{:>3}  {:<12} {}  ({})",
            i + 1,
            decision.mv.to_string(),
            said.join(" "),
            decision.reason
        )?;
    }
    writeln!(out)?;
    write!(out, "{}", view_text(&game.view()))?;
    Ok(())
}

fn sides_text(sides: Sides) -> &'static str {
    match sides {
        Sides::All => "all four sides",
        Sides::LeftTop => "the left and top",
    }
}

/// What many bot games scored.
#[derive(Serialize)]
struct Scores {
    games: u32,
    /// Whether Ctrl-C stopped the run before every game asked for: the
    /// figures are then of the `games` played.
    stopped: bool,
    first_seed: u64,
    size: usize,
    mirrors: usize,
    sides: Sides,
    mean_score: f64,
    /// The 95% confidence interval of the mean score (mean ± 1.96 standard
    /// errors).
    mean_score_ci95: [f64; 2],
    mean_shots: f64,
    mean_wrong_guesses: f64,
    best: usize,
    worst: usize,
    /// Games by score.
    scores: BTreeMap<usize, u32>,
}

/// Many games' scores, summed as the games end.
#[derive(Default)]
struct Tally {
    games: u32,
    /// The scores' sum, and the sum of their squares (for the variance).
    total: u64,
    total_squares: u64,
    shots: u64,
    wrong_guesses: u64,
    /// Games by score.
    by_score: BTreeMap<usize, u32>,
}

impl Tally {
    fn add(&mut self, score: &Score) {
        let total = score.total as u64;
        self.games += 1;
        self.total += total;
        self.total_squares += total * total;
        self.shots += score.shots as u64;
        self.wrong_guesses += score.wrong_guesses as u64;
        *self.by_score.entry(score.total).or_insert(0) += 1;
    }

    fn merge(&mut self, other: Self) {
        self.games += other.games;
        self.total += other.total;
        self.total_squares += other.total_squares;
        self.shots += other.shots;
        self.wrong_guesses += other.wrong_guesses;
        for (score, games) in other.by_score {
            *self.by_score.entry(score).or_insert(0) += games;
        }
    }

    /// The scores' sample variance (0 for one game), exact until the last
    /// division: `(n Σx² − (Σx)²) / (n (n − 1))`.
    fn variance(&self) -> f64 {
        let n = u128::from(self.games);
        if n < 2 {
            return 0.0;
        }
        let spread = n * u128::from(self.total_squares) - u128::from(self.total).pow(2);
        spread as f64 / (n * (n - 1)) as f64
    }
}

fn many(args: &BotArgs, options: &BotOptions) -> Result<()> {
    if args.source.fixed || args.source.layout.is_some() {
        bail!("--games plays random boxes: give --seed (or nothing), not --fixed or --layout");
    }
    let first_seed = seed_or_fresh(args.source.seed);
    let size = args.source.size.unwrap_or(baffle::geometry::DEFAULT_SIZE);
    let mirrors = args.source.mirrors.unwrap_or(baffle::layout::FIXED.len());
    // Check the box once, before starting any thread.
    Game::new(Setup::seeded(size, mirrors, args.sides, first_seed))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start the threads")?;
    // The first Ctrl-C stops the run: each thread finishes the game it is
    // playing and takes no other, so the games played are the first seeds.
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = Arc::clone(&stop);
    progress::on_ctrl_c(move || stopper.store(true, Ordering::SeqCst));
    let next = AtomicU64::new(0);
    let played = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let bar = progress::games_bar(u64::from(args.games), "playing", "games", args.json);
    // Each thread takes the next seed until none is left, summing its
    // scores as it goes: memory does not grow with the games asked for.
    let tallies: Vec<Result<Tally>> = progress::follow(&bar, &played, || {
        pool.broadcast(|_| {
            let mut tally = Tally::default();
            while !stop.load(Ordering::Relaxed) && !failed.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= u64::from(args.games) {
                    break;
                }
                let seed = first_seed.wrapping_add(i);
                let score = Game::new(Setup::seeded(size, mirrors, args.sides, seed))
                    .map_err(anyhow::Error::from)
                    .and_then(|mut game| {
                        play(&mut game, options, |_, _| {})
                            .with_context(|| format!("the bot could not finish seed {seed}"))?;
                        Ok(game.score())
                    })
                    .inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
                tally.add(&score);
                played.fetch_add(1, Ordering::Relaxed);
            }
            Ok(tally)
        })
    });
    let mut tally = Tally::default();
    for part in tallies {
        tally.merge(part?);
    }
    let stopped = tally.games < args.games;
    if tally.games == 0 {
        bail!("stopped (Ctrl-C) before any game was played");
    }
    let n = f64::from(tally.games);
    let mean = |sum: u64| sum as f64 / n;
    let mean_score = mean(tally.total);
    let half = 1.96 * (tally.variance() / n).sqrt();
    let report = Scores {
        games: tally.games,
        stopped,
        first_seed,
        size,
        mirrors,
        sides: args.sides,
        mean_score,
        mean_score_ci95: [mean_score - half, mean_score + half],
        mean_shots: mean(tally.shots),
        mean_wrong_guesses: mean(tally.wrong_guesses),
        best: tally.by_score.keys().next().copied().unwrap_or(0),
        worst: tally.by_score.keys().next_back().copied().unwrap_or(0),
        scores: tally.by_score,
    };
    if args.json {
        return print_json(&report);
    }
    let mut out = std::io::stdout().lock();
    if report.stopped {
        writeln!(
            out,
            "Stopped (Ctrl-C) after {} of {} games: the figures below are of the games played.",
            report.games, args.games
        )?;
    }
    writeln!(
        out,
        "The bot played {} {n}×{n} with {k}, beams from {} (seeds {} to {}).",
        tabletop::count(report.games.into(), "random box", "random boxes"),
        sides_text(report.sides),
        first_seed,
        first_seed.wrapping_add(u64::from(report.games) - 1),
        n = size,
        k = tabletop::count(mirrors as u64, "mirror", "mirrors"),
    )?;
    writeln!(
        out,
        "Every mirror found in every game. Mean score {:.2} (95% confidence interval {:.2} to {:.2}): {:.2} shots, {:.2} wrong guesses; best {}, worst {}.",
        report.mean_score,
        report.mean_score_ci95[0],
        report.mean_score_ci95[1],
        report.mean_shots,
        report.mean_wrong_guesses,
        report.best,
        report.worst
    )?;
    writeln!(out, "\nscore  games")?;
    let widest = report.scores.values().copied().max().unwrap_or(1);
    for (score, count) in &report.scores {
        let bar = "#".repeat((40 * count).div_ceil(widest) as usize);
        writeln!(out, "{score:>5}  {count:>5}  {bar}")?;
    }
    Ok(())
}
