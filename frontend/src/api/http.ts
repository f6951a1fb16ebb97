// The one way the browser talks to the API. `authFetch` is the one fetch wrapper: a network
// failure or a non-2xx answer becomes an ApiError, and a 401 (behind WANDER_API_TOKEN) asks
// the person for the token once and tries again, for every call. `client` is the API client
// generated from the server's OpenAPI document (openapi.gen.ts, `make schemas`): every call's
// path, parameters, body and answer are typed by it, and it fetches through `authFetch`.
import createClient from "openapi-fetch";
import { whenSignedIn } from "./auth";
import type { paths } from "./openapi.gen";
import type { Problem } from "./types.gen";

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
  /** The request property the error is about, if the server named one. */
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

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, null, `network error: ${(err as Error).message}`);
  }
}

/** `fetch(path, init)` for every call to the API: resolves to a 2xx answer, else throws an
 * ApiError. A 401 shows the token prompt and, once signed in (the cookie it sets rides on the
 * retry), asks once more. */
export async function authFetch(path: string, init: RequestInit = {}): Promise<Response> {
  let res = await send(path, init);
  if (res.status === 401) {
    await whenSignedIn();
    res = await send(path, init);
  }
  if (res.ok) return res;
  const body = parsed(await res.text().catch(() => ""));
  throw new ApiError(res.status, isProblem(body) ? body : null, `${init.method ?? "GET"} ${path}: HTTP ${res.status}`);
}

function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The client builds a Request; the API is same-origin, so it is fetched by its path. */
async function fetchRequest(req: Request): Promise<Response> {
  const origin = globalThis.location?.origin;
  const path = origin && req.url.startsWith(`${origin}/`) ? req.url.slice(origin.length) : req.url;
  const headers: Record<string, string> = {};
  req.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = req.body === null ? undefined : await req.text();
  return authFetch(path, { method: req.method, headers, ...(body ? { body } : {}) });
}

export const client = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  fetch: fetchRequest,
  headers: { Accept: "application/json, application/problem+json" },
});

/** The answer's body (null when it has none) of a client call. */
export async function data<D>(call: Promise<{ data?: D }>): Promise<D> {
  const { data } = await call;
  return (data === undefined ? null : data) as D;
}
