//! Tournaments: the report adds up, does not depend on the threads, and
//! reads back from its JSON.

#![allow(clippy::unwrap_used)]

use tabletop::BotLevel;
use tycoon::tournament::{Grids, Matchup, Options, Report, play_on};

#[test]
fn a_small_tournament_adds_up_and_round_trips_through_json() {
    let options = Options {
        games: 40,
        seed: 9,
        matchups: vec![
            Matchup {
                one: BotLevel::Normal,
                rest: BotLevel::Easy,
            },
            Matchup {
                one: BotLevel::Easy,
                rest: BotLevel::Normal,
            },
        ],
        grids: Grids::ALL.to_vec(),
        turn_cap: 3000,
    };
    let report = play_on(&options, Some(1)).unwrap();
    assert_eq!(report, play_on(&options, Some(2)).unwrap());
    assert_eq!(report.outcomes.len(), 4);
    for o in &report.outcomes {
        assert_eq!(o.overall.games, 160);
        assert_eq!(o.overall.wins, o.seats.iter().map(|s| s.wins).sum::<u64>());
        assert!(o.overall.low <= o.overall.rate && o.overall.rate <= o.overall.high);
        assert!(o.seats.iter().all(|s| s.games == 40));
    }
    // The figures are worked out again from the counts on reading: the
    // report reads back exactly.
    let json = serde_json::to_string_pretty(&report).unwrap();
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, report);
    assert_eq!(serde_json::to_string_pretty(&back).unwrap(), json);
    assert!(json.contains("\"one\": \"normal\""), "{json}");
}
