//! Baffle's events in sentences for people, with the player's name.
//!
//! Terms:
//! - **cell name** ([`cell_name`]): a cell as the page's box labels it: its
//!   column's letter (A from the left; a box is at most 26 cells wide)
//!   then its row's number (1 from the top): "C5".
//! - **words** ([`words`]): an event in a sentence naming who made its move
//!   ("Ada finds a / mirror at C5"), or no one for one unnamed player alone
//!   ("Right: C5 holds /"); the event's own `Display` is the CLI's ("Right:
//!   <4,2> holds /.").
//! - **hint** ([`hint_words`], [`hint_detail`]): the solver's advice in one
//!   short sentence ("Shoot hole 7: it tells you the most."), and the
//!   detail for whoever asks why (its figures and how they were counted).

use crate::game::Event;
use crate::geometry::Cell;
use crate::layout::Placed;
use crate::race::{RaceEvent, RaceNews};
use crate::solve::Advice;
use crate::solve::advice::estimated_chance_words;

/// A cell as the page's box labels it: "C5" (column C from the left, row
/// 5 from the top).
pub fn cell_name(cell: Cell) -> String {
    let col = u8::try_from(cell.col).ok().filter(|c| *c < 26).map_or_else(
        || format!("column {}", cell.col + 1),
        |c| char::from(b'A' + c).to_string(),
    );
    format!("{col}{}", cell.row + 1)
}

/// A race's `event`, of a move by `who`, in a sentence: a box's own event
/// as [`words`] says it, and what the others may know of a racer's move
/// ("Bo shoots a beam (3 shots so far)", "Bo guesses wrong (2 points)").
pub fn race_words(event: &RaceEvent, who: Option<&str>) -> String {
    let news = match event {
        RaceEvent::Box(event) => return words(event, who),
        RaceEvent::Race(news) => news,
    };
    let who = who.unwrap_or("The player");
    match news {
        RaceNews::RaceShot { shots } => format!(
            "{who} shoots a beam ({} so far)",
            tabletop::count(*shots as u64, "shot", "shots")
        ),
        RaceNews::RaceGuess {
            right: true,
            found,
            mirrors,
        } => format!("{who} guesses right: {found} of {mirrors} mirrors found"),
        RaceNews::RaceGuess { right: false, .. } => {
            format!("{who} guesses wrong (2 points)")
        }
        RaceNews::RaceFinished { score } => {
            format!("{who} found every mirror. Final score {}", score.total)
        }
        RaceNews::RaceQuit { score } => {
            format!("{who} gives up with score {}", score.total)
        }
    }
}

/// `event`, of a move by `who`, in a sentence: "Ada shoots into 7 and the
/// beam comes out at 12", "Ada finds a / mirror at C5". With no one to
/// name (one unnamed player alone), the sentence names no one: "The beam
/// into 7 comes out at 12", "Right: C5 holds /".
pub fn words(event: &Event, who: Option<&str>) -> String {
    match (event, who) {
        (Event::Shot { hole, exit }, Some(who)) if hole == exit => {
            format!("{who} shoots into {hole} and the beam comes back out of it")
        }
        (Event::Shot { hole, exit }, Some(who)) => {
            format!("{who} shoots into {hole} and the beam comes out at {exit}")
        }
        (Event::Shot { hole, exit }, None) => {
            format!("The beam into {hole} comes out at {exit}")
        }
        (
            Event::Guess {
                cell,
                mirror,
                right: true,
            },
            Some(who),
        ) => format!("{who} finds a {mirror} mirror at {}", cell_name(*cell)),
        (
            Event::Guess {
                cell,
                mirror,
                right: true,
            },
            None,
        ) => format!("Right: {} holds {mirror}", cell_name(*cell)),
        (Event::Guess { cell, mirror, .. }, Some(who)) => format!(
            "{who} guesses a {mirror} mirror at {}, which is wrong (2 points)",
            cell_name(*cell)
        ),
        (Event::Guess { cell, mirror, .. }, None) => format!(
            "Wrong: {} does not hold {mirror} (2 points)",
            cell_name(*cell)
        ),
        (Event::Won { score }, Some(who)) => {
            format!("{who} found every mirror. Final score {}", score.total)
        }
        (Event::Won { score }, None) => {
            format!("Every mirror found. Final score {}", score.total)
        }
        (Event::Quit { score, missed }, who) => {
            // A few are named; more are counted (the box shows them all).
            let missed = if missed.len() <= NAMED_MISSED {
                let list: Vec<String> = missed.iter().map(placed_name).collect();
                format!("not found: {}", list.join(", "))
            } else {
                format!("{} mirrors not found", missed.len())
            };
            format!(
                "{} up with a score of {}; {missed}",
                who.map_or_else(|| "The game is given".to_string(), |w| format!("{w} gives")),
                score.total,
            )
        }
    }
}

/// The most mirrors not found that a given-up game's words name one by one.
const NAMED_MISSED: usize = 6;

/// A mirror where it sits: "/ at C5".
fn placed_name(placed: &Placed) -> String {
    format!("{} at {}", placed.mirror, cell_name(placed.cell))
}

/// The solver's advice in one short sentence.
pub fn hint_words(advice: &Advice) -> String {
    match advice {
        Advice::Contradiction => "No layout fits what the shots and guesses show.".into(),
        Advice::NotAsked => "No hint was asked for.".into(),
        Advice::Done => "Every mirror is found.".into(),
        Advice::GuessProven { placed } => {
            format!("Guess {}: it is surely there.", placed_name(placed))
        }
        Advice::ExactBestShot { hole, .. } | Advice::SampledBestShot { hole, .. } => {
            format!("Shoot hole {hole}: it tells you the most.")
        }
        Advice::NothingToLearn { placed, .. } => {
            format!("Guess {}: no shot can tell you more.", placed_name(placed))
        }
        Advice::SampleUndivided { placed, .. } => {
            format!("Guess {}: it is the likeliest mirror.", placed_name(placed))
        }
    }
}

/// Why the bot chose its move, in a short sentence: the advice's own
/// ([`hint_words`]) when it followed the solver's advice.
pub fn reason_words(reason: &crate::bot::Reason) -> String {
    match reason {
        crate::bot::Reason::Advice { advice } => hint_words(advice),
        other => other.to_string(),
    }
}

/// Why an estimated chance is a range, for whoever asks why.
fn estimate_good_to() -> String {
    let points = (crate::solve::calibrate::IN_PLAY_ERROR * 100.0).round();
    format!("an estimate, good to about {points} points either way")
}

/// Why: the advice's figures and how they were counted, the cells named
/// as the box labels them.
pub fn hint_detail(advice: &Advice) -> String {
    let percent = |x: f64| {
        let p = 100.0 * x;
        if p > 0.0 && p < 1.0 {
            "under 1%".to_string()
        } else {
            format!("{p:.0}%")
        }
    };
    match advice {
        Advice::GuessProven { placed } => format!(
            "The shots so far prove there is a {}; a sure guess costs no points.",
            placed_name(placed)
        ),
        Advice::NothingToLearn {
            placed,
            chance,
            all_shot,
            estimated,
        } => format!(
            "{}, so guess: the likeliest mirror is {} ({}).",
            if *all_shot {
                "Every hole has been shot"
            } else {
                "No shot left can tell the layouts that fit apart (proven)"
            },
            placed_name(placed),
            if *estimated {
                format!(
                    "{}: {}",
                    estimated_chance_words(*chance),
                    estimate_good_to()
                )
            } else {
                percent(*chance)
            }
        ),
        Advice::SampleUndivided {
            placed,
            chance,
            method,
        } => format!(
            "No shot told the sampled layouts apart ({method}), which does not prove that none can; the likeliest mirror is {} ({}: {}).",
            placed_name(placed),
            estimated_chance_words(*chance),
            estimate_good_to()
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Score;
    use crate::layout::{Mirror, Placed};

    #[test]
    fn a_hint_is_one_short_sentence_with_the_detail_apart() {
        let shot = Advice::ExactBestShot {
            hole: 7,
            layouts: "12".into(),
            expected_layouts: 3.5,
        };
        assert_eq!(hint_words(&shot), "Shoot hole 7: it tells you the most.");
        assert!(hint_detail(&shot).contains("3.5 on average"));
        let sure = Advice::GuessProven {
            placed: Placed {
                cell: Cell::new(4, 2),
                mirror: Mirror::Slash,
            },
        };
        assert_eq!(hint_words(&sure), "Guess / at C5: it is surely there.");
        assert!(!hint_detail(&sure).contains('<'));
    }

    #[test]
    fn an_estimated_chance_is_said_with_its_range_and_a_counted_one_alone() {
        let placed = Placed {
            cell: Cell::new(0, 2),
            mirror: Mirror::Slash,
        };
        let advice = |estimated| Advice::NothingToLearn {
            placed,
            chance: 0.853,
            all_shot: true,
            estimated,
        };
        let counted = hint_detail(&advice(false));
        assert!(
            counted.ends_with("the likeliest mirror is / at C1 (85%)."),
            "{counted}"
        );
        let estimated = hint_detail(&advice(true));
        assert!(
            estimated.ends_with(
                "the likeliest mirror is / at C1 (75–95%: an estimate, good to about 10 points either way)."
            ),
            "{estimated}"
        );
        // Within 0 and 100%.
        let words = crate::solve::advice::estimated_chance_words;
        assert_eq!(words(0.97), "87–100%");
        assert_eq!(words(0.04), "0–14%");
        // The CLI's words and the bot's reason say the same range.
        let cli = advice(true).to_string();
        assert!(cli.ends_with("mirror is <0,2>=/ (75–95%)."), "{cli}");
        let reason = crate::bot::Reason::Likely {
            chance: 0.853,
            estimated: true,
        };
        assert_eq!(reason.to_string(), "75–95% likely, cheaper than a shot");
    }

    #[test]
    fn cells_are_named_as_the_box_labels_them() {
        assert_eq!(cell_name(Cell::new(0, 0)), "A1");
        assert_eq!(cell_name(Cell::new(4, 2)), "C5");
        assert_eq!(cell_name(Cell::new(25, 25)), "Z26");
    }

    #[test]
    fn events_name_the_player_and_the_cell() {
        let right = Event::Guess {
            cell: Cell::new(7, 6),
            mirror: Mirror::Slash,
            right: true,
        };
        assert_eq!(words(&right, Some("Bo")), "Bo finds a / mirror at G8");
        assert_eq!(words(&right, None), "Right: G8 holds /");
        let shot = Event::Shot { hole: 7, exit: 12 };
        assert_eq!(
            words(&shot, Some("Ada")),
            "Ada shoots into 7 and the beam comes out at 12"
        );
        assert_eq!(words(&shot, None), "The beam into 7 comes out at 12");
        let quit = Event::Quit {
            score: Score {
                shots: 3,
                wrong_guesses: 0,
                guess_points: 0,
                total: 3,
            },
            missed: vec![Placed {
                cell: Cell::new(1, 1),
                mirror: Mirror::Backslash,
            }],
        };
        assert_eq!(
            words(&quit, Some("Ada")),
            "Ada gives up with a score of 3; not found: \\ at B2"
        );
        // Many are counted, not named.
        let many = Event::Quit {
            score: Score::default(),
            missed: (0..7)
                .map(|i| Placed::new(Cell::new(i, 0), Mirror::Slash))
                .collect(),
        };
        assert_eq!(
            words(&many, None),
            "The game is given up with a score of 0; 7 mirrors not found"
        );
        for e in [right, shot, quit] {
            let w = words(&e, Some("Ada"));
            assert!(!w.contains('<') && !w.contains("->"), "{w}");
        }
    }
}
