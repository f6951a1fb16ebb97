// A Wheeler memory brick as the viewer reads it: BrickOut (one byte a cell, base64) decoded,
// and a frame painted with the diverging map of the attractor pictures (blue -1, white 0,
// red +1; wander.ca.image), so the last frame looks like the crystal's thumbnail.
import { API_BASE } from "../api/client";
import { client, data } from "../api/http";
import type { BrickOut } from "../api/types.gen";

export type BrickSource = { kind: "memory"; id: string } | { kind: "crystal"; id: string } | { kind: "text"; text: string };

export function brickApiPath(src: BrickSource): string {
  if (src.kind === "memory") return `${API_BASE}/memory/${encodeURIComponent(src.id)}/brick`;
  if (src.kind === "crystal") return `${API_BASE}/crystals/${encodeURIComponent(src.id)}/brick`;
  return `${API_BASE}/bricks?text=${encodeURIComponent(src.text)}`;
}

/** The viewer's page for a brick: /memory/<memory id>, /memory/crystal/<id>, /memory/text/<text>. */
export function brickPagePath(src: BrickSource): string {
  if (src.kind === "memory") return `/memory/${encodeURIComponent(src.id)}`;
  if (src.kind === "crystal") return `/memory/crystal/${encodeURIComponent(src.id)}`;
  return `/memory/text/${encodeURIComponent(src.text)}`;
}

export function loadBrick(src: BrickSource): Promise<BrickOut> {
  if (src.kind === "memory") return data(client.GET("/api/v1/wander/memory/{memory_id}/brick", { params: { path: { memory_id: src.id } } }));
  if (src.kind === "crystal") return data(client.GET("/api/v1/wander/crystals/{crystal_id}/brick", { params: { path: { crystal_id: src.id } } }));
  return data(client.GET("/api/v1/wander/bricks", { params: { query: { text: src.text } } }));
}

export type DecodedBrick = BrickOut & { bytes: Uint8Array; frameCount: number };

export function decodeBrick(b: BrickOut): DecodedBrick {
  const bin = atob(b.frames);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const cells = b.height * b.width;
  if (cells <= 0 || bytes.length % cells !== 0) throw new Error(`frames: ${bytes.length} bytes is not a whole number of ${b.height}x${b.width} frames`);
  return { ...b, bytes, frameCount: bytes.length / cells };
}

/** A cell's value in [-1, 1] from its byte. */
export const cellValue = (byte: number) => byte / 127.5 - 1;

const BLUE = [33, 102, 172];
const WHITE = [247, 247, 247];
const RED = [178, 24, 43];

/** RGB of each of the 256 bytes, as wander.ca.image.frame_rgb colours the value. */
export const PALETTE: Uint8ClampedArray = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let b = 0; b < 256; b++) {
    const x = cellValue(b);
    const end = x < 0 ? BLUE : RED;
    const t = Math.min(1, Math.abs(x));
    for (let k = 0; k < 3; k++) lut[b * 3 + k] = Math.round(WHITE[k] + (end[k] - WHITE[k]) * t);
  }
  return lut;
})();

/** The bytes of frame `tick` (seed = 0). */
export function frameBytes(b: DecodedBrick, tick: number): Uint8Array {
  const cells = b.height * b.width;
  const t = Math.max(0, Math.min(b.frameCount - 1, tick));
  return b.bytes.subarray(t * cells, (t + 1) * cells);
}

/** RGBA pixels of frame `tick`, one pixel a cell (for ImageData). */
export function frameRGBA(b: DecodedBrick, tick: number): Uint8ClampedArray {
  const src = frameBytes(b, tick);
  const out = new Uint8ClampedArray(src.length * 4);
  for (let i = 0; i < src.length; i++) {
    const p = src[i] * 3;
    out[i * 4] = PALETTE[p];
    out[i * 4 + 1] = PALETTE[p + 1];
    out[i * 4 + 2] = PALETTE[p + 2];
    out[i * 4 + 3] = 255;
  }
  return out;
}

/** A short fingerprint of a frame's bytes (FNV-1a), so a test can tell frames apart. */
export function frameHash(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** Share of cells that moved by more than one step between two ticks (how much is still happening). */
export function movedShare(b: DecodedBrick, from: number, to: number): number {
  const a = frameBytes(b, from);
  const c = frameBytes(b, to);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - c[i]) > 1) n++;
  return a.length ? n / a.length : 0;
}
