import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { Card } from '../../components/Card';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CheckboxList, FormSubmit } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { QueryState } from '../../components/QueryState';
import { useProjectConnectors } from '../connectivity/useProjectConnectors';
import { WriteMode, type WriteModeValue } from '../etl/WriteMode';
import { qualified, useConnectorDatasets } from '../governance/datasets';

type StartBody = JsonBody<'/api/v1/executions', 'post'>;

/** Starts a sync: tables the catalog found in a source connector, copied into a destination connector. */
export function StartSync({ onStarted }: { onStarted: (executionId: string) => void }) {
  const queries = useQueryClient();
  const { project, source, setSource, destination, setDestination, inProject } = useProjectConnectors();
  const [tables, setTables] = useState<string[]>([]);
  const [mode, setMode] = useState<WriteModeValue>('overwrite');
  const catalog = useConnectorDatasets(source);
  const start = useMutation({
    meta: { success: 'Sync started.' },
    mutationFn: (body: StartBody) => unwrap(api.POST('/api/v1/executions', { body })),
    onSuccess: (execution) => {
      setTables([]);
      void queries.invalidateQueries({ queryKey: ['executions'] });
      onStarted(execution.id);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!project || !source || !destination) return;
    const chosen = (catalog.data?.items ?? []).filter((d) => tables.includes(d.id));
    start.mutate({
      kind: 'sync',
      project_id: project,
      source_connector_id: source,
      destination_connector_id: destination,
      // Upsert matches rows on the key discovery found; a table without one gets a 422 naming it.
      streams: chosen.map((d) => ({
        namespace: d.namespace,
        name: d.name,
        mode,
        ...(mode === 'upsert' && d.primary_key.length ? { key_columns: d.primary_key } : {}),
      })),
    });
  };
  return (
    <Card id="start-sync" title="Start a sync">
      <Form onSubmit={submit}>
        <div className="row">
          <ItemSelect
            label="From connector"
            items={inProject()}
            value={source}
            onChange={(id) => {
              setSource(id);
              setTables([]);
            }}
            isDisabled={!project}
            empty="None in this project"
          />
          <ItemSelect
            label="Into connector"
            items={inProject()}
            value={destination}
            onChange={setDestination}
            isDisabled={!project}
            empty="None in this project"
          />
        </div>
        {source ? (
          catalog.data?.items.length ? (
            <CheckboxList
              label="Tables to copy"
              items={catalog.data.items.map((d) => ({ id: d.id, name: qualified(d) }))}
              value={tables}
              onChange={setTables}
              isRequired
            />
          ) : (
            <QueryState
              pending={catalog.isPending}
              empty={
                catalog.isPending
                  ? undefined
                  : 'The catalog knows no tables of this connector yet: discover it on the Connectors screen.'
              }
            />
          )
        ) : null}
        <ErrorNotice error={catalog.error} />
        <WriteMode
          value={mode}
          onChange={setMode}
          order={['overwrite', 'append', 'upsert']}
          note="Upsert matches rows on each table's primary key."
        />
        <FormSubmit
          label="Start sync"
          error={start.error}
          isDisabled={start.isPending || !source || !destination || tables.length === 0}
        />
      </Form>
    </Card>
  );
}
