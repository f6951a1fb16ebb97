// The map's view of what lives beside the event feed: the sub-wanders' live progress (a
// sub-wander's node comes from wander.subwander.spawned on this wander's stream, but its
// steps and status are on its own stream, so they are polled) and the chain of parents for
// the breadcrumb. The fence is not read here: it is
// the fold of the fence events (and the session's REST view for the fence it began with).
import { useEffect, useState } from "react";
import { api } from "./client";
import { reads } from "./commands";
import type { SessionOut } from "./types.gen";
import { useWander } from "../store";

const POLL_MS = 1500;

/** Polls this wander's sub-wanders' progress into the store (the name is kept for SessionPage). */
export function useChildrenAndFences(sessionId: string): void {
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const kids = await reads.children(sessionId);
        if (!live) return;
        useWander.getState().setChildren(kids);
      } catch {
        /* keep the last known; try again */
      }
      if (live) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionId]);
}

/** Parents of the open session, root first (for the breadcrumb). */
export function useAncestors(session: SessionOut | null): SessionOut[] {
  const [chain, setChain] = useState<SessionOut[]>([]);
  const parentId = session?.parent_session_id ?? null;
  useEffect(() => {
    let live = true;
    if (!parentId) {
      setChain([]);
      return;
    }
    (async () => {
      const out: SessionOut[] = [];
      let next: string | null = parentId;
      while (next && out.length < 20) {
        const p: SessionOut = await api.getSession(next);
        out.unshift(p);
        next = p.parent_session_id;
      }
      if (live) setChain(out);
    })().catch(() => live && setChain([]));
    return () => {
      live = false;
    };
  }, [parentId]);
  return chain;
}
