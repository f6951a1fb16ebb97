// How a session's events reach the store: gathered and applied in batches, so a replay or a
// burst of one step renders the map once, not once an event.
import type { EventOut } from "./types.gen";
import { handOnMap } from "../handOnMap";

/** Events of the backlog that make a batch of their own as soon as they have come (a frame of
 * the batched backlog holds up to about a thousand). */
const REPLAY_FRAME = 200;
/** While a person's hand is on the map (a pan), live events are applied at most this often
 * (ms), and at once when it lifts: a render of the map for every step of a run at full speed
 * held the pan's frames up. */
const HELD_FLUSH_MS = 1000;

type Timer = ReturnType<typeof setTimeout>;

/** Gathers one feed's events and applies them (`apply`) in batches. `isLive` says whether the
 * socket is live (its events are new) or replaying a backlog. */
export class EventBatch {
  private readonly buffer: EventOut[] = [];
  private timer: Timer | null = null;
  private soon: Timer | null = null;
  private frame: number | null = null;
  private replayFlushes = 0;
  /** When the last batch was applied (performance.now()): steps that come faster than
   * frames are applied once a frame. */
  private lastFlush = -Infinity;
  /** The events buffered are a backlog being caught up on (not counted as live). */
  private replaying = true;

  constructor(
    private readonly apply: (events: EventOut[], replaying: boolean) => void,
    private readonly isLive: () => boolean,
  ) {}

  /** Applies what is gathered now, and cancels the waits for it. */
  readonly flush = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    if (this.buffer.length) {
      this.lastFlush = performance.now();
      this.apply(this.buffer.splice(0), this.replaying);
    }
  };

  /** One event came: gather it, and apply the batch when its rule says. */
  readonly add = (ev: EventOut) => {
    this.buffer.push(ev);
    if (!this.isLive()) {
      this.addReplayed();
      return;
    }
    if (handOnMap.held()) {
      if (!this.timer) this.timer = setTimeout(this.flush, HELD_FLUSH_MS);
      return;
    }
    // A step's completion is the last of its events (its candidates and visit come just
    // before it): the step is applied at once, in one batch with them. Waiting for the
    // next frame added half a frame on average, and far more while the compositor was
    // busy (a frame's raster on a slow machine held animation frames back up to 100 ms).
    // Steps faster than frames (a run at full speed): one batch a frame, not a render each.
    if (ev.subject === "wander.step.completed" && performance.now() - this.lastFlush >= 16) {
      this.flush();
      return;
    }
    // Other live events: on the next frame, so the frames that come together still make
    // one batch, at no added wait; a hidden tab gets no frames, so a timer backs it up.
    if (this.frame === null && typeof requestAnimationFrame === "function") this.frame = requestAnimationFrame(this.flush);
    if (!this.timer) this.timer = setTimeout(this.flush, 100);
  };

  /** The backlog replays: a first batch soon (the map shows something), then at growing
   * intervals until caught_up. Each batch re-renders the whole map so far, so a
   * thousands-event replay in many small batches cost several times its own work.
   * A frame of the batched backlog (hundreds of events) is applied once it has come:
   * the map lays it out while the server sends the next, rather than all of it after
   * the last (the layout of thousands of loci is most of a long walk's catch-up). */
  private addReplayed() {
    if (this.buffer.length >= REPLAY_FRAME && !this.soon) this.soon = setTimeout(this.flush, 0);
    if (!this.timer) this.timer = setTimeout(this.flush, Math.min(2000, 250 * 2 ** this.replayFlushes++));
  }

  /** The backlog has been sent: apply it, and count what comes after as live. */
  caughtUp() {
    this.replayFlushes = 0;
    this.flush();
    this.replaying = false;
  }

  /** The socket dropped: what came live before the drop is applied as live, and the
   * reconnection replays what it missed. */
  dropped() {
    this.flush();
    this.replaying = true;
  }

  /** The hand lifts: what was gathered meanwhile, at once. */
  lifted() {
    if (this.isLive() && this.buffer.length) this.flush();
  }
}
