//! The one play loop of every game's `play` command.
//!
//! Terms:
//! - **table** ([`Table`]): what a game's text front end adds to the loop —
//!   the question it asks a person, its own commands (Baffle's `hint`,
//!   `show`), and how a played move is printed. The rules stay in the game
//!   library; the loop only relays.
//! - **script**: input that is not a terminal; each line read is echoed, so
//!   that the log reads like a session.
//! - **chosen dice** (`--dice`): rolls used in order by people and bots
//!   alike; when they run out, the loop stops ([`Ending::DiceRanOut`]).
//! - **ending** ([`Ending`]): why the loop stopped.

use anyhow::Result;
use std::io::{BufRead, Write};
use tabletop::play::{Match, MatchError, Playable, PlayedOf, Request};
use tabletop::{DiceSource, Rng, ScriptedDice};

/// Why the loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The match is over (won, given up or stalled).
    Over,
    /// A person said `quit`/`exit` before the end.
    Left,
    /// The input ended while a person had to answer.
    InputEnded,
    /// The chosen dice ran out before the end.
    DiceRanOut,
}

/// What a person's line asked for.
pub(crate) enum Command<M> {
    /// Play this move.
    Move(M),
    /// The table handled it (help, show, hint…); ask again.
    Done,
    /// The line was not understood (the table said why).
    NotUnderstood,
    /// Stop here.
    Leave,
}

/// What a game's text front end adds to the one loop.
pub(crate) trait Table<G: Playable> {
    /// The question for the person in `seat`, shown before reading a line.
    fn prompt(&mut self, m: &Match<G>, seat: u8) -> String;

    /// Reads a person's line: a move, or one of this game's own commands.
    ///
    /// # Errors
    /// Only when writing fails.
    fn command(
        &mut self,
        m: &mut Match<G>,
        line: &str,
        out: &mut dyn Write,
    ) -> Result<Command<G::Move>>;

    /// Prints what a move did.
    ///
    /// # Errors
    /// Only when writing fails.
    fn played(&mut self, m: &Match<G>, played: &PlayedOf<G>, out: &mut dyn Write) -> Result<()>;

    /// Prints why a person's move was refused.
    ///
    /// # Errors
    /// Only when writing fails.
    fn refused(&mut self, error: &MatchError<G::Error>, out: &mut dyn Write) -> Result<()> {
        writeln!(out, "Refused: {error}.")?;
        Ok(())
    }
}

/// Where a loop reads, writes and rolls.
pub(crate) struct Console<'a> {
    /// A person's lines.
    pub input: &'a mut dyn BufRead,
    /// The log: every move played.
    pub out: &'a mut dyn Write,
    /// Where a person is asked and answered (the prompts, help, refusals).
    pub talk: &'a mut dyn Write,
    /// Echo each line read (the input is a script, not a terminal).
    pub echo: bool,
    /// The chosen dice, when the match's rolls are chosen.
    pub dice: Option<ScriptedDice>,
    /// The bots' randomness.
    pub rng: Rng,
}

/// How a loop went.
pub(crate) struct Outcome {
    /// Why it stopped.
    pub ending: Ending,
    /// Lines a person typed that were not understood.
    pub not_understood: usize,
}

/// Plays `m` until it is over, a person leaves, the input ends or the
/// chosen dice run out: bots move on their own, people are asked.
///
/// # Errors
/// When reading or writing fails.
pub(crate) fn run<G: Playable>(
    m: &mut Match<G>,
    table: &mut impl Table<G>,
    console: &mut Console<'_>,
) -> Result<Outcome> {
    let mut not_understood = 0;
    let ending = loop {
        let Some(seat) = m.to_move() else {
            break Ending::Over;
        };
        if m.seats()[usize::from(seat) - 1].is_bot() {
            let dice = console.dice.as_mut().map(|d| d as &mut dyn DiceSource);
            match m.step_bot(&mut console.rng, dice) {
                Some(played) => table.played(m, &played, console.out)?,
                // A bot's move is always legal: only chosen dice that ran
                // out can stop it.
                None => break Ending::DiceRanOut,
            }
            continue;
        }
        console.out.flush()?;
        write!(console.talk, "{} ", table.prompt(m, seat))?;
        console.talk.flush()?;
        let mut line = String::new();
        if console.input.read_line(&mut line)? == 0 {
            writeln!(console.talk)?;
            break Ending::InputEnded;
        }
        let text = line.trim();
        if console.echo {
            writeln!(console.talk, "{text}")?;
        }
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let mv = match table.command(m, text, console.talk)? {
            Command::Move(mv) => mv,
            Command::Done => continue,
            Command::NotUnderstood => {
                not_understood += 1;
                continue;
            }
            Command::Leave => break Ending::Left,
        };
        let result = match console.dice.as_mut() {
            Some(dice) => m.play_rolling(seat, mv, dice),
            None => m.play(seat, Request::new(mv)),
        };
        match result {
            Ok(played) => table.played(m, &played, console.out)?,
            Err(_) if console.dice.as_ref().is_some_and(ScriptedDice::ran_out) => {
                break Ending::DiceRanOut;
            }
            Err(e) => table.refused(&e, console.talk)?,
        }
    };
    console.out.flush()?;
    console.talk.flush()?;
    Ok(Outcome {
        ending,
        not_understood,
    })
}
