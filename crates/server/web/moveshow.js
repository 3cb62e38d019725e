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
// - reading pause: after a move the page asks to be read (a person's own
//   roll before a bot's), the show holds its words that long from the
//   moment they were drawn, motion or not; a skip ends it.

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
   * `longAfter` moves waiting, default 3); `pause(move, next)`, if
   * given, is how long (ms) a drawn move's words stay before anything is
   * drawn after it or the show ends (0: none), `next` being the move
   * waiting after it (if any).
   */
  constructor({ step, stepAll = null, onIdle = () => {}, onBusy = () => {}, longAfter = 3, pause = null }) {
    this.pause = pause;
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

  /** How long move's words are held (ms): the page's `pause`, none when skipping. */
  holdFor(move, next) {
    return this.pause && !this.skipping ? this.pause(move, next) || 0 : 0;
  }

  /** Waits until `until` (performance.now()), or until the show is skipped or reset. */
  async hold(until, still) {
    while (still() && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - performance.now())));
    }
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
    const still = () => round === this.round && !this.skipping;
    try {
      while (this.waiting.length && round === this.round) {
        const quick = this.skipping || stillPage();
        if (quick && this.stepAll) {
          // Drawn at once, but a move to be read ends the batch: its words
          // stay their time (reduced motion keeps the reading pause).
          const stop = this.skipping ? -1 : this.waiting.findIndex((m, i) => this.holdFor(m, this.waiting[i + 1]) > 0);
          const batch = this.waiting.splice(0, stop < 0 ? this.waiting.length : stop + 1);
          const drawn = performance.now();
          await this.stepAll(batch);
          if (stop >= 0) await this.hold(drawn + this.holdFor(batch[batch.length - 1], this.waiting[0]), still);
          continue;
        }
        const move = this.waiting.shift();
        const drawn = performance.now();
        const behind = this.waiting.length;
        await this.stepOne(move, { behind, long, quick, still });
        const wait = this.holdFor(move, this.waiting[0]);
        if (wait > 0) await this.hold(drawn + wait, still);
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
