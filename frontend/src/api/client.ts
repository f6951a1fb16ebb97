// The wanders' REST calls (/api/v1/wander/sessions...), through the generated client (http.ts):
// the paths, parameters and answers are typed by the server's OpenAPI document.
import { client, data } from "./http";
import type { SessionCreate, SessionPatch, SessionStatusName } from "./types.gen";

export const API_BASE = "/api/v1/wander";

/** A session's path as the OpenAPI document names it, and the parameters that fill it in. */
export const SESSION = "/api/v1/wander/sessions/{session_id}";
export const at = (id: string) => ({ params: { path: { session_id: id } } });

export const api = {
  listSessions(params: { limit?: number; offset?: number; status?: SessionStatusName | "" } = {}) {
    const query = { limit: params.limit, offset: params.offset, status: params.status || undefined };
    return data(client.GET("/api/v1/wander/sessions", { params: { query } }));
  },
  domains: () => data(client.GET("/api/v1/wander/domains")),
  createSession: (body: SessionCreate) => data(client.POST("/api/v1/wander/sessions", { body })),
  getSession: (id: string) => data(client.GET(SESSION, at(id))),
  children: (id: string) => data(client.GET(`${SESSION}/children`, at(id))),
  updateSession: (id: string, body: SessionPatch) => data(client.PATCH(SESSION, { ...at(id), body })),
  step: (id: string) => data(client.POST(`${SESSION}/step`, at(id))),
  wander: (id: string, n_steps: number) => data(client.POST(`${SESSION}/wander`, { ...at(id), body: { n_steps } })),
  pause: (id: string) => data(client.POST(`${SESSION}/pause`, at(id))),
  resume: (id: string) => data(client.POST(`${SESSION}/resume`, at(id))),
  stop: (id: string) => data(client.POST(`${SESSION}/stop`, at(id))),
  deleteSession: (id: string) => data(client.DELETE(SESSION, at(id))),
  locus: (id: string, locusId: string) =>
    data(client.GET(`${SESSION}/loci/{locus_id}`, { params: { path: { session_id: id, locus_id: locusId } } })),
  /** The next step's candidates from the current locus (a preview: nothing is written or drawn). */
  nextCandidates: (id: string) => data(client.GET(`${SESSION}/next-candidates`, at(id))),
  /** The attractor among the walk's loci, for its mark on the map. */
  attractor: (id: string) => data(client.GET(`${SESSION}/attractor`, at(id))),
};

/** ws(s)://host/ws/sessions/{id}?after_seq=N for the page's own origin. */
export function sessionSocketUrl(sessionId: string, afterSeq: number, loc: Location = window.location): string {
  const proto = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${loc.host}/ws/sessions/${encodeURIComponent(sessionId)}?after_seq=${afterSeq}`;
}
