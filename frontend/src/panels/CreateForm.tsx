import { useEffect, useState, type FormEvent } from "react";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import type { SessionCreate, SessionOut } from "../api/types.gen";
import { navigate } from "../router";
import { bodyOf, defaultCheckpoint, fieldOf, type FormValues } from "./createFormBody";
import { ApprovalField, ConceptFields, DomainFields, LimitFields, WalkFields, type FieldErrors, type SetValue } from "./CreateFormFields";

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

const INITIAL: Omit<FormValues, "checkpoint"> = {
  seed: "",
  attractor: "",
  name: "",
  allowed: [],
  forbidden: [],
  steps: "20",
  temperature: "0.7",
  randomSeed: "0",
  budget: "500",
  drift: "0.8",
  approval: false,
};

/** The form's values; the checkpoint follows the steps (defaultCheckpoint) until a person sets it. */
function useFormValues() {
  const [typed, setTyped] = useState(INITIAL);
  const [checkpointSet, setCheckpointSet] = useState<string | null>(null);
  const values: FormValues = { ...typed, checkpoint: checkpointSet ?? String(defaultCheckpoint(Number(typed.steps))) };
  const set: SetValue = (key, value) => {
    if (key === "checkpoint") setCheckpointSet(value as string);
    else setTyped((prev) => ({ ...prev, [key]: value }));
  };
  return { values, set, checkpointChosen: checkpointSet !== null };
}

/** The corpus's domains, offered by the domain pickers (none while they load or if they fail). */
function useKnownDomains() {
  const [known, setKnown] = useState<string[]>([]);
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
  return known;
}

/** Creating the wander: a field the server names gets its error, anything else the form's. */
function useCreate(onCreated: (s: SessionOut) => void | Promise<void>) {
  const [unstarted, setUnstarted] = useState<SessionOut | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (body: SessionCreate) => {
    setErrors({});
    setFormError(null);
    setUnstarted(null);
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
  return { create, unstarted, errors, formError, busy };
}

function FormError({ message, unstarted }: { message: string; unstarted: SessionOut | null }) {
  return (
    <div className="form-error" role="alert" data-testid="form-error">
      {message}
      {unstarted ? (
        <>
          {" "}
          <a href={`/sessions/${encodeURIComponent(unstarted.id)}`} onClick={(e) => (e.preventDefault(), navigate(`/sessions/${encodeURIComponent(unstarted.id)}`))}>
            Open it
          </a>
        </>
      ) : null}
    </div>
  );
}

export function CreateForm({ onCreated = startAndOpen }: Props) {
  const { values, set, checkpointChosen } = useFormValues();
  const known = useKnownDomains();
  const { create, unstarted, errors, formError, busy } = useCreate(onCreated);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create(bodyOf(values));
  };
  const group = { values, set, errors };

  return (
    <form className="card create-form" onSubmit={submit} noValidate aria-label="New wander">
      <h2>New wander</h2>
      <ConceptFields {...group} />
      <DomainFields {...group} known={known} />
      <WalkFields {...group} />
      <LimitFields {...group} checkpointChosen={checkpointChosen} />
      <ApprovalField {...group} />
      {formError ? <FormError message={formError} unstarted={unstarted} /> : null}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? "Starting…" : "Start wandering"}
      </button>
    </form>
  );
}
