import { ReactFlowProvider } from "@xyflow/react";
import { useState } from "react";
import { useProjection, type LayoutMode } from "../mindmap/layout/semantic";
import { LayoutSwitch } from "../panels/LayoutSwitch";
import { useSessionFeed } from "../api/feed";
import { MindMap } from "../mindmap/MindMap";
import { Brand } from "../panels/Brand";
import { Controls } from "../panels/Controls";
import { LocusPanel } from "../panels/LocusPanel";
import { ProposalsPanel } from "../panels/ProposalsPanel";
import { StatusBar } from "../panels/StatusBar";
import { Link } from "../router";
import { useWander } from "../store";

export function SessionPage({ sessionId }: { sessionId: string }) {
  const { error, notFound } = useSessionFeed(sessionId);
  const name = useWander((s) => s.graph.name ?? s.session?.name ?? null);
  const seed = useWander((s) => s.graph.seedConcept);
  const attractor = useWander((s) => s.graph.attractor);
  const panelOpen = useWander((s) => s.selectedId !== null);
  const [layoutMode, setLayoutMode] = useState<LayoutMode>("flow");
  const lociCount = useWander((s) => s.graph.order.length);
  const finished = useWander((s) => s.graph.status === "completed" || s.graph.status === "abandoned");
  const projection = useProjection(sessionId, layoutMode === "semantic", lociCount);

  if (notFound) {
    return (
      <div className="page page-center">
        <h1>No such wander</h1>
        <p>
          <code>{sessionId}</code> does not exist. <Link to="/">Back to the wanders</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="page session-page">
      <header className="topbar">
        <Brand />
        <div className="session-title">
          <h1 title={name ?? ""}>{name ?? "…"}</h1>
          {attractor ? <span className="muted attractor">→ {attractor}</span> : seed && seed !== name ? <span className="muted">from {seed}</span> : null}
        </div>
        <LayoutSwitch mode={layoutMode} onChange={setLayoutMode} busy={layoutMode === "semantic" && !projection} />
        {finished ? <Link to={`/sessions/${encodeURIComponent(sessionId)}/archive`}>Archive</Link> : null}
        <Controls sessionId={sessionId} />
      </header>
      {error ? <div className="banner">Could not load the session: {error}</div> : null}
      <div className={panelOpen ? "workspace with-panel" : "workspace"}>
        <ReactFlowProvider>
          <MindMap semantic={projection} />
        </ReactFlowProvider>
        <LocusPanel sessionId={sessionId} />
        <ProposalsPanel sessionId={sessionId} />
      </div>
      <StatusBar />
    </div>
  );
}
