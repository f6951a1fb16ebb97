// REST client for /api/v1/sandwich/evaluation (004 8.2's human evaluation). The backend sends
// plain rows here (no contract type in shared_schemas): the fields the page reads are typed below.
import { client, data } from "../api/http";

export type SubjectKind = "sandwich" | "crystal" | "review";
export const RATINGS = ["quality", "creativity", "clarity", "name_quality"] as const;
export type Rating = (typeof RATINGS)[number];

/** A subject to judge, blind: no V. */
export interface EvaluationSubject {
  subject_kind: SubjectKind;
  subject_id: string;
  name: string;
  description: string;
  bread_top: string;
  filling: string;
  bread_bottom: string;
  structural_type: string;
  assembly_rationale: string;
}

export type Judgment = { subject_kind: SubjectKind; subject_id: string; judge: string; valid: boolean; note?: string } & Record<
  Rating,
  number
>;

export interface Agreement {
  weights: Record<string, number>;
  threshold: number;
  agreement?: number;
  kappa?: number | null;
}

export interface CalibrationReport {
  n: number;
  valid: number;
  fitted: boolean;
  summary: string;
  before: Agreement;
  threshold_only?: Agreement;
  after?: Agreement;
  held_out_agreement?: number | null;
  v_quality_spearman?: number | null;
}

export interface FailureRow {
  failure: "no_ingredients" | "low_validity" | "human_disagrees" | "duplicate";
  label: string;
  captured: string;
  purpose: string;
  count: number;
  examples: Record<string, unknown>[];
}

export const evaluationApi = {
  sample: async (judge: string, n = 10) =>
    (await data(client.GET("/api/v1/sandwich/evaluation/sample", { params: { query: { n, judge } } }))) as unknown as EvaluationSubject[],
  judge: (j: Judgment) => data(client.POST("/api/v1/sandwich/evaluation/judgments", { body: j })),
  calibration: async () => (await data(client.GET("/api/v1/sandwich/evaluation/calibration"))) as unknown as CalibrationReport,
  failures: async () => (await data(client.GET("/api/v1/sandwich/evaluation/failures"))) as unknown as FailureRow[],
};
