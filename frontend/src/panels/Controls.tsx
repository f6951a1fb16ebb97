import { useEffect, useState } from "react";
import { api, ApiError } from "../api/client";
import type { SessionOut } from "../api/types.gen";
import { useWander } from "../store";

function isSessionOut(x: unknown): x is SessionOut {
  return !!x && typeof x === "object" && "id" in x && "status" in x && "step_count" in x && "last_event_seq" in x;
}

export const MAX_RUN = 10000;

/** Why a wander stopped, in words, and what a person can do about it. */
export function stopHint(status: string | null, reason: string | null, steps: number, max: number | null): string | null {
  if (status === "paused") {
    if (reason === "checkpoint") return `Human checkpoint after ${steps} steps: look at the map, then Continue.`;
    if (reason === "budget_exhausted") return "The cloud budget is spent: raise it (PATCH cloud_budget_cents), then Continue.";
    if (reason === "loop_detected") return "The walk went round in a loop: inject a concept or widen the scope, then Continue.";
    if (reason === "drift_exceeded") return "The walk drifted too far from the seed: raise max_drift_distance, then Continue.";
    return "Paused: Continue when ready.";
  }
  if (status === "completed" && reason === "max_steps") return `All ${max ?? steps} steps taken: extend it to walk on.`;
  return null;
}

/** Step, run N, pause, continue, stop, extend: each enabled only when the wander's state allows it. */
export function Controls({ sessionId }: { sessionId: string }) {
  const status = useWander((s) => s.graph.status);
  const reason = useWander((s) => s.graph.stoppedReason);
  const stepCount = useWander((s) => s.graph.stepCount);
  const maxSteps = useWander((s) => s.graph.maxSteps);
  const running = useWander((s) => s.session?.running ?? false);
  const setSession = useWander((s) => s.setSession);
  const [n, setN] = useState("10");
  const [more, setMore] = useState("50");
  const [busy, setBusy] = useState<string | null>(null);
  const [msg, setMsg] = useState<string | null>(null);

  // An error belongs to the state it was made in: gone once the wander moves on.
  useEffect(() => setMsg(null), [status, running, reason]);

  // Whether a background run is still going is only in the REST view: poll it while it is.
  useEffect(() => {
    if (!running) return;
    const poll = () =>
      api
        .getSession(sessionId)
        .then((s) => {
          const cur = useWander.getState().session;
          if (!cur || s.running !== cur.running || s.status !== cur.status) setSession(s); // redraw only on news
        })
        .catch(() => undefined);
    const t = setInterval(poll, 1500);
    return () => clearInterval(t);
  }, [running, sessionId, setSession, stepCount]);

  const act = async (name: string, fn: () => Promise<unknown>) => {
    setBusy(name);
    setMsg(null);
    try {
      const out = await fn();
      if (isSessionOut(out)) setSession(out);
      api.getSession(sessionId).then(setSession).catch(() => undefined);
    } catch (err) {
      setMsg(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };

  const active = status === "active";
  const paused = status === "paused";
  const over = status === "completed" || status === "abandoned";
  const extendable = status === "completed" && reason === "max_steps";
  const clamp = (v: string) => Math.max(1, Math.min(MAX_RUN, Math.floor(Number(v) || 1)));
  const steps = clamp(n);
  const extra = clamp(more);
  const idle = active && !running && !busy;
  const hint = stopHint(status, reason, stepCount, maxSteps);
  const extend = async () => {
    await api.updateSession(sessionId, { max_steps: (maxSteps ?? stepCount) + extra, status: "active" });
    return api.wander(sessionId, extra);
  };
  return (
    <div className="controls" role="toolbar" aria-label="Wander controls">
      <button type="button" disabled={!idle} onClick={() => act("step", () => api.step(sessionId))} title="Take one step">
        Step
      </button>
      <span className="run-n">
        <button type="button" disabled={!idle} onClick={() => act("run", () => api.wander(sessionId, steps))} title="Run N steps in the background">
          Run
        </button>
        <input aria-label="steps to run" type="number" min={1} max={MAX_RUN} value={n} disabled={!idle} onChange={(e) => setN(e.target.value)} />
      </span>
      <span className="sep" />
      <button type="button" disabled={!active || !!busy} onClick={() => act("pause", () => api.pause(sessionId))}>
        Pause
      </button>
      <button type="button" disabled={!paused || !!busy} onClick={() => act("resume", () => api.resume(sessionId))} title="Resume the wander and the run it was part of">
        Continue
      </button>
      <button type="button" className="danger" disabled={over || !status || !!busy} onClick={() => act("stop", () => api.stop(sessionId))}>
        Stop
      </button>
      {extendable ? (
        <span className="run-n">
          <button type="button" disabled={!!busy} onClick={() => act("extend", extend)} title="Raise max_steps and run on">
            Extend by
          </button>
          <input aria-label="steps to extend by" type="number" min={1} max={MAX_RUN} value={more} onChange={(e) => setMore(e.target.value)} />
        </span>
      ) : null}
      {hint ? (
        <span className="control-hint" data-testid="control-hint">
          {hint}
        </span>
      ) : null}
      {msg ? (
        <span className="control-error" role="alert">
          {msg}
        </span>
      ) : null}
    </div>
  );
}
