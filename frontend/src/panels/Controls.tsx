import { useState } from "react";
import { api, ApiError } from "../api/client";
import type { SessionOut } from "../api/types.gen";
import { useWander } from "../store";

function isSessionOut(x: unknown): x is SessionOut {
  return !!x && typeof x === "object" && "id" in x && "status" in x && "step_count" in x && "last_event_seq" in x;
}

/** Step, run N, pause, resume, stop. */
export function Controls({ sessionId }: { sessionId: string }) {
  const status = useWander((s) => s.graph.status);
  const setSession = useWander((s) => s.setSession);
  const [n, setN] = useState("10");
  const [busy, setBusy] = useState<string | null>(null);
  const [msg, setMsg] = useState<string | null>(null);

  const act = async (name: string, fn: () => Promise<unknown>) => {
    setBusy(name);
    setMsg(null);
    try {
      const out = await fn();
      if (isSessionOut(out)) setSession(out);
      else api.getSession(sessionId).then(setSession).catch(() => undefined);
    } catch (err) {
      setMsg(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };

  const active = status === "active";
  const paused = status === "paused";
  const over = status === "completed" || status === "abandoned";
  const steps = Math.max(1, Math.min(1000, Math.floor(Number(n) || 1)));
  return (
    <div className="controls" role="toolbar" aria-label="Wander controls">
      <button type="button" disabled={!active || !!busy} onClick={() => act("step", () => api.step(sessionId))} title="Take one step">
        Step
      </button>
      <span className="run-n">
        <button type="button" disabled={!active || !!busy} onClick={() => act("run", () => api.wander(sessionId, steps))} title="Run N steps in the background">
          Run
        </button>
        <input aria-label="steps to run" type="number" min={1} max={1000} value={n} disabled={!active} onChange={(e) => setN(e.target.value)} />
      </span>
      <span className="sep" />
      <button type="button" disabled={!active || !!busy} onClick={() => act("pause", () => api.pause(sessionId))}>
        Pause
      </button>
      <button type="button" disabled={!paused || !!busy} onClick={() => act("resume", () => api.resume(sessionId))}>
        Resume
      </button>
      <button type="button" className="danger" disabled={over || !status || !!busy} onClick={() => act("stop", () => api.stop(sessionId))}>
        Stop
      </button>
      {msg ? (
        <span className="control-error" role="alert">
          {msg}
        </span>
      ) : null}
    </div>
  );
}
