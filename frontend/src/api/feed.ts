// Wires one session's REST view and WebSocket feed into the store.
import { useEffect, useState } from "react";
import { whenSignedIn } from "./auth";
import { api, ApiError, sessionSocketUrl } from "./client";
import type { EventOut } from "./types.gen";
import { WanderSocket } from "./ws";
import { useWander } from "../store";

declare global {
  interface Window {
    /** Test hook: the live socket client of the open map (drop(), lastSeq, urls, state). */
    __wanderWs?: WanderSocket;
    /** Bench hook: how many loci the open map's graph holds. */
    __wanderGraphSize?: () => number;
  }
}

/** Opens session `id`: GET the session, then follow its events from the last seq seen. */
export function useSessionFeed(id: string): { error: string | null; notFound: boolean } {
  const [error, setError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);

  useEffect(() => {
    const store = useWander.getState;
    store().openSession(id);
    setError(null);
    setNotFound(false);
    let cancelled = false;
    let sock: WanderSocket | null = null;
    const buffer: EventOut[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    // Events arriving together (a replay, a burst of one step) are applied in one batch.
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (buffer.length) store().ingest(buffer.splice(0));
    };

    const open = () => {
      if (cancelled) return;
      sock = new WanderSocket({
        url: (after) => sessionSocketUrl(id, after),
        initialSeq: store().graph.lastSeq,
        onEvent: (ev) => {
          buffer.push(ev);
          // While the backlog replays, apply it in a few large batches; live, at once.
          if (!timer) timer = setTimeout(flush, sock?.state === "live" ? 40 : 250);
        },
        onCaughtUp: flush,
        onState: (c) => store().setConn(c),
        onFatal: (code, reason) => {
          if (code === 4401) void whenSignedIn().then(open); // the cookie rides on the new socket
          else if (code === 4404) setNotFound(true);
          else setError(`live feed refused (${code}): ${reason}`);
        },
      });
      window.__wanderWs = sock;
      window.__wanderGraphSize = () => useWander.getState().graph.order.length;
      sock.start();
    };

    api
      .getSession(id)
      .then((s) => {
        if (cancelled) return;
        store().setSession(s);
        open();
      })
      .catch((err) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 404) {
          setNotFound(true);
          return;
        }
        setError(err instanceof Error ? err.message : String(err));
        open(); // the events alone can still draw the map
      });

    return () => {
      cancelled = true;
      flush();
      sock?.close();
      if (window.__wanderWs === sock) delete window.__wanderWs;
    };
  }, [id]);

  return { error, notFound };
}
