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

pub use crate::exact;
mod export;
pub mod figures;
mod live;
mod setup;
mod view;

use export::{board_svg, figure_png, games_csv};
use live::events;
pub use live::{expire_old, follow_finished, note_finished};
pub use setup::{Activity, Setup};
use setup::{SetupRequest, Together, read_setup, setup_json, setup_of};
pub use view::ClassroomView;
use view::{exact_key, exact_of, remember, team_of, view_of, work_out};

use crate::http::error::{ApiError, ApiResult, JsonBody};
use crate::hub::{Answer, Play, SeatPlan};
use crate::matches::seats::Bearer;
use crate::random;
use crate::state::AppState;
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
use std::convert::Infallible;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tabletop::Code;
use tabletop::play::{DiceMode, Playable, SeatKind};
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
    if random::digest(token) != room.row.token {
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
    let digest = random::digest(token);
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
    let setup = read_setup(&state, req, None).await?;
    // Refused before it is stored: a board no game finishes on.
    let exact = work_out(&state, &setup).await?;
    let setup_text = setup_json(&setup)?;
    let creator = crate::store::Creator {
        client: client.map(|c| c.0.digest()),
        token: bearer.as_deref().map(random::digest),
    };
    let id = random::fresh_secret()?;
    let token = random::fresh_secret()?;
    state
        .hub
        .db()
        .create_classroom(
            NewClassroom {
                id: id.clone(),
                token: random::digest(&token),
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
    let token = random::fresh_secret()?;
    let checked = name.clone();
    let joined = state
        .hub
        .db()
        .add_student(
            &id,
            &name,
            &random::digest(&token),
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
) -> Result<crate::hub::Made, ApiError> {
    let info = state.hub.games().find(chutes::contract::Table::NAME)?;
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
        token: token.as_deref().map(random::digest),
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
        token: token.as_deref().map(random::digest),
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
    let setup = read_setup(&state, req, Some(&old)).await?;
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

#[cfg(test)]
mod tests {
    use super::export::csv_cell;
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
