// Steering from the map: every command a person gives goes through here to the REST API.
// The effect comes back as events like everything else; the command itself reports its
// result or the API's error as a notice on the map (nothing fails silently).
import { API_BASE, at, SESSION } from "./client";
import { ApiError, client, data } from "./http";
import { crystallizeNotice } from "./crystallizeNotice";
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
      () => data(client.POST(`${SESSION}/inject`, { ...at(sessionId), body: { concept, force_visit: force } })),
      () =>
        force
          ? `The next step goes to “${concept}”`
          : `“${concept}” planted as a hint: the next steps may choose it (not forced); it fades after ${HINT_DECAY_STEPS} steps without a visit`,
    ),
  // The map's fence is the fold of wander.fence.added / wander.fence.removed: no re-read here.
  fence: (sessionId: string, concept: string, action: "include" | "exclude") =>
    command(
      action === "include" ? "Fence in" : "Fence out",
      () => data(client.POST(`${SESSION}/fence`, { ...at(sessionId), body: { concept, action } })),
      () => `Fence ${action === "include" ? "includes" : "excludes"} the region of “${concept}”`,
    ),
  removeFence: (sessionId: string, concept: string) =>
    command(
      "Remove fence",
      // the intervention (not the bare DELETE .../fences): it emits wander.fence.removed
      () => data(client.DELETE(`${SESSION}/fence`, { params: { path: { session_id: sessionId }, query: { concept } } })),
      () => `Fence anchor “${concept}” removed`,
    ),
  crystallize: (sessionId: string) =>
    command(
      "Crystallize",
      () => data(client.POST(`${SESSION}/crystallize`, at(sessionId))),
      crystallizeNotice,
    ),
  subwander: (sessionId: string, locusId: string, maxSteps: number, budgetShare: number) =>
    command(
      "Go deeper",
      async () => {
        const child = await data(
          client.POST(`${SESSION}/loci/{locus_id}/subwander`, {
            params: { path: { session_id: sessionId, locus_id: locusId } },
            body: { max_steps: maxSteps, budget_share: budgetShare },
          }),
        );
        await data(client.POST(`${SESSION}/wander`, { ...at(child.id), body: { n_steps: maxSteps } }));
        useWander.getState().setChildren([...useWander.getState().children, { ...child, running: true }]);
        return child;
      },
      (c) => `Sub-wander “${c.seed_concept}” spawned and running (${c.max_steps} steps)`,
    ),
  review: (crystalId: string, verdict: "accept" | "reject") =>
    command(
      verdict === "accept" ? "Accept crystal" : "Reject crystal",
      () => data(client.POST("/api/v1/wander/crystals/{crystal_id}/review", { params: { path: { crystal_id: crystalId } }, body: { verdict } })),
      (c) => `Crystal ${verdict === "accept" ? "accepted" : "rejected"} (status ${c.status})`,
    ),
};

/** Reads the map's panels need (not commands: no notice). */
export const reads = {
  sessionCrystals: (sessionId: string) => data(client.GET(`${SESSION}/crystals`, at(sessionId))),
  children: (sessionId: string) => data(client.GET(`${SESSION}/children`, at(sessionId))),
  compare: (sessionId: string, a: string, b: string) =>
    data(client.GET(`${SESSION}/compare`, { params: { path: { session_id: sessionId }, query: { a, b } } })),
  trace: (sessionId: string) => data(client.GET(`${SESSION}/trace`, at(sessionId))),
  attractorUrl: (crystalId: string) => `${API_BASE}/crystals/${encodeURIComponent(crystalId)}/attractor.png`,
};
