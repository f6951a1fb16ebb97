// Signing in behind WANDER_API_TOKEN: the first 401 (or a socket closed with 4401) asks
// the person for the token once; the server exchanges it for an HttpOnly, SameSite=Strict
// cookie that every later request and socket carries by itself. Nothing keeps the token
// in JavaScript.
import { create } from "zustand";

export const SIGN_IN_PATH = "/api/v1/auth/session";

interface AuthState {
  /** A request is waiting for the person to give the token. */
  needed: boolean;
  error: string | null;
}

export const useAuth = create<AuthState>(() => ({ needed: false, error: null }));

let waiters: (() => void)[] = [];

/** Resolves once the person has signed in (shows the prompt meanwhile). */
export function whenSignedIn(): Promise<void> {
  useAuth.setState({ needed: true });
  return new Promise((resolve) => waiters.push(resolve));
}

/** Exchanges the token for the cookie; true when the server accepted it. */
export async function signIn(token: string): Promise<boolean> {
  let res: Response;
  try {
    res = await fetch(SIGN_IN_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
      credentials: "same-origin",
    });
  } catch (err) {
    useAuth.setState({ error: `network error: ${(err as Error).message}` });
    return false;
  }
  if (!res.ok) {
    useAuth.setState({ error: res.status === 401 ? "That token was not accepted." : `Sign-in failed (HTTP ${res.status}).` });
    return false;
  }
  useAuth.setState({ needed: false, error: null });
  const ready = waiters;
  waiters = [];
  ready.forEach((w) => w());
  return true;
}
