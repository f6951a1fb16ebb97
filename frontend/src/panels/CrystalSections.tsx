import type { CrystalOut } from "../api/types.gen";
import type { crystalState } from "./crystalState";
import type { crystalTypeChip } from "./crystalType";
import type { Weighed } from "./crystalWeighed";

const PARTS: [string, string][] = [
  ["bread_compat", "Bread compatibility"],
  ["containment", "Containment"],
  ["non_triviality", "Non-triviality"],
  ["novelty", "Novelty"],
];

interface SandwichProps {
  breadA: string;
  filling: string;
  breadB: string;
  state: ReturnType<typeof crystalState>;
  typeChip: ReturnType<typeof crystalTypeChip>;
}

/** The crystal's sandwich (bread, filling, bread), its state and its structural type. */
export function SandwichSection({ breadA, filling, breadB, state, typeChip }: SandwichProps) {
  return (
    <section>
      <h3>Sandwich</h3>
      <ol className="sandwich" data-testid="crystal-sandwich">
        <li><span className="muted small">bread A</span> {breadA}</li>
        <li className="filling"><span className="muted small">filling</span> {filling}</li>
        <li><span className="muted small">bread B</span> {breadB}</li>
      </ol>
      <div className="chips">
        {/* one state: the gate's verdict, or a person's on a crystal the gate left to them */}
        <span className={`chip crystal-state is-${state.tone}`} data-testid="crystal-status">
          {state.text}
        </span>
        {typeChip ? (
          <span className={typeChip.named ? "chip plain" : "chip plain muted"} title={typeChip.title} data-testid="crystal-type">
            {typeChip.text}
          </span>
        ) : null}
      </div>
    </section>
  );
}

/** V and its four parts; `num` reads a part (null when the detail has not come). */
export function ValiditySection({ V, num }: { V: number; num: (k: string) => number | null }) {
  return (
    <section data-testid="crystal-validity">
      <h3>Validity V = {V.toFixed(3)}</h3>
      {PARTS.map(([k, label]) => (
        <div className="score" key={k}>
          <span className="score-label">{label}</span>
          <span className="score-bar"><span style={{ width: `${Math.round((num(k) ?? 0) * 100)}%` }} /></span>
          <span className="score-val">{num(k)?.toFixed(2) ?? "–"}</span>
        </div>
      ))}
    </section>
  );
}

/** A person's accept or reject, for a crystal the gate kept for review. */
export function ReviewSection({ busy, review }: { busy: boolean; review: (which: "accept" | "reject") => void }) {
  return (
    <section className="review" data-testid="crystal-review">
      <h3>Your verdict</h3>
      <p className="muted small">The gate kept this crystal for a person to judge (0.5 ≤ V &lt; 0.7).</p>
      <button type="button" className="primary" disabled={busy} onClick={() => review("accept")}>Accept</button>{" "}
      <button type="button" className="danger" disabled={busy} onClick={() => review("reject")}>Reject</button>
    </section>
  );
}

/** The rumination that led to the crystal, one lens (or query) and its finding a step. */
export function RuminationSection({ rumination }: { rumination: NonNullable<CrystalOut["rumination"]> }) {
  return (
    <section>
      <h3>Rumination ({rumination.length} steps)</h3>
      <ol className="rumination" data-testid="crystal-rumination">
        {rumination.map((st, i) => (
          <li key={i}>
            <span className="chip plain">{String(st.lens ?? st.query ?? "step")}</span> {String(st.finding ?? st.summary ?? st.thought ?? "")}
            {st.signal ? <span className="muted small"> [{String(st.signal)}]</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The other sandwiches the gate weighed for this crystal, and why it did not form them. */
export function WeighedSection({ weighed }: { weighed: Weighed[] }) {
  return (
    <section>
      <h3>Also weighed by the gate ({weighed.length})</h3>
      <ol className="weighed" data-testid="crystal-weighed">
        {weighed.map((w, i) => (
          <li key={i}>
            {w.bread[0]} · <strong>{w.filling}</strong> · {w.bread[1]}{" "}
            <span className="chip plain">{w.firstTry ? `first try, ${w.verdict}` : w.verdict}</span>
            {w.V !== null ? <span className="muted small"> V {w.V.toFixed(2)}</span> : null}
            {w.why ? <div className="muted small">{w.why}</div> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
