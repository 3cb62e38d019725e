//! The store's tables and their migrations.
//!
//! Terms:
//! - **migration** ([`Migration`]): a numbered change to the tables, in
//!   SQLite's and PostgreSQL's words. The server runs, in order and in one
//!   transaction, those a store has not had, and notes each in
//!   `schema_versions`. A migration, once shipped, never changes: a new
//!   change is a new number.
//! - **tables**: `matches` (one row a match: its header, lobby line and
//!   seats anyone may take, move count, status, its rematch once made;
//!   since 3 its creator's digests and whether a person has played in
//!   it), `moves` (one row a move, keyed by match and number, so
//!   a move can never be stored twice), `seats` (a person seat: its
//!   invite's digest while it waits for someone with it, none when anyone
//!   may take it; whether it is taken; the name its player chose),
//!   `tokens` (the digests of the secrets that move for
//!   seats), `grids` (saved Tycoon grids; since 3 the digest of whoever
//!   saved each), `settings` (what the store has
//!   done once, such as importing grid files). Since 4, on PostgreSQL,
//!   half of each page of `matches` is kept free for the rows' next
//!   versions. Since 6, on PostgreSQL, `moves` has no foreign key to
//!   `matches`: expiry deletes an expired match's moves itself. Since 7,
//!   on PostgreSQL, `unfinished_counts` keeps the count of unfinished
//!   matches in stripes (SQLite's `unfinished` since 5, in one row).
//!   Since 8, `grids` notes the digest of the address that saved each
//!   (`saver`), counted beside its owner. Since 9, `classrooms` (a
//!   classroom: its teacher's token's digest, its creator's digests, its
//!   board and activity, its round and version), `classroom_students` and
//!   `classroom_games` (each match a classroom made, and its length and
//!   winner once over). Since 10, `grids` is indexed newest first,
//!   for bounded listings. Since 11, `unsaved_work` (a player's uploaded
//!   boards and designs, with their makers' digests, `store::unsaved`).
//!   Since 12, `grids` notes the saver's neighbourhood (`saver_hood`).

use super::DbError;

/// One change to the tables.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    /// Its number, from 1, in order.
    pub version: u32,
    /// What it does.
    pub name: &'static str,
    /// In SQLite's words.
    pub sqlite: &'static str,
    /// In PostgreSQL's words.
    pub postgres: &'static str,
}

/// The table that notes the migrations run.
pub const VERSIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_versions (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_ms BIGINT NOT NULL
)";

/// Migration text the same in both stores: players' names, rematches.
const NAMES_AND_REMATCHES: &str = "
ALTER TABLE seats ADD COLUMN name TEXT;
ALTER TABLE matches ADD COLUMN rematch TEXT;
";

/// Migration text the same in both stores: the address that saved each grid.
const GRIDS_SAVER: &str = "
ALTER TABLE grids ADD COLUMN saver TEXT NOT NULL DEFAULT '';
CREATE INDEX grids_saver ON grids (saver);
";

/// Migration text the same in both stores: classrooms, their students and their games.
const CLASSROOMS: &str = "
CREATE TABLE classrooms (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    creator TEXT,
    creator_token TEXT,
    setup TEXT NOT NULL,
    together TEXT,
    round INTEGER NOT NULL,
    version BIGINT NOT NULL,
    joined BOOLEAN NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX classrooms_idle ON classrooms (updated_ms);
CREATE INDEX classrooms_creator ON classrooms (creator);
CREATE INDEX classrooms_creator_token ON classrooms (creator_token);
CREATE TABLE classroom_students (
    classroom_id TEXT NOT NULL REFERENCES classrooms (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (classroom_id, number)
);
CREATE INDEX classroom_students_token ON classroom_students (token);
CREATE TABLE classroom_games (
    match_id TEXT PRIMARY KEY,
    classroom_id TEXT NOT NULL REFERENCES classrooms (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    student INTEGER,
    players TEXT NOT NULL,
    seats INTEGER NOT NULL,
    rolls INTEGER,
    winner INTEGER,
    winner_name TEXT,
    started_ms BIGINT NOT NULL,
    finished_ms BIGINT
);
CREATE INDEX classroom_games_round ON classroom_games (classroom_id, round, finished_ms);
";

/// Migration text the same in both stores: saved grids listed newest first.
const GRIDS_NEWEST: &str = "CREATE INDEX grids_newest ON grids (updated_ms DESC, name);";

/// Migration text the same in both stores: unsaved work: uploaded boards and designs.
const UNSAVED_WORK: &str = "
CREATE TABLE unsaved_work (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    version BIGINT NOT NULL,
    client TEXT NOT NULL,
    hood TEXT NOT NULL,
    token TEXT NOT NULL,
    used BOOLEAN NOT NULL,
    touched_ms BIGINT NOT NULL
);
CREATE INDEX unsaved_work_idle ON unsaved_work (kind, touched_ms);
CREATE INDEX unsaved_work_client ON unsaved_work (kind, client, touched_ms);
CREATE INDEX unsaved_work_token ON unsaved_work (kind, token, touched_ms);
CREATE INDEX unsaved_work_hood ON unsaved_work (kind, hood, client);
";

/// Migration text the same in both stores: the neighbourhood that saved each grid.
const GRIDS_SAVER_HOOD: &str = "
ALTER TABLE grids ADD COLUMN saver_hood TEXT NOT NULL DEFAULT '';
CREATE INDEX grids_saver_hood ON grids (saver_hood);
";

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "matches, moves, seats, tokens, grids, settings",
        sqlite: "
CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    title TEXT NOT NULL,
    seat_count INTEGER NOT NULL,
    lobby_seats INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    status TEXT NOT NULL,
    over INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE INDEX matches_lobby ON matches (over, lobby_seats, created_ms);
CREATE INDEX matches_idle ON matches (over, updated_ms);
CREATE TABLE moves (
    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    entry TEXT NOT NULL,
    seat INTEGER NOT NULL,
    bot INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (match_id, number)
) WITHOUT ROWID;
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    invite TEXT,
    taken INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE TABLE tokens (
    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    seats INTEGER NOT NULL,
    host INTEGER NOT NULL,
    PRIMARY KEY (match_id, hash)
) WITHOUT ROWID;
CREATE TABLE grids (
    name TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
",
        postgres: "
CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    title TEXT NOT NULL,
    seat_count INTEGER NOT NULL,
    lobby_seats INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    status TEXT NOT NULL,
    over BOOLEAN NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX matches_lobby ON matches (over, lobby_seats, created_ms);
CREATE INDEX matches_idle ON matches (over, updated_ms);
CREATE TABLE moves (
    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    entry TEXT NOT NULL,
    seat INTEGER NOT NULL,
    bot BOOLEAN NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    invite TEXT,
    taken BOOLEAN NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE tokens (
    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    seats INTEGER NOT NULL,
    host BOOLEAN NOT NULL,
    PRIMARY KEY (match_id, hash)
);
CREATE TABLE grids (
    name TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
",
    },
    Migration {
        version: 2,
        name: "players' names, rematches",
        sqlite: NAMES_AND_REMATCHES,
        postgres: NAMES_AND_REMATCHES,
    },
    Migration {
        version: 3,
        name: "who made a match, whether anyone played in it, who saved a grid",
        sqlite: "
ALTER TABLE matches ADD COLUMN creator TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN creator_token TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN played INTEGER NOT NULL DEFAULT 1;
CREATE INDEX matches_creator ON matches (creator, over);
CREATE INDEX matches_creator_token ON matches (creator_token, over);
ALTER TABLE grids ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX grids_owner ON grids (owner);
",
        postgres: "
ALTER TABLE matches ADD COLUMN creator TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN creator_token TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN played BOOLEAN NOT NULL DEFAULT TRUE;
CREATE INDEX matches_creator ON matches (creator, over);
CREATE INDEX matches_creator_token ON matches (creator_token, over);
ALTER TABLE grids ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX grids_owner ON grids (owner);
",
    },
    Migration {
        version: 4,
        name: "room on each page of matches for its rows' next versions",
        // SQLite rewrites a row in place.
        sqlite: "",
        // A move updates its match's row; with half of each page free, the
        // new version goes on the same page and no index changes (a "HOT"
        // update): 98% of moves' updates, against 67% on full pages, and
        // 30% more moves a second (measured when made: its commit
        // has the figures).
        postgres: "
ALTER TABLE matches SET (fillfactor = 50);
",
    },
    Migration {
        version: 5,
        name: "the count of unfinished matches, kept as they are made, end and go",
        // A new match is refused once the store holds its most unfinished
        // ones; counting them at each new match took 3-7 ms at 100,000,
        // on the one thread every move waits behind. The triggers keep the
        // count whoever writes the rows.
        sqlite: "
CREATE TABLE unfinished (one INTEGER PRIMARY KEY CHECK (one = 1), n INTEGER NOT NULL);
INSERT INTO unfinished (one, n) SELECT 1, COUNT(*) FROM matches WHERE over = 0;
CREATE TRIGGER unfinished_made AFTER INSERT ON matches WHEN NEW.over = 0
BEGIN UPDATE unfinished SET n = n + 1; END;
CREATE TRIGGER unfinished_ended AFTER UPDATE OF over ON matches WHEN OLD.over = 0 AND NEW.over <> 0
BEGIN UPDATE unfinished SET n = n - 1; END;
CREATE TRIGGER unfinished_gone AFTER DELETE ON matches WHEN OLD.over = 0
BEGIN UPDATE unfinished SET n = n - 1; END;
",
        // PostgreSQL counted them on the new match's own connection, beside
        // the moves, until 7 kept the count there too, in stripes.
        postgres: "",
    },
    Migration {
        version: 6,
        name: "moves without a foreign key on PostgreSQL; expiry deletes them",
        // SQLite keeps the key: its check is a lookup in the same process,
        // and its cascade deletes an expired match's moves.
        sqlite: "",
        // Checking each move's match was a fifth to a third of the append
        // statement's execution, 5-7 us a move of PostgreSQL's 100 or so
        // (measured when made: its commit
        // has the figures). Only expiry deletes a
        // match, and it deletes the match's moves itself.
        postgres: "
ALTER TABLE moves DROP CONSTRAINT moves_match_id_fkey;
",
    },
    Migration {
        version: 7,
        name: "the count of unfinished matches on PostgreSQL, kept in stripes as they change",
        // SQLite has kept it since 5.
        sqlite: "",
        // A new match counted the unfinished ones: a scan of them all, 4.6
        // ms at 13,700 and 30 ms or so at 100,000, on every new match; 3,200
        // players at a person's pace made PostgreSQL spend its time
        // counting, and moves waited seconds (measured when made: its commit
        // has the figures). Now triggers keep the count whoever writes the rows. It is
        // kept in up to 64 rows (a transaction adds to the one of its own
        // connection's process), summed when asked for: one row would
        // make every new and every ending match, on every server, wait for
        // the one before to commit. A transaction changes one stripe only,
        // so two cannot deadlock on them. New and removed matches are
        // counted once a statement (an expiry removes many); an ending one
        // by its row, so that the moves' updates, which end no match most
        // of the time, only test the condition. The table is locked while
        // the count is taken, so no match is made, ended or removed between
        // the count and the triggers.
        postgres: "
LOCK TABLE matches IN SHARE ROW EXCLUSIVE MODE;
CREATE TABLE unfinished_counts (stripe INTEGER PRIMARY KEY, n BIGINT NOT NULL);
INSERT INTO unfinished_counts (stripe, n) SELECT 0, COUNT(*) FROM matches WHERE NOT over;
CREATE FUNCTION unfinished_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    change BIGINT;
BEGIN
    IF TG_LEVEL = 'ROW' THEN
        change := CASE WHEN NEW.over THEN -1 ELSE 1 END;
    ELSE
        SELECT COUNT(*) INTO change FROM changed WHERE NOT over;
        IF TG_OP = 'DELETE' THEN
            change := -change;
        END IF;
    END IF;
    IF change <> 0 THEN
        INSERT INTO unfinished_counts AS u (stripe, n) VALUES (pg_backend_pid() % 64, change)
        ON CONFLICT (stripe) DO UPDATE SET n = u.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER unfinished_made AFTER INSERT ON matches REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION unfinished_counted();
CREATE TRIGGER unfinished_gone AFTER DELETE ON matches REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION unfinished_counted();
CREATE TRIGGER unfinished_ended AFTER UPDATE OF over ON matches
    FOR EACH ROW WHEN (OLD.over IS DISTINCT FROM NEW.over) EXECUTE FUNCTION unfinished_counted();
",
    },
    Migration {
        version: 8,
        name: "the address that saved each grid",
        // A grid is owned by the token its saver showed; tokens are free to
        // make up, so the grids one address saved are counted too.
        sqlite: GRIDS_SAVER,
        postgres: GRIDS_SAVER,
    },
    Migration {
        version: 9,
        name: "classrooms, their students and their games",
        // A classroom's secrets are kept as digests, as tokens are; its
        // class game's token is the server's own (`together`), never shown.
        sqlite: CLASSROOMS,
        postgres: CLASSROOMS,
    },
    Migration {
        version: 10,
        name: "saved grids listed newest first",
        // A listing reads the newest few, not the whole table.
        sqlite: GRIDS_NEWEST,
        postgres: GRIDS_NEWEST,
    },
    Migration {
        version: 11,
        name: "unsaved work: uploaded boards and designs",
        // In the store rather than one server's memory, so that any server
        // of a cluster answers for them (`store::unsaved`).
        sqlite: UNSAVED_WORK,
        postgres: UNSAVED_WORK,
    },
    Migration {
        version: 12,
        name: "the neighbourhood that saved each grid",
        // Addresses are cheap within one network: its grids are counted
        // together too (`store::NEIGHBOURHOOD_GRIDS`).
        sqlite: GRIDS_SAVER_HOOD,
        postgres: GRIDS_SAVER_HOOD,
    },
];

/// Refuses a store migrated by a newer Parlor (it may hold what this one
/// would misread).
///
/// # Errors
/// [`DbError::Incompatible`] when `done` is past the last migration known.
pub fn check_known(done: u32) -> Result<(), DbError> {
    let known = MIGRATIONS.last().map_or(0, |m| m.version);
    if done > known {
        return Err(DbError::Incompatible(format!(
            "it was made by a newer Parlor (schema version {done}; this Parlor knows up to {known})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_in_order_from_one() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version as usize, i + 1, "{}", m.name);
        }
    }

    #[test]
    fn a_newer_store_is_refused_with_both_versions() {
        let last = MIGRATIONS.len() as u32;
        assert!(check_known(last).is_ok());
        let e = check_known(99).unwrap_err().to_string();
        assert!(
            e.contains("99") && e.contains(&format!("up to {last}")),
            "{e}"
        );
    }
}
