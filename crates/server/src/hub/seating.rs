//! Who sits where: the token a request shows, seats taken with an invite
//! or from the lobby, and new invites.
//!
//! Terms:
//! - **holder** ([`Holder`]): the seats a token holds, and whether it made
//!   the match (the host).
//! - **claim**: taking an open seat, in the store first (so that two people
//!   racing for one seat cannot both have it), then in the live match, as
//!   the store took it (not read back: a store that fails right after the
//!   claim must not keep the seat from the one who took it).
//! - **unknown token**: a token the live match does not hold. On SQLite only
//!   this server seats players, so it is refused at once; on a shared store
//!   the seats and tokens (not the moves) are read again once, in case the
//!   seat was taken through another server.

use super::{Holder, Hub, Invite, Live, find_token, no_match, seat_taken, tell, whole};
use crate::http::error::ApiError;
use crate::random;
use crate::store::TokenRow;
use games::protocol::MatchView;
use std::sync::Arc;
use tabletop::Code;

impl Hub {
    /// Who `token` is in match `live`; on a shared store, reads the seats
    /// and tokens again once when it is unknown (a seat taken through
    /// another server).
    pub(super) async fn holder(
        &self,
        id: &str,
        live: &mut Live,
        token: Option<&str>,
    ) -> Result<Holder, ApiError> {
        let Some(token) = token else {
            return Ok(Holder::default());
        };
        let hash = random::digest(token);
        if let Some(found) = find_token(&live.tokens, &hash) {
            return Ok(found);
        }
        if self.db.is_shared() {
            match self.db.seating(id).await? {
                Some((seats, tokens)) => live.seat(seats, tokens),
                None => return Err(no_match(id)),
            }
        }
        find_token(&live.tokens, &hash).ok_or_else(|| {
            ApiError::coded(
                Code::BadToken,
                "this token holds no seat in this game (it is another game's, or was never given)",
            )
        })
    }

    /// Takes open seat `seat` of match `id`: with its invite, or with none
    /// when anyone may take it, under `name` when given (checked by the
    /// caller). The seat joins `token`'s seats when it is a token of this
    /// match; otherwise a new token is made. Returns the token (new or the
    /// same) and the view.
    ///
    /// # Errors
    /// 400 `no_such_seat` / `bad_invite`, 409 `seat_taken`, 403 `bad_token`.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        invite: Option<&str>,
        token: Option<&str>,
        name: Option<&str>,
    ) -> Result<(String, MatchView), ApiError> {
        let (slot, mut live) = self.lock(id).await?;
        let known = match token {
            Some(t) => self
                .holder(id, &mut live, Some(t))
                .await
                .ok()
                .map(|_| t.to_string()),
            None => None,
        };
        let Some(row) = live.seats.iter().find(|s| s.seat == seat).cloned() else {
            return Err(no_such_seat(seat));
        };
        if row.taken {
            return Err(seat_taken(seat));
        }
        let invite = match (&row.invite, invite) {
            // Anyone may take it.
            (None, _) => None,
            (Some(hash), Some(invite))
                if random::is_secret(invite) && *hash == random::digest(invite) =>
            {
                Some(hash.clone())
            }
            _ => {
                return Err(ApiError::coded(
                    Code::BadInvite,
                    format!(
                        "seat {seat} is taken with its invite, and this is not it (it may have been replaced): ask for a new link"
                    ),
                ));
            }
        };
        if let Some(name) = name {
            unlike_the_others(&live, seat, name)?;
        }
        let token = match known {
            Some(t) => t,
            None => random::fresh_secret()?,
        };
        let claimed = self
            .timed(
                "claim",
                self.db
                    .claim(id, seat, invite.as_deref(), &random::digest(&token), name),
            )
            .await?;
        if !claimed {
            self.reread(&slot, &mut live).await;
            return Err(seat_taken(seat));
        }
        // As the store took it: the seat is the token's, its invite spent.
        if let Some(row) = live.seats.iter_mut().find(|s| s.seat == seat) {
            row.taken = true;
            row.invite = None;
            if let Some(name) = name {
                row.name = Some(name.to_string());
            }
        }
        if name.is_some()
            && let Err(e) = live.table.set_name(seat, name)
        {
            tracing::warn!(seat, error = %e, "a checked name is refused");
        }
        let hash = random::digest(&token);
        let bit = 1u32
            .checked_shl(u32::from(seat).wrapping_sub(1))
            .unwrap_or(0);
        match live.tokens.iter_mut().find(|t| t.hash == hash) {
            Some(row) => row.seats |= bit,
            None => live.tokens.push(TokenRow {
                hash,
                seats: bit,
                host: false,
            }),
        }
        live.updated_ms = crate::store::now_ms();
        live.played = true;
        tell(&slot, &live, &[]);
        let holder = find_token(&live.tokens, &random::digest(&token)).unwrap_or_default();
        Ok((token, whole(id, &live, holder)?))
    }

    /// Names seat `seat` of match `id` (the name checked by the caller):
    /// `token` must hold the seat, and the match be on.
    ///
    /// # Errors
    /// 401 `no_token`, 403 `bad_token` / `not_your_seat`, 409 `game_over`.
    pub async fn name_seat(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
        name: &str,
    ) -> Result<MatchView, ApiError> {
        if token.is_none() {
            return Err(ApiError::coded(
                Code::NoToken,
                "only a player names their seat: send the seat token this game gave you",
            ));
        }
        let (slot, mut live) = self.lock(id).await?;
        let holder = self.holder(id, &mut live, token).await?;
        if !holder.holds(seat) {
            return Err(ApiError::coded(
                Code::NotYourSeat,
                format!("this token does not hold seat {seat}: a player names only their own seat"),
            ));
        }
        unlike_the_others(&live, seat, name)?;
        if live.table.status().is_over() || !self.db.name_seat(id, seat, name).await? {
            return Err(ApiError::coded(
                Code::GameOver,
                "the game is over: its players' names are in its record for good",
            ));
        }
        if let Some(row) = live.seats.iter_mut().find(|s| s.seat == seat) {
            row.name = Some(name.to_string());
        }
        if let Err(e) = live.table.set_name(seat, Some(name)) {
            tracing::warn!(seat, error = %e, "a checked name is refused");
        }
        live.updated_ms = crate::store::now_ms();
        tell(&slot, &live, &[]);
        whole(id, &live, holder)
    }

    /// A new invite for open seat `seat` of match `id` (the old link stops
    /// working); only the host may ask, and only for a seat waiting for its
    /// invite (a seat for anyone stays anyone's, and in the lobby).
    ///
    /// # Errors
    /// 403 `not_host`, 409 `seat_taken`, 400 `no_such_seat` for a seat that
    /// is not a person's or has no invite.
    pub async fn reinvite(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
    ) -> Result<Invite, ApiError> {
        let (_slot, mut live) = self.lock(id).await?;
        let holder = self.holder(id, &mut live, token).await?;
        if !holder.host {
            return Err(ApiError::coded(
                Code::NotHost,
                "only the person who made this game can invite again",
            ));
        }
        match live.seats.iter().find(|s| s.seat == seat) {
            None => return Err(no_such_seat(seat)),
            Some(row) if row.taken => return Err(seat_taken(seat)),
            Some(row) if row.invite.is_none() => {
                return Err(ApiError::coded(
                    Code::NoSuchSeat,
                    format!(
                        "seat {seat} is for anyone who takes it from the lobby: it has no invite to replace"
                    ),
                ));
            }
            Some(_) => {}
        }
        let invite = random::fresh_secret()?;
        let hash = random::digest(&invite);
        if !self.db.reinvite(id, seat, &hash).await? {
            return Err(seat_taken(seat));
        }
        if let Some(row) = live.seats.iter_mut().find(|s| s.seat == seat) {
            row.invite = Some(hash);
        }
        Ok(Invite { seat, invite })
    }
}

/// Refuses `name` for `seat` when it looks like another seat's name in
/// `live` (`400 bad_name`).
fn unlike_the_others(live: &super::Live, seat: u8, name: &str) -> Result<(), ApiError> {
    let others = live
        .seats
        .iter()
        .filter(|r| r.seat != seat)
        .filter_map(|r| r.name.as_deref());
    tabletop::play::check_unlike(name, others)
        .map_err(|e| ApiError::coded(Code::BadName, e.to_string()))
}

fn no_such_seat(seat: u8) -> ApiError {
    ApiError::coded(
        Code::NoSuchSeat,
        format!("seat {seat} of this game is not a person's seat"),
    )
}
