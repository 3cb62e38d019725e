//! Playing again: a rematch of a finished match, and looking back at a
//! match's earlier moves.
//!
//! Terms:
//! - **rematch**: a new match of the same game and setup (a random box
//!   drawn afresh, fresh dice) made by any player of a finished match, once:
//!   the store links the old match to it in the same transaction, so a
//!   second ask, here or on another server, answers the same new match.
//!   Seats move on by one (seat 2 becomes seat 1, so that nobody always
//!   starts) with their names; every token that held seats holds the same
//!   players' seats in the new match, so nobody needs a new invite. A seat
//!   nobody had taken waits again: a fresh invite (told to the host, on
//!   the host's first ask even when another player asked first), or
//!   anyone from the lobby. The rematch is made by the player who asked:
//!   it counts against their quota of unfinished matches and their share
//!   of the lobby.
//! - **look back**: the match after its first N moves, through the match
//!   layer's gate: while it is on, what the asker's seat (or a spectator)
//!   saw then.

use super::{Holder, Hub, Invite, Live, tell};
use crate::http::error::ApiError;
use crate::random;
use crate::store::{NewMatch, SeatRow, TokenRow};
use games::protocol::MatchView;
use std::sync::Arc;
use tabletop::Code;
use tabletop::play::Viewer;

/// A rematch as [`Hub::rematch`] answers it.
pub struct Rematched {
    /// The new match's id.
    pub id: String,
    /// Its game's name.
    pub game: &'static str,
    /// The new match as the asker sees it.
    pub view: MatchView,
    /// Fresh invites for seats nobody had taken (to the host only).
    pub invites: Vec<Invite>,
    /// False when the rematch had been made before.
    pub fresh: bool,
}

/// Where old seat `seat` (from 1) sits in a rematch of `n` seats: one
/// place earlier, the first seat last.
fn moved_on(seat: u8, n: u8) -> u8 {
    if seat <= 1 { n } else { seat - 1 }
}

impl Hub {
    /// The rematch of finished match `id`, for a token holding one of its
    /// seats: made now (with dice from `seed`) by `creator`, the asker, or
    /// the one made before.
    ///
    /// # Errors
    /// 401 `no_token`, 403 `bad_token` / `not_your_seat`, 409 `game_on`
    /// while the match is on, 429 `match_quota` when the asker has made
    /// their most unfinished matches, the store's failure.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        seed: u64,
        creator: crate::store::Creator,
    ) -> Result<Rematched, ApiError> {
        let Some(token) = token else {
            return Err(ApiError::coded(
                Code::NoToken,
                "only a player asks for a rematch: send the seat token this game gave you",
            ));
        };
        let (slot, mut live) = self.lock(id).await?;
        if !live.table.status().is_over() {
            // Another server may have stored the move that ended it a
            // moment ago (its notice not yet here): read it before saying
            // the game is still on.
            self.catch_up_for(&slot, &mut live).await?;
        }
        let game = live.table.game();
        let holder = self.holder(id, &mut live, Some(token)).await?;
        if holder.first().is_none() {
            return Err(ApiError::coded(
                Code::NotYourSeat,
                "this token holds no seat: only a player asks for a rematch",
            ));
        }
        if let Some(made) = live.rematch.clone() {
            let invites = if holder.host && !live.rematch_invites_told {
                live.rematch_invites_told = true;
                drop(live);
                self.invite_again(&made, token).await?
            } else {
                Vec::new()
            };
            return self.rematch_for(made, game, token, false, invites).await;
        }
        let table = live.table.rematch(seed)?;
        let n = u8::try_from(live.table.seats().len()).unwrap_or(u8::MAX);
        let mut invites = Vec::new();
        let mut rows = Vec::new();
        for row in &live.seats {
            let seat = moved_on(row.seat, n);
            let invite = if !row.taken && row.invite.is_some() {
                let invite = random::fresh_secret()?;
                let hash = random::digest(&invite);
                invites.push(Invite { seat, invite });
                Some(hash)
            } else {
                None
            };
            rows.push(SeatRow {
                seat,
                invite,
                taken: row.taken,
                name: row.name.clone(),
            });
        }
        rows.sort_by_key(|r| r.seat);
        let tokens: Vec<TokenRow> = live
            .tokens
            .iter()
            .map(|t| TokenRow {
                hash: t.hash.clone(),
                seats: (1..=n)
                    .filter(|s| {
                        Holder {
                            seats: t.seats,
                            host: false,
                        }
                        .holds(*s)
                    })
                    .fold(0, |bits, s| bits | 1 << (moved_on(s, n) - 1)),
                host: t.host,
            })
            .collect();
        let new_id = random::fresh_secret()?;
        let now = crate::store::now_ms();
        let status = table.status();
        let title = table.title();
        let new = NewMatch {
            id: new_id.clone(),
            game: table.game().to_string(),
            header: table.header()?,
            title: title.clone(),
            seats: rows.clone(),
            tokens: tokens.clone(),
            seat_count: n,
            status: super::status_word(&status),
            over: status.is_over(),
            at_ms: now,
        };
        let made_before = self
            .timed("rematch", self.db.create_rematch(id, new, creator))
            .await?;
        if let Some(made) = made_before {
            // Another server made it first.
            live.rematch = Some(made.clone());
            tell(&slot, &live, &[]);
            drop(live);
            return self.rematch_for(made, game, token, false, Vec::new()).await;
        }
        let mut fresh = Live {
            table,
            title,
            seats: Vec::new(),
            tokens: Vec::new(),
            updated_ms: now,
            rematch: None,
            rematch_invites_told: false,
            played: false,
            unplayed_kept: self.db.bounds().unplayed_kept,
            broken: false,
        };
        fresh.seat(rows, tokens);
        let new_slot = self.insert(new_id.clone(), fresh);
        self.kick_bots(&new_slot);
        self.kick_chances_soon(&new_slot);
        live.rematch = Some(new_id.clone());
        live.updated_ms = now;
        tell(&slot, &live, &[]);
        let host = holder.host;
        live.rematch_invites_told = host;
        drop(live);
        let invites = if host { invites } else { Vec::new() };
        self.rematch_for(new_id, game, token, true, invites).await
    }

    /// Fresh invites for every seat of match `id` still waiting for its
    /// invite, for the host's `token` (the old links stop working).
    async fn invite_again(
        self: &Arc<Self>,
        id: &str,
        token: &str,
    ) -> Result<Vec<Invite>, ApiError> {
        let waiting: Vec<u8> = {
            let (_slot, live) = self.lock(id).await?;
            live.seats
                .iter()
                .filter(|s| !s.taken && s.invite.is_some())
                .map(|s| s.seat)
                .collect()
        };
        let mut invites = Vec::new();
        for seat in waiting {
            invites.push(self.reinvite(id, seat, Some(token)).await?);
        }
        Ok(invites)
    }

    async fn rematch_for(
        self: &Arc<Self>,
        id: String,
        game: &'static str,
        token: &str,
        fresh: bool,
        invites: Vec<Invite>,
    ) -> Result<Rematched, ApiError> {
        let view = self.view(&id, Some(token)).await?;
        Ok(Rematched {
            id,
            game,
            view,
            invites,
            fresh,
        })
    }

    /// A copy of match `id` and who `token`'s holder is in it (a spectator
    /// without a token), for a look back to work on away from the match:
    /// its step ([`games::AnyMatch::replay_step`]) shows a seat what it saw
    /// then while the match is on, and all of it once over.
    ///
    /// # Errors
    /// 404 `no_match`, 403 `bad_token`.
    pub async fn copy_for(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<dyn games::AnyMatch>, Viewer), ApiError> {
        let (_slot, mut live) = self.lock(id).await?;
        let holder = self.holder(id, &mut live, token).await?;
        let viewer = holder
            .first()
            .map_or(Viewer::Spectator, |seat| Viewer::Seat { seat });
        Ok((Arc::from(live.table.copy()), viewer))
    }
}

#[cfg(test)]
mod tests {
    use super::moved_on;

    #[test]
    fn seats_move_on_by_one() {
        assert_eq!(
            (1..=4).map(|s| moved_on(s, 4)).collect::<Vec<_>>(),
            [4, 1, 2, 3]
        );
        assert_eq!(moved_on(1, 1), 1);
    }
}
