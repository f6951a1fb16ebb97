// Steering from the map: every command a person gives goes through here to the REST API.
// The effect comes back as events like everything else; the command itself reports its
// result or the API's error as a notice on the map (nothing fails silently).
import { API_BASE, ApiError, request, s } from "./client";
import { crystallizeNotice } from "./crystallizeNotice";
import type { CompareOut, CrystalOut, CrystallizeOut, SessionOut, TraceStep } from "./types.gen";
import { HINT_DECAY_STEPS, useWander } from "../store";

function say(kind: "ok" | "error", text: string) {
  useWander.getState().say(kind, text);
}

/** Runs `call`, reports `ok(result)` or the error's detail; resolves to the result or null. */
async function command<T>(what: string, call: () => Promise<T>, ok: (r: T) => string): Promise<T | null> {
  try {
    const r = await call();
    say("ok", ok(r));
    return r;
  } catch (err) {
    const detail = err instanceof ApiError ? `${err.message}${err.field ? ` (${err.field})` : ""}` : String(err);
    say("error", `${what} failed: ${detail}`);
    return null;
  }
}

export const commands = {
  /** "Go here next" (force) or a hint: planted as a locus the next steps may choose. */
  inject: (sessionId: string, concept: string, force: boolean) =>
    command(
      force ? "Go here next" : "Hint",
      () => request<SessionOut>("POST", `${s(sessionId)}/inject`, { concept, force_visit: force }),
      () =>
        force
          ? `The next step goes to “${concept}”`
          : `“${concept}” planted as a hint: the next steps may choose it (not forced); it fades after ${HINT_DECAY_STEPS} steps without a visit`,
    ),
  // The map's fence is the fold of wander.fence.added / wander.fence.removed: no re-read here.
  fence: (sessionId: string, concept: string, action: "include" | "exclude") =>
    command(
      action === "include" ? "Fence in" : "Fence out",
      () => request<SessionOut>("POST", `${s(sessionId)}/fence`, { concept, action }),
      () => `Fence ${action === "include" ? "includes" : "excludes"} the region of “${concept}”`,
    ),
  removeFence: (sessionId: string, concept: string) =>
    command(
      "Remove fence",
      // the intervention (not the bare DELETE .../fences): it emits wander.fence.removed
      () => request<SessionOut>("DELETE", `${s(sessionId)}/fence?concept=${encodeURIComponent(concept)}`),
      () => `Fence anchor “${concept}” removed`,
    ),
  crystallize: (sessionId: string) =>
    command(
      "Crystallize",
      () => request<CrystallizeOut>("POST", `${s(sessionId)}/crystallize`),
      crystallizeNotice,
    ),
  subwander: (sessionId: string, locusId: string, maxSteps: number, budgetShare: number) =>
    command(
      "Go deeper",
      async () => {
        const child = await request<SessionOut>("POST", `${s(sessionId)}/loci/${encodeURIComponent(locusId)}/subwander`, {
          max_steps: maxSteps,
          budget_share: budgetShare,
        });
        await request("POST", `${s(child.id)}/wander`, { n_steps: maxSteps });
        useWander.getState().setChildren([...useWander.getState().children, { ...child, running: true }]);
        return child;
      },
      (c) => `Sub-wander “${c.seed_concept}” spawned and running (${c.max_steps} steps)`,
    ),
  review: (crystalId: string, verdict: "accept" | "reject") =>
    command(
      verdict === "accept" ? "Accept crystal" : "Reject crystal",
      () => request<CrystalOut>("POST", `${API_BASE}/crystals/${encodeURIComponent(crystalId)}/review`, { verdict }),
      (c) => `Crystal ${verdict === "accept" ? "accepted" : "rejected"} (status ${c.status})`,
    ),
};

/** Reads the map's panels need (not commands: no notice). */
export const reads = {
  sessionCrystals: (sessionId: string) => request<CrystalOut[]>("GET", `${s(sessionId)}/crystals`),
  children: (sessionId: string) => request<SessionOut[]>("GET", `${s(sessionId)}/children`),
  compare: (sessionId: string, a: string, b: string) =>
    request<CompareOut>("GET", `${s(sessionId)}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`),
  trace: (sessionId: string) => request<TraceStep[]>("GET", `${s(sessionId)}/trace`),
  attractorUrl: (crystalId: string) => `${API_BASE}/crystals/${encodeURIComponent(crystalId)}/attractor.png`,
};
