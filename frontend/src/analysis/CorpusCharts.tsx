// The corpus's six pictures (004 7.3) from GET /api/v1/sandwich/charts: each in a card with
// what it shows, and an empty state that says why it is empty and what fills it. `version`
// changes when the corpus does (a forage run), and the pictures are read again.
import { useEffect, useState } from "react";
import { chartsApi } from "../api/sandwichCharts";
import type { SandwichCharts } from "../api/types.gen";
import { CHARTS, type ChartSpec } from "./charts/catalogue";
import { EChart } from "./charts/EChart";
import "./analysis.css";

export function CorpusCharts({ version = 0 }: { version?: number }) {
  const [data, setData] = useState<SandwichCharts | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    chartsApi.charts().then(
      (d) => live && (setData(d), setError(null)),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [version]);
  if (error) return <p role="alert" data-testid="charts-error">The pictures could not be read: {error}</p>;
  if (!data) return <p className="muted">loading the pictures…</p>;
  return (
    <div className="corpus-charts" data-testid="corpus-charts">
      {CHARTS.map((spec) => (
        <ChartCard key={spec.key} spec={spec} data={data} />
      ))}
    </div>
  );
}

function ChartCard({ spec, data }: { spec: ChartSpec; data: SandwichCharts }) {
  const count = spec.count(data);
  const note = spec.note?.(data) ?? null;
  return (
    <section className="card analysis-chart" data-testid={`chart-${spec.key}`} data-count={count}>
      <h2>{spec.title}</h2>
      <p className="muted small chart-help" data-testid="chart-help">
        {spec.help}
      </p>
      {note && count > 0 ? (
        <p className="small chart-note" data-testid="chart-note">
          {note}
        </p>
      ) : null}
      {count === 0 ? (
        <p className="chart-empty" data-testid="chart-empty">
          {spec.emptyText}
        </p>
      ) : (
        <div className="chart-body" data-testid="chart-body">
          <EChart option={spec.option(data)} height={spec.height} />
        </div>
      )}
    </section>
  );
}
