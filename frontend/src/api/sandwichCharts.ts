// REST client for the corpus's pictures (GET /api/v1/sandwich/charts) and the review queue
// (/reviews, /review-counts), through the generated client. A review is sent as a plain row
// (its OpenAPI answer is untyped): it is read as the contract's SandwichReviewOut.
import { client, data } from "./http";
import type { SandwichReviewOut } from "./types.gen";

export type ReviewStatus = "pending" | "accepted" | "rejected" | "all";

export const chartsApi = {
  charts: () => data(client.GET("/api/v1/sandwich/charts")),
};

const REVIEW = "/api/v1/sandwich/reviews/{review_id}";
const review = (id: string) => ({ params: { path: { review_id: id } } });

export const reviewsApi = {
  list: async (status: ReviewStatus = "pending", limit = 500) =>
    (await data(client.GET("/api/v1/sandwich/reviews", { params: { query: { status, limit } } }))) as unknown as SandwichReviewOut[],
  get: async (id: string) => (await data(client.GET(REVIEW, review(id)))) as unknown as SandwichReviewOut,
  counts: () => data(client.GET("/api/v1/sandwich/review-counts")),
  decide: async (id: string, accept: boolean, reviewer: string, note: string) =>
    (await data(client.POST(accept ? `${REVIEW}/accept` : `${REVIEW}/reject`, { ...review(id), body: { reviewer, note } }))) as unknown as SandwichReviewOut,
};
