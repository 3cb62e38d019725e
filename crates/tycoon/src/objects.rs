//! The things a grid holds: ladders, snakes and cards.
//!
//! Terms:
//! - **cell**: a place on the grid, numbered 1 to 99 (see [`crate::cells`]).
//! - **object**: a ladder, a snake or a card ([`Object`]). An object **lives**
//!   in its **home** cell: a ladder's or snake's start, a card's cell.
//! - **ladder**: from its start up to its end, in one column ([`Ladder`]).
//! - **snake**: from its start down to its end, in one column ([`Snake`]).
//! - **card**: a numbered card 1–12 on a cell, with its **parameters**
//!   ([`Card`], [`CardKind`]): card 1 coins to take, card 6 a destination,
//!   card 8 a prison fee, cards 9–11 a station price and fee.
//! - **station**: cards 9, 10 and 11; all cards of one number form one
//!   **station group**, bought and owned together.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A ladder: stopping on `start` climbs to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// The cell that triggers the climb (where the ladder lives).
    pub start: u32,
    /// Where the climb ends.
    pub end: u32,
}

/// A snake: stopping on `start` slides down to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snake {
    /// The cell that triggers the slide (where the snake lives).
    pub start: u32,
    /// Where the slide ends.
    pub end: u32,
}

impl Ladder {
    /// A ladder from `start` to `end` (not yet checked against any rule).
    pub const fn new(start: u32, end: u32) -> Self {
        Self { start, end }
    }
}

impl Snake {
    /// A snake from `start` to `end` (not yet checked against any rule).
    pub const fn new(start: u32, end: u32) -> Self {
        Self { start, end }
    }
}

impl fmt::Display for Ladder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ladder {}→{}", self.start, self.end)
    }
}

impl fmt::Display for Snake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "snake {}→{}", self.start, self.end)
    }
}

/// The station card numbers.
pub const STATION_NUMBERS: [u8; 3] = [9, 10, 11];

/// What a card does, with its parameters. The card's number is
/// [`CardKind::number`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardKind {
    /// Card 1: pay `coins` (wallets may go below zero).
    TakeCoins {
        /// Coins taken.
        coins: u32,
    },
    /// Card 2: go forward to the start of the next ladder and climb it.
    NextLadder,
    /// Card 3: roll again now (a new turn).
    ExtraRoll,
    /// Card 4: lose the next turn.
    LoseTurn,
    /// Card 5: go back by the number just rolled, and take what is there.
    GoBack,
    /// Card 6: go to `destination` and take what is there.
    GoTo {
        /// The cell to go to.
        destination: u32,
    },
    /// Card 7: the nearest player ahead goes back to cell 1.
    Restart,
    /// Card 8: prison; pay `fee` to leave, or lose the next 3 turns.
    Prison {
        /// Coins to leave prison.
        fee: u32,
    },
    /// Cards 9, 10, 11: a station of group `number`.
    Station {
        /// The card number, 9, 10 or 11.
        number: u8,
        /// Coins to buy the group.
        price: u32,
        /// Coins another player pays the owner on stopping here.
        fee: u32,
    },
    /// Card 12: your most expensive station group passes to the poorest
    /// player.
    GiveStation,
}

/// What a card number is, in one place: its short name, its parameters by
/// name in file order, how its file line is written, and what it needs in
/// words. The designer's palette (CLI help, the browser) reads this table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CardInfo {
    /// The card number, 1 to 12.
    pub number: u8,
    /// A short name for a palette.
    pub name: &'static str,
    /// Its parameters in file order (`["price", "fee"]`).
    pub params: &'static [&'static str],
    /// How its file line is written (`9 <cell> <price> <fee>`).
    pub usage: &'static str,
    /// What it needs, in words (for error messages).
    #[serde(skip)]
    pub needs: &'static str,
}

/// Every card number, 1 to 12, in order.
pub const CARDS: [CardInfo; 12] = {
    const NONE: &str = "takes no parameters";
    const fn card(
        number: u8,
        name: &'static str,
        params: &'static [&'static str],
        usage: &'static str,
        needs: &'static str,
    ) -> CardInfo {
        CardInfo {
            number,
            name,
            params,
            usage,
            needs,
        }
    }
    [
        card(
            1,
            "pay coins",
            &["coins"],
            "1 <cell> <coins>",
            "takes one parameter, the coins to take",
        ),
        card(2, "go to the next ladder", &[], "2 <cell>", NONE),
        card(3, "roll again", &[], "3 <cell>", NONE),
        card(4, "lose the next turn", &[], "4 <cell>", NONE),
        card(5, "go back by the roll", &[], "5 <cell>", NONE),
        card(
            6,
            "go to a cell",
            &["destination"],
            "6 <cell> <destination>",
            "takes one parameter, the destination cell",
        ),
        card(
            7,
            "send the player ahead back to cell 1",
            &[],
            "7 <cell>",
            NONE,
        ),
        card(
            8,
            "prison",
            &["fee"],
            "8 <cell> <fee>",
            "takes one parameter, the coins to leave prison",
        ),
        card(
            9,
            "station",
            &["price", "fee"],
            "9 <cell> <price> <fee>",
            "takes two parameters, the station's price and fee",
        ),
        card(
            10,
            "station",
            &["price", "fee"],
            "10 <cell> <price> <fee>",
            "takes two parameters, the station's price and fee",
        ),
        card(
            11,
            "station",
            &["price", "fee"],
            "11 <cell> <price> <fee>",
            "takes two parameters, the station's price and fee",
        ),
        card(12, "give your dearest station away", &[], "12 <cell>", NONE),
    ]
};

impl CardInfo {
    /// The entry for card `number` (card 12's for numbers outside 1 to 12,
    /// which no validated card has).
    pub fn of(number: u8) -> &'static CardInfo {
        let index = usize::from(number.clamp(1, 12)) - 1;
        &CARDS[index]
    }
}

/// Why a card number and parameters do not make a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardShapeError {
    /// Not a card number.
    #[error("there is no card {0}: cards are numbered 1 to 12")]
    Number(u32),
    /// The wrong number of parameters for the card.
    #[error("card {number} {needs}, so its line is `{usage}`; got {got} parameter{s}", s = if *got == 1 { "" } else { "s" })]
    Params {
        /// The card number.
        number: u8,
        /// What it needs, in words.
        needs: &'static str,
        /// How it is written.
        usage: &'static str,
        /// How many parameters were given.
        got: usize,
    },
}

impl CardKind {
    /// The card's number, 1 to 12.
    pub fn number(&self) -> u8 {
        match self {
            Self::TakeCoins { .. } => 1,
            Self::NextLadder => 2,
            Self::ExtraRoll => 3,
            Self::LoseTurn => 4,
            Self::GoBack => 5,
            Self::GoTo { .. } => 6,
            Self::Restart => 7,
            Self::Prison { .. } => 8,
            Self::Station { number, .. } => *number,
            Self::GiveStation => 12,
        }
    }

    /// The parameters in file order (`[]`, `[coins]`, `[destination]`,
    /// `[fee]` or `[price, fee]`).
    pub fn params(&self) -> Vec<u32> {
        match *self {
            Self::TakeCoins { coins } => vec![coins],
            Self::GoTo { destination } => vec![destination],
            Self::Prison { fee } => vec![fee],
            Self::Station { price, fee, .. } => vec![price, fee],
            _ => Vec::new(),
        }
    }

    /// How a card of `number` is written: `CELL` then its parameters.
    pub fn usage(number: u8) -> &'static str {
        CardInfo::of(number).usage
    }

    /// What card `number` needs, in words.
    fn needs(number: u8) -> &'static str {
        CardInfo::of(number).needs
    }

    /// Builds card `number` from its parameters in file order. Values are
    /// not range-checked here (the grid's rules do that).
    ///
    /// # Errors
    /// Fails when `number` is not 1 to 12 or the count of parameters is
    /// wrong for the card.
    pub fn from_params(number: u32, params: &[u32]) -> Result<Self, CardShapeError> {
        let n = u8::try_from(number)
            .ok()
            .filter(|n| (1..=12).contains(n))
            .ok_or(CardShapeError::Number(number))?;
        let wrong = || CardShapeError::Params {
            number: n,
            needs: Self::needs(n),
            usage: Self::usage(n),
            got: params.len(),
        };
        Ok(match (n, params) {
            (1, &[coins]) => Self::TakeCoins { coins },
            (2, []) => Self::NextLadder,
            (3, []) => Self::ExtraRoll,
            (4, []) => Self::LoseTurn,
            (5, []) => Self::GoBack,
            (6, &[destination]) => Self::GoTo { destination },
            (7, []) => Self::Restart,
            (8, &[fee]) => Self::Prison { fee },
            (9..=11, &[price, fee]) => Self::Station {
                number: n,
                price,
                fee,
            },
            (12, []) => Self::GiveStation,
            _ => return Err(wrong()),
        })
    }

    /// The number of parameters card `number` takes (0 for unknown numbers).
    pub fn param_count(number: u32) -> usize {
        u8::try_from(number)
            .ok()
            .filter(|n| (1..=12).contains(n))
            .map_or(0, |n| CardInfo::of(n).params.len())
    }

    /// A short description of what the card does, for people.
    pub fn describe(&self) -> String {
        match *self {
            Self::TakeCoins { coins } => format!("pay {coins} coins"),
            Self::NextLadder => "go to the next ladder and climb it".into(),
            Self::ExtraRoll => "roll again".into(),
            Self::LoseTurn => "lose the next turn".into(),
            Self::GoBack => "go back by the roll".into(),
            Self::GoTo { destination } => format!("go to cell {destination}"),
            Self::Restart => "the nearest player ahead goes back to cell 1".into(),
            Self::Prison { fee } => format!("prison: pay {fee} or lose 3 turns"),
            Self::Station { price, fee, .. } => format!("station: price {price}, fee {fee}"),
            Self::GiveStation => "your dearest station goes to the poorest player".into(),
        }
    }
}

/// A card on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "CardData", into = "CardData")]
pub struct Card {
    /// Where the card lies.
    pub cell: u32,
    /// What it does.
    pub kind: CardKind,
}

impl Card {
    /// Card `kind` on `cell` (not yet checked against any rule).
    pub const fn new(cell: u32, kind: CardKind) -> Self {
        Self { cell, kind }
    }

    /// The card's number, 1 to 12.
    pub fn number(&self) -> u8 {
        self.kind.number()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "card {} on cell {}", self.number(), self.cell)?;
        match self.kind {
            CardKind::TakeCoins { coins } => write!(f, " (coins {coins})"),
            CardKind::GoTo { destination } => write!(f, " (destination {destination})"),
            CardKind::Prison { fee } => write!(f, " (fee {fee})"),
            CardKind::Station { price, fee, .. } => write!(f, " (price {price}, fee {fee})"),
            _ => Ok(()),
        }
    }
}

/// The JSON form of a card: `{"cell": 13, "card": 9, "price": 50, "fee": 10}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardData {
    cell: u32,
    card: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    coins: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    destination: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    price: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fee: Option<u32>,
}

impl From<Card> for CardData {
    fn from(card: Card) -> Self {
        let mut data = CardData {
            cell: card.cell,
            card: u32::from(card.number()),
            coins: None,
            destination: None,
            price: None,
            fee: None,
        };
        match card.kind {
            CardKind::TakeCoins { coins } => data.coins = Some(coins),
            CardKind::GoTo { destination } => data.destination = Some(destination),
            CardKind::Prison { fee } => data.fee = Some(fee),
            CardKind::Station { price, fee, .. } => {
                data.price = Some(price);
                data.fee = Some(fee);
            }
            _ => {}
        }
        data
    }
}

impl TryFrom<CardData> for Card {
    type Error = String;
    fn try_from(d: CardData) -> Result<Self, String> {
        let field = |name: &str, value: Option<u32>| {
            value.ok_or_else(|| format!("card {} on cell {} needs \"{name}\"", d.card, d.cell))
        };
        let (allowed, params): (&[&str], Vec<u32>) = match d.card {
            1 => (&["coins"], vec![field("coins", d.coins)?]),
            6 => (&["destination"], vec![field("destination", d.destination)?]),
            8 => (&["fee"], vec![field("fee", d.fee)?]),
            9..=11 => (
                &["price", "fee"],
                vec![field("price", d.price)?, field("fee", d.fee)?],
            ),
            _ => (&[], Vec::new()),
        };
        let given = [
            ("coins", d.coins),
            ("destination", d.destination),
            ("price", d.price),
            ("fee", d.fee),
        ];
        if let Some((extra, _)) = given
            .iter()
            .find(|(name, v)| v.is_some() && !allowed.contains(name))
        {
            return Err(format!(
                "card {} on cell {} takes no \"{extra}\"",
                d.card, d.cell
            ));
        }
        let kind = CardKind::from_params(d.card, &params).map_err(|e| e.to_string())?;
        Ok(Card::new(d.cell, kind))
    }
}

/// A ladder, a snake or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "object", rename_all = "lowercase")]
pub enum Object {
    /// A ladder.
    Ladder(Ladder),
    /// A snake.
    Snake(Snake),
    /// A card.
    Card(Card),
}

impl Object {
    /// The cell the object lives in: a ladder's or snake's start, a card's
    /// cell.
    pub fn home(&self) -> u32 {
        match self {
            Self::Ladder(l) => l.start,
            Self::Snake(s) => s.start,
            Self::Card(c) => c.cell,
        }
    }

    /// The same object moved so that it lives on `cell`: a ladder or snake
    /// keeps its length, a card keeps its parameters. `None` when a ladder
    /// or snake would leave the numbers 1 to 99 (or pass zero).
    pub fn moved_to(&self, cell: u32) -> Option<Self> {
        match *self {
            Self::Ladder(l) => {
                let end = cell.checked_add(l.end.checked_sub(l.start)?)?;
                Some(Self::Ladder(Ladder::new(cell, end)))
            }
            Self::Snake(s) => {
                let end = cell.checked_sub(s.start.checked_sub(s.end)?)?;
                Some(Self::Snake(Snake::new(cell, end)))
            }
            Self::Card(c) => Some(Self::Card(Card::new(cell, c.kind))),
        }
    }

    /// `ladder`, `snake` or `card N`.
    pub fn kind_name(&self) -> String {
        match self {
            Self::Ladder(_) => "ladder".into(),
            Self::Snake(_) => "snake".into(),
            Self::Card(c) => format!("card {}", c.number()),
        }
    }
}

impl fmt::Display for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ladder(l) => l.fmt(f),
            Self::Snake(s) => s.fmt(f),
            Self::Card(c) => c.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_table_matches_what_each_card_accepts() {
        for info in CARDS {
            let n = u32::from(info.number);
            let params = vec![5; info.params.len()];
            let card = CardKind::from_params(n, &params).unwrap();
            assert_eq!(card.number(), info.number);
            assert_eq!(card.params().len(), info.params.len());
            assert_eq!(CardKind::param_count(n), info.params.len());
            assert!(CardKind::from_params(n, &[5; 3]).is_err());
            assert!(info.usage.starts_with(&format!("{n} <cell>")));
            assert_eq!(info.usage.split_whitespace().count(), 2 + info.params.len());
        }
        assert_eq!(CardKind::param_count(13), 0);
    }

    #[test]
    fn cards_build_from_their_parameters() {
        assert_eq!(
            CardKind::from_params(9, &[50, 10]).unwrap(),
            CardKind::Station {
                number: 9,
                price: 50,
                fee: 10
            }
        );
        for n in 1..=12u32 {
            let params = vec![7; CardKind::param_count(n)];
            let kind = CardKind::from_params(n, &params).unwrap();
            assert_eq!(u32::from(kind.number()), n);
            assert_eq!(kind.params(), params);
            assert!(CardKind::from_params(n, &[1, 2, 3]).is_err());
        }
        let err = CardKind::from_params(9, &[50]).unwrap_err().to_string();
        assert!(
            err.contains("price") && err.contains("9 <cell> <price> <fee>"),
            "{err}"
        );
        assert!(matches!(
            CardKind::from_params(13, &[]),
            Err(CardShapeError::Number(13))
        ));
        assert!(CardKind::from_params(0, &[]).is_err());
    }

    #[test]
    fn cards_have_a_flat_json_form() {
        let card = Card::new(13, CardKind::from_params(9, &[50, 10]).unwrap());
        let json = serde_json::to_string(&card).unwrap();
        assert_eq!(json, r#"{"cell":13,"card":9,"price":50,"fee":10}"#);
        assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        let plain: Card = serde_json::from_str(r#"{"cell":51,"card":4}"#).unwrap();
        assert_eq!(plain.kind, CardKind::LoseTurn);
        let err = serde_json::from_str::<Card>(r#"{"cell":4,"card":1}"#).unwrap_err();
        assert!(err.to_string().contains("coins"), "{err}");
        let err = serde_json::from_str::<Card>(r#"{"cell":4,"card":4,"fee":3}"#).unwrap_err();
        assert!(err.to_string().contains("fee"), "{err}");
    }

    #[test]
    fn moved_objects_keep_length_and_parameters() {
        let l = Object::Ladder(Ladder::new(10, 32));
        assert_eq!(l.moved_to(50), Some(Object::Ladder(Ladder::new(50, 72))));
        let s = Object::Snake(Snake::new(34, 23));
        assert_eq!(s.moved_to(5), None);
        assert_eq!(s.moved_to(60), Some(Object::Snake(Snake::new(60, 49))));
        let c = Object::Card(Card::new(28, CardKind::GoTo { destination: 97 }));
        assert_eq!(
            c.moved_to(40),
            Some(Object::Card(Card::new(
                40,
                CardKind::GoTo { destination: 97 }
            )))
        );
        // A malformed ladder (end below start) cannot be moved.
        assert_eq!(Object::Ladder(Ladder::new(32, 10)).moved_to(40), None);
    }
}
