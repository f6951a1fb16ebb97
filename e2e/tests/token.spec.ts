// The mind map behind WANDER_API_TOKEN: a second `wander serve` with a token set, the same
// data folder. A person signs in once (the prompt, or a link's ?token=), and everything
// after that (REST, the live socket) works from the cookie the server set.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT, e2eHome } from "../global-setup";
import { expect, shot, test } from "./helpers";

const TOKEN = "e2e-token-7f3a";
let server: ChildProcess | null = null;
let url = "";

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const wander = process.env.WANDER_BIN ?? join(ROOT, ".venv", "bin", "wander");
  const home = e2eHome();
  mkdirSync(home, { recursive: true });
  const logPath = join(home, "e2e-token-server.log");
  const log = openSync(logPath, "w");
  server = spawn(wander, ["serve", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, WANDER_HOME: home, WANDER_API_TOKEN: TOKEN },
    stdio: ["ignore", log, log],
  });
  const started = Date.now();
  const deadline = started + 200_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/v1/health`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      if (res.status === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || server.exitCode !== null) {
      // say which (it exited, or it is still starting) and why, from its own log
      const why = server.exitCode !== null ? `exited with ${server.exitCode}` : "still starting";
      const tail = readFileSync(logPath, "utf8").slice(-2000);
      throw new Error(`the token server did not come up after ${Math.round((Date.now() - started) / 1000)} s (${why}); ${logPath}:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const gone = new Promise((r) => server!.once("exit", r));
  server.kill("SIGINT"); // a clean stop: the embedded Postgres stays for the other server
  await Promise.race([gone, new Promise((r) => setTimeout(r, 30_000))]);
});

test("sign in once through the prompt, then create and watch a wander live", async ({ page }) => {
  await page.goto(`${url}/`);
  const prompt = page.getByRole("form", { name: "Sign in" });
  await expect(prompt).toBeVisible();
  await page.getByLabel("API token").fill("not-the-token");
  await prompt.getByRole("button", { name: "Sign in" }).click();
  await expect(prompt.getByRole("alert")).toContainText("not accepted");
  await page.getByLabel("API token").fill(TOKEN);
  await prompt.getByRole("button", { name: "Sign in" }).click();
  await expect(prompt).toBeHidden();
  const cookies = await page.context().cookies(url);
  const cookie = cookies.find((c) => c.name === "wander_token");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Strict");

  await page.getByLabel("Seed concept").fill("tide pool");
  await page.getByLabel("Steps").fill("4");
  await page.getByRole("button", { name: /start wandering/i }).click();
  await page.waitForURL(/\/sessions\/[^/]+$/);
  await expect(page.getByTestId("session-status")).toHaveText("completed", { timeout: 90_000 });
  await expect(page.locator(".react-flow__edge-path.path-edge")).toHaveCount(4);
  await expect(page.getByTestId("conn-state")).toHaveAttribute("data-state", "live");
  await expect(page.getByRole("form", { name: "Sign in" })).toHaveCount(0);
  await shot(page, "token-01-signed-in-map");
});

test("a link's ?token= signs in and lands on the clean address", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/?token=${TOKEN}`);
  await expect(page).toHaveURL(`${url}/`);
  await expect(page.getByRole("heading", { name: "Wanders", exact: true })).toBeVisible();
  await expect(page.getByTestId("session-row").first()).toBeVisible();
  await expect(page.getByRole("form", { name: "Sign in" })).toHaveCount(0);
  await context.close();
});
