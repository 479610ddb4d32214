import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, Form, Input, Label, RadioButton, RadioField, RadioGroup, Text, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useConnectors, useProjects } from '../../api/queries';
import type { paths } from '../../api/schema';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';
import { currentToken } from '../../session-store';

type CdcTable = paths['/api/v1/cdc-tables/{id}']['get']['responses'][200]['content']['application/json'];
type CdcBody = NonNullable<paths['/api/v1/cdc-tables']['post']['requestBody']>['content']['application/json'];
type Action = 'start' | 'stop' | 'resync' | 'delete';

/** Connector kinds that can capture changes (MariaDB is the mysql kind) and kinds that can apply them, as the server checks. */
const CAPTURE_KINDS = ['postgres', 'warehouse', 'mysql'];
const APPLY_KINDS = ['postgres', 'warehouse'];

interface LogLine {
  id: string;
  ts: string;
  level: string;
  message: string;
}

/** The live log of one CDC table: Server-Sent Events with the access token in the query (EventSource sends no headers). */
function LiveLog({ id }: { id: string }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [state, setState] = useState<'connecting' | 'live' | 'reconnecting' | 'ended'>('connecting');
  const last = useRef<string | undefined>(undefined);
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: number | undefined;
    let closed = false;
    const open = () => {
      const after = last.current ? `&last_event_id=${last.current}` : '';
      source = new EventSource(`/api/v1/cdc-tables/${id}/logs/stream?token=${encodeURIComponent(currentToken() ?? '')}${after}`);
      source.onopen = () => setState('live');
      source.addEventListener('log', (event) => {
        const line = JSON.parse((event as MessageEvent<string>).data) as LogLine;
        last.current = line.id;
        setLines((previous) => [...previous.slice(-499), line]);
      });
      // The server's last event before it closes the stream: when access was removed or the sign-in
      // ended, reconnecting cannot help; otherwise (expired token, restart) the error below reconnects.
      source.addEventListener('end', (event) => {
        const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: string };
        if (reason === 'forbidden' || reason === 'unauthenticated') {
          closed = true;
          source?.close();
          setState('ended');
        }
      });
      // A refused or dropped stream (an access token that expired): reopen with the current token, from the last line seen.
      source.onerror = () => {
        source?.close();
        if (closed) return;
        setState('reconnecting');
        retry = window.setTimeout(open, 1000);
      };
    };
    open();
    return () => {
      closed = true;
      window.clearTimeout(retry);
      source?.close();
    };
  }, [id]);
  return (
    <section className="card" aria-labelledby="live-log">
      <h2 id="live-log">
        Live log <span className="muted">({state})</span>
      </h2>
      {lines.length === 0 ? <p className="empty">No lines yet.</p> : null}
      <ol className="log" aria-live="polite">
        {lines.map((line) => (
          <li key={line.id} className={`level-${line.level}`}>
            <time dateTime={line.ts}>{new Date(line.ts).toLocaleTimeString()}</time> {line.message}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Creates a CDC table: a source table captured, a destination table kept equal (mirror) or appended to (changelog). */
function NewCdcTable() {
  const queries = useQueryClient();
  const projects = useProjects();
  const connectors = useConnectors();
  const [project, setProject] = useState<string | undefined>();
  const [source, setSource] = useState<string | undefined>();
  const [destination, setDestination] = useState<string | undefined>();
  const [mode, setMode] = useState<CdcBody['mode']>('mirror');
  // A new key empties the form after a CDC table was created.
  const [formKey, setFormKey] = useState(0);
  const inProject = (kinds: string[]) => (connectors.data?.items ?? []).filter((c) => c.project_id === project && kinds.includes(c.kind));
  const create = useMutation({
    mutationFn: (body: CdcBody) => unwrap(api.POST('/api/v1/cdc-tables', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['cdc-tables'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!project || !source || !destination) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const side = (connector_id: string, prefix: string) => ({ connector_id, table: text(`${prefix}_table`), ...(text(`${prefix}_namespace`) ? { namespace: text(`${prefix}_namespace`) } : {}) });
    create.mutate({ project_id: project, name: text('name'), source: side(source, 'source'), destination: side(destination, 'destination'), mode, start: form.get('start') === 'true' });
  };
  return (
    <section className="card" aria-labelledby="new-cdc-table">
      <h2 id="new-cdc-table">New CDC table</h2>
      <Form key={formKey} onSubmit={submit}>
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
        <TextField name="name" isRequired>
          <Label>Name</Label>
          <Input autoComplete="off" />
        </TextField>
        <fieldset>
          <legend>Source</legend>
          <ItemSelect label="Source connector" description="PostgreSQL, the warehouse, MySQL or MariaDB: the kinds that can capture changes." items={inProject(CAPTURE_KINDS)} value={source} onChange={setSource} isDisabled={!project} empty="No connector of these kinds in this project" />
          <TextField name="source_table" isRequired>
            <Label>Source table</Label>
            <Input autoComplete="off" />
          </TextField>
          <TextField name="source_namespace">
            <Label>Source schema</Label>
            <Input autoComplete="off" />
            <Text slot="description">Optional: the schema (MySQL: the database); the connector&apos;s own when empty.</Text>
          </TextField>
        </fieldset>
        <fieldset>
          <legend>Destination</legend>
          <ItemSelect label="Destination connector" description="PostgreSQL or the warehouse: the kinds that can apply changes." items={inProject(APPLY_KINDS)} value={destination} onChange={setDestination} isDisabled={!project} empty="No connector of these kinds in this project" />
          <TextField name="destination_table" isRequired>
            <Label>Destination table</Label>
            <Input autoComplete="off" />
          </TextField>
          <TextField name="destination_namespace">
            <Label>Destination schema</Label>
            <Input autoComplete="off" />
            <Text slot="description">Optional: the connector&apos;s own schema when empty.</Text>
          </TextField>
        </fieldset>
        <RadioGroup value={mode} onChange={(next) => setMode(next as CdcBody['mode'])}>
          <Label>Mode</Label>
          <RadioField value="mirror">
            <RadioButton className="react-aria-Radio">mirror</RadioButton>
            <Text slot="description">Upserts and deletes by primary key: the destination equals the source.</Text>
          </RadioField>
          <RadioField value="changelog">
            <RadioButton className="react-aria-Radio">changelog</RadioButton>
            <Text slot="description">Appends every change with its operation, source position and commit time.</Text>
          </RadioField>
        </RadioGroup>
        <Checkbox name="start" value="true" defaultSelected>
          Start at once
        </Checkbox>
        <ErrorNotice error={create.error} />
        <Button type="submit" isDisabled={create.isPending || !project}>
          Create CDC table
        </Button>
      </Form>
    </section>
  );
}

/** The actions on one CDC table, as its state allows; deleting (which drops the replication slot) asks first, in place. */
function CdcActions({ table, onAct, isPending }: { table: CdcTable; onAct: (action: Action) => void; isPending: boolean }) {
  const canStart = table.desired_state === 'stopped' || table.status === 'paused' || table.status === 'failed';
  const canStop = table.desired_state === 'running';
  const action = (name: Action, label: string, verb: string) => (
    <Button className="secondary" aria-label={`${label} ${table.name}`} onPress={() => onAct(name)} isDisabled={isPending}>
      {verb}
    </Button>
  );
  return (
    <div className="row">
      {canStart ? action('start', 'Start', 'Start') : null}
      {canStop ? action('stop', 'Stop', 'Stop') : null}
      {action('resync', 'Resync', 'Resync')}
      <DeleteButton name={table.name} warning="Drops the replication slot at the source." onConfirm={() => onAct('delete')} isPending={isPending} />
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
  const tables = useQuery({ queryKey: ['cdc-tables'], queryFn: () => unwrap(api.GET('/api/v1/cdc-tables')), refetchInterval: 3000 });
  const [selected, setSelected] = useState<string | undefined>();
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Action }) => calls[action](id),
    onSuccess: (_result, { id, action }) => {
      if (action === 'delete' && id === selected) setSelected(undefined);
      void queries.invalidateQueries({ queryKey: ['cdc-tables'] });
    },
  });
  return (
    <>
      <NewCdcTable />
      {tables.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={tables.error ?? act.error} />
      {tables.data?.items.length === 0 ? <p className="empty">No CDC tables yet.</p> : null}
      {tables.data?.items.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">CDC tables</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Lag</th>
                <th scope="col">Changes applied</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tables.data.items.map((table) => (
                <tr key={table.id} aria-selected={table.id === selected}>
                  <td>{table.name}</td>
                  <td>
                    <span className={`status ${table.status}`}>{table.status}</span>
                    {table.last_error ? <div className="muted">{table.last_error}</div> : null}
                  </td>
                  <td>{table.lag_seconds === null ? '—' : `${table.lag_seconds.toFixed(1)} s`}</td>
                  <td>{table.changes_applied.toLocaleString()}</td>
                  <td>
                    <div className="row">
                      <Button className="secondary" aria-label={`Show the live log of ${table.name}`} onPress={() => setSelected(table.id)}>
                        Live log
                      </Button>
                      <CdcActions table={table} onAct={(action) => act.mutate({ id: table.id, action })} isPending={act.isPending && act.variables.id === table.id} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {selected ? <LiveLog key={selected} id={selected} /> : null}
    </>
  );
}
