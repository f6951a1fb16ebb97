import { useEffect, useState } from "react";
import { api } from "../api/client";
import type { SessionOut } from "../api/types.gen";
import { Link } from "../router";
import { useWander } from "../store";

const href = (id: string) => `/sessions/${encodeURIComponent(id)}`;

/** Links both ways between a wander and its sub-wanders. */
export function Lineage({ sessionId }: { sessionId: string }) {
  const parentId = useWander((s) => s.session?.parent_session_id ?? null);
  const [kids, setKids] = useState<SessionOut[]>([]);
  const [parentName, setParentName] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.children(sessionId).then((k) => live && setKids(k)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sessionId]);
  useEffect(() => {
    let live = true;
    if (parentId) api.getSession(parentId).then((p) => live && setParentName(p.name)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [parentId]);
  if (!parentId && kids.length === 0) return null;
  return (
    <div className="muted small lineage" data-testid="lineage">
      {parentId ? (
        <span>
          sub-wander of <Link to={href(parentId)}>{parentName ?? "its parent"}</Link>
        </span>
      ) : null}
      {kids.length ? (
        <span>
          {parentId ? " · " : ""}sub-wanders:{" "}
          {kids.map((k, i) => (
            <span key={k.id}>
              {i ? ", " : ""}
              <Link to={href(k.id)}>{k.name}</Link>
            </span>
          ))}
        </span>
      ) : null}
    </div>
  );
}
