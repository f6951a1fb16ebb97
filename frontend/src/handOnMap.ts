// Whether a person's hand is on the map (a pointer pressed on it: a pan, a drag), for the live
// feed: while it is, a run's steps are gathered and applied at most once a second (and at once
// when the hand lifts), so that a pan during a run at full speed is not held up by a render of
// the map for every step.

const pressed = new Set<number>();
const onLift = new Set<() => void>();

export const handOnMap = {
  press(pointerId = 0): void {
    pressed.add(pointerId);
  },
  release(pointerId = 0): void {
    if (!pressed.delete(pointerId) || pressed.size) return;
    for (const f of [...onLift]) f();
  },
  releaseAll(): void {
    if (!pressed.size) return;
    pressed.clear();
    for (const f of [...onLift]) f();
  },
  held(): boolean {
    return pressed.size > 0;
  },
  /** `f` runs each time the last pointer lifts; returns the unsubscribe. */
  whenLifted(f: () => void): () => void {
    onLift.add(f);
    return () => onLift.delete(f);
  },
};
