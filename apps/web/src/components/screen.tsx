import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A screen loaded on first use: its module's export `name`, as a chunk of its own. */
export function screen<P extends object, Name extends string>(
  load: () => Promise<Record<Name, ComponentType<P>>>,
  name: Name,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: (await load())[name] }));
}
