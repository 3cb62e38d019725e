//! What each cell of a grid promises, for the default bot: worked out once
//! per grid, on first use, and kept with the grid.
//!
//! Terms:
//! - **moves left** ([`Outlook::moves_left`]): the expected number of moves
//!   (rolls that move the token) from a cell to cell 99, following ladders,
//!   snakes and card chains exactly as play does (coins, lost turns and the
//!   other players aside). A cell from which 99 cannot be reached counts
//!   [`UNREACHABLE`] moves.
//! - **winning rolls** ([`Outlook::winning_rolls`]): how many of the six
//!   faces win at once from a cell, with or without poison.
//! - **poison cost** ([`Outlook::poison_cost`]): the moves one poisoned roll
//!   (counting one less) costs from a cell, on average: high just below a
//!   ladder or cell 99, low (or below zero) just below a snake.
//! - **bill** ([`Bill`]): a card that takes coins where it lies: card 1, a
//!   prison (card 8, its fee to leave), a station (cards 9–11, its fee when
//!   another player owns it); with the **reach** from every cell: the chance
//!   that a token there stops on the bill's cell later.
//! - **bill ahead** ([`Outlook::bill_ahead`]): the largest card 1 or prison
//!   fee on the next [`BILL_LOOKAHEAD`] cells.
//! - **bill risk** ([`Outlook::bill_risk`]): the moves the bills ahead are
//!   likely to cost a wallet: for each bill within [`DUE_RANGE`] cells, its
//!   reach times what falling short would cost (three turns in prison, or
//!   moves with an empty wallet until recharges pay a fine back), with the
//!   coins the wallet will hold by then ([`COINS_PER_CELL`] more per cell).
//!   Kept as a table by cell and wallet (every 5 coins), for speed.
//! - **last station cell** ([`Outlook::last_station_cell`]): the highest
//!   cell of a station number; nobody beyond it can land on that group.

use crate::cells::{FIRST, LAST};
use crate::game::{FACES, landing};
use crate::grid::Grid;
use crate::objects::{CardKind, STATION_NUMBERS};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Moves counted from a cell from which cell 99 cannot be reached.
pub const UNREACHABLE: f32 = 500.0;
/// Cells ahead that [`Outlook::bill_ahead`] looks at (two moves).
pub const BILL_LOOKAHEAD: u32 = 12;
/// Cells ahead that [`Outlook::largest_due`] looks at (the coin risk's
/// range: some ten moves).
pub const DUE_RANGE: u32 = 36;

/// Coins a wallet gains per cell travelled, on average: a 35-coin recharge
/// every third turn, two moves of 3.5 cells between recharges.
pub const COINS_PER_CELL: i64 = 5;
/// Moves three turns in prison cost (two of the three are move turns).
pub const PRISON_SETBACK: f32 = 2.0;

const CELLS: usize = LAST as usize + 1;
/// The wallets the bill-risk table holds: -100 to 300 coins by 5.
const RISK_LOW: i64 = -100;
const RISK_STEP: i64 = 5;
const RISK_WALLETS: usize = 81;
type RiskRow = [f32; RISK_WALLETS];
type RiskTable = [RiskRow; CELLS];
const SIDES: usize = FACES as usize;

/// The figures of one cell (see the module's terms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellOutlook {
    /// Expected moves to cell 99.
    pub moves_left: f32,
    /// The moves one poisoned roll costs on average.
    pub poison_cost: f32,
    /// Faces that win at once.
    pub wins: u8,
    /// Faces that win at once under poison.
    pub wins_poisoned: u8,
    /// The largest card 1 or prison fee on the next [`BILL_LOOKAHEAD`] cells.
    pub bill_ahead: u32,
    /// The largest bill on the next [`DUE_RANGE`] cells.
    pub largest_due: u32,
}

impl CellOutlook {
    /// Off the grid: 99 unreachable, nothing to win or pay.
    pub const OFF_GRID: Self = Self {
        moves_left: UNREACHABLE,
        poison_cost: 0.0,
        wins: 0,
        wins_poisoned: 0,
        bill_ahead: 0,
        largest_due: 0,
    };

    /// Faces that win at once, with or without poison.
    pub fn winning_rolls(&self, poisoned: bool) -> u8 {
        if poisoned {
            self.wins_poisoned
        } else {
            self.wins
        }
    }
}

/// What a bill card takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BillKind {
    /// Card 1: its coins.
    Fine,
    /// Card 8: its fee, or three turns in prison.
    Prison,
    /// Station `number`: its fee, when another player owns it.
    Station(u8),
}

/// A card that takes coins, and how likely each cell is to reach it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bill {
    /// Where it lies.
    pub cell: u32,
    /// What it is.
    pub kind: BillKind,
    /// The coins it takes (the fee for a prison or a station).
    pub coins: u32,
    reach: Box<[f32; CELLS]>,
}

impl Bill {
    /// The chance that a token on `from` stops on this bill's cell later
    /// (following jumps and card chains; the game might end first).
    pub fn reach(&self, from: u32) -> f32 {
        self.reach.get(from as usize).copied().unwrap_or(0.0)
    }
}

/// The per-cell figures of one grid (index = cell; 0 is unused).
#[derive(Clone, Debug, PartialEq)]
pub struct Outlook {
    bills: Vec<Bill>,
    cells: [CellOutlook; CELLS],
    mean_poison_cost: f32,
    fines_risk: Box<RiskTable>,
    station_risk: [Option<Box<RiskTable>>; 3],
    last_station: [u32; 3],
}

impl Outlook {
    /// The outlook of `grid`, worked out the first time it is asked for and
    /// then kept with the grid (clones of the grid share it).
    pub fn of(grid: &Arc<Grid>) -> &Outlook {
        grid.outlook_cache()
            .0
            .get_or_init(|| Arc::new(Self::compute(grid)))
    }

    fn compute(grid: &Arc<Grid>) -> Self {
        // Where a move counting 0..=6 from each cell ends.
        let mut to = [[0u32; SIDES + 1]; CELLS];
        for cell in FIRST..LAST {
            to[cell as usize][0] = cell;
            for counts in 1..=FACES {
                to[cell as usize][usize::from(counts)] = landing(grid, cell, counts);
            }
        }
        // Cells from which some rolls reach 99.
        let mut reaches = [false; CELLS];
        reaches[LAST as usize] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for cell in FIRST as usize..LAST as usize {
                if !reaches[cell] && to[cell][1..].iter().any(|&t| reaches[t as usize]) {
                    reaches[cell] = true;
                    changed = true;
                }
            }
        }
        // Expected moves to 99: E[c] = 1 + mean over the faces of E[where they
        // lead], by Gauss-Seidel sweeps from the top (they settle within a
        // few dozen sweeps on real grids; the cap only guards odd ones).
        let mut e = [0f64; CELLS];
        for cell in FIRST as usize..LAST as usize {
            e[cell] = if reaches[cell] {
                f64::from(LAST - cell as u32) / 3.5
            } else {
                f64::from(UNREACHABLE)
            };
        }
        for _ in 0..2000 {
            let mut most = 0f64;
            for cell in (FIRST as usize..LAST as usize).rev() {
                if !reaches[cell] {
                    continue;
                }
                let sum: f64 = to[cell][1..].iter().map(|&t| e[t as usize]).sum();
                let new = (1.0 + sum / SIDES as f64).min(f64::from(UNREACHABLE));
                most = most.max((new - e[cell]).abs());
                e[cell] = new;
            }
            if most < 1e-6 {
                break;
            }
        }
        let mut out = Self {
            bills: Vec::new(),
            cells: [CellOutlook::OFF_GRID; CELLS],
            mean_poison_cost: 0.0,
            fines_risk: Box::new([[0.0; RISK_WALLETS]; CELLS]),
            station_risk: [None, None, None],
            last_station: [0; 3],
        };
        out.cells[LAST as usize].moves_left = 0.0;
        let mut cost_sum = 0f64;
        let mut cost_cells = 0u32;
        for cell in FIRST as usize..LAST as usize {
            out.cells[cell].moves_left = e[cell] as f32;
            let faces = &to[cell];
            let plain: f64 = faces[1..].iter().map(|&t| e[t as usize]).sum();
            let poisoned: f64 = faces[..SIDES].iter().map(|&t| e[t as usize]).sum();
            let cost = (poisoned - plain) / SIDES as f64;
            out.cells[cell].poison_cost = cost as f32;
            if reaches[cell] {
                cost_sum += cost;
                cost_cells += 1;
            }
            out.cells[cell].wins = faces[1..].iter().filter(|&&t| t == LAST).count() as u8;
            out.cells[cell].wins_poisoned =
                faces[..SIDES].iter().filter(|&&t| t == LAST).count() as u8;
        }
        out.mean_poison_cost = if cost_cells == 0 {
            0.0
        } else {
            (cost_sum / f64::from(cost_cells)) as f32
        };
        let mut bill = [0u32; CELLS];
        for card in grid.cards() {
            let due = match card.kind {
                CardKind::TakeCoins { coins } => coins,
                CardKind::Prison { fee } => fee,
                _ => 0,
            };
            if let Some(slot) = bill.get_mut(card.cell as usize) {
                *slot = due;
            }
            if let CardKind::Station { number, .. } = card.kind
                && let Some(i) = STATION_NUMBERS.iter().position(|&n| n == number)
            {
                out.last_station[i] = out.last_station[i].max(card.cell);
            }
        }
        for card in grid.cards() {
            let (kind, coins) = match card.kind {
                CardKind::TakeCoins { coins } => (BillKind::Fine, coins),
                CardKind::Prison { fee } => (BillKind::Prison, fee),
                CardKind::Station { number, fee, .. } => (BillKind::Station(number), fee),
                _ => continue,
            };
            out.bills.push(Bill {
                cell: card.cell,
                kind,
                coins,
                reach: Box::new(reach(&to, card.cell)),
            });
        }
        for cell in FIRST..LAST {
            let ahead = (cell + 1)..=(cell + BILL_LOOKAHEAD).min(LAST);
            out.cells[cell as usize].bill_ahead =
                ahead.map(|c| bill[c as usize]).max().unwrap_or(0);
            out.cells[cell as usize].largest_due = out
                .bills_ahead(cell, DUE_RANGE)
                .iter()
                .map(|b| b.coins)
                .max()
                .unwrap_or(0);
        }
        let bills = std::mem::take(&mut out.bills);
        for cell in FIRST..LAST {
            let from = bills.partition_point(|b| b.cell <= cell);
            let to = bills.partition_point(|b| b.cell <= cell + DUE_RANGE);
            for w in 0..RISK_WALLETS {
                let coins = RISK_LOW + RISK_STEP * w as i64;
                for bill in bills.get(from..to).unwrap_or(&[]) {
                    let risk = bill_risk(bill, cell, coins);
                    let table = match bill.kind {
                        BillKind::Station(n) => {
                            let i = STATION_NUMBERS.iter().position(|&s| s == n).unwrap_or(0);
                            out.station_risk[i]
                                .get_or_insert_with(|| Box::new([[0.0; RISK_WALLETS]; CELLS]))
                        }
                        _ => &mut out.fines_risk,
                    };
                    table[cell as usize][w] += risk;
                }
            }
        }
        out.bills = bills;
        out
    }

    /// The bill risk of a wallet of `coins` on `cell`: the moves the fines
    /// and prisons ahead are likely to cost it, and the fees of the
    /// stations `charged` (by index: 9, 10, 11; those another player owns).
    /// The table holds wallets every 5 coins from -100 to 300: a wallet in
    /// between counts as the one below it, one beyond as the last.
    pub fn bill_risk(&self, cell: u32, coins: i64, charged: [bool; 3]) -> f32 {
        self.bill_rows(cell, charged).risk(coins)
    }

    /// The rows of the bill-risk table for `cell` and the stations
    /// `charged`, to read several wallets from ([`BillRows::risk`]).
    pub fn bill_rows(&self, cell: u32, charged: [bool; 3]) -> BillRows<'_> {
        fn row(t: Option<&RiskTable>, on: bool, cell: u32) -> &RiskRow {
            match t {
                Some(t) if on => t.get(cell as usize).unwrap_or(&NO_RISK),
                _ => &NO_RISK,
            }
        }
        BillRows {
            rows: [
                row(Some(&self.fines_risk), true, cell),
                row(self.station_risk[0].as_deref(), charged[0], cell),
                row(self.station_risk[1].as_deref(), charged[1], cell),
                row(self.station_risk[2].as_deref(), charged[2], cell),
            ],
        }
    }

    /// The bills on the cells after `cell`, up to `within` cells on, in
    /// cell order.
    pub fn bills_ahead(&self, cell: u32, within: u32) -> &[Bill] {
        let from = self.bills.partition_point(|b| b.cell <= cell);
        let to = self
            .bills
            .partition_point(|b| b.cell <= cell.saturating_add(within));
        self.bills.get(from..to).unwrap_or(&[])
    }

    /// Everything about `cell` at once (one cache line, for speed); off
    /// the grid, [`CellOutlook::OFF_GRID`]. Cell 99 has 0 moves left.
    pub fn cell(&self, cell: u32) -> &CellOutlook {
        self.cells
            .get(cell as usize)
            .filter(|_| cell >= FIRST)
            .unwrap_or(&CellOutlook::OFF_GRID)
    }

    /// Expected moves from `cell` to cell 99 (0 on 99; [`UNREACHABLE`] where
    /// 99 cannot be reached or off the grid).
    pub fn moves_left(&self, cell: u32) -> f32 {
        self.cell(cell).moves_left
    }

    /// How many of the six faces win at once from `cell` (with poison, a
    /// face counts one less).
    pub fn winning_rolls(&self, cell: u32, poisoned: bool) -> u8 {
        self.cell(cell).winning_rolls(poisoned)
    }

    /// The moves one poisoned roll from `cell` costs on average.
    pub fn poison_cost(&self, cell: u32) -> f32 {
        self.cell(cell).poison_cost
    }

    /// [`Outlook::poison_cost`] averaged over the cells from which 99 can be
    /// reached: what a poisoned roll costs when it is not known where.
    pub fn mean_poison_cost(&self) -> f32 {
        self.mean_poison_cost
    }

    /// The largest card 1 or prison fee on the [`BILL_LOOKAHEAD`] cells
    /// after `cell` (0 when there is none).
    pub fn bill_ahead(&self, cell: u32) -> u32 {
        self.cell(cell).bill_ahead
    }

    /// The largest sum any bill on the [`DUE_RANGE`] cells after `cell`
    /// may take (a station's fee counted whoever owns it; 0 when there is
    /// none).
    pub fn largest_due(&self, cell: u32) -> u32 {
        self.cell(cell).largest_due
    }

    /// The highest cell holding station `number` (9, 10, 11), if the grid
    /// has one.
    pub fn last_station_cell(&self, number: u8) -> Option<u32> {
        let i = STATION_NUMBERS.iter().position(|&n| n == number)?;
        self.last_station.get(i).copied().filter(|&c| c > 0)
    }
}

/// What `bill` is likely to cost a wallet of `coins` on `cell`, in moves
/// (see [`Outlook::bill_risk`]).
fn bill_risk(bill: &Bill, cell: u32, coins: i64) -> f32 {
    let due = i64::from(bill.coins);
    let held = coins + COINS_PER_CELL * i64::from(bill.cell.saturating_sub(cell));
    let short = due - held;
    // A ramp over 40 coins around the fee: the coins held by then are a
    // guess.
    let share = (short as f32 / 40.0 + 0.5).clamp(0.0, 1.0);
    let loss = match bill.kind {
        BillKind::Prison => PRISON_SETBACK,
        // Moves lost until recharges pay the debt back.
        _ => 1.0 + (short.max(0) as f32 / 70.0).min(10.0),
    };
    bill.reach(cell) * share * loss
}

/// The chance from each cell of stopping on `target` later, given where
/// each face leads (`to`): v(c) = mean over the faces of 1 on `target`,
/// 0 on 99, v(where it leads) otherwise; sweeps up from 0 until they settle.
fn reach(to: &[[u32; SIDES + 1]; CELLS], target: u32) -> [f32; CELLS] {
    let mut v = [0f64; CELLS];
    for _ in 0..2000 {
        let mut most = 0f64;
        for cell in (FIRST as usize..LAST as usize).rev() {
            let sum: f64 = to[cell][1..]
                .iter()
                .map(|&t| {
                    if t == target {
                        1.0
                    } else if t == LAST {
                        0.0
                    } else {
                        v[t as usize]
                    }
                })
                .sum();
            let new = sum / SIDES as f64;
            most = most.max((new - v[cell]).abs());
            v[cell] = new;
        }
        if most < 1e-6 {
            break;
        }
    }
    v.map(|x| x as f32)
}

/// A row of no risk at all (a station nobody else owns).
static NO_RISK: RiskRow = [0.0; RISK_WALLETS];

/// The rows of the bill-risk table that apply to one player on one cell
/// (from [`Outlook::bill_rows`]): the fines and prisons, and each station.
#[derive(Clone, Copy, Debug)]
pub struct BillRows<'a> {
    rows: [&'a RiskRow; 4],
}

impl BillRows<'_> {
    /// The bill risk of a wallet of `coins` (see [`Outlook::bill_risk`]).
    pub fn risk(&self, coins: i64) -> f32 {
        let i = ((coins - RISK_LOW).max(0) / RISK_STEP).min(RISK_WALLETS as i64 - 1) as usize;
        let [a, b, c, d] = self.rows;
        a[i] + b[i] + c[i] + d[i]
    }
}

/// A grid's [`Outlook`], once worked out. It is not part of what a grid is:
/// every cache compares equal, and a clone shares what was worked out.
#[derive(Clone, Default)]
pub(crate) struct OutlookCache(OnceLock<Arc<Outlook>>);

impl PartialEq for OutlookCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for OutlookCache {}

impl fmt::Debug for OutlookCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "OutlookCache(worked out)"
        } else {
            "OutlookCache(not yet)"
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{GridSpec, Ladder, Snake, parse_grid};

    fn grid(ladders: &[(u32, u32)], snakes: &[(u32, u32)]) -> Arc<Grid> {
        let spec = GridSpec {
            ladders: ladders
                .iter()
                .map(|&(start, end)| Ladder { start, end })
                .collect(),
            snakes: snakes
                .iter()
                .map(|&(start, end)| Snake { start, end })
                .collect(),
            cards: Vec::new(),
        };
        Arc::new(Grid::new(&spec).unwrap())
    }

    #[test]
    fn the_last_cells_of_an_empty_grid_by_hand() {
        let g = grid(&[], &[]);
        let o = Outlook::of(&g);
        // From 98 every face wins (a move that passes 99 stops there), from
        // 97 every face but 1, … from 93 only a 6.
        for cell in 93..=98 {
            assert_eq!(o.winning_rolls(cell, false), (cell - 92) as u8, "{cell}");
        }
        assert_eq!(o.winning_rolls(92, false), 0);
        assert!((o.moves_left(98) - 1.0).abs() < 1e-6);
        assert!((o.moves_left(97) - 7.0 / 6.0).abs() < 1e-6);
        // Poisoned, a 1 counts 0: from 98 five faces win, from 97 four.
        assert_eq!(o.winning_rolls(98, true), 5);
        assert_eq!(o.winning_rolls(97, true), 4);
        // A poisoned roll from 98 fails once in six: it costs E[98] / 6.
        assert!((o.poison_cost(98) - 1.0 / 6.0).abs() < 1e-5);
        // From 97: (E[97] + E[98] - E[98]) / 6 = 7/36.
        assert!((o.poison_cost(97) - 7.0 / 36.0).abs() < 1e-5);
        assert_eq!(o.moves_left(LAST), 0.0);
        assert_eq!(o.moves_left(0), UNREACHABLE);
        // Further back, about one move per 3.5 cells.
        let per_cell = (o.moves_left(1) - o.moves_left(50)) / 49.0;
        assert!((per_cell - 1.0 / 3.5).abs() < 0.01, "{per_cell}");
    }

    #[test]
    fn ladders_bring_a_cell_closer_and_snakes_take_it_away() {
        let grids = [
            grid(&[], &[]),
            grid(&[(30, 85)], &[]),
            grid(&[], &[(70, 15)]),
        ];
        let [plain, up, down] = grids.each_ref().map(Outlook::of);
        // Below the ladder: closer than on an empty grid. A poisoned roll
        // from 24 misses the ladder a 6 would reach: it costs more than on
        // an empty grid; from 29 it still reaches the ladder (a 2 counts 1),
        // and cannot overshoot it: it costs less than nothing.
        assert!(up.moves_left(26) < plain.moves_left(26) - 3.0);
        assert!(up.poison_cost(24) > plain.poison_cost(24) + 0.5);
        assert!(up.poison_cost(29) < 0.0);
        // Below the snake: further, and a poisoned roll from 64 misses the
        // head a 6 would reach: it costs less than nothing.
        assert!(down.moves_left(60) > plain.moves_left(60) + 2.0);
        assert!(down.poison_cost(64) < 0.0);
        // Above either, the same as on an empty grid.
        assert!((up.moves_left(90) - plain.moves_left(90)).abs() < 1e-4);
    }

    #[test]
    fn a_grid_that_cannot_be_won_counts_unreachable_moves() {
        let snakes: Vec<(u32, u32)> = (93..=98).map(|c| (c, c - 88)).collect();
        let g = grid(&[], &snakes);
        let o = Outlook::of(&g);
        assert_eq!(o.moves_left(1), UNREACHABLE);
        assert_eq!(o.winning_rolls(92, false), 0);
    }

    #[test]
    fn bills_ahead_and_station_cells_on_the_sample() {
        let g = Arc::new(parse_grid(crate::SAMPLE_GRID).unwrap());
        let o = Outlook::of(&g);
        // Card 1 on 4 takes 50; prisons on 19 and 36 cost 50.
        assert_eq!(o.bill_ahead(1), 50);
        assert_eq!(o.bill_ahead(13), 50);
        assert_eq!(o.bill_ahead(54), 0);
        // Station fees (10) count among the dues: 50 until cell 84 is
        // passed, then none.
        assert_eq!(o.largest_due(60), 50);
        assert_eq!(o.largest_due(84), 0);
        let [b1, b2] = [o.bills_ahead(50, 10), o.bills_ahead(0, 99)];
        assert_eq!(b1.iter().map(|b| b.cell).collect::<Vec<_>>(), [54]);
        assert_eq!(b2.len(), 7);
        assert_eq!(b2[0].kind, BillKind::Fine);
        // From cell 1 a token stops on cell 4 (a 3) or later; about 2/7.
        assert!((0.2..0.5).contains(&b2[0].reach(1)), "{}", b2[0].reach(1));
        assert_eq!(b2[0].reach(4), 0.0, "no snake leads back below 4");
        assert_eq!(o.last_station_cell(9), Some(81));
        assert_eq!(o.last_station_cell(10), None);
        // Worked out once: a second call gives the same table.
        assert!(std::ptr::eq(o, Outlook::of(&g)));
        // A clone of the grid shares it and still equals the grid.
        let copy = Arc::new((*g).clone());
        assert!(std::ptr::eq(o, Outlook::of(&copy)));
        assert_eq!(*copy, *g);
        // The original assignment's sample: from cell 1 a game takes some 20 moves.
        assert!(
            (10.0..30.0).contains(&o.moves_left(1)),
            "{}",
            o.moves_left(1)
        );
    }
}
