// The semantic (UMAP) layout: loci where the wander's stored projection puts them, scaled
// to the map; ghost candidates keep their offset from their parent; a switch between
// layouts animates every node from where it is to where it goes.
import { useEffect, useRef, useState } from "react";
import { archiveApi } from "../../api/archive";
import type { Point } from "./force";

export type LayoutMode = "flow" | "semantic";

/** Pixels per projection unit (the projection spans [-1, 1]). */
export function semanticScale(n: number): number {
  return Math.max(320, 75 * Math.sqrt(n));
}

/**
 * Target positions in the semantic layout for every node the force layout placed: loci at
 * their projected point; anything else (ghosts, loci not projected yet) at its parent's
 * projected point plus half its force-layout offset from the parent.
 */
export function semanticTargets(
  force: Map<string, Point>,
  projection: Map<string, Point>,
  parents: Record<string, string | null>,
): Map<string, Point> {
  const scale = semanticScale(projection.size);
  const at = (id: string): Point | null => {
    const p = projection.get(id);
    return p ? { x: p.x * scale, y: -p.y * scale } : null;
  };
  const out = new Map<string, Point>();
  for (const [id, f] of force) {
    const own = at(id);
    if (own) {
      out.set(id, own);
      continue;
    }
    const parent = parents[id];
    const pp = parent ? at(parent) : null;
    const pf = parent ? force.get(parent) : undefined;
    out.set(id, pp && pf ? { x: pp.x + (f.x - pf.x) * 0.5, y: pp.y + (f.y - pf.y) * 0.5 } : f);
  }
  return out;
}

const ease = (k: number) => (k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2);

/** `target`, except right after `mode` changes: then an eased animation from what was shown. */
export function useAnimatedPositions(target: Map<string, Point>, mode: string, ms = 650): Map<string, Point> {
  const shown = useRef(target);
  const lastMode = useRef(mode);
  const [frame, setFrame] = useState<Map<string, Point> | null>(null);
  useEffect(() => {
    if (lastMode.current === mode || typeof requestAnimationFrame === "undefined") {
      lastMode.current = mode;
      shown.current = target;
      setFrame(null);
      return;
    }
    lastMode.current = mode;
    const from = shown.current;
    const t0 = performance.now();
    let raf = 0;
    const tick = () => {
      const k = Math.min(1, (performance.now() - t0) / ms);
      const e = ease(k);
      const m = new Map<string, Point>();
      for (const [id, p] of target) {
        const a = from.get(id) ?? p;
        m.set(id, { x: a.x + (p.x - a.x) * e, y: a.y + (p.y - a.y) * e });
      }
      shown.current = m;
      if (k < 1) {
        setFrame(m);
        raf = requestAnimationFrame(tick);
      } else setFrame(null);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [target, mode, ms]);
  return frame ?? target;
}

/**
 * The session's projection while `enabled`, fetched again when the number of loci changes
 * or a refit is announced (`fitKey`): loci found since the last fit come placed by transform.
 */
export function useProjection(sessionId: string, enabled: boolean, lociCount: number, fitKey = 0): Map<string, Point> | null {
  const [points, setPoints] = useState<Map<string, Point> | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    const t = setTimeout(() => {
      archiveApi
        .projection(sessionId)
        .then((p) => {
          if (alive) setPoints(new Map(p.points.map((pt) => [pt.locus_id, { x: pt.x, y: pt.y }])));
        })
        .catch(() => undefined); // keep the last picture; the flow layout stays usable
    }, 250);
    return () => {
      alive = false;
      clearTimeout(t);
    };
  }, [sessionId, enabled, lociCount, fitKey]);
  return enabled ? points : null;
}
