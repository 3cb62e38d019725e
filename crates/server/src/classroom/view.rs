//! What anyone may see of a classroom, and the exact figures under it.
//!
//! Terms:
//! - **view** ([`ClassroomView`]): students, finished games, the exact
//!   figures and the class's figures; no token, no seed.
//! - **exact figures**: worked out once for a classroom and its setup
//!   ([`exact_key`]) in the long work's lines, and kept in memory.

use super::*;

/// The exact figures of `room`'s round, worked out once.
pub(super) async fn exact_of(
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
pub(super) fn exact_key(id: &str, setup: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    setup.hash(&mut hasher);
    format!("{id}:{:016x}", hasher.finish())
}

/// Keeps `exact` as the figures of `key` ([`exact_key`]).
pub(super) fn remember(state: &AppState, key: String, exact: Exact) -> Arc<Exact> {
    let exact = Arc::new(exact);
    let mut kept = lock(&state.classrooms.exact);
    if kept.len() >= KEPT_FIGURES {
        kept.clear();
    }
    kept.insert(key, Arc::clone(&exact));
    exact
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Works out the exact figures of `setup` in the long work's lines.
pub(super) async fn work_out(state: &AppState, setup: &Setup) -> Result<Exact, ApiError> {
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
pub(super) struct StudentView {
    number: u32,
    name: String,
    /// Their finished games in the round.
    games: u32,
    /// Their team in the class game.
    team: u8,
}

/// A finished game, as the view lists it.
#[derive(Debug, Serialize)]
pub(super) struct GameView {
    players: String,
    rolls: Option<u32>,
    winner: Option<u8>,
    winner_name: Option<String>,
}

/// The class game, as the view shows it.
#[derive(Debug, Serialize)]
pub(super) struct TogetherView {
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
    pub(super) version: i64,
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
pub(super) struct BoardView {
    /// As the teacher gave it.
    reference: String,
    name: Option<String>,
    squares: u32,
    /// A picture of it.
    svg: String,
}

pub(super) fn team_of(number: u32, teams: u8) -> u8 {
    ((number.saturating_sub(1)) % u32::from(teams.max(1))) as u8 + 1
}

/// The view of `room`.
pub(super) async fn view_of(state: &AppState, room: &Classroom) -> Result<ClassroomView, ApiError> {
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
