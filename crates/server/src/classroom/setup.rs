//! A classroom's setup: the board, the rules, the activity, as a teacher
//! asks for them and as the store keeps them.
//!
//! Terms:
//! - **activity** ([`Activity`]): `solo`, `bot` or `together`.
//! - **setup** ([`Setup`]): the board (copied in), the rules, the activity
//!   and the class game's teams, kept as JSON in the classroom's row.
//! - **class game record** ([`Together`]): the class game's match and the
//!   server's own token for it (never shown).

use super::*;

/// What the students do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activity {
    /// Each plays their own games, alone.
    Solo,
    /// Each plays their own games against a bot.
    Bot,
    /// The class plays one game, in teams.
    Together,
}

/// A classroom's setup, as the store keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Setup {
    /// The board's reference as the teacher gave it (`classic`, an
    /// uploaded board's id).
    pub board_ref: String,
    /// The board itself.
    pub board: Board,
    /// The rules.
    pub rules: Rules,
    /// What the students do.
    pub activity: Activity,
    /// Seats (teams) of the class game.
    pub teams: u8,
}

impl Setup {
    /// Players in each game of the activity.
    pub fn players(&self) -> usize {
        match self.activity {
            Activity::Solo => 1,
            Activity::Bot => 2,
            Activity::Together => usize::from(self.teams),
        }
    }
}

/// The class game's record in the classroom (the token is the server's).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Together {
    #[serde(rename = "match")]
    pub(super) match_id: String,
    pub(super) token: String,
}

/// `POST /api/classrooms` and `…/setup`: the board, rules and activity.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct SetupRequest {
    /// `classic`, or an uploaded or designed board's id.
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    overshoot: Option<String>,
    #[serde(default)]
    faces: Option<u32>,
    /// `solo` (the default), `bot` or `together`.
    #[serde(default)]
    activity: Option<String>,
    /// Teams in the class game: 2 to 4 (2 by default).
    #[serde(default)]
    teams: Option<u8>,
}

pub(super) fn bad_setup(message: impl Into<String>) -> ApiError {
    ApiError::coded(Code::BadSetup, message)
}

/// The setup `req` asks for, over `old` (for what it leaves out).
pub(super) async fn read_setup(
    state: &AppState,
    req: SetupRequest,
    old: Option<&Setup>,
) -> Result<Setup, ApiError> {
    let (board_ref, board) = match (req.board, old) {
        (Some(reference), _) => {
            let reference = reference.trim().to_string();
            let board = crate::tools::chutes_boards::find_board(state, &reference).await?;
            (reference, (*board).clone())
        }
        (None, Some(old)) => (old.board_ref.clone(), old.board.clone()),
        (None, None) => (
            "classic".to_string(),
            chutes::formats::builtin("classic").ok_or_else(|| bad_setup("no classic board"))?,
        ),
    };
    let old_rules = old.map_or_else(Rules::default, |o| o.rules);
    let overshoot = match req.overshoot {
        Some(name) => name
            .parse::<Overshoot>()
            .map_err(|e| bad_setup(e.to_string()))?,
        None => old_rules.overshoot(),
    };
    let faces = req.faces.unwrap_or(u32::from(old_rules.faces()));
    let rules = Rules::new(overshoot, faces).map_err(|e| bad_setup(e.to_string()))?;
    let activity = match req.activity.as_deref().map(str::trim) {
        None => old.map_or(Activity::Solo, |o| o.activity),
        Some("solo") => Activity::Solo,
        Some("bot") => Activity::Bot,
        Some("together") => Activity::Together,
        Some(other) => {
            return Err(bad_setup(format!(
                "the activity is solo (each student plays alone), bot (each against a bot) or together (the class plays one game), not '{other}'"
            )));
        }
    };
    let teams = req.teams.unwrap_or(old.map_or(2, |o| o.teams));
    if !(2..=4).contains(&teams) {
        return Err(bad_setup(format!(
            "the class game has 2 to 4 teams, not {teams}"
        )));
    }
    Ok(Setup {
        board_ref,
        board,
        rules,
        activity,
        teams,
    })
}

/// The setup a classroom's row holds.
pub(super) fn setup_of(room: &Classroom) -> Result<Setup, ApiError> {
    serde_json::from_str(&room.row.setup).map_err(|e| {
        ApiError::coded(
            Code::DamagedRecord,
            format!("this classroom's setup does not read ({e})"),
        )
    })
}

pub(super) fn setup_json(setup: &Setup) -> Result<String, ApiError> {
    serde_json::to_string(setup)
        .map_err(|e| ApiError::coded(Code::ServerError, format!("the setup does not write ({e})")))
}
