import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useItemRoute } from '../../navigation';
import { useCurrentProject } from '../../project-context';
import { Button } from 'react-aria-components';
import { api, unwrap, type JsonAnswer } from '../../api/client';
import { Card } from '../../components/Card';
import { WithCreateForm } from '../../components/CreateRoute';
import { RunProgress } from '../../components/RunProgress';
import { DataTable } from '../../components/DataTable';
import { ItemSelect } from '../../components/ItemSelect';
import { QueryState } from '../../components/QueryState';
import { RunsChart } from './RunsChart';
import { StartSync } from './StartSync';

type Status = 'queued' | 'running' | 'succeeded' | 'partially_failed' | 'failed' | 'cancelled';
const STATUSES: Status[] = ['queued', 'running', 'succeeded', 'partially_failed', 'failed', 'cancelled'];
type Kind = 'sync' | 'pipeline' | 'export' | 'model_run' | 'file_ingestion' | 'inbox';
const KINDS: Kind[] = ['sync', 'pipeline', 'export', 'model_run', 'file_ingestion', 'inbox'];
type LogLine = JsonAnswer<'/api/v1/executions/{id}/logs', 'get'>['items'][number];
/** The most log lines the server answers at once: a full page means more are waiting. */
const LOG_PAGE = 1000;

const isActive = (status: Status) => status === 'queued' || status === 'running';
const short = (id: string) => id.slice(0, 8);
const time = (at: string | null) => (at ? new Date(at).toLocaleString() : '—');

/** Milliseconds as "250 ms", "1.2 s" or "3 min 5 s". */
function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A byte count as B, KB, MB, GB or TB. */
function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A Select of one list filter: "All" or one of the values. */
function Filter<T extends string>({
  label,
  value,
  values,
  onChange,
}: {
  label: string;
  value: T | 'all';
  values: T[];
  onChange: (value: T | 'all') => void;
}) {
  const items = [{ id: 'all', name: 'All' }, ...values.map((v) => ({ id: v, name: v }))];
  return (
    <ItemSelect
      label={label}
      isRequired={false}
      items={items}
      value={value}
      onChange={(id) => onChange(id as T | 'all')}
    />
  );
}

/** The log lines of an execution, appended as they come: polled every second while it runs, once more when it has finished. */
function useLogLines(id: string, finished: boolean | undefined) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>();
  const after = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (finished === undefined) return;
    let stopped = false;
    let timer: number | undefined;
    const poll = async () => {
      let more = false;
      try {
        const page = await unwrap(
          api.GET('/api/v1/executions/{id}/logs', {
            params: { path: { id }, query: after.current ? { after_id: after.current } : {} },
          }),
        );
        if (stopped) return;
        const last = page.items[page.items.length - 1];
        if (last) {
          after.current = last.id;
          setLines((previous) => [...previous, ...page.items]);
        }
        more = page.items.length >= LOG_PAGE;
        setLoaded(true);
        setError(undefined);
      } catch (failure) {
        if (stopped) return;
        setError(failure);
      }
      if (more) void poll();
      else if (!finished) timer = window.setTimeout(() => void poll(), 1000);
    };
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [id, finished]);
  return { lines, loaded, error };
}

/** One execution: its counters and times polled while it runs, cancel or retry, and its log. */
function ExecutionDetail({ id, onOpen }: { id: string; onOpen: (id: string) => void }) {
  const queries = useQueryClient();
  const execution = useQuery({
    queryKey: ['execution', id],
    queryFn: () => unwrap(api.GET('/api/v1/executions/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? 1000 : false),
  });
  const cancel = useMutation({
    meta: { success: 'Cancel requested.' },
    mutationFn: () => unwrap(api.POST('/api/v1/executions/{id}/cancel', { params: { path: { id } } })),
    onSuccess: (updated) => {
      queries.setQueryData(['execution', id], updated);
      void queries.invalidateQueries({ queryKey: ['executions'] });
    },
  });
  const retry = useMutation({
    meta: { success: 'Retry started.' },
    mutationFn: () => unwrap(api.POST('/api/v1/executions/{id}/retry', { params: { path: { id } } })),
    onSuccess: (next) => {
      void queries.invalidateQueries({ queryKey: ['executions'] });
      onOpen(next.id);
    },
  });
  const run = execution.data;
  const log = useLogLines(id, run ? !isActive(run.status) : undefined);
  return (
    <Card id="execution-detail" title={`Execution ${short(id)}`}>
      <QueryState pending={execution.isPending} error={execution.error ?? cancel.error ?? retry.error} />
      {run ? (
        <>
          {isActive(run.status) ? <RunProgress run={run} /> : null}
          <div className="row">
            {isActive(run.status) ? (
              <Button
                className="secondary"
                onPress={() => cancel.mutate()}
                isDisabled={cancel.isPending || run.cancel_requested}
              >
                Cancel run
              </Button>
            ) : null}
            {run.status === 'failed' || run.status === 'partially_failed' || run.status === 'cancelled' ? (
              <Button onPress={() => retry.mutate()} isDisabled={retry.isPending}>
                Retry run
              </Button>
            ) : null}
          </div>
          <dl className="details">
            <dt>Status</dt>
            <dd>
              <span className={`status ${run.status}`}>{run.status}</span>
              {run.cancel_requested && isActive(run.status) ? <span className="muted"> (cancel requested)</span> : null}
            </dd>
            <dt>Kind</dt>
            <dd>{run.kind}</dd>
            <dt>Trigger</dt>
            <dd>{run.trigger ?? '—'}</dd>
            <dt>Attempts</dt>
            <dd>{run.attempts}</dd>
            <dt>Created</dt>
            <dd>{time(run.created_at)}</dd>
            <dt>Started</dt>
            <dd>{time(run.started_at)}</dd>
            <dt>Finished</dt>
            <dd>{time(run.finished_at)}</dd>
            <dt>Duration</dt>
            <dd>{duration(run.duration_ms)}</dd>
            <dt>Rows read</dt>
            <dd>{run.rows_read.toLocaleString()}</dd>
            <dt>Rows written</dt>
            <dd>{run.rows_written.toLocaleString()}</dd>
            <dt>Bytes read</dt>
            <dd>{bytes(run.bytes_read)}</dd>
            <dt>Bytes written</dt>
            <dd>{bytes(run.bytes_written)}</dd>
            <dt>Error</dt>
            <dd>{run.error ?? '—'}</dd>
          </dl>
        </>
      ) : null}
      <h3>Log</h3>
      <QueryState
        pending={!!run && !log.loaded && !log.error}
        error={log.error}
        empty={log.loaded && log.lines.length === 0 ? 'No log lines yet.' : undefined}
      />
      {/* A count is announced as lines arrive, not the lines themselves (a finished run can have a thousand). */}
      <p className="visually-hidden" role="status">
        {log.lines.length} log lines
      </p>
      <ol className="log" aria-label="Log of the run">
        {log.lines.map((line) => (
          <li key={line.id} className={`level-${line.level}`}>
            <time dateTime={line.ts}>{new Date(line.ts).toLocaleTimeString()}</time>{' '}
            <span className="level">{line.level}</span> {line.message}
            {Object.keys(line.fields).length ? (
              <>
                {' '}
                <code>{JSON.stringify(line.fields)}</code>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** Executions, newest first, filtered by status and kind and refreshed every 2 s; one opens in detail below. */
export function Executions() {
  const [status, setStatus] = useState<Status | 'all'>('all');
  const [kind, setKind] = useState<Kind | 'all'>('all');
  // The open execution is in the address (/executions/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/executions');
  const { projectId } = useCurrentProject();
  const executions = useQuery({
    queryKey: ['executions', projectId, status, kind],
    enabled: !!projectId,
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/executions', {
          params: {
            query: {
              project_id: projectId,
              ...(status === 'all' ? {} : { status }),
              ...(kind === 'all' ? {} : { kind }),
            },
          },
        }),
      ),
    refetchInterval: 2000,
  });
  return (
    <WithCreateForm
      base="/executions"
      label="Start a sync"
      back="Executions"
      isDisabled={!projectId}
      form={(done) => <StartSync onStarted={(id) => done(`/executions/${id}`)} />}
    >
      <div className="row">
        <Filter label="Status" value={status} values={STATUSES} onChange={setStatus} />
        <Filter label="Kind" value={kind} values={KINDS} onChange={setKind} />
      </div>
      {executions.data ? <RunsChart runs={executions.data.items} bytes={bytes} /> : null}
      <DataTable
        caption="Executions, newest first"
        read={executions}
        empty={`No executions${status === 'all' ? '' : ` with status ${status}`}${kind === 'all' ? '' : ` of kind ${kind}`}.`}
        columns={[
          { header: 'Kind', cell: (execution) => execution.kind },
          {
            header: 'Status',
            cell: (execution) => <span className={`status ${execution.status}`}>{execution.status}</span>,
          },
          { header: 'Started', cell: (execution) => time(execution.started_at) },
          { header: 'Rows written', cell: (execution) => execution.rows_written.toLocaleString() },
          { header: 'Error', cell: (execution) => execution.error ?? '' },
        ]}
        actions={(execution) => (
          <Button
            className="secondary"
            aria-label={`Details of ${execution.kind} run ${short(execution.id)}`}
            onPress={() => setSelected(execution.id)}
          >
            Details
          </Button>
        )}
      />
      {selected ? <ExecutionDetail key={selected} id={selected} onOpen={setSelected} /> : null}
    </WithCreateForm>
  );
}
