//! Grid files in the original assignment's text format.
//!
//! ```text
//! <number of ladders>
//! <start> <end>              one line per ladder
//! <number of snakes>
//! <start> <end>              one line per snake
//! <number of cards>
//! <card> <cell> [params]     one line per card
//! ```
//!
//! Terms:
//! - **line error** ([`LineError`]): what was expected on a line and what
//!   was found, or a rule of the grid that the line breaks.
//! - **canonical form**: what [`write_grid`] writes: counts and objects in
//!   cell order, numbers separated by one space, no trailing spaces, `\n`
//!   after every line.
//! - **kept text**: what [`write_grid_keeping`] writes for a grid read from
//!   a file: the file itself, byte for byte, when nothing was edited (the
//!   original assignment's sample keeps the trailing space of `4 51 `);
//!   after edits, the canonical form in which every unchanged line (a
//!   count, an object) keeps its original text and the file's line ends.
//!
//! Blank lines are skipped; `\r\n` line ends are accepted.

use crate::grid::{Grid, GridSpec};
use crate::objects::{Card, CardKind, Ladder, Snake};
use crate::rules::{Item, RuleError, validate};
use std::fmt;
use std::path::Path;

/// The most entries a section may announce (a grid has 99 cells).
pub const MAX_COUNT: u32 = 99;

/// What is wrong on a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    /// The text is not what the format expects there.
    Syntax(String),
    /// The line is well formed but breaks a rule of the grid.
    Rule(RuleError),
}

/// One problem in a grid file, with its place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {}", col.map(|c| format!(", column {c}")).unwrap_or_default(), match problem { LineProblem::Syntax(s) => s.clone(), LineProblem::Rule(r) => r.to_string() })]
pub struct LineError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column (in characters) when the problem is one token.
    pub col: Option<usize>,
    /// What is wrong.
    pub problem: LineProblem,
}

/// A file problem in a form for an API or `--json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileProblem {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, when the problem is one token.
    pub col: Option<usize>,
    /// The grid rule broken, for a well-formed line that breaks one.
    pub rule: Option<crate::rules::Rule>,
    /// The cells involved (for a rule).
    pub cells: Vec<u32>,
    /// The whole message, with its line.
    pub message: String,
}

impl LineError {
    /// This problem in a form for an API.
    pub fn to_problem(&self) -> FileProblem {
        let (rule, cells) = match &self.problem {
            LineProblem::Rule(r) => (Some(r.rule()), r.cells()),
            LineProblem::Syntax(_) => (None, Vec::new()),
        };
        FileProblem {
            line: self.line,
            col: self.col,
            rule,
            cells,
            message: self.to_string(),
        }
    }
}

/// Every problem found in a grid file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The problems, by line.
    pub errors: Vec<LineError>,
}

impl LoadError {
    /// Every problem in a form for an API.
    pub fn problems(&self) -> Vec<FileProblem> {
        self.errors.iter().map(LineError::to_problem).collect()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        write!(f, "{n} problem{}", if n == 1 { "" } else { "s" })?;
        for e in &self.errors {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

/// A whitespace-separated token and its 1-based column.
struct Token<'a> {
    text: &'a str,
    col: usize,
}

fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (byte, ch)) in line.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((b, c)) = start.take() {
                out.push(Token {
                    text: &line[b..byte],
                    col: c + 1,
                });
            }
        } else if start.is_none() {
            start = Some((byte, col));
        }
    }
    if let Some((b, c)) = start {
        out.push(Token {
            text: &line[b..],
            col: c + 1,
        });
    }
    out
}

/// One entry line as read.
enum Entry {
    /// The line's number and its numbers with their columns.
    Numbers(usize, Vec<(u32, usize)>),
    /// A token was not a number (already reported).
    Bad,
    /// The file ended (already reported).
    End,
}

struct Reader<'a> {
    lines: std::iter::Peekable<Box<dyn Iterator<Item = (usize, &'a str)> + 'a>>,
    last_line: usize,
    errors: Vec<LineError>,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        let total = text.lines().count();
        let it: Box<dyn Iterator<Item = (usize, &'a str)> + 'a> = Box::new(
            text.lines()
                .enumerate()
                .map(|(i, l)| (i + 1, l))
                .filter(|(_, l)| !l.trim().is_empty()),
        );
        Self {
            lines: it.peekable(),
            last_line: total,
            errors: Vec::new(),
        }
    }

    fn syntax(&mut self, line: usize, col: Option<usize>, message: String) {
        self.errors.push(LineError {
            line,
            col,
            problem: LineProblem::Syntax(message),
        });
    }

    fn eof(&mut self, expected: &str) {
        let line = self.last_line + 1;
        self.syntax(
            line,
            None,
            format!("expected {expected}, but the file ends (too few lines)"),
        );
    }

    /// A number token, or records why not.
    fn number(&mut self, line: usize, token: &Token<'_>, what: &str) -> Option<u32> {
        match token.text.parse::<u32>() {
            Ok(v) => Some(v),
            Err(_) => {
                let found = if token.text.starts_with('-') {
                    format!("'{}', which is not a whole number 0 or above", token.text)
                } else if token.text.chars().all(|c| c.is_ascii_digit()) {
                    format!("'{}', which is far too large", token.text)
                } else {
                    format!("'{}', which is not a number", token.text)
                };
                self.syntax(
                    line,
                    Some(token.col),
                    format!("expected {what}, found {found}"),
                );
                None
            }
        }
    }

    /// A count line; `None` stops the parse.
    fn count(&mut self, what: &str) -> Option<u32> {
        let expected = format!("the number of {what}");
        let Some((line, text)) = self.lines.next() else {
            self.eof(&expected);
            return None;
        };
        let toks = tokens(text);
        let first = toks.first()?;
        let n = self.number(line, first, &expected)?;
        if toks.len() > 1 {
            self.syntax(
                line,
                toks.get(1).map(|t| t.col),
                format!(
                    "expected only {expected} on this line, found {} numbers",
                    toks.len()
                ),
            );
            return None;
        }
        if n > MAX_COUNT {
            self.syntax(
                line,
                Some(first.col),
                format!("{n} {what} is more than a grid of 99 cells can hold"),
            );
            return None;
        }
        Some(n)
    }

    /// The next entry line's numbers and their columns.
    fn entry(&mut self, what: &str) -> Entry {
        let Some((line, text)) = self.lines.next() else {
            self.eof(what);
            return Entry::End;
        };
        let mut values = Vec::new();
        let mut ok = true;
        for t in tokens(text) {
            match self.number(line, &t, "a number") {
                Some(v) => values.push((v, t.col)),
                None => ok = false,
            }
        }
        if ok {
            Entry::Numbers(line, values)
        } else {
            Entry::Bad
        }
    }
}

/// The original assignment's sample grid, verbatim (its line `4 51 ` keeps
/// its trailing space).
pub const SAMPLE_GRID: &str = include_str!("../tests/data/sample.grid");

/// True when `text` has the grid file's line structure: a count, that many
/// lines of two numbers, a count, that many lines of two numbers, a count,
/// that many lines of two to four numbers, and nothing after (blank lines
/// aside). Values are not checked; this is for telling formats apart.
pub fn looks_like_grid_file(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|t| !t.is_empty());
    let numbers = |t: &[&str]| t.iter().all(|w| w.parse::<u32>().is_ok());
    for widths in [2..=2, 2..=2, 2..=4] {
        let count = match lines.next() {
            Some(t) if t.len() == 1 && numbers(&t) => t[0].parse::<u32>().unwrap_or(u32::MAX),
            _ => return false,
        };
        if count > MAX_COUNT {
            return false;
        }
        for _ in 0..count {
            match lines.next() {
                Some(t) if widths.contains(&t.len()) && numbers(&t) => {}
                _ => return false,
            }
        }
    }
    lines.next().is_none()
}

/// Reads a grid from either form: the JSON form when the text starts with
/// `{`, else the grid file format.
///
/// # Errors
/// As [`parse_grid`]; a JSON grid's error names the line and column that
/// serde reports, and every rule broken.
pub fn parse_grid_any(text: &str) -> Result<Grid, LoadError> {
    if !text.trim_start().starts_with('{') {
        return parse_grid(text);
    }
    let spec: GridSpec = serde_json::from_str(text).map_err(|e| LoadError {
        errors: vec![LineError {
            line: e.line(),
            col: Some(e.column()),
            problem: LineProblem::Syntax(format!("not a JSON grid: {e}")),
        }],
    })?;
    Grid::new(&spec).map_err(|e| LoadError {
        errors: e
            .violations
            .into_iter()
            .map(|v| LineError {
                line: 1,
                col: None,
                problem: LineProblem::Rule(v.error),
            })
            .collect(),
    })
}

/// Reads a grid from the text of a grid file.
///
/// # Errors
/// A [`LoadError`] listing every problem with its line: a missing or bad
/// count, too few lines, a line with too many or too few numbers, a token
/// that is not a number, a cell off the grid, any rule of the grid broken,
/// station prices that disagree, text after the last card.
pub fn parse_grid(text: &str) -> Result<Grid, LoadError> {
    let mut r = Reader::new(text);
    let mut spec = GridSpec::default();
    let mut ladder_lines = Vec::new();
    let mut snake_lines = Vec::new();
    let mut card_lines = Vec::new();
    let finished = (|| -> Option<()> {
        for section in 0..2 {
            let (plural, name) = if section == 0 {
                ("ladders", "ladder")
            } else {
                ("snakes", "snake")
            };
            let n = r.count(plural)?;
            for k in 1..=n {
                let what = format!("{name} {k} of {n} as `<start> <end>`");
                let (line, values) = match r.entry(&what) {
                    Entry::Numbers(line, values) => (line, values),
                    Entry::Bad => continue,
                    Entry::End => return None,
                };
                if values.len() != 2 {
                    let col = values.get(2).map(|v| v.1);
                    r.syntax(
                        line,
                        col,
                        format!("expected {what}, found {}", count_numbers(values.len())),
                    );
                    continue;
                }
                let (start, end) = (values[0].0, values[1].0);
                if section == 0 {
                    spec.ladders.push(Ladder::new(start, end));
                    ladder_lines.push(line);
                } else {
                    spec.snakes.push(Snake::new(start, end));
                    snake_lines.push(line);
                }
            }
        }
        let n = r.count("cards")?;
        for k in 1..=n {
            let what = format!("card {k} of {n} as `<card> <cell> [parameters]`");
            let (line, values) = match r.entry(&what) {
                Entry::Numbers(line, values) => (line, values),
                Entry::Bad => continue,
                Entry::End => return None,
            };
            if values.len() < 2 {
                r.syntax(
                    line,
                    None,
                    format!("expected {what}, found {}", count_numbers(values.len())),
                );
                continue;
            }
            let (number, number_col) = values[0];
            let params: Vec<u32> = values[2..].iter().map(|v| v.0).collect();
            match CardKind::from_params(number, &params) {
                Ok(kind) => {
                    spec.cards.push(Card::new(values[1].0, kind));
                    card_lines.push(line);
                }
                Err(e) => {
                    let col = match e {
                        crate::objects::CardShapeError::Number(_) => Some(number_col),
                        crate::objects::CardShapeError::Params { .. } => None,
                    };
                    r.syntax(line, col, e.to_string());
                }
            }
        }
        if let Some((line, _)) = r.lines.next() {
            r.syntax(
                line,
                None,
                format!(
                    "expected the end of the file after the {n} card{} announced, found more text",
                    if n == 1 { "" } else { "s" }
                ),
            );
        }
        Some(())
    })();
    let _ = finished;
    let mut errors = r.errors;
    for v in validate(&spec) {
        let line = match v.item {
            Item::Ladder(i) => ladder_lines.get(i),
            Item::Snake(i) => snake_lines.get(i),
            Item::Card(i) => card_lines.get(i),
        }
        .copied()
        .unwrap_or(0);
        errors.push(LineError {
            line,
            col: None,
            problem: LineProblem::Rule(v.error),
        });
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| (e.line, e.col));
        return Err(LoadError { errors });
    }
    Grid::new(&spec).map_err(|e| LoadError {
        errors: e
            .violations
            .into_iter()
            .map(|v| LineError {
                line: 0,
                col: None,
                problem: LineProblem::Rule(v.error),
            })
            .collect(),
    })
}

fn count_numbers(n: usize) -> String {
    match n {
        0 => "no numbers".into(),
        1 => "1 number".into(),
        n => format!("{n} numbers"),
    }
}

/// The grid in the file format, canonical form.
pub fn write_grid(grid: &Grid) -> String {
    use std::fmt::Write;
    let spec = grid.to_spec();
    let mut out = String::new();
    let _ = writeln!(out, "{}", spec.ladders.len());
    for l in &spec.ladders {
        let _ = writeln!(out, "{} {}", l.start, l.end);
    }
    let _ = writeln!(out, "{}", spec.snakes.len());
    for s in &spec.snakes {
        let _ = writeln!(out, "{} {}", s.start, s.end);
    }
    let _ = writeln!(out, "{}", spec.cards.len());
    for c in &spec.cards {
        let _ = write!(out, "{} {}", c.number(), c.cell);
        for p in c.kind.params() {
            let _ = write!(out, " {p}");
        }
        out.push('\n');
    }
    out
}

/// `grid` in the file format, keeping the text of `original`, the grid file
/// it was read from: `original` itself, byte for byte, when `grid` is what
/// it reads as; otherwise the canonical form ([`write_grid`]) in which every
/// line that still says the same thing (a section's count, a ladder, a
/// snake, a card) keeps its original text (spacing, a trailing space), with
/// the original's line ends (`\r\n` or `\n`). When `original` is not a grid
/// file (a JSON grid, a broken file), the canonical form.
pub fn write_grid_keeping(grid: &Grid, original: &str) -> String {
    use std::collections::{HashMap, VecDeque};
    match parse_grid(original) {
        Ok(read) if read == *grid => return original.to_string(),
        Ok(_) => {}
        Err(_) => return write_grid(grid),
    }
    let key = |line: &str| line.split_whitespace().collect::<Vec<_>>().join(" ");
    // The original's lines by section (0 ladders, 1 snakes, 2 cards), each
    // keyed by what it says. It parsed, so its counts are right.
    let mut kept: [HashMap<String, VecDeque<&str>>; 3] = Default::default();
    let mut lines = original.lines().filter(|l| !l.trim().is_empty());
    for section in &mut kept {
        let Some(count_line) = lines.next() else {
            break;
        };
        let n: usize = count_line.trim().parse().unwrap_or(0);
        section
            .entry(format!("#{}", key(count_line)))
            .or_default()
            .push_back(count_line);
        for line in lines.by_ref().take(n) {
            section.entry(key(line)).or_default().push_back(line);
        }
    }
    let end = if original.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let canonical = write_grid(grid);
    let mut out = String::with_capacity(canonical.len() + 16);
    let mut lines = canonical.lines();
    for section in &mut kept {
        let Some(count_line) = lines.next() else {
            break;
        };
        let n: usize = count_line.parse().unwrap_or(0);
        let mut keep = |k: String, line: &str| {
            let text = section
                .get_mut(&k)
                .and_then(VecDeque::pop_front)
                .unwrap_or(line);
            out.push_str(text);
            out.push_str(end);
        };
        keep(format!("#{count_line}"), count_line);
        for line in lines.by_ref().take(n) {
            keep(line.to_string(), line);
        }
    }
    out
}

/// Saves `grid` to `path` in the file format, atomically: the file is
/// replaced whole or not at all.
///
/// # Errors
/// Fails when the file cannot be written; the error names the path.
pub fn save_grid(grid: &Grid, path: &Path) -> std::io::Result<()> {
    tabletop::write_atomic(path, write_grid(grid).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_know_their_columns() {
        let t = tokens("  4 51 \té 7");
        let got: Vec<(&str, usize)> = t.iter().map(|t| (t.text, t.col)).collect();
        assert_eq!(got, vec![("4", 3), ("51", 5), ("é", 9), ("7", 11)]);
        assert!(tokens("   ").is_empty());
    }

    #[test]
    fn the_line_structure_is_recognised() {
        assert!(looks_like_grid_file(SAMPLE_GRID));
        assert!(looks_like_grid_file("0\n0\n0\n"));
        assert!(looks_like_grid_file("1\n10 32\n0\n1\n4 51\n"));
        assert!(!looks_like_grid_file("0 0 0"));
        assert!(!looks_like_grid_file("1\n10 32\n0\n"));
        assert!(!looks_like_grid_file("0\n0\n0\n5\n"));
        assert!(!looks_like_grid_file("size = 10"));
        assert!(!looks_like_grid_file("0, 0, 0, 0"));
    }

    #[test]
    fn unedited_grids_keep_their_text_and_edited_ones_their_unchanged_lines() {
        let grid = parse_grid(SAMPLE_GRID).unwrap();
        assert_eq!(write_grid_keeping(&grid, SAMPLE_GRID), SAMPLE_GRID);
        assert!(SAMPLE_GRID.contains("4 51 \n"));
        // Drop the first ladder: its line and the count change, the rest
        // (the card line `4 51 ` with its trailing space) is kept.
        let mut spec = grid.to_spec();
        spec.ladders.remove(0);
        let edited = Grid::new(&spec).unwrap();
        let text = write_grid_keeping(&edited, SAMPLE_GRID);
        assert_eq!(parse_grid(&text).unwrap(), edited);
        assert!(text.starts_with("3\n16 71\n"), "{text}");
        assert!(text.contains("\n4 51 \n"), "{text}");
        // Spacing and \r\n line ends are kept on unchanged lines.
        let odd = "1\r\n 10   32\r\n0\r\n\r\n1\r\n4 51\r\n";
        let read = parse_grid(odd).unwrap();
        assert_eq!(write_grid_keeping(&read, odd), odd);
        let mut spec = read.to_spec();
        spec.cards.clear();
        let text = write_grid_keeping(&Grid::new(&spec).unwrap(), odd);
        assert_eq!(text, "1\r\n 10   32\r\n0\r\n0\r\n");
        // Not a grid file: the canonical form.
        assert_eq!(write_grid_keeping(&read, "{}"), write_grid(&read));
    }

    #[test]
    fn an_empty_grid_round_trips() {
        let text = "0\n0\n0\n";
        let grid = parse_grid(text).unwrap();
        assert!(grid.is_empty());
        assert_eq!(write_grid(&grid), text);
    }
}
