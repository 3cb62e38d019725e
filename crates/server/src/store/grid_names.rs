//! What a saved grid may be called: checked here for the API and for the
//! grid files the store imports. A grid name is a text others see, so it
//! passes the one rule for such texts first
//! ([`tabletop::play::check_text`]), then is kept to what is safe as a file
//! name.

/// The longest grid name.
pub const MAX_NAME: usize = 64;

/// The file extension of grid files.
pub const EXTENSION: &str = "grid";

/// Checks a grid name (trailing `.grid`s are dropped, so that `x.grid.grid`
/// is the grid `x`) and returns it.
///
/// # Errors
/// What is wrong with the name, in words.
pub fn check(name: &str) -> Result<String, String> {
    let mut name = name.trim();
    while let Some(stem) = name.strip_suffix(".grid").filter(|n| !n.trim().is_empty()) {
        name = stem.trim();
    }
    let bad = |why: &str| format!("the grid name '{name}' {why}");
    if name.is_empty() {
        return Err("a grid needs a name".to_string());
    }
    if let Err(why) = tabletop::play::check_text(name, MAX_NAME) {
        return Err(format!("the grid name: {why}"));
    }
    if !name.starts_with(char::is_alphanumeric) {
        return Err(bad("must start with a letter or a digit"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.')))
    {
        return Err(bad(&format!(
            "holds '{}': use letters, digits, spaces, '-', '_' and '.'",
            c.escape_default()
        )));
    }
    if name.contains("..") {
        return Err(bad("holds '..'"));
    }
    Ok(name.to_string())
}
