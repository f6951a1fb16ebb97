// The force layout of one map, behind the Layout the map reads. A live step (a locus or two,
// its candidates) is laid out in the page, at once; a batch of many new nodes (a backlog
// replayed at the first connection or a reconnection: 20,000 loci of a long walk) goes to a
// worker (forceWorker.ts), so that the page folds and draws the next batches meanwhile, and
// comes back once the batches are small again (IncrementalLayout.adopt: the layout goes on
// exactly as it would have). Without workers (tests under jsdom) all is laid out here.
// `ask` for the positions of a graph; `snapshot` is a new Layout at every change; `subscribe`
// hears of changes (the shape of React's useSyncExternalStore). While the worker lays out
// one graph, those asked for meanwhile wait, and only the latest goes next.
import { IncrementalLayout } from "./force";
import { toList, type FromWorker, type ToWorker } from "./forceProtocol";
import { grew } from "./growth";
import type { Layout, LayoutInput, Point } from "./types";

/** An update that brings at least this many new nodes is laid out in the worker. */
export const WORKER_FROM = 200;

export class ForceLayoutClient {
  snapshot: Layout = { positions: new Map() };
  private local: IncrementalLayout | null = null;
  private worker: Worker | null = null;
  /** The input the layout (here or in the worker) was given last. */
  private laid: LayoutInput | null = null;
  private want: LayoutInput | null = null;
  /** The input last asked of the layout (null: lay `want` out again, a pin moved a node). */
  private sent: LayoutInput | null = null;
  private inFlight = false;
  /** The next change starts from no positions (a layout started anew). */
  private restart = false;
  private quiet = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly pins: Record<string, Point> = {},
    private workers = typeof Worker !== "undefined",
  ) {}

  subscribe = (f: () => void): (() => void) => {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  };

  getSnapshot = (): Layout => this.snapshot;

  /** Where the layout runs now. */
  get where(): "page" | "worker" {
    return this.worker ? "worker" : "page";
  }

  /** The worker is laying out a backlog (the positions have not caught up with the graph
   * asked for); the snapshot changes when it is done. */
  get busy(): boolean {
    return this.worker !== null && this.inFlight;
  }

  /** `quiet`: the snapshot changes without telling the listeners (asked in a render, which
   * reads the snapshot right after: a live step's positions in the render that draws it). */
  ask(input: LayoutInput, quiet = false): void {
    this.want = input;
    this.quiet = quiet;
    this.flush();
    this.quiet = false;
  }

  /** Pins a node at `at` (its position from now on) and lays the graph out again. */
  pin = (id: string, at: Point): void => {
    this.pins[id] = { ...at };
    if (this.worker && !this.inFlight) this.comeBack();
    if (this.worker) this.post({ kind: "pin", id, at });
    else this.local?.pin(id, at);
    this.sent = null;
    this.flush();
  };

  /** Stops the worker; a later `ask` lays the graph out anew. */
  close(): void {
    this.worker?.terminate();
    this.worker = null;
    this.local = null;
    this.laid = null;
    this.sent = null;
    this.inFlight = false;
    this.restart = true;
  }

  private flush(): void {
    const input = this.want;
    if (!input || input === this.sent || this.inFlight) return;
    this.sent = input;
    const kept = this.laid ? sharedPrefix(this.laid.nodes, input.nodes) : 0;
    const many = input.nodes.length - kept >= WORKER_FROM;
    if (this.worker && !many) this.comeBack();
    else if (!this.worker && many && this.workers) this.goToWorker();
    if (!this.worker) return this.layOutHere(input);
    const laid = this.laid ?? { nodes: [], links: [] };
    const keepLinks = sharedPrefix(laid.links, input.links);
    this.post({ kind: "update", keepNodes: kept, nodes: input.nodes.slice(kept), keepLinks, links: input.links.slice(keepLinks) });
    this.laid = input;
    this.inFlight = true;
  }

  private post(m: ToWorker): void {
    this.worker!.postMessage(m);
  }

  /** The layout moves to a worker, going on from the positions it gave. */
  private goToWorker(): void {
    const w = new Worker(new URL("./forceWorker.ts", import.meta.url), { type: "module" });
    w.onmessage = (e: MessageEvent<FromWorker>) => {
      if (this.worker !== w) return; // (an answer of a worker since stopped)
      this.inFlight = false;
      const { ids, xy } = e.data.set;
      const before = this.snapshot;
      this.quiet = true;
      this.apply(e.data.fresh, e.data.gone, ids, (i) => ({ x: xy[2 * i], y: xy[2 * i + 1] }));
      this.quiet = false;
      // (the next batch sent first: a listener reads whether the layout is still busy)
      this.flush();
      if (this.snapshot === before && this.inFlight) return;
      // done with the backlog (said also when its last answer placed nothing)
      if (this.snapshot === before) this.snapshot = { positions: before.positions };
      for (const f of this.listeners) f();
    };
    // a worker that cannot start (its script refused): all is laid out in the page, anew
    w.onerror = () => {
      if (this.worker !== w) return;
      this.close();
      this.workers = false;
      this.flush();
    };
    this.worker = w;
    const laid = this.laid ?? { nodes: [], links: [] };
    const positions = this.restart ? new Map<string, Point>() : this.snapshot.positions;
    this.post({ kind: "adopt", nodes: laid.nodes, links: laid.links, placed: toList(positions), pins: this.pins });
    this.local = null;
  }

  /** The layout comes back to the page from the worker (which has answered all it was asked). */
  private comeBack(): void {
    this.worker!.terminate();
    this.worker = null;
    const laid = this.laid ?? { nodes: [], links: [] };
    this.local = IncrementalLayout.adopt(laid.nodes, laid.links, this.snapshot.positions, this.pins);
    // (a pin the worker was sent after its last answer: the positions did not have it yet)
    for (const [id, at] of Object.entries(this.pins)) this.local.pin(id, at);
  }

  private layOutHere(input: LayoutInput): void {
    if (!this.local) {
      this.local = new IncrementalLayout();
      for (const [id, at] of Object.entries(this.pins)) this.local.pin(id, at);
    }
    this.local.update(input.nodes, input.links);
    this.laid = input;
    const c = this.local.lastChange;
    const at = this.local.positions;
    this.apply(c.fresh, c.gone, c.set, (i) => at.get(c.set[i])!);
  }

  /** The next snapshot: the last one's positions with the change applied (a new map). */
  private apply(fresh: boolean, gone: string[], ids: string[], at: (i: number) => Point): void {
    if (!fresh && !this.restart && ids.length === 0) return; // nothing changed
    const prev = this.snapshot.positions;
    const next = this.restart ? new Map<string, Point>() : new Map(prev);
    for (const id of gone) next.delete(id);
    for (let i = 0; i < ids.length; i++) next.set(ids[i], at(i));
    if (!fresh && !this.restart) grew(prev, next, ids);
    this.restart = false;
    this.snapshot = { positions: next };
    if (!this.quiet) for (const f of this.listeners) f();
  }
}

/** How many leading items `a` and `b` share (by identity). */
function sharedPrefix<T>(a: readonly T[], b: readonly T[]): number {
  const m = Math.min(a.length, b.length);
  let k = 0;
  while (k < m && a[k] === b[k]) k++;
  return k;
}
