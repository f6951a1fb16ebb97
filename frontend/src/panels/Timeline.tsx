import { useEffect } from "react";

export const SPEEDS = [1, 2, 5, 10, 20] as const;

export interface TimelineProps {
  step: number;
  maxStep: number;
  playing: boolean;
  speed: number;
  onStep: (n: number) => void;
  onPlaying: (p: boolean) => void;
  onSpeed: (s: number) => void;
}

/** The scrubber under the archive map: any step, play/pause at 1x-20x (steps per second), step back/forward. */
export function Timeline({ step, maxStep, playing, speed, onStep, onPlaying, onSpeed }: TimelineProps) {
  useEffect(() => {
    if (!playing) return;
    if (step >= maxStep) {
      onPlaying(false);
      return;
    }
    const t = setTimeout(() => onStep(step + 1), 1000 / speed);
    return () => clearTimeout(t);
  }, [playing, step, maxStep, speed, onStep, onPlaying]);

  return (
    <div className="timeline" data-testid="timeline">
      <button type="button" className="tool" onClick={() => onStep(Math.max(0, step - 1))} disabled={step <= 0} aria-label="Step back">
        ◀
      </button>
      <button
        type="button"
        className="tool is-on"
        onClick={() => {
          if (!playing && step >= maxStep) onStep(0);
          onPlaying(!playing);
        }}
        aria-label={playing ? "Pause" : "Play"}
        data-testid="timeline-play"
      >
        {playing ? "❚❚ Pause" : "▶ Play"}
      </button>
      <button type="button" className="tool" onClick={() => onStep(Math.min(maxStep, step + 1))} disabled={step >= maxStep} aria-label="Step forward">
        ▶
      </button>
      <input
        type="range"
        min={0}
        max={maxStep}
        step={1}
        value={step}
        aria-label="Step"
        data-testid="timeline-scrubber"
        onChange={(e) => {
          onPlaying(false);
          onStep(Number(e.target.value));
        }}
      />
      <span className="timeline-step" data-testid="timeline-step">
        step {step} / {maxStep}
      </span>
      <label className="inline small">
        speed{" "}
        <select value={speed} onChange={(e) => onSpeed(Number(e.target.value))} aria-label="Speed">
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}x
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
