// Wires one session's REST view and WebSocket feed into the store.
import { useEffect, useState } from "react";
import { whenSignedIn } from "./auth";
import { api, sessionSocketUrl } from "./client";
import { ApiError } from "./http";
import type { EventOut } from "./types.gen";
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

/** Events of the backlog that make a batch of their own as soon as they have come (a frame of
 * the batched backlog holds up to about a thousand). */
const REPLAY_FRAME = 200;
/** While a person's hand is on the map (a pan), live events are applied at most this often
 * (ms), and at once when it lifts: a render of the map for every step of a run at full speed
 * held the pan's frames up. */
const HELD_FLUSH_MS = 1000;

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
    let soon: ReturnType<typeof setTimeout> | null = null;
    let frame: number | null = null;
    let replayFlushes = 0;
    /** When the last batch was applied (performance.now()): steps that come faster than
     * frames are applied once a frame. */
    let lastFlush = -Infinity;
    /** The events buffered are a backlog being caught up on (not counted as live). */
    let replaying = true;
    // Events arriving together (a replay, a burst of one step) are applied in one batch.
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (soon) clearTimeout(soon);
      soon = null;
      if (frame !== null) cancelAnimationFrame(frame);
      frame = null;
      if (buffer.length) {
        lastFlush = performance.now();
        store().ingest(buffer.splice(0), replaying);
      }
    };
    const onEvent = (ev: EventOut) => {
      buffer.push(ev);
      if (sock?.state === "live" && handOnMap.held()) {
        if (!timer) timer = setTimeout(flush, HELD_FLUSH_MS);
        return;
      }
      if (sock?.state === "live") {
        // A step's completion is the last of its events (its candidates and visit come just
        // before it): the step is applied at once, in one batch with them. Waiting for the
        // next frame added half a frame on average, and far more while the compositor was
        // busy (a frame's raster on a slow machine held animation frames back up to 100 ms).
        // Steps faster than frames (a run at full speed): one batch a frame, not a render each.
        if (ev.subject === "wander.step.completed" && performance.now() - lastFlush >= 16) {
          flush();
          return;
        }
        // Other live events: on the next frame, so the frames that come together still make
        // one batch, at no added wait; a hidden tab gets no frames, so a timer backs it up.
        if (frame === null && typeof requestAnimationFrame === "function") frame = requestAnimationFrame(flush);
        if (!timer) timer = setTimeout(flush, 100);
      } else {
        // The backlog replays: a first batch soon (the map shows something), then at growing
        // intervals until caught_up. Each batch re-renders the whole map so far, so a
        // thousands-event replay in many small batches cost several times its own work.
        // A frame of the batched backlog (hundreds of events) is applied once it has come:
        // the map lays it out while the server sends the next, rather than all of it after
        // the last (the layout of thousands of loci is most of a long walk's catch-up).
        if (buffer.length >= REPLAY_FRAME && !soon) soon = setTimeout(flush, 0);
        if (!timer) timer = setTimeout(flush, Math.min(2000, 250 * 2 ** replayFlushes++));
      }
    };

    const open = () => {
      if (cancelled) return;
      sock = new WanderSocket({
        // batch=1: the backlog comes in a few large frames (the URL still ends in after_seq)
        url: (after) => sessionSocketUrl(id, after).replace("?", "?batch=1&"),
        initialSeq: store().graph.lastSeq,
        onEvent,
        onCaughtUp: () => {
          replayFlushes = 0;
          flush();
          replaying = false;
        },
        onState: (c) => {
          if (c !== "live") {
            flush(); // what came live before the drop, counted as live
            replaying = true; // a reconnection replays what it missed
          }
          store().setConn(c);
        },
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

    // the hand lifts: what was gathered meanwhile, at once
    const unLift = handOnMap.whenLifted(() => {
      if (sock?.state === "live" && buffer.length) flush();
    });

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
      flush();
      sock?.close();
      if (window.__wanderWs === sock) delete window.__wanderWs;
    };
  }, [id]);

  return { error, notFound };
}
