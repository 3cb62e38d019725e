//! The players as a picture calls them: each seat's name and colour.
//!
//! Terms:
//! - **seats** ([`Seats`]): the names and colours a game's picture gives
//!   its players, seat 1's first. A seat past the names given is "Player
//!   N"; past the colours given, its colour is its seat's (a rematch moves
//!   seats on, but each person keeps their colour).

use crate::palette::{self, Colour};

/// Each seat's name and colour for a picture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    /// The names, seat 1's first.
    pub names: Vec<String>,
    /// The colours (from 1, [`palette::player`]'s), seat 1's first.
    pub colours: Vec<u8>,
}

impl Seats {
    /// Seat `seat`'s (from 1) name: "Ada", or "Player 2" with none.
    pub fn name(&self, seat: usize) -> String {
        tabletop::play::seat_name(&self.names, u8::try_from(seat).unwrap_or(u8::MAX))
    }

    /// Seat `seat`'s (from 1) colour.
    pub fn colour(&self, seat: usize) -> Colour {
        let own = self
            .colours
            .get(seat.wrapping_sub(1))
            .map_or(seat, |&c| usize::from(c));
        palette::player(own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_named_and_coloured_as_given_else_by_its_number() {
        let seats = Seats {
            names: vec!["Ada".into()],
            colours: vec![2, 1],
        };
        assert_eq!(seats.name(1), "Ada");
        assert_eq!(seats.name(2), "Player 2");
        assert_eq!(seats.colour(1), palette::player(2));
        assert_eq!(seats.colour(2), palette::player(1));
        assert_eq!(seats.colour(3), palette::player(3));
    }
}
