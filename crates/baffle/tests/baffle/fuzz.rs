//! Random input never makes the library panic: move text, layout files,
//! stored games, and solver evidence (a small seeded fuzz loop, no
//! proptest).

use baffle::{Evidence, Game, Layout, Move, Placed, Setup, Sides, SolveOptions, solve};
use tabletop::Rng;

fn random_text(rng: &mut Rng, alphabet: &[&str], max_len: u64) -> String {
    (0..rng.below(max_len))
        .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
        .collect()
}

#[test]
fn random_move_text_never_panics() {
    let alphabet = [
        "shoot",
        "s",
        "guess",
        "g",
        "quit",
        " ",
        " ",
        ",",
        "<",
        ">",
        "=",
        "/",
        "\\",
        "-",
        "0",
        "1",
        "4",
        "7",
        "9",
        "10",
        "39",
        "40",
        "99999999999999999999",
        "x",
        "\t",
        "é",
    ];
    let mut rng = Rng::new(1);
    let mut game = Game::new(Setup::default()).unwrap();
    let mut applied = 0;
    for _ in 0..50_000 {
        let text = random_text(&mut rng, &alphabet, 8);
        if let Ok(mv) = text.parse::<Move>() {
            // The text form round-trips.
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
            if game.apply(mv).is_ok() {
                applied += 1;
            }
            if game.status().is_over() {
                game = Game::new(Setup::seeded(10, 5, Sides::All, applied)).unwrap();
            }
        }
    }
    assert!(applied > 100, "the fuzz loop hardly played: {applied}");
}

#[test]
fn random_layout_files_never_panic() {
    let alphabet = [
        ".", ".", ".", "/", "\\", "\n", "\n", " ", "#", "x", "\r\n", "é",
    ];
    let mut rng = Rng::new(2);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let text = random_text(&mut rng, &alphabet, 60);
        if let Ok(layout) = Layout::parse(&text) {
            parsed += 1;
            assert_eq!(Layout::parse(&layout.to_file_text()), Ok(layout));
        }
    }
    // Valid files are rare in random text; make some on purpose.
    for seed in 0..200 {
        let n = 4 + (seed % 5) as usize;
        let mut rng = Rng::new(seed);
        let rows: Vec<String> = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| [".", "/", "\\"][rng.below(3) as usize])
                    .collect()
            })
            .collect();
        let text = rows.join("\n");
        assert!(Layout::parse(&text).is_ok(), "{text}");
        parsed += 1;
        // Corrupt one character: an error, never a panic.
        let mut bytes = text.into_bytes();
        let at = rng.below(bytes.len() as u64) as usize;
        bytes[at] = b'?';
        let e = Layout::parse(&String::from_utf8(bytes).unwrap()).unwrap_err();
        assert!(e.to_string().contains("line"), "{e}");
    }
    assert!(parsed >= 200);
}

#[test]
fn random_stored_games_never_panic() {
    let mut game = Game::new(Setup::seeded(6, 3, Sides::LeftTop, 4)).unwrap();
    for text in ["shoot 1", "shoot 7", "guess 1 1 /", "shoot 3"] {
        let _ = game.apply(text.parse().unwrap());
    }
    let json = serde_json::to_string(&game).unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..5000 {
        let mut bytes = json.clone().into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() as u64) as usize;
            bytes[at] = b"0123456789{}[]\":,/\\ax"[rng.below(21) as usize];
        }
        if let Ok(text) = String::from_utf8(bytes)
            && let Ok(g) = serde_json::from_str::<Game>(&text)
        {
            // Whatever loads is a legal game that replays to itself.
            let again = Game::replay(g.setup().clone(), g.moves()).unwrap();
            assert_eq!(again, g);
        }
    }
}

#[test]
fn random_evidence_never_panics() {
    let mut rng = Rng::new(4);
    let opts = SolveOptions {
        samples: 30,
        step_limit: 200_000,
        exact_limit: 10_000,
        ..SolveOptions::default()
    };
    for _ in 0..300 {
        let n = 3 + rng.below(8) as usize;
        let k = rng.below(12) as usize;
        let holes = 4 * n as u64 + 3;
        let shots = (0..rng.below(8))
            .map(|_| (rng.below(holes) as usize, rng.below(holes) as usize))
            .collect();
        let placed = |rng: &mut Rng| {
            let text = format!(
                "{},{},{}",
                rng.below(n as u64 + 1),
                rng.below(n as u64 + 1),
                if rng.below(2) == 0 { "/" } else { "\\" }
            );
            text.parse::<Placed>().unwrap()
        };
        let found = (0..rng.below(3)).map(|_| placed(&mut rng)).collect();
        let not = (0..rng.below(3)).map(|_| placed(&mut rng)).collect();
        let ev = Evidence {
            size: n,
            mirrors: k,
            sides: if rng.below(2) == 0 {
                Sides::All
            } else {
                Sides::LeftTop
            },
            shots,
            found,
            not,
        };
        if let Ok(s) = solve(&ev, &opts) {
            assert!(s.certain_mirrors.len() + s.certain_empty.len() <= n * n);
        }
    }
}
