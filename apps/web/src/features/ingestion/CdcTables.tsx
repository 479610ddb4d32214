import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useEventStream } from '../../api/event-stream';
import type { paths } from '../../api/schema';
import { DeleteButton } from '../../components/DeleteButton';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { WithCreateForm } from '../../components/CreateRoute';
import { LagChart } from '../../components/LagChart';
import { DataTable } from '../../components/DataTable';
import { CheckboxField, ChoiceField, FormSubmit, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { useCurrentProject } from '../../project-context';
import { useProjectConnectors } from '../connectivity/useProjectConnectors';

type CdcTable = paths['/api/v1/cdc-tables/{id}']['get']['responses'][200]['content']['application/json'];
type CdcBody = NonNullable<paths['/api/v1/cdc-tables']['post']['requestBody']>['content']['application/json'];
type Action = 'start' | 'stop' | 'resync' | 'delete';

/** The two sides of a CDC table: the connector kinds that can capture changes (MariaDB is the mysql kind) and those that can apply them, as the server checks. */
const SIDES = {
  Source: {
    kinds: ['postgres', 'warehouse', 'mysql'],
    connectorHelp: 'PostgreSQL, the warehouse, MySQL or MariaDB: the kinds that can capture changes.',
    schemaHelp: "Optional: the schema (MySQL: the database); the connector's own when empty.",
  },
  Destination: {
    kinds: ['postgres', 'warehouse'],
    connectorHelp: 'PostgreSQL or the warehouse: the kinds that can apply changes.',
    schemaHelp: "Optional: the connector's own schema when empty.",
  },
};

interface LogLine {
  id: string;
  ts: string;
  level: string;
  message: string;
}

/** The table's lag (seconds behind the source) over the last hour, from the lag samples. */
function CdcLag({ id }: { id: string }) {
  const history = useQuery({
    queryKey: ['cdc-lag', id],
    queryFn: () => unwrap(api.GET('/api/v1/cdc-tables/{id}/lag-history', { params: { path: { id } } })),
    refetchInterval: 10_000,
  });
  if (!history.data) return null;
  return <LagChart what="Lag" unit="s" points={history.data.items.map((p) => ({ at: p.at, value: p.lag_seconds }))} />;
}

/** The live log of one CDC table: Server-Sent Events with the access token in the query (EventSource sends no headers). */
function LiveLog({ id }: { id: string }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const state = useEventStream(`/api/v1/cdc-tables/${encodeURIComponent(id)}/logs/stream`, {
    log: (data) => setLines((previous) => [...previous.slice(-499), JSON.parse(data) as LogLine]),
  });
  return (
    <Card
      id="live-log"
      title={
        <>
          Live log <span className="muted">({state})</span>
        </>
      }
    >
      <CdcLag id={id} />
      {lines.length === 0 ? <p className="empty">No lines yet.</p> : null}
      <ol className="log" aria-live="polite">
        {lines.map((line) => (
          <li key={line.id} className={`level-${line.level}`}>
            <time dateTime={line.ts}>{new Date(line.ts).toLocaleTimeString()}</time> {line.message}
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** One side of a CDC table (its fields named `source_table`, `destination_namespace`, ...): the connector, of the kinds the side allows, the table and its schema. */
function TableSide(props: {
  side: keyof typeof SIDES;
  connectors: Array<{ id: string; name: string }>;
  connector: string | undefined;
  onConnector: (id: string) => void;
  isDisabled: boolean;
}) {
  const prefix = props.side.toLowerCase();
  const { connectorHelp, schemaHelp } = SIDES[props.side];
  return (
    <fieldset>
      <legend>{props.side}</legend>
      <ItemSelect
        label={`${props.side} connector`}
        description={connectorHelp}
        items={props.connectors}
        value={props.connector}
        onChange={props.onConnector}
        isDisabled={props.isDisabled}
        empty="No connector of these kinds in this project"
      />
      <TextInput name={`${prefix}_table`} label={`${props.side} table`} isRequired />
      <TextInput name={`${prefix}_namespace`} label={`${props.side} schema`} description={schemaHelp} />
    </fieldset>
  );
}

/** Creates a CDC table: a source table captured, a destination table kept equal (mirror) or appended to (changelog). */
function NewCdcTable({ onCreated }: { onCreated: () => void }) {
  const queries = useQueryClient();
  const { project, source, setSource, destination, setDestination, inProject } = useProjectConnectors();
  const [mode, setMode] = useState<CdcBody['mode']>('mirror');
  // A new key empties the form after a CDC table was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'CDC table created.' },
    mutationFn: (body: CdcBody) => unwrap(api.POST('/api/v1/cdc-tables', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['cdc-tables'] });
      onCreated();
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!project || !source || !destination) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const side = (connector_id: string, prefix: string) => ({
      connector_id,
      table: text(`${prefix}_table`),
      ...(text(`${prefix}_namespace`) ? { namespace: text(`${prefix}_namespace`) } : {}),
    });
    create.mutate({
      project_id: project,
      name: text('name'),
      source: side(source, 'source'),
      destination: side(destination, 'destination'),
      mode,
      start: form.get('start') === 'true',
    });
  };
  return (
    <Card id="new-cdc-table" title="New CDC table">
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired />
        <TableSide
          side="Source"
          connectors={inProject(SIDES.Source.kinds)}
          connector={source}
          onConnector={setSource}
          isDisabled={!project}
        />
        <TableSide
          side="Destination"
          connectors={inProject(SIDES.Destination.kinds)}
          connector={destination}
          onConnector={setDestination}
          isDisabled={!project}
        />
        <ChoiceField
          label="Mode"
          value={mode}
          onChange={setMode}
          choices={[
            {
              value: 'mirror',
              label: 'mirror',
              description: 'Upserts and deletes by primary key: the destination equals the source.',
            },
            {
              value: 'changelog',
              label: 'changelog',
              description: 'Appends every change with its operation, source position and commit time.',
            },
          ]}
        />
        <CheckboxField name="start" label="Start at once" defaultSelected />
        <FormSubmit label="Create CDC table" error={create.error} isDisabled={create.isPending || !project} />
      </Form>
    </Card>
  );
}

/** The actions on one CDC table, as its state allows; deleting (which drops the replication slot) asks first, in place. */
function CdcActions({
  table,
  onAct,
  isPending,
}: {
  table: CdcTable;
  onAct: (action: Action) => void;
  isPending: boolean;
}) {
  const canStart = table.desired_state === 'stopped' || table.status === 'paused' || table.status === 'failed';
  const canStop = table.desired_state === 'running';
  const action = (name: Action, label: string, verb: string) => (
    <Button
      className="secondary"
      aria-label={`${label} ${table.name}`}
      onPress={() => onAct(name)}
      isDisabled={isPending}
    >
      {verb}
    </Button>
  );
  return (
    <div className="row">
      {canStart ? action('start', 'Start', 'Start') : null}
      {canStop ? action('stop', 'Stop', 'Stop') : null}
      {action('resync', 'Resync', 'Resync')}
      <DeleteButton
        name={table.name}
        warning="Drops the replication slot at the source."
        onConfirm={() => onAct('delete')}
        isPending={isPending}
      />
    </div>
  );
}

/** The calls behind the row actions. */
const calls: Record<Action, (id: string) => Promise<unknown>> = {
  start: (id) => unwrap(api.POST('/api/v1/cdc-tables/{id}/start', { params: { path: { id } } })),
  stop: (id) => unwrap(api.POST('/api/v1/cdc-tables/{id}/stop', { params: { path: { id } } })),
  resync: (id) => unwrap(api.POST('/api/v1/cdc-tables/{id}/resync', { params: { path: { id } } })),
  delete: (id) => unwrap(api.DELETE('/api/v1/cdc-tables/{id}', { params: { path: { id } } })),
};

/** CDC tables: create one, follow their status and lag, start, stop, resync or delete them, and watch one's live log. */
export function CdcTables() {
  const queries = useQueryClient();
  const { projectId } = useCurrentProject();
  const tables = useQuery({
    queryKey: ['cdc-tables', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/cdc-tables', { params: { query: { project_id: projectId } } })),
    refetchInterval: 3000,
  });
  // The open item is in the address (/cdc-tables/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/cdc-tables');
  const act = useMutation({
    meta: { success: 'CDC table updated.' },
    mutationFn: ({ id, action }: { id: string; action: Action }) => calls[action](id),
    onSuccess: (_result, { id, action }) => {
      if (action === 'delete' && id === selected) setSelected(undefined);
      void queries.invalidateQueries({ queryKey: ['cdc-tables'] });
    },
  });
  return (
    <WithCreateForm
      base="/cdc-tables"
      label="New CDC table"
      back="CDC tables"
      isDisabled={!projectId}
      form={(done) => <NewCdcTable onCreated={done} />}
    >
      <DataTable
        caption="CDC tables"
        rows={tables.data?.items}
        rowKey={(table) => table.id}
        rowProps={(table) => ({ 'aria-selected': table.id === selected })}
        pending={tables.isPending}
        error={tables.error ?? act.error}
        empty="No CDC tables yet."
        columns={[
          { header: 'Name', cell: (table) => table.name },
          {
            header: 'Status',
            cell: (table) => (
              <>
                <span className={`status ${table.status}`}>{table.status}</span>
                {table.last_error ? <div className="muted">{table.last_error}</div> : null}
              </>
            ),
          },
          { header: 'Lag', cell: (table) => (table.lag_seconds === null ? '—' : `${table.lag_seconds.toFixed(1)} s`) },
          { header: 'Changes applied', cell: (table) => table.changes_applied.toLocaleString() },
        ]}
        actions={(table) => (
          <div className="row">
            <Button
              className="secondary"
              aria-label={`Show the live log of ${table.name}`}
              onPress={() => setSelected(table.id)}
            >
              Live log
            </Button>
            <CdcActions
              table={table}
              onAct={(action) => act.mutate({ id: table.id, action })}
              isPending={act.isPending && act.variables.id === table.id}
            />
          </div>
        )}
      />
      {/* Only a table of the list: an address naming another id opens nothing. */}
      {selected && tables.data?.items.some((table) => table.id === selected) ? (
        <LiveLog key={selected} id={selected} />
      ) : null}
    </WithCreateForm>
  );
}
