//! What a class's finished games show, beside the exact figures.
//!
//! Terms:
//! - **game** ([`Game`]): a finished game of the round — its length
//!   (rolls by all players), its winning seat, who played it.
//! - **bar** ([`Bar`]): the games whose length falls in one range of
//!   lengths, and how many of them the exact distribution expects among
//!   as many games; at most [`MOST_BARS`] bars, one length wide when they
//!   fit.
//! - **mean and its 95% interval**: the class's mean length ± 1.96 ·
//!   sd / √games (the sample's sd), from two games on.
//! - **running mean** ([`Running`]): the mean and interval after each
//!   game, in the order the games ended.
//! - **sentence**: what the class is seeing, in words.

use super::exact::Exact;
use serde::Serialize;

/// The most bars of the histogram.
pub const MOST_BARS: usize = 40;

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Rolls by all players; none when nobody could win (a stuck board).
    pub rolls: Option<u32>,
    /// The winning seat.
    pub winner: Option<u8>,
    /// Who played, in words.
    pub players: String,
    /// The winner's name.
    pub winner_name: Option<String>,
}

/// One bar of the histogram.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bar {
    /// The shortest length it counts.
    pub from: u32,
    /// The longest.
    pub to: u32,
    /// The class's games of these lengths.
    pub count: u64,
    /// How many the exact distribution expects among the class's games.
    pub expected: f64,
}

/// The mean after so many games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Running {
    /// Games counted.
    pub games: u64,
    /// Their mean length.
    pub mean: f64,
    /// The 95% interval's ends (from two games on).
    pub low: Option<f64>,
    /// See above.
    pub high: Option<f64>,
}

/// One seat's wins.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatWins {
    /// The seat, from 1.
    pub seat: u8,
    /// Games it won.
    pub wins: u64,
    /// Its share of the games won.
    pub share: f64,
    /// Its exact chance to win.
    pub exact: f64,
}

/// A game named on the page: the longest or the shortest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Named {
    /// Its length.
    pub rolls: u32,
    /// Who played.
    pub players: String,
    /// Who won.
    pub winner: Option<String>,
}

/// What the class's games show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Games finished in the round.
    pub games: u64,
    /// Those with a length (someone won).
    pub counted: u64,
    /// The histogram.
    pub bars: Vec<Bar>,
    /// The class's mean length.
    pub mean: Option<f64>,
    /// Its 95% interval.
    pub low: Option<f64>,
    /// See above.
    pub high: Option<f64>,
    /// The exact mean.
    pub exact_mean: f64,
    /// The mean after each game.
    pub running: Vec<Running>,
    /// Each seat's wins, for games of two or more players.
    pub seats: Vec<SeatWins>,
    /// The longest game.
    pub longest: Option<Named>,
    /// The shortest.
    pub shortest: Option<Named>,
    /// What the class is seeing.
    pub sentence: String,
}

/// The mean and 95% interval of `values` (the interval from two on).
pub fn mean_interval(values: &[f64]) -> Option<(f64, Option<(f64, f64)>)> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return Some((mean, None));
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * var.sqrt() / n.sqrt();
    Some((mean, Some((mean - half, mean + half))))
}

/// The figures of `games` (in the order they ended) against `exact`.
pub fn figures(games: &[Game], exact: &Exact) -> Figures {
    let lengths: Vec<u32> = games.iter().filter_map(|g| g.rolls).collect();
    let counted = lengths.len() as u64;
    let values: Vec<f64> = lengths.iter().map(|&n| f64::from(n)).collect();
    let mut running = Vec::with_capacity(values.len());
    let (mut sum, mut squares) = (0.0, 0.0);
    for (i, v) in values.iter().enumerate() {
        sum += v;
        squares += v * v;
        let n = (i + 1) as f64;
        let mean = sum / n;
        let (low, high) = if i >= 1 {
            let var = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
            let half = 1.96 * var.sqrt() / n.sqrt();
            (Some(mean - half), Some(mean + half))
        } else {
            (None, None)
        };
        running.push(Running {
            games: i as u64 + 1,
            mean,
            low,
            high,
        });
    }
    let summary = mean_interval(&values);
    let mean = summary.map(|(m, _)| m);
    let interval = summary.and_then(|(_, i)| i);
    let seats = seat_wins(games, exact);
    let named = |pick: Option<&Game>| {
        pick.map(|g| Named {
            rolls: g.rolls.unwrap_or(0),
            players: g.players.clone(),
            winner: g.winner_name.clone(),
        })
    };
    // The first game of the longest (shortest) length.
    let with_length = games.iter().filter(|g| g.rolls.is_some());
    let longest = named(with_length.clone().rev().max_by_key(|g| g.rolls));
    let shortest = named(with_length.rev().min_by_key(|g| g.rolls));
    let mut figures = Figures {
        games: games.len() as u64,
        counted,
        bars: bars(&lengths, exact),
        mean,
        low: interval.map(|i| i.0),
        high: interval.map(|i| i.1),
        exact_mean: exact.mean,
        running,
        seats,
        longest,
        shortest,
        sentence: String::new(),
    };
    figures.sentence = sentence(&figures, exact);
    figures
}

/// Each seat's wins among `games`, for two or more players.
fn seat_wins(games: &[Game], exact: &Exact) -> Vec<SeatWins> {
    if exact.players < 2 {
        return Vec::new();
    }
    let mut wins = vec![0u64; exact.players];
    for g in games {
        if let Some(seat) = g.winner
            && let Some(w) = wins.get_mut(usize::from(seat).wrapping_sub(1))
        {
            *w += 1;
        }
    }
    let total: u64 = wins.iter().sum();
    wins.iter()
        .zip(&exact.seats)
        .enumerate()
        .map(|(i, (&w, &chance))| SeatWins {
            seat: i as u8 + 1,
            wins: w,
            share: if total == 0 {
                0.0
            } else {
                w as f64 / total as f64
            },
            exact: chance,
        })
        .collect()
}

/// The histogram's bars: from the shortest length the exact distribution
/// (or a game) reaches to the longest it shows (or a game took).
fn bars(lengths: &[u32], exact: &Exact) -> Vec<Bar> {
    let first_exact = exact.lengths.iter().position(|&p| p > 0.0).unwrap_or(1) as u32;
    let last_exact = exact.lengths.len().saturating_sub(1) as u32;
    // The exact lengths past 99.5% of games are left out of the picture
    // unless a game took that long.
    let mut cumulative = 0.0;
    let mut shown_last = last_exact;
    for (t, p) in exact.lengths.iter().enumerate() {
        cumulative += p;
        if cumulative >= 0.995 {
            shown_last = t as u32;
            break;
        }
    }
    let lo = lengths
        .iter()
        .copied()
        .min()
        .map_or(first_exact, |m| m.min(first_exact));
    let hi = lengths
        .iter()
        .copied()
        .max()
        .map_or(shown_last, |m| m.max(shown_last));
    let span = (hi - lo + 1) as usize;
    let width = span.div_ceil(MOST_BARS) as u32;
    let n = lengths.len() as f64;
    let mut out = Vec::new();
    let mut from = lo;
    while from <= hi {
        let to = (from + width - 1).min(hi);
        let count = lengths
            .iter()
            .filter(|&&l| (from..=to).contains(&l))
            .count() as u64;
        let p: f64 = (from..=to)
            .map(|t| exact.lengths.get(t as usize).copied().unwrap_or(0.0))
            .sum();
        out.push(Bar {
            from,
            to,
            count,
            expected: p * n,
        });
        from = to + 1;
    }
    out
}

/// One decimal, as the page shows figures.
fn one(v: f64) -> String {
    format!("{v:.1}")
}

/// What the class is seeing, in words.
fn sentence(f: &Figures, exact: &Exact) -> String {
    let games = tabletop::count(f.counted, "game", "games");
    let mean_words = format!("the exact mean is {} rolls", one(exact.mean));
    let mut text = match (f.mean, f.low, f.high) {
        (None, ..) => format!(
            "No game has finished yet: each game that ends adds one to its bar. The dots show how many games of each length to expect; {mean_words}."
        ),
        (Some(m), Some(lo), Some(hi)) if f.counted >= 10 => {
            let inside = (lo..=hi).contains(&exact.mean);
            format!(
                "{games}: the class's games last {} rolls on average, and the true mean lies between {} and {} with 95% confidence; {mean_words}, {}. With more games the bars fill out the dots and the interval closes in.",
                one(m),
                one(lo),
                one(hi),
                if inside {
                    "inside it, as it will be 19 times in 20"
                } else {
                    "outside it, as happens 1 time in 20"
                }
            )
        }
        (Some(m), ..) => format!(
            "{games} so far, {} rolls on average: too few to say much yet — the bars jump about. Watch them settle on the dots as more games end; {mean_words}.",
            one(m)
        ),
    };
    if let Some(first) = f.seats.first()
        && f.seats.iter().map(|s| s.wins).sum::<u64>() > 0
    {
        text.push_str(&format!(
            " Seat 1 won {:.0}% of the games; its exact chance is {:.1}%: going first is worth a little, too little for a class's games to show for sure.",
            first.share * 100.0,
            first.exact * 100.0
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rolls: u32, winner: u8) -> Game {
        Game {
            rolls: Some(rolls),
            winner: Some(winner),
            players: format!("P{rolls}"),
            winner_name: Some(format!("W{rolls}")),
        }
    }

    fn exact(players: usize) -> Exact {
        // Lengths 1 to 4, equally likely.
        Exact {
            players,
            lengths: vec![0.0, 0.25, 0.25, 0.25, 0.25],
            beyond: 0.0,
            mean: 2.5,
            seats: vec![1.0 / players as f64; players],
        }
    }

    #[test]
    fn the_bars_count_every_game_and_expect_as_many() {
        let games: Vec<Game> = [1, 2, 2, 4, 9].iter().map(|&r| game(r, 1)).collect();
        let f = figures(&games, &exact(1));
        let counted: u64 = f.bars.iter().map(|b| b.count).sum();
        assert_eq!(counted, 5);
        let expected: f64 = f.bars.iter().map(|b| b.expected).sum();
        assert!((expected - 5.0).abs() < 1e-9);
        assert_eq!(f.bars.first().map(|b| b.from), Some(1));
        assert_eq!(f.bars.last().map(|b| b.to), Some(9));
        // mean 3.6; squared deviations 41.2, over 4: variance 10.3.
        assert!((f.mean.expect("a known answer") - 3.6).abs() < 1e-12);
        let half = 1.96 * 10.3f64.sqrt() / 5f64.sqrt();
        assert!((f.high.expect("a known answer") - (3.6 + half)).abs() < 1e-9);
        assert_eq!(f.running.len(), 5);
        assert!((f.running[4].mean - 3.6).abs() < 1e-12);
        assert!(
            (f.running[4].low.expect("a known answer") - f.low.expect("a known answer")).abs()
                < 1e-9
        );
        assert_eq!(f.longest.as_ref().expect("a known answer").rolls, 9);
        assert_eq!(f.shortest.as_ref().expect("a known answer").players, "P1");
        assert!(f.seats.is_empty());
    }

    #[test]
    fn many_lengths_share_bars() {
        let games: Vec<Game> = (1..=200).map(|r| game(r, 1)).collect();
        let f = figures(&games, &exact(1));
        assert!(f.bars.len() <= MOST_BARS);
        assert_eq!(f.bars.iter().map(|b| b.count).sum::<u64>(), 200);
        for pair in f.bars.windows(2) {
            assert_eq!(pair[0].to + 1, pair[1].from);
        }
    }

    #[test]
    fn seats_share_the_wins_and_the_sentence_says_so() {
        let games = vec![game(3, 1), game(4, 1), game(5, 2), game(6, 1)];
        let f = figures(&games, &exact(2));
        assert_eq!(f.seats.len(), 2);
        assert_eq!(f.seats[0].wins, 3);
        assert!((f.seats[0].share - 0.75).abs() < 1e-12);
        assert!(f.sentence.contains("Seat 1 won 75%"), "{}", f.sentence);
        assert!(f.sentence.contains("too few"), "{}", f.sentence);
    }

    #[test]
    fn no_game_yet_says_so() {
        let f = figures(&[], &exact(1));
        assert_eq!(f.mean, None);
        assert_eq!(f.bars.iter().map(|b| b.count).sum::<u64>(), 0);
        assert!(f.sentence.starts_with("No game has finished yet"));
        assert!(f.longest.is_none());
    }

    #[test]
    fn ten_games_or_more_name_the_interval() {
        let games: Vec<Game> = (0..12).map(|i| game(1 + i % 4, 1)).collect();
        let f = figures(&games, &exact(1));
        assert!(f.sentence.contains("95% confidence"), "{}", f.sentence);
        assert!(f.sentence.contains("inside it"), "{}", f.sentence);
    }
}
