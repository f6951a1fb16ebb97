import { memo } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { domainColour } from "../palette";

export type LocusNodeData = {
  concept: string;
  domains: string[];
  visits: number;
  r: number;
  current: boolean;
  seed: boolean;
  /** Planted, not walked to: a hint (dashed ring), never "current". */
  planted?: boolean;
  selected: boolean;
  step: number;
  /** Planted by a person as a hint, not visited yet. */
  hint?: boolean;
  /** A fence anchor sits here: a halo, green for include, red for exclude. */
  fence?: "include" | "exclude" | null;
  highlighted?: boolean;
  /** Reached by the latest step: it grows in (older loci, remounted as the view pans, do not). */
  fresh?: boolean;
};
export type LocusNodeType = Node<LocusNodeData, "locus">;

const hidden = { opacity: 0, top: "50%", left: "50%", width: 1, height: 1, minWidth: 0, minHeight: 0, border: 0, transform: "translate(-50%, -50%)" };

/** A visited concept: a circle sized by visits, coloured by its first domain. */
function LocusNodeView({ data }: NodeProps<LocusNodeType>) {
  const colour = domainColour(data.domains[0]);
  const d = data.r * 2;
  const cls = ["locus", data.current ? "is-current" : "", data.selected ? "is-selected" : "", data.seed ? "is-seed" : "",
    data.planted ? "is-planted" : "", data.hint ? "is-hint" : "", data.highlighted ? "is-highlighted" : "", data.fresh ? "is-fresh" : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div
      className={cls}
      style={{ width: d, height: d, ["--c" as string]: colour }}
      title={`${data.concept}\n${data.domains.join(", ") || "no domain"} · ${data.planted ? "planted, not visited yet" : `visited ${data.visits}×`}`}
      data-concept={data.concept}
      data-testid="locus-node"
      data-planted={data.planted ? "true" : undefined}
    >
      {data.fence ? <div className={`fence-halo is-${data.fence}`} data-testid={`fence-halo-${data.fence}`} /> : null}
      {data.hint ? <div className="hint-marker" title="hint: the next steps may go here" data-testid="hint-marker">✦</div> : null}
      <div className="locus-disc">{data.visits > 1 ? <span className="locus-visits">{data.visits}</span> : null}</div>
      <div className="locus-label" style={{ top: d + 4 }}>
        {data.concept}
      </div>
      {/* one handle, at the centre, for the edges at both ends (the map's connection mode is
          loose): a map of thousands of loci mounts, drops and updates one handle per locus, not two */}
      <Handle type="source" position={Position.Bottom} style={hidden} isConnectable={false} />
    </div>
  );
}
export const LocusNode = memo(LocusNodeView);
