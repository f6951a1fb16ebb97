import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  Background,
  BackgroundVariant,
  ConnectionMode,
  getNodesBounds,
  getViewportForBounds,
  MiniMap,
  ReactFlow,
  useReactFlow,
  useStore,
  useStoreApi,
  type Node,
  type NodeChange,
  type NodeMouseHandler,
  type OnNodeDrag,
  type Viewport,
} from "@xyflow/react";
import { commands } from "../api/commands";
import { navigate } from "../router";
import { adjacencyView, useWander } from "../store";
import { edgeTypes } from "./edges";
import { flowEdges, flowNodes, layoutInput, layoutInputCache, type FlowCache, type MapExtras } from "./flow";
import { fractalEdges, fractalNodes } from "./fractals";
import { IncrementalLayout, type Point } from "./layout/force";
import { parentsOf, semanticScale, semanticTargets, useAnimatedPositions, type Box, type LayoutMode } from "./layout/semantic";
import { useProjection } from "./layout/useProjection";
import { LayoutSwitch } from "../panels/LayoutSwitch";
import { nodeTypes } from "./nodes";
import { LocusMenu } from "./ContextMenu";
import { MapSearch, NoticeLine } from "./MapOverlays";
import { FarCanvas, flowPart, LABEL_ZOOM, type FarPicture } from "./FarCanvas";
import { pickLocus } from "./pickLocus";
import { FOLLOW_ZOOM, keepsView } from "./followSlack";
import { BigMiniMap } from "./BigMiniMap";
import { Overview } from "./Overview";
import { OVERVIEW_FROM, regionsOf, type Region } from "./overview";
import { candidatesGraph, previewKey, useNextCandidates } from "./nextCandidates";
import { AttractorMark } from "./AttractorMark";

const NO_REGIONS: Region[] = [];
import { locusRadius } from "./palette";
import { ViewHold } from "./viewHold";
import { handOnMap } from "../handOnMap";

/** Past this many nodes, the loci are drawn on a canvas (see FarCanvas). */
const CANVAS_ABOVE = 300;
const pinKey = (sid: string | null) => `wander:pins:${sid ?? ""}`;

function loadPins(sid: string | null): Record<string, Point> {
  try {
    return JSON.parse(localStorage.getItem(pinKey(sid)) ?? "{}") as Record<string, Point>;
  } catch {
    return {};
  }
}

/** Below this zoom labels are too small to read: follow the current locus instead of fitting all. */
const READABLE_ZOOM = 0.75;
/** Room the semantic layout's fit leaves for the map's tools (top left), the legend's toggle (top right) and the minimap. */
const SEMANTIC_PADDING = { top: "80px", left: "40px", bottom: "60px", right: "120px" } as const;

/**
 * The mind map of the open session (live, or an archive at a step). Must be inside a
 * <ReactFlowProvider>. `layout`/`onLayout`: the "Flow" / "Semantic (UMAP)" switch when the
 * page keeps it (the archive view keeps it in its URL); else the map keeps it itself.
 */
export function MindMap({ layout: layoutProp, onLayout }: { layout?: LayoutMode; onLayout?: (m: LayoutMode) => void } = {}) {
  const graph = useWander((s) => s.graph);
  const selectedId = useWander((s) => s.selectedId);
  const select = useWander((s) => s.select);
  const fences = useWander((s) => s.graph.fences);
  const highlight = useWander((s) => s.highlight);
  const crystalId = useWander((s) => s.crystalId);
  const compareId = useWander((s) => s.compareId);
  const focus = useWander((s) => s.focus);
  const [ownMode, setOwnMode] = useState<LayoutMode>("flow");
  const mode = layoutProp ?? ownMode;
  const setMode = onLayout ?? setOwnMode;
  const layout = useRef<IncrementalLayout | null>(null);
  const layoutFor = useRef<string | null>(null);
  if (!layout.current || layoutFor.current !== graph.sessionId) {
    layout.current = new IncrementalLayout();
    layoutFor.current = graph.sessionId;
    for (const [id, p] of Object.entries(loadPins(graph.sessionId))) layout.current.pin(id, p);
  }
  const [pinRev, setPinRev] = useState(0);
  /** Positions of nodes being dragged (React Flow is controlled: we move them). */
  const [dragging, setDragging] = useState<Record<string, Point>>({});

  // The dashed candidates: on a live wander that can step, the next step's from the current
  // locus (the engine's preview); else the last step's (an archive, a wander that is over).
  const conn = useWander((s) => s.conn);
  const events = useWander((s) => s.log.length);
  const wantPreview = previewKey(graph, conn, events);
  const preview = useNextCandidates(wantPreview);
  const fan = candidatesGraph(graph, wantPreview !== null, preview);
  const adj = useMemo(() => adjacencyView(fan.graph), [fan.graph.adjacency, graph.order, graph.path, graph.loci]); // eslint-disable-line react-hooks/exhaustive-deps
  const ghostKey = adj.ghosts.map((g) => g.id).join(",");
  const pathKey = graph.path.length;

  // The layout runs only when the set of nodes changes (new locus, new candidates).
  const inputCache = useRef(layoutInputCache());
  const input = useMemo(
    () => layoutInput(graph, adj.ghosts, undefined, inputCache.current),
    [graph.order, ghostKey, pathKey, graph.sessionId, graph.crystalOrder, graph.subwanderOrder], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const flowPositions = useMemo(() => layout.current!.update(input.nodes, input.links), [input, pinRev]); // eslint-disable-line react-hooks/exhaustive-deps

  // The semantic (UMAP) layout: the stored projection scaled to the map's box; until it
  // has come, the flow layout stays on screen.
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Box | null>(null);
  const projection = useProjection(graph.sessionId, mode === "semantic", graph.order);
  const semantic = mode === "semantic" && projection.points !== null;
  const target = useMemo(() => {
    if (!semantic || !projection.points) return flowPositions;
    return semanticTargets(flowPositions, projection.points, parentsOf(input.nodes), semanticScale(projection.points.size, size));
  }, [semantic, projection.points, flowPositions, input, size]);
  // a switch of layout, or a new picture of the projection, glides; the flow layout growing does not
  const shownLayout: LayoutMode = semantic ? "semantic" : "flow";
  const animKey = semantic ? `semantic:${projection.fitId}:${projection.points?.size}` : "flow";
  const positions = useAnimatedPositions(target, animKey);

  const extras: MapExtras = useMemo(
    () => ({ fences, highlight: new Set(highlight), crystalId, compareId }),
    [fences, highlight, crystalId, compareId],
  );
  const nodeCache = useRef<FlowCache>(new Map());
  const edgeCache = useRef<FlowCache>(new Map());
  const proposals = useWander((s) => s.proposals);
  // (the flow layout's map grows in place while nodes are only added: its size says when)
  const fractals = useMemo(() => fractalNodes(proposals, positions), [proposals, positions, positions.size]); // eslint-disable-line react-hooks/exhaustive-deps
  const laidOut = useMemo(
    () => {
      const ns = flowNodes(graph, adj.ghosts, positions, selectedId, nodeCache.current, extras);
      return fractals.length ? ns.concat(fractals) : ns;
    },
    [graph, adj, positions, selectedId, extras, fractals],
  );
  const nodes = useMemo(() => {
    const ids = Object.keys(dragging);
    if (!ids.length) return laidOut;
    return laidOut.map((n) => {
      const p = dragging[n.id];
      return p ? { ...n, position: p, dragging: true } : n;
    });
  }, [laidOut, dragging]);
  const edges = useMemo(
    () => {
      const es = flowEdges(graph, adj.edges, edgeCache.current, extras);
      return fractals.length ? es.concat(fractalEdges(fractals)) : es;
    },
    [graph, adj, extras, fractals],
  );

  // A large map draws its loci and the walk's edges on a canvas, at every zoom: React Flow
  // keeps what is marked or interactive (see FarCanvas), and the locus under the pointer, so
  // that it can be dragged (a pin, a hint) and shows its title.
  const big = nodes.length > CANVAS_ABOVE;
  const labelsOff = useStore((s) => s.transform[2] < LABEL_ZOOM);
  const [hovered, setHovered] = useState<string | null>(null);
  // (the locus the latest step left too: React Flow draws that step, marked as the latest)
  const latestFrom = graph.path.length ? graph.path[graph.path.length - 1].source : null;
  const onTopKey = [graph.currentLocusId, latestFrom, selectedId, compareId, ...highlight, ...Object.keys(graph.hints), ...Object.keys(dragging)].join(",");
  const onTop = useMemo(() => new Set(onTopKey.split(",").filter(Boolean)), [onTopKey]);
  // (the hovered locus's node covers its disc on the canvas: the canvas is not redrawn for it)
  // While a backlog replays (the first connection, a reconnection) the canvas keeps the picture
  // it has: the replay comes in batches, and a redraw for each (30-70 ms with labels) held up
  // the next batch (catch-up of 5,000 loci 3.3 s against 2 s).
  const backlog = useWander((s) => s.conn === "connecting");
  // The far-zoom overview's regions (see overview.ts): on the canvas of a large map (an image:
  // a pan costs nothing more), else drawn by Overview; their labels by Overview either way.
  const overviewOn = labelsOff && graph.order.length >= OVERVIEW_FROM;
  const regions = useMemo(
    () => (overviewOn ? regionsOf(graph, positions) : NO_REGIONS),
    [overviewOn, graph.order.length, graph.sessionId, positions, positions.size], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const [picHold] = useState(() => ({ pic: null as FarPicture | null }));
  const farPic: FarPicture | null = useMemo(() => {
    if (!big) return (picHold.pic = null);
    const held = picHold.pic;
    if (backlog && held && held.graph.sessionId === graph.sessionId) return held;
    return (picHold.pic = { graph, positions, onTop, regions });
  }, [big, backlog, graph, positions, onTop, picHold, regions]);
  // A large map that comes at once (the backlog of a long walk) is first shown where the
  // follow puts the view.
  const [placedFor, setPlacedFor] = useState<string | null | undefined>(undefined);
  const placed = placedFor === graph.sessionId;
  const placing = big && !placed;
  const shown = useMemo(
    () => (big ? flowPart(nodes, edges, (id) => onTop.has(id) || id === hovered) : { nodes, edges }),
    [big, nodes, edges, onTop, hovered],
  );

  // Follow the walk: fit the whole map while it is small enough to read; past that, keep
  // the current locus in the middle at a readable zoom. A person panning or zooming turns
  // following off; "Fit & follow" turns it back on. The view moves only when the current
  // locus changes (a step; a switch of layout takes it elsewhere), on the first placement,
  // on "Fit & follow" and when the map is resized: not for every batch of events (new
  // candidates, a crystal forming), and never under a person's hand (see ViewHold).
  const rf = useReactFlow();
  const flowStore = useStoreApi();
  const [follow, setFollow] = useState(true);
  /** "Whole map" is on: the view keeps fitting the whole map as it changes (a step, the
   * archive's timeline), until a person moves it or turns following on. */
  const [whole, setWhole] = useState(false);
  const moveStart = useRef<Viewport | null>(null);
  const hold = useMemo(() => new ViewHold(), []);
  /** When the glide that following started last ends (performance.now()). */
  const glideEnd = useRef(0);
  const followOn = useRef(follow);
  followOn.current = follow;
  // Following looks at where the nodes are going (during a switch of layout, the view
  // moves with them).
  const currentPos = graph.currentLocusId ? target.get(graph.currentLocusId) : undefined;
  const followKey = `${graph.sessionId}|${graph.currentLocusId}|${animKey}`;
  // While following, the current locus is not draggable: a drag that starts on it pans the map
  // (it pinned the locus the view was about to move to). Off following, it can be pinned.
  const curId = graph.currentLocusId;
  const flowNodesShown = useMemo(() => {
    if (!follow || !curId) return shown.nodes;
    const i = shown.nodes.findIndex((n) => n.id === curId);
    if (i < 0) return shown.nodes;
    const out = shown.nodes.slice();
    out[i] = { ...out[i], draggable: false };
    return out;
  }, [shown.nodes, follow, curId]);
  const view = useRef({ nodes, positions, target, currentPos, semantic });
  useEffect(() => {
    // the benchmark's hook (bench/mindmap_probe.mjs): the same view run after run
    window.__wanderViewMiddle = (zoom) => {
      const b = getNodesBounds(view.current.nodes);
      void rf.setCenter(b.x + b.width / 2, b.y + b.height / 2, { zoom });
    };
    // the e2e tests' hook (e2e/tests/largemap.spec.ts): where a locus is on the screen, drawn
    // on the canvas or not
    window.__wanderLocusAt = (id) => {
      const p = view.current.positions.get(id);
      return p ? rf.flowToScreenPosition(p) : null;
    };
    return () => {
      delete window.__wanderViewMiddle;
      delete window.__wanderLocusAt;
    };
  }, [rf]);
  view.current = { nodes, positions, target, currentPos, semantic };
  const moveView = useCallback(
    (asked: number) => {
      const el = box.current;
      const { nodes: shown, positions: at, target: to, currentPos: cur, semantic: bySense } = view.current;
      if (!el || shown.length === 0) return;
      const duration = glideFor(shown.length, asked);
      const ns = at === to ? shown : shown.map((n) => destined(n, at, to));
      const b = getNodesBounds(ns);
      const pad = 140;
      const fitZoom = Math.min(el.clientWidth / (b.width + pad), el.clientHeight / (b.height + pad));
      glideEnd.current = duration > 0 ? performance.now() + duration : 0;
      // (the semantic layout is a picture of the whole wander, scaled to the box: it is fitted
      // whole, never followed at a reading zoom, which left most of it out of the view)
      if (fitZoom >= READABLE_ZOOM || !cur || bySense) {
        // the semantic picture fills the whole box: keep it clear of the tools, legend and minimap
        const padding = bySense ? SEMANTIC_PADDING : 0.2;
        void rf.setViewport(getViewportForBounds(b, el.clientWidth, el.clientHeight, 0.02, 1.3, padding), { duration });
      } else void rf.setCenter(cur.x, cur.y, { zoom: FOLLOW_ZOOM, duration });
    },
    [rf],
  );
  /** Moves the view to what following shows, once no pointer holds it (`now`: at once, for a
   * person's own "Fit & follow"). */
  const followView = useCallback(
    (duration = 350, now = false) => {
      if (now) {
        hold.cancel();
        moveView(duration);
      } else hold.run(() => moveView(duration));
    },
    [hold, moveView],
  );
  // A pointer pressed on the map holds the view (and stops a glide that is under way: it goes
  // on once the view is free again).
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const down = (e: PointerEvent) => {
      if (!(e.target instanceof Element) || !e.target.closest(".react-flow")) return;
      hold.press(e.pointerId);
      handOnMap.press(e.pointerId); // (the live feed gathers a run's steps meanwhile)
      if (performance.now() < glideEnd.current) {
        glideEnd.current = 0;
        void rf.setViewport(rf.getViewport()); // (a move of no duration interrupts the glide)
        if (followOn.current) hold.run(() => moveView(150));
      }
    };
    const up = (e: PointerEvent) => {
      hold.release(e.pointerId);
      handOnMap.release(e.pointerId);
    };
    const blur = () => {
      hold.releaseAll();
      handOnMap.releaseAll();
    };
    el.addEventListener("pointerdown", down, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
    window.addEventListener("blur", blur);
    return () => {
      el.removeEventListener("pointerdown", down, true);
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      window.removeEventListener("blur", blur);
      hold.cancel();
      handOnMap.releaseAll();
    };
  }, [hold, rf, moveView]);
  useEffect(() => {
    if (!follow) hold.cancel();
  }, [follow, hold]);
  /** Fit the whole map. Not React Flow's fitView: it sees only the nodes React Flow holds (not
   * the canvas's), and it only queues the fit, which on a 300-step map (238 loci) never ran:
   * the view stayed where it was. */
  const wholeMap = useCallback(
    (asked = 350) => {
      const el = box.current;
      const { nodes: shown, positions: at, target: to, semantic: bySense } = view.current;
      if (!el || shown.length === 0) return;
      // where the nodes are going (a switch of layout, a new projection glides them there)
      const ns = at === to ? shown : shown.map((n) => destined(n, at, to));
      const padding = bySense ? SEMANTIC_PADDING : 0.15;
      void rf.setViewport(getViewportForBounds(getNodesBounds(ns), el.clientWidth, el.clientHeight, 0.02, 3, padding), { duration: glideFor(shown.length, asked) });
    },
    [rf],
  );
  // Whole map on: the map changed (a step, a move of the archive's timeline), fit it again.
  const wholeKey = `${graph.sessionId}|${nodes.length}|${graph.currentLocusId}|${animKey}`;
  useEffect(() => {
    if (!whole) return;
    const t = setTimeout(() => hold.run(() => wholeMap(250)), 30);
    return () => clearTimeout(t);
  }, [whole, wholeKey, hold, wholeMap]);
  // A new semantic picture (the switch to it, a refit) is fitted whole, whatever the view was
  // doing: the picture is placed by the projection, not where the person last looked.
  useEffect(() => {
    if (!semantic || follow || whole) return; // (following and Whole map fit it themselves)
    const t = setTimeout(() => hold.run(() => wholeMap(350)), 30);
    return () => clearTimeout(t);
  }, [animKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const nodeCount = nodes.length;
  useLayoutEffect(() => {
    if (placed || nodeCount === 0) return;
    if (placing && follow) followView(0); // before the first paint
    setPlacedFor(graph.sessionId);
  }, [placed, placing, nodeCount, follow, followView, graph.sessionId]);
  // A large map whose walk steps off the screen (on from an earlier, far locus) jumps there
  // before the step is painted: the new locus shows at once, and a glide across the map
  // would mount and drop every area it passes over.
  const jumpedFor = useRef<string | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!follow || !placed || nodeCount <= CANVAS_ABOVE || !currentPos || !el || hold.held) return;
    const { x, y, zoom } = rf.getViewport();
    const sx = currentPos.x * zoom + x;
    const sy = currentPos.y * zoom + y;
    if (sx >= 0 && sy >= 0 && sx <= el.clientWidth && sy <= el.clientHeight) return;
    followView(0);
    jumpedFor.current = followKey;
  }, [followKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const hasNodes = nodeCount > 0;
  useEffect(() => {
    if (!follow || !hasNodes) return;
    if (jumpedFor.current === followKey) return; // there already
    // a large map moves only once the walk nears the edge of the view (see followSlack)
    if (nodeCount > CANVAS_ABOVE && currentPos) {
      const { width, height } = flowStore.getState(); // the pane's size, as React Flow measured it
      if (keepsView(currentPos, rf.getViewport(), width, height)) return;
    }
    // (a large map jumps, a small one glides: see glideFor)
    const t = setTimeout(() => followView(350), 30);
    return () => clearTimeout(t);
  }, [followKey, hasNodes]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let t: ReturnType<typeof setTimeout> | undefined;
    const ro = new ResizeObserver(() => {
      clearTimeout(t);
      t = setTimeout(() => {
        setSize((s) => (s && Math.abs(s.width - el.clientWidth) < 40 && Math.abs(s.height - el.clientHeight) < 40 ? s : { width: el.clientWidth, height: el.clientHeight }));
        if (follow) followView(200);
      }, 60);
    });
    ro.observe(el);
    return () => {
      clearTimeout(t);
      ro.disconnect();
    };
  }, [follow, followView]);

  useEffect(() => {
    if (!focus) return;
    const p = positions.get(focus.id);
    if (!p) return;
    setFollow(false);
    // after a side panel that opens with it has resized the map
    const t = setTimeout(() => void rf.setCenter(p.x, p.y, { zoom: Math.max(rf.getZoom(), 0.9), duration: glideFor(view.current.nodes.length, 300) }), 80);
    return () => clearTimeout(t);
  }, [focus]); // eslint-disable-line react-hooks/exhaustive-deps

  const onNodeClick: NodeMouseHandler<Node> = useCallback(
    (e, node) => {
      const st = useWander.getState();
      st.openMenu(null);
      if (node.type === "locus") {
        if (e.shiftKey) st.selectSecond(node.id);
        else select(node.id);
      } else if (node.type === "ghost") {
        // "click to guide" (001): the dashed candidate becomes the next step's destination
        const concept = (node.data as { concept: string }).concept;
        if (st.graph.sessionId) void commands.inject(st.graph.sessionId, concept, true);
      } else if (node.type === "crystal") {
        st.openCrystal(node.id.slice("crystal:".length));
      } else if (node.type === "subwander") {
        navigate(`/sessions/${encodeURIComponent(node.id.slice("sub:".length))}`);
      }
    },
    [select],
  );
  /** The locus on the canvas under a pointer (within `slack` screen px of its disc). */
  const canvasLocusAt = useCallback(
    (e: { clientX: number; clientY: number }, slack: number) =>
      pickLocus(useWander.getState().graph, view.current.positions, rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }), slack / rf.getZoom()),
    [rf],
  );
  // On a large map the locus under a free pointer becomes a node (not while a button is down:
  // a pan, or that node being dragged).
  useEffect(() => {
    const el = box.current;
    if (!el || !big) return;
    const move = (e: PointerEvent) => {
      if (e.buttons) return;
      const onMap = e.target instanceof Element && e.target.closest(".react-flow__pane, .react-flow__node");
      setHovered(onMap ? canvasLocusAt(e, 2) : null);
    };
    const leave = () => setHovered(null);
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerleave", leave);
    return () => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerleave", leave);
      setHovered(null);
    };
  }, [big, canvasLocusAt]);
  const onNodeContextMenu: NodeMouseHandler<Node> = useCallback((e, node) => {
    if (node.type !== "locus") return;
    e.preventDefault();
    const r = box.current?.getBoundingClientRect();
    useWander.getState().openMenu({ locusId: node.id, x: e.clientX - (r?.left ?? 0), y: e.clientY - (r?.top ?? 0) });
  }, []);
  const onNodesChange = useCallback((changes: NodeChange[]) => {
    const moved: Record<string, Point> = {};
    for (const c of changes) if (c.type === "position" && c.position && c.dragging) moved[c.id] = c.position;
    if (Object.keys(moved).length) setDragging((d) => ({ ...d, ...moved }));
  }, []);
  // "drag to hint" (001): dropped on the current locus, a node is planted as a hint; a locus
  // dropped anywhere else stays where it was put (pinned, for this browser).
  const onNodeDragStop: OnNodeDrag<Node> = useCallback(
    (_e, node) => {
      setDragging({});
      const st = useWander.getState();
      const sid = st.graph.sessionId;
      const cur = st.graph.currentLocusId ? positions.get(st.graph.currentLocusId) : undefined;
      const w = node.width ?? node.measured?.width ?? 0;
      const h = node.height ?? node.measured?.height ?? 0;
      const centre = { x: node.position.x + w / 2, y: node.position.y + h / 2 };
      const curR = cur && st.graph.currentLocusId ? locusRadius(st.graph.loci[st.graph.currentLocusId]?.visit_count ?? 1) : 0;
      if (sid && cur && node.id !== st.graph.currentLocusId && Math.hypot(centre.x - cur.x, centre.y - cur.y) <= curR + Math.max(w, h) / 2 + 6) {
        const concept = (node.data as { concept: string }).concept;
        void commands.inject(sid, concept, false);
        return;
      }
      if (node.type !== "locus") return;
      if (shownLayout === "semantic") {
        // the semantic layout places loci by meaning: a locus dropped there goes back
        st.say("ok", "Pins hold in the Flow layout; the semantic layout places loci by meaning");
        return;
      }
      layout.current!.pin(node.id, centre);
      const pins = loadPins(sid);
      pins[node.id] = centre;
      try {
        localStorage.setItem(pinKey(sid), JSON.stringify(pins));
      } catch {
        /* private mode: the pin lasts for this page */
      }
      st.say("ok", `Pinned “${(node.data as { concept: string }).concept}”`);
      setPinRev((n) => n + 1);
    },
    [positions, shownLayout],
  );
  return (
    <div
      className={`mindmap${labelsOff ? " lod-far" : ""}${big ? " is-large" : ""}`}
      data-testid="mindmap"
      data-layout={shownLayout}
      data-fit-id={semantic ? (projection.fitId ?? undefined) : undefined}
      ref={box}
    >
      <svg width="0" height="0" style={{ position: "absolute" }} aria-hidden>
        <defs>
          <marker id="wander-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#8b98b3" />
          </marker>
          <marker id="wander-arrow-latest" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#fde047" />
          </marker>
        </defs>
      </svg>
      <ReactFlow
        nodes={flowNodesShown}
        edges={shown.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick}
        onNodeContextMenu={onNodeContextMenu}
        onNodesChange={onNodesChange}
        onNodeDragStop={onNodeDragStop}
        onPaneClick={(e) => {
          const st = useWander.getState();
          st.openMenu(null);
          // the loci on the canvas are picked by where the click fell
          const id = big ? canvasLocusAt(e, 6) : null;
          if (id && e.shiftKey) st.selectSecond(id);
          else select(id);
        }}
        onPaneContextMenu={(e) => {
          e.preventDefault();
          const id = big ? canvasLocusAt(e, 6) : null;
          const r = box.current?.getBoundingClientRect();
          if (id) useWander.getState().openMenu({ locusId: id, x: e.clientX - (r?.left ?? 0), y: e.clientY - (r?.top ?? 0) });
        }}
        onMoveStart={(e, vp) => {
          moveStart.current = e ? vp : null;
        }}
        onMoveEnd={(e, vp) => {
          const st = moveStart.current;
          moveStart.current = null;
          // a person moved the view (a click on the pane starts a "move" that goes nowhere)
          if (e && st && (Math.abs(st.x - vp.x) > 2 || Math.abs(st.y - vp.y) > 2 || Math.abs(st.zoom - vp.zoom) > 1e-3)) {
            setFollow(false);
            setWhole(false);
          }
        }}
        nodesDraggable
        nodeDragThreshold={3}
        // a click whose pointer slips a pixel or two before the release is still a click
        // (React Flow's default 0 dropped it: a shaky select, compare or pick on the canvas)
        nodeClickDistance={3}
        paneClickDistance={3}
        nodesConnectable={false}
        connectionMode={ConnectionMode.Loose}
        elementsSelectable
        minZoom={0.02}
        maxZoom={3}
        proOptions={{ hideAttribution: true }}
        colorMode="dark"
      >
        {/* a large map has no dot grid: it is drawn anew at every frame of a pan (its pattern
            moves with the view), which doubled the frame time of the canvas's pan */}
        {big ? null : <Background variant={BackgroundVariant.Dots} gap={28} size={1.2} color="#253049" />}
        {farPic ? <FarCanvas pic={farPic} /> : null}
        <Overview graph={graph} positions={positions} regions={regions} shapes={!big} />
        <AttractorMark graph={graph} positions={positions} />
        {big ? (
          <BigMiniMap graph={graph} positions={positions} currentId={graph.currentLocusId} />
        ) : (
          <MiniMap pannable zoomable position="bottom-right" nodeColor={miniColour} maskColor="rgba(8, 12, 20, 0.65)" ariaLabel="minimap" />
        )}
      </ReactFlow>
      <div className="map-tools">
        <button
          type="button"
          className={follow ? "tool is-on" : "tool"}
          onClick={() => {
            setFollow(true);
            setWhole(false);
            followView(350, true);
          }}
          title="Fit the whole walk and follow it as it grows"
        >
          {follow ? "Following" : "Fit & follow"}
        </button>
        <button
          type="button"
          className={whole ? "tool is-on" : "tool"}
          aria-pressed={whole}
          onClick={() => {
            setFollow(false);
            setWhole(true);
            wholeMap();
          }}
          title="Show the whole walk, and keep showing it whole as it changes (instead of following the current locus)"
        >
          Whole map
        </button>
        <button type="button" className="tool" onClick={() => (setWhole(false), void rf.zoomIn({ duration: glideFor(view.current.nodes.length, 200) }))} title="Zoom in" aria-label="Zoom in">
          +
        </button>
        <button type="button" className="tool" onClick={() => (setWhole(false), void rf.zoomOut({ duration: glideFor(view.current.nodes.length, 200) }))} title="Zoom out" aria-label="Zoom out">
          −
        </button>
        <LayoutSwitch mode={mode} onChange={setMode} busy={mode === "semantic" && projection.loading && !semantic} error={mode === "semantic" ? projection.error : null} />
      </div>
      <MapSearch />
      <NoticeLine />
      {graph.sessionId ? <LocusMenu sessionId={graph.sessionId} /> : null}
      {graph.order.length === 0 ? <div className="map-empty">Waiting for the first events…</div> : null}
      <Legend next={fan.next} />
    </div>
  );
}

/**
 * How long a move of the view glides: `asked` on a small map; a large one (over
 * CANVAS_ABOVE nodes) jumps. A glide across a large map redraws the canvas for each area
 * it passes over (30-45 ms each with labels, see FarCanvas): it kept the page busy and events
 * that came meanwhile waited behind it. This holds for every move following makes
 * (a step, Fit & follow, a resize) and for Whole map and a search's focus.
 */
function glideFor(nodes: number, asked: number): number {
  return nodes > CANVAS_ABOVE ? 0 : asked;
}

function miniColour(n: Node): string {
  if (n.type === "crystal") return "#fbbf24";
  if (n.type === "subwander") return "#c084fc";
  if (n.type === "ghost") return "#334155";
  return (n.data as { current?: boolean }).current ? "#fde047" : "#64748b";
}

const LEGEND_KEY = "wander:legend";

/** The key to the map's marks: closed until a person opens it (it stays as they leave it).
 * Open, it lets clicks through to the nodes under it (only its toggle takes them). */
function Legend({ next }: { next: boolean }) {
  const [open, setOpenState] = useState(() => {
    try {
      return localStorage.getItem(LEGEND_KEY) === "open";
    } catch {
      return false;
    }
  });
  const setOpen = (o: boolean) => {
    setOpenState(o);
    try {
      localStorage.setItem(LEGEND_KEY, o ? "open" : "closed");
    } catch {
      /* private mode: for this page only */
    }
  };
  return (
    <div className={open ? "legend is-open" : "legend"} aria-label="legend" data-testid="legend">
      <button type="button" className="linklike small legend-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "legend ▾" : "legend ▸"}
      </button>
      {open ? (
        <>
          <span>
            <svg width="26" height="8">
              <line x1="0" y1="4" x2="26" y2="4" stroke="#8b98b3" strokeWidth="2" />
            </svg>
            path taken
          </span>
          <span>
            <svg width="26" height="10">
              <line x1="0" y1="2.5" x2="26" y2="2.5" stroke="#8b98b3" strokeWidth="1.6" />
              <line x1="0" y1="7.5" x2="26" y2="7.5" stroke="#8b98b3" strokeWidth="1.6" />
            </svg>
            bridge (crossed domains)
          </span>
          <span>
            <svg width="26" height="10">
              <line x1="0" y1="2.5" x2="26" y2="2.5" stroke="#d4a24c" strokeWidth="1.3" strokeDasharray="5 4" />
              <line x1="0" y1="7.5" x2="26" y2="7.5" stroke="#d4a24c" strokeWidth="1.3" strokeDasharray="5 4" />
            </svg>
            bridge between loci (near, across domains)
          </span>
          <span>
            <svg width="26" height="8">
              <line x1="0" y1="4" x2="26" y2="4" stroke="#7dd3fc" strokeWidth="1.5" strokeDasharray="4 4" />
            </svg>
            {next ? "the next step's candidates (click: go here next)" : "the last step's other candidates (click: go there next)"}
          </span>
          <span>
            <svg width="26" height="10">
              <path d="M0,5 Q3.25,0 6.5,5 T13,5 T19.5,5 T26,5" stroke="#c084fc" strokeWidth="1.6" fill="none" />
            </svg>
            resonance
          </span>
          <span>
            <span className="legend-dot is-current" /> current
          </span>
          <span>
            <span className="legend-diamond" /> crystal
          </span>
          <span>
            <span className="legend-sub" /> sub-wander
          </span>
          <span>
            <span className="legend-halo is-include" /> fence in
          </span>
          <span>
            <span className="legend-halo is-exclude" /> fence out
          </span>
          <span>✦ hint</span>
          <span>
            <span className="legend-attractor" /> attractor (a direction: marked among the loci nearest it)
          </span>
        </>
      ) : null}
    </div>
  );
}

/** Node `n` moved to where its layout is taking it (for fitting the view to a transition's end). */
function destined(n: Node, at: Map<string, Point>, to: Map<string, Point>): Node {
  const a = at.get(n.id);
  const b = to.get(n.id);
  if (!a || !b || (a.x === b.x && a.y === b.y)) return n;
  return { ...n, position: { x: n.position.x + b.x - a.x, y: n.position.y + b.y - a.y } };
}
