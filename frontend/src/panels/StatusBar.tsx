import { useEffect, useRef, useState } from "react";
import type { ConnState } from "../api/ws";
import { useWander } from "../store";
import { stopHint } from "./Controls";
import { sampleRate, type RateSample } from "./eventRate";
import { useServerPreparing } from "./serverPreparing";

const CONN_TEXT: Record<ConnState, string> = {
  idle: "idle",
  connecting: "connecting",
  live: "live",
  reconnecting: "reconnecting",
  closed: "closed",
};

/** Live events per second over the last few seconds, sampled once a second. */
function useEventRate(windowS = 3): number {
  const samples = useRef<RateSample[]>([]);
  const [rate, setRate] = useState(0);
  useEffect(() => {
    const tick = () => setRate(sampleRate(samples.current, { t: performance.now(), n: useWander.getState().received }, windowS));
    tick();
    const t = setInterval(tick, 1000);
    return () => clearInterval(t);
  }, [windowS]);
  return rate;
}

export function StatusBar() {
  const g = useWander((s) => s.graph);
  const conn = useWander((s) => s.conn);
  const running = useWander((s) => s.session?.running ?? false);
  const rate = useEventRate();
  const preparing = useServerPreparing();
  const hint = stopHint(g.status, g.stoppedReason, g.stepCount, g.maxSteps);
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span data-testid="status-steps">
        Step <b>{g.stepCount}</b>
        {g.maxSteps ? <span className="muted"> / {g.maxSteps}</span> : null}
      </span>
      <span>
        Status{" "}
        <span className={`badge status-${g.status ?? "unknown"}`} data-testid="session-status">
          {g.status ?? "…"}
        </span>
        {g.stepping !== null ? <span className="badge running">stepping {g.stepping}</span> : running && g.status === "active" ? <span className="badge running">running</span> : null}
      </span>
      <span data-testid="conn-state" data-state={conn}>
        <span className={`dot conn-${conn}`} /> {CONN_TEXT[conn]}
      </span>
      <span data-testid="event-rate">{rate.toFixed(1)} events/s</span>
      <span className="muted">
        {g.order.length} loci · seq {g.lastSeq}
      </span>
      {preparing ? (
        <span className="notice" data-testid="server-preparing" title="once, after a first start on this machine">
          server preparing: {preparing}
        </span>
      ) : null}
      {g.tripped ? (
        <span className="notice" title={g.tripped.detail}>
          ⚡ {g.tripped.reason}: {g.tripped.detail}
        </span>
      ) : hint ? (
        // why the wander stopped and what to do: here, not in the toolbar (which it reflowed)
        <span className="notice control-hint" data-testid="control-hint" title={hint}>
          {hint}
        </span>
      ) : g.stoppedReason ? (
        <span className="notice">stopped: {g.stoppedReason}</span>
      ) : null}
    </footer>
  );
}
