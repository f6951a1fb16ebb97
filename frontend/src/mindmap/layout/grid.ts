// A spatial grid of placed nodes, so that a placement looks only at what is near it and
// costs the same at 50 or 20,000 nodes.
import type { Point } from "./types";

/** Grid cell size (px). */
const CELL = 240;
/** A grid cell's key: one number (a string per cell looked up cost more than the lookups). */
const cellKey = (x: number, y: number) => (x + 0x100000) * 0x200000 + (y + 0x100000);

/** Placed nodes near a point, as SpatialGrid.nearAll finds them: ids, their positions (the
 * positions' own objects) and radii (20 where none was given), in the same order. */
export interface Found {
  ids: string[];
  pts: Point[];
  rs: number[];
}

/** A node in its cell. */
interface Entry {
  p: Point;
  r: number;
}

export class SpatialGrid {
  /** Each cell's nodes with their positions, in the order they were filed there. */
  private readonly cells = new Map<number, Map<string, Entry>>();
  private readonly cellOf = new Map<string, number>();

  /** Files `id` at `p` under the cell of `p` (moving it from its former cell; within its
   * cell it keeps its place). */
  put(id: string, p: Point): void {
    const key = cellKey(Math.floor(p.x / CELL), Math.floor(p.y / CELL));
    const old = this.cellOf.get(id);
    const was = old === undefined ? undefined : this.cells.get(old)?.get(id);
    if (old === key && was) {
      was.p = p;
      return;
    }
    if (old !== undefined) this.cells.get(old)?.delete(id);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new Map()));
    cell.set(id, { p, r: was?.r ?? 20 });
    this.cellOf.set(id, key);
  }

  /** The radius of `id`, filed already (nearAll gives it with the node). */
  setRadius(id: string, r: number): void {
    const key = this.cellOf.get(id);
    const e = key === undefined ? undefined : this.cells.get(key)?.get(id);
    if (e) e.r = r;
  }

  remove(id: string): void {
    const old = this.cellOf.get(id);
    if (old !== undefined) this.cells.get(old)?.delete(id);
    this.cellOf.delete(id);
  }

  /** Ids within about `radius` of `p` (whole grid cells: a superset). */
  near(p: Point, radius: number): string[] {
    return this.nearAll(p, radius).ids;
  }

  /** near's ids with their positions (a placement reads both: no lookup per id). */
  nearAll(p: Point, radius: number): Found {
    const ids: string[] = [];
    const pts: Point[] = [];
    const rs: number[] = [];
    const x0 = Math.floor((p.x - radius) / CELL);
    const x1 = Math.floor((p.x + radius) / CELL);
    const y0 = Math.floor((p.y - radius) / CELL);
    const y1 = Math.floor((p.y + radius) / CELL);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const cell = this.cells.get(cellKey(x, y));
        if (cell)
          for (const [id, e] of cell) {
            ids.push(id);
            pts.push(e.p);
            rs.push(e.r);
          }
      }
    return { ids, pts, rs };
  }

  clear(): void {
    this.cells.clear();
    this.cellOf.clear();
  }
}
