//! Randomness from the operating system, as hex: ids, secrets and seeds
//! are drawn here and nowhere else; and the digest the store keeps of a
//! secret instead of the secret.

/// `bytes` random bytes from the operating system, as lowercase hex.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn hex(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer)?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// A fresh secret or id (a token, an invite, a match's or a session's
/// id): 128 random bits from the operating system, in hex.
///
/// # Errors
/// [`NoRandomness`] when the operating system has none to give (the API
/// answers 503 `busy`).
pub fn fresh_secret() -> Result<String, NoRandomness> {
    hex(16).map_err(NoRandomness)
}

/// The operating system had no randomness to give.
#[derive(Debug, thiserror::Error)]
#[error("no randomness for a secret: {0}")]
pub struct NoRandomness(pub getrandom::Error);

/// A random whole number from the operating system.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn number() -> Result<u64, getrandom::Error> {
    let mut buffer = [0u8; 8];
    getrandom::fill(&mut buffer)?;
    Ok(u64::from_le_bytes(buffer))
}

/// The digest the store keeps of a secret (a token, an invite, a client's
/// address): SHA-256, in hex. A copy of the store moves no seat.
pub fn digest(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// True for text shaped like a secret (32 lowercase hex digits).
pub fn is_secret(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
