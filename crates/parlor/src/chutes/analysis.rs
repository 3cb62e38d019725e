//! `parlor chutes search|shortest|analyze|simulate|min-throws`: the
//! analysis commands. Glue only: the numbers come from `chutes::analysis`.
//!
//! Terms:
//! - **big count**: an exact integer; in JSON a number up to 2^53, else a
//!   string of digits (so no JSON reader rounds it).
//! - **progress bar**: drawn on stderr only when stderr is a terminal.

use crate::common::{BoardArgs, dice_string, print_json, seed_or_fresh};
use anyhow::{Context, Result, bail};
use chutes::analysis::markov::{self, Markov, MarkovOptions, SeatOdds};
use chutes::analysis::min_throws::{self, MinThrows};
use chutes::analysis::search::{self, SearchOptions, SearchResult};
use chutes::analysis::shortest::{Constraint, Route, ShortestGames};
use chutes::analysis::simulate::{self, SimOptions, SimResult};
use chutes::analysis::{AnalysisError, exact};
use chutes::formats::{self, Format};
use chutes::{Board, Jump, Overshoot, Rules, Step};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use num_bigint::BigUint;
use serde::Serialize;
use serde_json::{Value, json};
use std::io::{IsTerminal, Write};
use std::time::Instant;
use tabletop::{count, plural};

/// Arguments of `parlor chutes shortest`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes shortest                       the classic board's shortest game: 7 rolls
  parlor chutes shortest --chutes 2            seed 000: the shortest game down exactly two chutes
  parlor chutes shortest --list                every distinct route, and the first 100 dice sequences
  parlor chutes shortest --ladders 0 --json")]
pub struct ShortestArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Only games that go down exactly this many chutes.
    #[arg(long, value_name = "K")]
    chutes: Option<u32>,
    /// Only games that climb exactly this many ladders.
    #[arg(long, value_name = "K")]
    ladders: Option<u32>,
    /// List every distinct route (up to 10,000) and the first --limit dice
    /// sequences.
    #[arg(long)]
    list: bool,
    /// How many dice sequences --list prints.
    #[arg(long, default_value_t = 100, value_name = "N")]
    limit: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// The most tied sequences `search --all-shortest` prints per route.
const MAX_TIES_PER_ROUTE: usize = 50;

/// The most routes `shortest --list` prints.
const MAX_LISTED_ROUTES: usize = 10_000;

/// The most rolls of a game printed one per line (the dice string and
/// `--json` always have them all).
const MAX_PATH_LINES: usize = 200;

fn rolls_text(n: u32) -> String {
    count(n.into(), "roll", "rolls")
}

/// Arguments of `parlor chutes analyze`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes analyze                        mean 39.2251 rolls on the classic board
  parlor chutes analyze --exact                the mean as an exact fraction
  parlor chutes analyze --players 4            each seat's chance to win
  parlor chutes analyze --rules bounce --json")]
pub struct AnalyzeArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Number of players (1 to 8) for the seats' chances and the rounds.
    #[arg(long, short = 'p', default_value_t = 1)]
    players: usize,
    /// Also give the mean and variance as exact fractions p/q.
    #[arg(long)]
    exact: bool,
    /// Tabulate until less than this probability is still in play.
    #[arg(long, default_value_t = markov::DEFAULT_TAIL, value_name = "P")]
    tail: f64,
    /// Give up after this many rolls (for boards whose games are very long).
    #[arg(long, default_value_t = markov::DEFAULT_MAX_ROLLS, value_name = "N")]
    max_rolls: u32,
    /// Print JSON (with the whole distribution, and every square and jump).
    #[arg(long)]
    json: bool,
}

/// Arguments of `parlor chutes simulate`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes simulate --games 10000000 --seed 1
  parlor chutes simulate --players 4 --seed 7 --threads 1   same numbers as with any --threads
  parlor chutes simulate --board my.toml --rules finish --json")]
pub struct SimulateArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Number of games.
    #[arg(long, short = 'g', default_value_t = 1_000_000)]
    games: u64,
    /// Players per game (1 to 8).
    #[arg(long, short = 'p', default_value_t = 1)]
    players: usize,
    /// Seed: the same seed gives the same result whatever --threads.
    #[arg(long, short = 's')]
    seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 't', default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `parlor chutes search`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes search --seed 1                  seed 001: each new record-short game
  parlor chutes search --chutes 2 --games 1000000   seed 000: exactly two chutes
  parlor chutes search --all-shortest            every game as short as the shortest, by route")]
pub struct SearchArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Number of random games.
    #[arg(long, short = 'g', default_value_t = 100_000)]
    games: u64,
    /// Seed: the same seed finds the same games whatever --threads.
    #[arg(long, short = 's')]
    seed: Option<u64>,
    /// Only games that go down exactly this many chutes count.
    #[arg(long, value_name = "K")]
    chutes: Option<u32>,
    /// List every game as short as the shortest found, grouped into routes.
    #[arg(long)]
    all_shortest: bool,
    /// Worker threads (default: all cores).
    #[arg(long, short = 't', default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `parlor chutes min-throws`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes min-throws --pairs \"3 22 5 8 11 26 20 29 27 1 21 9 17 4 19 7\" --size 30 --start 1
  parlor chutes min-throws --leetcode '[[-1,-1],[-1,3]]'
  parlor chutes min-throws --leetcode board.json --json
  parlor chutes min-throws --board moves.txt        (N, then move[0..N-1], 0-based, -1 = no jump)
  parlor chutes min-throws --pairs \"1 7 5 21 10 12 20 15 26 0 21 4 14 9 19 2\" --size 29 --start 0
  parlor chutes min-throws --board classic

The assignment's 0-based board (N cells, move[]) keeps its cell numbers: tokens
start on cell 0 and finish on cell N-1, and a snake may lead back to 0. Notes
(such as a LeetCode square holding its own label, read as no jump) go to stderr.")]
pub struct MinThrowsArgs {
    /// `classic`, or a board file (TOML, board array, LeetCode 909 JSON, N and move[], Tycoon grid).
    #[arg(long, short = 'b', value_name = "classic|FILE", conflicts_with_all = ["leetcode", "pairs"])]
    board: Option<String>,
    /// Read the --board file as this format instead of detecting it.
    #[arg(long, value_name = crate::common::FORMAT_NAMES, requires = "board")]
    format: Option<server::board_files::BoardFormat>,
    /// A LeetCode 909 grid: the JSON itself, or a file holding it.
    #[arg(long, value_name = "JSON|FILE", conflicts_with = "pairs")]
    leetcode: Option<String>,
    /// Jumps as "start end start end …" (seed 004's form); needs --size.
    #[arg(long, value_name = "PAIRS", requires = "size")]
    pairs: Option<String>,
    /// Squares on the --pairs board.
    #[arg(long, value_name = "N")]
    size: Option<u32>,
    /// Start square of the --pairs board: 0 (off the board; a chute may lead back to 0) or 1.
    #[arg(long, default_value_t = 1, value_name = "0|1")]
    start: u32,
    /// What a throw past the finish does (the fewest throws is the same
    /// under all three rules).
    #[arg(long, default_value = "stay", value_name = "stay|bounce|finish")]
    rules: Overshoot,
    /// Faces of the die (1 to 64).
    #[arg(long, default_value_t = 6)]
    faces: u32,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

// ----------------------------------------------------------------- helpers

/// An exact count for JSON: a number up to 2^53, else a string.
fn big_json(x: &BigUint) -> Value {
    if x.bits() <= 53 {
        json!(u64::try_from(x).unwrap_or(0))
    } else {
        json!(x.to_string())
    }
}

/// Digits grouped by thousands: 1234567 → 1,234,567.
fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn big_text(x: &BigUint) -> String {
    grouped(&x.to_string())
}

fn int_text(x: u64) -> String {
    grouped(&x.to_string())
}

fn board_line(board: &Board, rules: &Rules) -> String {
    format!(
        "{} ({} squares, {rules})",
        board.name().unwrap_or("unnamed board"),
        board.size()
    )
}

fn jump_text(j: &Jump) -> String {
    format!("{} {}->{}", j.kind(), j.from, j.to)
}

fn route_text(jumps: &[Jump]) -> String {
    if jumps.is_empty() {
        "no chutes or ladders".into()
    } else {
        jumps.iter().map(jump_text).collect::<Vec<_>>().join(", ")
    }
}

fn constraint_text(k: Constraint) -> String {
    let mut parts = Vec::new();
    if let Some(c) = k.chutes {
        parts.push(format!(
            "exactly {c} chute{}",
            if c == 1 { "" } else { "s" }
        ));
    }
    if let Some(l) = k.ladders {
        parts.push(format!(
            "exactly {l} ladder{}",
            if l == 1 { "" } else { "s" }
        ));
    }
    parts.join(" and ")
}

/// One step of a game as text: `0 -> 1, ladder 1->38`.
fn step_text(s: &Step, finish: u32) -> String {
    let mut text = if s.outcome == chutes::Outcome::LostTurn {
        format!("{} stays (lost turn)", s.from)
    } else {
        format!("{} -> {}", s.from, s.landed)
    };
    if s.landed < s.from + u32::from(s.roll) && s.outcome != chutes::Outcome::LostTurn {
        text.push_str(" (bounced back)");
    }
    if let Some(j) = s.jump {
        text.push_str(&format!(", {}", jump_text(&j)));
    }
    if s.to == finish {
        text.push_str(", finish");
    }
    text
}

/// A progress bar on stderr when it is a terminal, else a hidden one.
fn progress_bar(total: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || total < 2_000_000 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(&format!(
        "{what} {{bar:40}} {{human_pos}}/{{human_len}} games, {{elapsed}} so far, {{eta}} left"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

fn percent(p: f64) -> String {
    if p == 0.0 {
        "0%".into()
    } else if p < 1e-4 {
        format!("{:.2e}%", p * 100.0)
    } else {
        format!("{:.4}%", p * 100.0)
    }
}

// ---------------------------------------------------------------- shortest

/// Runs `parlor chutes shortest`.
pub fn shortest(args: &ShortestArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    let k = Constraint {
        chutes: args.chutes,
        ladders: args.ladders,
    };
    let games = ShortestGames::new(&board, &rules, k)?;
    let routes = games.route_count();
    let dice = games.example();
    let path = min_throws::play(&board, &rules, &dice);
    let listed: Vec<Route> = if args.list {
        games.routes(MAX_LISTED_ROUTES)
    } else {
        Vec::new()
    };
    let sequences = if args.list {
        games.sequences_list(args.limit)
    } else {
        Vec::new()
    };
    if args.json {
        let mut doc = json!({
            "board": board.name(),
            "squares": board.size(),
            "rules": rules,
            "constraint": k,
            "rolls": games.rolls(),
            "dice": dice,
            "path": path,
            "sequences": big_json(games.sequences()),
            "routes": match &routes { Ok(r) => big_json(r), Err(_) => Value::Null },
        });
        if let Err(e) = &routes {
            doc["routes_error"] = json!(e.to_string());
        }
        if args.list {
            doc["route_list"] = json!(
                listed
                    .iter()
                    .map(|r| json!({
                        "jumps": r.jumps,
                        "sequences": big_json(&r.sequences),
                        "example": r.example,
                    }))
                    .collect::<Vec<_>>()
            );
            doc["sequence_list"] = json!(sequences);
            doc["sequence_limit"] = json!(args.limit);
        }
        return print_json(&doc);
    }
    let mut out = std::io::stdout().lock();
    let what = constraint_text(k);
    let scope = if what.is_empty() {
        "shortest game".to_string()
    } else {
        format!("shortest game with {what}")
    };
    let Some(rolls) = games.rolls() else {
        writeln!(
            out,
            "No game on {} has {}: there is no {scope}.",
            board_line(&board, &rules),
            if what.is_empty() {
                "an end (the finish cannot be reached)".to_string()
            } else {
                what.clone()
            }
        )?;
        return Ok(());
    };
    writeln!(
        out,
        "The {scope} on {}: {}.",
        board_line(&board, &rules),
        rolls_text(rolls)
    )?;
    writeln!(
        out,
        "\nOne of them: dice {}",
        dice_string(dice.iter().copied(), rules.faces())
    )?;
    for (i, s) in path.iter().enumerate().take(MAX_PATH_LINES) {
        writeln!(
            out,
            "  roll {:>3}: {}  {}",
            i + 1,
            s.roll,
            step_text(s, board.finish())
        )?;
    }
    if path.len() > MAX_PATH_LINES {
        writeln!(
            out,
            "  … the first {MAX_PATH_LINES} of {} rolls are shown (--json has the whole path).",
            path.len()
        )?;
    }
    writeln!(
        out,
        "\nDice sequences of {} that play it: {} (of {}^{rolls}).",
        rolls_text(rolls),
        big_text(games.sequences()),
        rules.faces()
    )?;
    match &routes {
        Ok(r) => writeln!(
            out,
            "Distinct routes: {} (sequences taking the same chutes and ladders in the same order are one route).",
            big_text(r)
        )?,
        Err(e) => writeln!(out, "Distinct routes: not counted ({e}).")?,
    }
    if args.list {
        writeln!(out, "\nRoutes:")?;
        for (i, r) in listed.iter().enumerate() {
            writeln!(
                out,
                "  {:>4}. {}  — {} sequence{}, e.g. {}",
                i + 1,
                route_text(&r.jumps),
                big_text(&r.sequences),
                if r.sequences == BigUint::from(1u8) {
                    ""
                } else {
                    "s"
                },
                dice_string(r.example.iter().copied(), rules.faces())
            )?;
        }
        if let Ok(total) = &routes
            && BigUint::from(listed.len()) < *total
        {
            writeln!(
                out,
                "  … the first {} of {} routes are listed.",
                listed.len(),
                big_text(total)
            )?;
        }
        writeln!(
            out,
            "\nDice sequences (the first {} in dice order; --limit N for more):",
            args.limit
        )?;
        for s in &sequences {
            writeln!(out, "  {}", dice_string(s.iter().copied(), rules.faces()))?;
        }
        if BigUint::from(sequences.len()) < *games.sequences() {
            writeln!(
                out,
                "  … {} of {} listed.",
                int_text(sequences.len() as u64),
                big_text(games.sequences())
            )?;
        }
    }
    Ok(())
}

// ----------------------------------------------------------------- analyze

/// Runs `parlor chutes analyze`.
pub fn analyze(args: &AnalyzeArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    let options = MarkovOptions {
        tail: args.tail,
        max_rolls: args.max_rolls,
    };
    let m = markov::analyze(&board, &rules, &options)?;
    let odds = markov::seat_win(&m.distribution, args.players)?;
    let exact = if args.exact {
        Some(exact::moments(&board, &rules))
    } else {
        None
    };
    if args.json {
        return print_json(&analyze_json(&board, &rules, &m, &odds, exact.as_ref()));
    }
    let mut out = std::io::stdout().lock();
    let d = &m.distribution;
    writeln!(
        out,
        "Game length on {}, rolls by one player (lost turns count):",
        board_line(&board, &rules)
    )?;
    if d.never > 0.0 {
        let dead: Vec<String> = m.dead.iter().take(10).map(u32::to_string).collect();
        writeln!(
            out,
            "  Not every game ends: P(the game never ends) = {:.6}. From {} {}{} the finish cannot be reached.",
            d.never,
            plural(m.dead.len() as u64, "square", "squares"),
            dead.join(", "),
            if m.dead.len() > 10 { ", …" } else { "" }
        )?;
        if d.never >= 1.0 {
            writeln!(out, "  No game ever ends.")?;
            return Ok(());
        }
    }
    let opt = |x: Option<u32>| x.map_or_else(|| "never".to_string(), |v| v.to_string());
    match (d.mean, d.sd) {
        (Some(mean), Some(sd)) => writeln!(out, "  mean {mean:.4}   sd {sd:.4}")?,
        _ => writeln!(out, "  mean: infinite (some games never end)")?,
    }
    writeln!(
        out,
        "  median {}   mode {}   shortest {}",
        opt(d.median),
        opt(d.mode),
        opt(d.shortest)
    )?;
    let p = &d.percentiles;
    writeln!(
        out,
        "  percentiles: 25% {}   75% {}   95% {}   99% {}",
        opt(p.p25),
        opt(p.p75),
        opt(p.p95),
        opt(p.p99)
    )?;
    match &exact {
        Some(Ok(e)) => {
            writeln!(out, "  exact mean {} = {:.12}", e.mean_text(), e.mean_f64())?;
            writeln!(
                out,
                "  exact variance {} (sd {:.12})",
                exact::fraction_text(&e.variance),
                e.sd_f64()
            )?;
        }
        Some(Err(e)) => writeln!(out, "  exact mean: {e}")?,
        None => {}
    }
    writeln!(out, "\n  P(game ≤ n rolls):")?;
    let marks = cdf_marks(d.shortest.unwrap_or(1), d.percentiles.p99.unwrap_or(100));
    for n in marks {
        writeln!(out, "    n = {n:>6}   {:.10}", d.cdf(n))?;
    }
    if args.players > 1 {
        writeln!(out, "\n  {} players (seat 1 rolls first):", args.players)?;
        for (i, w) in odds.seat_win.iter().enumerate() {
            writeln!(out, "    seat {}: wins with probability {w:.10}", i + 1)?;
        }
        if odds.nobody > 0.0 {
            writeln!(out, "    nobody ever wins: {:.10}", odds.nobody)?;
        }
        if let (Some(r), Some(t)) = (odds.mean_rounds, odds.mean_rolls) {
            writeln!(
                out,
                "    expected rounds {r:.4}; expected rolls by all players {t:.4}"
            )?;
        }
    }
    writeln!(
        out,
        "\n  Jumps (expected times one player takes each; P(it is the game's last jump)):"
    )?;
    for j in &m.jumps {
        writeln!(
            out,
            "    {:<16} {:>10.6}   {:>10.6}",
            jump_text(&j.jump),
            j.expected_taken,
            j.finish_through
        )?;
    }
    writeln!(
        out,
        "    {:<16} {:>10}   {:>10.6}",
        "(no jump at all)", "", m.no_jump
    )?;
    let mut busiest: Vec<(usize, f64)> = m.visits.iter().copied().enumerate().collect();
    busiest.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top: Vec<String> = busiest
        .iter()
        .take(8)
        .map(|(s, v)| format!("{s} ({v:.3})"))
        .collect();
    writeln!(
        out,
        "\n  Squares rolled from most often (expected rolls made there): {}",
        top.join(", ")
    )?;
    if board.size() <= MAX_SQUARE_TABLE {
        writeln!(
            out,
            "\n  Expected landings per square (rolls whose count reaches it, before any jump):"
        )?;
        for row in m.landings[1..].chunks(10).enumerate() {
            let (i, values) = row;
            let cells: Vec<String> = values.iter().map(|v| format!("{v:>6.3}")).collect();
            writeln!(
                out,
                "    {:>5}-{:<5} {}",
                i * 10 + 1,
                i * 10 + values.len(),
                cells.join(" ")
            )?;
        }
    }
    writeln!(
        out,
        "  (--json has every square's expected visits and landings.)"
    )?;
    Ok(())
}

/// Boards up to this many squares get the landings table in text.
const MAX_SQUARE_TABLE: u32 = 400;

/// Roll counts worth a line in the P(game ≤ n) table: the shortest, then
/// round numbers (a step of 1, 2 or 5 × 10^k, at most 20 lines) up to the
/// 99th percentile.
fn cdf_marks(shortest: u32, p99: u32) -> Vec<u32> {
    let mut marks = vec![shortest];
    let span = p99.saturating_sub(shortest).max(1);
    let mut step = 1u32;
    'find: for power in [1u32, 10, 100, 1_000, 10_000, 100_000, 1_000_000] {
        for m in [1u32, 2, 5] {
            step = power * m;
            if span / step <= 20 {
                break 'find;
            }
        }
    }
    let mut n = (shortest / step + 1) * step;
    while n < p99 {
        marks.push(n);
        n += step;
    }
    if p99 > shortest {
        marks.push(p99);
    }
    marks
}

fn analyze_json(
    board: &Board,
    rules: &Rules,
    m: &Markov,
    odds: &SeatOdds,
    exact: Option<&Result<exact::ExactMoments, AnalysisError>>,
) -> Value {
    let d = &m.distribution;
    let mut doc = json!({
        "board": board.name(),
        "squares": board.size(),
        "rules": rules,
        "mean": d.mean,
        "sd": d.sd,
        "median": d.median,
        "mode": d.mode,
        "shortest": d.shortest,
        "percentiles": d.percentiles,
        "never": d.never,
        "tail": d.tail,
        "probabilities": d.probabilities,
        "cumulative": d.cumulative,
        "players": odds.players,
        "seat_win": odds.seat_win,
        "nobody_wins": odds.nobody,
        "mean_rounds": odds.mean_rounds,
        "mean_rolls_all_players": odds.mean_rolls,
        "visits": m.visits,
        "landings": m.landings,
        "jumps": m.jumps,
        "no_jump": m.no_jump,
        "dead_squares": m.dead,
    });
    match exact {
        Some(Ok(e)) => {
            doc["mean_exact"] = json!(e.mean_text());
            doc["variance_exact"] = json!(exact::fraction_text(&e.variance));
        }
        Some(Err(e)) => {
            doc["mean_exact"] = Value::Null;
            doc["exact_error"] = json!(e.to_string());
        }
        None => {}
    }
    doc
}

// ---------------------------------------------------------------- simulate

/// Runs `parlor chutes simulate`.
pub fn simulate(args: &SimulateArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let seed = seed_or_fresh(args.seed);
    let options = SimOptions {
        games: args.games,
        players: args.players,
        seed,
        threads: args.threads,
    };
    // The exact figures to set beside the sample.
    // The exact figures beside the sample (bounded: a board whose games run
    // past 100,000 rolls goes without them).
    let beside = MarkovOptions {
        tail: markov::DEFAULT_TAIL,
        max_rolls: 100_000,
    };
    let dist = markov::analyze(&board, &rules, &beside).map(|m| m.distribution);
    let why_no_exact = match &dist {
        Ok(d) if d.never > 0.0 => "infinite: some games never end".to_string(),
        Ok(_) => String::new(),
        Err(e) => format!("not computed ({e})"),
    };
    let dist = dist.ok();
    // With games that never end, the mean of the games that do.
    let finished_mean = dist
        .as_ref()
        .filter(|d| d.never > 0.0 && args.players == 1)
        .and_then(|d| {
            let ended: f64 = d.probabilities.iter().sum();
            let sum: f64 = d
                .probabilities
                .iter()
                .enumerate()
                .map(|(n, p)| n as f64 * p)
                .sum();
            (ended > 0.0).then(|| sum / ended)
        });
    let odds = dist
        .as_ref()
        .and_then(|d| markov::seat_win(d, args.players).ok());
    let exact_mean = odds.as_ref().and_then(|o| o.mean_rolls);
    if let Some(mean) = exact_mean {
        let rolls = mean * args.games as f64;
        if rolls > 5e10 {
            eprintln!(
                "note: about {rolls:.1e} rolls to play, at roughly 10^9 rolls per second per thread: \
                 this takes a while (Ctrl-C stops it)"
            );
        }
    }
    let bar = progress_bar(args.games, "simulating");
    let started = Instant::now();
    let result = simulate::simulate(&board, &rules, &options, &|n| bar.inc(n))?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let per_second = args.games as f64 / seconds.max(1e-9);
    let threads = if args.threads == 0 {
        rayon::current_num_threads()
    } else {
        args.threads
    };
    if args.json {
        return print_json(&json!({
            "board": board.name(),
            "squares": board.size(),
            "rules": rules,
            "players": args.players,
            "seed": seed,
            "threads": threads,
            "games": result.games,
            "unfinished": result.unfinished,
            "mean": result.mean(),
            "sd": result.sd(),
            "ci95": result.ci95().map(|(a, b)| [a, b]),
            "exact_mean": exact_mean,
            "exact_mean_of_finished": finished_mean,
            "mean_rounds": result.mean_rounds(),
            "exact_mean_rounds": odds.as_ref().and_then(|o| o.mean_rounds),
            "seat_wins": result.seat_wins,
            "seat_win_exact": odds.as_ref().map(|o| &o.seat_win),
            "histogram": result.histogram,
            "seconds": seconds,
            "games_per_second": per_second,
        }));
    }
    print_simulation(
        &board,
        &rules,
        &result,
        (exact_mean, &why_no_exact, finished_mean),
        odds.as_ref(),
        seconds,
        threads,
    )
}

fn print_simulation(
    board: &Board,
    rules: &Rules,
    r: &SimResult,
    (exact_mean, why_no_exact, finished_mean): (Option<f64>, &str, Option<f64>),
    odds: Option<&SeatOdds>,
    seconds: f64,
    threads: usize,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Monte Carlo on {}: {} {}, {} player{}, seed {}, {threads} thread{}.",
        board_line(board, rules),
        int_text(r.games),
        plural(r.games, "game", "games"),
        r.players,
        if r.players == 1 { "" } else { "s" },
        r.seed,
        if threads == 1 { "" } else { "s" }
    )?;
    let what = if r.players == 1 {
        "rolls"
    } else {
        "rolls by all players"
    };
    match (r.mean(), r.ci95()) {
        (Some(mean), Some((lo, hi))) => {
            writeln!(
                out,
                "  mean {mean:.4} {what}, 95% interval [{lo:.4}, {hi:.4}]"
            )?;
            match exact_mean {
                Some(e) => writeln!(
                    out,
                    "  exact mean {e:.4} ({} the interval)",
                    if lo <= e && e <= hi {
                        "inside"
                    } else {
                        "outside"
                    }
                )?,
                None => {
                    writeln!(out, "  exact mean: {why_no_exact}")?;
                    if let Some(e) = finished_mean {
                        writeln!(
                            out,
                            "  exact mean of the games that end {e:.4} ({} the interval)",
                            if lo <= e && e <= hi {
                                "inside"
                            } else {
                                "outside"
                            }
                        )?;
                    }
                }
            }
            if let Some(sd) = r.sd() {
                writeln!(out, "  sd {sd:.4}")?;
            }
        }
        (Some(mean), None) => writeln!(out, "  mean {mean:.4} {what}")?,
        _ => writeln!(out, "  no game ended")?,
    }
    if r.unfinished > 0 {
        writeln!(
            out,
            "  {} {} never end (every token on a dead square): left out of the mean",
            int_text(r.unfinished),
            plural(r.unfinished, "game can", "games can")
        )?;
    }
    if r.players > 1 {
        let exact = odds.map(|o| &o.seat_win);
        for (i, (p, half)) in r.seat_shares().iter().enumerate() {
            let beside = exact
                .and_then(|e| e.get(i))
                .map(|e| format!("   exact {e:.4}"))
                .unwrap_or_default();
            writeln!(out, "  seat {} wins {:.4} ± {half:.4}{beside}", i + 1, p)?;
        }
        if let Some(rounds) = r.mean_rounds() {
            let beside = odds
                .and_then(|o| o.mean_rounds)
                .map(|e| format!("   exact {e:.4}"))
                .unwrap_or_default();
            writeln!(out, "  mean rounds {rounds:.4}{beside}")?;
        }
    }
    writeln!(
        out,
        "  {} games/s ({seconds:.3} s)",
        int_text((r.games as f64 / seconds.max(1e-9)) as u64)
    )?;
    if r.finished() == 0 {
        // "no game ended" was said above: no empty histogram.
        return Ok(());
    }
    writeln!(out, "\n  Histogram of game length ({what}):")?;
    for line in histogram_lines(&r.histogram, r.finished()) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// The histogram in at most ~30 bins of equal width, with bars.
fn histogram_lines(hist: &[u64], total: u64) -> Vec<String> {
    let Some(first) = hist.iter().position(|&c| c > 0) else {
        return Vec::new();
    };
    let last = hist.iter().rposition(|&c| c > 0).unwrap_or(first);
    let span = last - first + 1;
    let width = span.div_ceil(30).max(1);
    let bins: Vec<(usize, u64)> = (first..=last)
        .step_by(width)
        .map(|lo| (lo, hist[lo..(lo + width).min(last + 1)].iter().sum()))
        .collect();
    let most = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1);
    bins.iter()
        .map(|&(lo, count)| {
            let label = if width == 1 {
                format!("{lo}")
            } else {
                format!("{lo}-{}", (lo + width - 1).min(last))
            };
            let bar = "#".repeat(((count as f64 / most as f64) * 50.0).round() as usize);
            format!(
                "{label:>11} {:>8}  {bar}",
                percent(count as f64 / total.max(1) as f64)
            )
        })
        .collect()
}

// ------------------------------------------------------------------ search

/// Runs `parlor chutes search`.
pub fn search(args: &SearchArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let seed = seed_or_fresh(args.seed);
    let options = SearchOptions {
        games: args.games,
        seed,
        chutes: args.chutes,
        all_shortest: args.all_shortest,
        threads: args.threads,
    };
    let bar = progress_bar(args.games, "searching");
    let started = Instant::now();
    let found = search::search(&board, &rules, &options, &|n| bar.inc(n))?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let k = Constraint {
        chutes: args.chutes,
        ladders: None,
    };
    let exact = ShortestGames::new(&board, &rules, k)?;
    let exact_routes = exact.route_count().ok();
    if args.json {
        return print_json(&json!({
            "board": board.name(),
            "squares": board.size(),
            "rules": rules,
            "seed": seed,
            "games": found.games,
            "chutes": args.chutes,
            "records": found.records.iter().map(|r| json!({
                "game": r.game,
                "rolls": r.rolls,
                "dice": dice_string(r.dice.iter().copied(), rules.faces()),
            })).collect::<Vec<_>>(),
            "shortest_found": found.shortest,
            "tied_games": found.tied_games,
            "tied_sequences": found.tied_sequences,
            "ties_complete": found.ties_complete,
            "routes_found": found.routes,
            "exact": {
                "rolls": exact.rolls(),
                "sequences": big_json(exact.sequences()),
                "routes": exact_routes.as_ref().map(big_json),
            },
            "seconds": seconds,
            "games_per_second": args.games as f64 / seconds.max(1e-9),
        }));
    }
    print_search(
        &board,
        &rules,
        args,
        &found,
        &exact,
        exact_routes.as_ref(),
        seconds,
    )
}

fn print_search(
    board: &Board,
    rules: &Rules,
    args: &SearchArgs,
    found: &SearchResult,
    exact: &ShortestGames,
    exact_routes: Option<&BigUint>,
    seconds: f64,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let k = Constraint {
        chutes: args.chutes,
        ladders: None,
    };
    let what = constraint_text(k);
    writeln!(
        out,
        "Searching {} random games on {}, seed {}{}:",
        int_text(found.games),
        board_line(board, rules),
        found.seed,
        if what.is_empty() {
            String::new()
        } else {
            format!(", games with {what}")
        }
    )?;
    let width = found.games.to_string().len();
    for r in &found.records {
        writeln!(
            out,
            "  game {:>width$}: {:>4} {:<5} {}",
            r.game,
            r.rolls,
            plural(r.rolls.into(), "roll", "rolls"),
            dice_string(r.dice.iter().copied(), rules.faces())
        )?;
    }
    match found.shortest {
        Some(s) => writeln!(out, "Shortest found: {} ({:.3} s).", rolls_text(s), seconds)?,
        None => writeln!(
            out,
            "{} ({:.3} s).",
            if what.is_empty() {
                "No game ended".to_string()
            } else {
                format!("No game with {what} was found")
            },
            seconds
        )?,
    }
    if args.all_shortest && found.shortest.is_some() {
        writeln!(
            out,
            "\nGames as short as that: {} {}, {} distinct dice {}{}, {}:",
            int_text(found.tied_games),
            plural(found.tied_games, "game", "games"),
            int_text(found.tied_sequences),
            plural(found.tied_sequences, "sequence", "sequences"),
            if found.ties_complete {
                String::new()
            } else {
                format!(
                    " (only the first {} kept)",
                    int_text(search::MAX_TIES as u64)
                )
            },
            count(found.routes.len() as u64, "route", "routes")
        )?;
        let exact_list = if exact.rolls() == found.shortest {
            exact.routes(MAX_LISTED_ROUTES)
        } else {
            Vec::new()
        };
        for (i, r) in found.routes.iter().enumerate() {
            let of = exact_list
                .iter()
                .find(|e| e.jumps == r.jumps)
                .map(|e| format!(" of {}", big_text(&e.sequences)))
                .unwrap_or_default();
            writeln!(
                out,
                "  {:>3}. {}  — {} {}{of} seen in {} {}:",
                i + 1,
                route_text(&r.jumps),
                int_text(r.sequences),
                plural(r.sequences, "sequence", "sequences"),
                int_text(r.games),
                plural(r.games, "game", "games"),
            )?;
            for (dice, games) in r.seen.iter().take(MAX_TIES_PER_ROUTE) {
                writeln!(
                    out,
                    "         {}{}",
                    dice_string(dice.iter().copied(), rules.faces()),
                    if *games > 1 {
                        format!("  ({} games)", int_text(*games))
                    } else {
                        String::new()
                    }
                )?;
            }
            if r.seen.len() > MAX_TIES_PER_ROUTE {
                writeln!(
                    out,
                    "         … and {} more (--json lists them all)",
                    int_text((r.seen.len() - MAX_TIES_PER_ROUTE) as u64)
                )?;
            }
        }
    }
    let exact_text = match exact.rolls() {
        Some(n) => format!(
            "{}; {} dice sequence{}, {} distinct route{}",
            rolls_text(n),
            big_text(exact.sequences()),
            if exact.sequences() == &BigUint::from(1u8) {
                ""
            } else {
                "s"
            },
            exact_routes.map_or_else(|| "(too many to count)".to_string(), big_text),
            if exact_routes.is_some_and(|r| r == &BigUint::from(1u8)) {
                ""
            } else {
                "s"
            }
        ),
        None => "no such game exists".to_string(),
    };
    writeln!(out, "\nExact answer (breadth-first search): {exact_text}.")?;
    match (found.shortest, exact.rolls()) {
        (Some(f), Some(e)) if f == e => {
            writeln!(out, "The search found the true shortest length.")?
        }
        (Some(f), Some(e)) => writeln!(
            out,
            "The search's best is {} longer than the true shortest: try more --games.",
            rolls_text(f - e)
        )?,
        _ => {}
    }
    Ok(())
}

// -------------------------------------------------------------- min-throws

#[derive(Serialize)]
struct MinThrowsJson<'a> {
    board: Option<&'a str>,
    squares: u32,
    start: u32,
    rules: Rules,
    throws: Option<u32>,
    rolls: &'a [u8],
    squares_after: Vec<u32>,
    steps: &'a [Step],
    sequences: Value,
}

/// Runs `parlor chutes min-throws`.
pub fn min_throws_cmd(args: &MinThrowsArgs) -> Result<()> {
    let board = min_throws_board(args)?;
    let rules = Rules::new(args.rules, args.faces)?;
    let m: MinThrows = min_throws::min_throws(&board, &rules)?;
    if args.json {
        return print_json(&MinThrowsJson {
            board: board.name(),
            squares: board.size(),
            start: board.start(),
            rules,
            throws: m.throws,
            rolls: &m.rolls,
            squares_after: m.steps.iter().map(|s| s.to).collect(),
            steps: &m.steps,
            sequences: big_json(&m.sequences),
        });
    }
    let mut out = std::io::stdout().lock();
    let start = if board.start() == 0 {
        "off the board (0)"
    } else {
        "square 1"
    };
    writeln!(
        out,
        "{}, starting {start}, the player choosing every throw:",
        board_line(&board, &rules)
    )?;
    let Some(throws) = m.throws else {
        writeln!(
            out,
            "The finish {} cannot be reached: no sequence of throws ends the game.",
            board.finish()
        )?;
        return Ok(());
    };
    writeln!(out, "Fewest throws: {throws}")?;
    for (i, s) in m.steps.iter().enumerate() {
        writeln!(
            out,
            "  throw {:>3}: {}  {}",
            i + 1,
            s.roll,
            step_text(s, board.finish())
        )?;
    }
    writeln!(
        out,
        "({} of the {}^{throws} sequences of {} {}.)",
        big_text(&m.sequences),
        rules.faces(),
        count(throws.into(), "throw", "throws"),
        if m.sequences == BigUint::from(1u8) {
            "finishes"
        } else {
            "finish"
        }
    )?;
    Ok(())
}

fn min_throws_board(args: &MinThrowsArgs) -> Result<Board> {
    if let Some(pairs) = &args.pairs {
        let size = args.size.context("--pairs needs --size N")?;
        return min_throws::board_from_pairs(pairs, size, args.start)
            .with_context(|| format!("--pairs \"{pairs}\" is not a valid board"));
    }
    if let Some(grid) = &args.leetcode {
        let trimmed = grid.trim_start();
        let (text, name) = if trimmed.starts_with('[') || trimmed.contains('=') {
            (grid.clone(), "leetcode".to_string())
        } else {
            let text = std::fs::read_to_string(grid)
                .with_context(|| format!("cannot read the LeetCode grid file {grid}"))?;
            (text, grid.clone())
        };
        let read = formats::read_board(&text, Some(Format::Leetcode), None)
            .with_context(|| format!("{name} is not a valid LeetCode 909 grid"))?;
        crate::common::print_notes(&name, &read.notes);
        return Ok(read.board.with_name(name));
    }
    if args.size.is_some() {
        bail!("--size goes with --pairs");
    }
    let source = args.board.as_deref().unwrap_or("classic");
    crate::common::load_board(source, args.format)
}
