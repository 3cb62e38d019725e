//! The grid: a legal arrangement of ladders, snakes and cards.
//!
//! Terms:
//! - **spec** ([`GridSpec`]): a grid as written (any values, lists in any
//!   order); its JSON form is the API's grid.
//! - **grid** ([`Grid`]): a spec that passed [`crate::rules::validate`]; it
//!   cannot hold an illegal arrangement. Objects are kept by home cell, so a
//!   grid lists ladders, snakes and cards in cell order.
//! - **station terms** ([`StationTerms`]): the one price and fee of a station
//!   number on a grid.

use crate::bots::outlook::OutlookCache;
use crate::cells::{self, LAST};
use crate::objects::{Card, CardKind, Ladder, Object, STATION_NUMBERS, Snake};
use crate::rules::{self, Problem, Violation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A grid as written: any values, not yet checked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    /// Ladders, in any order.
    #[serde(default)]
    pub ladders: Vec<Ladder>,
    /// Snakes, in any order.
    #[serde(default)]
    pub snakes: Vec<Snake>,
    /// Cards, in any order.
    #[serde(default)]
    pub cards: Vec<Card>,
}

impl GridSpec {
    /// Adds `object` at the end of its list.
    pub fn push(&mut self, object: Object) {
        match object {
            Object::Ladder(l) => self.ladders.push(l),
            Object::Snake(s) => self.snakes.push(s),
            Object::Card(c) => self.cards.push(c),
        }
    }
}

/// A grid that breaks one or more rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct GridError {
    /// Every rule broken, in the spec's order.
    pub violations: Vec<Violation>,
}

impl GridError {
    /// The violations in a form for an API.
    pub fn problems(&self) -> Vec<Problem> {
        self.violations
            .iter()
            .map(|v| Problem::from(&v.error))
            .collect()
    }
}

/// The price and fee of one station number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StationTerms {
    /// The card number, 9, 10 or 11.
    pub number: u8,
    /// Coins to buy the group.
    pub price: u32,
    /// Coins another player pays the owner.
    pub fee: u32,
}

/// What a cell means in play: a jump from it, and a card on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellInfo {
    /// Where a ladder or snake starting here leads.
    pub jump: Option<u32>,
    /// The card on this cell.
    pub card: Option<CardKind>,
}

/// A grid that obeys every rule. Build one from a [`GridSpec`] with
/// [`Grid::new`]; its JSON form is the spec's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GridSpec", into = "GridSpec")]
pub struct Grid {
    objects: BTreeMap<u32, Object>,
    table: Vec<CellInfo>,
    next_ladder: Vec<Option<Ladder>>,
    /// The bots' figures for this grid, worked out on first use.
    outlook: OutlookCache,
}

impl Default for Grid {
    fn default() -> Self {
        Self::empty()
    }
}

impl Grid {
    /// The empty grid: no ladders, snakes or cards.
    pub fn empty() -> Self {
        Self::build(BTreeMap::new())
    }

    /// Checks `spec` against every rule.
    ///
    /// # Errors
    /// A [`GridError`] listing every rule broken.
    pub fn new(spec: &GridSpec) -> Result<Self, GridError> {
        let violations = rules::validate(spec);
        if !violations.is_empty() {
            return Err(GridError { violations });
        }
        let objects = spec
            .ladders
            .iter()
            .map(|&l| Object::Ladder(l))
            .chain(spec.snakes.iter().map(|&s| Object::Snake(s)))
            .chain(spec.cards.iter().map(|&c| Object::Card(c)))
            .map(|o| (o.home(), o))
            .collect();
        Ok(Self::build(objects))
    }

    fn build(objects: BTreeMap<u32, Object>) -> Self {
        let size = LAST as usize + 1;
        let mut table = vec![CellInfo::default(); size];
        for object in objects.values() {
            let slot = |cell: u32| cell as usize;
            match *object {
                Object::Ladder(l) => table[slot(l.start)].jump = Some(l.end),
                Object::Snake(s) => table[slot(s.start)].jump = Some(s.end),
                Object::Card(c) => table[slot(c.cell)].card = Some(c.kind),
            }
        }
        let mut next_ladder = vec![None; size];
        let mut ahead = None;
        for cell in (0..size).rev() {
            next_ladder[cell] = ahead;
            if let Some(Object::Ladder(l)) = objects.get(&(cell as u32)) {
                ahead = Some(*l);
            }
        }
        Self {
            objects,
            table,
            next_ladder,
            outlook: OutlookCache::default(),
        }
    }

    /// The grid as a spec (ladders, snakes, cards, each in cell order).
    pub fn to_spec(&self) -> GridSpec {
        let mut spec = GridSpec::default();
        for object in self.objects.values() {
            spec.push(*object);
        }
        spec
    }

    /// Every object in order of home cell.
    pub fn objects(&self) -> impl Iterator<Item = Object> + '_ {
        self.objects.values().copied()
    }

    /// The object living on `cell` (a ladder's or snake's start, a card).
    pub fn object_at(&self, cell: u32) -> Option<Object> {
        self.objects.get(&cell).copied()
    }

    /// The ladders, by start cell.
    pub fn ladders(&self) -> impl Iterator<Item = Ladder> + '_ {
        self.objects.values().filter_map(|o| match o {
            Object::Ladder(l) => Some(*l),
            _ => None,
        })
    }

    /// The snakes, by start cell.
    pub fn snakes(&self) -> impl Iterator<Item = Snake> + '_ {
        self.objects.values().filter_map(|o| match o {
            Object::Snake(s) => Some(*s),
            _ => None,
        })
    }

    /// Every ladder and snake as a `(start, end)` pair of cells, by start
    /// cell: the grid as jumps, for reading it as a board of another game
    /// (the cards are left out).
    pub fn jumps(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.objects.values().filter_map(|o| match o {
            Object::Ladder(l) => Some((l.start, l.end)),
            Object::Snake(s) => Some((s.start, s.end)),
            Object::Card(_) => None,
        })
    }

    /// The cards, by cell.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.objects.values().filter_map(|o| match o {
            Object::Card(c) => Some(*c),
            _ => None,
        })
    }

    /// The card on `cell`, if any.
    pub fn card_at(&self, cell: u32) -> Option<CardKind> {
        self.table.get(cell as usize).and_then(|i| i.card)
    }

    /// Where a ladder or snake starting on `cell` leads, if one does.
    pub fn jump_at(&self, cell: u32) -> Option<u32> {
        self.table.get(cell as usize).and_then(|i| i.jump)
    }

    /// The ladder with the lowest start above `cell`, if any.
    pub fn next_ladder_after(&self, cell: u32) -> Option<Ladder> {
        self.next_ladder.get(cell as usize).copied().flatten()
    }

    /// The price and fee of station `number` (9, 10, 11), when the grid has
    /// such a card.
    pub fn station_terms(&self, number: u8) -> Option<StationTerms> {
        self.cards().find_map(|c| match c.kind {
            CardKind::Station {
                number: n,
                price,
                fee,
            } if n == number => Some(StationTerms { number, price, fee }),
            _ => None,
        })
    }

    /// The station numbers present, with their terms.
    pub fn stations(&self) -> Vec<StationTerms> {
        STATION_NUMBERS
            .iter()
            .filter_map(|&n| self.station_terms(n))
            .collect()
    }

    /// Counts of ladders, snakes and cards.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for o in self.objects.values() {
            match o {
                Object::Ladder(_) => counts.0 += 1,
                Object::Snake(_) => counts.1 += 1,
                Object::Card(_) => counts.2 += 1,
            }
        }
        counts
    }

    /// True when the grid holds nothing.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// What a cell means in play (internal fast path).
    #[inline]
    pub(crate) fn info(&self, cell: u32) -> &CellInfo {
        const NOTHING: CellInfo = CellInfo {
            jump: None,
            card: None,
        };
        self.table.get(cell as usize).unwrap_or(&NOTHING)
    }

    /// Where the bots' figures for this grid are kept once worked out.
    pub(crate) fn outlook_cache(&self) -> &OutlookCache {
        &self.outlook
    }

    /// The cell's column (0 = left) and row from the top (0 = top row), for
    /// pictures; `None` off the grid.
    pub fn position(cell: u32) -> Option<tabletop::Cell> {
        cells::geometry().cell_of(cell)
    }
}

impl TryFrom<GridSpec> for Grid {
    type Error = GridError;
    fn try_from(spec: GridSpec) -> Result<Self, GridError> {
        Self::new(&spec)
    }
}

impl From<Grid> for GridSpec {
    fn from(grid: Grid) -> Self {
        grid.to_spec()
    }
}

impl fmt::Display for Grid {
    /// A one-line summary: `4 ladders, 4 snakes, 9 cards`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, s, c) = self.counts();
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        write!(
            f,
            "{}, {}, {}",
            plural(l, "ladder"),
            plural(s, "snake"),
            plural(c, "card")
        )
    }
}
