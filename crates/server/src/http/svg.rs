//! A picture as an answer: `render`'s SVG text (compressed when the asker
//! accepts it), or its refusal as a 422.

use crate::http::error::ApiError;
use axum::http::header;
use axum::response::{IntoResponse, Response};

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
    let mut response = (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        svg,
    )
        .into_response();
    // A picture never shows a secret (an unfound mirror is not drawn):
    // compressed when the asker accepts it.
    response
        .extensions_mut()
        .insert(crate::http::compress::Compressible);
    Ok(response)
}
