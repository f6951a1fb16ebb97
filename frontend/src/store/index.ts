// The store's public face: the graph (graph.ts), its fold from events (fold.ts), what the REST
// view adds (restView.ts), the views derived from it (view.ts) and the UI state (wander.ts).
export * from "./graph";
export * from "./fold";
export * from "./restView";
export * from "./view";
export * from "./wander";
