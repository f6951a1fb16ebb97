import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  Background,
  BackgroundVariant,
  getNodesBounds,
  ReactFlow,
  useReactFlow,
  type Node,
  type NodeMouseHandler,
  type Viewport,
} from "@xyflow/react";
import { adjacencyView, useWander } from "../store";
import { edgeTypes } from "./edges";
import { fractalEdges, fractalNodes, useProposalList } from "./fractals";
import { flowEdges, flowNodes, layoutInput, type FlowCache } from "./flow";
import { IncrementalLayout, type Point } from "./layout/force";
import { semanticTargets, useAnimatedPositions } from "./layout/semantic";
import { nodeTypes } from "./nodes";

/** Below this zoom labels are too small to read: follow the current locus instead of fitting all. */
const READABLE_ZOOM = 0.75;

/** The live mind map of the open session. Must be inside a <ReactFlowProvider>.
 * `semantic`: the projection to lay loci out by (the "Semantic (UMAP)" layout); else flow. */
export function MindMap({ semantic = null }: { semantic?: Map<string, Point> | null } = {}) {
  const graph = useWander((s) => s.graph);
  const selectedId = useWander((s) => s.selectedId);
  const select = useWander((s) => s.select);
  const layout = useRef<IncrementalLayout | null>(null);
  const layoutFor = useRef<string | null>(null);
  if (!layout.current || layoutFor.current !== graph.sessionId) {
    layout.current = new IncrementalLayout();
    layoutFor.current = graph.sessionId;
  }

  const adj = useMemo(() => adjacencyView(graph), [graph.adjacency, graph.order, graph.path, graph.loci]); // eslint-disable-line react-hooks/exhaustive-deps
  const ghostKey = adj.ghosts.map((g) => g.id).join(",");
  const pathKey = graph.path.length;

  // The layout runs only when the set of nodes changes (new locus, new candidates).
  const flowPositions = useMemo(() => {
    const { nodes, links } = layoutInput(graph, adj.ghosts);
    return layout.current!.update(nodes, links);
  }, [graph.order, ghostKey, pathKey, graph.sessionId]); // eslint-disable-line react-hooks/exhaustive-deps
  const mode = semantic ? "semantic" : "flow";
  const target = useMemo(() => {
    if (!semantic) return flowPositions;
    const parents: Record<string, string | null> = {};
    for (const id of graph.order) parents[id] = graph.loci[id].parentId;
    for (const gh of adj.ghosts) parents[gh.id] = gh.parentId;
    return semanticTargets(flowPositions, semantic, parents);
  }, [flowPositions, semantic]); // eslint-disable-line react-hooks/exhaustive-deps
  const positions = useAnimatedPositions(target, mode);

  const nodeCache = useRef<FlowCache>(new Map());
  const edgeCache = useRef<FlowCache>(new Map());
  const proposals = useProposalList((s) => s.list);
  const fractals = useMemo(() => fractalNodes(proposals, positions), [proposals, positions]);
  const nodes = useMemo(
    () => [...flowNodes(graph, adj.ghosts, positions, selectedId, nodeCache.current), ...fractals],
    [graph, adj, positions, selectedId, fractals],
  );
  const edges = useMemo(
    () => [...flowEdges(graph, adj.edges, edgeCache.current), ...fractalEdges(fractals, proposals)],
    [graph, adj, fractals, proposals],
  );

  // Follow the walk: fit the whole map while it is small enough to read; past that, keep
  // the current locus in the middle at a readable zoom. A person panning or zooming turns
  // following off; "Fit & follow" turns it back on.
  const rf = useReactFlow();
  const box = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const moveStart = useRef<Viewport | null>(null);
  const currentPos = graph.currentLocusId ? positions.get(graph.currentLocusId) : undefined;
  const view = useRef({ nodes, currentPos });
  view.current = { nodes, currentPos };
  const followView = useCallback(
    (duration = 350) => {
      const el = box.current;
      const { nodes: ns, currentPos: cur } = view.current;
      if (!el || ns.length === 0) return;
      const b = getNodesBounds(ns);
      const pad = 140;
      const fitZoom = Math.min(el.clientWidth / (b.width + pad), el.clientHeight / (b.height + pad));
      if (fitZoom >= READABLE_ZOOM || !cur) void rf.fitView({ padding: 0.2, duration, maxZoom: 1.3 });
      else void rf.setCenter(cur.x, cur.y, { zoom: 0.9, duration });
    },
    [rf],
  );
  const nodeCount = nodes.length;
  useEffect(() => {
    if (!follow || nodeCount === 0) return;
    const t = setTimeout(() => followView(), 30);
    return () => clearTimeout(t);
  }, [follow, nodeCount, positions, currentPos, followView]);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let t: ReturnType<typeof setTimeout> | undefined;
    const ro = new ResizeObserver(() => {
      clearTimeout(t);
      t = setTimeout(() => follow && followView(200), 60);
    });
    ro.observe(el);
    return () => {
      clearTimeout(t);
      ro.disconnect();
    };
  }, [follow, followView]);

  const onNodeClick: NodeMouseHandler<Node> = useCallback(
    (_e, node) => {
      if (node.type === "locus") select(node.id);
    },
    [select],
  );

  return (
    <div className="mindmap" data-testid="mindmap" data-layout={mode} ref={box}>
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
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick}
        onPaneClick={() => select(null)}
        onMoveStart={(e, vp) => {
          moveStart.current = e ? vp : null;
        }}
        onMoveEnd={(e, vp) => {
          const st = moveStart.current;
          moveStart.current = null;
          // a person moved the view (a click on the pane starts a "move" that goes nowhere)
          if (e && st && (Math.abs(st.x - vp.x) > 2 || Math.abs(st.y - vp.y) > 2 || Math.abs(st.zoom - vp.zoom) > 1e-3)) setFollow(false);
        }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        minZoom={0.02}
        maxZoom={3}
        proOptions={{ hideAttribution: true }}
        colorMode="dark"
      >
        <Background variant={BackgroundVariant.Dots} gap={28} size={1.2} color="#253049" />
      </ReactFlow>
      <div className="map-tools">
        <button
          type="button"
          className={follow ? "tool is-on" : "tool"}
          onClick={() => {
            setFollow(true);
            followView();
          }}
          title="Fit the whole walk and follow it as it grows"
        >
          {follow ? "Following" : "Fit & follow"}
        </button>
        <button type="button" className="tool" onClick={() => {
            setFollow(false);
            void rf.fitView({ padding: 0.15, duration: 350 });
          }}
          title="Show the whole walk (stops following)"
        >
          Whole map
        </button>
        <button type="button" className="tool" onClick={() => void rf.zoomIn({ duration: 200 })} title="Zoom in">
          +
        </button>
        <button type="button" className="tool" onClick={() => void rf.zoomOut({ duration: 200 })} title="Zoom out">
          −
        </button>
      </div>
      {graph.order.length === 0 ? <div className="map-empty">Waiting for the first events…</div> : null}
      <Legend />
    </div>
  );
}

function Legend() {
  return (
    <div className="legend" aria-label="legend">
      <span>
        <svg width="26" height="8">
          <line x1="0" y1="4" x2="26" y2="4" stroke="#8b98b3" strokeWidth="2" />
        </svg>
        path taken
      </span>
      <span>
        <svg width="26" height="8">
          <line x1="0" y1="4" x2="26" y2="4" stroke="#7dd3fc" strokeWidth="1.5" strokeDasharray="4 4" />
        </svg>
        candidates
      </span>
      <span>
        <span className="legend-dot is-current" /> current
      </span>
    </div>
  );
}
