//! Progress on long work, the same for every command that can run for
//! more than a moment (simulations, searches, tournaments, designs, the
//! bot's many games): a bar with an estimate on stderr when stderr is a
//! terminal and the answer is not JSON, nothing otherwise (so a pipe or a
//! script gets only the answer); and Ctrl-C, which asks the work to stop
//! and keep what it has.
//!
//! Terms:
//! - **bar**: indicatif's progress bar, or a hidden one that draws nothing.
//! - **counter**: how many units (games, boards) are done, counted by the
//!   work from any thread; [`follow`] moves the bar to it.
//! - **stop**: the first Ctrl-C runs the command's stop (raise a flag,
//!   cancel a budget) and the work ends early with its partial result; a
//!   second Ctrl-C ends the process at once (exit status 130).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Whether progress is shown: stderr is a terminal and the answer is not
/// JSON.
pub fn shown(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

/// A bar of `total` units drawn with `template` (indicatif's template
/// syntax) when [`shown`], else a hidden one.
pub fn bar(total: u64, template: &str, json: bool) -> ProgressBar {
    if !shown(json) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A bar of `total` `units` (plural, "games") that says what Ctrl-C does:
/// `{what} ▕████    ▏ 1,200/10,000 games, 3s so far, about 20s left
/// (Ctrl-C stops with the games so far)`.
pub fn games_bar(total: u64, what: &str, units: &str, json: bool) -> ProgressBar {
    let what = if what.is_empty() {
        String::new()
    } else {
        format!("{what} ")
    };
    bar(
        total,
        &format!(
            "{what}{{bar:40}} {{human_pos}}/{{human_len}} {units}, {{elapsed}} so far, \
             about {{eta}} left (Ctrl-C stops with the {units} so far)"
        ),
        json,
    )
}

/// Runs `stop` on the first Ctrl-C; a second ends the process (status
/// 130). Call it once per process, before the work starts.
pub fn on_ctrl_c(stop: impl Fn() + Send + 'static) {
    let pressed = AtomicBool::new(false);
    // Without a handler (one was set already) Ctrl-C ends the process, as
    // it would anyway.
    let _ = ctrlc::set_handler(move || {
        if pressed.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        stop();
    });
}

/// Runs `work`, moving `bar` to `counter` ten times a second meanwhile;
/// then clears the bar. `work`'s answer.
pub fn follow<T: Send>(
    bar: &ProgressBar,
    counter: &AtomicU64,
    work: impl FnOnce() -> T + Send,
) -> T {
    follow_with(
        bar,
        |bar| bar.set_position(counter.load(Ordering::Relaxed)),
        work,
    )
}

/// Runs `work`, calling `update` on `bar` ten times a second meanwhile
/// (for work that learns its total as it goes); then clears the bar.
/// `work`'s answer.
pub fn follow_with<T: Send>(
    bar: &ProgressBar,
    update: impl Fn(&ProgressBar) + Sync,
    work: impl FnOnce() -> T + Send,
) -> T {
    if bar.is_hidden() {
        return work();
    }
    let done = AtomicBool::new(false);
    let answer = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                update(bar);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let answer = work();
        done.store(true, Ordering::Relaxed);
        answer
    });
    bar.finish_and_clear();
    answer
}
