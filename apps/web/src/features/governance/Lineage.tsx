import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap, type JsonAnswer } from '../../api/client';
import { usePipelines } from '../../api/queries';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { FlowGraph, type FlowNode } from '../../components/FlowGraph';
import { ChoiceField, NumberInput, plainChoices } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { navigate, useItemRoute } from '../../navigation';
import { useCurrentProject } from '../../project-context';
import { qualified } from './datasets';

type Graph = JsonAnswer<'/api/v1/lineage/graph', 'get'>;
type GraphNode = Graph['nodes'][number];
type Direction = 'upstream' | 'downstream' | 'both';

/** Where a job's item is shown: its screen (and the item, where the screen opens one by address). */
const ITEM_SCREENS: Record<string, (itemId: string) => string> = {
  pipeline: (id) => `/pipelines/${encodeURIComponent(id)}`,
  export: () => '/exports',
  stream: () => '/streams',
  cdc_table: () => '/cdc-tables',
  model_run: () => '/models',
  file_ingestion: () => '/file-ingestions',
  inbox_load: () => '/inboxes',
  email_feed: () => '/email-feeds',
};

/** A dataset's short name (its last part) and where it lives; a job's kind and item. */
function labelOf(node: GraphNode): { title: string; subtitle: string } {
  if (node.type === 'job') return { title: node.kind ?? 'job', subtitle: node.name };
  const parts = node.name.split(/[./]/);
  return { title: parts[parts.length - 1] ?? node.name, subtitle: `${node.namespace}/${node.name}` };
}

/** Datasets and runs as boxes: runs dashed, the starting node marked. */
function toFlowNodes(graph: Graph): FlowNode[] {
  const roots = new Set(graph.roots);
  return graph.nodes.map((node) => {
    const { title, subtitle } = labelOf(node);
    return {
      id: node.id,
      title,
      note: node.type === 'job' ? 'run' : 'dataset',
      hint: subtitle,
      className: `lineage-node ${node.type}${roots.has(node.id) ? ' root' : ''}`,
    };
  });
}

/** Opens a node: a dataset becomes the graph's start; a job opens its item's screen. */
function open(node: GraphNode) {
  if (node.type === 'dataset') navigate(`/lineage/${encodeURIComponent(node.id)}`);
  else if (node.kind && node.item_id && ITEM_SCREENS[node.kind]) navigate(ITEM_SCREENS[node.kind]!(node.item_id));
  else navigate('/executions');
}

/** The lineage graph around a dataset or a pipeline: upstream, downstream or both, drawn and listed. */
export function Lineage() {
  const [start] = useItemRoute('/lineage');
  const { projectId } = useCurrentProject();
  const [direction, setDirection] = useState<Direction>('both');
  const [depth, setDepth] = useState('3');
  const pipelines = usePipelines();
  const datasets = useQuery({
    queryKey: ['catalog-datasets', 'project', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets', { params: { query: { project_id: projectId! } } })),
  });
  const hops = Math.min(10, Math.max(0, Number(depth) || 0));
  const graph = useQuery({
    queryKey: ['lineage-graph', start, direction, hops],
    enabled: !!start,
    queryFn: () =>
      unwrap(api.GET('/api/v1/lineage/graph', { params: { query: { node: start!, direction, depth: hops } } })),
  });
  const drawn = useMemo(() => graph.data && toFlowNodes(graph.data), [graph.data]);
  const byId = new Map((graph.data?.nodes ?? []).map((n) => [n.id, n]));
  const pipelineItems = (pipelines.data?.items ?? []).filter((p) => p.project_id === projectId);
  return (
    <>
      <Card id="lineage-start" title="Start from">
        <div className="row">
          <ItemSelect
            label="A pipeline"
            items={pipelineItems}
            value={start?.startsWith('item:') ? start.slice(5) : undefined}
            onChange={(id) => navigate(`/lineage/${encodeURIComponent(`item:${id}`)}`)}
            isRequired={false}
            empty="No pipelines in this project"
          />
          <ItemSelect
            label="A dataset of the catalog"
            items={(datasets.data?.items ?? []).map((d) => ({ id: d.id, name: qualified(d) }))}
            value={start?.startsWith('catalog:') ? start.slice(8) : undefined}
            onChange={(id) => navigate(`/lineage/${encodeURIComponent(`catalog:${id}`)}`)}
            isRequired={false}
            empty="No datasets in the catalog of this project"
          />
        </div>
        <div className="row">
          <ChoiceField<Direction>
            label="Direction"
            value={direction}
            onChange={setDirection}
            orientation="horizontal"
            choices={plainChoices('upstream', 'downstream', 'both')}
          />
          <NumberInput label="Depth (hops)" value={depth} onChange={setDepth} min={0} max={10} />
        </div>
      </Card>
      {!start ? (
        <p className="empty">Choose a pipeline or a dataset to see where its data comes from and where it goes.</p>
      ) : (
        <>
          {graph.data ? (
            <FlowGraph
              label={`Lineage graph: ${graph.data.nodes.length} nodes, ${graph.data.edges.length} edges; listed in the table below`}
              nodes={drawn ?? []}
              edges={graph.data.edges}
              onOpen={(id) => {
                const found = byId.get(id);
                if (found) open(found);
              }}
            />
          ) : null}
          <DataTable
            caption="Datasets and runs in the graph"
            rows={graph.data?.nodes}
            rowKey={(node) => node.id}
            pending={graph.isPending}
            error={graph.error}
            empty="Nothing recorded yet: lineage comes with the first run."
            columns={[
              { header: 'Type', cell: (node) => (node.type === 'job' ? `run (${node.kind ?? 'job'})` : 'dataset') },
              { header: 'Name', cell: (node) => node.name },
              { header: 'Namespace', cell: (node) => node.namespace },
              {
                header: 'Feeds',
                cell: (node) =>
                  (graph.data?.edges ?? [])
                    .filter((e) => e.from === node.id)
                    .map((e) => labelOf(byId.get(e.to)!).title)
                    .join(', ') || '—',
              },
            ]}
            actions={(node) => (
              <Button
                className="secondary"
                aria-label={`${node.type === 'dataset' ? 'Center here' : 'Open'}: ${labelOf(node).title}`}
                onPress={() => open(node)}
              >
                {node.type === 'dataset' ? 'Center here' : 'Open'}
              </Button>
            )}
          />
        </>
      )}
    </>
  );
}
