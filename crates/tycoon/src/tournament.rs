//! Tournaments: the bot levels against each other, on all cores.
//!
//! Terms:
//! - **matchup** ([`Matchup`]): one bot of level `one` against three of
//!   level `rest`.
//! - **seat order**: the `one` bot sits in each of the four seats in turn.
//!   Game `i` rolls the same dice in every seat order and every matchup
//!   (and, on random grids, is played on the same grid), so the matchups
//!   are compared on the same luck.
//! - **grid set** ([`Grids`]): the sample grid, or random legal grids
//!   (game `i` on random grid `i`, [`crate::generate::random_grid`]).
//! - **rate** ([`Rate`]): the `one` bot's wins over its games, with a 95%
//!   Wilson score interval. A fair share is 25%.
//! - Game `i` draws its dice, bots and grid from stream `i` of the seed, so
//!   the report does not depend on the number of threads.

use crate::SAMPLE_GRID;
use crate::game::{Game, SEATS, Seat};
use crate::generate::random_grid;
use crate::grid::Grid;
use crate::simulate::{Watch, play_out};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::{BotLevel, Rng};

/// One bot of level `one` against three of level `rest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Matchup {
    /// The level of the lone bot.
    pub one: BotLevel,
    /// The level of the three others.
    pub rest: BotLevel,
}

impl Matchup {
    /// Every matchup of two different levels: each level alone against
    /// three of each other level.
    pub fn all() -> Vec<Self> {
        let mut all = Vec::new();
        for one in BotLevel::ALL {
            for rest in BotLevel::ALL {
                if one != rest {
                    all.push(Self { one, rest });
                }
            }
        }
        all
    }

    /// The seats with the lone bot in `seat` (from 1).
    pub fn seats(self, seat: u8) -> [Seat; SEATS] {
        std::array::from_fn(|i| {
            Seat::bot(if i + 1 == usize::from(seat) {
                self.one
            } else {
                self.rest
            })
        })
    }
}

impl std::fmt::Display for Matchup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.one, self.rest)
    }
}

/// Text that names no matchup.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{text}' is not a matchup: {reason} (expected ONE:REST, e.g. hard:normal for one hard bot against three normal ones)"
)]
pub struct MatchupParseError {
    /// The text.
    pub text: String,
    /// Why.
    pub reason: String,
}

impl std::str::FromStr for Matchup {
    type Err = MatchupParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason: String| MatchupParseError {
            text: s.trim().to_string(),
            reason,
        };
        let (one, rest) = s
            .split_once(':')
            .ok_or_else(|| fail("no ':' between the two levels".into()))?;
        let one: BotLevel = one
            .parse()
            .map_err(|e: tabletop::BotLevelParseError| fail(e.to_string()))?;
        let rest: BotLevel = rest
            .parse()
            .map_err(|e: tabletop::BotLevelParseError| fail(e.to_string()))?;
        if one == rest {
            return Err(fail(format!(
                "both levels are {one}: the seats would not differ"
            )));
        }
        Ok(Self { one, rest })
    }
}

/// Which grids the games are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grids {
    /// The original assignment's sample grid.
    Sample,
    /// A random legal grid for each game.
    Random,
}

impl Grids {
    /// Both grid sets.
    pub const ALL: [Self; 2] = [Self::Sample, Self::Random];

    fn tag(self) -> u64 {
        match self {
            Self::Sample => 0,
            Self::Random => 0x5241_4E44_4F4D,
        }
    }
}

impl std::fmt::Display for Grids {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Sample => "sample",
            Self::Random => "random",
        })
    }
}

impl std::str::FromStr for Grids {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sample" => Ok(Self::Sample),
            "random" => Ok(Self::Random),
            other => Err(format!(
                "unknown grid set '{other}' (expected sample or random)"
            )),
        }
    }
}

/// What a tournament plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Games per seat order, per matchup, per grid set.
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// The matchups.
    pub matchups: Vec<Matchup>,
    /// The grid sets.
    pub grids: Vec<Grids>,
    /// Turns after which a game stops with no winner.
    pub turn_cap: u32,
}

/// Wins out of games, with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Count")]
pub struct Rate {
    /// Games won.
    pub wins: u64,
    /// Games played.
    pub games: u64,
    /// `wins / games` (0 with no games).
    pub rate: f64,
    /// The 95% Wilson interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

/// A [`Rate`]'s counts, from which the figures are worked out again when a
/// report is read (so a report reads back exactly).
#[derive(Deserialize)]
struct Count {
    wins: u64,
    games: u64,
}

impl From<Count> for Rate {
    fn from(c: Count) -> Self {
        Self::new(c.wins, c.games)
    }
}

impl Rate {
    /// `wins` of `games` (more wins than games count as all games).
    pub fn new(wins: u64, games: u64) -> Self {
        let wins = wins.min(games);
        if games == 0 {
            return Self {
                wins,
                games,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let interval = tabletop::play::wilson(wins, games);
        Self {
            wins,
            games,
            rate: wins as f64 / games as f64,
            low: interval.low,
            high: interval.high,
        }
    }
}

/// One matchup on one grid set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Who played.
    #[serde(flatten)]
    pub matchup: Matchup,
    /// Where.
    pub grids: Grids,
    /// The lone bot's wins with it in seat 1, 2, 3 and 4.
    pub seats: [Rate; SEATS],
    /// Its wins over every seat.
    pub overall: Rate,
    /// Games stopped at the turn cap with no winner.
    pub stalled: u64,
}

/// A tournament's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// What was played.
    pub options: Options,
    /// One outcome per matchup and grid set, in that order.
    pub outcomes: Vec<Outcome>,
    /// Was the tournament stopped before every game was played? Its rates
    /// are then of the games played ([`Rate::games`]).
    #[serde(default)]
    pub stopped: bool,
}

impl Options {
    /// Every game the tournament plays.
    pub fn total_games(&self) -> u64 {
        self.games
            .saturating_mul(SEATS as u64)
            .saturating_mul(self.matchups.len() as u64)
            .saturating_mul(self.grids.len() as u64)
    }
}

/// Game `index`'s seeds in grid set `grids`: dice, bots, grid.
fn game_seeds(seed: u64, grids: Grids, index: u64) -> [u64; 3] {
    let mut rng = Rng::stream(seed ^ grids.tag(), index);
    [rng.next_u64(), rng.next_u64(), rng.next_u64()]
}

/// Plays the tournament on the current rayon pool.
pub fn play(options: &Options) -> Report {
    play_watched(options, &Watch::default())
}

/// [`play`], counting games in `watch` and stopping when it says so. Games
/// are started in order of their index, every matchup and seat at each
/// index, so a stopped tournament has played about as many games in each.
pub fn play_watched(options: &Options, watch: &Watch) -> Report {
    use std::sync::atomic::Ordering;
    let sample = Arc::new(crate::parse_grid(SAMPLE_GRID).unwrap_or_default());
    let mut outcomes = Vec::new();
    for &grids in &options.grids {
        let boards: Vec<Arc<Grid>> = match grids {
            Grids::Sample => vec![sample.clone()],
            Grids::Random => (0..options.games)
                .into_par_iter()
                .map(|i| {
                    let [_, _, grid_seed] = game_seeds(options.seed, grids, i);
                    Arc::new(random_grid(&mut Rng::new(grid_seed)))
                })
                .collect(),
        };
        let matchups = options.matchups.len();
        let jobs: Vec<(usize, u8, u64)> = (0..options.games)
            .flat_map(|i| {
                (0..matchups).flat_map(move |m| (1..=SEATS as u8).map(move |s| (m, s, i)))
            })
            .collect();
        // (matchup, seat, won, stalled) for every game played.
        let results: Vec<(usize, u8, bool, bool)> = jobs
            .into_par_iter()
            .filter_map(|(m, seat, i)| {
                if watch.stop.load(Ordering::Relaxed) {
                    return None;
                }
                let [dice_seed, bot_seed, _] = game_seeds(options.seed, grids, i);
                let grid = &boards[(i as usize) % boards.len()];
                let seats = options.matchups[m].seats(seat);
                let mut game = Game::new(grid.clone(), seats).with_turn_cap(options.turn_cap);
                let mut dice = tabletop::SeededDice::new(dice_seed);
                play_out(&mut game, &mut dice, bot_seed, |_, _| {});
                watch.played.fetch_add(1, Ordering::Relaxed);
                Some((
                    m,
                    seat,
                    game.winner() == Some(seat),
                    game.winner().is_none(),
                ))
            })
            .collect();
        for (m, &matchup) in options.matchups.iter().enumerate() {
            let mut wins = [0u64; SEATS];
            let mut games = [0u64; SEATS];
            let mut stalled = 0;
            for &(_, seat, won, stall) in results.iter().filter(|r| r.0 == m) {
                wins[usize::from(seat) - 1] += u64::from(won);
                games[usize::from(seat) - 1] += 1;
                stalled += u64::from(stall);
            }
            outcomes.push(Outcome {
                matchup,
                grids,
                seats: std::array::from_fn(|k| Rate::new(wins[k], games[k])),
                overall: Rate::new(wins.iter().sum(), games.iter().sum()),
                stalled,
            });
        }
    }
    Report {
        options: options.clone(),
        outcomes,
        stopped: watch.stop.load(Ordering::Relaxed),
    }
}

/// The most worker threads [`play_on`] starts; more are clamped to it.
pub const MAX_THREADS: usize = 256;

/// Runs [`play`] on `threads` threads (all cores when `None`; 0 means 1):
/// the report does not depend on the threads.
///
/// # Errors
/// Fails when the thread pool cannot be built.
pub fn play_on(
    options: &Options,
    threads: Option<usize>,
) -> Result<Report, rayon::ThreadPoolBuildError> {
    play_watched_on(options, threads, &Watch::default())
}

/// [`play_watched`] on `threads` threads, as [`play_on`].
///
/// # Errors
/// Fails when the thread pool cannot be built.
pub fn play_watched_on(
    options: &Options,
    threads: Option<usize>,
    watch: &Watch,
) -> Result<Report, rayon::ThreadPoolBuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t.clamp(1, MAX_THREADS));
    }
    let pool = builder.build()?;
    Ok(pool.install(|| play_watched(options, watch)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_tournament_reports_the_games_it_played() {
        let options = Options {
            games: 3,
            seed: 1,
            matchups: vec!["normal:easy".parse().expect("matchup")],
            grids: vec![Grids::Sample],
            turn_cap: crate::game::DEFAULT_TURN_CAP,
        };
        assert_eq!(options.total_games(), 12);
        let whole = play_watched(&options, &Watch::default());
        assert!(!whole.stopped);
        assert_eq!(whole.outcomes[0].overall.games, 12);
        let watch = Watch::default();
        watch.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let none = play_watched(&options, &watch);
        assert!(none.stopped);
        assert_eq!(none.outcomes[0].overall.games, 0);
        assert_eq!(watch.played.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    #[test]
    fn wilson_intervals_by_hand() {
        // 30 of 100: the textbook Wilson interval is 0.2189 to 0.3958.
        let r = Rate::new(30, 100);
        assert!(
            (r.low - 0.2189).abs() < 1e-4 && (r.high - 0.3958).abs() < 1e-4,
            "{r:?}"
        );
        let none = Rate::new(0, 10);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.2775).abs() < 1e-4, "{none:?}");
        assert_eq!(Rate::new(0, 0).rate, 0.0);
        assert_eq!(Rate::new(5, 3).wins, 3);
    }

    #[test]
    fn matchups_read_and_write_back() {
        for m in Matchup::all() {
            assert_eq!(m.to_string().parse::<Matchup>().unwrap(), m);
        }
        assert_eq!(
            " Hard:NORMAL ".trim().parse::<Matchup>().unwrap(),
            Matchup {
                one: BotLevel::Hard,
                rest: BotLevel::Normal
            }
        );
        for (bad, says) in [
            ("hard", "no ':'"),
            ("hard:hard", "both levels"),
            ("expert:easy", "'expert'"),
        ] {
            let err = bad.parse::<Matchup>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn every_matchup_puts_the_lone_bot_in_its_seat() {
        let all = Matchup::all();
        assert_eq!(all.len(), 6);
        let m = Matchup {
            one: BotLevel::Hard,
            rest: BotLevel::Easy,
        };
        assert_eq!(
            m.seats(3),
            [Seat::Random, Seat::Random, Seat::Hard, Seat::Random]
        );
    }
}
