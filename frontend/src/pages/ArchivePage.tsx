// The archive view of one wander: the map rebuilt at any step (the fold of its events up
// to that step), a timeline to scrub and play, panels that follow, the Flow / Semantic
// (UMAP) switch and the exports. Everything that reads React Flow sits inside the provider.
import { ReactFlowProvider } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { archiveApi, type ArchiveDoc } from "../api/archive";
import { ApiError } from "../api/http";
import { reads } from "../api/commands";
import type { SessionOut } from "../api/types.gen";
import { crystalsAt, foldAt, resonancesAt, stepEnds, stepFromSearch } from "../archive/timeline";
import { MindMap } from "../mindmap/MindMap";
import type { LayoutMode } from "../mindmap/layout/semantic";
import { Brand } from "../panels/Brand";
import { ReplayPanels } from "../panels/ReplayPanels";
import { Timeline } from "../panels/Timeline";
import { Link } from "../router";
import { emptyGraph, useWander, withSubwanders } from "../store";
import "./review.css";

type ArchiveError = { status: number; message: string };

/** The layout is part of the moment a link holds: ?step=5&layout=semantic */
function useUrlLayout() {
  const [layout, setLayoutState] = useState<LayoutMode>(() => layoutFromSearch(window.location.search));
  const setLayout = useCallback((m: LayoutMode) => {
    setLayoutState(m);
    const url = new URL(window.location.href);
    if (m === "semantic") url.searchParams.set("layout", m);
    else url.searchParams.delete("layout");
    window.history.replaceState(null, "", url.pathname + url.search);
  }, []);
  return [layout, setLayout] as const;
}

/** The sub-wanders' own progress (steps, status): on their own streams, not in this log */
function useChildren(sessionId: string) {
  const [children, setChildren] = useState<SessionOut[]>([]);
  useEffect(() => {
    let alive = true;
    reads
      .children(sessionId)
      .then((c) => alive && Array.isArray(c) && setChildren(c))
      .catch(() => undefined); // the nodes say "spawned" without it
    return () => {
      alive = false;
    };
  }, [sessionId]);
  return children;
}

/** The wander's archive, its events in seq order; leaving it empties the map's store. */
function useArchiveDoc(sessionId: string) {
  const [doc, setDoc] = useState<ArchiveDoc | null>(null);
  const [error, setError] = useState<ArchiveError | null>(null);
  useEffect(() => {
    let alive = true;
    archiveApi
      .doc(sessionId)
      .then((d) => alive && setDoc({ ...d, events: [...d.events].sort((a, b) => a.seq - b.seq) }))
      .catch((err) => alive && setError({ status: err instanceof ApiError ? err.status : 0, message: String(err.message ?? err) }));
    return () => {
      alive = false;
      useWander.setState({ graph: emptyGraph(), session: null, selectedId: null });
    };
  }, [sessionId]);
  return { doc, error };
}

/** The step shown (from ?step= once the archive has come, null before) and a setter that
 * clamps it and keeps it in the URL. */
function useArchiveStep(doc: ArchiveDoc | null) {
  const [step, setStepState] = useState<number | null>(null);
  const ends = useMemo(() => (doc ? stepEnds(doc.events) : [0]), [doc]);
  const maxStep = ends.length - 1;
  useEffect(() => {
    if (doc) setStepState(stepFromSearch(window.location.search, maxStep));
  }, [doc, maxStep]);
  const setStep = useCallback(
    (n: number) => {
      const s = Math.max(0, Math.min(maxStep, n));
      setStepState(s);
      const url = new URL(window.location.href);
      url.searchParams.set("step", String(s));
      window.history.replaceState(null, "", url.pathname + url.search);
    },
    [maxStep],
  );
  return { step, maxStep, seq: step === null ? 0 : ends[step], setStep };
}

/** The map at the step (the fold of the events up to its last seq) put in the store, with the
 * resonances and crystals standing then. */
function useReplayGraph(sessionId: string, doc: ArchiveDoc | null, step: number | null, seq: number, children: SessionOut[]) {
  const graph = useMemo(
    () => (doc && step !== null ? withSubwanders(foldAt(sessionId, doc.events, seq), children) : emptyGraph(sessionId)),
    [doc, step, seq, sessionId, children],
  );
  useEffect(() => {
    useWander.setState({ graph, selectedId: null });
  }, [graph]);
  const resonances = useMemo(() => (doc ? resonancesAt(doc.events, seq) : []), [doc, seq]);
  const crystals = useMemo(() => (doc ? crystalsAt(doc.events, seq) : []), [doc, seq]);
  return { graph, resonances, crystals };
}

function ArchiveFailed({ sessionId, error }: { sessionId: string; error: ArchiveError }) {
  return (
    <div className="page page-center">
      <h1>{error.status === 404 ? "No such wander" : error.status === 409 ? "Still wandering" : "Could not open the archive"}</h1>
      <p>
        {error.message} <Link to={`/sessions/${encodeURIComponent(sessionId)}`}>Open the live map</Link> · <Link to="/">Back to the wanders</Link>
      </p>
    </div>
  );
}

function ArchiveHeader({ sessionId, s }: { sessionId: string; s: ArchiveDoc["session"] | undefined }) {
  return (
    <header className="topbar">
      <Brand />
      <div className="session-title">
        <h1 title={s?.name ?? ""}>{s?.name ?? "…"}</h1>
        {s ? <span className="muted attractor">archive · {s.seed_concept}{s.attractor ? ` → ${s.attractor}` : ""} · {s.status}</span> : null}
      </div>
      <nav className="exports" aria-label="Exports">
        <a href={archiveApi.exportUrl(sessionId, "archive.json")} download data-testid="export-json">JSON</a>
        <a href={archiveApi.exportUrl(sessionId, "archive.md")} download data-testid="export-md">Markdown</a>
        <a href={archiveApi.exportUrl(sessionId, "umap.png")} download data-testid="export-png">UMAP PNG</a>
        <Link to={`/sessions/${encodeURIComponent(sessionId)}`} data-testid="live-map-link">
          live map
        </Link>
      </nav>
    </header>
  );
}

export function ArchivePage({ sessionId }: { sessionId: string }) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(5);
  const [layout, setLayout] = useUrlLayout();
  const children = useChildren(sessionId);
  const { doc, error } = useArchiveDoc(sessionId);
  const { step, maxStep, seq, setStep } = useArchiveStep(doc);
  const { graph, resonances, crystals } = useReplayGraph(sessionId, doc, step, seq, children);

  if (error) return <ArchiveFailed sessionId={sessionId} error={error} />;
  return (
    <div className="page session-page archive-page" data-testid="archive-page">
      <ArchiveHeader sessionId={sessionId} s={doc?.session} />
      <ReactFlowProvider>
        <div className="workspace with-panel">
          <MindMap layout={layout} onLayout={setLayout} />
          <ReplayPanels graph={graph} resonances={resonances} crystals={crystals} onStep={setStep} />
        </div>
      </ReactFlowProvider>
      {doc && step !== null ? (
        <Timeline step={step} maxStep={maxStep} playing={playing} speed={speed} onStep={setStep} onPlaying={setPlaying} onSpeed={setSpeed} />
      ) : (
        <div className="timeline muted">loading the archive…</div>
      )}
    </div>
  );
}

function layoutFromSearch(search: string): LayoutMode {
  return new URLSearchParams(search).get("layout") === "semantic" ? "semantic" : "flow";
}
