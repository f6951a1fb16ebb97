// The force layout in a worker: while a long walk's backlog comes in (20,000 loci at a
// reconnection), the page folds and draws each batch while the worker lays out the last;
// the page only applies the positions it sends back (see forceClient.ts).
import { ForceHost } from "./forceHost";
import type { ToWorker } from "./forceProtocol";

const host = new ForceHost();

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const out = host.handle(e.data);
  if (out) (self as unknown as Worker).postMessage(out, [out.set.xy.buffer]);
};
