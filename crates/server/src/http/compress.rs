//! Compressed answers: gzip for the answers that can never hold a secret,
//! when the asker accepts it (every browser does).
//!
//! Terms:
//! - **compressible**: an answer marked so by its route ([`mark`]): the
//!   pages and their scripts, pictures, match views and move answers,
//!   looks back. An answer that carries a token or an invite (a match
//!   made, a seat joined, a rematch, an invite's QR code) is never marked:
//!   a compressed answer's size depends on how much of a secret matches
//!   the text beside it (the BREACH attack), so those go as they are.
//! - **small**: an answer under [`SMALLEST`] bytes (1 KB) goes as it is:
//!   it is small enough already, and gzip's cost (30–60 µs of CPU for an
//!   answer of 1.5–4.4 KB) would be a quarter of a Chutes roll's.
//! - **live stream**: `text/event-stream` answers are never marked; each
//!   change is sent as it comes.

use axum::http::Response;
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// Answers shorter than this many bytes are sent as they are.
pub const SMALLEST: u16 = 1024;

/// The mark a route puts on an answer that may be compressed.
#[derive(Clone, Copy, Debug)]
pub struct Compressible;

/// Marks `response` as compressible (a route's `map_response`).
pub async fn mark<B>(mut response: Response<B>) -> Response<B> {
    response.extensions_mut().insert(Compressible);
    response
}

/// Compress a marked answer of at least [`SMALLEST`] bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkedAndLarge;

impl Predicate for MarkedAndLarge {
    fn should_compress<B>(&self, response: &Response<B>) -> bool
    where
        B: axum::body::HttpBody,
    {
        response.extensions().get::<Compressible>().is_some()
            && SizeAbove::new(SMALLEST).should_compress(response)
    }
}

/// The layer: gzip at its default level (a Tycoon answer of 1.5–4.4 KB
/// shrinks to 0.5–1 KB; the fastest level leaves a third more), for marked
/// answers only.
pub fn layer() -> CompressionLayer<MarkedAndLarge> {
    CompressionLayer::new()
        .quality(CompressionLevel::Default)
        .compress_when(MarkedAndLarge)
}
