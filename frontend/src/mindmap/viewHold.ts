// Following mode must not move the view under a person's hand: a click that lands while the
// view glides to the latest step misses its node. While a pointer is pressed on the map, and
// for a moment after it is released (the click, a double click, a panel opening), moves that
// following asks for wait; the latest one asked runs once the view is free.

/** How long the view stays put after the last pointer on the map is released (ms). */
export const HOLD_AFTER_MS = 600;

export class ViewHold {
  private readonly pressed = new Set<number>();
  private until = 0;
  private pending: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly after = HOLD_AFTER_MS,
  ) {}

  /** A pointer went down on the map. */
  press(pointerId = 0): void {
    this.pressed.add(pointerId);
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A pointer came up (anywhere: it may leave the map while pressed). */
  release(pointerId = 0): void {
    if (!this.pressed.delete(pointerId)) return;
    if (this.pressed.size === 0) {
      this.until = this.now() + this.after;
      this.schedule();
    }
  }

  /** Every pointer let go at once (the window lost focus: its pointerup never comes). */
  releaseAll(): void {
    if (this.pressed.size === 0) return;
    this.pressed.clear();
    this.until = this.now() + this.after;
    this.schedule();
  }

  get held(): boolean {
    return this.pressed.size > 0 || this.now() < this.until;
  }

  /** Runs `move` now if the view is free; else keeps it (replacing any kept before) for when
   * the view is free again. */
  run(move: () => void): void {
    if (!this.held) {
      this.pending = null;
      move();
      return;
    }
    this.pending = move;
    this.schedule();
  }

  /** Forgets a kept move (following was turned off, the map is going away). */
  cancel(): void {
    this.pending = null;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.pressed.size > 0 || !this.pending) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const move = this.pending;
        if (!move) return;
        if (this.held) return this.schedule();
        this.pending = null;
        move();
      },
      Math.max(0, this.until - this.now()),
    );
  }
}
