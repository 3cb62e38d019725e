//! Help for a player on their turn, through the match contract: a hint
//! (what the game's own solver says of the position the player sees) and
//! a bot's move played for them.
//!
//! Terms:
//! - **helper** ([`Helper`]): what the help is worked out from, taken from
//!   the match as one viewer sees it ([`crate::AnyMatch::helper`]) and
//!   worked out later, away from the match, within a budget (the server's
//!   long-work line). It holds only what that viewer may know.
//! - **hint**: the game's own answer, typed in its crate and written once
//!   as [`GameJson`].
//! - **bot's choice** ([`BotChoice`]): the move the bot would make for the
//!   player, as the move's text (played as the player's own move), and
//!   the game's own account of it (its decision and reason, in words).
//!
//! - **shots' look back** ([`ShotsLookBack`]): a game's own look back
//!   beside the seats' chances, for a viewer's box (Baffle: the layouts
//!   left after each shot beside what the best possible shot would have
//!   left), drawn as a chart away from the match; and the box itself,
//!   as the game's view of it (Baffle: a racer's shots, guesses and, once
//!   over, the mirrors they missed).
//!
//! A game offers help when its adapter says so ([`crate::Adapter::HELPS`],
//! listed as [`crate::GameInfo::helps`]); any other game's match answers
//! `wrong_game`.

use crate::Refusal;
use crate::protocol::GameJson;
use tabletop::Budget;

/// Help for one viewer of one match (see the module's terms).
pub trait Helper: Send + Sync {
    /// The hint for the viewer's position.
    ///
    /// # Errors
    /// The game's refusal: a position its solver cannot read, a picture
    /// it cannot draw (`invalid`), or the budget spent.
    fn hint(&self, budget: &Budget) -> Result<GameJson, Refusal>;

    /// The bot's move for the viewer's seat.
    ///
    /// # Errors
    /// `game_over` when no move is left; `bot_stuck` when the bot finds
    /// none within its budget.
    fn bot_move(&self, budget: &Budget) -> Result<BotChoice, Refusal>;

    /// Whether this help takes milliseconds (a small box), so that it
    /// waits in the server's quick line beside moves rather than behind
    /// big boxes' hints in the long one; false (the default) for help
    /// that may take seconds. Quick help that runs past the quick line's
    /// limit starts again in the long line.
    fn quick(&self) -> bool {
        false
    }
}

/// A bot's move for a player (see the module's terms).
#[derive(Debug)]
pub struct BotChoice {
    /// The move's text form, as the player would type it (`shoot 7`).
    pub text: String,
    /// The game's account of the choice: its decision and why, typed in
    /// its crate.
    pub why: GameJson,
}

/// A game's own look back for one viewer's box (see the module's terms).
pub trait ShotsLookBack: Send + Sync {
    /// The look back as a chart.
    ///
    /// # Errors
    /// `invalid` when the chart cannot be drawn.
    fn chart(&self, budget: &Budget) -> Result<render::Picture, Refusal>;

    /// The box itself, as the game's view of it (what the viewer may see of
    /// it, as in a match's view).
    ///
    /// # Errors
    /// `server_error` when the view does not write as JSON.
    fn view(&self) -> Result<GameJson, Refusal>;
}
