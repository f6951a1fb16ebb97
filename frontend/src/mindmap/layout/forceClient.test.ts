// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { IncrementalLayout } from "./force";
import { ForceLayoutClient, WORKER_FROM } from "./forceClient";
import { ForceHost } from "./forceHost";
import type { ToWorker } from "./forceProtocol";
import { placedSince } from "./growth";
import type { LayoutInput, LayoutLink, LayoutNode } from "./types";

/** A walk's inputs as the map asks for them: the loci so far and the step's candidates. */
function walk(n: number): LayoutInput[] {
  const nodes: LayoutNode[] = [{ id: "n0", parentId: null, r: 18, label: "c0" }];
  const links: LayoutLink[] = [];
  const out: LayoutInput[] = [];
  for (let i = 1; i < n; i++) {
    const from = i % 7 === 0 ? `n${Math.floor(i / 2)}` : `n${i - 1}`;
    nodes.push({ id: `n${i}`, parentId: from, r: 16, label: `c${i}` });
    links.push({ source: from, target: `n${i}` });
    const ghosts = [0, 1].map((k) => ({ id: `g:${i}:${k}`, parentId: `n${i}`, r: 7, label: `c${i + 1 + k}`, group: `cand:${i}` }));
    out.push({ nodes: [...nodes, ...ghosts], links: [...links, ...ghosts.map((g) => ({ source: `n${i}`, target: g.id }))] });
  }
  return out;
}

/** A Worker that runs the worker's host in this thread, answering on the next task. */
class InThreadWorker {
  static made = 0;
  onmessage: ((e: MessageEvent) => void) | null = null;
  private host = new ForceHost();
  private live = true;
  constructor() {
    InThreadWorker.made++;
  }
  postMessage(m: ToWorker) {
    const out = this.host.handle(structuredClone(m));
    if (out) setTimeout(() => this.live && this.onmessage?.({ data: out } as MessageEvent), 0);
  }
  terminate() {
    this.live = false;
  }
}

const settled = () => new Promise((r) => setTimeout(r, 5));

afterEach(() => vi.unstubAllGlobals());

describe("ForceLayoutClient in the page", () => {
  it("lays out in the page without workers, each change a new map that grew from the last", () => {
    const steps = walk(30);
    const client = new ForceLayoutClient({}, false);
    const seen: number[] = [];
    client.subscribe(() => seen.push(client.getSnapshot().positions.size));
    const ref = new IncrementalLayout();
    const first = { nodes: steps[0].nodes.slice(0, 2), links: steps[0].links.slice(0, 1) };
    const second = { nodes: steps[0].nodes.slice(0, 3), links: steps[0].links.slice(0, 2) };
    client.ask(first);
    const a = client.snapshot.positions;
    client.ask(second);
    const b = client.snapshot.positions;
    ref.update(first.nodes, first.links);
    ref.update(second.nodes, second.links);
    expect(b).not.toBe(a);
    expect(placedSince(a, b)).toEqual([steps[0].nodes[2].id]);
    for (const s of steps) {
      client.ask(s);
      expect([...client.snapshot.positions]).toEqual([...ref.update(s.nodes, s.links)]);
    }
    expect(seen.length).toBeGreaterThan(steps.length);
    expect(client.where).toBe("page");
  });

  it("asked quietly (in a render), the positions change without a word to the listeners: the render reads them", () => {
    const steps = walk(5);
    const client = new ForceLayoutClient({}, false);
    let told = 0;
    client.subscribe(() => told++);
    client.ask(steps[0], true);
    client.ask(steps[1], true);
    expect(told).toBe(0);
    expect(client.getSnapshot().positions.has("n2")).toBe(true);
    client.pin("n1", { x: 1, y: 2 }); // (a pin is no render's: the map hears of it)
    expect(told).toBe(1);
  });
});

describe("ForceLayoutClient with a worker", () => {
  it("sends a batch of many new nodes to the worker and takes the layout back for a live step, placing all as the page would", async () => {
    vi.stubGlobal("Worker", InThreadWorker);
    InThreadWorker.made = 0;
    const steps = walk(WORKER_FROM + 60);
    const ref = new IncrementalLayout();
    const client = new ForceLayoutClient();
    client.ask(steps[9]); // a first screen, in the page
    ref.update(steps[9].nodes, steps[9].links);
    expect(client.where).toBe("page");
    const backlog = steps[WORKER_FROM + 20];
    client.ask(backlog); // the backlog: to the worker
    expect(client.where).toBe("worker");
    await settled();
    expect([...client.snapshot.positions]).toEqual([...ref.update(backlog.nodes, backlog.links)]);
    for (const s of steps.slice(WORKER_FROM + 21)) {
      client.ask(s); // live steps: back in the page, at once
      expect(client.where).toBe("page");
      expect([...client.snapshot.positions]).toEqual([...ref.update(s.nodes, s.links)]);
    }
    expect(InThreadWorker.made).toBe(1);
  });

  it("is busy while the worker lays out a backlog, and tells its listeners when it is done", async () => {
    vi.stubGlobal("Worker", InThreadWorker);
    const steps = walk(2 * WORKER_FROM + 40);
    const client = new ForceLayoutClient();
    const heard: boolean[] = [];
    client.subscribe(() => heard.push(client.busy));
    expect(client.busy).toBe(false);
    client.ask(steps[WORKER_FROM]);
    client.ask(steps[2 * WORKER_FROM + 30]); // waits for the first answer
    expect(client.busy).toBe(true);
    await settled();
    await settled();
    expect(client.busy).toBe(false);
    // the first answer's positions while the second batch was under way, then the last
    expect(heard).toEqual([true, false]);
    client.ask(steps[2 * WORKER_FROM + 31]); // a live step: in the page, never busy
    expect(client.busy).toBe(false);
  });

  it("while the worker lays out, only the latest graph asked for goes next; a pin holds wherever the layout is", async () => {
    vi.stubGlobal("Worker", InThreadWorker);
    const steps = walk(2 * WORKER_FROM + 40);
    const client = new ForceLayoutClient();
    client.ask(steps[WORKER_FROM]);
    client.ask(steps[WORKER_FROM + 5]); // waits
    client.ask(steps[2 * WORKER_FROM + 30]); // replaces it
    await settled();
    await settled();
    const ref = new IncrementalLayout();
    ref.update(steps[WORKER_FROM].nodes, steps[WORKER_FROM].links);
    expect([...client.snapshot.positions]).toEqual([...ref.update(steps[2 * WORKER_FROM + 30].nodes, steps[2 * WORKER_FROM + 30].links)]);
    client.pin("n3", { x: 5000, y: 5000 });
    expect(client.where).toBe("page");
    expect(client.snapshot.positions.get("n3")).toEqual({ x: 5000, y: 5000 });
  });
});
