// A large map at far zoom: its regions (loci of one domain lying together) drawn as tinted
// outlines with their domain and count, and the loci that matter labelled (overview.ts). In
// map coordinates inside the viewport: a pan moves it with the map and renders nothing; a
// zoom keeps its text at one size on screen.
import { memo, useMemo } from "react";
import { useStore, ViewportPortal } from "@xyflow/react";
import type { GraphState } from "../store";
import type { Point } from "./layout/types";
import { LABEL_ZOOM } from "./FarCanvas";
import { keyLoci, MIXED, OVERVIEW_FROM, placeLabels, type Region } from "./overview";
import { domainColour, locusRadius } from "./palette";

/** `regions`: the map's (MindMap works them out: a large map's canvas draws their outlines,
 * then `shapes` is false and only their labels are drawn here). */
function OverviewView({ graph, positions, regions, shapes }: { graph: GraphState; positions: Map<string, Point>; regions: Region[]; shapes: boolean }) {
  const zoom = useStore((s) => s.transform[2]);
  const far = zoom < LABEL_ZOOM && graph.order.length >= OVERVIEW_FROM;
  const keys = useMemo(() => (far ? keyLoci(graph, positions) : []), [far, graph, positions]);
  // (labels that would cover each other: the smaller region's moves, or goes)
  const labelAt = useMemo(() => placeLabels(regions, zoom), [regions, zoom]);
  if (!far || regions.length + keys.length === 0) return null;
  const k = 1 / zoom;
  return (
    <ViewportPortal>
      {shapes ? (
      <svg className="overview-shapes" width={1} height={1} aria-hidden>
        {regions.map((r) => (
          <polygon
            key={r.id}
            points={r.hull.map((p) => `${p.x},${p.y}`).join(" ")}
            fill={domainColour(r.domain.split(MIXED)[0])}
            fillOpacity={0.1}
            stroke={domainColour(r.domain.split(MIXED)[0])}
            strokeOpacity={0.55}
            strokeWidth={1.5 * k}
            strokeLinejoin="round"
          />
        ))}
      </svg>
      ) : null}
      {regions.map((r, i) => {
        const at = labelAt[i];
        return at ? (
          <div
            key={r.id}
            className="overview-region"
            data-testid="overview-region"
            style={{ left: at.x, top: at.y, transform: `translate(-50%, -50%) scale(${k})`, color: domainColour(r.domain.split(MIXED)[0]) }}
            title={r.domain.includes(MIXED) ? `${r.count} loci lie here, most of them of ${r.domain.split(MIXED).join(" and ")}` : `${r.count} loci lie here, most of them of ${r.domain}`}
          >
            {r.domain} <b>{r.count}</b>
          </div>
        ) : null;
      })}
      {keys.map((l) => (
        <div
          key={l.id}
          className={`overview-key is-${l.why}`}
          data-testid="overview-key"
          style={{ left: l.at.x, top: l.at.y + locusRadius(graph.loci[l.id]?.visit_count ?? 1), transform: `translate(-50%, 4px) scale(${k})`, transformOrigin: "top center" }}
        >
          {l.why === "crystal" ? "◆ " : l.why === "hint" ? "✦ " : ""}
          {l.concept}
        </div>
      ))}
    </ViewportPortal>
  );
}
export const Overview = memo(OverviewView);
