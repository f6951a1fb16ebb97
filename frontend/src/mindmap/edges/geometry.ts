/** The segment between two circles' rims (centres sx,sy and tx,ty, radii sr, tr). */
export function rimToRim(sx: number, sy: number, sr: number, tx: number, ty: number, tr: number) {
  const dx = tx - sx;
  const dy = ty - sy;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  return { x1: sx + ux * sr, y1: sy + uy * sr, x2: tx - ux * tr, y2: ty - uy * tr, len };
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** How far either rail of a bridge (a step that crossed domains) lies from the step's line (px). */
export const RAIL_OFFSET = 2.5;

/** A bridge's two rails: the segment moved RAIL_OFFSET either side of itself (001's double line). */
export function bridgeRails({ x1, y1, x2, y2 }: Segment): [Segment, Segment] {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ox = (-(y2 - y1) / len) * RAIL_OFFSET;
  const oy = ((x2 - x1) / len) * RAIL_OFFSET;
  return [
    { x1: x1 + ox, y1: y1 + oy, x2: x2 + ox, y2: y2 + oy },
    { x1: x1 - ox, y1: y1 - oy, x2: x2 - ox, y2: y2 - oy },
  ];
}

/** One quadratic piece of a wave: its control point and where it ends. */
export interface Quad {
  cx: number;
  cy: number;
  x: number;
  y: number;
}

/** A resonance's wavy line along the segment: quadratic pieces of about 28 px (at least two),
 * bulging 9 px to either side in turn; it starts at (x1, y1). */
export function wavePieces({ x1, y1, x2, y2 }: Segment): Quad[] {
  const len = Math.hypot(x2 - x1, y2 - y1);
  const n = Math.max(2, Math.round(len / 28));
  const nx = -(y2 - y1) / (len || 1);
  const ny = (x2 - x1) / (len || 1);
  const out: Quad[] = [];
  for (let i = 1; i <= n; i++) {
    const t0 = (i - 0.5) / n;
    const t1 = i / n;
    const amp = (i % 2 ? 1 : -1) * 9;
    out.push({ cx: x1 + (x2 - x1) * t0 + nx * amp, cy: y1 + (y2 - y1) * t0 + ny * amp, x: x1 + (x2 - x1) * t1, y: y1 + (y2 - y1) * t1 });
  }
  return out;
}

/** The SVG path of wavePieces. */
export function wavePath(s: Segment): string {
  let d = `M ${s.x1},${s.y1}`;
  for (const q of wavePieces(s)) d += ` Q ${q.cx},${q.cy} ${q.x},${q.y}`;
  return d;
}
