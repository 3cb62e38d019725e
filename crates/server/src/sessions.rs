//! Where uploaded boards and design documents are kept: in memory, under
//! unguessable ids, bounded in number, evicted when idle (matches live in
//! the store and the hub, [`crate::matches`]).
//!
//! Terms:
//! - **id**: 128 random bits from the operating system, as 32 hex digits. It
//!   is the only key to a session: nobody can list or guess another's.
//! - **session**: one stored value (a board, a design document).
//! - **idle**: time since a session was last read or changed. Sessions idle
//!   longer than the store's limit are dropped.
//! - **maker** ([`Maker`]): the client address and token that made a
//!   session. Each holds at most the store's **budget** of sessions
//!   (per address, and per token): a new one beyond it pushes out that
//!   maker's own session idle longest. When the whole store is full, the
//!   session pushed out is one of the **largest spender**'s: in the
//!   **neighbourhood** holding the most (an IPv4 address's /24, an IPv6
//!   address's /48, where one party holds many addresses cheaply), of the
//!   addresses there holding the most, a session never used since it was
//!   made first, then the one idle longest. So a flood from many addresses pushes out its own work, not
//!   everyone's, and work in use outlives work made and left.

use crate::http::client::Maker;
use crate::http::error::ApiError;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

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

struct Entry<T> {
    value: T,
    touched: Instant,
    /// Whether it has been used since it was made.
    used: bool,
    maker: Maker,
}

/// The neighbourhood an address is counted in when the store is full
/// (see the module's terms); none for a session of no known maker.
fn neighbourhood(client: Option<std::net::IpAddr>) -> Option<std::net::IpAddr> {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    Some(match client? {
        IpAddr::V4(v4) => IpAddr::V4(Ipv4Addr::from(u32::from(v4) & !0xff)),
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 80) - 1))),
    })
}

/// Sessions of one kind, keyed by id.
pub struct Sessions<T> {
    kind: &'static str,
    capacity: usize,
    idle: Duration,
    budget: usize,
    entries: Mutex<HashMap<String, Entry<T>>>,
}

impl<T> Sessions<T> {
    /// A store of at most `capacity` sessions (at least 1), each dropped after
    /// `idle` without use. `kind` names the sessions in messages ("game").
    pub fn new(kind: &'static str, capacity: usize, idle: Duration) -> Self {
        Self {
            kind,
            capacity: capacity.max(1),
            idle,
            budget: 0,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The same store, each maker (address, token) holding at most
    /// `budget` sessions; 0 for no budget.
    #[must_use]
    pub fn with_budget(mut self, budget: usize) -> Self {
        self.budget = budget;
        self
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry<T>>> {
        // A panic elsewhere cannot leave a map half-updated: recover it.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Stores `value`, made by no known maker, under a fresh id and
    /// returns the id ([`Sessions::insert_by`]).
    ///
    /// # Errors
    /// 503 when no id can be drawn.
    pub fn insert(&self, value: T) -> Result<String, ApiError> {
        self.insert_by(value, &Maker::default())
    }

    /// Stores `value` made by `maker` under a fresh id and returns the id.
    /// Drops idle sessions first; then, past the maker's budget, the
    /// maker's own session idle longest; then, if the store is still full,
    /// one of the largest spender's (see the module's terms).
    ///
    /// # Errors
    /// 503 when no id can be drawn.
    pub fn insert_by(&self, value: T, maker: &Maker) -> Result<String, ApiError> {
        let id = crate::random::fresh_secret()?;
        let now = Instant::now();
        let mut map = self.lock();
        map.retain(|_, e| now.duration_since(e.touched) <= self.idle);
        if self.budget > 0 {
            if let Some(client) = maker.client {
                while evict_oldest(&mut map, self.budget, |e| e.maker.client == Some(client)) {}
            }
            if let Some(token) = &maker.token {
                let token = Some(token);
                while evict_oldest(&mut map, self.budget, |e| e.maker.token.as_ref() == token) {}
            }
        }
        while map.len() >= self.capacity && evict_from_largest(&mut map) {}
        map.insert(
            id.clone(),
            Entry {
                value,
                touched: now,
                used: false,
                maker: maker.clone(),
            },
        );
        Ok(id)
    }

    /// Runs `f` on the session `id` (and marks it used).
    ///
    /// # Errors
    /// 404 when there is no such session (never was, or was evicted).
    pub fn with<R>(&self, id: &str, f: impl FnOnce(&mut T) -> R) -> Result<R, ApiError> {
        let now = Instant::now();
        let mut map = self.lock();
        match map.get_mut(id) {
            Some(entry) if now.duration_since(entry.touched) <= self.idle => {
                entry.touched = now;
                entry.used = true;
                Ok(f(&mut entry.value))
            }
            Some(_) => {
                map.remove(id);
                Err(self.missing(id))
            }
            None => Err(self.missing(id)),
        }
    }

    /// Removes the session `id`.
    ///
    /// # Errors
    /// A 404 naming the kind of session when there is no session `id`.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        match self.lock().remove(id) {
            Some(_) => Ok(()),
            None => Err(self.missing(id)),
        }
    }

    /// How many sessions are stored (idle ones included until the next
    /// insert drops them).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the store holds no session.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn missing(&self, id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::not_found(format!(
            "no {} '{shown}' (it may have ended after a long idle time; start a new one)",
            self.kind
        ))
    }
}

/// Removes one session of the largest spender (see the module's terms):
/// in the neighbourhood holding the most, of the addresses there holding
/// the most, one never used since made if any, the one idle longest. True
/// when one was removed.
fn evict_from_largest<T>(map: &mut HashMap<String, Entry<T>>) -> bool {
    use std::net::IpAddr;
    let mut hoods: HashMap<Option<IpAddr>, usize> = HashMap::new();
    for entry in map.values() {
        *hoods.entry(neighbourhood(entry.maker.client)).or_insert(0) += 1;
    }
    let Some((&hood, _)) = hoods.iter().max_by_key(|&(_, n)| *n) else {
        return false;
    };
    let mut held: HashMap<Option<IpAddr>, usize> = HashMap::new();
    for entry in map.values() {
        if neighbourhood(entry.maker.client) == hood {
            *held.entry(entry.maker.client).or_insert(0) += 1;
        }
    }
    let most = held.values().copied().max().unwrap_or(0);
    let chosen = map
        .iter()
        .filter(|(_, e)| {
            neighbourhood(e.maker.client) == hood
                && held.get(&e.maker.client).copied() == Some(most)
        })
        // Never used first (false < true), then idle longest.
        .min_by_key(|(_, e)| (e.used, e.touched))
        .map(|(id, _)| id.clone());
    chosen.is_some_and(|id| map.remove(&id).is_some())
}

/// Removes the session idle longest among those `mine` picks, when they
/// number `at_least` or more; true when one was removed.
fn evict_oldest<T>(
    map: &mut HashMap<String, Entry<T>>,
    at_least: usize,
    mine: impl Fn(&Entry<T>) -> bool,
) -> bool {
    let mut count = 0;
    let mut oldest: Option<(&String, Instant)> = None;
    for (id, entry) in map.iter().filter(|(_, e)| mine(e)) {
        count += 1;
        if oldest.is_none_or(|(_, at)| entry.touched < at) {
            oldest = Some((id, entry.touched));
        }
    }
    if count < at_least.max(1) {
        return false;
    }
    match oldest.map(|(id, _)| id.clone()) {
        Some(id) => map.remove(&id).is_some(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn sessions_are_found_changed_and_removed() {
        let store = Sessions::new("game", 10, Duration::from_secs(60));
        let id = store.insert(1).unwrap();
        store.with(&id, |v| *v += 1).unwrap();
        assert_eq!(store.with(&id, |v| *v).unwrap(), 2);
        let err = store.with("nope", |v| *v).unwrap_err();
        assert_eq!(err.status, StatusCode::NOT_FOUND);
        assert!(err.message.contains("no game 'nope'"), "{}", err.message);
        store.remove(&id).unwrap();
        assert!(store.is_empty());
        let again = store.remove(&id).unwrap_err();
        assert_eq!(again.status, StatusCode::NOT_FOUND);
    }

    #[test]
    fn a_full_store_drops_the_session_idle_longest() {
        let store = Sessions::new("game", 3, Duration::from_secs(60));
        let ids: Vec<String> = (0..3)
            .map(|i| {
                std::thread::sleep(Duration::from_millis(2));
                store.insert(i).unwrap()
            })
            .collect();
        // Use the first, so the second is now the one idle longest.
        std::thread::sleep(Duration::from_millis(2));
        store.with(&ids[0], |_| ()).unwrap();
        let newest = store.insert(3).unwrap();
        assert_eq!(store.len(), 3);
        assert!(store.with(&ids[1], |_| ()).is_err());
        assert!(store.with(&ids[0], |_| ()).is_ok());
        assert!(store.with(&ids[2], |_| ()).is_ok());
        assert!(store.with(&newest, |_| ()).is_ok());
    }

    fn maker(n: u8) -> Maker {
        Maker {
            client: Some(std::net::IpAddr::from([127, 0, 0, n])),
            token: None,
        }
    }

    #[test]
    fn a_maker_past_its_budget_pushes_out_its_own_oldest() {
        let store = Sessions::new("design", 100, Duration::from_secs(60)).with_budget(2);
        let victim = store.insert_by(0, &maker(3)).unwrap();
        let first = store.insert_by(1, &maker(2)).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let second = store.insert_by(2, &maker(2)).unwrap();
        let third = store.insert_by(3, &maker(2)).unwrap();
        assert!(store.with(&first, |_| ()).is_err(), "its own oldest went");
        for kept in [&victim, &second, &third] {
            assert!(store.with(kept, |_| ()).is_ok());
        }
        // The same by token, from any address.
        let token = |n: u8| Maker {
            token: Some("t".into()),
            ..maker(n)
        };
        let a = store.insert_by(4, &token(10)).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        store.insert_by(5, &token(11)).unwrap();
        store.insert_by(6, &token(12)).unwrap();
        assert!(store.with(&a, |_| ()).is_err());
    }

    #[test]
    fn a_full_store_takes_from_the_largest_spender_first() {
        let store = Sessions::new("design", 5, Duration::from_secs(60));
        // Another neighbourhood (/24) than the flood's.
        let elsewhere = Maker {
            client: Some(std::net::IpAddr::from([127, 0, 1, 3])),
            token: None,
        };
        let victim = store.insert_by(0, &elsewhere).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let flood: Vec<String> = (0..20)
            .map(|i| store.insert_by(i, &maker(2)).unwrap())
            .collect();
        assert_eq!(store.len(), 5);
        assert!(
            store.with(&victim, |_| ()).is_ok(),
            "the oldest, but not the largest spender's"
        );
        assert!(store.with(&flood[19], |_| ()).is_ok());
        assert!(store.with(&flood[0], |_| ()).is_err());
    }

    #[test]
    fn a_flood_from_many_addresses_takes_from_its_own_neighbourhood() {
        let store = Sessions::new("design", 20, Duration::from_secs(60)).with_budget(1);
        // Ten people on addresses of their own, each using what they made.
        let victims: Vec<String> = (0..10u8)
            .map(|n| {
                let maker = Maker {
                    client: Some(std::net::IpAddr::from([10, n, 0, 1])),
                    token: None,
                };
                let id = store.insert_by(n, &maker).unwrap();
                store.with(&id, |_| ()).unwrap();
                id
            })
            .collect();
        // 2,000 addresses, one session each, from a few neighbourhoods.
        for i in 0..2000u32 {
            let [_, _, c, d] = i.to_be_bytes();
            let maker = Maker {
                client: Some(std::net::IpAddr::from([192, 0, c, d])),
                token: None,
            };
            store.insert_by(0, &maker).unwrap();
        }
        assert_eq!(store.len(), 20);
        for id in &victims {
            assert!(store.with(id, |_| ()).is_ok(), "a victim's session went");
        }
        // IPv6: /64s are cheap, a /48 is one neighbourhood.
        assert_eq!(
            neighbourhood(Some("2001:db8:1:2::1".parse().unwrap())),
            neighbourhood(Some("2001:db8:1:ffff::9".parse().unwrap()))
        );
        assert_ne!(
            neighbourhood(Some("2001:db8:1::1".parse().unwrap())),
            neighbourhood(Some("2001:db8:2::1".parse().unwrap()))
        );
    }

    #[test]
    fn idle_sessions_expire() {
        let store = Sessions::new("game", 10, Duration::ZERO);
        let id = store.insert(()).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(
            store.with(&id, |_| ()).unwrap_err().status,
            StatusCode::NOT_FOUND
        );
    }
}
