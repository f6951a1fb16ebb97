import { useState, type FormEvent } from "react";
import { signIn, useAuth } from "../api/auth";

/** Shown when the server wants WANDER_API_TOKEN: asked once, kept as a cookie. */
export function TokenPrompt() {
  const needed = useAuth((s) => s.needed);
  const error = useAuth((s) => s.error);
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  if (!needed) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    if (await signIn(token.trim())) setToken("");
    setBusy(false);
  };
  return (
    <div className="modal-backdrop">
      <form className="card token-prompt" onSubmit={submit} aria-label="Sign in">
        <h2>Sign in</h2>
        <p className="muted">This Wander server needs its API token (WANDER_API_TOKEN).</p>
        <label htmlFor="api-token">API token</label>
        <input id="api-token" type="password" autoComplete="current-password" value={token} onChange={(e) => setToken(e.target.value)} autoFocus />
        {error ? (
          <div className="form-error" role="alert">
            {error}
          </div>
        ) : null}
        <button type="submit" className="primary" disabled={busy || !token.trim()}>
          Sign in
        </button>
      </form>
    </div>
  );
}
