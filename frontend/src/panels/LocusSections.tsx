import type { LocusDetail, ResidueOut } from "../api/types.gen";
import type { MapLocus } from "../store";

/** A locus as the panel shows it: the server's detail, or the map's copy from the events. */
export type ShownLocus = LocusDetail | MapLocus;

/** Each score, its label and what it means (shown on hover). */
const SCORES: [keyof LocusDetail, string, string][] = [
  ["interestingness", "Interestingness", "How much the encounter that reached it gave: its distance band, domain crossing, novelty and concreteness (0-1). A third of the rank of a candidate step."],
  ["novelty_score", "Novelty", "How far it lies from everything the wander had visited before it (0-1)."],
  ["uncertainty", "Uncertainty", "How unsettled the dweller's reading of it is; the CA kernel lowers it when its text converges, raises it when it oscillates (0-1)."],
  ["actionability", "Actionability", "How concrete and usable an insight near it would be (0-1)."],
  ["abstraction_level", "Abstraction", "How abstract the concept is: 0 concrete thing, 1 pure idea."],
];

const FACETS: [keyof ResidueOut, string][] = [
  ["connection", "Connection"],
  ["tension", "Tension"],
  ["bridge", "Bridge"],
  ["surprise", "Surprise"],
  ["possibility", "Possibility"],
];

function Score({ label, value, help }: { label: string; value: number; help?: string }) {
  const v = Number.isFinite(value) ? value : 0;
  return (
    <div className="score" title={help}>
      <span className="score-label">{label}</span>
      <span className="score-bar">
        <span style={{ width: `${Math.max(0, Math.min(1, v)) * 100}%` }} />
      </span>
      <span className="score-val">{v.toFixed(2)}</span>
    </div>
  );
}

/** The locus's scores, its visits and, from the server's detail, why it was chosen. */
export function ScoresSection({ locus, why }: { locus: ShownLocus; why: string | null | undefined }) {
  return (
    <section>
      <h3>Scores</h3>
      {SCORES.map(([k, label, help]) => (
        <Score key={k} label={label} help={help} value={locus[k as keyof typeof locus] as number} />
      ))}
      <div className="score">
        <span className="score-label">Visits</span>
        <span className="score-val wide" data-testid="locus-visits">
          {locus.visit_count}
        </span>
      </div>
      {why ? (
        <div className="score">
          <span className="score-label">Chosen as</span>
          <span className="score-val wide" data-testid="locus-why">
            {why}
          </span>
        </div>
      ) : null}
    </section>
  );
}

function Residue({ residue }: { residue: ResidueOut }) {
  return (
    <>
      <dl className="facets">
        {FACETS.map(([k, label]) => (
          <div key={k} className="facet" data-facet={k}>
            <dt>{label}</dt>
            <dd>{String(residue[k] ?? "")}</dd>
          </div>
        ))}
      </dl>
      {residue.themes?.length ? (
        <div className="chips themes">
          {residue.themes.map((t) => (
            <span key={t} className="chip plain">
              {t}
            </span>
          ))}
        </div>
      ) : null}
      <div className="muted small">dwelt on by {residue.model_used}</div>
    </>
  );
}

/** The residue of the encounter that reached the locus, or why there is none. */
export function ResidueSection({ residue, sourceType }: { residue: ResidueOut | null | undefined; sourceType: string }) {
  return (
    <section data-testid="residue">
      <h3>Arrived by</h3>
      {residue ? (
        <Residue residue={residue} />
      ) : (
        <p className="muted">{sourceType === "SEED" ? "The seed: the walk starts here." : "No residue recorded yet."}</p>
      )}
    </section>
  );
}
