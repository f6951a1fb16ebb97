// Human evaluation (004 8.2): sandwiches, crystals and marginal sandwiches sampled for a person
// to judge blind (V is not shown): is it a sandwich (yes/no), and its quality, creativity,
// clarity and name from 1 to 5. Beside it the calibration report (V's threshold and weights
// fitted to the judgments, agreement before and after) and 8.3's failure table.
import { useCallback, useEffect, useRef, useState } from "react";
import { Brand } from "../panels/Brand";
import { Link } from "../router";
import {
  evaluationApi,
  RATINGS,
  type Agreement,
  type CalibrationReport,
  type EvaluationSubject,
  type FailureRow,
  type Rating,
} from "./evaluationApi";
import "./evaluation.css";

const JUDGE_KEY = "wander.evaluation.judge";
const RATING_LABEL: Record<Rating, string> = {
  quality: "Quality: how good is this sandwich?",
  creativity: "Creativity: how creative or surprising?",
  clarity: "Clarity: is the structure clearly explained?",
  name_quality: "Name: is the name apt and memorable?",
};
const KIND_LABEL = { sandwich: "forager sandwich", crystal: "wander crystal", review: "marginal (review queue)" };

type Form = { valid: boolean | null; note: string } & Record<Rating, number | null>;
const EMPTY: Form = { valid: null, note: "", quality: null, creativity: null, clarity: null, name_quality: null };

export function EvaluationPage() {
  const [judge, setJudge] = useState(() => localStorage.getItem(JUDGE_KEY) ?? "");
  const [queue, setQueue] = useState<EvaluationSubject[] | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [judged, setJudged] = useState(0);
  const [report, setReport] = useState<CalibrationReport | null>(null);
  const [failures, setFailures] = useState<FailureRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const refreshReport = useCallback(() => {
    evaluationApi.calibration().then(setReport, (e: Error) => setError(e.message));
    evaluationApi.failures().then(setFailures, (e: Error) => setError(e.message));
  }, []);
  const sample = useCallback(() => {
    setQueue(null);
    evaluationApi.sample(judge.trim()).then(setQueue, (e: Error) => setError(e.message));
  }, [judge]);
  useEffect(refreshReport, [refreshReport]);
  // Sampled when the page opens, for the judge it opened with: a name being typed does not
  // resample on every key.
  const openedBy = useRef(judge.trim());
  useEffect(() => {
    if (openedBy.current) evaluationApi.sample(openedBy.current).then(setQueue, (e: Error) => setError(e.message));
  }, []);

  const subject = queue?.[0] ?? null;
  const complete = form.valid !== null && RATINGS.every((r) => form[r] !== null) && judge.trim() !== "";

  const next = () => {
    setQueue((q) => (q ? q.slice(1) : q));
    setForm(EMPTY);
  };
  const submit = async () => {
    if (!subject || !complete) return;
    setBusy(true);
    setError(null);
    try {
      await evaluationApi.judge({
        subject_kind: subject.subject_kind,
        subject_id: subject.subject_id,
        judge: judge.trim(),
        valid: form.valid as boolean,
        quality: form.quality as number,
        creativity: form.creativity as number,
        clarity: form.clarity as number,
        name_quality: form.name_quality as number,
        note: form.note,
      });
      setJudged((n) => n + 1);
      next();
      refreshReport();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page evaluation-page">
      <header className="topbar">
        <Brand />
        <div className="session-title">
          <h1>Human evaluation</h1>
        </div>
        <nav className="topnav" aria-label="pages">
          <Link to="/">← Wanders</Link>
          <Link to="/analysis">Sandwich corpus</Link>
          <Link to="/reviews">Review queue</Link>
        </nav>
        {error && (
          <span role="alert" data-testid="eval-error">
            {error}
          </span>
        )}
      </header>
      <div className="evaluation-body">
        <p className="muted" data-testid="eval-intro">
          Judge sandwiches as a person (SANDWICH 004, 8.2): is it actually a sandwich, and how good, creative, clear and well
          named is it? Sandwiches the forager made, crystals of the wanders and marginal sandwiches from the review queue are
          sampled in turn, without their validity V, so the judgment is your own. The calibration beside compares your
          verdicts with V's and fits V's threshold and weights to them.
        </p>
        <div className="evaluation-columns">
          <section className="card evaluation-judge" aria-label="judge a sandwich">
            <div className="eval-judge-row">
              <label>
                Your name{" "}
                <input
                  data-testid="eval-judge-name"
                  value={judge}
                  maxLength={200}
                  onChange={(e) => {
                    setJudge(e.target.value);
                    localStorage.setItem(JUDGE_KEY, e.target.value);
                  }}
                />
              </label>
              <button data-testid="eval-start" disabled={!judge.trim()} onClick={sample}>
                {queue === null ? "Start judging" : "New sample"}
              </button>
              <span className="muted small" data-testid="eval-judged-count">
                {judged} judged this visit
              </span>
            </div>
            {!judge.trim() ? (
              <p className="muted" data-testid="eval-need-name">
                Give your name to start: each person judges a sandwich once (judging it again replaces your judgment).
              </p>
            ) : queue === null ? (
              <p className="muted">Press “Start judging” for a sample.</p>
            ) : !subject ? (
              <p className="muted" data-testid="eval-empty">
                Nothing left for you to judge in this sample. Forage for more sandwiches (Sandwich corpus page or `wander forage`),
                let a wander crystallize, or press “New sample”.
              </p>
            ) : (
              <SubjectForm subject={subject} form={form} setForm={setForm} />
            )}
            {subject && (
              <div className="eval-actions">
                <button data-testid="eval-submit" className="primary" disabled={!complete || busy} onClick={submit}>
                  Save judgment
                </button>
                <button data-testid="eval-skip" onClick={next} disabled={busy}>
                  Skip
                </button>
                {!complete && <span className="muted small">Answer every question to save.</span>}
              </div>
            )}
          </section>
          <section className="card evaluation-report" aria-label="calibration">
            <Calibration report={report} />
            <Failures rows={failures} />
          </section>
        </div>
      </div>
    </div>
  );
}

function SubjectForm({ subject, form, setForm }: { subject: EvaluationSubject; form: Form; setForm: (f: Form) => void }) {
  return (
    <div data-testid="eval-subject" data-id={subject.subject_id} data-kind={subject.subject_kind}>
      <div className="eval-subject-head">
        <h2 data-testid="eval-subject-name">{subject.name}</h2>
        <span className={`eval-kind kind-${subject.subject_kind}`} data-testid="eval-subject-kind">
          {KIND_LABEL[subject.subject_kind]}
        </span>
      </div>
      <div className="eval-sandwich" aria-label="the sandwich">
        <span className="bread">{subject.bread_top}</span>
        <span className="filling">{subject.filling}</span>
        <span className="bread">{subject.bread_bottom}</span>
      </div>
      <p>{subject.description}</p>
      <p className="muted small">
        {subject.structural_type} · {subject.assembly_rationale}
      </p>
      <fieldset className="eval-question">
        <legend>Is this actually a sandwich? (two related ideas bounding a third that mediates between them)</legend>
        {([true, false] as const).map((yes) => (
          <label key={String(yes)}>
            <input
              type="radio"
              name="valid"
              data-testid={`eval-valid-${yes ? "yes" : "no"}`}
              checked={form.valid === yes}
              onChange={() => setForm({ ...form, valid: yes })}
            />{" "}
            {yes ? "yes" : "no"}
          </label>
        ))}
      </fieldset>
      {RATINGS.map((r) => (
        <fieldset className="eval-question" key={r}>
          <legend>{RATING_LABEL[r]}</legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n}>
              <input
                type="radio"
                name={r}
                data-testid={`eval-${r}-${n}`}
                checked={form[r] === n}
                onChange={() => setForm({ ...form, [r]: n })}
              />{" "}
              {n}
            </label>
          ))}
        </fieldset>
      ))}
      <label className="eval-note">
        Note (optional){" "}
        <textarea data-testid="eval-note" value={form.note} maxLength={4000} onChange={(e) => setForm({ ...form, note: e.target.value })} />
      </label>
    </div>
  );
}

const pct = (x: number | undefined) => (x === undefined ? "–" : `${Math.round(x * 100)}%`);
const weights = (a: Agreement) =>
  Object.entries(a.weights)
    .map(([k, v]) => `${k.replace("_", " ")} ${v.toFixed(2)}`)
    .join(", ");

function Calibration({ report }: { report: CalibrationReport | null }) {
  if (!report) return <p className="muted">loading the calibration…</p>;
  const rows: [string, string, Agreement | undefined][] = [
    ["before", "V as it stands", report.before],
    ["threshold", "threshold refitted", report.threshold_only],
    ["after", "weights and threshold refitted", report.after],
  ];
  return (
    <div data-testid="eval-calibration">
      <h2>Calibration</h2>
      <p data-testid="eval-calibration-summary">{report.summary}</p>
      <p className="muted small">
        Agreement: the share of judgments where V's verdict (V at or above the threshold: a sandwich) says what the person said.
        Kappa: how much of it is more than chance (0 = chance, 1 = perfect). {report.n} judgments, {report.valid} of them “yes”.
      </p>
      <table className="eval-table">
        <thead>
          <tr>
            <th />
            <th>weights</th>
            <th>threshold</th>
            <th>agreement</th>
            <th>kappa</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([key, label, a]) =>
            a && a.agreement !== undefined ? (
              <tr key={key} data-testid={`eval-agreement-${key}`}>
                <td>{label}</td>
                <td className="small">{weights(a)}</td>
                <td>{a.threshold.toFixed(3)}</td>
                <td data-testid={`eval-agreement-${key}-value`}>{pct(a.agreement)}</td>
                <td>{a.kappa == null ? "–" : a.kappa.toFixed(2)}</td>
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
      {report.held_out_agreement != null && (
        <p className="small" data-testid="eval-held-out">
          Out of fold (fitted without the judgments it is tested on): {pct(report.held_out_agreement)}.
        </p>
      )}
    </div>
  );
}

function Failures({ rows }: { rows: FailureRow[] | null }) {
  if (!rows) return null;
  return (
    <div data-testid="eval-failures">
      <h2>Failure analysis</h2>
      <p className="muted small">004 8.3: each kind of failure, what is kept of it and what it serves to improve.</p>
      <table className="eval-table">
        <thead>
          <tr>
            <th>failure</th>
            <th>count</th>
            <th>data captured</th>
            <th>purpose</th>
            <th>latest</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.failure} data-testid={`eval-failure-${r.failure}`}>
              <td>{r.label}</td>
              <td data-testid={`eval-failure-${r.failure}-count`}>{r.count}</td>
              <td className="small">{r.captured}</td>
              <td className="small">{r.purpose}</td>
              <td className="small">{latest(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function latest(r: FailureRow): string {
  const x = r.examples[0];
  if (!x) return "–";
  if (r.failure === "human_disagrees")
    return `${x.judge} said ${x.valid ? "yes" : "no"}, V ${Number(x.auto_v).toFixed(2)} says ${x.auto_valid ? "yes" : "no"}`;
  if (r.failure === "no_ingredients") return `“${x.curiosity_prompt}”: ${x.outcome_rationale}`;
  if (r.failure === "duplicate") return `${x.source_title ?? x.source_ref ?? "?"}${x.existing_sandwich ? ` (as ${x.existing_sandwich})` : ""}`;
  return String(x.outcome_rationale ?? "");
}
