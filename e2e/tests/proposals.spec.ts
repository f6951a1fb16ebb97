import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eHome } from "../global-setup";
import { API, createViaApi, expect, sessionViaApi, shot, test } from "./helpers";

// The review panel of the economic action layer: propose from an accepted crystal, see the
// fractal image (on the map and in the panel), be refused without approval, approve with
// the image's sha256, execute on the paper wallet.
const RECIPE = { steps: 12 };

test("review, approve and execute a proposal from the panel", async ({ page }) => {
  // Limits wide enough that no other wander of the run trips the breaker.
  const home = e2eHome();
  writeFileSync(join(home, "assets.toml"), [
    "[wallet]", "paper_balance = 1000000.0", "max_stake = 250.0", "session_budget = 1000.0", "day_budget = 1000000.0",
    "session_loss_limit = 1000.0", "day_loss_limit = 1000000.0", "", "[[asset]]", 'name = "data engineering"',
    'domains = ["cognition", "communication", "possession"]', 'keywords = ["information"]', "strength = 0.8", "",
  ].join("\n"));
  // A crystal that can become a proposal: accepted by the gate, or kept for review and
  // accepted by a person. Novelty is measured against every crystal already stored (the
  // other specs' of this run), so the test tries random seeds until one qualifies.
  const base = Date.now() % 1_000_000;
  let s: { id: string } | undefined;
  let out: { crystal: { id: string; validity: { verdict: string } } } | undefined;
  const tried: string[] = [];
  for (let attempt = 0; attempt < 16 && !out; attempt++) {
    const candidate = await createViaApi(page, {
      seed_concept: "information asymmetry",
      attractor: "economic opportunity in financial intelligence",
      max_steps: 40,
      random_seed: base + attempt,
    });
    for (let i = 0; i < RECIPE.steps; i++) {
      expect((await page.request.post(`${API}/sessions/${candidate.id}/step`)).status()).toBe(200);
    }
    const crystallized = await page.request.post(`${API}/sessions/${candidate.id}/crystallize`);
    expect(crystallized.status()).toBe(200);
    const formed = await crystallized.json();
    const verdict: string = formed.crystal?.validity?.verdict ?? "none";
    tried.push(verdict);
    if (verdict === "review") {
      const reviewed = await page.request.post(`${API}/crystals/${formed.crystal.id}/review`, { data: { verdict: "accept" } });
      expect(reviewed.status()).toBe(200);
    }
    if (verdict === "accepted" || verdict === "review") {
      s = candidate;
      out = formed;
    }
  }
  expect(out, `no crystal could be proposed; gate verdicts: ${tried.join(", ")}`).toBeTruthy();
  if (!s || !out) return;
  expect((await sessionViaApi(page, s.id)).step_count).toBe(RECIPE.steps);

  await page.goto(`/sessions/${s.id}`);
  await page.getByRole("button", { name: /^Proposals/ }).click();
  const panel = page.getByTestId("proposals-panel");
  await panel.getByLabel("reviewer").fill("ada");
  await panel.locator(`[data-crystal-id="${out.crystal.id}"]`).getByRole("button", { name: "Propose" }).click();

  const card = panel.getByTestId("proposal");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("proposal-status")).toHaveText("pending");
  await expect(card.locator(".fractal-square img")).toBeVisible();
  await expect(page.locator(".react-flow__node-fractal")).toHaveCount(1, { timeout: 15_000 });

  // not approved yet: nothing to execute (the API would refuse it: 403)
  await expect(card.getByRole("button", { name: /Execute/ })).toHaveCount(0);
  const refused = await page.request.post(`${API}/proposals/${(await (await page.request.get(`${API}/proposals?session_id=${s.id}`)).json())[0].id}/execute`);
  expect(refused.status()).toBe(403);
  await shot(page, "proposals-01-pending");

  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card.getByTestId("proposal-status")).toHaveText("approved");
  await expect(card.getByTestId("proposal-decision")).toContainText("approved by ada");
  await expect(card.getByTestId("proposal-decision")).toContainText("via web"); // made in the page
  await card.getByRole("button", { name: "Execute on paper" }).click();
  await expect(card.getByTestId("proposal-status")).toHaveText("executed");
  await expect(panel.getByTestId("wallet-history")).toBeVisible();
  await shot(page, "proposals-02-executed");

  const wallet = await (await page.request.get(`${API}/wallet`)).json();
  const listed = await (await page.request.get(`${API}/proposals?session_id=${s.id}`)).json();
  expect(wallet.ledger.map((r: { proposal_id: string }) => r.proposal_id)).toContain(listed[0].id);
  expect(listed[0].decision.reviewer).toBe("ada");
});
