//! The random search for short games that the Java and C assignments ask for:
//! play many random games, keep each new record, and optionally every game as
//! short as the record.
//!
//! Terms:
//! - **record**: a game shorter than every game before it (in game order)
//!   that meets the constraint; its dice string is kept, as in the Java
//!   assignment's "Sample run".
//! - **tie**: a game exactly as short as the shortest found (with
//!   `all_shortest`); ties are grouped into distinct routes (docs/rules.md §1).
//! - **abandoned**: a game stopped once it is longer than the record (it can
//!   no longer matter) — this is what lets the search run faster than a full
//!   simulation; nothing is allocated for a game unless it is a record or a
//!   tie.
//! - Games are split into chunks with their own random streams, as in
//!   [`super::simulate`], so the records are the same whatever the threads.

use super::AnalysisError;
use super::chain::Chain;
use super::fast::{Batch, Table};
use super::simulate::{CHUNK, in_pool};
use crate::board::{Board, Jump, JumpKind};
use crate::rules::Rules;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use tabletop::Rng;

/// The most distinct tied sequences kept per search (later ties are counted
/// but not kept).
pub const MAX_TIES: usize = 100_000;

/// What to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of random games.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// Only games that go down exactly this many chutes count.
    pub chutes: Option<u32>,
    /// Keep every game as short as the shortest found.
    pub all_shortest: bool,
    /// Worker threads; 0 uses rayon's default (all cores).
    pub threads: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            games: 100_000,
            seed: 0,
            chutes: None,
            all_shortest: false,
            threads: 0,
        }
    }
}

/// A record game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Its number among the games played, from 1.
    pub game: u64,
    /// Its length in rolls.
    pub rolls: u32,
    /// Its dice.
    pub dice: Vec<u8>,
}

/// The tied games of one route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FoundRoute {
    /// The chutes and ladders taken, in order.
    pub jumps: Vec<Jump>,
    /// Distinct dice sequences seen for it.
    pub sequences: u64,
    /// Games that played it.
    pub games: u64,
    /// Its first sequence (in dice order).
    pub example: Vec<u8>,
    /// Every distinct sequence seen for it, in dice order, each with the
    /// number of games that rolled it.
    pub seen: Vec<(Vec<u8>, u64)>,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchResult {
    /// Games played.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// Each new record, in game order.
    pub records: Vec<Record>,
    /// The shortest length found.
    pub shortest: Option<u32>,
    /// With `all_shortest`: games as short as the shortest (records
    /// included).
    pub tied_games: u64,
    /// With `all_shortest`: distinct tied sequences (at most [`MAX_TIES`]
    /// kept; see `ties_complete`).
    pub tied_sequences: u64,
    /// Every distinct tied sequence was kept.
    pub ties_complete: bool,
    /// With `all_shortest`: the distinct routes of the tied games.
    pub routes: Vec<FoundRoute>,
}

#[derive(Default)]
struct ChunkFind {
    records: Vec<Record>,
    best: Option<u32>,
    ties: HashMap<Vec<u8>, u64>,
    tied_games: u64,
    overflow: bool,
}

/// Plays `options.games` random games, keeping records (and ties), calling
/// `progress(games just done)` after each chunk.
///
/// # Errors
/// [`AnalysisError::Threads`] when the thread pool cannot be built or
/// more than [`super::simulate::MAX_THREADS`] threads are asked for.
pub fn search(
    board: &Board,
    rules: &Rules,
    options: &SearchOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SearchResult, AnalysisError> {
    search_until(board, rules, options, progress, &AtomicBool::new(false))
}

/// [`search`], until `stop` is raised (Ctrl-C): the games not yet started
/// are then skipped, and the result is of the games played (`games` says
/// how many).
///
/// # Errors
/// As [`search`].
pub fn search_until(
    board: &Board,
    rules: &Rules,
    options: &SearchOptions,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<SearchResult, AnalysisError> {
    let chain = Chain::new(board, rules);
    let reach = chain.reach();
    let table = Table::new(&chain, &reach);
    let chunks = options.games.div_ceil(CHUNK);
    let mut records: Vec<Record> = Vec::new();
    // With `all_shortest`: the ties of the shortest length seen so far.
    let mut tie_length: Option<u32> = None;
    let mut ties: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut tied_games = 0;
    let mut ties_complete = true;
    let mut played = 0;
    let mut merge = |part: ChunkFind| {
        for r in part.records {
            if records.last().is_none_or(|last| r.rolls < last.rolls) {
                records.push(r);
            }
        }
        let Some(best) = part.best.filter(|_| options.all_shortest) else {
            return;
        };
        if tie_length.is_some_and(|t| best > t) {
            return;
        }
        if tie_length.is_none_or(|t| best < t) {
            tie_length = Some(best);
            ties.clear();
            tied_games = 0;
            ties_complete = true;
        }
        tied_games += part.tied_games;
        ties_complete &= !part.overflow;
        for (dice, n) in part.ties {
            if ties.len() < MAX_TIES || ties.contains_key(&dice) {
                *ties.entry(dice).or_default() += n;
            } else {
                ties_complete = false;
            }
        }
    };
    // Chunks run a batch at a time, each batch merged in chunk order before
    // the next starts, so memory stays bounded however many games are asked
    // for (and the result still does not depend on the threads).
    let run = || {
        let batch = (rayon::current_num_threads() as u64 * 8).max(64);
        let mut first = 0;
        // After a stop no batch starts: a huge count must not be walked.
        while first < chunks && !stop.load(Ordering::Relaxed) {
            let last = chunks.min(first + batch);
            let parts: Vec<(u64, ChunkFind)> = (first..last)
                .into_par_iter()
                .map(|c| {
                    if stop.load(Ordering::Relaxed) {
                        return (0, ChunkFind::default());
                    }
                    let games = CHUNK.min(options.games - c * CHUNK);
                    let mut rng = Rng::stream(options.seed, c);
                    let found = search_chunk(&table, options, c * CHUNK, games, &mut rng);
                    progress(games);
                    (games, found)
                })
                .collect();
            played += parts.iter().map(|(games, _)| games).sum::<u64>();
            let parts = parts.into_iter().map(|(_, found)| found);
            parts.into_iter().for_each(&mut merge);
            first = last;
        }
    };
    in_pool(options.threads, run)?;
    let shortest = records.last().map(|r| r.rolls);
    let routes = group_routes(&chain, &ties);
    Ok(SearchResult {
        games: played,
        seed: options.seed,
        records,
        shortest,
        tied_games,
        tied_sequences: ties.len() as u64,
        ties_complete,
        routes,
    })
}

fn search_chunk(
    table: &Table,
    options: &SearchOptions,
    first: u64,
    games: u64,
    rng: &mut Rng,
) -> ChunkFind {
    let mut found = ChunkFind::default();
    let mut dice = Batch::new(table.faces as u64);
    let mut rolls: Vec<u8> = Vec::with_capacity(256);
    let finish = table.finish;
    let dead = table.dead();
    let faces = table.faces;
    let want = options.chutes;
    for g in 0..games {
        // Longest game that can still matter.
        let limit = match found.best {
            None => u32::MAX,
            Some(b) if options.all_shortest => b,
            Some(b) => b - 1,
        };
        rolls.clear();
        let mut pos = table.start;
        let mut chutes = 0u32;
        let mut length = 0u32;
        while pos != finish && pos != dead {
            if length >= limit {
                break;
            }
            let d = dice.digit(rng);
            let i = pos as usize * faces + d;
            pos = table.next.get(i).copied().unwrap_or(dead);
            if want.is_some() && table.jump.get(i) == Some(&Some(JumpKind::Chute)) {
                chutes += 1;
                if want.is_some_and(|k| chutes > k) {
                    break;
                }
            }
            length += 1;
            rolls.push((d + 1) as u8);
        }
        if pos != finish || want.is_some_and(|k| chutes != k) {
            continue;
        }
        if found.best.is_none_or(|b| length < b) {
            found.best = Some(length);
            found.records.push(Record {
                game: first + g + 1,
                rolls: length,
                dice: rolls.clone(),
            });
            found.ties.clear();
            found.tied_games = 0;
            found.overflow = false;
        }
        if options.all_shortest {
            found.tied_games += 1;
            if let Some(n) = found.ties.get_mut(rolls.as_slice()) {
                *n += 1;
            } else if found.ties.len() < MAX_TIES {
                found.ties.insert(rolls.clone(), 1);
            } else {
                found.overflow = true;
            }
        }
    }
    found
}

/// Groups tied sequences by the jumps they take.
fn group_routes(chain: &Chain, ties: &HashMap<Vec<u8>, u64>) -> Vec<FoundRoute> {
    let mut by_route: BTreeMap<Vec<Jump>, FoundRoute> = BTreeMap::new();
    for (dice, &n) in ties {
        let mut at = chain.start();
        let mut jumps = Vec::new();
        for &r in dice {
            let m = chain.step(at, r);
            jumps.extend(m.jump_taken());
            at = m.to;
        }
        let entry = by_route.entry(jumps.clone()).or_insert_with(|| FoundRoute {
            jumps,
            sequences: 0,
            games: 0,
            example: dice.to_vec(),
            seen: Vec::new(),
        });
        entry.sequences += 1;
        entry.games += n;
        entry.seen.push((dice.to_vec(), n));
    }
    let mut routes: Vec<FoundRoute> = by_route.into_values().collect();
    for route in &mut routes {
        route.seen.sort_unstable();
        if let Some((first, _)) = route.seen.first() {
            route.example = first.clone();
        }
    }
    routes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shortest::{Constraint, shortest};
    use crate::game::Game;
    use std::sync::Arc;
    use tabletop::ScriptedDice;

    fn quiet(_: u64) {}

    /// Plays `dice` through the engine: (rolls, chutes) when it wins with
    /// the last roll.
    fn replay(board: &Board, dice: &[u8]) -> Option<(u32, u32)> {
        let mut game = Game::new(Arc::new(board.clone()), Rules::default(), 1).ok()?;
        let mut source = ScriptedDice::new(dice.iter().map(|&d| u32::from(d)).collect::<Vec<_>>());
        for _ in dice {
            game.play(&mut source).ok()?;
        }
        game.winner()?;
        let p = game.players()[0];
        Some((p.rolls, p.chutes))
    }

    #[test]
    fn records_shrink_replay_and_do_not_depend_on_threads() {
        let b = Board::classic();
        let rules = Rules::default();
        let mut options = SearchOptions {
            games: 200_000,
            seed: 11,
            chutes: None,
            all_shortest: true,
            threads: 1,
        };
        let one = search(&b, &rules, &options, &quiet).unwrap();
        options.threads = 2;
        assert_eq!(search(&b, &rules, &options, &quiet).unwrap(), one);
        assert!(
            one.records
                .windows(2)
                .all(|w| w[1].rolls < w[0].rolls && w[1].game > w[0].game)
        );
        for r in &one.records {
            assert_eq!(replay(&b, &r.dice).map(|x| x.0), Some(r.rolls));
        }
        // 200,000 games find the 7-roll games (about 1 game in 660).
        assert_eq!(one.shortest, Some(7));
        let exact = shortest(&b, &rules, Constraint::NONE).unwrap();
        let all = exact.routes(usize::MAX);
        for found in &one.routes {
            let route = all.iter().find(|r| r.jumps == found.jumps).unwrap();
            assert!(num_bigint::BigUint::from(found.sequences) <= route.sequences);
        }
        assert!(one.tied_games >= one.tied_sequences && one.ties_complete);
    }

    #[test]
    fn chute_constraint_counts_exactly_k_chutes() {
        let b = Board::classic();
        let rules = Rules::default();
        let options = SearchOptions {
            games: 100_000,
            seed: 3,
            chutes: Some(2),
            all_shortest: false,
            threads: 0,
        };
        let found = search(&b, &rules, &options, &quiet).unwrap();
        assert!(!found.records.is_empty());
        for r in &found.records {
            assert_eq!(replay(&b, &r.dice), Some((r.rolls, 2)));
        }
        let k = Constraint {
            chutes: Some(2),
            ladders: None,
        };
        let exact = shortest(&b, &rules, k).unwrap().rolls().unwrap();
        assert!(found.shortest.unwrap() >= exact);
    }
}
