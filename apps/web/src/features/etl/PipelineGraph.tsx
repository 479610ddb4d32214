/**
 * Pipelines of a project and what runs after what, drawn (a chunk of its own: the drawing library
 * loads only when the graph is asked for). The list beside it names the same edges in its
 * "Runs after" column.
 */
import { useMemo } from 'react';
import { FlowGraph } from '../../components/FlowGraph';
import type { JsonAnswer } from '../../api/client';

type Pipeline = JsonAnswer<'/api/v1/etl/pipelines/{id}', 'get'>;

export function PipelineGraph({ pipelines, onOpen }: { pipelines: Pipeline[]; onOpen: (id: string) => void }) {
  const { nodes, edges } = useMemo(() => {
    const known = new Set(pipelines.map((p) => p.id));
    return {
      nodes: pipelines.map((p) => ({
        id: p.id,
        title: p.name,
        note: `→ ${p.destination.table}`,
        className: p.depends_on.length ? 'pipeline-node' : 'pipeline-node first',
      })),
      edges: pipelines.flatMap((p) =>
        p.depends_on.filter((upstream) => known.has(upstream)).map((upstream) => ({ from: upstream, to: p.id })),
      ),
    };
  }, [pipelines]);
  return (
    <FlowGraph
      label={`Pipeline dependencies: ${nodes.length} pipelines, ${edges.length} edges; the table lists them under Runs after`}
      nodes={nodes}
      edges={edges}
      onOpen={onOpen}
    />
  );
}
