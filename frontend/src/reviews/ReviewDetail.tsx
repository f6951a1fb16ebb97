// One marginal sandwich opened: its breads and filling, type and heuristic, V and its four
// parts against their weights, the assembler's reasons; and the decision (once).
import { useEffect, useState } from "react";
import { reviewsApi } from "../api/sandwichCharts";
import type { SandwichReviewOut } from "../api/types.gen";

const PARTS: [string, string, number][] = [
  ["bread_compat", "bread compatibility", 0.25],
  ["containment", "containment", 0.35],
  ["non_triviality", "non-triviality", 0.2],
  ["novelty", "novelty", 0.2],
];
const REVIEWER_KEY = "wander.reviewer";

export function ReviewDetail({ id, onDecided, onClose }: { id: string; onDecided: () => void; onClose: () => void }) {
  const [row, setRow] = useState<SandwichReviewOut | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reviewer, setReviewer] = useState(() => localStorage.getItem(REVIEWER_KEY) ?? "");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    reviewsApi.get(id).then(setRow, (e: Error) => setError(e.message));
  }, [id]);

  const decide = async (accept: boolean) => {
    if (!reviewer.trim()) {
      setError("Give your name as the reviewer first.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      localStorage.setItem(REVIEWER_KEY, reviewer.trim());
      setRow(await reviewsApi.decide(id, accept, reviewer.trim(), note));
      onDecided();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!row) return error ? <p role="alert" data-testid="review-error">{error}</p> : <p className="muted">loading…</p>;
  const v = row.validity as Record<string, unknown>;
  return (
    <div data-testid="review-detail" data-id={row.id} data-status={row.status}>
      <div className="review-detail-head">
        <h2 data-testid="review-name">{row.name}</h2>
        <button className="link" onClick={onClose} aria-label="close">×</button>
      </div>
      <p className="review-sandwich" data-testid="review-sandwich">
        <span className="bread">{row.bread_top}</span>
        <span className="filling">{row.filling}</span>
        <span className="bread">{row.bread_bottom}</span>
      </p>
      <p>{row.description}</p>
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
      {row.assembly_rationale && (
        <p className="muted small" data-testid="review-rationale">
          {row.assembly_rationale}
        </p>
      )}
      {row.status === "pending" ? (
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
      ) : (
        <p data-testid="review-decision">
          {row.status} by {row.reviewer ?? "?"}
          {row.decided_at ? ` on ${row.decided_at.slice(0, 16).replace("T", " ")}` : ""}
          {row.note ? ` (“${row.note}”)` : ""}
          {row.sandwich_id ? ". It is a sandwich of the corpus now." : "."}
        </p>
      )}
      {error && <p role="alert" data-testid="review-error">{error}</p>}
    </div>
  );
}
