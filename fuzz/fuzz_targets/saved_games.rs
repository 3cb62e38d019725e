//! Saved games and records: a Tycoon save, a Baffle game record, a Tycoon
//! design document. No input panics; whatever loads saves back to the same
//! text and loads again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match pick % 3 {
        0 => {
            if let Ok(game) = tycoon::Game::from_json(text) {
                let saved = game.to_json();
                let again = tycoon::Game::from_json(&saved)
                    .unwrap_or_else(|e| panic!("a save does not load back: {e}\n{saved}"));
                assert_eq!(again.to_json(), saved);
            }
        }
        1 => {
            if let Ok(game) = serde_json::from_str::<baffle::Game>(text) {
                let saved = serde_json::to_string(&game).expect("a game is JSON");
                let again: baffle::Game = serde_json::from_str(&saved)
                    .unwrap_or_else(|e| panic!("a record does not load back: {e}\n{saved}"));
                assert_eq!(again, game);
            }
        }
        _ => {
            if let Ok(designer) = serde_json::from_str::<tycoon::design::Designer>(text) {
                let saved = serde_json::to_string(&designer).expect("a design is JSON");
                let again: tycoon::design::Designer = serde_json::from_str(&saved)
                    .unwrap_or_else(|e| panic!("a design does not load back: {e}\n{saved}"));
                assert_eq!(again, designer);
            }
        }
    }
});
