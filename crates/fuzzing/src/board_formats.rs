//! Every board file format (Chutes TOML, array, LeetCode, moves, and the
//! Tycoon grid read as a board; forced or detected): no input panics, and a
//! board read is written back as TOML and read again to the same board.
use chutes::formats::{self, Format};
use games::board_files::{self, BoardFormat};

/// Checks one input: panics when it finds a fault.
pub fn check(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let all = BoardFormat::ALL;
    let format = all.get(usize::from(pick) % (all.len() + 1)).copied();
    let _ = board_files::detect(text, None);
    if let Ok(read) = board_files::read_board(text, format, None) {
        let board = read.board;
        let toml = formats::write_toml(&board);
        let again = formats::parse_board(&toml, Some(Format::Toml), None)
            .unwrap_or_else(|e| panic!("the written board does not read back: {e}\n{toml}"));
        assert_eq!(again.size(), board.size());
        assert_eq!(again.jumps(), board.jumps(), "{toml}");
    }
}
