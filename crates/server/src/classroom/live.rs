//! A classroom live: its events, and its games noted as they end.
//!
//! Terms:
//! - **events**: the view now and after every change, as server-sent
//!   events; pushed when this server notes a change, polled from the store
//!   each [`POLL_EVERY`] (another server's).
//! - **noting** ([`note_finished`]): a class game's length and winner
//!   stored when it ends, once; [`follow_finished`] hears every match a
//!   move here ends; a stream's start sweeps up any missed.
//! - **expiry** ([`expire_old`]): expired classrooms deleted, hourly.

use super::*;

/// `GET /api/classrooms/{id}/events`: the classroom's view now and after
/// every change, as server-sent events.
pub(super) async fn events(
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
pub(super) async fn sweep(state: &AppState, room: &Classroom) {
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
            // A classroom's games are Chutes games, which count their
            // length (rolls by all players together) once over; a match of
            // a game that counts none is no class game.
            if !t.status().is_over() {
                return None;
            }
            let rolls = t.length()?;
            let winner = match t.status() {
                tabletop::play::Status::Won { winner } => Some(winner),
                _ => None,
            };
            let names = t.names();
            Some((
                winner.map(|_| rolls),
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
    state: Weak<crate::state::Shared>,
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
        note_finished(&crate::state::AppState(shared), &id).await;
    }
}

/// Deletes expired classrooms, hourly (or more often when unjoined ones
/// are kept only a few hours), while the server lives.
pub async fn expire_old(state: Weak<crate::state::Shared>) {
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
