// The review queue (004 3.2.4): marginal sandwiches (0.5 <= V < 0.7) the forager kept for a
// person instead of dropping. The counts by status (each a filter), the list, one sandwich
// opened with its validity's parts and the assembler's reasons, and the decision: accept (it
// joins the corpus) or reject, once, with the reviewer's name and a note.
import { useCallback, useEffect, useState } from "react";
import { reviewsApi, type ReviewStatus } from "../api/sandwichCharts";
import type { ReviewCounts, SandwichReviewOut } from "../api/types.gen";
import { Brand } from "../panels/Brand";
import { Link, navigate } from "../router";
import { ReviewDetail } from "./ReviewDetail";
import "./reviews.css";

const FILTERS: ReviewStatus[] = ["pending", "accepted", "rejected", "all"];

/** The reviews with `status` and the counts of each status; `load` reads both again. */
function useReviewQueue(status: ReviewStatus) {
  const [rows, setRows] = useState<SandwichReviewOut[] | null>(null);
  const [counts, setCounts] = useState<ReviewCounts | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    reviewsApi.list(status).then(setRows, (e: Error) => setError(e.message));
    reviewsApi.counts().then(setCounts, (e: Error) => setError(e.message));
  }, [status]);
  useEffect(load, [load]);
  return { rows, counts, error, load };
}

const open = (id: string | null) => navigate(id ? `/reviews/${encodeURIComponent(id)}` : "/reviews");

function QueueHeader({ error }: { error: string | null }) {
  return (
    <header className="topbar">
      <Brand />
      <div className="session-title">
        <h1>Review queue</h1>
      </div>
      <nav className="topnav" aria-label="pages">
        <Link to="/">← Wanders</Link>
        <Link to="/analysis">Sandwich corpus</Link>
      </nav>
      {error && <span role="alert">{error}</span>}
    </header>
  );
}

/** One tab a status, with its count; the chosen one filters the list. */
function StatusTabs({ status, counts, setStatus }: { status: ReviewStatus; counts: ReviewCounts | null; setStatus: (s: ReviewStatus) => void }) {
  return (
    <div className="review-filters" role="tablist" aria-label="status" data-testid="review-counts">
      {FILTERS.map((f) => (
        <button
          key={f}
          role="tab"
          aria-selected={status === f}
          className={status === f ? "active" : ""}
          data-testid={`review-filter-${f}`}
          onClick={() => setStatus(f)}
        >
          {f} <span className="count" data-testid={`review-count-${f}`}>{countOf(counts, f)}</span>
        </button>
      ))}
    </div>
  );
}

function ReviewTable({ rows, openId }: { rows: SandwichReviewOut[]; openId: string | null }) {
  return (
    <table>
      <thead>
        <tr><th>sandwich</th><th>breads | filling</th><th>type</th><th>V</th><th>status</th></tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.id}
            data-testid="review-row"
            data-id={r.id}
            data-status={r.status}
            className={r.id === openId ? "selected" : ""}
            onClick={() => open(r.id)}
          >
            <td>
              <a href={`/reviews/${r.id}`} onClick={(e) => (e.preventDefault(), open(r.id))}>
                {r.name}
              </a>
            </td>
            <td className="small">
              {r.bread_top} | <b>{r.filling}</b> | {r.bread_bottom}
            </td>
            <td className="small">{r.structural_type}</td>
            <td>{r.validity_score.toFixed(2)}</td>
            <td className="small">{r.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The list while it loads, when it is empty (saying why), or its table. */
function ReviewList({ rows, status, openId }: { rows: SandwichReviewOut[] | null; status: ReviewStatus; openId: string | null }) {
  if (rows === null) return <p className="muted">loading…</p>;
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="review-empty">
        {status === "pending"
          ? "Nothing waits for review. Marginal sandwiches (0.5 ≤ V < 0.7) appear here as the forager makes them: forage from the Sandwich corpus page or run `wander forage`."
          : `No ${status === "all" ? "" : `${status} `}reviews yet.`}
      </p>
    );
  return <ReviewTable rows={rows} openId={openId} />;
}

export function ReviewQueuePage({ openId = null }: { openId?: string | null }) {
  const [status, setStatus] = useState<ReviewStatus>("pending");
  const { rows, counts, error, load } = useReviewQueue(status);

  return (
    <div className="page review-queue-page">
      <QueueHeader error={error} />
      <div className="review-queue-body">
        <p className="muted" data-testid="review-intro">
          A sandwich whose validity V lands between 0.5 and 0.7 is marginal (SANDWICH 004, 3.2.4): not good enough to join the
          corpus on its own, not bad enough to drop. The forager keeps each here for a person. Accept one and it joins the
          corpus (its metrics and pictures); reject it and it stays here as history. A decision is made once.
        </p>
        <StatusTabs status={status} counts={counts} setStatus={setStatus} />
        <div className="review-columns">
          <section className="card review-list" aria-label="marginal sandwiches">
            <ReviewList rows={rows} status={status} openId={openId} />
          </section>
          <section className="card review-open" aria-label="the sandwich opened">
            {openId ? (
              <ReviewDetail key={openId} id={openId} onDecided={load} onClose={() => open(null)} />
            ) : (
              <p className="muted" data-testid="review-none-open">Open a sandwich from the list to read it and decide.</p>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}

function countOf(c: ReviewCounts | null, f: ReviewStatus): string {
  if (!c) return "…";
  return String(f === "all" ? c.pending + c.accepted + c.rejected : c[f]);
}
