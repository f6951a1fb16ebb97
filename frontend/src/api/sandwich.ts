// REST client for /api/v1/sandwich (SANDWICH foraging and corpus analysis). Types come from
// types.gen.ts; nothing the backend sends is hand-typed here.
import type { ForageLogEntry, ForageRequest, ForageRunOut, SandwichMetrics } from "./types.gen";

export const SANDWICH_API = "/api/v1/sandwich";

/** The parts of a stored sandwich row the forage log shows (GET /sandwiches sends the table's row). */
export interface SandwichRowLite {
  id: string;
  name: string;
  bread_top: string;
  filling: string;
  bread_bottom: string;
  structural_type: string;
  validity_score: number;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(parsed?.detail || parsed?.title || `${method} ${path}: HTTP ${res.status}`);
  return parsed as T;
}

export const sandwichApi = {
  metrics: () => call<SandwichMetrics>("GET", `${SANDWICH_API}/metrics`),
  forage: (body: Partial<ForageRequest>) => call<ForageRunOut>("POST", `${SANDWICH_API}/forage`, body),
  /** The forager's sandwiches (id, name, breads, filling, type, validity_score...): rows, not a contract type. */
  sandwiches: (limit = 500) => call<SandwichRowLite[]>("GET", `${SANDWICH_API}/sandwiches?origin=forager&limit=${limit}`),
  log: (runId: string) => call<ForageLogEntry[]>("GET", `${SANDWICH_API}/log?run_id=${encodeURIComponent(runId)}&limit=500`),
};
