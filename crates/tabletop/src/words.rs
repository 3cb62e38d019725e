//! Counts in words: "1 roll", "2 rolls".
//!
//! Terms:
//! - **count**: a number with its noun, singular for exactly one and plural
//!   otherwise (zero included: "0 rolls").

/// `one` when `n` is 1, `many` otherwise: the noun to write after `n`.
///
/// For text that writes the number itself (e.g. with thousands separators):
/// `format!("{} {}", grouped(n), plural(n, "game", "games"))`.
pub fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `n` and its noun: `count(1, "roll", "rolls")` is `"1 roll"`,
/// `count(7, "roll", "rolls")` is `"7 rolls"`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "roll", "rolls"), "1 roll");
        assert_eq!(count(0, "roll", "rolls"), "0 rolls");
        assert_eq!(count(2, "roll", "rolls"), "2 rolls");
        assert_eq!(count(21, "match", "matches"), "21 matches");
        assert_eq!(plural(1, "layout fits", "layouts fit"), "layout fits");
        assert_eq!(plural(u64::MAX, "game", "games"), "games");
    }
}
