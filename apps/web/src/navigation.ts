/**
 * Navigation in the address bar: every screen and every item has its own URL (`/executions/<id>`),
 * so a link can be shared and the back button works. The server answers every such path with the app.
 */
import { useEffect, useState } from 'react';

const listeners = new Set<() => void>();

/**
 * Goes to `path` as a new history entry (the back button returns), or in place of the current one
 * with `replace` (leaving a form that succeeded: back then skips the emptied form).
 */
export function navigate(path: string, options: { replace?: boolean } = {}) {
  if (path === window.location.pathname) return;
  if (options.replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
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

/**
 * The item of a screen the address names (`/executions/<id>`), and a way to open one (or none). An
 * item's page may add a tab after it (`/pipelines/<id>/runs`, see useItemTab).
 */
export function useItemRoute(base: string): [string | undefined, (id?: string) => void] {
  const path = usePathname();
  const rest = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : '';
  const item = rest.split('/')[0];
  return [
    item ? decodeURIComponent(item) : undefined,
    (id) => navigate(id ? `${base}/${encodeURIComponent(id)}` : base),
  ];
}

/** The tab of an item's page the address names (`/pipelines/<id>/runs`), else the first; and a way to choose one. */
export function useItemTab<T extends string>(
  base: string,
  id: string,
  tabs: readonly [T, ...T[]],
): [T, (tab: T) => void] {
  const path = usePathname();
  const itemPath = `${base}/${encodeURIComponent(id)}`;
  const named = path.startsWith(`${itemPath}/`) ? path.slice(itemPath.length + 1) : '';
  const tab = tabs.find((t) => t === named) ?? tabs[0];
  // A tab the page does not have (an old or mistyped link) gives way to the item's own address.
  const unknown = named !== '' && !tabs.some((t) => t === named);
  useEffect(() => {
    if (unknown) navigate(itemPath, { replace: true });
  }, [unknown, itemPath]);
  return [tab, (next) => navigate(next === tabs[0] ? itemPath : `${itemPath}/${next}`)];
}

/** Whether the address is still `path` or below it: work that finishes late leaves alone a user who went elsewhere. */
export const stillAt = (path: string) => withinScreen(window.location.pathname, path);
