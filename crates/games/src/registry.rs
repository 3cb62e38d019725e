//! The registry: every game of this Parlor, declared once.
//!
//! Terms:
//! - **game info** ([`GameInfo`]): a game's name (in records, URLs and the
//!   API), its title for people, the seats it allows, who sits when the
//!   maker names nobody, its default setup request and its setup's bounds;
//!   and how to make, load and replay its matches.
//! - **prepared** ([`Prepared`]): a setup request read and checked as far
//!   as it can be alone; its [`Need`], if any, is looked up by the front
//!   end, which then starts the match with what it found ([`Supplied`]).

use crate::Refusal;
use crate::any_match::{Adapter, AnyMatch, TypedMatch};
use serde::Serialize;
use serde_json::Value;
use tabletop::Code;
use tabletop::play::{DiceMode, Match, Record, SeatKind};

/// What a setup request names that a front end keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// A Chutes board uploaded to this server, by its id.
    Board(String),
    /// A Tycoon design being edited, by its id.
    Design(String),
    /// A saved Tycoon grid, by its name.
    SavedGrid(String),
}

/// What a front end found for a [`Need`].
#[derive(Debug, Clone)]
pub enum Supplied {
    /// A Chutes board.
    Board(chutes::Board),
    /// A Tycoon grid.
    Grid(tycoon::Grid),
}

/// One game of this Parlor.
#[derive(Serialize)]
pub struct GameInfo {
    /// Its name in records, URLs and the API: `chutes`.
    pub name: &'static str,
    /// Its name for people: `Chutes & Ladders`.
    pub title: &'static str,
    /// The fewest seats a match has.
    pub min_seats: u8,
    /// The most seats a match has.
    pub max_seats: u8,
    /// Whether the game's bot plays differently at each level (false: a
    /// front end offers one bot, not levels).
    pub bot_levels: bool,
    /// Whether the game offers a player help on their turn, a hint and a
    /// bot's move for them ([`crate::Adapter::HELPS`], [`crate::help`]).
    #[serde(skip)]
    pub helps: bool,
    /// The game's own page module's source ([`Adapter::PAGE_MODULE`]);
    /// the API says only whether there is one (`page_module: true`), served
    /// at `/static/games/GAME.js`.
    #[serde(serialize_with = "is_some")]
    pub page_module: Option<&'static str>,
    /// Who sits when the maker names nobody: `person` or a bot's level.
    #[serde(serialize_with = "seat_words")]
    pub default_seats: fn() -> Vec<SeatKind>,
    /// The setup request with every default filled in.
    #[serde(serialize_with = "call")]
    pub default_setup: fn() -> Value,
    /// The bounds of the setup's numbers.
    #[serde(serialize_with = "call")]
    pub setup_limits: fn() -> Value,
    #[serde(skip)]
    prepare: fn(Value) -> Result<Prepared, Refusal>,
    #[serde(skip)]
    load: LoadFn,
    #[serde(skip)]
    from_record: fn(Value) -> Result<Box<dyn AnyMatch>, Refusal>,
}

/// Loads a stored match from its header and entries.
type LoadFn = fn(&str, &[String]) -> Result<Box<dyn AnyMatch>, String>;

fn call<S: serde::Serializer>(f: &fn() -> Value, s: S) -> Result<S::Ok, S::Error> {
    f().serialize(s)
}

fn is_some<S: serde::Serializer>(module: &Option<&'static str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(module.is_some())
}

fn seat_words<S: serde::Serializer>(f: &fn() -> Vec<SeatKind>, s: S) -> Result<S::Ok, S::Error> {
    let words: Vec<String> = f()
        .into_iter()
        .map(|kind| match kind {
            SeatKind::Person => "person".to_string(),
            SeatKind::Bot { level } => level.to_string(),
        })
        .collect();
    words.serialize(s)
}

impl std::fmt::Debug for GameInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameInfo")
            .field("name", &self.name)
            .finish()
    }
}

impl GameInfo {
    /// The game's entry, from its adapter: what [`GAMES`] holds for each
    /// game, and what a [`Registry`] may add (a game of a test's own).
    pub const fn of<G: Adapter>() -> Self
    where
        G::Setup: Send + Sync,
        G::Move: Send + Sync,
        G::Event: Send + Sync,
    {
        Self {
            name: G::NAME,
            title: G::TITLE,
            min_seats: G::MIN_SEATS,
            max_seats: G::MAX_SEATS,
            bot_levels: G::BOT_LEVELS,
            helps: G::HELPS,
            page_module: G::PAGE_MODULE,
            default_seats: G::default_seats,
            default_setup: default_setup::<G>,
            setup_limits: G::setup_limits,
            prepare: prepare::<G>,
            load: load::<G>,
            from_record: from_record::<G>,
        }
    }

    /// Reads and checks a setup request (`{}` for every default).
    ///
    /// # Errors
    /// `bad_json` for a request that does not read; `bad_setup` for one
    /// that names two things at once.
    pub fn prepare(&self, setup: Value) -> Result<Prepared, Refusal> {
        (self.prepare)(setup)
    }

    /// A stored match, from its header (the record without its moves) and
    /// its entries, replayed.
    ///
    /// # Errors
    /// Why it does not replay, in words.
    pub fn load(&self, header: &str, entries: &[String]) -> Result<Box<dyn AnyMatch>, String> {
        (self.load)(header, entries)
    }
}

/// Every game of this Parlor, in the order a page lists them.
pub static GAMES: [GameInfo; 3] = [
    GameInfo::of::<chutes::contract::Table>(),
    GameInfo::of::<baffle::Race>(),
    GameInfo::of::<tycoon::Game>(),
];

/// The games a front end offers: this Parlor's ([`Registry::standard`]),
/// or those and more (a game a test declares for itself).
#[derive(Clone, Debug)]
pub struct Registry {
    games: Vec<&'static GameInfo>,
}

impl Default for Registry {
    fn default() -> Self {
        Self::standard()
    }
}

impl Registry {
    /// Every game of [`GAMES`].
    pub fn standard() -> Self {
        Self {
            games: GAMES.iter().collect(),
        }
    }

    /// These games and `game` too.
    #[must_use]
    pub fn with(mut self, game: &'static GameInfo) -> Self {
        self.games.push(game);
        self
    }

    /// The games, in the order a page lists them.
    pub fn games(&self) -> &[&'static GameInfo] {
        &self.games
    }

    /// The games' names, for a message: `chutes, baffle or tycoon`.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.games.iter().map(|g| g.name).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// The game named `name` (any case, trimmed).
    ///
    /// # Errors
    /// `bad_request` for a name that is not a game here.
    pub fn find(&self, name: &str) -> Result<&'static GameInfo, Refusal> {
        let wanted = name.trim().to_ascii_lowercase();
        self.games
            .iter()
            .copied()
            .find(|g| g.name == wanted)
            .ok_or_else(|| {
                Refusal::new(
                    Code::BadRequest,
                    format!("'{}' is not a game here: say {}", name.trim(), self.names()),
                )
            })
    }

    /// A match replayed from a whole record (a file a player saved or
    /// downloaded), of whichever of these games its `game` names.
    ///
    /// # Errors
    /// `bad_record` when it is not a record, names no game here, or does
    /// not replay.
    pub fn start_from_record(&self, record: Value) -> Result<Box<dyn AnyMatch>, Refusal> {
        start_from_record(self, record)
    }
}

impl Serialize for Registry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.games.serialize(s)
    }
}

/// A match replayed from a whole record (a file a player saved or
/// downloaded), of whichever game its `game` names.
///
/// # Errors
/// `bad_record` when it is not a record, names no game here, or does not
/// replay.
fn start_from_record(registry: &Registry, record: Value) -> Result<Box<dyn AnyMatch>, Refusal> {
    let game = record
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| Refusal::new(Code::BadRecord, "a match record names its \"game\""))?;
    let info = registry
        .find(game)
        .map_err(|e| Refusal::new(Code::BadRecord, e.message))?;
    (info.from_record)(record)
}

/// A setup request read and checked, waiting for what it needs.
pub struct Prepared {
    need: Option<Need>,
    start: StartFn,
}

type StartResult = Result<Box<dyn AnyMatch>, Refusal>;

/// Starts a prepared match: what was supplied, the seats, the dice, the
/// seed.
type StartFn =
    Box<dyn FnOnce(Option<Supplied>, Vec<SeatKind>, DiceMode, u64) -> StartResult + Send>;

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("need", &self.need)
            .finish()
    }
}

impl Prepared {
    /// What the front end must look up first, if anything.
    pub fn need(&self) -> Option<&Need> {
        self.need.as_ref()
    }

    /// Starts the match: the setup made from the request and `supplied`
    /// (what the front end found for the need), checked by the game, with
    /// these seats and dice; `seed` is the match's own (drawn by the front
    /// end, secret while the match is on).
    ///
    /// # Errors
    /// `bad_setup` or the game's own code for a setup it refuses;
    /// `bad_seats` for a seat count it does not allow.
    pub fn start(
        self,
        supplied: Option<Supplied>,
        seats: Vec<SeatKind>,
        dice: DiceMode,
        seed: u64,
    ) -> Result<Box<dyn AnyMatch>, Refusal> {
        (self.start)(supplied, seats, dice, seed)
    }
}

fn default_setup<G: Adapter>() -> Value
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    serde_json::to_value(G::Request::default()).unwrap_or(Value::Null)
}

fn prepare<G: Adapter>(setup: Value) -> Result<Prepared, Refusal>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    let setup = match setup {
        Value::Null => Value::Object(Default::default()),
        other => other,
    };
    if !setup.is_object() {
        return Err(Refusal::new(
            Code::BadJson,
            format!(
                "\"setup\" is a JSON object (see docs/api.md for {}'s)",
                G::TITLE
            ),
        ));
    }
    let request: G::Request = serde_json::from_value(setup).map_err(|e| {
        Refusal::new(
            Code::BadJson,
            format!("bad \"setup\" for {}: {e}", G::TITLE),
        )
    })?;
    let need = G::need(&request)?;
    Ok(Prepared {
        need,
        start: Box::new(move |supplied, seats, dice, seed| {
            check_seats::<G>(seats.len())?;
            let setup = G::setup(request, supplied, seed)?;
            let m = Match::<G>::start(setup, seats, dice)?;
            Ok(Box::new(TypedMatch::new(m)) as Box<dyn AnyMatch>)
        }),
    })
}

/// `bad_seats` unless `count` is within the registry's bounds for `G`
/// (the match layer checks the library's own bounds again).
fn check_seats<G: Adapter>(count: usize) -> Result<(), Refusal>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    if (usize::from(G::MIN_SEATS)..=usize::from(G::MAX_SEATS)).contains(&count) {
        return Ok(());
    }
    let allowed = if G::MIN_SEATS == G::MAX_SEATS {
        tabletop::count(u64::from(G::MIN_SEATS), "seat", "seats")
    } else {
        format!("{} to {} players", G::MIN_SEATS, G::MAX_SEATS)
    };
    Err(Refusal::new(
        Code::BadSeats,
        format!("a {} match here has {allowed}, not {count}", G::TITLE),
    ))
}

fn load<G: Adapter>(header: &str, entries: &[String]) -> Result<Box<dyn AnyMatch>, String>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    Ok(Box::new(TypedMatch::<G>::load(header, entries)?))
}

fn from_record<G: Adapter>(record: Value) -> Result<Box<dyn AnyMatch>, Refusal>
where
    G::Setup: Send + Sync,
    G::Move: Send + Sync,
    G::Event: Send + Sync,
{
    let record: Record<G::Setup, G::Move> = serde_json::from_value(record)
        .map_err(|e| Refusal::new(Code::BadRecord, format!("the record does not read: {e}")))?;
    Ok(Box::new(TypedMatch::new(Match::<G>::replay(record)?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveInput;
    use serde_json::json;
    use tabletop::play::Viewer;

    fn seeded() -> DiceMode {
        DiceMode::Seeded { seed: 7 }
    }

    /// The registry's seat bounds lie within each library's own, for the
    /// setup every default request makes.
    fn bounds_within<G: Adapter>()
    where
        G::Setup: Send + Sync,
        G::Move: Send + Sync,
        G::Event: Send + Sync,
    {
        let setup = G::setup(G::Request::default(), None, 1).unwrap();
        let library = G::seat_range(&setup);
        assert!(library.contains(&G::MIN_SEATS), "{}", G::NAME);
        assert!(library.contains(&G::MAX_SEATS), "{}", G::NAME);
        let defaults = G::default_seats().len();
        assert!((usize::from(G::MIN_SEATS)..=usize::from(G::MAX_SEATS)).contains(&defaults));
    }

    #[test]
    fn every_game_is_listed_once_with_seats_its_library_allows() {
        let listed: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        assert_eq!(listed, ["chutes", "baffle", "tycoon"]);
        assert_eq!(Registry::standard().names(), "chutes, baffle or tycoon");
        bounds_within::<chutes::contract::Table>();
        bounds_within::<baffle::Race>();
        bounds_within::<tycoon::Game>();
    }

    #[test]
    fn a_game_is_found_by_its_name_in_any_case_and_an_unknown_one_is_named() {
        assert_eq!(
            Registry::standard().find(" Baffle ").unwrap().name,
            "baffle"
        );
        let e = Registry::standard().find("chess").unwrap_err();
        assert_eq!(e.code, "bad_request");
        assert_eq!(
            e.message,
            "'chess' is not a game here: say chutes, baffle or tycoon"
        );
    }

    #[test]
    fn setups_are_read_by_the_games_own_requests() {
        let baffle = Registry::standard().find("baffle").unwrap();
        let e = baffle.prepare(json!([1])).unwrap_err();
        assert_eq!(e.code, "bad_json");
        let e = baffle.prepare(json!({"colour": "red"})).unwrap_err();
        assert_eq!(e.code, "bad_json");
        assert!(e.message.contains("colour"), "{e}");
        let e = baffle
            .prepare(json!({"size": 2}))
            .unwrap()
            .start(None, vec![SeatKind::Person], seeded(), 1)
            .err()
            .unwrap();
        assert_eq!(e.code, "bad_setup");
        let e = Registry::standard()
            .find("chutes")
            .unwrap()
            .prepare(json!({"faces": 0}))
            .unwrap()
            .start(None, vec![SeatKind::Person], seeded(), 1)
            .err()
            .unwrap();
        assert_eq!(e.code, "bad_setup");
        let e = Registry::standard()
            .find("tycoon")
            .unwrap()
            .prepare(json!({"sample": true, "saved": "mine"}))
            .unwrap_err();
        assert_eq!(e.code, "bad_setup");
    }

    #[test]
    fn what_a_setup_names_is_asked_of_the_front_end() {
        let chutes = Registry::standard().find("chutes").unwrap();
        assert_eq!(chutes.prepare(json!({})).unwrap().need(), None);
        let upload = chutes.prepare(json!({"board": "b0a1"})).unwrap();
        assert_eq!(upload.need(), Some(&Need::Board("b0a1".into())));
        // Not supplied: no board.
        let e = upload
            .start(None, vec![SeatKind::Person], seeded(), 1)
            .err()
            .unwrap();
        assert_eq!(e.code, "no_board");
        let tycoon = Registry::standard().find("tycoon").unwrap();
        let saved = tycoon.prepare(json!({"saved": "mine"})).unwrap();
        assert_eq!(saved.need(), Some(&Need::SavedGrid("mine".into())));
        let grid = tycoon::parse_grid(tycoon::SAMPLE_GRID).unwrap();
        let m = saved
            .start(
                Some(Supplied::Grid(grid)),
                vec![SeatKind::Person; 4],
                seeded(),
                1,
            )
            .unwrap();
        assert_eq!(m.game(), "tycoon");
    }

    #[test]
    fn seat_counts_outside_the_registrys_bounds_are_refused() {
        let e = Registry::standard()
            .find("chutes")
            .unwrap()
            .prepare(json!({}))
            .unwrap()
            .start(None, vec![SeatKind::Person; 5], seeded(), 1)
            .err()
            .unwrap();
        assert_eq!(e.code, "bad_seats");
        assert_eq!(
            e.message,
            "a Chutes & Ladders match here has 1 to 4 players, not 5"
        );
        let e = Registry::standard()
            .find("tycoon")
            .unwrap()
            .prepare(json!({}))
            .unwrap()
            .start(None, vec![SeatKind::Person], seeded(), 1)
            .err()
            .unwrap();
        assert_eq!(
            e.message,
            "a Snakes & Ladders Tycoon match here has 2 to 4 players, not 1"
        );
    }

    /// What a client reads of an answer.
    fn as_json(answer: &impl Serialize) -> Value {
        serde_json::to_value(answer).unwrap()
    }

    #[test]
    fn the_gate_keeps_the_record_and_the_past_until_the_end() {
        let mut m = Registry::standard()
            .find("baffle")
            .unwrap()
            .prepare(json!({"fixed": true}))
            .unwrap()
            .start(None, vec![SeatKind::Person], seeded(), 1)
            .unwrap();
        m.play(1, &MoveInput::Text("shoot 3".into()), Some(0), None)
            .unwrap();
        let seen_then = as_json(&m.view(Viewer::Seat { seat: 1 }).unwrap());
        let stale = m.play(1, &MoveInput::Text("shoot 3".into()), Some(0), None);
        assert_eq!(stale.unwrap_err().code, "stale_move");
        assert_eq!(m.record_once_over().unwrap_err().code, "game_on");
        // A look back while the game is on is the view the player had
        // then, never more (no mirror, no seed).
        m.play(1, &MoveInput::Text("shoot 5".into()), Some(1), None)
            .unwrap();
        let back = m.replay_step(1, Viewer::Seat { seat: 1 }).unwrap();
        assert_eq!((back.at, back.moves), (1, 2));
        let back_view = as_json(&back.view);
        assert_eq!(back_view, seen_then);
        assert!(back_view.get("seed").is_none(), "{back_view}");
        // A past picture while on is a spectator's then: no mirror drawn.
        let then = m.picture(None, Some(1)).unwrap().to_svg();
        assert!(then.contains("class=\"shot-number\""), "the shot is drawn");
        assert!(
            then.contains("<g class=\"mirrors\"/>"),
            "no mirror is drawn"
        );
        assert!(m.picture(None, None).is_ok(), "the match as it stands");
        m.play(1, &MoveInput::Text("quit".into()), None, None)
            .unwrap();
        let record = as_json(&m.record_once_over().unwrap());
        assert_eq!(record["moves"].as_array().unwrap().len(), 3);
        let step = m.replay_step(1, Viewer::Spectator).unwrap();
        assert_eq!((step.at, step.moves), (1, 3));
        assert_eq!(
            m.replay_step(4, Viewer::Spectator).unwrap_err().code,
            "bad_step"
        );
        // The record replays to the same match, through the registry.
        let again = Registry::standard().start_from_record(record).unwrap();
        assert_eq!(again.moves(), 3);
        assert!(again.status().is_over());
        let e = Registry::standard()
            .start_from_record(json!({"game": "go"}))
            .err()
            .unwrap();
        assert_eq!(e.code, "bad_record");
    }

    /// Plays `m` to its end: its people roll, its bots choose.
    fn play_out(m: &mut dyn AnyMatch) {
        while !m.status().is_over() {
            let seat = m.to_move().unwrap();
            if m.seats()[usize::from(seat) - 1].is_bot() {
                let work = m.bot_turn().unwrap();
                let moves = work.moves;
                m.play_bot(moves, &(work.choose)()).unwrap();
            } else {
                m.play(seat, &MoveInput::Text("roll".into()), None, None)
                    .unwrap();
            }
        }
    }

    #[test]
    fn a_rematch_moves_the_first_seat_on_and_keeps_the_names() {
        let seats = vec![
            SeatKind::Person,
            SeatKind::Person,
            SeatKind::Bot {
                level: tabletop::BotLevel::Hard,
            },
        ];
        let mut m = Registry::standard()
            .find("chutes")
            .unwrap()
            .prepare(json!({}))
            .unwrap()
            .start(None, seats, seeded(), 1)
            .unwrap();
        m.set_name(1, Some("Ada")).unwrap();
        assert_eq!(m.set_name(2, Some(" ")).unwrap_err().code, "bad_name");
        assert_eq!(m.names(), ["Ada", "Player 2", "Bot"]);
        assert_eq!(
            as_json(&m.view(Viewer::Spectator).unwrap())["names"],
            json!(["Ada", "Player 2", "Bot"])
        );
        assert_eq!(m.rematch(9).err().unwrap().code, "game_on");
        assert_eq!(m.outcome(&[1]), None);
        play_out(m.as_mut());
        let winner = m.status().winner().unwrap();
        let said = m.outcome(&[winner]).unwrap();
        assert_eq!((said.words.as_str(), said.you_won), ("You win", Some(true)));
        // Every move's words name its player: Ada, never "P1".
        let log = as_json(&m.view(Viewer::Spectator).unwrap())["log"].clone();
        let first = log
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["seat"] == 1)
            .unwrap();
        assert!(
            first["text"].as_str().unwrap().starts_with("Ada rolls "),
            "{first}"
        );
        assert!(log.as_array().unwrap().iter().all(|l| {
            let t = l["text"].as_str().unwrap();
            !t.contains("P1") && !t.contains("->") && !t.contains('→')
        }));
        assert_eq!(m.colours(), [1, 2, 3]);
        let next = m.rematch(9).unwrap();
        assert_eq!(next.moves(), 0);
        assert_eq!(next.names(), ["Player 1", "Bot", "Ada"]);
        assert!(next.seats()[1].is_bot());
        // Each player keeps their colour as the seats move on, and again.
        assert_eq!(next.colours(), [2, 3, 1]);
        let mut next = next;
        play_out(next.as_mut());
        let again = next.rematch(10).unwrap();
        assert_eq!(again.colours(), [3, 1, 2]);
        assert_eq!(again.names(), ["Bot", "Ada", "Player 3"]);
        // The record keeps them, and a record replays with them.
        let record = as_json(&next.record_once_over().unwrap());
        assert_eq!(record["colours"], json!([2, 3, 1]));
        assert_eq!(
            Registry::standard()
                .start_from_record(record)
                .unwrap()
                .colours(),
            [2, 3, 1]
        );
        // The record keeps the names; a record replays with them.
        let record = as_json(&m.record_once_over().unwrap());
        assert_eq!(record["names"], json!(["Ada", null, null]));
        assert_eq!(
            Registry::standard()
                .start_from_record(record)
                .unwrap()
                .names()[0],
            "Ada"
        );
    }

    #[test]
    fn a_baffle_rematch_draws_a_fresh_box() {
        let mut m = Registry::standard()
            .find("baffle")
            .unwrap()
            .prepare(json!({"size": 8, "mirrors": 6}))
            .unwrap()
            .start(None, vec![SeatKind::Person], seeded(), 1)
            .unwrap();
        m.play(1, &MoveInput::Text("quit".into()), None, None)
            .unwrap();
        assert_eq!(m.outcome(&[1]).unwrap().words, "You gave up");
        let setup_of = |m: &dyn AnyMatch| m.header().unwrap();
        let next = m.rematch(2).unwrap();
        let public = as_json(&next.public_setup().unwrap());
        assert_eq!(public["size"], 8);
        assert_eq!(public["mirrors"], 6);
        assert_ne!(setup_of(next.as_ref()), setup_of(m.as_ref()));
        assert_eq!(next.status(), tabletop::play::Status::Playing);
    }
}
