// REST client for /api/v1/wander. Types come from types.gen.ts (generated from
// shared_schemas/models.py); nothing the backend sends is hand-typed here.
import { whenSignedIn } from "./auth";
import type {
  LocusDetail,
  Problem,
  SessionCreate,
  SessionList,
  SessionOut,
  SessionPatch,
  SessionStatusName,
  StepOut,
  WanderStarted,
} from "./types.gen";

export const API_BASE = "/api/v1/wander";

/** A non-2xx answer. `problem` is the RFC 9457 body when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | null;
  constructor(status: number, problem: Problem | null, fallback: string) {
    super(problem?.detail || problem?.title || fallback);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem;
  }
  /** The SessionCreate property the error is about, if the server named one. */
  get field(): string | null {
    return this.problem?.field ?? null;
  }
}

function isProblem(body: unknown): body is Problem {
  return (
    typeof body === "object" &&
    body !== null &&
    ("detail" in body || "title" in body) &&
    typeof (body as { status?: unknown }).status === "number"
  );
}

export async function request<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: "application/json, application/problem+json" } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, null, `network error: ${(err as Error).message}`);
  }
  if (res.status === 401 && !retried) {
    await whenSignedIn(); // the token prompt; the cookie it sets rides on the retry
    return request<T>(method, path, body, true);
  }
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!res.ok) {
    throw new ApiError(res.status, isProblem(parsed) ? parsed : null, `${method} ${path}: HTTP ${res.status}`);
  }
  return parsed as T;
}

export const s = (id: string) => `${API_BASE}/sessions/${encodeURIComponent(id)}`;

export const api = {
  listSessions(params: { limit?: number; offset?: number; status?: SessionStatusName | "" } = {}) {
    const q = new URLSearchParams();
    if (params.limit !== undefined) q.set("limit", String(params.limit));
    if (params.offset !== undefined) q.set("offset", String(params.offset));
    if (params.status) q.set("status", params.status);
    const qs = q.toString();
    return request<SessionList>("GET", `${API_BASE}/sessions${qs ? `?${qs}` : ""}`);
  },
  domains: () => request<string[]>("GET", `${API_BASE}/domains`),
  createSession: (body: SessionCreate) => request<SessionOut>("POST", `${API_BASE}/sessions`, body),
  getSession: (id: string) => request<SessionOut>("GET", s(id)),
  children: (id: string) => request<SessionOut[]>("GET", `${s(id)}/children`),
  updateSession: (id: string, body: SessionPatch) => request<SessionOut>("PATCH", s(id), body),
  step: (id: string) => request<StepOut>("POST", `${s(id)}/step`),
  wander: (id: string, n_steps: number) => request<WanderStarted>("POST", `${s(id)}/wander`, { n_steps }),
  pause: (id: string) => request<SessionOut>("POST", `${s(id)}/pause`),
  resume: (id: string) => request<SessionOut>("POST", `${s(id)}/resume`),
  stop: (id: string) => request<SessionOut>("POST", `${s(id)}/stop`),
  deleteSession: (id: string) => request<null>("DELETE", s(id)),
  locus: (id: string, locusId: string) =>
    request<LocusDetail>("GET", `${s(id)}/loci/${encodeURIComponent(locusId)}`),
};

/** ws(s)://host/ws/sessions/{id}?after_seq=N for the page's own origin. */
export function sessionSocketUrl(sessionId: string, afterSeq: number, loc: Location = window.location): string {
  const proto = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${loc.host}/ws/sessions/${encodeURIComponent(sessionId)}?after_seq=${afterSeq}`;
}
