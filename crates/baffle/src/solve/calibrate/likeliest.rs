//! The in-play maps (see [`super::likeliest`]), as fitted by the bot's
//! games on 26 × 26 with 26, 40 mirrors, seeds 101 to 140, 3050 guesses on
//! estimated odds: `BAFFLE_BOT_GAMES=0 BAFFLE_OPTIMAL_MAX=0 \
//! BAFFLE_BOT_BIG=40 BAFFLE_BOT_FIRST_SEED=101 BAFFLE_BOT_MIRRORS=26,40 \
//! BAFFLE_BOT_FIT=crates/baffle/src/solve/calibrate/likeliest.rs \
//! cargo bench -p baffle --bench bot_quality` (then `cargo fmt`). A
//! group's map is empty when its guesses came from too few games or
//! were all pooled into one point (the pooled map then serves).

use super::GROUPS;

/// Each group's points (stated chance, observed frequency), both increasing.
pub const MAPS: [&[(f64, f64)]; GROUPS] = [
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[
        (0.4029, 0.1562),
        (0.5357, 0.3854),
        (0.5982, 0.4444),
        (0.6220, 0.5821),
        (0.6701, 0.6406),
        (0.7638, 0.7188),
        (0.9432, 0.8235),
        (0.9616, 0.8465),
    ],
    &[],
    &[],
    &[],
    &[],
    &[],
];

/// Every group's guesses pooled, for a group without a map.
pub const POOLED: &[(f64, f64)] = &[
    (0.4029, 0.1562),
    (0.5357, 0.3854),
    (0.5982, 0.4444),
    (0.5998, 0.6667),
    (0.6442, 0.7306),
    (0.9432, 0.8235),
    (0.9616, 0.8465),
    (0.9708, 0.8889),
];
