//! Every refusal's code, in one enum: what a program branches on.
//!
//! Terms:
//! - **code** ([`Code`]): the stable, machine-readable name of a kind of
//!   refusal (`not_your_turn`, `bad_json`, …): lowercase words joined by
//!   `_`, never changed once shipped. Each code has one HTTP status
//!   ([`Code::status`]), which the server answers with; the CLI shows the
//!   message. docs/api.md lists them all (a test checks the list).

use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $name:ident = $text:literal, $status:literal;)*) => {
        /// A refusal's code (see the module's terms).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[doc = $doc])* $name,)*
        }

        impl Code {
            /// Every code, in the order docs/api.md lists them.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The code as the API writes it: `not_your_turn`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }

            /// The HTTP status a refusal of this code is answered with.
            pub const fn status(self) -> u16 {
                match self {
                    $(Code::$name => $status,)*
                }
            }
        }
    };
}

codes! {
    /// A request the route cannot take: a field out of range, an unknown
    /// game, board format or dice mode.
    BadRequest = "bad_request", 400;
    /// A body that is not a JSON object, or a field of the wrong type.
    BadJson = "bad_json", 400;
    /// A move that does not read as a move of this game.
    BadMove = "bad_move", 400;
    /// Evidence no Baffle box fits.
    Contradiction = "contradiction", 400;
    /// A name the one name rule refuses.
    BadName = "bad_name", 400;
    /// Seats the game does not take.
    BadSeats = "bad_seats", 400;
    /// A seed given where none may be.
    BadSeed = "bad_seed", 400;
    /// A setup the game does not allow.
    BadSetup = "bad_setup", 400;
    /// A replay step past the match's last move.
    BadStep = "bad_step", 400;
    /// A chosen roll the die cannot show.
    BadRoll = "bad_roll", 400;
    /// A roll sent to a match whose dice are seeded.
    RollNotChosen = "roll_not_chosen", 400;
    /// No roll where the players choose them.
    RollNeeded = "roll_needed", 400;
    /// A roll with a move that does not roll.
    RollUnused = "roll_unused", 400;
    /// A seat that is not there, or not a person's.
    NoSuchSeat = "no_such_seat", 400;
    /// A game's own route on another game's match.
    WrongGame = "wrong_game", 400;
    /// A move with no seat token.
    NoToken = "no_token", 401;
    /// A token that is not this match's.
    BadToken = "bad_token", 403;
    /// A move from a token that holds no seat.
    NotYourSeat = "not_your_seat", 403;
    /// An invite that is not the seat's.
    BadInvite = "bad_invite", 403;
    /// Changing what someone else saved.
    NotOwner = "not_owner", 403;
    /// A host's action asked for by another.
    NotHost = "not_host", 403;
    /// A request from another site, or for another host.
    Forbidden = "forbidden", 403;
    /// No such match.
    NoMatch = "no_match", 404;
    /// No grid saved under that name.
    NoGrid = "no_grid", 404;
    /// No such board.
    NoBoard = "no_board", 404;
    /// No such board, design or route.
    NotFound = "not_found", 404;
    /// A method the route does not take.
    MethodNotAllowed = "method_not_allowed", 405;
    /// A body that did not arrive in time.
    BodyTimeout = "body_timeout", 408;
    /// A move made on a position that has moved on.
    StaleMove = "stale_move", 409;
    /// Another seat, or a bot, is to move.
    NotYourTurn = "not_your_turn", 409;
    /// A bot's seat moved by a person.
    BotSeat = "bot_seat", 409;
    /// A move after the end.
    GameOver = "game_over", 409;
    /// A record or a rematch asked for while the match is on.
    GameOn = "game_on", 409;
    /// A seat someone already took.
    SeatTaken = "seat_taken", 409;
    /// A grid saved under a name already taken.
    GridExists = "grid_exists", 409;
    /// A request that conflicts with the resource's state.
    Conflict = "conflict", 409;
    /// A body over the limit.
    TooLarge = "too_large", 413;
    /// A body not sent as JSON.
    NotJson = "not_json", 415;
    /// More than an address's share of requests.
    RateLimited = "rate_limited", 429;
    /// More saved grids than a saver's share.
    GridQuota = "grid_quota", 429;
    /// More unfinished games than a maker's share.
    MatchQuota = "match_quota", 429;
    /// More requests than allowed, when nothing more precise is known.
    TooMany = "too_many", 429;
    /// A move the game's rules refuse.
    IllegalMove = "illegal_move", 422;
    /// A Baffle guess at a mirror already found.
    AlreadyFound = "already_found", 422;
    /// A file that does not parse or breaks a rule, an edit the rules
    /// refuse, a picture too big to draw.
    Invalid = "invalid", 422;
    /// The Baffle bot cannot move on this evidence.
    BotStuck = "bot_stuck", 422;
    /// A game that does not know each player's chance to win.
    NoChances = "no_chances", 422;
    /// A scripted list of rolls used up.
    DiceRanOut = "dice_ran_out", 422;
    /// A record that does not replay.
    BadRecord = "bad_record", 500;
    /// A stored match the store holds damaged.
    DamagedRecord = "damaged_record", 500;
    /// A fault of the server's own (an answer that does not write).
    ServerError = "server_error", 500;
    /// Too many long answers at once, or every connection busy.
    Busy = "busy", 503;
    /// A long answer that ran out of its time.
    TooLong = "too_long", 503;
    /// More live streams than an address's share.
    TooManyStreams = "too_many_streams", 503;
    /// The server is stopping.
    Draining = "draining", 503;
    /// The store cannot be reached in time.
    StoreUnavailable = "store_unavailable", 503;
    /// The store holds its most unfinished games.
    StoreAtCapacity = "store_at_capacity", 503;
    /// The disk is full, or the server holds its most saved grids.
    StorageFull = "storage_full", 507;
    /// The store is read-only.
    StoreReadOnly = "store_read_only", 507;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_written_once_and_in_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "{text} twice");
            assert!(
                text.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{text}"
            );
            assert!((400..600).contains(&code.status()), "{text}");
        }
        assert_eq!(Code::NotYourTurn, "not_your_turn");
        assert_eq!(serde_json::to_string(&Code::GameOn).unwrap(), "\"game_on\"");
    }
}
