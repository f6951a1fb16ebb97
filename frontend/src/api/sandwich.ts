// REST client for /api/v1/sandwich (SANDWICH foraging and corpus analysis), through the
// generated client: what the backend sends is typed by its OpenAPI document.
import { client, data } from "./http";
import type { ForageRequest } from "./types.gen";


/** The parts of a stored sandwich row the forage log shows (GET /sandwiches sends the table's row). */
export interface SandwichRowLite {
  id: string;
  name: string;
  bread_top: string;
  filling: string;
  bread_bottom: string;
  structural_type: string;
  validity_score: number;
}

export const sandwichApi = {
  metrics: () => data(client.GET("/api/v1/sandwich/metrics")),
  forage: (body: Partial<ForageRequest>) => data(client.POST("/api/v1/sandwich/forage", { body: body as ForageRequest })),
  /** The forager's sandwiches (id, name, breads, filling, type, validity_score...): rows, not a contract type. */
  sandwiches: async (limit = 500) =>
    (await data(client.GET("/api/v1/sandwich/sandwiches", { params: { query: { origin: "forager", limit } } }))) as unknown as SandwichRowLite[],
  log: (runId: string) => data(client.GET("/api/v1/sandwich/log", { params: { query: { run_id: runId, limit: 500 } } })),
};
