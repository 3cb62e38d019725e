//! What one value of a log line may hold, shared by every module that
//! logs (the store's errors as much as the requests').
//!
//! Terms:
//! - **cut** ([`cut`]): a value that may be long (an error's words) is
//!   cut at [`LOGGED_MOST`] characters, with an ellipsis.

/// The most characters of one value a log line carries ([`cut`]).
pub const LOGGED_MOST: usize = 500;

/// `text` as a log line carries it: whole up to [`LOGGED_MOST`]
/// characters, else its first ones and `…`.
pub fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(LOGGED_MOST) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..end])),
    }
}
