import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

/** The tables of the built-in sample (the engine's `sample` connector). */
const SAMPLE_TABLES = ['customers', 'products', 'orders', 'order_items'];
const FINISHED = ['succeeded', 'failed', 'cancelled'];

interface Progress {
  source?: string;
  destination?: string;
  execution?: string;
}

/**
 * The first steps in a project with no connectors: the built-in sample as a source, the built-in
 * warehouse as the destination, a first sync, and its progress until it finishes. Each step is one
 * button; what is done stays ticked.
 */
export function GettingStarted({ projectId, onStart }: { projectId: string; onStart: () => void }) {
  const queries = useQueryClient();
  const [progress, setProgress] = useState<Progress>({});
  const connector = (name: string, kind: string) =>
    unwrap(api.POST('/api/v1/data-connectors', { body: { project_id: projectId, name, kind, config: {} } }));
  const addSource = useMutation({
    meta: { success: 'Sample source added.' },
    mutationFn: () => {
      // Keeps this guide on screen once the project has connectors.
      onStart();
      return connector('sample shop', 'sample');
    },
    onSuccess: (created) => setProgress((p) => ({ ...p, source: created.id })),
  });
  const addDestination = useMutation({
    meta: { success: 'Warehouse added.' },
    mutationFn: () => connector('warehouse', 'warehouse'),
    onSuccess: (created) => setProgress((p) => ({ ...p, destination: created.id })),
  });
  const sync = useMutation({
    meta: { success: 'Sync started.' },
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/executions', {
          body: {
            kind: 'sync',
            project_id: projectId,
            source_connector_id: progress.source!,
            destination_connector_id: progress.destination!,
            streams: SAMPLE_TABLES.map((name) => ({ name, mode: 'overwrite' as const })),
          },
        }),
      ),
    onSuccess: (execution) => setProgress((p) => ({ ...p, execution: execution.id })),
  });
  const run = useQuery({
    queryKey: ['execution', progress.execution],
    enabled: !!progress.execution,
    queryFn: () => unwrap(api.GET('/api/v1/executions/{id}', { params: { path: { id: progress.execution! } } })),
    refetchInterval: (query) => (query.state.data && FINISHED.includes(query.state.data.status) ? false : 1000),
  });
  const finished = run.data && FINISHED.includes(run.data.status);
  if (finished) void queries.invalidateQueries({ queryKey: ['overview'] });
  const step = (done: boolean, label: string, action: { label: string; pending: boolean; run: () => void } | null) => (
    <li className={done ? 'done' : undefined}>
      <span aria-hidden="true">{done ? '✓ ' : '○ '}</span>
      {label}
      {!done && action ? (
        <Button className="secondary" onPress={action.run} isDisabled={action.pending}>
          {action.label}
        </Button>
      ) : null}
    </li>
  );
  return (
    <section className="getting-started" aria-label="Getting started">
      <h3>Move your first data</h3>
      <ol>
        {step(!!progress.source, 'Add a source: the built-in sample of a toy shop.', {
          label: 'Add the sample',
          pending: addSource.isPending,
          run: () => addSource.mutate(),
        })}
        {step(
          !!progress.destination,
          'Add a destination: the built-in warehouse.',
          progress.source
            ? { label: 'Add the warehouse', pending: addDestination.isPending, run: () => addDestination.mutate() }
            : null,
        )}
        {step(
          !!progress.execution,
          'Run the first sync of its four tables.',
          progress.destination ? { label: 'Start the sync', pending: sync.isPending, run: () => sync.mutate() } : null,
        )}
        {step(!!finished, 'Watch it finish.', null)}
      </ol>
      {run.data ? (
        <p role="status">
          Sync {run.data.status}: {run.data.rows_written} rows written
          {run.data.error ? ` (${run.data.error})` : ''}. See it under <a href="/executions">Executions</a>.
        </p>
      ) : null}
      <ErrorNotice error={addSource.error ?? addDestination.error ?? sync.error ?? run.error} />
    </section>
  );
}
