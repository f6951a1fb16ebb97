// Rename or delete the open wander, from its own page (the "⋯" beside its title).
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { archiveApi } from "../api/archive";
import { api } from "../api/client";
import { ApiError } from "../api/http";
import { navigate } from "../router";
import { useWander } from "../store";

type Mode = "menu" | "rename" | "delete";

/** While `open`, a click outside `box` calls `close`. */
function useClickAway(box: RefObject<HTMLElement | null>, open: boolean, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (box.current && e.target instanceof Node && !box.current.contains(e.target)) close();
    };
    window.addEventListener("pointerdown", away, true);
    return () => window.removeEventListener("pointerdown", away, true);
  }, [box, open, close]);
}

/** One request at a time: `busy` while it runs, its error (the problem's detail) after. */
function useRequest() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
  return { error, setError, busy, run };
}

function MenuItems({ sessionId, show }: { sessionId: string; show: (m: Mode) => void }) {
  return (
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
  );
}

interface RenameProps {
  draft: string;
  setDraft: (v: string) => void;
  busy: boolean;
  onRename: () => void;
  onCancel: () => void;
}

function RenameForm({ draft, setDraft, busy, onRename, onCancel }: RenameProps) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onRename();
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
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function DeleteConfirm({ name, busy, onDelete, onCancel }: { name: string | null; busy: boolean; onDelete: () => void; onCancel: () => void }) {
  return (
    <div>
      <p>Delete “{name}” with its loci, crystals and archive? This cannot be undone.</p>
      <div className="row">
        <button type="button" className="danger" disabled={busy} onClick={onDelete}>
          Delete for good
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function WanderMenu({ sessionId, name }: { sessionId: string; name: string | null }) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>("menu");
  const [draft, setDraft] = useState(name ?? "");
  const { error, setError, busy, run } = useRequest();
  const box = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  // a click elsewhere closes it
  useClickAway(box, open, close);

  const show = (m: Mode) => {
    setMode(m);
    setError(null);
    if (m === "rename") setDraft(name ?? "");
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
          {mode === "menu" ? <MenuItems sessionId={sessionId} show={show} /> : null}
          {mode === "rename" ? <RenameForm draft={draft} setDraft={setDraft} busy={busy} onRename={() => void rename()} onCancel={close} /> : null}
          {mode === "delete" ? <DeleteConfirm name={name} busy={busy} onDelete={() => void remove()} onCancel={close} /> : null}
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
