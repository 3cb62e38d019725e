//! LeetCode 909 ("Snakes and Ladders"): every grid the problem allows is
//! read, and Parlor's fewest throws is the problem's answer, checked
//! against a breadth-first search written here from the problem statement
//! alone (it reads the raw grid, not Parlor's board).

use chutes::Rules;
use chutes::analysis::min_throws::min_throws;
use chutes::formats::{Format, read_board};
use tabletop::Rng;

/// The problem's answer, straight from its statement: squares numbered
/// boustrophedon from the bottom-left, a throw moves to one of the next six
/// squares (never past n²), a snake or ladder there (an entry other than -1)
/// is taken once, the game ends on n². -1 when n² cannot be reached.
fn leetcode_answer(grid: &[Vec<i64>]) -> i64 {
    let n = grid.len();
    let last = n * n;
    let entry = |label: usize| {
        let row_from_bottom = (label - 1) / n;
        let along = (label - 1) % n;
        let col = if row_from_bottom % 2 == 0 {
            along
        } else {
            n - 1 - along
        };
        grid[n - 1 - row_from_bottom][col]
    };
    let mut dist = vec![-1i64; last + 1];
    dist[1] = 0;
    let mut queue = std::collections::VecDeque::from([1usize]);
    while let Some(current) = queue.pop_front() {
        for next in current + 1..=(current + 6).min(last) {
            let e = entry(next);
            let dest = if e == -1 { next } else { e as usize };
            if dist[dest] == -1 {
                dist[dest] = dist[current] + 1;
                queue.push_back(dest);
            }
        }
    }
    dist[last]
}

fn json(grid: &[Vec<i64>]) -> String {
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().map(i64::to_string).collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("[{}]", rows.join(","))
}

fn parlor_answer(text: &str) -> Result<i64, String> {
    let read = read_board(text, Some(Format::Leetcode), None).map_err(|e| e.to_string())?;
    let m = min_throws(&read.board, &Rules::default()).map_err(|e| e.to_string())?;
    Ok(m.throws.map_or(-1, i64::from))
}

#[test]
fn the_public_examples_and_self_jumps() {
    let example_1 = "[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,35,-1,-1,13,-1],[-1,-1,-1,-1,-1,-1],[-1,15,-1,-1,-1,-1]]";
    assert_eq!(parlor_answer(example_1), Ok(4));
    assert_eq!(parlor_answer("[[-1,-1],[-1,3]]"), Ok(1));
    // Self-jumps, which LeetCode allows: no jump, and a note says so.
    assert_eq!(parlor_answer("[[-1,4,-1],[6,2,6],[-1,3,-1]]"), Ok(2));
    assert_eq!(parlor_answer("[[-1,-1],[-1,2]]"), Ok(1));
    let read = read_board("[[-1,-1],[-1,2]]", None, None).unwrap();
    assert_eq!(read.format, Format::Leetcode);
    assert_eq!(read.notes.len(), 1);
    assert!(read.notes[0].message.contains("square 2 holds 2"));
    // The search here agrees with the problem's published answers.
    let grid = |text: &str| -> Vec<Vec<i64>> { serde_json::from_str(text).unwrap() };
    assert_eq!(leetcode_answer(&grid(example_1)), 4);
    assert_eq!(leetcode_answer(&grid("[[-1,-1],[-1,3]]")), 1);
}

/// A grid within every LeetCode 909 constraint: 2 ≤ n ≤ 20, entries -1 or
/// 1..=n², squares 1 and n² start nothing; many entries are their own
/// label, and one grid in five has a wall of six chutes that may cut the
/// finish off.
fn random_grid(rng: &mut Rng) -> Vec<Vec<i64>> {
    let n = if rng.below(4) == 0 {
        2 + rng.below(19) as usize
    } else {
        2 + rng.below(6) as usize
    };
    let last = (n * n) as u64;
    let density = 1 + rng.below(6);
    let wall = (last >= 8 && rng.below(5) == 0).then(|| 2 + rng.below(last - 7) as i64);
    let mut grid = vec![vec![-1i64; n]; n];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let row_from_bottom = n - 1 - r;
            let along = if row_from_bottom % 2 == 0 {
                c
            } else {
                n - 1 - c
            };
            let label = (row_from_bottom * n + along + 1) as i64;
            if label == 1 || label == last as i64 {
                continue;
            }
            if let Some(w) = wall.filter(|w| (*w..*w + 6).contains(&label)) {
                *cell = 1 + rng.below(w as u64) as i64;
                continue;
            }
            match rng.below(10) {
                x if x < density => *cell = 1 + rng.below(last) as i64,
                9 => *cell = label,
                _ => {}
            }
        }
    }
    grid
}

#[test]
fn thousands_of_random_grids_are_read_and_answered_as_leetcode_does() {
    let mut rng = Rng::new(909);
    let mut refused = Vec::new();
    let mut disagree = Vec::new();
    let mut unreachable = 0;
    let mut self_jumps = 0;
    const GRIDS: usize = 3000;
    for _ in 0..GRIDS {
        let grid = random_grid(&mut rng);
        let text = json(&grid);
        let want = leetcode_answer(&grid);
        unreachable += usize::from(want == -1);
        match parlor_answer(&text) {
            Ok(got) if got == want => {}
            Ok(got) => disagree.push(format!("{text}: Parlor {got}, LeetCode {want}")),
            Err(e) => refused.push(format!("{text}: {e}")),
        }
        self_jumps += read_board(&text, None, None).map_or(0, |r| r.notes.len());
    }
    assert!(
        refused.is_empty(),
        "{} refused, first: {}",
        refused.len(),
        refused[0]
    );
    assert!(
        disagree.is_empty(),
        "{} disagree, first: {}",
        disagree.len(),
        disagree[0]
    );
    // The sample reaches the cases that matter: unreachable finishes and
    // plenty of self-jumps.
    assert!(unreachable > 10, "{unreachable}");
    assert!(self_jumps > GRIDS, "{self_jumps}");
}
