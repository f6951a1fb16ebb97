// The SANDWICH corpus dashboard (004, 7.3 and 8.1): the six metrics against their targets
// (GET /api/v1/sandwich/metrics), the last forage run attempt by attempt, and 7.3's six pictures
// drawn with ECharts (CorpusCharts, GET /api/v1/sandwich/charts).
import { useCallback, useEffect, useState } from "react";
import { sandwichApi, type SandwichRowLite } from "../api/sandwich";
import { Brand } from "../panels/Brand";
import type { ForageLogEntry, ForageRunOut, SandwichMetrics } from "../api/types.gen";
import { Link } from "../router";
import { CorpusCharts } from "./CorpusCharts";

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toFixed(3));

/** What each 8.1 metric measures (004), shown beside it. */
export const METRIC_HELP: Record<string, string> = {
  sandwich_rate: "Share of foraging attempts that made a sandwich.",
  mean_validity: "Mean validity V of the sandwiches (0.25 bread compatibility + 0.35 containment + 0.20 non-triviality + 0.20 novelty).",
  ingredient_diversity: "Distinct ingredients per sandwich: low means the same breads and fillings come back.",
  structural_coverage: "Share of the ten structural types the corpus has at least one sandwich of.",
  cross_domain_rate: "Share of sandwiches whose two breads come from different domains.",
  novelty_stability: "Mean novelty of the later half of the sandwiches over that of the earlier half (1: novelty does not decay).",
};

type LastRun = { run: ForageRunOut; log: ForageLogEntry[]; made: Record<string, SandwichRowLite> };

/** The corpus's metrics, and a forage run that reads them (and the charts' version) again. */
function useCorpus() {
  const [data, setData] = useState<SandwichMetrics | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const [lastRun, setLastRun] = useState<LastRun | null>(null);

  const load = useCallback(() => {
    sandwichApi.metrics().then(setData, (e: Error) => setError(e.message));
  }, []);
  useEffect(load, [load]);

  const forage = async () => {
    setBusy(true);
    setError(null);
    try {
      const run = await sandwichApi.forage({ patience: 2, max_attempts: 8 });
      // the log is newest first; a person reads a run from its first attempt
      const [log, rows] = await Promise.all([sandwichApi.log(run.run_id), sandwichApi.sandwiches().catch(() => [] as SandwichRowLite[])]);
      setLastRun({ run, log: log.reverse(), made: Object.fromEntries(rows.map((r) => [r.id, r])) });
      load();
      setVersion((v) => v + 1);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { data, error, busy, version, lastRun, forage };
}

function AnalysisHeader({ busy, error, forage }: { busy: boolean; error: string | null; forage: () => void }) {
  return (
    <header className="topbar">
      <Brand />
      <div className="session-title">
        <h1>Sandwich corpus</h1>
      </div>
      <nav className="topnav" aria-label="pages">
        <Link to="/">← Wanders</Link>
        <Link to="/reviews" data-testid="reviews-link">Review queue</Link>
      </nav>
      <button className="primary" onClick={forage} disabled={busy} data-testid="forage">
        {busy ? "foraging…" : "Forage (patience 2)"}
      </button>
      {error && <span role="alert">{error}</span>}
    </header>
  );
}

/** The six metrics of 8.1 against their targets, and the corpus's counts. */
function MetricsCard({ data }: { data: SandwichMetrics }) {
  return (
    <section className="card">
      <h2>Metrics (SANDWICH 8.1)</h2>
      <table data-testid="metrics">
        <thead>
          <tr><th>metric</th><th>value</th><th>target</th><th>met</th><th>what it measures</th></tr>
        </thead>
        <tbody>
          {Object.entries(data.metrics).map(([name, m]) => (
            <tr key={name} data-metric={name}>
              <td>{name.replace(/_/g, " ")}</td>
              <td>{fmt(m?.value)}</td>
              <td>{m?.target}</td>
              <td>{m?.met == null ? "–" : m.met ? "yes" : "no"}</td>
              <td className="muted small">{METRIC_HELP[name] ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="counts">
        {data.counts.attempts} attempts, {data.counts.made} made, {data.counts.sandwiches} sandwiches in the corpus
      </p>
    </section>
  );
}

export function AnalysisPage() {
  const { data, error, busy, version, lastRun, forage } = useCorpus();

  return (
    <div className="page analysis-page">
      <AnalysisHeader busy={busy} error={error} forage={forage} />
      <div className="analysis-body">
      <p className="muted analysis-intro" data-testid="analysis-intro">
        The corpus holds sandwiches (SANDWICH, 004): an insight (the filling) bounded by two related concepts (the breads),
        scored by validity V and typed by ten structural types. The forager makes them from the knowledge base and your
        sources; every wander&apos;s crystals join them. The metrics below are the evaluation of 004 §8.1, each against its target.
      </p>
      {!data ? (
        <p>loading…</p>
      ) : (
        <>
          <MetricsCard data={data} />
          {lastRun ? <RunLog run={lastRun.run} log={lastRun.log} made={lastRun.made} /> : null}
          <CorpusCharts version={version} />
        </>
      )}
      </div>
    </div>
  );
}

/** The foraging log of the run just made (004's table): every attempt, its prompt and outcome. */
function RunLog({ run, log, made }: { run: ForageRunOut; log: ForageLogEntry[]; made: Record<string, SandwichRowLite> }) {
  return (
    <section className="card" data-testid="forage-run">
      <h2>Last forage run</h2>
      <p data-testid="forage-run-summary">
        {run.mode}: {run.attempts} attempts, {run.made} made ({Object.entries(run.outcomes).map(([k, n]) => `${k} ${n}`).join(", ")}). {run.farewell}
      </p>
      <table>
        <thead>
          <tr><th>#</th><th>curiosity prompt</th><th>source</th><th>outcome</th><th>sandwich made</th><th>why</th></tr>
        </thead>
        <tbody>
          {log.map((e, i) => (
            <tr key={e.id} data-testid="forage-attempt" data-outcome={e.outcome}>
              <td>{i + 1}</td>
              <td>{e.curiosity_prompt}</td>
              <td>{e.source_title ?? e.source_ref ?? e.source_kind ?? "–"}</td>
              <td>{e.outcome.replace(/_/g, " ")}</td>
              <td data-testid="forage-sandwich">{e.sandwich_id ? <MadeSandwich row={made[e.sandwich_id]} /> : "–"}</td>
              <td className="muted small">{e.outcome_rationale}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A sandwich the forager made: its breads and filling, type and V. */
function MadeSandwich({ row }: { row: SandwichRowLite | undefined }) {
  if (!row) return <span className="muted">made (not listed)</span>;
  return (
    <span title={row.name}>
      {row.bread_top} | <b>{row.filling}</b> | {row.bread_bottom}{" "}
      <span className="muted small">
        {row.structural_type}, V {row.validity_score.toFixed(2)}
      </span>
    </span>
  );
}
