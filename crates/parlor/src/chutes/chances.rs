//! `parlor chutes chances`: each player's exact chance to win from a
//! position in the middle of a game. Glue only: the library's
//! `chutes::analysis::chances` does the work.
//!
//! Terms:
//! - **position**: every token's square (`--squares`, 0 is the off-board
//!   start) and the player to move (`--to-move`, from 1).

use crate::common::{BoardArgs, print_json, print_text};
use anyhow::Result;
use chutes::analysis::Chain;
use chutes::analysis::chances::{self, ChancesOptions, Position};
use clap::Args;

/// Arguments of `parlor chutes chances`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  parlor chutes chances --squares 12,40 --to-move 2   two tokens on 12 and 40, player 2 to roll
  parlor chutes chances --squares 0,0,0,0             four players at the start: the seats' odds
  parlor chutes chances --squares 97,80 --rules bounce --json")]
pub struct ChancesArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Each player's square, in seat order (0 is the off-board start).
    #[arg(long, value_delimiter = ',', required = true, value_name = "S,S,…")]
    squares: Vec<u32>,
    /// The player to move, from 1.
    #[arg(long, default_value_t = 1, value_name = "P")]
    to_move: u8,
    /// Tabulate until less than this probability is undecided.
    #[arg(long, default_value_t = chances::DEFAULT_CHANCES_TAIL, value_name = "P")]
    tail: f64,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `parlor chutes chances`.
pub fn run(args: &ChancesArgs) -> Result<()> {
    let (board, rules) = args.board.load()?;
    let chain = Chain::new(&board, &rules);
    let reach = chain.reach();
    let position = Position {
        squares: args.squares.clone(),
        to_move: args.to_move,
    };
    let options = ChancesOptions {
        tail: args.tail,
        ..ChancesOptions::default()
    };
    let answer = chances::chances(&chain, &reach, &position, &options)?;
    if args.json {
        print_json(&answer)
    } else {
        print_text(&answer)
    }
}
