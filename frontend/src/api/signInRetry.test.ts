// Behind WANDER_API_TOKEN every call, whichever page makes it, asks for the token on a 401
// and is sent again once signed in; an answer that is not 2xx is an ApiError with the
// server's problem body.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { archiveApi } from "./archive";
import { signIn, useAuth } from "./auth";
import { commands } from "./commands";
import { ApiError } from "./http";
import { proposalsApi, reviewedImage } from "./proposals";
import { sandwichApi } from "./sandwich";
import { reviewsApi } from "./sandwichCharts";
import { loadBrick } from "../memory/brick";
import { evaluationApi } from "../evaluation/evaluationApi";

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** A server that answers 401 to everything until the token "s3cret" is posted. */
function lockedServer(answer: unknown = { ok: true }) {
  const calls: Call[] = [];
  let signedIn = false;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url: String(url), method: init?.method ?? "GET", headers: (init?.headers ?? {}) as Record<string, string>, body });
      if (url === "/api/v1/auth/session") {
        signedIn = body.token === "s3cret";
        return new Response(null, { status: signedIn ? 204 : 401 });
      }
      if (!signedIn) return new Response(JSON.stringify({ title: "Unauthorized", status: 401, detail: "token" }), { status: 401 });
      return new Response(JSON.stringify(answer), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

/** Resolves `call` once the prompt it opened is answered with the token. */
async function signedInAnswer<T>(call: Promise<T>): Promise<T> {
  await vi.waitFor(() => expect(useAuth.getState().needed).toBe(true));
  expect(await signIn("s3cret")).toBe(true);
  return call;
}

beforeEach(() => useAuth.setState({ needed: false, error: null }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a call behind the API token", () => {
  const decision = { reviewer: "ann", image_sha256: "ab", note: "" } as Parameters<typeof proposalsApi.approve>[1];
  const cases: [string, string, () => Promise<unknown>][] = [
    ["approve", "/api/v1/wander/proposals/p-1/approve", () => proposalsApi.approve("p-1", decision)],
    ["reject", "/api/v1/wander/proposals/p-1/reject", () => proposalsApi.reject("p-1", decision)],
    ["execute", "/api/v1/wander/proposals/p-1/execute", () => proposalsApi.execute("p-1")],
    ["the wallet", "/api/v1/wander/wallet", () => proposalsApi.wallet()],
    ["an archive's record", "/api/v1/wander/sessions/s-1/archive", () => archiveApi.meta("s-1")],
    ["the archives list", "/api/v1/wander/archives?status=completed", () => archiveApi.list({ status: "completed" })],
    ["the sandwich metrics", "/api/v1/sandwich/metrics", () => sandwichApi.metrics()],
    ["the forage log", "/api/v1/sandwich/log?run_id=r%201&limit=500", () => sandwichApi.log("r 1")],
    ["a review decision", "/api/v1/sandwich/reviews/v-1/accept", () => reviewsApi.decide("v-1", true, "ann", "fine")],
    ["the evaluation sample", "/api/v1/sandwich/evaluation/sample?n=10&judge=ann", () => evaluationApi.sample("ann")],
    ["a brick", "/api/v1/wander/bricks?text=a%2Fb%20c", () => loadBrick({ kind: "text", text: "a/b c" })],
  ];
  it.each(cases)("%s asks for the token and is sent again", async (_what, url, call) => {
    const calls = lockedServer();
    expect(await signedInAnswer(call())).toEqual({ ok: true });
    const sent = calls.filter((c) => c.url === url);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toEqual(sent[0].body);
  });

  it("a proposal decision says it was made on the web, and sends its body as JSON", async () => {
    const calls = lockedServer();
    await signedInAnswer(proposalsApi.approve("p-1", decision));
    const sent = calls.find((c) => c.url.endsWith("/approve"))!;
    expect(sent.method).toBe("POST");
    expect(sent.headers["x-wander-client"]).toBe("vislzr");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.body).toEqual(decision);
  });

  it("the reviewed image's bytes are fetched behind the token too", async () => {
    const calls = lockedServer();
    const url = "/api/v1/wander/proposals/p-1/image.png";
    // (hashing the bytes is not this test's business: jsdom's buffers are not WebCrypto's)
    vi.spyOn(crypto.subtle, "digest").mockResolvedValue(new Uint8Array(32).buffer);
    vi.stubGlobal("URL", class extends URL {
      static createObjectURL = () => "blob:x";
    });
    const img = await signedInAnswer(reviewedImage(url));
    expect(img).toEqual({ url: "blob:x", sha256: "0".repeat(64) });
    expect(calls.filter((c) => c.url === url)).toHaveLength(2);
  });

  it("a command's failure is the server's problem, named on the map", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ type: "about:blank", title: "Invalid input", status: 422, detail: "concept: too long", field: "concept" }), { status: 422 })),
    );
    const err = await archiveApi.meta("s-1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).field).toBe("concept");
    expect(await commands.inject("s-1", "x", true)).toBeNull();
  });

  it("a network failure is an ApiError with status 0", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("offline"))));
    const err = await sandwichApi.metrics().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
    expect((err as ApiError).message).toMatch(/network error: offline/);
  });
});
