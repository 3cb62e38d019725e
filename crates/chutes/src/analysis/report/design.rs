//! The design report: the board the designer made, each target beside the
//! board's exact figure, and the board's whole analysis.
//!
//! Terms:
//! - **target**: a figure asked for (mean, sd, fair, shortest) and how close
//!   the board came ([`TargetResult`]).
//! - **met**: every target is within its tolerance; otherwise the report
//!   says which were missed, and why when a bound shows no board can meet
//!   them.
//! - **analysis**: the same document `parlor chutes analyze --players P
//!   --json` prints for the board ([`AnalysisReport`]).

use super::{AnalysisOptions, AnalysisReport, jump_text};
use crate::analysis::AnalysisError;
use crate::analysis::design::{Design, DesignShape, MEAN_TOLERANCE, SD_TOLERANCE, TargetResult};
use crate::board::Jump;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt;

/// The answer to "design me a board".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignReport {
    /// The seed the search ran from (the same seed gives the same board).
    pub seed: u64,
    /// The shape asked for.
    pub shape: DesignShape,
    /// Are all targets met?
    pub met: bool,
    /// Each target beside the board's figure.
    pub targets: Vec<TargetResult>,
    /// Candidate boards judged exactly.
    pub evaluations: u64,
    /// Did the search stop early (interrupted), keeping its best board?
    pub stopped: bool,
    /// The board's jumps, ordered by start square.
    pub jumps: Vec<Jump>,
    /// The board as a TOML board file.
    pub board_file: String,
    /// The board's analysis for the players of the targets.
    pub analysis: AnalysisReport,
}

impl DesignReport {
    /// The report of `design`, made from `shape` with `seed`, analysed for
    /// `players` players.
    ///
    /// # Errors
    /// As [`AnalysisReport::new`].
    pub fn new(
        design: &Design,
        shape: &DesignShape,
        rules: &Rules,
        seed: u64,
        players: usize,
    ) -> Result<Self, AnalysisError> {
        let options = AnalysisOptions {
            players,
            ..AnalysisOptions::default()
        };
        let analysis = AnalysisReport::new(&design.board, rules, &options)?;
        Ok(Self {
            seed,
            shape: shape.clone(),
            met: design.met(),
            targets: design.targets.clone(),
            evaluations: design.evaluations,
            stopped: design.stopped,
            jumps: design.board.jumps().to_vec(),
            board_file: crate::formats::write_toml(&design.board),
            analysis,
        })
    }
}

/// A target's name and figures in words.
fn target_line(t: &TargetResult) -> String {
    match t.name {
        "mean" => format!(
            "mean {:.3} rolls (asked {} ± {MEAN_TOLERANCE})",
            t.achieved, t.target
        ),
        "sd" => format!(
            "standard deviation {:.3} rolls (asked {} ± {SD_TOLERANCE})",
            t.achieved, t.target
        ),
        "fair" => format!(
            "every seat within {:.4} of an even share (asked within {})",
            t.achieved, t.target
        ),
        _ => format!(
            "shortest game {} rolls (asked at least {})",
            t.achieved, t.target
        ),
    }
}

impl fmt::Display for DesignReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.shape;
        writeln!(
            f,
            "A board of {} squares with {} chutes and {} ladders (jumps of {} to {} squares{}), seed {}:",
            s.size,
            s.chutes,
            s.ladders,
            s.min_jump,
            s.max_jump,
            if s.chains { ", chains allowed" } else { "" },
            self.seed
        )?;
        let ladders: Vec<String> = self
            .jumps
            .iter()
            .filter(|j| j.to > j.from)
            .map(jump_text)
            .collect();
        let chutes: Vec<String> = self
            .jumps
            .iter()
            .filter(|j| j.to < j.from)
            .map(jump_text)
            .collect();
        writeln!(f, "  {}", ladders.join(", "))?;
        writeln!(f, "  {}", chutes.join(", "))?;
        if self.targets.is_empty() {
            writeln!(
                f,
                "No targets were given: any board of this shape would do."
            )?;
        }
        for t in &self.targets {
            let mark = if t.met { "met    " } else { "NOT MET" };
            writeln!(f, "  {mark} {}", target_line(t))?;
            if let Some(why) = &t.impossible {
                writeln!(f, "          no board can: {why}")?;
            }
        }
        if self.stopped {
            writeln!(
                f,
                "The search was interrupted after {} boards; this is the best it had found.",
                self.evaluations
            )?;
        } else if self.met {
            writeln!(
                f,
                "Every target met, after judging {} boards exactly.",
                self.evaluations
            )?;
        } else {
            writeln!(
                f,
                "Not every target was met: this is the closest of {} boards judged exactly.",
                self.evaluations
            )?;
        }
        writeln!(f)?;
        write!(f, "{}", self.analysis)
    }
}
