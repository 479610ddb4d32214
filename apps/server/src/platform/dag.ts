/** A dependency graph (pipelines, warehouse models): cycle detection and the reach of a run from a node. */

export interface GraphNode {
  id: string;
  name: string;
  depends_on: string[];
}

/**
 * A cycle the graph would have with `node` changed (its dependencies replaced), as the names along it
 * (`a -> b -> a`), or undefined when it stays acyclic.
 */
export function findCycle(nodes: GraphNode[], node: GraphNode): string[] | undefined {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  byId.set(node.id, node);
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') {
      const start = path.indexOf(id);
      return [...path.slice(start), id].map((n) => byId.get(n)?.name ?? n);
    }
    state.set(id, 'visiting');
    path.push(id);
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  return visit(node.id);
}

/** Every pipeline downstream of `root` (root included): the pipelines a DAG run started at root may run. */
export function downstreamOf(nodes: GraphNode[], root: string): Set<string> {
  const reached = new Set([root]);
  const queue = [root];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const node of nodes) {
      if (node.depends_on.includes(current) && !reached.has(node.id)) {
        reached.add(node.id);
        queue.push(node.id);
      }
    }
  }
  return reached;
}
