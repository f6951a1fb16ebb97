import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { CreateForm } from "./CreateForm";
import { defaultCheckpoint, fieldOf } from "./createFormBody";
import type { Problem, SessionOut } from "../api/types.gen";

type Call = { url: string; method: string; body: unknown };

function mockFetch(handler: (c: Call) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string, init?: RequestInit) => {
    const c: Call = { url: String(url), method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(c);
    const { status, body } = handler(c);
    return new Response(body === undefined ? "" : JSON.stringify(body), {
      status,
      headers: { "Content-Type": status >= 400 ? "application/problem+json" : "application/json" },
    });
  });
  vi.stubGlobal("fetch", fn);
  return calls;
}

const session = (over: Partial<SessionOut> = {}) => ({ id: "abc", name: "information asymmetry", status: "active", max_steps: 8, step_count: 0, last_event_seq: 2, ...over }) as SessionOut;

describe("CreateForm", () => {
  beforeEach(() => window.history.replaceState(null, "", "/"));
  afterEach(() => vi.unstubAllGlobals());

  it("shows the API's problem detail next to the field it names", async () => {
    const problem: Problem = { type: "about:blank", title: "Invalid input", status: 422, detail: "temperature: must be greater than 0", field: "temperature" };
    const calls = mockFetch((c) =>
      c.url.endsWith("/domains") ? { status: 200, body: ["act", "cognition"] } : { status: 422, body: problem },
    );
    const onCreated = vi.fn();
    render(<CreateForm onCreated={onCreated} />);
    fireEvent.change(screen.getByLabelText("Seed concept"), { target: { value: "information asymmetry" } });
    fireEvent.change(screen.getByLabelText("Temperature"), { target: { value: "0" } });
    fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));

    const err = await screen.findByTestId("err-temperature");
    expect(err.textContent).toBe("temperature: must be greater than 0");
    const input = screen.getByLabelText("Temperature");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-describedby")).toBe("err-temperature");
    // next to its input: in the same field block, and no other field is marked
    expect(err.closest("[data-field]")?.getAttribute("data-field")).toBe("temperature");
    expect(screen.getByLabelText("Seed concept").getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByTestId("form-error")).toBeNull();
    expect(onCreated).not.toHaveBeenCalled();
    const post = calls.find((c) => c.method === "POST")!;
    expect(post.url).toBe("/api/v1/wander/sessions");
    expect(post.body).toMatchObject({ seed_concept: "information asymmetry", temperature: 0, max_steps: 20, random_seed: 0 });
  });

  it("maps nested field paths and shows unnamed problems above the button", async () => {
    expect(fieldOf("body.seed_concept")).toBe("seed_concept");
    expect(fieldOf("allowed_domains[0]")).toBe("allowed_domains");
    expect(fieldOf("nonsense")).toBeNull();
    mockFetch((c) =>
      c.url.endsWith("/domains")
        ? { status: 200, body: [] }
        : { status: 409, body: { title: "Conflict", status: 409, detail: "the store is busy" } },
    );
    render(<CreateForm onCreated={vi.fn()} />);
    fireEvent.change(screen.getByLabelText("Seed concept"), { target: { value: "x" } });
    fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));
    expect((await screen.findByTestId("form-error")).textContent).toBe("Conflict: the store is busy");
  });

  it("clears a field error once the input is fixed and the create succeeds; then starts the run and opens the map", async () => {
    let attempt = 0;
    const calls = mockFetch((c) => {
      if (c.url.endsWith("/domains")) return { status: 200, body: ["act", "cognition"] };
      if (c.url === "/api/v1/wander/sessions") {
        attempt += 1;
        return attempt === 1
          ? { status: 422, body: { title: "Invalid input", status: 422, detail: "must not be empty", field: "seed_concept" } }
          : { status: 201, body: session() };
      }
      if (c.url === "/api/v1/wander/sessions/abc/wander") return { status: 202, body: { session_id: "abc", n_steps: 8, from_step: 0, status: "active", running: true } };
      return { status: 404, body: { title: "Not found", status: 404, detail: c.url } };
    });
    render(<CreateForm />);
    fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));
    expect((await screen.findByTestId("err-seed_concept")).textContent).toBe("must not be empty");

    fireEvent.change(screen.getByLabelText("Seed concept"), { target: { value: "information asymmetry" } });
    fireEvent.change(screen.getByLabelText("Steps"), { target: { value: "8" } });
    // a domain chip from the known list
    fireEvent.change(screen.getByLabelText("Allowed domains"), { target: { value: "cognition" } });
    fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));
    await waitFor(() => expect(window.location.pathname).toBe("/sessions/abc"));
    expect(screen.queryByTestId("err-seed_concept")).toBeNull();
    const create = calls.filter((c) => c.url === "/api/v1/wander/sessions").at(-1)!;
    expect(create.body).toMatchObject({ seed_concept: "information asymmetry", max_steps: 8, allowed_domains: ["cognition"] });
    const run = calls.find((c) => c.url.endsWith("/wander"))!;
    expect(run).toMatchObject({ method: "POST", body: { n_steps: 8 } });
  });
});

describe("the default checkpoint", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("does not pause a walk of up to 200 steps, and pauses a longer one at each quarter", () => {
    expect(defaultCheckpoint(20)).toBe(0);
    expect(defaultCheckpoint(150)).toBe(0); // was 50: a 150-step wander stopped twice
    expect(defaultCheckpoint(200)).toBe(0);
    expect(defaultCheckpoint(600)).toBe(150);
    expect(defaultCheckpoint(1000)).toBe(250);
    expect(defaultCheckpoint(10000)).toBe(2500);
  });

  it("follows the form's steps until a person sets it, says what it does, and is sent", async () => {
    const calls = mockFetch((c) => (c.url.endsWith("/domains") ? { status: 200, body: [] } : { status: 201, body: session() }));
    render(<CreateForm onCreated={vi.fn()} />);
    const every = screen.getByLabelText("Checkpoint every") as HTMLInputElement;
    fireEvent.change(screen.getByLabelText("Steps"), { target: { value: "150" } });
    expect(every.value).toBe("0");
    expect(screen.getByText(/never pauses/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Steps"), { target: { value: "1000" } });
    expect(every.value).toBe("250");
    expect(screen.getByText(/pauses 3 times for a look/)).toBeTruthy();
    fireEvent.change(every, { target: { value: "100" } });
    fireEvent.change(screen.getByLabelText("Steps"), { target: { value: "300" } });
    expect(every.value).toBe("100"); // a person's choice stays
    expect(screen.getByText(/This one pauses 2 times/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Seed concept"), { target: { value: "tide" } });
    fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toMatchObject({ max_steps: 300, human_checkpoint_frequency: 100 });
  });
});
