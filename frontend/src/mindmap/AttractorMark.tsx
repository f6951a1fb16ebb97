// The attractor's mark on the map (see attractorMark.ts): a ring among the loci nearest the
// attractor, its name beside it, one size on screen at any zoom. It takes no clicks: the loci
// under it stay clickable.
import { memo } from "react";
import { useStore, ViewportPortal } from "@xyflow/react";
import type { GraphState } from "../store";
import type { Point } from "./layout/types";
import { attractorPlace, useAttractor } from "./attractorMark";
import "./attractor.css";

function AttractorMarkView({ graph, positions }: { graph: GraphState; positions: Map<string, Point> }) {
  const zoom = useStore((s) => s.transform[2]);
  const out = useAttractor(graph.sessionId, graph.attractor, graph.order.length);
  const place = attractorPlace(out, positions);
  if (!place || !out?.attractor) return null;
  const nearest = graph.loci[place.nearestId]?.concept ?? "?";
  return (
    <ViewportPortal>
      <div
        className="attractor-mark"
        data-testid="attractor-mark"
        data-nearest={place.nearestId}
        style={{ left: place.at.x, top: place.at.y, transform: `translate(-50%, -50%) scale(${1 / zoom})` }}
        title={`The attractor, “${out.attractor}”, is a direction in meaning, not a place: this mark stands among the ${place.count} loci nearest it, the nearest “${nearest}” (similarity ${place.similarity.toFixed(2)}${out.seed_similarity !== null && out.seed_similarity !== undefined ? `; the seed's ${out.seed_similarity.toFixed(2)}` : ""})`}
      >
        <span className="attractor-ring" aria-hidden />
        <span className="attractor-name">
          attractor · <b>{out.attractor}</b>
        </span>
      </div>
    </ViewportPortal>
  );
}
export const AttractorMark = memo(AttractorMarkView);
