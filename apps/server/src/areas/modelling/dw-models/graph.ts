/** A project's models as a graph: cycles, selections (`name`, `+name`, `name+`, `tag:x`) and run order. */
import { findCycle } from '../../../platform/dag.js';

export interface ModelNode {
  name: string;
  refs: string[];
  tags: string[];
}

/** The cycle (`a -> b -> a`) the graph would have with `node` as given, or undefined. */
export function cycleWith(nodes: ModelNode[], node: ModelNode): string[] | undefined {
  const asGraph = (n: ModelNode) => ({ id: n.name, name: n.name, depends_on: n.refs });
  return findCycle(nodes.filter((n) => n.name !== node.name).map(asGraph), asGraph(node));
}

const reach = (start: string, next: (name: string) => string[]): Set<string> => {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    for (const n of next(queue.shift()!))
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
  }
  return seen;
};

export class SelectorError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/**
 * The models a list of selectors picks (their union; none picks every model): `name` the model,
 * `+name` it and everything upstream, `name+` it and everything downstream, `+name+` both,
 * `tag:x` every model tagged x.
 */
export function select(nodes: ModelNode[], selectors: string[]): Set<string> {
  if (selectors.length === 0) return new Set(nodes.map((n) => n.name));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const dependents = new Map<string, string[]>();
  for (const n of nodes) for (const r of n.refs) dependents.set(r, [...(dependents.get(r) ?? []), n.name]);
  const chosen = new Set<string>();
  selectors.forEach((raw, index) => {
    const selector = raw.trim();
    if (selector.startsWith('tag:')) {
      const tag = selector.slice(4);
      const tagged = nodes.filter((n) => n.tags.includes(tag));
      if (!tagged.length) throw new SelectorError(`no model is tagged "${tag}"`, index);
      for (const n of tagged) chosen.add(n.name);
      return;
    }
    const upstream = selector.startsWith('+');
    const downstream = selector.endsWith('+') && selector.length > 1;
    const name = selector.slice(upstream ? 1 : 0, downstream ? -1 : undefined);
    if (!byName.has(name)) throw new SelectorError(`"${name}" is no model of this project`, index);
    chosen.add(name);
    if (upstream) for (const n of reach(name, (m) => byName.get(m)?.refs ?? [])) chosen.add(n);
    if (downstream) for (const n of reach(name, (m) => dependents.get(m) ?? [])) chosen.add(n);
  });
  return chosen;
}

/** Models in an order where each comes after the models it refers to (ties by name). */
export function topologicalOrder(nodes: ModelNode[]): string[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (name: string) => {
    if (done.has(name)) return;
    done.add(name);
    for (const r of byName.get(name)?.refs ?? []) if (byName.has(r)) visit(r);
    order.push(name);
  };
  for (const n of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) visit(n.name);
  return order;
}
