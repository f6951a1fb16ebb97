import type { SessionCreate } from "../api/types.gen";

export type FieldName = keyof SessionCreate;
const FIELDS: FieldName[] = [
  "seed_concept",
  "name",
  "attractor",
  "allowed_domains",
  "forbidden_domains",
  "max_steps",
  "cloud_budget_cents",
  "temperature",
  "random_seed",
  "max_drift_distance",
  "human_checkpoint_frequency",
  "require_crystal_approval",
];

/** "body.temperature", "allowed_domains.0", "$.max_steps" -> the SessionCreate property. */
export function fieldOf(raw: string | null | undefined): FieldName | null {
  if (!raw) return null;
  const parts = raw.split(/[.[\]/]+/).filter(Boolean);
  for (const p of parts) if ((FIELDS as string[]).includes(p)) return p as FieldName;
  return null;
}

/** The checkpoint a wander of `steps` steps gets unless a person sets one: none for a walk of
 * up to 200 steps (it ends soon enough to be looked at then), else a pause at each quarter of
 * the way (rounded to 50 steps), so a long walk stops three times for a look, not every 50. */
export function defaultCheckpoint(steps: number): number {
  if (!Number.isFinite(steps) || steps <= 200) return 0;
  return Math.max(50, Math.round(steps / 4 / 50) * 50);
}

export function checkpointHint(steps: number, every: number, chosen: boolean): string {
  const pauses = every > 0 && Number.isFinite(steps) ? Math.max(0, Math.ceil(steps / every) - 1) : 0;
  const what = every > 0 ? `pauses ${pauses === 1 ? "once" : `${pauses} times`} for a look; Continue walks on` : "never pauses";
  return chosen ? `steps; 0 = never. This one ${what}.` : `steps; follows Steps (none up to 200, else each quarter): ${what}.`;
}

/** The form's inputs as typed (numbers as their text; the checkpoint already resolved). */
export interface FormValues {
  seed: string;
  attractor: string;
  name: string;
  allowed: string[];
  forbidden: string[];
  steps: string;
  temperature: string;
  randomSeed: string;
  budget: string;
  drift: string;
  checkpoint: string;
  approval: boolean;
}

const num = (s: string) => (s.trim() === "" ? undefined : Number(s));

/** The create request of the form's values: blank optional fields are left to the server. */
export function bodyOf(v: FormValues): SessionCreate {
  const body: SessionCreate = { seed_concept: v.seed.trim(), allowed_domains: v.allowed, forbidden_domains: v.forbidden };
  if (v.attractor.trim()) body.attractor = v.attractor.trim();
  if (v.name.trim()) body.name = v.name.trim();
  const ms = num(v.steps);
  const t = num(v.temperature);
  const rs = num(v.randomSeed);
  if (ms !== undefined) body.max_steps = ms;
  if (t !== undefined) body.temperature = t;
  if (rs !== undefined) body.random_seed = rs;
  const b = num(v.budget);
  const dr = num(v.drift);
  const cp = num(v.checkpoint);
  if (b !== undefined) body.cloud_budget_cents = b;
  if (dr !== undefined) body.max_drift_distance = dr;
  if (cp !== undefined) body.human_checkpoint_frequency = cp;
  if (v.approval) body.require_crystal_approval = true;
  return body;
}
