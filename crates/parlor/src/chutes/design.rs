//! `parlor chutes design`: a board made to targets (mean game length, its
//! spread, fair seats, a least shortest game). Glue only: the search and
//! its report are the library's (`chutes::analysis::design`,
//! `chutes::analysis::report::DesignReport`).
//!
//! Terms:
//! - **progress**: drawn on stderr only when stderr is a terminal.
//! - **interrupt**: Ctrl-C stops the search; the best board so far is
//!   reported and written.

use crate::common::{load_board, print_json, print_text, seed_or_fresh};
use anyhow::{Context, Result, bail};
use chutes::analysis::design::{
    self, CountRange, DEFAULT_EVALUATIONS, DEFAULT_FAIR, DesignOptions, DesignShape, DesignTargets,
    MEAN_TOLERANCE, PercentileTarget, SD_TOLERANCE, default_max_jump,
};
use chutes::analysis::goal::Goal;
use chutes::analysis::quality::{DEFAULT_CROSSINGS, Quality};
use chutes::analysis::report::DesignReport;
use chutes::{Overshoot, Rules};
use clap::Args;
use std::path::{Path, PathBuf};
use tabletop::Budget;

/// Arguments of `parlor chutes design`.
#[derive(Args, Debug)]
#[command(
    after_help = "Every candidate board is judged exactly (Markov chain). The same seed,
shape, rules and targets give the same board. Ctrl-C keeps the best board so far.

Goals (--mean, --sd, --shortest, --percentile): 30 (within the default tolerance),
30±0.5 or 30+-0.5, 20..30, >=20, <=30, min or max. A target that a proven bound
rules out is refused at once; a target the search does not meet exits with status 1.

Board rules (on unless --allow names them): no ladder onto the finish (finish), no
jump starting in the first row (first-row), no two jumps' ends touching (touching),
at most --crossings crossings (crossings); jumps of --min-jump to --max-jump squares.

Examples:
  parlor chutes design --mean 30 --players 4 --seed 1      a fair 4-player board, 30 rolls on average
  parlor chutes design --from classic --mean 25 --seed 1   the classic board, shorter, changed as little as possible
  parlor chutes design --size 64 --chutes 4..6 --ladders 3..5 --sd min --mean 25±1 --seed 2 --json
  parlor chutes design --jumps 10 --chutes 0..10 --ladders 0..10 --mean 66.978705+-5e-7 --allow all --chains"
)]
pub struct DesignArgs {
    /// The last square (tokens start off the board; with --from, the
    /// board's own).
    #[arg(long)]
    size: Option<u32>,
    /// Start from this board (`classic` or a board file) and change as few
    /// jumps as possible.
    #[arg(long, value_name = "classic|FILE")]
    from: Option<String>,
    /// How many chutes: a number or a range such as 6..10 (default 8; with
    /// --from, up to 4 more or fewer than the board has).
    #[arg(long, value_name = "K|MIN..MAX")]
    chutes: Option<CountRange>,
    /// How many ladders: a number or a range such as 6..10 (default 8; with
    /// --from, up to 4 more or fewer than the board has).
    #[arg(long, value_name = "K|MIN..MAX")]
    ladders: Option<CountRange>,
    /// How many jumps of both kinds together: a number or a range.
    #[arg(long, value_name = "K|MIN..MAX")]
    jumps: Option<CountRange>,
    /// The shortest jump, in squares.
    #[arg(long, default_value_t = 2)]
    min_jump: u32,
    /// The longest jump, in squares (default: half the board).
    #[arg(long)]
    max_jump: Option<u32>,
    /// Allow a jump to end where another starts.
    #[arg(long)]
    chains: bool,
    /// Board rules to switch off, comma-separated: finish, first-row,
    /// touching, crossings, or all.
    #[arg(long, value_name = "RULE,...", value_delimiter = ',')]
    allow: Vec<String>,
    /// The most crossing pairs of jumps in the picture.
    #[arg(long, default_value_t = DEFAULT_CROSSINGS)]
    crossings: u32,
    /// What a roll that would pass the finish does.
    #[arg(long, default_value = "stay", value_name = "stay|bounce|finish")]
    rules: Overshoot,
    /// Faces of the die (1 to 64).
    #[arg(long, default_value_t = 6)]
    faces: u32,
    /// Target: one player's mean game length in rolls (a plain number is
    /// met within 0.1).
    #[arg(long, value_name = "GOAL", allow_hyphen_values = true)]
    mean: Option<String>,
    /// Target: the standard deviation of the game length (a plain number
    /// is met within 0.1).
    #[arg(long, value_name = "GOAL", allow_hyphen_values = true)]
    sd: Option<String>,
    /// Players whose seats are compared (1 to 8); 2 or more ask for fair
    /// seats within 0.02 unless --fair says otherwise.
    #[arg(long, short = 'p', default_value_t = 1)]
    players: usize,
    /// Target: every seat's chance to win within D of 1/players, or `off`.
    #[arg(long, value_name = "D|off", allow_hyphen_values = true)]
    fair: Option<String>,
    /// Target: the fewest rolls a game can take (a plain number: at least).
    #[arg(long, value_name = "GOAL", allow_hyphen_values = true)]
    shortest: Option<String>,
    /// Target: a percentile of the game length, as PERCENT:GOAL (a plain
    /// number: at most), e.g. 90:<=60. May be repeated.
    #[arg(long, value_name = "Q:GOAL", allow_hyphen_values = true)]
    percentile: Vec<PercentileTarget>,
    /// The seed of the search (a fresh one when absent; the report says it).
    #[arg(long)]
    seed: Option<u64>,
    /// The most candidate boards to judge.
    #[arg(long, default_value_t = DEFAULT_EVALUATIONS)]
    evaluations: u64,
    /// Write the board as a TOML board file here.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: Option<PathBuf>,
    /// The board's name, on its pictures and in games (by default the
    /// --out file's name, else design-SEED).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Print the report as JSON (the board, the targets and the board's
    /// analysis).
    #[arg(long)]
    json: bool,
}

/// The designed board's name: `--name`, else the `--out` file's name
/// without its extension; `None` keeps the design's own (`design-SEED`).
/// A name follows the rule of an uploaded board's (at most 64
/// characters, nothing invisible), so that the board can be played on a
/// server.
///
/// # Errors
/// A `--name` that breaks the rule (a file's name that does is left out).
fn board_name(args: &DesignArgs) -> Result<Option<String>> {
    let most = server::tools::chutes_boards::BOARD_NAME_MAX;
    if let Some(name) = &args.name {
        let name =
            tabletop::play::check_text(name, most).map_err(|e| anyhow::anyhow!("--name: {e}"))?;
        return Ok(Some(name));
    }
    let stem = args
        .out
        .as_deref()
        .and_then(Path::file_stem)
        .and_then(|s| s.to_str());
    Ok(stem.and_then(|s| tabletop::play::check_text(s, most).ok()))
}

/// A goal read with `tolerance` for a plain number.
fn goal(name: &str, text: Option<&str>, tolerance: f64) -> Result<Option<Goal>> {
    text.map(|t| Goal::parse_with(t, tolerance).with_context(|| format!("--{name}")))
        .transpose()
}

/// The board rules, with those `--allow` names switched off.
fn quality(allow: &[String], crossings: u32) -> Result<Quality> {
    Quality::allowing(allow, crossings).map_err(|e| anyhow::anyhow!("--allow: {e}"))
}

/// Refuses an output path whose folder does not exist, before the search.
fn check_out(path: &Path) -> Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        bail!(
            "cannot write the board to {}: the folder {} does not exist",
            path.display(),
            folder.display()
        );
    }
    if path.is_dir() {
        bail!(
            "cannot write the board to {}: it is a folder",
            path.display()
        );
    }
    Ok(())
}

/// The shape the arguments ask for.
fn shape(args: &DesignArgs) -> Result<DesignShape> {
    let from = args
        .from
        .as_deref()
        .map(|source| load_board(source, None))
        .transpose()?;
    let size = match (&from, args.size) {
        (Some(b), Some(s)) if b.size() != s => {
            bail!(
                "--size {s} differs from the --from board's {} squares",
                b.size()
            )
        }
        (Some(b), _) => b.size(),
        (None, s) => s.unwrap_or(100),
    };
    if from.as_ref().is_some_and(|b| b.start() != 0) {
        bail!(
            "--from: the designer starts tokens off the board, on 0; this board starts them on 1"
        );
    }
    // With a starting board, each kind may grow or shrink by a few.
    let around = CountRange::around;
    let (chutes, ladders) = match &from {
        Some(b) => (
            args.chutes.unwrap_or(around(b.chutes().count())),
            args.ladders.unwrap_or(around(b.ladders().count())),
        ),
        None => (
            args.chutes.unwrap_or(CountRange::exactly(8)),
            args.ladders.unwrap_or(CountRange::exactly(8)),
        ),
    };
    Ok(DesignShape {
        size,
        chutes,
        ladders,
        jumps: args.jumps,
        min_jump: args.min_jump,
        max_jump: args.max_jump.unwrap_or(default_max_jump(size)),
        chains: args.chains,
        quality: quality(&args.allow, args.crossings)?,
        from: from.map(|b| b.jumps().to_vec()),
    })
}

/// The targets the arguments ask for.
fn targets(args: &DesignArgs) -> Result<DesignTargets> {
    let fair = match args.fair.as_deref() {
        Some("off" | "none") => None,
        Some(d) => Some(d.parse::<f64>().map_err(|_| {
            anyhow::anyhow!("--fair: '{d}' is not a margin: give a number such as 0.02, or off")
        })?),
        None => (args.players >= 2).then_some(DEFAULT_FAIR),
    };
    let shortest = goal("shortest", args.shortest.as_deref(), 0.0)?.map(|g| match g {
        Goal::Near {
            value,
            tolerance: 0.0,
        } => Goal::AtLeast { value },
        g => g,
    });
    Ok(DesignTargets {
        mean: goal("mean", args.mean.as_deref(), MEAN_TOLERANCE)?,
        sd: goal("sd", args.sd.as_deref(), SD_TOLERANCE)?,
        players: args.players,
        fair,
        shortest,
        percentiles: args.percentile.clone(),
    })
}

/// Runs `parlor chutes design`.
///
/// # Errors
/// A shape or target that cannot be, a target no board can meet (said at
/// once), an output path that cannot be written (said before the search),
/// or a target the designed board does not meet (said after the report).
pub fn run(args: &DesignArgs) -> Result<()> {
    let rules = Rules::new(args.rules, args.faces)?;
    let shape = shape(args)?;
    let targets = targets(args)?;
    if let Some(path) = &args.out {
        check_out(path)?;
    }
    let name = board_name(args)?;
    if let Err(e) = design::check(&shape, &rules, &targets) {
        let defaults = match (
            args.from.is_some(),
            args.chutes.is_some(),
            args.ladders.is_some(),
        ) {
            (false, true, false) => " (8 ladders is the default: give --ladders)",
            (false, false, true) => " (8 chutes is the default: give --chutes)",
            (false, false, false) => {
                " (8 chutes and 8 ladders are the default: give --chutes and --ladders)"
            }
            _ => "",
        };
        let hint = if matches!(e, design::DesignError::NoRoom { .. }) {
            defaults
        } else {
            ""
        };
        bail!("{e}{hint}");
    }
    let options = DesignOptions {
        seed: seed_or_fresh(args.seed),
        evaluations: args.evaluations,
    };
    let (budget, canceller) = Budget::cancellable();
    // The first Ctrl-C stops the search (the best board is kept); a second
    // ends the process at once.
    crate::progress::on_ctrl_c(move || canceller.cancel());
    let bar = crate::progress::bar(
        options.evaluations,
        "designing {bar:40} {human_pos}/{human_len} boards, {msg}, {elapsed} (Ctrl-C keeps the best so far)",
        args.json,
    );
    let found = design::design(&shape, &rules, &targets, options, &budget, &mut |p| {
        bar.set_position(p.evaluations);
        bar.set_message(format!("best miss {:.3}", p.best_cost));
    });
    bar.finish_and_clear();
    let mut found = found?;
    if let Some(name) = name {
        found.board = found.board.with_name(name);
    }
    let report = DesignReport::new(&found, &shape, &rules, options.seed, args.players)?;
    if let Some(path) = &args.out {
        tabletop::write_atomic(path, report.board_file.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        if !args.json {
            println!("Wrote the board to {}.", path.display());
        }
    }
    if args.json {
        print_json(&report)?;
    } else {
        print_text(&report)?;
    }
    let mut missed: Vec<String> = report
        .targets
        .iter()
        .filter(|t| !t.met)
        .map(|t| {
            let why = t
                .impossible
                .as_deref()
                .or(t.bound.as_deref())
                .map(|b| format!("; {b}"))
                .unwrap_or_default();
            format!("{} by {}{why}", t.name, t.miss)
        })
        .collect();
    missed.extend(
        report
            .rules
            .iter()
            .filter(|r| r.on && !r.kept)
            .map(|r| format!("the board rule {}", r.text)),
    );
    if !missed.is_empty() {
        bail!(
            "not every target was met ({} boards judged): missed {}",
            report.evaluations,
            missed.join(", ")
        );
    }
    Ok(())
}
