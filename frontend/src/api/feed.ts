// Wires one session's REST view and WebSocket feed into the store.
import { useEffect, useState } from "react";
import { whenSignedIn } from "./auth";
import { api, sessionSocketUrl } from "./client";
import { EventBatch } from "./feedBatch";
import { ApiError } from "./http";
import { WanderSocket } from "./ws";
import { handOnMap } from "../handOnMap";
import { useWander } from "../store";

declare global {
  interface Window {
    /** Test hook: the live socket client of the open map (drop(), lastSeq, urls, state). */
    __wanderWs?: WanderSocket;
    /** Bench hook: how many loci the open map's graph holds. */
    __wanderGraphSize?: () => number;
    /** Bench hook: put the open map's view at a zoom, centred on the middle of its loci. */
    __wanderViewMiddle?: (zoom: number) => void;
    /** Test hook: where locus `id` of the open map is on the screen (client px), or null. */
    __wanderLocusAt?: (id: string) => { x: number; y: number } | null;
  }
}

/** What the page hears of a feed's failures. */
interface FeedProblems {
  /** The socket was refused for want of a sign-in: open it again once signed in. */
  reopen: () => void;
  notFound: () => void;
  error: (message: string) => void;
}

/** Session `id`'s socket (not started yet), from the last seq the store has seen, its events into `batch`. */
function feedSocket(id: string, batch: EventBatch, problems: FeedProblems): WanderSocket {
  const store = useWander.getState;
  const sock = new WanderSocket({
    // batch=1: the backlog comes in a few large frames (the URL still ends in after_seq)
    url: (after) => sessionSocketUrl(id, after).replace("?", "?batch=1&"),
    initialSeq: store().graph.lastSeq,
    onEvent: batch.add,
    onCaughtUp: () => batch.caughtUp(),
    onState: (c) => {
      if (c !== "live") batch.dropped();
      store().setConn(c);
    },
    onFatal: (code, reason) => {
      if (code === 4401) void whenSignedIn().then(problems.reopen); // the cookie rides on the new socket
      else if (code === 4404) problems.notFound();
      else problems.error(`live feed refused (${code}): ${reason}`);
    },
  });
  window.__wanderWs = sock;
  window.__wanderGraphSize = () => useWander.getState().graph.order.length;
  return sock;
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
    // Events arriving together (a replay, a burst of one step) are applied in one batch.
    const batch = new EventBatch(
      (events, replaying) => store().ingest(events, replaying),
      () => sock?.state === "live",
    );
    const open = () => {
      if (cancelled) return;
      sock = feedSocket(id, batch, { reopen: open, notFound: () => setNotFound(true), error: setError });
      sock.start();
    };
    const unLift = handOnMap.whenLifted(() => batch.lifted());

    // The socket opens at once, beside the REST view (the store merges the two in either
    // order): the backlog does not wait for a round trip first.
    open();
    api
      .getSession(id)
      .then((s) => {
        if (cancelled) return;
        store().setSession(s);
      })
      .catch((err) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 404) {
          setNotFound(true); // (the socket is refused with 4404 as well)
          sock?.close();
          return;
        }
        setError(err instanceof Error ? err.message : String(err)); // the events alone can still draw the map
      });

    return () => {
      cancelled = true;
      unLift();
      batch.flush();
      sock?.close();
      if (window.__wanderWs === sock) delete window.__wanderWs;
    };
  }, [id]);

  return { error, notFound };
}
