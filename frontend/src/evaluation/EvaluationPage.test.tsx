// The evaluation page as a person uses it: a name, a blind sample, a judgment that needs every
// answer, the next subject after it, the calibration and the failure table refreshed.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EvaluationSubject } from "./evaluationApi";
import { EvaluationPage } from "./EvaluationPage";

const subject = (id: string, name: string, kind: EvaluationSubject["subject_kind"]): EvaluationSubject => ({
  subject_kind: kind, subject_id: id, name, description: `${name}, described`, bread_top: "order",
  filling: "emergence", bread_bottom: "chaos", structural_type: "Dialectic", assembly_rationale: "opposition",
});

let posted: Record<string, unknown>[];
let sampleUrls: string[];

beforeEach(() => {
  posted = [];
  sampleUrls = [];
  localStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = String(url);
      const json = (b: unknown, status = 200) => new Response(JSON.stringify(b), { status });
      if (u.includes("/evaluation/sample")) {
        sampleUrls.push(u);
        return json([subject("s1", "The Edge of Order", "sandwich"), subject("c1", "Tidal Crystal", "crystal")]);
      }
      if (u.endsWith("/evaluation/judgments")) {
        posted.push(JSON.parse(String(init?.body)));
        return json({ id: "j1" }, 201);
      }
      if (u.endsWith("/evaluation/calibration")) {
        const n = posted.length;
        return json({
          n, valid: n, fitted: false, summary: `${n} judgments so far`,
          before: { weights: { bread_compat: 0.25, containment: 0.35, non_triviality: 0.2, novelty: 0.2 }, threshold: 0.7, ...(n ? { agreement: 1, kappa: null } : {}) },
        });
      }
      if (u.endsWith("/evaluation/failures")) {
        return json([
          { failure: "no_ingredients", label: "No ingredients", captured: "Source content, curiosity prompt", purpose: "Improve foraging strategy", count: 2,
            examples: [{ curiosity_prompt: "the void?", outcome_rationale: "no bread" }] },
          { failure: "human_disagrees", label: "Human disagrees", captured: "Sandwich, human judgment, auto score", purpose: "Calibrate validity function", count: 0, examples: [] },
        ]);
      }
      return json({ detail: "unexpected" }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("EvaluationPage", () => {
  it("asks for a name, samples blind and saves a complete judgment", async () => {
    render(<EvaluationPage />);
    expect(await screen.findByTestId("eval-need-name")).toBeTruthy();
    expect((screen.getByTestId("eval-start") as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(screen.getByTestId("eval-failure-no_ingredients-count").textContent).toBe("2"));
    expect(screen.getByTestId("eval-failure-no_ingredients").textContent).toContain("the void?");
    fireEvent.change(screen.getByTestId("eval-judge-name"), { target: { value: "ada" } });
    fireEvent.click(screen.getByTestId("eval-start"));
    expect((await screen.findByTestId("eval-subject-name")).textContent).toBe("The Edge of Order");
    expect(sampleUrls[0]).toContain("judge=ada");
    expect(screen.getByTestId("eval-subject").textContent).not.toMatch(/V\s*\d/);
    const save = screen.getByTestId("eval-submit") as HTMLButtonElement;
    fireEvent.click(screen.getByTestId("eval-valid-yes"));
    for (const r of ["quality", "creativity", "clarity"]) fireEvent.click(screen.getByTestId(`eval-${r}-4`));
    expect(save.disabled).toBe(true); // the name's rating is still missing
    fireEvent.click(screen.getByTestId("eval-name_quality-2"));
    fireEvent.change(screen.getByTestId("eval-note"), { target: { value: "neat" } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      subject_kind: "sandwich", subject_id: "s1", judge: "ada", valid: true,
      quality: 4, creativity: 4, clarity: 4, name_quality: 2, note: "neat",
    });
    expect((await screen.findByTestId("eval-subject-kind")).textContent).toBe("wander crystal");
    expect(screen.getByTestId("eval-judged-count").textContent).toContain("1 judged");
    await waitFor(() => expect(screen.getByTestId("eval-calibration-summary").textContent).toBe("1 judgments so far"));
    expect(screen.getByTestId("eval-agreement-before-value").textContent).toBe("100%");
    expect(localStorage.getItem("wander.evaluation.judge")).toBe("ada");
  });

  it("skips to the end of the sample and says so", async () => {
    localStorage.setItem("wander.evaluation.judge", "bob");
    render(<EvaluationPage />);
    expect((await screen.findByTestId("eval-subject-name")).textContent).toBe("The Edge of Order");
    fireEvent.click(screen.getByTestId("eval-skip"));
    fireEvent.click(await screen.findByTestId("eval-skip"));
    expect(await screen.findByTestId("eval-empty")).toBeTruthy();
    expect(posted).toHaveLength(0);
  });
});
