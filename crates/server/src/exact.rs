//! The exact figures a class's games are set against.
//!
//! Terms:
//! - **one token's rolls**: `p[n]`, the chance that one token alone
//!   finishes on its `n`th roll (lost turns counted), as the analysis's
//!   Markov chain gives it; `S(n)`, the chance it has not finished within
//!   `n` rolls.
//! - **game length**: rolls by all players together, as the analysis and
//!   its simulation count them (with one player, that player's rolls).
//! - **k players**: the tokens move independently, in turn. Seat `i`
//!   wins on round `r` when its token finishes on its `r`th roll, the
//!   seats before it have not finished within `r` rolls and those after it
//!   not within `r - 1`: chance `p[r] · S(r)^(i-1) · S(r-1)^(k-i)`, a game
//!   of `(r - 1)·k + i` rolls. Summed over `r`, each seat's chance to win;
//!   over the seats, the length distribution.

use serde::Serialize;

/// The exact figures for games of one setup and one number of players.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exact {
    /// Players in each game.
    pub players: usize,
    /// `lengths[t]`: the chance a game takes exactly `t` rolls, up to where
    /// [`SHOWN`] of games are over (the rest is [`Exact::beyond`]).
    pub lengths: Vec<f64>,
    /// The chance a game takes longer than `lengths` shows, or never ends.
    pub beyond: f64,
    /// The mean game length, among games that end.
    pub mean: f64,
    /// Each seat's chance to win, seat 1 first.
    pub seats: Vec<f64>,
}

/// The share of games the lengths cover.
pub const SHOWN: f64 = 0.9999;

/// The most lengths kept.
pub const MOST_LENGTHS: usize = 2_000;

/// The exact figures for `players` players from one token's rolls
/// `single` (`single[n]`: finishing on roll `n`); `None` for no player or
/// a token that never finishes.
pub fn for_players(single: &[f64], players: usize) -> Option<Exact> {
    if players == 0 || single.iter().sum::<f64>() <= 0.0 {
        return None;
    }
    let k = players;
    // survival[n]: not finished within n rolls.
    let mut survival = Vec::with_capacity(single.len());
    let mut done = 0.0;
    for &p in single {
        done += p;
        survival.push((1.0 - done).max(0.0));
    }
    let mut lengths = vec![0.0; (single.len().max(1) - 1) * k + k + 1];
    let mut seats = vec![0.0; k];
    for r in 1..single.len() {
        let p = single[r];
        if p <= 0.0 {
            continue;
        }
        let after = survival[r];
        let before = survival[r - 1];
        for i in 1..=k {
            let chance = p * after.powi(i as i32 - 1) * before.powi((k - i) as i32);
            seats[i - 1] += chance;
            lengths[(r - 1) * k + i] += chance;
        }
    }
    let total: f64 = lengths.iter().sum();
    let mean = lengths
        .iter()
        .enumerate()
        .map(|(t, p)| t as f64 * p)
        .sum::<f64>()
        / total;
    // Cut where SHOWN of games are over.
    let mut cumulative = 0.0;
    let mut last = lengths.len() - 1;
    for (t, p) in lengths.iter().enumerate() {
        cumulative += p;
        if cumulative >= SHOWN * total || t + 1 >= MOST_LENGTHS {
            last = t;
            break;
        }
    }
    lengths.truncate(last + 1);
    let kept: f64 = lengths.iter().sum();
    Some(Exact {
        players: k,
        lengths,
        beyond: (1.0 - kept).max(0.0),
        mean,
        seats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chutes::analysis::report::{AnalysisOptions, AnalysisReport};

    fn classic(players: usize) -> AnalysisReport {
        let board = chutes::formats::builtin("classic").expect("a known answer");
        let options = AnalysisOptions {
            players,
            ..AnalysisOptions::default()
        };
        AnalysisReport::new(&board, &chutes::Rules::default(), &options).expect("a known answer")
    }

    #[test]
    fn one_player_is_the_analysis_itself() {
        let report = classic(2);
        let exact = for_players(&report.probabilities, 1).expect("a known answer");
        assert_eq!(exact.seats.len(), 1);
        assert!((exact.mean - report.mean.expect("a known answer")).abs() < 1e-6);
        for (t, p) in exact.lengths.iter().enumerate() {
            assert!((p - report.probabilities[t]).abs() < 1e-12, "{t}");
        }
    }

    #[test]
    fn seat_chances_and_the_mean_length_are_the_analysis_s_own() {
        // The analysis works the seats out on its own (markov's odds):
        // both sums must meet it.
        for players in 2..=4 {
            let report = classic(players);
            let exact = for_players(&report.probabilities, players).expect("a known answer");
            for (seat, (mine, theirs)) in exact.seats.iter().zip(&report.seats.seat_win).enumerate()
            {
                assert!(
                    (mine - theirs).abs() < 1e-6,
                    "{players} players, seat {}: {mine} vs {theirs}",
                    seat + 1
                );
            }
            let theirs = report.seats.mean_rolls_all_players.expect("a known answer");
            assert!(
                (exact.mean - theirs).abs() < 1e-4,
                "{players} players: {} vs {theirs}",
                exact.mean
            );
            assert!(exact.beyond <= 1.0 - SHOWN + 1e-9);
        }
    }

    #[test]
    fn a_die_of_one_face_on_a_short_track_is_certain() {
        // One face, finish two rolls away: every token finishes on roll 2,
        // so seat 1 always wins, on the game's third roll with two players.
        let single = [0.0, 0.0, 1.0];
        let exact = for_players(&single, 2).expect("a known answer");
        assert_eq!(exact.seats, vec![1.0, 0.0]);
        assert_eq!(exact.lengths, vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(exact.mean, 3.0);
        assert!(for_players(&[0.0, 0.0], 2).is_none());
        assert!(for_players(&single, 0).is_none());
    }
}
