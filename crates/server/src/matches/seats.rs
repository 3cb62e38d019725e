//! Who may move for a seat: tokens and invites.
//!
//! Terms:
//! - **secret**: 128 random bits from the operating system, as 32 hex
//!   digits. Tokens and invites are secrets; the store keeps only their
//!   SHA-256 **digest**, so a copy of the store moves no seat (both made
//!   by [`crate::random`], the one maker of every secret).
//! - **token**: what a device shows (`Authorization: Bearer TOKEN`) to move
//!   for the seats it holds. The person who makes a match gets one, for the
//!   seats played at their screen (hot-seat) — the **host** token, which
//!   may also invite again; whoever takes an open seat gets one (or adds the
//!   seat to the token they have).
//! - **invite**: the secret in an open seat's link
//!   (`/chutes/m/ID#invite=SEAT.SECRET`, after `#` so that it never reaches
//!   a server log or another site). Claimed once; then the link is spent.
//! - **seat state** ([`SeatState`]): a person seat is `here` (held by the
//!   host's token), `open` (waiting for someone with its invite), `anyone`
//!   (waiting for anyone: its match is listed in the lobby) or `taken`.

use crate::http::error::ApiError;
use crate::random::is_secret;
use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use tabletop::Code;

/// Where a person seat stands (one of the protocol's types).
pub use games::protocol::SeatState;

/// The token a request shows, if any: `Authorization: Bearer TOKEN`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bearer(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Ok(Self(None));
        };
        let text = value.to_str().unwrap_or_default().trim();
        let token = text
            .strip_prefix("Bearer ")
            .or_else(|| text.strip_prefix("bearer "))
            .map(str::trim)
            .filter(|t| is_secret(t))
            .ok_or_else(|| {
                ApiError::coded(Code::BadToken,
                    "the Authorization header is not a seat token: send `Authorization: Bearer TOKEN` with the token this game gave you",
                )
            })?;
        Ok(Self(Some(token.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{digest, fresh_secret};

    #[test]
    fn secrets_are_hex_and_digests_are_sha256() {
        let s = fresh_secret().unwrap();
        assert!(is_secret(&s), "{s}");
        assert!(!is_secret("XYZ"));
        assert!(!is_secret(&s.to_uppercase()));
        // SHA-256 of "abc", from FIPS 180-2.
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
