// REST calls of the archive room (issue 11). The wire types come from types.gen.ts; the
// export document's rows are the stored rows, so only the parts the browser reads are typed.
import { API_BASE, ApiError } from "./client";
import type { ArchiveList, ArchiveOut, EventOut, ProjectionOut, SessionStatusName } from "./types.gen";

const s = (id: string) => `${API_BASE}/sessions/${encodeURIComponent(id)}`;

export interface ArchiveDoc {
  format: "wander-archive";
  version: number;
  final: boolean;
  fingerprint: string;
  session: { id: string; name: string; seed_concept: string; attractor: string | null; status: SessionStatusName; step_count: number };
  events: EventOut[];
}

async function get<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { headers: { Accept: "application/json, application/problem+json" } });
  } catch (err) {
    throw new ApiError(0, null, `network error: ${(err as Error).message}`);
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body, `GET ${path}: HTTP ${res.status}`);
  return body as T;
}

export interface ArchiveQuery {
  q?: string;
  status?: "" | "completed" | "abandoned" | "paused";
  hasCrystals?: boolean;
  since?: string;
}

export const archiveApi = {
  doc: (id: string) => get<ArchiveDoc>(`${s(id)}/archive.json`),
  meta: (id: string) => get<ArchiveOut>(`${s(id)}/archive`),
  projection: (id: string) => get<ProjectionOut>(`${s(id)}/projection`),
  list(query: ArchiveQuery = {}) {
    const q = new URLSearchParams();
    if (query.q?.trim()) q.set("q", query.q.trim());
    if (query.status) q.set("status", query.status);
    if (query.hasCrystals) q.set("has_crystals", "true");
    if (query.since) q.set("since", new Date(query.since).toISOString());
    const qs = q.toString();
    return get<ArchiveList>(`${API_BASE}/archives${qs ? `?${qs}` : ""}`);
  },
  exportUrl: (id: string, what: "archive.json" | "archive.md" | "umap.png") => `${s(id)}/${what}`,
};
