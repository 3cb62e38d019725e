//! The outermost layer of the app: times each request, catches a panic,
//! gives the request id, writes the request line and counts the request
//! (see [`crate::http::log`]'s terms).

use crate::http::error::{ApiError, Refused as ApiErrorRefused};
use crate::http::health::CameWhileDraining;
use crate::http::log::{REQUEST_ID, RouteSlot, UNMATCHED, method_label, next_request_id};
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;
use std::sync::PoisonError;
use std::time::Instant;

/// Times the request, catches a panic, gives the request id, writes the
/// request line and counts the request in the metrics.
pub async fn observe(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = next_request_id();
    let method = method_label(request.method());
    let slot = RouteSlot::default();
    request.extensions_mut().insert(slot.clone());
    // Whether the server drained already when the request came: one that
    // came before is answered, however long its body takes to arrive.
    request
        .extensions_mut()
        .insert(CameWhileDraining(state.health.is_draining()));
    let answered = AssertUnwindSafe(next.run(request)).catch_unwind().await;
    let metrics = state.hub.metrics();
    let (mut response, panicked) = match answered {
        Ok(response) => (response, false),
        Err(_) => {
            metrics.panicked();
            let answer = ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the server failed on this request (its log has the details)",
            );
            (answer.into_response(), true)
        }
    };
    let took = started.elapsed();
    let route = slot
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
        .unwrap_or_else(|| UNMATCHED.to_string());
    let status = response.status().as_u16();
    // Milliseconds to two decimals: a number in JSON, short in words.
    let ms = (took.as_secs_f64() * 100_000.0).round() / 100.0;
    if panicked {
        tracing::error!(
            target: "parlor::request",
            method,
            route = %route,
            status,
            request_id = %id,
            "panic caught"
        );
    }
    tracing::info!(
        target: "parlor::request",
        method,
        route = %route,
        status,
        ms,
        request_id = %id,
        "request"
    );
    metrics.request(method, &route, status, took);
    if let Some(refused) = response.extensions().get::<ApiErrorRefused>() {
        metrics.refused(refused.0.as_str());
    }
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::log::note_route;

    #[tokio::test]
    async fn a_panicking_handler_is_answered_500_and_counted_under_its_route() {
        use axum::Router;
        use axum::routing::get;
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::open(crate::config::Config::new(dir.path()))
            .await
            .unwrap();
        let app = Router::new()
            .route(
                "/boom/{id}",
                get(
                    |axum::extract::Path(id): axum::extract::Path<String>| async move {
                        let found: Option<&'static str> =
                            id.parse::<u8>().ok().filter(|n| *n > 9).map(|_| "found");
                        found.expect("a bug in a handler")
                    },
                ),
            )
            .route_layer(axum::middleware::from_fn(note_route))
            .layer(axum::middleware::from_fn_with_state(state.clone(), observe));
        let request = axum::http::Request::get("/boom/7")
            .body(axum::body::Body::empty())
            .unwrap();
        let answer = app.oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(answer.headers().contains_key(REQUEST_ID));
        let metrics = crate::ops::scrape::render(&state);
        assert!(metrics.contains("parlor_panics_total 1"), "{metrics}");
        assert!(
            metrics.contains(
                r#"parlor_http_requests_total{method="GET",route="/boom/:id",status="500"} 1"#
            ),
            "{metrics}"
        );
    }
}
