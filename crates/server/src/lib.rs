//! Parlor's web app: the pages a browser shows and the JSON API they use.
//!
//! Terms:
//! - **router** ([`router`]): every route — the pages, their static assets
//!   (embedded in the binary), and the API under `/api` (see `docs/api.md`).
//! - **state** ([`AppState`]): the live matches and the store behind them
//!   ([`matches::Hub`], [`store`]), the in-memory sessions (uploaded boards,
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
pub mod http;
pub mod logged;
pub mod matches;
pub mod random;
pub mod sessions;
pub mod store;
pub mod tools;
pub mod work;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chutes::Board;
use http::error::ApiError;
use sessions::Sessions;
use std::net::SocketAddr;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How the app is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The games matches may be of: this Parlor's own by default.
    pub games: games::Registry,
    /// Where saved grids go (created when first needed).
    pub data_dir: PathBuf,
    /// The most sessions of each kind (uploaded boards, design documents)
    /// kept at once.
    pub max_sessions: usize,
    /// How long a session may sit unused before it is dropped.
    pub idle: Duration,
    /// The largest request body accepted, in bytes.
    pub body_limit: usize,
    /// The address the server listens on, when known ([`run`] and [`serve`]
    /// set it). On a loopback address the router checks every request's
    /// Host ([`http::host`]); on another address only against
    /// [`Config::public_hosts`], when there are any.
    pub listen: Option<SocketAddr>,
    /// The names people reach the server by (`--public-host`): on a
    /// network address, when any is given, requests for other hosts
    /// (loopback ones aside) are refused ([`http::host::guard_public`]);
    /// on a loopback address, behind a reverse proxy on the same machine,
    /// they are answered besides loopback ones ([`http::host::guard`]).
    pub public_hosts: Vec<String>,
    /// The most long answers (solver hints, bot moves, analyses) worked
    /// out at once in each line ([`work`]); more are refused with a 503.
    /// The long line works on this many threads of its own, which run at a
    /// lower priority than the rest of the server (a nice value
    /// [`work::LONG_NICENESS`] above the server's) so that the solver does
    /// not take the cores from moves.
    pub max_long_work: usize,
    /// How long one long answer may work before it is stopped and
    /// answered with a 503 ([`work`]).
    pub long_work_limit: Duration,
    /// The most states (the algorithm's own: squares × chute counts ×
    /// ladder counts for shortest games) one piece of long work may hold;
    /// all of it together may hold this times [`Config::max_long_work`]
    /// ([`work::Memory`]).
    pub long_work_states: u64,
    /// How long work estimated to be quick may take in the quick line
    /// before it moves to the long line ([`work`]).
    pub quick_work_limit: Duration,
    /// The most connections open at once ([`http::listen`]).
    pub max_connections: usize,
    /// How long a connection may take to send a request's headers, and
    /// stay silent between requests ([`http::listen`]).
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive ([`http::limits`]).
    pub body_timeout: Duration,
    /// How long requests being answered have to finish when the server is
    /// told to stop ([`serve_until`]).
    pub shutdown_grace: Duration,
    /// How long the server, told to stop, keeps its listener open while it
    /// answers not ready and refuses new moves ([`http::health`]), so that
    /// a load balancer's checks see it go before it closes.
    pub drain_delay: Duration,
    /// Where the metrics and the health checks are served besides
    /// ([`http::metrics`]); none for nowhere (`/healthz` and `/readyz` are
    /// on the main address too, `/metrics` only here).
    pub metrics_addr: Option<SocketAddr>,
    /// Where the store is: none for `parlor.db` in the data directory.
    pub database: Option<store::Location>,
    /// How long one call waits for the store before it is given up and the
    /// request answered `503` with `Retry-After` ([`store::Db::set_timeout`]).
    pub store_timeout: Duration,
    /// How hard SQLite holds on to each commit.
    pub durability: store::Durability,
    /// The most idle matches kept in memory (the store keeps them all).
    pub live_matches: usize,
    /// The load balancers in front of this server (`--trusted-proxy`):
    /// only from these is `X-Forwarded-For` read for the client's address
    /// ([`http::client`]).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// How many things (matches, designs, boards, saves) each client
    /// address may make a minute, and how many long answers it may ask
    /// for, in bursts of as many ([`http::fair`]); 0 for no limit.
    pub rate_limit: u32,
    /// The most unfinished matches one client address, or one token, may
    /// have made ([`store`]); 0 for no limit.
    pub matches_per_client: u32,
    /// How long an unfinished match nobody has moved in or joined is kept
    /// ([`store`]); a match played in is kept 30 days after its last move.
    pub unplayed_kept: Duration,
    /// The most sessions of each kind (uploaded boards, designs) one
    /// client address, or one token, holds ([`sessions`]); 0 for no
    /// budget. A new one beyond it pushes out the maker's own oldest.
    pub sessions_per_client: usize,
    /// The most grids one owner (a token, else a client address) may have
    /// saved ([`tools::grids`]); 0 for no limit. The store holds at most
    /// [`store::MAX_GRIDS`] in all.
    pub grids_per_client: u32,
    /// The most connections one client address holds at once
    /// ([`http::listen`]); 0 for no limit. Trusted proxies are not held to
    /// it.
    pub connections_per_client: usize,
    /// The most live event streams one client address holds at once
    /// ([`http::fair::Streams`]); 0 for no limit.
    pub streams_per_client: usize,
    /// For whoever works on the pages: serve them from this folder (the
    /// source's `crates/server/web`), read at each request, instead of the
    /// copies built into the binary ([`assets`]).
    pub web_dir: Option<PathBuf>,
}

impl Config {
    /// The defaults, with files under `data_dir`: 1,000 sessions of each
    /// kind, dropped after 2 hours idle, request bodies up to 1 MiB, the
    /// listening address unknown (no Host check until [`serve`] sets it),
    /// as many long answers at once as the machine has cores (at least 2)
    /// in each line, the long line's on as many threads at a lower
    /// priority, 10 s for one long answer and ½ s in the quick line,
    /// 2,000,000 states (about 46 MB) for one long answer,
    /// 1,024 connections (or three quarters of the open-file limit when
    /// that is lower), 10 s for headers and for bodies, 10 s to finish
    /// when stopping with no drain delay before it, no metrics address;
    /// the store in `parlor.db` in the data directory, committed to its
    /// log before a move is answered, 5 s for it to answer; 1,000 idle matches in memory; no
    /// trusted proxy, 60 things made and 60 long answers a minute per
    /// client address, 100 unfinished matches per address and per token,
    /// unplayed matches kept 6 hours; 100 sessions of each kind and 100
    /// saved grids per client, 64 connections and 32 live streams
    /// per client address.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            games: games::Registry::standard(),
            data_dir: data_dir.into(),
            max_sessions: 1000,
            idle: Duration::from_secs(2 * 60 * 60),
            body_limit: 1 << 20,
            listen: None,
            public_hosts: Vec::new(),
            max_long_work: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
            long_work_limit: Duration::from_secs(10),
            quick_work_limit: Duration::from_millis(500),
            long_work_states: 2_000_000,
            max_connections: http::listen::default_max_connections(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(10),
            drain_delay: Duration::ZERO,
            metrics_addr: None,
            database: None,
            store_timeout: store::DEFAULT_STORE_TIMEOUT,
            durability: store::Durability::default(),
            live_matches: 1000,
            trusted_proxies: Vec::new(),
            rate_limit: 60,
            matches_per_client: 100,
            unplayed_kept: Duration::from_secs(6 * 60 * 60),
            sessions_per_client: 100,
            grids_per_client: 100,
            connections_per_client: 64,
            streams_per_client: 32,
            web_dir: None,
        }
    }

    /// Where the store is.
    pub fn location(&self) -> store::Location {
        self.database
            .clone()
            .unwrap_or_else(|| store::Location::default_for(&self.data_dir))
    }
}

/// What every handler shares.
pub struct Shared {
    /// The settings.
    pub config: Config,
    /// Uploaded Chutes & Ladders boards.
    pub boards: Sessions<Board>,
    /// Tycoon design documents.
    pub designs: tools::tycoon::Designs,
    /// The matches of every game, and the store.
    pub hub: Arc<matches::Hub>,
    /// The slots for long answers.
    pub long_work: work::LongWork,
    /// Draining and readiness ([`http::health`]).
    pub health: http::health::Health,
    /// The rates per client address ([`http::fair`]).
    pub rates: Arc<http::fair::Rates>,
    /// The live streams per client address ([`http::fair::Streams`]).
    pub streams: Arc<http::fair::Streams>,
    /// The classrooms' live pages and exact figures ([`classroom`]).
    pub classrooms: classroom::Classrooms,
}

/// A cheap handle on [`Shared`].
#[derive(Clone)]
pub struct AppState(pub(crate) Arc<Shared>);

impl AppState {
    /// Opens the store for `config` and makes the state around it.
    ///
    /// # Errors
    /// When the store cannot be opened or migrated.
    pub async fn open(config: Config) -> Result<Self, store::DbError> {
        let mut db = store::Db::open(
            &config.location(),
            config.durability,
            Some(&tools::grids::folder(&config.data_dir)),
        )
        .await?;
        db.set_timeout(config.store_timeout);
        db.set_bounds(store::Bounds {
            per_creator: config.matches_per_client,
            unplayed_kept: config.unplayed_kept,
        });
        let n = config.max_sessions;
        let idle = config.idle;
        let db = Arc::new(db);
        let hub = matches::Hub::new(
            Arc::clone(&db),
            config.games.clone(),
            config.live_matches,
            config.max_long_work,
        );
        let state = Self(Arc::new(Shared {
            boards: Sessions::new("board", n, idle, Arc::clone(&db))
                .with_budget(config.sessions_per_client),
            designs: Sessions::new("design", n, idle, db).with_budget(config.sessions_per_client),
            hub,
            long_work: work::LongWork::new(&config),
            health: http::health::Health::default(),
            rates: Arc::new(http::fair::Rates::new(config.rate_limit)),
            streams: Arc::new(http::fair::Streams::new(
                config.streams_per_client,
                (config.max_connections / 4 * 3).max(1),
            )),
            classrooms: classroom::Classrooms::default(),
            config,
        }));
        // Every match that ends here is noted by the classroom that made
        // it, if one did; expired classrooms are deleted.
        let finished = state.hub.finished();
        tokio::spawn(classroom::follow_finished(
            Arc::downgrade(&state.0),
            finished,
        ));
        tokio::spawn(classroom::expire_old(Arc::downgrade(&state.0)));
        let rates = Arc::downgrade(&state.rates);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(http::fair::FORGET_EVERY).await;
                match rates.upgrade() {
                    Some(rates) => rates.forget_idle(),
                    None => break,
                }
            }
        });
        Ok(state)
    }
}

impl Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

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
    let config = state.config.clone();
    let limit = config.body_limit;
    let limits = Arc::new(config.clone());
    let api = Router::new()
        .merge(matches::routes())
        .nest(
            "/baffle",
            tools::baffle::routes().merge(matches::baffle::routes()),
        )
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
            http::health::refuse_while_draining,
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
        .merge(http::health::routes())
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
    app.layer(axum::middleware::map_response(http::headers::add))
        .layer(axum::middleware::from_fn_with_state(
            state,
            http::log::observe,
        ))
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
        http::metrics::routes().with_state(state),
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

/// A picture from `render` as an SVG answer; a picture `render` refuses (a
/// board too big to draw) is a 422 with its reason.
///
/// # Errors
/// 422 with the renderer's reason.
pub fn svg_response(
    picture: Result<render::Picture, render::RenderError>,
) -> Result<Response, ApiError> {
    svg_text_response(picture.map(|p| p.to_svg()))
}

/// A picture's SVG text (written already, off the request's thread) as an
/// answer; a picture `render` refused is a 422 with its reason.
///
/// # Errors
/// 422 with the renderer's reason.
pub fn svg_text_response(svg: Result<String, render::RenderError>) -> Result<Response, ApiError> {
    let svg = svg.map_err(|e| ApiError::unprocessable(format!("cannot draw this: {e}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        svg,
    )
        .into_response())
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
                Err(_) => http::metrics::routes().with_state(self.state.clone()),
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
