//! Play mode: two to four players on a grid (four by default, as in the
//! original assignment), as a state machine over moves.
//!
//! Terms:
//! - **player**: seats 1 to 4 (or to 2 or 3 in a smaller game) in turn order, each with a token on a cell, a
//!   wallet of coins and a turn counter ([`Player`]).
//! - **turn**: one go of one player. Every turn counts: extra turns (card 3)
//!   and lost turns (card 4, prison, ice, empty wallet) too. A player's 3rd,
//!   6th, 9th… turn is a **recharge turn**.
//! - **decision** ([`Decision`]): what the game waits for next, from whom:
//!   take the turn (roll), recharge or attack, buy or pass, pay or stay.
//! - **move** ([`Move`]): the answer; [`Game::apply`] checks it, plays it and
//!   returns its events. A refused move changes nothing.
//! - **dialogue** ([`Dialogue`]): a decision asked in the assignment's words
//!   (y/n, then the attack, then the target), for text front ends.
//! - **chain**: the cards and jumps that follow one another in a turn; it
//!   stops when it returns to a cell already reached in that turn.
//! - **turn cap**: the game stops with no winner after this many turns in
//!   all (some grids can never be won).
//!
//! The rules chosen where the rules of record (`docs/rules.md` §3) are
//! silent are in `docs/tycoon.md`.

pub mod dialogue;
mod events;
mod moves;
#[cfg(feature = "positions")]
mod position;
pub mod words;

pub use dialogue::{Dialogue, Question};
pub use events::{Cause, Event, LostReason};
pub use moves::{Attack, MOVE_FORMS, Move, MoveParseError, SEAT_FORMS, Seat};

use crate::cells::{FIRST, LAST};
use crate::grid::Grid;
use crate::objects::{CardKind, STATION_NUMBERS};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::play::Chances;
use tabletop::{DiceError, DiceSource};

/// Players in a game by default: the original assignment's four, and the
/// most a game may have.
pub const SEATS: usize = 4;
/// The fewest players a game may have.
pub const MIN_SEATS: usize = 2;
/// Faces of the die.
pub const FACES: u8 = 6;
/// Coins in each wallet at the start.
pub const START_COINS: i64 = 100;
/// Every this many turns, a player's turn is a recharge turn.
pub const RECHARGE_EVERY: u32 = 3;
/// Coins per pip on a recharge.
pub const RECHARGE_PER_PIP: u32 = 10;
/// Turns lost by staying in prison.
pub const PRISON_TURNS: u32 = 3;
/// Attacks a player may launch in a game.
pub const MAX_ATTACKS: usize = 2;
/// Coins fire burns on each burning turn.
pub const FIRE_COINS: u32 = 20;
/// Burning turns per fire attack.
pub const FIRE_TURNS: u32 = 3;
/// Poisoned turns per poison attack.
pub const POISON_TURNS: u32 = 5;
/// Coins lightning takes from every other player.
pub const LIGHTNING_COINS: u32 = 20;
/// Turns in all after which a game stops with no winner, by default.
pub const DEFAULT_TURN_CAP: u32 = 10_000;
/// The largest turn cap a game accepts.
pub const MAX_TURN_CAP: u32 = 1_000_000_000;

/// One player's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The cell the token is on.
    pub cell: u32,
    /// The wallet; may be below zero.
    pub coins: i64,
    /// Turns taken, every kind counted.
    pub turns: u32,
    /// Attacks launched, in order (at most two, all different).
    pub attacks: Vec<Attack>,
    /// Turns still to lose (card 4, prison, ice add up).
    pub lost_turns: u32,
    /// Turns still to burn (fire).
    pub fire_turns: u32,
    /// Turns still poisoned.
    pub poison_turns: u32,
}

impl Player {
    fn new() -> Self {
        Self {
            cell: FIRST,
            coins: START_COINS,
            turns: 0,
            attacks: Vec::new(),
            lost_turns: 0,
            fire_turns: 0,
            poison_turns: 0,
        }
    }

    /// True while this player may still launch an attack (fewer than two
    /// used): [`Player::attacks_left`] is not empty, without building it.
    pub fn has_attack_left(&self) -> bool {
        self.attacks.len() < MAX_ATTACKS
    }

    /// The attacks this player may still launch (none once two are used).
    pub fn attacks_left(&self) -> Vec<Attack> {
        if self.attacks.len() >= MAX_ATTACKS {
            return Vec::new();
        }
        Attack::ALL
            .into_iter()
            .filter(|a| !self.attacks.contains(a))
            .collect()
    }
}

/// What taking the turn (`roll`) will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnKind {
    /// Roll and move.
    Move,
    /// Roll and recharge (no attack is left to choose).
    Recharge,
    /// The turn is lost.
    Lost,
    /// The wallet is empty: no move.
    EmptyWallet,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// `player` takes their turn with `roll`.
    Roll {
        /// Whose turn (from 1).
        player: u8,
        /// What the turn will be.
        turn: TurnKind,
    },
    /// A recharge turn with attacks left: `recharge` or `attack …`.
    RechargeOrAttack {
        /// Whose turn.
        player: u8,
    },
    /// A station nobody owns: `buy` or `pass`.
    BuyOrPass {
        /// Who.
        player: u8,
        /// The station number.
        station: u8,
        /// Its price.
        price: u32,
    },
    /// Prison with the fee in the wallet: `pay` or `stay`.
    PayOrStay {
        /// Who.
        player: u8,
        /// The fee.
        fee: u32,
    },
}

impl Decision {
    /// Who must answer (from 1).
    pub fn player(&self) -> u8 {
        match *self {
            Self::Roll { player, .. }
            | Self::RechargeOrAttack { player }
            | Self::BuyOrPass { player, .. }
            | Self::PayOrStay { player, .. } => player,
        }
    }

    /// The question, for people.
    pub fn prompt(&self) -> String {
        match *self {
            Self::Roll { player, turn } => match turn {
                TurnKind::Move => format!("P{player}: roll"),
                TurnKind::Recharge => format!("P{player}: roll to recharge"),
                TurnKind::Lost => format!("P{player}: this turn is lost (roll to go on)"),
                TurnKind::EmptyWallet => format!("P{player}: the wallet is empty (roll to go on)"),
            },
            Self::RechargeOrAttack { player } => {
                format!("P{player}: recharge, or attack instead? (recharge | attack KIND [PLAYER])")
            }
            Self::BuyOrPass {
                player,
                station,
                price,
            } => format!("P{player}: buy station {station} for {price}? (buy | pass)"),
            Self::PayOrStay { player, fee } => {
                format!("P{player}: pay {fee} to leave prison, or stay 3 turns? (pay | stay)")
            }
        }
    }
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
enum Phase {
    /// The current player's turn has not started.
    Turn,
    /// Waiting for buy or pass.
    Buy { station: u8, price: u32 },
    /// Waiting for pay or stay.
    Prison { fee: u32 },
    /// Someone won, or the turn cap was reached.
    Over,
}

/// Why a move was refused, or a game could not be made or loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game is over.
    #[error("the game is over{}", winner.map(|w| format!(": player {w} has won")).unwrap_or_else(|| ": nobody won".into()))]
    Over {
        /// The winner, if any.
        winner: Option<u8>,
    },
    /// The move does not answer the pending decision.
    #[error("'{got}' does not answer: {expected}")]
    WrongMove {
        /// The move given.
        got: Move,
        /// What the game is waiting for.
        expected: String,
    },
    /// An attack that is not allowed.
    #[error("P{player} cannot launch that attack: {reason}")]
    Attack {
        /// The attacker.
        player: u8,
        /// Why not.
        reason: String,
    },
    /// A turn cap out of range.
    #[error("a turn cap is 1 to {MAX_TURN_CAP} turns, not {cap}")]
    TurnCap {
        /// The cap given.
        cap: u32,
    },
    /// Too few or too many players.
    #[error("a game of Tycoon has 2 to {SEATS} players, not {seats}")]
    Seats {
        /// The players asked for.
        seats: usize,
    },
    /// A position that does not hold together (only with the `positions`
    /// feature).
    #[error("not a valid position: {0}")]
    Position(String),
    /// The dice could not roll (scripted rolls ran out or were bad).
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// A game in progress or finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    grid: Arc<Grid>,
    seats: [Seat; SEATS],
    players: [Player; SEATS],
    /// Players in this game (2 to [`SEATS`]): only the first this many
    /// seats and players play.
    count: u8,
    owners: [Option<u8>; 3],
    current: u8,
    phase: Phase,
    extra_roll: bool,
    turns: u32,
    moves: u64,
    turn_cap: u32,
    winner: Option<u8>,
    /// The live chances of this position, estimated when first asked
    /// ([`Game::live_chances`]) and forgotten by the next move.
    chances: ChancesCache,
}

/// A position's estimated chances, once worked out. It is not part of
/// what a game is: every cache compares equal, and a clone shares what was
/// worked out.
#[derive(Clone, Default)]
pub(crate) struct ChancesCache(std::sync::OnceLock<Arc<Chances>>);

impl PartialEq for ChancesCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for ChancesCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "ChancesCache(worked out)"
        } else {
            "ChancesCache(not yet)"
        })
    }
}

/// Everything one seat's token and wallet look like, for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Seat number, from 1.
    pub seat: u8,
    /// Who answers for it.
    pub kind: Seat,
    /// The player's state.
    #[serde(flatten)]
    pub state: Player,
    /// Station numbers owned.
    pub stations: Vec<u8>,
    /// Attacks still available.
    pub attacks_left: Vec<Attack>,
}

/// The game as a front end shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Every player.
    pub players: Vec<PlayerView>,
    /// Owner (from 1) of each station number present on the grid.
    pub owners: Vec<StationOwner>,
    /// Whose turn it is (from 1), or none when over.
    pub current: Option<u8>,
    /// The decision awaited, or none when over.
    pub pending: Option<Decision>,
    /// The moves that answer it, as text (`roll`, `attack ice 2`, …).
    pub legal_moves: Vec<String>,
    /// Turns taken in all.
    pub turns: u32,
    /// The winner, once there is one.
    pub winner: Option<u8>,
    /// True once the game is over (won, or stopped at the turn cap).
    pub over: bool,
}

/// Who owns a station group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StationOwner {
    /// 9, 10 or 11.
    pub station: u8,
    /// Price.
    pub price: u32,
    /// Fee.
    pub fee: u32,
    /// The owner (from 1), if any.
    pub owner: Option<u8>,
}

fn station_index(number: u8) -> usize {
    usize::from(number.saturating_sub(9)).min(2)
}

impl Game {
    /// A new game on `grid`: four players on cell 1 with 100 coins each,
    /// seat 1 to play, answering for `seats`. The game holds no dice: each
    /// move that rolls is handed them ([`Game::apply`]), so a bot searching
    /// a copy of the game cannot see future rolls.
    pub fn new(grid: Arc<Grid>, seats: [Seat; SEATS]) -> Self {
        Self {
            grid,
            seats,
            players: std::array::from_fn(|_| Player::new()),
            count: SEATS as u8,
            owners: [None; 3],
            current: 0,
            phase: Phase::Turn,
            extra_roll: false,
            turns: 0,
            moves: 0,
            turn_cap: DEFAULT_TURN_CAP,
            winner: None,
            chances: ChancesCache::default(),
        }
    }

    /// A new game on `grid` for two to four players answering for `seats`
    /// (in turn order), each on cell 1 with 100 coins: the rules of the
    /// four-player game, with fewer players.
    ///
    /// # Errors
    /// [`GameError::Seats`] for fewer than 2 or more than 4 seats.
    pub fn for_seats(grid: Arc<Grid>, seats: &[Seat]) -> Result<Self, GameError> {
        if !(MIN_SEATS..=SEATS).contains(&seats.len()) {
            return Err(GameError::Seats { seats: seats.len() });
        }
        let mut all = [Seat::Human; SEATS];
        all[..seats.len()].copy_from_slice(seats);
        let mut game = Self::new(grid, all);
        game.count = seats.len() as u8;
        Ok(game)
    }

    /// Players in this game (2 to 4).
    pub fn count(&self) -> u8 {
        self.count
    }

    /// The same game with a different turn cap (1 to [`MAX_TURN_CAP`]).
    pub fn with_turn_cap(mut self, cap: u32) -> Self {
        self.turn_cap = cap.clamp(1, MAX_TURN_CAP);
        self.chances = ChancesCache::default();
        self
    }

    /// The grid.
    pub fn grid(&self) -> &Arc<Grid> {
        &self.grid
    }

    /// Who answers for each seat, seat 1 first.
    pub fn seats(&self) -> &[Seat] {
        &self.seats[..usize::from(self.count)]
    }

    /// Every player, in seat order.
    pub fn players(&self) -> &[Player] {
        &self.players[..usize::from(self.count)]
    }

    /// Player `seat` (from 1).
    pub fn player(&self, seat: u8) -> Option<&Player> {
        self.players().get(usize::from(seat).wrapping_sub(1))
    }

    /// The owner (from 1) of station `number` (9, 10, 11), if any.
    pub fn owner(&self, number: u8) -> Option<u8> {
        if STATION_NUMBERS.contains(&number) {
            self.owners[station_index(number)]
        } else {
            None
        }
    }

    /// The station numbers `seat` owns.
    pub fn stations_of(&self, seat: u8) -> Vec<u8> {
        STATION_NUMBERS
            .into_iter()
            .filter(|&n| self.owner(n) == Some(seat))
            .collect()
    }

    /// Turns taken in all, by every player.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Moves applied so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The turn cap.
    pub fn turn_cap(&self) -> u32 {
        self.turn_cap
    }

    /// The winner (from 1), once someone has stopped on 99.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }

    /// Each seat's chance to win from here, estimated by the default bot's
    /// playouts on imagined dice ([`crate::chances`]), worked out once for
    /// this position (when first asked) and exact once the game is over.
    pub fn live_chances(&self) -> Arc<Chances> {
        Arc::clone(
            self.chances
                .0
                .get_or_init(|| Arc::new(crate::chances::estimate(self))),
        )
    }

    /// This position's chances when already worked out (or exact, once
    /// the game is over), without working them out: what a view carries.
    pub fn known_chances(&self) -> Option<Arc<Chances>> {
        if self.is_over() {
            return Some(self.live_chances());
        }
        self.chances.0.get().map(Arc::clone)
    }

    /// Keeps `chances` as this position's, worked out elsewhere by
    /// [`crate::chances::estimate`] on a copy of it; a position that
    /// already has its chances keeps them.
    pub fn keep_chances(&self, chances: Chances) {
        let _ = self.chances.0.set(Arc::new(chances));
    }

    /// True once the game is over: won, or stopped at the turn cap.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whose turn it is (from 1), or `None` when the game is over.
    pub fn current(&self) -> Option<u8> {
        (!self.is_over()).then_some(self.current + 1)
    }

    fn me(&self) -> &Player {
        &self.players[usize::from(self.current)]
    }

    /// The decision the game waits for, or `None` when it is over.
    pub fn pending(&self) -> Option<Decision> {
        let player = self.current + 1;
        match self.phase {
            Phase::Over => None,
            Phase::Buy { station, price } => Some(Decision::BuyOrPass {
                player,
                station,
                price,
            }),
            Phase::Prison { fee } => Some(Decision::PayOrStay { player, fee }),
            Phase::Turn => {
                let me = self.me();
                let next = me.turns + 1;
                let turn = if me.lost_turns > 0 {
                    TurnKind::Lost
                } else if next % RECHARGE_EVERY == 0 {
                    if me.has_attack_left() {
                        return Some(Decision::RechargeOrAttack { player });
                    }
                    TurnKind::Recharge
                } else {
                    let burn = if me.fire_turns > 0 {
                        i64::from(FIRE_COINS)
                    } else {
                        0
                    };
                    if me.coins - burn <= 0 {
                        TurnKind::EmptyWallet
                    } else {
                        TurnKind::Move
                    }
                };
                Some(Decision::Roll { player, turn })
            }
        }
    }

    /// Every move that answers the pending decision (none when over).
    pub fn legal_moves(&self) -> Vec<Move> {
        match self.pending() {
            None => Vec::new(),
            Some(Decision::Roll { .. }) => vec![Move::Roll],
            Some(Decision::BuyOrPass { .. }) => vec![Move::Buy, Move::Pass],
            Some(Decision::PayOrStay { .. }) => vec![Move::Pay, Move::Stay],
            Some(Decision::RechargeOrAttack { player }) => {
                let mut moves = vec![Move::Recharge];
                for attack in self.me().attacks_left() {
                    if attack.needs_target() {
                        for target in 1..=self.count {
                            if target != player {
                                moves.push(Move::Attack {
                                    attack,
                                    target: Some(target),
                                });
                            }
                        }
                    } else {
                        moves.push(Move::Attack {
                            attack,
                            target: None,
                        });
                    }
                }
                moves
            }
        }
    }

    /// The game as a front end shows it.
    pub fn view(&self) -> View {
        View {
            players: (0..usize::from(self.count))
                .map(|i| {
                    let seat = i as u8 + 1;
                    PlayerView {
                        seat,
                        kind: self.seats[i],
                        state: self.players[i].clone(),
                        stations: self.stations_of(seat),
                        attacks_left: self.players[i].attacks_left(),
                    }
                })
                .collect(),
            owners: self
                .grid
                .stations()
                .into_iter()
                .map(|t| StationOwner {
                    station: t.number,
                    price: t.price,
                    fee: t.fee,
                    owner: self.owner(t.number),
                })
                .collect(),
            current: self.current(),
            pending: self.pending(),
            legal_moves: self.legal_moves().iter().map(ToString::to_string).collect(),
            turns: self.turns,
            winner: self.winner,
            over: self.is_over(),
        }
    }

    /// Plays `mv` for the seat whose decision is pending and returns what
    /// happened.
    ///
    /// # Errors
    /// A [`GameError`] when the game is over, the move does not answer the
    /// pending decision, the attack is not allowed, or the dice cannot roll.
    /// A refused move changes nothing.
    pub fn apply(
        &mut self,
        mv: Move,
        dice: &mut (impl DiceSource + ?Sized),
    ) -> Result<Vec<Event>, GameError> {
        let mut events = Vec::new();
        self.apply_into(mv, dice, &mut events)?;
        Ok(events)
    }

    /// Like [`Game::apply`], appending the events to `events` (which lets a
    /// simulation reuse one buffer). On error nothing is appended.
    ///
    /// # Errors
    /// As [`Game::apply`].
    pub fn apply_into(
        &mut self,
        mv: Move,
        dice: &mut (impl DiceSource + ?Sized),
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let Some(pending) = self.pending() else {
            return Err(GameError::Over {
                winner: self.winner,
            });
        };
        if self.chances.0.get().is_some() {
            self.chances = ChancesCache::default();
        }
        let player = pending.player();
        let wrong = |expected: &str| GameError::WrongMove {
            got: mv,
            expected: format!("P{player} {expected}"),
        };
        match (pending, mv) {
            (Decision::Roll { turn, .. }, Move::Roll) => {
                let roll = match turn {
                    TurnKind::Move | TurnKind::Recharge => Some(dice.roll(FACES)?),
                    TurnKind::Lost | TurnKind::EmptyWallet => None,
                };
                self.moves += 1;
                let poisoned = self.start_turn(events);
                match (turn, roll) {
                    (TurnKind::Lost, _) => {
                        let me = &mut self.players[usize::from(self.current)];
                        me.lost_turns = me.lost_turns.saturating_sub(1);
                        events.push(Event::TurnLost {
                            player,
                            left: me.lost_turns,
                        });
                    }
                    (TurnKind::EmptyWallet, _) => events.push(Event::WalletEmpty {
                        player,
                        coins: self.me().coins,
                    }),
                    (TurnKind::Recharge, Some(roll)) => self.recharge(roll, poisoned, events),
                    (TurnKind::Move, Some(roll)) => self.take_move(roll, poisoned, events),
                    _ => {}
                }
                self.end_turn(events);
            }
            (Decision::Roll { turn, .. }, _) => {
                return Err(wrong(match turn {
                    TurnKind::Move => "must roll",
                    TurnKind::Recharge => "must roll to recharge (no attacks are left)",
                    TurnKind::Lost => "loses this turn: roll to go on",
                    TurnKind::EmptyWallet => "has an empty wallet: roll to go on",
                }));
            }
            (Decision::RechargeOrAttack { .. }, Move::Recharge) => {
                let roll = dice.roll(FACES)?;
                self.moves += 1;
                let poisoned = self.start_turn(events);
                self.recharge(roll, poisoned, events);
                self.end_turn(events);
            }
            (Decision::RechargeOrAttack { .. }, Move::Attack { attack, target }) => {
                self.check_attack(player, attack, target)?;
                self.moves += 1;
                self.start_turn(events);
                self.attack(player, attack, target, events);
                self.end_turn(events);
            }
            (Decision::RechargeOrAttack { .. }, _) => {
                return Err(wrong(
                    "is on a recharge turn: recharge, or attack KIND [PLAYER]",
                ));
            }
            (Decision::BuyOrPass { station, price, .. }, Move::Buy | Move::Pass) => {
                self.moves += 1;
                if mv == Move::Buy {
                    self.players[usize::from(self.current)].coins -= i64::from(price);
                    self.owners[station_index(station)] = Some(player);
                    events.push(Event::Bought {
                        player,
                        station,
                        price,
                    });
                } else {
                    events.push(Event::Passed { player, station });
                }
                self.phase = Phase::Turn;
                self.end_turn(events);
            }
            (Decision::BuyOrPass { .. }, _) => return Err(wrong("must choose: buy or pass")),
            (Decision::PayOrStay { fee, .. }, Move::Pay | Move::Stay) => {
                self.moves += 1;
                if mv == Move::Pay {
                    self.players[usize::from(self.current)].coins -= i64::from(fee);
                    events.push(Event::Paid {
                        player,
                        coins: fee,
                        to: None,
                    });
                } else {
                    self.players[usize::from(self.current)].lost_turns = self.players
                        [usize::from(self.current)]
                    .lost_turns
                    .saturating_add(PRISON_TURNS);
                    events.push(Event::WillLoseTurns {
                        player,
                        turns: PRISON_TURNS,
                        reason: LostReason::Prison,
                    });
                }
                self.phase = Phase::Turn;
                self.end_turn(events);
            }
            (Decision::PayOrStay { .. }, _) => return Err(wrong("must choose: pay or stay")),
        }
        Ok(())
    }

    fn add_lost_turns(&mut self, index: usize, turns: u32) {
        if let Some(p) = self.players[..usize::from(self.count)].get_mut(index) {
            p.lost_turns = p.lost_turns.saturating_add(turns);
        }
    }

    fn check_attack(
        &self,
        player: u8,
        attack: Attack,
        target: Option<u8>,
    ) -> Result<(), GameError> {
        let fail = |reason: String| GameError::Attack { player, reason };
        let me = self.me();
        if me.attacks.len() >= MAX_ATTACKS {
            return Err(fail(format!(
                "both attacks ({} and {}) are used",
                me.attacks[0], me.attacks[1]
            )));
        }
        if me.attacks.contains(&attack) {
            return Err(fail(format!(
                "{attack} was used already (two attacks must differ)"
            )));
        }
        match (attack.needs_target(), target) {
            (false, Some(_)) => Err(fail(
                "lightning strikes every other player; name nobody".into(),
            )),
            (true, None) => Err(fail(format!(
                "{attack} needs a player to aim at: `attack {attack} PLAYER`"
            ))),
            (true, Some(t)) if t == player => Err(fail("a player cannot attack themselves".into())),
            (true, Some(t)) if !(1..=self.count).contains(&t) => Err(fail(format!(
                "there is no player {t} (players are 1 to {})",
                self.count
            ))),
            _ => Ok(()),
        }
    }

    /// Counts the turn, burns and ticks poison; returns whether this turn is
    /// poisoned.
    fn start_turn(&mut self, events: &mut Vec<Event>) -> bool {
        let player = self.current + 1;
        self.turns += 1;
        let me = &mut self.players[usize::from(self.current)];
        me.turns += 1;
        events.push(Event::TurnStarted {
            player,
            turn: me.turns,
            recharge: me.turns % RECHARGE_EVERY == 0,
        });
        if me.fire_turns > 0 {
            me.fire_turns -= 1;
            me.coins -= i64::from(FIRE_COINS);
            events.push(Event::Burned {
                player,
                coins: FIRE_COINS,
                left: me.fire_turns,
            });
        }
        if me.poison_turns > 0 {
            me.poison_turns -= 1;
            true
        } else {
            false
        }
    }

    fn recharge(&mut self, roll: u8, poisoned: bool, events: &mut Vec<Event>) {
        let player = self.current + 1;
        let counts = if poisoned { roll - 1 } else { roll };
        events.push(Event::Rolled {
            player,
            roll,
            counts,
        });
        let coins = RECHARGE_PER_PIP * u32::from(counts);
        self.players[usize::from(self.current)].coins += i64::from(coins);
        events.push(Event::Recharged { player, coins });
    }

    fn attack(&mut self, player: u8, attack: Attack, target: Option<u8>, events: &mut Vec<Event>) {
        self.players[usize::from(self.current)].attacks.push(attack);
        events.push(Event::Attacked {
            player,
            attack,
            target,
        });
        let t = target.map(|t| usize::from(t) - 1);
        match (attack, t) {
            (Attack::Ice, Some(t)) => {
                self.add_lost_turns(t, 1);
                events.push(Event::WillLoseTurns {
                    player: t as u8 + 1,
                    turns: 1,
                    reason: LostReason::Ice,
                });
            }
            (Attack::Fire, Some(t)) => {
                self.players[t].fire_turns = self.players[t].fire_turns.saturating_add(FIRE_TURNS);
            }
            (Attack::Poison, Some(t)) => {
                self.players[t].poison_turns =
                    self.players[t].poison_turns.saturating_add(POISON_TURNS);
            }
            (Attack::Lightning, _) => {
                let count = usize::from(self.count);
                for (i, p) in self.players[..count].iter_mut().enumerate() {
                    if i != usize::from(self.current) {
                        p.coins -= i64::from(LIGHTNING_COINS);
                    }
                }
            }
            _ => {}
        }
    }

    fn take_move(&mut self, roll: u8, poisoned: bool, events: &mut Vec<Event>) {
        let player = self.current + 1;
        let counts = if poisoned { roll - 1 } else { roll };
        events.push(Event::Rolled {
            player,
            roll,
            counts,
        });
        if counts == 0 {
            return;
        }
        let from = self.me().cell;
        let to = (from + u32::from(counts)).min(LAST);
        self.move_token(to, Cause::Dice, events);
        if self.winner.is_none() {
            self.follow_chain(u32::from(counts), events);
        }
    }

    /// Moves the current token to `to`; stopping on 99 wins.
    fn move_token(&mut self, to: u32, cause: Cause, events: &mut Vec<Event>) {
        let player = self.current + 1;
        let me = &mut self.players[usize::from(self.current)];
        let from = me.cell;
        me.cell = to;
        events.push(Event::Moved {
            player,
            from,
            to,
            cause,
        });
        self.check_win(events);
    }

    fn check_win(&mut self, events: &mut Vec<Event>) {
        if self.me().cell == LAST && self.winner.is_none() {
            let player = self.current + 1;
            self.winner = Some(player);
            self.phase = Phase::Over;
            events.push(Event::Won {
                player,
                turns: self.turns,
            });
        }
    }

    /// Takes what is on the current cell: a ladder or snake, then a card;
    /// follows cards that move the token until the chain ends or returns to
    /// a cell already reached this turn.
    fn follow_chain(&mut self, counts: u32, events: &mut Vec<Event>) {
        let player = self.current + 1;
        let mut reached: u128 = 0;
        let mut cell = self.me().cell;
        reached |= 1u128 << cell;
        loop {
            let info = self.grid.info(cell);
            if let Some(end) = info.jump {
                self.players[usize::from(self.current)].cell = end;
                if end > cell {
                    events.push(Event::Ladder {
                        player,
                        from: cell,
                        to: end,
                    });
                } else {
                    events.push(Event::Snake {
                        player,
                        from: cell,
                        to: end,
                    });
                }
                self.check_win(events);
                if self.winner.is_some() {
                    return;
                }
                cell = end;
                if reached & (1u128 << cell) != 0 {
                    events.push(Event::ChainStopped { player, cell });
                    return;
                }
                reached |= 1u128 << cell;
            }
            let Some(card) = self.grid.info(cell).card else {
                return;
            };
            events.push(Event::Card {
                player,
                cell,
                card: card.number(),
            });
            let next = match card {
                CardKind::TakeCoins { coins } => {
                    self.players[usize::from(self.current)].coins -= i64::from(coins);
                    events.push(Event::Paid {
                        player,
                        coins,
                        to: None,
                    });
                    None
                }
                CardKind::NextLadder => match self.grid.next_ladder_after(cell) {
                    Some(ladder) => Some((ladder.start, Cause::NextLadder)),
                    None => {
                        events.push(Event::NoLadderAhead { player });
                        None
                    }
                },
                CardKind::ExtraRoll => {
                    self.extra_roll = true;
                    events.push(Event::ExtraRoll { player });
                    None
                }
                CardKind::LoseTurn => {
                    self.players[usize::from(self.current)].lost_turns = self.players
                        [usize::from(self.current)]
                    .lost_turns
                    .saturating_add(1);
                    events.push(Event::WillLoseTurns {
                        player,
                        turns: 1,
                        reason: LostReason::Card,
                    });
                    None
                }
                CardKind::GoBack => Some((cell.saturating_sub(counts).max(FIRST), Cause::GoBack)),
                CardKind::GoTo { destination } => Some((destination, Cause::GoTo)),
                CardKind::Restart => {
                    self.restart_ahead(cell, events);
                    None
                }
                CardKind::Prison { fee } => {
                    if self.me().coins >= i64::from(fee) {
                        self.phase = Phase::Prison { fee };
                        events.push(Event::PrisonChoice { player, fee });
                    } else {
                        self.players[usize::from(self.current)].lost_turns = self.players
                            [usize::from(self.current)]
                        .lost_turns
                        .saturating_add(PRISON_TURNS);
                        events.push(Event::CannotPayPrison { player, fee });
                        events.push(Event::WillLoseTurns {
                            player,
                            turns: PRISON_TURNS,
                            reason: LostReason::Prison,
                        });
                    }
                    None
                }
                CardKind::Station { number, price, fee } => {
                    self.station(number, price, fee, events);
                    None
                }
                CardKind::GiveStation => {
                    self.give_station(events);
                    None
                }
            };
            let Some((to, cause)) = next else {
                return;
            };
            self.move_token(to, cause, events);
            if self.winner.is_some() {
                return;
            }
            cell = to;
            if reached & (1u128 << cell) != 0 {
                events.push(Event::ChainStopped { player, cell });
                return;
            }
            reached |= 1u128 << cell;
        }
    }

    fn restart_ahead(&mut self, cell: u32, events: &mut Vec<Event>) {
        let player = self.current + 1;
        let target = (0..usize::from(self.count))
            .filter(|&i| self.players[i].cell > cell)
            .min_by_key(|&i| (self.players[i].cell, i));
        if let Some(t) = target {
            let from = self.players[t].cell;
            self.players[t].cell = FIRST;
            events.push(Event::SentBack {
                player,
                target: Some(t as u8 + 1),
            });
            events.push(Event::Moved {
                player: t as u8 + 1,
                from,
                to: FIRST,
                cause: Cause::Restart,
            });
        } else {
            events.push(Event::SentBack {
                player,
                target: None,
            });
        }
    }

    fn station(&mut self, number: u8, price: u32, fee: u32, events: &mut Vec<Event>) {
        let player = self.current + 1;
        match self.owners[station_index(number)] {
            None => {
                if self.me().coins >= i64::from(price) {
                    self.phase = Phase::Buy {
                        station: number,
                        price,
                    };
                    events.push(Event::ForSale {
                        player,
                        station: number,
                        price,
                    });
                } else {
                    events.push(Event::CannotAfford {
                        player,
                        station: number,
                        price,
                    });
                }
            }
            Some(owner) if owner == player => events.push(Event::OwnStation {
                player,
                station: number,
            }),
            Some(owner) => {
                self.players[usize::from(self.current)].coins -= i64::from(fee);
                self.players[usize::from(owner) - 1].coins += i64::from(fee);
                events.push(Event::Paid {
                    player,
                    coins: fee,
                    to: Some(owner),
                });
            }
        }
    }

    fn give_station(&mut self, events: &mut Vec<Event>) {
        let player = self.current + 1;
        let dearest = self
            .stations_of(player)
            .into_iter()
            .filter_map(|n| self.grid.station_terms(n))
            .max_by_key(|t| (t.price, t.fee, std::cmp::Reverse(t.number)));
        let poorest = (0..usize::from(self.count))
            .min_by_key(|&i| (self.players[i].coins, i))
            .map_or(player, |i| i as u8 + 1);
        match dearest {
            Some(t) if poorest != player => {
                self.owners[station_index(t.number)] = Some(poorest);
                events.push(Event::StationGiven {
                    player,
                    station: Some(t.number),
                    to: Some(poorest),
                });
            }
            _ => events.push(Event::StationGiven {
                player,
                station: None,
                to: None,
            }),
        }
    }

    /// Ends the turn unless a decision is pending: the same player again
    /// after card 3, else the next seat; stops the game at the turn cap.
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        if self.phase != Phase::Turn {
            return;
        }
        if self.extra_roll {
            self.extra_roll = false;
        } else {
            self.current = (self.current + 1) % self.count;
        }
        if self.turns >= self.turn_cap {
            self.phase = Phase::Over;
            events.push(Event::Stalled { turns: self.turns });
        }
    }
}

/// Where a token on `from` ends up after a move of `counts` on `grid`: the
/// move, then the jumps and cards that follow (the same code as play; card 3's
/// extra roll and any choice are not followed).
pub fn landing(grid: &Arc<Grid>, from: u32, counts: u8) -> u32 {
    let mut game = Game::new(grid.clone(), [Seat::Bot; SEATS]);
    game.players[0].cell = from.clamp(FIRST, LAST);
    let mut events = Vec::new();
    game.take_move(counts.max(1), false, &mut events);
    game.players[0].cell
}

/// True when some sequence of rolls takes a token from cell 1 to cell 99 on
/// `grid` (coins, attacks and other players aside). When it is false no
/// game on the grid can be won: every game stops at the turn cap.
pub fn can_reach_last(grid: &Arc<Grid>) -> bool {
    let mut seen = [false; LAST as usize + 1];
    let mut todo = vec![FIRST];
    seen[FIRST as usize] = true;
    while let Some(cell) = todo.pop() {
        for counts in 1..=FACES {
            let to = landing(grid, cell, counts);
            if to == LAST {
                return true;
            }
            if let Some(slot) = seen.get_mut(to as usize)
                && !*slot
            {
                *slot = true;
                todo.push(to);
            }
        }
    }
    false
}
