// What a person's pointer does on the map: click a locus (select; shift: compare), a ghost
// candidate (go here next), a crystal (open it), a sub-wander (enter it); right-click a
// locus (its menu); drag a node onto the current locus (plant it as a hint) or anywhere
// else (pin it). On a large map the loci are on a canvas: the one under the pointer is
// found by where it is (pickLocus) and held by React Flow while hovered.
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type MouseEvent as ReactMouseEvent, type RefObject, type SetStateAction } from "react";
import { useReactFlow, type Node, type NodeChange, type NodeMouseHandler, type OnNodeDrag } from "@xyflow/react";
import { commands } from "../api/commands";
import { navigate } from "../router";
import { useWander } from "../store";
import type { LayoutMode } from "./layout/semantic";
import type { Point, Positions } from "./layout/types";
import { savePin } from "./layout/pins";
import { locusRadius } from "./palette";
import { pickLocus } from "./pickLocus";

export interface MapHands {
  /** The locus on the canvas under a free pointer (React Flow holds it). */
  hovered: string | null;
  onNodeClick: NodeMouseHandler<Node>;
  onNodeContextMenu: NodeMouseHandler<Node>;
  onNodesChange: (changes: NodeChange[]) => void;
  onNodeDragStop: OnNodeDrag<Node>;
  onPaneClick: (e: ReactMouseEvent) => void;
  onPaneContextMenu: (e: ReactMouseEvent | MouseEvent) => void;
}

/** `setDragging`: where the nodes being dragged are (React Flow is controlled: the map moves them). */
export function useMapHands(
  box: RefObject<HTMLDivElement | null>,
  big: boolean,
  positions: Positions,
  shown: LayoutMode,
  pin: (id: string, at: Point) => void,
  setDragging: Dispatch<SetStateAction<Record<string, Point>>>,
): MapHands {
  const rf = useReactFlow();
  // (read when a pointer acts: the handlers stay the same objects while the map grows)
  const at = useRef(positions);
  at.current = positions;
  /** The locus on the canvas under a pointer (within `slack` screen px of its disc). */
  const canvasLocusAt = useCallback(
    (e: { clientX: number; clientY: number }, slack: number) =>
      big ? pickLocus(useWander.getState().graph, at.current, rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }), slack / rf.getZoom()) : null,
    [rf, big],
  );
  const hovered = useHover(box, big, canvasLocusAt);
  const hands = useMemo(() => {
    const menuAt = (e: { clientX: number; clientY: number }, locusId: string) => {
      const r = box.current?.getBoundingClientRect();
      useWander.getState().openMenu({ locusId, x: e.clientX - (r?.left ?? 0), y: e.clientY - (r?.top ?? 0) });
    };
    const out: Omit<MapHands, "hovered"> = {
      onNodeClick,
      onNodeContextMenu: (e, node) => {
        if (node.type !== "locus") return;
        e.preventDefault();
        menuAt(e, node.id);
      },
      onNodesChange: (changes) => {
        const moved: Record<string, Point> = {};
        for (const c of changes) if (c.type === "position" && c.position && c.dragging) moved[c.id] = c.position;
        if (Object.keys(moved).length) setDragging((d) => ({ ...d, ...moved }));
      },
      onNodeDragStop: (_e, node) => {
        setDragging({});
        dropped(node, at.current, shown, pin);
      },
      onPaneClick: (e) => {
        const st = useWander.getState();
        st.openMenu(null);
        // the loci on the canvas are picked by where the click fell
        const id = canvasLocusAt(e, 6);
        if (id && e.shiftKey) st.selectSecond(id);
        else st.select(id);
      },
      onPaneContextMenu: (e) => {
        e.preventDefault();
        const id = canvasLocusAt(e, 6);
        if (id) menuAt(e, id);
      },
    };
    return out;
  }, [box, canvasLocusAt, shown, pin, setDragging]);
  return { hovered, ...hands };
}

const onNodeClick: NodeMouseHandler<Node> = (e, node) => {
  const st = useWander.getState();
  st.openMenu(null);
  if (node.type === "locus") {
    if (e.shiftKey) st.selectSecond(node.id);
    else st.select(node.id);
  } else if (node.type === "ghost") {
    // "click to guide" (001): the dashed candidate becomes the next step's destination
    const concept = (node.data as { concept: string }).concept;
    if (st.graph.sessionId) void commands.inject(st.graph.sessionId, concept, true);
  } else if (node.type === "crystal") {
    st.openCrystal(node.id.slice("crystal:".length));
  } else if (node.type === "subwander") {
    navigate(`/sessions/${encodeURIComponent(node.id.slice("sub:".length))}`);
  }
};

/** "Drag to hint" (001): dropped on the current locus, a node is planted as a hint; a locus
 * dropped anywhere else stays where it was put (pinned, for this browser). */
function dropped(node: Node, positions: Positions, shown: LayoutMode, pin: (id: string, at: Point) => void): void {
  const st = useWander.getState();
  const sid = st.graph.sessionId;
  const curId = st.graph.currentLocusId;
  const cur = curId ? positions.get(curId) : undefined;
  const w = node.width ?? node.measured?.width ?? 0;
  const h = node.height ?? node.measured?.height ?? 0;
  const centre = { x: node.position.x + w / 2, y: node.position.y + h / 2 };
  const curR = cur && curId ? locusRadius(st.graph.loci[curId]?.visit_count ?? 1) : 0;
  if (sid && cur && node.id !== curId && Math.hypot(centre.x - cur.x, centre.y - cur.y) <= curR + Math.max(w, h) / 2 + 6) {
    const concept = (node.data as { concept: string }).concept;
    void commands.inject(sid, concept, false);
    return;
  }
  if (node.type !== "locus") return;
  if (shown === "semantic") {
    // the semantic layout places loci by meaning: a locus dropped there goes back
    st.say("ok", "Pins hold in the Flow layout; the semantic layout places loci by meaning");
    return;
  }
  pin(node.id, centre);
  savePin(sid, node.id, centre);
  st.say("ok", `Pinned “${(node.data as { concept: string }).concept}”`);
}

/** On a large map the locus under a free pointer (not while a button is down: a pan, or that
 * node being dragged). */
function useHover(box: RefObject<HTMLDivElement | null>, big: boolean, locusAt: (e: PointerEvent, slack: number) => string | null): string | null {
  const [hovered, setHovered] = useState<string | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || !big) return;
    const move = (e: PointerEvent) => {
      if (e.buttons) return;
      const onMap = e.target instanceof Element && e.target.closest(".react-flow__pane, .react-flow__node");
      setHovered(onMap ? locusAt(e, 2) : null);
    };
    const leave = () => setHovered(null);
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerleave", leave);
    return () => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerleave", leave);
      setHovered(null);
    };
  }, [box, big, locusAt]);
  return hovered;
}
