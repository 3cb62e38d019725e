//! Classrooms: a teacher's room where students play Chutes & Ladders from
//! their phones and the projected page shows, live, what their games add up
//! to beside the exact figures.
//!
//! Terms:
//! - **classroom**: under a 32-hex-digit id, with its page at
//!   `/classroom/{id}` (the address and QR code students join by); kept in
//!   the store ([`crate::store::classrooms`]), so any server of a cluster
//!   answers for it and a restart loses nothing.
//! - **teacher token**: the secret the opener is given once; it changes
//!   the setup, resets, starts the class game and downloads the games and
//!   the figure. The store keeps its digest only.
//! - **student**: a name (the players' name rules) and a token of their
//!   own; at most [`MOST_STUDENTS`].
//! - **setup** ([`Setup`]): the board (any board the Chutes setup takes:
//!   built in, uploaded or designed — copied into the classroom), the
//!   rules, and the **activity**: `solo` (each student plays their own
//!   games alone), `bot` (each against a bot) or `together` (the class
//!   plays one game, in teams, one seat a team).
//! - **class game**: a match the classroom made, tagged in the store; when
//!   it ends (whoever's move, on whichever server), its length and winner
//!   are noted at once ([`follow_finished`]).
//! - **round**: a reset or a new setup starts one; the figures count the
//!   games of the current round, at most [`MOST_GAMES`].
//! - **view** ([`ClassroomView`]): what anyone may see — no token, no
//!   seed; live on server-sent events (`…/events`), pushed when this
//!   server notes a change and polled from the store each second (other
//!   servers' changes).

pub mod exact;
pub mod figures;

use crate::AppState;
use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::matches::SeatPlan;
use crate::matches::hub::{Answer, Play};
use crate::matches::seats::{self, Bearer};
use crate::store::classrooms::{ClassGameRow, Classroom, ClassroomChange, Joined, NewClassroom};
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chutes::{Board, Overshoot, Rules};
use exact::Exact;
use figures::Figures;
use games::{MoveInput, Supplied};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tabletop::Code;
use tabletop::play::{DiceMode, SeatKind};
use tokio::sync::broadcast;

/// The most students in a classroom.
pub const MOST_STUDENTS: u32 = 40;

/// The most games a round counts; more are refused until a reset.
pub const MOST_GAMES: usize = 2_000;

/// How often a live page's stream looks in the store for changes another
/// server made.
pub const POLL_EVERY: Duration = Duration::from_secs(1);

/// The most exact figures kept in memory (one per classroom and setup).
const KEPT_FIGURES: usize = 256;

/// What the classrooms share on this server.
pub struct Classrooms {
    /// The id of each classroom this server changed, for its live pages.
    changed: broadcast::Sender<String>,
    /// The exact figures by classroom and setup ([`exact_key`]).
    exact: Mutex<HashMap<String, Arc<Exact>>>,
}

impl Default for Classrooms {
    fn default() -> Self {
        Self {
            changed: broadcast::channel(256).0,
            exact: Mutex::new(HashMap::new()),
        }
    }
}

impl Classrooms {
    fn tell(&self, id: &str) {
        let _ = self.changed.send(id.to_string());
    }
}

/// The routes under `/api`: `/classrooms…`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/classrooms", post(open))
        .route("/classrooms/{id}", get(view))
        .route("/classrooms/{id}/events", get(events))
        .route("/classrooms/{id}/students", post(join))
        .route("/classrooms/{id}/games", post(new_game))
        .route("/classrooms/{id}/roll", post(roll))
        .route("/classrooms/{id}/setup", post(change_setup))
        .route("/classrooms/{id}/reset", post(reset))
        .route("/classrooms/{id}/together", post(start_together))
        .route("/classrooms/{id}/games.csv", get(games_csv))
        .route("/classrooms/{id}/figure.png", get(figure_png))
        .route("/classrooms/{id}/board.svg", get(board_svg))
}

/// What the students do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activity {
    /// Each plays their own games, alone.
    Solo,
    /// Each plays their own games against a bot.
    Bot,
    /// The class plays one game, in teams.
    Together,
}

/// A classroom's setup, as the store keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Setup {
    /// The board's reference as the teacher gave it (`classic`, an
    /// uploaded board's id).
    pub board_ref: String,
    /// The board itself.
    pub board: Board,
    /// The rules.
    pub rules: Rules,
    /// What the students do.
    pub activity: Activity,
    /// Seats (teams) of the class game.
    pub teams: u8,
}

impl Setup {
    /// Players in each game of the activity.
    pub fn players(&self) -> usize {
        match self.activity {
            Activity::Solo => 1,
            Activity::Bot => 2,
            Activity::Together => usize::from(self.teams),
        }
    }
}

/// The class game's record in the classroom (the token is the server's).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Together {
    #[serde(rename = "match")]
    match_id: String,
    token: String,
}

/// `POST /api/classrooms` and `…/setup`: the board, rules and activity.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    /// `classic`, or an uploaded or designed board's id.
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    overshoot: Option<String>,
    #[serde(default)]
    faces: Option<u32>,
    /// `solo` (the default), `bot` or `together`.
    #[serde(default)]
    activity: Option<String>,
    /// Teams in the class game: 2 to 4 (2 by default).
    #[serde(default)]
    teams: Option<u8>,
}

fn bad_setup(message: impl Into<String>) -> ApiError {
    ApiError::coded(Code::BadSetup, message)
}

/// The setup `req` asks for, over `old` (for what it leaves out).
fn read_setup(state: &AppState, req: SetupRequest, old: Option<&Setup>) -> Result<Setup, ApiError> {
    let (board_ref, board) = match (req.board, old) {
        (Some(reference), _) => {
            let reference = reference.trim().to_string();
            let board = crate::tools::chutes_boards::find_board(state, &reference)?;
            (reference, (*board).clone())
        }
        (None, Some(old)) => (old.board_ref.clone(), old.board.clone()),
        (None, None) => (
            "classic".to_string(),
            chutes::formats::builtin("classic").ok_or_else(|| bad_setup("no classic board"))?,
        ),
    };
    let old_rules = old.map_or_else(Rules::default, |o| o.rules);
    let overshoot = match req.overshoot {
        Some(name) => name
            .parse::<Overshoot>()
            .map_err(|e| bad_setup(e.to_string()))?,
        None => old_rules.overshoot(),
    };
    let faces = req.faces.unwrap_or(u32::from(old_rules.faces()));
    let rules = Rules::new(overshoot, faces).map_err(|e| bad_setup(e.to_string()))?;
    let activity = match req.activity.as_deref().map(str::trim) {
        None => old.map_or(Activity::Solo, |o| o.activity),
        Some("solo") => Activity::Solo,
        Some("bot") => Activity::Bot,
        Some("together") => Activity::Together,
        Some(other) => {
            return Err(bad_setup(format!(
                "the activity is solo (each student plays alone), bot (each against a bot) or together (the class plays one game), not '{other}'"
            )));
        }
    };
    let teams = req.teams.unwrap_or(old.map_or(2, |o| o.teams));
    if !(2..=4).contains(&teams) {
        return Err(bad_setup(format!(
            "the class game has 2 to 4 teams, not {teams}"
        )));
    }
    Ok(Setup {
        board_ref,
        board,
        rules,
        activity,
        teams,
    })
}

/// The setup a classroom's row holds.
fn setup_of(room: &Classroom) -> Result<Setup, ApiError> {
    serde_json::from_str(&room.row.setup).map_err(|e| {
        ApiError::coded(
            Code::DamagedRecord,
            format!("this classroom's setup does not read ({e})"),
        )
    })
}

fn setup_json(setup: &Setup) -> Result<String, ApiError> {
    serde_json::to_string(setup)
        .map_err(|e| ApiError::coded(Code::ServerError, format!("the setup does not write ({e})")))
}

fn no_classroom(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::not_found(format!(
        "no classroom '{shown}' (it may have expired: a classroom is kept 30 days after its last game)"
    ))
}

/// The classroom `id`, from the store.
async fn load(state: &AppState, id: &str) -> Result<Classroom, ApiError> {
    if !crate::random::is_secret(id) {
        return Err(no_classroom(id));
    }
    state
        .hub
        .db()
        .classroom(id)
        .await?
        .ok_or_else(|| no_classroom(id))
}

/// The classroom `id`, for its teacher only.
async fn load_as_teacher(
    state: &AppState,
    id: &str,
    token: Option<&str>,
) -> Result<(Classroom, Setup), ApiError> {
    let room = load(state, id).await?;
    let Some(token) = token else {
        return Err(ApiError::coded(
            Code::NoToken,
            "only the teacher does this: send the classroom's teacher token (Authorization: Bearer TOKEN)",
        ));
    };
    if seats::digest(token) != room.row.token {
        return Err(ApiError::coded(
            Code::BadToken,
            "this is not the classroom's teacher token",
        ));
    }
    let setup = setup_of(&room)?;
    Ok((room, setup))
}

/// The student whose token `token` is.
fn student_of<'a>(
    room: &'a Classroom,
    token: Option<&str>,
) -> Result<&'a crate::store::classrooms::StudentRow, ApiError> {
    let Some(token) = token else {
        return Err(ApiError::coded(
            Code::NoToken,
            "join the classroom first, then send your student token (Authorization: Bearer TOKEN)",
        ));
    };
    let digest = seats::digest(token);
    room.students
        .iter()
        .find(|s| s.token == digest)
        .ok_or_else(|| {
            ApiError::coded(
                Code::BadToken,
                "this token is no student's of this classroom: join it first",
            )
        })
}

/// The exact figures of `room`'s round, worked out once.
async fn exact_of(
    state: &AppState,
    room: &Classroom,
    setup: &Setup,
) -> Result<Arc<Exact>, ApiError> {
    let key = exact_key(&room.row.id, &room.row.setup);
    if let Some(known) = lock(&state.classrooms.exact).get(&key) {
        return Ok(Arc::clone(known));
    }
    let exact = work_out(state, setup).await?;
    Ok(remember(state, key, exact))
}

/// The exact figures' key: the classroom and its setup (a digest of its
/// text: the same setup, the same figures, whichever round).
fn exact_key(id: &str, setup: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    setup.hash(&mut hasher);
    format!("{id}:{:016x}", hasher.finish())
}

/// Keeps `exact` as the figures of `key` ([`exact_key`]).
fn remember(state: &AppState, key: String, exact: Exact) -> Arc<Exact> {
    let exact = Arc::new(exact);
    let mut kept = lock(&state.classrooms.exact);
    if kept.len() >= KEPT_FIGURES {
        kept.clear();
    }
    kept.insert(key, Arc::clone(&exact));
    exact
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Works out the exact figures of `setup` in the long work's lines.
async fn work_out(state: &AppState, setup: &Setup) -> Result<Exact, ApiError> {
    let board = Arc::new(setup.board.clone());
    let rules = setup.rules;
    let players = setup.players();
    let line = crate::tools::chutes_analysis::line_for(&board, u64::from(board.size()) + 1);
    state
        .long_work
        .run(line, move |budget| {
            let m = chutes::analysis::markov::analyze_within(
                &board,
                &rules,
                &chutes::analysis::markov::MarkovOptions::default(),
                budget,
            )
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
            exact::for_players(&m.distribution.probabilities, players).ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "on this board no game ever reaches square {}: a class would wait forever",
                    board.finish()
                ))
            })
        })
        .await?
}

/// A student, as the view shows them.
#[derive(Debug, Serialize)]
struct StudentView {
    number: u32,
    name: String,
    /// Their finished games in the round.
    games: u32,
    /// Their team in the class game.
    team: u8,
}

/// A finished game, as the view lists it.
#[derive(Debug, Serialize)]
struct GameView {
    players: String,
    rolls: Option<u32>,
    winner: Option<u8>,
    winner_name: Option<String>,
}

/// The class game, as the view shows it.
#[derive(Debug, Serialize)]
struct TogetherView {
    /// The match's id: anyone may watch it.
    #[serde(rename = "match")]
    match_id: String,
    url: String,
    /// Each team's students' names, team 1 first.
    teams: Vec<Vec<String>>,
}

/// What anyone may see of a classroom.
#[derive(Debug, Serialize)]
pub struct ClassroomView {
    id: String,
    /// Its page, where students join.
    url: String,
    version: i64,
    round: u32,
    board: BoardView,
    rules: Rules,
    activity: Activity,
    /// Players in each game of the activity.
    players: usize,
    teams: u8,
    most_students: u32,
    students: Vec<StudentView>,
    /// The round's finished games, in the order they ended.
    games: Vec<GameView>,
    /// Games still on.
    playing: usize,
    exact: Exact,
    figures: Figures,
    together: Option<TogetherView>,
}

#[derive(Debug, Serialize)]
struct BoardView {
    /// As the teacher gave it.
    reference: String,
    name: Option<String>,
    squares: u32,
    /// A picture of it.
    svg: String,
}

fn team_of(number: u32, teams: u8) -> u8 {
    ((number.saturating_sub(1)) % u32::from(teams.max(1))) as u8 + 1
}

/// The view of `room`.
async fn view_of(state: &AppState, room: &Classroom) -> Result<ClassroomView, ApiError> {
    let setup = setup_of(room)?;
    let exact = exact_of(state, room, &setup).await?;
    let finished: Vec<&ClassGameRow> = room
        .games
        .iter()
        .filter(|g| g.finished_ms.is_some())
        .collect();
    let played: Vec<figures::Game> = finished
        .iter()
        .map(|g| figures::Game {
            rolls: g.rolls,
            winner: g.winner,
            players: g.players.clone(),
            winner_name: g.winner_name.clone(),
        })
        .collect();
    let figures = figures::figures(&played, &exact);
    let together = match &room.row.together {
        Some(text) => {
            let t: Together = serde_json::from_str(text).map_err(|e| {
                ApiError::coded(
                    Code::DamagedRecord,
                    format!("this classroom's class game does not read ({e})"),
                )
            })?;
            let mut teams = vec![Vec::new(); usize::from(setup.teams)];
            for s in &room.students {
                teams[usize::from(team_of(s.number, setup.teams) - 1)].push(s.name.clone());
            }
            Some(TogetherView {
                url: format!("/chutes/m/{}", t.match_id),
                match_id: t.match_id,
                teams,
            })
        }
        None => None,
    };
    let board_ref = if chutes::formats::builtin(&setup.board_ref).is_some() {
        setup.board_ref.clone()
    } else {
        "uploaded".to_string()
    };
    Ok(ClassroomView {
        url: format!("/classroom/{}", room.row.id),
        id: room.row.id.clone(),
        version: room.row.version,
        round: room.row.round,
        board: BoardView {
            svg: format!("/api/classrooms/{}/board.svg", room.row.id),
            reference: board_ref,
            name: setup.board.name().map(str::to_string),
            squares: setup.board.size(),
        },
        rules: setup.rules,
        activity: setup.activity,
        players: setup.players(),
        teams: setup.teams,
        most_students: MOST_STUDENTS,
        students: room
            .students
            .iter()
            .map(|s| StudentView {
                number: s.number,
                name: s.name.clone(),
                games: finished
                    .iter()
                    .filter(|g| g.student == Some(s.number))
                    .count() as u32,
                team: team_of(s.number, setup.teams),
            })
            .collect(),
        games: finished
            .iter()
            .map(|g| GameView {
                players: g.players.clone(),
                rolls: g.rolls,
                winner: g.winner,
                winner_name: g.winner_name.clone(),
            })
            .collect(),
        playing: room.games.len() - finished.len(),
        exact: (*exact).clone(),
        figures,
        together,
    })
}

/// A classroom just opened: the only time its teacher token is told.
#[derive(Serialize)]
struct Opened {
    id: String,
    url: String,
    /// The teacher's token: keep it to change the classroom.
    token: String,
    view: ClassroomView,
}

async fn open(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
    Bearer(bearer): Bearer,
    JsonBody(req): JsonBody<SetupRequest>,
) -> Result<(StatusCode, Json<Opened>), ApiError> {
    let setup = read_setup(&state, req, None)?;
    // Refused before it is stored: a board no game finishes on.
    let exact = work_out(&state, &setup).await?;
    let setup_text = setup_json(&setup)?;
    let creator = crate::store::Creator {
        client: client.map(|c| c.0.digest()),
        token: bearer.as_deref().map(seats::digest),
    };
    let id = seats::fresh_secret()?;
    let token = seats::fresh_secret()?;
    state
        .hub
        .db()
        .create_classroom(
            NewClassroom {
                id: id.clone(),
                token: seats::digest(&token),
                setup: setup_text.clone(),
                at_ms: crate::store::now_ms(),
            },
            creator,
        )
        .await
        .map_err(classroom_quota)?;
    let room = load(&state, &id).await?;
    remember(&state, exact_key(&id, &setup_text), exact);
    let view = view_of(&state, &room).await?;
    Ok((
        StatusCode::CREATED,
        Json(Opened {
            url: format!("/classroom/{id}"),
            id,
            token,
            view,
        }),
    ))
}

/// The store's refusal of one more classroom, in a classroom's words.
fn classroom_quota(e: crate::store::DbError) -> ApiError {
    use crate::http::error::in_time;
    match e {
        crate::store::DbError::Quota {
            limit,
            by,
            retry_after,
            ..
        } => ApiError::coded(
            Code::MatchQuota,
            format!(
                "{limit} classrooms were opened from this {by}, the most one {by} may hold; one nobody joined closes after a few hours, or try again in {}",
                in_time(retry_after)
            ),
        )
        .with_retry_after(retry_after),
        crate::store::DbError::AtCapacity { retry_after } => ApiError::coded(
            Code::StoreAtCapacity,
            format!(
                "the server holds {} classrooms, its most; try again in {}",
                crate::store::classrooms::MAX_CLASSROOMS,
                in_time(retry_after)
            ),
        )
        .with_retry_after(retry_after),
        other => other.into(),
    }
}

async fn view(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<ClassroomView> {
    let room = load(&state, &id).await?;
    Ok(Json(view_of(&state, &room).await?))
}

/// `POST /api/classrooms/{id}/students`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    name: String,
}

#[derive(Serialize)]
struct StudentJoined {
    /// The student's token: keep it to play.
    token: String,
    number: u32,
    name: String,
}

async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<(StatusCode, Json<StudentJoined>), ApiError> {
    let name = tabletop::play::check_name(&req.name)
        .map_err(|e| crate::matches::bad_name(e.to_string()))?;
    load(&state, &id).await?;
    let token = seats::fresh_secret()?;
    let checked = name.clone();
    let joined = state
        .hub
        .db()
        .add_student(
            &id,
            &name,
            &seats::digest(&token),
            MOST_STUDENTS,
            move |names| {
                tabletop::play::check_unlike(&checked, names.iter().map(String::as_str))
                    .err()
                    .map(|e| format!("{e}: choose another name"))
            },
        )
        .await
        .map_err(|e| match e {
            crate::store::DbError::NoMatch => no_classroom(&id),
            e => e.into(),
        })?;
    match joined {
        Joined::Number(number) => {
            state.classrooms.tell(&id);
            Ok((
                StatusCode::CREATED,
                Json(StudentJoined {
                    token,
                    number,
                    name,
                }),
            ))
        }
        Joined::Refused(why) if why.contains("full") => Err(ApiError::coded(Code::Conflict, why)),
        Joined::Refused(why) => Err(crate::matches::bad_name(why)),
    }
}

/// A student's game just made.
#[derive(Serialize)]
struct GameMade {
    /// The match's id.
    id: String,
    /// Its page.
    url: String,
    /// The student's token for it.
    token: String,
    view: games::protocol::MatchView,
}

/// A Chutes match of `setup` with `plans` and `names`, made for
/// `creator`.
async fn make_match(
    state: &AppState,
    setup: &Setup,
    plans: &[SeatPlan],
    names: &[Option<String>],
    creator: crate::store::Creator,
) -> Result<crate::matches::hub::Made, ApiError> {
    let info = state.hub.games().find("chutes")?;
    let builtin = chutes::formats::builtin(&setup.board_ref).is_some();
    let prepared = info.prepare(json!({
        "board": if builtin { setup.board_ref.as_str() } else { "classroom" },
        "overshoot": setup.rules.overshoot().to_string(),
        "faces": setup.rules.faces(),
    }))?;
    let seed = crate::sessions::seed_or_fresh(None)?;
    let kinds: Vec<SeatKind> = plans.iter().map(|p| p.kind()).collect();
    let mut table = prepared.start(
        Some(Supplied::Board(setup.board.clone())),
        kinds,
        DiceMode::Seeded { seed },
        seed,
    )?;
    for (i, name) in names.iter().enumerate() {
        if name.is_some() {
            table.set_name(i as u8 + 1, name.as_deref())?;
        }
    }
    state.hub.create_for(table, plans, names, creator).await
}

/// Refuses a round that holds its most games.
fn check_room(room: &Classroom) -> Result<(), ApiError> {
    if room.games.len() >= MOST_GAMES {
        return Err(ApiError::coded(
            Code::Conflict,
            format!(
                "this round holds {MOST_GAMES} games, its most: the teacher may reset the classroom to start another"
            ),
        ));
    }
    Ok(())
}

/// `POST /api/classrooms/{id}/games`: a student's own game, alone or
/// against a bot as the activity says.
async fn new_game(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<(StatusCode, Json<GameMade>), ApiError> {
    let room = load(&state, &id).await?;
    let student = student_of(&room, token.as_deref())?.clone();
    let setup = setup_of(&room)?;
    check_room(&room)?;
    let (plans, names, players) = match setup.activity {
        Activity::Solo => (
            vec![SeatPlan::Here],
            vec![Some(student.name.clone())],
            student.name.clone(),
        ),
        Activity::Bot => (
            vec![SeatPlan::Here, SeatPlan::Bot(tabletop::BotLevel::Normal)],
            vec![Some(student.name.clone()), None],
            format!("{} and a bot", student.name),
        ),
        Activity::Together => {
            return Err(ApiError::coded(
                Code::Conflict,
                "the class plays one game together now: roll when it is your team's turn",
            ));
        }
    };
    // The student's game counts against the student's own address, as
    // any match they made would.
    let creator = crate::store::Creator {
        client: client.map(|c| c.0.digest()),
        token: token.as_deref().map(seats::digest),
    };
    let made = make_match(&state, &setup, &plans, &names, creator).await?;
    state
        .hub
        .db()
        .add_class_game(
            &id,
            ClassGameRow {
                match_id: made.id.clone(),
                round: room.row.round,
                student: Some(student.number),
                players,
                seats: plans.len() as u8,
                rolls: None,
                winner: None,
                winner_name: None,
                started_ms: crate::store::now_ms(),
                finished_ms: None,
            },
        )
        .await?;
    // A game over from its start (a board nobody can finish on) is noted
    // now: no move will end it.
    note_finished(&state, &made.id).await;
    let view = state.hub.view(&made.id, Some(&made.token)).await?;
    Ok((
        StatusCode::CREATED,
        Json(GameMade {
            url: format!("/chutes/m/{}", made.id),
            id: made.id,
            token: made.token,
            view,
        }),
    ))
}

/// `POST /api/classrooms/{id}/together`: the teacher starts the class
/// game (a new one, when one is on).
async fn start_together(
    State(state): State<AppState>,
    client: Option<axum::Extension<crate::http::client::Client>>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<(StatusCode, Json<ClassroomView>), ApiError> {
    let (room, setup) = load_as_teacher(&state, &id, token.as_deref()).await?;
    if setup.activity != Activity::Together {
        return Err(ApiError::coded(
            Code::Conflict,
            "the activity is not the class game: switch it to together first",
        ));
    }
    check_room(&room)?;
    let teams = usize::from(setup.teams);
    let plans = vec![SeatPlan::Here; teams];
    let names: Vec<Option<String>> = (1..=teams).map(|t| Some(format!("Team {t}"))).collect();
    let creator = crate::store::Creator {
        client: client.map(|c| c.0.digest()),
        token: token.as_deref().map(seats::digest),
    };
    let made = make_match(&state, &setup, &plans, &names, creator).await?;
    let db = state.hub.db();
    db.add_class_game(
        &id,
        ClassGameRow {
            match_id: made.id.clone(),
            round: room.row.round,
            student: None,
            players: (1..=teams)
                .map(|t| format!("Team {t}"))
                .collect::<Vec<_>>()
                .join(", "),
            seats: teams as u8,
            rolls: None,
            winner: None,
            winner_name: None,
            started_ms: crate::store::now_ms(),
            finished_ms: None,
        },
    )
    .await?;
    let together = serde_json::to_string(&Together {
        match_id: made.id.clone(),
        token: made.token,
    })
    .map_err(|e| {
        ApiError::coded(
            Code::ServerError,
            format!("the class game does not write ({e})"),
        )
    })?;
    db.change_classroom(&id, ClassroomChange::Together(Some(together)))
        .await?;
    note_finished(&state, &made.id).await;
    state.classrooms.tell(&id);
    let room = load(&state, &id).await?;
    Ok((StatusCode::CREATED, Json(view_of(&state, &room).await?)))
}

/// `POST /api/classrooms/{id}/roll`: a student rolls for their team in
/// the class game, on its turn.
async fn roll(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> ApiResult<games::protocol::MoveAnswer> {
    let room = load(&state, &id).await?;
    let student = student_of(&room, token.as_deref())?;
    let setup = setup_of(&room)?;
    let Some(text) = &room.row.together else {
        return Err(ApiError::coded(
            Code::Conflict,
            "no class game is on: the teacher starts one",
        ));
    };
    let together: Together = serde_json::from_str(text).map_err(|e| {
        ApiError::coded(
            Code::DamagedRecord,
            format!("this classroom's class game does not read ({e})"),
        )
    })?;
    let team = team_of(student.number, setup.teams);
    let (to_move, moves) = state
        .hub
        .with_table(&together.match_id, |t| (t.to_move(), t.moves()))
        .await?;
    match to_move {
        None => {
            return Err(ApiError::coded(
                Code::GameOver,
                "the class game is over: the teacher starts another",
            ));
        }
        Some(seat) if seat != team => {
            return Err(ApiError::coded(
                Code::NotYourTurn,
                format!("it is Team {seat}'s turn; you are in Team {team}"),
            ));
        }
        Some(_) => {}
    }
    let (played, view) = state
        .hub
        .play(
            &together.match_id,
            Some(&together.token),
            moves,
            &MoveInput::Text("roll".to_string()),
            None,
            Play::Once,
            Answer::Compact,
        )
        .await?;
    Ok(Json(games::protocol::MoveAnswer { played, view }))
}

/// `POST /api/classrooms/{id}/setup`: the teacher switches the board, the
/// rules or the activity; a new round begins.
async fn change_setup(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<SetupRequest>,
) -> ApiResult<ClassroomView> {
    let (_, old) = load_as_teacher(&state, &id, token.as_deref()).await?;
    let setup = read_setup(&state, req, Some(&old))?;
    let exact = work_out(&state, &setup).await?;
    let setup_text = setup_json(&setup)?;
    remember(&state, exact_key(&id, &setup_text), exact);
    state
        .hub
        .db()
        .change_classroom(&id, ClassroomChange::Setup(setup_text))
        .await?;
    let room = load(&state, &id).await?;
    state.classrooms.tell(&id);
    Ok(Json(view_of(&state, &room).await?))
}

/// `POST /api/classrooms/{id}/reset`: the teacher starts a new round.
async fn reset(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> ApiResult<ClassroomView> {
    load_as_teacher(&state, &id, token.as_deref()).await?;
    state
        .hub
        .db()
        .change_classroom(&id, ClassroomChange::Reset)
        .await?;
    state.classrooms.tell(&id);
    let room = load(&state, &id).await?;
    Ok(Json(view_of(&state, &room).await?))
}

/// A name made safe for a spreadsheet's cell: quoted, and never read as a
/// formula.
fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// The round's finished games as CSV, one line a game.
pub fn csv_of(room: &Classroom) -> String {
    let mut out = String::from("game,players,seats,rolls,winner_seat,winner,finished_ms\n");
    let finished = room.games.iter().filter(|g| g.finished_ms.is_some());
    for (i, g) in finished.enumerate() {
        out.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            i + 1,
            csv_cell(&g.players),
            g.seats,
            g.rolls.map(|n| n.to_string()).unwrap_or_default(),
            g.winner.map(|n| n.to_string()).unwrap_or_default(),
            g.winner_name.as_deref().map(csv_cell).unwrap_or_default(),
            g.finished_ms.unwrap_or_default(),
        ));
    }
    out
}

fn attachment(name: &str, content_type: &'static str, body: Vec<u8>) -> Response {
    let mut response = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /api/classrooms/{id}/games.csv`: the round's games, for the
/// teacher.
async fn games_csv(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<Response, ApiError> {
    let (room, _) = load_as_teacher(&state, &id, token.as_deref()).await?;
    Ok(attachment(
        &format!("classroom-{}-round-{}.csv", &id[..8], room.row.round),
        "text/csv; charset=utf-8",
        csv_of(&room).into_bytes(),
    ))
}

/// `GET /api/classrooms/{id}/figure.png`: the histogram over the exact
/// distribution, as a picture, for the teacher.
async fn figure_png(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<Response, ApiError> {
    let (room, setup) = load_as_teacher(&state, &id, token.as_deref()).await?;
    let exact = exact_of(&state, &room, &setup).await?;
    let mut counts: Vec<u64> = Vec::new();
    for g in room.games.iter().filter(|g| g.finished_ms.is_some()) {
        if let Some(n) = g.rolls {
            let n = n as usize;
            if counts.len() <= n {
                counts.resize(n + 1, 0);
            }
            counts[n] += 1;
        }
    }
    if counts.is_empty() {
        return Err(ApiError::coded(
            Code::Conflict,
            "no game has finished in this round yet: there is nothing to draw",
        ));
    }
    let games: u64 = counts.iter().sum();
    let histogram = render::chutes::LengthHistogram {
        counts,
        exact: Some(exact.lengths.clone()),
        title: Some("Our class's game lengths".to_string()),
        subtitle: format!(
            "{}, {}, {}",
            setup.board.name().unwrap_or("a board"),
            tabletop::count(setup.players() as u64, "player", "players"),
            tabletop::count(games, "game", "games"),
        ),
    };
    let png = state
        .long_work
        .run(crate::work::Line::Quick, move |_| {
            render::chutes::length_histogram(&histogram)
                .and_then(|p| render::output::to_png(&p, Some(1600)))
                .map_err(|e| ApiError::unprocessable(format!("cannot draw this: {e}")))
        })
        .await??;
    Ok(attachment(
        &format!("classroom-{}-round-{}.png", &id[..8], room.row.round),
        "image/png",
        png,
    ))
}

/// `GET /api/classrooms/{id}/board.svg`: the classroom's board.
async fn board_svg(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let room = load(&state, &id).await?;
    let board = setup_of(&room)?.board;
    let _held = state.long_work.memory.reserve(
        crate::tools::chutes_boards::picture_states(&board),
        "states (the picture's squares)",
    )?;
    let line = crate::tools::chutes_analysis::line_for(&board, u64::from(board.size()) + 1);
    let svg = state
        .long_work
        .run(line, move |_| {
            render::chutes::board(&board).map(|p| p.to_svg())
        })
        .await?;
    crate::svg_text_response(svg)
}

/// `GET /api/classrooms/{id}/events`: the classroom's view now and after
/// every change, as server-sent events.
async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: Option<axum::Extension<crate::http::client::Client>>,
) -> Result<Response, ApiError> {
    use futures_util::StreamExt;
    let held = state.streams.open(client.map(|c| c.0))?;
    let room = load(&state, &id).await?;
    sweep(&state, &room).await;
    let room = load(&state, &id).await?;
    let first = view_of(&state, &room).await?;
    let changed = state.classrooms.changed.subscribe();
    let to_event = |view: &ClassroomView| {
        let data = serde_json::to_string(view).unwrap_or_else(|_| "{}".to_string());
        Event::default()
            .event("change")
            .id(view.version.to_string())
            .data(data)
    };
    let first_event = to_event(&first).retry(crate::http::health::RECONNECT_AFTER);
    let first_stream =
        futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(first_event)));
    let seen = first.version;
    let rest_state = state.clone();
    let rest = futures_util::stream::unfold(
        (changed, seen, rest_state, id.clone()),
        move |(mut changed, mut seen, state, id)| async move {
            loop {
                tokio::select! {
                    told = changed.recv() => match told {
                        Ok(which) if which != id => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                        _ => {}
                    },
                    () = tokio::time::sleep(POLL_EVERY) => {}
                }
                match state.hub.db().classroom_version(&id).await {
                    Ok(Some(v)) if v == seen => continue,
                    Ok(Some(_)) => {}
                    Ok(None) => return None,
                    Err(_) => continue,
                }
                let Ok(room) = load(&state, &id).await else {
                    continue;
                };
                let Ok(view) = view_of(&state, &room).await else {
                    continue;
                };
                seen = view.version;
                let event = to_event(&view);
                return Some((Ok(event), (changed, seen, state, id)));
            }
        },
    );
    let reconnect = futures_util::stream::once(std::future::ready(Ok(Event::default()
        .retry(crate::http::health::RECONNECT_AFTER)
        .comment("this stream ends here: reconnect"))));
    let stream = first_stream
        .chain(rest)
        .take_until(state.hub.stopped())
        .chain(reconnect)
        .map(move |event| {
            let _held = &held;
            event
        });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Notes the games of `room` that ended without being noted (a server
/// stopped between a game's last move and its note): at most a class's
/// worth at a time.
async fn sweep(state: &AppState, room: &Classroom) {
    let open: Vec<&ClassGameRow> = room
        .games
        .iter()
        .filter(|g| g.finished_ms.is_none())
        .take(MOST_STUDENTS as usize + 1)
        .collect();
    for g in open {
        note_finished(state, &g.match_id).await;
    }
}

/// Notes how match `id` ended, if it is over and a classroom made it, and
/// tells that classroom's live pages.
pub async fn note_finished(state: &AppState, id: &str) {
    let ended = state
        .hub
        .with_table(id, |t| {
            if !t.status().is_over() || t.game() != "chutes" {
                return None;
            }
            let m = t
                .as_any()
                .downcast_ref::<games::TypedMatch<chutes::contract::Table>>()?;
            let game = m.inner().game().game();
            let winner = game.winner();
            let names = t.names();
            Some((
                winner.map(|_| game.rolls()),
                winner.map(|w| {
                    (
                        w,
                        names
                            .get(usize::from(w) - 1)
                            .cloned()
                            .unwrap_or_else(|| format!("Player {w}")),
                    )
                }),
            ))
        })
        .await;
    let Ok(Some((rolls, winner))) = ended else {
        return;
    };
    match state
        .hub
        .db()
        .finish_class_game(id, rolls, winner, crate::store::now_ms())
        .await
    {
        Ok(Some(classroom)) => state.classrooms.tell(&classroom),
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "store: a class game's end was not noted"),
    }
}

/// Notes every match that ends on this server, while the server lives.
pub async fn follow_finished(
    state: Weak<crate::Shared>,
    mut finished: broadcast::Receiver<String>,
) {
    loop {
        let id = match finished.recv().await {
            Ok(id) => id,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(shared) = state.upgrade() else {
            return;
        };
        note_finished(&crate::AppState(shared), &id).await;
    }
}

/// Deletes expired classrooms, hourly (or more often when unjoined ones
/// are kept only a few hours), while the server lives.
pub async fn expire_old(state: Weak<crate::Shared>) {
    loop {
        let Some(shared) = state.upgrade() else {
            return;
        };
        let db = shared.hub.db();
        let now = crate::store::now_ms();
        let unjoined = db.bounds().unplayed_kept;
        let before = now - crate::store::UNFINISHED_KEPT.as_millis() as i64;
        let unjoined_before = now - unjoined.as_millis() as i64;
        if let Ok(gone) = db.expire_classrooms(before, unjoined_before).await
            && gone > 0
        {
            tracing::info!(
                "{} expired",
                tabletop::count(gone, "classroom", "classrooms")
            );
        }
        drop(shared);
        let every = (unjoined / 4).clamp(Duration::from_secs(1), Duration::from_secs(60 * 60));
        tokio::time::sleep(every).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_and_never_formulas_in_the_csv() {
        assert_eq!(csv_cell("Ada"), "\"Ada\"");
        assert_eq!(csv_cell("=1+1"), "\"'=1+1\"");
        assert_eq!(csv_cell("Bo \"B\""), "\"Bo \"\"B\"\"\"");
    }

    #[test]
    fn students_are_dealt_into_teams_in_turn() {
        let teams: Vec<u8> = (1..=7).map(|n| team_of(n, 3)).collect();
        assert_eq!(teams, vec![1, 2, 3, 1, 2, 3, 1]);
    }
}
