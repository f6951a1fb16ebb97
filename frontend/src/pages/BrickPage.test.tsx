// The brick viewer: the frame at any tick (slider), play/pause, the state and the rotation
// outcome, an oscillating brick's divergence tick marked; the route and the crystal's link.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BrickOut } from "../api/types.gen";
import { brickApiPath, brickPagePath, cellValue, decodeBrick, frameRGBA, PALETTE } from "../memory/brick";
import { matchRoute } from "../router";
import { CrystalPanel } from "../panels/CrystalPanel";
import { useWander } from "../store";
import { BrickPage } from "./BrickPage";

const H = 4;
const W = 4;

/** A brick of `n` frames where frame t has every cell at byte (t * 37) % 256. */
function brick(n: number, extra: Partial<BrickOut> = {}): BrickOut {
  const bytes = new Uint8Array(n * H * W);
  for (let t = 0; t < n; t++) bytes.fill((t * 37) % 256, t * H * W, (t + 1) * H * W);
  let bin = "";
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return {
    source: "crystal", id: "c-1", text: "markets price what they cannot see", state: "CONVERGED", outcome: "CONVERGED",
    ticks: n - 1, angle: 0, attempts: 1, cycle_period: null, divergence_tick: null, height: H, width: W, frames: btoa(bin),
    ...extra,
  };
}

function serve(body: BrickOut | null, status = 200) {
  const fetchMock = vi.fn(async () =>
    body ? new Response(JSON.stringify(body), { status }) : new Response(JSON.stringify({ status, title: "Not Found", detail: "memory not found: abc" }), { status }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const hash = () => screen.getByTestId("brick-frame").getAttribute("data-frame-hash");

describe("brick decoding", () => {
  it("decodes one byte a cell and paints it with the attractor pictures' map", () => {
    const d = decodeBrick(brick(3));
    expect(d.frameCount).toBe(3);
    expect(cellValue(0)).toBe(-1);
    expect(cellValue(255)).toBe(1);
    expect(Array.from(PALETTE.subarray(0, 3))).toEqual([33, 102, 172]); // -1: blue
    expect(Array.from(PALETTE.subarray(255 * 3, 255 * 3 + 3))).toEqual([178, 24, 43]); // +1: red
    const px = frameRGBA(d, 1); // byte 37 everywhere: a blue-ish white
    expect(px.length).toBe(H * W * 4);
    expect(Array.from(px.subarray(0, 4))).toEqual([...PALETTE.subarray(37 * 3, 37 * 3 + 3), 255]);
    expect(() => decodeBrick({ ...brick(2), frames: btoa("abc") })).toThrow(/frames/);
  });

  it("routes /memory/<id>, /memory/crystal/<id> and /memory/text/<text> to the viewer", () => {
    expect(matchRoute("/memory/abc123")).toEqual({ name: "brick", source: { kind: "memory", id: "abc123" } });
    expect(matchRoute("/memory/crystal/c-1/")).toEqual({ name: "brick", source: { kind: "crystal", id: "c-1" } });
    const text = { kind: "text" as const, text: "a/b c" };
    expect(matchRoute(brickPagePath(text))).toEqual({ name: "brick", source: text });
    expect(brickApiPath({ kind: "crystal", id: "c-1" })).toBe("/api/v1/wander/crystals/c-1/brick");
    expect(brickApiPath({ kind: "memory", id: "m" })).toBe("/api/v1/wander/memory/m/brick");
    expect(brickApiPath(text)).toBe("/api/v1/wander/bricks?text=a%2Fb%20c");
  });
});

/** A 2-D context that keeps what is painted (jsdom has none). */
function paintedCanvas() {
  const painted: Uint8ClampedArray[] = [];
  const ctx = {
    createImageData: (w: number, h: number) => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }),
    putImageData: (img: { data: Uint8ClampedArray }) => painted.push(img.data.slice()),
  };
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation((() => ctx) as unknown as HTMLCanvasElement["getContext"]);
  return painted;
}

describe("BrickPage", () => {
  let painted: Uint8ClampedArray[] = [];
  beforeEach(() => {
    vi.useRealTimers();
    painted = paintedCanvas();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("opens on the attractor and shows the frame at the tick the slider picks", async () => {
    const fetchMock = serve(brick(6));
    render(<BrickPage source={{ kind: "crystal", id: "c-1" }} />);
    await waitFor(() => expect(screen.getByTestId("brick-tick").textContent).toBe("tick 5 / 5"));
    expect(fetchMock).toHaveBeenCalledWith("/api/v1/wander/crystals/c-1/brick", expect.anything());
    expect(screen.getByTestId("brick-text").textContent).toBe("markets price what they cannot see");
    expect(screen.getByTestId("brick-state").textContent).toContain("CONVERGED");
    expect(screen.getByTestId("brick-outcome").textContent).toBe("converged at 0°");
    expect(screen.getByTestId("brick-cycle").textContent).toBe("none: it settles");
    expect(screen.queryByTestId("brick-divergence")).toBeNull();
    const atEnd = hash();
    fireEvent.change(screen.getByTestId("brick-slider"), { target: { value: "2" } });
    expect(screen.getByTestId("brick-tick").textContent).toBe("tick 2 / 5");
    expect(screen.getByTestId("brick-frame").getAttribute("data-tick")).toBe("2");
    expect(hash()).not.toBe(atEnd);
    const atTwo = hash();
    expect(Array.from(painted.at(-1)!)).toEqual(Array.from(frameRGBA(decodeBrick(brick(6)), 2))); // tick 2's pixels
    fireEvent.change(screen.getByTestId("brick-slider"), { target: { value: "3" } });
    expect(hash()).not.toBe(atTwo);
    expect(Array.from(painted.at(-1)!)).toEqual(Array.from(frameRGBA(decodeBrick(brick(6)), 3)));
  });

  it("plays from the seed to the attractor and pauses", async () => {
    serve(brick(4));
    render(<BrickPage source={{ kind: "memory", id: "m-1" }} />);
    await waitFor(() => expect(screen.getByTestId("brick-tick").textContent).toBe("tick 3 / 3"));
    vi.useFakeTimers();
    const play = screen.getByTestId("brick-play");
    fireEvent.click(play); // at the end: starts again from the seed
    expect(play.textContent).toBe("Pause");
    expect(screen.getByTestId("brick-tick").textContent).toBe("tick 0 / 3");
    act(() => vi.advanceTimersByTime(1000 / 12 + 1));
    expect(screen.getByTestId("brick-tick").textContent).toBe("tick 1 / 3");
    fireEvent.click(play); // pause
    expect(play.textContent).toBe("Play");
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId("brick-tick").textContent).toBe("tick 1 / 3");
    fireEvent.click(play);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId("brick-tick").textContent).toBe("tick 3 / 3"); // stops at the attractor
    expect(play.textContent).toBe("Play");
  });

  it("marks where an oscillating brick's cycle began and says every rotation failed", async () => {
    serve(brick(41, { state: "OSCILLATING", outcome: "FAILED_ALL_ROTATIONS", attempts: 4, angle: 180, cycle_period: 2, divergence_tick: 10 }));
    render(<BrickPage source={{ kind: "text", text: "never settles" }} />);
    await waitFor(() => expect(screen.getByTestId("brick-outcome").textContent).toBe("FAILED_ALL_ROTATIONS"));
    expect(screen.getByTestId("brick-state").textContent).toContain("OSCILLATING");
    expect(screen.getByTestId("brick-cycle").textContent).toBe("period 2, began at tick 10");
    expect(screen.getByTestId("brick-divergence").style.left).toBe("25%"); // tick 10 of 40
    fireEvent.click(screen.getByTestId("brick-goto-divergence"));
    expect(screen.getByTestId("brick-tick").textContent).toBe("tick 10 / 40");
  });

  it("says so when there is no such brick", async () => {
    serve(null, 404);
    render(<BrickPage source={{ kind: "memory", id: "abc" }} />);
    await waitFor(() => expect(screen.getByTestId("brick-error").textContent).toContain("memory not found: abc"));
  });
});

describe("the crystal's attractor picture", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("links to the crystal's brick in the viewer", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("[]", { status: 200 })));
    useWander.setState(useWander.getInitialState());
    useWander.getState().openCrystal("c-1");
    render(<CrystalPanel sessionId="s-1" />);
    const link = await screen.findByTestId("crystal-brick-link");
    expect(link.getAttribute("href")).toBe("/memory/crystal/c-1");
    expect(link.querySelector("img")?.getAttribute("src")).toBe("/api/v1/wander/crystals/c-1/attractor.png");
  });
});
