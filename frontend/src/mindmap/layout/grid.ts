// A spatial grid of placed nodes, so that a placement looks only at what is near it and
// costs the same at 50 or 20,000 nodes.
import type { Point } from "./types";

/** Grid cell size (px). */
const CELL = 240;
/** A grid cell's key: one number (a string per cell looked up cost more than the lookups). */
const cellKey = (x: number, y: number) => (x + 0x100000) * 0x200000 + (y + 0x100000);

export class SpatialGrid {
  private readonly cells = new Map<number, Set<string>>();
  private readonly cellOf = new Map<string, number>();

  /** Files `id` under the cell of `p` (moving it from its former cell). */
  put(id: string, p: Point): void {
    const key = cellKey(Math.floor(p.x / CELL), Math.floor(p.y / CELL));
    const old = this.cellOf.get(id);
    if (old === key) return;
    if (old !== undefined) this.cells.get(old)?.delete(id);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new Set()));
    cell.add(id);
    this.cellOf.set(id, key);
  }

  remove(id: string): void {
    const old = this.cellOf.get(id);
    if (old !== undefined) this.cells.get(old)?.delete(id);
    this.cellOf.delete(id);
  }

  /** Ids within about `radius` of `p` (whole grid cells: a superset). */
  near(p: Point, radius: number): string[] {
    const out: string[] = [];
    const x0 = Math.floor((p.x - radius) / CELL);
    const x1 = Math.floor((p.x + radius) / CELL);
    const y0 = Math.floor((p.y - radius) / CELL);
    const y1 = Math.floor((p.y + radius) / CELL);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const cell = this.cells.get(cellKey(x, y));
        if (cell) for (const id of cell) out.push(id);
      }
    return out;
  }

  clear(): void {
    this.cells.clear();
    this.cellOf.clear();
  }
}
