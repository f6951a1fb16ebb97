// REST client for the corpus's pictures (GET /api/v1/sandwich/charts) and the review queue
// (/reviews, /review-counts). Types come from types.gen.ts.
import { call, SANDWICH_API } from "./sandwich";
import type { ReviewCounts, SandwichCharts, SandwichReviewOut } from "./types.gen";

export type ReviewStatus = "pending" | "accepted" | "rejected" | "all";

export const chartsApi = {
  charts: () => call<SandwichCharts>("GET", `${SANDWICH_API}/charts`),
};

export const reviewsApi = {
  list: (status: ReviewStatus = "pending", limit = 500) =>
    call<SandwichReviewOut[]>("GET", `${SANDWICH_API}/reviews?status=${status}&limit=${limit}`),
  get: (id: string) => call<SandwichReviewOut>("GET", `${SANDWICH_API}/reviews/${encodeURIComponent(id)}`),
  counts: () => call<ReviewCounts>("GET", `${SANDWICH_API}/review-counts`),
  decide: (id: string, accept: boolean, reviewer: string, note: string) =>
    call<SandwichReviewOut>("POST", `${SANDWICH_API}/reviews/${encodeURIComponent(id)}/${accept ? "accept" : "reject"}`, { reviewer, note }),
};
