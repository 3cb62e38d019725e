//! The grid's rules, and the one validator that enforces them.
//!
//! Terms:
//! - **rule** ([`Rule`]): one rule of `docs/rules.md` §3, with a name
//!   and a sentence.
//! - **rule error** ([`RuleError`]): a rule broken, naming the objects and
//!   cells involved.
//! - **item** ([`Item`]): which entry of a [`GridSpec`] an error is about
//!   (the later of two clashing entries), so a file loader can point at its
//!   line.
//! - **overlap**: two ladders (or two snakes) overlap when they are in the
//!   same column and the cells they span, start to end inclusive, share at
//!   least one cell. Ladders in different columns never overlap; a ladder
//!   and a snake may overlap.
//!
//! [`validate`] is used by the designer, the file loader and the JSON form
//! alike: there is no other check.

use crate::cells::{self, FIRST, LAST};
use crate::grid::GridSpec;
use crate::objects::{Card, CardKind, Ladder, Object, STATION_NUMBERS, Snake};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most coins a card parameter may hold.
pub const MAX_AMOUNT: u32 = 1_000_000;

/// One rule of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Every cell named is 1 to 99.
    OnGrid,
    /// No object lives on cell 1 or cell 99.
    NotFirstOrLast,
    /// A ladder or snake stays in one column.
    OneColumn,
    /// A ladder goes up.
    LadderGoesUp,
    /// A ladder does not start in the top row.
    LadderNotInTopRow,
    /// A snake goes down.
    SnakeGoesDown,
    /// A snake does not start in the bottom row.
    SnakeNotInBottomRow,
    /// A cell holds at most one object.
    OneObjectPerCell,
    /// Two ladders never overlap.
    LaddersDoNotOverlap,
    /// Two snakes never overlap.
    SnakesDoNotOverlap,
    /// An end is not the start of another ladder or snake.
    EndIsNotAStart,
    /// Card amounts are 1 to 1,000,000 coins.
    Amount,
    /// Card 6 sends a player to another cell.
    Destination,
    /// Stations are cards 9, 10 and 11.
    StationNumber,
    /// Every card of one station number has one price and fee.
    OneStationPrice,
}

impl Rule {
    /// The rule in one sentence.
    pub fn text(self) -> &'static str {
        match self {
            Self::OnGrid => "every cell is 1 to 99",
            Self::NotFirstOrLast => "no object lives on cell 1 or cell 99",
            Self::OneColumn => "a ladder or snake starts and ends in the same column",
            Self::LadderGoesUp => "a ladder's start is below its end",
            Self::LadderNotInTopRow => "a ladder does not start in the top row",
            Self::SnakeGoesDown => "a snake's start is above its end",
            Self::SnakeNotInBottomRow => "a snake does not start in the bottom row",
            Self::OneObjectPerCell => {
                "a cell holds at most one object (a ladder or snake lives in its start cell; \
                 a card may lie on the end of a ladder or snake, never on a start)"
            }
            Self::LaddersDoNotOverlap => "two ladders never overlap",
            Self::SnakesDoNotOverlap => "two snakes never overlap",
            Self::EndIsNotAStart => {
                "a ladder's or snake's end is not the start of another ladder or snake"
            }
            Self::Amount => "card amounts are 1 to 1000000 coins",
            Self::Destination => "card 6 sends a player to another cell, 1 to 99",
            Self::StationNumber => "stations are cards 9, 10 and 11",
            Self::OneStationPrice => "every card of one station number has the same price and fee",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A rule broken by a grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A cell is not 1 to 99.
    #[error("{object} names cell {cell}, which is off the grid (cells are 1 to 99)")]
    OffGrid {
        /// The object.
        object: Object,
        /// The cell off the grid.
        cell: u32,
    },
    /// An object lives on cell 1 or 99.
    #[error("{object} lives on cell {cell}: no object may live on cell 1 or cell 99")]
    FirstOrLast {
        /// The object.
        object: Object,
        /// 1 or 99.
        cell: u32,
    },
    /// A ladder or snake changes column.
    #[error("{object} goes from column {} to column {}: {}", from_col + 1, to_col + 1, Rule::OneColumn)]
    NotOneColumn {
        /// The ladder or snake.
        object: Object,
        /// The start's column, 0-based.
        from_col: u32,
        /// The end's column, 0-based.
        to_col: u32,
    },
    /// A ladder does not go up.
    #[error("{ladder} does not go up: {}", Rule::LadderGoesUp)]
    LadderNotUp {
        /// The ladder.
        ladder: Ladder,
    },
    /// A ladder starts in the top row.
    #[error(
        "{ladder} starts in the top row (cells 89 to 99): {}",
        Rule::LadderNotInTopRow
    )]
    LadderInTopRow {
        /// The ladder.
        ladder: Ladder,
    },
    /// A snake does not go down.
    #[error("{snake} does not go down: {}", Rule::SnakeGoesDown)]
    SnakeNotDown {
        /// The snake.
        snake: Snake,
    },
    /// A snake starts in the bottom row.
    #[error(
        "{snake} starts in the bottom row (cells 1 to 11): {}",
        Rule::SnakeNotInBottomRow
    )]
    SnakeInBottomRow {
        /// The snake.
        snake: Snake,
    },
    /// Two objects live on one cell.
    #[error(
        "cell {cell} would hold both {first} and {second}: {}",
        Rule::OneObjectPerCell
    )]
    SharedCell {
        /// The cell.
        cell: u32,
        /// The object already there.
        first: Object,
        /// The second object.
        second: Object,
    },
    /// Two ladders overlap.
    #[error("{first} and {second} overlap on cells {from} to {to} of column {}: {}", column + 1, Rule::LaddersDoNotOverlap)]
    LaddersOverlap {
        /// The first ladder.
        first: Ladder,
        /// The second ladder.
        second: Ladder,
        /// The column, 0-based.
        column: u32,
        /// Lowest shared cell.
        from: u32,
        /// Highest shared cell.
        to: u32,
    },
    /// Two snakes overlap.
    #[error("{first} and {second} overlap on cells {from} to {to} of column {}: {}", column + 1, Rule::SnakesDoNotOverlap)]
    SnakesOverlap {
        /// The first snake.
        first: Snake,
        /// The second snake.
        second: Snake,
        /// The column, 0-based.
        column: u32,
        /// Lowest shared cell.
        from: u32,
        /// Highest shared cell.
        to: u32,
    },
    /// An end is another object's start.
    #[error(
        "{object} ends on cell {cell}, where {other} starts: {}",
        Rule::EndIsNotAStart
    )]
    EndOnStart {
        /// The ladder or snake whose end it is.
        object: Object,
        /// The ladder or snake that starts there.
        other: Object,
        /// The cell.
        cell: u32,
    },
    /// A card amount out of range.
    #[error(
        "{card}: the {amount} of {value} coins is not allowed: {}",
        Rule::Amount
    )]
    Amount {
        /// The card.
        card: Card,
        /// Which of the card's amounts: `"price"` or `"fee"` (a station),
        /// `"fee"` (prison, card 8), `"amount"` (card 1's coins).
        amount: &'static str,
        /// The amount.
        value: u32,
    },
    /// Card 6's destination is off the grid or its own cell.
    #[error("{card} {}: {}", if card_dest_is_own(card) { "sends a player to its own cell" } else { "sends a player off the grid" }, Rule::Destination)]
    Destination {
        /// The card.
        card: Card,
    },
    /// A station card numbered other than 9–11.
    #[error("{card} is a station numbered {number}: {}", Rule::StationNumber)]
    StationNumber {
        /// The card.
        card: Card,
        /// Its number.
        number: u8,
    },
    /// Two cards of one station number disagree on price or fee.
    #[error("{second} disagrees with {first}: {}", Rule::OneStationPrice)]
    StationTerms {
        /// The first card of that number.
        first: Card,
        /// The card that disagrees.
        second: Card,
    },
}

fn card_dest_is_own(card: &Card) -> bool {
    matches!(card.kind, CardKind::GoTo { destination } if destination == card.cell)
}

impl RuleError {
    /// The rule broken.
    pub fn rule(&self) -> Rule {
        match self {
            Self::OffGrid { .. } => Rule::OnGrid,
            Self::FirstOrLast { .. } => Rule::NotFirstOrLast,
            Self::NotOneColumn { .. } => Rule::OneColumn,
            Self::LadderNotUp { .. } => Rule::LadderGoesUp,
            Self::LadderInTopRow { .. } => Rule::LadderNotInTopRow,
            Self::SnakeNotDown { .. } => Rule::SnakeGoesDown,
            Self::SnakeInBottomRow { .. } => Rule::SnakeNotInBottomRow,
            Self::SharedCell { .. } => Rule::OneObjectPerCell,
            Self::LaddersOverlap { .. } => Rule::LaddersDoNotOverlap,
            Self::SnakesOverlap { .. } => Rule::SnakesDoNotOverlap,
            Self::EndOnStart { .. } => Rule::EndIsNotAStart,
            Self::Amount { .. } => Rule::Amount,
            Self::Destination { .. } => Rule::Destination,
            Self::StationNumber { .. } => Rule::StationNumber,
            Self::StationTerms { .. } => Rule::OneStationPrice,
        }
    }

    /// The cells involved, for highlighting.
    pub fn cells(&self) -> Vec<u32> {
        let ends = |o: &Object| match o {
            Object::Ladder(l) => vec![l.start, l.end],
            Object::Snake(s) => vec![s.start, s.end],
            Object::Card(c) => vec![c.cell],
        };
        let mut cells = match self {
            Self::OffGrid { object, .. }
            | Self::FirstOrLast { object, .. }
            | Self::NotOneColumn { object, .. } => ends(object),
            Self::LadderNotUp { ladder } | Self::LadderInTopRow { ladder } => {
                vec![ladder.start, ladder.end]
            }
            Self::SnakeNotDown { snake } | Self::SnakeInBottomRow { snake } => {
                vec![snake.start, snake.end]
            }
            Self::SharedCell { cell, .. } => vec![*cell],
            Self::LaddersOverlap { first, second, .. } => {
                vec![first.start, first.end, second.start, second.end]
            }
            Self::SnakesOverlap { first, second, .. } => {
                vec![first.start, first.end, second.start, second.end]
            }
            Self::EndOnStart { cell, .. } => vec![*cell],
            Self::Amount { card, .. } | Self::StationNumber { card, .. } => vec![card.cell],
            Self::Destination { card } => {
                let mut v = vec![card.cell];
                if let CardKind::GoTo { destination } = card.kind {
                    v.push(destination);
                }
                v
            }
            Self::StationTerms { first, second } => vec![first.cell, second.cell],
        };
        cells.retain(|&c| cells::on_grid(c));
        cells.sort_unstable();
        cells.dedup();
        cells
    }
}

/// Which entry of a [`GridSpec`] an error is about (0-based in its list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "list", content = "index", rename_all = "lowercase")]
pub enum Item {
    /// `spec.ladders[i]`.
    Ladder(usize),
    /// `spec.snakes[i]`.
    Snake(usize),
    /// `spec.cards[i]`.
    Card(usize),
}

/// A rule error and the entry it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct Violation {
    /// The entry to blame (the later of two that clash).
    pub item: Item,
    /// What is wrong.
    pub error: RuleError,
}

/// A violation in a form for an API: the rule's name, its sentence, the
/// cells involved and the full message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The rule broken.
    pub rule: Rule,
    /// The rule in one sentence.
    pub rule_text: String,
    /// The cells involved.
    pub cells: Vec<u32>,
    /// What is wrong, in full.
    pub message: String,
}

impl From<&RuleError> for Problem {
    fn from(e: &RuleError) -> Self {
        Self {
            rule: e.rule(),
            rule_text: e.rule().text().to_string(),
            cells: e.cells(),
            message: e.to_string(),
        }
    }
}

/// Checks `spec` against every rule and returns every violation, in the
/// order of the entries they blame (ladders, then snakes, then cards).
/// An empty list means the grid is legal.
pub fn validate(spec: &GridSpec) -> Vec<Violation> {
    let mut out = Vec::new();
    // Entries whose own shape is sound take part in the pairwise checks.
    let mut ladders: Vec<(usize, Ladder)> = Vec::new();
    let mut snakes: Vec<(usize, Snake)> = Vec::new();
    for (i, &l) in spec.ladders.iter().enumerate() {
        match check_ladder(l) {
            Some(error) => out.push(Violation {
                item: Item::Ladder(i),
                error,
            }),
            None => ladders.push((i, l)),
        }
    }
    for (i, &s) in spec.snakes.iter().enumerate() {
        match check_snake(s) {
            Some(error) => out.push(Violation {
                item: Item::Snake(i),
                error,
            }),
            None => snakes.push((i, s)),
        }
    }
    for (i, &c) in spec.cards.iter().enumerate() {
        out.extend(check_card(c).into_iter().map(|error| Violation {
            item: Item::Card(i),
            error,
        }));
    }

    // One object per cell, in entry order: the later object is blamed.
    let mut homes: Vec<(u32, Object, Item)> = Vec::new();
    let all = spec
        .ladders
        .iter()
        .enumerate()
        .map(|(i, &l)| (Object::Ladder(l), Item::Ladder(i)))
        .chain(
            spec.snakes
                .iter()
                .enumerate()
                .map(|(i, &s)| (Object::Snake(s), Item::Snake(i))),
        )
        .chain(
            spec.cards
                .iter()
                .enumerate()
                .map(|(i, &c)| (Object::Card(c), Item::Card(i))),
        );
    for (object, item) in all {
        let home = object.home();
        if !cells::on_grid(home) {
            continue;
        }
        if let Some((_, first, _)) = homes.iter().find(|(h, _, _)| *h == home) {
            out.push(Violation {
                item,
                error: RuleError::SharedCell {
                    cell: home,
                    first: *first,
                    second: object,
                },
            });
        } else {
            homes.push((home, object, item));
        }
    }

    // Overlaps.
    for (b, &(j, second)) in ladders.iter().enumerate() {
        for &(_, first) in &ladders[..b] {
            if let Some((column, from, to)) =
                overlap(first.start, first.end, second.start, second.end)
            {
                out.push(Violation {
                    item: Item::Ladder(j),
                    error: RuleError::LaddersOverlap {
                        first,
                        second,
                        column,
                        from,
                        to,
                    },
                });
            }
        }
    }
    for (b, &(j, second)) in snakes.iter().enumerate() {
        for &(_, first) in &snakes[..b] {
            if let Some((column, from, to)) =
                overlap(first.end, first.start, second.end, second.start)
            {
                out.push(Violation {
                    item: Item::Snake(j),
                    error: RuleError::SnakesOverlap {
                        first,
                        second,
                        column,
                        from,
                        to,
                    },
                });
            }
        }
    }

    // Ends that are starts: blame the later of the two entries.
    let jumps: Vec<(Object, Item, u32, u32)> = ladders
        .iter()
        .map(|&(i, l)| (Object::Ladder(l), Item::Ladder(i), l.start, l.end))
        .chain(
            snakes
                .iter()
                .map(|&(i, s)| (Object::Snake(s), Item::Snake(i), s.start, s.end)),
        )
        .collect();
    for &(object, item, _, end) in &jumps {
        for &(other, other_item, start, _) in &jumps {
            if start == end && other_item != item {
                out.push(Violation {
                    item: item.max(other_item),
                    error: RuleError::EndOnStart {
                        object,
                        other,
                        cell: end,
                    },
                });
            }
        }
    }

    // One price and fee per station number.
    for number in STATION_NUMBERS {
        let mut first: Option<Card> = None;
        for (i, &card) in spec.cards.iter().enumerate() {
            let CardKind::Station {
                number: n,
                price,
                fee,
            } = card.kind
            else {
                continue;
            };
            if n != number {
                continue;
            }
            match first {
                None => first = Some(card),
                Some(f) => {
                    if let CardKind::Station {
                        price: p0, fee: f0, ..
                    } = f.kind
                        && (p0, f0) != (price, fee)
                    {
                        out.push(Violation {
                            item: Item::Card(i),
                            error: RuleError::StationTerms {
                                first: f,
                                second: card,
                            },
                        });
                    }
                }
            }
        }
    }

    out.sort_by_key(|v| v.item);
    out
}

/// Column and shared cells of two same-column spans `lo..=hi`, if they
/// share any cell.
fn overlap(lo1: u32, hi1: u32, lo2: u32, hi2: u32) -> Option<(u32, u32, u32)> {
    let column = cells::column(lo1)?;
    if cells::column(lo2)? != column {
        return None;
    }
    let from = lo1.max(lo2);
    let to = hi1.min(hi2);
    (from <= to).then_some((column, from, to))
}

fn check_ends(object: Object, start: u32, end: u32) -> Option<RuleError> {
    for cell in [start, end] {
        if !cells::on_grid(cell) {
            return Some(RuleError::OffGrid { object, cell });
        }
    }
    if start == FIRST || start == LAST {
        return Some(RuleError::FirstOrLast {
            object,
            cell: start,
        });
    }
    None
}

fn check_column(object: Object, start: u32, end: u32) -> Option<RuleError> {
    let from_col = cells::column(start)?;
    let to_col = cells::column(end)?;
    (from_col != to_col).then_some(RuleError::NotOneColumn {
        object,
        from_col,
        to_col,
    })
}

fn check_ladder(ladder: Ladder) -> Option<RuleError> {
    if let Some(e) = check_ends(Object::Ladder(ladder), ladder.start, ladder.end) {
        return Some(e);
    }
    if cells::row_from_bottom(ladder.start) == Some(cells::ROWS - 1) {
        return Some(RuleError::LadderInTopRow { ladder });
    }
    if let Some(e) = check_column(Object::Ladder(ladder), ladder.start, ladder.end) {
        return Some(e);
    }
    (ladder.end <= ladder.start).then_some(RuleError::LadderNotUp { ladder })
}

fn check_snake(snake: Snake) -> Option<RuleError> {
    if let Some(e) = check_ends(Object::Snake(snake), snake.start, snake.end) {
        return Some(e);
    }
    if cells::row_from_bottom(snake.start) == Some(0) {
        return Some(RuleError::SnakeInBottomRow { snake });
    }
    if let Some(e) = check_column(Object::Snake(snake), snake.start, snake.end) {
        return Some(e);
    }
    (snake.end >= snake.start).then_some(RuleError::SnakeNotDown { snake })
}

fn check_card(card: Card) -> Vec<RuleError> {
    let object = Object::Card(card);
    if !cells::on_grid(card.cell) {
        return vec![RuleError::OffGrid {
            object,
            cell: card.cell,
        }];
    }
    let mut out = Vec::new();
    if card.cell == FIRST || card.cell == LAST {
        out.push(RuleError::FirstOrLast {
            object,
            cell: card.cell,
        });
    }
    // Each amount is named, so a station whose price and fee are both out
    // of range gets two different lines, not the same one twice.
    let amount = |amount: &'static str, value: u32| {
        (!(1..=MAX_AMOUNT).contains(&value)).then_some(RuleError::Amount {
            card,
            amount,
            value,
        })
    };
    match card.kind {
        CardKind::TakeCoins { coins } => out.extend(amount("amount", coins)),
        CardKind::Prison { fee } => out.extend(amount("fee", fee)),
        CardKind::Station { number, price, fee } => {
            if !STATION_NUMBERS.contains(&number) {
                out.push(RuleError::StationNumber { card, number });
            }
            out.extend(amount("price", price));
            out.extend(amount("fee", fee));
        }
        CardKind::GoTo { destination }
            if !cells::on_grid(destination) || destination == card.cell =>
        {
            out.push(RuleError::Destination { card });
        }
        _ => {}
    }
    out
}
