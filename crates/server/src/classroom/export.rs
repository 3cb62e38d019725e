//! The teacher's downloads: the round's games as CSV, the figure as a
//! PNG; and the classroom's board, drawn.
//!
//! Terms:
//! - **CSV**: one line a finished game; names quoted and never read as a
//!   formula ([`csv_cell`]).
//! - **figure**: render's length histogram over the exact distribution.

use super::*;

/// A name made safe for a spreadsheet's cell: quoted, and never read as a
/// formula.
pub(super) fn csv_cell(text: &str) -> String {
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

pub(super) fn attachment(name: &str, content_type: &'static str, body: Vec<u8>) -> Response {
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
pub(super) async fn games_csv(
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
pub(super) async fn figure_png(
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
pub(super) async fn board_svg(
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
    crate::http::svg::svg_text_response(svg)
}
