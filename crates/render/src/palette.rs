//! The colours every Parlor picture uses, so the three games look like one
//! product.
//!
//! Terms:
//! - **colour** ([`Colour`]): an opaque sRGB colour, written `#rrggbb`.
//! - **ink**: text and outlines; **paper**: the light squares behind them.
//! - **player colour** ([`player`]): one per seat, 8 distinct colours, none of
//!   them the ladder green or the chute blue.
//! - **heat** ([`heat`]): a light-to-dark ramp for values from 0 to 1.
//! - **dark scheme** ([`dark`]): the colours a picture takes on a page in
//!   dark mode. Only the neutral colours change (the background, paper,
//!   rules, ink, muted text), plus what a picture declares itself
//!   ([`crate::Picture::in_dark`]); the game's own colours (ladders, chutes,
//!   players, Baffle's holes and mirrors, heat) stay as they are, so a
//!   board means the same in both. A file written to disk is always light;
//!   a page applies the scheme with [`crate::scheme::style_sheet`].
//! - **repaint** ([`Repaint`]): a colour and the one it takes in the dark
//!   scheme, for every paint or for text only.
//! - **ink on colour** ([`INK_ON_COLOUR`]): dark text on a colour the dark
//!   scheme keeps, so it stays dark there too.
//!
//! Chutes & Ladders follows the Java assignment's diagram (ladders green,
//! chutes blue). Baffle follows the original Baffle assignment's GUI (entry
//! hole blue, exit hole cyan, found mirrors red, unfound mirrors magenta when
//! a game is revealed).

use std::fmt;

/// An opaque sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

impl Colour {
    /// A colour from its red, green and blue parts.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b }
    }

    /// The colour a fraction `t` (0 to 1, clamped) of the way to `other`.
    pub fn mix(self, other: Colour, t: f64) -> Colour {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let lerp = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Colour::rgb(
            lerp(self.r, other.r),
            lerp(self.g, other.g),
            lerp(self.b, other.b),
        )
    }

    /// A lighter tint: `t` of the way to white.
    pub fn tint(self, t: f64) -> Colour {
        self.mix(WHITE, t)
    }

    /// Relative luminance (0 black to 1 white), for choosing text colour.
    pub fn luminance(self) -> f64 {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }

    /// Ink or white, whichever reads better on this colour — in both
    /// schemes: on a neutral the dark scheme darkens, [`INK`] (which it
    /// lightens); on any other light colour, white included (white stays
    /// white but as the background), [`INK_ON_COLOUR`] (which it keeps).
    pub fn text_on(self) -> Colour {
        if self.luminance() <= 0.35 {
            WHITE
        } else if dark(self).is_some() {
            INK
        } else {
            INK_ON_COLOUR
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// White.
pub const WHITE: Colour = Colour::rgb(255, 255, 255);
/// The picture's background.
pub const BACKGROUND: Colour = WHITE;
/// Text, outlines and axes.
pub const INK: Colour = Colour::rgb(0x22, 0x22, 0x22);
/// Text on a light colour the dark scheme keeps (a start square, a heat
/// cell): the same as [`INK`] to the eye, but dark in both schemes.
pub const INK_ON_COLOUR: Colour = Colour::rgb(0x1d, 0x1d, 0x1d);
/// Secondary text (captions, tick labels, square numbers).
pub const MUTED: Colour = Colour::rgb(0x66, 0x66, 0x66);
/// Grid lines and light rules.
pub const RULE: Colour = Colour::rgb(0xbb, 0xbb, 0xbb);
/// Faint grid lines (a plot's gridlines).
pub const RULE_LIGHT: Colour = Colour::rgb(0xdd, 0xdd, 0xdd);
/// Light squares of a board.
pub const PAPER: Colour = Colour::rgb(0xfb, 0xf7, 0xec);
/// Dark squares of a board (alternating with [`PAPER`]).
pub const PAPER_DARK: Colour = Colour::rgb(0xef, 0xe7, 0xd3);

/// Ladders (the Java assignment: green).
pub const LADDER: Colour = Colour::rgb(0x1e, 0x8c, 0x3a);
/// Chutes (the Java assignment: blue).
pub const CHUTE: Colour = Colour::rgb(0x1f, 0x5f, 0xbf);
/// The start square or start marker.
pub const START: Colour = Colour::rgb(0xf2, 0xc1, 0x4e);
/// The finish square.
pub const FINISH: Colour = Colour::rgb(0xe0, 0x5a, 0x47);
/// Something to draw the eye to (the winner, a mean line).
pub const HIGHLIGHT: Colour = Colour::rgb(0xd6, 0x27, 0x28);

/// Bars of a plot.
pub const BAR: Colour = Colour::rgb(0x4c, 0x78, 0xa8);
/// A second series over the bars (Monte Carlo over exact).
pub const BAR_SECOND: Colour = Colour::rgb(0xf5, 0x8f, 0x29);
/// A curve drawn over bars (a cumulative distribution).
pub const CURVE: Colour = Colour::rgb(0x2c, 0x2c, 0x2c);
/// The mean marker of a plot.
pub const MEAN: Colour = Colour::rgb(0xd6, 0x27, 0x28);
/// The median marker of a plot.
pub const MEDIAN: Colour = Colour::rgb(0x7b, 0x3f, 0xb8);

/// Baffle: the hole a beam enters by (the original Baffle GUI: blue).
pub const BAFFLE_ENTRY: Colour = Colour::rgb(0x1f, 0x4f, 0xe0);
/// Baffle: the hole a beam leaves by (the original Baffle GUI: cyan).
pub const BAFFLE_EXIT: Colour = Colour::rgb(0x00, 0xb5, 0xc8);
/// Baffle: a mirror the player found (the original Baffle GUI: red).
pub const MIRROR_FOUND: Colour = Colour::rgb(0xd6, 0x27, 0x28);
/// Baffle: a mirror not found, shown when a game is revealed (magenta).
pub const MIRROR_UNFOUND: Colour = Colour::rgb(0xc0, 0x26, 0xc0);
/// Baffle: a beam's path.
pub const BEAM: Colour = Colour::rgb(0xf0, 0x9a, 0x00);

/// The dark scheme's background (the page's dark panel).
pub const DARK_BACKGROUND: Colour = Colour::rgb(0x1b, 0x22, 0x2b);

/// The dark scheme: each neutral colour and the one it becomes. The pairs
/// keep at least the light scheme's contrasts: ink on paper 11.4 : 1
/// (light 14.9), muted on paper 7.3 : 1 (light 5.4), on the darker paper
/// 6.1 : 1 (light 4.7).
pub const DARK: [(Colour, Colour); 8] = [
    (BACKGROUND, DARK_BACKGROUND),
    (PAPER, Colour::rgb(0x25, 0x2d, 0x37)),
    (PAPER_DARK, Colour::rgb(0x31, 0x3a, 0x46)),
    (RULE, Colour::rgb(0x55, 0x60, 0x6e)),
    (RULE_LIGHT, Colour::rgb(0x36, 0x41, 0x4d)),
    (INK, Colour::rgb(0xe6, 0xe9, 0xee)),
    (MUTED, Colour::rgb(0xb4, 0xbd, 0xc8)),
    (CURVE, Colour::rgb(0xd8, 0xdd, 0xe4)),
];

/// A colour of the pictures and the one it takes in the dark scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repaint {
    /// The colour as drawn (the light scheme).
    pub light: Colour,
    /// The colour in the dark scheme.
    pub dark: Colour,
    /// Only text's fill (a caption's colour), not shapes or strokes.
    pub text_only: bool,
}

/// What `colour` becomes in the dark scheme, if it changes (see [`DARK`]).
/// White changes only as a background: tokens' rims, eyes and shootable
/// holes stay white.
pub fn dark(colour: Colour) -> Option<Colour> {
    DARK.iter()
        .skip(1)
        .find(|(light, _)| *light == colour)
        .map(|(_, dark)| *dark)
}

/// The WCAG contrast ratio of two colours: 1 (the same) to 21 (black on
/// white).
pub fn contrast(a: Colour, b: Colour) -> f64 {
    let (x, y) = (a.luminance() + 0.05, b.luminance() + 0.05);
    x.max(y) / x.min(y)
}

/// The contrast a line or a band needs against what it is drawn on (WCAG
/// 2.2's for graphics, 1.4.11).
pub const GRAPHIC_CONTRAST: f64 = 3.0;

/// What a player's colour becomes as a line or a band (a chart's curve,
/// its interval, a beam) in the dark scheme, if it changes: a colour too
/// dark to stand out from the dark background (charcoal, purple, brown) is
/// lightened until it does on every dark paper. Tokens keep their colour:
/// white numbers sit on them, and a white rim parts them from the paper.
pub fn dark_line(colour: Colour) -> Option<Colour> {
    if contrast(colour, DARK_BACKGROUND) >= GRAPHIC_CONTRAST {
        return None;
    }
    let papers = [DARK_BACKGROUND, dark(PAPER)?, dark(PAPER_DARK)?];
    (1..=20)
        .map(|step| colour.tint(f64::from(step) * 0.05))
        .find(|c| {
            papers
                .iter()
                .all(|&paper| contrast(*c, paper) >= GRAPHIC_CONTRAST)
        })
}

/// The player colours, seat 1 first: distinct from each other, from the
/// ladder green and from the chute blue, and dark enough for white numbers.
pub const PLAYERS: [Colour; 8] = [
    Colour::rgb(0xd6, 0x27, 0x28), // red
    Colour::rgb(0x7b, 0x3f, 0xb8), // purple
    Colour::rgb(0xe0, 0x7b, 0x00), // orange
    Colour::rgb(0x33, 0x33, 0x33), // charcoal
    Colour::rgb(0xd0, 0x3a, 0x94), // pink
    Colour::rgb(0x8c, 0x56, 0x3b), // brown
    Colour::rgb(0x0f, 0x8f, 0x8f), // teal
    Colour::rgb(0x80, 0x80, 0x00), // olive
];

/// The colour of player `seat` (from 1); seats past 8 wrap round.
pub fn player(seat: usize) -> Colour {
    PLAYERS[seat.saturating_sub(1) % PLAYERS.len()]
}

/// A light-to-dark ramp (pale yellow, orange, red, dark red) for `t` from 0
/// to 1 (clamped): a heat map's colours.
pub fn heat(t: f64) -> Colour {
    const STOPS: [Colour; 5] = [
        Colour::rgb(0xff, 0xfb, 0xe0),
        Colour::rgb(0xfe, 0xd9, 0x76),
        Colour::rgb(0xfd, 0x8d, 0x3c),
        Colour::rgb(0xe3, 0x1a, 0x1c),
        Colour::rgb(0x80, 0x00, 0x26),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    STOPS[i].mix(STOPS[i + 1], x - i as f64)
}

/// A diverging ramp for signed values from −1 (blue: fewer rolls) through
/// 0 (near white) to 1 (red: more rolls); out-of-range values are clamped.
pub fn diverging(t: f64) -> Colour {
    const STOPS: [Colour; 5] = [
        Colour::rgb(0x21, 0x66, 0xac),
        Colour::rgb(0x67, 0xa9, 0xcf),
        Colour::rgb(0xf7, 0xf7, 0xf7),
        Colour::rgb(0xef, 0x8a, 0x62),
        Colour::rgb(0xb2, 0x18, 0x2b),
    ];
    let t = if t.is_finite() {
        t.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let x = (t + 1.0) / 2.0 * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    STOPS[i].mix(STOPS[i + 1], x - i as f64)
}

/// The fill of a square where nothing can be placed.
pub const NOTHING_FITS: Colour = Colour::rgb(0xc8, 0xc8, 0xc8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_write_as_hex() {
        assert_eq!(Colour::rgb(255, 0, 16).to_string(), "#ff0010");
        assert_eq!(LADDER.mix(WHITE, 1.0), WHITE);
        assert_eq!(LADDER.mix(WHITE, 0.0), LADDER);
    }

    #[test]
    fn players_are_distinct_and_not_the_jump_colours() {
        for (i, a) in PLAYERS.iter().enumerate() {
            assert_ne!(*a, LADDER);
            assert_ne!(*a, CHUTE);
            assert_eq!(a.text_on(), WHITE, "player {}", i + 1);
            assert_eq!(dark(*a), None, "player {} keeps its colour", i + 1);
            for b in &PLAYERS[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(player(1), PLAYERS[0]);
        assert_eq!(player(9), PLAYERS[0]);
        assert_eq!(player(0), PLAYERS[0]);
    }

    #[test]
    fn every_players_line_stands_out_in_the_dark_scheme() {
        let lines: Vec<Colour> = PLAYERS.iter().map(|&c| dark_line(c).unwrap_or(c)).collect();
        for (i, line) in lines.iter().enumerate() {
            assert!(
                contrast(*line, DARK_BACKGROUND) >= GRAPHIC_CONTRAST,
                "player {}'s line {line}",
                i + 1
            );
            for other in &lines[i + 1..] {
                assert_ne!(line, other);
            }
            assert_ne!(Some(*line), dark(INK), "a line is not the ink");
        }
        // Those too dark on the dark background change (charcoal, purple,
        // brown), and stand out on every dark paper; the others keep theirs.
        let changed: Vec<usize> = (0..PLAYERS.len())
            .filter(|&i| dark_line(PLAYERS[i]).is_some())
            .collect();
        assert_eq!(changed, vec![1, 3, 5]);
        for i in changed {
            for paper in [PAPER, PAPER_DARK] {
                let paper = dark(paper).expect("paper darkens");
                assert!(contrast(lines[i], paper) >= GRAPHIC_CONTRAST, "{paper}");
            }
        }
    }

    #[test]
    fn the_dark_scheme_keeps_text_readable() {
        let d = |c| dark(c).expect("a neutral colour has a dark one");
        for paper in [DARK_BACKGROUND, d(PAPER), d(PAPER_DARK)] {
            assert!(contrast(d(INK), paper) >= 7.0, "ink on {paper}");
            assert!(contrast(d(MUTED), paper) >= 4.5, "muted on {paper}");
        }
        assert!(contrast(INK, PAPER) >= 7.0 && contrast(MUTED, PAPER_DARK) >= 4.5);
        // Neutrals turn dark, text turns light; game colours stay.
        for (light, shade) in DARK {
            assert_ne!(
                light.luminance() > 0.3,
                shade.luminance() > 0.3,
                "{light} flips"
            );
        }
        for kept in [
            LADDER,
            CHUTE,
            START,
            FINISH,
            BAFFLE_ENTRY,
            BAFFLE_EXIT,
            BEAM,
            WHITE,
        ] {
            assert_eq!(dark(kept), None, "{kept}");
        }
    }

    #[test]
    fn text_on_a_colour_reads_in_both_schemes() {
        // On paper the ink turns light with it; on a kept colour it stays.
        assert_eq!(PAPER.text_on(), INK);
        assert_eq!(WHITE.text_on(), INK_ON_COLOUR);
        assert_eq!(START.text_on(), INK_ON_COLOUR);
        assert_eq!(dark(INK_ON_COLOUR), None);
        assert_eq!(heat(0.0).text_on(), INK_ON_COLOUR);
        assert_eq!(LADDER.text_on(), WHITE);
    }

    #[test]
    fn heat_runs_light_to_dark() {
        let mut last = 2.0;
        for i in 0..=20 {
            let l = heat(f64::from(i) / 20.0).luminance();
            assert!(l < last, "step {i}");
            last = l;
        }
        assert_eq!(heat(-1.0), heat(0.0));
        assert_eq!(heat(f64::NAN), heat(0.0));
    }
}
