// The parts of an opened marginal sandwich: its facts, V's parts against their weights, and
// the decision (its form while pending, what was decided after).
import type { SandwichReviewOut } from "../api/types.gen";

const PARTS: [string, string, number][] = [
  ["bread_compat", "bread compatibility", 0.25],
  ["containment", "containment", 0.35],
  ["non_triviality", "non-triviality", 0.2],
  ["novelty", "novelty", 0.2],
];

export function ReviewFacts({ row }: { row: SandwichReviewOut }) {
  return (
    <dl className="review-facts">
      <dt>structural type</dt>
      <dd>{row.structural_type}</dd>
      <dt>found by</dt>
      <dd>{row.heuristic.replace(/_/g, " ") || "–"}</dd>
      <dt>domains</dt>
      <dd>
        {(["bread_top", "filling", "bread_bottom"] as const)
          .map((k) => `${k.replace("_", " ")}: ${(row.ingredient_domains[k] ?? []).join(", ") || "–"}`)
          .join("; ")}
      </dd>
      <dt>queued</dt>
      <dd>{row.created_at.slice(0, 19).replace("T", " ")}</dd>
    </dl>
  );
}

export function ValidityTable({ row }: { row: SandwichReviewOut }) {
  const v = row.validity as Record<string, unknown>;
  return (
    <table className="review-validity" data-testid="review-validity">
      <caption>
        V <b data-testid="review-v">{row.validity_score.toFixed(3)}</b> (accept from 0.7, review from 0.5)
      </caption>
      <tbody>
        {PARTS.map(([k, label, w]) => (
          <tr key={k}>
            <td>{label}</td>
            <td>× {w}</td>
            <td>{typeof v[k] === "number" ? (v[k] as number).toFixed(3) : "–"}</td>
            <td className="bar-cell">
              <span className="bar" style={{ width: `${Math.round(100 * Math.max(0, Math.min(1, Number(v[k] ?? 0))))}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface DecideProps {
  reviewer: string;
  setReviewer: (v: string) => void;
  note: string;
  setNote: (v: string) => void;
  busy: boolean;
  decide: (accept: boolean) => void;
}

export function DecideForm({ reviewer, setReviewer, note, setNote, busy, decide }: DecideProps) {
  return (
    <form className="review-decide" onSubmit={(e) => e.preventDefault()}>
      <label>
        reviewer <input value={reviewer} onChange={(e) => setReviewer(e.target.value)} data-testid="review-reviewer" required />
      </label>
      <label>
        note <input value={note} onChange={(e) => setNote(e.target.value)} data-testid="review-note" placeholder="optional" />
      </label>
      <button className="primary" disabled={busy} onClick={() => decide(true)} data-testid="review-accept">
        Accept into the corpus
      </button>
      <button disabled={busy} onClick={() => decide(false)} data-testid="review-reject">
        Reject
      </button>
    </form>
  );
}

export function Decision({ row }: { row: SandwichReviewOut }) {
  return (
    <p data-testid="review-decision">
      {row.status} by {row.reviewer ?? "?"}
      {row.decided_at ? ` on ${row.decided_at.slice(0, 16).replace("T", " ")}` : ""}
      {row.note ? ` (“${row.note}”)` : ""}
      {row.sandwich_id ? ". It is a sandwich of the corpus now." : "."}
    </p>
  );
}
