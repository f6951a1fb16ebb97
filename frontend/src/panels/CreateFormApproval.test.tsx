import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { CreateForm } from "./CreateForm";
import { crystalState } from "./crystalState";
import type { SessionOut } from "../api/types.gen";

type Call = { url: string; method: string; body: Record<string, unknown> | undefined };

function mockFetch(): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url: String(url), method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const body = String(url).endsWith("/domains") ? [] : ({ id: "abc", name: "x", status: "active", max_steps: 20 } as SessionOut);
      return new Response(JSON.stringify(body), { status: String(url).endsWith("/domains") ? 200 : 201, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

describe("CreateForm: approve every crystal", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends require_crystal_approval only when the box is ticked", async () => {
    for (const ticked of [false, true]) {
      const calls = mockFetch();
      const onCreated = vi.fn();
      const { unmount } = render(<CreateForm onCreated={onCreated} />);
      fireEvent.change(screen.getByLabelText("Seed concept"), { target: { value: "tide pool" } });
      const box = screen.getByLabelText("Approve every crystal") as HTMLInputElement;
      expect(box.checked).toBe(false);
      if (ticked) fireEvent.click(box);
      expect(box.checked).toBe(ticked);
      fireEvent.click(screen.getByRole("button", { name: /start wandering/i }));
      await waitFor(() => expect(onCreated).toHaveBeenCalled());
      const post = calls.find((c) => c.method === "POST")!;
      if (ticked) expect(post.body!.require_crystal_approval).toBe(true);
      else expect("require_crystal_approval" in post.body!).toBe(false);
      unmount();
      vi.unstubAllGlobals();
    }
  });
});

describe("a crystal held for approval", () => {
  it("says the gate accepted it and it waits for the person, until the person decides", () => {
    const held = { verdict: "review", status: "active", human_approved: false, gate_verdict: "accepted" };
    expect(crystalState(held)).toEqual({ text: "held for your approval (the gate accepted it)", tone: "wait" });
    expect(crystalState({ ...held, gate_verdict: null }).text).toBe("awaiting your review");
    expect(crystalState({ ...held, human_approved: true }).text).toBe("accepted by a person");
    expect(crystalState({ ...held, review: "reject" }).text).toBe("rejected by a person");
  });
});
