// A tiny client-side router: `/`, `/sessions/:id`, `/memory/...` (the brick viewer). Deep links work because the
// backend serves index.html for unknown paths.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";
import type { BrickSource } from "./memory/brick";

const listeners = new Set<() => void>();
function subscribe(fn: () => void) {
  listeners.add(fn);
  window.addEventListener("popstate", fn);
  return () => {
    listeners.delete(fn);
    window.removeEventListener("popstate", fn);
  };
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  listeners.forEach((fn) => fn());
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname, () => "/");
}

export type Route =
  | { name: "sessions" }
  | { name: "analysis" }
  | { name: "evaluation" }
  | { name: "reviews"; id: string | null }
  | { name: "session"; id: string }
  | { name: "archive"; id: string }
  | { name: "brick"; source: BrickSource }
  | { name: "not-found"; path: string };

export function matchRoute(path: string): Route {
  const p = path.replace(/\/+$/, "") || "/";
  if (p === "/" || p === "/sessions") return { name: "sessions" };
  if (p === "/analysis") return { name: "analysis" };
  if (p === "/evaluation") return { name: "evaluation" };
  const r = /^\/reviews(?:\/([^/]+))?$/.exec(p);
  if (r) return { name: "reviews", id: r[1] ? decodeURIComponent(r[1]) : null };
  const a = /^\/sessions\/([^/]+)\/archive$/.exec(p);
  if (a) return { name: "archive", id: decodeURIComponent(a[1]) };
  const b = /^\/memory\/(?:(crystal|text)\/)?([^/]+)$/.exec(p);
  if (b) {
    const v = decodeURIComponent(b[2]);
    return { name: "brick", source: b[1] === "crystal" ? { kind: "crystal", id: v } : b[1] === "text" ? { kind: "text", text: v } : { kind: "memory", id: v } };
  }
  const m = /^\/sessions\/([^/]+)$/.exec(p);
  if (m) return { name: "session", id: decodeURIComponent(m[1]) };
  return { name: "not-found", path };
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
