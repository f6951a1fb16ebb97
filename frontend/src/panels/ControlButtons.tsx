import { useEffect, useState } from "react";

/** The most steps one Run or Extend asks for (the API's cap on n_steps and max_steps). */
export const MAX_RUN = 10000;

/** Stop, which asks first; the question closes when the wander's status changes. */
export function StopButton({ status, disabled, onStop }: { status: string | null; disabled: boolean; onStop: () => void }) {
  const [confirmStop, setConfirmStop] = useState(false);
  useEffect(() => setConfirmStop(false), [status]);
  return (
    <span className="stop-wrap">
      <button
        type="button"
        className="danger"
        disabled={disabled}
        aria-expanded={confirmStop}
        onClick={() => setConfirmStop(!confirmStop)}
        title="End this wander's run (asks first; Extend walks on later)"
      >
        Stop
      </button>
      {confirmStop ? (
        <span className="stop-confirm" role="dialog" aria-label="Stop this wander?" data-testid="stop-confirm">
          <span>Stop this wander? Its run ends here; Extend walks it on later.</span>
          <button
            type="button"
            className="danger"
            onClick={() => {
              setConfirmStop(false);
              onStop();
            }}
          >
            Stop it
          </button>
          <button type="button" onClick={() => setConfirmStop(false)}>
            Keep going
          </button>
        </span>
      ) : null}
    </span>
  );
}

interface CountedProps {
  label: string;
  title: string;
  /** The input's accessible name. */
  countLabel: string;
  count: string;
  setCount: (v: string) => void;
  disabled: boolean;
  inputDisabled: boolean;
  onClick: () => void;
}

/** A button that acts on a number of steps typed beside it (Run N, Extend by N). */
export function CountedButton({ label, title, countLabel, count, setCount, disabled, inputDisabled, onClick }: CountedProps) {
  return (
    <span className="run-n">
      <button type="button" disabled={disabled} onClick={onClick} title={title}>
        {label}
      </button>
      <input aria-label={countLabel} type="number" min={1} max={MAX_RUN} value={count} disabled={inputDisabled} onChange={(e) => setCount(e.target.value)} />
    </span>
  );
}
