import type { ReactNode } from "react";
import { checkpointHint, type FieldName, type FormValues } from "./createFormBody";
import { DomainPicker } from "./DomainPicker";

export type FieldErrors = Partial<Record<FieldName, string>>;
export type SetValue = <K extends keyof FormValues>(key: K, value: FormValues[K]) => void;

interface GroupProps {
  values: FormValues;
  set: SetValue;
  errors: FieldErrors;
}

const errId = (f: FieldName) => `err-${f}`;

/** One labelled field: its control, then its error (when the server named it) or its hint. */
function Field({ f, label, errors, hint, children }: { f: FieldName; label: string; errors: FieldErrors; hint?: string; children: ReactNode }) {
  return (
    <div className={errors[f] ? "field has-error" : "field"} data-field={f}>
      <label htmlFor={f}>{label}</label>
      {children}
      {errors[f] ? (
        <div className="field-error" id={errId(f)} role="alert" data-testid={errId(f)}>
          {errors[f]}
        </div>
      ) : hint ? (
        <div className="field-hint">{hint}</div>
      ) : null}
    </div>
  );
}

const inputProps = (f: FieldName, errors: FieldErrors) => ({
  id: f,
  name: f,
  "aria-invalid": errors[f] ? true : undefined,
  "aria-describedby": errors[f] ? errId(f) : undefined,
});

/** Seed, attractor and name. */
export function ConceptFields({ values, set, errors }: GroupProps) {
  return (
    <>
      <Field f="seed_concept" label="Seed concept" errors={errors}>
        <input {...inputProps("seed_concept", errors)} value={values.seed} onChange={(e) => set("seed", e.target.value)} placeholder="e.g. information asymmetry" autoFocus />
      </Field>
      <Field f="attractor" label="Attractor" errors={errors}>
        <input {...inputProps("attractor", errors)} value={values.attractor} onChange={(e) => set("attractor", e.target.value)} placeholder="a vague sense of what to look for" />
      </Field>
      <Field f="name" label="Name" errors={errors}>
        <input {...inputProps("name", errors)} value={values.name} onChange={(e) => set("name", e.target.value)} placeholder="defaults to the seed" />
      </Field>
    </>
  );
}

/** The allowed and forbidden domains, offered from the corpus's known ones. */
export function DomainFields({ values, set, errors, known }: GroupProps & { known: string[] }) {
  return (
    <>
      <Field f="allowed_domains" label="Allowed domains" errors={errors} hint="empty = any; Enter or comma adds">
        <DomainPicker id="allowed_domains" label="Allowed domains" value={values.allowed} onChange={(v) => set("allowed", v)} known={known} invalid={!!errors.allowed_domains} describedBy={errors.allowed_domains ? errId("allowed_domains") : undefined} />
      </Field>
      <Field f="forbidden_domains" label="Forbidden domains" errors={errors}>
        <DomainPicker id="forbidden_domains" label="Forbidden domains" value={values.forbidden} onChange={(v) => set("forbidden", v)} known={known} invalid={!!errors.forbidden_domains} describedBy={errors.forbidden_domains ? errId("forbidden_domains") : undefined} />
      </Field>
    </>
  );
}

/** Steps, temperature and random seed. */
export function WalkFields({ values, set, errors }: GroupProps) {
  return (
    <div className="field-row">
      <Field f="max_steps" label="Steps" errors={errors}>
        <input {...inputProps("max_steps", errors)} type="number" inputMode="numeric" value={values.steps} onChange={(e) => set("steps", e.target.value)} />
      </Field>
      <Field f="temperature" label="Temperature" errors={errors}>
        <input {...inputProps("temperature", errors)} type="number" step="0.1" inputMode="decimal" value={values.temperature} onChange={(e) => set("temperature", e.target.value)} />
      </Field>
      <Field f="random_seed" label="Random seed" errors={errors}>
        <input {...inputProps("random_seed", errors)} type="number" inputMode="numeric" value={values.randomSeed} onChange={(e) => set("randomSeed", e.target.value)} />
      </Field>
    </div>
  );
}

/** Budget, drift and the checkpoint (which follows the steps until a person sets it). */
export function LimitFields({ values, set, errors, checkpointChosen }: GroupProps & { checkpointChosen: boolean }) {
  return (
    <div className="field-row">
      <Field f="cloud_budget_cents" label="Cloud budget (¢)" errors={errors}>
        <input {...inputProps("cloud_budget_cents", errors)} type="number" inputMode="numeric" value={values.budget} onChange={(e) => set("budget", e.target.value)} />
      </Field>
      <Field f="max_drift_distance" label="Max drift" errors={errors}>
        <input {...inputProps("max_drift_distance", errors)} type="number" step="0.05" inputMode="decimal" value={values.drift} onChange={(e) => set("drift", e.target.value)} />
      </Field>
      <Field f="human_checkpoint_frequency" label="Checkpoint every" errors={errors} hint={checkpointHint(Number(values.steps), Number(values.checkpoint), checkpointChosen)}>
        <input {...inputProps("human_checkpoint_frequency", errors)} type="number" inputMode="numeric" value={values.checkpoint} onChange={(e) => set("checkpoint", e.target.value)} />
      </Field>
    </div>
  );
}

export function ApprovalField({ values, set, errors }: GroupProps) {
  const hint = values.approval ? "Every crystal waits on the map for your accept or reject, even one the gate accepted." : "Crystals the gate accepts (V ≥ 0.7) stand without you; marginal ones wait for your review.";
  return (
    <Field f="require_crystal_approval" label="Approve every crystal" errors={errors} hint={hint}>
      <input id="require_crystal_approval" name="require_crystal_approval" type="checkbox" checked={values.approval} onChange={(e) => set("approval", e.target.checked)} />
    </Field>
  );
}
