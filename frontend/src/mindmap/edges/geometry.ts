/** The segment between two circles' rims (centres sx,sy and tx,ty, radii sr, tr). */
export function rimToRim(sx: number, sy: number, sr: number, tx: number, ty: number, tr: number) {
  const dx = tx - sx;
  const dy = ty - sy;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  return { x1: sx + ux * sr, y1: sy + uy * sr, x2: tx - ux * tr, y2: ty - uy * tr, len };
}
