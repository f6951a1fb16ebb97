// Rename or delete the open wander, from its own page (the "⋯" beside its title).
import { useEffect, useRef, useState } from "react";
import { archiveApi } from "../api/archive";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import { navigate } from "../router";
import { useWander } from "../store";

export function WanderMenu({ sessionId, name }: { sessionId: string; name: string | null }) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<"menu" | "rename" | "delete">("menu");
  const [draft, setDraft] = useState(name ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  // a click elsewhere closes it
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (box.current && e.target instanceof Node && !box.current.contains(e.target)) setOpen(false);
    };
    window.addEventListener("pointerdown", away, true);
    return () => window.removeEventListener("pointerdown", away, true);
  }, [open]);

  const show = (m: "menu" | "rename" | "delete") => {
    setMode(m);
    setError(null);
    if (m === "rename") setDraft(name ?? "");
  };
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err instanceof ApiError ? (err.problem?.detail ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const rename = () =>
    run(async () => {
      const s = await api.updateSession(sessionId, { name: draft.trim() });
      useWander.getState().setSession(s);
      setOpen(false);
    });
  const remove = () =>
    run(async () => {
      await api.deleteSession(sessionId);
      setOpen(false);
      navigate("/");
    });

  return (
    <div className="wander-menu" ref={box}>
      <button
        type="button"
        className="tool"
        aria-label="Wander actions"
        aria-expanded={open}
        title="Rename or delete this wander"
        onClick={() => {
          setOpen(!open);
          show("menu");
        }}
      >
        ⋯
      </button>
      {open ? (
        <div className="wander-menu-pop" role="dialog" aria-label="Wander actions" data-testid="wander-menu">
          {mode === "menu" ? (
            <>
              <button type="button" onClick={() => show("rename")}>
                Rename…
              </button>
              {/* the archive's JSON as the wander stands now (final=false: also while it walks) */}
              <a className="menu-link" href={`${archiveApi.exportUrl(sessionId, "archive.json")}?final=false`} download data-testid="export-snapshot">
                Export a snapshot (JSON)
              </a>
              <button type="button" className="danger-text" onClick={() => show("delete")}>
                Delete…
              </button>
            </>
          ) : null}
          {mode === "rename" ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void rename();
              }}
            >
              <label>
                New name
                <input aria-label="New name" value={draft} autoFocus maxLength={255} onChange={(e) => setDraft(e.target.value)} />
              </label>
              <div className="row">
                <button type="submit" className="primary" disabled={busy || !draft.trim()}>
                  Rename
                </button>
                <button type="button" onClick={() => setOpen(false)}>
                  Cancel
                </button>
              </div>
            </form>
          ) : null}
          {mode === "delete" ? (
            <div>
              <p>Delete “{name}” with its loci, crystals and archive? This cannot be undone.</p>
              <div className="row">
                <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
                  Delete for good
                </button>
                <button type="button" onClick={() => setOpen(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : null}
          {error ? (
            <p className="form-error small" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
