//! Known answers for the analysis (tests/data/analysis-known.json), each
//! checked against an independent method: enumeration of every dice
//! sequence, a plain breadth-first search, a backward recursion, or the
//! published figure.

use chutes::analysis::min_throws::{board_from_pairs, min_throws};
use chutes::analysis::shortest::{Constraint, ShortestGames};
use chutes::analysis::simulate::{SimOptions, simulate};
use chutes::analysis::{chances, exact, markov};
use chutes::formats::{Format, parse_board};
use chutes::{Board, BoardSpec, Jump, JumpKind, Overshoot, Rules};
use num_bigint::BigUint;
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};

fn known() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/analysis-known.json"
    );
    let text = std::fs::read_to_string(path).expect("read analysis-known.json");
    serde_json::from_str(&text).expect("analysis-known.json is JSON")
}

/// Every sequence of `len` dice on the classic board: how many finish at
/// exactly the last roll, by number of chutes taken, with their routes.
fn enumerate_classic(len: usize) -> HashMap<usize, (u64, HashSet<Vec<Jump>>)> {
    let board = Board::classic();
    let rules = Rules::default();
    let mut by_chutes: HashMap<usize, (u64, HashSet<Vec<Jump>>)> = HashMap::new();
    let mut dice = vec![1u8; len];
    loop {
        let mut at = 0;
        let mut jumps = Vec::new();
        for (i, &r) in dice.iter().enumerate() {
            let step = rules.step(&board, at, r);
            at = step.to;
            jumps.extend(step.jump);
            if at == 100 {
                if i + 1 == len {
                    let chutes = jumps.iter().filter(|j| j.kind() == JumpKind::Chute).count();
                    let entry = by_chutes.entry(chutes).or_default();
                    entry.0 += 1;
                    entry.1.insert(jumps.clone());
                }
                break;
            }
        }
        let mut i = 0;
        while i < len && dice[i] == 6 {
            dice[i] = 1;
            i += 1;
        }
        if i == len {
            return by_chutes;
        }
        dice[i] += 1;
    }
}

#[test]
fn classic_shortest_games_match_enumeration_of_all_6_pow_7_sequences() {
    let k = &known()["classic"];
    let board = Board::classic();
    let rules = Rules::default();
    // No game is shorter than 7 rolls: nothing finishes in 6.
    assert!(enumerate_classic(6).is_empty());
    let seven = enumerate_classic(7);
    let total: u64 = seven.values().map(|v| v.0).sum();
    let routes: usize = seven.values().map(|v| v.1.len()).sum();
    assert_eq!(total, k["shortest_sequences"].as_u64().unwrap());
    assert_eq!(routes as u64, k["shortest_routes"].as_u64().unwrap());
    let games = ShortestGames::new(&board, &rules, Constraint::NONE).unwrap();
    assert_eq!(
        games.rolls(),
        Some(k["shortest_rolls"].as_u64().unwrap() as u32)
    );
    assert_eq!(games.sequences(), &BigUint::from(total));
    assert_eq!(games.route_count().unwrap(), BigUint::from(routes));
    // The Java assignment: exactly two chutes.
    let (two, two_routes) = &seven[&2];
    assert_eq!(*two, k["two_chutes_sequences"].as_u64().unwrap());
    assert_eq!(
        two_routes.len() as u64,
        k["two_chutes_routes"].as_u64().unwrap()
    );
    let constraint = Constraint {
        chutes: Some(2),
        ladders: None,
    };
    let games = ShortestGames::new(&board, &rules, constraint).unwrap();
    assert_eq!(
        games.rolls(),
        Some(k["two_chutes_rolls"].as_u64().unwrap() as u32)
    );
    assert_eq!(games.sequences(), &BigUint::from(*two));
    assert_eq!(
        games.route_count().unwrap(),
        BigUint::from(two_routes.len())
    );
}

#[test]
fn classic_distribution_matches_the_published_mean_and_enumeration() {
    let k = &known()["classic"];
    let board = Board::classic();
    let rules = Rules::default();
    let d = markov::distribution(&board, &rules, markov::DEFAULT_TAIL).unwrap();
    let mean = d.mean.unwrap();
    assert!((mean - k["mean_published"].as_f64().unwrap()).abs() < 5e-5);
    let fraction = exact::moments(&board, &rules).unwrap();
    assert_eq!(fraction.mean_text(), k["mean_exact"].as_str().unwrap());
    assert!(
        (fraction.mean_f64() - mean).abs() < 1e-10,
        "{} vs {mean}",
        fraction.mean_f64()
    );
    // The C baseline over 10M games lands within 4 standard errors.
    let sim = k["seed_sim_mean_10m_games"].as_f64().unwrap();
    let se = fraction.sd_f64() / 1e7f64.sqrt();
    assert!((sim - fraction.mean_f64()).abs() < 4.0 * se);
    assert_eq!(d.median, Some(k["median"].as_u64().unwrap() as u32));
    assert_eq!(d.mode, Some(k["mode"].as_u64().unwrap() as u32));
    let p = &k["percentiles"];
    assert_eq!(d.percentiles.p25, Some(p["p25"].as_u64().unwrap() as u32));
    assert_eq!(d.percentiles.p75, Some(p["p75"].as_u64().unwrap() as u32));
    assert_eq!(d.percentiles.p95, Some(p["p95"].as_u64().unwrap() as u32));
    assert_eq!(d.percentiles.p99, Some(p["p99"].as_u64().unwrap() as u32));
    // P(T ≤ 8) by enumerating all 6^8 sequences, exactly.
    let mut within = 0u64;
    for len in 7..=8 {
        let finishing: u64 = enumerate_classic(len).values().map(|v| v.0).sum();
        within += finishing * 6u64.pow(8 - len as u32);
    }
    let exact_p = exact::probability_within(&board, &rules, 8);
    assert_eq!(
        exact_p,
        num_rational::BigRational::new(within.into(), 6u64.pow(8).into())
    );
    assert!((d.cdf(8) - within as f64 / 6f64.powi(8)).abs() < 1e-15);
}

#[test]
fn published_minimum_throws() {
    for case in known()["min_throws"].as_array().unwrap() {
        let board = if let Some(grid) = case["leetcode"].as_str() {
            parse_board(grid, Some(Format::Leetcode), None).unwrap()
        } else {
            board_from_pairs(
                case["pairs"].as_str().unwrap(),
                case["size"].as_u64().unwrap() as u32,
                case["start"].as_u64().unwrap() as u32,
            )
            .unwrap()
        };
        let answer = min_throws(&board, &Rules::default()).unwrap();
        assert_eq!(
            answer.throws,
            Some(case["throws"].as_u64().unwrap() as u32),
            "{}",
            case["name"]
        );
        assert_eq!(answer.steps.last().map(|s| s.to), Some(board.finish()));
    }
}

/// The classic board's jumps repeated in every block of 100 squares.
fn tiled(blocks: u32) -> Board {
    let classic = Board::classic();
    let jumps = (0..blocks)
        .flat_map(|b| {
            classic
                .jumps()
                .iter()
                .map(move |j| Jump::new(j.from + 100 * b, j.to + 100 * b))
        })
        .collect();
    Board::new(BoardSpec {
        name: None,
        size: 100 * blocks,
        start: 0,
        jumps,
        geometry: None,
    })
    .expect("the tiled board is valid")
}

/// Plain breadth-first search over squares (the GeeksforGeeks method).
fn plain_bfs(board: &Board, rules: &Rules) -> Option<u32> {
    let mut dist = vec![u32::MAX; board.size() as usize + 1];
    let mut queue = VecDeque::from([board.start()]);
    dist[board.start() as usize] = 0;
    while let Some(s) = queue.pop_front() {
        if s == board.finish() {
            return Some(dist[s as usize]);
        }
        for r in 1..=rules.faces() {
            let t = rules.step(board, s, r).to as usize;
            if dist[t] == u32::MAX {
                dist[t] = dist[s as usize] + 1;
                queue.push_back(t as u32);
            }
        }
    }
    None
}

#[test]
fn a_100000_square_board_is_searched_exactly() {
    let board = tiled(1000);
    assert_eq!(board.size(), 100_000);
    for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
        let rules = Rules::new(o, 6).unwrap();
        let games = ShortestGames::new(&board, &rules, Constraint::NONE).unwrap();
        assert_eq!(games.rolls(), plain_bfs(&board, &rules), "{o}");
        assert_eq!(min_throws(&board, &rules).unwrap().throws, games.rolls());
        let dice = games.example();
        let mut at = 0;
        for &r in &dice {
            at = rules.step(&board, at, r).to;
        }
        assert_eq!(at, 100_000);
    }
}

#[test]
fn a_large_board_distribution_matches_a_backward_recursion() {
    // An empty board with a 20-sided die, 100,000 squares: E[s] by the
    // recursion E[s] (f - lost) = f + Σ E[s + r], from the finish down.
    let n = 100_000usize;
    let board = Board::empty(n as u32);
    let rules = Rules::new(Overshoot::Stay, 20).unwrap();
    let f = 20usize;
    let mut e = vec![0.0f64; n + 1];
    for s in (0..n).rev() {
        let moves = f.min(n - s);
        let sum: f64 = e[s + 1..=s + moves].iter().sum();
        e[s] = (f as f64 + sum) / moves as f64;
    }
    let d = markov::distribution(&board, &rules, markov::DEFAULT_TAIL).unwrap();
    let mean = d.mean.unwrap();
    assert!((mean - e[0]).abs() < 1e-7 * e[0], "{mean} vs {}", e[0]);
    assert!(d.dropped < 1e-12);
    assert_eq!(d.shortest, Some(5000));
}

#[test]
fn unfinishable_boards_and_cycles_end_everywhere() {
    // A chute cycle 3 → 9 → 3 … taken one jump per move, and a trap.
    let spec = BoardSpec {
        name: None,
        size: 20,
        start: 0,
        jumps: [
            (3, 9),
            (9, 3),
            (2, 16),
            (10, 8),
            (11, 8),
            (12, 8),
            (13, 8),
            (14, 8),
            (15, 8),
        ]
        .iter()
        .map(|&(a, b)| Jump::new(a, b))
        .collect(),
        geometry: None,
    };
    let board = Board::new(spec).unwrap();
    for o in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish] {
        let rules = Rules::new(o, 6).unwrap();
        let d = markov::distribution(&board, &rules, markov::DEFAULT_TAIL).unwrap();
        assert!(d.never > 0.0 && d.never < 1.0, "{o}");
        assert!(exact::moments(&board, &rules).is_err());
        let sim = simulate(
            &board,
            &rules,
            &SimOptions {
                games: 20_000,
                players: 1,
                seed: 3,
                threads: 1,
            },
            &|_| {},
        )
        .unwrap();
        assert!(sim.unfinished > 0 && sim.unfinished < 20_000);
        assert!(min_throws(&board, &rules).unwrap().throws.is_some());
    }
}

// ------------------------------------------------- chances from a position

/// A random board of `size` squares with up to `jumps` chutes and ladders
/// (the board's own checks decide what is allowed; refused boards are
/// drawn again).
fn random_board(rng: &mut tabletop::Rng, size: u32, jumps: usize) -> Board {
    loop {
        let mut pairs = Vec::new();
        for _ in 0..jumps {
            let from = 1 + rng.below(u64::from(size) - 1) as u32;
            let to = 1 + rng.below(u64::from(size) - 1) as u32;
            if from != to && !pairs.iter().any(|&(f, _)| f == from) {
                pairs.push((from, to));
            }
        }
        if let Ok(board) = Board::from_jumps(size, 0, &pairs) {
            return board;
        }
    }
}

/// A random position: each token on a square where a token can stand
/// (the start, or a square that is no jump's start).
fn random_position(
    rng: &mut tabletop::Rng,
    chain: &chutes::analysis::Chain,
    players: usize,
) -> chances::Position {
    let n = chain.finish();
    let standing: Vec<u32> = (0..n)
        .filter(|&s| s == 0 || chain.land_to(s) == s)
        .collect();
    chances::Position {
        squares: (0..players)
            .map(|_| standing[rng.below(standing.len() as u64) as usize])
            .collect(),
        to_move: 1 + rng.below(players as u64) as u8,
    }
}

/// Each player's chance to win by value iteration over the joint state
/// (every token's square and whose turn): an independent method, which
/// never assumes the tokens are independent.
fn joint_chain_chances(chain: &chutes::analysis::Chain, position: &chances::Position) -> Vec<f64> {
    let n = chain.finish() as usize;
    let players = position.squares.len();
    let states = n.pow(players as u32);
    let index = |squares: &[usize]| squares.iter().fold(0, |acc, &s| acc * n + s);
    let faces = chain.faces();
    // win[(state * players + turn) * players + k]; a token's place value
    // in the state's index is n^(players − 1 − seat).
    let place: Vec<usize> = (0..players)
        .map(|i| n.pow((players - 1 - i) as u32))
        .collect();
    let mut win = vec![0.0f64; states * players * players];
    let mut next = vec![0.0f64; players];
    loop {
        let mut change = 0.0f64;
        for state in 0..states {
            for turn in 0..players {
                let square = (state / place[turn]) % n;
                next.fill(0.0);
                for r in 1..=faces {
                    let to = chain.step(square as u32, r).to as usize;
                    if to >= n {
                        next[turn] += 1.0;
                    } else {
                        let moved = state - square * place[turn] + to * place[turn];
                        let base = (moved * players + (turn + 1) % players) * players;
                        for (k, w) in next.iter_mut().enumerate() {
                            *w += win[base + k];
                        }
                    }
                }
                let base = (state * players + turn) * players;
                for (k, w) in next.iter().enumerate() {
                    let v = w / f64::from(faces);
                    change = change.max((v - win[base + k]).abs());
                    win[base + k] = v;
                }
            }
        }
        if change < 1e-14 {
            break;
        }
    }
    let start: Vec<usize> = position.squares.iter().map(|&s| s as usize).collect();
    let base = (index(&start) * players + usize::from(position.to_move) - 1) * players;
    win[base..base + players].to_vec()
}

/// The same position played out `games` times with the same rules.
fn monte_carlo_chances(
    chain: &chutes::analysis::Chain,
    position: &chances::Position,
    games: u32,
    seed: u64,
) -> Vec<f64> {
    let mut rng = tabletop::Rng::new(seed);
    let players = position.squares.len();
    let mut wins = vec![0u32; players];
    for _ in 0..games {
        let mut squares = position.squares.clone();
        let mut turn = usize::from(position.to_move) - 1;
        for _ in 0..100_000 {
            let to = chain.step(squares[turn], rng.roll(chain.faces())).to;
            if to >= chain.finish() {
                wins[turn] += 1;
                break;
            }
            squares[turn] = to;
            turn = (turn + 1) % players;
        }
    }
    wins.iter()
        .map(|&w| f64::from(w) / f64::from(games))
        .collect()
}

#[test]
fn chances_from_random_positions_match_a_joint_chain_and_monte_carlo() {
    let mut rng = tabletop::Rng::new(52);
    for (rule, overshoot) in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish]
        .into_iter()
        .enumerate()
    {
        let rules = Rules::new(overshoot, 6).unwrap();
        // (players, board size): the joint chain has size^players states.
        for (players, size) in [(2, 30), (3, 16), (4, 9)] {
            let board = random_board(&mut rng, size, (size / 5) as usize);
            let chain = chutes::analysis::Chain::new(&board, &rules);
            let reach = chain.reach();
            for round in 0..3 {
                let position = random_position(&mut rng, &chain, players);
                let got = chances::chances(
                    &chain,
                    &reach,
                    &position,
                    &chances::ChancesOptions::default(),
                )
                .unwrap();
                let joint = joint_chain_chances(&chain, &position);
                for (k, (a, b)) in got.win.iter().zip(&joint).enumerate() {
                    assert!(
                        (a - b).abs() < 1e-9,
                        "{overshoot}, {board:?}, {position:?}: player {}: {a} vs the joint chain's {b}",
                        k + 1
                    );
                }
                // A million games from one position of each overshoot rule
                // (2, 3 and 4 players in turn).
                if round == 0 && players == rule + 2 {
                    let games = 1_000_000;
                    let mc = monte_carlo_chances(&chain, &position, games, rng.next_u64());
                    for (k, (a, m)) in got.win.iter().zip(&mc).enumerate() {
                        let se = (a * (1.0 - a) / f64::from(games)).sqrt();
                        assert!(
                            (a - m).abs() <= 3.0 * se + 1e-12,
                            "{overshoot}, {position:?}: player {}: exact {a}, Monte Carlo {m} (se {se})",
                            k + 1
                        );
                    }
                }
            }
        }
    }
}
