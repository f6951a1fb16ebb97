import { ReactFlowProvider } from "@xyflow/react";
import { useAncestors, useChildrenAndFences } from "../api/children";
import { useSessionFeed } from "../api/feed";
import { MindMap } from "../mindmap/MindMap";
import { Brand } from "../panels/Brand";
import { Controls } from "../panels/Controls";
import { CrystalPanel } from "../panels/CrystalPanel";
import { Lineage } from "../panels/Lineage";
import { LocusPanel } from "../panels/LocusPanel";
import { ProposalsPanel } from "../panels/ProposalsPanel";
import { StatusBar } from "../panels/StatusBar";
import { WanderMenu } from "../panels/WanderMenu";
import { ComparePanel, FencesPanel, PanelTabs, ResonancesPanel, TracePanel } from "../panels/WorkbenchPanels";
import { Link } from "../router";
import { useWander } from "../store";
import "./review.css";

function NoSuchWander({ sessionId }: { sessionId: string }) {
  return (
    <div className="page page-center">
      <h1>No such wander</h1>
      <p>
        <code>{sessionId}</code> does not exist. <Link to="/">Back to the wanders</Link>
      </p>
    </div>
  );
}

/** The breadcrumb of its ancestors, its name and its menu; its attractor (or seed) and lineage. */
function SessionTitle({ sessionId }: { sessionId: string }) {
  // (the REST view's name: a rename says no event)
  const name = useWander((s) => s.session?.name ?? s.graph.name ?? null);
  const seed = useWander((s) => s.graph.seedConcept);
  const attractor = useWander((s) => s.graph.attractor);
  const session = useWander((s) => s.session);
  const ancestors = useAncestors(session && session.id === sessionId ? session : null);
  return (
    <div className="session-title">
      <div className="title-line">
        {ancestors.length ? (
          <nav className="breadcrumb" aria-label="breadcrumb" data-testid="breadcrumb">
            {ancestors.map((a) => (
              <span key={a.id}>
                <Link to={`/sessions/${encodeURIComponent(a.id)}`}>{a.seed_concept}</Link> ›{" "}
              </span>
            ))}
          </nav>
        ) : null}
        <h1 title={name ?? ""} data-testid="wander-name">{name ?? "…"}</h1>
        <WanderMenu sessionId={sessionId} name={name} />
      </div>
      <div className="sub-line">
        {attractor ? <span className="muted attractor">→ {attractor}</span> : seed && seed !== name ? <span className="muted">from {seed}</span> : null}
        <Lineage sessionId={sessionId} />
      </div>
    </div>
  );
}

/** The archive's link, for a wander that is not walking (timeline, UMAP, exports); greyed out else. */
function ArchiveLink({ sessionId }: { sessionId: string }) {
  const status = useWander((s) => s.graph.status ?? s.session?.status ?? null);
  const running = useWander((s) => !!s.session?.running);
  const reviewable = !running && (status === "paused" || status === "completed" || status === "abandoned");
  if (!reviewable)
    return (
      <span className="tool archive-link is-off" title="The archive opens once the wander is paused or over">
        Archive
      </span>
    );
  return (
    <Link
      to={`/sessions/${encodeURIComponent(sessionId)}/archive`}
      className="tool archive-link"
      data-testid="archive-link"
      title="Review this wander: replay it step by step, see it in semantic space, export it"
    >
      Archive
    </Link>
  );
}

/** The map and the open panel beside it. */
function Workspace({ sessionId }: { sessionId: string }) {
  const panel = useWander((s) => s.panel);
  return (
    <div className={panel ? "workspace with-panel" : "workspace"}>
      <ReactFlowProvider>
        <MindMap />
      </ReactFlowProvider>
      {panel === "locus" ? <LocusPanel sessionId={sessionId} /> : null}
      {panel === "crystal" ? <CrystalPanel sessionId={sessionId} /> : null}
      {panel === "compare" ? <ComparePanel sessionId={sessionId} /> : null}
      {panel === "fences" ? <FencesPanel sessionId={sessionId} /> : null}
      {panel === "resonances" ? <ResonancesPanel /> : null}
      {panel === "trace" ? <TracePanel sessionId={sessionId} /> : null}
      <ProposalsPanel sessionId={sessionId} />
    </div>
  );
}

export function SessionPage({ sessionId }: { sessionId: string }) {
  const { error, notFound } = useSessionFeed(sessionId);
  useChildrenAndFences(sessionId);
  // The store holds the wander this page opened only once the feed has opened it: until then
  // (the first render after a move from another wander's page) it still holds that one's
  // graph, selection and panel, and a panel or the map drawn from them would ask this wander
  // for the other's loci and place the view for the other's map.
  const opened = useWander((s) => s.graph.sessionId === sessionId);

  if (notFound) return <NoSuchWander sessionId={sessionId} />;
  return (
    <div className="page session-page">
      <header className="topbar">
        <Brand />
        {/* Two lines whatever the wander says (a breadcrumb, its sub-wanders), and every tool
            always in place: the header keeps its height and the map does not move. */}
        <SessionTitle sessionId={sessionId} />
        <PanelTabs />
        <ArchiveLink sessionId={sessionId} />
        {opened ? <Controls sessionId={sessionId} /> : null}
      </header>
      {error ? <div className="banner">Could not load the session: {error}</div> : null}
      {opened ? <Workspace sessionId={sessionId} /> : <div className="workspace" />}
      {opened ? <StatusBar /> : <footer className="statusbar" data-testid="statusbar" />}
    </div>
  );
}
