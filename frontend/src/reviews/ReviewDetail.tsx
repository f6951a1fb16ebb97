// One marginal sandwich opened: its breads and filling, type and heuristic, V and its four
// parts against their weights, the assembler's reasons; and the decision (once).
import { useEffect, useState } from "react";
import { reviewsApi } from "../api/sandwichCharts";
import type { SandwichReviewOut } from "../api/types.gen";
import { DecideForm, Decision, ReviewFacts, ValidityTable } from "./ReviewParts";

const REVIEWER_KEY = "wander.reviewer";

/** The review `id`, and its decision: once, by a named reviewer (remembered for the next). */
function useReview(id: string, onDecided: () => void) {
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
  return { row, error, form: { reviewer, setReviewer, note, setNote, busy, decide: (accept: boolean) => void decide(accept) } };
}

export function ReviewDetail({ id, onDecided, onClose }: { id: string; onDecided: () => void; onClose: () => void }) {
  const { row, error, form } = useReview(id, onDecided);

  if (!row) return error ? <p role="alert" data-testid="review-error">{error}</p> : <p className="muted">loading…</p>;
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
      <ReviewFacts row={row} />
      <ValidityTable row={row} />
      {row.assembly_rationale && (
        <p className="muted small" data-testid="review-rationale">
          {row.assembly_rationale}
        </p>
      )}
      {row.status === "pending" ? <DecideForm {...form} /> : <Decision row={row} />}
      {error && <p role="alert" data-testid="review-error">{error}</p>}
    </div>
  );
}
