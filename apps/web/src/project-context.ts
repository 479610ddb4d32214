/**
 * The project every screen works in: chosen once (the project switcher in the shell) instead of a
 * project select on each form. Kept in localStorage so a reload or a new tab stays in it; falls back
 * to the first project the user may see when none is chosen or the chosen one is gone.
 */
import { useSyncExternalStore } from 'react';
import { useProjects } from './api/queries';

const KEY = 'svc.project';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function setCurrentProjectId(id: string) {
  try {
    window.localStorage.setItem(KEY, id);
  } catch {
    // storage refused (private mode): the choice lasts until the page is left
  }
  chosen = id;
  for (const listener of listeners) listener();
}

let chosen: string | null = typeof window === 'undefined' ? null : read();

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== KEY) return;
    chosen = event.newValue;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current project (id and name), the projects to switch between, and a way to switch. */
export function useCurrentProject() {
  const id = useSyncExternalStore(subscribe, () => chosen);
  const projects = useProjects();
  const items = projects.data?.items ?? [];
  const project = items.find((item) => item.id === id) ?? items[0];
  return {
    projectId: project?.id,
    project,
    projects: items,
    isLoading: projects.isLoading,
    setProjectId: setCurrentProjectId,
  };
}
