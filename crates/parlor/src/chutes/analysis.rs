//! `parlor chutes search|shortest|analyze|simulate|min-throws`: the
//! analysis commands. Glue only: each builds the library's report
//! (`chutes::analysis::report`) and prints its words, or with `--json` the
//! report itself (the same document the web API answers).
//!
//! Terms:
//! - **report**: the library's answer to one question, with its words.
//! - **progress bar**: drawn on stderr only when stderr is a terminal.

use crate::common::{BoardArgs, print_json, print_text, seed_or_fresh};
use anyhow::{Context, Result, bail};
use chutes::analysis::markov::{self, MarkovOptions};
use chutes::analysis::min_throws;
use chutes::analysis::report::{
    AnalysisOptions, AnalysisReport, MinThrowsReport, SearchReport, SensitivityReport,
    ShortestListing, ShortestReport, SimulationExact, SimulationReport,
};
use chutes::analysis::search::SearchOptions;
use chutes::analysis::shortest::Constraint;
use chutes::analysis::simulate::SimOptions;
use chutes::formats::{self, Format};
use chutes::{Board, Overshoot, Rules};
use clap::Args;
use indicatif::ProgressBar;

/// Arguments of `parlor chutes shortest`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes shortest                       the classic board's shortest game: 7 rolls
  parlor chutes shortest --chutes 2            exactly two chutes, as the Java assignment asks
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
    /// Print the report as JSON: the API's shortest answer (docs/api.md).
    #[arg(long)]
    json: bool,
}

/// The most routes `shortest --list` lists.
const MAX_LISTED_ROUTES: usize = 10_000;

/// Arguments of `parlor chutes analyze`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes analyze                        mean 39.2251 rolls on the classic board
  parlor chutes analyze --exact                the mean as an exact fraction
  parlor chutes analyze --players 4            each seat's chance to win
  parlor chutes analyze --rules bounce --json
  parlor chutes analyze --sensitivity --players 2   how each chute and ladder moves the mean and the seats")]
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
    /// Instead: for every chute and ladder, the exact change in the mean and
    /// each seat's chance when it is removed or its ends move 1 to 6
    /// squares, and for every empty square a new chute or ladder there.
    #[arg(long, conflicts_with_all = ["exact", "tail", "max_rolls"])]
    sensitivity: bool,
    /// The length of the new chutes and ladders of --sensitivity.
    #[arg(
        long,
        default_value_t = 10,
        value_name = "SQUARES",
        requires = "sensitivity"
    )]
    length: u32,
    /// Print the report as JSON, with the whole distribution and every
    /// square and jump: the API's analysis answer (docs/api.md).
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
    /// Print the report as JSON (docs/api.md).
    #[arg(long)]
    json: bool,
}

/// Arguments of `parlor chutes search`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes search --seed 1                  each new record, as the C assignment asks
  parlor chutes search --chutes 2 --games 1000000   as the Java assignment asks: exactly two chutes
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
    /// Print the report as JSON (docs/api.md).
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
    format: Option<games::board_files::BoardFormat>,
    /// A LeetCode 909 grid: the JSON itself, or a file holding it.
    #[arg(long, value_name = "JSON|FILE", conflicts_with = "pairs")]
    leetcode: Option<String>,
    /// Jumps as "start end start end …" (the minimum-throws assignment's form); needs --size.
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
    /// Print the report as JSON: the API's min-throws answer (docs/api.md).
    #[arg(long)]
    json: bool,
}

// ----------------------------------------------------------------- helpers

/// A progress bar for `total` games when they take a while (two million
/// or more), else a hidden one.
fn progress_bar(total: u64, what: &str, json: bool) -> ProgressBar {
    if total < 2_000_000 {
        return ProgressBar::hidden();
    }
    crate::progress::games_bar(total, what, "games", json)
}

/// A flag the first Ctrl-C raises: the games not yet started are skipped
/// and the report is of those played.
fn stop_on_ctrl_c() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let raise = std::sync::Arc::clone(&stop);
    crate::progress::on_ctrl_c(move || raise.store(true, std::sync::atomic::Ordering::SeqCst));
    stop
}

/// Prints `report` as JSON or in its words.
fn print_report(report: &(impl serde::Serialize + std::fmt::Display), json: bool) -> Result<()> {
    if json {
        print_json(report)
    } else {
        print_text(report)
    }
}

// ---------------------------------------------------------------- shortest

/// Runs `parlor chutes shortest`.
pub fn shortest(args: &ShortestArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    let constraint = Constraint {
        chutes: args.chutes,
        ladders: args.ladders,
    };
    let listing = if args.list {
        ShortestListing {
            routes: MAX_LISTED_ROUTES,
            sequences: args.limit,
        }
    } else {
        ShortestListing::default()
    };
    let report = ShortestReport::new(&board, &rules, constraint, listing)?;
    print_report(&report, args.json)
}

// ----------------------------------------------------------------- analyze

/// Runs `parlor chutes analyze`.
pub fn analyze(args: &AnalyzeArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    if args.sensitivity {
        let budget = tabletop::Budget::unlimited();
        let report = SensitivityReport::new(&board, &rules, args.players, args.length, &budget)?;
        return print_report(&report, args.json);
    }
    let options = AnalysisOptions {
        players: args.players,
        exact: args.exact,
        markov: MarkovOptions {
            tail: args.tail,
            max_rolls: args.max_rolls,
        },
    };
    let report = AnalysisReport::new(&board, &rules, &options)?;
    print_report(&report, args.json)
}

// ---------------------------------------------------------------- simulate

/// Runs `parlor chutes simulate`.
pub fn simulate(args: &SimulateArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let options = SimOptions {
        games: args.games,
        players: args.players,
        seed: seed_or_fresh(args.seed),
        threads: args.threads,
    };
    let exact = SimulationExact::new(&board, &rules, args.players);
    if let Some(mean) = exact.mean {
        let rolls = mean * args.games as f64;
        if rolls > 5e10 {
            eprintln!(
                "note: about {rolls:.1e} rolls to play, at roughly 10^9 rolls per second per thread: \
                 this takes a while (Ctrl-C stops it)"
            );
        }
    }
    let bar = progress_bar(args.games, "simulating", args.json);
    let stop = stop_on_ctrl_c();
    let report =
        SimulationReport::run_until(&board, &rules, &options, exact, &|n| bar.inc(n), &stop)?;
    bar.finish_and_clear();
    print_report(&report, args.json)
}

// ------------------------------------------------------------------ search

/// Runs `parlor chutes search`.
pub fn search(args: &SearchArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let options = SearchOptions {
        games: args.games,
        seed: seed_or_fresh(args.seed),
        chutes: args.chutes,
        all_shortest: args.all_shortest,
        threads: args.threads,
    };
    let bar = progress_bar(args.games, "searching", args.json);
    let stop = stop_on_ctrl_c();
    let report = SearchReport::run_until(&board, &rules, &options, &|n| bar.inc(n), &stop)?;
    bar.finish_and_clear();
    print_report(&report, args.json)
}

// -------------------------------------------------------------- min-throws

/// Runs `parlor chutes min-throws`.
pub fn min_throws_cmd(args: &MinThrowsArgs) -> Result<()> {
    let board = min_throws_board(args)?;
    let rules = Rules::new(args.rules, args.faces)?;
    let report = MinThrowsReport::new(&board, &rules)?;
    print_report(&report, args.json)
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
