// What the force layout's worker does with each message (forceWorker.ts binds it to the
// worker's messages; a test drives it directly). Messages: see forceProtocol.ts.
import { IncrementalLayout } from "./force";
import { fromList, toList, type FromWorker, type ToWorker } from "./forceProtocol";
import type { LayoutLink, LayoutNode } from "./types";

export class ForceHost {
  private layout = new IncrementalLayout();
  private nodes: LayoutNode[] = [];
  private links: LayoutLink[] = [];

  /** The answer to an update (null for the other messages). */
  handle(m: ToWorker): FromWorker | null {
    if (m.kind === "pin") {
      this.layout.pin(m.id, m.at);
      return null;
    }
    if (m.kind === "adopt") {
      this.nodes = m.nodes;
      this.links = m.links;
      this.layout = IncrementalLayout.adopt(m.nodes, m.links, fromList(m.placed), m.pins);
      return null;
    }
    // (the prefix kept is the worker's own objects: the layout recognises it by identity)
    this.nodes = this.nodes.slice(0, m.keepNodes).concat(m.nodes);
    this.links = this.links.slice(0, m.keepLinks).concat(m.links);
    this.layout.update(this.nodes, this.links);
    const c = this.layout.lastChange;
    return { fresh: c.fresh, gone: c.gone, set: toList(this.layout.positions, c.set) };
  }
}
