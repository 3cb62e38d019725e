//! The probes' routes (`GET /healthz`, `GET /readyz`) and the layer that
//! refuses new work while the server drains (see [`crate::http::health`]).

use crate::http::health::{
    CameWhileDraining, READY_WITHIN, RETRY_AFTER_SECONDS, Readiness, draining, is_new_work,
};
use crate::state::AppState;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::time::Instant;

/// `GET /healthz` and `GET /readyz`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

async fn healthz() -> Response {
    let mut answer = axum::Json(serde_json::json!({"status": "ok"})).into_response();
    no_store(&mut answer);
    answer
}

/// Whether `state`'s server should be sent traffic now (see the module's
/// terms); the store's answer time is counted in the metrics.
pub async fn readiness(state: &AppState) -> Readiness {
    if state.health.is_draining() {
        return Readiness::not("draining: the server is stopping");
    }
    let started = Instant::now();
    let answered = tokio::time::timeout(READY_WITHIN, state.hub.db().ping()).await;
    let metrics = state.hub.metrics();
    match answered {
        Ok(Ok(())) => {
            metrics.store_answered("ping", started.elapsed(), true);
            Readiness {
                ready: true,
                reason: None,
            }
        }
        Ok(Err(e)) => {
            metrics.store_answered("ping", started.elapsed(), false);
            Readiness::not(e.to_string())
        }
        Err(_) => {
            metrics.store_answered("ping", started.elapsed(), false);
            Readiness::not(format!(
                "the store did not answer within {} s",
                READY_WITHIN.as_secs()
            ))
        }
    }
}

async fn readyz(State(state): State<AppState>) -> Response {
    let ready = readiness(&state).await;
    state.health.note(&ready);
    let status = if ready.ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let mut answer = (status, axum::Json(&ready)).into_response();
    no_store(&mut answer);
    if !ready.ready {
        answer
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
    }
    answer
}

fn no_store(answer: &mut Response) {
    answer
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// Refuses new work that came while draining (see the module's terms);
/// lets the rest through, a request that came before the drain included. A layer of the API's routes, after the route is noted, so that
/// the refusal is logged and counted under its route (the route template
/// is read, whole: a nested router sees only the rest of the path).
pub async fn refuse_while_draining(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let path = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| request.uri().path(), axum::extract::MatchedPath::as_str);
    let came_while_draining = request
        .extensions()
        .get::<CameWhileDraining>()
        .map_or_else(|| state.health.is_draining(), |came| came.0);
    if came_while_draining && is_new_work(request.method(), path) {
        return draining();
    }
    next.run(request).await
}
