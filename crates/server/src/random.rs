//! Randomness from the operating system, as hex: ids, secrets and seeds
//! are drawn here and nowhere else.

/// `bytes` random bytes from the operating system, as lowercase hex.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn hex(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer)?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// A random whole number from the operating system.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn number() -> Result<u64, getrandom::Error> {
    let mut buffer = [0u8; 8];
    getrandom::fill(&mut buffer)?;
    Ok(u64::from_le_bytes(buffer))
}
