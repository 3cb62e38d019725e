//! Where a player's unsaved work is kept (uploaded boards, design
//! documents): in the store, under unguessable ids, bounded in number,
//! dropped when idle, so that any server of a cluster answers for it and a
//! server's restart loses none of it (matches live in the store and the
//! hub, [`crate::matches`]).
//!
//! Terms:
//! - **id**: 128 random bits from the operating system, as 32 hex digits. It
//!   is the only key to a session: nobody can list or guess another's.
//! - **session**: one kept value (a board, a design document), as JSON in
//!   the store's `unsaved_work` ([`crate::store::unsaved`]), read and
//!   changed whole; a change made while another server changed the same
//!   session is made again on the newer value.
//! - **idle**: time since a session was last read or changed. Sessions idle
//!   longer than the limit are gone.
//! - **maker** ([`Maker`]): the client address and token that made a
//!   session. Each holds at most the kind's **budget** of sessions
//!   (per address, and per token): a new one beyond it pushes out that
//!   maker's own session idle longest. When the kind is full, the
//!   session pushed out is one of the **largest spender**'s: in the
//!   **neighbourhood** holding the most (an IPv4 address's /24, an IPv6
//!   address's /48, where one party holds many addresses cheaply), of the
//!   addresses there holding the most, a session never used since it was
//!   made first, then the one idle longest. So a flood from many addresses
//!   pushes out its own work, not everyone's, and work in use outlives work
//!   made and left.

use crate::http::client::{Client, Maker};
use crate::http::error::ApiError;
use crate::store::unsaved::{NewPiece, PieceLimits, PieceMaker};
use crate::store::{Db, now_ms};
use axum::http::StatusCode;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

/// A fresh seed for a game's dice, from the operating system.
///
/// # Errors
/// 503 when the operating system has no randomness to give.
pub fn fresh_seed() -> Result<u64, ApiError> {
    let number = crate::random::number().map_err(|e| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("no randomness for a seed: {e}"),
        )
    })?;
    // Seeds stay below 2^53 so that JavaScript reads them exactly.
    Ok(number >> 11)
}

/// The largest seed a request may give: seeds stay below 2^53 so that
/// JavaScript, which reads every JSON number as a double, reads them exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// The seed a request gave, or a fresh one when it gave none.
///
/// # Errors
/// 400 for a seed above [`MAX_SEED`] (a page could not show or replay it);
/// 503 as [`fresh_seed`].
pub fn seed_or_fresh(seed: Option<u64>) -> Result<u64, ApiError> {
    match seed {
        Some(seed) if seed > MAX_SEED => Err(ApiError::bad_request(format!(
            "a seed is a whole number from 0 to {MAX_SEED} (below 2^53), not {seed}"
        ))),
        Some(seed) => Ok(seed),
        None => fresh_seed(),
    }
}

/// A maker as the store keeps it: digests only.
fn piece_maker(maker: &Maker) -> PieceMaker {
    PieceMaker {
        client: maker.client.map(|c| Client(c).digest()).unwrap_or_default(),
        hood: maker
            .client
            .map(|c| Client(c).neighbourhood_digest())
            .unwrap_or_default(),
        token: maker.token.clone().unwrap_or_default(),
    }
}

/// How many times a change is made again when other servers keep
/// changing the same session meanwhile.
const CHANGE_TRIES: usize = 8;

/// Sessions of one kind, keyed by id, kept in the store.
pub struct Sessions<T> {
    kind: &'static str,
    limits: PieceLimits,
    db: Arc<Db>,
    value: PhantomData<fn() -> T>,
}

impl<T: Serialize + DeserializeOwned> Sessions<T> {
    /// Sessions of `kind` ("board", "design": it names them in messages and
    /// in the store), at most `capacity` (at least 1), each gone after
    /// `idle` without use, kept in `db`.
    pub fn new(kind: &'static str, capacity: usize, idle: Duration, db: Arc<Db>) -> Self {
        Self {
            kind,
            limits: PieceLimits {
                capacity: capacity.max(1) as u64,
                budget: 0,
                idle_ms: i64::try_from(idle.as_millis()).unwrap_or(i64::MAX / 4),
            },
            db,
            value: PhantomData,
        }
    }

    /// The same sessions, each maker (address, token) holding at most
    /// `budget` of them; 0 for no budget.
    #[must_use]
    pub fn with_budget(mut self, budget: usize) -> Self {
        self.limits.budget = budget as u64;
        self
    }

    /// Keeps `value`, made by `maker`, under a fresh id and returns the id,
    /// making room first as the module's terms say.
    ///
    /// # Errors
    /// 503 when no id can be drawn or the store fails.
    pub async fn insert_by(&self, value: &T, maker: &Maker) -> Result<String, ApiError> {
        let id = crate::random::fresh_secret()?;
        let piece = NewPiece {
            kind: self.kind,
            id: id.clone(),
            body: self.write(value)?,
            maker: piece_maker(maker),
        };
        self.db.put_piece(piece, self.limits, now_ms()).await?;
        Ok(id)
    }

    /// The session `id` (and marks it used).
    ///
    /// # Errors
    /// 404 when there is no such session (never was, idle too long, or
    /// pushed out); 500 `damaged_record` when the store holds what does
    /// not read; the store's failure.
    pub async fn get(&self, id: &str) -> Result<T, ApiError> {
        Ok(self.read(id).await?.0)
    }

    /// Changes the session `id` by `change` and keeps the result when
    /// `change` succeeds; answers what `change` answered. When another
    /// server changed it meanwhile, `change` runs again on the newer value.
    ///
    /// # Errors
    /// As [`Sessions::get`]; `change`'s error (nothing is kept); 409 when
    /// other changes won [`CHANGE_TRIES`] times in a row.
    pub async fn update<R>(
        &self,
        id: &str,
        mut change: impl FnMut(&mut T) -> Result<R, ApiError>,
    ) -> Result<R, ApiError> {
        for attempt in 0..CHANGE_TRIES {
            if attempt > 0 {
                // Out of step with the other changer: wait a little, by
                // chance, before reading again.
                let wait = crate::random::number().unwrap_or(0) % (4 << attempt);
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            let (mut value, version, before) = self.read(id).await?;
            let answer = change(&mut value)?;
            let after = self.write(&value)?;
            if after == before
                || self
                    .db
                    .replace_piece(self.kind, id, after, version, now_ms())
                    .await?
            {
                return Ok(answer);
            }
        }
        Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "this {} kept changing elsewhere while it was changed here; try again",
                self.kind
            ),
        ))
    }

    /// Removes the session `id`.
    ///
    /// # Errors
    /// A 404 naming the kind of session when there is no session `id`; the
    /// store's failure.
    pub async fn remove(&self, id: &str) -> Result<(), ApiError> {
        if self.db.remove_piece(self.kind, id).await? {
            Ok(())
        } else {
            Err(self.missing(id))
        }
    }

    /// How many sessions of the kind are kept (idle ones included until
    /// the next is kept).
    ///
    /// # Errors
    /// The store's failure.
    pub async fn count(&self) -> Result<u64, ApiError> {
        Ok(self.db.count_pieces(self.kind).await?)
    }

    /// The session `id`, its version and its JSON as kept.
    async fn read(&self, id: &str) -> Result<(T, i64, String), ApiError> {
        let piece = self
            .db
            .take_piece(self.kind, id, self.limits.idle_ms, now_ms())
            .await?
            .ok_or_else(|| self.missing(id))?;
        let value = serde_json::from_str(&piece.body).map_err(|e| {
            ApiError::from(crate::store::DbError::Damaged(format!(
                "the {} does not read: {e}",
                self.kind
            )))
        })?;
        Ok((value, piece.version, piece.body))
    }

    fn write(&self, value: &T) -> Result<String, ApiError> {
        serde_json::to_string(value).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the {} could not be written: {e}", self.kind),
            )
        })
    }

    fn missing(&self, id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::not_found(format!(
            "no {} '{shown}' (it may have ended after a long idle time; start a new one)",
            self.kind
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Durability, Location};

    #[test]
    fn ids_are_32_hex_digits_and_differ() {
        let a = crate::random::fresh_secret().unwrap();
        let b = crate::random::fresh_secret().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn seeds_fit_in_a_javascript_number() {
        for _ in 0..100 {
            assert!(fresh_seed().unwrap() < 1 << 53);
        }
    }

    /// A store of its own in a folder that lives as long as the test.
    async fn store() -> (Arc<Db>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(
            &Location::default_for(dir.path()),
            Durability::Process,
            None,
        )
        .await
        .unwrap();
        (Arc::new(db), dir)
    }

    fn sessions(db: &Arc<Db>, capacity: usize) -> Sessions<u32> {
        Sessions::new("design", capacity, Duration::from_secs(60), Arc::clone(db))
    }

    async fn kept(store: &Sessions<u32>, id: &str) -> bool {
        store.get(id).await.is_ok()
    }

    /// Moves time on past the store's millisecond clock, so that "idle
    /// longest" is told apart.
    async fn tick() {
        tokio::time::sleep(Duration::from_millis(3)).await;
    }

    #[tokio::test]
    async fn sessions_are_found_changed_and_removed() {
        let (db, _dir) = store().await;
        let store = Sessions::new("game", 10, Duration::from_secs(60), db);
        let id = store.insert_by(&1u32, &Maker::default()).await.unwrap();
        let answer = store
            .update(&id, |v| {
                *v += 1;
                Ok(*v * 10)
            })
            .await
            .unwrap();
        assert_eq!(answer, 20);
        assert_eq!(store.get(&id).await.unwrap(), 2);
        // A change that fails keeps nothing.
        let refused = store
            .update(&id, |v| {
                *v = 99;
                Err::<(), _>(ApiError::bad_request("no"))
            })
            .await;
        assert!(refused.is_err());
        assert_eq!(store.get(&id).await.unwrap(), 2);
        let err = store.get("nope").await.unwrap_err();
        assert_eq!(err.status, StatusCode::NOT_FOUND);
        assert!(err.message.contains("no game 'nope'"), "{}", err.message);
        store.remove(&id).await.unwrap();
        assert_eq!(store.count().await.unwrap(), 0);
        let again = store.remove(&id).await.unwrap_err();
        assert_eq!(again.status, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn two_servers_on_one_store_share_sessions_and_changes_are_not_lost() {
        let (db, _dir) = store().await;
        let here = sessions(&db, 10);
        let there = sessions(&db, 10);
        let id = here.insert_by(&0, &Maker::default()).await.unwrap();
        // Changes made on both, four at once (a person's tabs on two
        // servers): each one counts.
        for _ in 0..10 {
            let mut changes = Vec::new();
            for n in 0..4 {
                let (store, id) = (if n % 2 == 0 { &here } else { &there }, id.clone());
                changes.push(async move {
                    store
                        .update(&id, |v| {
                            *v += 1;
                            Ok(())
                        })
                        .await
                });
            }
            for done in futures_util::future::join_all(changes).await {
                done.unwrap();
            }
        }
        assert_eq!(there.get(&id).await.unwrap(), 40);
    }

    #[tokio::test]
    async fn a_full_kind_drops_the_session_idle_longest() {
        let (db, _dir) = store().await;
        let store = sessions(&db, 3);
        let mut ids = Vec::new();
        for i in 0..3 {
            tick().await;
            ids.push(store.insert_by(&i, &Maker::default()).await.unwrap());
        }
        // Use the first, so the second is now the one idle longest.
        tick().await;
        for id in &ids {
            store.get(id).await.unwrap();
            tick().await;
        }
        store.get(&ids[0]).await.unwrap();
        let newest = store.insert_by(&3, &Maker::default()).await.unwrap();
        assert_eq!(store.count().await.unwrap(), 3);
        assert!(!kept(&store, &ids[1]).await);
        assert!(kept(&store, &ids[0]).await);
        assert!(kept(&store, &ids[2]).await);
        assert!(kept(&store, &newest).await);
    }

    fn maker(n: u8) -> Maker {
        Maker {
            client: Some(std::net::IpAddr::from([127, 0, 0, n])),
            token: None,
        }
    }

    #[tokio::test]
    async fn a_maker_past_its_budget_pushes_out_its_own_oldest() {
        let (db, _dir) = store().await;
        let store = sessions(&db, 100).with_budget(2);
        let victim = store.insert_by(&0, &maker(3)).await.unwrap();
        let first = store.insert_by(&1, &maker(2)).await.unwrap();
        tick().await;
        let second = store.insert_by(&2, &maker(2)).await.unwrap();
        tick().await;
        let third = store.insert_by(&3, &maker(2)).await.unwrap();
        assert!(!kept(&store, &first).await, "its own oldest went");
        for id in [&victim, &second, &third] {
            assert!(kept(&store, id).await);
        }
        // The same by token, from any address.
        let token = |n: u8| Maker {
            token: Some("t".into()),
            ..maker(n)
        };
        let a = store.insert_by(&4, &token(10)).await.unwrap();
        tick().await;
        store.insert_by(&5, &token(11)).await.unwrap();
        tick().await;
        store.insert_by(&6, &token(12)).await.unwrap();
        assert!(!kept(&store, &a).await);
    }

    #[tokio::test]
    async fn a_full_kind_takes_from_the_largest_spender_first() {
        let (db, _dir) = store().await;
        let store = sessions(&db, 5);
        // Another neighbourhood (/24) than the flood's.
        let elsewhere = Maker {
            client: Some(std::net::IpAddr::from([127, 0, 1, 3])),
            token: None,
        };
        let victim = store.insert_by(&0, &elsewhere).await.unwrap();
        tick().await;
        let mut flood = Vec::new();
        for i in 0..20 {
            flood.push(store.insert_by(&i, &maker(2)).await.unwrap());
        }
        assert_eq!(store.count().await.unwrap(), 5);
        assert!(
            kept(&store, &victim).await,
            "the oldest, but not the largest spender's"
        );
        assert!(kept(&store, &flood[19]).await);
        assert!(!kept(&store, &flood[0]).await);
    }

    #[tokio::test]
    async fn a_flood_from_many_addresses_takes_from_its_own_neighbourhood() {
        let (db, _dir) = store().await;
        let store = sessions(&db, 20).with_budget(1);
        // Ten people on addresses of their own, each using what they made.
        let mut victims = Vec::new();
        for n in 0..10u8 {
            let maker = Maker {
                client: Some(std::net::IpAddr::from([10, n, 0, 1])),
                token: None,
            };
            let id = store.insert_by(&u32::from(n), &maker).await.unwrap();
            store.get(&id).await.unwrap();
            victims.push(id);
        }
        // 500 addresses, one session each, from a few neighbourhoods.
        for i in 0..500u32 {
            let [_, _, c, d] = i.to_be_bytes();
            let maker = Maker {
                client: Some(std::net::IpAddr::from([192, 0, c, d])),
                token: None,
            };
            store.insert_by(&0, &maker).await.unwrap();
        }
        assert_eq!(store.count().await.unwrap(), 20);
        for id in &victims {
            assert!(kept(&store, id).await, "a victim's session went");
        }
        // IPv6: /64s are cheap, a /48 is one neighbourhood.
        let hood = |a: &str| Client(a.parse().unwrap()).neighbourhood();
        assert_eq!(hood("2001:db8:1:2::1"), hood("2001:db8:1:ffff::9"));
        assert_ne!(hood("2001:db8:1::1"), hood("2001:db8:2::1"));
    }

    #[tokio::test]
    async fn idle_sessions_expire() {
        let (db, _dir) = store().await;
        let store: Sessions<u32> = Sessions::new("game", 10, Duration::ZERO, db);
        let id = store.insert_by(&0, &Maker::default()).await.unwrap();
        tick().await;
        assert_eq!(
            store.get(&id).await.unwrap_err().status,
            StatusCode::NOT_FOUND
        );
    }
}
