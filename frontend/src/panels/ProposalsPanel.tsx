import { useCallback, useEffect, useState } from "react";
import { reads } from "../api/commands";
import { ApiError } from "../api/http";
import { lastProposalSeq, proposalsApi, reviewedImage } from "../api/proposals";
import type { CrystalOut, ProposalOut, WalletOut } from "../api/types.gen";
import { FractalSquare } from "../mindmap/nodes/FractalNode";
import { useWander } from "../store";
import { WalletView } from "./WalletView";
import "./proposals.css";

/** An amount of the paper wallet, in its currency units (¤; assets.toml sets them). */
export const money = (cents: unknown) => (typeof cents === "number" ? `${(cents / 100).toFixed(2)} ¤` : "–");
const REVIEWER_KEY = "wander.reviewer";

/** The session's crystals, none when they cannot be read (the queue lists the proposals still). */
const sessionCrystals = (sessionId: string): Promise<CrystalOut[]> => reads.sessionCrystals(sessionId).catch(() => []);

/** One proposal under review: the image exactly as fetched (its sha256 is what a decision binds to). */
function ProposalCard({ p, reviewer, onChange }: { p: ProposalOut; reviewer: string; onChange: () => void }) {
  const [image, setImage] = useState<{ url: string; sha256: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let gone = false;
    reviewedImage(p.image_url).then((img) => !gone && setImage(img), (e: Error) => !gone && setError(e.message));
    return () => {
      gone = true;
    };
  }, [p.image_url, p.image_sha256]);
  const e = p.evaluation as Record<string, unknown>;
  const evidence = (e.evidence ?? {}) as { loci?: { concept: string }[]; crystal?: { insight?: string } };

  const act = useCallback(
    async (what: "approve" | "reject" | "execute") => {
      setBusy(true);
      setError(null);
      try {
        if (what === "execute") await proposalsApi.execute(p.id);
        else await proposalsApi[what](p.id, { reviewer, image_sha256: image!.sha256, note: null });
        onChange();
      } catch (err) {
        setError(err instanceof ApiError ? `${err.status}: ${err.message}` : (err as Error).message);
      } finally {
        setBusy(false);
      }
    },
    [p.id, reviewer, image, onChange],
  );

  return (
    <li className="proposal" data-testid="proposal" data-status={p.status}>
      <div className="proposal-head">
        {image ? <FractalSquare imageUrl={image.url} status={p.status} size={96} title={`sha256 ${image.sha256}`} /> : <div className="fractal-square" style={{ width: 96, height: 96 }} />}
        <div className="proposal-body">
          <span className={`badge status-${p.status}`} data-testid="proposal-status">{p.status}</span>
          <p className="proposal-action">{String(e.action ?? "")}</p>
          <dl className="proposal-figures">
            <dt>EV</dt><dd>{money(e.expected_value_cents)}</dd>
            <dt>cost</dt><dd>{money(e.cost_cents)}</dd>
            <dt>worst-case loss</dt><dd>{money(e.worst_case_loss_cents)}</dd>
            <dt>risk</dt><dd>{String(e.risk ?? "–")}</dd>
            <dt>tractability</dt><dd>{String(e.tractability ?? "–")}</dd>
          </dl>
        </div>
      </div>
      <p className="muted small">
        evidence: {evidence.loci?.map((l) => l.concept).join(", ") || "–"} · image sha256 <code>{p.image_sha256.slice(0, 12)}…</code>
      </p>
      {p.decision ? (
        <p className="muted small" data-testid="proposal-decision">
          {p.decision.decision} by {p.decision.reviewer} at {new Date(p.decision.decided_at).toLocaleString()} via {p.decision.via}
        </p>
      ) : null}
      {p.execution ? <p className="small">executed: paper balance after {money(p.execution.balance_after_cents)}</p> : null}
      <div className="proposal-actions">
        {p.status === "pending" ? (
          <>
            <button type="button" className="primary" disabled={busy || !image || !reviewer} onClick={() => void act("approve")}>Approve</button>
            <button type="button" className="danger" disabled={busy || !image || !reviewer} onClick={() => void act("reject")}>Reject</button>
          </>
        ) : null}
        {/* on paper, and only once a person approved it */}
        {p.status === "approved" ? (
          <button type="button" disabled={busy} onClick={() => void act("execute")} title="Book it on the paper wallet">Execute on paper</button>
        ) : null}
      </div>
      {error ? <p className="proposal-error" role="alert">{error}</p> : null}
    </li>
  );
}

/** The review queue of this wander: accepted crystals to propose from, and proposals to decide on. */
export function ProposalsPanel({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  const [proposals, setProposals] = useState<ProposalOut[]>([]);
  const [crystals, setCrystals] = useState<CrystalOut[]>([]);
  const [reviewer, setReviewer] = useState(() => localStorage.getItem(REVIEWER_KEY) ?? "");
  const [error, setError] = useState<string | null>(null);
  const [wallet, setWallet] = useState<WalletOut | null>(null);
  const setOnMap = useWander((s) => s.setProposals);
  const refresh = useCallback(async () => {
    try {
      const [ps, cs] = await Promise.all([proposalsApi.list(sessionId), sessionCrystals(sessionId)]);
      setProposals(ps);
      setOnMap(ps);
      setCrystals(cs.filter((c) => c.validity?.verdict === "accepted" || c.human_approved));
    } catch (err) {
      setError((err as Error).message);
    }
    proposalsApi.wallet().then(setWallet, () => setWallet(null)); // (none without assets.toml: no view)
  }, [sessionId, setOnMap]);
  // every stage of a proposal is an event on this wander's socket: refresh when one arrives
  const proposalSeq = useWander((s) => lastProposalSeq(s.log));
  useEffect(() => {
    if (proposalSeq > 0) void refresh();
  }, [proposalSeq, refresh]);
  useEffect(() => {
    void refresh();
    // a slow poll for what no event of this socket reports (a crystal accepted elsewhere)
    const t = setInterval(() => void refresh(), 15000);
    return () => {
      clearInterval(t);
      setOnMap([]);
    };
  }, [refresh, setOnMap]);
  const pending = proposals.filter((p) => p.status === "pending").length;
  const proposed = new Set(proposals.map((p) => p.crystal_id));

  return (
    <section className={open ? "proposals-panel is-open" : "proposals-panel"} aria-label="proposals" data-testid="proposals-panel">
      <button type="button" className="proposals-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>Proposals {proposals.length ? `(${pending} pending of ${proposals.length})` : ""}
      </button>
      {open ? (
        <div className="proposals-content">
          <label className="field-inline">
            reviewer{" "}
            <input
              value={reviewer}
              placeholder="your name"
              onChange={(ev) => {
                setReviewer(ev.target.value);
                localStorage.setItem(REVIEWER_KEY, ev.target.value);
              }}
            />
          </label>
          {crystals.filter((c) => !proposed.has(c.id)).map((c) => (
            <div key={c.id} className="crystal-to-propose" data-crystal-id={c.id}>
              <span className="small">◆ {c.insight}</span>
              <button type="button" onClick={() => void proposalsApi.propose(c.id).then(refresh, (e: Error) => setError(e.message))}>
                Propose
              </button>
            </div>
          ))}
          {proposals.length === 0 && crystals.length === 0 ? <p className="muted small">No accepted crystal yet.</p> : null}
          <ul className="proposal-list">
            {proposals.map((p) => (
              <ProposalCard key={p.id} p={p} reviewer={reviewer} onChange={() => void refresh()} />
            ))}
          </ul>
          {error ? <p className="proposal-error">{error}</p> : null}
          <WalletView wallet={wallet} />
        </div>
      ) : null}
    </section>
  );
}
