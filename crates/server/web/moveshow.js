// Showing a match's moves one after another, as they come: the one way
// every game's page plays the moves it is told (its own, the others', the
// bots') at a pace a person can follow.
//
// Terms:
// - show: the moves waiting to be drawn, in move-number order, each drawn
//   once (a move told twice, by the live stream and by the answer to this
//   page's own move, is drawn once).
// - step: one move drawn by the page's `step(move, how)`: it writes the
//   move's words and animates its tokens; `how.behind` is how many moves
//   wait after it, `how.long` says the show is long (the page may hurry),
//   `how.still()` is false once the show was skipped or reset (an
//   animation stops there).
// - skip: the moves still waiting are drawn at once (a long show, a reader
//   in a hurry); under `prefers-reduced-motion` or in a hidden tab every
//   move is drawn at once.
// - idle: nothing waiting and nothing drawing; `onIdle` hears it, and the
//   page then draws the match as the server says it stands.

/** True when the person asked for less motion, or cannot see the page now. */
export function stillPage() {
  return document.hidden || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A show of moves: new MoveShow({step, onIdle, onBusy, longAfter}). */
export class MoveShow {
  /**
   * `step(move, how)` draws one move (async); `stepAll(moves)`, if given,
   * draws many at once (a skip: one redraw, not one per move); `onIdle()`
   * runs once the show is over (and after a push that brought nothing new,
   * so that the page takes the match as it stands); `onBusy(long)` runs as a show starts (long: more than
   * `longAfter` moves waiting, default 3).
   */
  constructor({ step, stepAll = null, onIdle = () => {}, onBusy = () => {}, longAfter = 3 }) {
    this.stepOne = step;
    this.stepAll = stepAll;
    this.onIdle = onIdle;
    this.onBusy = onBusy;
    this.longAfter = longAfter;
    this.waiting = [];
    this.last = 0;
    this.running = false;
    this.skipping = false;
    this.round = 0;
  }

  /** Starts afresh after `moves` moves already drawn (a match opened). */
  reset(moves = 0) {
    this.waiting = [];
    this.last = moves;
    this.skipping = false;
    this.round += 1;
    this.running = false;
  }

  /** The last move number queued or drawn. */
  get lastShown() {
    return this.last;
  }

  /** Moves later than those already queued are noted as drawn (the page took a view as it is). */
  caughtUp(moves) {
    if (moves > this.last) this.last = moves;
  }

  /** True while a move waits or is being drawn. */
  get busy() {
    return this.running || this.waiting.length > 0;
  }

  /** Draws the moves still waiting at once. */
  skip() {
    if (this.busy) this.skipping = true;
  }

  /** Queues `played` (moves as the API tells them) and runs the show. */
  push(played) {
    for (const move of played || []) {
      if (move.number > this.last) {
        this.waiting.push(move);
        this.last = move.number;
      }
    }
    this.waiting.sort((a, b) => a.number - b.number);
    return this.run();
  }

  async run() {
    if (this.running) return;
    if (!this.waiting.length) {
      this.onIdle();
      return;
    }
    this.running = true;
    const round = this.round;
    const long = this.waiting.length > this.longAfter;
    this.onBusy(long);
    try {
      while (this.waiting.length && round === this.round) {
        const quick = this.skipping || stillPage();
        if (quick && this.stepAll) {
          await this.stepAll(this.waiting.splice(0));
          continue;
        }
        const move = this.waiting.shift();
        await this.stepOne(move, {
          behind: this.waiting.length,
          long,
          quick,
          still: () => round === this.round && !this.skipping,
        });
      }
    } finally {
      if (round === this.round) {
        this.running = false;
        this.skipping = false;
        this.onIdle();
      }
    }
  }
}
