//! The calibration map: estimated chances made to mean what they say.
//!
//! Terms:
//! - **sampled share**: the share of the estimator's sampled layouts
//!   ([`super::estimate`]) with a given content (empty, `/`, `\`) in a
//!   cell. On big boxes the chains mix slowly between layouts that route a
//!   beam through different mirrors, so these shares are too sure of
//!   themselves: on 26 × 26 with more than a tenth of the cells
//!   mirrors, a mirror every sample shows in a cell is there only about a
//!   quarter of the time (the fitted maps, `calibrate/table.rs`).
//! - **group**: the positions a map is fitted on and applied to, by the
//!   box's size (up to 12, 13 to 19, 20 to 25, 26), the density of the
//!   mirrors still to find, `(k − found) / n²` (up to 0.05, 0.1, 0.15,
//!   0.2, 0.3, more), and whether any mirror is found: how far off the
//!   shares are depends on all three (a found mirror is one the chains no
//!   longer have to place, and the shares of a position with some found
//!   are less far off than those of a box as sparse with none).
//! - **map**: for a group, a non-decreasing function from a sampled share
//!   to the frequency with which the true box held that content, one for
//!   empty and one for either mirror (the two kinds are alike by
//!   symmetry), measured over random boxes by isotonic regression
//!   ([`isotonic`]: pool adjacent violators; each end pooled until its
//!   cases come from at least [`MIN_END_BOXES`] boxes; no map for a group
//!   with cases from too few) and linear between its points. The maps are
//!   fitted on one set of boxes, half of whose positions hold a player's
//!   guesses (some mirrors found, some wrong guesses)
//!   (`BAFFLE_CALIB_SET=1 BAFFLE_CALIB_GUESSES=50 BAFFLE_CALIB_FIT=… cargo
//!   bench -p baffle --bench calibration`, which writes
//!   `calibrate/table.rs`) and checked on another (set 0), with and
//!   without guesses; the figures are in docs/performance.md.
//! - **stated chance**: what the solver says of an estimated cell not
//!   proven: each content's mapped share, those the evidence leaves the
//!   cell (a wrong guess rules one out) scaled to sum to 1.
//! - **in-play map** ([`likeliest`]): the maps above hold for a cell taken
//!   at random, but the advice names the *likeliest* mirror, and a player
//!   who follows it keeps going where the chains are stuck (after a wrong
//!   guess, the chains restart and often agree on the next wrong mirror).
//!   On the bot's own games the likeliest mirror's stated chance was off by
//!   up to 0.2 (stated 96%, right 79%), so the advice's chance goes through
//!   one more non-decreasing map per group, from the stated chance to how
//!   often such guesses were right, fitted on the bot's games, with the
//!   groups pooled for a group they gave too few boxes (`calibrate/likeliest.rs`,
//!   written by `BAFFLE_BOT_FIT=… cargo bench -p baffle --bench
//!   bot_quality`) and checked on other seeds (docs/performance.md).
//! - **kind of guess** ([`Guessed`]): a mirror every sampled layout holds,
//!   or the likeliest where no shot told the samples apart; the same chance
//!   as a cell is right at different rates for the two (86% and 58% for a
//!   cell's 62–65% on 26 × 26 with 40 mirrors), so each has its own maps.
//! - **in-play range** ([`in_play_range`]): on seeds the in-play maps
//!   were not fitted on, their stated chances were off by up to 0.085 in a
//!   tenth (of 61 guesses from 8 games; a game's guesses go right or wrong
//!   together), so the advice states its estimated chance as a range
//!   [`IN_PLAY_ERROR`] wide on either side, not as one figure.

use super::Evidence;

mod likeliest;
mod table;

/// Upper bounds of the density bands (`k / n²`); denser boxes are in the
/// last band.
pub const DENSITY_BANDS: [f64; 5] = [0.05, 0.1, 0.15, 0.2, 0.3];
/// Upper bounds of the size bands; bigger boxes are in the last band.
pub const SIZE_BANDS: [usize; 3] = [12, 19, 25];
/// How many groups of size and density there are: the groups of the
/// positions with no mirror found; as many again follow for those with
/// one found or more.
const BANDED: usize = (DENSITY_BANDS.len() + 1) * (SIZE_BANDS.len() + 1);
/// How many groups there are.
pub const GROUPS: usize = 2 * BANDED;

/// A group's maps: points (sampled share, observed frequency), both
/// increasing.
#[derive(Clone, Copy, Debug)]
pub struct Map {
    /// The map of the share of layouts with the cell empty.
    pub empty: &'static [(f64, f64)],
    /// The map of the share with a given mirror there.
    pub mirror: &'static [(f64, f64)],
}

/// The group of a position on a box of size `n` with `k` mirrors still
/// to find, `found` telling whether any is found.
pub fn group(n: usize, k: usize, found: bool) -> usize {
    let density = k as f64 / (n * n).max(1) as f64;
    let d = DENSITY_BANDS
        .iter()
        .position(|&b| density <= b)
        .unwrap_or(DENSITY_BANDS.len());
    let s = SIZE_BANDS
        .iter()
        .position(|&b| n <= b)
        .unwrap_or(SIZE_BANDS.len());
    s * (DENSITY_BANDS.len() + 1) + d + if found { BANDED } else { 0 }
}

/// The group of the position `ev` tells: its box's size, the mirrors
/// still to find, and whether any is found.
pub fn group_of(ev: &Evidence) -> usize {
    group(ev.size, ev.mirrors_to_find(), !ev.found.is_empty())
}

/// `points`' value at `x`: linear between points, flat beyond the ends;
/// `x` itself when there are no points.
pub fn interpolate(points: &[(f64, f64)], x: f64) -> f64 {
    let i = points.partition_point(|&(s, _)| s < x);
    match (points.get(i.wrapping_sub(1)), points.get(i)) {
        (None, None) => x,
        (None, Some(&(_, y))) | (Some(&(_, y)), None) => y,
        (Some(&(x0, y0)), Some(&(x1, y1))) => {
            if x1 <= x0 {
                y1
            } else {
                y0 + (y1 - y0) * (x - x0) / (x1 - x0)
            }
        }
    }
}

/// A cell's stated chances (empty, `/`, `\`) from its sampled `shares`,
/// in a position with evidence `ev` (its group: [`group_of`]), where
/// `allowed` says which contents the evidence leaves it: a content ruled
/// out keeps chance 0 (`shares` as they are when it leaves none).
pub fn cell(ev: &Evidence, shares: [f64; 3], allowed: [bool; 3]) -> [f64; 3] {
    let map = table::MAPS[group_of(ev).min(GROUPS - 1)];
    let mapped = [
        (map.empty, shares[0], allowed[0]),
        (map.mirror, shares[1], allowed[1]),
        (map.mirror, shares[2], allowed[2]),
    ]
    .map(|(points, x, ok)| {
        if ok {
            interpolate(points, x.clamp(0.0, 1.0)).clamp(0.0, 1.0)
        } else {
            0.0
        }
    });
    let total: f64 = mapped.iter().sum();
    let open = allowed.iter().filter(|&&a| a).count();
    if total > 0.0 {
        mapped.map(|c| c / total)
    } else if open > 0 {
        // Nothing measured for what is left: each content left alike.
        allowed.map(|a| if a { 1.0 / open as f64 } else { 0.0 })
    } else {
        shares
    }
}

/// Which guess on estimated odds a chance is stated for: the two are
/// right at different rates for the same chance as a cell, so each has its
/// own in-play maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guessed {
    /// A mirror every sampled layout holds (the bot's "likely" guess).
    EverySample,
    /// The likeliest mirror where no shot told the samples apart (the
    /// advice's guess).
    Likeliest,
}

/// The chance of a mirror guessed on estimated odds as the advice and the
/// bot state it, in the position `ev` tells: `chance` (its stated chance
/// as a cell, [`cell`]) through the in-play map of the guess's kind and
/// the position's group, or that kind's map of every group pooled when
/// the bot's games gave its group too few boxes.
pub fn likeliest(ev: &Evidence, chance: f64, guessed: Guessed) -> f64 {
    let (maps, pooled) = match guessed {
        Guessed::EverySample => (&likeliest::EVERY_SAMPLE, likeliest::EVERY_SAMPLE_POOLED),
        Guessed::Likeliest => (&likeliest::LIKELIEST, likeliest::LIKELIEST_POOLED),
    };
    let group = maps[group_of(ev).min(GROUPS - 1)];
    let map = if group.is_empty() { pooled } else { group };
    interpolate(map, chance.clamp(0.0, 1.0)).clamp(0.0, 1.0)
}

/// How far on either side of an estimated chance of the likeliest mirror
/// ([`likeliest`]) the advice's range reaches: the largest gap measured
/// between the chance stated and how often such guesses were right, by
/// tenth of the chance stated, on the bot's games on seeds the in-play
/// maps were not fitted on (seeds 1 to 100, 5,300 guesses: 0.085 in a
/// tenth of 61 guesses from 8 games; at most 0.053 in a tenth of more than
/// 75 games; 0.002 in the tenth of most guesses), rounded up.
pub const IN_PLAY_ERROR: f64 = 0.1;

/// The range an estimated chance of the likeliest mirror is stated as:
/// [`IN_PLAY_ERROR`] on either side of `chance`, within 0 and 1.
pub fn in_play_range(chance: f64) -> (f64, f64) {
    (
        (chance - IN_PLAY_ERROR).max(0.0),
        (chance + IN_PLAY_ERROR).min(1.0),
    )
}

/// The fewest boxes the cases of a map's first and last points come from
/// (and half the fewest a map is fitted on). The ends are where the
/// boldest chances are stated, and a box's cells agree or disagree
/// together: an end of many cells from a few boxes measures those boxes,
/// not the group (docs/performance.md, how calibrated the chances are).
pub const MIN_END_BOXES: usize = 10;

/// A block of the regression: sum of shares, agreements, cases, and the
/// boxes the cases came from.
type Block = (f64, f64, f64, std::collections::BTreeSet<u64>);

fn pooled(mut x: Block, y: Block) -> Block {
    x.3.extend(y.3);
    (x.0 + y.0, x.1 + y.1, x.2 + y.2, x.3)
}

/// The isotonic regression of `cases` (a share, whether the truth agreed,
/// and the box it came from): points (mean share, observed frequency) of
/// the pooled blocks, shares first gathered into thousandths; the first
/// and the last block pooled with their neighbours until each holds cases
/// of at least [`MIN_END_BOXES`] boxes (pooling neighbours keeps the
/// order). Non-decreasing in both; empty (no map: shares stated as they
/// are, see [`interpolate`]) when the cases come from fewer than twice
/// that many boxes.
pub fn isotonic(cases: &[(f64, bool, u64)]) -> Vec<(f64, f64)> {
    let boxes: std::collections::BTreeSet<u64> = cases.iter().map(|c| c.2).collect();
    if boxes.len() < 2 * MIN_END_BOXES {
        return Vec::new();
    }
    let mut bins: Vec<Block> = vec![(0.0, 0.0, 0.0, std::collections::BTreeSet::new()); 1001];
    for &(x, agreed, source) in cases {
        let b = &mut bins[(x.clamp(0.0, 1.0) * 1000.0).round() as usize];
        b.0 += x;
        b.1 += f64::from(u8::from(agreed));
        b.2 += 1.0;
        b.3.insert(source);
    }
    // Pooled while a block's frequency is above the next one's.
    let mut blocks: Vec<Block> = Vec::new();
    for b in bins.into_iter().filter(|b| b.2 > 0.0) {
        blocks.push(b);
        while blocks.len() > 1 {
            let (x, y) = (&blocks[blocks.len() - 2], &blocks[blocks.len() - 1]);
            if x.1 / x.2 <= y.1 / y.2 {
                break;
            }
            let y = blocks.pop().unwrap_or_default();
            let x = blocks.pop().unwrap_or_default();
            blocks.push(pooled(x, y));
        }
    }
    while blocks.len() > 1 && blocks[blocks.len() - 1].3.len() < MIN_END_BOXES {
        let y = blocks.pop().unwrap_or_default();
        let x = blocks.pop().unwrap_or_default();
        blocks.push(pooled(x, y));
    }
    while blocks.len() > 1 && blocks[0].3.len() < MIN_END_BOXES {
        let x = blocks.remove(0);
        let y = blocks.remove(0);
        blocks.insert(0, pooled(x, y));
    }
    blocks.iter().map(|b| (b.0 / b.2, b.1 / b.2)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;
    use crate::layout::{Mirror, Placed};

    /// One case of `share` from each of the boxes `boxes`, agreeing or not.
    fn from_boxes(boxes: std::ops::Range<u64>, share: f64, agreed: bool) -> Vec<(f64, bool, u64)> {
        boxes.map(|b| (share, agreed, b)).collect()
    }

    #[test]
    fn isotonic_pools_what_decreases() {
        // Frequencies 1/2 at 0.1, 0 at 0.2 (pooled: 1/3 over both), 3/5 at
        // 0.5 (a block of few boxes between the ends stands), 1 at 0.9;
        // the ends from enough boxes to stand.
        let cases = [
            from_boxes(0..10, 0.1, true),
            from_boxes(10..20, 0.1, false),
            from_boxes(20..30, 0.2, false),
            from_boxes(30..33, 0.5, true),
            from_boxes(33..35, 0.5, false),
            from_boxes(35..45, 0.9, true),
        ]
        .concat();
        let fit = isotonic(&cases);
        assert_eq!(fit.len(), 3, "{fit:?}");
        assert!((fit[0].0 - 0.4 / 3.0).abs() < 1e-12);
        assert!((fit[0].1 - 1.0 / 3.0).abs() < 1e-12);
        assert!(
            (fit[1].0 - 0.5).abs() < 1e-12 && (fit[1].1 - 0.6).abs() < 1e-12,
            "{fit:?}"
        );
        assert!((fit[2].0 - 0.9).abs() < 1e-12 && fit[2].1 == 1.0, "{fit:?}");
        assert!(isotonic(&[]).is_empty());
    }

    /// Many cases from a few boxes at an end (12 right and 1 wrong from
    /// 3 boxes) are pooled with the block before, as are a few boxes at
    /// the other end; with cases from too few boxes in all there is no map.
    #[test]
    fn isotonic_pools_ends_from_a_few_boxes() {
        let few = [(0.99, true, 100); 12]
            .into_iter()
            .chain([(0.99, false, 101), (0.99, true, 102)]);
        let cases: Vec<_> = [
            from_boxes(0..2, 0.0, true),
            from_boxes(10..22, 0.5, false),
            from_boxes(30..38, 0.5, true),
        ]
        .concat()
        .into_iter()
        .chain(few)
        .collect();
        let fit = isotonic(&cases);
        assert_eq!(fit.len(), 1, "{fit:?}");
        assert!((fit[0].1 - 23.0 / 36.0).abs() < 1e-12, "{fit:?}");
        assert!(isotonic(&from_boxes(0..19, 0.3, true)).is_empty());
        assert_eq!(isotonic(&from_boxes(0..20, 0.5, true)).len(), 1);
    }

    /// The in-play maps of both kinds of guess are fitted, a chance within
    /// 0 to 1 and never falling as the stated chance rises; a group without
    /// a map of its own takes its kind's pooled one.
    #[test]
    fn the_in_play_maps_are_fitted_and_keep_order() {
        for (maps, pooled) in [
            (&likeliest::LIKELIEST, likeliest::LIKELIEST_POOLED),
            (&likeliest::EVERY_SAMPLE, likeliest::EVERY_SAMPLE_POOLED),
        ] {
            assert!(!pooled.is_empty());
            for map in maps.iter().chain([&pooled]) {
                for w in map.windows(2) {
                    assert!(w[0].0 < w[1].0 && w[0].1 <= w[1].1, "{w:?}");
                }
            }
        }
        let pooled = likeliest::LIKELIEST_POOLED;
        let own: Vec<usize> = (0..GROUPS)
            .filter(|&g| !likeliest::LIKELIEST[g].is_empty())
            .collect();
        assert!(!own.is_empty() && own.len() < GROUPS, "{own:?}");
        // Positions of each kind: 26 × 26 with 40 mirrors and 8 found
        // (a group the bot's games fitted), and 6 × 6 with 3 (pooled).
        let position = |n: usize, k: usize, found: u32| Evidence {
            size: n,
            mirrors: k,
            found: (0..found)
                .map(|i| Placed::new(Cell::new(0, i), Mirror::Slash))
                .collect(),
            ..Evidence::default()
        };
        let fitted = position(26, 40, 8);
        let small = position(6, 3, 0);
        assert!(own.contains(&group_of(&fitted)));
        assert!(!own.contains(&group_of(&small)));
        for ev in [&fitted, &small] {
            for guessed in [Guessed::Likeliest, Guessed::EverySample] {
                let mut last = 0.0;
                for i in 0..=100 {
                    let c = likeliest(ev, f64::from(i) / 100.0, guessed);
                    assert!(
                        (0.0..=1.0).contains(&c) && c >= last,
                        "{i}: {c} after {last}"
                    );
                    last = c;
                }
            }
        }
        let map = likeliest::LIKELIEST[group_of(&fitted)];
        let top = |ev| likeliest(ev, 1.0, Guessed::Likeliest);
        assert_eq!(top(&fitted), map[map.len() - 1].1);
        assert_eq!(top(&small), pooled[pooled.len() - 1].1);
    }

    #[test]
    fn interpolates_between_points_and_flat_beyond() {
        let points = [(0.2, 0.1), (0.6, 0.5)];
        assert_eq!(interpolate(&points, 0.0), 0.1);
        assert!((interpolate(&points, 0.4) - 0.3).abs() < 1e-12);
        assert_eq!(interpolate(&points, 1.0), 0.5);
        assert_eq!(interpolate(&[], 0.7), 0.7);
    }

    #[test]
    fn groups_by_size_density_and_whether_a_mirror_is_found() {
        // 1/16 ≈ 0.06: the second density band of the first size band.
        assert_eq!(group(4, 1, false), 1);
        assert_eq!(group(26, 338, true), GROUPS - 1);
        assert_eq!(group(12, 7, false), 0);
        assert_eq!(group(13, 7, false), DENSITY_BANDS.len() + 1);
        assert_eq!(group(13, 7, true), BANDED + DENSITY_BANDS.len() + 1);
        assert!((4..=26).all(|n| {
            (1..=n * n / 2).all(|k| group(n, k, false) < BANDED && group(n, k, true) < GROUPS)
        }));
        // A position counts the mirrors still to find.
        let mut ev = Evidence {
            size: 26,
            mirrors: 126,
            ..Evidence::default()
        };
        assert_eq!(group_of(&ev), group(26, 126, false));
        ev.found = (0..60)
            .map(|i| crate::Placed::new(crate::Cell::new(i / 26, i % 26), crate::Mirror::Slash))
            .collect();
        assert_eq!(group_of(&ev), group(26, 66, true));
    }

    #[test]
    fn stated_chances_are_shares_and_respect_what_is_ruled_out() {
        for n in [4, 10, 26] {
            for k in [1, n, n * n / 2] {
                for shares in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.25, 0.25]] {
                    for allowed in [[true; 3], [true, false, true], [true, true, false]] {
                        let ev = Evidence {
                            size: n,
                            mirrors: k,
                            ..Evidence::default()
                        };
                        let c = cell(&ev, shares, allowed);
                        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
                        assert!(c.iter().all(|x| (0.0..=1.0).contains(x)), "{c:?}");
                        for i in 0..3 {
                            assert!(allowed[i] || c[i] == 0.0, "{c:?}");
                        }
                    }
                }
            }
        }
    }
}
