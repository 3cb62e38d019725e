//! A link as a QR code, for a phone's camera: `POST /api/qr`.
//!
//! Terms:
//! - **link**: the text to draw, a page's address as the browser shows it
//!   (an invite's secret after its `#` included). It comes in the body,
//!   never the address, so that no log line holds it; it is drawn and
//!   forgotten.
//! - **module**: one black or white square of the code; the picture is one
//!   unit a module with the standard quiet zone of four around, black on
//!   white whatever the page's colours (cameras want dark on light).

use crate::http::error::{ApiError, JsonBody};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};
use serde::Deserialize;
use tabletop::Code;

/// The longest link drawn, in bytes: a page's address with an invite is
/// under 120; a QR code of error correction M holds at most 2,331.
pub const MOST_BYTES: usize = 1_000;

/// What `POST /api/qr` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct QrRequest {
    /// The link to draw.
    text: String,
}

/// `link` as an SVG QR code (error correction M, a quiet zone of four).
///
/// # Errors
/// `bad_request` when it is empty or longer than [`MOST_BYTES`].
pub fn picture_of(link: &str) -> Result<String, ApiError> {
    if link.is_empty() || link.len() > MOST_BYTES {
        return Err(ApiError::coded(
            Code::BadRequest,
            format!(
                "a QR code draws a link of 1 to {MOST_BYTES} bytes; this text has {}",
                link.len()
            ),
        ));
    }
    let code = QrCode::with_error_correction_level(link.as_bytes(), EcLevel::M).map_err(|e| {
        ApiError::coded(
            Code::BadRequest,
            format!("this text does not fit a QR code: {e}"),
        )
    })?;
    Ok(code
        .render::<svg::Color<'_>>()
        .module_dimensions(1, 1)
        .quiet_zone(true)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build())
}

/// `POST /api/qr` with `{"text": LINK}`: the link as an SVG QR code.
pub(super) async fn picture(JsonBody(asked): JsonBody<QrRequest>) -> Result<Response, ApiError> {
    let svg = picture_of(&asked.text)?;
    let mut response = svg.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_drawn_black_on_white_with_its_quiet_zone() {
        let svg = picture_of("http://192.168.1.20:8080/chutes/m/0123456789abcdef#invite=2.abc")
            .expect("a picture");
        assert!(svg.contains("<svg"), "{svg}");
        assert!(svg.contains("#000000") && svg.contains("#ffffff"), "{svg}");
        // Version 4 (33 modules) at most for this link, plus 4 on each side.
        let code = QrCode::with_error_correction_level(
            "http://192.168.1.20:8080/chutes/m/0123456789abcdef#invite=2.abc".as_bytes(),
            EcLevel::M,
        )
        .expect("a code");
        let side = code.width() + 8;
        assert!(
            svg.contains(&format!("viewBox=\"0 0 {side} {side}\"")),
            "{svg}"
        );
    }

    #[test]
    fn an_empty_or_long_text_is_refused_with_its_length() {
        for text in [String::new(), "x".repeat(MOST_BYTES + 1)] {
            let why = picture_of(&text).expect_err("refused");
            assert_eq!(why.code, Code::BadRequest);
            assert!(
                why.message.contains(&text.len().to_string()),
                "{}",
                why.message
            );
        }
    }
}
