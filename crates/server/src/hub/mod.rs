//! The live matches: kept in memory while played, stored move by move,
//! told to everyone watching, moved on by bots.
//!
//! Terms:
//! - **slot** ([`Slot`]): one live match — its table, its seats and tokens,
//!   a lock that puts its moves in one line, and a channel that tells every
//!   connected page of each change.
//! - **load**: a match not in memory is read from the store and replayed
//!   from its record; the store, not the memory, is what counts. Memory
//!   holds at most [`Hub::new`]'s capacity of idle matches: past it, the
//!   longest idle are dropped, down to 7/8 of it at once.
//! - **commit before telling**: a move is applied, appended to the store in
//!   its own transaction, and only then answered and told to watchers. If
//!   the store refuses it (another server moved first, the disk is full),
//!   the slot is read again from the store and the move is refused: what a
//!   client was told is always what the store holds. Once a move is taken
//!   (its token and move number checked), it is played, stored, told and
//!   followed by the bots even if its sender hangs up.
//! - **broken slot**: one that no longer matches the store and could not
//!   be read again; it is dropped at once, so that its watchers' streams
//!   end (their pages reconnect) and the next request reads it afresh.
//! - **change** ([`Change`]): what watchers are sent after each change: the
//!   moves played and the spectator's view, as one JSON text made once.
//! - **bot runner** ([`bots`]): when a bot is to move, one task per match
//!   works out its move off the async workers and plays it as a move like
//!   any other, until a person must answer or the match is over.
//! - **notice** ([`follow`]): another server's move or seat claim, read from
//!   the store so that this server's watchers see it too.
//! - **whole view** ([`view`]): the game's view with the match's seats,
//!   as a player or a watcher is sent it.

mod bots;
mod chances;
mod follow;
pub mod lobby;
mod rematch;
mod seating;
mod view;

use crate::http::error::ApiError;
use crate::http::metrics::Metrics;
use crate::random;
use crate::store::{Db, DbError, NewMatch, NewMove, SeatRow, TokenRow, UNFINISHED_KEPT};
use axum::http::StatusCode;
use games::GameJson;
use games::protocol::MatchView;
use games::{AnyMatch, MoveInput, Played};
use serde::Serialize;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use tabletop::Code;
use tabletop::play::SeatKind;
use tokio::sync::{Semaphore, broadcast};
use view::{change, compact, tell, viewer_of, whole};

/// How many changes a slow watcher may fall behind before it skips to the
/// newest.
const CHANGE_BUFFER: usize = 64;

/// How a person's move is played ([`Hub::play`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// Once.
    Once,
    /// Again and again while it is one of the token's seats' turn and the
    /// move is legal (Chutes' "play to the end"), at most [`MAX_REPEAT`]
    /// times.
    Repeat,
    /// Once, a move a bot chose for the person's seat (Baffle's Bot move):
    /// the record and the play say so.
    ChosenByBot,
}

/// Which view a move's answer carries ([`Hub::play`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The whole view, as `GET /api/matches/{id}` gives it.
    Full,
    /// The compact view: what a move may change, and the log's lines of
    /// the moves just played (`view::compact`).
    Compact,
}

/// The most moves one request with `repeat` plays.
pub const MAX_REPEAT: usize = 20_000;

/// How a seat is filled when a match is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatPlan {
    /// A person at the maker's screen.
    Here,
    /// A person who will come with the invite.
    Open,
    /// Anyone who takes it from the lobby.
    Anyone,
    /// A bot, at its level.
    Bot(tabletop::BotLevel),
}

impl SeatPlan {
    /// The match layer's seat.
    pub fn kind(self) -> SeatKind {
        match self {
            Self::Here | Self::Open | Self::Anyone => SeatKind::Person,
            Self::Bot(level) => SeatKind::Bot { level },
        }
    }

    /// The plan for a registry's default seat: a person at the maker's
    /// screen, or the bot.
    pub fn from_kind(kind: SeatKind) -> Self {
        match kind {
            SeatKind::Person => Self::Here,
            SeatKind::Bot { level } => Self::Bot(level),
        }
    }
}

impl std::str::FromStr for SeatPlan {
    type Err = String;
    /// `here` (or `person`, `human`), `open` (by invite), `anyone` (from
    /// the lobby), or a bot: `bot`, `easy`, `normal`, `hard`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "here" | "person" | "human" => Ok(Self::Here),
            "open" => Ok(Self::Open),
            "anyone" => Ok(Self::Anyone),
            other => match other.parse::<SeatKind>() {
                Ok(SeatKind::Bot { level }) => Ok(Self::Bot(level)),
                _ => Err(format!(
                    "'{s}' is not a seat: say here (a person at this screen), open (someone with the invite), anyone (someone from the lobby), or a bot: easy, normal or hard"
                )),
            },
        }
    }
}

/// A match just made: its id, the maker's token and each open seat's
/// invite (the only time the secrets are told).
#[derive(Debug, Clone, Serialize)]
pub struct Made {
    /// The match's id.
    pub id: String,
    /// The host token: moves for the `here` seats, invites again.
    pub token: String,
    /// Each open seat and its invite secret.
    pub invites: Vec<Invite>,
}

/// An open seat's invite.
#[derive(Debug, Clone, Serialize)]
pub struct Invite {
    /// The seat.
    pub seat: u8,
    /// The secret.
    pub invite: String,
}

/// What watchers are sent after a change.
#[derive(Debug)]
pub struct Change {
    /// The match's moves after the change.
    pub moves: usize,
    /// `{"played": [...], "view": {...}}`, made once for every watcher.
    pub json: String,
}

/// One live match.
pub struct Slot {
    id: String,
    state: Arc<tokio::sync::Mutex<Live>>,
    changes: broadcast::Sender<Arc<Change>>,
    bots_running: AtomicBool,
    /// A task works the position's chances out ([`chances`]).
    chances_running: AtomicBool,
    /// The position (its move number plus one; 0: none) whose view was
    /// last asked for: a runner goes on to it even with no one watching.
    chances_asked: AtomicUsize,
    touched_ms: AtomicI64,
}

impl Slot {
    /// The match's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Changes from now on.
    pub fn watch(&self) -> broadcast::Receiver<Arc<Change>> {
        self.changes.subscribe()
    }
}

/// A live match's state, behind its slot's lock.
pub struct Live {
    /// The match.
    pub table: Box<dyn AnyMatch>,
    /// Its line for the lobby and the pages' lists.
    title: String,
    seats: Vec<SeatRow>,
    tokens: Vec<TokenRow>,
    updated_ms: i64,
    /// The id of its rematch, once made.
    rematch: Option<String>,
    /// Whether the host has been given the rematch's invites (for the
    /// seats nobody had taken): a rematch asked for first by another
    /// player gives them to the host's own later ask.
    rematch_invites_told: bool,
    /// True once a person has moved or taken a seat: until then it is kept
    /// only [`crate::store::Bounds::unplayed_kept`] (`unplayed_kept`).
    played: bool,
    unplayed_kept: std::time::Duration,
    /// Set when the slot no longer matches the store and could not be read
    /// again: whoever finds it so must load the match afresh.
    broken: bool,
}

impl Live {
    /// How long after its last change an unfinished match is kept: 30
    /// days once played, [`crate::store::Bounds::unplayed_kept`] before.
    fn kept(&self) -> std::time::Duration {
        if self.played {
            UNFINISHED_KEPT
        } else {
            self.unplayed_kept
        }
    }

    /// Takes the seats and tokens as the store holds them, and the names
    /// their players chose (checked before they were stored).
    fn seat(&mut self, seats: Vec<SeatRow>, tokens: Vec<TokenRow>) {
        for row in &seats {
            if let Some(name) = &row.name
                && let Err(e) = self.table.set_name(row.seat, Some(name))
            {
                tracing::warn!(seat = row.seat, error = %e, "a stored name is refused");
            }
        }
        self.seats = seats;
        self.tokens = tokens;
    }
}

/// A move taken by [`Hub::play`]: who moves, and what.
struct Taken {
    /// The first seat the token holds (the seat refused when none of its
    /// seats is to move).
    first: u8,
    holder: Holder,
    mv: MoveInput,
    /// The move number the sender saw.
    after: usize,
    roll: Option<u32>,
    how: Play,
    answer: Answer,
}

/// Who is asking: the seats their token holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Holder {
    /// The seats, as bits (seat 1 is bit 0).
    pub seats: u32,
    /// True for the token the match was made with.
    pub host: bool,
}

impl Holder {
    fn holds(self, seat: u8) -> bool {
        (1..=32).contains(&seat) && self.seats & (1 << (seat - 1)) != 0
    }

    fn first(self) -> Option<u8> {
        (self.seats != 0).then(|| self.seats.trailing_zeros() as u8 + 1)
    }
}

/// Every live match, and the store behind them.
pub struct Hub {
    db: Arc<Db>,
    live: Mutex<HashMap<String, Arc<Slot>>>,
    capacity: usize,
    thinking: Semaphore,
    /// Where bots think: threads of lower priority than moves
    /// ([`crate::work::Pool`]), one per bot that may think at once.
    thinkers: crate::work::Pool,
    /// How many bots may think at once.
    thinker_count: usize,
    stopping: tokio::sync::watch::Sender<bool>,
    /// What is counted as it happens ([`crate::http::metrics`]).
    metrics: Arc<Metrics>,
    /// The games its matches may be of.
    games: games::Registry,
    /// The lobby, followed live.
    lobby: lobby::Feed,
    /// The id of each match a move here ended ([`Hub::finished`]).
    finished: broadcast::Sender<String>,
}

impl Hub {
    /// The games its matches may be of.
    pub fn games(&self) -> &games::Registry {
        &self.games
    }

    /// A hub over `db` for matches of `games`, keeping at most `capacity`
    /// idle matches in memory; at most `thinkers` bots think at once.
    pub fn new(db: Arc<Db>, games: games::Registry, capacity: usize, thinkers: usize) -> Arc<Self> {
        let stopping = tokio::sync::watch::channel(false).0;
        let hub = Arc::new(Self {
            games,
            lobby: lobby::Feed::new(Arc::clone(&db), stopping.subscribe()),
            db,
            live: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
            thinking: Semaphore::new(thinkers.max(1)),
            thinkers: crate::work::Pool::new("parlor-bots", thinkers.max(1)),
            thinker_count: thinkers.max(1),
            stopping,
            metrics: Arc::default(),
            finished: broadcast::channel(256).0,
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            // Subscribed now, not when the task first runs: no notice is
            // missed in between.
            let notices = hub.db.notices();
            tokio::spawn(Self::follow_notices(Arc::downgrade(&hub), notices));
            tokio::spawn(Self::expire_old(Arc::downgrade(&hub)));
            if hub.db.is_shared() {
                tokio::spawn(Self::sweep_watched(Arc::downgrade(&hub)));
            }
        }
        hub
    }

    /// The lobby's live feed.
    pub fn lobby_feed(&self) -> &lobby::Feed {
        &self.lobby
    }

    /// The ids of the matches that moves played on this server end, from
    /// now on (a classroom notes its games' ends by them).
    pub fn finished(&self) -> broadcast::Receiver<String> {
        self.finished.subscribe()
    }

    /// The store.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The server's metrics ([`crate::http::metrics`]).
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Times `op` of the store in the metrics.
    async fn timed<T>(
        &self,
        op: &'static str,
        work: impl std::future::Future<Output = Result<T, DbError>>,
    ) -> Result<T, DbError> {
        let started = std::time::Instant::now();
        let answer = work.await;
        self.metrics
            .store_answered(op, started.elapsed(), answer.is_ok());
        if let Err(e) = &answer
            && !matches!(e, DbError::Stale { .. } | DbError::NoMatch)
        {
            tracing::warn!(op, error = %e, "store error");
        }
        answer
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Makes a match of `table` with these seat plans, stores it, and sets
    /// its bots going.
    ///
    /// # Errors
    /// 503 when no secret can be drawn; the store's refusal.
    pub async fn create(
        self: &Arc<Self>,
        table: Box<dyn AnyMatch>,
        plans: &[SeatPlan],
        names: &[Option<String>],
    ) -> Result<Made, ApiError> {
        self.create_for(table, plans, names, crate::store::Creator::default())
            .await
    }

    /// [`Hub::create`] for `creator`, whose unfinished matches the store
    /// bounds ([`crate::store::Bounds`]).
    ///
    /// # Errors
    /// As [`Hub::create`]; `429 match_quota` when the creator has made
    /// their most unfinished matches.
    pub async fn create_for(
        self: &Arc<Self>,
        table: Box<dyn AnyMatch>,
        plans: &[SeatPlan],
        names: &[Option<String>],
        creator: crate::store::Creator,
    ) -> Result<Made, ApiError> {
        let id = random::fresh_secret()?;
        let token = random::fresh_secret()?;
        let mut here = 0u32;
        let mut rows = Vec::new();
        let mut invites = Vec::new();
        for (i, plan) in plans.iter().enumerate() {
            let seat = i as u8 + 1;
            let name = names.get(i).cloned().flatten();
            match plan {
                SeatPlan::Here => {
                    here |= 1 << i;
                    rows.push(SeatRow {
                        seat,
                        invite: None,
                        taken: true,
                        name,
                    });
                }
                SeatPlan::Open => {
                    let invite = random::fresh_secret()?;
                    rows.push(SeatRow {
                        seat,
                        invite: Some(random::digest(&invite)),
                        taken: false,
                        name,
                    });
                    invites.push(Invite { seat, invite });
                }
                SeatPlan::Anyone => rows.push(SeatRow {
                    seat,
                    invite: None,
                    taken: false,
                    name,
                }),
                SeatPlan::Bot(_) => {}
            }
        }
        let tokens = vec![TokenRow {
            hash: random::digest(&token),
            seats: here,
            host: true,
        }];
        let now = crate::store::now_ms();
        let status = table.status();
        let title = table.title();
        self.timed(
            "create",
            self.db.create_for(
                NewMatch {
                    id: id.clone(),
                    game: table.game().to_string(),
                    header: table.header()?,
                    title: title.clone(),
                    seats: rows.clone(),
                    tokens: tokens.clone(),
                    seat_count: plans.len() as u8,
                    status: status_word(&status),
                    over: status.is_over(),
                    at_ms: now,
                },
                creator,
            ),
        )
        .await?;
        let slot = self.insert(
            id.clone(),
            Live {
                table,
                title,
                seats: rows,
                tokens,
                updated_ms: now,
                rematch: None,
                rematch_invites_told: false,
                played: false,
                unplayed_kept: self.db.bounds().unplayed_kept,
                broken: false,
            },
        );
        self.kick_bots(&slot);
        self.kick_chances_soon(&slot);
        Ok(Made { id, token, invites })
    }

    fn insert(&self, id: String, live: Live) -> Arc<Slot> {
        let (changes, _) = broadcast::channel(CHANGE_BUFFER);
        let slot = Arc::new(Slot {
            id: id.clone(),
            state: Arc::new(tokio::sync::Mutex::new(live)),
            changes,
            bots_running: AtomicBool::new(false),
            chances_running: AtomicBool::new(false),
            chances_asked: AtomicUsize::new(0),
            touched_ms: AtomicI64::new(crate::store::now_ms()),
        });
        let mut map = self.map();
        let slot = Arc::clone(map.entry(id).or_insert(slot));
        evict(&mut map, self.capacity);
        slot
    }

    /// The live match `id`, loaded from the store when not in memory.
    ///
    /// # Errors
    /// 404 `no_match` when the store has no such match; the store's
    /// failure; 500 `bad_record` when its record no longer replays.
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.map().get(id).cloned() {
            slot.touched_ms
                .store(crate::store::now_ms(), Ordering::Relaxed);
            return Ok(slot);
        }
        if !random::is_secret(id) {
            return Err(no_match(id));
        }
        let live = self.read(id).await?;
        let slot = self.insert(id.to_string(), live);
        self.kick_bots(&slot);
        self.kick_chances_soon(&slot);
        Ok(slot)
    }

    /// Reads match `id` from the store and replays it.
    async fn read(&self, id: &str) -> Result<Live, ApiError> {
        let stored = self
            .timed("load", self.db.load(id))
            .await?
            .ok_or_else(|| no_match(id))?;
        let entries: Vec<String> = stored.moves.into_iter().map(|m| m.entry).collect();
        let table = self
            .games
            .find(&stored.game)
            .map_err(|e| e.message)
            .and_then(|info| info.load(&stored.header, &entries))
            .map_err(|why| {
            tracing::error!(match_id = %id, why = %why, "a stored match does not replay");
            ApiError::coded(Code::BadRecord,
                "this game's record no longer replays on this server (the server's log has the details)",
            )
        })?;
        let mut live = Live {
            table,
            title: stored.title,
            seats: Vec::new(),
            tokens: Vec::new(),
            updated_ms: stored.updated_ms,
            rematch: stored.rematch,
            rematch_invites_told: false,
            played: stored.played,
            unplayed_kept: self.db.bounds().unplayed_kept,
            broken: false,
        };
        live.seat(stored.seats, stored.tokens);
        Ok(live)
    }

    /// Locks a live slot, loading the match afresh if the slot broke.
    async fn lock(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(Arc<Slot>, tokio::sync::OwnedMutexGuard<Live>), ApiError> {
        for _ in 0..3 {
            let slot = self.slot(id).await?;
            let guard = lock_owned(&slot).await;
            if !guard.broken {
                return Ok((slot, guard));
            }
            self.forget(&slot);
        }
        Err(ApiError::coded(
            Code::StoreUnavailable,
            "the game could not be read from the store; try again in a moment",
        ))
    }

    /// Drops `slot` from memory (unless another slot took its place).
    fn forget(&self, slot: &Slot) {
        let mut map = self.map();
        if map
            .get(&slot.id)
            .is_some_and(|s| std::ptr::eq(Arc::as_ptr(s), slot))
        {
            map.remove(&slot.id);
        }
    }

    /// Marks `live` as no longer matching the store, and drops its slot
    /// ([`Hub::forget`]): whoever holds it finds it broken and loads the
    /// match afresh; its watchers' streams end once nobody holds it.
    fn break_slot(&self, slot: &Slot, live: &mut Live) {
        live.broken = true;
        self.forget(slot);
    }

    /// What `token`'s holder (or a spectator, with none) sees of match `id`.
    ///
    /// # Errors
    /// 404 for no such match; 403 `bad_token` for a token of another match.
    pub async fn view(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<MatchView, ApiError> {
        let (slot, mut live) = self.lock(id).await?;
        let holder = self.holder(id, &mut live, token).await?;
        // Asked for: its slow figures are worked out for the next look.
        self.kick_chances_asked(&slot, &live);
        whole(id, &live, holder)
    }

    /// What every viewer may see of the setup of match `id`.
    ///
    /// # Errors
    /// 404 for no such match.
    pub async fn public_setup(self: &Arc<Self>, id: &str) -> Result<GameJson, ApiError> {
        let (_slot, live) = self.lock(id).await?;
        Ok(live.table.public_setup()?)
    }

    /// Runs `f` on match `id`'s table (for a game's extras: a hint, a
    /// picture, the record).
    ///
    /// # Errors
    /// 404 for no such match.
    pub async fn with_table<R>(
        self: &Arc<Self>,
        id: &str,
        f: impl FnOnce(&dyn AnyMatch) -> R,
    ) -> Result<R, ApiError> {
        let (_slot, live) = self.lock(id).await?;
        Ok(f(live.table.as_ref()))
    }

    /// Runs `f` on match `id`'s table as `token`'s holder sees it (the seat
    /// to move when it holds it, else its first seat; a spectator with no
    /// token): for a game's extras that show a seat's own secrets (a Baffle
    /// racer's hint).
    ///
    /// # Errors
    /// 404 for no such match; 403 `bad_token` for a token of another match.
    pub async fn with_table_as<R>(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        f: impl FnOnce(&dyn AnyMatch, tabletop::play::Viewer) -> R,
    ) -> Result<R, ApiError> {
        let (_slot, mut live) = self.lock(id).await?;
        let holder = self.holder(id, &mut live, token).await?;
        let viewer = viewer_of(&live, holder);
        Ok(f(live.table.as_ref(), viewer))
    }

    /// Plays a person's move in match `id` for the seat to move, which
    /// `token` must hold, if the match has exactly `after` moves. With
    /// [`Play::Repeat`], plays the same move again and again while one of the
    /// token's seats is to move and the move is legal (Chutes' "play to the
    /// end"), at most [`MAX_REPEAT`] times.
    ///
    /// # Errors
    /// 401 `no_token`, 403 `bad_token` / `not_your_seat`, 409
    /// `stale_move` / `not_your_turn` / `game_over`, the game's refusal, or
    /// the store's failure (then nothing more was played). A refusal after
    /// the first move of a repeat ends the repeat without an error. The
    /// view answered is the one `answer` asks for.
    // The request's parts, each a plain value the route read.
    #[allow(clippy::too_many_arguments)]
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        after: usize,
        mv: &MoveInput,
        roll: Option<u32>,
        how: Play,
        answer: Answer,
    ) -> Result<(Vec<Played>, MatchView), ApiError> {
        if token.is_none() {
            return Err(ApiError::coded(
                Code::NoToken,
                "only a player moves: send the seat token this game gave you (Authorization: Bearer TOKEN)",
            ));
        }
        let (slot, mut live) = self.lock(id).await?;
        if after > live.table.moves() {
            // The sender has seen moves this server has not (another
            // server stored them; their notice is not here yet).
            self.catch_up_for(&slot, &mut live).await?;
        }
        let holder = self.holder(id, &mut live, token).await?;
        let Some(first) = holder.first() else {
            return Err(ApiError::coded(
                Code::NotYourSeat,
                "this token holds no seat: you are watching this game",
            ));
        };
        // The move is taken: from here it runs to its end, so that a sender
        // who hangs up (a closed tab, a server told to stop) cannot leave it
        // played but not told, or its bots not set going. Most moves end in
        // one step (SQLite's append ran on this thread): done here. One that
        // must wait (for the store's thread, for PostgreSQL) goes on in a
        // task of its own, where a hang-up cannot stop it.
        let taken = Taken {
            first,
            holder,
            mv: mv.clone(),
            after,
            roll,
            how,
            answer,
        };
        let mut playing = Box::pin(Arc::clone(self).play_taken(slot, live, taken));
        let first_step = std::future::poll_fn(|cx| Poll::Ready(playing.as_mut().poll(cx))).await;
        if let Poll::Ready(done) = first_step {
            return done;
        }
        tokio::spawn(playing).await.map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the move could not be played (the server's log has the details)",
            )
        })?
    }

    /// Plays a move taken by [`Hub::play`] on its locked slot.
    async fn play_taken(
        self: Arc<Self>,
        slot: Arc<Slot>,
        mut live: tokio::sync::OwnedMutexGuard<Live>,
        taken: Taken,
    ) -> Result<(Vec<Played>, MatchView), ApiError> {
        let Taken {
            first,
            holder,
            mv,
            after,
            roll,
            how,
            answer,
        } = taken;
        let mut played = Vec::new();
        loop {
            let seat = match live.table.to_move() {
                Some(seat) if holder.holds(seat) => seat,
                _ if played.is_empty() => first,
                _ => break,
            };
            // The move number the sender saw is checked by the match
            // layer, for the first move; a repeat plays on from there.
            let seen = played.is_empty().then_some(after);
            let tried = match how {
                Play::ChosenByBot => live.table.play_chosen_by_bot(seat, &mv, seen),
                Play::Once | Play::Repeat => live.table.play(seat, &mv, seen, roll),
            };
            let one = match tried {
                Ok(one) => one,
                Err(e) if played.is_empty() => return Err(e.into()),
                Err(_) => break,
            };
            let stored = self.commit(&slot, &mut live, &one).await;
            match stored {
                Ok(()) => played.push(one),
                Err(e) if played.is_empty() => return Err(e),
                Err(_) => break,
            }
            if how != Play::Repeat || played.len() >= MAX_REPEAT {
                break;
            }
        }
        let view = match answer {
            Answer::Full => whole(&slot.id, &live, holder)?,
            Answer::Compact => compact(&live, holder, after)?,
        };
        // Most moves hand the turn to a person: the bots' runner is only
        // set going when a bot is to move (a runner per move, which then
        // found nothing to do, cost a task and a wake-up of another thread).
        let bot_next = live.table.bot_turn().is_some();
        if !bot_next {
            self.kick_chances(&slot, &live);
        }
        drop(live);
        if bot_next {
            self.kick_bots(&slot);
        }
        Ok((played, view))
    }

    /// Stores a move just played on `live` and tells the watchers; when the
    /// store refuses it, reads the match again and returns the refusal.
    async fn commit(&self, slot: &Slot, live: &mut Live, played: &Played) -> Result<(), ApiError> {
        let status = live.table.status();
        // A bot's seat's move; a move a bot chose for a person (Baffle's Bot
        // move) is the person's, and plays the match as theirs.
        let bot_seat = live
            .table
            .seats()
            .get(usize::from(played.seat).wrapping_sub(1))
            .is_some_and(|kind| kind.is_bot());
        let now = crate::store::now_ms();
        let stored = self
            .timed(
                "append",
                self.db.append(NewMove {
                    match_id: slot.id.clone(),
                    number: played.number as u32,
                    entry: played.entry.clone(),
                    seat: played.seat,
                    bot: bot_seat,
                    status: status_word(&status),
                    over: status.is_over(),
                    at_ms: now,
                }),
            )
            .await;
        match stored {
            Ok(touched) => {
                self.metrics.move_stored(live.table.game());
                live.updated_ms = touched;
                live.played |= !bot_seat;
                tell(slot, live, std::slice::from_ref(played));
                if status.is_over() {
                    let _ = self.finished.send(slot.id.clone());
                }
                Ok(())
            }
            Err(e) => {
                self.reread(slot, live).await;
                Err(match e {
                    DbError::Stale { now } => ApiError::coded(
                        Code::StaleMove,
                        format!(
                            "the game has moved on: it now has {now} moves (reload to see the latest)"
                        ),
                    ),
                    e => e.into(),
                })
            }
        }
    }

    /// On a store shared with other servers, reads into `live` what the
    /// store holds that it lacks: a request knows of a change this server
    /// has not heard of yet (its notice is on the way). Nothing on a store
    /// of its own, which no other server changes.
    ///
    /// # Errors
    /// 503 `store_unavailable` when the match cannot be read.
    async fn catch_up_for(&self, slot: &Slot, live: &mut Live) -> Result<(), ApiError> {
        if !self.db.is_shared() {
            return Ok(());
        }
        self.read_lacking(slot, live, Some(u32::MAX)).await;
        if live.broken {
            return Err(ApiError::coded(
                Code::StoreUnavailable,
                "the game could not be read from the store; try again in a moment",
            ));
        }
        Ok(())
    }

    /// Reads `live` again from the store (after a refused append, or a
    /// notice); marks it broken when the store cannot be read.
    async fn reread(&self, slot: &Slot, live: &mut Live) {
        match self.read(&slot.id).await {
            Ok(fresh) => {
                *live = fresh;
                tell(slot, live, &[]);
            }
            Err(_) => self.break_slot(slot, live),
        }
    }

    /// Match `id`'s current state as a watcher first sees it, and its
    /// changes from then on.
    ///
    /// # Errors
    /// 404 for no such match.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(Arc<Change>, broadcast::Receiver<Arc<Change>>), ApiError> {
        let (slot, live) = self.lock(id).await?;
        let changes = slot.watch();
        // Watched now: what its position lacks is worked out and told.
        self.kick_chances(&slot, &live);
        let first = Arc::new(change(&slot.id, &live, &[])?);
        Ok((first, changes))
    }

    /// Ends every watcher's stream: the server is stopping (their browsers
    /// reconnect to it, or another server, by themselves).
    pub fn stop_watchers(&self) {
        self.stopping.send_replace(true);
    }

    /// Completes when the server stops ([`Hub::stop_watchers`]).
    pub fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut stopping = self.stopping.subscribe();
        async move {
            let _ = stopping.wait_for(|&stop| stop).await;
        }
    }

    /// How many matches are in memory.
    pub fn live_count(&self) -> usize {
        self.map().len()
    }

    /// How many live streams follow the matches in memory.
    pub fn followers(&self) -> usize {
        self.map()
            .values()
            .map(|s| s.changes.receiver_count())
            .sum()
    }

    /// How many bots are working out a move now.
    pub fn bots_thinking(&self) -> usize {
        self.thinker_count
            .saturating_sub(self.thinking.available_permits())
    }
}

async fn lock_owned(slot: &Arc<Slot>) -> tokio::sync::OwnedMutexGuard<Live> {
    Arc::clone(&slot.state).lock_owned().await
}

/// Drops idle matches (nobody watching, no bot thinking, nobody holding
/// them), the longest idle first, once there are more than `capacity`:
/// down to 7/8 of it ([`EVICT_SHARE`]), so that the scan of every slot is paid once
/// per many new matches, not on each (it runs under the map's lock).
fn evict(map: &mut HashMap<String, Arc<Slot>>, capacity: usize) {
    if map.len() <= capacity {
        return;
    }
    let keep = capacity - capacity / EVICT_SHARE;
    let mut idle: Vec<(i64, &String)> = map
        .iter()
        .filter(|(_, s)| {
            Arc::strong_count(s) == 1
                && s.changes.receiver_count() == 0
                && !s.bots_running.load(Ordering::SeqCst)
        })
        .map(|(id, s)| (s.touched_ms.load(Ordering::Relaxed), id))
        .collect();
    let excess = map.len().saturating_sub(keep).min(idle.len());
    if excess == 0 {
        return;
    }
    if excess < idle.len() {
        idle.select_nth_unstable(excess - 1);
    }
    let dropped: Vec<String> = idle[..excess].iter().map(|(_, id)| (*id).clone()).collect();
    for id in dropped {
        map.remove(&id);
    }
}

/// [`evict`] drops one `EVICT_SHARE`th of the capacity at once: a full hub
/// scans its slots once per capacity/8 new matches.
const EVICT_SHARE: usize = 8;

fn find_token(tokens: &[TokenRow], hash: &str) -> Option<Holder> {
    tokens.iter().find(|t| t.hash == hash).map(|t| Holder {
        seats: t.seats,
        host: t.host,
    })
}

fn no_match(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::coded(
        Code::NoMatch,
        format!(
            "no game '{shown}': it never was, or it expired (unfinished games are kept {} days after their last move); start a new one",
            UNFINISHED_KEPT.as_secs() / 86_400
        ),
    )
}

fn seat_taken(seat: u8) -> ApiError {
    ApiError::coded(
        Code::SeatTaken,
        format!("seat {seat} is already taken: you can watch this game"),
    )
}

/// `playing`, `won` (alone or shared), `given_up` or `stalled`.
fn status_word(status: &tabletop::play::Status) -> String {
    use tabletop::play::Status;
    match status {
        Status::Playing => "playing",
        Status::Won { .. } | Status::Shared { .. } => "won",
        Status::GivenUp => "given_up",
        Status::Stalled { .. } => "stalled",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Durability, Location};
    use std::time::Duration;

    async fn sqlite_hub(dir: &std::path::Path, capacity: usize) -> Arc<Hub> {
        let db = Db::open(&Location::default_for(dir), Durability::Process, None)
            .await
            .unwrap();
        Hub::new(Arc::new(db), games::Registry::standard(), capacity, 1)
    }

    async fn new_baffle(hub: &Arc<Hub>) -> String {
        let table = games::Registry::standard()
            .find(<baffle::Race as tabletop::play::Playable>::NAME)
            .unwrap()
            .prepare(serde_json::json!({"size": 4, "mirrors": 1}))
            .unwrap()
            .start(
                None,
                vec![SeatKind::Person],
                tabletop::play::DiceMode::Seeded { seed: 1 },
                1,
            )
            .unwrap();
        hub.create(table, &[SeatPlan::Here], &[None])
            .await
            .unwrap()
            .id
    }

    #[tokio::test]
    async fn a_full_hub_drops_the_longest_idle_matches_down_to_seven_eighths_and_keeps_held_ones() {
        let dir = tempfile::tempdir().unwrap();
        let hub = sqlite_hub(dir.path(), 16).await;
        let mut ids = Vec::new();
        for _ in 0..16 {
            ids.push(new_baffle(&hub).await);
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert_eq!(
            hub.live_count(),
            16,
            "up to the capacity, nothing is dropped"
        );
        // The oldest match is held (a request is using it) and the second
        // oldest is watched: neither is idle.
        let held = hub.slot(&ids[0]).await.unwrap();
        let watched = hub.slot(&ids[1]).await.unwrap().watch();
        let newest = new_baffle(&hub).await;
        assert_eq!(hub.live_count(), 14, "17 matches, down to 7/8 of 16");
        let live = |id: &String| hub.map().contains_key(id);
        for kept in [&ids[0], &ids[1], &newest] {
            assert!(live(kept), "{kept} was dropped");
        }
        // The three longest idle of the others went, oldest first.
        for gone in &ids[2..5] {
            assert!(!live(gone), "{gone} was kept");
        }
        assert!(live(&ids[5]));
        // A dropped match is read again from the store when asked for.
        assert_eq!(hub.slot(&ids[2]).await.unwrap().id(), ids[2]);
        drop((held, watched));
    }

    #[tokio::test]
    async fn a_hub_its_server_drops_is_freed_with_its_tasks() {
        let dir = tempfile::tempdir().unwrap();
        let hub = sqlite_hub(dir.path(), 10).await;
        let gone = Arc::downgrade(&hub);
        // Its tasks (notices, expiry) start, and the expiry runs once.
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(hub);
        let mut waited = Duration::ZERO;
        while gone.upgrade().is_some() && waited < Duration::from_secs(5) {
            tokio::time::sleep(Duration::from_millis(10)).await;
            waited += Duration::from_millis(10);
        }
        assert!(
            gone.upgrade().is_none(),
            "the hub's own tasks keep it alive after its server dropped it"
        );
    }
}
