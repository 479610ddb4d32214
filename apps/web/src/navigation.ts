/**
 * Navigation in the address bar: every screen and every item has its own URL (`/executions/<id>`),
 * so a link can be shared and the back button works. The server answers every such path with the app.
 */
import { useEffect, useState } from 'react';

const listeners = new Set<() => void>();

/** Goes to `path` as a new history entry (the back button returns). */
export function navigate(path: string) {
  if (path === window.location.pathname) return;
  window.history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

/** The current path, following navigate() and the browser's back and forward buttons. */
export function usePathname(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const update = () => setPath(window.location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** Whether `path` is the screen at `base` or one of its items (`/executions`, `/executions/<id>`). */
export const withinScreen = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/** The item of a screen the address names (`/executions/<id>`), and a way to open one (or none). */
export function useItemRoute(base: string): [string | undefined, (id?: string) => void] {
  const path = usePathname();
  const rest = path.startsWith(`${base}/`) ? decodeURIComponent(path.slice(base.length + 1)) : '';
  return [rest || undefined, (id) => navigate(id ? `${base}/${encodeURIComponent(id)}` : base)];
}
