// What the server still prepares after a first start on a machine (the `preparing` of
// GET /api/v1/health: the CA kernel's compiled code, the corpus's domain neighbourhoods).
// The status bar shows it, so a first step that waits for it says why instead of a silent
// "Step 0". Asked once when the page opens, then again only while something is preparing.
import { useEffect, useState } from "react";

const HEALTH = "/api/v1/health";

/** The server's `preparing`, or null when it is ready (or does not say). */
export async function fetchPreparing(): Promise<string | null> {
  try {
    // plain fetch, not the API client: a 401 here must not open the token prompt
    const res = await fetch(HEALTH, { headers: { Accept: "application/json" } });
    if (!res.ok) return null;
    const body = (await res.json()) as { preparing?: unknown };
    return typeof body.preparing === "string" && body.preparing ? body.preparing : null;
  } catch {
    return null;
  }
}

export function useServerPreparing(pollMs = 1500): string | null {
  const [what, setWhat] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const next = await fetchPreparing();
      if (stopped) return;
      setWhat(next);
      if (next) timer = setTimeout(poll, pollMs);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [pollMs]);
  return what;
}
