//! Many bot games on all cores, and what they show about a grid.
//!
//! Terms:
//! - **game seed**: game `i` of a run with seed `S` rolls from
//!   `Rng::stream(S, i)`, so the totals do not depend on the number of
//!   threads.
//! - **tally** ([`Tally`]): wins per seat, games stopped at the turn cap,
//!   turns, and how often each card fired, each attack was launched, each
//!   ladder and snake was taken.

use crate::bots::bot_move;
use crate::game::{Attack, Decision, Event, Game, Move, SEATS, Seat};
use crate::grid::Grid;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::{DiceSource, Rng, SeededDice};

/// What a run of games is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Games to play.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Who plays each seat (a person's seat is played by the default bot).
    pub seats: [Seat; SEATS],
    /// Turns after which a game stops with no winner.
    pub turn_cap: u32,
}

/// Totals over a run of games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Wins per seat.
    pub wins: [u64; SEATS],
    /// Games that reached the turn cap with no winner.
    pub stalled: u64,
    /// Turns in all games.
    pub turns: u64,
    /// The shortest game, in turns.
    pub min_turns: u64,
    /// The longest game, in turns.
    pub max_turns: u64,
    /// Times each card fired (index 0 is card 1).
    pub cards: [u64; 12],
    /// Attacks launched: ice, fire, poison, lightning.
    pub attacks: [u64; 4],
    /// Ladders climbed.
    pub ladders: u64,
    /// Snakes slid down.
    pub snakes: u64,
    /// Stations bought.
    pub stations_bought: u64,
}

impl Tally {
    /// Adds a finished game's length and result (its events were counted
    /// as they happened).
    fn finish_game(&mut self, game: &Game) {
        self.games += 1;
        let turns = u64::from(game.turns());
        self.turns += turns;
        self.min_turns = if self.games == 1 {
            turns
        } else {
            self.min_turns.min(turns)
        };
        self.max_turns = self.max_turns.max(turns);
        match game.winner() {
            Some(w) => self.wins[usize::from(w) - 1] += 1,
            None => self.stalled += 1,
        }
    }

    fn count(&mut self, e: &Event) {
        match *e {
            Event::Card { card, .. } => self.cards[usize::from(card.clamp(1, 12)) - 1] += 1,
            Event::Attacked { attack, .. } => {
                let i = Attack::ALL.iter().position(|a| *a == attack).unwrap_or(0);
                self.attacks[i] += 1;
            }
            Event::Ladder { .. } => self.ladders += 1,
            Event::Snake { .. } => self.snakes += 1,
            Event::Bought { .. } => self.stations_bought += 1,
            _ => {}
        }
    }

    fn merge(mut self, other: Self) -> Self {
        if other.games > 0 {
            self.min_turns = if self.games == 0 {
                other.min_turns
            } else {
                self.min_turns.min(other.min_turns)
            };
        }
        self.games += other.games;
        for i in 0..SEATS {
            self.wins[i] += other.wins[i];
        }
        self.stalled += other.stalled;
        self.turns += other.turns;
        self.max_turns = self.max_turns.max(other.max_turns);
        for i in 0..12 {
            self.cards[i] += other.cards[i];
        }
        for i in 0..4 {
            self.attacks[i] += other.attacks[i];
        }
        self.ladders += other.ladders;
        self.snakes += other.snakes;
        self.stations_bought += other.stations_bought;
        self
    }

    /// The share of games seat `seat` (from 1) won.
    pub fn win_rate(&self, seat: u8) -> f64 {
        let wins = self
            .wins
            .get(usize::from(seat).wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        ratio(wins, self.games)
    }

    /// Mean turns per game (all players' turns).
    pub fn mean_turns(&self) -> f64 {
        ratio(self.turns, self.games)
    }

    /// Mean times card `card` (1–12) fired per game.
    pub fn card_rate(&self, card: u8) -> f64 {
        let n = self
            .cards
            .get(usize::from(card).wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        ratio(n, self.games)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The seeds for game `index` of a run: the dice's and the bots'.
pub fn game_seeds(seed: u64, index: u64) -> (u64, u64) {
    let mut rng = Rng::stream(seed, index);
    (rng.next_u64(), rng.next_u64())
}

/// Plays one game to its end with bots in every seat (a person's seat is
/// played by the default bot), rolling `dice`, calling `on_events` with each
/// move's events.
pub fn play_out(
    game: &mut Game,
    dice: &mut (impl DiceSource + ?Sized),
    bot_seed: u64,
    mut on_events: impl FnMut(&Game, &[Event]),
) {
    let mut events = Vec::with_capacity(16);
    while let Some(pending) = game.pending() {
        // Taking a turn has one answer whoever plays (every bot rolls, the
        // random bot too: it is its only legal move): no need to ask.
        let mv = if matches!(pending, Decision::Roll { .. }) {
            Move::Roll
        } else {
            bot_move(game, bot_seed)
                .unwrap_or_else(|| crate::bots::Bot::choose(&crate::bots::DefaultBot, game))
        };
        events.clear();
        if game.apply_into(mv, dice, &mut events).is_err() {
            // Bots only answer with legal moves and seeded dice never fail;
            // stop rather than spin if that ever changes.
            let _ = game.apply_into(Move::Roll, dice, &mut events);
            if !game.is_over() {
                break;
            }
        }
        on_events(game, &events);
    }
}

/// Watches a run of games as it plays, and stops it: `played` counts the
/// games finished (from any thread); raising `stop` makes the games not
/// yet started be skipped, and the result is of those played. A
/// simulation and a tournament ([`crate::tournament::play_watched`]) take
/// one.
#[derive(Debug, Default)]
pub struct Watch {
    /// Games finished so far.
    pub played: std::sync::atomic::AtomicU64,
    /// Raised to stop.
    pub stop: std::sync::atomic::AtomicBool,
}

/// Plays `options.games` bot games on `grid` on the current rayon pool.
pub fn simulate(grid: &Arc<Grid>, options: &Options) -> Tally {
    simulate_watched(grid, options, &Watch::default())
}

/// [`simulate`], counting games in `watch` and stopping when it says so:
/// the tally is then of the games played (fewer than `options.games`).
pub fn simulate_watched(grid: &Arc<Grid>, options: &Options, watch: &Watch) -> Tally {
    watched_games(options.games, watch)
        .fold(Tally::default, |mut tally, i| {
            let (dice_seed, bot_seed) = game_seeds(options.seed, i);
            let mut game = Game::new(grid.clone(), options.seats).with_turn_cap(options.turn_cap);
            let mut dice = SeededDice::new(dice_seed);
            play_out(&mut game, &mut dice, bot_seed, |_, events| {
                for e in events {
                    tally.count(e);
                }
            });
            tally.finish_game(&game);
            watch
                .played
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tally
        })
        .reduce(Tally::default, Tally::merge)
}

/// Games handed to a worker at a time by [`watched_games`].
const BLOCK: u64 = 256;

/// The indexes `0..games`, in parallel, in blocks of [`BLOCK`]; once
/// `watch` says stop, the games not yet started are skipped (a block at a
/// time, so that even a run of billions stops at once).
pub(crate) fn watched_games(games: u64, watch: &Watch) -> impl ParallelIterator<Item = u64> + '_ {
    use std::sync::atomic::Ordering;
    (0..games.div_ceil(BLOCK))
        .into_par_iter()
        .filter(|_| !watch.stop.load(Ordering::Relaxed))
        .flat_map_iter(move |block| {
            (block * BLOCK..((block + 1) * BLOCK).min(games))
                .take_while(|_| !watch.stop.load(Ordering::Relaxed))
        })
}

/// The most worker threads [`simulate_on`] starts; more are clamped to it.
pub const MAX_THREADS: usize = 256;

/// Runs [`simulate`] on `threads` threads (all cores when `None`; 0 means 1
/// and more than [`MAX_THREADS`] means [`MAX_THREADS`]: the tally does not
/// depend on the threads).
///
/// # Errors
/// Fails when the thread pool cannot be built.
pub fn simulate_on(
    grid: &Arc<Grid>,
    options: &Options,
    threads: Option<usize>,
) -> Result<Tally, rayon::ThreadPoolBuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t.clamp(1, MAX_THREADS));
    }
    let pool = builder.build()?;
    Ok(pool.install(|| simulate(grid, options)))
}

/// [`simulate_watched`] on `threads` threads, as [`simulate_on`].
///
/// # Errors
/// Fails when the thread pool cannot be built.
pub fn simulate_watched_on(
    grid: &Arc<Grid>,
    options: &Options,
    threads: Option<usize>,
    watch: &Watch,
) -> Result<Tally, rayon::ThreadPoolBuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t.clamp(1, MAX_THREADS));
    }
    let pool = builder.build()?;
    Ok(pool.install(|| simulate_watched(grid, options, watch)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DEFAULT_TURN_CAP;
    use std::sync::atomic::Ordering;

    /// A run stopped (Ctrl-C raises the watch's stop) plays no game not
    /// yet started, and its report says it was stopped; a whole run counts
    /// every game, the same as an unwatched one.
    #[test]
    fn a_stopped_simulation_reports_the_games_it_played() {
        let grid = Arc::new(crate::parse_grid(crate::SAMPLE_GRID).expect("sample grid"));
        let options = Options {
            games: 12,
            seed: 3,
            seats: [crate::game::Seat::Bot; crate::game::SEATS],
            turn_cap: DEFAULT_TURN_CAP,
        };
        let watch = Watch::default();
        let whole = simulate_watched(&grid, &options, &watch);
        assert_eq!(whole.games, 12);
        assert_eq!(watch.played.load(Ordering::SeqCst), 12);
        assert_eq!(whole, simulate(&grid, &options), "watching changes nothing");
        let report = crate::report::SimulationReport::new("sample", &grid, &options, whole);
        assert!(!report.stopped);
        let watch = Watch::default();
        watch.stop.store(true, Ordering::SeqCst);
        let none = simulate_watched(&grid, &options, &watch);
        assert_eq!(none.games, 0);
        let report = crate::report::SimulationReport::new("sample", &grid, &options, none);
        assert!(report.stopped);
        assert!(
            report.to_string().starts_with("Stopped (Ctrl-C)"),
            "{report}"
        );
    }
}
