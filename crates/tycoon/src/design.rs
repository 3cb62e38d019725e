//! Design mode: a grid being built, edit by edit, with undo and redo.
//!
//! Terms:
//! - **document** ([`Document`]): the grid being designed and its history;
//!   undo and redo restore earlier grids.
//! - **clipboard** ([`Clipboard`]): the object last copied or cut. It lives
//!   beside the document, not in it: undo never changes the clipboard.
//! - **designer** ([`Designer`]): a document and a clipboard together, what
//!   one person designing has, and the text of the grid file it was opened
//!   from (**source**), so that saving keeps that text where nothing changed
//!   ([`crate::file::write_grid_keeping`]).
//! - **edit** ([`Edit`]): one thing the designer does, as data with a text
//!   form (`ladder 10 32`, `snake 34 23`, `card 9 13 50 10`, `card 9 54`,
//!   `station 9 60 12`, `copy 13`, `cut 13`, `paste 50`, `delete 4`,
//!   `clear`, `undo`, `redo`).
//! - **refused**: an edit that would break a rule, or cannot be done, changes
//!   nothing and says why ([`EditError`]).
//!
//! Every edit that adds or changes an object goes through the one validator
//! ([`crate::rules::validate`]) by building the grid anew.

use crate::grid::{Grid, GridError, GridSpec, StationTerms};
use crate::objects::CARDS;
use crate::objects::{Card, CardKind, CardShapeError, Ladder, Object, Snake};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How many earlier grids undo remembers, at most.
pub const HISTORY: usize = 1000;

/// The most bytes the earlier grids undo remembers may take together (each
/// is kept as its list of objects, [`GridSpec`], not as a whole grid with
/// its cell tables): 256 KiB, about 100 undos of a grid crowded with 100
/// objects, the full 1,000 of a grid of 10. The oldest are forgotten first.
pub const HISTORY_BYTES: usize = 256 * 1024;

/// The memory a remembered grid takes, roughly: its objects and its lists.
fn history_bytes(spec: &GridSpec) -> usize {
    std::mem::size_of::<GridSpec>()
        + spec.ladders.capacity() * std::mem::size_of::<Ladder>()
        + spec.snakes.capacity() * std::mem::size_of::<Snake>()
        + spec.cards.capacity() * std::mem::size_of::<Card>()
}

/// One edit of the design, as data.
///
/// In JSON, `{"edit": "ladder", "start": 4, "end": 51}`; a field the edit
/// does not take is refused (`{"edit": "undo", "x": 1}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "lowercase", from = "EditJson")]
pub enum Edit {
    /// Add a ladder: `ladder START END`.
    Ladder {
        /// Start cell (where it lives).
        start: u32,
        /// End cell.
        end: u32,
    },
    /// Add a snake: `snake START END`.
    Snake {
        /// Start cell (where it lives).
        start: u32,
        /// End cell.
        end: u32,
    },
    /// Add a card: `card NUMBER CELL [PARAMS]`. A station card (9–11) may
    /// leave out its price and fee when the grid already has that number.
    Card {
        /// Card number 1–12.
        number: u32,
        /// The cell.
        cell: u32,
        /// Parameters in file order.
        #[serde(default)]
        params: Vec<u32>,
    },
    /// Change the price and fee of every card of a station number:
    /// `station NUMBER PRICE FEE`.
    Station {
        /// 9, 10 or 11.
        number: u32,
        /// The new price.
        price: u32,
        /// The new fee.
        fee: u32,
    },
    /// Put the object living on a cell on the clipboard: `copy CELL`.
    Copy {
        /// The cell.
        cell: u32,
    },
    /// Copy, then delete: `cut CELL`.
    Cut {
        /// The cell.
        cell: u32,
    },
    /// Place the clipboard's object so it lives on a cell: `paste CELL`.
    Paste {
        /// The cell.
        cell: u32,
    },
    /// Remove the object living on a cell: `delete CELL`.
    Delete {
        /// The cell.
        cell: u32,
    },
    /// Start a new, empty grid: `clear`.
    Clear,
    /// Undo the last change to the grid: `undo`.
    Undo,
    /// Redo the last undone change: `redo`.
    Redo,
}

/// [`Edit`] as JSON is read: serde lets unknown fields beside the tag of a
/// unit variant through, so every variant here has braces.
#[derive(Deserialize)]
#[serde(tag = "edit", rename_all = "lowercase", deny_unknown_fields)]
enum EditJson {
    Ladder {
        start: u32,
        end: u32,
    },
    Snake {
        start: u32,
        end: u32,
    },
    Card {
        number: u32,
        cell: u32,
        #[serde(default)]
        params: Vec<u32>,
    },
    Station {
        number: u32,
        price: u32,
        fee: u32,
    },
    Copy {
        cell: u32,
    },
    Cut {
        cell: u32,
    },
    Paste {
        cell: u32,
    },
    Delete {
        cell: u32,
    },
    Clear {},
    Undo {},
    Redo {},
}

impl From<EditJson> for Edit {
    fn from(json: EditJson) -> Self {
        match json {
            EditJson::Ladder { start, end } => Self::Ladder { start, end },
            EditJson::Snake { start, end } => Self::Snake { start, end },
            EditJson::Card {
                number,
                cell,
                params,
            } => Self::Card {
                number,
                cell,
                params,
            },
            EditJson::Station { number, price, fee } => Self::Station { number, price, fee },
            EditJson::Copy { cell } => Self::Copy { cell },
            EditJson::Cut { cell } => Self::Cut { cell },
            EditJson::Paste { cell } => Self::Paste { cell },
            EditJson::Delete { cell } => Self::Delete { cell },
            EditJson::Clear {} => Self::Clear,
            EditJson::Undo {} => Self::Undo,
            EditJson::Redo {} => Self::Redo,
        }
    }
}

/// Text that is not an edit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not an edit: {reason}")]
pub struct EditParseError {
    /// The text.
    pub text: String,
    /// Why.
    pub reason: String,
}

/// The edits' text forms, for help.
pub const EDIT_FORMS: &str = "ladder START END | snake START END | card NUMBER CELL [PARAMS] | \
station NUMBER PRICE FEE | copy CELL | cut CELL | paste CELL | delete CELL | clear | undo | redo";

impl FromStr for Edit {
    type Err = EditParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason: String| EditParseError {
            text: s.trim().to_string(),
            reason,
        };
        let mut words = s.split_whitespace();
        let Some(verb) = words.next() else {
            return Err(fail(format!("it is empty (expected {EDIT_FORMS})")));
        };
        let verb = verb.to_ascii_lowercase();
        let mut numbers = Vec::new();
        for w in words {
            numbers.push(w.parse::<u32>().map_err(|_| {
                fail(if w.bytes().all(|b| b.is_ascii_digit()) {
                    format!("'{w}' is far too large for a cell or a number of coins")
                } else {
                    format!("'{w}' is not a whole number")
                })
            })?);
        }
        let want = |n: usize, form: &str| {
            if numbers.len() == n {
                Ok(())
            } else {
                Err(fail(format!(
                    "`{verb}` is written `{form}` ({n} number{}, got {})",
                    if n == 1 { "" } else { "s" },
                    numbers.len()
                )))
            }
        };
        let at = |i: usize| numbers.get(i).copied().unwrap_or(0);
        Ok(match verb.as_str() {
            "ladder" => {
                want(2, "ladder START END")?;
                Self::Ladder {
                    start: at(0),
                    end: at(1),
                }
            }
            "snake" => {
                want(2, "snake START END")?;
                Self::Snake {
                    start: at(0),
                    end: at(1),
                }
            }
            "card" => {
                if numbers.len() < 2 || numbers.len() > 4 {
                    return Err(fail(format!(
                        "`card` is written `card NUMBER CELL [PARAMS]`, e.g. `card 9 13 50 10` (got {} numbers)",
                        numbers.len()
                    )));
                }
                Self::Card {
                    number: at(0),
                    cell: at(1),
                    params: numbers[2..].to_vec(),
                }
            }
            "station" => {
                want(3, "station NUMBER PRICE FEE")?;
                Self::Station {
                    number: at(0),
                    price: at(1),
                    fee: at(2),
                }
            }
            "copy" | "cut" | "paste" | "delete" => {
                want(1, &format!("{verb} CELL"))?;
                let cell = at(0);
                match verb.as_str() {
                    "copy" => Self::Copy { cell },
                    "cut" => Self::Cut { cell },
                    "paste" => Self::Paste { cell },
                    _ => Self::Delete { cell },
                }
            }
            "clear" | "new" => {
                want(0, "clear")?;
                Self::Clear
            }
            "undo" => {
                want(0, "undo")?;
                Self::Undo
            }
            "redo" => {
                want(0, "redo")?;
                Self::Redo
            }
            other => {
                return Err(fail(format!(
                    "unknown edit '{other}' (expected {EDIT_FORMS})"
                )));
            }
        })
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ladder { start, end } => write!(f, "ladder {start} {end}"),
            Self::Snake { start, end } => write!(f, "snake {start} {end}"),
            Self::Card {
                number,
                cell,
                params,
            } => {
                write!(f, "card {number} {cell}")?;
                for p in params {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Self::Station { number, price, fee } => write!(f, "station {number} {price} {fee}"),
            Self::Copy { cell } => write!(f, "copy {cell}"),
            Self::Cut { cell } => write!(f, "cut {cell}"),
            Self::Paste { cell } => write!(f, "paste {cell}"),
            Self::Delete { cell } => write!(f, "delete {cell}"),
            Self::Clear => f.write_str("clear"),
            Self::Undo => f.write_str("undo"),
            Self::Redo => f.write_str("redo"),
        }
    }
}

/// Why an edit was refused. A refused edit changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The grid's rules refuse the result.
    #[error("{0}")]
    Rules(#[from] GridError),
    /// The card's number or parameters are wrong.
    #[error("{0}")]
    Card(#[from] CardShapeError),
    /// A station card without terms, and none on the grid yet.
    #[error(
        "card {number} needs a price and a fee, as no card {number} is on the grid yet: `card {number} CELL PRICE FEE`"
    )]
    NeedsTerms {
        /// The station number.
        number: u32,
    },
    /// `station N …` for a number that is not a station.
    #[error("card {0} is not a station: stations are cards 9, 10 and 11")]
    NotAStation(u32),
    /// `station N …` when the grid has no card N.
    #[error("the grid has no card {0} to set a price for; add one with `card {0} CELL PRICE FEE`")]
    NoStation(u32),
    /// No object lives on the cell.
    #[error("no object lives on cell {cell}{}", hint.as_deref().map(|h| format!(" ({h})")).unwrap_or_default())]
    NothingThere {
        /// The cell.
        cell: u32,
        /// What is there instead, if anything.
        hint: Option<String>,
    },
    /// Paste with nothing copied.
    #[error("the clipboard is empty: copy or cut an object first")]
    EmptyClipboard,
    /// A pasted snake would end below cell 1.
    #[error(
        "{object} pasted on cell {cell} would end below cell 1 (a pasted snake keeps its length)"
    )]
    PasteBelow {
        /// The clipboard's object.
        object: Object,
        /// The cell.
        cell: u32,
    },
    /// Undo with no history.
    #[error("there is nothing to undo")]
    NothingToUndo,
    /// Redo with nothing undone.
    #[error("there is nothing to redo")]
    NothingToRedo,
}

/// The grid being designed and its history.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    grid: Grid,
    undo: Vec<GridSpec>,
    redo: Vec<GridSpec>,
}

/// The object last copied or cut; it lives beside the document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clipboard {
    /// The object, as it was when copied.
    pub object: Option<Object>,
}

/// What an accepted edit did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// What happened, for people: `added ladder 10→32`.
    pub summary: String,
    /// False when only the clipboard changed (copy), or nothing did.
    pub grid_changed: bool,
}

impl Document {
    /// A document holding `grid`, with no history.
    pub fn new(grid: Grid) -> Self {
        Self {
            grid,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The grid as it stands.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    fn commit(&mut self, grid: Grid, summary: String) -> Applied {
        let old = std::mem::replace(&mut self.grid, grid);
        self.undo.push(old.to_spec());
        let mut bytes: usize = self.undo.iter().map(history_bytes).sum();
        let mut forget = self.undo.len().saturating_sub(HISTORY);
        while bytes > HISTORY_BYTES && forget + 1 < self.undo.len() {
            bytes -= history_bytes(&self.undo[forget]);
            forget += 1;
        }
        self.undo.drain(..forget);
        self.redo.clear();
        Applied {
            summary,
            grid_changed: true,
        }
    }

    fn with(&self, object: Object) -> Result<Grid, EditError> {
        let mut spec = self.grid.to_spec();
        spec.push(object);
        Ok(Grid::new(&spec)?)
    }

    fn without(&self, cell: u32) -> Result<(Grid, Object), EditError> {
        let object = self.object_on(cell)?;
        let spec: GridSpec = {
            let mut spec = GridSpec::default();
            for o in self.grid.objects().filter(|o| o.home() != cell) {
                spec.push(o);
            }
            spec
        };
        Ok((Grid::new(&spec)?, object))
    }

    fn object_on(&self, cell: u32) -> Result<Object, EditError> {
        self.grid.object_at(cell).ok_or_else(|| {
            let hint = self.grid.objects().find_map(|o| match o {
                Object::Ladder(l) if l.end == cell => Some(format!(
                    "it is the end of {l}, which lives on cell {}",
                    l.start
                )),
                Object::Snake(s) if s.end == cell => Some(format!(
                    "it is the end of {s}, which lives on cell {}",
                    s.start
                )),
                _ => None,
            });
            EditError::NothingThere { cell, hint }
        })
    }

    /// Applies `edit`, using `clipboard` for copy, cut and paste.
    ///
    /// # Errors
    /// An [`EditError`] saying why the edit is refused; then neither the
    /// document nor the clipboard has changed.
    pub fn apply(&mut self, edit: &Edit, clipboard: &mut Clipboard) -> Result<Applied, EditError> {
        match *edit {
            Edit::Ladder { start, end } => {
                let object = Object::Ladder(Ladder::new(start, end));
                let grid = self.with(object)?;
                Ok(self.commit(grid, format!("added {object}")))
            }
            Edit::Snake { start, end } => {
                let object = Object::Snake(Snake::new(start, end));
                let grid = self.with(object)?;
                Ok(self.commit(grid, format!("added {object}")))
            }
            Edit::Card {
                number,
                cell,
                ref params,
            } => {
                let kind = match (number, params.as_slice()) {
                    (9..=11, []) => {
                        let terms = self
                            .grid
                            .station_terms(number as u8)
                            .ok_or(EditError::NeedsTerms { number })?;
                        CardKind::Station {
                            number: terms.number,
                            price: terms.price,
                            fee: terms.fee,
                        }
                    }
                    _ => CardKind::from_params(number, params)?,
                };
                let object = Object::Card(Card::new(cell, kind));
                let grid = self.with(object)?;
                Ok(self.commit(grid, format!("added {object}")))
            }
            Edit::Station { number, price, fee } => {
                if !(9..=11).contains(&number) {
                    return Err(EditError::NotAStation(number));
                }
                if self.grid.station_terms(number as u8).is_none() {
                    return Err(EditError::NoStation(number));
                }
                let mut spec = self.grid.to_spec();
                for card in &mut spec.cards {
                    if let CardKind::Station { number: n, .. } = card.kind
                        && u32::from(n) == number
                    {
                        card.kind = CardKind::Station {
                            number: n,
                            price,
                            fee,
                        };
                    }
                }
                let grid = Grid::new(&spec)?;
                Ok(self.commit(
                    grid,
                    format!("every card {number} now costs {price} with fee {fee}"),
                ))
            }
            Edit::Copy { cell } => {
                let object = self.object_on(cell)?;
                clipboard.object = Some(object);
                Ok(Applied {
                    summary: format!("copied {object}"),
                    grid_changed: false,
                })
            }
            Edit::Cut { cell } => {
                let (grid, object) = self.without(cell)?;
                clipboard.object = Some(object);
                Ok(self.commit(grid, format!("cut {object}")))
            }
            Edit::Paste { cell } => {
                let copied = clipboard.object.ok_or(EditError::EmptyClipboard)?;
                let object = copied.moved_to(cell).ok_or(EditError::PasteBelow {
                    object: copied,
                    cell,
                })?;
                let grid = self.with(object)?;
                Ok(self.commit(grid, format!("pasted {object}")))
            }
            Edit::Delete { cell } => {
                let (grid, object) = self.without(cell)?;
                Ok(self.commit(grid, format!("deleted {object}")))
            }
            Edit::Clear => {
                if self.grid.is_empty() {
                    return Ok(Applied {
                        summary: "the grid is already empty".into(),
                        grid_changed: false,
                    });
                }
                Ok(self.commit(Grid::empty(), "cleared the grid".into()))
            }
            Edit::Undo => {
                let previous = self.undo.pop().ok_or(EditError::NothingToUndo)?;
                let current = std::mem::replace(&mut self.grid, Grid::new(&previous)?);
                self.redo.push(current.to_spec());
                Ok(Applied {
                    summary: "undid the last change".into(),
                    grid_changed: true,
                })
            }
            Edit::Redo => {
                let next = self.redo.pop().ok_or(EditError::NothingToRedo)?;
                let current = std::mem::replace(&mut self.grid, Grid::new(&next)?);
                self.undo.push(current.to_spec());
                Ok(Applied {
                    summary: "redid the change".into(),
                    grid_changed: true,
                })
            }
        }
    }
}

/// What the designer asks for when a card of one number is added to a grid:
/// the parameters to type and, for a station number the grid already has,
/// the group's terms the new card takes instead (the assignment asks a
/// station's price and fee only for the first card of its number).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardForm {
    /// The card number, 1 to 12.
    pub number: u8,
    /// The parameters to ask, in file order (`["price", "fee"]`, or none).
    pub asks: Vec<&'static str>,
    /// The group's price and fee, when the grid already has this station.
    pub terms: Option<StationTerms>,
}

/// The form of every card number on `grid`, 1 to 12: what `card NUMBER
/// CELL [PARAMS]` needs there.
pub fn card_forms(grid: &Grid) -> Vec<CardForm> {
    CARDS
        .iter()
        .map(|info| {
            let terms = grid.station_terms(info.number);
            CardForm {
                number: info.number,
                asks: if terms.is_some() {
                    Vec::new()
                } else {
                    info.params.to_vec()
                },
                terms,
            }
        })
        .collect()
}

/// A document and a clipboard: everything one person designing holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Designer {
    /// The grid and its history.
    pub document: Document,
    /// The clipboard, beside the document.
    pub clipboard: Clipboard,
    /// The text of the grid file the design was opened from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
}

impl Designer {
    /// A designer starting from `grid`, with an empty clipboard.
    pub fn new(grid: Grid) -> Self {
        Self {
            document: Document::new(grid),
            clipboard: Clipboard::default(),
            source: None,
        }
    }

    /// The same designer, remembering `text` as the grid file it was opened
    /// from, so that [`Designer::file`] keeps its text where nothing changed.
    pub fn with_source(mut self, text: impl Into<String>) -> Self {
        self.source = Some(text.into());
        self
    }

    /// The grid as it stands in the grid file format: the file it was
    /// opened from, byte for byte, while nothing is edited (or every edit is
    /// undone); else the canonical form keeping the text of unchanged lines.
    pub fn file(&self) -> String {
        match &self.source {
            Some(text) => crate::file::write_grid_keeping(self.grid(), text),
            None => crate::file::write_grid(self.grid()),
        }
    }

    /// Applies one edit.
    ///
    /// # Errors
    /// An [`EditError`] when the edit is refused; nothing changes then.
    pub fn apply(&mut self, edit: &Edit) -> Result<Applied, EditError> {
        self.document.apply(edit, &mut self.clipboard)
    }

    /// The grid as it stands.
    pub fn grid(&self) -> &Grid {
        self.document.grid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1,000 edits used to keep 1,000 whole grids (about 3.6 MB a
    /// design); the history is now a bounded list of object lists.
    #[test]
    fn the_undo_history_is_bounded_in_depth_and_in_bytes() {
        let mut designer = Designer::new(Grid::empty());
        let ladder: Edit = "ladder 10 32".parse().unwrap();
        let delete: Edit = "delete 10".parse().unwrap();
        for i in 0..1500 {
            designer
                .apply(if i % 2 == 0 { &ladder } else { &delete })
                .unwrap();
        }
        let undo = &designer.document.undo;
        assert_eq!(undo.len(), HISTORY, "small grids keep the full depth");
        // Crowded grids are kept by bytes: the oldest go first.
        let crowded = GridSpec {
            ladders: vec![Ladder { start: 10, end: 32 }; 500],
            ..GridSpec::default()
        };
        let mut document = Document::new(Grid::empty());
        for _ in 0..2000 {
            document.undo.push(crowded.clone());
            let grid = document.grid.clone();
            document.commit(grid, String::new());
        }
        let bytes: usize = document.undo.iter().map(history_bytes).sum();
        assert!(bytes <= HISTORY_BYTES, "{bytes} bytes");
        assert!(document.undo.len() < HISTORY, "{}", document.undo.len());
        assert!(document.can_undo());
        // Undo and redo still walk the history.
        let before = designer.document.grid().clone();
        designer.apply(&Edit::Undo).unwrap();
        assert_ne!(designer.document.grid(), &before);
        designer.apply(&Edit::Redo).unwrap();
        assert_eq!(designer.document.grid(), &before);
    }

    #[test]
    fn edits_as_json_refuse_fields_they_do_not_take() {
        let read = |json: &str| serde_json::from_str::<Edit>(json);
        assert_eq!(read(r#"{"edit":"undo"}"#).unwrap(), Edit::Undo);
        assert_eq!(
            read(r#"{"edit":"card","number":4,"cell":51}"#).unwrap(),
            Edit::Card {
                number: 4,
                cell: 51,
                params: vec![]
            }
        );
        for (json, field) in [
            (r#"{"edit":"undo","x":1}"#, "`x`"),
            (r#"{"edit":"clear","cell":3}"#, "`cell`"),
            (r#"{"edit":"ladder","start":1,"end":9,"size":2}"#, "`size`"),
        ] {
            let e = read(json).unwrap_err().to_string();
            assert!(e.contains(&format!("unknown field {field}")), "{json}: {e}");
        }
        for edit in [Edit::Redo, Edit::Delete { cell: 3 }, Edit::Clear] {
            let json = serde_json::to_string(&edit).unwrap();
            assert_eq!(read(&json).unwrap(), edit, "{json}");
        }
    }

    #[test]
    fn edits_parse_and_print_back() {
        for text in [
            "ladder 10 32",
            "snake 34 23",
            "card 9 13 50 10",
            "card 9 54",
            "card 4 51",
            "station 9 60 12",
            "copy 13",
            "cut 13",
            "paste 50",
            "delete 4",
            "clear",
            "undo",
            "redo",
        ] {
            let edit: Edit = text.parse().unwrap();
            assert_eq!(edit.to_string(), text);
            let json = serde_json::to_string(&edit).unwrap();
            assert_eq!(serde_json::from_str::<Edit>(&json).unwrap(), edit);
        }
        assert_eq!(
            "  LADDER  10   32 ".parse::<Edit>().unwrap(),
            Edit::Ladder { start: 10, end: 32 }
        );
        for (bad, says) in [
            ("", "empty"),
            ("ladder 10", "ladder START END"),
            ("ladder 10 x", "'x'"),
            ("ladder 999999999999 1", "far too large"),
            ("jump 3 4", "unknown edit 'jump'"),
            ("card 9", "card NUMBER CELL"),
            ("undo 2", "`undo`"),
            ("paste", "paste CELL"),
        ] {
            let err = bad.parse::<Edit>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
