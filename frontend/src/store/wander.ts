// The UI state: the one zustand store. It holds the graph (folded from the session's events
// by fold.ts, with the REST view filled in by restView.ts), the event log, the session's REST
// view, the socket's state, the proposals drawn on the map, and what the person has opened,
// selected or been told. Derived views are not kept here: view.ts computes them.
import { create } from "zustand";
import type { ConnState } from "../api/ws";
import type { EventOut, FenceOut, ProposalOut, SessionOut } from "../api/types.gen";
import { reduceEvents } from "./fold";
import { emptyGraph, type GraphState } from "./graph";
import { withSessionView, withSubwanders } from "./restView";

export type Notice = { kind: "ok" | "error"; text: string; at: number };
export type SidePanel = "locus" | "crystal" | "compare" | "trace" | "resonances" | "fences";

export interface WanderStore {
  graph: GraphState;
  /** Every event applied, in seq order: the log the graph is the fold of. */
  log: EventOut[];
  session: SessionOut | null;
  conn: ConnState;
  /** Live events received over the socket (for the events/s counter): a replayed backlog
   * is not counted. */
  received: number;
  selectedId: string | null;
  /** A second locus picked with shift-click: the compare panel shows the pair. */
  compareId: string | null;
  crystalId: string | null;
  panel: SidePanel | null;
  /** The sub-wanders as the REST view last listed them (their progress goes onto the nodes
   * `graph.subwanders`, which the spawn events make). */
  children: SessionOut[];
  /** The last command's outcome, shown on the map. */
  notice: Notice | null;
  /** Loci to highlight (a resonance hovered in its panel). */
  highlight: string[];
  /** A locus to centre the view on (search, trace row); `n` changes on every request. */
  focus: { id: string; n: number } | null;
  /** The session's proposals, each drawn on the map as its fractal (mindmap/fractals.ts); the
   * review panel keeps the list fresh. */
  proposals: ProposalOut[];
  /** The open context menu of a locus (right click, or the locus panel's button). */
  menu: { locusId: string; x: number; y: number } | null;
  openMenu(m: { locusId: string; x: number; y: number } | null): void;
  openSession(id: string): void;
  /** `replay`: the events are a backlog caught up on, not live (not counted as received). */
  ingest(events: EventOut[], replay?: boolean): void;
  setSession(s: SessionOut): void;
  setConn(c: ConnState): void;
  select(id: string | null): void;
  /** Shift-click: compare this locus with the selected one. */
  selectSecond(id: string): void;
  openCrystal(id: string | null): void;
  openPanel(p: SidePanel | null): void;
  /** The fence as a command's answer gives it, until the fence event arrives. */
  setFences(f: FenceOut[]): void;
  /** The sub-wanders from the REST poll: their progress onto the graph's sub-wander nodes. */
  setChildren(c: SessionOut[]): void;
  say(kind: Notice["kind"], text: string): void;
  setHighlight(ids: string[]): void;
  focusOn(id: string): void;
  setProposals(list: ProposalOut[]): void;
}

const blank = { log: [] as EventOut[], session: null, conn: "idle" as ConnState, received: 0, selectedId: null, compareId: null,
  crystalId: null, panel: null, children: [] as SessionOut[], notice: null, highlight: [] as string[], focus: null, menu: null };

export const useWander = create<WanderStore>((set) => ({
  graph: emptyGraph(),
  ...blank,
  proposals: [],
  openSession: (id) => set((st) => (st.graph.sessionId === id ? st : { graph: emptyGraph(id), ...blank })),
  ingest: (events, replay = false) =>
    set((st) => {
      // The live graph's arrivedBy grows in place: a step at 5,000 loci no longer copies a
      // 5,000-key record (about 1.5 ms and as much garbage per event). An entry is written
      // once, at a step's completion, and never changed or removed, and it is only read by
      // locus id (LocusPanel, of the current graph): a graph the store held before reads the
      // same residue for every locus whose step it had seen complete (it may also see the
      // residue of a step that completed later). So do its loci: a locus's record is replaced
      // (never changed) when the locus changes, and never removed; the map reads it by id
      // from the graph's order, and the readers of the record as a whole (search, compare,
      // crystal panels) read a concept, which a locus never changes. reduceEvent and
      // foldEvents (the archive's state at a seq) still copy: their fold semantics are unchanged.
      let graph = reduceEvents(st.graph, events, [st.graph.arrivedBy, st.graph.loci]);
      // a sub-wander the poll saw before its spawn event came: its progress at once
      if (graph.subwanderOrder !== st.graph.subwanderOrder) graph = withSubwanders(graph, st.children);
      const received = replay ? st.received : st.received + events.length;
      if (graph === st.graph) return { received };
      const fresh = events.filter((e) => e.seq > st.graph.lastSeq && e.seq <= graph.lastSeq && (!graph.sessionId || e.session_id === graph.sessionId));
      return { graph, received, log: st.log.concat(fresh) };
    }),
  setSession: (s) =>
    set((st) => {
      if (st.graph.sessionId && st.graph.sessionId !== s.id) return st;
      return { session: s, graph: withSessionView(st.graph, s) };
    }),
  setConn: (conn) => set({ conn }),
  select: (selectedId) => set({ selectedId, compareId: null, crystalId: null, panel: selectedId ? "locus" : null }),
  selectSecond: (id) =>
    set((st) =>
      st.selectedId && st.selectedId !== id ? { compareId: id, crystalId: null, panel: "compare" } : { selectedId: id, compareId: null, panel: "locus" },
    ),
  openCrystal: (crystalId) => set({ crystalId, panel: crystalId ? "crystal" : null }),
  openPanel: (panel) => set({ panel }),
  setFences: (fences) => set((st) => ({ graph: { ...st.graph, fences } })),
  setChildren: (children) => set((st) => ({ children, graph: withSubwanders(st.graph, children) })),
  say: (kind, text) => set({ notice: { kind, text, at: Date.now() } }),
  setHighlight: (highlight) => set({ highlight }),
  openMenu: (menu) => set({ menu }),
  focusOn: (id) => set((st) => ({ focus: { id, n: (st.focus?.n ?? 0) + 1 } })),
  setProposals: (proposals) => set({ proposals }),
}));
