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

export function ArchivePage({ sessionId }: { sessionId: string }) {
  const [doc, setDoc] = useState<ArchiveDoc | null>(null);
  const [error, setError] = useState<{ status: number; message: string } | null>(null);
  const [step, setStepState] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(5);
  // the layout is part of the moment a link holds: ?step=5&layout=semantic
  const [layout, setLayoutState] = useState<LayoutMode>(() => layoutFromSearch(window.location.search));
  const setLayout = useCallback((m: LayoutMode) => {
    setLayoutState(m);
    const url = new URL(window.location.href);
    if (m === "semantic") url.searchParams.set("layout", m);
    else url.searchParams.delete("layout");
    window.history.replaceState(null, "", url.pathname + url.search);
  }, []);

  // The sub-wanders' own progress (steps, status): on their own streams, not in this log
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

  const seq = step === null ? 0 : ends[step];
  const graph = useMemo(
    () => (doc && step !== null ? withSubwanders(foldAt(sessionId, doc.events, seq), children) : emptyGraph(sessionId)),
    [doc, step, seq, sessionId, children],
  );
  useEffect(() => {
    useWander.setState({ graph, selectedId: null });
  }, [graph]);
  const resonances = useMemo(() => (doc ? resonancesAt(doc.events, seq) : []), [doc, seq]);
  const crystals = useMemo(() => (doc ? crystalsAt(doc.events, seq) : []), [doc, seq]);

  if (error) {
    return (
      <div className="page page-center">
        <h1>{error.status === 404 ? "No such wander" : error.status === 409 ? "Still wandering" : "Could not open the archive"}</h1>
        <p>
          {error.message} <Link to={`/sessions/${encodeURIComponent(sessionId)}`}>Open the live map</Link> · <Link to="/">Back to the wanders</Link>
        </p>
      </div>
    );
  }
  const s = doc?.session;
  return (
    <div className="page session-page archive-page" data-testid="archive-page">
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
