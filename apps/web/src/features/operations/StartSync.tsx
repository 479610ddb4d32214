import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, CheckboxGroup, Form, Label, Radio, RadioGroup, Text } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useConnectors, useProjects } from '../../api/queries';
import type { paths } from '../../api/schema';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';

type StartBody = NonNullable<paths['/api/v1/executions']['post']['requestBody']>['content']['application/json'];
type Mode = 'append' | 'overwrite' | 'upsert';

/** Starts a sync: tables the catalog found in a source connector, copied into a destination connector. */
export function StartSync({ onStarted }: { onStarted: (executionId: string) => void }) {
  const queries = useQueryClient();
  const projects = useProjects();
  const connectors = useConnectors();
  const [project, setProject] = useState<string | undefined>();
  const [source, setSource] = useState<string | undefined>();
  const [destination, setDestination] = useState<string | undefined>();
  const [tables, setTables] = useState<string[]>([]);
  const [mode, setMode] = useState<Mode>('overwrite');
  const catalog = useQuery({
    queryKey: ['catalog', source],
    enabled: !!source,
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets', { params: { query: { connector_id: source! } } })),
  });
  const inProject = (connectors.data?.items ?? []).filter((c) => c.project_id === project);
  const start = useMutation({
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
      streams: chosen.map((d) => ({ namespace: d.namespace, name: d.name, mode, ...(mode === 'upsert' && d.primary_key.length ? { key_columns: d.primary_key } : {}) })),
    });
  };
  return (
    <section className="card" aria-labelledby="start-sync">
      <h2 id="start-sync">Start a sync</h2>
      <Form onSubmit={submit}>
        <div className="row">
          <ItemSelect
            label="Project"
            items={projects.data?.items ?? []}
            value={project}
            onChange={(id) => {
              setProject(id);
              setSource(undefined);
              setDestination(undefined);
            }}
          />
          <ItemSelect
            label="From connector"
            items={inProject}
            value={source}
            onChange={(id) => {
              setSource(id);
              setTables([]);
            }}
            isDisabled={!project}
            empty="None in this project"
          />
          <ItemSelect label="Into connector" items={inProject} value={destination} onChange={setDestination} isDisabled={!project} empty="None in this project" />
        </div>
        {source ? (
          catalog.isPending ? (
            <p aria-busy="true">Loading…</p>
          ) : catalog.data?.items.length ? (
            <CheckboxGroup value={tables} onChange={setTables} isRequired>
              <Label>Tables to copy</Label>
              {catalog.data.items.map((d) => (
                <Checkbox key={d.id} value={d.id}>
                  {d.namespace ? `${d.namespace}.${d.name}` : d.name}
                </Checkbox>
              ))}
            </CheckboxGroup>
          ) : (
            <p className="empty">The catalog knows no tables of this connector yet: discover it on the Connectors screen.</p>
          )
        ) : null}
        <ErrorNotice error={catalog.error} />
        <RadioGroup value={mode} onChange={(next) => setMode(next as Mode)} orientation="horizontal">
          <Label>Write mode</Label>
          <Radio value="overwrite">overwrite</Radio>
          <Radio value="append">append</Radio>
          <Radio value="upsert">upsert</Radio>
          <Text slot="description">Upsert matches rows on each table&apos;s primary key.</Text>
        </RadioGroup>
        <ErrorNotice error={start.error} />
        <Button type="submit" isDisabled={start.isPending || !source || !destination || tables.length === 0}>
          Start sync
        </Button>
      </Form>
    </section>
  );
}
