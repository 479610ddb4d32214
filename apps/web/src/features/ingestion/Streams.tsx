import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useEventStream } from '../../api/event-stream';
import type { paths } from '../../api/schema';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { WithCreateForm } from '../../components/CreateRoute';
import { ItemTabs } from '../../components/ItemTabs';
import { LagChart } from '../../components/LagChart';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { useConnectors } from '../../api/queries';
import { CheckboxField, ChoiceField, FormSubmit, NumberInput, TextAreaInput, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { useCurrentProject } from '../../project-context';

type Stream = paths['/api/v1/streams/{id}']['get']['responses'][200]['content']['application/json'];
type StreamBody = NonNullable<paths['/api/v1/streams']['post']['requestBody']>['content']['application/json'];
type Run = paths['/api/v1/streams/{id}/runs']['get']['responses'][200]['content']['application/json']['items'][number];
type Start = NonNullable<StreamBody['source']['start']>;
type Action = 'start' | 'stop' | 'pause' | 'delete';

/** Destinations that take streams, as the server checks. */
const SINK_KINDS = ['postgres', 'warehouse'];
const START_HELP: Record<Start, string> = {
  all: 'Everything the broker still holds, then new messages.',
  new: 'Only messages published from now on.',
  from_time: 'Messages published since a time.',
  from_sequence: 'Messages from a sequence number of the stream.',
};

/** The connector kinds that are message brokers and the start positions each takes, from the kinds' specs. */
function useBrokerKinds() {
  const kinds = useQuery({
    queryKey: ['connector-kinds'],
    queryFn: () => unwrap(api.GET('/api/v1/data-connectors/kinds')),
  });
  const brokers = new Map<string, Start[]>();
  for (const kind of kinds.data?.items ?? [])
    if (kind.capabilities.stream) brokers.set(kind.kind, kind.capabilities.stream.starts as Start[]);
  return brokers;
}

/** The steps typed as JSON: an array, or the reason it is not one. */
function parseSteps(text: string): { steps?: NonNullable<StreamBody['transforms']>; problem?: string } {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value)) return { problem: 'Transform steps: a JSON array of steps' };
    return { steps: value as NonNullable<StreamBody['transforms']> };
  } catch (error) {
    return { problem: `Transform steps: not valid JSON (${(error as Error).message})` };
  }
}

/**
 * Creates a stream in the current project: a broker source, the format of its messages, transform
 * steps, a destination table, batching and dead letters.
 */
function NewStream({
  project,
  projectName,
  onCreated,
}: {
  project: string;
  projectName: string;
  onCreated: () => void;
}) {
  const queries = useQueryClient();
  const brokers = useBrokerKinds();
  const connectors = useConnectors();
  const [source, setSource] = useState<string | undefined>();
  const [destination, setDestination] = useState<string | undefined>();
  const [stepsProblem, setStepsProblem] = useState<string | undefined>();
  const inProject = (kinds: string[]) =>
    (connectors.data?.items ?? []).filter((c) => c.project_id === project && kinds.includes(c.kind));
  const sources = inProject([...brokers.keys()]);
  const sourceKind = sources.find((c) => c.id === source)?.kind;
  const starts = (sourceKind && brokers.get(sourceKind)) || ['all'];
  const [start, setStart] = useState<Start | undefined>();
  const [format, setFormat] = useState<NonNullable<StreamBody['format']>['type']>('json');
  const [mode, setMode] = useState<'append' | 'upsert'>('append');
  const [deadLetter, setDeadLetter] = useState<'table' | 'broker'>('table');
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: StreamBody) => unwrap(api.POST('/api/v1/streams', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['streams'] });
      onCreated();
    },
  });
  const chosenStart = start && starts.includes(start) ? start : starts[0]!;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!source || !destination) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const number = (name: string) => (text(name) ? Number(text(name)) : undefined);
    const { steps, problem } = parseSteps(text('transforms'));
    setStepsProblem(problem);
    if (problem) return;
    create.mutate({
      project_id: project,
      name: text('name'),
      source_connector_id: source,
      source: {
        name: text('source_name'),
        ...(text('filter') ? { filter: text('filter') } : {}),
        ...(text('consumer') ? { consumer: text('consumer') } : {}),
        start: chosenStart,
        ...(chosenStart === 'from_time' && text('start_time')
          ? { start_time: new Date(text('start_time')).toISOString() }
          : {}),
        ...(chosenStart === 'from_sequence' && number('start_sequence')
          ? { start_sequence: number('start_sequence') }
          : {}),
      },
      format: { type: format, ...(text('record_path') ? { record_path: text('record_path') } : {}) },
      destination_connector_id: destination,
      table: text('table'),
      write_mode: mode,
      ...(mode === 'upsert'
        ? {
            key_columns: text('key_columns')
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean),
          }
        : {}),
      batch: {
        ...(number('max_rows') ? { max_rows: number('max_rows') } : {}),
        ...(number('max_latency_ms') ? { max_latency_ms: number('max_latency_ms') } : {}),
      },
      ...(number('max_deliveries') ? { max_deliveries: number('max_deliveries') } : {}),
      dead_letter: deadLetter === 'broker' ? { kind: 'broker', target: text('dead_letter_target') } : { kind: 'table' },
      ...(steps?.length ? { transforms: steps } : {}),
      start: form.get('start') === 'true',
    });
  };
  return (
    <Card id="new-stream" title="New stream">
      <Form key={formKey} onSubmit={submit}>
        <p className="muted">In project {projectName}.</p>
        <TextInput name="name" label="Name" isRequired />
        <fieldset>
          <legend>Source</legend>
          <ItemSelect
            label="Broker connector"
            description={`A message broker of the project (${[...brokers.keys()].join(', ')}).`}
            items={sources}
            value={source}
            onChange={setSource}
            empty="No message broker connector in this project"
          />
          <TextInput
            name="source_name"
            label="Stream, queue, topic or key"
            description="NATS: the JetStream stream; RabbitMQ: the queue; MQTT: the topic filter; Redis: the stream key."
            isRequired
          />
          {sourceKind === 'nats' ? (
            <TextInput name="filter" label="Subject filter" description="Optional: a subject within the stream." />
          ) : null}
          <TextInput
            name="consumer"
            label="Consumer name"
            description="Optional: the durable consumer, group or client id (svc_<stream id> when empty)."
          />
          <ChoiceField
            label="Start"
            value={chosenStart}
            onChange={setStart}
            choices={starts.map((s) => ({ value: s, label: s, description: START_HELP[s] }))}
          />
          {chosenStart === 'from_time' ? (
            <TextInput name="start_time" label="Start time (ISO 8601)" isRequired />
          ) : null}
          {chosenStart === 'from_sequence' ? (
            <NumberInput name="start_sequence" label="Start sequence" isRequired min={1} />
          ) : null}
          <ChoiceField
            label="Format"
            value={format}
            onChange={setFormat}
            orientation="horizontal"
            choices={[
              { value: 'json', label: 'JSON' },
              { value: 'ndjson', label: 'NDJSON' },
              { value: 'csv', label: 'CSV' },
              { value: 'text', label: 'text' },
            ]}
          />
          {format === 'json' || format === 'ndjson' ? (
            <TextInput
              name="record_path"
              label="Record path"
              description="Optional: a JSON path to the record or to an array of records, e.g. $.data.items."
            />
          ) : null}
        </fieldset>
        <TextAreaInput
          name="transforms"
          label="Transform steps (JSON)"
          rows={3}
          description={
            <>
              Optional: the steps pipelines take, applied to each message&apos;s records, e.g.{' '}
              <code>
                [{'{'}&quot;type&quot;: &quot;drop&quot;, &quot;columns&quot;: [&quot;secret&quot;]{'}'}]
              </code>
              . A message a step cannot apply to is dead-lettered with why.
            </>
          }
        />
        <fieldset>
          <legend>Destination</legend>
          <ItemSelect
            label="Destination connector"
            description="PostgreSQL or the warehouse."
            items={inProject(SINK_KINDS)}
            value={destination}
            onChange={setDestination}
            empty="No connector of these kinds in this project"
          />
          <TextInput name="table" label="Table" isRequired description="Created from the first messages." />
          <ChoiceField
            label="Write mode"
            value={mode}
            onChange={setMode}
            orientation="horizontal"
            choices={[
              { value: 'append', label: 'append' },
              { value: 'upsert', label: 'upsert' },
            ]}
          />
          {mode === 'upsert' ? (
            <TextInput name="key_columns" label="Key columns" description="Comma-separated." isRequired />
          ) : null}
        </fieldset>
        <fieldset>
          <legend>Delivery</legend>
          <NumberInput name="max_rows" label="Batch: most messages" min={1} defaultValue="1000" />
          <NumberInput name="max_latency_ms" label="Batch: most wait (ms)" min={10} defaultValue="500" />
          <NumberInput name="max_deliveries" label="Deliveries before dead-lettering" min={1} defaultValue="5" />
          <ChoiceField
            label="Dead letters"
            value={deadLetter}
            onChange={setDeadLetter}
            choices={[
              { value: 'table', label: 'kept in the list', description: 'Listed below with their reason, for retry.' },
              {
                value: 'broker',
                label: 'also published',
                description: 'Also to a subject or queue of the broker (NATS, RabbitMQ).',
              },
            ]}
          />
          {deadLetter === 'broker' ? (
            <TextInput name="dead_letter_target" label="Dead-letter subject or queue" isRequired />
          ) : null}
        </fieldset>
        <CheckboxField name="start" label="Start at once" defaultSelected />
        {stepsProblem ? (
          <p role="alert" className="error">
            {stepsProblem}
          </p>
        ) : null}
        <FormSubmit label="Create stream" error={create.error} isDisabled={create.isPending} />
      </Form>
    </Card>
  );
}

/** Live counters of one stream: the status route's events (SSE, the access token in the query). */
function LiveRun({ stream }: { stream: Stream }) {
  const [live, setLive] = useState<{ stream: Stream; run: Run | null } | undefined>();
  const state = useEventStream(`/api/v1/streams/${stream.id}/runs/stream`, {
    status: (data) => setLive(JSON.parse(data) as { stream: Stream; run: Run | null }),
  });
  const run = live?.run;
  const figures: Array<[string, string]> = run
    ? [
        ['Status', live.stream.status],
        ['Received', run.messages_received.toLocaleString()],
        ['Rows written', run.rows_written.toLocaleString()],
        ['Duplicates skipped', run.duplicates.toLocaleString()],
        ['Dead-lettered', run.dead_lettered.toLocaleString()],
        ['Bytes', run.bytes.toLocaleString()],
        ['Lag (messages)', run.lag_messages === null ? '—' : run.lag_messages.toLocaleString()],
        ['Latency', run.latency_seconds === null ? '—' : `${run.latency_seconds.toFixed(2)} s`],
        ['Last message', run.last_message_at ? new Date(run.last_message_at).toLocaleString() : '—'],
        ['Worker', run.worker],
      ]
    : [];
  return (
    <Card
      id="live-run"
      title={
        <>
          {stream.name}: live run <span className="muted">({state})</span>
        </>
      }
    >
      {live?.stream.last_error ? <p className="muted">Last error: {live.stream.last_error}</p> : null}
      {run ? (
        <dl className="figures" aria-live="polite">
          {figures.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="empty">No run yet{live ? ` (${live.stream.status})` : ''}.</p>
      )}
      <StreamLag id={stream.id} />
    </Card>
  );
}

/** The stream's lag (messages waiting at the broker) over the last hour, from the lag samples. */
function StreamLag({ id }: { id: string }) {
  const history = useQuery({
    queryKey: ['stream-lag', id],
    queryFn: () => unwrap(api.GET('/api/v1/streams/{id}/lag-history', { params: { path: { id } } })),
    refetchInterval: 10_000,
  });
  if (!history.data) return null;
  return (
    <LagChart
      what="Lag"
      unit="messages"
      points={history.data.items.map((p) => ({ at: p.at, value: p.lag_messages }))}
    />
  );
}

/** The dead letters of one stream, with retry. */
function DeadLetters({ stream }: { stream: Stream }) {
  const queries = useQueryClient();
  const letters = useQuery({
    queryKey: ['stream-dead-letters', stream.id],
    queryFn: () => unwrap(api.GET('/api/v1/streams/{id}/dead-letters', { params: { path: { id: stream.id } } })),
    refetchInterval: 3000,
  });
  const retry = useMutation({
    mutationFn: (deadLetterId: string) =>
      unwrap(
        api.POST('/api/v1/streams/{id}/dead-letters/{dead_letter_id}/retry', {
          params: { path: { id: stream.id, dead_letter_id: deadLetterId } },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['stream-dead-letters', stream.id] }),
  });
  return (
    <DataTable
      caption={`Dead letters of ${stream.name}`}
      rows={letters.data?.items}
      rowKey={(letter) => letter.id}
      pending={letters.isPending}
      error={letters.error ?? retry.error}
      empty="No dead letters."
      columns={[
        { header: 'Message', cell: (letter) => letter.message_id },
        { header: 'Reason', cell: (letter) => letter.reason },
        { header: 'Deliveries', cell: (letter) => String(letter.deliveries) },
        { header: 'Body', cell: (letter) => <code>{letter.payload.slice(0, 120)}</code> },
        {
          header: 'Retry asked',
          cell: (letter) => (letter.retry_requested_at ? new Date(letter.retry_requested_at).toLocaleString() : '—'),
        },
      ]}
      actions={(letter) => (
        <Button
          className="secondary"
          aria-label={`Retry message ${letter.message_id}`}
          onPress={() => retry.mutate(letter.id)}
          isDisabled={retry.isPending || letter.retry_requested_at !== null}
        >
          Retry
        </Button>
      )}
    />
  );
}

const calls: Record<Action, (id: string) => Promise<unknown>> = {
  start: (id) => unwrap(api.POST('/api/v1/streams/{id}/start', { params: { path: { id } } })),
  stop: (id) => unwrap(api.POST('/api/v1/streams/{id}/stop', { params: { path: { id } } })),
  pause: (id) => unwrap(api.POST('/api/v1/streams/{id}/pause', { params: { path: { id } } })),
  delete: (id) => unwrap(api.DELETE('/api/v1/streams/{id}', { params: { path: { id } } })),
};

/**
 * Streams of the current project: create one, start, pause and stop them, follow one's run live and
 * handle its dead letters.
 */
export function Streams() {
  const queries = useQueryClient();
  const { projectId, project, isLoading } = useCurrentProject();
  const streams = useQuery({
    queryKey: ['streams'],
    queryFn: () => unwrap(api.GET('/api/v1/streams')),
    refetchInterval: 3000,
  });
  // The open item is in the address (/streams/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/streams');
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Action }) => calls[action](id),
    onSuccess: (_result, { id, action }) => {
      if (action === 'delete' && id === selected) setSelected(undefined);
      void queries.invalidateQueries({ queryKey: ['streams'] });
    },
  });
  const inProject = streams.data?.items.filter((s) => s.project_id === projectId);
  const chosen = inProject?.find((s) => s.id === selected);
  return (
    <WithCreateForm
      base="/streams"
      label="New stream"
      back="Streams"
      isDisabled={!project}
      form={(done) =>
        project ? (
          <NewStream key={project.id} project={project.id} projectName={project.name} onCreated={done} />
        ) : isLoading ? null : (
          <p className="empty">No project to create a stream in.</p>
        )
      }
    >
      <DataTable
        caption="Streams"
        rows={inProject}
        rowKey={(stream) => stream.id}
        rowProps={(stream) => ({ 'aria-selected': stream.id === selected })}
        pending={streams.isPending}
        error={streams.error ?? act.error}
        empty="No streams yet."
        columns={[
          { header: 'Name', cell: (stream) => stream.name },
          { header: 'Source', cell: (stream) => stream.source.name },
          { header: 'Table', cell: (stream) => stream.table },
          {
            header: 'Status',
            cell: (stream) => (
              <>
                <span className={`status ${stream.status}`}>{stream.status}</span>
                {stream.last_error ? <div className="muted">{stream.last_error}</div> : null}
              </>
            ),
          },
        ]}
        actions={(stream) => {
          const pending = act.isPending && act.variables.id === stream.id;
          return (
            <div className="row">
              <Button
                className="secondary"
                aria-label={`Show the live run of ${stream.name}`}
                onPress={() => setSelected(stream.id)}
              >
                Live
              </Button>
              {stream.desired_state === 'stopped' || stream.status === 'failed' ? (
                <Button
                  className="secondary"
                  aria-label={`Start ${stream.name}`}
                  onPress={() => act.mutate({ id: stream.id, action: 'start' })}
                  isDisabled={pending}
                >
                  Start
                </Button>
              ) : (
                <>
                  {stream.paused_at ? (
                    <Button
                      className="secondary"
                      aria-label={`Resume ${stream.name}`}
                      onPress={() => act.mutate({ id: stream.id, action: 'start' })}
                      isDisabled={pending}
                    >
                      Resume
                    </Button>
                  ) : (
                    <Button
                      className="secondary"
                      aria-label={`Pause ${stream.name}`}
                      onPress={() => act.mutate({ id: stream.id, action: 'pause' })}
                      isDisabled={pending}
                    >
                      Pause
                    </Button>
                  )}
                  <Button
                    className="secondary"
                    aria-label={`Stop ${stream.name}`}
                    onPress={() => act.mutate({ id: stream.id, action: 'stop' })}
                    isDisabled={pending}
                  >
                    Stop
                  </Button>
                </>
              )}
              <DeleteButton
                name={stream.name}
                warning="Its runs and dead letters go too; the destination table stays."
                onConfirm={() => act.mutate({ id: stream.id, action: 'delete' })}
                isPending={pending}
              />
            </div>
          );
        }}
      />
      {chosen ? (
        <ItemTabs
          key={chosen.id}
          base="/streams"
          itemId={chosen.id}
          label={`Sections of ${chosen.name}`}
          tabs={[
            { id: 'live', title: 'Live run', content: () => <LiveRun stream={chosen} /> },
            { id: 'dead-letters', title: 'Dead letters', content: () => <DeadLetters stream={chosen} /> },
          ]}
        />
      ) : null}
    </WithCreateForm>
  );
}
