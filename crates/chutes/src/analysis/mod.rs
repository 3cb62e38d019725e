//! Analysis of Chutes & Ladders on any board and rules: exact where it can
//! be, random where the original assignments ask for it.
//!
//! Terms:
//! - **game length**: the number of rolls one player makes until reaching N,
//!   lost turns included (docs/rules.md §1).
//! - **chain** ([`chain::Chain`]): the board and rules as a table of moves,
//!   read off [`crate::Rules::step`], the one definition of a move.
//! - **distribution** ([`markov::LengthDistribution`]): P(game length = n),
//!   from the absorbing Markov chain, to a tail under 1e-12.
//! - **exact** ([`exact`]): rational numbers, no rounding: the mean game
//!   length as p/q, counts of dice sequences.
//! - **shortest game** ([`shortest`]): the fewest rolls that finish, found by
//!   breadth-first search, with the number of dice sequences and distinct
//!   **routes** (the chutes and ladders taken, in order).
//! - **Monte Carlo** ([`simulate`]): many random games on all cores, the same
//!   result for a seed whatever the number of threads.
//! - **search** ([`search`]): the original assignments' random search for
//!   short games.
//! - **minimum throws** ([`min_throws`]): the minimum-throws assignment,
//!   where the player chooses every roll.
//! - **chances** ([`chances`]): each player's exact chance to win from any
//!   position of a game (every token's square, whose turn).
//! - **budget** ([`tabletop::Budget`]): the long computations (the Markov
//!   chain, the exact moments, the shortest games and their routes) take
//!   one in their `*_within` forms and stop with [`AnalysisError::Stopped`]
//!   when it runs out or the question is withdrawn; the plain forms never
//!   stop (the CLI's).
//! - **report** ([`report`]): the answer to each question as one serde type
//!   put into words once; the CLI's `--json` and the web API print it.
//!
//! Methods, definitions and the published figures matched are in
//! `docs/analysis.md`.

mod bounds;
pub mod chain;
pub mod chances;
pub mod design;
pub mod exact;
mod fast;
pub mod goal;
pub mod markov;
pub mod min_throws;
mod polish;
pub mod quality;
pub mod report;
pub mod search;
pub mod sensitivity;
pub mod shortest;
pub mod simulate;

pub use chain::{Chain, Move, Reach};
pub use markov::{JumpStats, LengthDistribution, Markov, MarkovOptions, SeatOdds};

/// Why an analysis could not be done.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// The tail asked for is not a probability in (0, 1).
    #[error("the tail must be a probability between 0 and 1 (exclusive), not {0}")]
    Tail(f64),
    /// A number of players out of range.
    #[error("{0} players: analysis takes 1 to {max} players", max = crate::game::MAX_PLAYERS)]
    Players(usize),
    /// The games are so long that the distribution did not reach its tail
    /// within the roll limit.
    #[error(
        "after {rolls} rolls, {remaining:.3e} of games have still not finished (the tail asked for is {tail:e}); \
         this board's games are too long to tabulate within the limit of {rolls} rolls"
    )]
    TooLong {
        /// Rolls tabulated.
        rolls: u32,
        /// Probability still in play.
        remaining: f64,
        /// The tail asked for.
        tail: f64,
    },
    /// Not every game finishes, so a quantity is infinite or undefined.
    #[error(
        "not every game finishes: from square {dead} (reachable from the start) the finish can never be reached, \
         so the {what} is infinite"
    )]
    Unfinishable {
        /// A dead square.
        dead: u32,
        /// What cannot be computed.
        what: &'static str,
    },
    /// A position that no game can reach (a square off the board or on a
    /// jump's start, a player to move who is not playing).
    #[error("{0}")]
    Position(String),
    /// A simulation or search of no games at all.
    #[error("a run of random games needs at least 1 game")]
    NoGames,
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// An exact computation too large to attempt.
    #[error("{0}")]
    TooLarge(String),
    /// The budget ran out, or the question was withdrawn, before the
    /// answer was ready.
    #[error(transparent)]
    Stopped(#[from] tabletop::Stopped),
}
