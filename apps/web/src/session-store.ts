/**
 * The session: the access token lives in memory only; the refresh token is the HttpOnly svc_refresh
 * cookie. Refreshes are serialised across the browser's tabs with the Web Locks API: a refresh token
 * presented twice revokes the whole session, so two tabs must never present the same one. A refresh
 * is scheduled a minute before the access token expires (at four fifths of a shorter lifetime).
 */
type Listener = (token: string | null) => void;

let token: string | null = null;
let timer: number | undefined;
const listeners = new Set<Listener>();

export const currentToken = () => token;

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setSession(next: string | null, expiresIn?: number) {
  token = next;
  window.clearTimeout(timer);
  // Renewed a minute before expiry, or at four fifths of a shorter life: not every few seconds in
  // every tab, since each renewal rotates the cookie and one cut off (a tab closed mid-way) ends
  // the session for every tab.
  if (next && expiresIn)
    timer = window.setTimeout(() => void refreshSession(), Math.max(5, expiresIn - Math.min(60, expiresIn / 5)) * 1000);
  for (const listener of listeners) listener(next);
}

let inFlight: Promise<string | null> | undefined;

/** A new access token through the cookie, or null (signed out). One at a time per tab, and across tabs. */
export function refreshSession(): Promise<string | null> {
  inFlight ??= (async () => {
    const run = async () => {
      const response = await fetch('/api/v1/auth/refresh', { method: 'POST', credentials: 'same-origin' });
      if (!response.ok) return null;
      const body = (await response.json()) as { access_token: string; expires_in: number };
      setSession(body.access_token, body.expires_in);
      return body.access_token;
    };
    try {
      return navigator.locks ? await navigator.locks.request('svc-session-refresh', run) : await run();
    } catch {
      return null;
    } finally {
      inFlight = undefined;
    }
  })();
  return inFlight.then((result) => {
    if (!result) setSession(null);
    return result;
  });
}
