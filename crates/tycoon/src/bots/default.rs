//! The default bot: a simple, fast player that weighs its choices.
//!
//! Terms:
//! - **time to go**: the own turns a player still needs to reach cell 99:
//!   its [`Outlook::moves_left`] (half as much again for the recharge turns
//!   between moves), plus the turns it must lose, a little for poison and
//!   for an empty wallet.
//! - **chance**: how likely each player is to win, from the times to go
//!   (each [`Tuning::race_turns`] turns behind the best make a player about
//!   e times less likely: a softmax).
//! - **setback**: what an attack costs its victim, in moves: a lost move 1
//!   (a lost recharge turn costs the coins instead), a poisoned move the
//!   grid's poison cost from where the victim stands, and for fire and
//!   lightning the **wallet setback**: the moves it will have to pass with
//!   an empty wallet over its next 4 turns, plus its **coin risk** (the
//!   bills ahead it may be unable to pay, [`Outlook::bill_risk`], and a
//!   general risk of a thin wallet).
//! - **felt**: a setback counts less with each further move (a player set
//!   far back is out of the running already), so lightning that empties
//!   three thin wallets beats fire that ruins one.
//! - **emergency**: an opponent whose next move wins with
//!   [`Tuning::emergency_rolls`] faces or more. Stopping that move (ice;
//!   fire or lightning that empties its wallet) is worth its **denial**,
//!   `r · −ln(1 − faces/6)`: everyone else's chances grow that much.
//! - **value** of an attack: the felt setbacks it deals, each weighted by
//!   the victim's chance, plus any denial, less what keeping the attack is
//!   worth (**hold**: ice is kept for an emergency, and so is the last
//!   attack). The best attack is launched when its value beats what
//!   skipping the recharge costs the bot (its own felt wallet setback,
//!   weighted by its chance of *not* winning); otherwise it recharges. An
//!   empty wallet always recharges, unless there is an emergency.
//! - **held turn**: with one attack left and no emergency, the bot
//!   recharges unless an opponent is the clear favourite (leads everyone,
//!   the bot too, by [`Tuning::favourite_lead`] turns), and then weighs
//!   only that favourite.
//! - **reserve**: the coins the bot keeps after buying a station: a floor,
//!   plus the largest bill (card 1, prison) on the next 12 cells, plus what
//!   fire will still burn. It buys only groups someone else can still land
//!   on, and always pays its way out of prison when it can.

use super::Bot;
use super::outlook::{BillRows, CellOutlook, Outlook};
use crate::game::{
    Attack, Decision, FIRE_COINS, FIRE_TURNS, Game, LIGHTNING_COINS, MAX_ATTACKS, Move,
    POISON_TURNS, Player, RECHARGE_EVERY, RECHARGE_PER_PIP,
};
use crate::objects::STATION_NUMBERS;

/// The default bot's weights. [`DefaultBot`] plays [`Tuning::DEFAULT`];
/// [`TunedBot`] plays any others (for experiments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Moves an empty wallet is expected to cost later, at 0 coins.
    pub risk_turns: f32,
    /// Coins at which the general risk of a thin wallet has fallen to 0.
    pub risk_coins: f32,
    /// Own turns behind the best that make a player about e times less
    /// likely to win.
    pub race_turns: f32,
    /// What keeping ice for an emergency is worth, in weighted moves.
    pub hold_ice: f32,
    /// What keeping the last attack for an emergency is worth.
    pub hold_last: f32,
    /// Own turns an opponent must lead everyone else by (in time to go) for
    /// the bot to weigh its last attack without an emergency.
    pub favourite_lead: f32,
    /// Faces (of 6) that win an opponent's next move and make an emergency.
    pub emergency_rolls: u8,
    /// Coins always kept after buying a station.
    pub reserve_floor: i64,
}

impl Tuning {
    /// The weights the default bot plays with.
    pub const DEFAULT: Self = Self {
        risk_turns: 1.5,
        risk_coins: 80.0,
        race_turns: 5.0,
        hold_ice: 0.15,
        hold_last: 0.3,
        favourite_lead: 3.0,
        emergency_rolls: 2,
        reserve_floor: 20,
    };
}

impl Default for Tuning {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The sensible default bot: [`Tuning::DEFAULT`].
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultBot;

impl Bot for DefaultBot {
    fn choose(&self, game: &Game) -> Move {
        choose(game, &DEFAULT_WEIGHTS)
    }
}

/// The default bot's strategy with other weights.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TunedBot(pub Tuning);

impl Bot for TunedBot {
    fn choose(&self, game: &Game) -> Move {
        choose(game, &Weights::new(self.0))
    }
}

/// A [`Tuning`] with the figures derived from it, worked out once (for the
/// default bot, at compile time: divisions cost, decisions are many).
struct Weights {
    t: Tuning,
    /// 1 / `risk_coins`.
    per_risk_coin: f32,
    /// The smallest wallet with no general risk.
    risk_free: i64,
    /// `race_turns` in moves (a move takes 1.5 turns).
    race_moves: f32,
    /// 1 / `race_turns`.
    per_race_turn: f32,
    /// 1 / (4 `race_moves`).
    per_four_race_moves: f32,
}

impl Weights {
    const fn new(t: Tuning) -> Self {
        let risk_coins = if t.risk_coins > 1.0 {
            t.risk_coins
        } else {
            1.0
        };
        let race_turns = if t.race_turns > 0.01 {
            t.race_turns
        } else {
            0.01
        };
        Self {
            t,
            per_risk_coin: 1.0 / risk_coins,
            risk_free: risk_coins as i64 + 1,
            race_moves: race_turns / 1.5,
            per_race_turn: 1.0 / race_turns,
            per_four_race_moves: 1.5 / (4.0 * race_turns),
        }
    }
}

const DEFAULT_WEIGHTS: Weights = Weights::new(Tuning::DEFAULT);

fn choose(game: &Game, weights: &Weights) -> Move {
    let tuning = &weights.t;
    let Some(decision) = game.pending() else {
        return Move::Roll;
    };
    match decision {
        Decision::Roll { .. } => Move::Roll,
        Decision::PayOrStay { .. } => Move::Pay,
        Decision::BuyOrPass {
            player,
            station,
            price,
        } => {
            if should_buy(game, player, station, price, tuning) {
                Move::Buy
            } else {
                Move::Pass
            }
        }
        Decision::RechargeOrAttack { player } => recharge_or_attack(game, player, weights),
    }
}

/// Coins kept after buying a station.
pub fn reserve(game: &Game, seat: u8, tuning: &Tuning) -> i64 {
    let Some(me) = game.player(seat) else {
        return tuning.reserve_floor;
    };
    let outlook = Outlook::of(game.grid());
    tuning.reserve_floor
        + i64::from(outlook.bill_ahead(me.cell))
        + i64::from(FIRE_COINS) * i64::from(me.fire_turns)
}

fn should_buy(game: &Game, seat: u8, station: u8, price: u32, tuning: &Tuning) -> bool {
    let Some(me) = game.player(seat) else {
        return false;
    };
    // A group nobody else can land on any more earns nothing.
    let last = Outlook::of(game.grid())
        .last_station_cell(station)
        .unwrap_or(0);
    let someone_behind = (1..=game.count())
        .filter(|&s| s != seat)
        .filter_map(|s| game.player(s))
        .any(|p| p.cell < last);
    someone_behind && me.coins - i64::from(price) >= reserve(game, seat, tuning)
}

/// Turns of a player's future that the wallet reckoning plays out (fire
/// burns for 3; one more sees the recharge after it).
const HORIZON: u32 = 4;

/// Coins an average recharge adds (3.5 pips).
const MEAN_RECHARGE: i64 = RECHARGE_PER_PIP as i64 * 7 / 2;

/// The most coins an attack takes from one player: fire's three burns.
const MOST_TAKEN: i64 = (FIRE_COINS * FIRE_TURNS) as i64;

fn is_recharge_turn(turn: u32) -> bool {
    turn % RECHARGE_EVERY == 0
}

/// (1 + x/8)^8 for 0 ≤ x ≤ 60: its inverse is a smooth stand-in for e^(−x)
/// (within 0.033 of it everywhere, and in the same order), with three
/// multiplications rather than a library call.
fn growth(x: f32) -> f32 {
    let mut y = 1.0 + x.clamp(0.0, 60.0) * 0.125;
    y *= y;
    y *= y;
    y * y
}

/// A change to a player's wallet: coins now, more burning turns, and
/// whether its next turn's recharge is skipped (the bot attacking).
#[derive(Clone, Copy)]
struct Change {
    add: i64,
    fire: u32,
    skip_next_recharge: bool,
}

impl Change {
    const NONE: Self = Self {
        add: 0,
        fire: 0,
        skip_next_recharge: false,
    };
}

/// Move turns `p` would play with an empty wallet over its next
/// [`HORIZON`] turns, after `change`; it recharges the average roll on its
/// recharge turns.
fn missed_moves(p: &Player, change: Change) -> f32 {
    let mut coins = p.coins + change.add;
    let mut burning = p.fire_turns + change.fire;
    if coins - i64::from(FIRE_COINS) * i64::from(burning.min(HORIZON)) > 0 {
        // Recharges only add: the wallet never runs dry.
        return 0.0;
    }
    let mut lost = p.lost_turns;
    let mut poison = p.poison_turns;
    let mut missed = 0.0;
    for k in 1..=HORIZON {
        if burning > 0 {
            burning -= 1;
            coins -= i64::from(FIRE_COINS);
        }
        let poisoned = poison > 0;
        poison = poison.saturating_sub(1);
        if lost > 0 {
            lost -= 1;
        } else if is_recharge_turn(p.turns + k) {
            if !(k == 1 && change.skip_next_recharge) {
                coins += MEAN_RECHARGE - if poisoned { 10 } else { 0 };
            }
        } else if coins <= 0 {
            missed += 1.0;
        }
    }
    missed
}

/// True when `p`'s next move, on its next turn, wins with `faces` of the six
/// faces or more from where it stands (`here`, its cell's outlook): an
/// **emergency** for everyone else when `faces` is the bot's
/// [`Tuning::emergency_rolls`].
pub fn threatens_to_win(p: &Player, here: &CellOutlook, faces: u8) -> bool {
    moves_next(p) && here.winning_rolls(p.poison_turns > 0) >= faces
}

/// True when `p`'s next turn is a move it can make (not lost, not a
/// recharge turn, coins left after any fire).
fn moves_next(p: &Player) -> bool {
    let burn = if p.fire_turns > 0 {
        i64::from(FIRE_COINS)
    } else {
        0
    };
    p.lost_turns == 0 && !is_recharge_turn(p.turns + 1) && p.coins - burn > 0
}

/// The setback of ice on `p`: a move turn lost (little if its wallet is
/// empty then), or, when the turn it loses is a recharge turn, the wallet
/// setback of losing a recharge (`lost_recharge`). Halved when `p` is
/// already barred: the ice only adds a turn at the end, and another target
/// (or keeping it) is usually better.
fn ice_setback(p: &Player, lost_recharge: f32) -> f32 {
    let setback = if is_recharge_turn(p.turns + p.lost_turns + 1) {
        lost_recharge
    } else {
        let burned = i64::from(FIRE_COINS) * i64::from(p.fire_turns.min(p.lost_turns + 1));
        if p.coins - burned > 0 { 1.0 } else { 0.1 }
    };
    if p.lost_turns > 0 {
        setback * 0.5
    } else {
        setback
    }
}

/// What fire, lightning and losing a recharge would cost one player's
/// wallet (see [`Table::wallet_setback`]).
#[derive(Clone, Copy, Default)]
struct Hits {
    fire: f32,
    lightning: f32,
    lost_recharge: f32,
}

/// What the strategy looks at.
struct Table<'a> {
    game: &'a Game,
    outlook: &'a Outlook,
    w: &'a Weights,
}

impl<'a> Table<'a> {
    fn new(game: &'a Game, w: &'a Weights) -> Self {
        Self {
            game,
            outlook: Outlook::of(game.grid()),
            w,
        }
    }

    /// How much a setback of `moves` is felt in the race: the first moves
    /// in full, each further one less (a player set far back is out of the
    /// running already): `m − m²/4r` up to `2r` moves, `r` beyond, `r` the
    /// race's spread in moves. Gains (below zero) count in full.
    fn felt(&self, moves: f32) -> f32 {
        let m = moves.min(2.0 * self.w.race_moves);
        m - m * m.max(0.0) * self.w.per_four_race_moves
    }

    /// What stopping a move that wins with `faces` of 6 is worth: the
    /// others' chances grow by 1 / (1 − faces/6) (at most 36 times, for a
    /// sure win), in the race's moves: `r · −ln(1 − faces/6)`.
    fn denial(&self, faces: u8) -> f32 {
        const MINUS_LN_MISS: [f32; 7] = [
            0.0,
            0.182_32,
            0.405_47,
            std::f32::consts::LN_2,
            1.098_61,
            1.791_76,
            3.583_52,
        ];
        self.w.race_moves * MINUS_LN_MISS[usize::from(faces.min(6))]
    }

    /// The rows of the bill-risk table for player `seat` on `cell`: the
    /// fines and prisons, and the stations whose fee it would pay.
    fn bills(&self, seat: u8, cell: u32) -> BillRows<'a> {
        let charged = |n: u8| self.game.owner(n).is_some_and(|o| o != seat);
        let charged = [
            charged(STATION_NUMBERS[0]),
            charged(STATION_NUMBERS[1]),
            charged(STATION_NUMBERS[2]),
        ];
        self.outlook.bill_rows(cell, charged)
    }

    /// Moves `p` (facing the bills in `bills`) is likely to lose to its
    /// wallet after `change`: move turns with an empty wallet soon, plus its
    /// coin risk with the change and every burn to come (the bills ahead,
    /// and the general risk of a thin wallet).
    #[inline]
    fn wallet_setback(&self, p: &Player, bills: &BillRows<'_>, change: Change) -> f32 {
        let skipped = if change.skip_next_recharge {
            MEAN_RECHARGE
        } else {
            0
        };
        let coins = p.coins + change.add
            - skipped
            - i64::from(FIRE_COINS) * i64::from(p.fire_turns + change.fire);
        // (1 - x)² down to 0 at x = 1, its tangent 1 - 2x below 0 (with
        // y = 1 - x: y² less (y - 1)² once y > 1; no branch, for speed).
        let y = 1.0 - (coins as f32 * self.w.per_risk_coin).clamp(-50.0, 1.0);
        let over = (y - 1.0).max(0.0);
        let general = self.w.t.risk_turns * (y * y - over * over);
        general + bills.risk(coins) + missed_moves(p, change)
    }

    /// [`Table::wallet_setback`] of `p` as things are, and what each of
    /// fire, lightning and a lost recharge adds to it, in one go.
    fn wallet_hits(&self, p: &Player, bills: &BillRows<'_>) -> Hits {
        const CHANGES: [Change; 4] = [
            Change::NONE,
            Change {
                add: 0,
                fire: FIRE_TURNS,
                skip_next_recharge: false,
            },
            Change {
                add: -(LIGHTNING_COINS as i64),
                fire: 0,
                skip_next_recharge: false,
            },
            Change {
                add: -MEAN_RECHARGE,
                fire: 0,
                skip_next_recharge: false,
            },
        ];
        let mut out = [0f32; 4];
        for (o, change) in out.iter_mut().zip(CHANGES) {
            *o = self.wallet_setback(p, bills, change);
        }
        Hits {
            fire: out[1] - out[0],
            lightning: out[2] - out[0],
            lost_recharge: out[3] - out[0],
        }
    }

    /// True when `p`'s wallet stays clear of every risk after losing
    /// `coins` more (and its burns to come): no bill ahead can catch it, no
    /// move is missed, the general risk is 0. Then no change of up to
    /// `coins` is a setback, and the reckoning can be skipped.
    fn safe(&self, p: &Player, here: &CellOutlook, coins: i64) -> bool {
        let low = p.coins - coins - i64::from(FIRE_COINS) * i64::from(p.fire_turns);
        let due = i64::from(here.largest_due) + 20;
        low >= due.max(self.w.risk_free).max(1)
    }

    /// A player's own turns to go (see the module's terms).
    fn time_to_go(&self, p: &Player, here: &CellOutlook) -> f32 {
        let moves = here.moves_left;
        let poisoned = (p.poison_turns as f32).min(moves) * self.outlook.mean_poison_cost();
        let empty = if p.coins <= 0 { 1.5 } else { 0.0 };
        p.lost_turns as f32 + (moves + poisoned) * 1.5 + empty
    }

    /// Every player's time to go, given the outlook of the cell each is on.
    fn times(&self, here: &[&CellOutlook]) -> Vec<f32> {
        self.game
            .players()
            .iter()
            .zip(here)
            .map(|(p, c)| self.time_to_go(p, c))
            .collect()
    }

    /// Every player's chance in the race, from their times to go (see the
    /// module's terms).
    fn chances(&self, times: &[f32]) -> Vec<f32> {
        let best = times.iter().copied().fold(f32::INFINITY, f32::min);
        let per_race_turn = self.w.per_race_turn;
        // chance_i = (1 / g_i) / Σ (1 / g_k), with g = growth of the time
        // behind the best; times the product of all g, one division. Each
        // product of the others' g is taken in seat order.
        let g: Vec<f32> = times
            .iter()
            .map(|&time| growth((time - best) * per_race_turn))
            .collect();
        let mut chance: Vec<f32> = (0..g.len())
            .map(|i| {
                g.iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i)
                    .map(|(_, &gk)| gk)
                    .reduce(|a, b| a * b)
                    .unwrap_or(1.0)
            })
            .collect();
        let per_total = 1.0 / chance.iter().sum::<f32>();
        for c in &mut chance {
            *c *= per_total;
        }
        chance
    }

    /// The setback of poison on `p`: one move less per poisoned move turn
    /// (the first from where it stands, the rest on average), no more moves
    /// than it still needs; 10 coins less per poisoned recharge.
    fn poison_setback(&self, p: &Player, here: &CellOutlook) -> f32 {
        // The new poison covers its turns `start + 1 ..= start + 5` from
        // now; those it loses anyway do not count. Of the rest (a run of
        // turn numbers `first..=last`), every third is a recharge turn.
        let start = p.poison_turns;
        let first_turn = p.turns + start.max(p.lost_turns) + 1;
        let last_turn = p.turns + start + POISON_TURNS;
        let (moves, recharges) = if first_turn > last_turn {
            (0, 0)
        } else {
            let recharges = last_turn / RECHARGE_EVERY - (first_turn - 1) / RECHARGE_EVERY;
            (last_turn + 1 - first_turn - recharges, recharges)
        };
        // No more poisoned moves than it still needs (rounded up).
        let left = here.moves_left;
        let needed = left as u32 + u32::from(((left as u32) as f32) < left);
        let moves = moves.min(needed) as f32;
        if moves <= 0.0 {
            return 0.0;
        }
        let mean = self.outlook.mean_poison_cost();
        let first = if start == 0 { here.poison_cost } else { mean };
        first + (moves - 1.0) * mean + 0.02 * recharges as f32
    }
}

/// What the bot knows about every player on a recharge turn.
struct Scene<'a> {
    table: Table<'a>,
    me: &'a Player,
    me_index: usize,
    /// Attacks the bot may still launch, by [`Attack::ALL`] order.
    unused: [bool; 4],
    /// The last attack is all that is left.
    last: bool,
    here: Vec<&'a CellOutlook>,
    /// Opponents about to win (an emergency).
    urgent: Vec<bool>,
}

impl Scene<'_> {
    fn can(&self, attack: Attack) -> bool {
        match attack {
            Attack::Ice => self.unused[0],
            Attack::Fire => self.unused[1],
            Attack::Poison => self.unused[2],
            Attack::Lightning => self.unused[3],
        }
    }

    /// What keeping `attack` is worth when aiming it at a target that is
    /// (or is not) `urgent`: nothing in an emergency; the last attack is
    /// kept for one; otherwise ice is.
    fn hold(&self, attack: Attack, urgent: bool) -> f32 {
        let t = &self.table.w.t;
        if urgent {
            0.0
        } else if self.last {
            t.hold_last
        } else if attack == Attack::Ice {
            t.hold_ice
        } else {
            0.0
        }
    }
}

fn recharge_or_attack(game: &Game, seat: u8, weights: &Weights) -> Move {
    let t = &weights.t;
    let Some(me) = game.player(seat) else {
        return Move::Recharge;
    };
    if me.attacks.len() >= MAX_ATTACKS {
        return Move::Recharge;
    }
    let table = Table::new(game, weights);
    let outlook = table.outlook;
    let players = game.players();
    let unused = |a: Attack| !me.attacks.contains(&a);
    let here: Vec<&CellOutlook> = players.iter().map(|p| outlook.cell(p.cell)).collect();
    let urgent: Vec<bool> = players
        .iter()
        .zip(&here)
        .map(|(p, c)| threatens_to_win(p, c, t.emergency_rolls))
        .collect();
    let scene = Scene {
        table,
        me,
        me_index: usize::from(seat) - 1,
        unused: [
            unused(Attack::ALL[0]),
            unused(Attack::ALL[1]),
            unused(Attack::ALL[2]),
            unused(Attack::ALL[3]),
        ],
        last: me.attacks.len() + 1 == MAX_ATTACKS,
        here,
        urgent,
    };
    let emergency = scene.urgent.contains(&true);
    let burn_now = i64::from(FIRE_COINS) * i64::from(me.fire_turns.min(1));
    if !emergency && me.coins - burn_now <= 0 {
        // An empty wallet: without this recharge the bot cannot move until
        // the next one, three turns on. Only an emergency beats that.
        return Move::Recharge;
    }
    let times = scene.table.times(&scene.here);
    if scene.last && !emergency {
        // The last attack is held for an emergency. Without one, it is
        // weighed only against a clear favourite (who leads everyone else,
        // the bot too, by `favourite_lead` turns), and only on it: the
        // others' chances are lower. The many held turns stay cheap.
        let mut favourite = 0;
        for i in 1..times.len() {
            favourite = if times[i] < times[favourite] {
                i
            } else {
                favourite
            };
        }
        let mut runner_up = f32::INFINITY;
        for (i, &time) in times.iter().enumerate() {
            runner_up = runner_up.min(if i == favourite { f32::INFINITY } else { time });
        }
        if favourite == scene.me_index || runner_up - times[favourite] < t.favourite_lead {
            return Move::Recharge;
        }
        return weigh(&scene, &times, Some(favourite));
    }
    weigh(&scene, &times, None)
}

/// The best of recharging and every attack the bot may launch (on `only`
/// that opponent, if given), by value (see the module's terms).
fn weigh(scene: &Scene<'_>, times: &[f32], only: Option<usize>) -> Move {
    let table = &scene.table;
    let players = table.game.players();
    let me_index = scene.me_index;
    let can = |a: Attack| scene.can(a);
    let chance = table.chances(times);
    let mut best_move = Move::Recharge;
    let mut best_value = 0.0f32;
    let mut consider = |value: f32, attack: Attack, target: Option<u8>| {
        if value > best_value {
            best_value = value;
            best_move = Move::Attack { attack, target };
        }
    };
    // Whose wallets to reckon with: only fire, lightning and ice on a
    // recharge turn touch them; not a wallet that stays clear of every risk
    // after the largest loss; and while the last attack is held, only the
    // wallets of opponents about to win (fire and lightning are not worth
    // the hold otherwise).
    let mut reckon = vec![false; players.len()];
    for (i, p) in players.iter().enumerate() {
        let ice_on_recharge = can(Attack::Ice) && is_recharge_turn(p.turns + p.lost_turns + 1);
        reckon[i] = i != me_index
            && (can(Attack::Fire) || can(Attack::Lightning) || ice_on_recharge)
            && (!scene.last || scene.urgent[i])
            && !table.safe(p, scene.here[i], MOST_TAKEN.max(MEAN_RECHARGE));
    }
    // Lightning takes 20 coins from each; fire 60 from one. With one wallet
    // or none to hurt, fire on it does at least as much: lightning is only
    // weighed when two or more can be hurt (or fire is spent).
    let weigh_lightning = can(Attack::Lightning)
        && (!can(Attack::Fire) || reckon.iter().filter(|&&r| r).count() >= 2);
    let mut lightning = 0.0;
    for (i, p) in players.iter().enumerate() {
        if i == me_index || only.is_some_and(|o| o != i) {
            continue;
        }
        let them = i as u8 + 1;
        let w = chance[i];
        let urgent = scene.urgent[i];
        // An opponent about to win: what stopping its next move is worth
        // (ice does; so does fire or lightning that empties its wallet).
        let poisoned = p.poison_turns > 0;
        let (denial, burning) = if urgent {
            let faces = scene.here[i].winning_rolls(poisoned);
            (table.denial(faces), p.fire_turns > 0)
        } else {
            (0.0, false)
        };
        let hits = if reckon[i] {
            table.wallet_hits(p, &table.bills(them, p.cell))
        } else {
            Hits::default()
        };
        if can(Attack::Ice) {
            let v = if urgent {
                denial
            } else {
                w * table.felt(ice_setback(p, hits.lost_recharge)) - scene.hold(Attack::Ice, false)
            };
            consider(v, Attack::Ice, Some(them));
        }
        if can(Attack::Poison) {
            let mut v = w * table.felt(table.poison_setback(p, scene.here[i]));
            if urgent && !poisoned {
                // The winning move counts one less: fewer faces win.
                let after = scene.here[i].winning_rolls(true);
                v = v.max(denial - table.denial(after));
            }
            consider(
                v - scene.hold(Attack::Poison, urgent),
                Attack::Poison,
                Some(them),
            );
        }
        if can(Attack::Fire) {
            let burn = hits.fire;
            let stops = urgent && !burning && p.coins <= i64::from(FIRE_COINS);
            let v = w * table.felt(burn) + if stops { denial } else { 0.0 };
            consider(
                v - scene.hold(Attack::Fire, urgent),
                Attack::Fire,
                Some(them),
            );
        }
        if weigh_lightning {
            let struck = hits.lightning;
            let burn = if burning { i64::from(FIRE_COINS) } else { 0 };
            let stops = urgent && p.coins - burn <= i64::from(LIGHTNING_COINS);
            lightning += w * table.felt(struck) + if stops { denial } else { 0.0 };
        }
    }
    if weigh_lightning {
        let v = lightning - scene.hold(Attack::Lightning, false);
        consider(v, Attack::Lightning, None);
    }
    let me = scene.me;
    if best_value <= 0.0 || table.safe(me, scene.here[me_index], MEAN_RECHARGE) {
        return best_move;
    }
    // What skipping the recharge costs the bot, the same whichever attack:
    // it decides whether the best attack beats recharging.
    let bills = table.bills(me_index as u8 + 1, me.cell);
    let recharged = table.wallet_setback(me, &bills, Change::NONE);
    let skip = Change {
        skip_next_recharge: true,
        ..Change::NONE
    };
    let skipped = table.wallet_setback(me, &bills, skip);
    let my_cost = (1.0 - chance[me_index]) * table.felt((skipped - recharged).max(0.0));
    if best_value > my_cost {
        best_move
    } else {
        Move::Recharge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_stands_in_for_the_exponential() {
        for i in 0..=600 {
            let x = i as f32 / 10.0;
            let e = (-x).exp();
            assert!((1.0 / growth(x) - e).abs() < 0.033, "{x}");
            assert!(x >= 60.0 || growth(x + 0.1) > growth(x));
        }
        assert_eq!(growth(-3.0), 1.0);
    }

    #[test]
    fn felt_setbacks_and_denials_by_hand() {
        let game = Game::new(
            std::sync::Arc::new(crate::Grid::empty()),
            [crate::Seat::Bot; crate::game::SEATS],
        );
        let table = Table::new(&game, &DEFAULT_WEIGHTS);
        // race_turns 5 = 10/3 moves: felt(m) = m − 0.075 m², flat from 20/3.
        let r = 10.0 / 3.0;
        assert!((table.felt(1.0) - (1.0 - 1.0 / (4.0 * r))).abs() < 1e-5);
        assert!((table.felt(2.0 * r) - r).abs() < 1e-5);
        assert_eq!(table.felt(9.0), table.felt(2.0 * r));
        assert_eq!(table.felt(-0.5), -0.5);
        // Each further move counts less.
        assert!(table.felt(2.0) - table.felt(1.0) < table.felt(1.0));
        // Denial: r · −ln(1 − faces/6), a sure win counted as 35 in 36.
        for faces in 0..=5u8 {
            let want = r * -(1.0 - f32::from(faces) / 6.0).ln();
            assert!((table.denial(faces) - want).abs() < 1e-4, "{faces}");
        }
        assert!((table.denial(6) - r * 36f32.ln()).abs() < 1e-4);
    }

    #[test]
    fn the_wallet_reckoning_by_hand() {
        let p = |coins: i64, turns: u32, fire_turns: u32| Player {
            cell: 10,
            coins,
            turns,
            attacks: Vec::new(),
            lost_turns: 0,
            fire_turns,
            poison_turns: 0,
        };
        // 20 coins, next turn a move (its 5th), then a recharge (6th):
        // fire burns 20 on each of turns 5, 6, 7: it passes turns 5 and 7
        // (0, then 20 - 20 + 35 - 20 = -5) and turn 8 too.
        let fire = Change {
            add: 0,
            fire: FIRE_TURNS,
            skip_next_recharge: false,
        };
        assert_eq!(missed_moves(&p(20, 4, 0), fire), 3.0);
        assert_eq!(missed_moves(&p(20, 4, 0), Change::NONE), 0.0);
        // Lightning takes 20: it passes turn 5 only.
        let struck = Change {
            add: -20,
            fire: 0,
            skip_next_recharge: false,
        };
        assert_eq!(missed_moves(&p(20, 4, 0), struck), 1.0);
        // The bot itself at 0 coins on its recharge turn (3rd): recharging
        // lets it move on turns 4 and 5; attacking instead does not.
        let skip = Change {
            skip_next_recharge: true,
            ..Change::NONE
        };
        assert_eq!(missed_moves(&p(0, 2, 0), skip), 2.0);
        assert_eq!(missed_moves(&p(0, 2, 0), Change::NONE), 0.0);
    }
}
