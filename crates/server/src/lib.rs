//! Parlor's web app: the pages a browser shows and the JSON API they use.
//!
//! Terms:
//! - **router** ([`router`]): every route — the pages, their static assets
//!   (embedded in the binary), and the API under `/api` (see `docs/api.md`).
//! - **state** ([`AppState`]): the live matches and the store behind them
//!   ([`hub::Hub`], [`store`]), the in-memory sessions (uploaded boards,
//!   design documents) and the settings, shared by handlers.
//! - **store** ([`store`]): SQLite in the data directory by default, or
//!   PostgreSQL; matches and saved grids live there and outlive the server.
//! - **data directory**: where the SQLite store is kept, and where grid
//!   files from before the store are imported from.
//! - **Host check** ([`http::host`]): a server listening on a loopback address
//!   answers only requests addressed to `localhost`, `127.x.x.x` or `[::1]`,
//!   or to its `--public-host` names (a reverse proxy on the same machine),
//!   403 otherwise, so that a web page cannot reach it by pointing its own
//!   name at this machine (DNS rebinding); health probes pass whatever
//!   their host.
//!
//! - **limits** ([`http::limits`], [`http::listen`]): connections, header and body
//!   timeouts, body size; the server survives running out of descriptors
//!   and stops gracefully ([`serve_until`]).
//! - **origin check** ([`http::origin`]): a request that changes something must
//!   come from this server's pages or a program, and say it carries JSON.
//! - **security headers** ([`http::headers`]): on every answer.
//! - **operations** ([`http`]): `/healthz` and `/readyz`, draining when
//!   told to stop, one log line per request, and Prometheus metrics on
//!   their own address ([`Config::metrics_addr`]).
//!
//! The server holds no game rules: it turns requests into library moves and
//! returns the libraries' views. Every bad request gets a 4xx answer with a
//! JSON body `{"error": {"code": "...", "message": "..."}}` ([`http::error`]).

pub mod assets;
pub mod classroom;
pub mod config;
pub mod exact;
pub mod http;
pub mod hub;
pub mod logged;
pub mod matches;
pub mod ops;
pub mod random;
pub mod sessions;
pub mod state;
pub mod store;
pub mod tools;
pub mod work;

pub use config::Config;
pub use http::svg::{svg_response, svg_text_response};
pub use state::{AppState, Shared};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http::error::ApiError;
use std::net::SocketAddr;
use std::sync::Arc;

/// Every route of the app, for `config`, with its store opened.
///
/// # Errors
/// When the store cannot be opened or migrated.
pub async fn router(config: Config) -> Result<Router, store::DbError> {
    let state = AppState::open(config).await?;
    Ok(router_for(state))
}

/// Every route of the app, on `state`.
pub fn router_for(state: AppState) -> Router {
    start_background(&state);
    let config = state.config.clone();
    let limit = config.body_limit;
    let limits = Arc::new(config.clone());
    let api = Router::new()
        .merge(matches::routes())
        .nest("/baffle", tools::baffle::routes())
        .merge(matches::help::routes(&config.games))
        .nest(
            "/chutes",
            tools::chutes_boards::routes()
                .merge(tools::chutes_analysis::routes())
                .merge(tools::chutes_design::routes()),
        )
        .nest("/tycoon", tools::tycoon::routes())
        .merge(classroom::routes())
        .fallback(api_not_found)
        .method_not_allowed_fallback(api_method_not_allowed)
        .route_layer(axum::middleware::from_fn_with_state(
            state.rates.clone(),
            http::fair::limit,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            ops::probes::refuse_while_draining,
        ))
        .route_layer(axum::middleware::from_fn(http::log::note_route))
        .layer(axum::middleware::map_response(json_errors));
    let app = Router::new()
        .nest("/api", api)
        // `nest` leaves `/api/` itself to the pages' fallback: answer it as
        // the API does, in JSON.
        .route(
            "/api/",
            axum::routing::any(|| async { ApiError::not_found("no API route /api/") }),
        )
        .merge(ops::probes::routes())
        .merge(assets::routes(config.web_dir.clone(), &config.games))
        .route_layer(axum::middleware::from_fn(http::log::note_route))
        .layer(DefaultBodyLimit::max(limit))
        .with_state(state.clone())
        .layer(axum::middleware::from_fn_with_state(
            limits,
            http::limits::body_in_time,
        ))
        .layer(axum::middleware::from_fn(http::origin::check))
        .layer(axum::middleware::from_fn_with_state(
            Arc::<[std::net::IpAddr]>::from(config.trusted_proxies.clone()),
            http::client::identify,
        ));
    let app = host_checked(app, config.listen, &config.public_hosts);
    app.layer(http::compress::layer())
        .layer(axum::middleware::map_response(http::headers::add))
        .layer(axum::middleware::from_fn_with_state(
            state,
            ops::observe::observe,
        ))
}

/// Starts, once for `state`, the background work that needs the routes'
/// modules: every match that ends here is noted by the classroom that made
/// it, if one did; expired classrooms are deleted.
fn start_background(state: &AppState) {
    state.background.call_once(|| {
        let finished = state.hub.finished();
        tokio::spawn(classroom::follow_finished(
            Arc::downgrade(&state.0),
            finished,
        ));
        tokio::spawn(classroom::expire_old(Arc::downgrade(&state.0)));
    });
}

/// `app` with the Host check of a server listening on `listen`
/// ([`http::host`]): loopback hosts and `public_hosts` only on a loopback
/// address; `public_hosts` (and loopback ones) only on a network address
/// when any are given; unchecked otherwise, or when `listen` is unknown.
fn host_checked(app: Router, listen: Option<SocketAddr>, public_hosts: &[String]) -> Router {
    match listen {
        Some(listen) if http::host::is_guarded(listen) => {
            app.layer(axum::middleware::from_fn_with_state(
                http::host::Guarded {
                    listen,
                    names: public_hosts.to_vec().into(),
                },
                http::host::guard,
            ))
        }
        Some(_) if !public_hosts.is_empty() => {
            let names: Arc<[String]> = public_hosts.to_vec().into();
            app.layer(axum::middleware::from_fn_with_state(
                names,
                http::host::guard_public,
            ))
        }
        _ => app,
    }
}

/// The metrics address's routes ([`http::metrics::routes`]) on `state`,
/// with the same Host check as the app's when listening on `listen`: a
/// web page that points its own name at the metrics address reads
/// nothing; probes pass whatever their `Host`.
pub fn metrics_router_for(state: AppState, listen: SocketAddr) -> Router {
    let public_hosts = state.config.public_hosts.clone();
    host_checked(
        ops::scrape::routes().with_state(state),
        Some(listen),
        &public_hosts,
    )
}

/// [`metrics_router_for`] on a store opened for `config`.
///
/// # Errors
/// When the store cannot be opened or migrated.
pub async fn metrics_router(config: Config, listen: SocketAddr) -> Result<Router, store::DbError> {
    Ok(metrics_router_for(AppState::open(config).await?, listen))
}

async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no API route /api{}", uri.path()))
}

async fn api_method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    // A made-up method may be any length: the answer names it only when it
    // is one of HTTP's own.
    let label = http::log::method_label(&method);
    let method = if label == "other" {
        "this method"
    } else {
        label
    };
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("/api{} does not take {method}", uri.path()),
    )
}

/// Turns any plain-text error that axum itself produced (a path that does
/// not decode, …) into the API's JSON error shape.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body);
    // axum's own words for a query string that does not read.
    let text = match text
        .trim()
        .strip_prefix("Failed to deserialize query string: ")
    {
        Some(why) => format!("the query string does not read: {why}").into(),
        None => text,
    };
    let message = if text.trim().is_empty() {
        status
            .canonical_reason()
            .unwrap_or("request failed")
            .to_string()
    } else {
        text.trim().to_string()
    };
    // An error from inside the server is still answered in JSON; its status
    // is kept so that it is never mistaken for success.
    let mut out = ApiError::new(status, message).into_response();
    out.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out
}

/// Where a server started by [`run_with`] listens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// The app's address.
    pub addr: SocketAddr,
    /// The metrics address, when [`Config::metrics_addr`] is set.
    pub metrics: Option<SocketAddr>,
}

/// Binds `addr` and serves the app until the process is interrupted
/// (Ctrl-C) or terminated (SIGTERM), then stops gracefully: requests being
/// answered finish first ([`serve_until`]). `on_ready` is called with the
/// bound address (useful with port 0) once the store is open, before
/// serving.
///
/// # Errors
/// Fails when the runtime cannot start, the address cannot be bound or the
/// store cannot be opened.
pub fn run(
    addr: SocketAddr,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    run_with(addr, config, |bound| on_ready(bound.addr))
}

/// [`run`], telling `on_ready` the metrics address too.
///
/// # Errors
/// As [`run`]; also when the metrics address cannot be bound.
pub fn run_with(
    addr: SocketAddr,
    config: Config,
    on_ready: impl FnOnce(Bound),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let metrics = bind_metrics(&config).await?;
        let stop = stop_signal()?;
        // The store first: a server that cannot keep games does not say
        // it is ready.
        let opened = Opened::open(&listener, config).await?;
        let bound = Bound {
            addr: listener.local_addr()?,
            metrics: metrics.as_ref().map(|m| m.local_addr()).transpose()?,
        };
        tracing::info!(
            addr = %bound.addr,
            store = %opened.config.location().describe(),
            "serving"
        );
        if let Some(warning) = http::host::exposure_warning(bound.addr, &opened.config.public_hosts)
        {
            tracing::warn!("{warning}");
        }
        on_ready(bound);
        opened.serve_until(listener, metrics, stop).await
    })
}

/// Binds the metrics address of `config`, if it has one.
async fn bind_metrics(config: &Config) -> std::io::Result<Option<tokio::net::TcpListener>> {
    match config.metrics_addr {
        Some(addr) => tokio::net::TcpListener::bind(addr)
            .await
            .map(Some)
            .map_err(|e| std::io::Error::new(e.kind(), format!("the metrics address {addr}: {e}"))),
        None => Ok(None),
    }
}

/// Completes on Ctrl-C or, on Unix, SIGTERM.
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// Serves the app on `listener` until the process ends, checking Hosts
/// when it listens on a loopback address ([`http::host`]).
///
/// # Errors
/// Fails when the listener's address cannot be read.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    serve_until(listener, config, std::future::pending()).await
}

/// Serves the app on `listener` until `stop` completes, then stops
/// gracefully: it drains ([`http::health`]: not ready, new moves and
/// streams refused, live streams ended with a hint to reconnect), keeps
/// its listener open for [`Config::drain_delay`], then accepts no more
/// connections; requests being answered finish (up to
/// [`Config::shutdown_grace`]), idle connections close. Before serving,
/// removes the temporary files a crash may have left in the data directory
/// ([`tools::grids::clean_leftovers`]). Hosts are checked when it listens on a
/// loopback address ([`http::host`]); connections are limited and timed
/// ([`http::listen`]). The metrics are served on [`Config::metrics_addr`] when
/// set.
///
/// # Errors
/// Fails when the listener's address cannot be read, or the metrics
/// address cannot be bound.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    config: Config,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let metrics = bind_metrics(&config).await?;
    Opened::open(&listener, config)
        .await?
        .serve_until(listener, metrics, stop)
        .await
}

/// The app for one listener, its store open, not serving yet.
struct Opened {
    app: Router,
    state: AppState,
    config: Config,
}

impl Opened {
    /// Cleans the data directory's leftovers and opens the store.
    async fn open(listener: &tokio::net::TcpListener, config: Config) -> std::io::Result<Self> {
        let config = Config {
            listen: Some(listener.local_addr()?),
            ..config
        };
        tools::grids::clean_leftovers(&config.data_dir);
        let state = AppState::open(config.clone()).await.map_err(|e| {
            std::io::Error::other(format!(
                "cannot open the store ({}): {e}",
                config.location().describe()
            ))
        })?;
        Ok(Self {
            app: router_for(state.clone()),
            state,
            config,
        })
    }

    /// Serves until `stop` completes (see [`serve_until`]), and the
    /// metrics on `metrics` meanwhile.
    async fn serve_until(
        self,
        listener: tokio::net::TcpListener,
        metrics: Option<tokio::net::TcpListener>,
        stop: impl std::future::Future<Output = ()>,
    ) -> std::io::Result<()> {
        let state = self.state.clone();
        let delay = self.config.drain_delay;
        let stop = async move {
            stop.await;
            state.health.start_draining();
            // Watchers' streams never finish on their own: end them first,
            // so that stopping waits only for moves being answered.
            state.hub.stop_watchers();
            tokio::time::sleep(delay).await;
            tracing::info!("closing the listener; finishing the requests being answered");
        };
        let metrics = metrics.map(|listener| {
            let app = match listener.local_addr() {
                Ok(listen) => metrics_router_for(self.state.clone(), listen),
                Err(_) => ops::scrape::routes().with_state(self.state.clone()),
            };
            let config = Config {
                listen: None,
                ..self.config.clone()
            };
            tokio::spawn(async move {
                http::listen::serve_until(listener, app, &config, std::future::pending()).await
            })
        });
        let served = http::listen::serve_until(listener, self.app, &self.config, stop).await;
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        // SQLite's log into the database file, and cut: a stopped server
        // leaves no log behind.
        if let Err(e) = self.state.hub.db().truncate_log().await {
            tracing::warn!(error = %e, "store: the log was not cut at stop");
        }
        tracing::info!("stopped");
        served
    }
}
