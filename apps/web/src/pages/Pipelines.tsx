import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../ErrorNotice';

/** Runs of a pipeline, polled while one is queued or running: the progress indication. */
function Runs({ pipelineId }: { pipelineId: string }) {
  const runs = useQuery({
    queryKey: ['pipeline-runs', pipelineId],
    queryFn: () => unwrap(api.GET('/api/v1/executions', { params: { query: { pipeline_id: pipelineId, limit: 5 } } })),
    refetchInterval: (query) => (query.state.data?.items.some((r) => r.status === 'queued' || r.status === 'running') ? 500 : 5000),
  });
  if (!runs.data?.items.length) return <p className="empty">Not run yet.</p>;
  return (
    <ul className="runs" aria-label="Latest runs">
      {runs.data.items.map((run) => (
        <li key={run.id}>
          <span className={`status ${run.status}`}>{run.status}</span> {run.rows_read.toLocaleString()} rows read, {run.rows_written.toLocaleString()} written
          {run.status === 'running' ? <progress aria-label="Running" /> : null}
          {run.error ? <div className="muted">{run.error}</div> : null}
        </li>
      ))}
    </ul>
  );
}

function PipelineDetail({ id, name }: { id: string; name: string }) {
  const preview = useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/etl/pipelines/{id}/preview', { params: { path: { id } }, body: { limit: 20 } })) });
  const run = useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/etl/pipelines/{id}/run', { params: { path: { id } } })) });
  return (
    <section className="card" aria-labelledby="pipeline-detail">
      <h2 id="pipeline-detail">{name}</h2>
      <div className="row">
        <Button className="secondary" onPress={() => preview.mutate()} isDisabled={preview.isPending}>
          Preview
        </Button>
        <Button onPress={() => run.mutate()} isDisabled={run.isPending}>
          Run now
        </Button>
      </div>
      <ErrorNotice error={preview.error ?? run.error} />
      {preview.data ? (
        <div className="table-wrap">
          <table>
            <caption>
              Preview: the first rows after the steps ({preview.data.pushdown ? 'a run pushes the steps into the source' : 'a run transforms in process'})
            </caption>
            <thead>
              <tr>
                {preview.data.columns.map((c) => (
                  <th scope="col" key={c.name}>
                    {c.name} <span className="muted">{c.type}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.data.rows.map((row, i) => (
                <tr key={i}>
                  {preview.data.columns.map((c) => (
                    <td key={c.name}>{row[c.name] === null ? '∅' : typeof row[c.name] === 'object' ? JSON.stringify(row[c.name]) : String(row[c.name])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h3>Runs</h3>
      <Runs pipelineId={id} />
    </section>
  );
}

export function Pipelines() {
  const pipelines = useQuery({ queryKey: ['pipelines'], queryFn: () => unwrap(api.GET('/api/v1/etl/pipelines')) });
  const [selected, setSelected] = useState<{ id: string; name: string } | undefined>();
  if (pipelines.isPending) return <p aria-busy="true">Loading…</p>;
  if (pipelines.error) return <ErrorNotice error={pipelines.error} />;
  if (pipelines.data.items.length === 0) return <p className="empty">No pipelines yet.</p>;
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Pipelines</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Streams</th>
              <th scope="col">Steps</th>
              <th scope="col">Destination</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pipelines.data.items.map((pipeline) => (
              <tr key={pipeline.id}>
                <td>{pipeline.name}</td>
                <td>{pipeline.sources.map((s) => s.name).join(', ')}</td>
                <td>{pipeline.transforms.map((t) => String(t['type'])).join(' → ') || '—'}</td>
                <td>
                  {pipeline.destination.table} ({pipeline.destination.mode})
                </td>
                <td>
                  <Button className="secondary" aria-label={`Open ${pipeline.name}`} onPress={() => setSelected({ id: pipeline.id, name: pipeline.name })}>
                    Open
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selected ? <PipelineDetail key={selected.id} {...selected} /> : null}
    </>
  );
}
