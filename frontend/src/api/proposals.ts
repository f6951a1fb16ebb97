// REST client for the economic action layer (proposals, the human gate, the paper wallet).
import { authFetch, client, data } from "./http";
import type { DecisionRequest, EventOut } from "./types.gen";

// (X-Wander-Client: a decision made here is recorded "via web")
const VIA_WEB = { "X-Wander-Client": "vislzr" };
const PROPOSAL = "/api/v1/wander/proposals/{proposal_id}";
const proposal = (id: string) => ({ params: { path: { proposal_id: id } }, headers: VIA_WEB });

/** The image as the reviewer sees it, and the sha256 of exactly those bytes: a decision is bound to it. */
export async function reviewedImage(imageUrl: string): Promise<{ url: string; sha256: string }> {
  const res = await authFetch(imageUrl, { cache: "no-store" });
  const bytes = await res.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return { url: URL.createObjectURL(new Blob([bytes], { type: "image/png" })), sha256 };
}

export const proposalsApi = {
  list: (sessionId: string) => data(client.GET("/api/v1/wander/proposals", { params: { query: { session_id: sessionId } }, headers: VIA_WEB })),
  propose: (crystalId: string) =>
    data(client.POST("/api/v1/wander/crystals/{crystal_id}/proposals", { params: { path: { crystal_id: crystalId } }, headers: VIA_WEB })),
  approve: (id: string, body: DecisionRequest) => data(client.POST(`${PROPOSAL}/approve`, { ...proposal(id), body })),
  reject: (id: string, body: DecisionRequest) => data(client.POST(`${PROPOSAL}/reject`, { ...proposal(id), body })),
  execute: (id: string) => data(client.POST(`${PROPOSAL}/execute`, proposal(id))),
  wallet: () => data(client.GET("/api/v1/wander/wallet", { headers: VIA_WEB })),
};

/** The seq of the newest event that changes what the review queue lists (0 when none): a
 * proposal's stages, and a crystal formed or reviewed (an accepted crystal is one to propose
 * from: one a person accepts on the map is listed at once, not at the next reload). */
export function lastProposalSeq(log: readonly EventOut[]): number {
  for (let i = log.length - 1; i >= 0; i--) {
    const s = log[i].subject;
    if (s.startsWith("wander.proposal.") || s === "wander.crystal.reviewed" || s === "wander.crystal.formed") return log[i].seq;
  }
  return 0;
}
