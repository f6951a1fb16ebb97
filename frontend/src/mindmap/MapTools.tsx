// The map's tools (top left): follow the walk, the whole map, zoom, and the switch between
// the Flow and the semantic (UMAP) layout.
import { LayoutSwitch } from "../panels/LayoutSwitch";
import type { LayoutMode } from "./layout/semantic";
import type { Projection } from "./layout/useProjection";
import type { Follow } from "./useFollow";

export function MapTools({ follow, mode, onMode, projection, semantic }: { follow: Follow; mode: LayoutMode; onMode: (m: LayoutMode) => void; projection: Projection; semantic: boolean }) {
  return (
    <div className="map-tools">
      <button type="button" className={follow.follow ? "tool is-on" : "tool"} onClick={follow.followAgain} title="Fit the whole walk and follow it as it grows">
        {follow.follow ? "Following" : "Fit & follow"}
      </button>
      <button
        type="button"
        className={follow.whole ? "tool is-on" : "tool"}
        aria-pressed={follow.whole}
        onClick={follow.showWhole}
        title="Show the whole walk, and keep showing it whole as it changes (instead of following the current locus)"
      >
        Whole map
      </button>
      <button type="button" className="tool" onClick={() => follow.zoom("in")} title="Zoom in" aria-label="Zoom in">
        +
      </button>
      <button type="button" className="tool" onClick={() => follow.zoom("out")} title="Zoom out" aria-label="Zoom out">
        −
      </button>
      <LayoutSwitch mode={mode} onChange={onMode} busy={mode === "semantic" && projection.loading && !semantic} error={mode === "semantic" ? projection.error : null} />
    </div>
  );
}
