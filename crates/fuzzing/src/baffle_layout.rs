//! The Baffle layout file: no input panics, and a layout read is written
//! back and read again to the same layout.

/// Checks one input: panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(layout) = baffle::Layout::parse(text) {
        let written = layout.to_file_text();
        let again = baffle::Layout::parse(&written)
            .unwrap_or_else(|e| panic!("the written layout does not read back: {e}\n{written}"));
        assert_eq!(again, layout, "{written}");
    }
}
