// The SANDWICH corpus dashboard (004, 7.3 and 8.1): the six metrics against their targets,
// structural types, the most used ingredients, validity over time and foraging efficiency,
// drawn with recharts from GET /api/v1/sandwich/metrics.
import { useCallback, useEffect, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { sandwichApi } from "../api/sandwich";
import type { ForageLogEntry, ForageRunOut, SandwichMetrics } from "../api/types.gen";
import { Link } from "../router";

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toFixed(3));

function Chart({ title, testId, children }: { title: string; testId: string; children: React.ReactElement }) {
  return (
    <section className="card analysis-chart" data-testid={testId}>
      <h2>{title}</h2>
      <ResponsiveContainer width="100%" height={220}>
        {children}
      </ResponsiveContainer>
    </section>
  );
}

export function AnalysisPage() {
  const [data, setData] = useState<SandwichMetrics | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lastRun, setLastRun] = useState<{ run: ForageRunOut; log: ForageLogEntry[] } | null>(null);

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
      setLastRun({ run, log: (await sandwichApi.log(run.run_id)).reverse() });
      load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page analysis-page" style={{ overflow: "auto", padding: 16, gap: 12 }}>
      <header style={{ display: "flex", gap: 12, alignItems: "center" }}>
        <h1 style={{ margin: 0 }}>Sandwich corpus</h1>
        <Link to="/">wanders</Link>
        <button className="primary" onClick={forage} disabled={busy} data-testid="forage">
          {busy ? "foraging…" : "Forage (patience 2)"}
        </button>
        {error && <span role="alert">{error}</span>}
      </header>
      {!data ? (
        <p>loading…</p>
      ) : (
        <>
          <section className="card">
            <h2>Metrics (SANDWICH 8.1)</h2>
            <table data-testid="metrics">
              <thead>
                <tr><th>metric</th><th>value</th><th>target</th><th>met</th></tr>
              </thead>
              <tbody>
                {Object.entries(data.metrics).map(([name, m]) => (
                  <tr key={name} data-metric={name}>
                    <td>{name.replace(/_/g, " ")}</td>
                    <td>{fmt(m?.value)}</td>
                    <td>{m?.target}</td>
                    <td>{m?.met == null ? "–" : m.met ? "yes" : "no"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p data-testid="counts">
              {data.counts.attempts} attempts, {data.counts.made} made, {data.counts.sandwiches} sandwiches in the corpus
            </p>
          </section>
          {lastRun ? <RunLog run={lastRun.run} log={lastRun.log} /> : null}
          <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(420px, 1fr))", gap: 12 }}>
            <Chart title="Structural types" testId="chart-types">
              <BarChart data={data.type_distribution}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="structural_type" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="sandwich_count" name="sandwiches" fill="#0891b2" isAnimationActive={false} />
              </BarChart>
            </Chart>
            <Chart title="Most used ingredients" testId="chart-ingredients">
              <BarChart data={data.ingredient_frequency.slice(0, 12)} layout="vertical">
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" allowDecimals={false} />
                <YAxis type="category" dataKey="text" width={120} />
                <Tooltip />
                <Bar dataKey="usage_count" name="uses" fill="#a78bfa" isAnimationActive={false} />
              </BarChart>
            </Chart>
            <Chart title="Validity and novelty over time" testId="chart-validity">
              <LineChart data={data.validity_over_time.map((p) => ({ ...p, day: p.day.slice(0, 10) }))}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis domain={[0, 1]} />
                <Tooltip />
                <Legend />
                <Line dataKey="avg_validity" name="mean V" stroke="#22c55e" isAnimationActive={false} />
                <Line dataKey="avg_novelty" name="mean novelty" stroke="#f59e0b" isAnimationActive={false} />
              </LineChart>
            </Chart>
            <Chart title="Foraging efficiency per run" testId="chart-efficiency">
              <BarChart data={[...data.foraging_efficiency].reverse().map((r, i) => ({ ...r, run: `#${i + 1}` }))}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="run" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend />
                <Bar dataKey="foraging_attempts" name="attempts" fill="#64748b" isAnimationActive={false} />
                <Bar dataKey="sandwiches_made" name="made" fill="#0891b2" isAnimationActive={false} />
              </BarChart>
            </Chart>
          </div>
        </>
      )}
    </div>
  );
}

/** The foraging log of the run just made (004's table): every attempt, its prompt and outcome. */
function RunLog({ run, log }: { run: ForageRunOut; log: ForageLogEntry[] }) {
  return (
    <section className="card" data-testid="forage-run">
      <h2>Last forage run</h2>
      <p data-testid="forage-run-summary">
        {run.mode}: {run.attempts} attempts, {run.made} made ({Object.entries(run.outcomes).map(([k, n]) => `${k} ${n}`).join(", ")}). {run.farewell}
      </p>
      <table>
        <thead>
          <tr><th>#</th><th>curiosity prompt</th><th>source</th><th>outcome</th><th>why</th></tr>
        </thead>
        <tbody>
          {log.map((e, i) => (
            <tr key={e.id} data-testid="forage-attempt" data-outcome={e.outcome}>
              <td>{i + 1}</td>
              <td>{e.curiosity_prompt}</td>
              <td>{e.source_title ?? e.source_ref ?? e.source_kind ?? "–"}</td>
              <td>{e.outcome.replace(/_/g, " ")}</td>
              <td className="muted small">{e.outcome_rationale}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
