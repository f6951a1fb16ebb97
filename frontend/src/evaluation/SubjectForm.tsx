import { RATINGS, type EvaluationSubject, type Rating } from "./evaluationApi";

const RATING_LABEL: Record<Rating, string> = {
  quality: "Quality: how good is this sandwich?",
  creativity: "Creativity: how creative or surprising?",
  clarity: "Clarity: is the structure clearly explained?",
  name_quality: "Name: is the name apt and memorable?",
};
const KIND_LABEL = { sandwich: "forager sandwich", crystal: "wander crystal", review: "marginal (review queue)" };

export type Form = { valid: boolean | null; note: string } & Record<Rating, number | null>;
export const EMPTY: Form = { valid: null, note: "", quality: null, creativity: null, clarity: null, name_quality: null };

/** One subject to judge blind (its V is not shown): is it a sandwich, and its four ratings from 1 to 5. */
export function SubjectForm({ subject, form, setForm }: { subject: EvaluationSubject; form: Form; setForm: (f: Form) => void }) {
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
