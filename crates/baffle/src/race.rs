//! Baffle for one to four players: a race on the same box.
//!
//! Terms:
//! - **racer**: a seat, with its own copy of the box ([`Game`]): its own
//!   shots, guesses and score. One racer is the original solitaire game,
//!   move for move and event for event.
//! - **turn**: seats move in turn, seat 1 first; a move is a shot, a guess
//!   or giving up on the mover's own box. A racer who has found every
//!   mirror or given up is passed over.
//! - **finish**: the race is over once every racer has found every mirror
//!   or given up. Among those who found every mirror, the fewest points
//!   (shots plus the wrong guesses' points) wins; a tie shares the win;
//!   when no one found them all, the race is given up.
//! - **secret**: while a race is on, a racer's shots' exits, guesses and
//!   found mirrors are theirs alone: the others (and spectators) see counts
//!   ([`Racer`]), and a race's events say no more than the counts. A racer
//!   who has finished sees no more of their own box than while racing
//!   (every box hides the same mirrors). Once the race is over, every box
//!   is shown: a viewer's own in their view, every other one on its own
//!   ([`Race::box_view`]), so that the race's last answer stays small.

use crate::game::{Event, Game, Move, MoveError, Score, Setup, SetupError, Status, View};
use crate::live::{self, LiveMemo};
use serde::Serialize;
use std::fmt;

/// The most racers on one box.
pub const MAX_RACERS: usize = 4;

/// A race on one box, for one to [`MAX_RACERS`] seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    boxes: Vec<Game>,
    /// The seat to move, from 0 (meaningless once over).
    turn: usize,
    /// What each position's evidence says, worked out once.
    memo: LiveMemo,
}

/// Why a race could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    /// The box is refused.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Too few or too many racers.
    #[error("a race on one box has 1 to {MAX_RACERS} players, not {racers}")]
    Racers {
        /// The racers asked for.
        racers: usize,
    },
}

/// A racer as every viewer sees them: counts (their box itself is
/// [`Race::box_view`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Racer {
    /// The seat (from 1).
    pub seat: u8,
    /// Shots fired.
    pub shots: usize,
    /// Mirrors found.
    pub found: usize,
    /// Wrong guesses.
    pub wrong_guesses: usize,
    /// Points so far (shots plus the wrong guesses' points).
    pub points: usize,
    /// Whether their box is still on, won or given up.
    pub status: Status,
}

/// What one viewer sees of a race.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RaceView {
    /// The viewer's own box. A spectator of a race sees the box with no
    /// shot while it is on (the counts are in `racers`), and the first
    /// winner's box (else seat 1's) once it is over. With one racer,
    /// everyone sees that racer's box, as in the solitaire game.
    #[serde(flatten)]
    pub own: View,
    /// Every racer, seat 1 first: none in a one-player game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub racers: Vec<Racer>,
}

/// What a move did: in a one-player game, the box's own events; in a race,
/// no more than the counts every racer sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RaceEvent {
    /// A one-player game's event, as the solitaire game says it.
    Box(Event),
    /// A race's event.
    Race(RaceNews),
}

/// A race's event: what every racer may know of another's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RaceNews {
    /// A beam was shot (where it came out is the shooter's).
    RaceShot {
        /// The shooter's shots so far.
        shots: usize,
    },
    /// A guess was judged (where is the guesser's).
    RaceGuess {
        /// Whether it was right.
        right: bool,
        /// Mirrors the guesser has found.
        found: usize,
        /// Mirrors in the box.
        mirrors: usize,
    },
    /// The racer found every mirror.
    RaceFinished {
        /// Their final score.
        score: Score,
    },
    /// The racer gave up.
    RaceQuit {
        /// Their score when they gave up.
        score: Score,
    },
}

impl fmt::Display for RaceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Box(event) => event.fmt(f),
            Self::Race(news) => news.fmt(f),
        }
    }
}

impl fmt::Display for RaceNews {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RaceShot { shots } => write!(
                f,
                "Shoots a beam ({} so far).",
                tabletop::count(*shots as u64, "shot", "shots")
            ),
            Self::RaceGuess {
                right: true,
                found,
                mirrors,
            } => write!(f, "Guesses right: {found} of {mirrors} mirrors found."),
            Self::RaceGuess { right: false, .. } => f.write_str("Guesses wrong (+2)."),
            Self::RaceFinished { score } => {
                write!(f, "Finds every mirror. Final score {score}.")
            }
            Self::RaceQuit { score } => write!(f, "Gives up with score {score}."),
        }
    }
}

impl Race {
    /// A race of `racers` players on the box of `setup`.
    ///
    /// # Errors
    /// The box's refusal ([`Game::new`]), or a count of racers outside 1 to
    /// [`MAX_RACERS`].
    pub fn new(setup: Setup, racers: usize) -> Result<Self, RaceError> {
        if !(1..=MAX_RACERS).contains(&racers) {
            return Err(RaceError::Racers { racers });
        }
        let game = Game::new(setup)?;
        Ok(Self {
            boxes: vec![game; racers],
            turn: 0,
            memo: LiveMemo::default(),
        })
    }

    /// Every racer's box, seat 1 first.
    pub fn boxes(&self) -> &[Game] {
        &self.boxes
    }

    /// Seat 1's box: what every box shares (size, sides, holes, mirrors'
    /// count) is read from it.
    pub fn board(&self) -> &Game {
        &self.boxes[0]
    }

    /// Players in the race.
    pub fn racers(&self) -> usize {
        self.boxes.len()
    }

    /// True once every racer has found every mirror or given up.
    pub fn is_over(&self) -> bool {
        self.boxes.iter().all(|g| g.status().is_over())
    }

    /// The seat to move (from 1), or `None` once over.
    pub fn to_move(&self) -> Option<u8> {
        (!self.is_over()).then_some(self.turn as u8 + 1)
    }

    /// The seat to move's box, or `None` once over.
    pub fn box_to_move(&self) -> Option<&Game> {
        (!self.is_over()).then(|| &self.boxes[self.turn])
    }

    /// Plays `mv` on the box of the seat to move, and passes the turn to
    /// the next seat still racing. A refused move changes nothing.
    ///
    /// # Errors
    /// The box's refusal ([`MoveError`]), or [`MoveError::Over`] once the
    /// race is over.
    pub fn apply(&mut self, mv: Move) -> Result<Vec<RaceEvent>, MoveError> {
        if self.is_over() {
            return Err(MoveError::Over {
                status: self.boxes[self.turn].status(),
            });
        }
        let own = &mut self.boxes[self.turn];
        let events = own.apply(mv)?;
        let events = if self.boxes.len() == 1 {
            events.into_iter().map(RaceEvent::Box).collect()
        } else {
            let own = &self.boxes[self.turn];
            events
                .into_iter()
                .map(|event| RaceEvent::Race(news(&event, own)))
                .collect()
        };
        let n = self.boxes.len();
        if let Some(next) = (1..=n)
            .map(|step| (self.turn + step) % n)
            .find(|&i| !self.boxes[i].status().is_over())
        {
            self.turn = next;
        }
        Ok(events)
    }

    /// The seats who found every mirror with the fewest points: one
    /// winner, several sharing the win, or none (no one found them all, or
    /// the race is on).
    pub fn winners(&self) -> Vec<u8> {
        if !self.is_over() {
            return Vec::new();
        }
        let finished = || {
            self.boxes
                .iter()
                .enumerate()
                .filter(|(_, g)| g.status() == Status::Won)
        };
        let Some(best) = finished().map(|(_, g)| g.score().total).min() else {
            return Vec::new();
        };
        finished()
            .filter(|(_, g)| g.score().total == best)
            .map(|(i, _)| i as u8 + 1)
            .collect()
    }

    /// What `seat` sees, with how many layouts still fit its evidence and
    /// each cell's chances ([`crate::live::fill`]), worked out within a
    /// small time budget and remembered by evidence.
    pub fn view_with_count(&self, seat: Option<u8>) -> RaceView {
        let mut view = self.view(seat);
        let game = self.own_box(seat);
        live::fill(&mut view.own, game, &self.memo);
        view
    }

    /// What `seat` sees, with the count and chances only where already
    /// worked out ([`crate::live::fill_known`]): no time spent, for a view
    /// built on a move's path; [`Race::count_work`] works the rest out.
    pub fn view_with_known_count(&self, seat: Option<u8>) -> RaceView {
        let mut view = self.view(seat);
        let game = self.own_box(seat);
        live::fill_known(&mut view.own, game, &self.memo);
        view
    }

    /// The work of the counts the views of this position lack (each
    /// seat's box and a spectator's), on a copy of the race, filling the
    /// shared memo away from the move's path; `None` when every view's
    /// count is known.
    pub fn count_work(&self) -> Option<Box<dyn FnOnce() + Send>> {
        let seats: Vec<Option<u8>> = (1..=self.racers())
            .map(|s| Some(s as u8))
            .chain(std::iter::once(None))
            .collect();
        let lacking: Vec<Option<u8>> = seats
            .into_iter()
            .filter(|&seat| !live::known(&self.box_view(seat), self.own_box(seat), &self.memo))
            .collect();
        if lacking.is_empty() {
            return None;
        }
        let race = self.clone();
        Some(Box::new(move || {
            for seat in lacking {
                let _ = race.view_with_count(seat);
            }
        }))
    }

    /// The memo of what each position's evidence says ([`LiveMemo`]).
    pub fn memo(&self) -> &LiveMemo {
        &self.memo
    }

    /// Gives the count's solver `now` per position and `history` in all
    /// for the history's positions not yet known (forgetting what was
    /// worked out). The defaults are [`crate::live::LIVE_BUDGET`] and
    /// [`crate::live::HISTORY_BUDGET`].
    pub fn set_count_budgets(&mut self, now: std::time::Duration, history: std::time::Duration) {
        self.memo = LiveMemo::with_budgets(now, history);
    }

    /// The box whose view `seat` sees as its own ([`RaceView::own`]);
    /// `None` for a spectator of a race in play (the box with nothing
    /// played).
    pub fn own_box(&self, seat: Option<u8>) -> Option<&Game> {
        let own_index = seat
            .map(usize::from)
            .filter(|s| (1..=self.boxes.len()).contains(s))
            .map(|s| s - 1);
        match (self.boxes.len(), own_index) {
            (1, _) => self.boxes.first(),
            (_, Some(i)) => self.boxes.get(i),
            (_, None) if self.is_over() => {
                let shown = self.winners().first().map_or(0, |&s| usize::from(s) - 1);
                self.boxes.get(shown)
            }
            (_, None) => None,
        }
    }

    /// What `seat` sees (a spectator with `None`, or a seat the race does
    /// not have): see [`RaceView`].
    pub fn view(&self, seat: Option<u8>) -> RaceView {
        let own = self.box_view(seat);
        let racers = if self.boxes.len() == 1 {
            Vec::new()
        } else {
            self.boxes
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let score = g.score();
                    Racer {
                        seat: i as u8 + 1,
                        shots: score.shots,
                        found: g.view().found.len(),
                        wrong_guesses: score.wrong_guesses,
                        points: score.total,
                        status: g.status(),
                    }
                })
                .collect()
        };
        RaceView { own, racers }
    }

    /// The box `seat` sees as its own ([`RaceView::own`]), as the race's
    /// secrets allow (see the module's terms): their own box while the
    /// race is on, with no path and no unfound mirror, and once it is over
    /// the whole of it; for a spectator (`None`, or a seat the race does
    /// not have) the box with nothing played while it is on, the first
    /// winner's (else seat 1's) once it is over. Once the race is over,
    /// this is how anyone sees any racer's box.
    pub fn box_view(&self, seat: Option<u8>) -> View {
        let over = self.is_over();
        let own_index = seat
            .map(usize::from)
            .filter(|s| (1..=self.boxes.len()).contains(s))
            .map(|s| s - 1);
        match (self.boxes.len(), own_index) {
            (1, _) => self.boxes[0].view(),
            (_, Some(i)) if over => self.boxes[i].view(),
            (_, Some(i)) => kept(self.boxes[i].view()),
            (_, None) if over => {
                let shown = self.winners().first().map_or(0, |&s| usize::from(s) - 1);
                self.boxes[shown].view()
            }
            (_, None) => blank(self.board()),
        }
    }
}

/// The box of `game` with nothing played: what every racer knew at the
/// start.
fn blank(game: &Game) -> View {
    let mut view = game.view();
    view.shots.clear();
    view.guesses.clear();
    view.found.clear();
    view.score = Score::default();
    view.status = Status::Playing;
    view.missed = None;
    view
}

/// A racer's own box while the race is on: a box they have finished
/// shows no path and no unfound mirror until every racer has finished, since
/// every racer's box hides the same mirrors.
fn kept(mut view: View) -> View {
    view.missed = None;
    for shot in &mut view.shots {
        shot.deflections = None;
        shot.path = None;
    }
    view
}

/// A box's event as the other racers may hear it.
fn news(event: &Event, own: &Game) -> RaceNews {
    let score = own.score();
    match event {
        Event::Shot { .. } => RaceNews::RaceShot { shots: score.shots },
        Event::Guess { right, .. } => RaceNews::RaceGuess {
            right: *right,
            found: own.view().found.len(),
            mirrors: own.view().mirrors,
        },
        Event::Won { score } => RaceNews::RaceFinished { score: *score },
        Event::Quit { score, .. } => RaceNews::RaceQuit { score: *score },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Placed;

    fn two() -> Race {
        Race::new(Setup::default(), 2).unwrap()
    }

    fn play(race: &mut Race, text: &str) -> Vec<RaceEvent> {
        race.apply(text.parse().unwrap()).unwrap()
    }

    #[test]
    fn seats_take_turns_each_on_their_own_box() {
        let mut race = two();
        assert_eq!(race.to_move(), Some(1));
        play(&mut race, "shoot 7");
        assert_eq!(race.to_move(), Some(2));
        assert_eq!(race.boxes()[0].score().shots, 1);
        assert_eq!(race.boxes()[1].score().shots, 0);
        play(&mut race, "shoot 1");
        assert_eq!(race.to_move(), Some(1));
        assert_eq!(race.view(Some(1)).own.shots[0].exit, 22);
        assert_eq!(race.view(Some(2)).own.shots[0].exit, 24);
        // A refused move changes nothing and keeps the turn.
        assert!(race.apply(Move::Shoot { hole: 99 }).is_err());
        assert_eq!(race.to_move(), Some(1));
    }

    #[test]
    fn a_race_holds_no_answer_in_its_events() {
        let mut race = two();
        let events = play(&mut race, "shoot 7");
        assert_eq!(events, [RaceEvent::Race(RaceNews::RaceShot { shots: 1 })]);
        assert_eq!(events[0].to_string(), "Shoots a beam (1 shot so far).");
        let json = serde_json::to_value(&events[0]).unwrap();
        assert_eq!(json, serde_json::json!({"event": "race_shot", "shots": 1}));
        // One racer keeps the solitaire game's own events.
        let mut solo = Race::new(Setup::default(), 1).unwrap();
        let events = play(&mut solo, "shoot 7");
        assert_eq!(events, [RaceEvent::Box(Event::Shot { hole: 7, exit: 22 })]);
        assert_eq!(
            serde_json::to_value(&events[0]).unwrap(),
            serde_json::to_value(Event::Shot { hole: 7, exit: 22 }).unwrap()
        );
    }

    #[test]
    fn racers_are_refused_outside_one_to_four() {
        assert_eq!(
            Race::new(Setup::default(), 0).unwrap_err(),
            RaceError::Racers { racers: 0 }
        );
        assert!(
            Race::new(Setup::default(), 5)
                .unwrap_err()
                .to_string()
                .contains("1 to 4 players")
        );
    }

    #[test]
    fn the_fewest_points_win_and_a_tie_is_shared() {
        let fixed = crate::layout::FIXED;
        let guesses: Vec<String> = fixed
            .iter()
            .map(|(row, col, mirror)| format!("guess {row} {col} {mirror}"))
            .collect();
        // Both find every mirror at once: a shared win, 0 points each.
        let mut race = two();
        for g in &guesses {
            play(&mut race, g);
            play(&mut race, g);
        }
        assert!(race.is_over());
        assert_eq!(race.winners(), [1, 2]);
        // Seat 2 shoots once more: seat 1 wins alone.
        let mut race = two();
        play(&mut race, &guesses[0]);
        play(&mut race, "shoot 7");
        for g in &guesses[1..] {
            play(&mut race, g);
            play(&mut race, g);
        }
        play(&mut race, &guesses[0]);
        assert!(race.is_over());
        assert_eq!(race.winners(), [1]);
        // A racer who gave up never wins; with no finisher, no one does.
        let mut race = two();
        play(&mut race, "quit");
        assert_eq!(race.to_move(), Some(2), "seat 1 is passed over");
        play(&mut race, "shoot 7");
        assert_eq!(race.to_move(), Some(2));
        play(&mut race, "quit");
        assert!(race.is_over());
        assert!(race.winners().is_empty());
    }

    #[test]
    fn once_over_each_racer_is_shown_with_what_they_did_and_missed() {
        let fixed = crate::layout::FIXED;
        let mut race = two();
        // Seat 1 finds one mirror and gives up; seat 2 shoots and gives up.
        let (row, col, mirror) = fixed[0];
        play(&mut race, &format!("guess {row} {col} {mirror}"));
        play(&mut race, "shoot 7");
        play(&mut race, "quit");
        // While the race is on, seat 1's box as they see it: their guess,
        // and no unfound mirror though they have given up.
        let on = race.box_view(Some(1));
        assert_eq!(on.found.len(), 1);
        assert!(on.missed.is_none(), "on: no unfound mirror");
        play(&mut race, "quit");
        // The race's view says counts only: no racer's box in it.
        let view = race.view(Some(2));
        let json = serde_json::to_value(&view).unwrap();
        for racer in json["racers"].as_array().unwrap() {
            let keys: Vec<&String> = racer.as_object().unwrap().keys().collect();
            assert_eq!(
                keys,
                [
                    "found",
                    "points",
                    "seat",
                    "shots",
                    "status",
                    "wrong_guesses"
                ],
                "{racer}"
            );
        }
        // Each racer's box on its own: seat 1 found the one it guessed and
        // missed the other four, in row order.
        let first = race.box_view(Some(1));
        assert_eq!(first.guesses.len(), 1);
        assert!(first.guesses[0].right);
        assert!(first.shots.is_empty());
        let missed: Vec<Placed> = fixed[1..]
            .iter()
            .map(|&(row, col, mirror)| Placed::new(crate::Cell::new(row, col), mirror))
            .collect();
        assert_eq!(first.missed, Some(missed));
        let second = race.box_view(Some(2));
        assert_eq!((second.shots[0].hole, second.shots[0].exit), (7, 22));
        assert_eq!(second.shots[0].deflections, Some(0));
        assert!(second.guesses.is_empty());
        assert_eq!(second.missed.as_ref().map(Vec::len), Some(5));
        assert_eq!(second, view.own, "seat 2's view is its own box");
        // A shot's path is the picture's: never in the JSON.
        assert!(second.shots[0].path.is_some());
        let json = serde_json::to_value(&second).unwrap();
        assert!(
            json["shots"]
                .as_array()
                .is_some_and(|s| s.iter().all(|s| s.get("path").is_none()))
        );
    }
}
