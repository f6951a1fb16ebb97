// REST calls of the archive room, through the generated client. The export document's rows
// are the stored rows (its OpenAPI answer is untyped), so only the parts the browser reads are
// typed here.
import { API_BASE, at, SESSION } from "./client";
import { client, data } from "./http";
import type { EventOut, SessionStatusName } from "./types.gen";

const s = (id: string) => `${API_BASE}/sessions/${encodeURIComponent(id)}`;

export interface ArchiveDoc {
  format: "wander-archive";
  version: number;
  final: boolean;
  fingerprint: string;
  session: { id: string; name: string; seed_concept: string; attractor: string | null; status: SessionStatusName; step_count: number };
  events: EventOut[];
}

export interface ArchiveQuery {
  q?: string;
  status?: "" | "completed" | "abandoned" | "paused";
  hasCrystals?: boolean;
  since?: string;
}

export const archiveApi = {
  doc: async (id: string) => (await data(client.GET(`${SESSION}/archive.json`, at(id)))) as unknown as ArchiveDoc,
  meta: (id: string) => data(client.GET(`${SESSION}/archive`, at(id))),
  projection: (id: string) => data(client.GET(`${SESSION}/projection`, at(id))),
  list(query: ArchiveQuery = {}) {
    const q = {
      q: query.q?.trim() || undefined,
      status: query.status || undefined,
      has_crystals: query.hasCrystals ? true : undefined,
      since: query.since ? new Date(query.since).toISOString() : undefined,
    };
    return data(client.GET("/api/v1/wander/archives", { params: { query: q } }));
  },
  exportUrl: (id: string, what: "archive.json" | "archive.md" | "umap.png") => `${s(id)}/${what}`,
};
