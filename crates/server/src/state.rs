//! What every handler shares while the server runs.
//!
//! Terms:
//! - **state** ([`AppState`]): a cheap handle on [`Shared`]: the settings,
//!   the live matches and the store behind them ([`Hub`]), the sessions
//!   (uploaded boards, design documents), the long-work lines, draining,
//!   the rates and streams per client, and the classrooms' memory
//!   ([`Classrooms`]).
//! - **classrooms' memory** ([`Classrooms`]): the channel that tells a
//!   classroom's live pages it changed, and the exact figures worked out
//!   for each classroom's setup, kept for the next look.
//!
//! This module is below every module that handles a request: it uses the
//! settings, the store, the hub, the sessions, the work lines and the
//! exact figures, and none of the modules that use it. The background
//! work that needs the routes' modules (the classrooms noting finished
//! games) is started by the crate's wiring (`lib.rs`).

use crate::config::Config;
use crate::exact::Exact;
use crate::hub::Hub;
use crate::sessions::Sessions;
use crate::{http, store, work};
use chutes::Board;
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::{Arc, Mutex, Once};
use tokio::sync::broadcast;

/// What every handler shares.
pub struct Shared {
    /// The settings.
    pub config: Config,
    /// Uploaded Chutes & Ladders boards.
    pub boards: Sessions<Board>,
    /// Tycoon design documents.
    pub designs: Sessions<tycoon::design::Designer>,
    /// The matches of every game, and the store.
    pub hub: Arc<Hub>,
    /// The slots for long answers.
    pub long_work: work::LongWork,
    /// Draining and readiness ([`http::health`]).
    pub health: http::health::Health,
    /// The rates per client address ([`http::fair`]).
    pub rates: Arc<http::fair::Rates>,
    /// The live streams per client address ([`http::fair::Streams`]).
    pub streams: Arc<http::fair::Streams>,
    /// The classrooms' live pages and exact figures.
    pub classrooms: Classrooms,
    /// Whether the background work needing the routes was started.
    pub(crate) background: Once,
}

/// What the classrooms share on this server.
pub struct Classrooms {
    /// The id of each classroom this server changed, for its live pages.
    pub(crate) changed: broadcast::Sender<String>,
    /// The exact figures by classroom and setup (`classroom::view`'s key).
    pub(crate) exact: Mutex<HashMap<String, Arc<Exact>>>,
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
    /// Tells the live pages of classroom `id` that it changed.
    pub(crate) fn tell(&self, id: &str) {
        let _ = self.changed.send(id.to_string());
    }
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
            Some(&config.grid_folder()),
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
        let hub = Hub::new(
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
            classrooms: Classrooms::default(),
            background: Once::new(),
            config,
        }));
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
