//! The Tycoon grid file (text) and the grid as JSON: no input panics, and a
//! grid read is written back and read again to the same grid.

/// Checks one input: panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = tycoon::looks_like_grid_file(text);
    if let Ok(grid) = tycoon::parse_grid(text) {
        let written = tycoon::write_grid(&grid);
        let again = tycoon::parse_grid(&written)
            .unwrap_or_else(|e| panic!("the written grid does not read back: {e}\n{written}"));
        assert_eq!(again, grid, "{written}");
    }
    if let Ok(grid) = serde_json::from_str::<tycoon::Grid>(text) {
        let json = serde_json::to_string(&grid).expect("a grid is JSON");
        let again: tycoon::Grid = serde_json::from_str(&json).expect("its JSON reads back");
        assert_eq!(again, grid, "{json}");
    }
}
