//! Positions: a table set by hand, for tests and for studying a bot's
//! choice in a given spot. Compiled only with the `positions` feature (the
//! crate's own tests turn it on): a position is not a save format — a
//! match's record is the only one (see [`crate::contract`]).
//!
//! Terms:
//! - **position**: every field of a game as JSON (grid, players, owners,
//!   whose turn, the pending choice, turns, turn cap, winner); it is
//!   checked as a whole on reading, so a game set from it is a legal one.

use super::*;
use crate::cells::LAST;

/// The largest wallet (either way) a position may hold.
const MAX_COINS: i64 = 1_000_000_000_000_000;
/// The largest turn counter or effect counter a position may hold.
const MAX_COUNT: u32 = MAX_TURN_CAP;

/// A table set by hand, as JSON: every field of a game.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    grid: Grid,
    seats: [Seat; SEATS],
    players: [Player; SEATS],
    /// Players in the game (2 to 4; 4 when not given): the seats and
    /// players past them are not in play.
    #[serde(default = "four")]
    count: u8,
    owners: [Option<u8>; 3],
    current: u8,
    phase: Phase,
    extra_roll: bool,
    turns: u32,
    moves: u64,
    turn_cap: u32,
    winner: Option<u8>,
}

fn four() -> u8 {
    SEATS as u8
}

impl From<&Game> for Position {
    fn from(g: &Game) -> Self {
        Self {
            grid: (*g.grid).clone(),
            seats: g.seats,
            players: g.players.clone(),
            count: g.count,
            owners: g.owners,
            current: g.current + 1,
            phase: g.phase,
            extra_roll: g.extra_roll,
            turns: g.turns,
            moves: g.moves,
            turn_cap: g.turn_cap,
            winner: g.winner,
        }
    }
}

impl TryFrom<Position> for Game {
    type Error = GameError;
    fn try_from(s: Position) -> Result<Self, GameError> {
        let bad = |m: String| Err(GameError::Position(m));
        if !(MIN_SEATS as u8..=SEATS as u8).contains(&s.count) {
            return bad(format!("{} players: a game has 2 to 4", s.count));
        }
        if !(1..=s.count).contains(&s.current) {
            return bad(format!(
                "current player {} is not 1 to {}",
                s.current, s.count
            ));
        }
        if s.turn_cap > MAX_TURN_CAP || s.turns > MAX_COUNT {
            return bad(format!(
                "turn cap {} or turns {} beyond {MAX_TURN_CAP}",
                s.turn_cap, s.turns
            ));
        }
        if s.turn_cap == 0 {
            return bad("turn cap 0: a game has at least 1 turn".to_string());
        }
        // A turn is a few moves (roll, a purchase or a prison choice, an
        // extra roll): far fewer than 16.
        let max_moves = 16 * u64::from(MAX_COUNT);
        if s.moves > max_moves {
            return bad(format!("{} moves, beyond {max_moves}", s.moves));
        }
        for (i, p) in s.players.iter().enumerate() {
            if !(-MAX_COINS..=MAX_COINS).contains(&p.coins) {
                return bad(format!(
                    "player {} holds {} coins, beyond ±{MAX_COINS}",
                    i + 1,
                    p.coins
                ));
            }
            let counts = [p.turns, p.lost_turns, p.fire_turns, p.poison_turns];
            if counts.iter().any(|&c| c > MAX_COUNT) {
                return bad(format!("player {} has a counter beyond {MAX_COUNT}", i + 1));
            }
            if !crate::cells::on_grid(p.cell) {
                return bad(format!(
                    "player {} is on cell {}, off the grid",
                    i + 1,
                    p.cell
                ));
            }
            if p.attacks.len() > MAX_ATTACKS
                || (p.attacks.len() == 2 && p.attacks[0] == p.attacks[1])
            {
                return bad(format!(
                    "player {} has launched {:?}: at most two different attacks",
                    i + 1,
                    p.attacks
                ));
            }
        }
        for (i, o) in s.owners.iter().enumerate() {
            if let Some(o) = o {
                if !(1..=s.count).contains(o) {
                    return bad(format!(
                        "station {} is owned by player {o}, not 1 to {}",
                        i + 9,
                        s.count
                    ));
                }
                if s.grid.station_terms(i as u8 + 9).is_none() {
                    return bad(format!(
                        "station {} is owned but the grid has no card {}",
                        i + 9,
                        i + 9
                    ));
                }
            }
        }
        // Cell 99 ends the game: only its winner stands there.
        if let Some(i) = s
            .players
            .iter()
            .enumerate()
            .position(|(i, p)| p.cell == LAST && s.winner != Some(i as u8 + 1))
        {
            return bad(format!("player {} is on cell 99 but has not won", i + 1));
        }
        let me = &s.players[usize::from(s.current - 1)];
        let card = s.grid.card_at(me.cell);
        let turn_cap = s.turn_cap.clamp(1, MAX_TURN_CAP);
        // A game ends one of two ways, and only then: a winner, or the turn
        // cap with none.
        match (s.phase, s.winner) {
            (Phase::Over, None) if s.turns < turn_cap => {
                return bad(format!(
                    "the game is said to be over with no winner, which happens only at the turn cap \
                     ({turn_cap} turns), but it has had {}",
                    tabletop::count(s.turns.into(), "turn", "turns")
                ));
            }
            (Phase::Turn | Phase::Buy { .. } | Phase::Prison { .. }, Some(w)) => {
                return bad(format!(
                    "player {w} is said to have won, but the game is not over"
                ));
            }
            _ => {}
        }
        match s.phase {
            Phase::Buy { station, price } => {
                let ok = matches!(card, Some(CardKind::Station { number, price: p, .. }) if number == station && p == price)
                    && s.owners[station_index(station)].is_none();
                if !ok {
                    return bad(format!(
                        "a purchase of station {station} is pending, but player {} is not on it or it is owned",
                        s.current
                    ));
                }
            }
            Phase::Prison { fee } => {
                if !matches!(card, Some(CardKind::Prison { fee: f }) if f == fee) {
                    return bad(format!(
                        "a prison choice is pending, but player {} is not on a prison card with fee {fee}",
                        s.current
                    ));
                }
            }
            Phase::Over => {
                if let Some(w) = s.winner
                    && s.players
                        .get(usize::from(w).wrapping_sub(1))
                        .map(|p| p.cell)
                        != Some(LAST)
                {
                    return bad(format!(
                        "player {w} is said to have won but is not on cell 99"
                    ));
                }
            }
            Phase::Turn => {}
        }
        Ok(Self {
            grid: Arc::new(s.grid),
            seats: s.seats,
            players: s.players,
            count: s.count,
            owners: s.owners,
            current: s.current - 1,
            phase: s.phase,
            extra_roll: s.extra_roll,
            turns: s.turns,
            moves: s.moves,
            turn_cap,
            winner: s.winner,
            chances: super::ChancesCache::default(),
        })
    }
}

impl Game {
    /// The game as a position's JSON.
    pub fn to_position(&self) -> String {
        serde_json::to_string_pretty(&Position::from(self)).unwrap_or_default()
    }

    /// A game set from a position's JSON (see [`Game::to_position`]).
    ///
    /// # Errors
    /// A [`GameError::Position`] when the text is not a position or does
    /// not hold together (a token off the grid, a pending choice that does
    /// not match the grid…).
    pub fn from_position(text: &str) -> Result<Self, GameError> {
        let position: Position =
            serde_json::from_str(text).map_err(|e| GameError::Position(e.to_string()))?;
        Game::try_from(position)
    }
}
