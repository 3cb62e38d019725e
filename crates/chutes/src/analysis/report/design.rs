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
use crate::analysis::design::{Design, DesignShape, TargetResult};
use crate::analysis::goal::Goal;
use crate::analysis::quality::RuleCheck;
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
    /// Each quality rule and how the board stands against it.
    pub rules: Vec<RuleCheck>,
    /// Crossing pairs of jumps in the board's picture.
    pub crossings: u32,
    /// Jumps moved, added or removed from the starting board, if any.
    pub changes: Option<u32>,
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
            rules: design.rules.clone(),
            crossings: design.crossings,
            changes: design.changes,
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
    let asked = match t.goal {
        Goal::Least => "asked as small as possible".to_string(),
        Goal::Most => "asked as large as possible".to_string(),
        g => format!("asked {g}"),
    };
    let missed = if t.met {
        String::new()
    } else {
        format!(", missed by {}", short(t.miss))
    };
    match t.name.as_str() {
        "mean" => format!("mean {:.6} rolls ({asked}{missed})", t.achieved),
        "sd" => format!(
            "standard deviation {:.6} rolls ({asked}{missed})",
            t.achieved
        ),
        "fair" => format!(
            "every seat within {:.4} of an even share (asked within {}{missed})",
            t.achieved, t.target
        ),
        "shortest" => format!("shortest game {} rolls ({asked}{missed})", t.achieved),
        p => format!(
            "{}% of games end within {} rolls ({asked}{missed})",
            p.trim_start_matches('p'),
            t.achieved
        ),
    }
}

/// A number in few characters: up to 6 significant decimals.
fn short(x: f64) -> String {
    if x >= 0.001 {
        format!("{x:.3}")
    } else {
        format!("{x:.3e}")
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
            if let Some(bound) = &t.bound {
                writeln!(f, "          proven: {bound}")?;
            }
        }
        if let Some(n) = self.changes {
            writeln!(
                f,
                "  {n} {} from the starting board (moved, added or removed).",
                if n == 1 { "change" } else { "changes" }
            )?;
        }
        let rules: Vec<String> = self
            .rules
            .iter()
            .filter(|r| r.on)
            .map(|r| {
                if r.kept {
                    format!("{} (kept)", r.text)
                } else {
                    format!("{} (BROKEN)", r.text)
                }
            })
            .collect();
        writeln!(f, "  Board rules: {}.", rules.join("; "))?;
        let off: Vec<&str> = self
            .rules
            .iter()
            .filter(|r| !r.on)
            .map(|r| r.rule)
            .collect();
        if !off.is_empty() {
            writeln!(f, "  Rules switched off: {}.", off.join(", "))?;
        }
        let inherited: Vec<String> = self
            .rules
            .iter()
            .filter(|r| r.on && r.kept && !r.broken_by.is_empty())
            .map(|r| {
                let jumps: Vec<String> = r.broken_by.iter().map(jump_text).collect();
                format!("{}: {}", r.rule, jumps.join(", "))
            })
            .collect();
        if !inherited.is_empty() {
            writeln!(
                f,
                "  Kept from the starting board, outside the rules: {}.",
                inherited.join("; ")
            )?;
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
