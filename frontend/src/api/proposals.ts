// REST client for the economic action layer (proposals, the human gate, the paper wallet).
import { API_BASE, ApiError } from "./client";
import type { DecisionRequest, EventOut, Problem, ProposalOut, WalletOut } from "./types.gen";

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  // (X-Wander-Client: a decision made here is recorded "via web")
  const init: RequestInit = { method, headers: { Accept: "application/json, application/problem+json", "X-Wander-Client": "vislzr" } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const res = await fetch(path, init);
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiError(res.status, (parsed as Problem | null) ?? null, `${method} ${path}: HTTP ${res.status}`);
  return parsed as T;
}

const p = (id: string) => `${API_BASE}/proposals/${encodeURIComponent(id)}`;

/** The image as the reviewer sees it, and the sha256 of exactly those bytes: a decision is bound to it. */
export async function reviewedImage(imageUrl: string): Promise<{ url: string; sha256: string }> {
  const res = await fetch(imageUrl, { cache: "no-store" });
  if (!res.ok) throw new ApiError(res.status, null, `image: HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return { url: URL.createObjectURL(new Blob([bytes], { type: "image/png" })), sha256 };
}

export const proposalsApi = {
  list: (sessionId: string) =>
    call<ProposalOut[]>("GET", `${API_BASE}/proposals?session_id=${encodeURIComponent(sessionId)}`),
  propose: (crystalId: string) =>
    call<ProposalOut>("POST", `${API_BASE}/crystals/${encodeURIComponent(crystalId)}/proposals`),
  approve: (id: string, body: DecisionRequest) => call<ProposalOut>("POST", `${p(id)}/approve`, body),
  reject: (id: string, body: DecisionRequest) => call<ProposalOut>("POST", `${p(id)}/reject`, body),
  execute: (id: string) => call<ProposalOut>("POST", `${p(id)}/execute`),
  wallet: () => call<WalletOut>("GET", `${API_BASE}/wallet`),
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
