import type { Page } from "@playwright/test";
import { expect, shot, test } from "./helpers";

// The review queue page: marginal sandwiches (0.5 <= V < 0.7) the forager kept for a person,
// their counts, one opened, accepted into the corpus, another rejected.
type Counts = { pending: number; accepted: number; rejected: number };
type Review = { id: string; name: string; status: string; validity_score: number; bread_top: string; filling: string; bread_bottom: string };

const counts = async (page: Page): Promise<Counts> => (await page.request.get("/api/v1/sandwich/review-counts")).json();

/** Forage (seeds known to make marginal sandwiches first) until at least `n` wait for review. */
async function queueAtLeast(page: Page, n: number): Promise<Counts> {
  for (const seed of [7, 3, 11, 19, 23, 29]) {
    const c = await counts(page);
    if (c.pending >= n) return c;
    const res = await page.request.post("/api/v1/sandwich/forage", { data: { patience: 30, max_attempts: 14, seed }, timeout: 180_000 });
    expect(res.status(), await res.text()).toBe(200);
  }
  const c = await counts(page);
  expect(c.pending, "forage runs made marginal sandwiches").toBeGreaterThanOrEqual(n);
  return c;
}

async function expectCounts(page: Page, c: Counts) {
  for (const s of ["pending", "accepted", "rejected"] as const) await expect(page.getByTestId(`review-count-${s}`)).toHaveText(String(c[s]));
  await expect(page.getByTestId("review-count-all")).toHaveText(String(c.pending + c.accepted + c.rejected));
}

test("a person opens marginal sandwiches, accepts one into the corpus and rejects another", async ({ page }) => {
  test.setTimeout(600_000);
  const before = await queueAtLeast(page, 2);
  await page.goto("/");
  await page.getByTestId("reviews-link").click();
  await expect(page).toHaveURL(/\/reviews$/);
  await expect(page.getByRole("heading", { name: "Review queue" })).toBeVisible();
  await expectCounts(page, before);
  const pending = (await (await page.request.get("/api/v1/sandwich/reviews?status=pending&limit=500")).json()) as Review[];
  await expect(page.getByTestId("review-row")).toHaveCount(pending.length);
  await expect(page.getByTestId("review-none-open")).toBeVisible();

  // open the first: its breads and filling, V and its parts
  const first = pending[0];
  await page.locator(`[data-testid="review-row"][data-id="${first.id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/reviews/${first.id}$`));
  const detail = page.getByTestId("review-detail");
  await expect(detail).toHaveAttribute("data-id", first.id);
  await expect(page.getByTestId("review-name")).toHaveText(first.name);
  await expect(page.getByTestId("review-sandwich")).toContainText(first.filling);
  await expect(page.getByTestId("review-v")).toHaveText(first.validity_score.toFixed(3));
  expect(first.validity_score).toBeGreaterThanOrEqual(0.5);
  expect(first.validity_score).toBeLessThan(0.7);
  await expect(page.getByTestId("review-validity")).toContainText("containment");
  await shot(page, "review-queue-open", { fullPage: true });

  // a decision needs a reviewer
  await page.getByTestId("review-accept").click();
  await expect(detail.getByRole("alert")).toContainText("reviewer");
  await page.getByTestId("review-reviewer").fill("ada");
  await page.getByTestId("review-note").fill("a fair tension");
  await page.getByTestId("review-accept").click();
  await expect(page.getByTestId("review-decision")).toContainText("accepted by ada");
  await expect(page.getByTestId("review-decision")).toContainText("a fair tension");
  await expect(page.getByTestId("review-accept")).toHaveCount(0); // decided once
  await expectCounts(page, { ...before, pending: before.pending - 1, accepted: before.accepted + 1 });
  await expect(page.locator(`[data-testid="review-row"][data-id="${first.id}"]`)).toHaveCount(0);
  // it joined the corpus
  const decided = (await (await page.request.get(`/api/v1/sandwich/reviews/${first.id}`)).json()) as Review & { sandwich_id: string };
  expect(decided.status).toBe("accepted");
  const sandwiches = (await (await page.request.get("/api/v1/sandwich/sandwiches?limit=500")).json()) as { id: string; filling: string }[];
  expect(sandwiches.find((s) => s.id === decided.sandwich_id)?.filling).toBe(first.filling);

  // the next one: the reviewer is remembered; reject it
  const second = pending[1];
  await page.locator(`[data-testid="review-row"][data-id="${second.id}"]`).click();
  await expect(page.getByTestId("review-detail")).toHaveAttribute("data-id", second.id);
  await expect(page.getByTestId("review-reviewer")).toHaveValue("ada");
  await page.getByTestId("review-reject").click();
  await expect(page.getByTestId("review-decision")).toContainText("rejected by ada");
  await expectCounts(page, { pending: before.pending - 2, accepted: before.accepted + 1, rejected: before.rejected + 1 });

  // the decided ones under their filters; a deep link opens one
  await page.getByTestId("review-filter-rejected").click();
  await expect(page.locator(`[data-testid="review-row"][data-id="${second.id}"]`)).toHaveAttribute("data-status", "rejected");
  await page.getByTestId("review-filter-accepted").click();
  await expect(page.locator(`[data-testid="review-row"][data-id="${first.id}"]`)).toHaveAttribute("data-status", "accepted");
  await page.goto(`/reviews/${first.id}`);
  await expect(page.getByTestId("review-detail")).toHaveAttribute("data-status", "accepted");
  await shot(page, "review-queue-decided", { fullPage: true });
});
