import type { LocusDetail } from "../api/types.gen";

type Select = (locusId: string) => void;

/** The path's steps into and out of the locus; each opens the locus at its other end. */
export function ConnectionsSection({ detail, select }: { detail: LocusDetail; select: Select }) {
  if (!detail.connections.length) return null;
  return (
    <section>
      <h3>Connections</h3>
      <ul className="connections">
        {detail.connections.map((c) => (
          <li key={`${c.direction}-${c.step_number}-${c.locus_id}`}>
            <span className="muted small">
              step {c.step_number} {c.direction === "from" ? "from" : "to"}
            </span>{" "}
            <button type="button" className="linklike" onClick={() => select(c.locus_id)}>
              {c.concept}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Bridges({ bridges, select }: { bridges: NonNullable<LocusDetail["bridges_to"]>; select: Select }) {
  return (
    <>
      <h3>Bridges to</h3>
      <ul className="connections" data-testid="locus-bridges">
        {bridges.map((b) => (
          <li key={b.locus_id} title={b.via ?? undefined}>
            <button type="button" className="linklike" onClick={() => select(b.locus_id)}>
              {b.concept}
            </button>{" "}
            <span className="muted small">
              {b.bridge_type}
              {b.domains?.length === 2 ? ` (${b.domains[0]} / ${b.domains[1]})` : ""}, strength {b.strength.toFixed(2)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function Contradictions({ contradicts, select }: { contradicts: NonNullable<LocusDetail["contradicts"]>; select: Select }) {
  return (
    <>
      <h3>Contradicts</h3>
      <ul className="connections" data-testid="locus-contradicts">
        {contradicts.map((c) => (
          <li key={c.locus_id}>
            <button type="button" className="linklike" onClick={() => select(c.locus_id)}>
              {c.concept}
            </button>
            <div className="muted small">{c.tension_description}</div>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The loci the locus bridges to across domains and those it contradicts. */
export function LinksSection({ detail, select }: { detail: LocusDetail; select: Select }) {
  if (!detail.bridges_to?.length && !detail.contradicts?.length) return null;
  return (
    <section data-testid="locus-links">
      {detail.bridges_to?.length ? <Bridges bridges={detail.bridges_to} select={select} /> : null}
      {detail.contradicts?.length ? <Contradictions contradicts={detail.contradicts} select={select} /> : null}
    </section>
  );
}
