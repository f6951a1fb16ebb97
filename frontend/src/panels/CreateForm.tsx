import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { SessionCreate, SessionOut } from "../api/types.gen";
import { navigate } from "../router";
import { DomainPicker } from "./DomainPicker";

type FieldName = keyof SessionCreate;
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

function checkpointHint(steps: number, every: number, chosen: boolean): string {
  const pauses = every > 0 && Number.isFinite(steps) ? Math.max(0, Math.ceil(steps / every) - 1) : 0;
  const what = every > 0 ? `pauses ${pauses === 1 ? "once" : `${pauses} times`} for a look; Continue walks on` : "never pauses";
  return chosen ? `steps; 0 = never. This one ${what}.` : `steps; follows Steps (none up to 200, else each quarter): ${what}.`;
}

interface Props {
  /** After a successful create. Default: start the run and open the map. */
  onCreated?: (s: SessionOut) => void | Promise<void>;
}

/** A wander that was created but could not be started: the form says so, with a link. */
export class StartError extends Error {
  readonly session: SessionOut;
  constructor(session: SessionOut, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.session = session;
  }
}

async function startAndOpen(s: SessionOut) {
  try {
    await api.wander(s.id, s.max_steps); // n_steps has the same cap as max_steps (10,000)
  } catch (err) {
    throw new StartError(s, err);
  }
  navigate(`/sessions/${encodeURIComponent(s.id)}`);
}

export function CreateForm({ onCreated = startAndOpen }: Props) {
  const [seed, setSeed] = useState("");
  const [attractor, setAttractor] = useState("");
  const [name, setName] = useState("");
  const [allowed, setAllowed] = useState<string[]>([]);
  const [forbidden, setForbidden] = useState<string[]>([]);
  const [steps, setSteps] = useState("20");
  const [temperature, setTemperature] = useState("0.7");
  const [randomSeed, setRandomSeed] = useState("0");
  const [budget, setBudget] = useState("500");
  const [drift, setDrift] = useState("0.8");
  const [approval, setApproval] = useState(false);
  // the checkpoint follows the steps (defaultCheckpoint) until a person sets it
  const [checkpointSet, setCheckpointSet] = useState<string | null>(null);
  const checkpoint = checkpointSet ?? String(defaultCheckpoint(Number(steps)));
  const setCheckpoint = (v: string) => setCheckpointSet(v);
  const [unstarted, setUnstarted] = useState<SessionOut | null>(null);
  const [known, setKnown] = useState<string[]>([]);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .domains()
      .then((d) => live && Array.isArray(d) && setKnown(d))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const num = (s: string) => (s.trim() === "" ? undefined : Number(s));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFormError(null);
    setUnstarted(null);
    const body: SessionCreate = { seed_concept: seed.trim(), allowed_domains: allowed, forbidden_domains: forbidden };
    if (attractor.trim()) body.attractor = attractor.trim();
    if (name.trim()) body.name = name.trim();
    const ms = num(steps);
    const t = num(temperature);
    const rs = num(randomSeed);
    if (ms !== undefined) body.max_steps = ms;
    if (t !== undefined) body.temperature = t;
    if (rs !== undefined) body.random_seed = rs;
    const b = num(budget);
    const dr = num(drift);
    const cp = num(checkpoint);
    if (b !== undefined) body.cloud_budget_cents = b;
    if (dr !== undefined) body.max_drift_distance = dr;
    if (cp !== undefined) body.human_checkpoint_frequency = cp;
    if (approval) body.require_crystal_approval = true;
    setBusy(true);
    try {
      const created = await api.createSession(body);
      await onCreated(created);
    } catch (err) {
      if (err instanceof StartError) {
        setUnstarted(err.session);
        setFormError(`Created “${err.session.name}” but could not start it: ${err.message}`);
      } else if (err instanceof ApiError) {
        const f = fieldOf(err.field);
        const msg = err.problem?.detail || err.message;
        if (f) setErrors({ [f]: msg });
        else setFormError(err.problem?.title && err.problem.title !== msg ? `${err.problem.title}: ${msg}` : msg);
      } else {
        setFormError((err as Error).message);
      }
    } finally {
      setBusy(false);
    }
  };

  const errId = (f: FieldName) => `err-${f}`;
  const row = (f: FieldName, label: string, control: ReactNode, hint?: string) => (
    <div className={errors[f] ? "field has-error" : "field"} data-field={f}>
      <label htmlFor={f}>{label}</label>
      {control}
      {errors[f] ? (
        <div className="field-error" id={errId(f)} role="alert" data-testid={errId(f)}>
          {errors[f]}
        </div>
      ) : hint ? (
        <div className="field-hint">{hint}</div>
      ) : null}
    </div>
  );
  const inputProps = (f: FieldName) => ({
    id: f,
    name: f,
    "aria-invalid": errors[f] ? true : undefined,
    "aria-describedby": errors[f] ? errId(f) : undefined,
  });

  return (
    <form className="card create-form" onSubmit={submit} noValidate aria-label="New wander">
      <h2>New wander</h2>
      {row(
        "seed_concept",
        "Seed concept",
        <input {...inputProps("seed_concept")} value={seed} onChange={(e) => setSeed(e.target.value)} placeholder="e.g. information asymmetry" autoFocus />,
      )}
      {row(
        "attractor",
        "Attractor",
        <input {...inputProps("attractor")} value={attractor} onChange={(e) => setAttractor(e.target.value)} placeholder="a vague sense of what to look for" />,
      )}
      {row("name", "Name", <input {...inputProps("name")} value={name} onChange={(e) => setName(e.target.value)} placeholder="defaults to the seed" />)}
      {row(
        "allowed_domains",
        "Allowed domains",
        <DomainPicker id="allowed_domains" label="Allowed domains" value={allowed} onChange={setAllowed} known={known} invalid={!!errors.allowed_domains} describedBy={errors.allowed_domains ? errId("allowed_domains") : undefined} />,
        "empty = any; Enter or comma adds",
      )}
      {row(
        "forbidden_domains",
        "Forbidden domains",
        <DomainPicker id="forbidden_domains" label="Forbidden domains" value={forbidden} onChange={setForbidden} known={known} invalid={!!errors.forbidden_domains} describedBy={errors.forbidden_domains ? errId("forbidden_domains") : undefined} />,
      )}
      <div className="field-row">
        {row("max_steps", "Steps", <input {...inputProps("max_steps")} type="number" inputMode="numeric" value={steps} onChange={(e) => setSteps(e.target.value)} />)}
        {row("temperature", "Temperature", <input {...inputProps("temperature")} type="number" step="0.1" inputMode="decimal" value={temperature} onChange={(e) => setTemperature(e.target.value)} />)}
        {row("random_seed", "Random seed", <input {...inputProps("random_seed")} type="number" inputMode="numeric" value={randomSeed} onChange={(e) => setRandomSeed(e.target.value)} />)}
      </div>
      <div className="field-row">
        {row("cloud_budget_cents", "Cloud budget (¢)", <input {...inputProps("cloud_budget_cents")} type="number" inputMode="numeric" value={budget} onChange={(e) => setBudget(e.target.value)} />)}
        {row("max_drift_distance", "Max drift", <input {...inputProps("max_drift_distance")} type="number" step="0.05" inputMode="decimal" value={drift} onChange={(e) => setDrift(e.target.value)} />)}
        {row(
          "human_checkpoint_frequency",
          "Checkpoint every",
          <input {...inputProps("human_checkpoint_frequency")} type="number" inputMode="numeric" value={checkpoint} onChange={(e) => setCheckpoint(e.target.value)} />,
          checkpointHint(Number(steps), Number(checkpoint), checkpointSet !== null),
        )}
      </div>
      {row(
        "require_crystal_approval",
        "Approve every crystal",
        <input id="require_crystal_approval" name="require_crystal_approval" type="checkbox" checked={approval} onChange={(e) => setApproval(e.target.checked)} />,
        approval ? "Every crystal waits on the map for your accept or reject, even one the gate accepted." : "Crystals the gate accepts (V ≥ 0.7) stand without you; marginal ones wait for your review.",
      )}
      {formError ? (
        <div className="form-error" role="alert" data-testid="form-error">
          {formError}
          {unstarted ? (
            <>
              {" "}
              <a href={`/sessions/${encodeURIComponent(unstarted.id)}`} onClick={(e) => (e.preventDefault(), navigate(`/sessions/${encodeURIComponent(unstarted.id)}`))}>
                Open it
              </a>
            </>
          ) : null}
        </div>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? "Starting…" : "Start wandering"}
      </button>
    </form>
  );
}
