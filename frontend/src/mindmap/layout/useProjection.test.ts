import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { archiveApi } from "../../api/archive";
import type { EventOut, ProjectionOut } from "../../api/types.gen";
import { useWander } from "../../store";
import { ev, SID } from "../../test/fixtures";
import { useAnimatedPositions } from "./semantic";
import { lastRefit, missingFrom, refitTracker, useProjection } from "./useProjection";

const refitEvent = (seq: number, fit: string, session = SID): EventOut =>
  ev(seq, "wander.projection.updated", { fit_id: fit, method: "umap", n_loci: 2 }, session);

function answer(fit: string, ids: string[]): ProjectionOut {
  return { session_id: SID, fit_id: fit, method: "umap", points: ids.map((id, i) => ({ locus_id: id, x: i / 10, y: -i / 10, fitted: true })) };
}

describe("refits announced on the socket", () => {
  it("finds the latest refit of this wander in the event log", () => {
    const log = [refitEvent(1, "f1"), refitEvent(2, "other", "s-2"), refitEvent(3, "f2"), refitEvent(4, "f3", "s-2")];
    expect(lastRefit(log, SID)).toBe("f2");
    expect(lastRefit(log, "s-2")).toBe("f3");
    expect(lastRefit([], SID)).toBeNull();
  });

  it("reads only the events appended since the last look", () => {
    const track = refitTracker();
    const a = [refitEvent(1, "f1")];
    expect(track(a, SID)).toBe("f1");
    const b = a.concat([refitEvent(2, "x", "s-2")]);
    expect(track(b, SID)).toBe("f1"); // kept from before: the new tail has none of ours
    const c = b.concat([refitEvent(3, "f2")]);
    expect(track(c, SID)).toBe("f2");
    expect(track([refitEvent(9, "g")], SID)).toBe("g"); // a different log: read whole
    expect(track([], SID)).toBeNull();
  });

  it("knows when the map holds loci the projection has not placed", () => {
    const pts = new Map([["a", { x: 0, y: 0 }]]);
    expect(missingFrom(pts, ["a"])).toBe(false);
    expect(missingFrom(pts, ["a", "b"])).toBe(true);
    expect(missingFrom(null, [])).toBe(true);
  });
});

describe("useProjection", () => {
  let spy: ReturnType<typeof vi.spyOn>;
  let served: ProjectionOut;
  beforeEach(() => {
    useWander.setState(useWander.getInitialState());
    useWander.getState().openSession(SID);
    served = answer("f1", ["a", "b"]);
    spy = vi.spyOn(archiveApi, "projection").mockImplementation(async () => served);
  });
  afterEach(() => spy.mockRestore());

  it("asks nothing while the flow layout is on", async () => {
    renderHook(() => useProjection(SID, false, ["a", "b"]));
    await new Promise((r) => setTimeout(r, 300));
    expect(spy).not.toHaveBeenCalled();
  });

  it("fetches the projection when switched on and gives the points by locus", async () => {
    const { result } = renderHook(() => useProjection(SID, true, ["a", "b"]));
    await waitFor(() => expect(result.current.points).not.toBeNull());
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenCalledWith(SID);
    expect(result.current.fitId).toBe("f1");
    expect(result.current.method).toBe("umap");
    expect(result.current.points!.get("b")).toEqual({ x: 0.1, y: -0.1 });
    expect(result.current.loading).toBe(false);
  });

  it("asks again when a locus arrives that the projection lacks, once per growth", async () => {
    const { result, rerender } = renderHook(({ loci }) => useProjection(SID, true, loci), { initialProps: { loci: ["a", "b"] } });
    await waitFor(() => expect(result.current.points?.size).toBe(2));
    served = answer("f1", ["a", "b", "c"]); // the endpoint places the new locus by transform
    rerender({ loci: ["a", "b", "c"] });
    await waitFor(() => expect(result.current.points?.has("c")).toBe(true));
    expect(spy).toHaveBeenCalledTimes(2);
    // a locus the server does not place yet: asked once, not in a loop
    rerender({ loci: ["a", "b", "c", "d"] });
    await waitFor(() => expect(spy).toHaveBeenCalledTimes(3));
    await new Promise((r) => setTimeout(r, 600));
    expect(spy).toHaveBeenCalledTimes(3);
    expect(result.current.points?.has("d")).toBe(false);
  });

  it("asks again when a wander.projection.updated event arrives", async () => {
    const { result } = renderHook(() => useProjection(SID, true, ["a", "b"]));
    await waitFor(() => expect(result.current.fitId).toBe("f1"));
    served = answer("f2", ["a", "b"]);
    act(() => useWander.getState().ingest([refitEvent(1, "f2")]));
    await waitFor(() => expect(result.current.fitId).toBe("f2"));
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("keeps the error and tries again when switched on again", async () => {
    spy.mockImplementationOnce(async () => {
      throw new Error("GET projection: HTTP 500");
    });
    const { result, rerender } = renderHook(({ on }) => useProjection(SID, on, ["a", "b"]), { initialProps: { on: true } });
    await waitFor(() => expect(result.current.error).toBe("GET projection: HTTP 500"));
    expect(result.current.points).toBeNull();
    rerender({ on: false });
    rerender({ on: true });
    await waitFor(() => expect(result.current.points?.size).toBe(2));
    expect(result.current.error).toBeNull();
    expect(spy).toHaveBeenCalledTimes(2);
  });
});

describe("useAnimatedPositions", () => {
  const flow = new Map([["a", { x: 0, y: 0 }]]);
  const semantic = new Map([["a", { x: 300, y: -150 }]]);

  it("glides from the shown picture to the new one when the key changes, and ends on it", async () => {
    const { result, rerender } = renderHook(({ t, k }) => useAnimatedPositions(t, k, 200), { initialProps: { t: flow, k: "flow" } });
    expect(result.current.get("a")).toEqual({ x: 0, y: 0 });
    rerender({ t: semantic, k: "semantic" });
    expect(result.current.get("a")).toEqual({ x: 0, y: 0 }); // not at the destination on the switch
    await waitFor(() => {
      const p = result.current.get("a")!;
      expect(p.x).toBeGreaterThan(0);
      expect(p.x).toBeLessThan(300);
      expect(p.y / p.x).toBeCloseTo(-0.5, 9); // on the straight line between the two
    });
    await waitFor(() => expect(result.current).toBe(semantic));
  });

  it("shows a target that changes under the same key at once", () => {
    const { result, rerender } = renderHook(({ t, k }) => useAnimatedPositions(t, k, 200), { initialProps: { t: flow, k: "flow" } });
    const grown = new Map([...flow, ["b", { x: 10, y: 10 }]]);
    rerender({ t: grown, k: "flow" });
    expect(result.current).toBe(grown);
  });
});
