// Human evaluation (004 8.2): sandwiches, crystals and marginal sandwiches sampled for a person
// to judge blind (V is not shown): is it a sandwich (yes/no), and its quality, creativity,
// clarity and name from 1 to 5. Beside it the calibration report (V's threshold and weights
// fitted to the judgments, agreement before and after) and 8.3's failure table.
import { useCallback, useEffect, useRef, useState } from "react";
import { Brand } from "../panels/Brand";
import { Link } from "../router";
import { evaluationApi, RATINGS, type CalibrationReport, type EvaluationSubject, type FailureRow } from "./evaluationApi";
import { Calibration, Failures } from "./EvaluationReport";
import { EMPTY, SubjectForm, type Form } from "./SubjectForm";
import "./evaluation.css";

const JUDGE_KEY = "wander.evaluation.judge";
/** Shows an error in the header, or clears it (null). */
type OnError = (message: string | null) => void;

/** The calibration report and the failure table, and a way to read them again. */
function useReport(onError: OnError) {
  const [report, setReport] = useState<CalibrationReport | null>(null);
  const [failures, setFailures] = useState<FailureRow[] | null>(null);
  const refresh = useCallback(() => {
    evaluationApi.calibration().then(setReport, (e: Error) => onError(e.message));
    evaluationApi.failures().then(setFailures, (e: Error) => onError(e.message));
  }, [onError]);
  useEffect(refresh, [refresh]);
  return { report, failures, refresh };
}

/** The sample being judged: its queue, the form for its first subject, saving and skipping. */
function useJudging(judge: string, onError: OnError, onJudged: () => void) {
  const [queue, setQueue] = useState<EvaluationSubject[] | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [judged, setJudged] = useState(0);
  const [busy, setBusy] = useState(false);
  const sample = useCallback(() => {
    setQueue(null);
    evaluationApi.sample(judge.trim()).then(setQueue, (e: Error) => onError(e.message));
  }, [judge, onError]);
  // Sampled when the page opens, for the judge it opened with: a name being typed does not
  // resample on every key.
  const openedBy = useRef(judge.trim());
  useEffect(() => {
    if (openedBy.current) evaluationApi.sample(openedBy.current).then(setQueue, (e: Error) => onError(e.message));
  }, [onError]);

  const subject = queue?.[0] ?? null;
  const complete = form.valid !== null && RATINGS.every((r) => form[r] !== null) && judge.trim() !== "";
  const next = () => {
    setQueue((q) => (q ? q.slice(1) : q));
    setForm(EMPTY);
  };
  const submit = async () => {
    if (!subject || !complete) return;
    setBusy(true);
    onError(null);
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
      onJudged();
    } catch (e) {
      onError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { queue, subject, form, setForm, judged, busy, complete, sample, next, submit };
}

function EvaluationHeader({ error }: { error: string | null }) {
  return (
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
  );
}

function JudgeRow({ judge, setJudge, started, judged, sample }: { judge: string; setJudge: (name: string) => void; started: boolean; judged: number; sample: () => void }) {
  return (
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
        {started ? "New sample" : "Start judging"}
      </button>
      <span className="muted small" data-testid="eval-judged-count">
        {judged} judged this visit
      </span>
    </div>
  );
}

/** Why there is nothing to judge yet (no name, no sample, an empty sample), or the subject's form. */
function JudgeBody({ judge, judging }: { judge: string; judging: ReturnType<typeof useJudging> }) {
  if (!judge.trim())
    return (
      <p className="muted" data-testid="eval-need-name">
        Give your name to start: each person judges a sandwich once (judging it again replaces your judgment).
      </p>
    );
  if (judging.queue === null) return <p className="muted">Press “Start judging” for a sample.</p>;
  if (!judging.subject)
    return (
      <p className="muted" data-testid="eval-empty">
        Nothing left for you to judge in this sample. Forage for more sandwiches (Sandwich corpus page or `wander forage`),
        let a wander crystallize, or press “New sample”.
      </p>
    );
  return <SubjectForm subject={judging.subject} form={judging.form} setForm={judging.setForm} />;
}

function JudgeActions({ judging }: { judging: ReturnType<typeof useJudging> }) {
  const { complete, busy, submit, next } = judging;
  return (
    <div className="eval-actions">
      <button data-testid="eval-submit" className="primary" disabled={!complete || busy} onClick={submit}>
        Save judgment
      </button>
      <button data-testid="eval-skip" onClick={next} disabled={busy}>
        Skip
      </button>
      {!complete && <span className="muted small">Answer every question to save.</span>}
    </div>
  );
}

export function EvaluationPage() {
  const [judge, setJudge] = useState(() => localStorage.getItem(JUDGE_KEY) ?? "");
  const [error, setError] = useState<string | null>(null);
  const { report, failures, refresh } = useReport(setError);
  const judging = useJudging(judge, setError, refresh);

  return (
    <div className="page evaluation-page">
      <EvaluationHeader error={error} />
      <div className="evaluation-body">
        <p className="muted" data-testid="eval-intro">
          Judge sandwiches as a person (SANDWICH 004, 8.2): is it actually a sandwich, and how good, creative, clear and well
          named is it? Sandwiches the forager made, crystals of the wanders and marginal sandwiches from the review queue are
          sampled in turn, without their validity V, so the judgment is your own. The calibration beside compares your
          verdicts with V's and fits V's threshold and weights to them.
        </p>
        <div className="evaluation-columns">
          <section className="card evaluation-judge" aria-label="judge a sandwich">
            <JudgeRow judge={judge} setJudge={setJudge} started={judging.queue !== null} judged={judging.judged} sample={judging.sample} />
            <JudgeBody judge={judge} judging={judging} />
            {judging.subject && <JudgeActions judging={judging} />}
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
