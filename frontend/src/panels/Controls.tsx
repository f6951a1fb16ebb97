import { useEffect, useState } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { SessionOut } from "../api/types.gen";
import { useWander } from "../store";
import { CountedButton, MAX_RUN, StopButton } from "./ControlButtons";

function isSessionOut(x: unknown): x is SessionOut {
  return !!x && typeof x === "object" && "id" in x && "status" in x && "step_count" in x && "last_event_seq" in x;
}

/** Why a completed wander may be walked on (Extend): it took all its steps, or a person stopped it. */
export const EXTENDABLE_REASONS: readonly string[] = ["max_steps", "stopped by request"];

/** Why a wander stopped, in words, and what a person can do about it. */
export function stopHint(status: string | null, reason: string | null, steps: number, max: number | null): string | null {
  if (status === "paused") {
    if (reason === "checkpoint") return `Human checkpoint after ${steps} steps: look at the map, then Continue (or take one Step).`;
    if (reason === "budget_exhausted") return "The cloud budget is spent: raise it (PATCH cloud_budget_cents), then Continue.";
    if (reason === "loop_detected") return "The walk went round in a loop: inject a concept or widen the scope, then Continue.";
    if (reason === "drift_exceeded") return "The walk drifted too far from the seed: raise max_drift_distance, then Continue.";
    return "Paused: Continue the run, or take one Step at a time.";
  }
  if (status === "completed" && reason === "max_steps") return `All ${max ?? steps} steps taken: extend it to walk on.`;
  if (status === "completed" && reason === "stopped by request") return `Stopped after ${steps} steps: extend it to walk on.`;
  return null;
}

/** One step from a paused wander: made active for that step only, and paused again after it
 * (the run it was part of waits for Continue). */
async function stepFromPause(sessionId: string): Promise<SessionOut> {
  await api.updateSession(sessionId, { status: "active" });
  try {
    await api.step(sessionId);
  } finally {
    await api.pause(sessionId).catch(() => undefined);
  }
  return api.getSession(sessionId);
}

type SetSession = (s: SessionOut) => void;

/** Whether a background run is still going is only in the REST view: poll it while it is, and
 * once the steps pass the limit the page knows (max_steps raised elsewhere: no event says so). */
function useRunPoll(sessionId: string, running: boolean, behind: boolean, stepCount: number, setSession: SetSession) {
  useEffect(() => {
    if (!running && !behind) return;
    const poll = () =>
      api
        .getSession(sessionId)
        .then((s) => {
          const cur = useWander.getState().session;
          // redraw only on news
          if (!cur || s.running !== cur.running || s.status !== cur.status || s.max_steps !== cur.max_steps) setSession(s);
        })
        .catch(() => undefined);
    if (behind) poll();
    const t = setInterval(poll, 1500);
    return () => clearInterval(t);
  }, [running, behind, sessionId, setSession, stepCount]);
}

/** A control's action: one at a time (`busy` names it), the session read again after it, and its
 * error shown until the wander's state moves on. */
function useAct(sessionId: string, setSession: SetSession, status: string | null, running: boolean, reason: string | null) {
  const [busy, setBusy] = useState<string | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  // An error belongs to the state it was made in: gone once the wander moves on.
  useEffect(() => setMsg(null), [status, running, reason]);
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
  return { busy, msg, act };
}

function useWanderState() {
  const status = useWander((s) => s.graph.status);
  const reason = useWander((s) => s.graph.stoppedReason);
  const stepCount = useWander((s) => s.graph.stepCount);
  const maxSteps = useWander((s) => s.graph.maxSteps);
  const running = useWander((s) => s.session?.running ?? false);
  const checkpoint = useWander((s) => s.session?.human_checkpoint_frequency ?? 0);
  const setSession = useWander((s) => s.setSession);
  return { status, reason, stepCount, maxSteps, running, checkpoint, setSession };
}

const clamp = (v: string) => Math.max(1, Math.min(MAX_RUN, Math.floor(Number(v) || 1)));

/** Step, run N, pause, continue, stop (asks first), extend: each enabled only when the
 * wander's state allows it. Every button is always there (disabled when it cannot act) and
 * what the state says is on the status bar, so the toolbar never changes its size. */
export function Controls({ sessionId }: { sessionId: string }) {
  const { status, reason, stepCount, maxSteps, running, checkpoint, setSession } = useWanderState();
  const [n, setN] = useState("10");
  const [more, setMore] = useState("50");
  const { busy, msg, act } = useAct(sessionId, setSession, status, running, reason);
  useRunPoll(sessionId, running, maxSteps !== null && stepCount > maxSteps, stepCount, setSession);

  const active = status === "active";
  const paused = status === "paused";
  const over = status === "completed" || status === "abandoned";
  const extendable = status === "completed" && reason !== null && EXTENDABLE_REASONS.includes(reason);
  const extra = clamp(more);
  const idle = active && !running && !busy;
  const canStep = (active || paused) && !running && !busy;
  const extend = async () => {
    await api.updateSession(sessionId, { max_steps: Math.max(maxSteps ?? 0, stepCount + extra), status: "active" });
    return api.wander(sessionId, extra);
  };
  const checkpointNote = checkpoint > 0 ? ` A checkpoint every ${checkpoint} steps still pauses it.` : "";
  return (
    <div className="controls" role="toolbar" aria-label="Wander controls">
      <button
        type="button"
        disabled={!canStep}
        onClick={() => act("step", () => (paused ? stepFromPause(sessionId) : api.step(sessionId)))}
        title={paused ? "Take one step and stay paused" : "Take one step"}
      >
        Step
      </button>
      <CountedButton
        label="Run"
        title="Run N steps in the background"
        countLabel="steps to run"
        count={n}
        setCount={setN}
        disabled={!idle}
        inputDisabled={!idle}
        onClick={() => act("run", () => api.wander(sessionId, clamp(n)))}
      />
      <span className="sep" />
      <button type="button" disabled={!active || !!busy} onClick={() => act("pause", () => api.pause(sessionId))}>
        Pause
      </button>
      <button type="button" disabled={!paused || !!busy} onClick={() => act("resume", () => api.resume(sessionId))} title="Resume the wander and the run it was part of">
        Continue
      </button>
      <StopButton status={status} disabled={over || !status || !!busy} onStop={() => void act("stop", () => api.stop(sessionId))} />
      <span className="sep" />
      <CountedButton
        label="Extend by"
        title={`Raise max_steps and walk on (a wander that took all its steps, or one that was stopped).${checkpointNote}`}
        countLabel="steps to extend by"
        count={more}
        setCount={setMore}
        disabled={!extendable || !!busy}
        inputDisabled={!extendable}
        onClick={() => act("extend", extend)}
      />
      {msg ? (
        <span className="control-error" role="alert">
          {msg}
        </span>
      ) : null}
    </div>
  );
}
