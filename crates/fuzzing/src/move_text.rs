//! Every move's text form (and the other short texts a person types): no
//! input panics, and what reads prints back to text that reads the same.
use std::fmt::Display;
use std::str::FromStr;

fn round_trip<T>(text: &str)
where
    T: FromStr + Display + PartialEq + std::fmt::Debug,
{
    if let Ok(value) = text.parse::<T>() {
        let printed = value.to_string();
        match printed.parse::<T>() {
            Ok(again) => assert_eq!(again, value, "{text:?} printed as {printed:?}"),
            Err(_) => panic!("{text:?} printed as {printed:?}, which does not read"),
        }
    }
}

/// Checks one input: panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match pick % 8 {
        0 => round_trip::<baffle::Move>(text),
        1 => round_trip::<tycoon::Move>(text),
        2 => round_trip::<tycoon::design::Edit>(text),
        3 => round_trip::<baffle::Placed>(text),
        4 => round_trip::<baffle::Sides>(text),
        5 => round_trip::<tycoon::Seat>(text),
        6 => round_trip::<tabletop::BotLevel>(text),
        _ => {
            if let Ok(rolls) = tabletop::parse_rolls(text) {
                assert!(rolls.iter().all(|&r| r > 0), "{text:?}: {rolls:?}");
                let printed: Vec<String> = rolls.iter().map(u32::to_string).collect();
                // A comma after the last keeps one roll `13` from reading as
                // the digit run 1, 3.
                let text = format!("{},", printed.join(","));
                assert_eq!(tabletop::parse_rolls(&text).ok(), Some(rolls), "{text}");
            }
        }
    }
}
