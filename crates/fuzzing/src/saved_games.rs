//! Saved games: match records of each game (the one save format) and a
//! Tycoon design document. No input panics; a record that loads replays,
//! and writes back to a record that loads to the same game.
use tabletop::play::{Match, Playable, Record};

/// Loads `text` as a record of `G`; when it replays, the record it writes
/// loads back to the same record.
fn record<G: Playable>(text: &str)
where
    <G::Move as std::str::FromStr>::Err: std::fmt::Display,
{
    let Ok(record) = serde_json::from_str::<Record<G::Setup, G::Move>>(text) else {
        return;
    };
    let Ok(m) = Match::<G>::replay(record) else {
        return;
    };
    let saved = serde_json::to_string(m.record()).expect("a record is JSON");
    let again: Record<G::Setup, G::Move> = serde_json::from_str(&saved)
        .unwrap_or_else(|e| panic!("a record does not load back: {e}\n{saved}"));
    let replayed = Match::<G>::replay(again)
        .unwrap_or_else(|e| panic!("a record does not replay again: {e}\n{saved}"));
    assert_eq!(
        serde_json::to_string(replayed.record()).expect("JSON"),
        saved
    );
}

/// Checks one input: panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match pick % 4 {
        0 => record::<tycoon::Game>(text),
        1 => record::<baffle::Race>(text),
        2 => record::<chutes::contract::Table>(text),
        _ => {
            if let Ok(designer) = serde_json::from_str::<tycoon::design::Designer>(text) {
                let saved = serde_json::to_string(&designer).expect("a design is JSON");
                let again: tycoon::design::Designer = serde_json::from_str(&saved)
                    .unwrap_or_else(|e| panic!("a design does not load back: {e}\n{saved}"));
                assert_eq!(again, designer);
            }
        }
    }
}
