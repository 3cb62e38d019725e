//! The Baffle layout file: no input panics, and a layout read is written
//! back and read again to the same layout.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(layout) = baffle::Layout::parse(text) {
        let written = layout.to_file_text();
        let again = baffle::Layout::parse(&written)
            .unwrap_or_else(|e| panic!("the written layout does not read back: {e}\n{written}"));
        assert_eq!(again, layout, "{written}");
    }
});
