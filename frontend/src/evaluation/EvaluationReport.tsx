import type { Agreement, CalibrationReport, FailureRow } from "./evaluationApi";

const pct = (x: number | undefined) => (x === undefined ? "–" : `${Math.round(x * 100)}%`);
const weights = (a: Agreement) =>
  Object.entries(a.weights)
    .map(([k, v]) => `${k.replace("_", " ")} ${v.toFixed(2)}`)
    .join(", ");

/** V's threshold and weights fitted to the judgments, and the agreement before and after. */
export function Calibration({ report }: { report: CalibrationReport | null }) {
  if (!report) return <p className="muted">loading the calibration…</p>;
  const rows: [string, string, Agreement | undefined][] = [
    ["before", "V as it stands", report.before],
    ["threshold", "threshold refitted", report.threshold_only],
    ["after", "weights and threshold refitted", report.after],
  ];
  return (
    <div data-testid="eval-calibration">
      <h2>Calibration</h2>
      <p data-testid="eval-calibration-summary">{report.summary}</p>
      <p className="muted small">
        Agreement: the share of judgments where V's verdict (V at or above the threshold: a sandwich) says what the person said.
        Kappa: how much of it is more than chance (0 = chance, 1 = perfect). {report.n} judgments, {report.valid} of them “yes”.
      </p>
      <table className="eval-table">
        <thead>
          <tr>
            <th />
            <th>weights</th>
            <th>threshold</th>
            <th>agreement</th>
            <th>kappa</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([key, label, a]) =>
            a && a.agreement !== undefined ? (
              <tr key={key} data-testid={`eval-agreement-${key}`}>
                <td>{label}</td>
                <td className="small">{weights(a)}</td>
                <td>{a.threshold.toFixed(3)}</td>
                <td data-testid={`eval-agreement-${key}-value`}>{pct(a.agreement)}</td>
                <td>{a.kappa == null ? "–" : a.kappa.toFixed(2)}</td>
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
      {report.held_out_agreement != null && (
        <p className="small" data-testid="eval-held-out">
          Out of fold (fitted without the judgments it is tested on): {pct(report.held_out_agreement)}.
        </p>
      )}
    </div>
  );
}

/** 8.3's failure table: each kind of failure, its count, what is kept of it and its latest. */
export function Failures({ rows }: { rows: FailureRow[] | null }) {
  if (!rows) return null;
  return (
    <div data-testid="eval-failures">
      <h2>Failure analysis</h2>
      <p className="muted small">004 8.3: each kind of failure, what is kept of it and what it serves to improve.</p>
      <table className="eval-table">
        <thead>
          <tr>
            <th>failure</th>
            <th>count</th>
            <th>data captured</th>
            <th>purpose</th>
            <th>latest</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.failure} data-testid={`eval-failure-${r.failure}`}>
              <td>{r.label}</td>
              <td data-testid={`eval-failure-${r.failure}-count`}>{r.count}</td>
              <td className="small">{r.captured}</td>
              <td className="small">{r.purpose}</td>
              <td className="small">{latest(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function latest(r: FailureRow): string {
  const x = r.examples[0];
  if (!x) return "–";
  if (r.failure === "human_disagrees")
    return `${x.judge} said ${x.valid ? "yes" : "no"}, V ${Number(x.auto_v).toFixed(2)} says ${x.auto_valid ? "yes" : "no"}`;
  if (r.failure === "no_ingredients") return `“${x.curiosity_prompt}”: ${x.outcome_rationale}`;
  if (r.failure === "duplicate") return `${x.source_title ?? x.source_ref ?? "?"}${x.existing_sandwich ? ` (as ${x.existing_sandwich})` : ""}`;
  return String(x.outcome_rationale ?? "");
}
