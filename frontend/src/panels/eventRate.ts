// The status bar's events/s: how many live events came over the last few seconds. A replay
// (the backlog a page catches up on when it opens a wander) is not live and is not counted,
// and a count that goes down (another wander opened in the same page) starts the window again.

export interface RateSample {
  t: number;
  n: number;
}

/** Adds sample `now` (ms, live events so far) to `samples` (kept in place, the last
 * `windowS` seconds) and returns the rate over them: never negative. */
export function sampleRate(samples: RateSample[], now: RateSample, windowS = 3): number {
  const prev = samples[samples.length - 1];
  if (prev && now.n < prev.n) samples.length = 0; // a new count: the old one says nothing of it
  samples.push(now);
  while (samples.length > 2 && now.t - samples[0].t > windowS * 1000) samples.shift();
  const first = samples[0];
  const dt = (now.t - first.t) / 1000;
  return dt > 0 ? Math.max(0, (now.n - first.n) / dt) : 0;
}
