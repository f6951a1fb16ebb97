// The semantic (UMAP) layout: loci where the wander's stored projection puts them, scaled
// to the map's viewport; the nodes hanging off a locus (candidates, crystals, sub-wanders,
// loci found since the projection was read) keep their offset from it; a switch between
// layouts animates every node from where it is shown to where it goes.
import { useEffect, useRef, useState } from "react";
import type { LayoutNode, Point } from "./types";

export type LayoutMode = "flow" | "semantic";

/** The map's size in px (its container). */
export interface Box {
  width: number;
  height: number;
}

/** Pixels per projection unit on each axis. */
export interface Scale {
  sx: number;
  sy: number;
}

/** Room around the picture, px. */
const MARGIN = 60;
/** At least this many square px per locus (about 150 px between neighbours). */
const AREA_PER_LOCUS = 150 * 150;
const DEFAULT_BOX: Box = { width: 1000, height: 700 };

/**
 * How far one projection unit reaches on screen. The projection spans [-1, 1] on its larger
 * axis, so at this scale it fills the viewport (less a margin) at zoom 1 and keeps the
 * viewport's proportions; with many loci it grows past the viewport (the same proportions)
 * until each locus has about 150 × 150 px, and the view zooms out to fit.
 */
export function semanticScale(n: number, box: Box | null = null): Scale {
  const b = box && box.width > 0 && box.height > 0 ? box : DEFAULT_BOX;
  const hx = Math.max(120, b.width / 2 - MARGIN);
  const hy = Math.max(120, b.height / 2 - MARGIN);
  const grow = Math.max(1, Math.sqrt((AREA_PER_LOCUS * Math.max(0, n)) / (4 * hx * hy)));
  return { sx: hx * grow, sy: hy * grow };
}

/** A projected point on screen (the projection's y grows upwards, the screen's downwards). */
export function toScreen(p: Point, scale: Scale): Point {
  return { x: p.x * scale.sx, y: p.y === 0 ? 0 : -p.y * scale.sy };
}

/**
 * Target positions in the semantic layout for every node the flow layout placed (`flow`):
 * projected loci at their projected point; anything else (ghost candidates, crystals,
 * sub-wanders, loci not projected yet) at its nearest projected ancestor's point plus half
 * its flow-layout offset from that ancestor; with no projected ancestor, where flow put it.
 */
export function semanticTargets(
  flow: Map<string, Point>,
  projection: Map<string, Point>,
  parents: Record<string, string | null | undefined>,
  scale: Scale,
): Map<string, Point> {
  const out = new Map<string, Point>();
  for (const [id, f] of flow) {
    const own = projection.get(id);
    if (own) {
      out.set(id, toScreen(own, scale));
      continue;
    }
    let anc = parents[id] ?? null;
    const seen = new Set<string>([id]);
    while (anc && !projection.has(anc) && !seen.has(anc)) {
      seen.add(anc);
      anc = parents[anc] ?? null;
    }
    const ap = anc ? projection.get(anc) : undefined;
    const af = anc ? flow.get(anc) : undefined;
    if (!ap || !af) {
      out.set(id, f);
      continue;
    }
    const a = toScreen(ap, scale);
    out.set(id, { x: a.x + (f.x - af.x) * 0.5, y: a.y + (f.y - af.y) * 0.5 });
  }
  return out;
}

/** Each layout node's parent, for `semanticTargets`. */
export function parentsOf(nodes: LayoutNode[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const n of nodes) out[n.id] = n.parentId;
  return out;
}

/** Ease in and out (quadratic): 0 → 0, 0.5 → 0.5, 1 → 1. */
export function ease(k: number): number {
  const t = Math.min(1, Math.max(0, k));
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

/**
 * The picture a fraction `k` (0..1, already eased) of the way from `from` to `to`: every
 * node of `to` on the straight line between the two; a node `from` did not show appears at
 * its destination.
 */
export function interpolate(from: Map<string, Point>, to: Map<string, Point>, k: number): Map<string, Point> {
  const out = new Map<string, Point>();
  for (const [id, p] of to) {
    const a = from.get(id);
    out.set(id, a ? { x: a.x + (p.x - a.x) * k, y: a.y + (p.y - a.y) * k } : p);
  }
  return out;
}

/** The frame of a transition of `ms` milliseconds, `elapsed` ms after it began (eased). */
export function frameAt(from: Map<string, Point>, to: Map<string, Point>, elapsed: number, ms: number): Map<string, Point> {
  return interpolate(from, to, ease(ms > 0 ? elapsed / ms : 1));
}

/** How long a switch between layouts takes. */
export const TRANSITION_MS = 500;
/** Past this many nodes, a switch jumps instead of animating (a frame per node set is too slow). */
const ANIMATE_UP_TO = 2500;

/**
 * `target`, animated: whenever `key` changes (a switch of layout, a new projection fetched),
 * every node glides for `ms` from where it was shown to its new target. A target that
 * changes during a transition (a locus arrives) becomes its new end; a target that changes
 * with the same key (the flow layout growing) is shown at once.
 */
export function useAnimatedPositions(target: Map<string, Point>, key: string, ms = TRANSITION_MS): Map<string, Point> {
  const shown = useRef(target);
  const lastKey = useRef(key);
  const run = useRef<{ from: Map<string, Point>; t0: number } | null>(null);
  const [frame, setFrame] = useState<Map<string, Point> | null>(null);
  useEffect(() => {
    const switched = lastKey.current !== key;
    lastKey.current = key;
    if (switched && typeof requestAnimationFrame !== "undefined" && target.size <= ANIMATE_UP_TO && ms > 0) {
      run.current = { from: shown.current, t0: performance.now() };
    }
    const r = run.current;
    if (!r) {
      shown.current = target;
      setFrame(null);
      return;
    }
    let raf = 0;
    const tick = () => {
      const elapsed = performance.now() - r.t0;
      if (elapsed >= ms) {
        run.current = null;
        shown.current = target;
        setFrame(null);
        return;
      }
      const m = frameAt(r.from, target, elapsed, ms);
      shown.current = m;
      setFrame(m);
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [target, key, ms]);
  // The render right after a switch, before the effect starts the transition: keep showing
  // what was shown (else every node would flash at its destination for one frame).
  if (lastKey.current !== key && target.size <= ANIMATE_UP_TO && ms > 0) return shown.current;
  return frame ?? target;
}
